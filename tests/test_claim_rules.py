"""Claim: one scenario per rule paragraph (CL-...), each built from a written diagram.

Expected results are counted by hand from the diagrams in this file, not computed by the engine.
"""

from __future__ import annotations

import functools
import textwrap

import pytest

from rulebook import claim
from rulebook.claim import Jump, Pass, Place, PlaceTower, Remove, Step, Stop
from rulebook.claim.diagram import figure
from tests import helpers

LAND = "\n".join(["aaaabbb"] * 5)


def position(pieces: str, header: str = "players: red blue\nto-move: red\nphase: battle", land: str = LAND, **config):
    """A diagram from a header, a territory grid and a piece grid (dedented)."""
    text = (
        f"{textwrap.dedent(header).strip()}\n\n{textwrap.dedent(land).strip()}\n\n{textwrap.dedent(pieces).strip()}\n"
    )
    return claim.from_diagram(text, claim.Config(**config)) if config else claim.from_diagram(text)


refused = functools.partial(helpers.refused, claim)


def pieces_grid(state) -> str:
    return "\n".join(state.grid)


# --- CL-1: components ---------------------------------------------------------------------------------------


def test_CL_1_1_eighteen_pieces_and_three_towers_each():
    state = claim.new_game(players=4, seed=3)
    moves = 0
    while state.phase == "placement":
        state = claim.apply(state, claim.legal_moves(state)[0])
        moves += 1
    assert moves == 4 * 18
    assert [len(state.pieces(p)) for p in range(4)] == [18] * 4
    assert [state.towers_in_reserve(p) for p in range(4)] == [3] * 4


def test_CL_1_1_no_fourth_tower():
    # red already has 3 towers (4 players, so red+green have 3 < 5 and play on); red is alone in c
    land = "aabbcc\naabbcc\nddeeff"
    pieces = "R..B.r\n.r...r\nR.R.by"
    header = "players: red blue green yellow\nteams: red+green blue+yellow\nto-move: red\nphase: battle"
    state = position(pieces, header, land)
    error = refused(state, PlaceTower("c", (0, 4)), "CL-1.1")
    assert "no tower left" in error.message
    assert not any(isinstance(m, PlaceTower) for m in claim.legal_moves(state))


# --- CL-2: aim of the game -----------------------------------------------------------------------------------


def test_CL_2_1_only_own_pieces_conquer_a_territory():
    state = position(".......\n.r.....\n.....b.\n..r..r.\n.......")
    # a holds red pieces only; b holds red and blue
    assert claim.conquerable(state, 0) == ("a",)
    assert claim.conquerable(state, 1) == ()


def test_CL_2_2_four_players_play_in_two_alliances_of_opposite_seats():
    state = claim.new_game(players=4, seed=0)
    assert state.colours == ("red", "blue", "green", "yellow")
    assert state.team(0) == (0, 2) and state.team(3) == (1, 3)
    assert "teams: red+green blue+yellow" in claim.to_diagram(state)
    header = "players: red blue green yellow\nteams: red+blue green+yellow\nto-move: red\nphase: battle"
    with pytest.raises(ValueError, match="opposite"):
        position(".......\n" * 5, header)


# --- CL-3: phases and the board ------------------------------------------------------------------------------


def test_CL_3_1_four_phases_in_order():
    state = claim.new_game(players=2, seed=5)
    assert state.phase == "placement"
    refused(state, Remove((0, 0)), "CL-3.1")
    while state.phase == "placement":
        state = claim.apply(state, claim.legal_moves(state)[-1])
    assert state.phase == "removal" and state.turn == state.first
    refused(state, Place((0, 0)), "CL-3.1")
    while state.phase == "removal":
        state = claim.apply(state, claim.legal_moves(state)[0])
    assert state.phase == "battle" and state.turn == state.first
    refused(state, Place(state.island.points[0]), "CL-3.1")
    refused(state, Remove(state.pieces(0)[0]), "CL-3.1")


