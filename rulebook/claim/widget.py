"""The live Claim board: click a piece, then a highlighted point; placement, removal and towers on the same board.

Everything the figure's clicks do can also be done with the controls (a point picker and a move list),
which is how the tests drive the widget without a browser.  Points are named as players name them: a column letter
and a row number counted from the bottom ("C5"), drawn along the figure's edges; the engine's own texts, which
write points as (row, column), are put into those names before the page shows them.
"""

from __future__ import annotations

import html
import re
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from ..ui import BoardFigure, Table
from . import bots as claim_bots
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
    captures_of,
    conquerable,
    legal_moves,
    teams_of,
    tower_target,
)

COLOUR_HEX = {"red": "#c62828", "blue": "#1565c0", "yellow": "#f9a825", "green": "#2e7d32"}
TINT = {
    "red": "rgba(198,40,40,0.22)",
    "blue": "rgba(21,101,192,0.22)",
    "yellow": "rgba(249,168,37,0.30)",
    "green": "rgba(46,125,50,0.22)",
}
# a shape per colour as well as a hue, so the board reads without colour vision and in grey-scale
SYMBOL = {"red": "circle", "blue": "square", "yellow": "diamond", "green": "hexagon"}
GLYPH = {"red": "\u25cf", "blue": "\u25a0", "yellow": "\u25c6", "green": "\u2b22"}  # the same shapes in text
GREYS = ("#f4f4f4", "#e2e2e2", "#ececec", "#d8d8d8", "#f0f0f0", "#dedede", "#e8e8e8", "#d4d4d4", "#f7f7f7")

# The live board's figure fits in this box (pixels, wide x high), beside a controls column of CONTROLS_WIDTH: together
# they fit the 880 x 680 the app gives a board.  The island's rows and columns decide the size inside the box.
FIGURE_BOX = (470, 640)
CONTROLS_WIDTH = 390
MARGIN = 4
# the plotted area around the points (in lattice units): half a point beyond the edge, plus the coordinate labels
LEFT, RIGHT, TOP, BOTTOM = 1.35, 0.6, 0.6, 1.35
LABEL_OFFSET = 0.95

_POINT = r"\((-?\d+), (-?\d+)\)"
_MOVEMENT = re.compile(rf"\b(step|jump) ({_POINT})((?: -> {_POINT})+)")


def column_letter(column: int) -> str:
    return chr(ord("A") + column)


def point_name(point: Point, height: int) -> str:
    """A point as players name it: column letter, then row number from the bottom (the top-left of 11 rows is A11)."""
    row, column = point
    return f"{column_letter(column)}{height - row}"


def readable(text: str, height: int) -> str:
    """An engine text with its points as players name them: on an island of 11 rows, ``step (2, 1) -> (2, 2)``
    reads ``step from B9 to C9``."""

    def name(match: re.Match[str]) -> str:
        return point_name((int(match.group(1)), int(match.group(2))), height)

    def movement(match: re.Match[str]) -> str:
        points = [name(found) for found in re.finditer(_POINT, match.group(0))]
        return f"{match.group(1)} from {points[0]} to " + ", then to ".join(points[1:])

    text = _MOVEMENT.sub(movement, text)
    text = re.sub(_POINT, name, text)
    text = text.replace(" -> ", " to ")
    return re.sub(r"(Refused by [A-Z]+-[\w.]+: )Claim: ", r"\1", text)


def _xy(point: Point) -> tuple[float, float]:
    return float(point[1]), float(-point[0])


def _unit(board: Island, width: float, height: float, top: float) -> float:
    """Pixels per lattice step for the whole island, with its labels, to fit in ``width`` x ``height``."""
    return min(
        (width - 2 * MARGIN) / (board.width + LEFT + RIGHT - 1),
        (height - top - MARGIN) / (board.height + TOP + BOTTOM - 1),
    )


