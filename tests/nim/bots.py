"""Nim's computer players, weakest first: any legal move, and one that takes a winning move when there is one."""

from __future__ import annotations

import random
from functools import reduce
from operator import xor

from .rules import State, Take, apply, legal_moves


def nim_sum(state: State) -> int:
    """The exclusive or of the heaps' values (a heap of n stones, at most ``limit`` a turn, is worth n mod (limit+1)):
    0 exactly when the player to move loses against best play."""
    return reduce(xor, (held % (state.limit + 1) for held in state.heaps), 0)


def random_player(state: State, rng: random.Random) -> Take:
    """Any legal move, uniformly at random."""
    return rng.choice(legal_moves(state))


def greedy_player(state: State, rng: random.Random) -> Take:
    """A move that leaves a nim-sum of 0 (the other player then loses against best play), else one stone from the
    biggest heap."""
    moves = legal_moves(state)
    for move in moves:
        after = apply(state, move)
        if after.player is None or nim_sum(after) == 0:
            return move
    biggest = max(range(len(state.heaps)), key=lambda index: state.heaps[index])
    return Take(biggest + 1, 1)


BOTS = {"random": random_player, "greedy": greedy_player}


def explain(state: State, move: Take) -> str:
    """Why the greedy player takes ``move``, in players' words."""
    after = apply(state, move)
    if after.player is None:
        return "It takes the last stone"
    if nim_sum(after) == 0:
        return "It leaves heaps the other player cannot win from against best play"
    return "No move leaves a lost position for the other player, so it takes as little as it can"
