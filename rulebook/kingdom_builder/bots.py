"""Computer players: a random one, and a greedy one that takes the move with the best immediate gain in gold."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from .. import core
from .rules import Build, EndTurn, Move, State, UseTile, apply, legal_moves, new_game, outcome, score

Bot = Callable[[State, random.Random], Move]

# Move tiles can offer thousands of (origin, target) pairs; the greedy player looks at a random sample of them.
MOVE_SAMPLE = 40


def random_player(state: State, rng: random.Random) -> Move:
    """Any legal move, uniformly at random."""
    return rng.choice(legal_moves(state))


def _gain(state: State, move: Move, player: int) -> int:
    return score(apply(state, move))[player]["total"]


def greedy_player(state: State, rng: random.Random) -> Move:
    """The move that raises the player's running score (3 cards + castles) most; ties broken at random.

    Building is preferred to ending the turn when it does not cost gold, because every settlement can score later."""
    player = state.player
    assert player is not None
    moves = legal_moves(state)
    builds = [m for m in moves if isinstance(m, Build) or (isinstance(m, UseTile) and m.origin is None)]
    shifts = [m for m in moves if isinstance(m, UseTile) and m.origin is not None]
    if len(shifts) > MOVE_SAMPLE:
        shifts = rng.sample(shifts, MOVE_SAMPLE)
    now = score(state)[player]["total"]
    best: list[Move] = []
    best_value = None
    for move in builds + shifts:
        value = _gain(state, move, player) - now
        # A move tile must earn something to be worth it; a new settlement is worth trying even at no gain.
        if isinstance(move, UseTile) and move.origin is not None and value <= 0:
            continue
        if best_value is None or value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    if best and (best_value is not None and best_value >= 0 or EndTurn() not in moves):
        return rng.choice(best)
    if EndTurn() in moves:
        return EndTurn()
    return rng.choice(moves)


BOTS: dict[str, Bot] = {"random": random_player, "greedy": greedy_player}


def play_game(state: State, players: Mapping[int, Bot], rng: random.Random) -> State:
    """Play ``state`` to the end with one bot per seat; chance nodes are sampled with ``rng``."""
    while outcome(state) is None:
        state = core.advance(state, rng)
        if outcome(state) is not None:
            break
        assert state.player is not None
        state = apply(state, players[state.player](state, rng))
    return state


def tournament(seats: tuple[str, ...], games: int, seed: int = 0) -> list[dict[str, object]]:
    """Play ``games`` games between the named bots (random set-ups); one record per game and seat."""
    rng = random.Random(seed)
    records: list[dict[str, object]] = []
    for game in range(games):
        # Rotate the seats so no bot always starts.
        order = seats[game % len(seats) :] + seats[: game % len(seats)]
        state = new_game(players=len(order), seed=seed * 10_000 + game)
        final = play_game(state, {p: BOTS[name] for p, name in enumerate(order)}, rng)
        result = outcome(final)
        assert result is not None
        totals = score(final)
        for p, name in enumerate(order):
            records.append(
                {
                    "game": game,
                    "seat": p,
                    "bot": name,
                    "total": totals[p]["total"],
                    "won": p in result.winners,
                    "turns": final.turns[p],
                    "settlements": 40 - final.supply[p],
                    **{card: totals[p][card] for card in (*final.cards, "castles")},
                }
            )
    return records