def board_figure(state: State, title: str = "", width: int = 640) -> go.Figure:
    """A static Plotly picture of a position: territories shaded by owner, lattice, pieces and towers."""
    figure = go.Figure()
    _draw(figure, state, title, (width, 900))
    _update(figure, state, [])
    return figure


def _draw(figure: go.Figure, state: State, title: str, box: tuple[float, float]) -> None:
    """The parts of the picture that never change in a game; the figure is as large as fits in ``box`` (pixels)."""
    board = state.island
    points = board.points
    lines_x: list[float | None] = []
    lines_y: list[float | None] = []
    for point in points:
        for near in board.neighbours[point]:
            if near > point:
                (x0, y0), (x1, y1) = _xy(point), _xy(near)
                lines_x += [x0, x1, None]
                lines_y += [y0, y1, None]
    borders_x: list[float | None] = []
    borders_y: list[float | None] = []
    for row, column in points:
        here = board.territory[(row, column)]
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            near = (row + dr, column + dc)
            if board.territory.get(near) == here:
                continue
            if board.territory.get(near) is not None and near < (row, column):
                continue  # each border between two territories once
            x, y = float(column) + dc / 2, -float(row) - dr / 2
            if dr == 0:
                borders_x += [x, x, None]
                borders_y += [y - 0.5, y + 0.5, None]
            else:
                borders_x += [x - 0.5, x + 0.5, None]
                borders_y += [y, y, None]
    top = 40 if title else MARGIN
    unit = _unit(board, box[0], box[1], top)
    width = round(unit * (board.width + LEFT + RIGHT - 1) + 2 * MARGIN)
    height = round(unit * (board.height + TOP + BOTTOM - 1) + top + MARGIN)
    xs = [_xy(p)[0] for p in points]
    ys = [_xy(p)[1] for p in points]
    figure.add_trace(
        go.Scatter(  # 0: territory cells
            x=xs,
            y=ys,
            mode="markers",
            name="territories",
            showlegend=False,
            marker={"symbol": "square", "size": max(6, int(unit * 0.96)), "line": {"width": 0}},
            hovertemplate="%{text}<extra></extra>",
        )
    )
    figure.add_trace(
        go.Scatter(  # 1: lattice lines
            x=lines_x,
            y=lines_y,
            mode="lines",
            line={"color": "#9e9e9e", "width": 1},
            hoverinfo="skip",
            showlegend=False,
        )
    )
    figure.add_trace(
        go.Scatter(  # 2: territory borders and the island's edge
            x=borders_x,
            y=borders_y,
            mode="lines",
            line={"color": "#212121", "width": 3},
            hoverinfo="skip",
            showlegend=False,
        )
    )
    figure.add_trace(
        go.Scatter(  # 3: highlighted targets
            x=[],
            y=[],
            mode="markers",
            name="targets",
            showlegend=False,
            marker={"symbol": "circle-open", "size": min(26, unit * 0.7), "line": {"width": 4, "color": "#6a1b9a"}},
            hovertemplate="%{text}<extra></extra>",
        )
    )
    figure.add_trace(
        go.Scatter(  # 4: pieces and towers
            x=[],
            y=[],
            mode="markers+text",
            name="pieces",
            showlegend=False,
            textfont={"color": "white", "size": 12, "family": "Arial Black"},
            hovertemplate="%{hovertext}<extra></extra>",
        )
    )
    figure.add_trace(
        go.Scatter(  # 5: territory letters
            x=[], y=[], mode="text", textfont={"color": "#424242", "size": 11}, hoverinfo="skip", showlegend=False
        )
    )
    columns = range(board.width)
    rows = range(board.height)
    figure.add_trace(
        go.Scatter(  # 6: column letters along the bottom, row numbers along the left
            x=[float(c) for c in columns] + [-LABEL_OFFSET] * board.height,
            y=[-(board.height - 1) - LABEL_OFFSET] * board.width + [-float(r) for r in rows],
            text=[column_letter(c) for c in columns] + [str(board.height - r) for r in rows],
            mode="text",
            textfont={"color": "#616161", "size": 12},
            hoverinfo="skip",
            showlegend=False,
        )
    )
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


