"""Kingdom Builder played in the app in Chromium at 1280x800 as a person plays it (issue 26, items 1, 4, 7 and 8).

A saved position of the rulebook's first game is loaded where Orange, to move, holds a Farm and a Paddock tile, both
usable. Every kind of mark the board highlights is clicked and must play its move: a tile's ring (the tile is chosen
and its targets ringed; Escape, then a second click, put it back), the Paddock's settlement and then its target, a
build's ring with the Hint shown (its dashed outline over the ring) and without, a tile's target after the three
builds. A click on water says why in Orange's situation, with KB-6.2. The same game is played beside the page on a
Python board (the app's computer player, the seed a loaded game gets), which tells where to click and what the status
must then say. After every move: no text of the board under 11 px, no label over another or over a settlement, the
players panel as the game has it, and the board, the panel and the buttons where they were before the first move.

Screenshots in .e2e/: ``kb-play-loaded.png``, ``kb-play-tile-chosen.png`` (the Farm chosen by a click, its targets
ringed), ``kb-play-paddock-origin.png``, ``kb-play-hint.png``, ``kb-play-water.png``, ``kb-play-NN.png`` after each
later move."""

from __future__ import annotations

import random
import time

from rulebook import kingdom_builder as kb
from rulebook import registry
from rulebook.kingdom_builder import bots, widget
from rulebook.views import trace

from .conftest import SHOTS
from .drivers import button
from .play import BOARD, click_mark, drawn_points, load, measure, places, problems, status, wait_for_status
from .test_app import open_app

SEED = 3
MOVES = 10
PARTS = {
    "board": f"{BOARD} .rulebook-figure svg",
    "players": f"{BOARD} .rulebook-players",
    "End turn": f"{BOARD} button:has-text('End turn')",
}
MARKERS = (widget.SETTLEMENTS,)  # what no label may cover (a settlement's own number is its own)


def tile_position() -> kb.State:
    """The rulebook's first game (seed 7) played by the greedy player in both seats until Orange begins a turn
    holding a Farm and a Paddock, both usable."""
    rng = random.Random(SEED)
    state = kb.new_game(players=2, seed=7, first_game=True)
    while not state.finished:
        outcomes = kb.chance_outcomes(state)
        if outcomes:
            moves, weights = zip(*outcomes)
            state = kb.apply(state, rng.choices(moves, [float(w) for w in weights])[0])
            continue
        if state.player == 0 and state.built == 0 and not state.mandatory_done:
            kinds = {m.tile for m in kb.legal_moves(state) if isinstance(m, kb.UseTile)}
            if {"farm", "paddock"} <= kinds:
                return state
        state = kb.apply(state, bots.BOTS["greedy"](state, rng))
    raise AssertionError("no such position in the greedy game")


def mirror(state: kb.State) -> widget.Board:
    """The Python board the app makes of a loaded save: its default computer player, seed: moves in the save."""
    computer = dict(registry.game("kingdom_builder").default_computer)
    table = widget.Board(state, seed=len(state.history), computer=computer)
    table.pace = "off"  # its computer moves land at once (the page plays them out at its pace; it waits for them)
    return table


def ring_of(table: widget.Board, hex_: tuple[int, int]) -> int:
    """The index of the red ring on ``hex_`` in the page's drawing of the legal rings."""
    rings = list(trace(table.figure.plot, widget.LEGAL).customdata)
    return rings.index(hex_[0] * 20 + hex_[1])


def click_ring(page, table: widget.Board, hex_: tuple[int, int]) -> None:
    """Click the red ring on ``hex_`` on the page, and the hex on the Python board."""
    click_mark(page, table, widget.LEGAL, ring_of(table, hex_))
    table.select(hex_)


def tile_hex(table: widget.Board, kind: str) -> tuple[int, int]:
    state = table.state
    return next(divmod(t.location, 20) for t in state.tiles[state.player] if t.kind == kind)


def settled(page, table: widget.Board) -> str:
    """The page's status once it tells what the Python board tells (its prompt and its message)."""
    wait_for_status(page, " ".join(table.prompt().split())[:70])
    return wait_for_status(page, " ".join(table.message.split())[:70]) if table.message else status(page)


def check(page, table: widget.Board, start: dict | None, when: str) -> None:
    """Legible, the players panel as the game has it, and (``start`` given) the board's parts where they were."""
    page.evaluate("() => window.scrollTo(0, 0)")
    time.sleep(0.8)
    drawn = measure(page)
    found = problems(drawn, MARKERS)
    assert found == [], (when, found)
    if start is not None:
        assert places(page, PARTS) == start, (when, places(page, PARTS), start)
    assert drawn_points(page, table, widget.LEGAL) == len(trace(table.figure.plot, widget.LEGAL).x), when
    rows = page.locator(f"{BOARD} .rulebook-players tr.rb-mj-players-row:not(.rb-kb-players-tiles)")
    state = table.state
    assert rows.count() == state.players, when
    for player in range(state.players):
        cells = [" ".join(text.split()) for text in rows.nth(player).locator("td").all_inner_texts()]
        built = sum(1 for owner in state.board if owner == player)
        assert cells[1:3] == [str(state.supply[player]), str(built)], (when, cells)
        assert cells[4] == str(kb.score(state)[player]["total"]), (when, cells)
        assert ("▶" in cells[0]) == (player == state.player), (when, cells)
    assert "earlier drawing" not in status(page), (when, status(page))


