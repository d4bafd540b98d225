"""Meetjesland's figures for ``make bench``: the battle odds' timings and the speed and strength of its computer
players (measured, never asserted in tests)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from . import bots, odds_bench, rules


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
    """The odds timings (:mod:`.odds_bench`) and :func:`games`; ``study`` is not needed (the balance studies of
    ``make bench`` cover this game's computer players)."""
    return {**{name: round(value, 3) for name, value in odds_bench.bench().items()}, **games()}
