"""The live Kingdom Builder board: terrain hexes, settlements, legal hexes highlighted, tiles and running scores.

The widget only renders the state and sends moves through ``check``/``apply`` (via :class:`rulebook.ui.Table`);
everything can be done with the dropdowns and buttons as well as by clicking hexes.
"""

from __future__ import annotations

import math
import re
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from ..core import IllegalMove
from ..ui import BoardFigure, Table
from . import rules
from .rules import COLOURS, MOVE_TILES, SLOT_NAMES, Build, EndTurn, State, UseTile

# Terrain fills differ in lightness as well as hue, so the board stays readable in grey-scale.
TERRAIN_FILL = {
    "grass": "#9ed36a",
    "canyon": "#b5651d",
    "desert": "#f3e19b",
    "flower": "#c7a4e0",
    "forest": "#1f6b35",
    "water": "#5dade2",
    "mountain": "#7f7f7f",
    "castle": "#ffffff",
    "location": "#ffd54f",
}
# Players: distinct shapes and lightness, not only hue (colour-blind safe).
PLAYER_FILL = ("#ff7f0e", "#1f4e9e", "#ffffff", "#111111")
PLAYER_TEXT = ("#000000", "#ffffff", "#000000", "#ffffff")
PLAYER_SYMBOL = ("circle", "square", "diamond", "triangle-up")
SHAPES = {"circle": "●", "square": "■", "diamond": "◆", "triangle-up": "▲"}
STATUS_WORD = {"used": "used this turn", "pending": "usable from next turn"}
# The board and its controls fit 880 x 680 px: the app puts a 360 px panel beside them in a 1280 x 800 window.
FIGURE_WIDTH = 540
FIGURE_HEIGHT = 464  # the board's 36.4 x 31.1 hex sides at the same scale
COLUMN_WIDTH = 320


def hex_centre(row: int, column: int) -> tuple[float, float]:
    """Centre of a pointy-top hex with side 1 (odd rows half a hex to the right), y pointing up."""
    return math.sqrt(3) * (column + 0.5 * (row & 1)), -1.5 * row


def hex_words(geometry: Any, index: int) -> str:
    """A hex as a player names it: coordinates, what is on it, and the section and quarter of the board."""
    terrain, location = geometry.terrain[index], geometry.location[index]
    what = f"{location} location" if location else terrain
    where = f"{geometry.section_of[index]} section, {SLOT_NAMES[geometry.sector[index]]} quarter"
    return f"{rules.label(divmod(index, 20))} {what}<br>{where}"


def board_figure(state: State, width: int = FIGURE_WIDTH, height: int = FIGURE_HEIGHT) -> BoardFigure:
    """The board as a FigureWidget: terrain hexes, special-hex labels, highlights and settlements.

    Marker sizes follow the width, so the hexes tile the board at any size."""
    geometry = state.geometry
    centres = [hex_centre(*divmod(i, 20)) for i in range(400)]
    xs = [x for x, _ in centres]
    ys = [y for _, y in centres]
    unit = (width - 4) / 36.4  # pixels per hex side: the x range below is 36.4 sides wide
    figure = go.Figure(
        layout=go.Layout(
            width=width,
            height=height,
            margin={"l": 2, "r": 2, "t": 2, "b": 2},
            showlegend=False,
            dragmode=False,
            plot_bgcolor="#ffffff",
            clickmode="event",
            hoverlabel={"font": {"size": 12}},
            xaxis={"visible": False, "range": [-1.2, 35.2], "fixedrange": True},
            yaxis={"visible": False, "range": [-29.8, 1.3], "fixedrange": True, "scaleanchor": "x"},
        )
    )
    figure.add_scatter(
        x=xs,
        y=ys,
        mode="markers",
        name="hexes",
        hovertext=[hex_words(geometry, i) for i in range(400)],
        hoverinfo="text",
        marker={
            "symbol": "hexagon",
            "size": round(1.92 * unit),
            "color": [TERRAIN_FILL[t] for t in geometry.terrain],
            "line": {"width": 0.6, "color": "#444444"},
        },
    )
    specials = sorted(geometry.specials)
    figure.add_scatter(
        x=[xs[i] for i in specials],
        y=[ys[i] for i in specials],
        mode="text",
        name="specials",
        hoverinfo="skip",
        text=["♜" if geometry.terrain[i] == "castle" else geometry.location[i][:2].title() for i in specials],
        textfont={"size": 10, "color": "#000000"},
    )
    figure.add_scatter(
        x=[],
        y=[],
        mode="markers",
        name="legal",
        hoverinfo="skip",
        marker={"symbol": "hexagon-open", "size": round(1.67 * unit), "color": "#d50000", "line": {"width": 3}},
    )
    figure.add_scatter(
        x=[],
        y=[],
        mode="markers",
        name="scoring",
        hoverinfo="skip",
        marker={"symbol": "circle-open", "size": round(1.5 * unit), "color": "#000000", "line": {"width": 3}},
    )
    figure.add_scatter(
        x=[],
        y=[],
        mode="markers+text",
        name="settlements",
        hoverinfo="text",
        marker={"size": round(unit), "line": {"width": 1.2, "color": "#000000"}},
        textfont={"size": 9},
    )
    # Built as a Figure and wrapped at the end: traces added to a live FigureWidget before its view exists are
    # lost in Voila, while a widget created with its traces renders everywhere.
    return BoardFigure(figure)


