"""Kingdom Builder: one scenario per rule paragraph (KB-n.m) and clarification (KB-Cn), from written positions.

Expected hex sets are read by hand off the first-game board printed in the notebook (rows 0-19, odd rows
shifted half a hex right), not computed with the engine's own helpers."""

from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction

import pytest

from rulebook import kingdom_builder as kb
from tests import helpers
from tests.helpers import KB_FIRST as FIRST
from tests.helpers import kb_diagram as diagram

OTHER = "sections: tower harbor oracle barn*\ncards: lords farmers hermits\nplayers: {players}\n"

# The first-game board, read off the published section layouts (one letter per hex, see the notebook).
FIRST_BOARD = [
    "FDDMMDDCCCCCCDDWDDDD",
    "FFDDDMMCCCMMCDDWDDDD",
    "FFFFFFFMMMMMCMMWDDLF",
    "WWFKGGTTMMMCMMWMDFFF",
    "FFWWGGGTTCCCTTWMMCFF",
    "FCCWGTTCCCCTTWCCCMFF",
    "DFLCWTTLCGCLTTWFFFFF",
    "DDCWTTGGGGGGTWGKGFGT",
    "DDDWTTTGGGGGTTWGGGGT",
    "DDWWTTTGGGGGTTWGGGTT",
    "DDCWWTTGGGDDCWWTTTGG",
    "DCWFFTTTGGDKCWTTTLGG",
    "DDWFFTTLFGCCCFFFTCFF",
    "WWWFGTFFFFCCFFWDDCCF",
    "WWWWGGGGFFCGGWFFDDCC",
    "WTTWGGCCDCGGLFWFWDDC",
    "WTCTWGCCDCGGGTFFWWDD",
    "WKCFWLDDCWGGTTMWWWDW",
    "WWCFWWWDDWGMTTWWWWWW",
    "WWWWWWWWWWTTTWWWWWWW",
]
LETTER = {
    "G": "grass",
    "C": "canyon",
    "D": "desert",
    "F": "flower",
    "T": "forest",
    "W": "water",
    "M": "mountain",
    "K": "castle",
    "L": "location",
}


def position(settlements: dict, hands=("grass", "grass"), header: str = FIRST, player: int = 0, **options):
    return kb.from_diagram(diagram(settlements, header, len(hands)), hands=hands, player=player, **options)


refused = functools.partial(helpers.refused, kb)


def builds(state) -> set:
    return {m.hex for m in kb.legal_moves(state) if isinstance(m, kb.Build)}


def tile_targets(state, tile, origin=None) -> set:
    return {
        m.target for m in kb.legal_moves(state) if isinstance(m, kb.UseTile) and m.tile == tile and m.origin == origin
    }


def hexes_of(letter: str) -> set:
    return {(r, c) for r in range(20) for c in range(20) if FIRST_BOARD[r][c] == letter}


# --- components and board (KB-1.x, KB-3.x, KB-C1, KB-C3) ---------------------------------------------------


def neighbours(row, column):
    """Independent odd-r neighbour rule (odd rows sit half a hex to the right)."""
    shift = row % 2
    around = [
        (row, column - 1),
        (row, column + 1),
        (row - 1, column - 1 + shift),
        (row - 1, column + shift),
        (row + 1, column - 1 + shift),
        (row + 1, column + shift),
    ]
    return {(r, c) for r, c in around if 0 <= r < 20 and 0 <= c < 20}


def test_KB_1_1_full_board_graph_has_400_hexes_and_1121_edges():
    for sections in (kb.FIRST_GAME_SECTIONS, (("tower", True), ("harbor", False), ("oracle", True), ("barn", True))):
        graph = kb.board_graph(sections)
        assert graph.number_of_nodes() == 400
        assert graph.number_of_edges() == 1121
        for node in graph:
            assert set(graph[node]) == neighbours(*node)


def test_KB_C12_8_straight_line_steps_are_the_six_neighbours():
    geometry = kb.rules.board_for(kb.FIRST_GAME_SECTIONS)
    for index in range(400):
        steps = {s for s in geometry.steps[index] if s >= 0}
        assert steps == set(geometry.neighbours[index])
        for direction, step in enumerate(geometry.steps[index]):
            if step >= 0:  # stepping back returns: east/west, north-east/south-west, north-west/south-east
                assert geometry.steps[step][(1, 0, 5, 4, 3, 2)[direction]] == index