@pytest.mark.parametrize("players, sections, territories, points", [(2, 3, 5, 68), (3, 4, 7, 95), (4, 5, 9, 123)])
def test_CL_3_2_sections_and_territories_per_player_count(players, sections, territories, points):
    assert len(claim.fixed_layout(players)) == sections
    state = claim.new_game(players=players, seed=1)
    assert len(state.island.letters) == territories
    # section sizes 28 (A), 26 (B), 27 (C), 28 (D), 14 (E), counted from sections.json by hand
    assert len(state.island.points) == points


def test_CL_3_3_sections_join_into_one_compact_island():
    A, B, E = "A", "B", "E"
    good = claim.fixed_layout(2)
    claim.assemble(good)
    overlapping = (claim.Placement(A, 0, 0, 0), claim.Placement(B, 0, 2, 2), claim.Placement(E, 0, 0, 6))
    with pytest.raises(ValueError, match="overlaps"):
        claim.assemble(overlapping)
    apart = (claim.Placement(A, 0, 0, 0), claim.Placement(B, 0, 0, 20), claim.Placement(E, 0, 0, 6))
    with pytest.raises(ValueError, match="joined"):
        claim.assemble(apart)
    wrong_count = (claim.Placement("A", 0, 0, 0), claim.Placement("B", 0, 0, 6), claim.Placement("C", 0, 5, 0))
    with pytest.raises(ValueError, match="5 territories"):
        claim.assemble(wrong_count)


# --- CL-4: placement -----------------------------------------------------------------------------------------


def test_CL_4_1_first_player_drawn_by_lot():
    firsts = {claim.new_game(players=3, seed=seed).first for seed in range(30)}
    assert firsts == {0, 1, 2}
    assert claim.new_game(players=3, seed=4).first == claim.new_game(players=3, seed=4).first


def test_CL_4_2_two_pieces_at_a_time_on_free_points():
    header = "players: red blue\nto-move: red\nphase: placement"
    state = position(".......\n" * 5, header)
    state = claim.apply(state, Place((0, 0)))
    assert state.turn == 0  # the second piece of red's pair
    refused(state, Place((0, 0)), "CL-4.2")
    refused(state, Place((9, 9)), "CL-4.2")
    state = claim.apply(state, Place((4, 6)))
    assert state.turn == 1
    state = claim.apply(state, Place((1, 1)))
    assert state.turn == 1
    assert pieces_grid(state).count("r") == 2 and pieces_grid(state).count("b") == 1


def test_CL_4_3_greedy_placement_follows_the_advice():
    import random

    from rulebook.claim.bots import greedy_player

    state = claim.new_game(players=2, seed=2)
    rng = random.Random(2)
    while state.phase == "placement":
        state = claim.apply(state, greedy_player(state, rng))
    red = state.pieces(0)
    territories = {state.island.territory[p] for p in red}
    touching = sum(1 for p in red if any(state.owner(n) == 0 for n in state.island.neighbours[p]))
    assert len(territories) >= 3  # spread over many territories
    assert touching >= 12  # most pieces stand beside another red piece


# --- CL-5: removal -------------------------------------------------------------------------------------------


def test_CL_5_1_each_player_removes_four_enemy_pieces():
    state = claim.new_game(players=2, seed=1)
    while state.phase == "placement":
        state = claim.apply(state, claim.legal_moves(state)[0])
    first = state.first
    own = state.pieces(first)[0]
    refused(state, Remove(own), "CL-5.1")
    empty = next(p for p in state.island.points if state.at(p) == ".")
    refused(state, Remove(empty), "CL-5.1")
    for _ in range(4):
        assert state.turn == first
        state = claim.apply(state, claim.legal_moves(state)[0])
    assert state.turn == 1 - first
    assert len(state.pieces(1 - first)) == 14


