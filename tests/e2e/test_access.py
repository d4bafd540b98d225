"""Every learner can play (issue 28), checked in a real browser: axe-core (axe-playwright-python ships it) finds no
violation of impact "serious" or "critical" in the rulebook's own elements on each game's app page (as served, after
a New game, with each tab beside the board open: in tests/e2e/test_offline_app.py's visit of each app) and on each
game's notebook run in JupyterLab (that one in tests/e2e/test_browser.py's test_game_in_jupyterlab, on the page it
runs the notebook on: one run of each notebook); each game is played ten moves with the keyboard only; a computer's
reply is read out of the log's live region.

Violations in JupyterLab's or Voila's own elements (outside the rulebook's widgets) are counted apart and written,
with every count, to .e2e/axe.md: they are not the project's to fix."""

from __future__ import annotations

import json
import time

import pytest

from .conftest import SHOTS
from .test_app import open_app

GAMES = ("meetjesland", "kingdom_builder", "ab_die_post", "claim")
SERIOUS = ("serious", "critical")
# what the rulebook draws: its app, its boards and explorers, and every widget output of a notebook's cells
OURS = ".rulebook-app, .rulebook-board, .rulebook-explorer, .jp-OutputArea-output, .widget-box, .jupyter-widgets"
REPORT = SHOTS / "axe.md"