def test_KB_1_1_first_game_terrain_matches_the_printed_sections_and_turning_maps_i_j_to_9_minus():
    graph = kb.board_graph(kb.FIRST_GAME_SECTIONS)
    for r in range(20):
        for c in range(20):
            assert graph.nodes[(r, c)]["terrain"] == LETTER[FIRST_BOARD[r][c]], (r, c)
    turned = kb.board_graph((("tavern", True), ("paddock", False), ("oasis", False), ("farm", False)))
    for i in range(10):
        for j in range(10):
            assert turned.nodes[(9 - i, 9 - j)]["terrain"] == LETTER[FIRST_BOARD[i][j]]
    assert graph.nodes[(12, 7)]["location"] == "oasis" and graph.nodes[(3, 3)]["castle"]
    assert graph.nodes[(0, 5)]["on_edge"] and not graph.nodes[(10, 10)]["on_edge"]
    assert [graph.nodes[h]["sector"] for h in ((0, 0), (0, 10), (10, 0), (19, 19))] == [0, 1, 2, 3]
    assert graph.nodes[(12, 7)]["tiles"] == 2 and graph.nodes[(12, 8)]["section"] == "oasis"


def test_KB_3_1_every_section_has_three_special_hexes():
    for name in kb.SECTIONS:
        others = [s for s in kb.SECTIONS if s != name][:3]
        graph = kb.board_graph(((name, False),) + tuple((s, False) for s in others))
        in_section = [n for n, d in graph.nodes(data=True) if d["section"] == name]
        locations = [n for n in in_section if graph.nodes[n]["location"]]
        castles = [n for n in in_section if graph.nodes[n]["castle"]]
        assert len(locations) + len(castles) == 3
        assert (len(locations), len(castles)) == ((1, 2) if name in ("oracle", "harbor") else (2, 1))
        assert {graph.nodes[n]["location"] for n in locations} == {name}


def test_KB_1_2_KB_1_3_KB_3_3_supplies_and_terrain_deck():
    state = kb.new_game(players=3, seed=5)
    assert state.supply == (40, 40, 40)
    outcomes = kb.chance_outcomes(state)
    assert [(o.terrain, p) for o, p in outcomes] == [(t, Fraction(1, 5)) for t in kb.TERRAINS]
    assert sum(state.pile) == 25


def test_KB_1_4_KB_1_5_KB_1_6_cards_tiles_and_start_player():
    assert len(set(kb.KINGDOM_BUILDER_CARDS)) == 10 and len(set(kb.LOCATIONS)) == 8
    every_section = kb.board_graph((("tavern", False), ("paddock", False), ("oasis", False), ("farm", False)))
    others = kb.board_graph((("tower", False), ("harbor", False), ("oracle", False), ("barn", False)))
    kinds = {d["location"] for g in (every_section, others) for _, d in g.nodes(data=True) if d["location"]}
    assert kinds == set(kb.LOCATIONS)
    state = kb.new_game(players=4, seed=2)
    for terrain in ("grass", "grass", "desert", "forest"):
        state = kb.apply(state, kb.CardDrawn(terrain))
    assert state.player == 0  # the start player moves first once every player holds a card
    for card in kb.KINGDOM_BUILDER_CARDS:
        assert kb.card_scores(state, card) == (0, 0, 0, 0)


def test_KB_3_2_two_tiles_per_location_hex_then_none():
    # Players 0 and 1 touch the tavern at (6,7) and hold its two tiles; player 2 gets none.
    state = position({(7, 6): 0, (5, 6): 1}, hands=("grass", "grass", "grass"), player=2)
    state = kb.apply(state, kb.Build((7, 7)))
    assert [t for t in state.tiles_of(2) if t[1] == (6, 7)] == []
    assert dict(state.tiles_left)[6 * 20 + 7] == 0


