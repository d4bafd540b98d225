"""Claim's figures for ``make bench``: random games per second, legal-move time in a crowded position,
and the greedy player's win rate against random players.  Runs in well under 30 seconds."""

from __future__ import annotations

import random
import time
from typing import Any

from .bots import greedy_vs_random, play_game, random_bot
from .rules import State, apply, legal_moves, new_game


def crowded_position(seed: int = 0) -> State:
    """A 4-player game right after the removals and the towers they allow: 56 pieces on the 123 points of the fixed
    island."""
    rng = random.Random(seed)
    state = new_game(players=4, seed=seed)
    while state.phase != "battle" and state.result is None:
        state = apply(state, rng.choice(legal_moves(state)))
    return state


def _random_games(players: int, seconds: float, seed: int) -> tuple[int, float]:
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        rng = random.Random(seed + games)
        play_game(new_game(players=players, seed=seed + games), [random_bot] * players, rng)
        games += 1
    return games, time.perf_counter() - start


def bench(seconds: float = 3.0, duel_games: int = 40) -> dict[str, Any]:
    """Measured figures (not asserted anywhere): speed of random play, move generation, greedy against random."""
    figures: dict[str, Any] = {}
    for players in (2, 4):
        games, elapsed = _random_games(players, seconds, seed=1000)
        figures[f"random_games_per_second_{players}p"] = round(games / elapsed, 2)
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
    return figures


if __name__ == "__main__":
    for key, value in bench().items():
        print(f"{key}: {value}")
