"""Ab die Post! (Huber, Goldsieber 1996): the push-your-luck biplane race, with exact draw and hurricane odds.

``from rulebook import ab_die_post`` gives the engine verbs shared by every game (see :mod:`rulebook.core`).
"""

from .rules import (
    COLOURS,
    FULL_DECK,
    LANES,
    RULES_VERSION,
    CardDrawn,
    Config,
    DrawCard,
    Fly,
    KeepCard,
    MarbleShaken,
    Move,
    Repair,
    State,
    Stay,
    Stop,
    apply,
    chance_outcomes,
    check,
    from_json,
    hand_points,
    legal_moves,
    load_track,
    new_game,
    outcome,
    placings,
    to_json,
)

__all__ = [
    "COLOURS", "FULL_DECK", "LANES", "RULES_VERSION", "CardDrawn", "Config", "DrawCard", "Fly", "KeepCard",
    "MarbleShaken", "Move", "Repair", "State", "Stay", "Stop", "apply", "chance_outcomes", "check",
    "from_json", "hand_points", "legal_moves", "load_track", "new_game", "outcome", "placings", "to_json",
]
