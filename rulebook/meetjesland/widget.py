"""The live Meetjesland board: the map drawn at the villages' coordinates, played by clicks or dropdowns.

The widget only renders the state and sends moves through ``check``/``apply`` (via :class:`rulebook.view.table.Table`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets as widgets
import plotly.graph_objects as go
import traitlets

from ..play.session import Bot
from ..view import markup
from ..view.figures import BoardView, trace
from ..view.markup import Markup
from ..view.table import RuleText, Table
from . import labels, rules
from .narrate import news_for
from .odds import win_probability
from .rules import (
    PLAYER_COLOURS,
    Attack,
    EndTurn,
    Fortify,
    Place,
    Reinforce,
    Retreat,
    Roll,
    State,
    TradeCards,
)

# Colours and marker shapes per player: distinct in lightness and shape as well as hue. The fills and the region
# colours (graphs/meetjesland.json) were chosen with a colour-vision simulator (CAM02-UCS distance >= 18 between any
# two under deuteranomaly, protanomaly and tritanomaly at full severity); tests/test_meetjesland_marks.py checks it.
PLAYER_FILL = ("#ffffff", "#222222", "#ec3f6b", "#0b92aa", "#7f4326", "#b2b2b2")
PLAYER_TEXT = ("#000000", "#ffffff", "#000000", "#000000", "#ffffff", "#000000")
PLAYER_SYMBOL = ("circle", "square", "diamond", "triangle-up", "pentagon", "hexagram")
# Rings and last-move marks are drawn in black ink and told apart by shape, so no ring can be mistaken for a
# region's coloured halo (the green "may attack" ring once looked like the green halo).
INK = "#000000"
RINGS = {  # meaning -> (plotly symbol, size px, line width px)
    "chosen": ("circle-open", 33, 5),
    "legal": ("diamond-open", 40, 2),
    "target": ("square-open", 33, 5),
}
TAKEN_RING = ("octagon-open", 35, 2)  # a territory that changed hands in the last move(s)
HINT_INK = "#a86f00"  # dark gold: the suggested move, dashed so it reads without colour too
GHOST_SIZE = 10  # px: the faded shape of lost points, before their "−n"
HINT_STAR_SIZE = 14  # px: the star before a suggested placement's words


# Colour lists that must stay mutually distinguishable under colour-vision deficiencies (read by the colour test).
# The rings and last-move marks are all INK and differ by shape, so they form no list here.
PALETTES: dict[str, list[str]] = {
    "players": list(PLAYER_FILL),
    "regions": list(rules.load_board().attributes["region_colours"].values()),
}
LINE_STYLE = {"thin": ("#555555", 1.2, "solid"), "white": ("#ffffff", 4, "solid"), "thick": ("#1d4e89", 6, "solid")}


def player_chip(player: int) -> Markup:
    """A small label in a player's colours (``.rb-mj-player-<n>`` in style.css), for status lines and the hand."""
    return markup.render("chip.html", package=__package__, player=player, colour=PLAYER_COLOURS[player])


def dice_html(dice: rules.Dice) -> Markup:
    """The last roll as small square faces with their numbers (no emoji, so every browser font shows them), and
    what it cost each side (MJ-5.6, MJ-5.7: ties go to the defender)."""
    attacker_losses, defender_losses = rules.resolve_roll(dice.attacker, dice.defender)
    costs = " and ".join(
        text
        for text in (
            f"the attacker loses {attacker_losses}" if attacker_losses else "",
            f"the defender loses {defender_losses}" if defender_losses else "",
        )
        if text
    )
    compared = zip(sorted(dice.attacker, reverse=True), sorted(dice.defender, reverse=True))
    tie = " (a tie goes to the defender)" if any(a == d for a, d in compared) else ""
    return markup.render(
        "dice.html", package=__package__, attacker=dice.attacker, defender=dice.defender, told=costs.capitalize() + tie
    )


MAP_WIDTH, MAP_HEIGHT = 520, 500  # px: with the 340 px controls column the board fits the app's 880 x 680 px box
COLUMN_WIDTH = 340  # px, the players panel and the controls column at the right of the map


