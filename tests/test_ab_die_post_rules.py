"""Ab die Post! rules: one scenario per paragraph of the translation (named after its id), built from written
positions, plus random play, save files, the track graph and the rule ids the notebook must explain."""

from __future__ import annotations

import dataclasses
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from rulebook import ab_die_post, boards, core
from rulebook.ab_die_post import (
    CardDrawn,
    Config,
    DrawCard,
    Fly,
    KeepCard,
    MarbleShaken,
    Move,
    Repair,
    Stay,
    Stop,
    apply,
    chance_outcomes,
    check,
    from_json,
    legal_moves,
    new_game,
    outcome,
    placings,
    to_json,
)
from rulebook.ab_die_post import rules as rules_module
from rulebook.ab_die_post.rules import card_count_invariant
from tests import helpers
from tests.helpers import adp_position as position

ROOT = Path(__file__).resolve().parent.parent


def refused(state, move, rule):
    """The message of the refusal of ``move`` with ``rule`` (apply and check alike)."""
    return helpers.refused(ab_die_post, state, move, rule).message


def flying(players=3, hands=None, positions=None, marble="blue", **changes):
    """Player 0 to move after shaking a coloured marble."""
    hands = hands or ((2, 1, 0),) + ((0, 0, 0),) * (players - 1)
    used = tuple(sum(hand[kind] for hand in hands) for kind in range(3))
    pile = tuple(full - taken for full, taken in zip((16, 23, 16), used))
    return position(
        players,
        hands=hands,
        pile=pile,
        positions=positions or ("start",) * players,
        phase="move",
        player=0,
        marble=marble,
        **changes,
    )


# --- ADP-2 set-up ------------------------------------------------------------------------------------


def test_ADP_2_1_planes_on_the_start_field_and_markers_at_zero():
    state = new_game(players=5, seed=3)
    assert state.positions == ("start",) * 5 and state.scores == (0,) * 5 and state.flight == 1


def test_ADP_2_2_the_pile_holds_55_cards_and_the_passenger_card_is_free():
    state = new_game(players=2, seed=0)
    assert state.pile == (16, 23, 16) and sum(state.pile) == 55 and state.passenger is None
    assert state.hands == ((0, 0, 0), (0, 0, 0)) and state.discard == (0, 0, 0)


@pytest.mark.parametrize(
    ("players", "row"),
    [(3, (1, 2, 2, 1, 2)), (4, (2, 2, 2, 2, 2)), (5, (2, 3, 3, 2, 2)), (6, (3, 3, 3, 3, 2)), (2, (1, 1, 1, 1, 2))],
)
def test_ADP_2_3_marbles_by_player_count(players, row):
    state = position(
        players, hands=((2, 1, 0),) + ((0, 0, 0),) * (players - 1), pile=(14, 22, 16), phase="marble", player=None
    )
    total = sum(row)
    expected = tuple(
        (MarbleShaken(colour), Fraction(count, total))
        for colour, count in zip(("green", "blue", "red", "yellow", "black"), row)
    )
    assert chance_outcomes(state) == expected


def test_ADP_2_4_seat_zero_begins_and_play_goes_clockwise():
    state = new_game(players=3, seed=0)
    assert state.player == 0
    state = apply(apply(state, DrawCard()), CardDrawn(2))
    state = apply(state, Stop())
    assert state.player == 1 and state.turn_player == 1
    with pytest.raises(ValueError, match="seat"):
        new_game(players=3, seed=0, config=Config(first_player=3))


# --- ADP-3 a turn ------------------------------------------------------------------------------------


def test_ADP_3_1_a_turn_is_drawing_or_flying_not_both():
    state = position(3, hands=((2, 1, 0), (0, 0, 0), (0, 0, 0)), pile=(14, 22, 16))
    assert legal_moves(state) == (DrawCard(), Fly())
    state = apply(apply(state, DrawCard()), CardDrawn(1))
    assert legal_moves(state) == (DrawCard(), Stop())
    refused(state, Fly(), "ADP-3.1")
    refused(state, CardDrawn(1), "ADP-3.1")


def test_ADP_3_2_on_the_first_turn_everybody_can_only_draw_ADP_5_1():
    state = new_game(players=4, seed=1)
    assert legal_moves(state) == (DrawCard(),)
    assert "holds 0 points" in refused(state, Fly(), "ADP-5.1")


# --- ADP-4 drawing spare parts ----------------------------------------------------------------------


