"""Servers and a browser for the end-to-end tests: JupyterLab and Voila on 127.0.0.1 with a token, Debian's
Chromium driven by Playwright. Skipped unless RULEBOOK_E2E=1 (``make e2e`` sets it); every process started
here is stopped here, with bounded waits."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / ".e2e"
CHROMIUM = "/usr/bin/chromium"
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


def pytest_collection_modifyitems(config, items):
    if os.environ.get("RULEBOOK_E2E") == "1":
        return
    skip = pytest.mark.skip(reason="browser tests run with `make e2e` (RULEBOOK_E2E=1)")
    for item in items:
        if "e2e" in item.nodeid:
            item.add_marker(skip)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            "--ip=127.0.0.1",
            f"--port={port}",
            f"--IdentityProvider.token={TOKEN}",
            f"--ServerApp.root_dir={copy}",
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
                sys.executable,
                "-m",
                "voila",
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
        pytest.fail("Debian's chromium is missing: `make e2e` installs it (apt-get install chromium)")
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
    import urllib.request

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