def test_KB_3_4_KB_C2_first_game_and_random_setups():
    first = kb.new_game(players=2, seed=9, first_game=True)
    assert first.sections == kb.FIRST_GAME_SECTIONS and first.cards == kb.FIRST_GAME_CARDS
    seen = set()
    for seed in range(12):
        state = kb.new_game(players=2, seed=seed)
        assert len({name for name, _ in state.sections}) == 4 and len(set(state.cards)) == 3
        assert state == kb.new_game(players=2, seed=seed)
        seen.update(turned for _, turned in state.sections)
    assert seen == {True, False}
    with pytest.raises(ValueError, match="2 to 4"):
        kb.new_game(players=5, seed=1)
    with pytest.raises(ValueError, match="unknown section"):
        kb.new_game(players=2, seed=1, sections=[("castle", False)] * 4)


def test_KB_3_5_each_card_hidden_from_the_others():
    state = kb.new_game(players=3, seed=1, first_game=True)
    for terrain in ("grass", "desert", "flower"):
        state = kb.apply(state, kb.CardDrawn(terrain))
    assert state.player == 0 and state.hands == ("grass", "desert", "flower")
    seen_by_1 = kb.view(state, 1)
    # The player to move has revealed the card; player 2's stays hidden from player 1.
    assert seen_by_1.hands == ("grass", "desert", None) and seen_by_1.history == ()
    assert kb.view(state, 2).hands == ("grass", None, "flower")


# --- turn and mandatory action ----------------------------------------------------------------------------


def test_KB_4_1_three_settlements_on_the_card_terrain_then_no_more():
    state = position({}, hands=("grass", "canyon"))
    refused(state, kb.EndTurn(), "KB-4.1")
    refused(state, kb.Build((0, 7)), "KB-4.1")  # canyon, not grass
    for hex_ in ((9, 9), (9, 8), (9, 10)):
        state = kb.apply(state, kb.Build(hex_))
    assert state.supply == (37, 40)
    refused(state, kb.Build((8, 9)), "KB-4.1")
    assert kb.legal_moves(state) == (kb.EndTurn(),)


def test_KB_5_1_first_settlement_anywhere_then_next_to_it():
    state = position({}, hands=("grass", "grass"))
    assert builds(state) == hexes_of("G")
    state = kb.apply(state, kb.Build((9, 9)))
    # (9,9) is on an odd row: its neighbours are (9,8) (9,10) (8,9) (8,10) (10,9) (10,10); (10,10) is desert.
    assert builds(state) == {(9, 8), (9, 10), (8, 9), (8, 10), (10, 9)}


def test_KB_6_1_one_settlement_per_hex():
    state = position({(9, 9): 1}, hands=("grass", "grass"))
    error = refused(state, kb.Build((9, 9)), "KB-6.1")
    assert "(9,9)" in error.message and "blue already has a settlement" in error.message


def test_KB_6_2_only_the_five_terrains():
    state = position({(2, 6): 0}, hands=("flower", "grass"))
    refused(state, kb.Build((2, 7)), "KB-6.2")  # mountain next to the settlement
    refused(state, kb.Build((3, 3)), "KB-6.2")  # castle
    refused(state, kb.Build((3, 0)), "KB-6.2")  # water


def test_KB_6_3_KB_C5_next_to_own_settlement_where_possible():
    state = position({(7, 6): 0, (16, 16): 1}, hands=("grass", "grass"))
    # (7,6) touches (7,5) T, (7,7) G, (6,6) T, (6,7) tavern, (8,6) T, (8,7) G.
    assert builds(state) == {(7, 7), (8, 7)}
    error = refused(state, kb.Build((9, 9)), "KB-6.3")
    assert "grass" in error.message
    # Judged for each settlement against every own settlement: player 1's only neighbours are water.
    state = dataclasses.replace(state, player=1)
    assert builds(state) == hexes_of("G") - {(7, 6)}