def test_ADP_4_1_cards_are_drawn_one_at_a_time_as_long_as_the_player_likes():
    state = apply(new_game(players=2, seed=0), DrawCard())
    assert state.player is None
    assert chance_outcomes(state) == (
        (CardDrawn(1), Fraction(16, 55)),
        (CardDrawn(2), Fraction(23, 55)),
        (CardDrawn(3), Fraction(16, 55)),
    )
    for value in (2, 3, 1, 3):
        state = apply(apply(state, CardDrawn(value)), DrawCard())
    state = apply(state, CardDrawn(2))
    assert state.hands[0] == (1, 2, 2) and state.drawn == 5 and state.player == 0
    assert legal_moves(state) == (DrawCard(), Stop())
    state = apply(state, Stop())
    assert state.player == 1 and state.hands[0] == (1, 2, 2)


def test_ADP_4_1_a_card_not_in_the_pile_cannot_be_drawn():
    state = position(2, hands=((16, 0, 0), (0, 0, 0)), pile=(0, 23, 16), phase="card", player=None)
    refused(state, CardDrawn(1), "ADP-4.1")


def test_ADP_C4_stop_needs_a_card_drawn_this_turn():
    state = position(2, hands=((2, 1, 0), (0, 0, 0)), pile=(14, 22, 16))
    refused(state, Stop(), "ADP-C4")


def test_ADP_4_2_the_third_red_three_loses_all_three_and_ends_the_turn():
    # Player 0 kept two red 3s from an earlier turn and a 1; the first card of this turn is a red 3.
    state = position(3, hands=((1, 0, 2), (0, 0, 0), (0, 0, 0)), pile=(15, 23, 14))
    state = apply(state, DrawCard())
    assert chance_outcomes(state)[2] == (CardDrawn(3), Fraction(14, 52))
    state = apply(state, CardDrawn(3))
    assert state.hands[0] == (1, 0, 0) and state.discard == (0, 0, 3)
    assert state.player == 1 and state.phase == "turn" and card_count_invariant(state)


def test_ADP_4_3_the_discard_is_shuffled_into_a_new_pile():
    # Pile empty; the discard holds two 1s and a red 3 (the rest of the cards are in hands).
    hands = ((14, 10, 2), (0, 13, 2), (0, 0, 2))
    state = position(3, hands=hands, pile=(0, 0, 0), discard=(2, 0, 10), phase="card", player=None)
    assert chance_outcomes(state) == ((CardDrawn(1), Fraction(2, 12)), (CardDrawn(3), Fraction(10, 12)))
    state = apply(state, CardDrawn(1))
    assert state.pile == (1, 0, 10) and state.discard == (0, 0, 0) and state.hands[0] == (15, 10, 2)


# --- ADP-5 flying -----------------------------------------------------------------------------------


def test_ADP_5_1_flying_needs_four_points():
    state = position(2, hands=((1, 1, 0), (0, 0, 0)), pile=(15, 22, 16))
    assert "holds 3 points" in refused(state, Fly(), "ADP-5.1")
    state = position(2, hands=((0, 2, 0), (0, 0, 0)), pile=(16, 21, 16))
    assert Fly() in legal_moves(state)


def test_ADP_5_2_flying_shakes_the_indicator_and_spends_no_card_and_ADP_3_1():
    state = position(4, hands=((0, 2, 0),) + ((0, 0, 0),) * 3, pile=(16, 21, 16))
    state = apply(state, Fly())
    assert state.phase == "marble" and state.player is None
    assert sum(probability for _, probability in chance_outcomes(state)) == 1
    state = apply(state, MarbleShaken("yellow"))
    assert state.phase == "move" and state.player == 0 and state.hands[0] == (0, 2, 0)
    refused(state, MarbleShaken("red"), "ADP-3.1")


# --- ADP-6 coloured marbles -------------------------------------------------------------------------


def test_ADP_6_1_a_coloured_marble_moves_by_the_wind_table():
    state = flying(marble="green")  # green = 2 fields, no lane change possible (first and last step straight)
    moves = legal_moves(state)
    assert {move.path for move in moves if isinstance(move, Move)} == {
        ("start", "inner-1-1", "inner-1-2"),
        ("start", "central-1-1", "central-1-2"),
        ("start", "outer-1-1", "outer-1-2"),
    }
    assert moves[-1] == Stay()
    after = apply(state, Move(("start", "inner-1-1", "inner-1-2")))
    assert after.positions[0] == "inner-1-2" and after.player == 1
    refused(state, Move(("start", "inner-1-1")), "ADP-6.1")
    refused(state, Move(("start", "inner-1-1", "inner-1-2", "inner-1-3")), "ADP-6.1")
    refused(state, Move(("inner-1-1", "inner-1-2", "inner-1-3")), "ADP-6.1")
    refused(state, Repair(0, 1, 0), "ADP-6.1")


