"""Computer players for Ab die Post!: a random player and a threshold player (draw until a target, then fly),
plus a seeded game runner and the threshold study used by ``bench``."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from ..core import pick
from .rules import (
    LANES,
    Config,
    DrawCard,
    Fly,
    KeepCard,
    Move,
    State,
    Stop,
    apply,
    chance_outcomes,
    hand_points,
    legal_moves,
    new_game,
    outcome,
)

Bot = Callable[[State, random.Random], Any]


def random_bot(state: State, rng: random.Random) -> Any:
    """Any legal move, uniformly at random."""
    return rng.choice(legal_moves(state))


def threshold_bot(target: int) -> Bot:
    """A player who draws until the hand holds ``target`` points and flies whenever it does: as far as it can on a
    lane whose repairs its cards cover (passenger first on ties), paying the cheapest repairs, keeping its best card."""

    def play(state: State, rng: random.Random) -> Any:
        moves = legal_moves(state)
        points = hand_points(state.hands[state.player])
        if state.phase == "turn":
            if Fly() in moves and points >= target:
                return Fly()
            if points < target and DrawCard() in moves:
                return DrawCard()
            if Stop() in moves:
                return Stop()
            return moves[0]
        if state.phase == "move":
            # Routes come farthest first; prefer a lane whose hurricane repairs the hand can pay.
            routes = [move for move in moves if isinstance(move, Move)]
            affordable = [move for move in routes if _repair_cost_at(state, move.path[-1]) <= points]
            return (affordable or routes or [moves[-1]])[0]
        if state.phase == "keep":
            return max(moves, key=lambda move: move.value if isinstance(move, KeepCard) else 0)
        return moves[0]  # repairs: the cheapest payment is listed first

    play.__name__ = f"threshold_{target}"
    play.__qualname__ = play.__name__
    return play


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": threshold_bot(6)}


def _repair_cost_at(state: State, field: str) -> int:
    lane = state.track.lane[field]
    return 0 if lane is None else state.config.repair[LANES.index(lane)]


def play_game(bots: Sequence[Bot], seed: int, config: Config | None = None, max_plies: int = 200_000) -> State:
    """Play a whole game between computer players, one per seat, with chance and bots driven by ``seed``."""
    rng = random.Random(seed)
    state = new_game(players=len(bots), seed=seed, config=config)
    for _ in range(max_plies):
        if outcome(state) is not None:
            return state
        outcomes = chance_outcomes(state)
        move = pick(outcomes, rng) if outcomes else bots[state.player](state, rng)
        state = apply(state, move)
    raise RuntimeError(f"game with seed {seed} did not end within {max_plies} plies")


def threshold_study(
    thresholds: Sequence[int] = tuple(range(4, 13)), games: int = 20, players: int = 4, seed: int = 0
) -> dict[int, Fraction]:
    """Win rate of a threshold player for each target, against opponents with targets drawn from the same range.

    Every game seats the tested player in a rotating seat; shared wins count as fractions."""
    rng = random.Random(seed)
    rates: dict[int, Fraction] = {}
    for target in thresholds:
        wins = Fraction(0)
        for game in range(games):
            seat = game % players
            bots = [threshold_bot(rng.choice(thresholds)) for _ in range(players)]
            bots[seat] = threshold_bot(target)
            result = outcome(play_game(bots, seed=rng.randrange(2**31)))
            if seat in result.winners:
                wins += Fraction(1, len(result.winners))
        rates[target] = wins / games
    return rates
