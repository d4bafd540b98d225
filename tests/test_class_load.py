"""The class server's load test, short (issue 45.6): scripted seats on four tables over WebSockets; only what it finds
is asserted (nothing lost, nothing played twice, every seat at its table's last move), never its timings."""

from __future__ import annotations

import pytest

from rulebook.tools import class_load

pytestmark = pytest.mark.xdist_group("class_server")


def test_a_short_class_loses_and_duplicates_nothing():
    report = class_load.run(tables=4, seats_per_table=3, moves=10, seed=3)
    # 4 tables of 3 students (one of each game), 10 moves each: no game ends that soon
    assert (report.tables, report.seats, report.browsers) == (4, 12, 0)
    assert report.moves_played == 40
    assert (report.lost, report.duplicated, report.backwards) == (0, 0, 0)
    assert report.seats_at_final == 12
    assert report.problems == [] and report.correct
    # each move reached both other seats of its table: 40 moves x 2 seats
    assert report.latency_samples == 80
    # the logs grew by the 40 moves and the chance entries after them, never less
    assert report.log_entries >= 40
    assert "| moves lost, duplicated, counts gone back | 0, 0, 0 |" in report.table()


def test_two_seats_a_table_where_the_game_allows_two():
    # claim, kingdom_builder and ab_die_post take 2 players; meetjesland needs 3: 2 + 2 + 2 + 3 seats
    report = class_load.run(tables=4, seats_per_table=2, moves=5, seed=5)
    assert report.seats == 9 and report.moves_played == 20
    assert report.latency_samples == 3 * 5 * 1 + 5 * 2  # each move to the other seat, or the other two
    assert report.correct


def test_bad_sizes_are_refused_in_words():
    with pytest.raises(ValueError, match="tables"):
        class_load.run(tables=0)
    with pytest.raises(ValueError, match="seats_per_table"):
        class_load.run(seats_per_table=1)
    with pytest.raises(ValueError, match="browsers"):
        class_load.run(browsers=-1)