def plural(count: int, word: str) -> str:
    """``1 point``, ``3 points``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _ring(symbol: str, size: float, width: float, colour: str = INK) -> dict[str, Any]:
    """An open marker, stroked in ``colour`` (an open symbol takes the marker's colour, its width the line's)."""
    return dict(symbol=symbol, size=size, color=colour, line=dict(width=width, color=colour))


# a layer of marks (labels.py places them): a marker, then its text to the right of it, in bold
MARKS = dict(
    textposition="middle right",
    textfont=dict(size=labels.MARK_PX, color=INK, weight="bold", family=labels.FONT, shadow="auto"),
)

# The map's layers over its borders, in drawing order (the board and the Explorer find them by name): each one's mode
# and style; a layer shows nothing on hover unless its style says. map_figure puts the first three at the
# territories and fills in the names; the board draws the rest (Board.draw).
LAYERS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    # each territory's region halo, its ring, its point by owner; a click names its territory by its customdata
    ("regions", "markers", dict(marker=dict(size=36, opacity=0.55, line=dict(width=0)))),
    ("highlight", "markers", dict(marker=_ring("circle-open", 0, 4))),
    (
        "territories",
        "markers+text",
        dict(hoverinfo="text", textfont=dict(size=11), marker=dict(size=23, line=dict(width=1.5, color="#222222"))),
    ),
    # the names, placed by labels.py, a few with a leader line to their point; the font is the one whose widths
    # labels.py counts, with a halo in the background colour over lines
    # on a phone's smaller map (board.js) a name that would cover a territory's point is left for its tap to tell
    ("leaders", "lines", dict(line=dict(color="#222222", width=1), meta=dict(declutter=["territories"]))),
    (
        "names",
        "text",
        dict(
            textfont=dict(size=labels.NAME_PX, color="#222222", family=labels.FONT, shadow="auto"),
            meta=dict(declutter=["territories"]),
        ),
    ),
    # the last move(s): arrows from where an attack or a move came, rings round territories that changed hands, the
    # ghosts of points lost in the shape and colour of their owner before with "−n", and the points gained ("+n")
    (
        "last move arrows",
        "lines+markers",
        dict(
            line=dict(color=INK, width=2.5, dash="dot"), marker=dict(color=INK, angleref="previous", line=dict(width=0))
        ),
    ),
    ("last move taken", "markers", dict(marker=_ring(*TAKEN_RING))),
    ("last move losses", "markers+text", dict(MARKS, marker=dict(size=0, opacity=0.55, line=dict(width=1, color=INK)))),
    ("last move gains", "markers+text", dict(MARKS, marker=dict(size=0))),
    # the move Hint suggests: a dashed gold arrow from origin to target, or a gold star beside the territory to place
    # on, with its words; and the chain planner's path (drawn by the Explorer): a dash-dot line, numbered
    (
        "hint",
        "lines+markers",
        dict(
            line=dict(color=HINT_INK, width=5, dash="dash"),
            marker=dict(color=HINT_INK, angleref="previous", line=dict(width=2, color=HINT_INK)),
        ),
    ),
    (
        "hint words",
        "markers+text",
        dict(MARKS, marker=dict(size=0, symbol="star", color=HINT_INK, line=dict(width=1, color=INK))),
    ),
    (
        "planned path",
        "lines+markers+text",
        dict(
            line=dict(color=INK, width=3, dash="dashdot"),
            textposition="bottom right",
            textfont=dict(size=12, color=INK, weight="bold", shadow="auto"),
            marker=_ring("circle-open", 30, 2),
        ),
    ),
)


def _layer(name: str, mode: str, style: dict[str, Any], data: dict[str, Any]) -> go.Scatter:
    """A layer of :data:`LAYERS`, with ``data`` (its points) merged into its style; empty without."""
    return go.Scatter(x=[], y=[], mode=mode, hoverinfo="skip", name=name).update(style).update(data)


def _border_traces(board: rules.Map) -> list[go.Scatter]:
    """The borders, one trace per kind of line: grey within a municipality, white between, thick blue canals."""
    traces = []
    for line, (colour, width_px, dash) in LINE_STYLE.items():
        xs: list[Any] = []
        ys: list[Any] = []
        for a, b, kind in board.edges("line"):
            if kind == line:
                (xa, ya), (xb, yb) = board.position(a), board.position(b)
                xs += [xa, xb, None]
                ys += [ya, yb, None]
        style = dict(line=dict(color=colour, width=width_px, dash=dash))
        traces.append(_layer(f"{line} line", "lines", style, dict(x=xs, y=ys)))
    return traces


def _layers(board: rules.Map) -> list[go.Scatter]:
    """The layers of :data:`LAYERS`, the territories' at the territories (the names are the map's: map_figure's)."""
    territories = board.territories
    at = dict(x=[board.position(t)[0] for t in territories], y=[board.position(t)[1] for t in territories])
    colours = board.attributes["region_colours"]
    points = {
        "regions": dict(at, marker=dict(color=[colours[board.region(t)] for t in territories])),
        "highlight": at,
        "territories": dict(at, customdata=list(territories)),
    }
    return [_layer(name, mode, style, points.get(name, {})) for name, mode, style in LAYERS]


def map_labels(state: State, width: int = MAP_WIDTH, height: int = MAP_HEIGHT) -> labels.MapLabels:
    """The map's geometry and names at this size (computed once per size)."""
    return labels.map_labels(state.config.board, width, height)


def map_figure(state: State, width: int = MAP_WIDTH, height: int = MAP_HEIGHT) -> go.Figure:
    """The live board's map (drawn by a BoardView): borders by kind, regions as halos, territories by owner with
    their points, the names, the last move's marks, the hint and the planned path, each layer a trace named after
    it. The axes' ranges are given, so that a point is drawn where :mod:`labels` placed the texts round it."""
    shape = map_labels(state, width, height).geometry
    figure = go.Figure(
        layout=go.Layout(
            width=width,
            height=height,
            margin=dict(l=labels.MARGIN, r=labels.MARGIN, t=labels.MARGIN, b=labels.MARGIN),
            showlegend=False,
            plot_bgcolor="#efe9d8",
            paper_bgcolor="#ffffff",
            dragmode=False,
            clickmode="event",
            xaxis=dict(visible=False, range=shape.x_range, scaleanchor="y"),
            yaxis=dict(visible=False, range=shape.y_range),
            # every colour and font of the map is its own: plotly's default template would only add 7 kB to each
            # redraw the page is sent
            template="none",
        )
    )
    figure.add_traces(_border_traces(state.board) + _layers(state.board))
    layout = map_labels(state, width, height)
    figure.update_traces(selector={"name": "names"}, **names_layer(layout, layout.names))
    figure.update_traces(selector={"name": "leaders"}, **leaders_layer(layout, layout.names))
    return figure


def _km(points: Iterable[tuple[float, float] | None], shape: labels.Geometry) -> dict[str, Any]:
    """Points in px as a layer's x and y in km, rounded to the metre (None stays a gap)."""
    xs: list[Any] = []
    ys: list[Any] = []
    for point in points:
        x, y = (None, None) if point is None else shape.km(*point)
        xs.append(None if x is None else round(x, 3))
        ys.append(None if y is None else round(y, 3))
    return {"x": xs, "y": ys}


def names_layer(layout: labels.MapLabels, names: Iterable[labels.Name]) -> dict[str, Any]:
    """The names layer's values: one text per line of each name, where labels.py put it."""
    lines = [line for name in names for line in name.lines]
    return {**_km([(x, y) for _, x, y in lines], layout.geometry), "text": [text for text, _, _ in lines]}