def legend_html(state: State) -> str:
    """A key to the terrain colours and the marks on this board (its locations named in full)."""
    chips = " ".join(
        f"<span style='background:{TERRAIN_FILL[t]};color:{'#fff' if t in ('forest', 'canyon') else '#000'};"
        f"padding:0 4px;border:1px solid #444'>{t}</span>"
        for t in TERRAIN_FILL
        if t not in ("castle", "location")
    )
    geometry = state.geometry
    locations = sorted({geometry.location[i] for i in geometry.locations})
    places = ", ".join(f"<b>{name[:2].title()}</b> {name}" for name in locations)
    return (
        f"<div style='font-size:11px;line-height:1.7'>{chips}<br><b>♜</b> castle; locations: {places}<br>"
        "<span style='color:#d50000'><b>red rings</b></span>: where you may build or move now; "
        "<b>black rings</b>: the hexes a card scores</div>"
    )


class Board(Table):
    """A Kingdom Builder game on a live board; ``computer`` maps seats to computer players (``bots.BOTS`` names).

    The figure sits at the left and a column of controls at its right (880 x 680 px in all, so that the app's side
    panel fits beside it); the move log waits in a closed accordion below."""

    def __init__(self, state: State, *, seed: int = 0, computer: Any = (), **kwargs: Any) -> None:
        super().__init__(state, seed=seed, computer=computer, **kwargs)
        self.origin: tuple[int, int] | None = None
        self.syncing = False  # True while redraw refills the menus, so their observers stay quiet
        self.figure = board_figure(state)
        # Hexes of the points of each trace, so that a click on a ring or a settlement finds its hex too.
        self.shown: dict[int, list[tuple[int, int]]] = {0: [divmod(i, 20) for i in range(400)], 2: [], 3: [], 4: []}
        for number in self.shown:
            self.figure.data[number].on_click(
                lambda trace, points, selector, number=number: self._clicked(number, points)
            )
        menu = {"layout": widgets.Layout(width=f"{COLUMN_WIDTH - 10}px"), "style": {"description_width": "70px"}}
        self.action_menu = widgets.Dropdown(description="Action", **menu)
        self.origin_menu = widgets.Dropdown(description="Move from", **menu)
        self.target_menu = widgets.Dropdown(description="Hex", **menu)
        button = widgets.Layout(width="96px")
        self.play_button = widgets.Button(
            description="Play",
            button_style="success",
            icon="check",
            tooltip="Build, or use the tile, on the hex chosen under Hex",
            layout=button,
        )
        self.end_button = widgets.Button(
            description="End turn",
            button_style="primary",
            tooltip="Discard your terrain card and draw the next one (rule KB-8.1)",
            layout=button,
        )
        self.undo_button.layout = button
        self.card = widgets.HTML()
        self.tiles = widgets.HTML()
        self.scores = widgets.HTML()
        cards = [(name.title(), name) for name in (*state.cards, "castles")]
        self.scoring_card = widgets.Dropdown(
            options=[("no card", None)] + cards,
            index=0,
            description="Ring scoring of",
            tooltip="Ring the hexes that earn gold for a card (or for the castles)",
            style={"description_width": "100px"},
            layout=widgets.Layout(width="205px"),
        )
        self.scoring_player = widgets.Dropdown(
            options=[(COLOURS[p].capitalize(), p) for p in range(state.players)],
            description="for",
            style={"description_width": "22px"},
            layout=widgets.Layout(width=f"{COLUMN_WIDTH - 215}px"),
        )
        self.view_controls += [self.scoring_card, self.scoring_player]  # they change the rings, not the game
        self.play_button.on_click(lambda _: self._play_chosen())
        self.end_button.on_click(lambda _: self.play(EndTurn()))
        self.action_menu.observe(self._action_changed, names="value")
        self.origin_menu.observe(self._origin_changed, names="value")
        self.scoring_card.observe(lambda _: self.redraw(), names="value")
        self.scoring_player.observe(lambda _: self.redraw(), names="value")
        controls = widgets.VBox(
            [
                self.card,
                self.action_menu,
                self.origin_menu,
                self.target_menu,
                widgets.HBox([self.play_button, self.end_button, self.undo_button]),
                self.scores,
                self.tiles,
                widgets.HBox([self.scoring_card, self.scoring_player]),
            ],
            layout=widgets.Layout(width=f"{COLUMN_WIDTH}px"),
        )
        board = widgets.VBox(
            [self.figure, widgets.HTML(legend_html(state))], layout=widgets.Layout(width=f"{FIGURE_WIDTH + 8}px")
        )
        self.move_log.layout.max_height = "12em"
        log_box = widgets.Accordion(children=[self.move_log], titles=("Move log",), selected_index=None)
        self.children = [self.status, widgets.HBox([board, controls]), log_box]
        self.layout.max_width = "880px"
        self.start()

    # -- input ------------------------------------------------------------------------------------
    def _clicked(self, number: int, points: Any) -> None:
        if points.point_inds and points.point_inds[0] < len(self.shown[number]):
            self.select(self.shown[number][points.point_inds[0]])

    def select(self, hex_: tuple[int, int]) -> None:
        """A click on a hex: choose the settlement a move tile moves, or build / move onto the hex."""
        state, action = self.state, self.action_menu.value
        if self.finished:
            self.play(Build(hex_))  # refused: Table.play says that the game is over
            return
        if state.player is None:
            return
        if action in MOVE_TILES:
            owner = state.board[hex_[0] * 20 + hex_[1]]
            movable = [value for _, value in self.origin_menu.options]
            if owner == state.player and hex_ != self.origin and hex_ in movable:
                self.origin_menu.value = hex_
                return
            if self.origin is None:
                self.message = (
                    f"Choose which settlement the {action} moves first (click it, or pick it under Move from)."
                )
                self.message_kind = "info"
                self.redraw()
                return
            self.play(UseTile(action, hex_, self.origin))
        elif action == "build":
            self.play(Build(hex_))
        elif action is not None:
            self.play(UseTile(action, hex_))

    def _play_chosen(self) -> None:
        if self.target_menu.value is None:
            self.message, self.message_kind = "Choose a hex first: click one, or pick it under Hex.", "error"
            self.redraw()
            return
        self.select(self.target_menu.value)

    def _action_changed(self, _change) -> None:
        if not self.syncing:
            self.origin = None
            self.redraw()

    def _origin_changed(self, change) -> None:
        if not self.syncing and change["new"] != self.origin:
            self.origin = change["new"]
            self.redraw()

    def _refuse(self, error: IllegalMove) -> bool:
        """The engine names players by seat number ("player 0"); the board says their colour, as everywhere else."""
        message = re.sub(r"\bplayer (\d)\b", lambda found: COLOURS[int(found.group(1))], error.message)
        return super()._refuse(IllegalMove(error.rule, message))

    # -- output -----------------------------------------------------------------------------------
    def describe_player(self, player: int | None) -> str:
        return "Chance" if player is None else COLOURS[player].capitalize()

    def prompt(self) -> str:
        state = self.state
        if self.finished:
            return f"Game over: {self.result_text()}"
        if state.player is None:
            return "A terrain card is being drawn."
        who = COLOURS[state.player].capitalize() + (" (computer)" if state.player in self.bots else "")
        card = state.hands[state.player]
        if not state.mandatory_done and state.built > 0:
            return f"{who}: build {3 - state.built} more on {card} (next to your own settlements where possible)."
        if not state.mandatory_done and card is not None and state.supply[state.player]:
            return f"{who}: build 3 settlements on {card}; location tiles before or after, not in between."
        return f"{who}: use your location tiles, or end the turn."

    def _moves(self) -> tuple:
        return rules.legal_moves(self.state) if self.state.player not in self.bots else ()

    def _sync_menus(self, moves: tuple) -> tuple[list, list]:
        """Fill the action, origin and hex menus from the legal moves; return the legal target and origin hexes."""
        self.syncing = True
        try:
            return self._fill_menus(moves)
        finally:
            self.syncing = False

    def _fill_menus(self, moves: tuple) -> tuple[list, list]:
        state = self.state
        actions: list[tuple[str, str]] = []
        if any(isinstance(m, Build) for m in moves):
            actions.append((f"Build on {state.hands[state.player]} (mandatory)", "build"))
        for kind in dict.fromkeys(m.tile for m in moves if isinstance(m, UseTile)):
            actions.append((f"{kind.title()} tile", kind))
        with self.hold_trait_notifications():
            current = self.action_menu.value
            self.action_menu.options = actions or [("nothing to do now", None)]
            names = [a for _, a in actions]
            # index 0, not value None: a Dropdown whose value is None shows an empty box instead of the first label
            self.action_menu.index = names.index(current) if current in names else 0
        action = self.action_menu.value
        origins: list = []
        if action in MOVE_TILES:
            origins = sorted({m.origin for m in moves if isinstance(m, UseTile) and m.tile == action})
            if self.origin not in origins:
                self.origin = None
            with self.hold_trait_notifications():
                self.origin_menu.options = [("choose a settlement", None)] + [(rules.label(o), o) for o in origins]
                self.origin_menu.index = origins.index(self.origin) + 1 if self.origin in origins else 0
            targets = (
                sorted(
                    {m.target for m in moves if isinstance(m, UseTile) and m.tile == action and m.origin == self.origin}
                )
                if self.origin
                else []
            )
        else:
            with self.hold_trait_notifications():
                self.origin_menu.options = [("only for Barn, Harbor, Paddock", None)]
                self.origin_menu.index = 0
            if action == "build":
                targets = [m.hex for m in moves if isinstance(m, Build)]
            else:
                targets = [m.target for m in moves if isinstance(m, UseTile) and m.tile == action]
        geometry = state.geometry
        with self.hold_trait_notifications():
            first = {0: "no hex to choose", 1: "choose the one hex"}.get(
                len(targets), f"choose one of {len(targets)} hexes"
            )
            self.target_menu.options = [(first, None)] + [
                (f"{rules.label(t)} {geometry.terrain[t[0] * 20 + t[1]]}", t) for t in targets
            ]
            self.target_menu.index = 0
        self.origin_menu.disabled = action not in MOVE_TILES
        return targets, origins

    def draw(self) -> None:
        state = self.state
        moves = self._moves()
        targets, origins = self._sync_menus(moves)
        marked = list(origins if (self.action_menu.value in MOVE_TILES and self.origin is None) else targets)
        if self.origin is not None:
            marked.append(self.origin)
        centres = [hex_centre(*h) for h in marked]
        occupied = [i for i, owner in enumerate(state.board) if owner >= 0]
        places = [hex_centre(*divmod(i, 20)) for i in occupied]
        owners = [state.board[i] for i in occupied]
        scoring: tuple = ()
        if self.scoring_card.value is not None:
            scoring = rules.scoring_hexes(state, self.scoring_card.value, self.scoring_player.value or 0)
        score_centres = [hex_centre(*h) for h in scoring]
        self.shown.update({2: marked, 3: list(scoring), 4: [divmod(i, 20) for i in occupied]})
        # One update per trace: a batch spanning several traces with different keys resets, in the browser, the
        # keys a trace lacks (plotly's FigureWidget), which drew the red rings in the default colour.
        self.figure.data[2].update(x=[x for x, _ in centres], y=[y for _, y in centres])
        self.figure.data[3].update(x=[x for x, _ in score_centres], y=[y for _, y in score_centres])
        self.figure.data[4].update(
            x=[x for x, _ in places],
            y=[y for _, y in places],
            text=[str(o + 1) for o in owners],  # seat numbers from 1, as in the score table
            marker={"color": [PLAYER_FILL[o] for o in owners], "symbol": [PLAYER_SYMBOL[o] for o in owners]},
            textfont={"color": [PLAYER_TEXT[o] for o in owners]},
            hovertext=[f"{rules.label(divmod(i, 20))} {COLOURS[o]} settlement" for i, o in zip(occupied, owners)],
        )
        playing = state.player is not None and state.player not in self.bots
        self.play_button.disabled = not playing or not moves or self.action_menu.value is None
        self.end_button.disabled = EndTurn() not in moves
        self.card.value = self._card_html()
        self.tiles.value = self._tiles_html()
        self.scores.value = self._scores_html()
        self.move_log.value = self.log_html([m for m in state.history if not isinstance(m, rules.CardDrawn)])

    def _card_html(self) -> str:
        state = self.state
        if self.finished or state.player is None:
            return "<div style='font-size:13px'>&nbsp;</div>"
        card = state.hands[state.player]
        shown = (
            f"<b style='background:{TERRAIN_FILL[card]};color:{'#fff' if card in ('forest', 'canyon') else '#000'};"
            f"padding:0 6px;border:1px solid #333'>{card}</b>"
            if card
            else "<i>none</i>"
        )
        return f"<div style='font-size:13px'>{COLOURS[state.player].capitalize()}'s terrain card: {shown}</div>"

    def _tiles_html(self) -> str:
        state = self.state
        rows = []
        for p in range(state.players):
            tiles = (
                ", ".join(
                    f"{kind.title()} {rules.label(hex_)}"
                    + (f" <i style='color:#666'>({STATUS_WORD[status]})</i>" if status in STATUS_WORD else "")
                    for kind, hex_, status in state.tiles_of(p)
                )
                or "none"
            )
            rows.append(f"<b>{COLOURS[p].capitalize()}</b>: {tiles}")
        return (
            "<div style='font-size:12px;line-height:1.35'><b>Location tiles</b> (usable unless marked)<br>"
            + "<br>".join(rows)
            + "</div>"
        )

    def _scores_html(self) -> str:
        """Gold per card and player (players in columns, so four of them still fit the column), and supplies."""
        state = self.state
        table = rules.score(state)
        # Every cell styled here: the notebook's and Voila's table styles would otherwise pad each row to 30 px.
        cell = "padding:0 4px;line-height:1.3;border:none;text-align:right"
        head = f"<th style='{cell}'></th>" + "".join(
            f"<th style='{cell}'>{SHAPES[PLAYER_SYMBOL[p]]} {p + 1}<br>{COLOURS[p].capitalize()}</th>"
            for p in range(state.players)
        )
        lines = [
            *((card.title(), [table[p][card] for p in range(state.players)]) for card in (*state.cards, "castles")),
            ("<b>Total</b>", [f"<b>{table[p]['total']}</b>" for p in range(state.players)]),
            ("Settlements left", list(state.supply)),
        ]
        rows = "".join(
            f"<tr><td style='{cell};text-align:left'>{name}</td>"
            + "".join(f"<td style='{cell}'>{value}</td>" for value in values)
            + "</tr>"
            for name, values in lines
        )
        return (
            "<div style='font-size:12px'><b>Score so far (gold)</b>"
            f"<table style='border-collapse:collapse;margin:0'><tr>{head}</tr>{rows}</table></div>"
        )
