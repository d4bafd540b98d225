"""The live Kingdom Builder board: terrain hexes, settlements, legal hexes highlighted, tiles and running scores.

The widget only renders the state and sends moves through ``check``/``apply`` (via :class:`rulebook.ui.Table`);
everything can be done with the dropdowns and buttons as well as by clicking hexes.
"""

from __future__ import annotations

import math
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from .. import ui
from ..ui import Table, settle_figure
from . import charts, odds, rules
from .narrate import TILE_ACTION, colour, marks, move_words
from .rules import COLOURS, MOVE_TILES, SLOT_NAMES, Build, EndTurn, State, UseTile

# Terrain fills, ring colours and the black of the scoring rings were chosen together with a colour-vision
# simulator (colorspacious, CAM02-UCS): every pair stays at least 16 apart for normal vision and under
# deuteranomaly, protanomaly and tritanomaly at full severity, and the fills differ in lightness as well as hue.
TERRAIN_FILL = {
    "grass": "#89af75",
    "canyon": "#b66816",
    "desert": "#f0d898",
    "flower": "#cbc3e9",
    "forest": "#216847",
    "water": "#18a3ff",
    "mountain": "#7f7e7f",
    "castle": "#ffffff",
    "location": "#fead04",
}
LEGAL_RING = "#a50000"  # where the player may build or move now
LAST_MOVE = "#ff21c0"  # the last move and the computer's replies: rings, arrows, tiles taken
SCORING_RING = "#000000"
# The suggested move (Hint): a dashed black outline over a white one, a pattern nothing else on the board has. Gold,
# the usual colour for it, is too close to the location and desert fills for colour-vision-safe contrast.
HINT_LINE = "#000000"
HINT_UNDER_LINE = "#ffffff"
ASKED_RING = "#4b0082"  # indigo: hexes the odds explorer was asked to show (at least 19 apart from every other mark)
DARK_TERRAIN = ("forest", "canyon", "mountain")  # labels on these are written in white
# Players: distinct shapes and lightness, not only hue.
PLAYER_FILL = ("#ff7f0e", "#1f4e9e", "#ffffff", "#111111")
PLAYER_TEXT = ("#000000", "#ffffff", "#000000", "#ffffff")
PLAYER_SYMBOL = ("circle", "square", "diamond", "triangle-up")
PALETTES: dict[str, list[str]] = {
    "players": list(PLAYER_FILL),
    "terrain and marks": [*TERRAIN_FILL.values(), LEGAL_RING, LAST_MOVE, SCORING_RING, ASKED_RING],
}
SHAPES = {"circle": "●", "square": "■", "diamond": "◆", "triangle-up": "▲"}
STATUS_WORD = {"used": "used this turn", "pending": "usable from next turn"}
# What each Kingdom Builder card pays, in one line (KB-C16.x say it in full).
CARD_GOAL = {
    "fishermen": "1 gold per settlement next to water",
    "merchants": "4 gold per location or castle linked to another by your settlements",
    "discoverers": "1 gold per row holding one of your settlements",
    "hermits": "1 gold per separate group of your settlements",
    "citizens": "1 gold per 2 settlements of your largest group",
    "miners": "1 gold per settlement next to a mountain",
    "workers": "1 gold per settlement next to a location or castle",
    "knights": "2 gold per settlement on your fullest row",
    "lords": "12 gold for the most, 6 for the second most settlements in each quarter",
    "farmers": "3 gold per settlement in your emptiest quarter",
    "castles": "3 gold per castle next to one of your settlements",
}
# The board and its controls fit 880 x 680 px: the app puts a 360 px panel beside them in a 1280 x 800 window.
FIGURE_WIDTH = 540
X_RANGE = (-2.3, 35.2)  # room at the left for the row numbers
Y_RANGE = (-29.8, 2.5)  # room at the top for the column numbers
FIGURE_HEIGHT = round((FIGURE_WIDTH - 4) * (Y_RANGE[1] - Y_RANGE[0]) / (X_RANGE[1] - X_RANGE[0])) + 4
COLUMN_WIDTH = 320
# Trace numbers in the figure.
HEXES, HALO, LEGAL, SCORING, SETTLEMENTS, SPECIALS, EDGES, PATHS, GHOSTS, PLACED, TILE_MARKS = range(11)
ASKED, HINT_UNDER, HINT = range(11, 14)
# Traces whose points report clicks (the others are drawn with hoverinfo "skip", so a click on them reaches the hex
# beneath): a click on a last-move ring or a faded piece is a click on its hex.
CLICKABLE = (HEXES, LEGAL, SCORING, SETTLEMENTS, GHOSTS, PLACED)


