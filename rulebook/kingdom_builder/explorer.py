"""The Odds tab of a Kingdom Builder game (issue 13.3): the card odds of a player, the hexes a card of each terrain
allows now (ringed on the board on request), and a chart of the chances by turns ahead.

It follows the board (``board.listeners``) and reads the position it shows, ``board.state``. The numbers come from
:mod:`rulebook.kingdom_builder.odds` (exact); this module only shows them.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ..view.figures import ChartView
from ..view.markup import Markup, render
from ..view.table import Table  # the type of this game's widget.Board, which this module never imports
from . import charts, odds, rules
from .rules import COLOURS, State


def odds_html(state: State, player: int, k: int) -> Markup:
    """The odds table for ``player`` and ``k`` turns ahead: each terrain as the next card drawn, as the player's card
    in k turns and at least once within k turns, and the hexes a card of it allows now; the cards where they are."""
    if state.finished:
        return render("odds.html", package=__package__, over=True)
    next_card = odds.next_card_odds(state)
    kth = odds.own_card_odds(state, player, k)[-1]
    counts = odds.legal_hexes_by_terrain(state, player)
    rows = [
        (
            rules.terrain_word(t),
            charts.chance_words(next_card[t]),
            charts.chance_words(kth[t]),
            charts.chance_words(odds.terrain_within(state, player, t, k)),
            counts[t],
        )
        for t in rules.TERRAINS
    ]
    return render(
        "odds.html",
        package=__package__,
        over=False,
        rows=rows,
        turns=f"{k} turn{'s' if k > 1 else ''}",
        pile=sum(state.pile),
        discarded=sum(state.discard),
        in_hands=sum(card is not None for card in state.hands),
        removed=sum(state.removed),
        who=COLOURS[player].capitalize(),
    )


def hexes_html(who: int, terrain: str | None, count: int) -> Markup:
    """How many hexes ``who`` could start building on with a ``terrain`` card now (None: no card is played)."""
    word = rules.terrain_word(terrain) if terrain is not None else ""
    return render("hexes.html", package=__package__, who=COLOURS[who].capitalize(), terrain=word, count=count)


class Explorer(widgets.VBox):
    """Card odds beside the board (issue 13.3): for a player, the chance of each terrain as the next card drawn, as
    their card in k turns and at least once within k turns, from the live pile and discards (exact, :mod:`.odds`);
    the hexes a card of each terrain allows now, ringed on the board on request; and a chart of the chances by k.

    It follows the board: it redraws after every move and every replay step, from ``board.state``."""

    def __init__(self, board: Table, *, width: int = 340, chart_height: int = 300) -> None:
        self.board = board
        self.width, self.chart_height = width, chart_height
        self._build_controls(board, width)
        state = board.state
        self.chart = ChartView(charts.draw_odds_figure(state, self.player.value, 3, width=width, height=chart_height))
        for control in (self.player, self.turns, self.ring_terrain, self.ring):
            control.observe(lambda _: self.update(), names="value")
        super().__init__(
            [
                widgets.HTML("<b>Terrain card odds</b>"),
                self.player,
                self.turns,
                self.result,
                self.ring_terrain,
                self.ring,
                self.hexes_text,
                self.chart,
            ],
            layout=widgets.Layout(width=f"{width}px"),
        )
        self.add_class("rulebook-explorer")
        board.listeners.append(self.update)
        self._updating = False
        self.update()

    def _build_controls(self, board: Table, width: int) -> None:
        """Whose odds, how many turns ahead, and which terrain's hexes to count (and ring on the board)."""
        state = board.state
        people = [p for p in range(state.players) if p not in board.bots]
        wide = {"width": f"{width - 10}px"}
        self.player = widgets.Dropdown(
            options=[(COLOURS[p].capitalize(), p) for p in range(state.players)],
            value=people[0] if people else 0,
            description="Odds for",
            style={"description_width": "90px"},
            layout=widgets.Layout(**wide),
        )
        self.turns = widgets.BoundedIntText(
            value=3,
            min=1,
            max=odds.MAX_DRAWS,
            description="Turns ahead",
            tooltip=f"k: how many of the player's coming turns to look at (1 to {odds.MAX_DRAWS})",
            style={"description_width": "90px"},
            layout=widgets.Layout(width="170px"),
        )
        self.ring_terrain = widgets.Dropdown(
            options=[("this turn's card", None)] + [(rules.terrain_word(t), t) for t in rules.TERRAINS],
            index=0,  # not value=None: a Dropdown whose value is None shows an empty box instead of the first label
            description="Hexes for",
            style={"description_width": "90px"},
            layout=widgets.Layout(**wide),
        )
        self.ring = widgets.ToggleButton(
            value=False,
            description="Ring them on the board",
            icon="map-marker",
            tooltip="Ring in indigo the hexes a card of this terrain allows now (the first settlement, KB-6.3)",
            layout=widgets.Layout(width="220px"),
        )
        self.result = widgets.HTML()
        self.result.add_class("rulebook-explorer-result")
        self.hexes_text = widgets.HTML()

    # -- what it shows ------------------------------------------------------------------------------------
    def terrain_asked(self) -> str | None:
        """The terrain whose hexes are counted: the one chosen, or the card of the player to move now."""
        if self.ring_terrain.value is not None:
            return str(self.ring_terrain.value)
        state = self.board.state
        return state.hands[state.player] if state.player is not None else None

    def hexes(self) -> tuple[tuple[int, int], ...]:
        """The hexes where the player to move (or the player the odds are for) could build with that terrain now."""
        state, terrain = self.board.state, self.terrain_asked()
        if terrain is None or state.finished:
            return ()
        who = state.player if state.player is not None else self.player.value
        return tuple(odds.legal_hexes(state, who, terrain))

    def update(self, _board: Any = None) -> None:
        """Recompute everything from the position on the board (a board listener: called after each redraw)."""
        if self._updating:
            return
        self._updating = True
        try:
            self._update()
        finally:
            self._updating = False

    def _update(self) -> None:
        state, player = self.board.state, self.player.value
        k = max(1, min(odds.MAX_DRAWS, int(self.turns.value or 1)))
        self.result.value = odds_html(state, player, k)
        terrain, hexes = self.terrain_asked(), self.hexes()
        who = state.player if state.player is not None else player
        self.hexes_text.value = hexes_html(who, terrain, len(hexes))
        shown = hexes if self.ring.value else ()
        if tuple(self.board.asked) != shown:
            self.board.show_asked(shown)
        self.chart.plot = charts.draw_odds_figure(
            state, player, max(k, 2), width=self.width, height=self.chart_height, chosen=k
        )
        self.chart.draw()