def test_KB_5_2_tile_taken_next_to_a_location_usable_next_turn():
    state = position({(8, 8): 0}, hands=("grass", "desert"))
    state = kb.apply(state, kb.Build((7, 8)))  # (7,8) touches (6,8) and (6,9), not the tavern hex (6,7)
    assert state.tiles_of(0) == ()
    state = kb.apply(state, kb.Build((7, 7)))  # (7,7) touches (6,7): the tavern
    assert state.tiles_of(0) == (("tavern", (6, 7), "pending"),)
    state = kb.apply(state, kb.Build((7, 6)))
    error = refused(state, kb.UseTile("tavern", (7, 5)), "KB-5.2")
    assert "next turn" in error.message
    refused(state, kb.UseTile("farm", (7, 9)), "KB-5.2")
    state = kb.apply(state, kb.EndTurn())
    state = kb.apply(state, kb.CardDrawn("grass"))
    assert state.player == 1 and state.tiles_of(0) == (("tavern", (6, 7), "ready"),)
    # One tile per location hex: touching (6,7) again gives nothing; the other tavern hex (6,2) gives a second one.
    state = position({(7, 6): 0, (6, 1): 0}, hands=("flower", "grass"))
    assert state.tiles_of(0) == (("tavern", (6, 2), "ready"), ("tavern", (6, 7), "ready"))


def test_KB_C11_each_tile_once_per_turn_and_two_identical_tiles_twice_KB_7_1():
    state = position({(2, 17): 0, (7, 10): 0}, hands=("grass", "grass"))  # both paddock hexes: two paddock tiles
    state = kb.apply(state, kb.UseTile("paddock", (2, 19), (2, 17)))
    state = kb.apply(state, kb.UseTile("paddock", (5, 11), (7, 10)))  # over the paddock hex, still next to it
    assert [status for _, _, status in state.tiles_of(0)] == ["used", "used"]
    refused(state, kb.UseTile("paddock", (5, 13), (5, 11)), "KB-7.1")


def test_KB_C8_tiles_taken_when_moved_next_to_a_location_and_never_twice_from_one_hex():
    # Player 0 holds the paddock of (6,11) via (7,10) and jumps (5,9) two hexes west onto (5,7), next to the
    # tavern hex (6,7): a moved settlement takes a tile like a built one.
    state = position({(5, 9): 0, (7, 10): 0}, hands=("grass", "grass"))
    assert state.tiles_of(0) == (("paddock", (6, 11), "ready"),)
    state = kb.apply(state, kb.UseTile("paddock", (5, 7), (5, 9)))
    assert state.tiles_of(0) == (("paddock", (6, 11), "used"), ("tavern", (6, 7), "pending"))
    assert state.supply == (38, 40) and (0, 6 * 20 + 7) in state.taken


def test_KB_5_3_tile_lost_when_no_settlement_stays_next_to_its_hex():
    state = position({(5, 10): 0, (9, 9): 1}, hands=("canyon", "grass"))
    assert state.tiles_of(0) == (("paddock", (6, 11), "ready"),)
    # Jump (5,10) -> (5,8): nothing of player 0 touches the paddock hex (6,11) any more.
    state = kb.apply(state, kb.UseTile("paddock", (5, 8), (5, 10)))
    assert state.tiles_of(0) == ()
    assert dict(state.tiles_left)[6 * 20 + 11] == 1  # the lost tile left the game, it is not put back
    state = kb.apply(state, kb.Build((5, 9)))
    state = kb.apply(state, kb.Build((5, 10)))  # back next to (6,11): no new tile from that hex
    state = kb.apply(state, kb.Build((4, 9)))
    assert state.tiles_of(0) == ()


def test_KB_C9_tile_loss_at_the_end_of_the_turn_as_an_option():
    config = kb.Config(tile_loss="end_of_turn")
    state = position({(5, 10): 0}, hands=("canyon", "grass"), config=config)
    state = kb.apply(state, kb.UseTile("paddock", (5, 8), (5, 10)))
    assert state.tiles_of(0) == (("paddock", (6, 11), "used"),)
    start = state
    for hex_ in ((5, 7), (4, 9), (6, 8)):
        state = kb.apply(state, kb.Build(hex_))
    state = kb.apply(state, kb.EndTurn())
    assert state.tiles_of(0) == (("tavern", (6, 7), "ready"),)  # the paddock is gone, (5,7) took a tavern
    # Coming back next to the hex before the turn ends keeps the tile.
    for hex_ in ((5, 9), (5, 10), (4, 9)):
        start = kb.apply(start, kb.Build(hex_))
    start = kb.apply(start, kb.EndTurn())
    assert start.tiles_of(0) == (("paddock", (6, 11), "ready"),)
    with pytest.raises(ValueError, match="tile_loss"):
        kb.Config(tile_loss="never")