def test_ADP_6_1_blue_from_the_start_reaches_five_fields():
    # Worked by hand from the cross-links (each field joins the nearest field ahead on the neighbouring lane).
    state = flying(marble="blue")
    ends = {move.path[-1] for move in legal_moves(state) if isinstance(move, Move)}
    assert ends == {"inner-1-3", "central-1-3", "inner-1-2", "outer-1-3", "central-1-2"}


def test_ADP_6_2_planes_pass_others_but_cannot_land_on_them():
    positions = ("inner-1-1", "inner-1-2", "inner-1-4")
    state = flying(positions=positions, marble="blue")  # 3 fields
    assert "occupied by player 3" in refused(
        state, Move(("inner-1-1", "inner-1-2", "inner-1-3", "inner-1-4")), "ADP-6.2"
    )
    state = flying(positions=positions, marble="red")  # 4 fields: passing both others is fine
    after = apply(state, Move(("inner-1-1", "inner-1-2", "inner-1-3", "inner-1-4", "inner-2-1")))
    assert after.positions == ("inner-2-1", "inner-1-2", "inner-1-4")


def test_ADP_6_3_no_lane_change_on_the_first_and_last_step():
    state = flying(positions=("central-1-1", "start", "start"), marble="blue")
    assert "changes lane" in refused(state, Move(("central-1-1", "inner-1-1", "inner-1-2", "inner-1-3")), "ADP-6.3")
    refused(state, Move(("central-1-1", "central-1-2", "central-1-3", "inner-1-2")), "ADP-6.3")
    after = apply(state, Move(("central-1-1", "central-1-2", "inner-1-2", "inner-1-3")))
    assert after.positions[0] == "inner-1-3"
    refused(state, Move(("central-1-1", "central-1-2", "central-1-1", "central-1-2")), "ADP-6.1")  # never backwards


def test_ADP_C8_a_plane_may_stay():
    state = flying(positions=("outer-1-5", "start", "start"), marble="yellow")
    after = apply(state, Stay())
    assert after.positions[0] == "outer-1-5" and after.player == 1


# --- ADP-7 the black marble ---------------------------------------------------------------------------


def hurricane_position():
    hands = ((0, 1, 1), (0, 4, 0), (1, 0, 0), (2, 2, 0))
    positions = ("central-1-3", "inner-1-2", "outer-1-7", "start")
    pile = (13, 16, 15)
    return position(4, hands=hands, positions=positions, pile=pile, phase="marble", player=None, passenger=2)


def test_ADP_7_1_a_hurricane_costs_every_plane_in_the_air_by_lane():
    state = apply(hurricane_position(), MarbleShaken("black"))
    # Player 3 (outer, 2 points due, holds 1) cannot pay; player 4 is on the start field and is not hit.
    assert state.pending == (0, 1) and state.player == 0 and state.phase == "repair"
    assert "cost 4 points" in refused(state, Repair(0, 1, 0), "ADP-7.1")
    refused(state, Repair(0, 2, 0), "ADP-7.1")  # holds only one 2
    refused(state, Stop(), "ADP-7.1")
    state = apply(state, Repair(0, 1, 1))
    assert state.player == 1 and state.hands[0] == (0, 0, 0)
    assert state.hands[1] == (0, 4, 0) and Repair(0, 3, 0) not in legal_moves(state)
    state = apply(state, Repair(0, 4, 0))
    assert state.hands[1] == (0, 0, 0) and state.player == 1 and state.phase == "turn"  # next player after the shaker
    assert state.positions == ("central-1-3", "inner-1-2", "start", "start") and card_count_invariant(state)


def test_ADP_7_2_repairs_may_be_overpaid():
    state = apply(hurricane_position(), MarbleShaken("black"))
    assert Repair(0, 1, 1) in legal_moves(state)  # a red 3 and a 2 for 4 points: no change given (ADP-C10)
    assert legal_moves(state)[0] == Repair(0, 1, 1)
    assert apply(state, Repair(0, 1, 1)).discard == (1, 1, 1)


