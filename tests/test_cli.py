"""``rulebook lab`` and ``rulebook app`` listen on this machine only and ask for a fresh token, whatever the user's
Jupyter, Voila or IdentityProvider config says; they print the address with its token; SIGTERM, SIGHUP and Ctrl-C
stop them and every process they started. Each server here runs on a free port and is always stopped."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from rulebook.cli import lab_command, notebooks_dir

psutil = pytest.importorskip("psutil")
needs_proc = pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="reads listening sockets from /proc")
KNOWN = "known-token-from-the-environment"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _listening(port: int) -> list[str]:
    """Local addresses (hex, as /proc shows them) that listen on ``port``."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        with open(table) as lines:
            for line in list(lines)[1:]:
                local, state = line.split()[1], line.split()[3]
                address, hex_port = local.split(":")
                if state == "0A" and int(hex_port, 16) == port:
                    found.append(address)
    return found


def _request(port: int, method: str, path: str, headers: dict | None = None, body: bytes | None = None):
    """One request, redirects not followed: (status, headers, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, answer.headers, answer.read()
    finally:
        connection.close()


def _cookies(headers) -> str:
    """The cookies a response sets, as a Cookie header."""
    return "; ".join(value.split(";", 1)[0] for value in headers.get_all("Set-Cookie") or [])


def hostile(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An environment and a working folder whose every Jupyter config asks for no token, every address and no XSRF
    or origin check: in $JUPYTER_CONFIG_DIR, a $JUPYTER_CONFIG_PATH folder and the working folder; JUPYTER_TOKEN set."""
    server = {
        "ServerApp": {
            "ip": "0.0.0.0",
            "token": "",
            "disable_check_xsrf": True,
            "allow_origin": "*",
            "allow_credentials": True,
            "allow_remote_access": True,
            "tornado_settings": {"disable_check_xsrf": True},
        },
        "IdentityProvider": {"token": ""},
    }
    voila = {
        "Voila": {
            "token": "",
            "ip": "0.0.0.0",
            "tornado_settings": {"disable_check_xsrf": True, "allow_origin": "*"},
        },
        "IdentityProvider": {"token": ""},
        "VoilaConfiguration": {"show_tracebacks": True},
    }
    folders = [tmp_path / "config", tmp_path / "config-path", tmp_path / "cwd"]
    for folder in folders:
        folder.mkdir()
        for name in ("jupyter_server_config", "jupyter_lab_config", "jupyter_config", "jupyter_notebook_config"):
            (folder / f"{name}.json").write_text(json.dumps(server))
        (folder / "voila.json").write_text(json.dumps(voila))
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(folders[0]),
        "JUPYTER_CONFIG_PATH": str(folders[1]),
        "JUPYTER_TOKEN": KNOWN,
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
    }
    return env, folders[2]


class Running:
    """``python -m rulebook.cli ARGS`` started in its own session; its stdout collected line by line."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> None:
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "rulebook.cli", *args],
            env=env or {**os.environ},
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def address(self, seconds: float = 120) -> str:
        """The address the command prints once its server answers."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for line in self.lines:
                found = re.search(r"is ready: open (http://\S+)", line)
                if found:
                    return found.group(1)
            if self.process.poll() is not None:
                raise AssertionError(f"the command ended with {self.process.returncode}: {self.lines}")
            time.sleep(0.2)
        raise AssertionError(f"no address printed within {seconds} s: {self.lines}")

    def descendants(self, kernels: int = 0, seconds: float = 90) -> list:
        """Every process started under the command, once ``kernels`` kernels are among them."""
        deadline = time.monotonic() + seconds
        while True:
            found = psutil.Process(self.process.pid).children(recursive=True)
            running = [p for p in found if _is_kernel(p)]
            if len(running) >= kernels or time.monotonic() > deadline:
                return found
            time.sleep(0.3)

    def stop(self) -> None:
        if self.process.poll() is None:
            for process in psutil.Process(self.process.pid).children(recursive=True):
                with _gone():
                    process.kill()
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


class _gone:
    def __enter__(self):
        return self

    def __exit__(self, kind, *_):
        return kind is not None and issubclass(kind, psutil.Error)


def _is_kernel(process) -> bool:
    with _gone():
        return any("ipykernel" in part for part in process.cmdline())
    return False


def stopped_cleanly(running: Running, port: int, how: int) -> None:
    """Send ``how`` to the command: it ends, every process it started ends with it, and the port is free."""
    processes = running.descendants()
    assert processes, "the command started its server"
    running.process.send_signal(how)
    running.process.wait(timeout=40)
    gone, alive = psutil.wait_procs(processes, timeout=30)
    assert not alive, [process.pid for process in alive]
    deadline = time.monotonic() + 10
    while _listening(port) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _listening(port) == []


def test_the_command_names_the_address_and_a_token():
    command = lab_command(8888)
    assert command[1:4] == ["-m", "rulebook.serve", "lab"]  # the launcher that reads no user config
    assert "--ServerApp.ip=127.0.0.1" in command and "--port=8888" in command
    token = [part for part in command if part.startswith("--IdentityProvider.token=")]
    assert len(token) == 1 and len(token[0].split("=", 1)[1]) >= 32
    assert f"--ServerApp.root_dir={notebooks_dir()}" in command
    assert "--IdentityProvider.token=abc" in lab_command(None, token="abc")
    assert ("--allow-root" in command) == (os.geteuid() == 0)  # JupyterLab refuses root without it


