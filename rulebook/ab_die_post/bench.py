"""Measured figures for ``make bench``: random games per second, the exact odds over every hand, and the
threshold study.  Timings are measurements on a shared machine, never asserted in tests.

The strong player's balance study is run by the ``study`` function ``make bench`` passes in
(:func:`rulebook.play.study.run`): a game's modules do not import the shell's."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from ..core import pick
from . import bots, odds
from .rules import apply, chance_outcomes, legal_moves, new_game, outcome


def random_games_per_second(seconds: float = 3.0, players: int = 4) -> tuple[float, float]:
    """Games between random players finished per second, and plies (moves and chance outcomes) per second."""
    rng = random.Random(0)
    start = time.perf_counter()
    games = plies = 0
    while time.perf_counter() - start < seconds:
        state = new_game(players=players, seed=games)
        while outcome(state) is None:
            outcomes = chance_outcomes(state)
            state = apply(state, pick(outcomes, rng) if outcomes else rng.choice(legal_moves(state)))
            plies += 1
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, plies / elapsed


def odds_over_every_hand() -> tuple[float, int]:
    """Seconds to compute, from a cold cache, bust odds for every number of draws and reach odds for every
    target up to 30 from every hand a player can hold before drawing (up to 20 points), full pile."""
    for cached in (odds._reach, odds._expected_gain, odds._points_value, odds._draw_gain):
        cached.cache_clear()
    start = time.perf_counter()
    count = 0
    for reds in (0, 1, 2):
        for draws in range(56):
            odds.bust_probability(draws, reds)
            count += 1
        for points in range(3 * reds, 21):
            for target in range(1, 31):
                odds.reach_probability(target, points, reds)
                count += 1
            odds.best_stopping_rule("points", points, reds)
            count += 1
    return time.perf_counter() - start, count


def strong_move_times(games: int = 10, players: int = 2) -> list[float]:
    """CPU seconds of each move of the strong player (seat 0) against greedy players, over seeded games."""
    times = []
    for seed in range(games):
        state, rng = new_game(players=players, seed=seed), random.Random(seed)
        while outcome(state) is None:
            outcomes = chance_outcomes(state)
            if outcomes:
                state = apply(state, pick(outcomes, rng))
                continue
            if state.player == 0:
                start = time.process_time()
                move = bots.BOTS["strong"](state, rng)
                times.append(time.process_time() - start)
            else:
                move = bots.BOTS["greedy"](state, rng)
            state = apply(state, move)
    return times


def strong_study(study: Callable[..., Any], games: int = 60) -> dict[str, Any]:
    """Issue 16.1: the strong player against greedy, 2 players, seats rotated, chance sampled exactly (``study`` is
    :func:`rulebook.play.study.run`)."""
    result = study("ab_die_post", ("strong", "greedy"), games, workers=1)
    row = next(row for row in result.rows() if row["who"] == "strong")
    times = sorted(strong_move_times())
    return {
        f"strong against greedy, 2 players, {games} games: win rate": (
            f"{row['rate']:.1%} ({row['low']:.1%} to {row['high']:.1%})"
        ),
        "strong move CPU, median (ms)": round(1000 * statistics.median(times), 3),
        "strong move CPU, slowest (ms)": round(1000 * times[-1], 1),
    }


def bench(
    games_per_threshold: int = 40,
    seconds: float = 3.0,
    strong_games: int = 60,
    study: Callable[..., Any] | None = None,
) -> dict[str, Any]:
    """The figures for the report (about 15 s on one idle core); the strong player's study only with ``study``."""
    games_rate, ply_rate = random_games_per_second(seconds)
    odds_seconds, count = odds_over_every_hand()
    start = time.perf_counter()
    rates = bots.threshold_study(thresholds=tuple(range(4, 13)), games=games_per_threshold, seed=2024)
    study_seconds = time.perf_counter() - start
    best = max(rates, key=lambda target: (rates[target], -target))
    return {
        "random 4-player games per second": round(games_rate, 1),
        "random plies per second": round(ply_rate),
        "exact odds for every hand (s)": round(odds_seconds, 3),
        "exact odds values computed": count,
        "threshold study games": games_per_threshold * len(rates),
        "threshold study (s)": round(study_seconds, 1),
        "best threshold (points before flying)": best,
        "threshold win rates": {target: round(float(rate), 3) for target, rate in rates.items()},
        **(strong_study(study, strong_games) if study is not None else {}),
    }


if __name__ == "__main__":  # without the balance study: `make bench` runs it
    for key, value in bench().items():
        print(f"{key}: {value}")
