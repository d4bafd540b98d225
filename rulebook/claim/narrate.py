"""Claim's moves told as players tell them: what was played and what followed (captures, conquests, the next phase).

Points are named the way the board labels its edges: a column letter, then a row number counted from the bottom
("C5"); territories by the letter drawn in them.  Pure functions of states: no widgets, usable anywhere.
"""

from __future__ import annotations

import re
from typing import Any

from .rules import (
    EMPTY,
    PIECES_EACH,
    REMOVALS_EACH,
    Jump,
    Pass,
    Place,
    PlaceTower,
    Point,
    Remove,
    State,
    Step,
    Stop,
    conquerable,
    legal_moves,
)

GLYPH = {"red": "\u25cf", "blue": "\u25a0", "yellow": "\u25c6", "green": "\u25b2"}  # the pieces' shapes, in text
_POINT_TEXT = r"\((-?\d+), (-?\d+)\)"
_MOVEMENT_TEXT = re.compile(rf"\b(step|jump) ({_POINT_TEXT})((?: -> {_POINT_TEXT})+)")


def in_board_names(text: str, height: int) -> str:
    """An engine text with its points as players name them: on an island of 11 rows, ``step (2, 1) -> (2, 2)``
    reads ``step from B9 to C9``."""

    def name(match: re.Match[str]) -> str:
        return point_name((int(match.group(1)), int(match.group(2))), height)

    def movement(match: re.Match[str]) -> str:
        points = [name(found) for found in re.finditer(_POINT_TEXT, match.group(0))]
        return f"{match.group(1)} from {points[0]} to " + ", then to ".join(points[1:])

    text = _MOVEMENT_TEXT.sub(movement, text)
    text = re.sub(_POINT_TEXT, name, text)
    text = text.replace(" -> ", " to ")
    return re.sub(r"(Refused by [A-Z]+-[\w.]+: )Claim: ", r"\1", text)


def column_letter(column: int) -> str:
    """The letter a column carries on the board's bottom edge (A for the leftmost)."""
    return chr(ord("A") + column)


def point_name(point: Point, height: int) -> str:
    """A point as players name it: column letter, then row number from the bottom (the top-left of 11 rows is A11)."""
    row, column = point
    return f"{column_letter(column)}{height - row}"


def name(state: State, point: Point) -> str:
    """A point of this state's island as the board names it."""
    return point_name(point, state.island.height)


def colour_name(state: State, player: int) -> str:
    """A player as the board names them: their colour, capitalised ("Red")."""
    return state.colours[player].capitalize()


def side_name(state: State, player: int) -> str:
    """A player and, with four players, their partner: "Red and Green"."""
    return " and ".join(colour_name(state, seat) for seat in state.team(player))


