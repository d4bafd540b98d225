"""Kingdom Builder (base game): the engine's verbs and scoring (:mod:`.rules`), text diagrams and save files
(:mod:`.diagram`)."""

from .diagram import from_diagram, from_json, terrain_diagram, to_diagram, to_json
from .rules import (
    CARDS_PER_TERRAIN,
    FIRST_GAME_CARDS,
    FIRST_GAME_SECTIONS,
    KINGDOM_BUILDER_CARDS,
    LOCATIONS,
    RULES_VERSION,
    SECTIONS,
    SETTLEMENTS,
    TERRAINS,
    Build,
    CardDrawn,
    Config,
    EndTurn,
    State,
    UseTile,
    apply,
    board_graph,
    card_scores,
    castle_scores,
    chance_outcomes,
    check,
    legal_moves,
    new_game,
    outcome,
    score,
    scoring_hexes,
    view,
)

__all__ = [
    "CARDS_PER_TERRAIN", "FIRST_GAME_CARDS", "FIRST_GAME_SECTIONS", "KINGDOM_BUILDER_CARDS", "LOCATIONS",
    "RULES_VERSION", "SECTIONS", "SETTLEMENTS", "TERRAINS", "Build", "CardDrawn", "Config", "EndTurn", "State",
    "UseTile", "apply", "board_graph", "card_scores", "castle_scores", "chance_outcomes", "check", "from_diagram",
    "from_json", "legal_moves", "new_game", "outcome", "score", "scoring_hexes", "terrain_diagram", "to_diagram",
    "to_json", "view",
]