def test_CL_5_1_no_player_loses_more_than_four_with_three_players():
    # blue has lost 4 already (14 on the board); yellow removes: only red pieces may go
    land = "aaaaaaaaa\naaaaaaaaa\nbbbbbbbbb\nbbbbbbbbb\nccccccccc\nccccccccc"
    pieces = "rrrrrrrrr\nrrrrrrrrr\nbbbbbbbbb\nbbbbb....\nyyyyyyyyy\nyyyyyyyyy"
    header = (
        "players: red blue yellow\nto-move: yellow\nphase: removal\nfirst: red\nremovals-left: red 0 blue 4 yellow 4"
    )
    state = position(pieces, header, land)
    error = refused(state, Remove((2, 0)), "CL-5.1")
    assert "blue" in error.message
    assert all(state.owner(m.point) == 0 for m in claim.legal_moves(state))


def test_CL_5_2_territory_held_alone_after_removal_is_conquered_at_once():
    # 2 players; blue removes its last piece: red is then alone in a and keeps the right to a tower
    land = "aaaabbbbb\naaaabbbbb\naaaabbbbb\naaaabbbbb\naaaabbbbb\naaaabbbbb"
    pieces = "rrr.bbbbb\nrrr.bbbbb\nrr..bbbb.\nr...rrr..\n....rr...\n....r...."
    header = "players: red blue\nto-move: blue\nphase: removal\nfirst: red\nremovals-left: red 0 blue 1"
    state = position(pieces, header, land)
    after = claim.apply(state, Remove((3, 4)))
    # "tout de suite": red puts the tower down before anybody moves, in a round of towers before the battle
    assert after.phase == "towers" and after.turn == 0
    assert claim.legal_moves(after) == tuple(
        claim.PlaceTower("a", point) for point in after.island.territories["a"] if after.at(point) == "."
    ) + (claim.Stop(),)
    refused(after, Step((3, 0), (4, 0)), "CL-5.2")  # no move before the towers
    battle = claim.apply(after, claim.PlaceTower("a", (5, 0)))
    assert battle.phase == "battle" and battle.turn == 0 and battle.at((5, 0)) == "R" and not battle.claims
    declined = claim.apply(after, claim.Stop())
    assert declined.phase == "battle" and declined.turn == 0 and declined.towers(0) == ()
    # the option keeps the claim until red's first battle turn instead
    later = claim.apply(position(pieces, header, land, removal_towers="first battle turn"), Remove((3, 4)))
    assert later.phase == "battle" and later.turn == 0 and (0, "a") in later.claims
    assert "a" in claim.conquerable(later, 0)


# --- CL-6: movement ------------------------------------------------------------------------------------------


def test_CL_6_1_steps_are_orthogonal_to_a_free_neighbour():
    state = position(".......\n.......\n..rb...\n.......\n.......")
    state = claim.apply(state, Step((2, 2), (1, 2)))
    assert state.at((1, 2)) == "r" and state.at((2, 2)) == "."
    state = position(".......\n.......\n..rb...\n.......\n.......")
    refused(state, Step((2, 2), (1, 1)), "CL-6.1")  # diagonal
    refused(state, Step((2, 2), (2, 3)), "CL-6.1")  # taken
    refused(state, Step((2, 3), (1, 3)), "CL-6.1")  # not red's piece
    refused(state, Step((0, 0), (0, 1)), "CL-6.1")  # no piece there


def test_CL_6_2_jumps_over_any_piece_chained():
    fig = figure("jump")
    state = claim.from_diagram(fig.before)
    (move,) = fig.moves
    assert move.origin == (4, 0) and move.destination == (2, 4) and move.path == ((4, 2), (2, 2), (2, 4))
    after = claim.apply(state, move)
    assert after.at((4, 0)) == "." and after.at((2, 4)) == "r"
    # the jumped pieces stay: red (4,1), blue (3,2), the blue tower (2,3)
    assert after.at((4, 1)) == "r" and after.at((3, 2)) == "b" and after.at((2, 3)) == "B"
    assert move in claim.legal_moves(state)
    refused(state, Jump((4, 0), ((4, 2), (4, 4))), "CL-6.2")  # nothing on (4,3) to jump over
    refused(state, Jump((4, 1), ((4, 3),)), "CL-6.2")  # (4,2) is empty
    blocked = position(".......\n.......\n.......\n.......\nrbb....")
    refused(blocked, Jump((4, 0), ((4, 2),)), "CL-6.2")  # the landing point holds a blue piece
    refused(blocked, Jump((4, 0), ((4, 3),)), "CL-6.2")  # not a jump over one point


