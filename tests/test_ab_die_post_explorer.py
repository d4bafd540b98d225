"""The draw advisor beside the board (Explorer), the Hint's mark and reason, and the strong computer player."""

from __future__ import annotations

import dataclasses
import random

import ipywidgets as widgets

from rulebook import study
from rulebook.ab_die_post import (
    DrawCard,
    Fly,
    KeepCard,
    MarbleShaken,
    Move,
    Repair,
    Stop,
    advisor,
    apply,
    bots,
    chance_outcomes,
    hand_points,
    legal_moves,
    new_game,
    outcome,
    widget,
)
from rulebook.core import pick
from rulebook.views import trace


def position(hand, pile, discard=(0, 0, 0), drawn=1, players=2):
    state = new_game(players=players, seed=0)
    hands = (tuple(hand),) + ((0, 0, 0),) * (players - 1)
    return dataclasses.replace(state, hands=hands, pile=tuple(pile), discard=tuple(discard), drawn=drawn)


def explorer_for(state, **kwargs):
    board = widget.Board(state, seed=3, computer=kwargs.pop("computer", ()))
    return board, widget.Explorer(board, **kwargs)


def result_text(explorer):
    return widgets.HTML(explorer.result.value).value.replace("<b>", "").replace("</b>", "")


# --- the explorer ---------------------------------------------------------------------------------------------


def test_explorer_shows_the_live_odds_and_the_optimal_choice():
    board, explorer = explorer_for(position((0, 0, 2), (16, 23, 14)))
    assert "rulebook-explorer" in explorer._dom_classes
    assert "rulebook-explorer-result" in explorer.result._dom_classes
    assert isinstance(explorer.target, widgets.BoundedIntText) and explorer.target.value == 8
    text = result_text(explorer)
    assert "Next card busts (a third red 3): 14/53 (26.4 %)" in text
    assert "Reach 4 points (to fly) this turn: 1 (certain)" in text
    reach8 = advisor.reach(8, 6, 2, (16, 23, 14))
    assert f"Reach the target, 8 points, this turn: {advisor.chance_text(reach8)}" in text
    assert "Best to end the turn with 8 points or more: draw" in text
    explorer.objective.value = "points"
    text = result_text(explorer)
    choice = advisor.choose("points", 6, 2, (16, 23, 14))
    assert not choice.draw and "Best for the most points in hand on average: stop" in text
    assert advisor.points_text(choice.value_if_draw) in text
    assert "P1 (red)" in explorer.heading.value and "6 points" in explorer.heading.value
    explorer.objective.value = "fly"  # 6 points already: stop, reaching 4 is certain
    assert "Best to end the turn with 4 points or more: stop" in result_text(explorer)
    chart = explorer.figure.plot
    assert "reach 4" in chart.layout.title.text and trace(chart, "best choice").text[0][3] == "draw"


def test_changing_the_target_changes_the_result_and_the_chart():
    _, explorer = explorer_for(new_game(players=2, seed=1))
    before = explorer.result.value
    explorer.target.value = 15
    assert explorer.result.value != before
    assert (
        f"15 points, this turn: <b>{advisor.chance_text(advisor.reach(15, 0, 0, (16, 23, 16)))}"
        in explorer.result.value
    )
    heat = trace(explorer.figure.plot, "best choice")
    assert heat.text[0][14] == "draw" and heat.text[0][15] == "stop"  # reach 15: draw below it, stop at it
    assert "reach 15" in explorer.figure.plot.layout.title.text


def test_the_explorer_follows_the_board_and_its_replay():
    board, explorer = explorer_for(new_game(players=2, seed=1), computer=(1,))
    assert "0 points" in explorer.heading.value
    board.play(DrawCard())
    drawn = hand_points(board.live.hands[0])
    assert f"{drawn} point" in explorer.heading.value and drawn > 0
    hand = (drawn, board.live.hands[0][2])
    mark = trace(explorer.figure.plot, "your hand")
    assert (mark.x[0], mark.y[0]) == hand
    board.show_move(0)  # replay the start: the explorer shows that position
    assert "0 points" in explorer.heading.value
    board.show_move(len(board.states) - 1)
    assert f"{drawn} point" in explorer.heading.value


def test_the_explorer_counts_the_discard_when_the_pile_runs_out():
    _, explorer = explorer_for(position((0, 0, 2), (0, 0, 0), discard=(1, 1, 2)))
    assert "Next card busts (a third red 3): 1/2 (50.0 %)" in result_text(explorer)
    _, explorer = explorer_for(position((0, 0, 2), (1, 0, 0), discard=(0, 1, 0)))
    assert "discard (1 x 2) shuffled in" in explorer.heading.value


def test_the_explorer_fits_the_side_panel_and_widens_in_a_notebook():
    _, explorer = explorer_for(new_game(players=3, seed=2))
    assert explorer.layout.max_width == "340px"
    assert explorer.figure.plot.layout.width <= 340 and explorer.figure.plot.layout.height <= 300
    _, wide = explorer_for(new_game(players=3, seed=2), width=600)
    assert wide.figure.plot.layout.width == 600


def test_the_explorer_says_when_the_game_is_over():
    state = new_game(players=2, seed=0)
    over = dataclasses.replace(state, phase="over", player=None, scores=(15, 3))
    _, explorer = explorer_for(over)
    assert "the game is over" in explorer.heading.value