def test_ADP_7_3_a_plane_that_cannot_pay_goes_back_and_loses_its_cards_and_passenger():
    state = apply(hurricane_position(), MarbleShaken("black"))
    assert state.positions[2] == "start" and state.hands[2] == (0, 0, 0) and state.discard == (1, 0, 0)
    assert state.passenger is None
    assert any("cannot pay 2 points" in event for event in state.events)


def test_ADP_7_4_too_few_points_after_repairs_means_drawing_again():
    state = apply(apply(apply(hurricane_position(), MarbleShaken("black")), Repair(0, 1, 1)), Repair(0, 4, 0))
    state = dataclasses.replace(state, player=0, turn_player=0)
    assert legal_moves(state) == (DrawCard(),)


# --- ADP-8 the passenger -------------------------------------------------------------------------------


def test_ADP_8_1_the_passenger_goes_to_the_first_plane_landing_beside_or_passing_it():
    state = flying(positions=("outer-2-6", "start", "start"), marble="green")
    moves = legal_moves(state)
    assert Move(("outer-2-6", "outer-2-7", "outer-2-8")) in moves
    assert apply(state, Move(("outer-2-6", "outer-2-7", "outer-2-8"))).passenger == 0
    state = flying(positions=("outer-2-7", "start", "start"), marble="blue")
    assert apply(state, Move(("outer-2-7", "outer-2-8", "outer-2-9", "outer-2-10"))).passenger == 0
    # Passing only one of the two fields and leaving the outer lane does not pick it up.
    assert apply(state, Move(("outer-2-7", "outer-2-8", "central-2-5", "central-2-6"))).passenger is None
    held = flying(positions=("outer-2-6", "start", "start"), marble="green", passenger=1)
    assert apply(held, Move(("outer-2-6", "outer-2-7", "outer-2-8"))).passenger == 1


def test_ADP_8_2_the_passenger_scores_two_at_the_end_of_the_flight():
    state = flying(positions=("inner-3-3", "outer-2-8", "start"), marble="green", passenger=1)
    state = apply(state, Move(("inner-3-3", "inner-3-4", "airport")))
    assert state.last_points == (7, 5 + 2, 0)


# --- ADP-9 end of a flight -------------------------------------------------------------------------------


def test_ADP_9_1_the_first_plane_at_the_airport_ends_the_flight_extra_movement_ignored():
    state = flying(positions=("inner-3-4", "central-3-1", "outer-1-1"), marble="yellow")
    moves = legal_moves(state)
    assert Move(("inner-3-4", "airport")) in moves
    refused(state, Move(("inner-3-4", "airport", "inner-3-4")), "ADP-9.1")
    state = apply(state, Move(("inner-3-4", "airport")))
    assert state.scores == (7, 5, 4) and state.flight == 2


def test_ADP_9_2_placings_pay_7_5_4_3_2_1_and_planes_on_the_start_nothing():
    players = 6
    positions = ("inner-3-3", "central-3-7", "central-3-2", "outer-2-1", "inner-1-1", "start")
    state = flying(players=players, positions=positions, marble="green")
    state = apply(state, Move(("inner-3-3", "inner-3-4", "airport")))
    assert state.last_points == (7, 5, 4, 3, 2, 0)


def test_ADP_9_3_positions_follow_the_river_sections_then_nearness_to_the_river():
    positions = ("start", "outer-1-16", "inner-2-1", "central-2-1")
    state = flying(players=4, positions=positions)
    # inner-2-1 (section 2, 1/8 through) is ahead of central-2-1 (1/16 through), both ahead of section 1.
    assert placings(state) == [(2, 7), (3, 5), (1, 4)]
    back = dataclasses.replace(state, flight=2, positions=("airport", "outer-1-16", "inner-2-1", "central-2-1"))
    assert placings(back) == [(1, 7), (3, 5), (2, 4)]  # flying back the order turns round


