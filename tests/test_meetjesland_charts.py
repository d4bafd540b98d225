"""The Meetjesland odds charts show the numbers of the odds functions, with titles, axis titles and sizes."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import plotly.graph_objects as go
import pytest

from rulebook.meetjesland import charts, odds


def assert_readable(figure: go.Figure) -> None:
    assert isinstance(figure, go.Figure)
    assert figure.layout.title.text
    assert figure.layout.xaxis.title.text and figure.layout.yaxis.title.text
    assert figure.layout.width <= 900


def test_win_heatmap_cells_are_the_win_table():
    table = odds.win_table(12, 9)
    figure = charts.win_heatmap(table)
    assert_readable(figure)
    assert len(figure.data) == 1
    heatmap = figure.data[0]
    z = np.asarray(heatmap.z)
    assert z.shape == (12, 9)
    assert list(heatmap.x) == list(range(1, 10)) and list(heatmap.y) == list(range(1, 13))
    assert z[0, 0] == pytest.approx(15 / 36)  # stake 1 v 1 defender, by hand
    assert z[4, 2] == pytest.approx(odds.win_probability(5, 3))
    assert "(Augustijn points)" in figure.layout.xaxis.title.text


def test_battle_chart_shows_both_sides_of_the_terminal_distribution():
    outcomes = odds.battle_outcomes(5, 4, exact=True)
    figure = charts.battle_chart(outcomes, 5, 4)
    assert_readable(figure)
    conquest, held = figure.data
    assert list(conquest.x) == [1, 2, 3, 4, 5]
    assert list(held.x) == [1, 2, 3, 4]
    for trace, side in ((conquest, 0), (held, 1)):
        for x, y in zip(trace.x, trace.y):
            expected = sum((p for key, p in outcomes.items() if key[side] == x and key[1 - side] == 0), Fraction(0))
            assert y == pytest.approx(float(expected))
    assert sum(conquest.y) + sum(held.y) == pytest.approx(1)
    assert f"{odds.win_probability(5, 4) * 100:.1f} % to take it" in figure.layout.title.text  # 13.5: percentages
    assert conquest.customdata[-1].startswith(f"{float(outcomes[(5, 0)]) * 100:.1f} %")
    one = charts.battle_chart(odds.battle_outcomes(1, 1, exact=True), 1, 1)
    assert one.data[0].customdata[0] == "41.7 % (exactly 5/12)"  # a short exact fraction is shown too


def test_battle_chart_with_a_break_off():
    outcomes = odds.battle_outcomes(8, 6, stop_at=3)
    figure = charts.battle_chart(outcomes, 8, 6, stop_at=3)
    assert len(figure.data) == 2
    assert min(figure.data[0].x) >= 1
    assert sum(figure.data[0].y) == pytest.approx(odds.win_probability(8, 6, stop_at=3))
    assert "breaking off at 3" in figure.layout.title.text


def test_roll_chart_stacks_every_single_roll():
    matchups = [(a, d) for a in (1, 2, 3) for d in (1, 2)]
    rolls = {matchup: odds.roll_outcomes(*matchup) for matchup in matchups}
    figure = charts.roll_chart(rolls)
    assert_readable(figure)
    # loss pairs (0,1), (0,2), (1,0), (1,1), (2,0): one trace each
    assert len(figure.data) == 5
    for trace in figure.data:
        assert len(trace.x) == 6
    for column in range(6):
        assert sum(trace.y[column] for trace in figure.data) == pytest.approx(1)
    by_name = {trace.name: trace for trace in figure.data}
    three_v_two = by_name["attacker loses 0, defender loses 2"]
    assert three_v_two.y[matchups.index((3, 2))] == pytest.approx(2890 / 7776)
    assert "2890/7776" not in three_v_two.customdata[5] and "1445/3888" in three_v_two.customdata[5]


def test_chain_chart_is_cumulative_along_the_path():
    outcomes = odds.chain_outcomes(9, (2, 3, 1), exact=True)
    figure = charts.chain_chart(outcomes, ["Eeklo", "Waarschoot", "Lovendegem"], 9)
    assert_readable(figure)
    bar = figure.data[0]
    assert len(bar.x) == 3 and bar.x[0].endswith("Eeklo")
    assert bar.y[-1] == pytest.approx(float(odds.chain_win_probability(9, (2, 3, 1), exact=True)))
    assert bar.y[0] == pytest.approx(odds.win_probability(9, 2))
    assert list(bar.y) == sorted(bar.y, reverse=True)


def test_card_chart_bars_are_set_odds():
    odds_by_draws = {k: odds.set_odds(k) for k in range(6)}
    figure = charts.card_chart(odds_by_draws)
    assert_readable(figure)
    names = [trace.name for trace in figure.data]
    assert names == [
        "no trade",
        "best trade 4 points",
        "best trade 5 points",
        "best trade 6 points",
        "best trade 8 points",
    ]
    for column in range(6):
        assert sum(trace.y[column] for trace in figure.data) == pytest.approx(1)
    assert figure.data[0].y[2] == pytest.approx(1 - 2 / 44)  # two cards: only the Brewery card trades


def test_reinforcements_chart_follows_the_given_rule():
    # the text: 1 point per 3 territories held, at least 3
    figure = charts.reinforcements_chart(lambda territories: max(3, territories // 3))
    assert_readable(figure)
    bar = figure.data[0]
    assert len(bar.x) == 44
    assert bar.y[0] == 3 and bar.y[8] == 3 and bar.y[11] == 4 and bar.y[43] == 14
