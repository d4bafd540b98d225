"""Meetjesland's figures for ``make bench``: the battle odds' timings and the speed and strength of its computer
players (measured, never asserted in tests)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from . import bots, odds, rules


def best_time(task: Callable[[], object], repeats: int = 5) -> float:
    """The fastest of ``repeats`` runs of ``task``, in milliseconds (time.perf_counter)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        task()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def odds_timings() -> dict[str, float]:
    """The odds targets of issue 2, best of a few runs: win_table N=100 (~10 ms) and N=1000 (<=150 ms), 100 v 100
    (<=10 ms)."""
    return {
        "win_table N=100 (ms)": best_time(lambda: odds.win_table(100, 100)),
        "win_table N=1000 (ms)": best_time(lambda: odds.win_table(1000, 1000), repeats=3),
        "battle_outcomes 100 v 100 (ms)": best_time(lambda: odds.battle_outcomes(100, 100)),
        "exact win_table N=30 (ms)": best_time(lambda: odds.win_table(30, 30, exact=True), repeats=3),
    }


def games() -> dict[str, object]:
    """Greedy 4-player games per second, random moves per second, and greedy against three random players."""
    rates = {}
    for name, players in (("random", [bots.random_player] * 4), ("greedy", None)):
        start = time.perf_counter()
        played = 0
        while time.perf_counter() - start < 5:
            bots.play_game(4, played, players)
            played += 1
        rates[name] = played / (time.perf_counter() - start)

    wins, played = 0, 40
    for seed in range(played):
        final = bots.play_game(4, seed, [bots.greedy_player] + [bots.random_player] * 3)
        result = rules.outcome(final)
        wins += result is not None and result.winners == (0,)
    return {
        "random 4-player games per second": round(rates["random"], 1),
        "greedy 4-player games per second": round(rates["greedy"], 1),
        f"greedy vs 3 random: greedy wins (of {played})": f"{wins} ({wins / played:.0%})",
    }


def bench(study: Callable[..., Any] | None = None) -> dict[str, object]:
    """The odds timings (:func:`odds_timings`) and :func:`games`; ``study`` is not needed (the balance studies of
    ``make bench`` cover this game's computer players)."""
    return {**{name: round(value, 3) for name, value in odds_timings().items()}, **games()}


if __name__ == "__main__":  # the odds' timings alone (what `python -m rulebook.meetjesland.odds_bench` printed)
    for name, milliseconds in odds_timings().items():
        print(f"{name}: {milliseconds:.2f}")
