"""Issue 48.4: `rulebook study --workers 100000` started 2,134 processes in 8 s. A study starts at most one process
per core, and the command says so when it was asked for more."""

from __future__ import annotations

import concurrent.futures

from rulebook import cli
from rulebook.play import study


class CountingPool(concurrent.futures.ThreadPoolExecutor):
    """A process pool's stand-in that notes how many workers it was asked for (and plays the games in threads)."""

    asked: list[int] = []

    def __init__(self, max_workers: int) -> None:
        CountingPool.asked.append(max_workers)
        super().__init__(max_workers=min(max_workers, 4))


def test_a_study_starts_at_most_one_process_per_core(monkeypatch):
    monkeypatch.setattr(study, "cores", lambda: 3)
    monkeypatch.setattr(study.concurrent.futures, "ProcessPoolExecutor", CountingPool)
    CountingPool.asked.clear()
    result = study.run("claim", ("random", "random"), 4, seed=1, workers=100_000)
    assert CountingPool.asked == [3] and len(result.results) == 4
    study.run("claim", ("random", "random"), 2, seed=1)
    assert CountingPool.asked == [3, 3]  # no number asked: every core
    assert study.worker_count(2) == 2 and study.worker_count(1) == 1 and study.worker_count(None) == 3


def test_the_command_says_it_uses_fewer_workers_than_asked(monkeypatch, capsys):
    monkeypatch.setattr(study, "cores", lambda: 2)
    monkeypatch.setattr(study.concurrent.futures, "ProcessPoolExecutor", CountingPool)
    CountingPool.asked.clear()
    assert cli.main(["study", "claim", "--games", "2", "--seats", "random,random", "--workers", "100000"]) in (0, None)
    err = capsys.readouterr().err
    assert "--workers 100000: using 2, one per core" in err and CountingPool.asked == [2]