def test_KB_C10_of_two_identical_tiles_the_used_one_is_given_up():
    # Player 0 holds both paddock tiles: from (2,18) (via (2,17)) and from (6,11) (via (5,10)).
    state = position({(2, 17): 0, (5, 10): 0}, hands=("grass", "grass"))
    assert [t[0] for t in state.tiles_of(0)] == ["paddock", "paddock"]
    state = kb.apply(state, kb.UseTile("paddock", (5, 8), (5, 10)))  # leaves (6,11), using one paddock
    assert state.tiles_of(0) == (("paddock", (2, 18), "ready"),)
    assert kb.check(state, kb.UseTile("paddock", (2, 19), (2, 17))) is None


def test_KB_C13_a_moved_settlement_must_leave_its_hex_unless_configured():
    header = OTHER
    settlements = {(12, 18): 0, (9, 17): 1}  # player 0 touches the barn at (13,17)
    state = position(settlements, hands=("grass", "grass"), header=header)
    assert state.tiles_of(0) == (("barn", (13, 17), "ready"),)
    refused(state, kb.UseTile("barn", (12, 18), (12, 18)), "KB-C13")
    assert (12, 18) not in tile_targets(state, "barn", (12, 18))
    relaxed = position(settlements, hands=("grass", "grass"), header=header, config=kb.Config(move_in_place=True))
    assert (12, 18) in tile_targets(relaxed, "barn", (12, 18))


# --- the eight location tiles (KB-C12.1 - KB-C12.8) ------------------------------------------------------------


def test_KB_C12_1_oracle_builds_on_the_card_terrain_next_to_own_KB_6_3_KB_7_1():
    state = position({(12, 8): 0}, hands=("flower", "grass"), header=OTHER)  # (12,8) touches the oracle (13,7)
    assert state.tiles_of(0) == (("oracle", (13, 7), "ready"),)
    # (12,8) even row: (12,7) G (12,9) T (11,7) T (11,8) T (13,7) oracle (13,8) T -> no flower next to it.
    assert tile_targets(state, "oracle") == {
        (r, c)
        for r in range(20)
        for c in range(20)
        if kb.board_graph(state.sections).nodes[(r, c)]["terrain"] == "flower"
    }
    state = position({(13, 6): 0}, hands=("flower", "grass"), header=OTHER)
    # (13,6) odd row touches (13,5) W, (13,7) oracle, (12,6) W, (12,7) G, (14,6) F, (14,7) F.
    assert tile_targets(state, "oracle") == {(14, 6), (14, 7)}
    refused(state, kb.UseTile("oracle", (12, 1)), "KB-6.3")
    after = kb.apply(state, kb.UseTile("oracle", (14, 6)))
    assert after.supply[0] == state.supply[0] - 1 and after.tiles_of(0)[0][2] == "used"
    refused(after, kb.UseTile("oracle", (14, 7)), "KB-7.1")


def test_KB_C12_2_farm_builds_on_grass():
    state = position({(11, 16): 0}, hands=("canyon", "grass"))  # (11,16) touches the farm (11,17)
    # (11,16) odd row: (11,15) T (11,17) farm (10,16) T (10,17) T (12,16) T (12,17) K? -> no grass around.
    assert tile_targets(state, "farm") == hexes_of("G")
    refused(state, kb.UseTile("farm", (11, 15)), "KB-C12.2")


def test_KB_C12_3_oasis_builds_on_desert():
    state = position({(12, 6): 0}, hands=("grass", "grass"))  # (12,6) touches the oasis (12,7)
    # (12,6) even row: (12,5) T (12,7) oasis (11,5) T (11,6) T (13,5) T (13,6) F: no desert next to it.
    assert tile_targets(state, "oasis") == hexes_of("D")
    refused(state, kb.UseTile("oasis", (12, 8)), "KB-C12.3")