@needs_proc
def test_rulebook_lab_ignores_a_hostile_config_and_prints_its_address_with_the_token(tmp_path):
    env, cwd = hostile(tmp_path)
    port = _free_port()
    before = set(os.listdir(notebooks_dir()))
    running = Running(["lab", "--port", str(port)], env, cwd)
    try:
        url = running.address()
        token = url.partition("?token=")[2]
        assert url == f"http://127.0.0.1:{port}/lab?token={token}" and len(token) == 48 and token != KNOWN
        assert _listening(port) == ["0100007F"]  # 127.0.0.1 only, not 0.0.0.0
        assert _request(port, "GET", "/api/contents")[0] == 403  # no token: refused
        assert _request(port, "GET", f"/api/contents?token={KNOWN}")[0] == 403  # JUPYTER_TOKEN is not the token
        assert _request(port, "GET", f"/api/contents?token={token}")[0] == 200
        status, headers, _ = _request(port, "GET", urlsplit(url).path + "?" + urlsplit(url).query)
        assert status == 200
        cookie = _cookies(headers)
        assert "username-127-0-0-1" in cookie
        for origin in ("http://evil.example", f"http://127.0.0.1:{port}"):  # cross-site; same site without _xsrf
            headers = {"Cookie": cookie, "Origin": origin, "Content-Type": "application/json"}
            status, answer, _ = _request(port, "POST", "/api/contents", headers, b'{"type": "notebook"}')
            assert status in (403, 404), (origin, status)
            assert answer.get("Access-Control-Allow-Origin") in (None, "")
        preflight = {"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"}
        assert _request(port, "OPTIONS", "/api/contents", preflight)[1].get("Access-Control-Allow-Origin") in (None, "")
        assert set(os.listdir(notebooks_dir())) == before  # no notebook was created
        stopped_cleanly(running, port, signal.SIGTERM)
    finally:
        running.stop()
        for name in set(os.listdir(notebooks_dir())) - before:
            if name.startswith("Untitled"):
                os.remove(notebooks_dir() / name)


@needs_proc
def test_rulebook_app_ignores_a_hostile_config_and_prints_its_address_with_the_token(tmp_path):
    env, cwd = hostile(tmp_path)
    port = _free_port()
    running = Running(["app", "claim", "--port", str(port)], env, cwd)
    try:
        url = running.address()
        token = url.partition("?token=")[2]
        assert url == f"http://127.0.0.1:{port}/?token={token}" and len(token) == 48 and token != KNOWN
        assert _listening(port) == ["0100007F"]
        for path in ("/", f"/?token={KNOWN}"):
            assert _request(port, "GET", path)[0] in (302, 403), path  # to the login page, never the app
        status, headers, page = _request(port, "GET", f"/?token={token}")
        assert status == 200 and b"<title>Claim" in page
        kernel = re.search(rb'"kernelId": "([0-9a-f-]{36})"', page).group(1).decode()
        cookie = _cookies(headers)
        assert "_xsrf=" in cookie  # the page's close beacon sends it (see test_voila_app)
        login = "; ".join(part for part in cookie.split("; ") if not part.startswith("_xsrf="))
        for origin in ("http://evil.example", f"http://127.0.0.1:{port}"):  # cross-site; same site without _xsrf
            forged = {"Cookie": login, "Origin": origin, "Content-Type": "application/x-www-form-urlencoded"}
            status, _, _ = _request(port, "POST", f"/voila/api/shutdown/{kernel}", forged, b"")
            assert status in (403, 404), (origin, status)  # the login cookie alone does not stop the kernel
        assert _request(port, "GET", f"/api/kernels/{kernel}?token={token}")[0] == 200
        running.descendants(kernels=2)
        stopped_cleanly(running, port, signal.SIGTERM)
    finally:
        running.stop()


@needs_proc
@pytest.mark.parametrize(
    "args, how",
    [(["lab"], signal.SIGINT), (["app", "ab_die_post"], signal.SIGHUP), (["lab"], signal.SIGKILL)],
    ids=["lab, Ctrl-C", "app, SIGHUP", "lab, the command killed"],
)
def test_stopping_the_command_stops_its_server_and_kernels(args, how):
    port = _free_port()
    running = Running([*args, "--port", str(port)])
    try:
        running.address()
        running.descendants(kernels=1 if args[0] == "app" else 0)
        stopped_cleanly(running, port, how)
    finally:
        running.stop()


def test_a_port_in_use_or_an_address_that_is_not_one_is_refused_in_one_line(capsys):
    from rulebook import cli

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for argv in (["lab", "--port", str(port)], ["app", "claim", "--port", str(port)]):
            with pytest.raises(SystemExit) as refused:
                cli.main(argv)
            assert refused.value.code == 2
            assert capsys.readouterr().err.strip() == (
                f"rulebook {argv[0]}: --port {port}: that port is in use on 127.0.0.1; choose another"
            )
    for argv in (["lab", "--ip", "example.org"], ["app", "claim", "--max-kernels", "0"]):
        with pytest.raises(SystemExit) as refused:
            cli.main(argv)
        assert refused.value.code == 2 and len(capsys.readouterr().err.strip().splitlines()) == 1
