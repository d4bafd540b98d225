"""Kingdom Builder's things in words for the rulebook's examples: hexes, hands, chances, tiles and scores as players
say them, so that the notebook prints sentences, never raw tuples or dicts. Pure functions, no ipywidgets."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .narrate import colour, tile_word
from .rules import State, label, terrain_word

QUARTERS = ("top-left", "top-right", "bottom-left", "bottom-right")  # the four sections, as sectors 0 to 3
TILE_STATUS = {"ready": "usable", "used": "used this turn", "pending": "usable from next turn"}


def join(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``; ``nothing`` for no items."""
    items = list(items)
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def hexes_text(hexes: Iterable[Any]) -> str:
    """Hexes as the rules text writes them, in reading order: ``(3,11), (5,8) and (7,9)``."""
    return join([label(h) for h in sorted(set(hexes))])


def hex_text(graph: Any, hex_: Any) -> str:
    """One node of the board graph in words: its terrain or location, section and quarter, edge and tiles."""
    data = graph.nodes[hex_]
    if data["location"]:
        what = f"a location hex ({tile_word(data['location'])}, {data['tiles']} tiles)"
    elif data["castle"]:
        what = "a castle hex"
    else:
        what = f"a {terrain_word(data['terrain'])} hex"
    edge = "on the outer edge" if data["on_edge"] else "not on the outer edge"
    return f"{label(hex_)} is {what}, in the {data['section']} section ({QUARTERS[data['sector']]} quarter), {edge}."


def per_player(values: Sequence[Any]) -> str:
    """One value per seat, named by colour: ``Orange 12, Blue 0``."""
    return ", ".join(f"{colour(player)} {value}" for player, value in enumerate(values))


def hands_text(state: State) -> str:
    """The terrain cards in hand as ``state`` shows them (a view hides the others' cards): ``Orange grassland,
    Blue desert, White hidden``."""
    return ", ".join(
        f"{colour(player)} {'hidden' if card is None else terrain_word(card)}"
        for player, card in enumerate(state.hands)
    )


def chances_text(outcomes: Iterable[tuple[Any, Any]]) -> str:
    """A chance node's outcomes in words: ``grassland 1/5, canyon 1/5, ...`` (the terrain cards that may come)."""
    return ", ".join(f"{terrain_word(outcome.terrain)} {chance}" for outcome, chance in outcomes)


def tiles_text(state: State, player: int) -> str:
    """The location tiles ``player`` holds: ``the Paddock tile of (6,11), usable``; ``no tile``."""
    tiles = [
        f"the {tile_word(kind)} tile of {label(hex_)}, {TILE_STATUS[status]}"
        for kind, hex_, status in state.tiles_of(player)
    ]
    return "; ".join(tiles) if tiles else "no tile"


def score_text(scores: dict[int, dict[str, int]]) -> str:
    """``kb.score``'s running score, one line per player: ``Orange: Fishermen 0, Knights 6, ... castles 0: 6 gold``."""
    lines = []
    for player, parts in scores.items():
        cards = ", ".join(
            f"{name.capitalize()} {gold}" for name, gold in parts.items() if name not in ("castles", "total")
        )
        lines.append(f"{colour(player)}: {cards}, castles {parts['castles']}: {parts['total']} gold")
    return "\n".join(lines)


def per_quarter(values: Sequence[Any]) -> str:
    """One value per quarter of the board (sectors 0 to 3): ``78 top-left, 74 top-right, ...``."""
    return ", ".join(f"{value} {quarter}" for quarter, value in zip(QUARTERS, values))
