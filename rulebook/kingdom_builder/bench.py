"""Speed figures for ``make bench``: random games per second and the time to list the legal moves."""

from __future__ import annotations

import random
import time

from .. import core
from .bots import random_player
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


def bench(games: int = 6, seed: int = 0) -> dict[str, float]:
    """Random 2-, 3- and 4-player games per second and mean legal-move generation time (microseconds)."""
    figures: dict[str, float] = {}
    sampled: list[State] = []
    for players in (2, 3, 4):
        start = time.perf_counter()
        for game in range(games):
            _, decisions = _random_game(players, seed + game)
            sampled.extend(decisions[:: max(1, len(decisions) // 20)])
        figures[f"random_games_per_second_{players}p"] = round(games / (time.perf_counter() - start), 2)
    start = time.perf_counter()
    for state in sampled:
        legal_moves(state)
    figures["legal_moves_microseconds"] = round(1e6 * (time.perf_counter() - start) / len(sampled), 1)
    figures["legal_moves_positions"] = float(len(sampled))
    return figures


if __name__ == "__main__":
    for name, value in bench().items():
        print(f"kingdom_builder {name}: {value}")
