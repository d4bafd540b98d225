"""``rulebook lab`` and ``rulebook app`` listen on this machine only and ask for a fresh token, whatever the user's
Jupyter, Voila or IdentityProvider config says; they print the address with its token; SIGTERM, SIGHUP and Ctrl-C
stop them and every process they started. Each server here runs on a free port and is always stopped. ``rulebook
lab`` opens a working copy of the notebooks that keeps a person's edits, never the rulebook's own files."""

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

import psutil
import pytest

from rulebook import cli, serve, working_copy
from rulebook.cli import lab_command, notebooks_dir
from tests.helpers import free_port

needs_proc = pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="reads listening sockets from /proc")
KNOWN = "known-token-from-the-environment"
ROOT = Path(__file__).resolve().parent.parent


def _snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every file under ``folder`` (checkpoints too, not compiled Python), with its modification time and bytes."""
    return {
        path.relative_to(folder).as_posix(): (path.stat().st_mtime_ns, path.read_bytes())
        for path in sorted(folder.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


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


def test_the_command_names_the_address_and_a_token(tmp_path):
    command = lab_command(8888, tmp_path)
    assert command[1:4] == ["-m", "rulebook.serve", "lab"]  # the launcher that reads no user config
    assert "--ServerApp.ip=127.0.0.1" in command and "--port=8888" in command
    token = [part for part in command if part.startswith("--IdentityProvider.token=")]
    assert len(token) == 1 and len(token[0].split("=", 1)[1]) >= 32
    assert f"--ServerApp.root_dir={tmp_path}" in command  # the working copy, never the shipped notebooks
    assert "--IdentityProvider.token=abc" in lab_command(None, tmp_path, token="abc")
    assert ("--allow-root" in command) == (os.geteuid() == 0)  # JupyterLab refuses root without it


@needs_proc
def test_rulebook_lab_ignores_a_hostile_config_and_prints_its_address_with_the_token(tmp_path):
    env, cwd = hostile(tmp_path)
    port = free_port()
    before = set(_snapshot(notebooks_dir()))  # names only: the bytes are compared where no server runs, below
    copy = tmp_path / "copy"
    running = Running(["lab", "--port", str(port), "--dir", str(copy)], env, cwd)
    try:
        url = running.address()
        token = url.partition("?token=")[2]
        assert url == f"http://127.0.0.1:{port}/lab?token={token}" and len(token) == 48 and token != KNOWN
        assert _listening(port) == ["0100007F"]  # 127.0.0.1 only, not 0.0.0.0
        assert _request(port, "GET", "/api/contents")[0] == 403  # no token: refused
        assert _request(port, "GET", f"/api/contents?token={KNOWN}")[0] == 403  # JUPYTER_TOKEN is not the token
        status, _, listing = _request(port, "GET", f"/api/contents?token={token}")
        assert status == 200  # the working copy is what it serves
        listed = {item["name"] for item in json.loads(listing)["content"]}
        assert listed >= {"index.ipynb", *(name for name in before if name.endswith(".ipynb") and "/" not in name)}
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
        assert not [path.name for path in copy.iterdir() if path.name.startswith("Untitled")]  # none was created
        stopped_cleanly(running, port, signal.SIGTERM)
    finally:
        running.stop()
    assert set(_snapshot(notebooks_dir())) == before  # no checkpoint, no new notebook among the shipped ones


@needs_proc
def test_rulebook_app_ignores_a_hostile_config_and_prints_its_address_with_the_token(tmp_path):
    env, cwd = hostile(tmp_path)
    port = free_port()
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
def test_stopping_the_command_stops_its_server_and_kernels(args, how, tmp_path):
    port = free_port()
    folder = ["--dir", str(tmp_path)] if args[0] == "lab" else []
    running = Running([*args, "--port", str(port), *folder])
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
                f"rulebook {argv[0]}: --port {port}: that port is in use on 127.0.0.1{serve._holder(port)}; "
                "choose another"
            )
    for argv in (["lab", "--ip", "example.org"], ["app", "claim", "--max-kernels", "0"]):
        with pytest.raises(SystemExit) as refused:
            cli.main(argv)
        assert refused.value.code == 2 and len(capsys.readouterr().err.strip().splitlines()) == 1


# --- the working copy `rulebook lab` opens (issues 23.1, 25.7) ---------------------------------------------------


def _edit(path: Path, source: str) -> None:
    """A person's edit of a notebook: its first cell's source."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    notebook["cells"][0]["source"] = source
    path.write_text(json.dumps(notebook, indent=1), encoding="utf-8")


def _run_outputs(path: Path) -> None:
    """What running a notebook in JupyterLab writes: outputs, execution counts, kernel metadata (not an edit)."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["execution_count"] = 1
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "ran\n"}]
    notebook["metadata"]["language_info"] = {"name": "python", "version": "3.12.0"}
    path.write_text(json.dumps(notebook, indent=1), encoding="utf-8")


@pytest.fixture
def no_server(monkeypatch):
    """``rulebook lab`` up to the server's start: the command it would run is recorded, nothing is started."""
    started: list[list[str]] = []

    def supervise(command, **_):
        started.append(list(command))
        return 0

    monkeypatch.setattr(serve, "supervise", supervise)
    return started


