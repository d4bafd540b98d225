"""The engine API every game shares, as a type: a game's engine module (``rulebook.claim``, ...) is an :class:`Engine`.

A module satisfies the Protocol structurally (mypy checks a module against it where one is annotated so), and
``tests/test_engine_protocol.py`` checks every registered game's module at run time. ``narrate`` and ``arrange`` are
not here: the shell asks for them with ``getattr`` and does without them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol

from rulebook.core import IllegalMove, Outcome


class Engine(Protocol):
    """The verbs over a game's immutable state (STYLE.md, "One engine API for all four games")."""

    def new_game(self, players: int = ..., seed: int = ...) -> Any:
        """A new game for ``players`` players, the same for the same seed."""

    def legal_moves(self, state: Any) -> tuple[Any, ...]:
        """The moves allowed now in a stable order; () at a chance node and at the end."""

    def chance_outcomes(self, state: Any) -> tuple[tuple[Any, Fraction], ...]:
        """At a chance node the outcomes with probabilities summing to exactly 1, else ()."""

    def check(self, state: Any, move: Any) -> IllegalMove | None:
        """Why ``move`` is refused (the same code path as ``apply``), or None when it is legal."""

    def apply(self, state: Any, move: Any) -> Any:
        """The new state after a move or chance outcome; raises IllegalMove and never half-applies."""

    def outcome(self, state: Any) -> Outcome | None:
        """None while playing; the winners, reason and scores once the game is over."""

    def to_json(self, state: Any) -> str:
        """The state as a save file's text."""

    def from_json(self, text: str) -> Any:
        """The state a save file's text holds; ValueError saying what is wrong with bad text."""