def test_ADP_9_4_planes_in_the_air_keep_one_card():
    hands = ((1, 2, 0), (1, 1, 1), (0, 2, 1))
    positions = ("inner-3-4", "outer-1-4", "start")
    state = flying(players=3, hands=hands, positions=positions, marble="green")
    state = apply(state, Move(("inner-3-4", "airport")))
    # The arriving player and the plane on the start field keep nothing (ADP-C14); player 2 chooses.
    assert (
        state.phase == "keep" and state.pending == (1,) and state.hands[0] == (0, 0, 0) and state.hands[2] == (0, 0, 0)
    )
    assert legal_moves(state) == (KeepCard(1), KeepCard(2), KeepCard(3), KeepCard(0))
    refused(state, Stop(), "ADP-9.4")
    state = apply(state, KeepCard(3))
    assert state.hands == ((0, 0, 0), (0, 0, 1), (0, 0, 0)) and card_count_invariant(state)
    refused(dataclasses.replace(state, phase="keep", player=1, pending=(1,)), KeepCard(2), "ADP-9.4")


def test_ADP_9_5_the_next_flight_goes_back_from_the_airport():
    state = flying(
        players=3,
        positions=("inner-3-4", "outer-1-4", "central-1-1"),
        marble="green",
        scores=(2, 4, 0),
        hands=((0, 2, 0), (0, 0, 0), (0, 0, 0)),
    )
    state = apply(state, Move(("inner-3-4", "airport")))
    # Placings 7 / 5 (outer-1-4 is 7/32 along, ahead of central-1-1 at 2/32) / 4: scores 9, 9, 4.
    assert state.scores == (9, 9, 4) and state.phase == "turn"
    # Tie at 9: player 2 received fewer points in the last flight (5 against 7), so player 2 begins.
    assert state.player == 1 and state.flight == 2 and state.positions == ("airport",) * 3
    assert state.direction == -1 and state.passenger is None
    moves = apply(
        apply(dataclasses.replace(state, hands=((0, 2, 0), (0, 0, 0), (0, 0, 0)), player=0, turn_player=0), Fly()),
        MarbleShaken("green"),
    )
    assert Move(("airport", "inner-3-4", "inner-3-3")) in legal_moves(moves)


def test_ADP_C13_start_player_when_scores_and_last_points_tie():
    state = flying(
        players=3,
        positions=("inner-3-4", "start", "start"),
        marble="green",
        scores=(0, 7, 7),
        hands=((0, 2, 0), (0, 0, 0), (0, 0, 0)),
    )
    state = apply(state, Move(("inner-3-4", "airport")))
    # All three have 7 points; players 2 and 3 received 0 last flight: the first clockwise from player 1 begins.
    assert state.scores == (7, 7, 7) and state.player == 1


def test_ADP_10_1_fifteen_points_end_the_game_with_tie_breaks():
    state = flying(players=3, positions=("inner-3-4", "inner-3-1", "start"), marble="green", scores=(8, 10, 3))
    state = apply(state, Move(("inner-3-4", "airport")))
    assert state.scores == (15, 15, 3) and state.phase == "over" and legal_moves(state) == ()
    result = outcome(state)
    assert result.winners == (0,) and "last flight" in result.reason  # 7 against 5 in the last flight
    refused(state, DrawCard(), "ADP-10.1")
    state = flying(
        players=3, positions=("inner-3-4", "inner-3-1", "start"), marble="green", scores=(8, 12, 3), passenger=1
    )
    state = apply(state, Move(("inner-3-4", "airport")))
    assert state.scores == (15, 19, 3) and outcome(state).winners == (1,)


def test_ADP_C14_a_complete_tie_is_shared():
    state = flying(
        players=3, positions=("inner-3-4", "inner-3-1", "start"), marble="green", scores=(8, 10, 3), passenger=1
    )
    state = apply(state, Move(("inner-3-4", "airport")))
    assert state.scores == (15, 17, 3)
    tied = dataclasses.replace(state, scores=(15, 15, 3), last_points=(7, 7, 0))
    assert outcome(tied).winners == (0, 1) and "shared" in outcome(tied).reason


# --- the track, save files, random play, rule ids -----------------------------------------------------


def test_track_graph_is_valid_node_link_data_with_the_proposed_lanes():
    data = json.loads((ROOT / "graphs" / "ab_die_post.json").read_text())
    graph = boards.from_data(data)
    assert graph.graph["proposed_default"] is True and graph.graph["sources"]
    lanes = {}
    for _, attributes in graph.nodes(data=True):
        if attributes["kind"] == "field":
            lanes[attributes["lane"]] = lanes.get(attributes["lane"], 0) + 1
    assert lanes == {"inner": 12, "central": 24, "outer": 48}
    assert sorted(n for n, a in graph.nodes(data=True) if a["passenger"]) == ["outer-2-8", "outer-2-9"]
    assert {a["kind"] for _, _, a in graph.edges(data=True)} == {"lane", "cross"}
    broken = json.loads((ROOT / "graphs" / "ab_die_post.json").read_text())
    broken["edges"].append({"source": "inner-1-1", "target": "nowhere", "kind": "lane"})
    with pytest.raises(ValueError, match="nowhere"):
        boards.from_data(broken)


