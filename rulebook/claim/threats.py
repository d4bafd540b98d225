"""Which pieces can be captured next: every capture a player's step or jump would make from a position, as if it
were that player's turn, and so what the enemies threaten.  Pure functions of states (the threat explorer beside the
board shows them); a capture series or a tower after the first capture is not followed."""

from __future__ import annotations

from typing import Any

from .rules import Jump, Point, State, Step, _with, captures_of, legal_moves


def capture_moves(state: State, player: int) -> list[tuple[Step | Jump, tuple[Point, ...]]]:
    """The steps and jumps of ``player`` that capture, with what each captures, as if ``player`` were to move now
    (a fresh turn: no capture series going on); most captured first, then in the engine's move order."""
    if state.phase != "battle" or state.result is not None:
        return []
    turn = state if state.turn == player and state.follow_up is None else _with(state, turn=player, follow_up=None)
    found = []
    for move in legal_moves(turn):
        if isinstance(move, (Step, Jump)):
            captured = captures_of(turn, move)
            if captured:
                found.append((move, captured))
    found.sort(key=lambda pair: -len(pair[1]))
    return found


def threats(state: State, player: int) -> dict[Point, list[tuple[int, Any]]]:
    """Each piece or tower of ``player``'s side that an enemy could capture with one step or jump on their next turn,
    with the enemies and moves that would do it."""
    found: dict[Point, list[tuple[int, Any]]] = {}
    for enemy in range(state.players):
        if not state.enemies(player, enemy):
            continue
        for move, captured in capture_moves(state, enemy):
            for point in captured:
                if state.owner(point) == player:
                    found.setdefault(point, []).append((enemy, move))
    return dict(sorted(found.items()))
