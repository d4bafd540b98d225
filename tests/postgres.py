"""A pytest plugin that starts Debian's PostgreSQL for the tests: ``postgres_url``, one server per test process.

Each process (each pytest-xdist worker) makes its own data directory and socket directory and listens on a unix
socket only (``listen_addresses=''``), so two workers never share a server, a port or a file. PostgreSQL refuses
to run as root, so as root (CI) the server runs as Debian's ``postgres`` user. Use it with
``pytest_plugins = ["tests.postgres"]`` in a test module.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest


def find_initdb() -> Path | None:
    """Debian's newest ``initdb`` (the postgresql package installs it off PATH, under /usr/lib/postgresql)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(Path(path).parts[-3]))
    return Path(found[-1]) if found else None


def free_port() -> int:
    """A port no process listens on now; it only names the socket file here, in a directory of our own."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _as_server_user(command: list[str]) -> list[str]:
    """``command`` as the ``postgres`` user when we are root (the server refuses root), else as ourselves."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The address of a PostgreSQL server started for this test process, stopped at its end."""
    initdb = find_initdb()
    if initdb is None:
        pytest.skip("Debian's postgresql is not installed (no /usr/lib/postgresql/*/bin/initdb)")
    if os.geteuid() == 0 and (shutil.which("runuser") is None or _user_missing("postgres")):
        pytest.skip("running as root, and PostgreSQL refuses root: needs runuser and the postgres user")
    bin_dir = initdb.parent
    # in /tmp, not pytest's basetemp: that is private to root (mode 0700), and the postgres user must reach it
    directory = Path(tempfile.mkdtemp(prefix="rulebook-pg-"))
    if os.geteuid() == 0:
        shutil.chown(directory, user="postgres", group="postgres")
    data, log, port = directory / "data", directory / "server.log", free_port()
    options = f"-k {directory} -p {port} -c listen_addresses=''"
    try:
        subprocess.run(
            _as_server_user(
                [str(initdb), "-D", str(data), "-U", "postgres", "-A", "trust", "--no-locale", "-E", "UTF8"]
            ),
            check=True,
            capture_output=True,
            timeout=120,
        )
        subprocess.run(
            _as_server_user([str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "start"]),
            check=True,
            capture_output=True,
            timeout=120,
        )
    except subprocess.CalledProcessError as error:
        text = log.read_text(errors="replace") if log.exists() else ""
        shutil.rmtree(directory, ignore_errors=True)
        pytest.fail(f"PostgreSQL did not start: {error.stderr.decode(errors='replace')}\n{text}")
    try:
        _wait_until_ready(bin_dir, directory, port)
        yield f"postgresql://postgres@/postgres?host={directory}&port={port}"
    finally:
        subprocess.run(
            _as_server_user([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(directory, ignore_errors=True)


def _user_missing(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return True
    return False


def _wait_until_ready(bin_dir: Path, directory: Path, port: int) -> None:
    """Wait (up to 30 s) until the server accepts connections."""
    ready = bin_dir / "pg_isready"
    command = [str(ready if ready.exists() else "pg_isready"), "-q", "-h", str(directory), "-p", str(port)]
    deadline = time.monotonic() + 30
    while subprocess.run(command, capture_output=True).returncode != 0:
        if time.monotonic() > deadline:
            pytest.fail(f"PostgreSQL on {directory} port {port} did not accept connections within 30 s")
        time.sleep(0.1)


@pytest.fixture
def postgres_database(postgres_url: str) -> Iterator[str]:
    """A new, empty database on this process's PostgreSQL server, dropped after the test."""
    import psycopg

    name = f"t_{uuid.uuid4().hex}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    yield postgres_url.replace("@/postgres?", f"@/{name}?")
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
