"""Timings of the battle odds for ``make bench``: best of a few runs of each, in milliseconds."""

from __future__ import annotations

import time
from collections.abc import Callable

from rulebook.meetjesland import odds


def best_time(task: Callable[[], object], repeats: int = 5) -> float:
    """The fastest of ``repeats`` runs of ``task``, in milliseconds (time.perf_counter)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        task()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def bench() -> dict[str, float]:
    """Measure the odds targets of issue 2: win_table N=100 (~10 ms) and N=1000 (<=150 ms), 100 v 100 (<=10 ms)."""
    return {
        "win_table N=100 (ms)": best_time(lambda: odds.win_table(100, 100)),
        "win_table N=1000 (ms)": best_time(lambda: odds.win_table(1000, 1000), repeats=3),
        "battle_outcomes 100 v 100 (ms)": best_time(lambda: odds.battle_outcomes(100, 100)),
        "exact win_table N=30 (ms)": best_time(lambda: odds.win_table(30, 30, exact=True), repeats=3),
    }


if __name__ == "__main__":
    for name, milliseconds in bench().items():
        print(f"{name}: {milliseconds:.2f}")