def hex_centre(row: int, column: int) -> tuple[float, float]:
    """Centre of a pointy-top hex with side 1 (odd rows half a hex to the right), y pointing up."""
    return math.sqrt(3) * (column + 0.5 * (row & 1)), -1.5 * row


def hex_at(x: float, y: float) -> tuple[int, int] | None:
    """The hex whose centre is at (x, y) (a point of the drawing), or None when no centre is there."""
    row = round(-y / 1.5)
    if not 0 <= row < 20:
        return None
    column = round(x / math.sqrt(3) - 0.5 * (row & 1))
    if not 0 <= column < 20:
        return None
    cx, cy = hex_centre(row, column)
    return (row, column) if math.hypot(cx - x, cy - y) < 0.5 else None


def hex_words(geometry: Any, index: int) -> str:
    """A hex as a player names it: coordinates, what is on it, and the section and quarter of the board."""
    terrain, location = geometry.terrain[index], geometry.location[index]
    if location:
        what = f"{location} location: its tile {TILE_ACTION[location]}"
    else:
        what = rules.terrain_word(terrain)
    where = f"{geometry.section_of[index]} section, {SLOT_NAMES[geometry.sector[index]]} quarter"
    return f"{rules.label(divmod(index, 20))} {what}<br>{where}"


def _points(name: str, **marker: Any) -> dict[str, Any]:
    return {"x": [], "y": [], "mode": "markers", "name": name, "hoverinfo": "skip", "marker": marker}


def board_figure(state: State, width: int = FIGURE_WIDTH, height: int = FIGURE_HEIGHT) -> ui.BoardFigure:
    """The board as a FigureWidget (see :func:`_figure`)."""
    # Built as a Figure and wrapped at the end: traces added to a live FigureWidget before its view exists are
    # lost in Voila, while a widget created with its traces renders everywhere.
    return ui.BoardFigure(_figure(state, width, height))


def position_figure(
    state: State, moves: Any = None, *, tile: str | None = None, origin: Any = None, width: int = FIGURE_WIDTH
) -> go.Figure:
    """A worked example: the position drawn as on the live board, with the targets of ``moves`` ringed as legal
    hexes and, for moves of a settlement, the settlements that move drawn faded. Without ``moves``: the legal moves
    of the player to move, only those with ``tile`` (and from ``origin``) when given."""
    figure = _figure(state, width, FIGURE_HEIGHT)
    if moves is None:
        moves = [
            m
            for m in rules.legal_moves(state)
            if (tile is None or (isinstance(m, UseTile) and m.tile == tile))
            and (origin is None or (isinstance(m, UseTile) and m.origin == origin))
        ]
    moves = list(moves)
    targets = list(dict.fromkeys(m.hex if isinstance(m, Build) else m.target for m in moves))
    origins = list(dict.fromkeys(m.origin for m in moves if isinstance(m, UseTile) and m.origin is not None))
    figure.data[HALO].update(_at(targets))
    figure.data[LEGAL].update(_at(targets))
    figure.data[SETTLEMENTS].update(_settlements(state))
    owners = [state.board[r * 20 + c] for r, c in origins]
    figure.data[GHOSTS].update(
        _at(origins),
        marker={"color": [PLAYER_FILL[o] for o in owners], "symbol": [PLAYER_SYMBOL[o] for o in owners]},
        hovertext=[f"{rules.label(h)}: the settlement that moves" for h in origins],
    )
    return figure


