"""Servers and a browser for the end-to-end tests: JupyterLab and Voila on 127.0.0.1 with a token, Debian's
Chromium driven by Playwright. Skipped unless RULEBOOK_E2E=1 (``make e2e`` sets it); every process started
here is stopped here, with bounded waits."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.helpers import free_port

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / ".e2e"
# Debian's chromium-headless-shell: Chromium's own engine without the browser's window layer, as Playwright runs
# headless pages by default. A page costs about a fifth less CPU than in the full browser's headless mode (measured on
# the Meetjesland app and offline tests: 58.8 s of machine CPU against 46.4 s), and on 2 cores the run is bound by
# the CPU. RULEBOOK_CHROMIUM=/usr/bin/chromium runs the tests in the full browser.
CHROMIUM = os.environ.get("RULEBOOK_CHROMIUM", "/usr/bin/chromium-headless-shell")
TOKEN = "rulebook-e2e"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


TIMINGS_HEADER = "| page | seconds until the notebook ran and its board is drawn |\n| --- | --- |\n"


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """.e2e/timings.md starts anew once a run: in the one pytest process, or in xdist's controller before its workers
    start (`make e2e` runs the browser tests on several workers, each appending its rows)."""
    if os.environ.get("RULEBOOK_E2E") == "1" and not hasattr(session.config, "workerinput"):
        SHOTS.mkdir(exist_ok=True)
        (SHOTS / "timings.md").write_text(TIMINGS_HEADER)
        (SHOTS / "site_timings.json").unlink(missing_ok=True)  # test_site's Timings: the workers' shared rows
        (SHOTS / "axe.md").write_text(  # test_access's axe_findings appends a row a page
            "| page | serious or critical, the rulebook's | theirs (JupyterLab's, Voila's) | their rules |\n"
            "| --- | --- | --- | --- |\n"
        )


# The longest tests, to be started first: xdist hands out units in collection order (after the modules sharing a
# fixture, largest first), and a long test handed out last keeps the run going on one worker while the rest idle.
LONG_FIRST = (
    "tests/e2e/test_browser.py::test_game_in_jupyterlab",
    "tests/e2e/test_site_lab.py::test_notebook_opens_and_runs_in_jupyterlab",
    "tests/e2e/test_site.py::test_game_page[claim]",  # three visits: the third offline
    "tests/e2e/test_tutorial.py",
    "tests/e2e/test_app.py::test_claim_app_played_to_the_end",
    "tests/e2e/test_app.py::test_ab_die_post_app_played_to_the_end",
    "tests/e2e/test_access.py::test_ten_moves_with_the_keyboard_only",
)


# Measurements, and repeats of what other tests check, run by `make e2e-soak` (RULEBOOK_SOAK=1) only: each finds no
# bug another e2e test does not find. The first visits in empty browsers are timed there (three rounds);
# test_offline_app opens every app in an empty browser context in `make e2e`. The repeat visits (each page three times
# in one browser profile, 48 s of them waits for Voila's preheated kernel) assert only that the pages open, which
# every app test asserts too (issue 29.4).
SOAK_ONLY = (
    "tests/e2e/test_app.py::test_first_visits_in_fresh_browsers",
    "tests/e2e/test_app.py::test_repeat_visits_in_one_browser",
    # the site's minimal page: the yardstick of the site's timings, whose checks every game page makes too
    "tests/e2e/test_site.py::test_minimal_page_at_the_start",
    "tests/e2e/test_site.py::test_minimal_page_at_the_end",
    # each whole notebook in plain Voila, a move played on its board: the same notebook runs whole in JupyterLab
    # with the same move (test_game_in_jupyterlab), the same boards draw and play in Voila in every app test, and
    # Claim's whole notebook runs in Voila in the slowed-CPU test (395 s of the 4,400 s its tests took, issue 29.4)
    "tests/e2e/test_browser.py::test_game_in_voila",
)


def pytest_collection_modifyitems(config, items):
    if os.environ.get("RULEBOOK_E2E") == "1":
        from tests.soak import SOAK

        if not SOAK:
            later = pytest.mark.skip(reason="`make e2e-soak` runs it (tests/e2e/conftest.py's SOAK_ONLY)")
            for item in items:
                if item.nodeid.startswith(SOAK_ONLY):
                    item.add_marker(later)

        def rank(item) -> int:
            return next((i for i, start in enumerate(LONG_FIRST) if item.nodeid.startswith(start)), len(LONG_FIRST))

        items.sort(key=rank)  # stable: the order within a rank stays the files'
        return
    skip = pytest.mark.skip(reason="browser tests run with `make e2e` (RULEBOOK_E2E=1)")
    for item in items:
        if "e2e" in item.nodeid:
            item.add_marker(skip)


def wait_for(url: str, process: subprocess.Popen, seconds: float = 90, accept=(200, 302, 403)) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status in accept:
                    return
        except urllib.error.HTTPError as error:
            if error.code in accept:
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise TimeoutError(f"{url} did not answer within {seconds} s")


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=15)


# How long a test's Voila waits before it preheats the next kernel once a page took the preheated one (Voila's
# default: 1 s). A page in a test is mostly the only one its server serves: the next kernel would run the app's
# notebook for no one, taking the CPU from the other workers' tests (make e2e is CPU-bound on 2 cores, issue 29.4).
# Voila puts the delayed refill in the pool at once, and a second page waits for it: a test opening two pages of one
# server asks for the refill (``apps(game, refill=True)``).
REFILL_DELAY = 600


def serve_voila(notebook: Path, env: dict, request, log: str, head_start: float = 0, refill: bool = True) -> str:
    """Serve ``notebook`` exactly as `rulebook app` does (stopped when the test ends, its log in .e2e/``log``); the
    page's address once Voila answers and ``head_start`` seconds more (Voila runs the notebook in its preheated
    kernel meanwhile: the same head start for every page that is timed). ``refill=False``: the kernel taken by a
    page is replaced only after REFILL_DELAY seconds."""
    from rulebook.cli import voila_command

    SHOTS.mkdir(exist_ok=True)
    for attempt in range(3):
        port = free_port()
        command = voila_command(notebook, port, TOKEN)
        if not refill:
            command.append(f"--VoilaKernelManager.fill_delay={REFILL_DELAY}")
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=open(SHOTS / log, "w"))
        request.addfinalizer(lambda process=process: stop(process))
        try:
            wait_for(f"http://127.0.0.1:{port}/", process)
            break
        except RuntimeError:
            said = (SHOTS / log).read_text(errors="replace")
            # the free port was taken before Voila bound it (a kernel of another test's server took it meanwhile):
            # `rulebook app` makes no second try (port_retries=0), the test does with another port
            if "in use" not in said or attempt == 2:
                raise RuntimeError(f"Voila exited with {process.returncode}:\n{said[-3000:]}") from None
    time.sleep(head_start)
    return f"http://127.0.0.1:{port}/?token={TOKEN}"


def python_m(module: str) -> list[str]:
    """``python -m module`` as the rulebook's own servers start (rulebook.serve): without jsonschema's unused iri
    grammars, 1.3 s of CPU at each start of JupyterLab or Voila."""
    start = (
        "import runpy; from rulebook.serve import skip_unused_iri_grammars; skip_unused_iri_grammars();"
        f" runpy.run_module({module!r}, run_name='__main__', alter_sys=True)"
    )
    return [sys.executable, "-c", start]


@pytest.fixture(scope="session")
def jupyter_env(tmp_path_factory):
    base = tmp_path_factory.mktemp("jupyter")
    settings = base / "config/lab/user-settings/@jupyterlab/apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    return dict(os.environ, JUPYTER_CONFIG_DIR=str(base / "config"), JUPYTER_RUNTIME_DIR=str(base / "runtime"))


@pytest.fixture(scope="session")
def lab(jupyter_env, tmp_path_factory):
    """JupyterLab on a working copy of the notebooks, as `make lab` opens it: its autosave never writes into the
    checkout's notebooks/ (issue 25.7)."""
    from rulebook import working_copy

    copy = working_copy.prepare(tmp_path_factory.mktemp("lab") / "notebooks").folder
    port = free_port()
    process = subprocess.Popen(
        [
            *python_m("jupyterlab"),
            "--no-browser",
            "--allow-root",
            "--ip=127.0.0.1",
            f"--port={port}",
            f"--IdentityProvider.token={TOKEN}",
            f"--ServerApp.root_dir={copy}",
            "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: the tests wait on the notebook's own state
        ],
        env=jupyter_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(f"http://127.0.0.1:{port}/api/status?token={TOKEN}", process, accept=(200,))
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process)


