"""Nim, the rulebook's test game: a whole game in a few small files, registered from outside the ``rulebook`` package
(see docs/architecture.md, "How to add a game", which this package follows step by step)."""

from .rules import (
    MOVE_CLASSES,
    State,
    Take,
    apply,
    chance_outcomes,
    check,
    from_json,
    legal_moves,
    narrate,
    new_game,
    outcome,
    to_json,
)

__all__ = [
    "MOVE_CLASSES",
    "State",
    "Take",
    "apply",
    "chance_outcomes",
    "check",
    "from_json",
    "legal_moves",
    "narrate",
    "new_game",
    "outcome",
    "to_json",
]
