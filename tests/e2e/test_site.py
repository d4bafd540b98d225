"""The static website (``make site``) in a real browser: served by a plain static server on 127.0.0.1 and opened in
Chromium with every other host unreachable. Every request the pages and the kernel's web worker make is recorded; a
request to another host or a failed one fails the test. Each game's page: the app in the browser's own Python, a move
played by clicking the board, a refused move's rule opened, the game saved (a download) and loaded again (an
upload). Its times to a usable board, first visit (empty browser) and second (`make e2e-soak`), go to
.e2e/site_timings.md beside a minimal page of the same site (one button, same kernel and preload).

The paced replies, the notebooks in the site's JupyterLab and the package index are in tests/e2e/test_site_lab.py.
The timed pages may run on any xdist worker: their times meet in one table (Timings). The minimal page, the
yardstick of the ratios, is timed by `make e2e-soak` only (conftest's SOAK_ONLY): a measurement, whose checks (no
request elsewhere, none failed) every game page makes too.

The site is built once per session by ``make site``, which keeps a build whose inputs have not changed; with
RULEBOOK_SITE=<folder> the tests use that built site as it is.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from rulebook import registry
from rulebook.app import moves_played
from tests.soak import SOAK

from .conftest import BLOCK_OTHER_HOSTS, SHOTS  # noqa: F401 (test_offline_app takes it from here)
from .drivers import DRIVERS, button, changed, choose, click_point, new_game, status, type_seed

WIDTH, HEIGHT = 1280, 800
BOARD = ".rulebook-app .rulebook-board .rulebook-figure svg .trace .point"  # a board drawn, with its pieces
MINIMAL = "button:has-text('Ready')"
ERROR = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
GAMES = list(registry.names())


# requests that may fail on any static host without anything missing from the site: Chromium's own favicon probe
# after a page loads, and JupyterLite's check that its service worker controls the page (the service worker answers
# it; until it has taken the page over, which a first visit or a worker restarted by the browser can meet, the request
# goes on to the host and gets its 404, and JupyterLite goes on without the worker's cache)
JUPYTERLITE_PROBES = ("/favicon.ico", "/api/service-worker-heartbeat")


@dataclass
class Traffic:
    """Every request of a browser context (its pages, their web workers and the service worker), and the failures."""

    base: str
    requests: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    recording: bool = True

    def watch(self, context) -> None:
        context.on("request", self._request)
        context.on("requestfailed", lambda request: self._failed(request.url, request.failure or "failed"))
        context.on("response", lambda response: response.status >= 400 and self._failed(response.url, response.status))

    def _request(self, request) -> None:
        if self.recording:
            self.requests.append(request.url)

    def _failed(self, url: str, why: object) -> None:
        if self.recording and urlsplit(url).path not in JUPYTERLITE_PROBES:
            self.failures.append(f"{why}: {url}")

    def elsewhere(self) -> list[str]:
        """Requests to anything but the site's own host (data: and blob: addresses are the page's own)."""
        own = urlsplit(self.base).netloc
        return [
            url
            for url in self.requests
            if urlsplit(url).scheme in ("http", "https", "ws", "wss") and urlsplit(url).netloc != own
        ]

    def check(self, what: str) -> None:
        """No request left the site's host and none failed."""
        assert not self.elsewhere(), f"{what}: requests to other hosts: {self.elsewhere()[:10]}"
        assert not self.failures, f"{what}: failed requests: {self.failures[:10]}"


