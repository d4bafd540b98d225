"""Claim's charts and bench: the numbers shown are exact counts of the games given (checked by recounting here)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from rulebook import claim
from rulebook.claim import bench, bots, charts


@pytest.fixture(scope="module")
def games():
    return bots.play_games(players=2, count=6, seed=40)


def test_first_player_advantage_counts_wins_by_turn_order(games):
    figure = charts.first_player_advantage(games)
    expected = Counter()
    for game in games:
        winners = game.result.winners
        expected["draw" if not winners else ("1st" if winners[0] == game.first else "2nd")] += 1
    assert list(figure.data[0].customdata) == [
        f"{expected['1st']} of 6 games",
        f"{expected['2nd']} of 6 games",
        f"{expected['draw']} of 6 games",
    ]
    assert figure.layout.xaxis.title.text and figure.layout.yaxis.title.text


def test_captures_per_turn_adds_up_to_the_pieces_and_towers_lost(games):
    figure = charts.captures_per_turn(games)
    counts = [int(text.split(" of ")[0]) for text in figure.data[0].customdata]
    total_captured = sum(value * count for value, count in zip(figure.data[0].x, counts))
    # recount: pieces missing at the end (each side had 14 after the removals) plus towers taken by capture
    lost = sum(2 * 14 - sum(len(game.pieces(p)) for p in range(2)) for game in games)
    tower_captures = 0
    for game in games:
        state = claim.diagram.start_from_setup(json.loads(game.setup))
        for move in game.history:
            if isinstance(move, (claim.Step, claim.Jump)):
                tower_captures += sum(state.is_tower(p) for p in claim.captures_of(state, move))
            state = claim.apply(state, move)
    assert total_captured == lost + tower_captures


def test_territory_changes_match_the_towers_placed(games):
    figure = charts.territory_changes(games)
    placed = sum(isinstance(move, claim.PlaceTower) for game in games for move in game.history)
    assert round(sum(figure.data[0].y) * len(games)) == placed


def test_territory_control_and_board_charts():
    game = bots.play_games(players=4, count=1, seed=3)[0]
    figure = charts.territory_control(game)
    assert len(figure.data) == 2
    final = [trace.y[-1] for trace in figure.data]
    assert final == [sum(len(game.towers(p)) for p in side) for side in ((0, 2), (1, 3))]
    opening = bots.play_until_battle(claim.new_game(players=2, seed=3), random.Random(3))
    summary = claim.territory_summary(opening)
    assert sum(charts.territory_sizes(summary).data[0].y) == 68
    assert charts.border_lengths(summary).data[0].z is not None
    distances = charts.territory_distances(summary, opening.colours).data[0].z
    for player, row in enumerate(distances):
        for letter, value in zip(sorted(summary["sizes"]), row):
            has_piece = any(opening.island.territory[p] == letter for p in opening.pieces(player))
            assert (value == 0) == has_piece


def test_bench_reports_its_figures():
    """The report on a tiny run; the strong player's study (seconds for a rate between 0 and 1) only in `make soak`."""
    from rulebook import study
    from tests.soak import SOAK, count

    figures = bench.bench(seconds=0.05, duel_games=count(1, 2), strong_games=2, study=study.run if SOAK else None)
    assert figures["crowded_pieces_on_board"] == 56
    assert figures["legal_moves_crowded_count"] == len(claim.legal_moves(bench.crowded_position()))
    assert set(figures) >= {"random_games_per_second_2p", "legal_moves_crowded_ms", "greedy_vs_random_win_rate"}
    assert figures["random_moves_per_cpu_second_2p"] > 0 and figures["random_moves_per_cpu_second_4p"] > 0
    if SOAK:
        assert figures["strong_vs_greedy_games"] == 2 and 0 <= figures["strong_vs_greedy_win_rate"] <= 1
    else:
        assert "strong_vs_greedy_games" not in figures
    assert 0 < figures["strong_move_cpu_median_s"] <= figures["strong_move_cpu_max_s"]


def test_greedy_beats_random():
    wins, played = bots.greedy_vs_random(count=10, seed=500)
    assert wins >= 8, (wins, played)
    wins4, played4 = bots.greedy_vs_random(count=4, seed=600, players=4)
    assert wins4 >= 3, (wins4, played4)


def test_charts_read_in_words_with_one_decimal_and_legends_clear_of_the_plot(games):
    import re

    figures = [
        charts.first_player_advantage(games),
        charts.territory_control(games[0]),
        charts.territory_changes(games),
        charts.captures_per_turn(games),
    ]
    opening = bots.play_until_battle(claim.new_game(players=2, seed=3), random.Random(3))
    summary = claim.territory_summary(opening)
    figures += [charts.border_lengths(summary), charts.territory_distances(summary, opening.colours)]
    for figure in figures:
        assert figure.layout.xaxis.title.text and figure.layout.yaxis.title.text
        assert figure.layout.legend.y >= 1 and figure.layout.legend.yanchor == "bottom"  # above the plot area
        for trace in figure.data:
            hover = trace.hovertemplate or ""
            assert not re.search(r":\.[2-9]f", hover), hover  # percentages with one decimal at most
            for text in trace.text or ():
                assert not re.search(r"\d\.\d\d", str(text)), text
    advantage = figures[0].data[0]
    total = len(games)
    counts = [int(text.split(" of ")[0]) for text in advantage.customdata]
    assert list(advantage.text) == [f"{100 * count / total:.1f} %" for count in counts]
    # the border map: nothing on the diagonal, and each cell's hover says which territories share how long a border
    border = figures[4].data[0]
    letters = sorted(summary["sizes"])
    assert all(border.z[i][i] is None for i in range(len(letters)))
    first, second = sorted(summary["borders"])[0]
    i, j = letters.index(first), letters.index(second)
    length = summary["borders"][(first, second)]
    assert border.customdata[i][j] == f"territories {first} and {second} share a border of {length} point pairs"
    words = figures[5].data[0].customdata
    assert all("step" in cell or "has a piece" in cell for row in words for cell in row)
    # the sides' lines differ by dash and marker (grey-scale) as well as by colour
    lines = figures[1].data
    assert len({trace.line.dash for trace in lines}) == len({trace.marker.symbol for trace in lines}) == len(lines)
