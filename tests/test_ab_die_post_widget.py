"""The Ab die Post! board without a browser: click buttons, set the dropdown, assert on state and status;
plus the charts (titles, axes, exact hover values), the computer players and ``bench``."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import plotly.graph_objects as go
import pytest

from rulebook.ab_die_post import (
    DrawCard,
    Fly,
    KeepCard,
    MarbleShaken,
    Move,
    Repair,
    apply,
    bots,
    charts,
    hand_points,
    new_game,
    odds,
    outcome,
    widget,
)


def board_at(state, computer=()):
    return widget.Board(state, seed=3, computer=computer)


def test_refused_fly_names_its_rule_and_changes_nothing():
    board = board_at(new_game(players=3, seed=0), computer=(1, 2))
    before = board.state
    board.fly_button.click()
    assert "Refused by ADP-5.1" in board.status.text and board.state is before
    board.stop_button.click()
    assert "Refused by ADP-C5" in board.status.text


def test_drawing_resolves_the_card_and_computers_take_their_turns():
    board = board_at(new_game(players=3, seed=0), computer=(1, 2))
    board.draw_button.click()
    assert board.state.drawn == 1 and board.state.player == 0 and sum(board.state.hands[0]) == 1
    assert "last card" in board.info.value and "Next card busts" in board.odds_panel.value
    board.stop_button.click()
    state = board.state
    assert state.player == 0 and state.turn_player == 0 and len(state.history) > 3  # computers drew in between
    assert all(sum(hand) for hand in state.hands[1:])
    board.undo()
    assert board.state.drawn == 1 and board.state.player == 0
    board.undo()
    board.undo()
    assert "Nothing to undo" in board.status.text and board.state.history == ()


def test_live_bust_odds_with_two_red_threes_held():
    state = dataclasses.replace(new_game(players=2, seed=0), hands=((0, 0, 2), (0, 0, 0)), pile=(16, 23, 14))
    board = board_at(state)
    assert "Next card busts: <b>14/53</b>" in board.odds_panel.value
    assert "Reach 4 points (to fly) before a bust: <b>1</b>" in board.odds_panel.value


def test_flying_by_click_and_by_dropdown():
    state = dataclasses.replace(new_game(players=2, seed=0), hands=((0, 4, 0), (0, 0, 0)), pile=(16, 19, 16))
    state = apply(apply(state, Fly()), MarbleShaken("blue"))
    board = board_at(state, computer=(1,))
    assert set(board.target_trace.customdata) == {"inner-1-3", "central-1-3", "inner-1-2", "outer-1-3", "central-1-2"}
    assert not board.click_field("outer-1-9") and "No route" in board.status.text
    assert board.click_field("central-1-3")
    assert board.states[1].positions[0] == "central-1-3"
    assert board.states[1].history[-1] == Move(("start", "central-1-1", "central-1-2", "central-1-3"))
    assert board.state.player == 0 and board.state.positions[0] == "central-1-3"  # P2 could only draw
    board.undo()
    assert board.state.phase == "move"
    options = [move for _, move in board.choice.options]
    board.choice.value = next(move for move in options if move.path[-1] == "inner-1-2")
    board.play_button.click()
    assert board.states[1].positions[0] == "inner-1-2"


def test_hurricane_payment_and_keep_through_the_dropdown():
    state = dataclasses.replace(
        new_game(players=2, seed=0),
        hands=((0, 1, 1), (0, 0, 0)),
        pile=(16, 22, 15),
        positions=("central-1-2", "start"),
        phase="marble",
        player=None,
    )
    state = apply(state, MarbleShaken("black"))
    board = board_at(state, computer=(1,))
    assert "hurricane" in board.status.text.lower()
    assert [move for _, move in board.choice.options] == [Repair(0, 1, 1)]  # a 2 or a red 3 alone is less than 4
    board.play_button.click()
    assert board.states[1].hands[0] == (0, 0, 0)
    assert (
        "P1: pay repairs with 1 x 2, 1 x red 3<br><i>Player 1 pays 1 x 2, 1 x red 3 for repairs."
        in board.move_log.value
    )
    keep = dataclasses.replace(
        new_game(players=2, seed=0),
        hands=((1, 1, 0), (0, 0, 0)),
        pile=(15, 22, 16),
        phase="keep",
        player=0,
        pending=(0,),
        positions=("outer-1-3", "airport"),
        turn_player=1,
    )
    board = board_at(keep)
    assert [move for _, move in board.choice.options] == [KeepCard(1), KeepCard(2), KeepCard(0)]
    board.choice.value = KeepCard(2)
    board.play_button.click()
    assert board.state.hands[0] == (0, 1, 0) and board.state.flight == 2


def test_a_person_plays_a_whole_game_against_the_computer():
    board = board_at(new_game(players=4, seed=11), computer=(1, 2, 3))
    for _ in range(5000):
        state = board.state
        if outcome(state) is not None:
            break
        points = hand_points(state.hands[0])
        if state.phase == "turn":
            button = (
                board.fly_button
                if (not state.drawn and points >= 8)
                else (board.draw_button if points < 8 else board.stop_button)
            )
            button.click()
        else:
            board.play_button.click()
        assert "Refused" not in board.status.text
    assert outcome(board.state) is not None and "Game over" in board.status.text
    assert len(board.plane_trace.x) == 4 and board.move_log.value.count("<li") == 40


def test_track_figure_and_charts_have_titles_axes_and_exact_hover():
    track_figure = charts.track_figure(new_game(players=2, seed=0).track, widget=False)
    assert isinstance(track_figure, go.Figure) and track_figure.layout.title.text
    bust = charts.bust_chart(max_draws=5)
    assert bust.layout.xaxis.title.text and bust.layout.yaxis.title.text and bust.layout.width <= 900
    assert bust.data[2].hovertext[1].endswith(f"{Fraction(16, 55)} = {float(Fraction(16, 55)):.2%}")
    for figure in (
        charts.reach_chart(10),
        charts.expected_points_chart(5),
        charts.stopping_chart(max_reds=4),
        charts.hurricane_chart(),
        charts.distance_chart(),
        charts.survival_chart(4),
        charts.track_graph_chart(),
        charts.threshold_chart({6: Fraction(1, 4)}, games=4),
    ):
        assert figure.layout.title.text and figure.layout.width <= 900 and len(figure.data) >= 1
    hurricane = charts.hurricane_chart()
    assert hurricane.data[0].y[2] == pytest.approx(float(odds.hurricane_probability(4)))


def test_threshold_bot_draws_to_its_target_and_bots_finish_games():
    rng = random.Random(0)
    bot = bots.threshold_bot(7)
    state = dataclasses.replace(new_game(players=2, seed=0), hands=((0, 3, 0), (0, 0, 0)), pile=(16, 20, 16))
    assert bot(state, rng) == DrawCard()  # 6 points, target 7
    assert bot(dataclasses.replace(state, hands=((0, 4, 0), (0, 0, 0)), pile=(16, 19, 16)), rng) == Fly()
    final = bots.play_game([bots.threshold_bot(6), bots.random_bot], seed=4)
    assert outcome(final) is not None and max(final.scores) >= 15
    rates = bots.threshold_study(thresholds=(5, 9), games=2, players=3, seed=1)
    assert set(rates) == {5, 9} and all(0 <= rate <= 1 for rate in rates.values())


def test_bench_reports_the_figures():
    from rulebook.ab_die_post import bench

    figures = bench.bench(games_per_threshold=1, seconds=0.2)
    # Odds values: 56 draw counts and, per hand of 0-20 points, 30 targets and one stopping rule, for 0, 1, 2 red 3s.
    assert figures["exact odds values computed"] == 3 * 56 + sum(31 * (21 - 3 * reds) for reds in (0, 1, 2))
    assert figures["threshold study games"] == 9 and 4 <= figures["best threshold (points before flying)"] <= 12
    assert figures["random 4-player games per second"] > 0
