"""Claim at a class-server table (rulebook.tables.views): nothing is secret but the seed, which the
set-up's text holds, so the set-up is never sent. The summary and the text board read the position; moves are
worded with the points named as on the board's edges.
"""

from __future__ import annotations

from typing import Any

from rulebook.core import count


def summary(state: Any) -> list[str]:
    """Claim: the phase and what the player to move does in it, per colour the pieces and towers (with their
    territories), what wins, and how to read the board's rows."""
    from .narrate import colour_name, side_name
    from .rules import LETTERS, PIECES_EACH, tower_target

    lines = [_stage(state)]
    for player in range(state.players):
        pieces = len(state.pieces(player))
        towers = sorted(state.island.territory[point] for point in state.towers(player))
        where = f" (in territory {', '.join(towers)})" if len(towers) == 1 else ""
        where = f" (in territories {', '.join(towers)})" if len(towers) > 1 else where
        to_place = f", {PIECES_EACH - pieces} still to place" if state.phase == "placement" else ""
        lines.append(
            f"{colour_name(state, player)}: {count(pieces, 'piece')} on the board{to_place}, "
            f"{count(len(towers), 'tower')}{where}, {state.towers_in_reserve(player)} in reserve"
        )
    target = tower_target(state.players)
    if state.players == 4:
        sides = " against ".join(side_name(state, seat) for seat in (0, 1))
        lines.append(f"{target} towers between partners win: {sides}")
    else:
        lines.append(f"{target} towers win")
    letters = ", ".join(f"{LETTERS[colour]} {colour}" for colour in state.colours)
    named = sorted({letter for row in state.territories for letter in row if letter.isalpha()})
    territories = f" ({named[0]} to {named[-1]})" if named else ""
    lines.append(
        f"The board: {letters}; a capital letter is a tower, . a free point, # no point; "
        f"beside it each point's territory{territories}"
    )
    return lines


def _stage(state: Any) -> str:
    """The phase and what the player to move does in it, as the board's status line says it."""
    from .narrate import colour_name, name

    if state.result is not None:
        return "The game is over."
    who = colour_name(state, state.turn)
    if state.phase == "placement":
        left = 2 - len(state.pieces(state.turn)) % 2
        return f"Placement: {who} places {count(left, 'more piece', 'more pieces')} this turn"
    if state.phase == "removal":
        return f"Removal: {who} removes {count(state.removals_left[state.turn], 'more enemy piece')}"
    if state.phase == "towers":
        return f"Towers: {who} may put a tower in a territory held alone"
    if state.follow_up is not None:
        return f"Battle: {who} may capture again with the piece on {name(state, state.follow_up)}"
    return f"Battle: {who} to move"


def board(state: Any) -> list[str]:
    """The piece grid as the diagram writes it, beside the territory grid, with the row numbers and the column
    letters the board and the moves use (A1 is bottom left)."""
    from .narrate import column_letter

    height = len(state.grid)
    width = max((len(row) for row in state.grid), default=0)
    margin = len(str(height))
    letters = "".join(column_letter(column) for column in range(width))
    head = " " * (margin + 2) + "pieces".ljust(max(width + 3, 7)) + "territories"  # over each grid
    rows = [
        f"{height - index:>{margin}}  {row.ljust(width)}   {territories}"
        for index, (row, territories) in enumerate(zip(state.grid, state.territories))
    ]
    foot = " " * (margin + 2) + letters + "   " + letters
    return [head, *rows, foot]


def _readable(state: Any, text: str) -> str:
    from .words import readable

    return readable(state, text)


# what rulebook.tables.views asks of this game (registry: Game.seats)
SEATS: dict[str, Any] = {
    "actor": lambda state: state.turn,
    "start_key": lambda state: state.setup,
    "summary": summary,
    "board": board,
    "dropped": ("setup",),
    "words": lambda state, move: _readable(state, str(move)),
}
