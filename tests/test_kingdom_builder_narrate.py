"""Kingdom Builder moves told in players' words (issue 12): every kind of move, its consequences, and the marks
the board draws for the last moves. Expected sentences are written by hand from the first-game board as printed
(rows below, one letter per hex, as in test_kingdom_builder_rules.py), not produced by the engine."""

from __future__ import annotations

import dataclasses
import re

import pytest

from rulebook import kingdom_builder as kb
from rulebook.kingdom_builder import widget
from rulebook.kingdom_builder.widget import EDGES, GHOSTS, LEGAL, PATHS, PLACED, TILE_MARKS, Board
from rulebook.views import plotly_json

FIRST = "sections: tavern paddock oasis farm\ncards: fishermen knights merchants\nplayers: {players}\n"
# Rows 5, 6, 7, 9, 10 and 11 of the first-game board (G grass, C canyon, D desert, F flower, T forest, W water,
# M mountain, K castle, L location): the hexes the sentences below name.
ROW_5 = "FCCWGTTCCCCTTWCCCMFF"  # (5,7) and (5,8) canyon
ROW_6 = "DFLCWTTLCGCLTTWFFFFF"  # (6,7) tavern, (6,11) paddock
ROW_7 = "DDCWTTGGGGGGTWGKGFGT"  # (7,7) grass
ROW_10 = "DDCWWTTGGGDDCWWTTTGG"  # (10,19) grass
ROW_11 = "DCWFFTTTGGDKCWTTTLGG"  # (11,17) farm


def position(settlements: dict, hands=("grass", "grass"), players: int = 2, **replace) -> kb.State:
    rows = [["."] * 20 for _ in range(20)]
    for (row, column), player in settlements.items():
        rows[row][column] = str(player)
    text = FIRST.format(players=players) + "\n".join("".join(row) for row in rows) + "\n"
    state = kb.from_diagram(text, hands=hands)
    return dataclasses.replace(state, **replace) if replace else state


def told(state: kb.State, move) -> tuple[str, kb.State]:
    after = kb.apply(state, move)
    return kb.narrate(state, move, after), after


def test_the_rows_quoted_above_are_the_board():
    geometry = position({}).geometry
    letter = {"grass": "G", "canyon": "C", "desert": "D", "flower": "F", "forest": "T", "water": "W"}
    letter |= {"mountain": "M", "castle": "K", "location": "L"}
    for number, row in ((5, ROW_5), (6, ROW_6), (7, ROW_7), (10, ROW_10), (11, ROW_11)):
        assert "".join(letter[geometry.terrain[number * 20 + c]] for c in range(20)) == row


def test_a_build_names_terrain_hex_count_and_the_tile_taken():
    state = position({(8, 8): 0})
    text, after = told(state, kb.Build((7, 8)))  # (7,8) touches (6,8) and (6,9), not the tavern hex (6,7)
    assert text == "builds on grassland at (7,8) (settlement 1 of 3)"
    text, _ = told(after, kb.Build((7, 7)))
    assert text == "builds on grassland at (7,7) (settlement 2 of 3) and takes the Tavern tile of (6,7)"


def test_a_building_tile_and_the_end_of_a_turn():
    state = position({(10, 18): 0})  # next to the farm hex (11,17): its tile is ready
    text, after = told(state, kb.UseTile("farm", (10, 19)))
    assert text == "uses the Farm tile: builds on grassland at (10,19)"
    for hex_ in ((9, 17), (11, 18), (11, 19)):
        after = kb.apply(after, kb.Build(hex_))
    text, _ = told(after, kb.EndTurn())
    assert text == "ends the turn and discards the grassland card"


def test_a_moving_tile_tells_from_where_to_where_and_the_tiles_taken_and_lost():
    # (5,10) holds the paddock tile of (6,11); the jump to (5,8) leaves that hex without an orange neighbour.
    state = position({(5, 10): 0, (9, 9): 1}, hands=("canyon", "grass"))
    text, _ = told(state, kb.UseTile("paddock", (5, 8), (5, 10)))
    assert text == (
        "uses the Paddock tile: moves a settlement from (5,10) to canyon at (5,8) and loses the Paddock tile of (6,11)"
    )
    # (7,10) keeps the paddock hex; the jump from (5,9) to (5,7) lands next to the tavern hex (6,7).
    state = position({(5, 9): 0, (7, 10): 0})
    text, _ = told(state, kb.UseTile("paddock", (5, 7), (5, 9)))
    assert (
        text
        == "uses the Paddock tile: moves a settlement from (5,9) to canyon at (5,7) and takes the Tavern tile of (6,7)"
    )


