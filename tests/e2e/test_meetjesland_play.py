"""Meetjesland played in the app as a person plays it, in Chromium at 1280x800 (issue 26, items 1, 3, 4, 7 and 8).

The same game is played in Python beside the page (the app's game: four players, seed 1, three greedy computer
players), so the test knows where to click; after each move the page's status must tell what the Python board
tells. After every move the test measures the drawn map: no text of the SVG over another text, over a piece, a
ghost of lost points, an arrow's dot or head, or a hint's mark; no text under 11 px anywhere on the board; and the
map's SVG where it was before the first move (getBoundingClientRect), so the status line never pushes it.

Screenshots in .e2e/: ``meetjesland-play-aiming.png`` (an attack chosen: the stake at its most and its chance
shown), ``meetjesland-play-NN.png`` after each move, ``meetjesland-play-hint.png`` (a hint on the map),
``meetjesland-play-hint-click.png`` (the hinted attack chosen by clicking its territories, the hint still drawn:
issue 26.1)."""

from __future__ import annotations

import itertools
import math
import time

from rulebook import meetjesland as mj
from rulebook.meetjesland import odds
from rulebook.meetjesland.widget import Board, percent

from .conftest import SHOTS
from .drivers import button, choose, new_game, type_seed
from .test_app import open_app

MOVES = 10
MARKERS = ("territories", "last move losses", "last move arrows", "hint", "hint words")  # what no text may cover
MEASURE = """(board) => {
  const svg = board.querySelector('.rulebook-figure svg');
  const box = (element) => { const r = element.getBoundingClientRect();
    return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; };
  const layer = (element) => element.closest('g.trace')?.dataset.name ?? '';
  const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim())
    .map((t) => ({...box(t), layer: layer(t), text: t.textContent, size: parseFloat(t.getAttribute('font-size'))}));
  const markers = [...svg.querySelectorAll('path.point')].map((p) => ({...box(p), layer: layer(p)}));
  const small = [];
  const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!node.textContent.trim() || !element || element.closest('svg') || !element.checkVisibility()) continue;
    const size = parseFloat(getComputedStyle(element).fontSize);
    if (size < 11) small.push([node.textContent.trim().slice(0, 40), size]);
  }
  return {where: box(svg), texts, markers, small};
}"""


def shared(a: dict, b: dict) -> float:
    """The area two boxes share, px² (half a pixel each way is rounding, not overlap)."""
    dx = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) - 0.5
    dy = min(a["y1"], b["y1"]) - max(a["y0"], b["y0"]) - 0.5
    return dx * dy if dx > 0 and dy > 0 else 0.0


def own_marker(text: dict, marker: dict) -> bool:
    """A text drawn with its own marker (a piece's points, a ghost's "−n"): same layer, the marker's centre within
    8 px of the text."""
    x, y = (marker["x0"] + marker["x1"]) / 2, (marker["y0"] + marker["y1"]) / 2
    dx = max(text["x0"] - x, 0, x - text["x1"])
    dy = max(text["y0"] - y, 0, y - text["y1"])
    return text["layer"] == marker["layer"] and dx <= 8 and dy <= 8


def problems(drawn: dict) -> list[str]:
    """What a player could not read on the map as drawn: texts over texts, over markers, and small texts."""
    found = []
    texts = drawn["texts"]
    for a, b in itertools.combinations(texts, 2):
        if shared(a, b):
            found.append(f"{a['text']!r} ({a['layer']}) over {b['text']!r} ({b['layer']})")
    for text in texts:
        for marker in drawn["markers"]:
            if marker["layer"] in MARKERS and not own_marker(text, marker) and shared(text, marker):
                found.append(f"{text['text']!r} ({text['layer']}) over a marker of {marker['layer']}")
        if text["size"] < 11:
            found.append(f"{text['text']!r} is {text['size']} px")
    found += [f"{words!r} is {size} px" for words, size in drawn["small"]]
    return found


def status(page) -> str:
    return " ".join(page.locator(".rulebook-status").first.inner_text().split())


def wait_for_status(page, words: str, before: str, seconds: float = 60) -> str:
    """The page's status line once it has changed from ``before`` and holds ``words`` (the Python board's message)."""
    deadline = time.monotonic() + seconds
    now = ""
    while time.monotonic() < deadline:
        now = status(page)
        if words in now and now != before:
            return now
        time.sleep(0.3)
    raise AssertionError(f"the page's status never said {words!r}; it says {now!r}")


def said(table: Board) -> str:
    """The first words of the Python board's message (the page's status shows the same)."""
    return " ".join(table.message.split())[:60]