def leaders_layer(layout: labels.MapLabels, names: Iterable[labels.Name]) -> dict[str, Any]:
    """The leader lines of the names (and marks) that stand where they could be taken for another territory's."""
    points: list[tuple[float, float] | None] = []
    for name in names:
        if name.leader is not None:
            points += [name.leader[0], name.leader[1], None]
    return _km(points, layout.geometry)


def mark_size(text: str, marker: float) -> tuple[float, float]:
    """The box of a mark: a marker ``marker`` px wide (0: none), then ``text`` in bold, where board.js writes a text
    placed "middle right" of its point: 0.4 of the marker's size and 1 px beyond it."""
    before = marker / 2 + 0.5 if marker else -1.0
    return before + 0.4 * marker + 1 + labels.text_width(text, labels.MARK_PX, bold=True), float(labels.LINE_PX)


def mark_point(box: labels.Box, marker: float) -> tuple[float, float]:
    """Where a mark's point goes (its marker's centre) for the mark to fill ``box``."""
    return box[0] + (marker / 2 + 0.5 if marker else -1.0), (box[1] + box[3]) / 2


def territory_layer(state: State) -> dict[str, Any]:
    """The territories layer's values for ``state``: each territory's owner (colour and shape), points and hover
    (its number only where it has one: the numbers count in a colour bonus, MJ-4.9)."""
    board = state.board

    def about(territory: str) -> str:
        number = board.number(territory)
        return f"{board.region(territory)} region" + (f", bonus number {number}" if number else "")

    return {
        "marker": {"color": [PLAYER_FILL[o] for o in state.owner], "symbol": [PLAYER_SYMBOL[o] for o in state.owner]},
        "text": [str(p) for p in state.points],
        "textfont": {"color": [PLAYER_TEXT[o] for o in state.owner]},
        "hovertext": [
            f"{board.name(t)}: {about(t)}<br>{PLAYER_COLOURS[o].capitalize()}, {plural(p, 'point')}"
            for t, o, p in zip(board.territories, state.owner, state.points)
        ],
    }


def map_picture(state: State, width: int = MAP_WIDTH, height: int = MAP_HEIGHT) -> go.Figure:
    """The map of ``state`` as the live board draws it (borders, regions, owners and their points), without rings,
    marks or controls: a picture for the rules text."""
    figure = map_figure(state, width, height)
    figure.update_traces(selector={"name": "territories"}, **territory_layer(state))
    return figure


def last_move_marks(steps: list[Any]) -> dict[str, Any]:
    """What the map marks for ``steps``: arrows (from, to) of attacks and moves, in order; points lost per
    territory with their owner before (ghosts); territories that changed hands; points gained per territory."""
    arrows: list[tuple[str, str]] = []
    losses: dict[str, tuple[int, int]] = {}
    gains: dict[str, int] = {}
    taken: list[str] = []
    for step in steps:
        move, battle = step.move, step.before.battle
        if isinstance(move, Attack):
            pair = (move.origin, move.target)
        elif isinstance(move, Fortify):
            pair = (move.origin, move.destination)
        elif isinstance(move, (Roll, rules.Dice)) and battle is not None:
            pair = (battle.origin, battle.target)
        else:
            continue
        if pair not in arrows:
            arrows.append(pair)
    if steps:
        first, last = steps[0].before, steps[-1].after
        for territory in last.board.territories:
            owner_before, points_before = first.owner_of(territory), first.points_on(territory)
            points_now = last.points_on(territory)
            if owner_before != last.owner_of(territory):
                taken.append(territory)
                losses[territory] = (owner_before, points_before)
            elif points_now < points_before:
                losses[territory] = (owner_before, points_before - points_now)
            elif points_now > points_before:
                gains[territory] = points_now - points_before
    return {"arrows": arrows, "losses": losses, "taken": taken, "gains": gains}


