"""The answers of Kingdom Builder's exercises: the value functions their "value" questions name and the measure of
their "most" questions (see rulebook.teach.exercises). The names are those the JSON data uses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import rules


def kingdom_builder_gold_gained(before: rules.State, after: rules.State) -> int:
    """The change of the mover's gold (the three cards and the castles) that the move makes."""
    player = before.player
    if player is None:
        raise ValueError("the position has nobody to move")
    return rules.score(after)[player]["total"] - rules.score(before)[player]["total"]


def kingdom_builder_card_leader(state: rules.State, card: str) -> int:
    """The seat that scores most for ``card`` in this position (a tie is not a question)."""
    scores = rules.card_scores(state, card)
    best = max(scores)
    if list(scores).count(best) > 1:
        raise ValueError(f"the {card} card ties at {best} gold: no single player scores most")
    return scores.index(best)


def kingdom_builder_card_gold(state: rules.State, card: str, player: int) -> int:
    """The gold ``player`` scores for ``card`` in this position."""
    return rules.card_scores(state, card)[player]


VALUES: dict[str, Callable[..., Any]] = {
    "kingdom_builder_card_leader": kingdom_builder_card_leader,
    "kingdom_builder_card_gold": kingdom_builder_card_gold,
}