def piece_centre(page, table: Board, territory: str) -> tuple[float, float]:
    """Where the piece of ``territory`` is on the page's map (the territories layer's point of that index)."""
    layer = [drawn.name for drawn in table.figure.plot.data].index("territories")
    point = table.state.board.index[territory]
    piece = page.locator(f".rulebook-figure g.trace[data-trace='{layer}'] path.point[data-point='{point}']").first
    box = piece.bounding_box()
    assert box is not None, territory
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def click_territory(page, table: Board, territory: str, towards: str | None = None) -> None:
    """Click the piece of ``territory``: its centre, or a point of it 8 px from the centre towards the piece of
    ``towards`` (still on the piece, 23 px across: where an arrow between the two, stopped 14 px short of the
    centre, lays its 14 px head over it)."""
    x, y = piece_centre(page, table, territory)
    if towards is not None:
        other = piece_centre(page, table, towards)
        length = math.hypot(other[0] - x, other[1] - y)
        x, y = x + 8 * (other[0] - x) / length, y + 8 * (other[1] - y) / length
    page.mouse.click(x, y)
    time.sleep(0.5)


def amount(page, name: str):
    """The range input of the board's Points or Stake."""
    return page.locator(".rulebook-board .rb-mj-amount", has=page.locator(f"text={name}")).locator("input").first


def readout(page, name: str) -> str:
    control = page.locator(".rulebook-board .rb-mj-amount", has=page.locator(f"text={name}")).first
    return control.locator("output").inner_text()


def best_attack(state: mj.State) -> tuple[str, str] | None:
    """The attack with the best chance at the largest stake, if it is at least even."""
    options = [
        (float(odds.win_probability(state.points_on(o) - 1, state.points_on(t))), o, t)
        for o in state.territories_of(state.turn)
        if state.points_on(o) >= 2
        for t in state.board.neighbours[o]
        if state.owner_of(t) != state.turn
    ]
    if state.stage == "reinforce" or not options or max(options)[0] < 0.5:
        return None
    _, origin, target = max(options)
    return origin, target


def aim(page, table: Board, origin: str, target: str, first: bool, hinted: bool = False) -> None:
    """Click an attack's origin and target: the stake starts at its most and the odds line tells its exact chance;
    the first time, the stake is moved with the keyboard (Home, End, the arrows) and the odds follow. ``hinted``: the
    Hint's arrow joins the two, and each is clicked on its side towards the other, under the arrow's ends."""
    state = table.state
    name = state.board.name
    for territory in (origin, origin, target):  # a second click on the origin if the first chose a move's end
        if territory == origin and table.origin == origin and table.target is None:
            continue
        click_territory(page, table, territory, towards=(target if territory == origin else origin) if hinted else None)
        table.select(territory)
    assert (table.origin, table.target) == (origin, target)
    most = state.points_on(origin) - 1
    defenders = state.points_on(target)
    chance = percent(odds.win_probability(most, defenders, exact=True))
    line = f"Chance to take {name(target)} with {most} against {defenders}: {chance}"
    page.locator(".rulebook-board .widget-html", has_text=line).first.wait_for(timeout=30_000)
    assert readout(page, "Stake") == str(most) and table.stake.value == most
    if first:
        page.screenshot(path=SHOTS / "meetjesland-play-aiming.png")
        slider = amount(page, "Stake")
        slider.click()  # a click gives it the keyboard
        for key, value in (("Home", 1), ("ArrowRight", min(2, most)), ("End", most), ("ArrowLeft", max(1, most - 1))):
            slider.press(key)
            words = f"Chance to take {name(target)} with {value} against {defenders}: "
            page.locator(".rulebook-board .widget-html", has_text=words).first.wait_for(timeout=30_000)
            assert readout(page, "Stake") == str(value), key
        slider.press("End")
        page.locator(".rulebook-board .widget-html", has_text=line).first.wait_for(timeout=30_000)


def place_all(page, table: Board) -> None:
    """Put every point to place on the person's strongest territory: click it, End on Points (all), Place."""
    state = table.state
    territory = max(state.territories_of(state.turn), key=state.points_on)
    table.select(territory)
    click_territory(page, table, territory)
    table.amount.value = state.to_place
    slider = amount(page, "Points")
    slider.click()
    slider.press("End")
    deadline = time.monotonic() + 20
    while readout(page, "Points") != str(state.to_place) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert readout(page, "Points") == str(state.to_place)
    assert table.play(mj.Place(territory, state.to_place))
    button(page.locator(".rulebook-board").first, "Place").click()


def next_move(page, table: Board, attacks: int) -> tuple[str, int]:
    """Play the person's next move on the page and on the Python board alike; returns what it was."""
    state = table.state
    board = page.locator(".rulebook-board").first
    if state.phase == "setup":
        table.auto_button.click()
        button(board, "Auto-place").click()
        return "auto-place", attacks
    if state.battle is not None:
        table.blitz_button.click()
        button(board, "Roll to the end").click()
        return "roll to the end", attacks
    if state.to_place:
        place_all(page, table)
        return "place", attacks
    chosen = best_attack(state) if attacks < 2 else None
    if chosen is not None:
        aim(page, table, *chosen, first=attacks == 0)
        assert table.play(mj.Attack(*chosen, table.stake.value))
        button(board, "Attack").click()
        return "attack", attacks + 1
    if state.stage == "start":
        table.reinforce_button.click()
        button(board, "Reinforce").click()
        return "reinforce", attacks
    table.end_button.click()
    button(board, "End turn").click()
    return "end turn", 0


