"""Claim's figures for ``make bench``: random games per second, legal-move time in a crowded position, the greedy
player's win rate against random players, and the strong player's against greedy (a balance study of 40 games with
the seats rotated, on every core) with its CPU time per move.  About a minute on two cores.

The balance study is run by the ``study`` function ``make bench`` passes in (:func:`rulebook.play.study.run`): a game's
modules do not import the shell's."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from .bots import greedy_player, greedy_vs_random, play_game, random_player, strong_player
from .rules import State, apply, legal_moves, new_game, outcome


def crowded_position(seed: int = 0) -> State:
    """A 4-player game right after the removals and the towers they allow: 56 pieces on the 123 points of the fixed
    island."""
    rng = random.Random(seed)
    state = new_game(players=4, seed=seed)
    while state.phase != "battle" and state.result is None:
        state = apply(state, rng.choice(legal_moves(state)))
    return state


def _random_games(players: int, seconds: float, seed: int) -> tuple[int, int, float, float]:
    """Random games for about ``seconds``: (games, moves, wall seconds, CPU seconds)."""
    games, moves, start, cpu = 0, 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        rng = random.Random(seed + games)
        final = play_game(new_game(players=players, seed=seed + games), [random_player] * players, rng)
        moves += len(final.history)
        games += 1
    return games, moves, time.perf_counter() - start, time.process_time() - cpu


def strong_move_seconds(games: int = 4, seed: int = 3000, players: int = 2) -> list[float]:
    """CPU seconds of each battle move of the strong player (seat ``i % players`` in game ``i``) against greedy
    players; the placement and removals, played as greedy plays them, are left out."""
    times: list[float] = []
    for index in range(games):
        state, rng, seat = new_game(players=players, seed=seed + index), random.Random(seed + index), index % players
        while outcome(state) is None:
            if state.turn != seat:
                state = apply(state, greedy_player(state, rng))
                continue
            searching = state.phase not in ("placement", "removal")
            start = time.process_time()
            move = strong_player(state, rng)
            if searching:
                times.append(time.process_time() - start)
            state = apply(state, move)
    return times


def bench(
    seconds: float = 3.0, duel_games: int = 40, strong_games: int = 40, study: Callable[..., Any] | None = None
) -> dict[str, Any]:
    """Measured figures (not asserted anywhere): speed of random play, move generation, greedy against random; with
    ``study``, the strong player against greedy."""
    figures: dict[str, Any] = {}
    for players in (2, 4):
        games, moves, elapsed, cpu = _random_games(players, seconds, seed=1000)
        figures[f"random_games_per_second_{players}p"] = round(games / elapsed, 2)
        # issue 16.2's measure; before the engine's caches (island, seats, pieces by row, step moves) and the
        # one-pass conquest test: about 9,000 (2 players) and 5,700 (4 players) on this machine
        figures[f"random_moves_per_cpu_second_{players}p"] = round(moves / cpu)
    crowded = crowded_position()
    repeats = 200
    start = time.perf_counter()
    for _ in range(repeats):
        moves = legal_moves(crowded)
    figures["legal_moves_crowded_ms"] = round(1000 * (time.perf_counter() - start) / repeats, 3)
    figures["legal_moves_crowded_count"] = len(moves)
    figures["crowded_pieces_on_board"] = sum(len(crowded.pieces(p)) for p in range(4))
    start = time.perf_counter()
    wins, played = greedy_vs_random(duel_games, seed=2000)
    figures["greedy_vs_random_games"] = played
    figures["greedy_vs_random_win_rate"] = round(wins / played, 3)
    figures["greedy_vs_random_seconds"] = round(time.perf_counter() - start, 2)
    if study is not None:
        start = time.perf_counter()
        result = study("claim", ("strong", "greedy"), strong_games, seed=4000, workers=None if strong_games > 4 else 1)
        strong = result.rows()[0]
        figures["strong_vs_greedy_games"] = strong_games
        figures["strong_vs_greedy_win_rate"] = round(strong["rate"], 3)
        figures["strong_vs_greedy_95_interval"] = f"{strong['low']:.3f} to {strong['high']:.3f}"
        figures["strong_vs_greedy_seconds"] = round(time.perf_counter() - start, 2)
    times = strong_move_seconds(games=4 if strong_games > 4 else 1)
    figures["strong_move_cpu_median_s"] = round(statistics.median(times), 3)
    figures["strong_move_cpu_max_s"] = round(max(times), 3)
    return figures


if __name__ == "__main__":  # without the balance study: `make bench` runs it
    for key, value in bench().items():
        print(f"{key}: {value}")