class Timings:
    """Times to a usable page, written to .e2e/site_timings.md as each arrives (a failed page leaves a line too). The
    xdist workers share them through .e2e/site_timings.json (under a lock; conftest's pytest_sessionstart empties it
    once a run): each worker's pages are rows of the one table."""

    path = SHOTS / "site_timings.md"
    shared = SHOTS / "site_timings.json"

    def __init__(self) -> None:
        self.seconds: dict[str, dict[str, float]] = {}
        self.notes: dict[str, str] = {}

    def add(self, page: str, visit: str, seconds: float) -> None:
        self._update(lambda: self.seconds.setdefault(page, {}).__setitem__(visit, seconds))

    def note(self, page: str, text: str) -> None:
        self._update(lambda: self.notes.__setitem__(page, text))

    def _update(self, change) -> None:
        import fcntl
        import json

        SHOTS.mkdir(exist_ok=True)
        with open(SHOTS / "site_timings.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            known = json.loads(self.shared.read_text(encoding="utf-8")) if self.shared.is_file() else {}
            self.seconds, self.notes = known.get("seconds", {}), known.get("notes", {})
            change()
            self.shared.write_text(json.dumps({"seconds": self.seconds, "notes": self.notes}), encoding="utf-8")
            self.write()

    def write(self) -> None:
        minimal = {visit: statistics.mean(times) for visit, times in self._minimal().items()}
        lines = [
            "# The static site: seconds from opening a page to a usable board",
            "",
            "Served by `python -m http.server` on 127.0.0.1, Chromium with every other host blocked. First visit: an",
            "empty browser (no cache, no service worker); second: the same browser opened on the page again. The",
            "minimal page (one ipywidgets Button, same kernel and preload) is timed at the start and at the end of",
            "`make e2e-soak`'s run; the ratios are against the mean of its times (none in `make e2e`'s table).",
            "",
            "| page | first visit (s) | second visit (s) | first / minimal | second / minimal |",
            "| --- | --- | --- | --- | --- |",
        ]
        for page, visits in self.seconds.items():
            cold, warm = visits.get("first"), visits.get("second")
            ratios = [
                f"{value / minimal[visit]:.2f}x"
                if value and minimal.get(visit) and not page.startswith("minimal")
                else ""
                for visit, value in (("first", cold), ("second", warm))
            ]
            cells = [f"{cold:.1f}" if cold else "", f"{warm:.1f}" if warm else "", *ratios]
            lines.append(f"| {page} | {' | '.join(cells)} |")
        lines += ["", *(f"- {page}: {text}" for page, text in self.notes.items())]
        SHOTS.mkdir(exist_ok=True)
        self.path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def _minimal(self) -> dict[str, list[float]]:
        found: dict[str, list[float]] = {}
        for page, visits in self.seconds.items():
            if page.startswith("minimal"):
                for visit, value in visits.items():
                    found.setdefault(visit, []).append(value)
        return found


@pytest.fixture(scope="session")
def timings() -> Timings:
    return Timings()


def open_page(context, url: str, ready: str):
    """Open one of the site's app pages; returns the page, its app frame and the seconds until ``ready`` showed in
    the frame (or an error in the REPL's output, which fails with its text)."""
    page = context.new_page()
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    started = time.monotonic()
    page.goto(url, wait_until="commit", timeout=120_000)
    frame = page.frame_locator("iframe[name=app]")
    frame.locator(f"{ready}, {ERROR}").first.wait_for(timeout=240_000)
    seconds = time.monotonic() - started
    if frame.locator(ERROR).count():
        text = frame.locator(ERROR).first.inner_text()
        page.screenshot(path=SHOTS / f"site-{urlsplit(url).path.strip('/') or 'front'}-error.png")
        pytest.fail(f"{url}: Python stopped with an error:\n{text[-3000:]}")
    return page, page.frame(name="app"), seconds


def open_refused_rule(page, frame, game: str) -> str:
    """A refusal's rule id is a link: a click shows that paragraph, with its id, in the rules panel."""
    link = frame.locator(".rulebook-status a[data-rule]").first
    link.wait_for(timeout=30_000)
    rule = link.inner_text()
    link.click()
    focus = frame.locator(".rulebook-rules .rulebook-focus").first
    focus.wait_for(timeout=30_000)
    assert rule in focus.inner_text(), (rule, focus.inner_text()[:200])
    page.screenshot(path=SHOTS / f"site-{game}-rule.png")
    return rule


def claim(page, frame) -> None:
    """Place a piece by clicking a free point; the same point again is refused."""
    type_seed(frame, "1")
    new_game(frame)
    board = frame.locator(".rulebook-app .rulebook-board").first
    before = status(frame)
    click_point(board, 0, 0)  # in placement every free point may take a piece
    after = changed(frame, before)
    assert after != before and "Refused" not in after, after
    page.screenshot(path=SHOTS / "site-claim-played.png")
    click_point(board, 0, 0)  # the same point, now under the piece: refused
    open_refused_rule(page, frame, "claim")


def kingdom_builder(page, frame) -> None:
    """Build on the first highlighted hex of the notebook's game; the corner hex (water) is refused."""
    choose(frame, "Players", "2")
    type_seed(frame, "7")
    frame.locator(".rulebook-app .widget-checkbox", has_text="first game").locator("input").check()
    new_game(frame)
    board = frame.locator(".rulebook-app .rulebook-board").first
    before = status(frame)
    DRIVERS["kingdom_builder"](page, board)
    after = changed(frame, before)
    assert after != before and "Refused" not in after, after
    page.screenshot(path=SHOTS / "site-kingdom_builder-played.png")
    click_point(board, 0, 0)
    open_refused_rule(page, frame, "kingdom_builder")


def ab_die_post(page, frame) -> None:
    """Fly with no cards is refused; then draw a card."""
    type_seed(frame, "1")
    new_game(frame)
    board = frame.locator(".rulebook-app .rulebook-board").first
    button(board, "Fly").click()
    open_refused_rule(page, frame, "ab_die_post")
    before = status(frame)
    button(board, "Draw a card").click()
    assert changed(frame, before) != before
    page.screenshot(path=SHOTS / "site-ab_die_post-played.png")


def meetjesland(page, frame) -> None:
    """End turn before the starting points are placed is refused; then the notebook's game: place, attack, dice."""
    choose(frame, "Players", "4")
    type_seed(frame, "1")
    new_game(frame)
    board = frame.locator(".rulebook-app .rulebook-board").first
    button(board, "End turn").click()
    open_refused_rule(page, frame, "meetjesland")
    DRIVERS["meetjesland"](page, board)
    page.screenshot(path=SHOTS / "site-meetjesland-played.png")


PLAYS = {"claim": claim, "kingdom_builder": kingdom_builder, "ab_die_post": ab_die_post, "meetjesland": meetjesland}


def load(page, frame, path: Path) -> None:
    """Press Load and choose ``path`` in the browser's file chooser (the app's Load button, load_button.js)."""
    with page.expect_file_chooser(timeout=30_000) as choosing:
        frame.locator(".rulebook-app .rulebook-load").first.click()
    choosing.value.set_files(str(path))


def save_and_load(page, frame, game: str, tmp_path: Path) -> None:
    """Save downloads the game as a file the engine reads back; Load of that file continues it, and Load of a file
    that is not a save is explained with the game left as it was."""
    engine = registry.game(game).engine
    with page.expect_download(timeout=60_000) as saving:
        frame.locator(".rulebook-app button:has-text('Save')").first.click()
    download = saving.value
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    state = engine.from_json(saved.read_text(encoding="utf-8"))
    moves = moves_played(engine, state)  # as the log counts them: the file is named so too
    assert moves >= 1, f"{game}: the saved game has no move"
    assert download.suggested_filename == f"{game}-move{moves}.json"
    new_game(frame)
    load(page, frame, saved)
    notice = frame.locator(".rulebook-app", has_text=f"Loaded {saved.name}").first
    notice.wait_for(timeout=60_000)
    assert f"the game continues after move {moves}" in notice.inner_text()
    assert f"loaded from {saved.name}" in frame.locator(".rulebook-app").first.inner_text()
    page.screenshot(path=SHOTS / f"site-{game}-loaded.png")
    wrong = tmp_path / "not-a-save.json"
    wrong.write_text('{"game": "chess"}', encoding="utf-8")
    load(page, frame, wrong)
    frame.locator(".rulebook-app", has_text="Could not load not-a-save.json").first.wait_for(timeout=60_000)
    assert f"loaded from {saved.name}" in frame.locator(".rulebook-app").first.inner_text()


def fits_the_window(page, frame, game: str) -> None:
    """The app is no wider than the window: nothing of it is cut off at the right or needs scrolling sideways."""
    width = frame.evaluate("() => document.querySelector('.rulebook-app').getBoundingClientRect().right")
    scroll = frame.evaluate("() => document.querySelector('.jp-OutputArea-output').scrollWidth")
    inner = frame.evaluate("() => document.querySelector('.jp-OutputArea-output').clientWidth")
    page.screenshot(path=SHOTS / f"site-{game}-first-screen.png")
    assert width <= WIDTH and scroll <= inner + 1, (width, scroll, inner)


def test_front_page_lists_every_game(chromium, server):
    context = chromium.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    traffic = Traffic(server)
    traffic.watch(context)
    try:
        page = context.new_page()
        page.goto(f"{server}/", wait_until="load")
        for name, game in registry.games().items():
            card = page.locator(f".game[data-game='{name}']")
            assert game.title in card.inner_text() and game.blurb in card.inner_text()
            assert card.locator("a.play").get_attribute("href") == f"{name}/"
            assert card.locator(f"a[href='lab/index.html?path={game.rules}']").count() == 1
            assert f"{min(game.players)}" in card.locator(".players").inner_text()
        page.screenshot(path=SHOTS / "site-front.png", full_page=True)
        page.wait_for_timeout(500)
        traffic.check("front page")
    finally:
        context.close()


def visit_minimal(chromium, server, timings: Timings, when: str) -> None:
    context = chromium.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    traffic = Traffic(server)
    traffic.watch(context)
    try:
        for visit in ("first", "second"):
            page, frame, seconds = open_page(context, f"{server}/minimal/", MINIMAL)
            timings.add(f"minimal page ({when} of the run)", visit, seconds)
            if visit == "first":
                page.screenshot(path=SHOTS / "site-minimal.png")
            traffic.check(f"minimal page, {visit} visit")
            traffic.recording = False
            page.close()
            traffic.recording = True
    finally:
        context.close()


def test_minimal_page_at_the_start(chromium, server, timings):
    visit_minimal(chromium, server, timings, "start")


OFFLINE = "claim"  # the game whose page is opened offline once visited (each visit of a page costs the same)


@pytest.mark.parametrize("game", GAMES)  # Meetjesland too: numpy is optional since issue 23.2
def test_game_page(game, chromium, server, timings, tmp_path):
    """The game's page in an empty browser: the app, a move, a refused move's rule, save and load; then the same
    page opened again in that browser (the second visit's time: a measurement; Claim's in `make e2e`, every game's
    in `make e2e-soak`). Claim's page is opened a third time with the network gone: the browser kept its files
    (JupyterLite's service worker caches what passes through it, which is all of the second visit), and the page
    opens on a usable board."""
    context = chromium.new_context(viewport={"width": WIDTH, "height": HEIGHT}, accept_downloads=True)
    traffic = Traffic(server)
    traffic.watch(context)
    try:
        try:
            page, frame, seconds = open_page(context, f"{server}/{game}/", BOARD)
        except BaseException:
            timings.note(f"app {game}", "the page did not show a usable board")
            raise
        timings.add(f"app {game}", "first", seconds)
        frame.locator(".rulebook-status").first.wait_for(timeout=60_000)
        try:
            fits_the_window(page, frame, game)
            PLAYS[game](page, frame)
            save_and_load(page, frame, game, tmp_path)
        except BaseException:
            page.screenshot(path=SHOTS / f"site-{game}-failed.png")
            raise
        traffic.check(f"{game}, first visit")
        traffic.recording = False
        page.close()
        if not (SOAK or game == OFFLINE):
            return
        traffic.recording = True
        page, frame, seconds = open_page(context, f"{server}/{game}/", BOARD)
        timings.add(f"app {game}", "second", seconds)
        traffic.check(f"{game}, second visit")
        traffic.recording = False
        if game == OFFLINE:
            page.wait_for_timeout(5000)  # the service worker stores what it fetched
        page.close()
        if game == OFFLINE:
            context.set_offline(True)
            page, frame, _ = open_page(context, f"{server}/{game}/", BOARD)
            assert "You play" in status(frame)
            page.screenshot(path=SHOTS / f"site-{game}-offline.png")
            page.close()
    finally:
        context.close()


def test_minimal_page_at_the_end(chromium, server, timings):
    visit_minimal(chromium, server, timings, "end")
