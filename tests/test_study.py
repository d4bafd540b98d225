"""Balance studies: Wilson intervals against published values, seat rotation, the same games on one core, on a
process pool and on a Dask cluster, and the ``rulebook study`` command."""

from __future__ import annotations

import concurrent.futures
import itertools
import os
import socket
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
    import distributed

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
        (("greedy", "random"), 10**8, "games: a whole number from 1 to 1,000,000"),
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
    with pytest.raises(SystemExit) as refused:
        cli.main(["study", "claim", "--games", "2", "--seats", "strongest,random", "--workers", "1"])
    assert refused.value.code == 2 and "no computer player 'strongest'" in capsys.readouterr().err


def _refused(capsys, *argv: str) -> str:
    """Run ``rulebook study`` expecting a refusal: exit code 2, one line on stderr, no game played (no progress)."""
    with pytest.raises(SystemExit) as stopped:
        cli.main(["study", *argv])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "\r[" not in err  # no progress bar: no game was played
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulebook study: "), err
    return lines[0]


def test_a_chart_into_a_missing_folder_is_refused_before_any_game(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(study, "play_game", lambda *args: pytest.fail("a game was played"))
    missing = str(tmp_path / "nowhere" / "study.html")
    line = _refused(capsys, "claim", "--games", "2", "--seats", "greedy,random", "--workers", "1", "--chart", missing)
    assert "there is no folder" in line and "nowhere" in line
    line = _refused(capsys, "claim", "--seats", "greedy,random", "--workers", "1", "--chart", str(tmp_path))
    assert "that is a folder" in line


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs a folder nobody may write into, as root too")
def test_a_chart_that_cannot_be_written_is_refused_before_any_game(capsys, monkeypatch):
    monkeypatch.setattr(study, "play_game", lambda *args: pytest.fail("a game was played"))
    line = _refused(capsys, "claim", "--seats", "greedy,random", "--workers", "1", "--chart", "/proc/self/study.html")
    assert "cannot write there" in line
    assert not os.path.exists("/proc/self/study.html")


def test_a_chart_that_can_be_written_is_not_left_behind_when_the_study_is_refused(tmp_path, capsys):
    target = tmp_path / "study.html"
    _refused(capsys, "claim", "--seats", "greedy,nobody", "--chart", str(target))
    assert not target.exists()


def test_a_bad_scheduler_address_is_refused_in_one_line_within_seconds(capsys, monkeypatch):
    import distributed

    monkeypatch.setattr(study, "play_game", lambda *args: pytest.fail("a game was played"))
    monkeypatch.setattr(distributed, "Client", lambda *args, **kwargs: pytest.fail("a Dask client was made"))
    waits: list[float] = []
    connect = socket.create_connection

    def create_connection(address, timeout=None, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        waits.append(timeout)
        return connect(address, timeout, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", create_connection)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]  # free once the probe is closed: nothing listens there
    for address, says in (("nonsense:::", "not a scheduler address"), (f"tcp://127.0.0.1:{closed}", "nothing answers")):
        line = _refused(capsys, "claim", "--games", "2", "--seats", "greedy,random", "--scheduler", address)
        assert says in line
    assert waits and all(wait is not None and wait <= 5 for wait in waits), waits  # seconds, never the default wait


def test_a_negative_seed_is_refused_by_its_own_value_before_any_game(capsys, monkeypatch):
    monkeypatch.setattr(study, "play_game", lambda *args: pytest.fail("a game was played"))
    line = _refused(capsys, "claim", "--games", "4", "--seats", "greedy,random", "--seed", "-5", "--workers", "2")
    assert "seed" in line and "-5" in line and "-4" not in line


def test_too_many_games_are_refused_at_once(capsys, monkeypatch):
    monkeypatch.setattr(study, "play_game", lambda *args: pytest.fail("a game was played"))
    line = _refused(capsys, "claim", "--games", "100000000", "--seats", "greedy,random")
    assert "games: a whole number from 1 to 1,000,000, not 100000000" in line
    _refused(capsys, "claim", "--games", "2", "--seats", "greedy,random", "--workers", "0")


def test_the_plan_is_streamed_and_only_a_window_of_games_is_queued():
    first = list(itertools.islice(study.plan(("greedy", "random"), 10**12, seed=3), 3))
    assert first == [(("greedy", "random"), 3), (("random", "greedy"), 4), (("greedy", "random"), 5)]

    class Counting(concurrent.futures.ThreadPoolExecutor):
        queued = most = 0

        def submit(self, *args, **kwargs):
            Counting.queued += 1
            Counting.most = max(Counting.most, Counting.queued)
            future = super().submit(*args, **kwargs)
            future.add_done_callback(lambda _: setattr(Counting, "queued", Counting.queued - 1))
            return future

    with Counting(max_workers=2) as pool:
        result = study.run("claim", ("random", "random"), 12, executor=pool, window=3)
    assert Counting.most <= 3 and len(result.results) == 12
    assert result == study.run("claim", ("random", "random"), 12, workers=1)