def test_the_last_settlement_and_the_end_of_the_game_are_told():
    state = position({(7, 6): 0}, supply=(1, 40))  # (7,6) holds the tavern tile of (6,7) already
    text, after = told(state, kb.Build((7, 7)))
    assert text == (
        "builds on grassland at (7,7) (settlement 1 of 3); "
        "that was orange's last settlement: the game ends when this round is complete"
    )
    after = kb.apply(kb.apply(after, kb.EndTurn()), kb.CardDrawn("grass"))
    blue = dataclasses.replace(after, supply=(0, 1))
    text, blue = told(blue, kb.Build((9, 9)))  # row 9 "DDWWTTTGGGGGTTWGGGTT": (9,9) grass
    assert text == (
        "builds on grassland at (9,9) (settlement 1 of 3); "
        "that was blue's last settlement: the game ends with this turn"
    )
    text, _ = told(blue, kb.EndTurn())
    assert text == "ends the turn and discards the grassland card; the round is complete and the game is over"


def test_the_card_drawn_stays_hidden():
    state = kb.new_game(players=2, seed=1, first_game=True)
    text, _ = told(state, kb.CardDrawn("grass"))
    assert text == "draws a terrain card" and "grass" not in text


def test_the_mandatory_action_ending_early_is_told():
    # Every grass hex but (7,9) is blue's: orange's one grass settlement ends the mandatory action (KB-C14).
    board = list(position({}).board)
    geometry = position({}).geometry
    for index in geometry.by_terrain["grass"]:
        board[index] = 1
    board[7 * 20 + 9] = -1
    state = position({}, board=tuple(board), supply=(40, 40 - board.count(1)))
    text, after = told(state, kb.Build((7, 9)))
    assert after.mandatory_done
    assert text == (
        "builds on grassland at (7,9) (settlement 1 of 3); no free grassland hex is left, so the mandatory action ends"
    )


ENGINE_WORDS = re.compile(r"\bplayer \d|\bgrass\b|\bflower\b|\(\d+, \d+\)|\b[a-z]+_[a-z]+\b")


def test_refusals_use_colours_terrain_names_and_the_right_rule():
    state = position({(7, 6): 0, (9, 9): 1})
    cases = [
        (kb.Build((9, 9)), "KB-6.1", "cannot build at (9,9): blue already has a settlement there"),
        (
            kb.Build((9, 10)),
            "KB-6.3",
            "cannot build at (9,10): orange has free grassland hexes next to its own settlements, "
            "so the settlement must go next to one of them",
        ),
        (
            kb.Build((3, 0)),
            "KB-6.2",
            "cannot build at (3,0): it is water, and orange's card is grassland; only a Harbor tile moves a "
            "settlement onto water, and orange holds none",
        ),
        (kb.EndTurn(), "KB-4.1", "orange must still build 3 settlements on grassland before ending the turn"),
        (kb.UseTile("farm", (7, 7)), "KB-5.2", "orange has no Farm tile"),
    ]
    for move, rule, message in cases:
        error = kb.check(state, move)
        assert (error.rule, error.message) == (rule, message)
        assert not ENGINE_WORDS.search(error.message)