@pytest.fixture()
def voila(jupyter_env, request):
    def start(game: str) -> str:
        port = free_port()
        process = subprocess.Popen(
            [
                *python_m("voila"),
                str(ROOT / "notebooks" / f"{game}.ipynb"),
                "--no-browser",
                "--Voila.ip=127.0.0.1",
                f"--port={port}",
                f"--token={TOKEN}",
            ],
            env=jupyter_env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        request.addfinalizer(lambda: stop(process))
        wait_for(f"http://127.0.0.1:{port}/", process)
        return f"http://127.0.0.1:{port}/?token={TOKEN}"

    return start


@pytest.fixture()
def apps(jupyter_env, request, tmp_path):
    """``apps(game)``: the address of the game's app, served as `rulebook app GAME` serves it (Voila, a kernel preheated
    for the first visit; for the next only with ``refill=True``: REFILL_DELAY), one server per game for the test. The
    page is opened as soon as the server answers, while the preheated kernel may still run the app's notebook (the
    page waits for it): an 8 s head start kept each test's worker idle meanwhile, 25 tests of `make e2e` long, and
    the timed first visits of `make e2e-soak` have a fixture of their own. (One server per game for a whole worker's
    session was tried: now and then a page opened soon after another test's never drew its board within 3 minutes,
    so each test keeps a server of its own.)"""
    from rulebook.cli import app_notebook

    served: dict[str, str] = {}

    def start(game: str, refill: bool = False) -> str:
        if game not in served:
            log = f"voila-app-{game}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
            served[game] = serve_voila(app_notebook(game, tmp_path), jupyter_env, request, log, refill=refill)
        return served[game]

    return start


@pytest.fixture(autouse=True, scope="session")
def python_boards_at_once():
    """The Python boards the tests build beside a page (to know where to click and what the page must say) play the
    computer's replies at once, as the pages do that prefer reduced motion (the ``browser`` fixture's): Playwright's
    sync API keeps an asyncio loop running in this thread, on which a paced board's timers would wait for a
    Playwright call to fire."""
    from rulebook import ui

    before = ui.PREFERENCE.reduced_motion
    ui.PREFERENCE.reduced_motion = True
    yield
    ui.PREFERENCE.reduced_motion = before


@pytest.fixture(scope="session")
def playwright():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make e2e` installs it (apt-get install chromium-headless-shell)")
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(exist_ok=True)
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright, tmp_path_factory):
    """One browser profile for the session, as a person's browser keeps its cache from page to page. Its pages prefer
    reduced motion, so the computer's replies land at once (pace "off", issue 26.2), as on the Python boards the tests
    compare the page with; a test of the paced default asks for ``page.emulate_media(reduced_motion="no-preference")``
    (tests/e2e/test_pace_play.py)."""
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path_factory.mktemp("chromium")),
        executable_path=CHROMIUM,
        headless=True,
        args=FLAGS,
        viewport={"width": 1400, "height": 1300},  # tall enough for the tallest board (Claim, ~1090 px)
        reduced_motion="reduce",
    )
    try:
        yield context
    finally:
        context.close()
    shutil.rmtree(tmp_path_factory.getbasetemp() / "chromium0", ignore_errors=True)


@pytest.fixture(scope="session")
def fresh_browsers(playwright):
    """A browser whose every new context starts empty: no cache, no compiled code kept, a first visit."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
    try:
        yield browser
    finally:
        browser.close()


def fresh_notebook(lab: str, name: str) -> None:
    """Put the shipped notebook ``name`` back into the e2e JupyterLab's working copy, without outputs: JupyterLab
    autosaves a notebook a test ran (every two minutes), and a later test opening it would first find the old run's
    outputs, whose widgets have no model any more and never draw."""
    content = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
    body = json.dumps({"type": "notebook", "format": "json", "content": content}).encode()
    request = urllib.request.Request(
        f"{lab}/api/contents/{name}?token={TOKEN}",
        data=body,
        method="PUT",
        headers={"Content-Type": "application/json", "Authorization": f"token {TOKEN}"},
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        assert answer.status in (200, 201), answer.status


PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
# the notebook panel of a path, in the page's JupyterLab (the lab fixture exposes it as window.jupyterapp)
PANEL_OF = (
    "const app = window.jupyterapp;"
    " const w = app?.shell && [...app.shell.widgets('main')].find((each) => each.context?.path === path);"
)
KERNEL_READY = f"""(path) => {{ {PANEL_OF}
  const kernel = w?.sessionContext?.session?.kernel;
  return Boolean(w?.context?.isReady && w.sessionContext.isReady && kernel && kernel.connectionStatus === 'connected'
                 && kernel.status === 'idle'); }}"""
RUN_STATE = f"""([path, after]) => {{ {PANEL_OF}
  let started = false, pending = 0, errors = [];
  for (const cell of w.content.model.cells) {{
    if (cell.type !== 'code') continue;
    const counted = cell.executionCount !== null && cell.executionCount > after;
    if (counted || cell.executionState === 'running') started = true;
    for (const output of cell.outputs.toJSON()) {{
      if (output.output_type === 'error') errors.push(`${{output.ename}}: ${{output.evalue}}`);
    }}
    if (cell.sharedModel.getSource().trim() && !counted) pending += 1;
  }}
  const kernel = w.sessionContext.session?.kernel?.status;
  const done = errors.length > 0 || (!pending && kernel === 'idle');
  return {{started: started || kernel === 'busy', pending, errors, done,
          last: Math.max(0, ...[...w.content.model.cells].map((cell) => cell.executionCount ?? 0))}}; }}"""


def open_notebook(page, lab: str, name: str) -> None:
    """Open the shipped notebook ``name`` in the e2e JupyterLab and wait until its kernel is connected and idle: the
    toolbar's execution indicator reads idle before the notebook has a kernel at all, and a Run All given then runs
    nothing (JupyterLab's CodeCell.execute skips a cell while its session has no kernel), so the page's first board
    never came (issue 28.4: seen under load, where a kernel takes seconds to start)."""
    fresh_notebook(lab, name)  # not the outputs another test's run left autosaved
    page.goto(f"{lab}/lab/tree/{name}?reset&token={TOKEN}")
    page.wait_for_function(KERNEL_READY, arg=name, timeout=180_000, polling=250)


def run_all(page, name: str, seconds: float = 600) -> None:
    """Run All from the Run menu, as a person does, and wait until every code cell has run (each has a new execution
    count and the kernel is idle: it also reads idle between the cells of a run); a cell's error ends the wait and
    fails. ``seconds`` bounds a hang."""
    before = page.evaluate(RUN_STATE, [name, 0])["last"]
    page.click(f"{PANEL} .jp-Cell >> nth=0")  # a cell selected: with ?reset, Run All ran nothing otherwise
    page.click("#jp-MainMenu >> text=Run")
    page.click("li.lm-Menu-item:has-text('Run All Cells')")
    deadline = time.monotonic() + 60
    while not page.evaluate(RUN_STATE, [name, before])["started"]:
        assert time.monotonic() < deadline, f"{name}: Run All did not reach the kernel within 60 s"
        time.sleep(0.25)
    page.wait_for_function(f"(arg) => ({RUN_STATE})(arg).done", arg=[name, before], timeout=seconds * 1000, polling=500)
    state = page.evaluate(RUN_STATE, [name, before])
    assert not state["errors"], f"{name}: a cell failed: {state['errors']}"


def close_notebook(page, lab: str, name: str) -> None:
    """Close the page and end the notebook's session (its kernel with it): a closed page leaves its kernel running,
    and a later test on this server would find the busy kernel of an earlier run (and share the CPU with it)."""
    page.close()
    with urllib.request.urlopen(f"{lab}/api/sessions?token={TOKEN}", timeout=60) as answer:
        sessions = json.loads(answer.read())
    for session in sessions:
        if session.get("path") == name:
            request = urllib.request.Request(f"{lab}/api/sessions/{session['id']}?token={TOKEN}", method="DELETE")
            with urllib.request.urlopen(request, timeout=60) as answer:
                assert answer.status == 204, answer.status


# -- the static website (``make site``): tests/e2e/test_site.py and test_site_lab.py --------------------------------

BLOCK_OTHER_HOSTS = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1, EXCLUDE localhost"


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The built site: ``make site`` (a fresh build is kept as it is), or the folder RULEBOOK_SITE names."""
    given = os.environ.get("RULEBOOK_SITE")
    if given:
        folder = Path(given)
        assert (folder / "build.json").is_file(), f"RULEBOOK_SITE={given} is not a built site"
        return folder
    import fcntl

    run = tmp_path_factory.getbasetemp().parent  # shared by the xdist workers of this run
    with open(run / "rulebook-site.lock", "w") as lock:  # one build a run: the first worker's; the others wait for it
        fcntl.flock(lock, fcntl.LOCK_EX)
        built = run / "rulebook-site.built"
        if not built.exists():  # a second `make site` could rebuild under a worker serving the site
            result = subprocess.run(["make", "site"], cwd=ROOT, capture_output=True, text=True, timeout=1800)
            assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
            built.touch()
    return ROOT / "site"


@pytest.fixture(scope="session")
def server(site: Path):
    """``python -m http.server`` on 127.0.0.1 serving the site: any static host does as much."""
    port = free_port()
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(f"http://127.0.0.1:{port}/", process, accept=(200,))
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process)


@pytest.fixture(scope="session")
def chromium(playwright):
    """Chromium that can reach 127.0.0.1 and localhost only: a request to any other host cannot resolve."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=[*FLAGS, BLOCK_OTHER_HOSTS])
    try:
        yield browser
    finally:
        browser.close()
