"""Issue 48.7 (a-c): Who is winning? shows no number from fewer playouts than its 95 % interval allows (it says "not
enough time" in words), its chart's move numbers are whole, and a loaded game's chart starts where the game does."""

from __future__ import annotations

import random

from rulebook import claim, registry
from rulebook.app import estimate_panel
from rulebook.app.estimate_panel import EstimatePanel, estimate_html, history_figure, whole_step
from rulebook.core import advance
from rulebook.play import estimate as est
from rulebook.play.study import wilson


def test_the_minimum_is_the_fewest_playouts_whose_widest_interval_spans_at_most_half_the_scale():
    # by the Wilson formula: 6 wins of 11 give 30 % to 80 % (wider than 50 points); 6 of 12 give 25 % to 75 %
    low, high = wilson(6, 11)
    assert high - low > 0.5
    assert est.MIN_PLAYOUTS == 12 == est.enough_playouts(0.5)


def test_a_single_playout_is_told_as_not_enough_never_as_100_percent():
    start = claim.new_game(players=2, seed=0)
    result = est.estimate(start, seed=0, playouts=1, cpu=None, policy="quick")  # the one playout a busy machine ran
    assert result.playouts == 1
    assert result.leader() is None
    assert "not enough time" in result.chance(0).words() and "%" not in result.chance(0).words().split("(")[0]
    page = estimate_html(result)
    assert "Not enough time" in page and "100 %" not in page and "<meter" not in page


def test_a_tiny_cpu_budget_in_the_tab_says_not_enough_time(monkeypatch):
    monkeypatch.setattr(est, "CPU", 1e-9)
    declared = registry.game("claim")
    board = declared.board_class()(declared.new_state(2, 1), seed=1)
    panel = EstimatePanel(lambda: board, cpu=est.CPU)
    result = panel.estimate_now()
    assert result is not None and result.playouts < 12
    assert "Not enough time" in panel.text.value and "<meter" not in panel.text.value
    assert " %<" not in panel.text.value and "100 %" not in panel.text.value


def test_the_chart_numbers_its_moves_whole():
    result = est.estimate(claim.new_game(players=2, seed=0), seed=0, playouts=12, cpu=None, policy="quick")
    figure = history_figure({0: result, 1: result, 3: result}, ["Blue", "Red"])
    axis = figure.layout.xaxis
    assert axis.tickmode == "linear" and axis.dtick == 1 and axis.tick0 == 0  # 0, 1, 2, 3: never 2.5
    assert [whole_step([0, span]) for span in (3, 9, 20, 45, 90)] == [1, 2, 5, 10, 20]


def test_a_loaded_games_chart_starts_where_the_game_does(monkeypatch):
    monkeypatch.setattr(estimate_panel, "QUIET", 0.0)
    monkeypatch.setattr(estimate_panel, "PAUSE", 0.0)
    monkeypatch.setattr(estimate_panel, "CHART_CPU", 60.0)  # ample: the point ends at its playouts, not its time
    monkeypatch.setattr(estimate_panel, "CHART_PLAYOUTS", 12)  # the fewest worth a number
    declared = registry.game("claim")
    state, rng, bot = declared.new_state(2, 5), random.Random(5), declared.bots()["random"]
    for _ in range(6):
        state = advance(state, rng)
        state = declared.engine.apply(state, bot(state, rng))
    before = len(state.history)  # Claim has no chance: each history entry is one move of the log
    board = declared.board_class()(state, seed=5)
    panel = EstimatePanel(lambda: board, cpu=10.0)
    panel.chart = estimate_panel.figures.ChartView(history_figure({}, []))
    panel.board_changed(board)
    assert panel.wait(120) and 0 in panel.points
    assert list(panel.chart.plot.data[0].x) == [before]
    assert f"after move {before}" in panel.chart.description