def test_tiles_rings_and_the_hint_play_by_clicks_and_the_board_stays_still_and_legible(browser, apps, tmp_path):
    state = tile_position()
    saved = tmp_path / "kb-tiles.json"
    saved.write_text(kb.to_json(state), encoding="utf-8")
    page, _ = open_app(browser, apps, "kingdom_builder")
    try:
        load(page, saved, "Orange to play")
        table = mirror(state)
        start = places(page, PARTS)
        page.screenshot(path=SHOTS / "kb-play-loaded.png")
        check(page, table, start, "loaded")
        cells = page.locator(f"{BOARD} .rulebook-players").first.inner_text()
        assert "Farm" in cells and "Paddock" in cells and "hidden" in cells, cells  # Blue's card is not shown
        # the Farm's ring: chosen, its targets ringed; Escape puts it back; so does a second click
        farm = tile_hex(table, "farm")
        click_ring(page, table, farm)
        assert table.action_menu.value == "farm"
        settled(page, table)
        check(page, table, start, "farm chosen")
        page.screenshot(path=SHOTS / "kb-play-tile-chosen.png")
        page.keyboard.press("Escape")
        table.escape_key.press()
        assert wait_for_status(page, "Farm tile put back") and table.action_menu.value == "build"
        click_ring(page, table, farm)
        click_ring(page, table, farm)
        assert wait_for_status(page, "Farm tile put back") and table.action_menu.value == "build"
        # the Paddock: its ring, a ringed settlement, a ringed target
        click_ring(page, table, tile_hex(table, "paddock"))
        settled(page, table)
        origin = next(
            m.origin for m in kb.legal_moves(table.state) if isinstance(m, kb.UseTile) and m.tile == "paddock"
        )
        click_ring(page, table, origin)
        assert table.origin == origin
        settled(page, table)
        page.screenshot(path=SHOTS / "kb-play-paddock-origin.png")
        target = next(m.target for m in kb.legal_moves(table.state) if isinstance(m, kb.UseTile) and m.origin == origin)
        click_ring(page, table, target)
        assert table.state.board[target[0] * 20 + target[1]] == 0, "the Paddock was not played"
        settled(page, table)
        check(page, table, start, "paddock played")
        # water: refused in Orange's words, with KB-6.2
        water = next(divmod(i, 20) for i, t in enumerate(table.state.geometry.terrain) if t == "water")
        click_mark(page, table, widget.HEXES, water[0] * 20 + water[1])
        table.select(water)
        words = wait_for_status(page, "Refused by KB-6.2")
        assert "it is water, and orange's card is" in words and "Harbor" in words, words
        page.screenshot(path=SHOTS / "kb-play-water.png")
        check(page, table, start, "water refused")
        # a build with the Hint shown: its dashed outline lies over the ring, the click still builds
        page.locator(".rulebook-hint").first.click()
        move = table.hint()
        wait_for_status(page, "Hint")
        time.sleep(0.8)
        page.screenshot(path=SHOTS / "kb-play-hint.png")
        check(page, table, start, "hint shown")
        if not isinstance(move, kb.Build):  # the Hint would use the Farm first: build where its ring is
            move = next(m for m in kb.legal_moves(table.state) if isinstance(m, kb.Build))
        click_ring(page, table, move.hex)
        assert table.state.built == 1
        settled(page, table)
        played = 0
        while played < MOVES:
            now = table.state
            moves = kb.legal_moves(now)
            if now.player != 0:
                raise AssertionError(f"the person is not to move: {table.prompt()}")
            builds = [m for m in moves if isinstance(m, kb.Build)]
            farm = [m for m in moves if isinstance(m, kb.UseTile) and m.tile == "farm"]
            if builds:
                click_ring(page, table, builds[0].hex)
            elif farm and table.action_menu.value != "farm":
                click_ring(page, table, tile_hex(table, "farm"))  # after the three builds, the Farm's ring
                settled(page, table)
                click_ring(page, table, farm[0].target)
            else:
                button(page.locator(BOARD).first, "End turn").click()
                assert table.play(kb.EndTurn())
            settled(page, table)
            played += 1
            page.screenshot(path=SHOTS / f"kb-play-{played:02d}.png")
            over = table.state.finished  # Blue's last settlements can end the game: its banner comes above the board
            check(page, table, None if over else start, f"move {played}")
            assert "Refused" not in status(page), status(page)
            if over:
                assert "Game over" in status(page), status(page)
                break
    finally:
        page.close()