def _update(figure: go.Figure, state: State, targets: list[tuple[Point, str]], selected: Point | None = None) -> None:
    board = state.island
    owner_colour = {}
    for letter in board.letters:
        holder = state.tower_owner(letter)
        owner_colour[letter] = None if holder is None else state.colours[holder]
    cell_colours, cell_text = [], []
    for point in board.points:
        letter = board.territory[point]
        colour = owner_colour[letter]
        cell_colours.append(TINT[colour] if colour else GREYS[board.letters.index(letter) % len(GREYS)])
        held = f", held by {colour}" if colour else ""
        cell_text.append(f"{point_name(point, board.height)}, territory {letter}{held}")
    pieces = [p for p in board.points if state.at(p) not in (".", "#")]
    piece_x = [_xy(p)[0] for p in pieces]
    piece_y = [_xy(p)[1] for p in pieces]
    symbols, colours, sizes, texts, hovers, outlines, widths = [], [], [], [], [], [], []
    for point in pieces:
        char = state.at(point)
        colour = state.colours[state.owner(point)]
        tower = char.isupper()
        symbols.append(SYMBOL[colour])
        colours.append(COLOUR_HEX[colour])
        sizes.append(27 if tower else 19)
        texts.append(char)
        outlines.append("#ffd600" if point == selected else "black")
        widths.append(5 if tower or point == selected else 1)
        where = point_name(point, board.height)
        hovers.append(f"{colour} {'tower' if tower else 'piece'} on {where}, territory {board.territory[point]}")
    label_x, label_y, label_text = [], [], []
    for letter, points in board.territories.items():
        row = sum(p[0] for p in points) / len(points)
        column = sum(p[1] for p in points) / len(points)
        label_x.append(column + 0.32)
        label_y.append(-row + 0.32)
        label_text.append(letter)
    # One update per trace: a batch spanning several traces with different keys resets, in the browser, the keys
    # a trace lacks (plotly's FigureWidget), which painted every piece in the default colour.
    figure.data[0].update(marker={"color": cell_colours}, text=cell_text)
    # a move that captures is ringed with a diamond, so it stands out without colour
    figure.data[3].update(
        x=[_xy(p)[0] for p, _ in targets],
        y=[_xy(p)[1] for p, _ in targets],
        text=[text for _, text in targets],
        marker={"symbol": ["diamond-open" if "captures" in text else "circle-open" for _, text in targets]},
    )
    figure.data[4].update(
        x=piece_x,
        y=piece_y,
        text=texts,
        hovertext=hovers,
        marker={"symbol": symbols, "color": colours, "size": sizes, "line": {"color": outlines, "width": widths}},
    )
    figure.data[5].update(x=label_x, y=label_y, text=label_text)


