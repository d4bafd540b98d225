"""The static website (``make site``) in a real browser, its tests that stand alone (tests/e2e/test_site.py has the
timed ones, which share their yardstick, and the visited game opened offline): the computer's replies paced by the
browser's Python, each game's notebook run in the site's JupyterLab and no package index asked. Each test is a unit
of its own for xdist (this module shares no fixture of its own), so the minutes of JupyterLite runs spread over the
workers."""

from __future__ import annotations

import json
import time

import pytest

from rulebook import registry

from .conftest import SHOTS
from .drivers import changed, click_point, skip_a_computer_turn, status
from .test_site import BOARD, ERROR, GAMES, HEIGHT, WIDTH, Traffic, open_page


def place_a_piece(frame, board, candidates: list[int]) -> str:
    """Claim's placement: once it is Red's turn (the game's seed is new on each visit: Blue may begin, its moves
    told one by one first), click free points of ``candidates`` in turn until one takes Red's piece (a point the
    computer took first is refused); returns the status line after it."""
    for point in list(candidates):
        candidates.remove(point)
        deadline = time.monotonic() + 60
        while "Your turn" not in status(frame) and time.monotonic() < deadline:
            time.sleep(0.2)
        before = status(frame)
        click_point(board, 0, point)
        after = changed(frame, before)
        if "Refused" not in after:
            return after
    raise AssertionError(f"no free point among the candidates; the status says {status(frame)!r}")


def test_claim_s_computer_replies_come_one_by_one_in_the_browser_s_python(chromium, server):
    """The computer's turn at the default pace, timed by Pyodide's event loop (the browser's setTimeout): after Red's
    two pieces the status line tells Blue's moves one at a time with Skip to the end beside them, then gives the turn
    back; on the next turn Skip to the end plays Blue's moves at once, and the board takes Red's clicks again."""
    context = chromium.new_context(viewport={"width": WIDTH, "height": HEIGHT}, reduced_motion="no-preference")
    try:
        page, frame, _ = open_page(context, f"{server}/claim/", BOARD)
        frame.locator(".rulebook-status").first.wait_for(timeout=60_000)
        assert frame.locator(".rulebook-app .rulebook-pace select").first.input_value() == "one by one"
        board = frame.locator(".rulebook-app .rulebook-board").first
        skip = frame.locator(".rulebook-status button:has-text('Skip to the end')")
        candidates = list(range(0, 68, 5))  # Claim's 68 points, spread out over the island
        place_a_piece(frame, board, candidates)
        place_a_piece(frame, board, candidates)  # Red's second piece ends the turn: Blue's two follow
        seen: list[tuple[str, bool]] = []  # the status line's last line, and whether Skip was offered with it
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            text = status(frame)
            now = (text.strip().splitlines()[-1].replace("Skip to the end", "").strip(), "Skip to the end" in text)
            if not seen or seen[-1] != now:
                seen.append(now)
            if not now[1] and now[0].startswith("Blue:"):
                break
            time.sleep(0.05)
        page.screenshot(path=SHOTS / "site-claim-paced.png")
        blue = [line for line, _ in seen if line.startswith("Blue:")]
        assert len(set(blue)) == 2, seen  # Blue's two pieces, each told in its turn
        assert (blue[0], True) in seen, seen  # the first told while the second was still to come
        assert "Your turn" in status(frame) and skip.count() == 0, status(frame)
        skip_a_computer_turn(frame, lambda: [place_a_piece(frame, board, candidates) for _ in range(2)])
        assert "Blue" in status(frame) and skip.count() == 0, status(frame)
        page.screenshot(path=SHOTS / "site-claim-skipped.png")
        assert "Red: places" in place_a_piece(frame, board, candidates)  # nothing hangs: Red plays on
    finally:
        context.close()


PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"


@pytest.mark.parametrize("game", GAMES)  # Meetjesland too: numpy is optional since issue 23.2
def test_notebook_opens_and_runs_in_jupyterlab(game, chromium, server):
    """From the game's page, the link opens its notebook in the site's JupyterLab; Run All runs it in the browser's
    Python, and its first board is drawn with no error above it (the whole notebook takes minutes there)."""
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    traffic = Traffic(server)
    traffic.watch(context)
    try:
        page = context.new_page()
        page.goto(f"{server}/{game}/", wait_until="load")
        traffic.recording = False  # the app page's own loads, cut short by leaving it, are not the notebook's
        page.locator("a.notebook").click()
        page.wait_for_url("**/lab/index.html*", wait_until="commit")
        traffic.recording = True
        page.wait_for_selector(f"{PANEL} .jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=240_000)
        tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current").first.inner_text()
        assert registry.game(game).rules in tab, tab
        page.click(f"{PANEL} .jp-Cell >> nth=0")
        page.click("text=Run")
        page.click("li.lm-Menu-item:has-text('Run All Cells')")
        board = page.locator(f"{PANEL} .rulebook-board .rulebook-figure svg .point, {PANEL} {ERROR}").first
        board.wait_for(timeout=600_000)
        board.scroll_into_view_if_needed()
        page.wait_for_timeout(2000)
        page.screenshot(path=SHOTS / f"site-lab-{game}.png")
        errors = page.locator(f"{PANEL} {ERROR}")
        texts = [errors.nth(i).inner_text() for i in range(errors.count())]
        assert not [t for t in texts if "Error" in t or "Traceback" in t], texts[:2]
        traffic.check(f"{game}'s notebook in JupyterLab")
    finally:
        context.close()


def test_no_package_index_is_asked(chromium, server, site):
    """``%pip install`` of a package the site does not ship is refused in the browser, and nothing is asked of a
    package index (the site sets disablePyPIFallback, and every other host is unreachable anyway)."""
    settings = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))["jupyter-config-data"]
    kernel = settings["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["disablePyPIFallback"] is True and kernel["pyodideUrl"].startswith("./")
    context = chromium.new_context()
    traffic = Traffic(server)
    traffic.watch(context)
    try:
        page = context.new_page()
        repl = f"{server}/repl/index.html?kernel=python&showBanner=0&code=%25pip%20install%20six"
        page.goto(repl, wait_until="commit")
        refused = page.locator(".jp-OutputArea-output", has_text="PiplitePyPIDisabled").first
        refused.wait_for(timeout=240_000)
        page.wait_for_timeout(3000)
        assert not traffic.elsewhere(), traffic.elsewhere()
        # showing the traceback, JupyterLab asks its (absent) server to link the files it names: those 404s only
        others = [f for f in traffic.failures if "/api/resolvePath" not in f and "/api/contents/" not in f]
        assert not others, others
    finally:
        context.close()
