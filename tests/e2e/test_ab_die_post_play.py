"""Ab die Post played in the app in Chromium at 1280x800 as a person plays it (issue 26, items 1, 4 and 7).

A saved position is loaded where P1 (red) has flown and its marble's rings include the airport. Every kind of mark
the board highlights is clicked and must play its move: the airport's ring without a Hint and with one shown (its
star over the ring), another field's ring with the Hint shown, the Hint's star at a route's end, and the Hint's star
round the plane (draw a card, stop, fly). Then the game goes on to ten moves of the person. The same game is played
beside the page on a Python board (the app's computer players, the seed a loaded game gets), which tells where to
click and what the status must then say; once the computer players have played a few turns (their cards may then
differ), the Python board is the page's game saved with the app's Save button after each move. After every move:
no text of the board under 11 px, no label of the track over another or over a plane, the players panel as the game
has it, and the track, the players panel and the buttons where they were before the first move.

Screenshots in .e2e/: ``adp-play-loaded.png``, ``adp-play-airport.png`` (landed by a click on the airport's ring),
``adp-play-hint.png`` (the Hint's star over the airport), ``adp-play-NN.png`` after each later move."""

from __future__ import annotations

import random
import time
from pathlib import Path

from rulebook import ab_die_post as adp
from rulebook import registry
from rulebook.ab_die_post import bots, widget

from .conftest import SHOTS
from .drivers import button
from .play import BOARD, click_mark, load, measure, places, problems, status, wait_for_status
from .test_app import open_app

SEED = 1
MOVES = 10
PARTS = {
    "track": f"{BOARD} .rulebook-figure svg",
    "players": f"{BOARD} .rulebook-players",
    "Draw a card": f"{BOARD} button:has-text('Draw a card')",
}
# what no label may cover: the planes (their own number is theirs), the rings and the hint's star
MARKERS = (widget.PLANES,)


def airport_position() -> adp.State:
    """A three-player game played by the greedy player in every seat until P1 has shaken a coloured marble on the
    way out and may fly to the airport or to other fields."""
    rng = random.Random(SEED)
    state = adp.new_game(players=3, seed=SEED)
    while adp.outcome(state) is None:
        outcomes = adp.chance_outcomes(state)
        if outcomes:
            moves, weights = zip(*outcomes)
            state = adp.apply(state, rng.choices(moves, [float(w) for w in weights])[0])
            continue
        if state.player == 0 and state.phase == "move" and state.direction == 1:
            ends = {m.path[-1] for m in adp.legal_moves(state) if isinstance(m, adp.Move)}
            if "airport" in ends and len(ends) > 2:
                return state
        state = adp.apply(state, bots.BOTS["greedy"](state, rng))
    raise AssertionError("no such position in the greedy game")


def mirror(state: adp.State) -> widget.Board:
    """The Python board the app makes of a loaded save: its default computer players, seed: moves in the save."""
    computer = {seat: bot for seat, bot in registry.game("ab_die_post").default_computer.items() if seat < 3}
    table = widget.Board(state, seed=len(state.history), computer=computer)
    table.pace = "off"  # its computer moves land at once (the page plays them out at its pace; it waits for them)
    return table


def click(page, table: widget.Board, name: str, field: str) -> None:
    """Click the mark on ``field`` of the trace ``name`` on the page, and the same on the Python board."""
    customdata = list(widget.trace(table.figure.plot, name).customdata)
    point = len(customdata) - 1 - customdata[::-1].index(field)  # a route's star: its last point
    click_mark(page, table, name, point)
    assert table.figure.click(name, field)


def resync(page, seconds: float = 120) -> widget.Board:
    """The game as the page has it, once its person is to move again (or it is over): saved with the app's Save
    button and loaded into a new Python board. The page's computer players may draw other cards than the Python
    board's after a few turns (an Undo, the pace), so the test follows the page, not a prediction of it."""
    deadline = time.monotonic() + seconds
    while True:
        with page.expect_download(timeout=30_000) as saving:
            page.locator(".rulebook-app .rulebook-save").first.click()
        state = adp.from_json(Path(saving.value.path()).read_text(encoding="utf-8"))
        if adp.outcome(state) is not None or (state.player == 0 and not adp.chance_outcomes(state)):
            table = mirror(state)
            settled(page, table)
            return table
        assert time.monotonic() < deadline, "the page's computer players never gave the person the turn back"
        time.sleep(1)


def settled(page, table: widget.Board) -> str:
    """The page's status once it tells what the Python board tells (computer turns may be played out one by one)."""
    return wait_for_status(page, " ".join(table.prompt().split())[:70])