def test_KB_C12_4_tower_builds_on_the_outer_edge():
    state = position({(2, 5): 0}, hands=("grass", "grass"), header=OTHER)  # (2,5) touches the tower (3,5)
    graph = kb.board_graph(state.sections)
    edge = {n for n, d in graph.nodes(data=True) if d["on_edge"] and d["terrain"] in kb.TERRAINS}
    assert tile_targets(state, "tower") == edge
    refused(state, kb.UseTile("tower", (10, 10)), "KB-C12.4")
    refused(state, kb.UseTile("tower", (0, 4)), "KB-6.2")  # a mountain on the edge
    state = position({(2, 5): 0, (1, 2): 0}, hands=("grass", "grass"), header=OTHER)
    # (1,2) odd row touches edge hexes (0,2) T and (0,3) T; adjacency restricts the tower to them.
    assert tile_targets(state, "tower") == {(0, 2), (0, 3)}


def test_KB_C12_5_tavern_extends_a_line_of_three():
    # Row 8: own settlements at (8,7) (8,8) (8,9) all grass; the tavern at (6,7) is held via (7,7).
    state = position({(7, 7): 0, (8, 7): 0, (8, 8): 0, (8, 9): 0}, hands=("desert", "grass"))
    assert ("tavern", (6, 7), "ready") in state.tiles_of(0)
    # East end (8,10) G, west end (8,6) T; the diagonal (7,7)-(8,7) is only two long.
    assert tile_targets(state, "tavern") == {(8, 6), (8, 10)}
    refused(state, kb.UseTile("tavern", (8, 11)), "KB-C12.5")
    after = kb.apply(state, kb.UseTile("tavern", (8, 10)))
    assert after.board[8 * 20 + 10] == 0


def test_KB_C12_6_barn_moves_to_the_card_terrain_next_to_the_rest():
    state = position({(12, 18): 0, (14, 19): 0}, hands=("grass", "grass"), header=OTHER)
    assert state.tiles_of(0) == (("barn", (13, 17), "ready"),)
    # Moving (14,19): the settlement is lifted first; grass next to (12,18) is (12,19) (11,17) (11,18) (13,18).
    assert tile_targets(state, "barn", (14, 19)) == {(12, 19), (11, 17), (11, 18), (13, 18)}
    refused(state, kb.UseTile("barn", (10, 0), (14, 19)), "KB-6.3")
    refused(state, kb.UseTile("barn", (11, 18), (1, 1)), "KB-C12.6")
    after = kb.apply(state, kb.UseTile("barn", (11, 18), (14, 19)))
    assert after.supply == state.supply and after.board[14 * 20 + 19] == -1


def test_KB_C12_7_harbor_moves_onto_water_KB_6_2_KB_6_3():
    state = position({(7, 17): 0}, hands=("grass", "grass"), header=OTHER)  # (7,17) touches the harbor (7,16)
    water = {h for h, d in kb.board_graph(state.sections).nodes(data=True) if d["terrain"] == "water"}
    # (7,17) odd row: (7,16) harbor (7,18) M (6,17) D (6,18) D (8,17) C (8,18) C: no water next to it.
    assert tile_targets(state, "harbor", (7, 17)) == water
    refused(state, kb.Build((3, 4)), "KB-6.2")  # water only with the harbor
    state = position({(7, 17): 0, (6, 16): 0}, hands=("grass", "grass"), header=OTHER)
    # Lifting (7,17) leaves (6,16), whose only water neighbour is (7,15).
    assert tile_targets(state, "harbor", (7, 17)) == {(7, 15)}
    assert tile_targets(state, "harbor", (6, 16)) == water
    refused(state, kb.UseTile("harbor", (8, 16), (7, 17)), "KB-6.3")
    moved = kb.apply(state, kb.UseTile("harbor", (7, 15), (7, 17)))
    assert moved.board[7 * 20 + 15] == 0 and moved.board[7 * 20 + 17] == -1
    assert moved.tiles_of(0) == (("harbor", (7, 16), "used"),)