def test_a_tower_refused_for_adjacency_cites_KB_6_3_and_one_off_the_edge_KB_C12_4():
    """Issue 14: an edge hex refused because other edge hexes touch the player's settlements is an adjacency
    refusal (KB-6.3); only a hex off the edge is refused under the Tower's own paragraph."""
    header = "sections: tower harbor oracle barn\ncards: lords farmers hermits\nplayers: 2\n"
    empty = kb.from_diagram(header + "\n".join(["." * 20] * 20) + "\n", hands=("grass", "grass"))
    geometry = empty.geometry
    tower = next(i for i in geometry.locations if geometry.location[i] == "tower")
    holder = next(n for n in geometry.neighbours[tower] if geometry.terrain[n] in kb.TERRAINS)
    rim = sorted(i for i in geometry.buildable if geometry.on_edge[i])
    edge = rim[0]  # orange's settlement on the rim
    rows = [["."] * 20 for _ in range(20)]
    for index in (holder, edge):
        rows[index // 20][index % 20] = "0"
    state = kb.from_diagram(header + "\n".join("".join(r) for r in rows) + "\n", hands=("grass", "grass"))
    near = {m.target for m in kb.legal_moves(state) if isinstance(m, kb.UseTile) and m.tile == "tower"}
    assert near and all(r * 20 + c in geometry.neighbours[edge] for r, c in near)
    far = divmod(next(i for i in rim if i not in geometry.neighbours[edge] and i != edge), 20)
    error = kb.check(state, kb.UseTile("tower", far))
    assert error.rule == "KB-6.3" and "free building hexes on the edge next to its own settlements" in error.message
    error = kb.check(state, kb.UseTile("tower", (10, 10)))
    assert error.rule == "KB-C12.4" and error.message.endswith("(10,10) is not on it")


# --- the board: last moves marked, log and status in words ----------------------------------------------------


def table_at(settlements: dict, hands=("grass", "grass"), computer=()) -> Board:
    return Board(position(settlements, hands=hands), seed=3, computer=computer)


def at(trace) -> list[tuple[int, int]]:
    return [divmod(int(i), 20) for i in trace.customdata]


def drawn(table: Board) -> dict:
    """The board's traces by name, as its figure holds them and as it last sent them to the page."""
    view = table.figure
    assert view.figure == plotly_json(view.plot)
    return {trace.name: trace for trace in view.plot.data}


def test_a_build_is_ringed_and_its_tile_starred_until_the_next_move():
    table = table_at({(8, 8): 0})
    table.play(kb.Build((7, 7)))
    data = drawn(table)
    assert at(data[PLACED]) == [(7, 7)] and at(data[TILE_MARKS]) == [(6, 7)]
    assert list(data[TILE_MARKS].marker.symbol) == ["star"]
    assert "Orange: builds on grassland at (7,7) (settlement 1 of 3) and takes the Tavern tile of (6,7)" in (
        table.status.text
    )
    table.play(kb.Build((7, 8)))
    data = drawn(table)
    assert at(data[PLACED]) == [(7, 8)] and at(data[TILE_MARKS]) == []


def test_a_moved_settlement_leaves_a_ghost_an_arrow_and_a_crossed_out_tile():
    table = table_at({(5, 10): 0, (9, 9): 1}, hands=("canyon", "grass"))
    table.play(kb.UseTile("paddock", (5, 8), (5, 10)))
    data = drawn(table)
    assert at(data[PLACED]) == [(5, 8)] and at(data[GHOSTS]) == [(5, 10)]
    assert list(data[GHOSTS].marker.symbol) == ["circle"]  # orange's shape, faded
    assert at(data[TILE_MARKS]) == [(6, 11)] and list(data[TILE_MARKS].marker.symbol) == ["x-thin-open"]
    (x0, y0), (x1, _) = widget.hex_centre(5, 10), widget.hex_centre(5, 8)
    assert data[PATHS].x[0] == x0 and data[PATHS].y[0] == y0 and data[PATHS].x[2] is None
    assert data[PATHS].x[1] == pytest.approx(x0 + 0.75 * (x1 - x0))
    # A click on the faded piece is a click on its hex: (5,10) is canyon, but away from orange's (5,8).
    assert table.figure.click(GHOSTS, 5 * 20 + 10)
    assert "Refused by KB-6.3: cannot build at (5,10)" in table.status.text
    assert data[TILE_MARKS].hoverinfo == "skip"  # a click near the cross reaches the hex beneath


def test_computer_replies_are_marked_grouped_in_the_log_and_counted_in_the_status():
    table = Board(kb.new_game(players=2, seed=7, first_game=True), seed=7, computer=(1,))
    for _ in range(3):
        target = table.target_menu.options[1][1]
        table.play(kb.Build(target))
    table.end_button.click()
    steps = table.steps_shown()
    assert [s.player for s in steps] == [0, 1, 1, 1, 1]  # orange's End turn, blue's 3 builds and End turn
    blue = {h for s in steps[1:] for h in kb.marks(s.before, s.move, s.after).placed}
    assert len(blue) == 3 and set(at(drawn(table)[PLACED])) == blue
    assert "then Blue played 4 moves" in table.status.text
    log = table.move_log.text
    assert log.index("Blue") < log.index("Orange")  # newest first, grouped under the player's name
    assert log.count("ends the turn and discards the") == 2 and "(settlement 3 of 3)" in log


def test_the_prompt_names_the_end_turn_button_when_it_is_the_only_move():
    table = table_at({(7, 6): 0})
    assert (
        table.prompt()
        == "Orange to play: build 3 settlements on grassland, next to your own settlements where possible."
    )
    for hex_ in ((7, 7), (8, 7), (8, 8)):
        table.play(kb.Build(hex_))
    assert kb.legal_moves(table.state) == (kb.EndTurn(),)
    assert table.prompt() == "Orange to play: nothing is left to build or use this turn; press End turn."
    assert table.status.text.startswith("People play Orange and Blue. Orange to play: nothing is left")


def test_a_stale_click_is_ignored_with_a_message_and_a_fresh_one_plays():
    table = table_at({(7, 6): 0})
    view = table.figure
    older = view.revision
    assert at(drawn(table)[LEGAL]) == [(7, 7), (8, 7)]
    assert table.play(kb.Build((7, 7)))
    before = table.state
    # the ring on (7,7), clicked on the drawing before that build: it has gone, so nothing is played
    assert not view.click(LEGAL, 7 * 20 + 7, revision=older)
    assert table.state is before and "older drawing" in table.status.text
    assert not view.click(LEGAL, 8 * 20 + 7, revision=view.revision + 1)  # a drawing the page cannot have seen
    assert table.state is before and "older drawing" in table.status.text
    # the ring on (8,7) is still there: a click on it from the older drawing is a click on its hex
    assert (8, 7) in at(drawn(table)[LEGAL]) and view.click(LEGAL, 8 * 20 + 7, revision=older)
    assert table.state.board[8 * 20 + 7] == 0 and "older drawing" not in table.status.text


def test_replay_draws_the_earlier_position_with_its_move_marked_and_no_rings():
    table = table_at({(7, 6): 0})
    table.play(kb.Build((7, 7)))
    table.play(kb.Build((8, 7)))
    table.show_move(1)
    assert table.state.board[8 * 20 + 7] == -1 and at(drawn(table)[PLACED]) == [(7, 7)]
    assert at(drawn(table)[LEGAL]) == []
    table.show_move(2)
    assert at(drawn(table)[PLACED]) == [(8, 7)] and len(drawn(table)[LEGAL].customdata) > 0


def test_palettes_are_exported_for_the_colour_check():
    assert set(widget.PALETTES) == {"players", "terrain and marks"}
    for colours in widget.PALETTES.values():
        assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in colours) and len(set(colours)) == len(colours)