def test_CL_C4_a_jump_chain_may_not_come_back():
    # red jumps right over r, down over b, left over b; up over b would land on its starting point
    state = position(".......\n.rr....\n.b.b...\n..b....\n.......")
    refused(state, Jump((1, 1), ((1, 3), (3, 3), (3, 1), (1, 1))), "CL-C4")
    assert claim.check(state, Jump((1, 1), ((1, 3), (3, 3), (3, 1)))) is None


# --- CL-7: captures ------------------------------------------------------------------------------------------


def _play_figure(number):
    fig = figure(number)
    state = claim.from_diagram(fig.before)
    for move in fig.moves:
        assert claim.check(state, move) is None
        state = claim.apply(state, move)
    return claim.from_diagram(fig.before), state


def test_CL_7_1_between_two_enemy_pieces_of_one_colour():
    before, after = _play_figure(1)
    assert before.at((2, 3)) == "b" and after.at((2, 3)) == "."
    assert after.at((2, 2)) == "r" and after.at((2, 4)) == "r"


def test_CL_7_1_figure_5_three_captures_at_once_after_a_jump():
    before, after = _play_figure(5)
    for point in ((2, 6), (4, 6), (3, 7)):
        assert before.at(point) == "y" and after.at(point) == "."
    # the jumped yellow pieces on (3,3) and (3,5) are not captured
    assert after.at((3, 3)) == "y" and after.at((3, 5)) == "y"
    assert pieces_grid(after).count("y") == pieces_grid(before).count("y") - 3


def test_CL_7_2_between_enemy_pieces_of_different_colours():
    before, after = _play_figure(2)
    assert before.at((2, 3)) == "b" and after.at((2, 3)) == "."


def test_CL_7_2_with_four_players_the_two_captors_must_be_partners():
    header = "players: red blue green yellow\nteams: red+green blue+yellow\nto-move: red\nphase: battle"
    with_partner = position(".......\n.......\n.r.bg..\n.......\n.......", header)
    assert claim.captures_of(with_partner, Step((2, 1), (2, 2))) == ((2, 3),)
    # yellow is blue's partner: no capture; green is red's partner: red never captures green
    with_enemy_partner = position(".......\n.......\n.r.by..\n.......\n.......", header)
    assert claim.captures_of(with_enemy_partner, Step((2, 1), (2, 2))) == ()
    partner = position(".......\n.......\n.r.gr..\n.......\n.......", header)
    assert claim.captures_of(partner, Step((2, 1), (2, 2))) == ()


def test_CL_7_3_between_an_enemy_piece_and_the_edge():
    before, after = _play_figure(3)
    assert before.at((2, 0)) == "b" and after.at((2, 0)) == "."


def test_CL_7_3_a_notch_in_the_island_is_edge_too():
    land = "aaaa\naa#a\naaaa"
    state = position("....\nrb#.\n....", land=land)
    assert claim.captures_of(state, Step((1, 0), (2, 0))) == ()
    state = position("r...\n.b#.\n....", land=land)
    assert claim.captures_of(state, Step((0, 0), (1, 0))) == ((1, 1),)


def test_CL_7_4_a_series_of_captures_figure_4():
    before, after = _play_figure(4)
    assert pieces_grid(before).count("b") == 4 and pieces_grid(after).count("b") == 0


