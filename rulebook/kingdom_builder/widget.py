"""The live Kingdom Builder board: terrain hexes, settlements, legal hexes highlighted, tiles and running scores.

The widget only renders the state and sends moves through ``check``/``apply`` (via :class:`rulebook.view.table.Table`);
everything can be done with the dropdowns and buttons as well as by clicking hexes. The board is drawn on a
:class:`rulebook.view.figures.BoardView`: its traces are found by name and each clickable point carries its hex index
(``row * 20 + column``) as id. The side panels are rendered from ``templates/`` with looks from ``style.css``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets as widgets
import plotly.graph_objects as go

from ..play.session import Bot
from ..progress import events as progress
from ..view.figures import BoardView, trace
from ..view.markup import Markup, render
from ..view.table import Table
from . import rules
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
DARK_TERRAIN = ("forest",)  # labels on these are white (on canyon and mountain black reads at 5:1, white at 4:1)
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
STATUS_SHORT = {"used": "used", "pending": "next turn"}  # in the players panel, the words above in its hover text
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
# The figure's traces, by name, in drawing order (each name once: views.trace finds a trace by it).
HEXES, HALO, LEGAL, SCORING, SETTLEMENTS = "hexes", "legal halo", "legal", "scoring", "settlements"
SPECIALS, EDGES, PATHS, GHOSTS, PLACED = "specials", "coordinates", "last move paths", "last move origins", "last move"
TILE_MARKS, ASKED, HINT_UNDER, HINT = "tiles taken or lost", "asked", "hint outline", "hint"
# Traces whose points answer clicks, each point's id its hex index. In the page only those with hover text answer
# (the others are drawn with hoverinfo "skip", so a click on them reaches the hex beneath): a click on a legal or
# last-move ring or a faded piece is a click on its hex.
CLICKABLE = (HEXES, LEGAL, SCORING, SETTLEMENTS, GHOSTS, PLACED)
STALE = "That click came from an older drawing of the board, so nothing was played: click again."
STATUS_HEIGHT = "80px"  # four lines of the status line's 14 px text: a longer message scrolls, the board stays put


def hex_centre(row: int, column: int) -> tuple[float, float]:
    """Centre of a pointy-top hex with side 1 (odd rows half a hex to the right), y pointing up; rounded to a
    thousandth of a side (a hundredth of a pixel), which keeps the figure's JSON short."""
    return round(math.sqrt(3) * (column + 0.5 * (row & 1)), 3), -1.5 * row


def hex_words(geometry: Any, index: int) -> str:
    """A hex as a player names it: coordinates, what is on it, and the section and quarter of the board."""
    terrain, location = geometry.terrain[index], geometry.location[index]
    if location:
        what = f"{location} location: its tile {TILE_ACTION[location]}"
    else:
        what = rules.terrain_word(terrain)
    where = f"{geometry.section_of[index]} section, {SLOT_NAMES[geometry.sector[index]]} quarter"
    return f"{rules.label(divmod(index, 20))} {what}<br>{where}"


# -- the board's figure, one function per layer ---------------------------------------------------------------------


def _points(name: str, **marker: Any) -> dict[str, Any]:
    return {"x": [], "y": [], "mode": "markers", "name": name, "hoverinfo": "skip", "marker": marker}