class Board(Table):
    """A playable Claim table: the board, a move list, Stop/Pass/Undo and computer players
    (``computer={seat: name}`` with names from ``bots.BOTS``).  The figure sits left of a column of controls, the
    whole within 880 x 680 pixels; the move log opens below the controls."""

    def __init__(self, state: State, *, seed: int = 0, computer: Any = ()) -> None:
        super().__init__(state, seed=seed, computer=computer)
        self.selected: Point | None = None
        height = state.island.height
        # Drawn as a Figure and wrapped once complete: traces added to a live FigureWidget before its view exists
        # are lost in Voila, while a widget created with its traces renders everywhere.
        drawing = go.Figure()
        _draw(drawing, state, "", FIGURE_BOX)
        self.figure = BoardFigure(drawing)
        for index in (0, 3, 4):
            self.figure.data[index].on_click(self._on_click)
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
            description="Stop", tooltip="End the series of captures, or leave without a tower", layout=_button(70)
        )
        self.stop_button.on_click(lambda _: self.play(Stop()))
        self.pass_button = widgets.Button(
            description="Pass", tooltip="Only when none of your pieces can move (CL-C8)", layout=_button(70)
        )
        self.pass_button.on_click(lambda _: self.play(Pass()))
        self.undo_button.layout = _button(80)
        self.computer_button = widgets.Button(
            description="Computer move", tooltip="Let the computer play one move for you", layout=_button(125)
        )
        self.computer_button.on_click(lambda _: self.computer_move())
        self.score_view = widgets.HTML()
        self.status.layout.width = "100%"
        self.log_panel = widgets.Accordion(children=[self.move_log], titles=("Moves played",), selected_index=None)
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
        )
        self.children = (widgets.HBox([self.figure, controls], layout=widgets.Layout(align_items="flex-start")),)
        self.start()

    # -- input -------------------------------------------------------------------------------------------
    def _on_click(self, trace: Any, points: Any, selector: Any) -> None:
        if not points.point_inds:
            return
        x, y = trace.x[points.point_inds[0]], trace.y[points.point_inds[0]]
        self.click_point((round(-y), round(x)))

    def click_point(self, point: Point | None) -> None:
        """What a click on ``point`` does: select a piece, move it, place, remove or put a tower there."""
        state = self.state
        if point is None:
            return
        point = tuple(point)
        if self.finished:
            self.play(Stop())  # refused by Table.play, which says that the game is over
            return
        if state.phase == "placement":
            self.play(Place(point))
            return
        if state.phase == "removal":
            self.play(Remove(point))
            return
        if self.selected is not None:
            if point == self.selected:
                self.selected = None  # a second click on the selected piece lets it go
                self.message, self.message_kind = "", "info"
                self.redraw()
                return
            for move in self._moves_of(self.selected):
                if move.destination == point:
                    self.selected = None
                    if self.play(move) and self.state.follow_up is not None:
                        self.selected = self.state.follow_up  # the capturing piece stays in hand (CL-7.4)
                        self.redraw()
                    return
            if state.at(point) == ".":
                self.play(Step(self.selected, point))  # refused with the rule that forbids it
                return
        name = self.point_name(point)
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

    def _play_listed(self) -> None:
        move = self.move_list.value
        if move is not None:
            self.selected = None
            self.play(move)

    def computer_move(self) -> None:
        """The greedy computer player makes one move for whoever is to move."""
        if self.state.result is None:
            self.selected = None
            self.play(claim_bots.greedy_bot(self.state, self.rng))

    def undo(self) -> None:
        self.selected = None
        super().undo()

    # -- words -----------------------------------------------------------------------------------------------
    def point_name(self, point: Point) -> str:
        """A point as the board's edges label it (column letter, row number from the bottom)."""
        return point_name(point, self.state.island.height)

    def move_text(self, move: Any) -> str:
        """A move in the words the board uses (its points named as on the board's edges)."""
        return readable(str(move), self.state.island.height)

    def describe_player(self, player: int | None) -> str:
        return "Nobody" if player is None else self.state.colours[player].capitalize()

    def _who(self, player: int) -> str:
        """Who is to move, said to the person at the screen: "You play Red" when a computer plays the other side."""
        colour = self.describe_player(player)
        if not self.bots:
            return f"{colour} to move"  # everyone at one screen: name the colour, not "you"
        if player in self.bots:
            return f"{colour} (computer) to move"
        partners = [p for p in self.state.team(player) if p != player]
        return f"You play {colour}" + "".join(f" (partner: {self.describe_player(p)})" for p in partners)

    def prompt(self) -> str:
        state = self.state
        if state.result is not None:
            return f"Game over: {self.result_text()}"
        who = self._who(state.turn)
        if state.phase == "placement":
            left = 2 - len(state.pieces(state.turn)) % 2
            pieces = "1 more piece" if left == 1 else f"{left} more pieces"
            return f"{who}. Place {pieces} this turn: click free points."
        if state.phase == "removal":
            left = state.removals_left[state.turn]
            pieces = "1 more enemy piece" if left == 1 else f"{left} more enemy pieces"
            return f"{who}. Remove {pieces}: click them."
        towers = conquerable(state, state.turn)
        tower_text = ""
        if towers:
            where = f"territory {towers[0]}" if len(towers) == 1 else f"territories {', '.join(towers)}"
            tower_text = f" You may put a tower in {where}: click one of its ringed points."
        if state.follow_up is not None:
            return f"{who}. The piece on {self.point_name(state.follow_up)} may capture again, or Stop.{tower_text}"
        return f"{who}. Click one of your pieces, then a ringed point.{tower_text}"

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
        self.message = readable(self.message, self.state.island.height)
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
            for move in self._moves_of(self.selected):
                captured = captures_of(state, move)
                kind = "jump" if isinstance(move, Jump) else "step"
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

    def _score_html(self) -> str:
        state = self.state
        sides = []
        for side in teams_of(state.players):
            names = " + ".join(
                f"<span style='color:{COLOUR_HEX[state.colours[p]]}'>{GLYPH[state.colours[p]]}</span> "
                + html.escape(self.describe_player(p))
                for p in side
            )
            towers = sum(len(state.towers(p)) for p in side)
            sides.append(f"<span style='white-space:nowrap'>{names} <b>{towers}</b></span>")  # a side wraps whole
        # alliances (4 players) get a line each; single players share one line
        between = "<br>" if state.players == 4 else " &nbsp;&middot;&nbsp; "
        start = "<br>" if state.players == 4 else " "
        return (
            f"<div style='font-size:13px'>Towers ({tower_target(state.players)} to win):{start}"
            + between.join(sides)
            + "</div>"
        )

    def draw(self) -> None:
        state = self.state
        if self.selected is not None and state.owner(self.selected) != state.player:
            self.selected = None
        _update(self.figure, state, self._targets(), self.selected)
        moves = legal_moves(state)
        self.move_list.options = [(self.move_text(move), move) for move in moves]
        self.move_list.index = 0 if moves else None
        self.stop_button.disabled = Stop() not in moves
        self.pass_button.disabled = Pass() not in moves
        self.computer_button.disabled = state.result is not None
        self.score_view.value = self._score_html()
        self.move_log.value = self.log_html([self.move_text(move) for move in state.history])