def test_CL_7_4_the_follow_up_must_capture_and_use_the_same_piece():
    fig = figure(4)
    state = claim.apply(claim.from_diagram(fig.before), fig.moves[0])
    assert state.follow_up == (3, 3) and state.turn == 0
    refused(state, Step((3, 3), (4, 3)), "CL-7.4")  # captures nothing
    refused(state, Step((5, 4), (6, 4)), "CL-7.4")  # another piece
    moves = [m for m in claim.legal_moves(state) if isinstance(m, (Step, Jump))]
    assert moves == [Step((3, 3), (3, 4))]
    stopped = claim.apply(state, Stop())
    assert stopped.turn == 1 and stopped.follow_up is None
    refused(stopped, Stop(), "CL-7.4")


def test_CL_7_5_moving_between_enemies_is_safe():
    _, after = _play_figure(6)
    assert after.at((2, 2)) == "r"
    assert pieces_grid(after).count("b") == 2 and pieces_grid(after).count("r") == 1
    edge = position(".......\n.......\n.......\n.b.....\n..r....")
    assert claim.apply(edge, Step((4, 2), (4, 1))).at((4, 1)) == "r"


# --- CL-8: conquest ------------------------------------------------------------------------------------------


def test_CL_8_1_alone_in_a_territory_place_a_tower():
    state = position(".......\n.r.....\n.....b.\n..r..r.\n.......")
    refused(state, PlaceTower("b", (0, 4)), "CL-8.1")  # blue stands in b
    refused(state, PlaceTower("a", (0, 5)), "CL-8.1")  # (0,5) is in b
    refused(state, PlaceTower("a", (1, 1)), "CL-8.1")  # taken
    refused(state, PlaceTower("z", (0, 0)), "CL-8.1")
    state = claim.apply(state, PlaceTower("a", (0, 0)))
    assert state.at((0, 0)) == "R" and state.turn == 0  # red still moves this turn (CL-C7)
    refused(state, PlaceTower("a", (0, 1)), "CL-8.1")  # one tower per territory
    state = claim.apply(state, Step((1, 1), (1, 0)))
    assert state.turn == 1


def test_CL_8_2_driving_out_the_last_enemy_piece_replaces_the_tower():
    # blue's tower stands in b; red captures the last blue piece in b, then replaces the tower
    state = position("......B\n.....r.\n.....b.\n....r..\n.......")
    assert "b" not in claim.conquerable(state, 0)
    after = claim.apply(state, Step((3, 4), (3, 5)))
    assert after.at((2, 5)) == "."  # captured between two red pieces
    assert after.follow_up == (3, 5) and after.turn == 0
    assert "b" in claim.conquerable(after, 0)
    done = claim.apply(after, PlaceTower("b", (1, 6)))
    assert (
        done.at((1, 6)) == "R"
        and done.at((0, 6)) == "."
        and done.towers_in_reserve(1) == 3
        and done.towers_in_reserve(0) == 2
    )


def test_CL_8_2_capturing_the_tower_conquers_the_territory():
    # blue's tower on (0,5) stands on the top edge: red steps under it and captures it against the edge
    state = position(".....B.\n......r\n....bb.\n.......\n.......")
    after = claim.apply(state, Step((1, 6), (1, 5)))
    assert after.at((0, 5)) == "." and after.towers_in_reserve(1) == 3
    assert after.claims == frozenset({(0, "b")})
    # blue pieces still stand in b, yet red may place its tower there this turn
    assert "b" in claim.conquerable(after, 0)
    done = claim.apply(after, PlaceTower("b", (0, 6)))
    assert done.at((0, 6)) == "R" and done.turn == 1 and done.claims == frozenset()


def test_CL_C6_an_unused_claim_ends_with_the_turn():
    state = position(".....B.\n......r\n....bb.\n.......\n.......")
    after = claim.apply(claim.apply(state, Step((1, 6), (1, 5))), Stop())
    assert after.claims == frozenset() and after.turn == 1


# --- CL-9: towers ----------------------------------------------------------------------------------------------