def test_KB_C12_8_paddock_jumps_two_hexes_in_a_straight_line():
    state = position({(5, 10): 0, (4, 10): 1}, hands=("grass", "grass"))
    # From (5,10) (odd row), two steps in each of the 6 directions, keeping empty buildable hexes:
    # E (5,12) T, W (5,8) C, NE (3,11) C, NW (3,10) M no, SE (7,11) G, SW (7,9) G.
    assert tile_targets(state, "paddock", (5, 10)) == {(5, 12), (5, 8), (3, 11), (7, 11), (7, 9)}
    refused(state, kb.UseTile("paddock", (3, 10), (5, 10)), "KB-C12.8")
    refused(state, kb.UseTile("paddock", (5, 11), (5, 10)), "KB-C12.8")
    refused(state, kb.UseTile("paddock", (5, 12), (4, 10)), "KB-C12.8")  # not player 0's settlement


# --- bonus actions, end of turn, useless cards -----------------------------------------------------------


def test_KB_7_1_tiles_before_or_after_never_during_the_mandatory_action():
    state = position({(5, 10): 0}, hands=("grass", "grass"))
    before = kb.apply(state, kb.UseTile("paddock", (7, 11), (5, 10)))
    assert before.tiles_of(0) == (("paddock", (6, 11), "used"),)
    refused(before, kb.UseTile("paddock", (7, 9), (7, 11)), "KB-7.1")
    state = kb.apply(state, kb.Build((7, 11)))
    error = refused(state, kb.UseTile("paddock", (5, 12), (5, 10)), "KB-7.1")
    assert "1 of 3" in error.message
    state = kb.apply(state, kb.Build((7, 10)))
    state = kb.apply(state, kb.Build((8, 10)))
    assert kb.check(state, kb.UseTile("paddock", (5, 12), (5, 10))) is None
    assert kb.EndTurn() in kb.legal_moves(state)


def test_KB_8_1_end_of_turn_discards_draws_and_passes_clockwise():
    state = position({}, hands=("grass", "canyon", "desert"))
    for hex_ in ((9, 9), (9, 8), (9, 10)):
        state = kb.apply(state, kb.Build(hex_))
    state = kb.apply(state, kb.EndTurn())
    assert state.player is None and state.drawing == 0
    assert state.discard == (1, 0, 0, 0, 0) and state.hands == (None, "canyon", "desert")
    assert {o.terrain: p for o, p in kb.chance_outcomes(state)} == {
        "grass": Fraction(4, 22),
        "canyon": Fraction(4, 22),
        "desert": Fraction(4, 22),
        "flower": Fraction(5, 22),
        "forest": Fraction(5, 22),
    }
    state = kb.apply(state, kb.CardDrawn("forest"))
    assert state.player == 1 and state.hands == ("forest", "canyon", "desert") and state.turns == (1, 0, 0)


def test_KB_C4_discards_reshuffled_when_the_pile_runs_out():
    state = position({}, hands=("grass", "canyon"))
    state = dataclasses.replace(state, pile=(0, 0, 0, 0, 0), discard=(4, 4, 5, 5, 5))
    for hex_ in ((9, 9), (9, 8), (9, 10)):
        state = kb.apply(state, kb.Build(hex_))
    state = kb.apply(state, kb.EndTurn())
    assert {o.terrain: p for o, p in kb.chance_outcomes(state)} == {
        "grass": Fraction(5, 24),
        "canyon": Fraction(4, 24),
        "desert": Fraction(5, 24),
        "flower": Fraction(5, 24),
        "forest": Fraction(5, 24),
    }
    state = kb.apply(state, kb.CardDrawn("desert"))
    assert state.pile == (5, 4, 4, 5, 5) and state.discard == (0, 0, 0, 0, 0)
    refused(state, kb.CardDrawn("grass"), "KB-C4")
    refused(kb.new_game(players=2, seed=1), kb.EndTurn(), "KB-C4")


def test_KB_C4_a_card_without_free_hex_is_replaced():
    desert = sorted(hexes_of("D"))
    settlements = {hex_: index % 3 for index, hex_ in enumerate(desert)}
    text = diagram(settlements, FIRST, players=3)
    state = kb.from_diagram(text)
    for terrain in ("desert", "grass", "flower"):
        state = kb.apply(state, kb.CardDrawn(terrain))
    # Player 0's desert card is useless: it leaves the game and a new card is drawn at once.
    assert state.player is None and state.drawing == 0 and state.removed == (0, 0, 1, 0, 0)
    state = kb.apply(state, kb.CardDrawn("canyon"))
    assert state.player == 0 and state.hands[0] == "canyon"
    assert sum(state.pile) + sum(state.removed) + sum(h is not None for h in state.hands) == 25


