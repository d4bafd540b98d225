"""The answers of Claim's exercises: the value functions their "value" questions name and the measure of their
"most" questions (see rulebook.teach.exercises). The names are those the JSON data uses."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..core import decode_move
from . import rules
from .narrate import name


def _pieces(state: rules.State) -> int:
    return sum(1 for line in state.grid for cell in line if cell.isalpha())


def claim_pieces_removed(before: rules.State, after: rules.State) -> int:
    """How many pieces and towers left the board (the pieces the move captured)."""
    return _pieces(before) - _pieces(after)


def claim_conquerable(state: rules.State) -> str:
    """The territory letters the player to move has conquered and may claim with a tower, or "none"."""
    if state.player is None:
        raise ValueError("the position has nobody to move")
    found = rules.conquerable(state, state.player)
    return "".join(sorted(found)) or "none"


def claim_captures(state: rules.State, move: Mapping[str, Any]) -> str:
    """The points (as the board names them) whose pieces or towers ``move`` captures, or "none"."""
    decoded = decode_move(dict(move), rules.MOVE_CLASSES, where="args.move")
    after = rules.apply(state, decoded)
    taken = [
        (row, column)
        for row, line in enumerate(state.grid)
        for column, cell in enumerate(line)
        if cell.isalpha()
        and not after.grid[row][column].isalpha()
        and (row, column) != getattr(decoded, "origin", None)
    ]
    return ", ".join(name(state, point) for point in sorted(taken, key=lambda p: name(state, p))) or "none"


VALUES: dict[str, Callable[..., Any]] = {
    "claim_conquerable": claim_conquerable,
    "claim_captures": claim_captures,
}