def _settlements(state: State) -> dict[str, Any]:
    """The settlements trace's data: one marker per settlement, its owner's shape, fill and seat number."""
    occupied = [i for i, owner in enumerate(state.board) if owner >= 0]
    owners = [state.board[i] for i in occupied]
    return {
        **_at([divmod(i, 20) for i in occupied]),
        "text": [str(o + 1) for o in owners],  # seat numbers from 1, as in the score table
        "marker": {"color": [PLAYER_FILL[o] for o in owners], "symbol": [PLAYER_SYMBOL[o] for o in owners]},
        "textfont": {"color": [PLAYER_TEXT[o] for o in owners]},
        "hovertext": [f"{rules.label(divmod(i, 20))} {COLOURS[o]} settlement" for i, o in zip(occupied, owners)],
    }


def _figure(state: State, width: int, height: int) -> go.Figure:
    """The board as a Figure: terrain hexes, labels, coordinates on the edges, highlights, settlements and
    the marks of the last move. Every clickable point carries its hex index (row*20+column) as customdata.

    Marker sizes follow the width, so the hexes tile the board at any size."""
    geometry = state.geometry
    centres = [hex_centre(*divmod(i, 20)) for i in range(400)]
    xs = [x for x, _ in centres]
    ys = [y for _, y in centres]
    unit = (width - 4) / (X_RANGE[1] - X_RANGE[0])  # pixels per hex side
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
            # the board neither zooms nor pans: only the picture button stays on the mode bar
            modebar={"remove": ["zoom", "pan", "select", "lasso", "zoomin", "zoomout", "autoscale", "resetscale"]},
            xaxis={"visible": False, "range": list(X_RANGE), "fixedrange": True},
            yaxis={"visible": False, "range": list(Y_RANGE), "fixedrange": True, "scaleanchor": "x"},
        )
    )
    figure.add_scatter(
        x=xs,
        y=ys,
        customdata=list(range(400)),
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
    # A white halo under each legal ring keeps it visible on every terrain, the dark canyon and forest included.
    ring = round(1.67 * unit)
    halo = {"width": 6, "color": "#ffffff"}
    figure.add_scatter(**_points("legal halo", symbol="hexagon-open", size=ring, color="#ffffff", line=halo))
    legal = {"width": 3, "color": LEGAL_RING}
    figure.add_scatter(**_points("legal", symbol="hexagon-open", size=ring, color=LEGAL_RING, line=legal))
    figure.add_scatter(
        **_points("scoring", symbol="circle-open", size=round(1.45 * unit), color=SCORING_RING, line={"width": 3})
    )
    figure.add_scatter(
        x=[],
        y=[],
        mode="markers+text",
        name="settlements",
        hoverinfo="text",
        marker={"size": round(1.2 * unit), "line": {"width": 1.5, "color": "#000000"}},
        textfont={"size": 10},
    )
    specials = sorted(geometry.specials)
    figure.add_scatter(
        x=[xs[i] for i in specials],
        y=[ys[i] for i in specials],
        mode="text",
        name="specials",
        hoverinfo="skip",
        text=["♜" if geometry.terrain[i] == "castle" else geometry.location[i][:2].title() for i in specials],
        textfont={"size": 11, "color": "#000000", "family": "Arial Black, Arial, sans-serif"},
    )
    # Row numbers down the left edge and column numbers along the top, as the texts write hexes: (row,column).
    edge_x = [-1.75] * 20 + [math.sqrt(3) * c for c in range(20)]
    edge_y = [-1.5 * r for r in range(20)] + [1.85] * 20
    figure.add_scatter(
        x=edge_x,
        y=edge_y,
        mode="text",
        name="coordinates",
        hoverinfo="skip",
        text=[str(n) for n in range(20)] * 2,
        textfont={"size": 10, "color": "#333333"},
    )
    figure.add_scatter(
        x=[],
        y=[],
        mode="lines+markers",
        name="last move paths",
        hoverinfo="skip",
        line={"width": 3, "color": LAST_MOVE},
        marker={"symbol": "arrow", "angleref": "previous", "size": 0, "color": LAST_MOVE},
    )
    figure.add_scatter(
        **_points("last move origins", size=round(1.2 * unit), opacity=0.4, line={"width": 1.5, "color": "#000000"})
    )
    figure.update_traces(hoverinfo="text", selector={"name": "last move origins"})
    figure.add_scatter(
        **_points("last move", symbol="circle-open", size=round(1.6 * unit), color=LAST_MOVE, line={"width": 3})
    )
    figure.update_traces(hoverinfo="text", selector={"name": "last move"})
    figure.add_scatter(**_points("tiles taken or lost", size=round(0.9 * unit), line={"width": 1.5}))
    # no hover text: the star or cross sits over a corner of the next hex, and a click there must reach that hex
    asked = {"width": 3, "color": ASKED_RING}
    figure.add_scatter(
        **_points("asked", symbol="hexagon2-open", size=round(1.25 * unit), color=ASKED_RING, line=asked)
    )
    for name, line in (
        ("hint outline", {"width": 6, "color": HINT_UNDER_LINE}),
        ("hint", {"width": 3, "color": HINT_LINE, "dash": "dash"}),
    ):
        figure.add_scatter(x=[], y=[], mode="lines", name=name, hoverinfo="skip", line=line)
    return figure


def hint_outline(move: Any) -> tuple[list[float | None], list[float | None]]:
    """The lines of the suggested-move mark: a hexagon around the target and, for a moved settlement, a line from
    where it stands (empty for a move that is not on the board, like End turn)."""
    if isinstance(move, Build):
        target, origin = move.hex, None
    elif isinstance(move, UseTile):
        target, origin = move.target, move.origin
    else:
        return [], []
    x, y = hex_centre(*target)
    corners = [
        (x + 0.95 * math.cos(math.radians(30 + 60 * k)), y + 0.95 * math.sin(math.radians(30 + 60 * k)))
        for k in range(7)
    ]
    xs: list[float | None] = [cx for cx, _ in corners]
    ys: list[float | None] = [cy for _, cy in corners]
    if origin is not None:
        ox, oy = hex_centre(*origin)
        length = math.hypot(x - ox, y - oy) or 1.0
        # from the moved settlement to the outline's edge
        xs += [None, ox, x - 0.9 * (x - ox) / length]
        ys += [None, oy, y - 0.9 * (y - oy) / length]
    return xs, ys


def _at(hexes: Any) -> dict[str, list]:
    """x, y and customdata (the hex index) of points on the given hexes."""
    centres = [hex_centre(*h) for h in hexes]
    return {
        "x": [x for x, _ in centres],
        "y": [y for _, y in centres],
        "customdata": [h[0] * 20 + h[1] for h in hexes],
    }


def _chip(terrain: str) -> str:
    text = "#fff" if terrain in DARK_TERRAIN else "#000"
    word = rules.terrain_word(terrain)
    style = f"background:{TERRAIN_FILL[terrain]};color:{text};padding:0 4px;border:1px solid #444"
    return f"<span style='{style}'>{word}</span>"


def goals_html(state: State) -> str:
    """The goals of the game's three Kingdom Builder cards and of the castles, one line each."""
    lines = "".join(f"<li><b>{card.title()}</b>: {CARD_GOAL[card]}</li>" for card in (*state.cards, "castles"))
    return (
        "<div style='font-size:12px;line-height:1.3'><b>Goals</b> (gold at the end)"
        f"<ul style='margin:0;padding-left:1.2em'>{lines}</ul></div>"
    )


def legend_html(state: State) -> str:
    """A key to the terrain colours, the location labels and the marks on the board."""
    chips = " ".join(_chip(t) for t in TERRAIN_FILL if t not in ("castle", "location"))
    geometry = state.geometry
    locations = sorted({geometry.location[i] for i in geometry.locations})
    places = ", ".join(f"<b>{name[:2].title()}</b> {name}" for name in locations)
    return (
        f"<div style='font-size:11px;line-height:1.6'>{chips}<br><b>♜</b> castle; "
        f"<span style='background:{TERRAIN_FILL['location']};padding:0 3px'>locations</span>: {places}<br>"
        f"<span style='color:{LEGAL_RING}'><b>red hexagons</b></span>: where you may build or move now; "
        f"<span style='color:{LAST_MOVE}'><b>pink circles</b></span>: the last moves (a faded piece: where one came "
        "from; ★ a tile taken, ✕ a tile lost); <b>black circles</b>: what a card scores; "
        "<b>dashed black-and-white hexagon</b>: the Hint's suggested move; "
        f"<span style='color:{ASKED_RING}'><b>indigo hexagons</b></span>: hexes shown by the Odds explorer</div>"
    )


class Board(Table):
    """A Kingdom Builder game on a live board; ``computer`` maps seats to computer players (``bots.BOTS`` names).

    The figure sits at the left and a column of controls at its right (880 x 680 px in all, so that the app's side
    panel fits beside it); the move log waits in a closed accordion below."""

    def __init__(self, state: State, *, seed: int = 0, computer: Any = (), **kwargs: Any) -> None:
        super().__init__(state, seed=seed, computer=computer, **kwargs)
        self.origin: tuple[int, int] | None = None
        self.asked: tuple[tuple[int, int], ...] = ()  # hexes the odds explorer rings (indigo) until told otherwise
        self.syncing = False  # True while redraw refills the menus, so their observers stay quiet
        self.figure = board_figure(state)
        for number in CLICKABLE:
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
        self.goals = widgets.HTML(goals_html(state))
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
                self.goals,
                self.tiles,
                widgets.HBox([self.scoring_card, self.scoring_player]),
            ],
            layout=widgets.Layout(width=f"{COLUMN_WIDTH}px"),
        )
        board = widgets.VBox(
            [self.figure, widgets.HTML(legend_html(state))], layout=widgets.Layout(width=f"{FIGURE_WIDTH + 8}px")
        )
        self.move_log.layout.max_height = "12em"
        log = widgets.VBox([self.history_bar, self.move_log])  # the shared previous/next bar over the history
        log_box = widgets.Accordion(children=[log], titles=("Move log",), selected_index=None)
        self.children = [self.status, widgets.HBox([board, controls]), log_box]
        self.layout.max_width = "880px"
        self.start()

    # -- input ------------------------------------------------------------------------------------
    def _clicked(self, number: int, points: Any) -> None:
        """A click on a point of trace ``number``: its hex is named by the point's coordinates, which the browser
        sends from the drawing it shows, and by the hex index the point carries (customdata). A click from an
        older drawing, whose point is gone or now stands for another hex, is ignored with a message."""
        indices = list(getattr(points, "point_inds", None) or ())
        if not indices:
            return
        index = indices[0]
        data = self.figure.data[number].customdata
        carried = int(data[index]) if data is not None and isinstance(index, int) and 0 <= index < len(data) else None
        xs, ys = list(getattr(points, "xs", None) or ()), list(getattr(points, "ys", None) or ())
        clicked = hex_at(xs[0], ys[0]) if xs and ys else None
        if carried is None or (xs and clicked != divmod(carried, 20)):
            self.message = "That click came from an older drawing of the board, so nothing was played: click again."
            self.message_kind = "info"
            self.redraw()
            return
        self.select(divmod(carried, 20))

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

    # -- output -----------------------------------------------------------------------------------
    def describe_player(self, player: int | None) -> str:
        return "Chance" if player is None else COLOURS[player].capitalize()

    def prompt(self) -> str:
        """Whose turn it is and what to do now; when only the End turn button is left, it says so."""
        state = self.state
        if self.finished:
            return f"Game over: {self.result_text()}"
        if state.player is None:
            return "A terrain card is being drawn."
        who = colour(state.player)
        if state.player in self.bots:
            return f"{who} (computer) is playing."
        card = rules.terrain_word(state.hands[state.player] or "")
        moves = rules.legal_moves(state)
        if moves == (EndTurn(),):
            return f"{who} to play: nothing is left to build or use this turn; press End turn."
        if not state.mandatory_done and state.built > 0:
            more = 3 - state.built
            return f"{who} to play: build {more} more on {card}, next to your own settlements where possible."
        if not state.mandatory_done and any(isinstance(m, Build) for m in moves):
            if any(isinstance(m, UseTile) for m in moves):
                return (
                    f"{who} to play: build 3 settlements on {card}; use your location tiles before or after, "
                    "not in between."
                )
            return f"{who} to play: build 3 settlements on {card}, next to your own settlements where possible."
        return f"{who} to play: use a location tile (choose it under Action), or press End turn."

    def move_text(self, move: Any) -> str:
        return move_words(move)

    def _moves(self) -> tuple:
        """The moves offered on the board: none while replaying or at a computer's turn."""
        if self.replaying or self.state.player in self.bots:
            return ()
        return rules.legal_moves(self.state)

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
            actions.append((f"Build on {rules.terrain_word(state.hands[state.player] or '')} (mandatory)", "build"))
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
                (f"{rules.label(t)} {rules.terrain_word(geometry.terrain[t[0] * 20 + t[1]])}", t) for t in targets
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
        scoring: tuple = ()
        if self.scoring_card.value is not None:
            scoring = rules.scoring_hexes(state, self.scoring_card.value, self.scoring_player.value or 0)
        # One update per trace: a batch spanning several traces with different keys resets, in the browser, the
        # keys a trace lacks (plotly's FigureWidget), which drew the red rings in the default colour.
        self.figure.data[HALO].update(_at(marked))
        self.figure.data[LEGAL].update(_at(marked))
        self.figure.data[SCORING].update(_at(scoring))
        self.figure.data[SETTLEMENTS].update(_settlements(state))
        self._draw_last_moves()
        self.figure.data[ASKED].update(_at(self.asked))
        # the suggested move belongs to the game as it stands: not drawn while an earlier position is replayed
        xs, ys = hint_outline(self.hinted if self.view is None else None)
        for number in (HINT_UNDER, HINT):
            self.figure.data[number].update(x=xs, y=ys)
        playing = state.player is not None and state.player not in self.bots
        self.play_button.disabled = not playing or not moves or self.action_menu.value is None
        self.end_button.disabled = EndTurn() not in moves
        self.card.value = self._card_html()
        self.tiles.value = self._tiles_html()
        self.scores.value = self._scores_html()
        self.move_log.value = self.history_html()

    def _draw_last_moves(self) -> None:
        """Mark the moves of :meth:`steps` on the board: a pink circle on each settlement placed, a faded piece and
        an arrow for one moved, a star on each location whose tile was taken, a cross on each one whose tile was
        lost. The marks stay until the next move."""
        state = self.state
        placed: dict[tuple[int, int], str] = {}
        ghosts: dict[tuple[int, int], tuple[int, str]] = {}
        paths: list[tuple[tuple[int, int], tuple[int, int]]] = []
        tiles: dict[tuple[int, int], str] = {}  # location hex -> the symbol drawn beside it
        for step in self.steps_shown():
            _index, _player, move, before, after = step
            found = marks(before, move, after)
            if found.player is None:
                continue
            told = f"{colour(found.player)}: {self.step_text(step)}"
            for hex_ in found.placed:
                placed[hex_] = told
            for hex_ in found.left:
                ghosts[hex_] = (found.player, told)
            if isinstance(move, UseTile) and move.origin is not None:
                paths.append((move.origin, move.target))
            for hex_ in found.gained:
                tiles[hex_] = "star"
            for hex_ in found.lost:
                tiles[hex_] = "x-thin-open"
        # A settlement built and then moved on in the same series is ringed only where it stands now.
        rings = [h for h in placed if state.board[h[0] * 20 + h[1]] >= 0]
        faded = [h for h in ghosts if state.board[h[0] * 20 + h[1]] < 0]
        self.figure.data[PLACED].update(_at(rings), hovertext=[placed[h] for h in rings])
        self.figure.data[GHOSTS].update(
            _at(faded),
            marker={
                "color": [PLAYER_FILL[ghosts[h][0]] for h in faded],
                "symbol": [PLAYER_SYMBOL[ghosts[h][0]] for h in faded],
            },
            hovertext=[f"moved away from here; {ghosts[h][1]}" for h in faded],
        )
        xs: list[float | None] = []
        ys: list[float | None] = []
        sizes: list[int] = []
        for origin, target in paths:
            (x0, y0), (x1, y1) = hex_centre(*origin), hex_centre(*target)
            # the arrow head stops short of the target's centre, so the ring and the piece stay visible
            xs += [x0, x0 + 0.75 * (x1 - x0), None]
            ys += [y0, y0 + 0.75 * (y1 - y0), None]
            sizes += [0, 14, 0]
        self.figure.data[PATHS].update(x=xs, y=ys, marker={"size": sizes})
        kinds = list(tiles)
        corner = _at(kinds)  # the mark sits at the hex's upper right, beside the location's label
        corner["x"] = [x + 0.6 for x in corner["x"]]
        corner["y"] = [y + 0.5 for y in corner["y"]]
        self.figure.data[TILE_MARKS].update(
            corner,
            marker={
                "symbol": [tiles[h] for h in kinds],
                "color": [LAST_MOVE if tiles[h] == "star" else "#000000" for h in kinds],
                "line": {"color": "#000000"},
            },
        )

    def _card_html(self) -> str:
        state = self.state
        if self.finished or state.player is None:
            return "<div style='font-size:13px'>&nbsp;</div>"
        card = state.hands[state.player]
        shown = f"<b>{_chip(card)}</b>" if card else "<i>none</i>"
        return f"<div style='font-size:13px'>{COLOURS[state.player].capitalize()}'s terrain card: {shown}</div>"

    def _tiles_html(self) -> str:
        state = self.state
        rows = []
        for p in range(state.players):
            tiles = (
                ", ".join(
                    f"{kind.title()} of {rules.label(hex_)}"
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


class Explorer(widgets.VBox):
    """Card odds beside the board (issue 13.3): for a player, the chance of each terrain as the next card drawn, as
    their card in k turns and at least once within k turns, from the live pile and discards (exact, :mod:`.odds`);
    the hexes a card of each terrain allows now, ringed on the board on request; and a chart of the chances by k.

    It follows the board: it redraws after every move and every replay step, from ``board.state``."""

    def __init__(self, board: Board, *, width: int = 340, chart_height: int = 300) -> None:
        self.board = board
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
            value=None,
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
        self.width, self.chart_height = width, chart_height
        drawing = charts.draw_odds_figure(state, self.player.value, 3, width=width, height=chart_height)
        self.chart = ui.ChartFigure(drawing)
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
        settle_figure(self.chart)

    # -- what it shows ------------------------------------------------------------------------------------
    def terrain_asked(self) -> str | None:
        """The terrain whose hexes are counted: the one chosen, or the card of the player to move now."""
        if self.ring_terrain.value is not None:
            return self.ring_terrain.value
        state = self.board.state
        return state.hands[state.player] if state.player is not None else None

    def hexes(self) -> tuple[tuple[int, int], ...]:
        """The hexes where the player to move (or the player the odds are for) could build with that terrain now."""
        state, terrain = self.board.state, self.terrain_asked()
        if terrain is None or state.finished:
            return ()
        who = state.player if state.player is not None else self.player.value
        return odds.legal_hexes(state, who, terrain)

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
        self.result.value = self._result_html(state, player, k)
        terrain, hexes = self.terrain_asked(), self.hexes()
        who = state.player if state.player is not None else player
        if terrain is None:
            self.hexes_text.value = "<div style='font-size:12px'>No terrain card is being played now.</div>"
        else:
            count = len(hexes)
            self.hexes_text.value = (
                f"<div style='font-size:12px'>{COLOURS[who].capitalize()} could start building on "
                f"<b>{count} hex{'es' if count != 1 else ''}</b> with a {rules.terrain_word(terrain)} card now "
                "(next to their own settlements where possible).</div>"
            )
        shown = hexes if self.ring.value else ()
        if tuple(self.board.asked) != tuple(shown):
            self.board.asked = tuple(shown)
            self.board.figure.data[ASKED].update(_at(self.board.asked))
        figure = charts.draw_odds_figure(state, player, max(k, 2), width=self.width, height=self.chart_height, chosen=k)
        with self.chart.batch_update():
            self.chart.data = ()
            self.chart.add_traces(list(figure.data))
            self.chart.layout.shapes = ()
            self.chart.update_layout(figure.layout)
        settle_figure(self.chart)

    def _result_html(self, state: State, player: int, k: int) -> str:
        if state.finished:
            return "<div style='font-size:12px'>The game is over: no more cards are drawn.</div>"
        next_card = odds.next_card_odds(state)
        kth = odds.own_card_odds(state, player, k)[-1]
        within = {t: odds.terrain_within(state, player, t, k) for t in rules.TERRAINS}
        counts = odds.legal_hexes_by_terrain(state, player)
        cell = "padding:1px 3px;border:none;text-align:right;line-height:1.3"
        turns = f"{k} turn{'s' if k > 1 else ''}"
        head = "".join(
            f"<th style='{cell}'>{text}</th>"
            for text in ("", "next card drawn", f"card in {turns}", f"at least once in {turns}", "hexes now")
        )
        rows = "".join(
            f"<tr><td style='{cell};text-align:left'>{rules.terrain_word(t)}</td>"
            f"<td style='{cell}'>{charts.chance_words(next_card[t])}</td>"
            f"<td style='{cell}'>{charts.chance_words(kth[t])}</td>"
            f"<td style='{cell}'>{charts.chance_words(within[t])}</td>"
            f"<td style='{cell}'>{counts[t]}</td></tr>"
            for t in rules.TERRAINS
        )
        in_hands = sum(card is not None for card in state.hands)
        deck = (
            f"{sum(state.pile)} cards in the pile, {sum(state.discard)} discarded, {in_hands} in hands, "
            f"{sum(state.removed)} out of the game"
        )
        who = COLOURS[player].capitalize()
        return (
            f"<div style='font-size:11px'><table style='border-collapse:collapse;margin:0'><tr>{head}</tr>{rows}"
            f'</table><div style=\'color:#444;margin-top:2px\'>{deck}. "Card in {turns}" and "at least once" are '
            f"{who}'s own cards, one a turn; discards are reshuffled when the pile runs out (KB-C4). The odds count "
            f'every card on the table, other players\' hidden cards included, as a referee would. "Hexes now": '
            f"where {who} could start building with that card in this position.</div></div>"
        )
