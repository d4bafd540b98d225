"""A plain ``pip install`` of the wheel works outside the checkout (issue 23.1): the wheel holds everything the
package reads (board files, the notebooks with the rules text, templates, style sheet, JavaScript, exercises) and
declares every game of the registry as an entry point (how an installed rulebook finds its games).

The install test puts the wheel in a fresh venv and, from an empty folder, builds every game's board and app, serves
each game with ``rulebook app``, and opens ``rulebook lab`` on a working copy of the notebooks in a folder of its own
(never inside the installed package), from which every notebook runs. The venv gets its dependencies without
downloading them: it is made by this interpreter's ``venv`` module (so on the same base Python, without its system
site-packages), and a ``.pth`` file in its site-packages names a folder of links to every entry of this
interpreter's site-packages except what the rulebook distribution put there (its RECORD: the editable finder, its
dist-info, a copy of the board files). The dependencies' data files (Voila's templates, the widgets' extensions) are
linked where pip would have put them, ``<venv>/share/jupyter`` and ``<venv>/etc/jupyter``. Nothing of the checkout
is on the venv's path, so the rulebook it runs is the wheel's.
"""

from __future__ import annotations

import configparser
import json
import os
import queue
import re
import signal
import site
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path, PurePosixPath

import pytest

from rulebook import registry
from tests.soak import SOAK

ROOT = Path(__file__).resolve().parent.parent
GAMES = list(registry.games())
JUNK = ("__pycache__", ".ipynb_checkpoints")
ADDRESS = re.compile(r"https?://(?:127\.0\.0\.1|localhost):\d+/\S*[?&]token=[0-9A-Za-z_-]{16,}")
PLACES = {"rulebook": "rulebook", "graphs": "rulebook/graphs", "notebooks": "rulebook/notebooks"}  # checkout: wheel
SERVE_TIMEOUT = 240  # seconds until `rulebook app` prints its address: a kernel starts and runs the app first

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the install test links the dependencies (POSIX)")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("dist")
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(folder), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    (built,) = folder.glob("rulebook-*.whl")
    return built


def _shipped(folder: str) -> list[str]:
    """The files of a checkout folder that the wheel must carry (not caches or checkpoints), as POSIX paths."""
    files = (path for path in (ROOT / folder).rglob("*") if path.is_file())
    return sorted(
        path.relative_to(ROOT / folder).as_posix()
        for path in files
        if not any(part in JUNK for part in path.parts) and path.suffix != ".pyc"
    )


def test_wheel_contains_the_package_and_every_board_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for board in (ROOT / "graphs").rglob("*.json"):
        assert f"rulebook/graphs/{board.relative_to(ROOT / 'graphs').as_posix()}" in names
    assert "rulebook/meetjesland/rules.py" in names and "rulebook/core.py" in names
    (entry_points,) = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
    declared = configparser.ConfigParser(delimiters=("=",))
    declared.optionxform = str  # entry-point names keep their case
    declared.read_string(zipfile.ZipFile(wheel).read(entry_points).decode())
    games = dict(declared[registry.GROUP])
    assert games == {name: f"{game.module}.game:GAME" for name, game in registry.games().items()}
    for reference in games.values():
        assert f"{reference.partition(':')[0].replace('.', '/')}.py" in names


