"""Kingdom Builder moves told as players tell them, and what a move changed on the board (for the last-move marks).

Pure functions of ``(before, move, after)``: no ipywidgets, usable in a terminal. Hexes are written ``(row,column)``
as in the rules text; the board draws those numbers along its edges. Terrains and tiles get their full names
("grassland", "the Tavern tile"), players their colours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .rules import COLOURS, TERRAINS, Build, CardDrawn, EndTurn, State, UseTile, label, terrain_word

# What each tile does, in a few words (the paragraphs KB-C12.x say it in full).
TILE_ACTION = {
    "oracle": "builds on the terrain of the card played",
    "farm": "builds on grassland",
    "oasis": "builds on desert",
    "tower": "builds on the board's outer edge",
    "tavern": "builds at the end of a line of 3",
    "barn": "moves a settlement onto the card's terrain",
    "harbor": "moves a settlement onto water",
    "paddock": "moves a settlement 2 hexes in a straight line",
}


def colour(player: int) -> str:
    """A seat as the board names it: its colour, capitalised ("Orange")."""
    return COLOURS[player].capitalize()


def tile_word(kind: str) -> str:
    """A location tile's name as printed on it: "Tavern"."""
    return kind.capitalize()


@dataclass(frozen=True)
class Marks:
    """What one move changed, as hexes ``(row, column)``: for drawing the last move on the board."""

    player: int | None
    placed: tuple = ()  # hexes where a settlement arrived (built or moved in)
    left: tuple = ()  # hexes a settlement was moved away from (drawn as a ghost)
    gained: tuple = ()  # location hexes whose tile the player took
    lost: tuple = ()  # location hexes whose tile the player lost


def _tile_locations(state: State, player: int) -> dict:
    return {tile.location: tile.kind for tile in state.tiles[player]}


def marks(before: State, move: Any, after: State) -> Marks:
    """The hexes a move changed, read from the two states (settlements, tiles gained and lost)."""
    player = before.player
    if player is None or isinstance(move, CardDrawn):
        return Marks(None)
    placed = tuple(divmod(i, 20) for i, (a, b) in enumerate(zip(before.board, after.board)) if b == player and a != b)
    left = tuple(divmod(i, 20) for i, (a, b) in enumerate(zip(before.board, after.board)) if a == player and a != b)
    old, new = _tile_locations(before, player), _tile_locations(after, player)
    gained = tuple(divmod(i, 20) for i in sorted(set(new) - set(old)))
    lost = tuple(divmod(i, 20) for i in sorted(set(old) - set(new)))
    return Marks(player, placed, left, gained, lost)


def _tiles_phrase(verb: str, state: State, hexes: tuple) -> str:
    """ "takes the Tavern tile of (6,7) and the Farm tile of (12,7)"."""
    location = state.geometry.location
    parts = [f"the {tile_word(location[r * 20 + c] or '')} tile of {label((r, c))}" for r, c in hexes]
    if not parts:
        return ""
    return f"{verb} " + (parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1])


def _tiles_clause(before: State, move: Any, after: State) -> str:
    """The tiles a move took and lost: "takes the Tavern tile of (6,7) and loses the Paddock tile of (6,11)"."""
    found = marks(before, move, after)
    clauses = [_tiles_phrase("takes", after, found.gained), _tiles_phrase("loses", before, found.lost)]
    return " and ".join(c for c in clauses if c)


def _last_settlement(before: State, after: State) -> str:
    """KB-9.1: the clause telling that the mover's supply just ran out, or ""."""
    player = before.player
    if player is None or not (before.supply[player] > 0 and after.supply[player] == 0):
        return ""
    last = (
        "the game ends when this round is complete" if player < before.players - 1 else "the game ends with this turn"
    )
    return f"that was {COLOURS[player]}'s last settlement: {last}"


def _sentence(head: str, tiles: str, *after: str) -> str:
    """``head`` and the tiles taken or lost, then further clauses after semicolons."""
    text = f"{head} and {tiles}" if tiles else head
    return "; ".join([text, *(clause for clause in after if clause)])


def move_words(move: Any) -> str:
    """A move without its consequences, in the board's words: "build at (7,7)", "use the Paddock: (5,10) to (7,11)"."""
    if isinstance(move, Build):
        return f"build at {label(move.hex)}"
    if isinstance(move, UseTile):
        if move.origin is None:
            return f"use the {tile_word(move.tile)} tile: build at {label(move.target)}"
        return f"use the {tile_word(move.tile)} tile: move {label(move.origin)} to {label(move.target)}"
    if isinstance(move, EndTurn):
        return "end the turn"
    if isinstance(move, CardDrawn):
        return "draw a terrain card"
    return str(move)


def narrate(before: State, move: Any, after: State) -> str:
    """What ``move`` did, as a player would say it after the mover's name: "builds on grassland at (7,7) ..."."""
    geometry = after.geometry
    if isinstance(move, CardDrawn):
        # KB-C5: the card drawn stays hidden in the drawer's hand.
        return "draws a terrain card"
    player = before.player
    if isinstance(move, Build):
        row, column = move.hex
        terrain = terrain_word(geometry.terrain[row * 20 + column])
        count = before.built + 1
        head = f"builds on {terrain} at {label(move.hex)} (settlement {count} of 3)"
        early = ""
        if after.mandatory_done and count < 3 and player is not None and after.supply[player] > 0:
            early = f"no free {terrain} hex is left, so the mandatory action ends"
        return _sentence(head, _tiles_clause(before, move, after), _last_settlement(before, after), early)
    if isinstance(move, UseTile):
        row, column = move.target
        terrain = terrain_word(geometry.terrain[row * 20 + column])
        tile = f"uses the {tile_word(move.tile)} tile"
        if move.origin is None:
            head = f"{tile}: builds on {terrain} at {label(move.target)}"
        else:
            head = f"{tile}: moves a settlement from {label(move.origin)} to {terrain} at {label(move.target)}"
        return _sentence(head, _tiles_clause(before, move, after), _last_settlement(before, after))
    if isinstance(move, EndTurn):
        card = before.hands[player] if player is not None else None
        head = "ends the turn" + (f" and discards the {terrain_word(card)} card" if card else "")
        lost = marks(before, move, after).lost
        if lost:
            head += "; " + _tiles_phrase("loses", before, lost)
        if after.finished:
            return head + "; the round is complete and the game is over"
        removed = [t for t, a, b in zip(TERRAINS, before.removed, after.removed) if b > a]
        for terrain in removed:
            # KB-C14: seen once the draws after the turn are resolved (the shared log narrates them together)
            head += f"; a {terrain_word(terrain)} card with no free hex left leaves the game and another is drawn"
        return head
    return str(move)