def test_track_refuses_a_cross_link_at_the_start():
    import networkx as nx

    graph = nx.Graph()
    graph.add_node("start", kind="start", lane=None, section=0, step=0, steps=0)
    graph.add_node("airport", kind="airport", lane=None, section=2, step=0, steps=0)
    graph.add_node("inner-1-1", kind="field", lane="inner", section=1, step=1, steps=1)
    graph.add_edge("start", "inner-1-1", kind="cross")
    graph.add_edge("inner-1-1", "airport", kind="lane")
    with pytest.raises(ValueError, match="cross-link"):
        rules_module.track_from_graph(graph)


def test_save_files_round_trip_and_bad_text_is_refused():
    state = new_game(players=3, seed=5, config=Config(target=21))
    rng = random.Random(5)
    for _ in range(300):
        state = core.advance(state, rng)
        state = apply(state, rng.choice(legal_moves(state)))
    text = to_json(state)
    loaded = from_json(text)
    assert loaded == state and to_json(loaded) == text
    for bad, message in [
        ("{", "not a saved game"),
        ('{"game": "claim"}', "claim"),
        (text.replace('"target":21', '"target":"x"'), "target"),
        (text.replace('"players":3', '"players":9'), "2-6"),
        (text.replace('"move":"DrawCard"', '"move":"Jump"', 1), "unknown move"),
    ]:
        with pytest.raises(ValueError, match=message):
            from_json(bad)


def test_config_from_dict_refuses_malformed_options():
    assert Config.from_dict(Config(target=21).to_dict()) == Config(target=21)
    with pytest.raises(ValueError, match="unknown options"):
        Config.from_dict({"speed": 3})
    with pytest.raises(ValueError, match="wind"):
        Config.from_dict({"wind": [2, 3]})
    with pytest.raises(ValueError, match="no marble"):
        Config.from_dict({"marbles": [[3, [0, 0, 0, 0, 0]]]})


CRAFTED = [
    DrawCard(),
    Stop(),
    Fly(),
    Stay(),
    Move(("start", "inner-1-1")),
    Repair(9, 0, 0),
    KeepCard(2),
    CardDrawn(3),
    MarbleShaken("black"),
]


@pytest.mark.parametrize("seed", range(6))
def test_random_play(seed):
    players = 2 + seed % 5
    rng = random.Random(seed)
    state = new_game(players=players, seed=seed)
    plies = 0
    previous_scores = state.scores
    while outcome(state) is None:
        outcomes = chance_outcomes(state)
        moves = legal_moves(state)
        assert bool(outcomes) != bool(moves)  # a chance node or a decision, never both
        assert card_count_invariant(state) and sum(state.pile) + sum(state.discard) > 0
        assert all(hand[2] <= 2 for hand in state.hands)
        departure = state.track.departure(state.direction)
        assert state.passenger is None or state.positions[state.passenger] != departure
        assert all(after >= before for after, before in zip(state.scores, previous_scores))
        previous_scores = state.scores
        assert len({p for p in state.positions if state.track.lane[p] is not None}) == sum(
            state.track.lane[p] is not None for p in state.positions
        )  # no two planes share a field
        if outcomes:
            assert sum(probability for _, probability in outcomes) == 1
            move = core.pick(outcomes, rng)
        else:
            assert state.player is not None
            for move in moves:
                assert check(state, move) is None
            move = rng.choice(moves)
        if plies % 7 == 0:
            for crafted in CRAFTED:
                if crafted not in moves and crafted not in {o for o, _ in outcomes}:
                    before = state
                    with pytest.raises(core.IllegalMove):
                        apply(state, crafted)
                    assert state == before
        state = apply(state, move)
        plies += 1
    assert legal_moves(state) == () and chance_outcomes(state) == ()
    assert max(state.scores) >= 15 and set(outcome(state).winners) <= set(range(players))
    assert from_json(to_json(state)) == state
    assert core.replay(new_game(players=players, seed=seed), state.history, apply) == state
