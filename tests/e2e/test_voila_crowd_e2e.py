"""Issue 48.3 in a real browser: pages opened together on `rulebook app`, some of whose runs time out waiting for
their output (as on a machine a class shares, made so here: tests/test_voila_crowd.py), none stays blank. Within
60 s each page shows its board or the words that the server is busy (or full) and that it tries again by itself;
the pages whose run failed get their board by themselves, and a page told the server is full gets its board once a
place frees."""

from __future__ import annotations

import subprocess
import time

from rulebook.cli import voila_command
from tests.test_voila_crowd import SLOW, _kernels, _slow_notebook

from .conftest import SHOTS, TOKEN, free_port, stop

BOARD = ".rulebook-app .rulebook-board .rulebook-figure svg .trace .point"
PAGES, PLACES = 4, 2
# each notice a page's tab showed, kept across its reloads
WATCH = """
document.addEventListener('DOMContentLoaded', () => {
  const kind = document.body.dataset.notice;
  if (kind) sessionStorage.setItem('rulebook-' + kind, 'seen');
});
"""
SHOWS = f"""() => {{
  if (document.querySelector({BOARD!r})) return 'board';
  const text = document.body ? document.body.innerText : '';
  if (text.includes('tries again by itself')) return 'retry';
  return 'nothing';
}}"""


def _shows(page) -> str:
    try:
        return page.evaluate(SHOWS)
    except Exception:  # the page is between two documents (it is trying again)
        return "nothing"


def _seen(page, kind: str) -> bool:
    try:
        return page.evaluate(f"sessionStorage.getItem('rulebook-{kind}')") is not None
    except Exception:
        return False


def _until(check, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.5)


def test_no_page_of_a_crowd_stays_blank(browser, jupyter_env, tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    port = free_port()
    command = voila_command(_slow_notebook(tmp_path), port, TOKEN, max_kernels=PLACES)
    command.append("--VoilaExecutor.iopub_timeout=2")
    process = subprocess.Popen(
        command,
        env=dict(jupyter_env, RULEBOOK_TEST_SLOW_RUNS=str(runs)),
        stdout=subprocess.DEVNULL,
        stderr=open(SHOTS / "voila-crowd.log", "w"),
    )
    pages = []
    try:
        _until(lambda: _kernels(process) == 1, 90, "the preheated kernel")
        url = f"http://127.0.0.1:{port}/?token={TOKEN}"
        for _ in range(PAGES):
            page = browser.new_page()
            page.add_init_script(WATCH)
            pages.append(page)
        opened = time.monotonic()
        for page in pages:
            page.goto(url, wait_until="commit", timeout=60_000)
        # within 60 s every page shows its board or words saying it tries again by itself; none is blank
        answered: dict[int, float] = {}
        while len(answered) < PAGES and time.monotonic() - opened < 60:
            for index, page in enumerate(pages):
                if index not in answered and _shows(page) != "nothing":
                    answered[index] = time.monotonic() - opened
            time.sleep(0.5)
        blank = [index for index in range(PAGES) if index not in answered]
        for index in blank:
            pages[index].screenshot(path=str(SHOTS / f"app-crowd-blank-{index}.png"))
        assert not blank, f"pages {blank} showed neither a board nor words that they try again, after 60 s"
        assert len(list(runs.iterdir())) == SLOW  # the slow runs happened

        # the pages whose run failed tried again by themselves: the server's places are taken by boards, the other
        # pages say the server is full and that they try again by themselves
        _until(lambda: sum(_shows(page) == "board" for page in pages) == PLACES, 120, f"{PLACES} boards")
        assert any(_seen(page, "busy") for page in pages)  # told its run failed, in words
        waiting = [page for page in pages if _shows(page) != "board"]
        assert len(waiting) == PAGES - PLACES
        # a page whose run failed may still be on its way back (it reloads 3 s after saying so); its next load is told
        # the server is full. Wait for that, rather than read a page between two documents.
        _until(
            lambda: all(_seen(page, "full") and _shows(page) == "retry" for page in waiting),
            60,
            "the waiting pages told the server is full and that they try again by themselves",
        )
        waiting[0].screenshot(path=str(SHOTS / "app-crowd-full.png"))

        # a place frees, then another: each page still trying gets its board by itself
        for left in range(len(waiting), 0, -1):
            served = next(page for page in pages if page not in waiting)
            pages.remove(served)
            served.close(run_before_unload=True)  # as a person closes the tab: the page's beacon frees its kernel
            _until(lambda: sum(_shows(page) == "board" for page in waiting) > len(waiting) - left, 90, "a board")
        assert all(_shows(page) == "board" for page in pages)
    finally:
        for page in pages:
            page.close()
        stop(process)
