"""The Threats tab of a Claim game: which pieces and towers of a player an enemy could capture with its next step or
jump, and what that player could capture now.  Claim has no dice, so every number is an exact count; the counting is
:mod:`rulebook.claim.threats`' and this module only shows it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import ipywidgets as widgets

from ..view import markup
from ..view.table import Table  # the type of this game's widget.Board, which this module never imports
from .narrate import GLYPH, captures_text, in_board_names, name
from .rules import State
from .threats import capture_moves, threats

SHOWN_CAPTURES = 6  # the player's own captures listed; the rest are counted


class Explorer(widgets.VBox):
    """Threats beside the board: which pieces and towers of a player an enemy could capture with one step or jump
    on their next turn, and what that player could capture now.  Claim has no dice, so every number is an exact count;
    it follows the position the board shows."""

    title = "Threats"  # what this explorer shows (the app's tab is named "Odds" for every game)

    def __init__(self, board: Table, width: int = 320) -> None:  # 320 px: inside the app's 360 px tab with its padding
        self.board = board
        state = board.state
        people = [seat for seat in range(state.players) if seat not in board.bots]
        # the players by their colours, as the board and its players panel name them (a seat's value is its number)
        self.player = widgets.Dropdown(
            options=[(colour.capitalize(), seat) for seat, colour in enumerate(state.colours)],
            value=people[0] if people else 0,
            description="Colour",
            tooltip="Whose pieces and towers to look at",
            layout=widgets.Layout(width="170px"),
            style={"description_width": "4em"},
        )
        self.key = widgets.HTML()
        self.result = widgets.HTML(layout=widgets.Layout(width=f"{width}px"))
        self.result.add_class("rulebook-explorer-result")
        self.player.observe(lambda _: self.update(), "value")
        super().__init__(
            [
                widgets.HTML(markup.render("threats_heading.html", package=__package__)),
                widgets.HBox([self.player, self.key]),
                self.result,
            ],
            layout=widgets.Layout(width=f"{width}px"),
        )
        self.add_class("rulebook-explorer")
        board.listeners.append(self.update)
        self.update()

    def update(self, _board: Any = None) -> None:
        """Show the threats in the position the board shows, for the chosen player."""
        state = self.board.state
        seat = self.player.value
        colour = state.colours[seat]
        self.key.value = markup.render("threats_key.html", package=__package__, colour=colour, glyph=GLYPH[colour])
        self.result.value = threats_html(state, seat)


def _count(number: int, thing: str) -> str:
    """``1 piece``, ``3 pieces``."""
    return f"{number} {thing}" + ("" if number == 1 else "s")


def threats_html(state: State, seat: int) -> markup.Markup:
    """The explorer's text for one player: exact counts, places named as on the board's edges."""
    height = state.island.height
    colour = state.colours[seat].capitalize()
    values: dict[str, Any] = {"colour": colour, "battle": state.phase == "battle" and state.result is None}
    if not values["battle"]:
        values["when"] = "the game is over" if state.result is not None else f"this is the {state.phase} phase"
        values["pieces"] = len(state.pieces(seat))
        return markup.render("threats.html", package=__package__, **values)
    own = state.pieces(seat) + state.towers(seat)
    danger = threats(state, seat)
    values["pieces"] = _count(len(state.pieces(seat)), "piece")
    values["towers"] = _count(len(state.towers(seat)), "tower")
    values["danger"] = len(danger)
    if danger:
        values["own"] = len(own)
        values["share"] = Fraction(len(danger), len(own))
        values["things"] = ", ".join(
            f"the {'tower' if state.is_tower(p) else 'piece'} on {name(state, p)}" for p in danger
        )
        by_move: dict[Any, int] = {}  # each enemy move with how many of these it would take
        for attackers in danger.values():
            for attacker in attackers:
                by_move[attacker] = by_move.get(attacker, 0) + 1
        values["attacks"] = [
            (state.colours[enemy].capitalize(), in_board_names(str(move), height), taken)
            for (enemy, move), taken in sorted(by_move.items(), key=lambda item: -item[1])
        ]
    mine = capture_moves(state, seat)
    values["moves"] = _count(len(mine), "move")
    values["captures"] = [
        (in_board_names(str(move), height), captures_text(state, taken)) for move, taken in mine[:SHOWN_CAPTURES]
    ]
    values["more"] = max(0, len(mine) - SHOWN_CAPTURES)
    return markup.render("threats.html", package=__package__, **values)
