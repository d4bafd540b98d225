"""The live Claim board: click a piece, then a highlighted point; placement, removal and towers on the same board.

Everything the figure's clicks do can also be done with the controls (a point picker and a move list),
which is how the tests drive the widget without a browser.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from ..ui import BoardFigure, Table
from . import bots as claim_bots
from .rules import (
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
GREYS = ("#f4f4f4", "#e2e2e2", "#ececec", "#d8d8d8", "#f0f0f0", "#dedede", "#e8e8e8", "#d4d4d4", "#f7f7f7")


def _xy(point: Point) -> tuple[float, float]:
    return float(point[1]), float(-point[0])


def board_figure(state: State, title: str = "", width: int = 640) -> go.Figure:
    """A static Plotly picture of a position: territories shaded by owner, lattice, pieces and towers."""
    figure = go.Figure()
    _draw(figure, state, title, width)
    _update(figure, state, [])
    return figure


def _draw(figure: go.Figure, state: State, title: str, width: int) -> None:
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
    height = min(900, max(260, int(width * (board.height + 1) / (board.width + 1))))
    top = 40 if title else 10
    unit = min((width - 20) / (board.width + 0.6), (height - top - 10) / (board.height + 0.6))
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
            marker={"symbol": "circle-open", "size": 26, "line": {"width": 4, "color": "#6a1b9a"}},
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
    figure.update_layout(
        title=title or None,
        width=width,
        height=height,
        plot_bgcolor="white",
        margin={"l": 10, "r": 10, "t": top, "b": 10},
        clickmode="event",
        dragmode=False,
        xaxis={"visible": False, "range": [-0.8, board.width - 0.2], "fixedrange": True},
        yaxis={"visible": False, "range": [-board.height + 0.2, 0.8], "fixedrange": True, "scaleanchor": "x"},
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
        cell_text.append(f"{point} territory {letter}{held}")
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
        hovers.append(f"{colour} {'tower' if tower else 'piece'} on {point}, territory {board.territory[point]}")
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
    (``computer={seat: name}`` with names from ``bots.BOTS``)."""

    def __init__(self, state: State, *, seed: int = 0, computer: Any = (), width: int = 640) -> None:
        super().__init__(state, seed=seed, computer=computer)
        self.selected: Point | None = None
        # Drawn as a Figure and wrapped once complete: traces added to a live FigureWidget before its view exists
        # are lost in Voila, while a widget created with its traces renders everywhere.
        drawing = go.Figure()
        _draw(drawing, state, "", width)
        self.figure = BoardFigure(drawing)
        for index in (0, 3, 4):
            self.figure.data[index].on_click(self._on_click)
        self.point_picker = widgets.Dropdown(
            description="Point", options=[(str(p), p) for p in state.island.points], layout=widgets.Layout(width="16em")
        )
        self.pick_button = widgets.Button(description="Pick point", tooltip="The same as clicking this point")
        self.pick_button.on_click(lambda _: self.click_point(self.point_picker.value))
        self.move_list = widgets.Dropdown(description="Move", options=[], layout=widgets.Layout(width="34em"))
        self.play_button = widgets.Button(description="Play move", button_style="primary")
        self.play_button.on_click(lambda _: self._play_listed())
        self.stop_button = widgets.Button(description="Stop", tooltip="End the series of captures / leave towers")
        self.stop_button.on_click(lambda _: self.play(Stop()))
        self.pass_button = widgets.Button(description="Pass", tooltip="Only when no piece can move (CL-C8)")
        self.pass_button.on_click(lambda _: self.play(Pass()))
        self.computer_button = widgets.Button(description="Computer move", tooltip="Let the greedy player move once")
        self.computer_button.on_click(lambda _: self.computer_move())
        controls = widgets.VBox(
            [
                widgets.HBox([self.point_picker, self.pick_button]),
                widgets.HBox([self.move_list, self.play_button]),
                widgets.HBox([self.stop_button, self.pass_button, self.undo_button, self.computer_button]),
            ]
        )
        # ui.Table's ``self.log`` collides with the traitlets logger of ipywidgets, so the move log has its own name
        self.log_view = widgets.HTML(
            layout=widgets.Layout(max_height="14em", overflow="auto", border="1px solid #ccc", padding="2px 6px")
        )
        self.children = (self.status, self.figure, controls, self.log_view)
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
        if point is None or state.result is not None:
            return
        point = tuple(point)
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
        if state.owner(point) == state.turn and not state.is_tower(point):
            self.selected = point
            moves = self._moves_of(point)
            if moves:
                taking = [f"{m.destination} takes {len(captures_of(state, m))}" for m in moves if captures_of(state, m)]
                captures = f"; captures: {', '.join(taking)}" if taking else "; none of them captures"
                self.message, self.message_kind = f"{len(moves)} move(s) for the piece on {point}{captures}", "info"
            elif state.follow_up is not None and point != state.follow_up:
                self.message = f"Only the piece on {state.follow_up} may capture again (CL-7.4)"
                self.message_kind = "error"
            else:
                self.message, self.message_kind = f"The piece on {point} cannot move", "error"
            self.redraw()
            return
        territory = state.island.territory.get(point)
        if territory is not None and state.at(point) == "." and territory in conquerable(state, state.turn):
            self.selected = None
            self.play(PlaceTower(territory, point))
            return
        self.message, self.message_kind = f"Click one of your pieces first ({point} is not yours)", "error"
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

    # -- drawing -------------------------------------------------------------------------------------------
    def describe_player(self, player: int | None) -> str:
        return "Nobody" if player is None else self.state.colours[player].capitalize()

    def prompt(self) -> str:
        state = self.state
        if state.result is not None:
            winners = " and ".join(state.colours[p] for p in state.result.winners) or "nobody"
            return f"Game over: {state.result.reason}. Winner: {winners}."
        colour = state.colours[state.turn]
        if state.phase == "placement":
            left = 2 - len(state.pieces(state.turn)) % 2
            return f"{colour} to place {left} more piece(s) this turn: click free points."
        if state.phase == "removal":
            return f"{colour} to remove {state.removals_left[state.turn]} more enemy piece(s): click them."
        towers = conquerable(state, state.turn)
        tower_text = f" Towers may go in {', '.join(towers)}." if towers else ""
        if state.follow_up is not None:
            return f"{colour}: the piece on {state.follow_up} may capture again, or Stop.{tower_text}"
        return f"{colour} to move: click a piece, then a highlighted point.{tower_text}"

    # Towers: with no piece selected, the free points of conquered territories are highlighted; click one.

    def _targets(self) -> list[tuple[Point, str]]:
        state = self.state
        if state.result is not None:
            return []
        if state.phase == "placement":
            return []
        if state.phase == "removal":
            return [(m.point, f"remove {m.point}") for m in legal_moves(state) if isinstance(m, Remove)]
        targets = []
        if self.selected is not None:
            for move in self._moves_of(self.selected):
                captured = captures_of(state, move)
                kind = "jump" if isinstance(move, Jump) else "step"
                text = f"{kind} to {move.destination}" + (
                    f": captures {len(captured)} {list(captured)}" if captured else ""
                )
                targets.append((move.destination, text))
            return targets
        for territory in conquerable(state, state.turn):
            for point in state.island.territories[territory]:
                if state.at(point) == ".":
                    targets.append((point, f"tower on {point} in {territory}"))
        return targets

    def draw(self) -> None:
        state = self.state
        if self.selected is not None and state.owner(self.selected) != state.player:
            self.selected = None
        _update(self.figure, state, self._targets(), self.selected)
        moves = legal_moves(state)
        self.move_list.options = [(str(move), move) for move in moves]
        self.move_list.index = 0 if moves else None
        self.stop_button.disabled = Stop() not in moves
        self.pass_button.disabled = Pass() not in moves
        self.computer_button.disabled = state.result is not None
        scores = ", ".join(
            "+".join(state.colours[p] for p in side) + f" {sum(len(state.towers(p)) for p in side)}"
            for side in teams_of(state.players)
        )
        self.log_view.value = f"<div style='font-size:12px'><b>Towers:</b> {html.escape(scores)}</div>" + self.log_html(
            list(state.history)
        )