# --- the hint ------------------------------------------------------------------------------------------------


def test_hint_marks_a_draw_with_its_odds_and_clears_after_the_move():
    board = widget.Board(position((0, 0, 2), (16, 23, 14)), seed=3)
    move = board.hint()
    assert move == Stop() and board.hinted == Stop()
    assert "Hint (strong computer player): stop drawing" in board.status.text
    assert "14/53 (26.4 %)" in board.status.text and "against 6 if you stop now" in board.status.text
    assert board.stop_button.button_style == "warning" and board.draw_button.button_style == "primary"
    assert list(board.hint_trace.text) == ["hint: stop drawing"]
    board.play(DrawCard())
    assert board.hinted is None and list(board.hint_trace.x) == [] and board.stop_button.button_style != "warning"


def test_hint_draws_the_suggested_route_dashed_to_its_field():
    state = position((0, 4, 0), (16, 19, 16), drawn=0)
    state = apply(apply(state, Fly()), MarbleShaken("yellow"))
    board = widget.Board(state, seed=3)
    move = board.hint()
    assert isinstance(move, Move) and move in legal_moves(state)
    graph = board.track.graph
    assert board.hint_trace.x[-1] == graph.nodes[move.path[-1]]["x"] and len(board.hint_trace.x) == len(move.path)
    assert board.hint_trace.line.dash == "dash" and board.hint_trace.text[-1] == "hint"
    assert board.choice.value == move  # the suggested route is the one chosen in the list
    assert "repairs there cost" in board.status.text


def test_hint_preselects_the_suggested_payment():
    state = position((2, 1, 1), (14, 22, 15), drawn=0)
    state = dataclasses.replace(state, positions=("central-1-2", "start"))
    state = apply(apply(state, Fly()), MarbleShaken("black"))
    board = widget.Board(state, seed=3)
    move = board.hint()
    assert isinstance(move, Repair) and board.choice.value == move
    # central lane: 4 points; paying 2 + 1 + 1 keeps the red 3 (3 points), paying with the red 3 keeps more
    assert hand_points((move.ones, move.twos, move.reds)) >= 4
    assert "for the next hurricane" in board.status.text


# --- explain and the strong player ------------------------------------------------------------------------------


def test_explain_gives_the_odds_behind_each_kind_of_move():
    assert "cannot bust" in bots.explain(position((1, 0, 1), (16, 23, 15)), DrawCard())
    state = position((0, 0, 0), (16, 23, 16), drawn=0)
    assert bots.explain(state, DrawCard()) == "Flying needs 4 points; you hold 0."
    ready = position((0, 5, 0), (16, 18, 16), drawn=0)
    assert "cover the inner lane's repairs" in bots.explain(ready, Fly())
    assert "the next flight the best start" in bots.explain(dataclasses.replace(ready, phase="keep"), KeepCard(2))


def test_strong_player_follows_the_exact_draw_policy():
    rng = random.Random(0)
    # fewer than two red 3s: the next card cannot bust, so drawing is free
    assert bots.strong_player(position((0, 3, 1), (16, 20, 15)), rng) == DrawCard()
    # two red 3s, 14 of 53 cards red: the expected gain of drawing is negative (hand count in the advisor tests)
    assert bots.strong_player(position((0, 0, 2), (16, 23, 14)), rng) == Stop()
    # two red 3s, a pile without red 3s: draw on
    assert bots.strong_player(position((0, 0, 2), (3, 3, 0), discard=(13, 20, 14)), rng) == DrawCard()
    # at the start of a turn: fly once the hand pays the inner lane's 8 points, else draw
    assert bots.strong_player(position((0, 4, 0), (16, 19, 16), drawn=0), rng) == Fly()
    assert bots.strong_player(position((0, 3, 0), (16, 20, 16), drawn=0), rng) == DrawCard()


def test_strong_player_is_deterministic_and_plays_whole_games():
    for seed in range(3):
        state = new_game(players=3, seed=seed)
        rng, moves = random.Random(seed), 0
        while outcome(state) is None:
            outcomes = chance_outcomes(state)
            if outcomes:
                state = apply(state, pick(outcomes, rng))
                continue
            move = bots.strong_player(state, random.Random(1))
            assert move == bots.strong_player(state, random.Random(2)) and move in legal_moves(state)
            state = apply(state, move)
            moves += 1
        assert moves > 10 and max(state.scores) >= 15


def test_strong_beats_greedy_in_a_small_seeded_study():
    # 12 games, seats rotated: the full 60-game measurement is in make bench and the report
    result = study.run("ab_die_post", ("strong", "greedy"), 12, workers=1)
    strong = next(row for row in result.rows() if row["who"] == "strong")
    assert strong["wins"] >= 8


def test_explain_has_a_reason_for_every_legal_move_of_a_played_game():
    state, rng, seen = new_game(players=2, seed=8), random.Random(8), set()
    while outcome(state) is None:
        outcomes = chance_outcomes(state)
        if outcomes:
            state = apply(state, pick(outcomes, rng))
            continue
        for legal in legal_moves(state):
            assert bots.explain(state, legal), (state.phase, legal)
            seen.add(type(legal).__name__)
        state = apply(state, bots.strong_player(state, rng))
    assert {"DrawCard", "Stop", "Fly", "Move", "Stay"} <= seen