def jump_path(state: State, origin: Point, path: tuple[Point, ...]) -> str:
    """A jump chain in words: "from A5 over A4 to A3, then over B3 to C3"."""
    parts = []
    here = origin
    for landing in path:
        over = ((here[0] + landing[0]) // 2, (here[1] + landing[1]) // 2)
        parts.append(f"over {name(state, over)} to {name(state, landing)}")
        here = landing
    return f"from {name(state, origin)} " + ", then ".join(parts)


def _thing(state: State, point: Point) -> tuple[str, bool]:
    """The colour and kind of what stands on a point (before it was taken off)."""
    char = state.at(point)
    owner = state.owner(point)
    assert owner is not None and char != EMPTY
    return state.colours[owner], char.isupper()


def taken_off(before: State, after: State, keep: frozenset[Point] = frozenset()) -> tuple[Point, ...]:
    """The points whose piece or tower is gone after a move (the mover's own origin left out via ``keep``)."""
    return tuple(
        point
        for point in before.island.points
        if point not in keep and before.at(point) != EMPTY and after.at(point) == EMPTY
    )


def _listing(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def captures_text(before: State, points: tuple[Point, ...]) -> str:
    """ "2 blue pieces (D6, E6)" / "the blue tower on D6" / "a blue piece on C3 and a yellow piece on E3"."""
    groups: dict[tuple[str, bool], list[Point]] = {}
    for point in points:
        groups.setdefault(_thing(before, point), []).append(point)
    parts = []
    for (colour, tower), where in groups.items():
        kind = "tower" if tower else "piece"
        named = [name(before, point) for point in where]
        if len(where) == 1:
            article = "the" if tower else "a"
            parts.append(f"{article} {colour} {kind} on {named[0]}")
        else:
            parts.append(f"{len(where)} {colour} {kind}s ({', '.join(named)})")
    return _listing(parts)


def _territories(letters: list[str]) -> str:
    if len(letters) == 1:
        return f"territory {letters[0]}"
    return f"territories {_listing(letters)}"


def _ending(before: State, after: State) -> str:
    """What the move did to the game as a whole: won with towers, or stopped after too many quiet turns (CL-C11)."""
    result = after.result
    if result is None or before.result is not None:
        return ""
    winners = result.winners
    if after.quiet_turns < after.config.quiet_turn_limit:
        towers = sum(len(after.towers(p)) for p in winners)
        verb = "have" if len(winners) > 1 else "has"
        return f"; {side_name(after, winners[0])} {verb} {towers} towers and {'win' if len(winners) > 1 else 'wins'}"
    limit = after.config.quiet_turn_limit
    text = f"; the game stops after {limit} turn{'s' if limit != 1 else ''} without a capture or a tower: "
    if not winners:
        return text + "a draw"
    verb = "win" if len(winners) > 1 else "wins"
    return text + f"{side_name(after, winners[0])} {verb} with the most towers"


def _battle_begins(after: State) -> str:
    """The removals are over: who holds a territory alone, and who puts a tower down or moves first."""
    text = "; the removals are over"
    held = []
    for player in range(after.players):
        letters = sorted(territory for seat, territory in after.claims if seat == player)
        if letters:
            held.append(f"{colour_name(after, player)} holds {_territories(letters)} alone")
    if after.phase == "towers":
        text += " (" + "; ".join(held) + ")"
        return text + f"; {colour_name(after, after.turn)} may put a tower down before the battle"
    text += " and the battle begins"
    if held:
        text += " (" + "; ".join(held) + ": a tower may go there)"
    return text + f"; {colour_name(after, after.turn)} moves first"


def _after_towers(before: State, after: State) -> str:
    """In the round of towers after the removals: who puts a tower down next, or the battle beginning."""
    if before.phase != "towers" or after.result is not None:
        return ""
    if after.phase == "battle":
        return f"; the battle begins: {colour_name(after, after.turn)} moves first"
    if after.turn != before.turn:
        return f"; {colour_name(after, after.turn)} may put a tower down before the battle"
    return ""


def _follow_on(before: State, after: State, player: int) -> str:
    """After a capture: whether the same piece may go on, and which territories now take a tower."""
    if after.result is not None or after.turn != player:
        return ""
    parts = []
    if after.follow_up is not None and any(
        isinstance(move, (Step, Jump)) and move.origin == after.follow_up for move in legal_moves(after)
    ):
        parts.append(f"the piece on {name(after, after.follow_up)} may capture again")
    new = [t for t in conquerable(after, player) if t not in conquerable(before, player)]
    if new:
        parts.append(f"{colour_name(after, player)} conquers {_territories(new)} and may put a tower there")
    return "; " + "; ".join(parts) if parts else ""


def narrate(before: State, move: Any, after: State) -> str:
    """A move and its consequences in players' words, without the mover's name (the log puts it in front):
    "jumps from A5 over A4 to A3 and captures 2 blue pieces (B3, C3); the piece on A3 may capture again"."""
    player = before.turn
    if isinstance(move, Place):
        placed = len(after.pieces(player))
        text = f"places a piece on {name(before, move.point)} ({placed} of {PIECES_EACH})"
        if after.phase == "removal":
            remover = colour_name(after, after.turn)
            text += f"; every piece is on the board, so the removals begin: {remover} takes off enemy pieces first"
        elif after.phase in ("towers", "battle"):
            text += "; every piece is on the board" + _battle_begins(after)
        return text
    if isinstance(move, Remove):
        colour, _ = _thing(before, move.point)
        done = REMOVALS_EACH - after.removals_left[player] if after.phase == "removal" else None
        text = f"removes the {colour} piece on {name(before, move.point)}"
        if after.phase == "removal" and after.turn == player:
            left = after.removals_left[player]
            text += f" ({done} of {REMOVALS_EACH}; {left} more to remove)"
        elif after.phase == "removal":
            text += f"; {colour_name(after, after.turn)} removes next"
        else:
            text += _battle_begins(after)
        return text
    if isinstance(move, (Step, Jump)):
        if isinstance(move, Step):
            text = f"steps from {name(before, move.origin)} to {name(before, move.destination)}"
        else:
            text = "jumps " + jump_path(before, move.origin, move.path)
        captured = taken_off(before, after, keep=frozenset({move.origin}))
        if captured:
            text += " and captures " + captures_text(before, captured)
            towers = [p for p in captured if before.is_tower(p)]
            for point in towers:
                owner = before.owner(point)
                assert owner is not None
                text += f" (the tower goes back to {colour_name(before, owner)})"
        return text + _follow_on(before, after, player) + _ending(before, after)
    if isinstance(move, PlaceTower):
        text = f"puts a tower on {name(before, move.point)} in territory {move.territory}"
        replaced = [p for p in taken_off(before, after) if before.is_tower(p)]
        for point in replaced:
            owner = before.owner(point)
            assert owner is not None
            where = name(before, point)
            text += f"; the {before.colours[owner]} tower on {where} goes back to {colour_name(before, owner)}"
        return text + _ending(before, after) + _after_towers(before, after)
    if isinstance(move, Stop):
        left = list(conquerable(before, player))
        if before.phase == "towers":
            return f"puts no tower in {_territories(left)}" + _after_towers(before, after)
        text = "ends the series of captures"
        if left:
            text += f" and leaves {_territories(left)} without a tower"
        return text + _ending(before, after)
    if isinstance(move, Pass):
        return "passes: none of their pieces can move" + _ending(before, after)
    return str(move)