def test_rulebook_lab_copies_the_notebooks_then_keeps_an_edited_one_and_never_writes_the_package(
    tmp_path, no_server, capsys
):
    shipped = notebooks_dir()
    package = Path(cli.__file__).resolve().parent
    before, package_before = _snapshot(shipped), _snapshot(package)
    folder = tmp_path / "class"
    names = sorted(name for name in before if "/" not in name and not name.startswith("."))
    assert cli.main(["lab", "--dir", str(folder), "--port", str(free_port())]) == 0
    said = capsys.readouterr().out
    assert f"Your working copy of the notebooks: {folder}" in said and f"copied {len(names)} from the rulebook" in said
    assert f"--ServerApp.root_dir={folder}" in no_server[-1]  # JupyterLab opens the copy
    for name in names:
        assert (folder / name).read_bytes() == (shipped / name).read_bytes(), name

    _edit(folder / "claim.ipynb", "# my own introduction for the class\n")
    edited = (folder / "claim.ipynb").read_bytes()
    _run_outputs(folder / "index.ipynb")
    (folder / "kingdom_builder.ipynb").unlink()
    assert cli.main(["lab", "--dir", str(folder), "--port", str(free_port())]) == 0
    said = capsys.readouterr().out
    assert (folder / "claim.ipynb").read_bytes() == edited  # the edit is kept
    assert "kept with your edits: claim.ipynb" in said and "--fresh" in said
    assert "copied 1 from the rulebook: kingdom_builder.ipynb" in said
    assert "ran" in (folder / "index.ipynb").read_text()  # a run notebook is the shipped one still: left as it is

    assert cli.main(["lab", "--dir", str(folder), "--port", str(free_port()), "--fresh"]) == 0
    said = capsys.readouterr().out
    (backup,) = folder.glob("claim-edited-*.ipynb")
    assert backup.read_bytes() == edited and f"your edited version is now {backup.name}" in said
    assert (folder / "claim.ipynb").read_bytes() == (shipped / "claim.ipynb").read_bytes()
    assert _snapshot(shipped) == before and _snapshot(package) == package_before  # nothing of the rulebook written


def test_a_notebook_not_edited_follows_the_rulebook_and_an_edited_one_stays(tmp_path):
    source, folder = tmp_path / "shipped", tmp_path / "copy"
    source.mkdir()
    for name in ("a.ipynb", "b.ipynb", "c.ipynb"):
        (source / name).write_bytes((notebooks_dir() / "index.ipynb").read_bytes())
    (source / "images").mkdir()
    (source / "images" / "map.svg").write_text("<svg/>")  # a file a notebook shows beside it is copied too
    first = working_copy.prepare(folder, source=source)
    assert first.copied == ["a.ipynb", "b.ipynb", "c.ipynb", "images/map.svg"]
    assert (folder / "images" / "map.svg").read_text() == "<svg/>"
    _edit(folder / "a.ipynb", "# mine\n")
    _run_outputs(folder / "b.ipynb")  # run, not edited
    for name in ("a.ipynb", "b.ipynb", "c.ipynb"):
        _edit(source / name, "# the rulebook's new version\n")  # the rulebook was updated (a new wheel, a pull)
    shipped = _snapshot(source)
    second = working_copy.prepare(folder, source=source)
    assert (
        second.kept == ["a.ipynb"] and second.updated == ["b.ipynb", "c.ipynb"] and second.current == ["images/map.svg"]
    )
    assert "# mine" in (folder / "a.ipynb").read_text()
    for name in ("b.ipynb", "c.ipynb"):
        assert (folder / name).read_bytes() == (source / name).read_bytes()
    third = working_copy.prepare(folder, source=source)  # an edited notebook stays edited
    assert third.kept == ["a.ipynb"] and not third.updated and not third.copied
    assert _snapshot(source) == shipped


def test_rulebook_lab_refuses_a_folder_inside_the_rulebook_in_one_line(tmp_path, no_server, capsys):
    shipped = notebooks_dir()
    package = Path(cli.__file__).resolve().parent
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    for folder in (shipped, shipped / "copy", package, package / "notebooks", a_file):
        with pytest.raises(SystemExit) as refused:
            cli.main(["lab", "--dir", str(folder), "--port", str(free_port())])
        error = capsys.readouterr().err.strip()
        assert refused.value.code == 2 and len(error.splitlines()) == 1 and error.startswith("rulebook lab: --dir")
    assert not no_server and not (shipped / "copy").exists() and not (package / "notebooks").exists()
    assert a_file.read_text() == "mine"


def test_rulebook_lab_by_default_keeps_the_copy_in_the_home_folder(tmp_path, no_server, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["lab", "--port", str(free_port())]) == 0
    folder = tmp_path / working_copy.FOLDER_NAME
    assert (folder / "index.ipynb").is_file() and f"--ServerApp.root_dir={folder}" in no_server[-1]
    assert f"Your working copy of the notebooks: {folder}" in capsys.readouterr().out


def test_make_lab_opens_a_git_ignored_copy_never_the_checkouts_notebooks():
    if not (ROOT / "Makefile").is_file() or not (ROOT / ".git").exists():
        pytest.skip("needs the checkout (its Makefile and git)")
    recipe = subprocess.run(
        ["make", "-n", "--no-print-directory", "-C", str(ROOT), "lab"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "MAKEFLAGS": ""},
    ).stdout
    (line,) = [line for line in recipe.splitlines() if "rulebook lab" in line]
    arguments = line.split()
    assert "--dir" in arguments, line
    folder = (ROOT / arguments[arguments.index("--dir") + 1]).resolve()
    for protected in (ROOT / "notebooks", ROOT / "rulebook"):
        assert not folder.is_relative_to(protected.resolve()), line
    ignored = subprocess.run(
        ["git", "-C", str(ROOT), "check-ignore", "-q", str(folder / "meetjesland.ipynb")], timeout=60
    )
    assert ignored.returncode == 0, f"{folder} is not git-ignored: its autosaved notebooks would show in git status"