def test_CL_9_1_towers_do_not_move_but_capture_and_can_be_captured():
    state = position(".......\n.......\n.Rb.r..\n.......\n.......")
    refused(state, Step((2, 1), (1, 1)), "CL-9.1")
    # red steps to (2,3): blue (2,2) is between red and the red tower
    assert claim.captures_of(state, Step((2, 4), (2, 3))) == ((2, 2),)
    tower_taken = position(
        ".......\n.......\n.bR.r..\n.......\n.......", "players: red blue\nto-move: blue\nphase: battle"
    )
    after = claim.apply(tower_taken, Jump((2, 1), ((2, 3),)))
    assert after.at((2, 2)) == "R"  # jumping over a tower never captures it
    step_in = position(".......\n.......\n.bR.r..\n.......\n...b...", "players: red blue\nto-move: blue\nphase: battle")
    after = claim.apply(step_in, Step((4, 3), (3, 3)))
    assert after.at((2, 2)) == "R"
    capture = position(".......\n.......\n.bR....\n...b...\n.......", "players: red blue\nto-move: blue\nphase: battle")
    after = claim.apply(capture, Step((3, 3), (2, 3)))
    assert after.at((2, 2)) == "." and after.towers_in_reserve(0) == 3


# --- CL-10: end of the game ------------------------------------------------------------------------------------


def test_CL_10_1_third_tower_wins():
    state = position(
        "R......\n.r.....\n.......\n....Rr.\n.......",
        land="aaaabbb\naaaabbb\ncccccdd\nccccc.d\nccccccd".replace(".", "d"),
    )
    assert claim.outcome(state) is None
    state = claim.apply(state, PlaceTower("d", (4, 6)))
    assert claim.outcome(state).winners == (0,)
    assert claim.outcome(state).scores == (3, 0)
    assert claim.legal_moves(state) == () and state.player is None
    refused(state, Step((1, 1), (1, 2)), "CL-10.1")


def test_CL_10_1_five_towers_between_partners():
    land = "aabbcc\naabbcc\nddeeff"
    header = "players: red blue green yellow\nteams: red+green blue+yellow\nto-move: green\nphase: battle"
    state = position("R..G.g\n.r...y\nR....G", header, land)
    # red 2 towers (a, d), green 2 towers (b, f); yellow shares c with green; green has no piece in e
    assert claim.conquerable(state, 2) == ()
    state = position("R..G.g\n.r....\nR.g..G", header, land)
    assert claim.conquerable(state, 2) == ("c", "e")
    state = claim.apply(state, PlaceTower("e", (2, 3)))
    assert claim.outcome(state).winners == (0, 2)


# --- clarifications ----------------------------------------------------------------------------------------------


def test_CL_C3_only_one_piece_between_and_only_around_the_landing_point():
    state = position(".......\n.......\n.rbb.r.\n.......\n.......")
    assert claim.captures_of(state, Step((2, 5), (2, 4))) == ()  # two blue pieces in a row are safe


def test_CL_C10_a_player_who_cannot_move_passes():
    land = "aaa\naaa"
    state = position("rbb\nb..", land=land)
    assert claim.legal_moves(state) == (Pass(),)
    state = claim.apply(state, Pass())
    assert state.turn == 1
    refused(state, Pass(), "CL-C10")


def test_CL_C9_a_game_without_progress_stops():
    state = position(
        "R......\n.r.....\n.......\n.....b.\n....bB.",
        "players: red blue\nto-move: red\nphase: battle\nquiet: 3",
        quiet_turn_limit=4,
    )
    after = claim.apply(state, Step((1, 1), (1, 2)))
    assert claim.outcome(after) is not None and claim.outcome(after).winners == ()  # one tower each: a draw
    state = position(
        "R......\n.r.....\n.......\n.....b.\n.....b.",
        "players: red blue\nto-move: red\nphase: battle\nquiet: 3",
        quiet_turn_limit=4,
    )
    after = claim.apply(state, Step((1, 1), (1, 2)))
    assert claim.outcome(after).winners == (0,)
    draw = position(
        "R......\n.r.....\n.......\n.....b.\n.....b.",
        "players: red blue\nto-move: red\nphase: battle\nquiet: 3",
        quiet_turn_limit=4,
        stalled_result="draw",
    )
    assert claim.outcome(claim.apply(draw, Step((1, 1), (1, 2)))).winners == ()


