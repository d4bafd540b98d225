"""Balance studies: Wilson intervals against published values, seat rotation, the same games on one core, on a
process pool and on a Dask cluster, and the ``rulebook study`` command."""

from __future__ import annotations

from collections import Counter

import pytest

from rulebook import cli, study


@pytest.mark.parametrize(
    "wins, trials, low, high",
    # Newcombe (1998), Statistics in Medicine 17:857-872, table I, method 3 (Wilson score interval)
    [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718)],
)
def test_wilson_intervals_match_the_published_ones(wins, trials, low, high):
    got = study.wilson(wins, trials)
    assert got == pytest.approx((low, high), abs=0.00006)


def test_every_player_sits_in_every_seat_equally_often():
    plan = study.schedule(("strong", "greedy", "greedy"), 30, seed=5)
    assert [seed for _, seed in plan] == list(range(5, 35))
    for seat in range(3):
        assert Counter(order[seat] for order, _ in plan) == {"strong": 10, "greedy": 20}


def test_a_study_is_the_same_on_one_core_and_on_a_process_pool():
    serial = study.run("claim", ("greedy", "random"), 4, workers=1)
    pooled = study.run("claim", ("greedy", "random"), 4, workers=2)
    assert serial == pooled
    assert [r.seats for r in serial.results] == [("greedy", "random"), ("random", "greedy")] * 2
    assert all(r.finished and r.winners for r in serial.results)
    rows = {row["who"]: row for row in serial.rows()}
    assert rows["greedy"]["seats played"] == rows["random"]["seats played"] == rows["first player"]["seats played"] == 4
    assert rows["greedy"]["wins"] + rows["random"]["wins"] == sum(len(r.winners) for r in serial.results)


def test_a_study_runs_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        with distributed.Client(cluster) as client:
            remote = study.run("ab_die_post", ("greedy", "random"), 3, executor=client.get_executor())
    assert remote == study.run("ab_die_post", ("greedy", "random"), 3, workers=1)


def test_progress_is_reported_as_games_finish():
    seen = []
    study.run("claim", ("random", "random"), 3, workers=1, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize(
    "seats, games, message",
    [
        (("greedy",), 2, "2 to 4 players, not 1"),
        (("greedy", "nobody"), 2, "no computer player 'nobody'"),
        (("greedy", "random"), 0, "games: a whole number from 1"),
    ],
)
def test_a_study_that_cannot_be_played_says_why(seats, games, message):
    with pytest.raises(ValueError, match=message):
        study.run("claim", seats, games, workers=1)


def test_the_command_prints_the_table_and_writes_the_chart(tmp_path, capsys):
    chart = tmp_path / "study.html"
    assert (
        cli.main(
            ["study", "claim", "--games", "2", "--seats", "greedy,random", "--workers", "1", "--chart", str(chart)]
        )
        == 0
    )
    out = capsys.readouterr()
    assert "Claim: 2 games, seats greedy, random" in out.out and "first player" in out.out
    assert "95 % interval" in out.out and "2/2 games" in out.err
    assert chart.stat().st_size > 100_000 and "win rates over 2 games" in chart.read_text()
    with pytest.raises(SystemExit, match="no computer player 'strongest'"):
        cli.main(["study", "claim", "--games", "2", "--seats", "strongest,random", "--workers", "1"])
