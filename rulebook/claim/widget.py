"""The live Claim board: click a piece, then a highlighted point; placement, removal and towers on the same board.

A jump over several pieces is played as players make it: click the piece, then each landing point in turn. While the
engine lets the piece jump on, the landed piece stays in hand and the rings show where it may land next; a click on
the piece (or Stop) ends the jump where it stands. Hint means its move and the rest of its series of
captures (CL-7.4), which a click on the hint's last point plays whole; asked in the middle of a jump, it goes on from
where the piece stands.

Everything the figure's clicks do can also be done with the controls (a point picker and a move list),
which is how the tests drive the widget without a browser.  Points are named as players name them: a column letter
and a row number counted from the bottom ("C5"), drawn along the figure's edges; the engine's own texts, which
write points as (row, column), are put into those names before the page shows them.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import ipywidgets as widgets
import plotly.graph_objects as go

from ..core import IllegalMove, quote
from ..view import markup
from ..view.figures import BoardView, trace
from ..view.table import Table
from . import bots as claim_bots
from .diagram import figure as rules_figure  # a figure of the rules as data (a name the figures here use)
from .diagram import from_diagram
from .narrate import GLYPH, column_letter, in_board_names, point_name, taken_off
from .rules import (
    Island,
    Jump,
    Pass,
    Place,
    PlaceTower,
    Point,
    Remove,
    State,
    Step,
    Stop,
    apply,
    captures_of,
    check,
    conquerable,
    legal_moves,
    teams_of,
    tower_target,
)

# Colours checked with a colour-vision simulator (CAM02-UCS distance of at least 15 between any two colours of a list
# under deuteranomaly, protanomaly and tritanomaly at full severity; tests/test_claim_colours.py): the pieces' colours;
# the ground of the island with the tints of territories held by a tower and the two kinds of ring drawn on it.
COLOUR_HEX = {"red": "#b71c1c", "blue": "#42a5f5", "yellow": "#fdd835", "green": "#00796b"}
TEXT_ON = {"red": "white", "blue": "#212121", "yellow": "#212121", "green": "white"}  # the tower mark on a piece
LAND = "#fefefb"  # every territory nobody holds: the thick borders and the letters tell territories apart
TINT = {"red": "#f78079", "blue": "#b8bcfb", "yellow": "#e1c431", "green": "#13d6b8"}  # a territory a tower holds
TARGET = "#6a1b9a"  # rings on the points the selected piece (or a tower, a removal) can go to; the selected piece
LAST = "#212121"  # the last move: its path, a ring where it ended, and the ghosts of what it took off the board
HINT = "#999900"  # the move Hint suggests: a dashed dark-gold path and stars on the points it names
PALETTES: dict[str, list[str]] = {
    "pieces": [*COLOUR_HEX.values(), LAND, HINT],
    "island": [LAND, *TINT.values(), TARGET, LAST, HINT],
}
# a shape per colour as well as a hue, so the board reads without colour vision and in grey-scale (red and green are
# both dark in grey: a circle and a triangle, not a circle and a hexagon). Pieces carry no letter: "b" and "r" would
# read as the territories' letters a-e. A tower is larger, thickly outlined and carries a rook.
SYMBOL = {"red": "circle", "blue": "square", "yellow": "diamond", "green": "triangle-up"}
# GLYPH, the same shapes in text, is narrate's (the explorer writes them too)
TOWER_MARK = "\u265c"  # the rook on a tower (a piece has no mark)
PIECE_SIZE, TOWER_SIZE = 19, 27

# The live board's figure fits in this box (pixels, wide x high), beside a controls column of CONTROLS_WIDTH: together
# they fit the 880 x 680 the app gives a board.  The island's rows and columns decide the size inside the box.
FIGURE_BOX = (470, 640)
CONTROLS_WIDTH = 390
STATUS_LINES = 5  # the status line's height, in lines of its 14 px text (line height 1.4)
MARGIN = 4
# the plotted area around the points (in lattice units): half a point beyond the edge, plus the coordinate labels
LEFT, RIGHT, TOP, BOTTOM = 1.35, 0.6, 0.6, 1.35
LABEL_OFFSET = 0.95

readable = in_board_names  # the old name of narrate.in_board_names, imported by tests

# the traces a click answers on: each point's id is its customdata, the point's [row, column]
CLICKABLE = ("territories", "targets", "pieces")


def _xy(point: Point) -> tuple[float, float]:
    return float(point[1]), float(-point[0])


def _unit(board: Island, width: float, height: float, top: float) -> float:
    """Pixels per lattice step for the whole island, with its labels, to fit in ``width`` x ``height``."""
    return min(
        (width - 2 * MARGIN) / (board.width + LEFT + RIGHT - 1),
        (height - top - MARGIN) / (board.height + TOP + BOTTOM - 1),
    )


class Marks(NamedTuple):
    """What the last move(s) did, to draw on the board: paths walked (origin first), rings where pieces or towers
    arrived, and ghosts of what was taken off (point, colour, tower?)."""

    paths: list[list[Point]]
    rings: list[Point]
    ghosts: list[tuple[Point, str, bool]]


NO_MARKS = Marks([], [], [])


def marks_of(steps: Any, shown: State) -> Marks:
    """The marks for a list of steps ``(index, player, move, before, after)``: each move's path and landing point,
    each placed piece or tower, and a ghost of each captured or removed piece still empty in ``shown``."""
    paths: list[list[Point]] = []
    rings: list[Point] = []
    ghosts: list[tuple[Point, str, bool]] = []
    for step in steps:
        move, before, after = step[2], step[3], step[4]
        if isinstance(move, Step):
            paths.append([move.origin, move.destination])
            rings.append(move.destination)
        elif isinstance(move, Jump):
            paths.append([move.origin, *move.path])
            rings.append(move.destination)
        elif isinstance(move, (Place, PlaceTower)):
            rings.append(move.point)
        keep = frozenset({move.origin}) if isinstance(move, (Step, Jump)) else frozenset()
        for point in taken_off(before, after, keep):
            owner = before.owner(point)
            if owner is not None and shown.at(point) == ".":
                ghosts.append((point, before.colours[owner], before.is_tower(point)))
    return Marks(paths, [p for p in rings if shown.at(p) not in (".", "#")], ghosts)


def hint_marks(move: Any) -> tuple[list[Point], list[Point]]:
    """What the board marks of a suggested move, or of a series of them (a hint's whole chain of captures): the path
    walked (origin first; empty unless a piece moves) and the points named (where the piece starts and where it ends;
    the point of a placed piece or tower, or of a removed piece)."""
    chain = tuple(move) if isinstance(move, (tuple, list)) else (move,)
    path: list[Point] = []
    named: list[Point] = []
    for link in chain:
        if isinstance(link, (Step, Jump)):
            walked = [link.destination] if isinstance(link, Step) else list(link.path)
            path += ([] if path and path[-1] == link.origin else [link.origin]) + walked
        elif isinstance(link, (Place, PlaceTower, Remove)):
            named.append(link.point)
    ends = [path[0], path[-1]] if path else []  # Stop and Pass name no point: the status line says them
    return path, ends + [point for point in named if point not in ends]


def hint_chain(state: State, first: Any, bot: Callable[[State, random.Random], Any], rng: random.Random) -> tuple:
    """The series of captures a hint means: ``first``, then, while the piece that has just captured may go on
    (CL-7.4), the captures ``bot`` makes with it and the Stop that ends them. Where a tower may go, the chain stops
    before it (where to put a tower stays the person's choice, CL-8.1); so does a move the engine refuses."""
    chain = [first]
    player = state.turn
    try:
        after = apply(state, first)
        # each capture takes a piece off the board, so the series ends; the bound is a guard
        while after.follow_up is not None and after.result is None and after.turn == player and len(chain) < 64:
            if conquerable(after, player):
                break
            link = bot(after, rng)
            if not isinstance(link, (Step, Jump, Stop)):
                break
            after = apply(after, link)
            chain.append(link)
    except IllegalMove:
        pass
    return tuple(chain)


def jump_on(state: State, origin: Point, landed: tuple[Point, ...], ranked: Sequence[Any]) -> Jump:
    """The best way on for a piece in the middle of a jump (from ``origin``, landed on ``landed``): the first move of
    ``ranked`` (best first) that ends the jump where this piece can still get to, played along its landings so far;
    ending where it stands if none does (CL-6.2: a jump may end on any landing)."""
    ends = jump_ends(state, origin, landed)
    for move in ranked:
        if isinstance(move, Jump) and move.origin == origin:
            if move.destination in ends:
                return Jump(origin, ends[move.destination])
            if move.destination == landed[-1]:
                return Jump(origin, landed)
    return Jump(origin, landed)


def jump_ends(state: State, origin: Point, landed: tuple[Point, ...] = ()) -> dict[Point, tuple[Point, ...]]:
    """Where the piece jumping from ``origin``, landed on ``landed`` so far, can end its jump by jumping on: each
    point with the whole path to it (``landed``, then the fewest further landings, found in the engine's order), kept
    where the engine would play that jump (CL-6.2, CL-C4, and CL-7.4 for a piece capturing again)."""
    here = landed[-1] if landed else origin
    left = {origin, *landed}  # the piece has left its origin (nothing to jump over) and lands on no point twice
    came_from: dict[Point, Point] = {here: here}
    order: list[Point] = []
    frontier = [here]
    while frontier:
        following = []
        for point in frontier:
            for over, land in state.island.jumps[point]:
                if over == origin or state.at(over) == "." or land in left or land in came_from:
                    continue
                if state.at(land) != ".":
                    continue
                came_from[land] = point
                following.append(land)
        following.sort()
        order.extend(following)
        frontier = following
    paths: dict[Point, tuple[Point, ...]] = {}
    for land in order:  # a landing point comes after the one it was reached from
        paths[land] = paths.get(came_from[land], landed) + (land,)
    return {point: path for point, path in paths.items() if check(state, Jump(origin, path)) is None}


def _jumped(state: State, origin: Point, landed: tuple[Point, ...]) -> State:
    """The position as drawn while a piece is in the middle of a jump: the piece on its last landing."""
    rows = [list(row) for row in state.grid]
    rows[landed[-1][0]][landed[-1][1]] = rows[origin[0]][origin[1]]
    rows[origin[0]][origin[1]] = "."
    return dataclasses.replace(state, grid=tuple("".join(row) for row in rows))


def board_figure(state: State, title: str = "", width: int = 640, marks: Marks = NO_MARKS) -> go.Figure:
    """A static Plotly picture of a position: territories shaded by owner, lattice, pieces and towers, and the marks
    of the moves that led to it."""
    figure = go.Figure()
    _draw(figure, state, title, (width, 900))
    _update(figure, state, [], marks=marks)
    return figure


def _ring(symbol: str, size: float, colour: str, width: float) -> dict[str, Any]:
    """An open marker, stroked in ``colour`` (an open symbol takes the marker's colour, its width the line's)."""
    return {"symbol": symbol, "size": size, "color": colour, "line": {"width": width, "color": colour}}


# The board's traces in drawing order (_update finds them by name): each one's mode, the attribute its hover shows
# ("" for none: a mark without one lets a click through to the point under it) and its style. _draw gives the first
# three and the coordinates their points, and sizes the points by the island; _update fills in the rest.
TRACES: tuple[tuple[str, str, str, dict[str, Any]], ...] = (
    ("territories", "markers", "text", {"marker": {"symbol": "square", "line": {"width": 0}}}),  # edge to edge
    ("lattice", "lines", "", {"line": {"color": "#9e9e9e", "width": 1}}),
    ("borders", "lines", "", {"line": {"color": "#212121", "width": 3}}),  # between territories; the island's edge
    ("targets", "markers", "text", {"marker": _ring("circle-open", 0, TARGET, 4)}),
    ("pieces", "markers+text", "hovertext", {"textfont": {"size": 14}}),  # the rook on a tower; a piece has none
    ("territory letters", "text", "", {"textfont": {"color": "#212121", "size": 13}}),
    ("coordinates", "text", "", {"textfont": {"color": "#616161", "size": 12}}),  # column letters, row numbers
    # the last move(s): the paths of its steps and jumps, the ghosts of what it took off, rings where it put a piece
    ("last move", "lines", "", {"line": {"color": LAST, "width": 3, "dash": "dot"}}),
    ("taken off", "markers", "", {"opacity": 0.35}),
    ("arrived", "markers", "", {"marker": _ring("circle-open", 33, LAST, 2.5)}),
    # the move Hint suggests: its path, dashed, and stars on the points it names (from, to; a piece, tower or removal)
    ("suggested move", "lines", "", {"line": {"color": HINT, "width": 4, "dash": "dash"}}),
    ("suggested points", "markers", "", {"marker": _ring("star-open", 38, HINT, 3)}),
    # a jump being made, not yet played: from the point it started on through each landing so far
    (
        "jump so far",
        "lines+markers",
        "",
        {"line": {"color": TARGET, "width": 3}, "marker": _ring("circle-open", 12, TARGET, 2)},
    ),
)


def _scatter(name: str, mode: str, hover: str, style: dict[str, Any], data: dict[str, Any]) -> go.Scatter:
    """A trace of :data:`TRACES`, with ``data`` (its points, its sizes) merged into its style; empty without."""
    hovering = {"hovertemplate": f"%{{{hover}}}<extra></extra>"} if hover else {"hoverinfo": "skip"}
    drawn = go.Scatter(x=[], y=[], mode=mode, name=name, showlegend=False, **hovering, **style)
    return drawn.update(data)


def _lines(board: Island) -> tuple[list[float | None], list[float | None]]:
    """The lattice: a line between each two neighbouring points, ``None`` between the lines."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for point in board.points:
        for near in board.neighbours[point]:
            if near > point:
                (x0, y0), (x1, y1) = _xy(point), _xy(near)
                xs += [x0, x1, None]
                ys += [y0, y1, None]
    return xs, ys


def _borders(board: Island) -> tuple[list[float | None], list[float | None]]:
    """The thick lines: each border between two territories once, and the island's edge."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for row, column in board.points:
        here = board.territory[(row, column)]
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            near = (row + dr, column + dc)
            if board.territory.get(near) == here:
                continue
            if board.territory.get(near) is not None and near < (row, column):
                continue  # each border between two territories once
            x, y = float(column) + dc / 2, -float(row) - dr / 2
            if dr == 0:
                xs += [x, x, None]
                ys += [y - 0.5, y + 0.5, None]
            else:
                xs += [x - 0.5, x + 0.5, None]
                ys += [y, y, None]
    return xs, ys


def _draw(figure: go.Figure, state: State, title: str, box: tuple[float, float]) -> None:
    """The parts of the picture that never change in a game; the figure is as large as fits in ``box`` (pixels).

    The territories are squares centred on the points, drawn edge to edge so that the only grid seen is the lattice
    of lines through the points; the thick lines are the borders between territories and the island's edge."""
    board = state.island
    top = 40 if title else MARGIN
    unit = _unit(board, box[0], box[1], top)
    width = round(unit * (board.width + LEFT + RIGHT - 1) + 2 * MARGIN)
    height = round(unit * (board.height + TOP + BOTTOM - 1) + top + MARGIN)
    columns, rows = range(board.width), range(board.height)
    (lines_x, lines_y), (borders_x, borders_y) = _lines(board), _borders(board)
    points = {
        "territories": {
            "x": [_xy(p)[0] for p in board.points],
            "y": [_xy(p)[1] for p in board.points],
            "customdata": [list(p) for p in board.points],
            "marker": {"size": max(6, int(unit) + 1)},
        },
        "lattice": {"x": lines_x, "y": lines_y},
        "borders": {"x": borders_x, "y": borders_y},
        "targets": {"marker": {"size": min(26, unit * 0.7)}},
        "coordinates": {  # column letters along the bottom, row numbers along the left
            "x": [float(c) for c in columns] + [-LABEL_OFFSET] * board.height,
            "y": [-(board.height - 1) - LABEL_OFFSET] * board.width + [-float(r) for r in rows],
            "text": [column_letter(c) for c in columns] + [str(board.height - r) for r in rows],
        },
    }
    figure.add_traces([_scatter(*spec, points.get(spec[0], {})) for spec in TRACES])
    figure.update_layout(
        title=title or None,
        width=width,
        height=height,
        plot_bgcolor="white",
        margin={"l": MARGIN, "r": MARGIN, "t": top, "b": MARGIN},
        clickmode="event",
        dragmode=False,
        xaxis={"visible": False, "range": [-LEFT, board.width - 1 + RIGHT], "fixedrange": True},
        yaxis={
            "visible": False,
            "range": [-(board.height - 1) - BOTTOM, TOP],
            "fixedrange": True,
            "scaleanchor": "x",
        },
    )


def _update(
    figure: go.Figure,
    state: State,
    targets: list[tuple[Point, str]],
    selected: Point | None = None,
    marks: Marks = NO_MARKS,
    hinted: Any = None,
    jump: tuple[Point, ...] = (),
) -> None:
    """Bring the changing traces up to date with ``state``; ``jump`` is a jump being made, not yet played (the point
    it started on, then each landing: ``state`` shows the piece on the last)."""
    board = state.island
    owner_colour = {}
    for letter in board.letters:
        holder = state.tower_owner(letter)
        owner_colour[letter] = None if holder is None else state.colours[holder]
    gone = {
        point: f", a {colour} {'tower' if tower else 'piece'} was taken off here"
        for point, colour, tower in marks.ghosts
    }
    cell_colours, cell_text = [], []
    for point in board.points:
        letter = board.territory[point]
        colour = owner_colour[letter]
        cell_colours.append(TINT[colour] if colour else LAND)
        held = f", held by {colour}" if colour else ""
        cell_text.append(f"{point_name(point, board.height)}, territory {letter}{held}{gone.get(point, '')}")
    pieces = [p for p in board.points if state.at(p) not in (".", "#")]
    symbols, colours, sizes, texts, text_colours, hovers, outlines, widths = [], [], [], [], [], [], [], []
    for point in pieces:
        char = state.at(point)
        colour = state.colours[state.owner(point)]
        tower = char.isupper()
        symbols.append(SYMBOL[colour])
        colours.append(COLOUR_HEX[colour])
        sizes.append(TOWER_SIZE if tower else PIECE_SIZE)
        texts.append(TOWER_MARK if tower else "")
        text_colours.append(TEXT_ON[colour])
        outlines.append(TARGET if point == selected else "black")
        widths.append(5 if tower else 3 if point == selected else 1)
        where = point_name(point, board.height)
        if jump and point == jump[-1]:
            hovers.append(
                f"{colour} piece jumping from {point_name(jump[0], board.height)}, now on {where}: "
                "click it to end the jump here"
            )
        else:
            hovers.append(f"{colour} {'tower' if tower else 'piece'} on {where}, territory {board.territory[point]}")
    label_x, label_y, label_text = [], [], []
    for letter in board.territories:
        x, y = _letter_spot(board, letter)
        label_x.append(x)
        label_y.append(y)
        # a held territory's letter carries its owner's shape, so ownership reads without the tint's hue
        colour = owner_colour[letter]
        label_text.append(f"{letter}{GLYPH[colour]}" if colour else letter)
    path_x: list[float | None] = []
    path_y: list[float | None] = []
    for path in marks.paths:
        path_x += [_xy(p)[0] for p in path] + [None]
        path_y += [_xy(p)[1] for p in path] + [None]
    # the traces by name (their order is the drawing order, which no update changes); a point's id is its customdata
    trace(figure, "territories").update(marker={"color": cell_colours}, text=cell_text)
    # a move that captures is ringed with a diamond, so it stands out without colour
    trace(figure, "targets").update(
        x=[_xy(p)[0] for p, _ in targets],
        y=[_xy(p)[1] for p, _ in targets],
        customdata=[list(p) for p, _ in targets],
        text=[text for _, text in targets],
        marker={"symbol": ["diamond-open" if "captures" in text else "circle-open" for _, text in targets]},
    )
    trace(figure, "pieces").update(
        x=[_xy(p)[0] for p in pieces],
        y=[_xy(p)[1] for p in pieces],
        customdata=[list(p) for p in pieces],
        text=texts,
        textfont={"color": text_colours},
        hovertext=hovers,
        marker={
            "symbol": symbols,
            "color": colours,
            "size": sizes,
            "opacity": 1,
            "line": {"color": outlines, "width": widths},
        },
    )
    trace(figure, "territory letters").update(x=label_x, y=label_y, text=label_text)
    trace(figure, "last move").update(x=path_x, y=path_y)
    trace(figure, "taken off").update(
        x=[_xy(p)[0] for p, _, _ in marks.ghosts],
        y=[_xy(p)[1] for p, _, _ in marks.ghosts],
        marker={
            "symbol": [SYMBOL[colour] for _, colour, _ in marks.ghosts],
            "color": [COLOUR_HEX[colour] for _, colour, _ in marks.ghosts],
            "size": [TOWER_SIZE if tower else PIECE_SIZE for _, _, tower in marks.ghosts],
            "line": {"color": "black", "width": 1},
        },
    )
    trace(figure, "arrived").update(x=[_xy(p)[0] for p in marks.rings], y=[_xy(p)[1] for p in marks.rings])
    hint_path, hint_points = hint_marks(hinted)
    trace(figure, "suggested move").update(x=[_xy(p)[0] for p in hint_path], y=[_xy(p)[1] for p in hint_path])
    trace(figure, "suggested points").update(x=[_xy(p)[0] for p in hint_points], y=[_xy(p)[1] for p in hint_points])
    started = list(jump[:-1])  # the piece itself stands on the last landing: its marker is not covered
    trace(figure, "jump so far").update(
        x=[_xy(p)[0] for p in jump],
        y=[_xy(p)[1] for p in jump],
        marker={"size": [12 if index < len(started) else 0 for index in range(len(jump))]},
    )


def _letter_spot(board: Island, letter: str) -> tuple[float, float]:
    """Where a territory's letter goes (figure coordinates): the middle of a square of four of its points, the one
    nearest its centre, where no piece, ring, star, lattice line or border can be; a territory with no such square
    has its letter a quarter step off its centre."""
    points = board.territories[letter]
    row = sum(p[0] for p in points) / len(points)
    column = sum(p[1] for p in points) / len(points)
    own = set(points)
    squares = [(r + 0.5, c + 0.5) for r, c in points if {(r + 1, c), (r, c + 1), (r + 1, c + 1)} <= own]
    if not squares:
        return column + 0.32, -row + 0.32
    middle_row, middle_column = min(squares, key=lambda spot: ((spot[0] - row) ** 2 + (spot[1] - column) ** 2, spot))
    return middle_column, -middle_row


class Board(Table):
    """A playable Claim table: the board, a move list, Stop/Pass/Undo and computer players
    (``computer={seat: name}`` with names from ``bots.BOTS``).  The figure sits left of a column of controls, the
    whole within 880 x 680 pixels; the move log opens below the controls."""

    def __init__(self, state: State, *, seed: int = 0, computer: Any = ()) -> None:
        super().__init__(state, seed=seed, computer=computer)
        self.selected: Point | None = None
        # a jump being made with the selected piece, not yet played: its landing points so far, the landings after
        # each click (Undo takes the last click back), and the position they were clicked in
        self.landings: tuple[Point, ...] = ()
        self._landing_clicks: list[tuple[Point, ...]] = []
        self._landed_in: State | None = None
        # the whole turn the last Hint means (its first move is ``hinted``): a series of captures is played whole
        self._hint_chain: tuple[Any, ...] = ()
        height = state.island.height
        drawing = go.Figure()
        _draw(drawing, state, "", FIGURE_BOX)
        self.figure = BoardView(drawing)
        for name in CLICKABLE:
            self.figure.on_click(name, self._on_click)
        self.figure.on_stale(self._on_stale)
        self.figure.on_cancel(self.cancel_choice)  # Escape on the board
        narrow = {"description_width": "3.2em"}
        points = sorted(state.island.points, key=lambda point: (point[1], -point[0]))
        self.point_picker = widgets.Dropdown(
            description="Point",
            options=[(point_name(p, height), p) for p in points],
            style=narrow,
            layout=widgets.Layout(width="150px"),
        )
        self.pick_button = widgets.Button(
            description="Pick point", tooltip="The same as clicking this point", layout=widgets.Layout(width="100px")
        )
        self.pick_button.on_click(lambda _: self.click_point(self.point_picker.value))
        self.move_list = widgets.Dropdown(
            description="Move", options=[], style=narrow, layout=widgets.Layout(width="270px")
        )
        self.play_button = widgets.Button(
            description="Play move", button_style="primary", layout=widgets.Layout(width="100px")
        )
        self.play_button.on_click(lambda _: self._play_listed())
        self.stop_button = widgets.Button(
            description="Stop",
            tooltip="End the series of captures, or go on without a tower",
            layout=_button(70),
        )
        self.stop_button.on_click(lambda _: self.stop())
        self.pass_button = widgets.Button(
            description="Pass", tooltip="Only when none of your pieces can move (CL-C10)", layout=_button(70)
        )
        self.pass_button.on_click(lambda _: self.play(Pass()))
        self.undo_button.layout = _button(80)
        self.computer_button = widgets.Button(
            description="Computer move", tooltip="Let the computer play one move for you", layout=_button(125)
        )
        self.computer_button.on_click(lambda _: self.computer_move())
        self.score_view = widgets.HTML()  # the players panel: each side's pieces, towers and territories
        self.score_view.add_class("rulebook-players")
        self.status.layout.width = "100%"
        # room for five lines (the prompt, and a move told with the computer's reply): a longer or shorter text from
        # one move to the next leaves the players panel and the controls under it where they were
        self.status.layout.min_height = f"{STATUS_LINES * 20}px"
        # the shared previous/next/slider bar over the game's history sits above the log it replays
        self.history_bar.layout.flex_flow = "row wrap"  # the controls column is narrower than the bar: it wraps
        log = widgets.VBox([self.history_bar, self.move_log])
        self.log_panel = widgets.Accordion(children=[log], titles=("Moves played",), selected_index=None)
        controls = widgets.VBox(
            [
                self.status,
                self.score_view,
                widgets.HBox([self.move_list, self.play_button]),
                widgets.HBox([self.point_picker, self.pick_button]),
                widgets.HBox([self.stop_button, self.pass_button, self.undo_button, self.computer_button]),
                self.log_panel,
            ],
            layout=widgets.Layout(width=f"{CONTROLS_WIDTH}px", min_width=f"{CONTROLS_WIDTH}px", margin="0 0 0 10px"),
        ).add_class("rulebook-controls")  # the board's parts by name: style.css reflows them on a narrow page
        main = widgets.HBox([self.figure, controls], layout=widgets.Layout(align_items="flex-start"))
        self.children = (main.add_class("rulebook-main"),)
        self.start()

    # -- input -------------------------------------------------------------------------------------------
    def _on_click(self, point_id: Any) -> None:
        """A click on a point of the territories, the rings or the pieces: the id is the point's ``[row, column]``,
        one the trace holds as drawn now (the BoardView checks it)."""
        self.click_point((int(point_id[0]), int(point_id[1])))

    def cancel_choice(self) -> None:
        """Escape on the board: let go of the selected piece (as a second click on it does), and of a jump being
        made with it, nothing played."""
        if self.selected is not None and self.selected != self.state.follow_up:
            self._drop_jump()
            self.selected = None
            self.message, self.message_kind = "", "info"
            self.redraw()

    def _on_stale(self, _trace: str, _point: Any, _revision: int) -> None:
        """A click on a ring or a piece that has gone since the page drew it (a computer move, an Undo)."""
        self.message = "The board changed before that click arrived: nothing was played, click again."
        self.message_kind = "error"
        self.redraw()

    def click_point(self, point: Point | None) -> None:
        """What a click on ``point`` does: select a piece, move it, place, remove or put a tower there. Anything
        but a (row, column) pair of whole numbers naming a point of the island is refused in the status line."""
        state = self.state
        if point is None:
            return
        if self.shown_only:  # a position to look at (an exercise before its answer): the status line says so
            self.redraw()
            return
        if (
            not isinstance(point, (tuple, list))
            or len(point) != 2
            or not all(isinstance(part, int) and not isinstance(part, bool) for part in point)
        ):
            self.message = f"Not a point: {quote(point)} (a point is a row and a column, two whole numbers)"
            self.message_kind = "error"
            self.redraw()
            return
        point = (point[0], point[1])
        if point not in state.island.points:
            where = f"Row {quote(point[0], 12)}, column {quote(point[1], 12)}"  # not "(r, c)": that reads as a name
            self.message, self.message_kind = f"{where} is not a point of the island (CL-4.2)", "error"
            self.redraw()
            return
        if self.replaying:
            self.view = None  # as the shared move controls do: a click during a replay returns to the game
            self.message = "Back to the game: you were looking at an earlier move."
            self.message_kind = "error"
            self.redraw()
            return
        if not self.finished and state.turn in self.bots:
            self.message = f"{self.describe_player(state.turn)} is a computer player: it is not your move."
            self.message_kind = "error"
            self.redraw()
            return
        if self.finished:
            self.play(Stop())  # refused by Table.play, which says that the game is over
            return
        if state.phase == "placement":
            self.play(Place(point))
            return
        if state.phase == "removal":
            self.play(Remove(point))
            return
        if self.selected is not None and self.jumping and self._click_while_jumping(point):
            return
        if self.selected is not None:
            if point == self.selected:
                self.selected = None  # a second click on the selected piece lets it go
                self.message, self.message_kind = "", "info"
                self.redraw()
                return
            move = self._ends().get(point)
            if move is not None:
                self._land(move)
                return
            territory = state.island.territory.get(point)
            far = point not in state.island.neighbours[self.selected]  # no step of the piece in hand goes there
            if far and state.at(point) == "." and territory in conquerable(state, state.turn):
                self.selected = None  # a ringed point of a conquered territory, beyond the piece: its tower
                self.play(PlaceTower(territory, point))
                return
            if state.at(point) == ".":
                self.play(Step(self.selected, point))  # refused with the rule that forbids it
                return
        name = self.point_name(point)
        if state.phase == "towers" and state.owner(point) == state.turn:
            self.message = "No piece moves before the battle: put your towers first, or press Stop (CL-5.2)"
            self.message_kind = "error"
            self.redraw()
            return
        if state.owner(point) == state.turn and not state.is_tower(point):
            self.selected = point
            moves = self._moves_of(point)
            if moves:
                taking = [
                    f"{self.point_name(m.destination)} takes {len(captures_of(state, m))}"
                    for m in moves
                    if captures_of(state, m)
                ]
                captures = f"; captures: {', '.join(taking)}" if taking else "; none of them captures"
                count = "1 move" if len(moves) == 1 else f"{len(moves)} moves"
                self.message, self.message_kind = f"{count} for the piece on {name}{captures}", "info"
            elif state.follow_up is not None and point != state.follow_up:
                self.message = f"Only the piece on {self.point_name(state.follow_up)} may capture again (CL-7.4)"
                self.message_kind = "error"
            else:
                self.message, self.message_kind = f"The piece on {name} cannot move", "error"
            self.redraw()
            return
        territory = state.island.territory.get(point)
        if territory is not None and state.at(point) == "." and territory in conquerable(state, state.turn):
            self.selected = None
            self.play(PlaceTower(territory, point))
            return
        if state.at(point) == ".":
            self.message = f"{name} is empty: click one of your pieces first"
        else:
            self.message = f"The {'tower' if state.is_tower(point) else 'piece'} on {name} is not one you can move"
        self.message_kind = "error"
        self.redraw()

    def _moves_of(self, origin: Point) -> list[Step | Jump]:
        return [m for m in legal_moves(self.state) if isinstance(m, (Step, Jump)) and m.origin == origin]

    # -- a jump made landing by landing ------------------------------------------------------------------
    @property
    def jumping(self) -> bool:
        """Whether the selected piece is in the middle of a jump (landed on ``landings``, nothing played yet)."""
        return bool(self.landings) and self.selected is not None and self._landed_in is self.state

    def _ends(self) -> dict[Point, Step | Jump]:
        """Where the selected piece may go now, with the move that takes it there: its steps and jumps, or in the
        middle of a jump the points it may jump on to."""
        if self.selected is None:
            return {}
        if self.jumping:
            ends = jump_ends(self.state, self.selected, self.landings)
            return {point: Jump(self.selected, path) for point, path in ends.items()}
        return {move.destination: move for move in self._moves_of(self.selected)}

    def _land(self, move: Step | Jump) -> None:
        """A click on a ring: a jump that may go on stops there with the piece in hand (unless it ends where the hint
        does: the hint is played whole), anything else is played."""
        if isinstance(move, Jump) and jump_ends(self.state, move.origin, move.path) and not self._follows_hint(move):
            self.landings = move.path
            self._landing_clicks.append(move.path)
            self._landed_in = self.state
            self.message, self.message_kind = "", "info"  # the prompt says where the piece is and what to do
            self.redraw()
            return
        self._play_move(move)

    def _play_move(self, move: Any) -> None:
        rest = self._hint_chain[1:] if self._follows_hint(move) else ()
        self._drop_jump()
        self.selected = None
        player = self.live.turn
        played = self.play(move)
        for link in rest:  # the hint's series of captures, to its end, as the computer would play it
            if not played or self.live.turn != player or self.live.follow_up is None or self.finished:
                break
            played = self.play(link)
        if played and self.state.follow_up is not None:
            self.selected = self.state.follow_up  # the capturing piece stays in hand (CL-7.4)
            self.redraw()

    def _follows_hint(self, move: Any) -> bool:
        """Whether ``move`` is the hint's first move: the same one, or a jump (or step) of the same piece to the same
        point, which captures the same (CL-7.1: what a landing takes depends on where the piece lands)."""
        first = self._hint_chain[0] if self._hint_chain and not self.replaying else None
        if first is None or first != self.hinted:
            return False  # no hint, or the hint is gone (a move, an Undo)
        if isinstance(first, (Step, Jump)) and isinstance(move, (Step, Jump)):
            return (first.origin, first.destination) == (move.origin, move.destination)
        return bool(first == move)

    def hint(self) -> Any:
        """Tell and mark what the best computer player suggests, never played: its move and, while the piece that
        captured may go on, the rest of its series of captures to the Stop (CL-7.4). Asked in the middle
        of a jump, the hint goes on from where the piece stands."""
        origin, landed = self.selected, (self.landings if self.jumping else ())
        first = super().hint()
        self._hint_chain = ()
        if first is None:
            return None
        state, entry = self.live, self.session.entry
        said, _, _ = self.message.partition(": ")  # "Hint (strong computer player)"
        bot = entry.bots()[entry.strongest()]
        rng = random.Random(f"hint chain {self.seed} {len(self.states)}")
        if landed and origin is not None:
            first = jump_on(state, origin, landed, [move for _, move in claim_bots.search(state)])
            self.hinted = first
        chain = hint_chain(state, first, bot, rng)
        self._hint_chain = chain
        if landed or len(chain) > 1:
            words = "; then ".join(self.move_text(link) for link in chain)
            reason = entry.explanation(state, first)
            where = f"the piece on {self.point_name(landed[-1])} jumps on: " if landed else ""
            self.message = f"{said}: {where}{words}" + (f". {reason}" if reason else "")
        self.redraw()
        return first

    def _drop_jump(self) -> None:
        self.landings, self._landing_clicks, self._landed_in = (), [], None

    def end_jump(self) -> None:
        """Play the jump being made, ending where the piece has landed (a click on the piece, or Stop)."""
        if self.jumping and self.selected is not None:
            self._play_move(Jump(self.selected, self.landings))

    def _click_while_jumping(self, point: Point) -> bool:
        """A click in the middle of a jump; False lets the click go on as a click with no piece in hand (on
        another of the player's pieces, which is taken up instead)."""
        assert self.selected is not None
        origin, here = self.selected, self.landings[-1]
        if point == here:
            self.end_jump()
            return True
        move = self._ends().get(point)
        if move is not None:
            self._land(move)
            return True
        if point == origin:
            self._drop_jump()
            self.message = f"The piece is back on {self.point_name(origin)}: nothing was played."
            self.message_kind = "info"
            self.redraw()
            return True
        if self.state.owner(point) == self.state.turn and not self.state.is_tower(point):
            self._drop_jump()
            self.selected = None
            return False
        self.message = (
            f"The piece from {self.point_name(origin)} is on {self.point_name(here)}, in the middle of its jump: "
            f"click a ringed point to jump on, the piece to end the jump there, or {self.point_name(origin)} to take "
            "it back"
        )
        self.message_kind = "error"
        self.redraw()
        return True

    def stop(self) -> None:
        """The Stop button: end the jump being made where the piece stands; else end the series of captures, or
        go on without a tower."""
        if self.jumping:
            self.end_jump()
        else:
            self.play(Stop())

    def _play_listed(self) -> None:
        move = self.move_list.value
        if move is not None:
            self._drop_jump()
            self.selected = None
            self.play(move)

    def computer_move(self) -> None:
        """The greedy computer player makes one move for whoever is to move."""
        if self.live.result is None:
            self._drop_jump()
            self.selected = None
            self.play(claim_bots.greedy_bot(self.live, self.rng))

    def undo(self) -> None:
        """Take back the last landing of a jump being made; else the last move (Table.undo)."""
        if self.jumping and not self.shown_only:
            self._landing_clicks.pop()
            self.landings = self._landing_clicks[-1] if self._landing_clicks else ()
            where = self.point_name(self.landings[-1] if self.landings else self.selected)  # type: ignore[arg-type]
            self.message = (
                f"Took back the last landing: the piece is on {where}."
                if self.landings
                else f"The piece is back on {where}: nothing was played."
            )
            self.message_kind = "info"
            self.redraw()
            return
        self._drop_jump()
        self.selected = None
        super().undo()

    # -- words -----------------------------------------------------------------------------------------------
    def point_name(self, point: Point) -> str:
        """A point as the board's edges label it (column letter, row number from the bottom)."""
        return point_name(point, self.state.island.height)

    def move_text(self, move: Any) -> str:
        """A move in the words the board uses (its points named as on the board's edges)."""
        return in_board_names(str(move), self.state.island.height)

    def describe_player(self, player: int | None) -> str:
        return "Nobody" if player is None else self.state.colours[player].capitalize()

    def _whose_turn(self, player: int) -> str:
        """Whose turn it is, said to the person at the screen."""
        colour = self.describe_player(player)
        if player in self.bots:
            return f"{self.seat_label(player, colour)} to move"
        if self.bots:
            return "Your turn"  # the status line has just said which colour "you" play
        return f"{colour} to move"  # everyone at one screen: name the colour, not "you"

    def you_text(self) -> str:
        """Who the person at the screen plays, with their partner in a four-player game ("You play Red (partner:
        Green)"); otherwise the shared wording ("People play Red and Blue")."""
        people = [seat for seat in range(self.live.players) if seat not in self.bots]
        if len(people) != 1:
            return super().you_text()
        partners = [p for p in self.state.team(people[0]) if p != people[0]]
        return f"You play {self.describe_player(people[0])}" + "".join(
            f" (partner: {self.describe_player(p)})" for p in partners
        )

    def prompt(self) -> str:
        """Whose turn it is and what to do now; a move that is the only one left is named by its button."""
        state = self.state
        if state.result is not None:
            return f"Game over: {self.result_text()}"
        who = self._whose_turn(state.turn)
        if state.turn in self.bots:
            return f"{who}."
        if state.phase == "placement":
            left = 2 - len(state.pieces(state.turn)) % 2
            pieces = "1 more piece" if left == 1 else f"{left} more pieces"
            return f"{who}: place {pieces} this turn: click free points."
        if state.phase == "removal":
            left = state.removals_left[state.turn]
            pieces = "1 more enemy piece" if left == 1 else f"{left} more enemy pieces"
            return f"{who}: remove {pieces}: click a ringed piece."
        moves = legal_moves(state)
        if state.phase == "towers":
            towers = conquerable(state, state.turn)
            where = f"territory {towers[0]}" if len(towers) == 1 else f"territories {', '.join(towers)}"
            return (
                f"{who}: before the battle, put a tower in {where}, held alone after the removals: click one of its "
                "ringed points, or press Stop to go without."
            )
        if moves == (Pass(),):
            return f"{who}: none of your pieces can move: press Pass."
        if self.jumping and self.selected is not None:
            here = self.point_name(self.landings[-1])
            taken = captures_of(state, Jump(self.selected, self.landings))
            ending = f" (it captures {len(taken)} there)" if taken else ""
            return (
                f"{who}: jumping from {self.point_name(self.selected)}, on {here} now: click a ringed point to jump "
                f"on, or click the piece or press Stop to end the jump on {here}{ending}."
            )
        towers = conquerable(state, state.turn)
        tower_text = ""
        if towers:
            where = f"territory {towers[0]}" if len(towers) == 1 else f"territories {', '.join(towers)}"
            tower_text = f" You may put a tower in {where}: click one of its ringed points."
        if state.follow_up is not None:
            here = self.point_name(state.follow_up)
            if not any(isinstance(move, (Step, Jump)) for move in moves):
                return f"{who}: press Stop to end your turn.{tower_text}"
            click = "click a ringed point" if self.selected == state.follow_up else "click it, then a ringed point"
            return f"{who}: the piece on {here} may capture again: {click}, or press Stop.{tower_text}"
        return f"{who}: click one of your pieces, then a ringed point.{tower_text}"

    def result_text(self) -> str:
        """Who won and why, with every player's towers."""
        result = self.game.outcome(self.state)
        if result is None:
            return ""
        names = [self.describe_player(p) for p in result.winners]
        winners = "Nobody wins" if not names else " and ".join(names) + (" wins" if len(names) == 1 else " win")
        towers = ", ".join(f"{self.describe_player(p)} {count}" for p, count in enumerate(result.scores or ()))
        return f"{winners} ({result.reason.replace('+', ' and ')}). Towers: {towers}."

    def redraw(self) -> None:
        # the engine's texts (moves, refusals) write points as (row, column): shown with the board's names
        self.message = in_board_names(self.message, self.state.island.height)
        super().redraw()

    # -- drawing -------------------------------------------------------------------------------------------
    def _targets(self) -> list[tuple[Point, str]]:
        """The ringed points and their hover texts: with no piece selected, the free points of conquered
        territories (a click there puts a tower on it)."""
        state = self.state
        if state.result is not None or state.phase == "placement":
            return []
        if state.phase == "removal":
            return [(m.point, self.move_text(m)) for m in legal_moves(state) if isinstance(m, Remove)]
        targets = []
        if self.selected is not None:
            for move in self._ends().values():
                captured = captures_of(state, move)
                kind = "jump on" if self.jumping else "jump" if isinstance(move, Jump) else "step"
                text = f"{kind} to {self.point_name(move.destination)}"
                if captured:
                    text += f": captures {len(captured)} ({', '.join(self.point_name(p) for p in captured)})"
                targets.append((move.destination, text))
            return targets
        for territory in conquerable(state, state.turn):
            for point in state.island.territories[territory]:
                if state.at(point) == ".":
                    targets.append((point, f"tower on {self.point_name(point)} in territory {territory}"))
        return targets

    def players_html(self) -> str:
        """The players panel: for each player the pieces on the board, the towers and the territories they hold,
        the player to move marked; with four players partners share a row of their side's towers (CL-10.1)."""
        state = self.state
        people = [seat for seat in range(state.players) if seat not in self.bots]
        to_move = state.player  # None once the game is over
        sides = []
        for side in teams_of(state.players):
            players = []
            for seat in side:
                colour = state.colours[seat]
                held = sorted(state.island.territory[point] for point in state.towers(seat))
                who = "computer" if seat in self.bots else "you" if len(people) == 1 else ""
                players.append(
                    {
                        "colour": colour,
                        "glyph": GLYPH[colour],
                        "name": self.describe_player(seat),
                        "who": who,
                        "pieces": len(state.pieces(seat)),
                        "towers": len(state.towers(seat)),
                        "territories": ", ".join(held),
                        "to_move": seat == to_move,
                    }
                )
            towers = sum(player["towers"] for player in players)
            name = " + ".join(str(player["name"]) for player in players) if len(side) > 1 else ""
            sides.append({"name": name, "towers": towers, "players": players})
        target = tower_target(state.players)
        goal = f"{target} towers between partners win." if state.players == 4 else f"{target} towers win."
        if state.result is None:
            goal += " \u25b6 marks the player to move."
        return markup.render("players.html", package=__package__, sides=sides, target=target, goal=goal)

    def draw(self) -> None:
        state = self.state
        if self.selected is not None and (state.owner(self.selected) != state.player or self.replaying):
            self.selected = None
        if self.landings and not self.jumping:
            self._drop_jump()  # the position changed (a move, an Undo, a replay) before the jump was played
        hinted = None if self.replaying else self.hinted  # Hint is for the game as it stands, not for a replay
        if hinted is not None and self._hint_chain and self._hint_chain[0] == hinted:
            hinted = self._hint_chain
        targets = [] if self.replaying else self._targets()
        if self.jumping and self.selected is not None:
            shown, jump = _jumped(state, self.selected, self.landings), (self.selected, *self.landings)
            first = hinted[0] if isinstance(hinted, tuple) else hinted
            if isinstance(first, Jump) and first.origin == self.selected and first.path[: len(jump) - 1] == jump[1:]:
                # the hint goes on from where the piece stands: its marks start there
                hinted = (Jump(jump[-1], first.path[len(jump) - 1 :]) if first.path != jump[1:] else Stop(),)
                hinted += self._hint_chain[1:]
            marks = marks_of(self.steps_shown(), shown)
            _update(self.figure.plot, shown, targets, jump[-1], marks, hinted, jump)
        else:
            marks = marks_of(self.steps_shown(), state)
            _update(self.figure.plot, state, targets, self.selected, marks, hinted)
        self.figure.draw()
        moves = () if self.replaying else legal_moves(state)  # as the other boards: no move listed while replaying
        self.move_list.options = [(self.move_text(move), move) for move in moves]
        self.move_list.index = 0 if moves else None
        self.stop_button.disabled = Stop() not in moves and not self.jumping
        self.stop_button.tooltip = (
            "End the jump where the piece stands"
            if self.jumping
            else "End the series of captures, or go on without a tower"
        )
        self.pass_button.disabled = Pass() not in moves
        self.computer_button.disabled = state.result is not None
        self.score_view.value = self.players_html()
        self.move_log.value = self.history_html()


def _button(width: int) -> widgets.Layout:
    return widgets.Layout(width=f"{width}px")


def figure_pair(number: str | int, width: int = 860) -> go.Figure:
    """A figure of the rules drawn twice, side by side: the position before its moves, with their paths dotted, and
    the position after them, with the paths, the rings where pieces arrived and the ghosts of what was captured.
    The caption is the notebook's, beside the picture; the picture carries no caption of its own."""
    from plotly.subplots import make_subplots

    shown = rules_figure(number)
    before = from_diagram(shown.before)
    steps = []
    state = before
    for index, move in enumerate(shown.moves, start=1):
        following = apply(state, move)
        steps.append((index, state.turn, move, state, following))
        state = following
    after = state
    planned = Marks(marks_of(steps, after).paths, [], [])
    pair = make_subplots(rows=1, cols=2, subplot_titles=("before", "after"), horizontal_spacing=0.06)
    for column, position, marks in ((1, before, planned), (2, after, marks_of(steps, after))):
        single = board_figure(position, width=width // 2, marks=marks)
        for drawn in single.data:
            pair.add_trace(drawn, row=1, col=column)
        pair.update_xaxes(single.layout.xaxis, row=1, col=column)
        pair.update_yaxes(single.layout.yaxis, row=1, col=column)
    pair.update_yaxes(scaleanchor="x", row=1, col=1)
    pair.update_yaxes(scaleanchor="x2", row=1, col=2)
    pair.update_layout(
        width=width,
        height=max(300, single.layout.height - 2 * MARGIN + 50),
        plot_bgcolor="white",
        showlegend=False,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
    )
    pair.update_annotations(font_size=13)
    return pair


def __getattr__(name: str) -> object:
    """``widget.Explorer`` still names the game's explorer, imported when first asked for (a board needs none)."""
    if name == "Explorer":
        from .explorer import Explorer

        return Explorer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
