"""The answers of Nim's exercises: the value function their "value" questions name and the measure of their "most"
questions (see rulebook.exercises)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .bots import nim_sum
from .rules import State


def stones_taken(before: State, after: State) -> int:
    """How many stones the move took."""
    return sum(before.heaps) - sum(after.heaps)


VALUES: dict[str, Callable[..., Any]] = {"nim_sum": nim_sum}
