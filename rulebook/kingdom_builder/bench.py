"""Figures for ``make bench``: random games per second, the time to list the legal moves, and the strong computer
player against the greedy one (win rate over games with the seats rotated, CPU time per strong move).

The balance study is run by the ``study`` function ``make bench`` passes in (:func:`rulebook.play.study.run`): a game's
modules do not import the shell's."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from .. import core
from .bots import greedy_player, random_player, strong_player
from .rules import State, apply, legal_moves, new_game, outcome


def _random_game(players: int, seed: int) -> tuple[State, list[State]]:
    rng = random.Random(seed)
    state = new_game(players=players, seed=seed)
    decisions: list[State] = []
    while outcome(state) is None:
        state = core.advance(state, rng)
        if outcome(state) is not None:
            break
        decisions.append(state)
        state = apply(state, random_player(state, rng))
    return state, decisions


def strong_move_times(games: int, seed: int = 0) -> list[float]:
    """CPU seconds of each strong move in 2-player games against the greedy player (the strong one seated first)."""
    times: list[float] = []
    for game in range(games):
        rng = random.Random(seed + game)
        state = new_game(players=2, seed=seed + game)
        while outcome(state) is None:
            state = core.advance(state, rng)
            if outcome(state) is not None:
                break
            if state.player == 0:
                start = time.process_time()
                move = strong_player(state, rng)
                times.append(time.process_time() - start)
            else:
                move = greedy_player(state, rng)
            state = apply(state, move)
    return times


def bench(
    games: int = 6, seed: int = 0, strong_games: int = 40, study: Callable[..., Any] | None = None
) -> dict[str, float]:
    """Random 2-, 3- and 4-player games per second and moves (player decisions) per CPU second (after one game to
    warm up), mean legal-move generation time (microseconds), and the strong player's median and largest CPU time
    per move; with ``study``, its wins against greedy over ``strong_games`` 2-player games (seats rotated)."""
    figures: dict[str, float] = {}
    sampled: list[State] = []
    for players in (2, 3, 4):
        _random_game(players, seed - 1)  # warm-up: the board's tables and the engine's caches
        start, cpu, moves = time.perf_counter(), time.process_time(), 0
        for game in range(games):
            _, decisions = _random_game(players, seed + game)
            moves += len(decisions)
            sampled.extend(decisions[:: max(1, len(decisions) // 20)])
        figures[f"random_games_per_second_{players}p"] = round(games / (time.perf_counter() - start), 2)
        figures[f"random_moves_per_cpu_second_{players}p"] = round(moves / (time.process_time() - cpu))
    start = time.perf_counter()
    for state in sampled:
        legal_moves(state)
    figures["legal_moves_microseconds"] = round(1e6 * (time.perf_counter() - start) / len(sampled), 1)
    figures["legal_moves_positions"] = float(len(sampled))
    if strong_games:
        if study is not None:
            result = study("kingdom_builder", ("strong", "greedy"), strong_games, seed=seed, workers=1)
            strong = result.rows()[0]
            figures[f"strong_wins_against_greedy_of_{strong_games}"] = float(strong["wins"])
        times = strong_move_times(max(1, strong_games // 10), seed)
        figures["strong_move_cpu_seconds_median"] = round(statistics.median(times), 4)
        figures["strong_move_cpu_seconds_max"] = round(max(times), 4)
    return figures


if __name__ == "__main__":  # without the balance study: `make bench` runs it
    for name, value in bench().items():
        print(f"kingdom_builder {name}: {value}")