def test_KB_C6_fewer_than_three_settlements_left_KB_4_1():
    buildable = [(r, c) for r in range(20) for c in range(20) if FIRST_BOARD[r][c] in "GCDFT"]
    mine = [h for h in buildable if h[0] >= 13][:38]
    state = position(dict.fromkeys(mine, 0), hands=("grass", "grass"))
    assert state.supply == (2, 40)
    state = kb.apply(state, builds_sorted(state)[0])
    spare = builds_sorted(state)[1]
    state = kb.apply(state, builds_sorted(state)[0])
    assert state.supply[0] == 0 and state.mandatory_done
    assert kb.EndTurn() in kb.legal_moves(state) and not builds(state)
    refused(state, spare, "KB-4.1")
    assert all(m.origin is not None for m in kb.legal_moves(state) if isinstance(m, kb.UseTile))


def builds_sorted(state):
    return sorted((m for m in kb.legal_moves(state) if isinstance(m, kb.Build)), key=lambda m: m.hex)


# --- game end and scoring -----------------------------------------------------------------------------------


def test_KB_9_1_the_round_is_completed_after_the_last_settlement():
    buildable = [(r, c) for r in range(20) for c in range(20) if FIRST_BOARD[r][c] in "GCDFT"]
    mine = [h for h in buildable if h[0] >= 13][:38]
    for trigger, expect_more in ((0, True), (1, False)):
        state = position(dict.fromkeys(mine, trigger), hands=("grass", "grass"), player=trigger)
        while not state.mandatory_done:
            state = kb.apply(state, builds_sorted(state)[0])
        state = kb.apply(state, kb.EndTurn())
        if expect_more:  # player 0 placed the last settlement: player 1 still plays this round
            assert kb.outcome(state) is None
            state = kb.apply(state, kb.CardDrawn("forest"))
            assert state.player == 1
            while not state.mandatory_done:
                state = kb.apply(state, builds_sorted(state)[0])
            state = kb.apply(state, kb.EndTurn())
        assert state.turns == ((1, 1) if expect_more else (0, 1))
        assert kb.outcome(state) is not None and kb.legal_moves(state) == () and kb.chance_outcomes(state) == ()
        refused(state, kb.EndTurn(), "KB-9.1")


def test_KB_2_1_ties_share_the_victory():
    # Fishermen, knights, merchants: a lone settlement on row 0 away from water scores 2 (knights) for each.
    state = dataclasses.replace(position({(0, 8): 0, (0, 11): 1}), finished=True)
    assert kb.outcome(state).winners == (0, 1) and kb.outcome(state).scores == (2, 2)
    state = dataclasses.replace(position({(0, 8): 0, (0, 9): 0, (0, 11): 1}), finished=True)
    assert kb.outcome(state).winners == (0,) and kb.outcome(state).scores == (4, 2)


def test_KB_C1_board_file_matches_the_research_transcription():
    """Our graphs/ file against the research note's letter grids, transcribed apart from the engine's board (a copy
    of the team's note in tests/data/, so that the test runs in every checkout)."""
    import json
    import pathlib

    reference = pathlib.Path(__file__).resolve().parent / "data" / "kingdom_builder_sections.json"
    grids = json.loads(reference.read_text())["quadrants"]
    top = [a + b for a, b in zip(grids["TAVERN"], grids["PADDOCK"])]
    bottom = [a + b for a, b in zip(grids["OASIS"], grids["FARM"])]
    assert top + bottom == FIRST_BOARD
    for name in kb.SECTIONS:
        graph = kb.board_graph(((name, False),) + tuple((s, False) for s in kb.SECTIONS if s != name)[:3])
        for r in range(10):
            for c in range(10):
                assert graph.nodes[(r, c)]["terrain"] == LETTER[grids[name.upper()][r][c]]