def test_the_terrain_odds_chart_merges_equal_lines_instead_of_hiding_them():
    """Issue 12: with 5 cards of each terrain, the five lines coincided and three were hidden. Two players each
    hold a grass card: 3 grass cards and 5 of every other terrain remain, so two lines are left, one named after
    the four terrains it stands for."""
    from rulebook.kingdom_builder import charts

    state = position({(7, 6): 0})
    assert state.pile == (3, 5, 5, 5, 5)
    figure = charts.draw_odds_figure(state, 0, max_draws=3, viewer=None)  # a referee: Blue's grass is known
    assert [trace.name for trace in figure.data] == ["grassland", "canyon = desert = flower field = forest"]
    # Orange draws next, at the end of this turn, from the 23 cards of the pile: 3 of them grass.
    assert figure.data[0].y[0] == pytest.approx(100 * 3 / 23)


def test_the_three_cards_goals_and_the_location_key_are_beside_the_board():
    table = table_at({(7, 6): 0})
    text = re.sub(r"<[^>]*>", "", table.goals.value)
    for line in (
        "Fishermen: 1 gold per settlement next to water",
        "Knights: 2 gold per settlement on your fullest row",
        "Merchants: 4 gold per location or castle linked to another by your settlements",
        "Castles: 3 gold per castle next to one of your settlements",
    ):
        assert line in text
    legend = re.sub(r"<[^>]*>", "", widget.legend_html(table.state))
    assert "Fa farm, Oa oasis, Pa paddock, Ta tavern" in legend
    # The row and column numbers the texts use are drawn along the edges: 0..19 twice.
    edges = drawn(table)[EDGES]
    assert list(edges.text) == [str(n) for n in range(20)] * 2


def test_a_card_without_a_free_hex_leaving_the_game_is_told_with_the_end_of_the_turn():
    """KB-C14: blue holds a flower card while every flower hex is taken; when orange's turn ends, the card leaves
    the game and blue draws another, and the log says so."""
    state = position({(7, 6): 0}, hands=("grass", "flower"))
    board = list(state.board)
    for index in state.geometry.by_terrain["flower"]:
        board[index] = 1
    table = Board(dataclasses.replace(state, board=tuple(board)), seed=3)
    for hex_ in ((7, 7), (8, 7), (8, 8)):
        assert table.play(kb.Build(hex_))
    assert table.play(kb.EndTurn())
    assert table.live.removed == (0, 0, 0, 1, 0) and table.live.hands[1] != "flower"
    told_line = (
        "Orange: ends the turn and discards the grassland card; a flower field card with no free hex left leaves "
        "the game and another is drawn"
    )
    assert told_line in table.status.text