def check_players_panel(page, table: Board) -> None:
    """The players panel tells each player's territories, points and cards as the game has them, the player to move
    marked."""
    panel = page.locator(".rulebook-board .rulebook-players").first
    column = panel.evaluate("e => e.parentElement.getBoundingClientRect().right")  # the controls column
    table_box = panel.locator("table").first.bounding_box()
    assert table_box["x"] + table_box["width"] <= column + 1, (table_box, column)  # no column cut off
    rows = panel.locator("tr.rb-mj-players-row")
    state = table.state
    assert rows.count() == state.players
    for player in range(state.players):
        cells = [" ".join(text.split()) for text in rows.nth(player).locator("td").all_inner_texts()]
        held = state.territories_of(player)
        assert mj.PLAYER_COLOURS[player] in cells[0]
        assert cells[1:4] == [str(len(held)), str(sum(state.points_on(t) for t in held)), str(len(state.hands[player]))]
        assert ("▶" in cells[0]) == (player == state.turn), cells


def hover_says(page, table: Board, territory: str) -> str:
    layer = [drawn.name for drawn in table.figure.plot.data].index("territories")
    point = table.state.board.index[territory]
    piece = page.locator(f".rulebook-figure g.trace[data-trace='{layer}'] path.point[data-point='{point}']").first
    box = piece.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    label = page.locator(".rulebook-board .rulebook-figure-label").first
    label.wait_for(state="visible", timeout=10_000)
    return label.inner_text()


def test_ten_moves_keep_the_map_still_and_every_label_clear(browser, apps):
    page, _ = open_app(browser, apps, "meetjesland")
    try:
        choose(page, "Players", "4")
        type_seed(page, "1")
        new_game(page)
        table = Board(mj.new_game(players=4, seed=1), seed=1, computer={1: "greedy", 2: "greedy", 3: "greedy"})
        board = page.locator(".rulebook-app .rulebook-board").first
        page.evaluate("() => window.scrollTo(0, 0)")
        first = board.evaluate(MEASURE)
        assert problems(first) == [], problems(first)
        start = first["where"]
        assert start["y1"] <= 800 and start["x1"] <= 1280, start  # the whole map in the first screen
        # item 8: a territory without a number says nothing of a bonus; one with a number tells it
        plain, numbered = (
            next(t for t in table.state.board.territories if bool(table.state.board.number(t)) is want)
            for want in (False, True)
        )
        assert "bonus" not in hover_says(page, table, plain)
        assert f"bonus number {table.state.board.number(numbered)}" in hover_says(page, table, numbered)
        page.mouse.move(5, 795)
        attacks, played, seen = 0, [], []
        while len(played) < MOVES:
            before = status(page)
            what, attacks = next_move(page, table, attacks)
            wait_for_status(page, said(table), before)
            page.mouse.move(5, 795)  # no hover label over the map
            time.sleep(0.8)  # the map's redraw (requestAnimationFrame)
            played.append(what)
            drawn = board.evaluate(MEASURE)
            seen.append(drawn["where"])
            page.screenshot(path=SHOTS / f"meetjesland-play-{len(played):02d}.png")
            assert problems(drawn) == [], (len(played), what, problems(drawn))
            check_players_panel(page, table)
        moved = [
            (what, where) for what, where in zip(played, seen) if any(abs(where[k] - start[k]) > 0.5 for k in where)
        ]
        assert moved == [], (start, moved)
        assert {"auto-place", "attack", "end turn"} <= set(played), played  # the computers answered at least once
        # a hint: its arrow or star and words on the map, clear of every name and mark
        before = status(page)
        page.locator(".rulebook-hint").first.click()
        hinted = table.hint()  # the same hint: seeded by the game's seed and its number of positions
        wait_for_status(page, said(table), before)
        time.sleep(0.8)
        drawn = board.evaluate(MEASURE)
        page.screenshot(path=SHOTS / "meetjesland-play-hint.png")
        assert isinstance(hinted, mj.Attack), f"the hint {hinted} is no attack: this test clicks an attack's ends"
        assert any(text["layer"] == "hint words" for text in drawn["texts"]), drawn["texts"]
        assert problems(drawn) == [], problems(drawn)
        assert drawn["where"] == start
        # item 1: the hinted attack's territories take a click where the hint's arrow lies over their pieces (its
        # head over the target's): the page's odds line then tells that attack at the hinted stake (the most), and
        # the Attack button plays it
        aim(page, table, hinted.origin, hinted.target, first=False, hinted=True)
        page.mouse.move(5, 795)
        time.sleep(0.8)  # the map's redraw
        shown = [text["text"] for text in board.evaluate(MEASURE)["texts"] if text["layer"] == "hint words"]
        assert shown, "the hint is no longer drawn: the clicks were not made with it shown"
        page.screenshot(path=SHOTS / "meetjesland-play-hint-click.png")
        assert table.stake.value == hinted.stake and table.play(hinted)
        before = status(page)
        button(board, "Attack").click()
        wait_for_status(page, said(table), before)
    finally:
        page.close()
