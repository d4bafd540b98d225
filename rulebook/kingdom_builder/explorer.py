"""The Odds tab of a Kingdom Builder game (issue 13.3): the card odds of a player, the hexes a card of each terrain
allows now (ringed on the board on request), and a chart of the chances by turns ahead.

It follows the board (``board.listeners``) and reads the position it shows, ``board.state``. The numbers come from
:mod:`rulebook.kingdom_builder.odds` (exact); this module only shows them.

Whose knowledge (issue 48.7): by default what the person at the screen can see, as the board shows the cards (the
seat of the one person playing, else the player to move): the others' hidden cards count as unknown. A toggle shows
the odds as a referee would, with every card seen; the caption under the table says which view is shown.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ..view.figures import ChartView
from ..view.markup import Markup, render
from ..view.table import Table  # the type of this game's widget.Board, which this module never imports
from . import charts, odds, rules
from .hidden import hidden_seats
from .rules import COLOURS, State

OWN_VIEW, REFEREE = "own", "referee"  # the values of the Explorer's view toggle


def view_words(state: State, viewer: int | None) -> str:
    """The caption's words for whose view the odds are: a referee's, or what ``viewer`` can see and what not."""
    if viewer is None:
        return "As a referee: every card is counted where it is, the other players' hidden cards included."
    name = COLOURS[viewer].capitalize()
    hidden = hidden_seats(state, viewer)
    if not hidden:
        return f"What {name} can see: no card in a hand is hidden from {name} now."
    owners = " and ".join(COLOURS[seat].capitalize() for seat in hidden)
    one = len(hidden) == 1
    return (
        f"What {name} can see: {owners}'s card{'' if one else 's'} {'is' if one else 'are'} hidden from {name}, so "
        f"{'it' if one else 'each'} could be any of the {sum(state.pile) + len(hidden)} unseen cards (the pile and "
        f"{'that card' if one else 'those cards'}); the odds average over every way they could have been dealt."
    )


def odds_html(state: State, player: int, k: int, *, viewer: odds.Viewer = odds.OWN) -> Markup:
    """The odds table for ``player`` and ``k`` turns ahead, as ``viewer`` knows the table (OWN: ``player``; None: a
    referee): each terrain as the next card drawn, as the player's card in k turns and at least once within k turns,
    and the hexes a card of it allows now; the cards where they are, and whose view it is."""
    if state.finished:
        return render("odds.html", package=__package__, over=True)
    if isinstance(viewer, odds.Own):
        viewer = player  # the whole table from one seat, the next card included
    next_card = odds.next_card_odds(state, viewer=viewer)
    kth = odds.own_card_odds(state, player, k, viewer=viewer)[-1]
    counts = odds.legal_hexes_by_terrain(state, player)
    rows = [
        (
            rules.terrain_word(t),
            charts.chance_words(next_card[t]),
            charts.chance_words(kth[t]),
            charts.chance_words(odds.terrain_within(state, player, t, k, viewer=viewer)),
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
        view=view_words(state, viewer),
    )


def hexes_html(who: int, terrain: str | None, count: int) -> Markup:
    """How many hexes ``who`` could start building on with a ``terrain`` card now (None: no card is played)."""
    word = rules.terrain_word(terrain) if terrain is not None else ""
    return render("hexes.html", package=__package__, who=COLOURS[who].capitalize(), terrain=word, count=count)


class Explorer(widgets.VBox):
    """Card odds beside the board (issue 13.3): for a player, the chance of each terrain as the next card drawn, as
    their card in k turns and at least once within k turns, from the live pile and discards (exact, :mod:`.odds`);
    the hexes a card of each terrain allows now, ringed on the board on request; and a chart of the chances by k.
    The odds are what the person at the screen can see (:meth:`viewer`), or a referee's on request (``view``).

    It follows the board: it redraws after every move and every replay step, from ``board.state``."""

    def __init__(self, board: Table, *, width: int = 340, chart_height: int = 300) -> None:
        self.board = board
        self.width, self.chart_height = width, chart_height
        self._build_controls(board, width)
        state = board.state
        self.chart = ChartView(
            charts.draw_odds_figure(
                state, self.player.value, 3, width=width, height=chart_height, viewer=self.viewer()
            )
        )
        for control in (self.player, self.turns, self.view, self.ring_terrain, self.ring):
            control.observe(lambda _: self.update(), names="value")
        super().__init__(
            [
                widgets.HTML("<b>Terrain card odds</b>"),
                self.player,
                self.turns,
                self.view,
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
        self.view = widgets.ToggleButtons(
            options=[("What I can see", OWN_VIEW), ("As a referee (all cards)", REFEREE)],
            value=OWN_VIEW,
            tooltips=[
                "The others' hidden cards count as unknown: any of the cards you have not seen",
                "Every card counted where it is, the others' hidden cards included, as a referee would",
            ],
            style={"button_width": f"{(width - 30) // 2}px"},
            layout=widgets.Layout(**wide),
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
    def viewer(self) -> int | None:
        """Whose knowledge the odds have: None for a referee; else the seat of the one person playing (the screen is
        theirs), or with several people or none, the player to move (whose card alone the board shows)."""
        state = self.board.state
        if self.view.value == REFEREE:
            return None
        people = [p for p in range(state.players) if p not in self.board.bots]
        return people[0] if len(people) == 1 else state.player

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
        viewer = self.viewer()
        self.result.value = odds_html(state, player, k, viewer=viewer)
        terrain, hexes = self.terrain_asked(), self.hexes()
        who = state.player if state.player is not None else player
        self.hexes_text.value = hexes_html(who, terrain, len(hexes))
        shown = hexes if self.ring.value else ()
        if tuple(self.board.asked) != shown:
            self.board.show_asked(shown)
        self.chart.plot = charts.draw_odds_figure(
            state, player, max(k, 2), width=self.width, height=self.chart_height, chosen=k, viewer=viewer
        )
        self.chart.draw()