def _button(width: int) -> widgets.Layout:
    return widgets.Layout(width=f"{width}px")


def figure_pair(number: str | int, width: int = 860) -> go.Figure:
    """A figure of the rules drawn twice, side by side: the position before and after its moves."""
    from plotly.subplots import make_subplots

    from .diagram import figure, play_figure

    shown = figure(number)
    before, after = play_figure(number)
    board = before.island
    moves = "; ".join(readable(str(move), board.height) for move in shown.moves)
    pair = make_subplots(rows=1, cols=2, subplot_titles=("before", f"after: {moves}"), horizontal_spacing=0.06)
    for column, state in ((1, before), (2, after)):
        single = board_figure(state, width=width // 2)
        for trace in single.data:
            pair.add_trace(trace, row=1, col=column)
        pair.update_xaxes(single.layout.xaxis, row=1, col=column)
        pair.update_yaxes(single.layout.yaxis, row=1, col=column)
    pair.update_yaxes(scaleanchor="x", row=1, col=1)
    pair.update_yaxes(scaleanchor="x2", row=1, col=2)
    pair.update_layout(
        title=shown.caption,
        width=width,
        height=max(300, single.layout.height - 2 * MARGIN + 100),
        plot_bgcolor="white",
        showlegend=False,
        margin={"l": 10, "r": 10, "t": 90, "b": 10},
    )
    pair.update_annotations(font_size=12)
    return pair