def test_wheel_holds_every_file_the_package_reads_and_no_clutter(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder, inside in PLACES.items():
        missing = [path for path in _shipped(folder) if f"{inside}/{path}" not in names]
        assert not missing, f"the wheel lacks {folder}/ files: {missing}"
    for game in registry.games().values():  # what the registry names, where the package looks for it
        assert f"rulebook/notebooks/{game.rules}" in names
        assert f"rulebook/teach/exercises/{game.exercises}" in names
    for name in ("style.css", "board.js", "chart.js", "rule_text.js", "rules_panel.js", "save_button.js"):
        assert f"rulebook/view/{name}" in names
    clutter = [name for name in names if any(part in JUNK for part in PurePosixPath(name).parts)]
    assert not clutter and not [name for name in names if name.endswith(".pyc")]


# --- a fresh venv with the wheel, from an empty folder -----------------------------------------------------------


@dataclass(frozen=True)
class Installed:
    python: Path
    bin: Path
    venv: Path
    empty: Path
    env: dict[str, str]


def _rulebooks_own_entries() -> set[str]:
    """The top-level names the installed rulebook distribution put in site-packages (RECORD), editable or not."""
    try:
        files = metadata.distribution("rulebook").files or []
    except metadata.PackageNotFoundError:
        return set()
    return {PurePosixPath(str(file)).parts[0] for file in files}


def _link_dependencies(folder: Path) -> None:
    """Links to every entry of this interpreter's site-packages but the rulebook's own and the .pth files (which a
    folder named in a .pth does not run anyway)."""
    own = _rulebooks_own_entries()
    folder.mkdir()
    for directory in site.getsitepackages():
        for entry in sorted(Path(directory).iterdir()):
            skip = entry.name in own or entry.suffix == ".pth" or entry.name.startswith("__editable__")
            if not skip and not (folder / entry.name).exists():
                (folder / entry.name).symlink_to(entry)


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Installed:
    base = tmp_path_factory.mktemp("fresh")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    _link_dependencies(base / "dependencies")
    (Path(purelib) / "rulebook-test-dependencies.pth").write_text(f"{base / 'dependencies'}\n", encoding="utf-8")
    for data in ("share/jupyter", "etc/jupyter"):
        if (Path(sys.prefix) / data).is_dir():
            (venv / data).parent.mkdir(parents=True, exist_ok=True)
            (venv / data).symlink_to(Path(sys.prefix) / data)
    # the venv's own pytest (the notebooks' run) must not take the outer run's options or plugins (PYTEST_ADDOPTS)
    skipped = ("PYTHON", "COVERAGE_", "VIRTUAL", "PYTEST_ADDOPTS")
    env = {key: value for key, value in os.environ.items() if not key.startswith(skipped)}
    env |= {"PYTHONNOUSERSITE": "1", "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", str(wheel)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    empty = base / "empty"
    empty.mkdir()
    return Installed(python, venv / "bin", venv, empty, env)


BUILD_EVERYTHING = """
import json, sys
import rulebook
from rulebook import boards, exercises, registry, rules_text
from rulebook.app import App

found = {"package": rulebook.__file__, "path": sys.path, "games": {}}
found["notebooks"] = sorted(path.name for path in rules_text.notebooks_dir().glob("*.ipynb"))
found["folders"] = [str(rules_text.notebooks_dir()), str(boards.graphs_dir()), str(exercises.data_dir())]
for name, game in registry.games().items():
    board = game.board_class()(game.new_state(game.default_players, 1), seed=1, computer=dict(game.default_computer))
    explorer = game.explorer_class()
    found["games"][name] = {
        "board": type(board).__name__,
        "explorer": type(explorer(board)).__name__ if explorer else None,
        "app": type(App(name)).__name__,
        "paragraphs": len(rules_text.paragraphs(name)),
        "exercises": len(exercises.exercises(name)),
    }
print(json.dumps(found))
"""


def test_the_installed_wheel_builds_every_board_and_app_from_an_empty_folder(installed):
    result = subprocess.run(
        [str(installed.python), "-c", BUILD_EVERYTHING],
        cwd=installed.empty,
        env=installed.env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    found = json.loads(result.stdout.strip().splitlines()[-1])
    package = Path(found["package"]).parent
    assert package.is_relative_to(installed.venv), "the venv ran the checkout's rulebook, not the wheel's"
    assert not [entry for entry in found["path"] if entry and Path(entry).resolve().is_relative_to(ROOT)]
    assert found["folders"] == [
        str(package / "notebooks"),
        str(package / "graphs"),
        str(package / "teach" / "exercises"),
    ]
    assert found["notebooks"] == sorted(path.name for path in (ROOT / "notebooks").glob("*.ipynb"))
    assert sorted(found["games"]) == sorted(GAMES)
    for name, built in found["games"].items():
        assert built["board"] == "Board" and built["app"] == "App", name
        assert built["paragraphs"] > 10 and built["exercises"] > 0, name
    assert list(installed.empty.iterdir()) == []  # building wrote nothing into the working folder


def test_rulebook_lab_answers_from_the_installed_wheel(installed):
    result = subprocess.run(
        [str(installed.bin / "rulebook"), "lab", "--help"],
        cwd=installed.empty,
        env=installed.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("usage: rulebook lab")


def _package(installed: Installed) -> Path:
    """The installed rulebook's package folder in the venv."""
    found = subprocess.run(
        [str(installed.python), "-c", "import rulebook; print(rulebook.__file__)"],
        cwd=installed.empty,
        env=installed.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert found.returncode == 0, found.stderr[-2000:]
    return Path(found.stdout.strip()).parent


def _files(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def _get(url: str, token: str) -> dict:
    request = urllib.request.Request(url, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        assert answer.status == 200, url
        return json.loads(answer.read())


def test_rulebook_lab_opens_a_working_copy_from_the_installed_wheel(installed, tmp_path):
    package = _package(installed)
    shipped = sorted(path.name for path in (package / "notebooks").glob("*.ipynb"))
    assert "index.ipynb" in shipped and len(shipped) == len(GAMES) + 1
    before = _files(package)
    here, home = tmp_path / "empty", tmp_path / "home"
    here.mkdir()
    home.mkdir()
    copy = here / "class notebooks"  # a folder the command makes, with a space in its name
    port = _free_port()
    server = subprocess.Popen(
        [str(installed.bin / "rulebook"), "lab", "--dir", str(copy), "--port", str(port)],
        cwd=here,
        env={**installed.env, "HOME": str(home)},  # JupyterLab's own settings go to this home, not the tester's
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_lines, args=(server.stdout, lines), daemon=True).start()
    said: list[str] = []
    address = None
    try:
        deadline = time.monotonic() + SERVE_TIMEOUT
        while address is None and time.monotonic() < deadline:
            try:
                line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            said.append(line)
            found = ADDRESS.search(line)
            address = found.group(0) if found else None
        output = "".join(said)
        assert address, "`rulebook lab` printed no address with a token:\n" + output[-4000:]
        assert f"Your working copy of the notebooks: {copy}" in output
        assert f"copied {len(shipped)} from the rulebook" in output
        token = address.partition("token=")[2]
        status = _get(f"http://127.0.0.1:{port}/api/status", token)
        assert "started" in status
        listed = _get(f"http://127.0.0.1:{port}/api/contents", token)
        assert (
            listed["path"] == ""
            and sorted(item["name"] for item in listed["content"] if item["type"] == "notebook") == shipped
        )
        opened = _get(f"http://127.0.0.1:{port}/api/contents/index.ipynb?content=1", token)
        assert opened["type"] == "notebook" and opened["content"]["cells"]
        for name in shipped:  # the copy is the wheel's notebooks, byte for byte
            assert (copy / name).read_bytes() == (package / "notebooks" / name).read_bytes(), name
    finally:
        _stop(server)
    assert server.returncode == 0, "".join(said)[-4000:]  # SIGTERM stops it cleanly
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    assert _files(package) == before  # nothing of the installed package was written
    assert sorted(path.name for path in here.iterdir()) == [copy.name]  # only the copy, where it was asked for


def test_every_notebook_runs_from_the_working_copy_with_the_installed_wheel(installed, tmp_path):
    """Each notebook (in `make soak`; the front page in `make test`) executed where ``rulebook lab`` put it, by the
    wheel's Python: what a notebook reads (boards, rules text, exercises) the package finds by itself, not beside the
    notebook or in the working folder. The front page reads the shipped boards and plays Meetjesland on one; every
    game's rules text and exercises are read from the wheel by the app test below, from an empty folder."""
    copy, home = tmp_path / "copy", tmp_path / "home"
    home.mkdir()
    env = {**installed.env, "HOME": str(home)}
    made = subprocess.run(
        [str(installed.python), "-c", f"from rulebook import working_copy; working_copy.prepare({str(copy)!r})"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr[-2000:]
    notebooks = sorted(path.name for path in copy.glob("*.ipynb"))
    assert len(notebooks) == len(GAMES) + 1
    if not SOAK:  # make test runs every notebook from the checkout already; from the wheel, the front page (9 s less)
        notebooks = ["index.ipynb"]
    result = subprocess.run(
        [str(installed.python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(copy)]
        + ["--nbval-lax", "--nbval-current-env", "--nbval-cell-timeout=300", *notebooks],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert result.returncode == 0, result.stdout[-6000:]
    assert re.search(r"\b\d+ passed\b", result.stdout) and " failed" not in result.stdout, result.stdout[-2000:]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _lines(stream, into: queue.Queue) -> None:
    for line in stream:
        into.put(line)
    into.put(None)


def _stop(server: subprocess.Popen) -> None:
    """Stop the `rulebook app` this test started: SIGTERM to its process group (it stops its server and kernels)."""
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=30)


# `make soak` serves every game; `make test` one (a server and kernel each, 5 s): with Claim's notebook run from the
# wheel above and every game's app built from it, each game is run from the wheel in some way in both
SERVED = GAMES if SOAK else [game for game in GAMES if game == "kingdom_builder"]


@pytest.mark.parametrize("game", SERVED)
def test_rulebook_app_serves_each_game_from_the_installed_wheel(installed, game):
    port = _free_port()
    server = subprocess.Popen(
        [str(installed.bin / "rulebook"), "app", game, "--port", str(port)],
        cwd=installed.empty,
        env=installed.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group, so the test stops it and all it started
    )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_lines, args=(server.stdout, lines), daemon=True).start()
    said: list[str] = []
    address = None
    try:
        deadline = time.monotonic() + SERVE_TIMEOUT
        while address is None and time.monotonic() < deadline:
            try:
                line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            said.append(line)
            found = ADDRESS.search(line)
            address = found.group(0) if found else None
        assert address, f"`rulebook app {game}` printed no address with a token:\n" + "".join(said)[-4000:]
        assert f":{port}/" in address
        with urllib.request.urlopen(address, timeout=120) as answer:
            assert answer.status == 200
            page = answer.read().decode("utf-8", "replace")
        assert "application/vnd.jupyter.widget-view+json" in page, "the app's cell showed no widget"
        assert '"output_type": "error"' not in page and "There was an error when executing cell" not in page
    finally:
        _stop(server)
    with pytest.raises(OSError):  # nothing is left listening on the port
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