def _board_layout(width: int, height: int) -> go.Layout:
    """Axes hidden and fixed, no legend, no theme: board.js draws the board, and plotly's template would add 7 KB
    to every redraw for nothing it reads."""
    return go.Layout(
        width=width,
        height=height,
        template={},
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


def _terrain_layer(figure: go.Figure, geometry: Any, unit: float) -> None:
    """The 400 hexes in their terrain colours, each with its words as hover text (the only per-hex text)."""
    centres = [hex_centre(*divmod(i, 20)) for i in range(400)]
    figure.add_scatter(
        x=[x for x, _ in centres],
        y=[y for _, y in centres],
        customdata=list(range(400)),
        mode="markers",
        name=HEXES,
        hovertext=[hex_words(geometry, i) for i in range(400)],
        hoverinfo="text",
        marker={
            "symbol": "hexagon",
            "size": round(1.92 * unit),
            "color": [TERRAIN_FILL[t] for t in geometry.terrain],
            "line": {"width": 0.6, "color": "#444444"},
        },
    )


def _ring_layers(figure: go.Figure, unit: float) -> None:
    """The legal hexes (red rings over white halos, visible on every terrain, the dark canyon and forest included)
    and the hexes a card scores (black circles)."""
    ring = round(1.67 * unit)
    halo = {"width": 6, "color": "#ffffff"}
    figure.add_scatter(**_points(HALO, symbol="hexagon-open", size=ring, color="#ffffff", line=halo))
    legal = {"width": 3, "color": LEGAL_RING}
    figure.add_scatter(**_points(LEGAL, symbol="hexagon-open", size=ring, color=LEGAL_RING, line=legal))
    figure.add_scatter(
        **_points(SCORING, symbol="circle-open", size=round(1.45 * unit), color=SCORING_RING, line={"width": 3})
    )


def _settlement_layer(figure: go.Figure, unit: float) -> None:
    figure.add_scatter(
        x=[],
        y=[],
        mode="markers+text",
        name=SETTLEMENTS,
        hoverinfo="text",
        marker={"size": round(1.2 * unit), "line": {"width": 1.5, "color": "#000000"}},
        textfont={"size": 11},
    )


def _label_layers(figure: go.Figure, geometry: Any) -> None:
    """The castles' and locations' labels, and the row numbers down the left edge and the column numbers along the
    top, as the texts write hexes: (row,column)."""
    specials = sorted(geometry.specials)
    centres = [hex_centre(*divmod(i, 20)) for i in specials]
    figure.add_scatter(
        x=[x for x, _ in centres],
        y=[y for _, y in centres],
        mode="text",
        name=SPECIALS,
        hoverinfo="skip",
        text=["♜" if geometry.terrain[i] == "castle" else geometry.location[i][:2].title() for i in specials],
        textfont={"size": 11, "color": "#000000", "family": "Arial Black, Arial, sans-serif"},
    )
    figure.add_scatter(
        x=[-1.75] * 20 + [hex_centre(0, c)[0] for c in range(20)],
        y=[-1.5 * r for r in range(20)] + [1.85] * 20,
        mode="text",
        name=EDGES,
        hoverinfo="skip",
        text=[str(n) for n in range(20)] * 2,
        textfont={"size": 11, "color": "#333333"},
    )


def _last_move_layers(figure: go.Figure, unit: float) -> None:
    """The marks of the last moves: arrows of moved settlements, the faded pieces where they stood, pink rings on
    the settlements placed, and stars or crosses on the tiles taken or lost."""
    figure.add_scatter(
        x=[],
        y=[],
        mode="lines+markers",
        name=PATHS,
        hoverinfo="skip",
        line={"width": 3, "color": LAST_MOVE},
        marker={"symbol": "arrow", "angleref": "previous", "size": 0, "color": LAST_MOVE},
    )
    origins = _points(GHOSTS, size=round(1.2 * unit), opacity=0.4, line={"width": 1.5, "color": "#000000"})
    figure.add_scatter(**{**origins, "hoverinfo": "text"})
    placed = _points(PLACED, symbol="circle-open", size=round(1.6 * unit), color=LAST_MOVE, line={"width": 3})
    figure.add_scatter(**{**placed, "hoverinfo": "text"})
    # no hover text: the star or cross sits over a corner of the next hex, and a click there must reach that hex
    figure.add_scatter(**_points(TILE_MARKS, size=round(0.9 * unit), line={"width": 1.5}))


def _overlay_layers(figure: go.Figure, unit: float) -> None:
    """The hexes the odds explorer was asked to show (indigo), and the Hint's dashed outline."""
    asked = {"width": 3, "color": ASKED_RING}
    figure.add_scatter(**_points(ASKED, symbol="hexagon2-open", size=round(1.25 * unit), color=ASKED_RING, line=asked))
    for name, line in (
        (HINT_UNDER, {"width": 6, "color": HINT_UNDER_LINE}),
        (HINT, {"width": 3, "color": HINT_LINE, "dash": "dash"}),
    ):
        figure.add_scatter(x=[], y=[], mode="lines", name=name, hoverinfo="skip", line=line)


def board_figure(state: State, width: int = FIGURE_WIDTH, height: int = FIGURE_HEIGHT) -> go.Figure:
    """The board as the live board draws it: terrain hexes, labels, coordinates on the edges, and the (empty)
    layers of highlights, settlements and marks that :class:`Board` fills. Every clickable point carries its hex
    index (row*20+column) as customdata.

    Marker sizes follow the width, so the hexes tile the board at any size."""
    geometry = state.geometry
    unit = (width - 4) / (X_RANGE[1] - X_RANGE[0])  # pixels per hex side
    figure = go.Figure(layout=_board_layout(width, height))
    _terrain_layer(figure, geometry, unit)
    _ring_layers(figure, unit)
    _settlement_layer(figure, unit)
    _label_layers(figure, geometry)
    _last_move_layers(figure, unit)
    _overlay_layers(figure, unit)
    return figure


def position_figure(
    state: State, moves: Any = None, *, tile: str | None = None, origin: Any = None, width: int = FIGURE_WIDTH
) -> go.Figure:
    """A worked example: the position drawn as on the live board, with the targets of ``moves`` ringed as legal
    hexes and, for moves of a settlement, the settlements that move drawn faded. Without ``moves``: the legal moves
    of the player to move, only those with ``tile`` (and from ``origin``) when given."""
    figure = board_figure(state, width, FIGURE_HEIGHT)
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
    trace(figure, HALO).update(_at(targets))
    trace(figure, LEGAL).update(_at(targets))
    trace(figure, SETTLEMENTS).update(_settlements(state))
    owners = [state.board[r * 20 + c] for r, c in origins]
    trace(figure, GHOSTS).update(
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
    """x, y and customdata (the hex index, the point's id for a click) of points on the given hexes."""
    centres = [hex_centre(*h) for h in hexes]
    return {
        "x": [x for x, _ in centres],
        "y": [y for _, y in centres],
        "customdata": [h[0] * 20 + h[1] for h in hexes],
    }


# -- the panels beside the board (templates/) ----------------------------------------------------------------------


def _terrains(names: Iterable[str]) -> list[tuple[str, str]]:
    """(terrain, its word) pairs: a chip in the templates is coloured by the class ``rb-kb-terrain-<terrain>``."""
    return [(name, rules.terrain_word(name)) for name in names]


def goals_html(state: State) -> Markup:
    """The goals of the game's three Kingdom Builder cards and of the castles, one line each."""
    goals = [(card.title(), CARD_GOAL[card]) for card in (*state.cards, "castles")]
    return render("goals.html", package=__package__, goals=goals)


def legend_html(state: State) -> Markup:
    """A key to the terrain colours, the location labels and the marks on the board."""
    geometry = state.geometry
    locations = sorted({str(geometry.location[i]) for i in geometry.locations})  # a location hex has its name
    return render(
        "legend.html",
        package=__package__,
        terrains=_terrains(t for t in TERRAIN_FILL if t not in ("castle", "location")),
        places=[(name[:2].title(), name) for name in locations],
    )


def card_html(state: State, finished: bool) -> Markup:
    """The terrain card of the player to move (blank at a chance node and at the end)."""
    if finished or state.player is None:
        return render("card.html", package=__package__, who=None, card=None)
    card = state.hands[state.player]
    return render(
        "card.html",
        package=__package__,
        who=COLOURS[state.player].capitalize(),
        card=_terrains([card])[0] if card else None,
    )


def card_shown(state: State, player: int, people: Iterable[int] = ()) -> bool:
    """Whether ``player``'s terrain card may be shown: the player to move has revealed it (KB-4.1); the others keep
    theirs hidden, except from themselves (``people``: the seats a person plays; with one, the screen is theirs)."""
    people = list(people)
    return player == state.player or (len(people) == 1 and people[0] == player)


def players_html(state: State, computer: Iterable[int] = ()) -> Markup:
    """The players panel, as on Board Game Arena (Meetjesland's look): per player the settlements left and built,
    the castles reached, the gold by the three cards if the game ended now (public: every piece is on the table),
    the terrain card where the rules show it, and the location tiles held, each usable this turn or not; the player
    to move marked."""
    computer = set(computer)
    people = [p for p in range(state.players) if p not in computer]
    gold = rules.score(state)
    castles = rules.castle_scores(state)
    rows = []
    for player in range(state.players):
        card = state.hands[player]
        shown = card is not None and card_shown(state, player, people)
        rows.append(
            {
                "name": COLOURS[player].capitalize(),
                "shape": SHAPES[PLAYER_SYMBOL[player]],
                "computer": player in computer,
                "to_move": not state.finished and player == state.player,
                "left": state.supply[player],
                "built": sum(1 for owner in state.board if owner == player),
                "castles": castles[player] // 3,
                "gold": gold[player]["total"],
                "card": _terrains([card])[0] if shown else None,
                "hidden": card is not None and not shown,
                "tiles": [
                    {
                        "kind": kind.title(),
                        "where": rules.label(hex_),
                        "status": STATUS_WORD.get(status),
                        "short": STATUS_SHORT.get(status),
                    }
                    for kind, hex_, status in state.tiles_of(player)
                ],
            }
        )
    return render("players.html", package=__package__, rows=rows)


def scores_html(state: State) -> Markup:
    """Gold per card and player (players in columns, so four of them still fit the column), and supplies."""
    table = rules.score(state)
    seats = range(state.players)
    heads = [(SHAPES[PLAYER_SYMBOL[p]], p + 1, COLOURS[p].capitalize()) for p in seats]
    lines = [
        *((card.title(), [table[p][card] for p in seats], False) for card in (*state.cards, "castles")),
        ("Total", [table[p]["total"] for p in seats], True),
        ("Settlements left", list(state.supply), False),
    ]
    return render("scores.html", package=__package__, heads=heads, lines=lines)


class EscapeKey(anywidget.AnyWidget):
    """The Escape key of the page, heard while the person is using this board (escape.js): it puts back a location
    tile chosen on the board. Draws nothing; ``handlers`` are called on each press."""

    _esm = Path(__file__).with_name("escape.js")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.handlers: list[Callable[[], None]] = []
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("event") == "escape":
            self.press()

    def press(self) -> None:
        """What a press of Escape on the page does (a test presses it here)."""
        for handler in self.handlers:
            handler()


class Board(Table):
    """A Kingdom Builder game on a live board; ``computer`` maps seats to computer players (``bots.BOTS`` names).

    The figure sits at the left and a column of controls at its right (880 x 680 px in all, so that the app's side
    panel fits beside it); the move log waits in a closed accordion below."""

    def __init__(self, state: State, *, seed: int = 0, computer: Mapping[int, str | Bot] | Iterable[int] = ()) -> None:
        super().__init__(state, seed=seed, computer=computer)
        self.origin: tuple[int, int] | None = None
        self.asked: tuple[tuple[int, int], ...] = ()  # hexes the odds explorer rings (indigo) until told otherwise
        self.syncing = False  # True while redraw refills the menus, so their observers stay quiet
        self.figure = BoardView(board_figure(state))
        for name in CLICKABLE:
            self.figure.on_click(name, self._on_click)
        self.figure.on_stale(self._on_stale)
        self.figure.on_cancel(self.cancel_choice)  # Escape on the board
        self.escape_key = EscapeKey()
        self.escape_key.handlers.append(self.put_back_tile)
        self._build_controls(state)
        self._connect()
        self.children = self._arrange(state)
        self.layout.max_width = "880px"
        self.start()

    def _build_controls(self, state: State) -> None:
        """The menus and buttons that make a move, the panels beside the board, and the scoring rings' choice."""
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
        self.players_panel = widgets.HTML()
        self.players_panel.add_class("rulebook-players")
        self.scores = widgets.HTML()
        # the gold an exercise asks for (the score table, the panel's gold): hidden until it is answered
        self.answer_panels = (self.scores, self.players_panel)
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

    def _connect(self) -> None:
        self.play_button.on_click(lambda _: self._play_chosen())
        self.end_button.on_click(lambda _: self.play(EndTurn()))
        self.action_menu.observe(self._action_changed, names="value")
        self.origin_menu.observe(self._origin_changed, names="value")
        self.target_menu.observe(self._target_changed, names="value")
        self.scoring_card.observe(lambda _: self.redraw(), names="value")
        self.scoring_player.observe(lambda _: self.redraw(), names="value")

    def _arrange(self, state: State) -> list[widgets.Widget]:
        """The status line; the board and its legend beside the column of controls; the move log below."""
        controls = widgets.VBox(
            [
                self.card,
                self.action_menu,
                self.origin_menu,
                self.target_menu,
                widgets.HBox([self.play_button, self.end_button, self.undo_button]),
                self.scores,
                self.goals,
                widgets.HBox([self.scoring_card, self.scoring_player]),
                # last: a line of tiles more (a tile taken) makes it taller, and nothing below it moves
                self.players_panel,
                self.escape_key,
            ],
            layout=widgets.Layout(width=f"{COLUMN_WIDTH}px"),
        ).add_class("rulebook-controls")  # the board's parts by name: style.css reflows them on a narrow page
        legend = widgets.HTML(legend_html(state)).add_class("rulebook-legend")
        board = widgets.VBox([self.figure, legend], layout=widgets.Layout(width=f"{FIGURE_WIDTH + 8}px"))
        board.add_class("rulebook-figure-column")
        self.move_log.layout.max_height = "12em"
        log = widgets.VBox([self.history_bar, self.move_log])  # the shared previous/next bar over the history
        log_box = widgets.Accordion(children=[log], titles=("Move log",), selected_index=None)
        # the status line keeps four lines' height whatever it says, so the board under it never moves
        self.status.layout.height = STATUS_HEIGHT
        self.status.layout.overflow = "auto"
        return [self.status, widgets.HBox([board, controls]).add_class("rulebook-main"), log_box]

    # -- input ------------------------------------------------------------------------------------
    def _on_click(self, point_id: Any) -> None:
        """A click on a hex, a ring or a settlement: the point's id is its hex index (row*20+column), one that the
        trace holds as drawn now (the BoardView checks it)."""
        self.select(divmod(int(point_id), 20))

    def cancel_choice(self) -> None:
        """Escape on the board's keyboard places: let go of the settlement chosen to move (as choosing none under Move
        from), else put back a location tile chosen (as Escape after a click does)."""
        if self.origin is not None:
            self.origin = None
            self.redraw()
        else:
            self.put_back_tile()

    def _on_stale(self, _trace: str, _point: Any, _revision: int) -> None:
        """A click on a ring or a settlement that has gone since the page drew it (a computer move, an Undo)."""
        self.message = STALE
        self.message_kind = "info"
        self.redraw()

    def select(self, hex_: tuple[int, int]) -> None:
        """A click on a hex: choose (or put back) the tile of a location hex, choose the settlement a move tile
        moves, or build / move onto the hex."""
        state, action = self.state, self.action_menu.value
        if self.finished:
            self.play(Build(hex_))  # refused: Table.play says that the game is over
            return
        if state.player is None:
            return
        if state.geometry.location[hex_[0] * 20 + hex_[1]]:  # a location hex: never built on, its tile is clicked
            if self.replaying or state.player in self.bots:
                self.play(Build(hex_))  # refused in the shared words: back to the game, or the computer's turn
            else:
                self.click_tile(hex_)
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

    def click_tile(self, hex_: tuple[int, int]) -> None:
        """A click on a location hex: start the action of the tile the person holds from it (its legal targets
        ringed), or put it back when it is the action chosen; a tile not usable now says why, with its rule."""
        state, index = self.state, hex_[0] * 20 + hex_[1]
        player, kind = state.player, str(state.geometry.location[index])
        name, where = kind.title(), rules.label(hex_)
        if not any(tile.location == index for tile in state.tiles[player]):
            self._tell(
                f"You hold no tile from the {name} location at {where}: build next to it to take one (KB-5.2). "
                f"The {name} {TILE_ACTION[kind]}.",
                "info",
            )
            return
        if self.action_menu.value == kind:
            self.put_back_tile()
            return
        if kind not in [value for _, value in self.action_menu.options]:
            origin = state.settlements(player)[0] if kind in MOVE_TILES and state.settlements(player) else None
            error = rules.check(state, UseTile(kind, hex_, origin))
            if error is not None and error.rule in ("KB-5.2", "KB-7.1"):
                self._tell(f"Refused by {error.rule}: {error.message}", "error")
                progress.refused(self.session.game_name, error.rule)  # the learner's record (issue 49)
            else:
                self._tell(f"Your {name} tile has no legal use now: the {name} {TILE_ACTION[kind]}.", "info")
            return
        self.action_menu.value = kind  # its observer clears the origin and redraws with the tile's targets
        then = "click the settlement it moves, then a ringed hex" if kind in MOVE_TILES else "click a ringed hex"
        self._tell(
            f"{name} tile chosen (it {TILE_ACTION[kind]}): {then}. Click the tile again or press Escape to put "
            "it back.",
            "info",
        )

    def put_back_tile(self) -> None:
        """Cancel a chosen tile (a second click on it, or Escape): back to building, or to no action chosen."""
        action = self.action_menu.value
        if action is None or action == "build" or self.replaying or self.finished:
            return
        names = [value for _, value in self.action_menu.options]
        self.action_menu.value = "build" if "build" in names else None
        self._tell(f"{action.title()} tile put back: nothing chosen is played.", "info")

    def _tell(self, message: str, kind: str) -> None:
        self.message, self.message_kind = message, kind
        self.redraw()

    def _play_chosen(self) -> None:
        if self.target_menu.value is None:
            self.message, self.message_kind = "Choose a hex first: click one, or pick it under Hex.", "error"
            self.redraw()
            return
        self.select(self.target_menu.value)

    def _action_changed(self, _change: Any) -> None:
        if not self.syncing:
            self.origin = None
            self.redraw()

    def _target_changed(self, _change: Any) -> None:
        """A hex chosen in the menu is the next selection: a refusal shown for the last one goes (issue 26.8). Only
        the status is drawn again, since a redraw would refill the menu and lose the choice."""
        if not self.syncing and self.message_kind == "error" and self.session.message:
            self.session.message, self.session.message_kind = "", "info"
            self.status.value = self.status_html()

    def _origin_changed(self, change: Any) -> None:
        if not self.syncing and change["new"] != self.origin:
            self.origin = change["new"]
            self.redraw()

    def show_asked(self, hexes: Iterable[tuple[int, int]]) -> None:
        """Ring ``hexes`` in indigo on the board (the odds explorer's request) until it asks for others."""
        self.asked = tuple(hexes)
        trace(self.figure.plot, ASKED).update(_at(self.asked))
        self.figure.draw()

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
            return f"{self.seat_label(state.player, who)} is playing."
        card = rules.terrain_word(state.hands[state.player] or "")
        moves = rules.legal_moves(state)
        if moves == (EndTurn(),):
            return f"{who} to play: nothing is left to build or use this turn; press End turn."
        if not state.mandatory_done and state.built > 0:
            more = 3 - state.built
            return f"{who} to play: build {more} more on {card}, next to your own settlements where possible."
        if not state.mandatory_done and any(isinstance(m, Build) for m in moves):
            if any(isinstance(m, UseTile) for m in moves):
                return f"{who} to play: build 3 settlements on {card}; click a ringed tile to use it before or after."
            return f"{who} to play: build 3 settlements on {card}, next to your own settlements where possible."
        return f"{who} to play: click a ringed location tile to use it (or choose it under Action), or press End turn."

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
        if actions and actions[0][1] != "build":  # only tiles are left: none is chosen until the person picks one
            actions.insert(0, ("a tile: click it on the board", None))
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

    def usable_tiles(self, moves: tuple) -> list[tuple[int, int]]:
        """The location hexes of the tiles the person to move may use now (ringed: a click there chooses the tile)."""
        state = self.state
        kinds = {m.tile for m in moves if isinstance(m, UseTile)}
        if not kinds or state.player is None:
            return []
        return [divmod(t.location, 20) for t in state.tiles[state.player] if t.kind in kinds and t.status == "ready"]

    def draw(self) -> None:
        state = self.state
        moves = self._moves()
        targets, origins = self._sync_menus(moves)
        marked = list(origins if (self.action_menu.value in MOVE_TILES and self.origin is None) else targets)
        if self.origin is not None:
            marked.append(self.origin)
        marked += [h for h in self.usable_tiles(moves) if h not in marked]  # a click on one starts its action
        scoring: tuple = ()
        if self.scoring_card.value is not None:
            scoring = rules.scoring_hexes(state, self.scoring_card.value, self.scoring_player.value or 0)
        plot = self.figure.plot
        trace(plot, HALO).update(_at(marked))
        trace(plot, LEGAL).update(_at(marked))
        trace(plot, SCORING).update(_at(scoring))
        trace(plot, SETTLEMENTS).update(_settlements(state))
        self._draw_last_moves(plot)
        trace(plot, ASKED).update(_at(self.asked))
        # the suggested move belongs to the game as it stands: not drawn while an earlier position is replayed
        xs, ys = hint_outline(self.hinted if self.view is None else None)
        for name in (HINT_UNDER, HINT):
            trace(plot, name).update(x=xs, y=ys)
        self.figure.draw()
        playing = state.player is not None and state.player not in self.bots
        self.play_button.disabled = not playing or not moves or self.action_menu.value is None
        self.end_button.disabled = EndTurn() not in moves
        self.card.value = card_html(state, self.finished)
        self.players_panel.value = players_html(state, self.bots)
        self.scores.value = scores_html(state)
        self.move_log.value = self.history_html()

    def _last_moves(self) -> tuple[dict, dict, list, dict]:
        """What the moves of :meth:`steps_shown` left on the board: the settlements placed (hex -> the move told),
        the hexes settlements moved away from (hex -> (player, the move told)), the moves' paths, and the location
        hexes whose tiles were taken ("star") or lost ("x-thin-open")."""
        placed: dict[tuple[int, int], str] = {}
        ghosts: dict[tuple[int, int], tuple[int, str]] = {}
        paths: list[tuple[tuple[int, int], tuple[int, int]]] = []
        tiles: dict[tuple[int, int], str] = {}
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
        return placed, ghosts, paths, tiles

    def _draw_last_moves(self, plot: go.Figure) -> None:
        """Mark the moves of :meth:`steps_shown` on the board: a pink circle on each settlement placed, a faded piece
        and an arrow for one moved, a star on each location whose tile was taken, a cross on each one whose tile was
        lost. The marks stay until the next move."""
        state = self.state
        placed, ghosts, paths, tiles = self._last_moves()
        # A settlement built and then moved on in the same series is ringed only where it stands now.
        rings = [h for h in placed if state.board[h[0] * 20 + h[1]] >= 0]
        faded = [h for h in ghosts if state.board[h[0] * 20 + h[1]] < 0]
        trace(plot, PLACED).update(_at(rings), hovertext=[placed[h] for h in rings])
        trace(plot, GHOSTS).update(
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
        trace(plot, PATHS).update(x=xs, y=ys, marker={"size": sizes})
        kinds = list(tiles)
        corner = _at(kinds)  # the mark sits at the hex's upper right, beside the location's label
        corner["x"] = [round(x + 0.6, 3) for x in corner["x"]]
        corner["y"] = [y + 0.5 for y in corner["y"]]
        trace(plot, TILE_MARKS).update(
            corner,
            marker={
                "symbol": [tiles[h] for h in kinds],
                "color": [LAST_MOVE if tiles[h] == "star" else "#000000" for h in kinds],
                "line": {"color": "#000000"},
            },
        )


def __getattr__(name: str) -> object:
    """``widget.Explorer`` still names the game's explorer, imported when first asked for (a board needs none)."""
    if name == "Explorer":
        from .explorer import Explorer

        return Explorer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
