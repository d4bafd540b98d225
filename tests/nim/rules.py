"""Nim's engine: the verbs every game of the rulebook has, over an immutable state (no chance: nothing is dealt).

Heaps of stones; a move takes one or more stones from one heap, at most ``limit``; whoever takes the last stone wins.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rulebook.core import IllegalMove, Outcome, dump_game, load_game, replay_saved

GAME = "nim"  # the name in save files
RULES_VERSION = 1


@dataclass(frozen=True)
class Take:
    """Take ``count`` stones from heap number ``heap`` (heaps are numbered from 1, as players count them)."""

    heap: int
    count: int

    def __str__(self) -> str:
        return f"take {self.count} stone{'s' if self.count != 1 else ''} from heap {self.heap}"


MOVE_CLASSES = {"Take": Take}


@dataclass(frozen=True)
class State:
    heaps: tuple[int, ...]
    limit: int
    player: int | None  # the player to move; None once the last stone is taken
    winner: int | None = None
    players: int = 2
    history: tuple[Take, ...] = ()


def new_game(players: int = 2, seed: int = 0, heaps: tuple[int, ...] = (3, 4, 5), limit: int = 3) -> State:
    """A game at its start (NIM-1); ``seed`` is accepted as by every game, and unused: Nim has no chance."""
    if players != 2:
        raise ValueError(f"Nim is for 2 players, not {players!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an int, got {seed!r}")
    heaps = tuple(heaps)
    if not heaps or not all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in heaps):
        raise ValueError(f"heaps: one or more whole numbers of stones from 1, not {heaps!r}")
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise ValueError(f"limit: a whole number from 1, not {limit!r}")
    return State(heaps=heaps, limit=limit, player=0)


def check(state: State, move: Any) -> IllegalMove | None:
    """Why ``move`` is refused here, or None (the same tests as :func:`apply`)."""
    if state.player is None:
        return IllegalMove("NIM-3", "Nim: the game is over, the last stone is taken")
    if not isinstance(move, Take):
        return IllegalMove("NIM-2", f"Nim: a turn takes stones from a heap, not {move!r}")
    if not isinstance(move.heap, int) or not 1 <= move.heap <= len(state.heaps):
        return IllegalMove("NIM-2", f"Nim: there is no heap {move.heap!r} (heaps 1 to {len(state.heaps)})")
    if not isinstance(move.count, int) or not 1 <= move.count <= state.limit:
        return IllegalMove("NIM-2", f"Nim: a turn takes 1 to {state.limit} stones, not {move.count!r}")
    held = state.heaps[move.heap - 1]
    if move.count > held:
        return IllegalMove("NIM-2", f"Nim: heap {move.heap} holds only {held} stone{'s' if held != 1 else ''}")
    return None


def apply(state: State, move: Take) -> State:
    """The position after ``move``; IllegalMove (and nothing changed) when the rules refuse it."""
    error = check(state, move)
    if error is not None:
        raise error
    heaps = list(state.heaps)
    heaps[move.heap - 1] -= move.count
    player = state.player
    assert player is not None  # check refuses a move after the end
    if sum(heaps) == 0:  # NIM-3
        return replace(state, heaps=tuple(heaps), player=None, winner=player, history=state.history + (move,))
    return replace(state, heaps=tuple(heaps), player=1 - player, history=state.history + (move,))


def legal_moves(state: State) -> tuple[Take, ...]:
    if state.player is None:
        return ()
    return tuple(
        Take(heap, count)
        for heap, held in enumerate(state.heaps, start=1)
        for count in range(1, min(held, state.limit) + 1)
    )


def chance_outcomes(state: State) -> tuple[tuple[Any, Fraction], ...]:
    return ()  # Nim has no chance node


def outcome(state: State) -> Outcome | None:
    if state.winner is None:
        return None
    return Outcome(winners=(state.winner,), reason="took the last stone")


def narrate(before: State, move: Take, after: State) -> str:
    """The move and what it leaves, in players' words."""
    left = after.heaps[move.heap - 1]
    text = f"{move}, which leaves {left}"
    return text + (": the last stone, and the game" if after.player is None else "")


def to_json(state: State) -> str:
    """The save file: the set-up (the heaps at the start, the limit) and the moves."""
    return dump_game(GAME, RULES_VERSION, {"heaps": _start(state), "limit": state.limit}, state.history)


def _start(state: State) -> list[int]:
    """The heaps at the start: the heaps now plus every stone taken."""
    heaps = list(state.heaps)
    for move in state.history:
        heaps[move.heap - 1] += move.count
    return heaps


def from_json(text: str | bytes) -> State:
    """A saved game, replayed from its set-up; ValueError says what is wrong with the text."""
    setup, history = load_game(text, GAME, RULES_VERSION)
    if set(setup) != {"heaps", "limit"}:
        raise ValueError("saved game: the set-up of Nim holds 'heaps' and 'limit'")
    heaps, limit = setup["heaps"], setup["limit"]
    if not isinstance(heaps, list):
        raise ValueError("saved game: 'heaps' must be a list of numbers")
    return replay_saved(new_game(heaps=tuple(heaps), limit=limit), history, MOVE_CLASSES, apply)