def check(page, table: widget.Board, start: dict, when: str) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")
    time.sleep(0.8)
    drawn = measure(page)
    found = problems(drawn, MARKERS)
    assert found == [], (when, found)
    assert places(page, PARTS) == start, (when, places(page, PARTS), start)
    rows = page.locator(f"{BOARD} .rulebook-players table.rb-mj-players tr:has(td)")
    state = table.state
    assert rows.count() == state.players, when
    for player in range(state.players):
        cells = [" ".join(text.split()) for text in rows.nth(player).locator("td").all_inner_texts()]
        row = table.player_row(player)
        assert cells[1] == str(state.scores[player]) and cells[3].startswith(str(sum(state.hands[player]))), cells
        assert cells[2] == row["where"] and ("▶" in cells[0]) == row["to_move"], (when, cells)
    assert "earlier drawing" not in status(page) and "Refused" not in status(page), (when, status(page))


def undo(page, table: widget.Board) -> None:
    button(page.locator(BOARD).first, "Undo").click()
    table.undo()
    settled(page, table)


def hint(page, table: widget.Board) -> object:
    page.locator(".rulebook-hint").first.click()
    move = table.hint()
    wait_for_status(page, "Hint")
    time.sleep(0.8)
    return move


def test_every_ring_and_star_plays_its_move_and_the_track_stays_still_and_legible(browser, apps, tmp_path):
    state = airport_position()
    saved = tmp_path / "adp-airport.json"
    saved.write_text(adp.to_json(state), encoding="utf-8")
    page, _ = open_app(browser, apps, "ab_die_post")
    try:
        load(page, saved, "click an orange ring")
        table = mirror(state)
        start = places(page, PARTS)
        page.screenshot(path=SHOTS / "adp-play-loaded.png")
        check(page, table, start, "loaded")
        # the airport's ring, no Hint shown
        click(page, table, widget.TARGETS, "airport")
        flown = table.state.history[len(state.history)]
        assert isinstance(flown, adp.Move) and flown.path[-1] == "airport", flown
        settled(page, table)
        page.screenshot(path=SHOTS / "adp-play-airport.png")
        check(page, table, start, "landed at the airport")
        undo(page, table)
        # the airport's ring with the Hint shown: its star may lie over the ring, the click still flies there
        hint(page, table)
        page.screenshot(path=SHOTS / "adp-play-hint.png")
        check(page, table, start, "hint shown")
        click(page, table, widget.TARGETS, "airport")
        settled(page, table)
        undo(page, table)
        # the Hint's star at its route's end (the airport: a landing Undo takes back)
        move = hint(page, table)
        assert isinstance(move, adp.Move), move
        click(page, table, widget.SUGGESTED, move.path[-1])
        settled(page, table)
        check(page, table, start, "the hint's star clicked")
        if move.path[-1] == "airport":
            undo(page, table)
        # another field's ring with the Hint shown (the computers' hurricanes then keep Undo from going back)
        if table.state.phase == "move":
            hint(page, table)
            other = next(f for f in table.target_trace.customdata if f != "airport")
            click(page, table, widget.TARGETS, other)
            table = resync(page)
            check(page, table, start, "another ring clicked with the Hint shown")
        # ten moves of the person: rings clicked, the Hint's star round the plane, buttons
        for number in range(1, MOVES + 1):
            if adp.outcome(table.state) is not None:
                break
            now = table.state
            legal = adp.legal_moves(now)
            board = page.locator(BOARD).first
            if now.phase == "move":
                click(page, table, widget.TARGETS, table.target_trace.customdata[0])
            elif now.phase == "turn" and number % 3 == 1:
                suggested = hint(page, table)
                assert suggested is not None and not isinstance(suggested, adp.Move)
                click(page, table, widget.SUGGESTED, now.positions[now.player])
            elif now.phase == "turn":
                move = adp.Fly() if adp.Fly() in legal else adp.Stop() if now.drawn else adp.DrawCard()
                label = {adp.Fly(): "Fly", adp.Stop(): "Stop drawing", adp.DrawCard(): "Draw a card"}[move]
                button(board, label).click()
            else:  # a repair or the card to keep: the list's first choice, Play choice
                button(board, "Play choice").click()
            table = resync(page)
            page.screenshot(path=SHOTS / f"adp-play-{number:02d}.png")
            if adp.outcome(table.state) is not None:  # the app's banner says so above the board: the game is over
                break
            check(page, table, start, f"move {number}")
    finally:
        page.close()