def test_CL_C10_partners_pieces_do_not_stop_a_conquest_unless_configured():
    land = "aabbcc\naabbcc\nddeeff"
    header = "players: red blue green yellow\nteams: red+green blue+yellow\nto-move: red\nphase: battle"
    pieces = "rg..b.\n....y.\n......"
    assert claim.conquerable(position(pieces, header, land), 0) == ("a",)
    assert claim.conquerable(position(pieces, header, land, partners_share_territories=False), 0) == ()


def test_CL_C4_the_edge_is_any_missing_point():
    land = "aaaa\naa#a\naaaa"
    state = position("....\n.b#.\n..r.", land=land)
    # red steps to (2,1) below blue: beyond blue, (0,1) is a point, so no capture; the notch only counts sideways
    assert claim.captures_of(state, Step((2, 2), (2, 1))) == ()
    # from the left, beyond blue lies the notch (1,2): captured (see also test_CL_7_3_a_notch_in_the_island_is_edge_too)
    state = position("r...\n.b#.\n....", land=land)
    assert claim.captures_of(state, Step((0, 0), (1, 0))) == ((1, 1),)


def test_CL_C5_towers_are_placed_before_moving_and_the_chance_returns():
    state = position(".......\n.r.....\n.....b.\n..r..r.\n.......")
    assert any(isinstance(m, PlaceTower) for m in claim.legal_moves(state))
    moved = claim.apply(state, Step((1, 1), (0, 1)))  # red moves on without placing a tower
    assert moved.turn == 1 and not moved.towers(0)
    back = claim.apply(moved, Step((2, 5), (2, 6)))
    assert back.turn == 0 and "a" in claim.conquerable(back, 0)


def test_CL_C7_a_three_player_removal_ends_when_nobody_may_lose_more():
    # blue has lost 4, red 3, yellow 1; yellow may take only one more red piece, then the battle begins
    land = "\n".join(["aaaabbbbb"] * 3 + ["cccccdddd"] * 3)
    cells = ["r"] * 15 + ["b"] * 14 + ["y"] * 17 + ["."] * 8
    rows = ["".join(cells[row * 9 : (row + 1) * 9]) for row in range(6)]
    header = (
        "players: red blue yellow\nto-move: yellow\nphase: removal\nfirst: red\nremovals-left: red 0 blue 0 yellow 4"
    )
    state = position("\n".join(rows), header, land)
    assert all(state.owner(m.point) == 0 for m in claim.legal_moves(state))
    state = claim.apply(state, Remove((0, 0)))
    assert [len(state.pieces(p)) for p in range(3)] == [14, 14, 17]
    # yellow, alone in territory d, may put a tower there before the battle; then red begins it
    assert state.phase == "towers" and state.turn == 2 and state.claims == {(2, "d")}
    state = claim.apply(state, claim.Stop())
    assert state.phase == "battle" and state.turn == 0


def test_CL_C11_seats_colours_and_teams():
    assert claim.new_game(players=2, seed=0).colours == ("red", "blue")
    assert claim.new_game(players=3, seed=0).colours == ("red", "blue", "yellow")
    four = claim.new_game(players=4, seed=0)
    assert [four.colours[p] for p in four.team(0)] == ["red", "green"]
    assert [four.colours[p] for p in four.team(1)] == ["blue", "yellow"]
    custom = claim.new_game(players=2, seed=0, colours=("green", "yellow"))
    assert claim.to_diagram(custom).startswith("players: green yellow\n")