def axe_findings(page, where: str) -> tuple[list[str], list[str]]:
    """axe's serious and critical violations on the page: (the rulebook's, JupyterLab's or Voila's), each as
    "rule: element"; every count goes to .e2e/axe.md."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page).response
    ours: list[str] = []
    theirs: list[str] = []
    for violation in results["violations"]:
        if violation.get("impact") not in SERIOUS:
            continue
        for node in violation["nodes"]:
            target = node["target"][0] if node["target"] else ""
            inside = page.evaluate(
                "([selector, ours]) => { try { return Boolean(document.querySelector(selector)?.closest(ours)); }"
                " catch { return false; } }",
                [target if isinstance(target, str) else json.dumps(target), OURS],
            )
            why = " ".join(node.get("failureSummary", "").split())[:240] if inside else ""  # axe's measure of it
            (ours if inside else theirs).append(
                f"{violation['id']} ({violation['impact']}): {target} {node['html'][:120]} {why}".rstrip()
            )
    with open(REPORT, "a", encoding="utf-8") as report:
        report.write(
            f"| {where} | {len(ours)} | {len(theirs)} | {'; '.join(sorted({t.split(':')[0] for t in theirs}))} |\n"
        )
        for finding in ours:
            report.write(f"|  | {finding.replace('|', '/')} | | |\n")
        examples = {finding.split(":")[0]: finding for finding in theirs}  # one element of each of their rules
        for finding in sorted(examples.values()):
            report.write(f"|  | | {finding.replace('|', '/')} | |\n")
    return ours, theirs


def tabs(page):
    return page.locator(".rulebook-app .lm-TabBar-tab")


def every_tab_without_serious_violations(page, game: str) -> list[str]:
    """axe on the app page as it is (after a New game and a move) and with each tab beside the board open in turn;
    every chart shown is an image with words (an explorer's with its sentence). The rulebook's serious and critical
    findings. tests/e2e/test_offline_app.py runs it on each game's app, opened there in an empty browser (issue 29.4:
    one page a game for both, not two)."""
    found = axe_findings(page, f"app {game}: after New game and a move")[0]
    for index in range(tabs(page).count()):
        tab = tabs(page).nth(index)
        name = tab.inner_text().strip()
        tab.click()
        time.sleep(2.5)  # an explorer computes, a chart loads plotly
        found += axe_findings(page, f"app {game}: tab {name}")[0]
        charts = page.locator(".rulebook-app .rulebook-chart:visible")
        for chart in (charts.nth(i) for i in range(charts.count())):  # a chart is an image with words
            assert chart.get_attribute("role") == "img" and chart.get_attribute("aria-label"), name
            if chart.evaluate("(e) => Boolean(e.closest('.rulebook-explorer'))"):
                said = chart.evaluate(
                    "(e) => (e.getAttribute('aria-describedby') || '').split(' ').filter(Boolean)"
                    ".map((id) => document.getElementById(id)?.innerText ?? '').join(' ')"
                )
                assert said.strip(), f"{game} {name}: a chart of the explorer without its sentence"
    page.screenshot(path=SHOTS / f"axe-app-{game}.png")
    return found


# -- the keyboard only ---------------------------------------------------------------------------------------------

FOCUSED = """() => { const e = document.activeElement; if (!e) return null;
  return {tag: e.tagName, cls: String(e.className), label: e.getAttribute('aria-label') || e.innerText || '',
          text: (e.innerText || '').trim(), type: e.type || '', disabled: Boolean(e.disabled),
          key: e.dataset?.key ?? null}; }"""
PLACES = """() => [...document.querySelectorAll('.rulebook-app .rulebook-board .rulebook-figure-place')].map(
  (b) => ({key: b.dataset.key, label: b.getAttribute('aria-label'), x: Number(b.dataset.x), y: Number(b.dataset.y)}))"""
ARROWS = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}


def step_from(places: list[dict], here: dict, dx: int, dy: int) -> dict | None:
    """Where an arrow key goes, by board.js's rule: the nearest place in its direction (distance plus the sideways
    offset), one outside the 45 degree cone only when none is inside."""
    best = None
    for place in places:
        if place["key"] == here["key"]:
            continue
        vx, vy = place["x"] - here["x"], place["y"] - here["y"]
        along = vx * dx + vy * dy
        if along <= 0.5:
            continue
        across = abs(vx * dy - vy * dx)
        score = (vx * vx + vy * vy) ** 0.5 + across + (100000 if across > along else 0)
        if best is None or score < best[0]:
            best = (score, place)
    return best[1] if best else None


def arrow_path(places: list[dict], start: str, goal: str) -> list[str]:
    """The arrow keys that take the keyboard from place ``start`` to place ``goal`` (breadth first)."""
    by_key = {place["key"]: place for place in places}
    paths = {start: []}
    queue = [start]
    while queue:
        key = queue.pop(0)
        if key == goal:
            return paths[key]
        for arrow, (dx, dy) in ARROWS.items():
            after = step_from(places, by_key[key], dx, dy)
            if after is not None and after["key"] not in paths:
                paths[after["key"]] = [*paths[key], arrow]
                queue.append(after["key"])
    raise AssertionError(f"no arrow keys lead from {by_key[start]['label']!r} to {by_key[goal]['label']!r}")


def tab_to(page, wanted, limit: int = 400) -> dict:
    """Press Tab until the focused element is ``wanted`` (a test of the focused element's description)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = page.evaluate(FOCUSED)
        if now and wanted(now):
            return now
    raise AssertionError(f"Tab never reached the element wanted; the status: {status(page)!r}")


def status(page) -> str:
    return page.locator(".rulebook-app .rulebook-status").first.inner_text()


def after_key(page, before: str, places: list, seconds: float = 30) -> str:
    """The status line once the kernel has answered (it changed from ``before``, and the board's ``places``
    changed with it, where they do), or as it is after ``seconds``."""
    deadline = time.monotonic() + seconds
    redrawn = None  # when the board was seen changed while the status was not: a move that only selects a place
    while time.monotonic() < deadline:
        now = status(page)
        if now != before and "(computer) is to move" not in now:
            # the board's figure comes in a message of its own, drawn at the next frame: its places' words change
            # (within a second on a busy machine; a card drawn leaves them as they were)
            drawn = time.monotonic() + 2
            while page.evaluate(PLACES) == places and time.monotonic() < drawn:
                time.sleep(0.2)
            return status(page)
        if redrawn is None and page.evaluate(PLACES) != places:
            redrawn = time.monotonic()
        if redrawn is not None and time.monotonic() > redrawn + 2:  # the status stayed as it was: the answer
            return now
        time.sleep(0.3)
    return status(page)


BUSY = ("The computer plays", "(computer) is to move", "Skip to the end")  # the computer's turn, told move by move


def person_to_move(page, seconds: float = 120) -> str:
    """The status line once the computer players have made their moves (the app tells them one by one). The status
    names a computer player's turn ("Blue (computer) sets up: ...") from the moment the person's move is answered,
    and the pace's "Skip to the end" may come a message later: both are waited out."""
    deadline = time.monotonic() + seconds

    def busy() -> bool:
        board = page.locator(".rulebook-app .rulebook-board").first.inner_text()
        return "(computer)" in status(page) or any(words in board for words in BUSY)

    while busy() and time.monotonic() < deadline:
        time.sleep(0.5)
    return status(page)


def on_board(page) -> dict:
    """The keyboard on the board: Tab until one of its places has the focus."""
    now = page.evaluate(FOCUSED)
    if now and "rulebook-figure-place" in now["cls"]:
        return now
    return tab_to(page, lambda focused: "rulebook-figure-place" in focused["cls"])


def play_place(page, wanted) -> str:
    """Go with the arrow keys to the first place whose label ``wanted`` accepts and press Enter; the status after.
    One key at a time, the path worked out again from where the keyboard is after each (the board may redraw on
    the way: a reply told late)."""
    here = on_board(page)
    for _ in range(120):
        places = page.evaluate(PLACES)
        goal = next((place for place in places if wanted(place["label"])), None)
        assert goal is not None, [place["label"] for place in places][:20]
        if here["key"] == goal["key"]:
            break
        page.keyboard.press(arrow_path(places, here["key"], goal["key"])[0])
        here = on_board(page)
    assert page.evaluate(FOCUSED)["key"] == goal["key"], (page.evaluate(FOCUSED), goal)
    before, places = status(page), page.evaluate(PLACES)
    page.keyboard.press("Enter")
    return after_key(page, before, places)


def press(page, text: str) -> str:
    """Tab to the enabled button reading ``text`` and press Enter; the status after."""
    tab_to(page, lambda focused: focused["tag"] == "BUTTON" and focused["text"] == text and not focused["disabled"])
    before, places = status(page), page.evaluate(PLACES)
    page.keyboard.press("Enter")
    return after_key(page, before, places)


def meetjesland_move(page) -> str:
    person_to_move(page)
    if "place" in status(page).lower() and any("you may place here" in p["label"] for p in page.evaluate(PLACES)):
        play_place(page, lambda label: "you may place here" in label)
        tab_to(page, lambda focused: focused["type"] == "range" and focused["label"] == "Points")
        page.keyboard.press("End")
        page.keyboard.press("Home")  # one point a move: the slider answers Home and End
        return press(page, "Place")
    if "press Reinforce" in status(page):  # the turn's reinforcements, to be placed by the keyboard as above
        return press(page, "Reinforce")
    return press(page, "End turn")


def kingdom_builder_move(page) -> str:
    person_to_move(page)

    def build(label: str) -> bool:  # a ringed hex that is no location (a tile's ring chooses the tile)
        return "; legal" in label and "location" not in label.lower()

    if any(build(place["label"]) for place in page.evaluate(PLACES)):
        return play_place(page, build)
    return press(page, "End turn")


def ab_die_post_move(page) -> str:
    person_to_move(page)
    now = status(page)
    if "click an orange ring" in now:
        return play_place(page, lambda label: "fly here" in label)
    for cue, button in (("click Stay put", "Stay put"), ("or Fly (", "Fly"), ("or Stop drawing", "Stop drawing")):
        if cue in now:
            return press(page, button)
    if "Play choice" in now:
        return press(page, "Play choice")
    return press(page, "Draw a card")


def claim_move(page) -> str:
    person_to_move(page)
    if "place" in status(page) and "tower" not in status(page):
        return play_place(page, lambda label: "piece" not in label)
    if "remove" in status(page):
        return play_place(page, lambda label: "piece on" in label and "red piece" not in label)
    return press(page, "Stop")


KEYBOARD = {
    "meetjesland": meetjesland_move,
    "kingdom_builder": kingdom_builder_move,
    "ab_die_post": ab_die_post_move,
    "claim": claim_move,
}


@pytest.mark.parametrize("game", GAMES)
def test_ten_moves_with_the_keyboard_only(game, browser, apps):
    page, _ = open_app(browser, apps, game)
    try:
        page.locator(".rulebook-app .rulebook-figure-place").first.wait_for(state="attached", timeout=60_000)
        page.mouse.move(1, 1)
        page.evaluate("() => document.activeElement?.blur()")
        on_board(page)
        ring = page.locator(".rulebook-app .rulebook-figure-ring svg circle")
        assert ring.count() == 2, "no focus ring drawn around the place the keyboard is on"
        moves = logged = 0
        for _ in range(40):
            if "Game over" in person_to_move(page):  # the app's game has a new seed each visit: a computer may win
                logged += page.locator(".rulebook-app .rulebook-log [data-step]").count()
                told = press(page, "New game")  # the banner's, with the keyboard too
                assert "Game over" not in told, told
                continue
            told = KEYBOARD[game](page)
            assert "Refused" not in told and "Traceback" not in told, told
            moves += 1
            if moves == 3:
                page.screenshot(path=SHOTS / f"keyboard-{game}.png")
            if moves >= 10:
                break
        log = page.locator(".rulebook-app .rulebook-log [data-step]")
        assert logged + log.count() >= 10, (logged, log.count())
        assert moves >= 10
    finally:
        page.close()


# -- board.js's keyboard places, in a page of their own (no kernel: a stand-in records what the page sends) ------


@pytest.fixture()
def blank(browser):
    """An empty page of its own address, as test_board_js's (no page error allowed)."""
    from .test_board_js import SITE

    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route(f"{SITE}/", lambda route: route.fulfill(body="<!doctype html><body></body>", content_type="text/html"))
    page.goto(f"{SITE}/")
    yield page
    page.close()
    assert not errors, errors


def test_the_board_s_places_answer_tab_arrows_enter_space_home_end_and_escape(blank):
    import plotly.graph_objects as go

    from rulebook.views import BoardView

    from .test_board_js import BOARD_JS, HARNESS

    xs, ys = [0, 1, 2, 0, 1, 2, 0, 1, 2], [2, 2, 2, 1, 1, 1, 0, 0, 0]
    plot = go.Figure(
        [
            go.Scatter(
                x=xs,
                y=ys,
                mode="markers",
                name="cells",
                customdata=[f"c{i}" for i in range(9)],
                hovertext=[f"cell {i}<br>empty" for i in range(9)],
                hoverinfo="text",
                marker={"size": 30},
            ),
            go.Scatter(
                x=[1],
                y=[1],
                mode="markers",
                name="rings",
                hoverinfo="skip",
                customdata=["c4"],
                marker={"symbol": "circle-open", "size": 36},
            ),
            go.Scatter(x=[5], y=[5], mode="markers", name="decor", hoverinfo="skip"),
        ],
        layout={"width": 400, "height": 400, "xaxis": {"visible": False}, "yaxis": {"visible": False}},
    )
    view = BoardView(plot)
    view.on_click("cells", lambda point: None)
    view.on_click("rings", lambda point: None)
    state = {"figure": view.figure, "revision": view.revision, "clickable": view.clickable}
    blank.evaluate(HARNESS, [BOARD_JS, {"board": json.loads(json.dumps(state))}])
    places = blank.locator("#board .rulebook-figure-place")
    assert places.count() == 9  # one a place: the ring at the centre is on the centre cell's place
    labels = places.evaluate_all("els => els.map((e) => e.getAttribute('aria-label'))")
    assert labels[0] == "cell 0, empty" and labels[4] == "cell 4, empty; rings"
    assert blank.locator("#board [role=group]").get_attribute("aria-label").endswith("Escape lets go of a choice.")
    blank.keyboard.press("Tab")
    focused = "() => document.activeElement.getAttribute('aria-label')"
    assert blank.evaluate(focused) == "cell 0, empty"
    assert blank.locator("#board .rulebook-figure-ring circle").count() == 2  # the ring: white under black
    for key, label in (
        ("ArrowRight", 1),
        ("ArrowDown", 4),
        ("ArrowDown", 7),
        ("ArrowLeft", 6),
        ("ArrowUp", 3),
        ("ArrowLeft", 3),
        ("End", 8),
        ("Home", 0),
        ("ArrowRight", 1),
        ("ArrowDown", 4),
    ):
        blank.keyboard.press(key)
        assert blank.evaluate(focused).startswith(f"cell {label},"), (key, blank.evaluate(focused))
    blank.keyboard.press("Enter")
    blank.keyboard.press("ArrowUp")
    blank.keyboard.press(" ")
    blank.keyboard.press("Escape")
    messages = [  # not the {event: "shown"} the view sends once it is made (test_board_js checks it)
        value for _, key, value in blank.evaluate("window.sent") if key == "send" and value.get("event") != "shown"
    ]
    revision = view.revision
    assert messages == [
        {"event": "click", "trace": "rings", "point": "c4", "revision": revision},  # the trace drawn on top
        {"event": "click", "trace": "cells", "point": "c1", "revision": revision},
        {"event": "cancel", "revision": revision},
    ]
    # a redraw keeps the keyboard where it was, and a place that went sends it to the nearest one left
    view.plot.data[0].update(x=xs[:2] + xs[3:], y=ys[:2] + ys[3:], customdata=[f"c{i}" for i in range(9) if i != 2])
    view.draw()
    blank.evaluate(
        "(state) => window.models.board.update(state)",
        json.loads(json.dumps({"figure": view.figure, "revision": view.revision})),
    )
    blank.wait_for_timeout(150)
    assert blank.evaluate(focused) == "cell 1, empty"
    assert places.count() == 8


def test_a_computer_reply_is_read_out_from_the_live_region(browser, apps):
    """Claim: two pieces placed with the keyboard, then the computer places its own; the page's announcer (a live
    region outside the folded log) says the computer's moves, and the status line is a live region (role status)."""
    page, _ = open_app(browser, apps, "claim")
    try:
        page.locator(".rulebook-app .rulebook-figure-place").first.wait_for(state="attached", timeout=60_000)
        announcer = page.locator("#rulebook-announcer")
        assert announcer.get_attribute("aria-live") == "polite"
        live = page.locator(".rulebook-app .rulebook-status [role=status]").first
        assert "You play" in live.inner_text()
        for _ in range(2):
            claim_move(page)
        deadline = time.monotonic() + 60
        while "(computer)" not in announcer.text_content() and time.monotonic() < deadline:
            time.sleep(0.5)
        said = announcer.text_content()
        assert "(computer): places a piece on" in said, said
        assert "Your turn" in live.inner_text() or "(computer)" in live.inner_text(), live.inner_text()
    finally:
        page.close()