def ink_on(colour: str) -> str:
    """Black or white text, whichever reads better on ``colour`` (relative luminance, WCAG): the text colour of a
    region's class in style.css."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return "#000000" if luminance > 0.18 else "#ffffff"


SHAPE_GLYPH = {"circle": "●", "square": "■", "diamond": "◆", "triangle-up": "▲", "pentagon": "⬟", "hexagram": "✶"}


def legend_html(state: State) -> Markup:
    """What the colours, shapes, lines and rings of the map mean, in a few short lines under the map (the regions'
    and the players' colours are classes of style.css: ``.rb-mj-region-<region>``, ``.rb-mj-player-<n>``)."""
    players = [(SHAPE_GLYPH[PLAYER_SYMBOL[p]], player_chip(p)) for p in range(state.players)]
    regions = list(state.board.attributes["region_colours"])
    return markup.render("legend.html", package=__package__, regions=regions, players=players)


def hint_places(state: State, move: Any) -> list[tuple[str, str | None, str]]:
    """Where a suggested move shows on the map: ``(from, to, word)`` for an arrow, ``(territory, None, word)`` for
    a star; empty for a move with no place on the map, or no move."""
    if isinstance(move, Attack):
        return [(move.origin, move.target, f"hint: {move.stake}")]
    if isinstance(move, Fortify):
        return [(move.origin, move.destination, f"hint: move {move.points}")]
    if isinstance(move, Place):
        return [(move.territory, None, f"hint: +{move.points}")]
    if isinstance(move, (Roll, Retreat)) and state.battle is not None:
        word = "hint: roll" if isinstance(move, Roll) else "hint: break off"
        return [(state.battle.origin, state.battle.target, word)]
    return []


def card_label(card: str) -> str:
    """A card as players name it: the village and its colour, or the Brewery card."""
    if card == rules.BREWERY:
        return "Brewery Van Steenberge (traded alone)"
    return f"{rules.card_name(card)} ({rules.card_colour(card)})"


def players_html(state: State, computer: Iterable[int] = ()) -> Markup:
    """The players panel, as on Board Game Arena: per player the territories, the points on the board, the cards in
    hand (their number only), the whole regions, what Reinforce would give now (MJ-4.10), or who put them out; the
    player to move marked."""
    computer = set(computer)
    rows = []
    for player in range(state.players):
        held = state.territories_of(player)
        beaten_by = state.eliminated_by[player] if player < len(state.eliminated_by) else None
        rows.append(
            {
                "player": player,
                "shape": SHAPE_GLYPH[PLAYER_SYMBOL[player]],
                "chip": player_chip(player),
                "computer": player in computer,
                "to_move": state.phase != "over" and player == state.turn,
                "alive": state.alive[player],
                "out_by": "" if beaten_by is None else PLAYER_COLOURS[beaten_by],
                "territories": len(held),
                "points": sum(state.points_on(t) for t in held),
                "cards": len(state.hands[player]),
                "regions": rules.whole_regions(state, player),
                "reinforce": rules.reinforcements(len(held)),
            }
        )
    return markup.render("players.html", package=__package__, rows=rows)


class Amount(anywidget.AnyWidget):
    """A whole number from ``min`` to ``max`` on a slider that answers the keyboard (amount.js): a click gives it
    the arrow keys, Home (the least) and End (the most). The board's Points and Stake; a value outside the bounds is
    brought inside them, as an IntSlider does."""

    _esm = Path(__file__).with_name("amount.js")
    value = traitlets.Int(1).tag(sync=True)
    min = traitlets.Int(1).tag(sync=True)
    max = traitlets.Int(1).tag(sync=True)
    description = traitlets.Unicode("").tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """amount.js's {value}: the slider's value, sent past ipywidgets' hold on a model's next change (which
        would let a Place or Attack pressed right after a second move reach the kernel first). Taken as a change
        from the page (``set_state``: not sent back); anything else is ignored."""
        value = content.get("value") if isinstance(content, dict) else None
        if isinstance(value, int) and not isinstance(value, bool):
            self.set_state({"value": value})

    @traitlets.validate("value")
    def _inside(self, proposal: Any) -> int:
        return int(min(max(proposal["value"], self.min), self.max))

    @traitlets.observe("min", "max")
    def _bounds_moved(self, _change: Any) -> None:
        if self.max < self.min:
            self.max = self.min
        self.value = self.value  # validated again: brought inside the new bounds


def _control(kind: type, **options: Any) -> Any:
    """A control of the side column: one width and one label width for all of them."""
    return kind(layout=widgets.Layout(width=f"{COLUMN_WIDTH - 8}px"), style={"description_width": "64px"}, **options)


class Board(Table):
    """A Meetjesland game on a live map; ``computer`` maps seats to computer players (``bots.BOTS`` names).

    The map sits at the left and a column of controls at its right, so that the whole board fits in 880 x 680 px
    (the app's board area); the move log waits below in a closed accordion."""

    def __init__(self, state: State, *, seed: int = 0, computer: Mapping[int, str | Bot] | Iterable[int] = ()) -> None:
        super().__init__(state, seed=seed, computer=computer)
        self.origin: str | None = None
        self.target: str | None = None
        # Called with the territory of a map click before the board handles it; a hook returning True keeps the
        # click (the Explorer's chain planner takes clicks while it plans a path).
        self.click_hooks: list[Callable[[str], bool]] = []
        self.figure = BoardView(map_figure(state))
        # the map's layers by name, looked up once (each redraw updates seven of them), and what each was last given
        plot = self.figure.plot
        self.layers: dict[str, Any] = {drawn.name: trace(plot, drawn.name) for drawn in plot.data}
        self._given: dict[str, dict[str, Any]] = {}
        self.figure.on_click("territories", self._clicked)
        self.figure.on_stale(self._stale_click)
        self.figure.on_cancel(lambda: self._set(None, None) if self.origin or self.target else None)  # Escape
        self._build_controls(state)
        self._connect()
        self.children = self._lay_out(state)
        self.start()

    def _build_controls(self, state: State) -> None:
        """The side column's menus, sliders, texts and buttons."""
        board = state.board
        names = [(board.name(t), t) for t in sorted(board.territories, key=board.name)]
        # "" stands for no choice: a Dropdown shows a value of None as an empty box, without its label
        self.origin_menu = _control(
            widgets.Dropdown, options=[("(click the map)", "")] + names, value="", description="From / on"
        )
        self.target_menu = _control(
            widgets.Dropdown, options=[("(click the map)", "")] + names, value="", description="To"
        )
        column = widgets.Layout(width=f"{COLUMN_WIDTH - 8}px")
        self.amount = Amount(value=1, min=1, max=1, description="Points", layout=column)
        self.stake = Amount(value=1, min=1, max=1, description="Stake", layout=widgets.Layout(width=column.width))
        self._stake_for: tuple[str | None, int] | None = None  # the origin and points the stake was last set for
        # two lines kept, so nothing below moves; a refusal's rule id in it is a link, as in the status line
        self.odds = LinkedLine(self.status, layout=widgets.Layout(height="2.7em"))
        self.dice = widgets.HTML(layout=widgets.Layout(min_height="3em"))
        self.news = widgets.HTML()
        self.players_panel = widgets.HTML()
        self.players_panel.add_class("rulebook-players")
        self.answer_panels = (self.players_panel,)  # the reinforcements an exercise may ask for: hidden until answered
        self.mission = widgets.HTML()
        self.hand = widgets.HTML()
        self.cards = _control(widgets.SelectMultiple, options=[], description="Cards", rows=3)
        button = widgets.Button
        self.place_button = button(description="Place", icon="plus", tooltip="Place the points on the chosen territory")
        self.auto_button = button(description="Auto-place", tooltip="Spread the remaining starting points at random")
        self.reinforce_button = button(
            description="Reinforce",
            icon="plus-circle",
            tooltip="MJ-4.4: take points for your territories, place them, then pass",
        )
        self.attack_button = button(
            description="Attack", button_style="danger", icon="bolt", tooltip="MJ-5.3: attack with the stake"
        )
        self.roll_button = button(description="Roll again", icon="refresh", tooltip="Roll the dice once more")
        self.blitz_button = button(description="Roll to the end", tooltip="Keep rolling until one side is out")
        self.retreat_button = button(description="Break off", tooltip="Stop the attack; the stake stays where it is")
        self.move_button = button(description="Move points", tooltip="MJ-5.9: between neighbouring own territories")
        self.trade_button = button(
            description="Trade cards",
            icon="exchange",
            tooltip="MJ-4.7: three chosen cards, or the Brewery card alone, for extra points",
        )
        self.end_button = button(description="End turn", button_style="primary", tooltip="Pass to the next player")

    def _connect(self) -> None:
        """What each button and menu does."""
        actions = {
            self.place_button: self._place,
            self.auto_button: self._auto,
            self.reinforce_button: lambda: self.play(Reinforce()),
            self.attack_button: self._attack,
            self.roll_button: lambda: self.play(Roll()),
            self.blitz_button: self._blitz,
            self.retreat_button: lambda: self.play(Retreat()),
            self.move_button: self._move,
            self.trade_button: self._trade,
            self.end_button: lambda: self.play(EndTurn()),
        }
        half = f"{COLUMN_WIDTH // 2 - 8}px"
        for widget, action in actions.items():
            widget.on_click(lambda _, action=action: action())
            widget.layout.width = half
        self.undo_button.layout.width = half
        self.origin_menu.observe(self._menus_changed, names="value")
        self.target_menu.observe(self._menus_changed, names="value")
        self.stake.observe(lambda _: self._show_odds(), names="value")

    def _lay_out(self, state: State) -> list[widgets.Widget]:
        """The status line; the map with its legend beside the controls column; the move log folded below."""
        row = widgets.HBox
        controls = widgets.VBox(
            [
                self.players_panel,
                self.mission,
                self.origin_menu,
                self.target_menu,
                self.amount,
                row([self.place_button, self.auto_button]),
                row([self.reinforce_button, self.move_button]),
                self.stake,
                self.odds,
                row([self.attack_button, self.roll_button]),
                row([self.blitz_button, self.retreat_button]),
                self.dice,
                self.hand,
                self.cards,
                row([self.trade_button, self.end_button]),
                row([self.undo_button]),
                self.news,  # last: however long it grows, no control moves
            ],
            layout=widgets.Layout(width=f"{COLUMN_WIDTH}px", overflow="hidden"),
        ).add_class("rulebook-controls")  # the board's parts by name: style.css reflows them on a narrow page
        self.legend = widgets.HTML(legend_html(state), layout=widgets.Layout(width=f"{MAP_WIDTH}px"))
        self.legend.add_class("rulebook-legend")
        # the shared previous/next/slider over the game's history sits above the log it steps through
        log_box = widgets.Accordion(children=[widgets.VBox([self.history_bar, self.move_log])], titles=("Move log",))
        left = widgets.VBox([self.figure, self.legend], layout=widgets.Layout(width=f"{MAP_WIDTH + 4}px"))
        left.add_class("rulebook-figure-column")
        # the status line keeps three lines' height (style.css: .rb-mj-board .rb-status), so the map never moves
        self.add_class("rb-mj-board")
        main = row([left, controls], layout=widgets.Layout(justify_content="flex-start")).add_class("rulebook-main")
        return [self.status, main, log_box]

    # -- input ------------------------------------------------------------------------------------
    def _clicked(self, territory: Any) -> None:
        """A click on a territory's point: its id is the territory (one the map holds: the BoardView checks it)."""
        if any(hook(territory) for hook in list(self.click_hooks)):
            return
        self.select(territory)

    def _stale_click(self, _trace: str, _point: Any, _revision: int) -> None:
        """A click that names no point of the map as drawn now (a forged or mangled message from the page)."""
        self.message, self.message_kind = "That click came from an older drawing of the map: click again.", "info"
        self.redraw()

    def select(self, territory: str) -> None:
        """A click on a territory: choose where to place, attack or move from, or the target of an attack or move.

        A click on an own territory chooses it as the origin, except right after choosing an origin, when an own
        neighbour the points may move to becomes the move's destination; a click on an enemy territory then
        attacks from the own territory clicked last, so the attack comes from where the player last pointed."""
        state = self.state
        if self.finished or self.replaying:
            self.message, self.message_kind = (
                ("The game is over: start a new game to play again.", "info")
                if self.finished
                else ("Replay: the map shows an earlier position; return to the game to play.", "info")
            )
            self.redraw()
            return
        name = state.board.name(territory)
        if state.owner_of(territory) == state.turn:
            moving = (
                self.origin is not None
                and self.target is None
                and territory != self.origin
                and state.phase == "play"
                and rules.check(state, Fortify(self.origin, territory, 1)) is None
            )
            if moving:
                self._set(self.origin, territory)
                self.message, self.message_kind = (
                    f"Moving from {state.board.name(self.origin)} to {name}: press Move points; "
                    f"to attack from {name} instead, click an enemy neighbour of it or click {name} again.",
                    "info",
                )
                self.redraw()
            else:
                self._set(territory, None)
        elif self.origin is None:
            self.message, self.message_kind = f"{name} is not yours: choose one of your territories first.", "info"
            self.redraw()
        else:
            own_target = self.target is not None and state.owner_of(self.target) == state.turn
            self._set(self.target if own_target else self.origin, territory)

    def _set(self, origin: str | None, target: str | None) -> None:
        self.origin, self.target = origin, target
        with self.hold_trait_notifications():
            self.origin_menu.value, self.target_menu.value = origin or "", target or ""
        self.redraw()

    def _menus_changed(self, _change) -> None:
        chosen = (self.origin_menu.value or None, self.target_menu.value or None)
        if chosen != (self.origin, self.target):
            self.origin, self.target = chosen
            self.redraw()

    def _place(self) -> None:
        if self.origin is None:
            self.message, self.message_kind = (
                "Choose a territory to place on (click it or pick it in 'From / on').",
                "error",
            )
            self.redraw()
            return
        self.play(Place(self.origin, self.amount.value))

    def _auto(self) -> None:
        """Auto-place: the starting points left spread at random as the engine's auto_setup spreads them, played as
        one Place per territory through play like any move (its checks, the log, Undo, the computer's pace). In a
        lesson, whose judge replaced the session's play (tutorial.Lesson.guard), it is refused: the step says what
        to place."""
        if self.replaying or self.pacing or self.current_player(self.live) in self.bots:
            self.play(Place("", 1))  # the shared refusal: back to the game, or the computer's turn
            return
        if self.live.phase != "setup":
            self.message, self.message_kind = "Auto-place is for the starting points (MJ-C7).", "error"
            self.redraw()
            return
        if "play" in vars(self.session):  # a lesson judges each move against its step
            self.message, self.message_kind = (
                "Auto-place is not part of the lesson: place the points the step asks for (Hint shows where).",
                "error",
            )
            self.redraw()
            return
        before = self.live
        spread: dict[str, int] = {}  # territory -> points, in the order auto_setup first chose them
        for move in rules.auto_setup(before, self.rng).history[len(before.history) :]:
            spread[move.territory] = spread.get(move.territory, 0) + move.points
        for territory, points in spread.items():
            if not self.play(Place(territory, points)):
                return  # the refusal is told
        name = before.board.name
        _, then, replies = self.message.partition("; then ")
        placed = ", ".join(f"{points} on {name(territory)}" for territory, points in spread.items())
        self.message = f"Starting points spread at random: {placed}{then}{replies}"
        self.redraw()

    def _attack(self) -> None:
        if self.origin is None or self.target is None:
            self.message, self.message_kind = "Choose the territory to attack from and the one to attack.", "error"
            self.redraw()
            return
        self.play(Attack(self.origin, self.target, self.stake.value))

    def _blitz(self) -> None:
        while self.state.battle is not None and self.state.player is not None and self.play(Roll()):
            pass

    def _move(self) -> None:
        if self.origin is None or self.target is None:
            self.message, self.message_kind = "Choose the territory to move from and the neighbour to move to.", "error"
            self.redraw()
            return
        self.play(Fortify(self.origin, self.target, self.amount.value))

    def _trade(self) -> None:
        if not self.cards.value:
            self.message, self.message_kind = (
                "Choose the cards to trade in the 'Cards' list: three cards, or the Brewery card alone (MJ-4.7).",
                "error",
            )
            self.redraw()
            return
        self.play(TradeCards(tuple(self.cards.value)))

    # -- output -----------------------------------------------------------------------------------
    def describe_player(self, player: int | None) -> str:
        return "Chance" if player is None else PLAYER_COLOURS[player].capitalize()

    def prompt(self) -> str:
        """Whose turn it is and what to do now; when one button is the only thing to do, its name."""
        state = self.state
        result = rules.outcome(state)
        if result is not None:
            winners = " and ".join(PLAYER_COLOURS[p].capitalize() for p in result.winners) or "Nobody"
            return f"Game over: {winners} {'wins' if len(result.winners) <= 1 else 'win'} ({result.reason})."
        name = PLAYER_COLOURS[state.turn].capitalize()
        who = self.seat_label(state.turn, name) if state.turn in self.bots else name
        if state.phase == "setup":
            return (
                f"{who} sets up: place {plural(state.to_place, 'more point')} on your territories "
                "(click one, then Place; or Auto-place)."
            )
        if state.battle is not None:
            b = state.battle
            return (
                f"{who} attacks {state.board.name(b.target)} from {state.board.name(b.origin)}: "
                f"{b.stake} staked against {state.points_on(b.target)}. Press Roll again, Roll to the end or Break off."
            )
        if len(state.hands[state.turn]) > state.config.hand_limit:
            return (
                f"{who} holds {len(state.hands[state.turn])} cards: choose three in Cards and press Trade cards "
                "(MJ-4.8)."
            )
        if state.to_place:
            return f"{who}: place {plural(state.to_place, 'point')} on your territories (click one, then Place)."
        kinds = {type(move) for move in rules.legal_moves(state)}
        if kinds == {EndTurn}:
            return f"{who}: nothing else can be done this turn; press End turn."
        if state.stage == "start" and Reinforce in kinds:
            count = rules.reinforcements(len(state.territories_of(state.turn)))
            trade = "trade cards, " if TradeCards in kinds else ""
            attack = ", or attack (click your territory, then a target)" if Attack in kinds else ", or move points"
            return f"{who}'s turn: {trade}press Reinforce to take {count} points{attack}."
        if state.stage == "reinforce" and Fortify not in kinds:  # MJ-4.4: place them, then pass (MJ-C11)
            trade = "trade cards or " if TradeCards in kinds else ""
            return f"{who}: your reinforcements are placed; {trade}press End turn (MJ-4.4)."
        if state.stage == "reinforce":
            return f"{who}: move points (choose two of your neighbours, press Move points), then press End turn."
        if Attack in kinds:
            return f"{who}: attack again, move points, or press End turn."
        return f"{who}: move points (Move points) or press End turn."

    def draw(self) -> None:
        """The position on the map (owners, points, rings, the last move's marks, the hint), then the controls."""
        self._draw_territories()
        steps = self.steps_shown()
        self._draw_overlay(last_move_marks(steps))
        self._sync_controls()
        self._show_odds()
        self._show_news(steps)
        self.move_log.value = self.history_html()
        self.figure.draw()

    def _update_layer(self, name: str, **values: Any) -> None:
        """Give the map's layer ``name`` these values, unless they are what it was given last (plotly checks every
        value it is given: most redraws leave the hint, the rings or the ghosts as they were)."""
        if self._given.get(name) != values:
            self.layers[name].update(**values)
            self._given[name] = values

    def _draw_territories(self) -> None:
        """Each territory's owner (colour and shape), its points and hover text, and the rings of the choice; the
        keyboard's label of each (meta labels: "Eeklo, White, 3 points, you may attack from here")."""
        state = self.state
        territories = state.board.territories
        highlight = self._highlights()
        ring_words = {"chosen": "chosen", "target": "the target"}
        attackers = set()
        if state.phase == "play" and not state.to_place and state.battle is None and not self.origin:
            attackers = {m.origin for m in rules.legal_moves(state) if isinstance(m, (Attack, Fortify))}
        spoken = []
        for t, o, p in zip(territories, state.owner, state.points):
            words = [state.board.name(t), PLAYER_COLOURS[o].capitalize(), plural(p, "point")]
            words.append(f"{state.board.region(t)} region")
            if highlight.get(t) == "legal":
                placing = state.phase == "setup" or state.to_place
                own = "you may move here" if o == state.turn else "you may attack this"
                words.append("you may place here" if placing else own)
            elif t in highlight:
                words.append(ring_words[highlight[t]])
            elif t in attackers:
                words.append("you may attack or move from here")
            spoken.append(", ".join(words))
        self._update_layer("territories", **territory_layer(state), meta={"labels": spoken})
        rings = [RINGS[highlight[t]] if t in highlight else RINGS["chosen"] for t in territories]
        self._update_layer(
            "highlight",
            marker={
                "symbol": [ring[0] for ring in rings],
                "size": [ring[1] if t in highlight else 0 for t, ring in zip(territories, rings)],
                "line": {"width": [ring[2] for ring in rings], "color": INK},
            },
        )

    def _draw_overlay(self, marks: dict[str, Any]) -> None:
        """The last move's arrows, rings and marks, the hint, and the names: :func:`labels.arrange` puts each mark
        (points lost or gained, the hint's words) where it covers nothing, moving a name out of its way or from under
        an arrow."""
        state = self.state
        layout = map_labels(state)
        index = state.board.index

        def at(territory: str) -> tuple[float, float]:
            return layout.points[index[territory]]

        covered: list[labels.Box] = []
        arrows = self._arrows([(at(a), at(b)) for a, b in marks["arrows"]], labels.ARROW_SIZE, covered)
        self._update_layer("last move arrows", **arrows)
        self._update_layer("last move taken", **_km([at(t) for t in marks["taken"]], layout.geometry))
        texts = [  # (layer, territory, text, marker size): what labels.py places
            ("last move losses", t, f"−{lost}", GHOST_SIZE) for t, (_, lost) in marks["losses"].items()
        ] + [("last move gains", t, f"+{gain}", 0) for t, gain in marks["gains"].items()]
        hinted = hint_places(state, None if self.replaying else self.hinted)
        pairs = [(at(a), at(b)) for a, b, _ in hinted if b is not None]
        self._update_layer("hint", **self._arrows(pairs, labels.HINT_ARROW_SIZE, covered))
        texts += [("hint words", b or a, word, 0 if b else HINT_STAR_SIZE) for a, b, word in hinted]
        boxes = [labels.Mark(index[t], *mark_size(text, marker)) for _, t, text, marker in texts]
        names, placed = labels.arrange(layout, covered, boxes, [PLAYER_SYMBOL[o] for o in state.owner])
        self._update_layer("names", **names_layer(layout, names))
        self._update_layer("leaders", **leaders_layer(layout, names + placed))
        ghosts = [marks["losses"][t][0] for layer, t, _, _ in texts if layer == "last move losses"]
        for layer in ("last move losses", "last move gains", "hint words"):
            mine = [(text, marker, mark.box) for (name, _, text, marker), mark in zip(texts, placed) if name == layer]
            self._update_layer(
                layer, **self._marks_layer(layout, mine, ghosts if layer == "last move losses" else None)
            )

    @staticmethod
    def _marks_layer(
        layout: labels.MapLabels, marks: list[tuple[str, float, labels.Box]], ghosts: list[int] | None
    ) -> dict[str, Any]:
        """A marks layer's values for (text, marker size, box) marks; ``ghosts``: the owners whose shapes the
        ghosts of lost points take."""
        values = _km([mark_point(box, marker) for _, marker, box in marks], layout.geometry)
        values["text"] = [text for text, _, _ in marks]
        values["marker"] = {"size": [marker for _, marker, _ in marks]}
        if ghosts is not None:
            values["marker"] |= {
                "color": [PLAYER_FILL[o] for o in ghosts],
                "symbol": [PLAYER_SYMBOL[o] for o in ghosts],
            }
        return values

    def _arrows(
        self, pairs: list[tuple[tuple[float, float], tuple[float, float]]], size: int, covered: list[labels.Box]
    ) -> dict[str, Any]:
        """An arrows layer's values for (from, to) pairs of points (px): a line and a head of ``size`` px per arrow,
        stopped short of both points; the boxes of the heads are added to ``covered``."""
        points: list[tuple[float, float] | None] = []
        for start, end in pairs:
            tail, tip = labels.arrow_ends(start, end)
            points += [tail, tip, None]
            covered.append(labels.arrow_head(start, end, size))
        values = _km(points, map_labels(self.state).geometry)
        values["marker"] = {
            "symbol": ["circle", "arrow", "circle"] * len(pairs),
            "size": [0, size, 0] * len(pairs),  # no dot where it starts: the line leaves the piece
        }
        return values

    def _show_news(self, steps: list[Any]) -> None:
        """What the other players did to the territories of the person to move, since that person's last move."""
        state = self.state
        player = state.turn
        if state.phase != "play" or player in self.bots:
            self.news.value = ""
            return
        lines = news_for(player, steps)
        if not lines:
            self.news.value = ""
            return
        shown = "; ".join(lines[:4]) + (f"; and {len(lines) - 4} more (see the log)" if len(lines) > 4 else "")
        self.news.value = markup.render("news.html", package=__package__, news=shown)

    def _highlights(self) -> dict[str, str]:
        """Rings: the chosen territory, where it may attack or move (or where to place), and the target."""
        state = self.state
        if state.phase == "over" or state.player is None or self.replaying:
            return {}
        if state.battle is not None:
            return {state.battle.origin: "chosen", state.battle.target: "target"}
        marks: dict[str, str] = {}
        if state.phase == "setup" or state.to_place:
            marks = dict.fromkeys(state.territories_of(state.turn), "legal")
        elif self.origin and state.owner_of(self.origin) == state.turn:
            for move in rules.legal_moves(state):
                if isinstance(move, (Attack, Fortify)) and move.origin == self.origin:
                    marks[move.target if isinstance(move, Attack) else move.destination] = "legal"
        if self.origin:
            marks[self.origin] = "chosen"
        if self.target:
            marks[self.target] = "target"
        return marks

    def _sync_controls(self) -> None:
        state = self.state
        player = self._viewer(state)
        available = state.points_on(self.origin) - 1 if self.origin else 0
        self.stake.max = max(1, available)
        if (self.origin, available) != self._stake_for:  # a new origin, or its points changed: the most it may stake
            self._stake_for = (self.origin, available)
            self.stake.value = self.stake.max
        self.players_panel.value = players_html(state, self.bots)
        self.amount.max = max(1, state.to_place or min(available, state.config.move_limit - state.moved))
        mission = state.mission(player)
        self.mission.value = markup.render(
            "mission.html", package=__package__, chip=player_chip(player), mission=mission.text
        )
        hand = state.hands[player]
        # the colours as swatches (the list below names them in words): the hand stays one line however long
        cards = [(card_label(c), rules.card_colour(c)) for c in hand]
        count = plural(len(hand), "card") if hand else "no cards"
        self.hand.value = markup.render("hand.html", package=__package__, count=count, cards=cards)
        self.cards.options = [(card_label(c), c) for c in hand]
        dice = state.last_dice
        self.dice.value = "" if dice is None else dice_html(dice)
        playing = state.player is not None and state.player not in self.bots
        in_battle = state.battle is not None
        # each button's state set once: set off and then on again, a button the page showed enabled for a moment in
        # between (axe once measured the contrast of Break off in that moment), and each change is a message
        for button, off in (
            (self.place_button, False),
            (self.auto_button, state.phase != "setup"),
            (self.reinforce_button, False),
            (self.attack_button, in_battle),
            (self.roll_button, not in_battle),
            (self.blitz_button, not in_battle),
            (self.retreat_button, not in_battle),
            (self.move_button, False),
            (self.trade_button, False),
            (self.end_button, False),
        ):
            button.disabled = not playing or off

    def _viewer(self, state: State) -> int:
        """Whose mission and hand the board shows: the player to move, unless the computer plays that seat (while
        replaying a computer's move), then the person's own, so no replay shows a computer's secret mission."""
        if state.turn not in self.bots:
            return state.turn
        people = [seat for seat in range(state.players) if seat not in self.bots]
        return people[0] if people else state.turn

    def _show_odds(self) -> None:
        """The chance to conquer, only for an attack the rules allow now; otherwise why it is refused."""
        odds = self._odds()
        if odds is not None:
            odds = (self.odds.linked(odds[0]), odds[1])
        self.odds.value = markup.render("odds.html", package=__package__, odds=odds)

    def _odds(self) -> tuple[str, str] | None:
        """What the odds line says: words, and the exact chance (or "") after them; None to say nothing."""
        state = self.state
        name = state.board.name
        if state.battle is not None:
            chance = win_probability(state.battle.stake, state.points_on(state.battle.target), exact=True)
            return f"Chance to take {name(state.battle.target)} if you roll on: ", percent(chance)
        if not self.origin or state.phase != "play" or state.owner_of(self.origin) != state.turn or state.to_place:
            return None
        if state.points_on(self.origin) < 2:
            return f"{name(self.origin)} has 1 point: it cannot attack (MJ-5.2).", ""
        if not self.target or state.owner_of(self.target) == state.turn:
            return None
        error = rules.check(state, Attack(self.origin, self.target, self.stake.value))
        if error is not None:
            return f"No attack here: {error.message} ({error.rule}).", ""
        defenders = state.points_on(self.target)
        chance = win_probability(self.stake.value, defenders, exact=True)
        return f"Chance to take {name(self.target)} with {self.stake.value} against {defenders}: ", percent(chance)


class LinkedLine(RuleText):
    """A line of text beside the controls whose rule ids are links that open where the status line's do (the app's
    rules panel, or under the status line): a refusal reads the same wherever it is told."""

    def __init__(self, status: RuleText, **kwargs: Any) -> None:
        super().__init__(status.game, **kwargs)
        self.status = status
        self.add_class("widget-html")  # the text size of the widgets' HTML line it replaces, found as one by pages

    def open_rule(self, rule: str) -> None:
        """A click on a rule id: open it as a click in the status line would."""
        self.status.open_rule(rule)


def percent(chance: Any) -> str:
    """A probability as players read it: ``63.4 %``."""
    return f"{float(chance) * 100:.1f} %"


def __getattr__(name: str) -> object:
    """``widget.Explorer`` still names the game's explorer, imported when first asked for (a board needs none)."""
    if name == "Explorer":
        from .explorer import Explorer

        return Explorer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