def figure_pair(number: str | int, width: int = 860) -> go.Figure:
    """A figure of the rules drawn twice, side by side: the position before and after its moves."""
    from plotly.subplots import make_subplots

    from .diagram import figure, play_figure

    shown = figure(number)
    before, after = play_figure(number)
    moves = "; ".join(str(move) for move in shown.moves)
    pair = make_subplots(rows=1, cols=2, subplot_titles=("before", f"after: {moves}"), horizontal_spacing=0.06)
    for column, state in ((1, before), (2, after)):
        single = board_figure(state, width=width // 2)
        for trace in single.data:
            pair.add_trace(trace, row=1, col=column)
        pair.update_xaxes(single.layout.xaxis, row=1, col=column)
        pair.update_yaxes(single.layout.yaxis, row=1, col=column)
    pair.update_yaxes(scaleanchor="x", row=1, col=1)
    pair.update_yaxes(scaleanchor="x2", row=1, col=2)
    board = before.island
    pair.update_layout(
        title=shown.caption,
        width=width,
        height=max(300, int(width / 2 * (board.height + 1) / (board.width + 1)) + 90),
        plot_bgcolor="white",
        showlegend=False,
        margin={"l": 10, "r": 10, "t": 90, "b": 10},
    )
    pair.update_annotations(font_size=12)
    return pair
