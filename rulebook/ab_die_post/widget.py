"""The live Ab die Post! board: the track drawn from the graph, the planes, every player's cards, the live
draw odds, the marble, hurricane damage and the scoring track; played with buttons, a dropdown or clicks.

The widget only renders the state and sends moves through ``check``/``apply`` (via :class:`rulebook.view.table.Table`).
Everything it shows is said in players' words: fields by lane, river section and number, odds as percentages.
The board's picture is the track of :func:`.charts.track_figure` with the live layers above it (:func:`board_figure`),
drawn on a :class:`rulebook.view.figures.BoardView`; its HTML comes from the templates in ``templates/``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from ..play.session import Bot
from ..view import markup
from ..view.figures import BoardView, trace
from ..view.table import Table
from . import advisor, odds
from .charts import BACKGROUND, ENDS, FIELDS, PASSENGER, RIVER, track_figure
from .narrate import PLAYER_NAME, player_label
from .rules import (
    CardDrawn,
    DrawCard,
    Fly,
    KeepCard,
    MarbleShaken,
    Move,
    Repair,
    State,
    Stay,
    Stop,
    Track,
    describe_cards,
    field_name,
    hand_points,
    legal_moves,
    picks_up_passenger,
    wind_distance,
)

__all__ = [
    "PALETTES",
    "PLAYER_NAME",
    "Board",
    "board_figure",
    "field_name",
    "percent",
    "player_label",
    "route_text",
    "say",
    "track_figure",
]

# Per player: a fill colour, a marker shape, a number and a name: shapes, numbers and names keep planes apart
# without colour. The fills are at least 23 CAM02-UCS units apart under simulated deuteranomaly, protanomaly and
# tritanomaly (severity 100), checked by tests/test_ab_die_post_narrate.py. style.css repeats the fills and the
# marbles' colours as the classes rb-adp-seat-<n> and rb-adp-marble-<colour> (a test keeps them equal).
PLAYER_FILL = ("#d62728", "#0072b2", "#f2c500", "#ffffff", "#999999", "#882255")
PLAYER_TEXT = ("#ffffff", "#ffffff", "#000000", "#000000", "#000000", "#ffffff")  # the seat number on the fill
PLAYER_SYMBOL = ("triangle-up", "square", "diamond", "circle", "star", "hexagram")
# Planes smaller than a field's disc, the diamond, the star and the hexagram (which reach further than their size)
# smaller still: a neighbour's number, 20 px away along a lane, stays clear of every plane.
PLANE_SIZE = (16, 16, 14, 16, 14, 14)
AIRPORT_RING = 0.87  # track units (about 24 px on the live board): where planes wait round the airport
PLAYER_GLYPH = ("\u25b2", "\u25a0", "\u25c6", "\u25cf", "\u2605", "\u2721")  # the marker shapes as text
# The hurricane indicator's marbles (always named in words too), at least 30 units apart under the same simulations.
MARBLE_FILL = {"green": "#44aa99", "blue": "#332288", "red": "#cc3311", "yellow": "#f2c500", "black": "#000000"}
TARGET_RING = "#e69f00"  # legal targets: orange rings
LAST_MOVE = "#000000"  # the last moves' routes, drawn dotted, and the ghosts of planes that left a field
GHOST = "#555555"
HINT = "#8b6914"  # the suggested move (Hint): dark gold, dashed, with a star where it ends
PALETTES: dict[str, list[str]] = {
    "players": list(PLAYER_FILL),
    "marbles": list(MARBLE_FILL.values()),
    # what is drawn on the track: rings and last-move marks against the board's background and rivers (the fields
    # are white discs outlined in grey and told apart by shape and number, not by colour)
    "board": [TARGET_RING, LAST_MOVE, HINT, BACKGROUND, RIVER],
}

# The board fits beside the app's side panel: figure and controls column within 880 x 680 pixels.
FIGURE_SIZE = 490
COLUMN_WIDTH = "370px"

# The traces a click answers on; each point's id is its field (customdata): a track field, the start or the airport.
# (the track's own traces, FIELDS, PASSENGER and ENDS, are named in charts.py, which draws the track)
TARGETS, ROUTE, GHOSTS, SUGGESTED, PLANES = (
    "legal targets",
    "last move",
    "where planes were",
    "suggested move (Hint)",
    "planes",
)
# Every trace the page's pointer answers (those with hover text): a click goes to the point nearest it, the one drawn
# on top on a tie, so a click on the airport's ring under a plane, the airport's square or a ghost is still a click
# on that field (issue 26.1: the airport's ring answered nothing when another mark took the click).
CLICKABLE = (FIELDS, PASSENGER, ENDS, GHOSTS, TARGETS, SUGGESTED, PLANES)
STATUS_HEIGHT = "80px"  # four lines of the status line's 14 px text


def percent(chance: Fraction) -> str:
    """A probability as a player reads it: '26.4%' (exact 0 and 1 say 'no chance' and 'certain')."""
    if chance == 0:
        return "0% (no chance)"
    if chance == 1:
        return "100% (certain)"
    return f"{float(chance):.1%}"


def route_text(track: Track, steps: int, destination: str, via: tuple[str, ...]) -> str:
    """'fly 3 fields to the inner lane, section 1, field 2 via the central lane': where a route ends and the other
    lanes it crosses on the way."""
    text = f"fly {steps} field{'s' if steps != 1 else ''} to {field_name(track, destination)}"
    lanes: list[str] = []
    for field in via:
        lane = track.lane.get(field)
        if lane is not None and lane != track.lane.get(destination) and lane not in lanes:
            lanes.append(lane)
    if lanes:
        text += f" via the {' and '.join(lanes)} lane{'s' if len(lanes) > 1 else ''}"
    return text


def _field_pattern(track: Track) -> re.Pattern[str]:
    """The ids of the lane fields of a track, as whole words (the rules' text names fields by id)."""
    ids = sorted((field for field, lane in track.lane.items() if lane is not None), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(field) for field in ids) + r")(?![\w-])")


def say(track: Track, text: str) -> str:
    """Rewrite the engine's text in players' words: routes and field ids by lane and number, 'Player 1' as
    'P1 (red)'."""
    fields = _field_pattern(track)
    token = r"[\w-]+"
    route = re.compile(rf"fly (\d+) fields? to ({token})(?: via ({token}(?: > {token})*))?")

    def _route(match: re.Match[str]) -> str:
        destination = match.group(2)
        via = tuple(match.group(3).split(" > ")) if match.group(3) else ()
        if destination not in track.graph or any(field not in track.graph for field in via):
            return match.group(0)
        return route_text(track, int(match.group(1)), destination, via)

    text = route.sub(_route, text)
    text = fields.sub(lambda match: field_name(track, match.group(1)), text)
    ends = {"start": "the start field", "airport": "the airport"}
    text = re.sub(
        r"\b(to|on) (start|airport)(?=[.,;:)]|$)",
        lambda match: f"{'at' if match.group(0) == 'on airport' else match.group(1)} {ends[match.group(2)]}",
        text,
    )
    return re.sub(r"\b[Pp]layer ([1-6])\b", lambda match: player_label(int(match.group(1)) - 1), text)


def _short_hint(move: Any) -> str:
    """A hinted move in two or three words, written beside the plane."""
    if isinstance(move, Repair):
        return f"pay {describe_cards((move.ones, move.twos, move.reds))}"
    return {DrawCard: "draw a card", Stop: "stop drawing", Fly: "fly", Stay: "stay put"}.get(type(move), str(move))


# --- the board's picture ------------------------------------------------------------------------------------


def _add_live_layers(figure: go.Figure) -> None:
    """The layers each draw fills, above the track: the last routes, the ghosts, the rings, the hint, the planes.
    None has a legend entry (the HTML legend under the track tells them): an entry comes and goes with its marks, and
    a legend a row taller would shrink the track between moves."""
    figure.add_scatter(
        x=[],
        y=[],
        mode="lines",
        name=ROUTE,
        hoverinfo="text",
        showlegend=False,
        line={"color": LAST_MOVE, "width": 2.5, "dash": "dot"},
    )
    figure.add_scatter(
        x=[],
        y=[],
        mode="markers+text",
        name=GHOSTS,
        showlegend=False,
        hoverinfo="text",
        textposition="middle center",
        textfont={"size": 11, "color": GHOST},
        marker={"size": 19, "color": GHOST, "line": {"width": 1.5}},
    )
    figure.add_scatter(
        x=[],
        y=[],
        mode="markers",
        name=TARGETS,
        showlegend=False,
        hoverinfo="text",
        marker={"size": 25, "symbol": "circle-open", "color": TARGET_RING, "line": {"width": 4}},
    )
    figure.add_scatter(
        x=[],
        y=[],
        mode="lines+markers+text",
        name=SUGGESTED,
        showlegend=False,
        hoverinfo="text",
        textposition="top center",
        textfont={"size": 11, "color": HINT},
        line={"color": HINT, "width": 3, "dash": "dash"},
        marker={"size": 27, "symbol": "star-open", "color": HINT, "line": {"width": 2.5}},
    )
    figure.add_scatter(
        x=[],
        y=[],
        mode="markers+text",
        name=PLANES,
        showlegend=False,
        hoverinfo="text",
        textposition="middle center",
        textfont={"size": 11},
        marker={"line": {"color": "#000000", "width": 1.5}},
    )


def board_figure(track: Track, size: int = FIGURE_SIZE) -> go.Figure:
    """The live board's picture: the track, and above it the empty layers that :meth:`Board.draw` fills."""
    figure = track_figure(track, width=size, height=size)
    figure.update_layout(
        title={"text": "The track (reconstructed, see ADP-C1)", "font": {"size": 12}, "y": 0.985},
        margin={"l": 2, "r": 2, "t": 24, "b": 2},
        legend={"font": {"size": 11}, "itemwidth": 30},
    )
    # of plotly's template board.js reads the font and the colours only: the rest (7.5 kB) would travel every redraw
    base = figure.layout.template.layout
    figure.layout.template = go.layout.Template(layout={"font": base.font, "colorway": base.colorway})
    _add_live_layers(figure)
    return figure


class Board(Table):
    """A game of Ab die Post! in play: the track with planes at the left; buttons, the route or card chooser,
    the players' cards and the live odds in a column at its right; the move log folded away underneath."""

    def __init__(self, state: State, *, seed: int = 0, computer: Mapping[int, str | Bot] | Iterable[int] = ()) -> None:
        super().__init__(state, seed=seed, computer=computer)
        self.track = state.track
        self.ghost_fields: tuple[str, ...] = ()  # where the last moves' ghosts stand (draw_marks)
        self.places = frozenset(self.track.graph)  # what a click may name: the fields, the start and the airport
        self.figure = BoardView(board_figure(self.track))
        for name in (FIELDS, PASSENGER, ENDS, GHOSTS, TARGETS):
            self.figure.on_click(name, self._clicked)
        for name in (SUGGESTED, PLANES):  # the star round the plane, and the plane inside it
            self.figure.on_click(name, self._hint_clicked)
        self.figure.on_stale(self._on_stale)
        self._build_controls()
        self._arrange()
        self.start()

    def _build_controls(self) -> None:
        """The move buttons, the list of routes, payments and cards to keep, and the panels of the column."""

        def half() -> widgets.Layout:  # each button its own layout: a shared one would be one widget for all
            return widgets.Layout(width="50%")

        self.draw_button = widgets.Button(
            description="Draw a card", icon="clone", tooltip="Obtain spare parts (ADP-4.1)", layout=half()
        )
        self.stop_button = widgets.Button(
            description="Stop drawing", icon="hand-paper-o", tooltip="End the turn (ADP-4.1)", layout=half()
        )
        self.fly_button = widgets.Button(
            description="Fly", icon="plane", tooltip="Shake the hurricane indicator (ADP-5.2)", layout=half()
        )
        self.stay_button = widgets.Button(
            description="Stay put", tooltip="Do not move after a coloured marble (ADP-C8)", layout=half()
        )
        self.choice_label = widgets.HTML()
        self.choice = widgets.Dropdown(  # labelled, for a screen reader too (axe: select-name)
            description="Move",
            options=[],
            style={"description_width": "3em"},
            layout=widgets.Layout(width="calc(100% - 4px)"),
        )
        self.play_button = widgets.Button(
            description="Play choice", icon="check", tooltip="Play the move chosen in the list above", layout=half()
        )
        self.undo_button.layout = half()
        self.draw_button.on_click(lambda _: self.play(DrawCard()))
        self.stop_button.on_click(lambda _: self.play(Stop()))
        self.fly_button.on_click(lambda _: self.play(Fly()))
        self.stay_button.on_click(lambda _: self.play(Stay()))
        self.play_button.on_click(lambda _: self.play_choice())
        self.players_panel = widgets.HTML()
        self.players_panel.add_class("rulebook-players")
        self.info = widgets.HTML()
        self.odds_panel = widgets.HTML()
        self.answer_panels = (self.odds_panel,)  # the draw advice an exercise asks for: hidden until it is answered

    def _arrange(self) -> None:
        """The figure left of the column of controls, the status line above, the log folded away below."""
        self.log_box = widgets.Accordion(
            children=[widgets.VBox([self.history_bar, self.move_log])],
            titles=("Moves so far (newest first; click one to see the board after it)",),
        )
        self.log_box.selected_index = None
        column = widgets.VBox(
            [
                self.players_panel,
                widgets.HBox([self.draw_button, self.stop_button]),
                widgets.HBox([self.fly_button, self.stay_button]),
                self.choice_label,
                self.choice,
                widgets.HBox([self.play_button, self.undo_button]),
                self.info,
                self.odds_panel,
            ],
            layout=widgets.Layout(width=COLUMN_WIDTH, min_width=COLUMN_WIDTH),
        ).add_class("rulebook-controls")  # the board's parts by name: style.css reflows them on a narrow page
        # the status line keeps four lines' height whatever it says (more scrolls), so the track never moves
        self.status.layout = widgets.Layout(height=STATUS_HEIGHT, overflow="auto", max_width="880px")
        planes = [(p, PLAYER_GLYPH[p], player_label(p)) for p in range(self.state.players)]
        self.legend = widgets.HTML(markup.render("legend.html", package=__package__, planes=planes))
        self.legend.layout.width = f"{FIGURE_SIZE}px"
        self.legend.add_class("rulebook-legend")
        track = widgets.VBox([self.figure, self.legend]).add_class("rulebook-figure-column")
        self.children = [
            self.status,
            widgets.HBox([track, column], layout=widgets.Layout(align_items="flex-start")).add_class("rulebook-main"),
            self.log_box,
        ]
        self.layout = widgets.Layout(max_width="880px")

    # the layers of the picture, by name (the figure keeps its traces; draw() updates them)
    @property
    def field_trace(self) -> Any:
        return trace(self.figure.plot, FIELDS)

    @property
    def target_trace(self) -> Any:
        return trace(self.figure.plot, TARGETS)

    @property
    def route_trace(self) -> Any:
        return trace(self.figure.plot, ROUTE)

    @property
    def ghost_trace(self) -> Any:
        return trace(self.figure.plot, GHOSTS)

    @property
    def hint_trace(self) -> Any:
        return trace(self.figure.plot, SUGGESTED)

    @property
    def plane_trace(self) -> Any:
        return trace(self.figure.plot, PLANES)

    # -- moves ---------------------------------------------------------------------------------------
    def choices(self) -> list[Any]:
        """The moves offered in the dropdown: routes, repair payments or the card to keep."""
        if self.state.player is None or self.state.player in self.bots:
            return []
        return [move for move in legal_moves(self.state) if isinstance(move, (Move, Repair, KeepCard))]

    def describe_move(self, move: Any, state: State | None = None) -> str:
        """A move made in ``state`` (the current one by default) in players' words: routes by lane and field
        number, and whether they pick up the passenger (the engine offers one route per destination and pick-up)."""
        state = state or self.state
        if isinstance(move, Move):
            text = route_text(self.track, len(move.path) - 1, move.path[-1], move.path[1:-1])
            if state.phase == "move" and picks_up_passenger(state, move.path):
                text += ", picking up the passenger"
            return text
        return self.say(str(move))

    def say(self, text: str) -> str:
        """The engine's text (events, refusals) in players' words."""
        return say(self.track, text)

    def play_choice(self) -> bool:
        """Play the dropdown's move."""
        if self.choice.value is None:
            self.message, self.message_kind = "There is nothing to choose right now.", "info"
            self.redraw()
            return False
        return self.play(self.choice.value)

    def click_field(self, field: str) -> bool:
        """A click on a field (or the airport): fly there if a route ends there (the passenger route first), else
        explain."""
        if self.replaying or self.finished:
            return self.play(Stay())  # the shared refusal: back to the game, or the game is over
        if field not in self.places:
            self.message, self.message_kind = "That is not a field of the track.", "error"
            self.redraw()
            return False
        routes = [move for move in self.choices() if isinstance(move, Move) and move.path[-1] == field]
        if not routes:
            name = field_name(self.track, field)
            self.message = (
                f"No route of this marble ends on {name}: pick one of the orange rings."
                if self.state.phase == "move" and self.target_trace.customdata
                else f"{name[0].upper()}{name[1:]}: planes move only after a coloured marble, to an orange ring."
            )
            self.message_kind = "info"
            self.redraw()
            return False
        routes.sort(key=lambda move: not picks_up_passenger(self.state, move.path))
        return self.play(routes[0])

    def _clicked(self, point_id: Any) -> None:
        """A click on a field, a ring or the hint's mark: the id is the field, one the trace holds as drawn now (the
        BoardView checks it)."""
        self.click_field(str(point_id))

    def _hint_clicked(self, point_id: Any) -> None:
        """A click on the Hint's mark plays what it marks: a route's star flies there, as its ring does; the star
        round the plane (draw a card, stop, fly, stay, a payment, a card kept) plays the suggested move."""
        hinted, state = self.hinted, self.state
        mover = state.player is not None and str(point_id) == state.positions[state.player]
        if hinted is None or isinstance(hinted, Move) or self.replaying or self.finished or not mover:
            self.click_field(str(point_id))
            return
        self.play(hinted)

    def _on_stale(self, _trace: str, _point: Any, _revision: int) -> None:
        """A click on a ring that has gone since the page drew it (a computer move, an Undo)."""
        self.message = "That click was on an earlier drawing of the board (it has changed since): click again."
        self.message_kind = "info"
        self.redraw()

    # -- rendering -----------------------------------------------------------------------------------
    def describe_player(self, player: int | None) -> str:
        return "Chance" if player is None else player_label(player)

    def move_text(self, move: Any) -> str:
        return self.describe_move(move)

    def replies(self, played: list[Any], shown: int = 2) -> str:
        """The shared account of the computer players' moves, and what their hurricanes did to the people's planes
        (a plane sent back is news even when the replies are only counted)."""
        text = super().replies(played, shown)
        if len(played) <= shown:
            return text
        for step in played:
            if not isinstance(step.move, Fly) or step.after.flight != step.before.flight:
                continue
            for player in range(step.before.players):
                was, now = step.before.positions[player], step.after.positions[player]
                if player not in self.bots and was != now:
                    text += (
                        f"; {self.describe_player(step.player)}'s hurricane sent {player_label(player)} back from "
                        f"{field_name(self.track, was)} to {field_name(self.track, now)}"
                    )
        return text

    def status_html(self) -> str:
        """The base class's status line, with the engine's field ids and player numbers in players' words."""
        message = self.message
        self.message = self.say(message)
        try:
            return super().status_html()
        finally:
            self.message = message

    def prompt(self) -> str:
        """Whose turn it is and what to do now; the button's name when one button is the only move."""
        state = self.state
        result = self.game.outcome(state)
        if result is not None:
            names = " and ".join(player_label(p) for p in result.winners)
            verb = "wins" if len(result.winners) == 1 else "share the win"
            scores = ", ".join(f"{player_label(p)} {score}" for p, score in enumerate(result.scores))
            return f"Game over: {names} {verb} with {result.reason}. Scores: {scores}."
        player = state.player
        if player is None:
            return ""
        who = player_label(player)
        if player in self.bots:
            return f"{self.seat_label(player, who)} is to move."
        points = hand_points(state.hands[player])
        held = f"{points} point{'s' if points != 1 else ''} in hand"
        legal = legal_moves(state)
        if state.phase == "turn":
            if state.drawn:
                return f"{who}: click Draw a card for another, or Stop drawing ({held})."
            if Fly() in legal:
                return f"Flight {state.flight}, {who}: click Draw a card (spare parts) or Fly ({held})."
            minimum = state.config.fly_minimum
            return f"Flight {state.flight}, {who}: click Draw a card ({held}; flying needs {minimum})."
        if state.phase == "move":
            distance = wind_distance(state.config, state.marble)
            head = f"{who}: {state.marble} marble, fly {distance} fields"
            if legal == (Stay(),):
                return f"{head} - no free field within reach: click Stay put."
            return f"{head} - click an orange ring, or choose a route and click Play choice (or Stay put)."
        if state.phase == "repair":
            lane = self.track.lane[state.positions[player]]
            cost = state.config.repair[("inner", "central", "outer").index(lane)]
            head = f"{who}: hurricane! Repairs on the {lane} lane cost {cost}"
            if len(legal) == 1:
                return f"{head}; the only way to pay is {describe_cards(self._cards(legal[0]))}: click Play choice."
            return f"{head}: choose the cards in the list and click Play choice."
        if state.phase == "keep":
            return f"{who}: the flight is over - choose the one card you keep and click Play choice."
        return ""

    @staticmethod
    def _cards(move: Repair) -> tuple[int, int, int]:
        return (move.ones, move.twos, move.reds)

    def draw(self) -> None:
        """Bring the buttons, the list, the picture and the panels up to date with ``self.state``."""
        state = self.state
        human = not self.replaying and state.player is not None and state.player not in self.bots
        legal = set(legal_moves(state)) if human else set()
        hinted = self.hinted if human else None
        for button, move in (
            (self.draw_button, DrawCard()),
            (self.stop_button, Stop()),
            (self.fly_button, Fly()),
            (self.stay_button, Stay()),
        ):
            button.button_style = "warning" if move == hinted else "primary" if move in legal else ""
        options = [(self.describe_move(move), move) for move in self.choices()] if human else []
        self.choice.options = options
        values = [move for _, move in options]
        self.choice.value = hinted if hinted in values else values[0] if values else None
        self.choice_label.value = markup.render("label.html", package=__package__, text=self.choice_title())
        self.play_button.button_style = "primary" if options else ""
        self.draw_marks(state)
        self.draw_hint(state, hinted)
        self.draw_targets(sorted({move.path[-1] for _, move in options if isinstance(move, Move)}))
        self.draw_planes(state)
        self.draw_field_numbers(state)
        self.figure.draw()
        self.players_panel.value = self.players_html()
        self.info.value = self.info_html()
        self.odds_panel.value = self.odds_html()
        self.move_log.value = self.history_html()

    def draw_targets(self, targets: list[str]) -> None:
        """Ring the fields a route of the marble ends on; each ring's id is its field."""
        graph = self.track.graph
        self.target_trace.update(
            x=[graph.nodes[f]["x"] for f in targets],
            y=[graph.nodes[f]["y"] for f in targets],
            customdata=targets,
            hovertext=[f"fly here: {field_name(self.track, f)}" for f in targets],
        )

    def draw_planes(self, state: State) -> None:
        """Each plane in its seat's shape and fill, numbered, on its field or its place by the start or airport."""
        points = [self.plane_point(state, player) for player in range(state.players)]
        self.plane_trace.update(
            x=[x for x, _ in points],
            y=[y for _, y in points],
            text=[str(player + 1) for player in range(state.players)],
            textfont={"color": [PLAYER_TEXT[player] for player in range(state.players)]},
            marker={
                "symbol": [PLAYER_SYMBOL[player] for player in range(state.players)],
                "color": [PLAYER_FILL[player] for player in range(state.players)],
                "size": [PLANE_SIZE[player] for player in range(state.players)],
            },
            hovertext=[f"{player_label(p)} on {field_name(self.track, f)}" for p, f in enumerate(state.positions)],
            customdata=list(state.positions),
        )

    def draw_field_numbers(self, state: State) -> None:
        """Number every field but those under a plane or the ghost of one: the plane's own number is written there,
        and two numbers on one field would overlap."""
        covered = {field for field in state.positions} | set(self.ghost_fields)
        graph = self.track.graph
        self.field_trace.update(
            text=["" if field in covered else str(graph.nodes[field]["step"]) for field in self.field_trace.customdata]
        )

    def plane_point(self, state: State, player: int) -> tuple[float, float]:
        """Where a plane is drawn: on its field, or at its seat's own place by the start field or the airport (where
        several planes stand), so that planes and their numbers never overlap."""
        field = state.positions[player]
        x, y = self.track.graph.nodes[field]["x"], self.track.graph.nodes[field]["y"]
        if field not in ("start", "airport"):
            return x, y
        column, row = player % 3, player // 3
        if field == "start":  # two rows of three places, one per seat, above the start field's square
            return x + 0.85 * (column - 1), y + 1.0 + 0.85 * row
        # six places on a circle round the airport's square, inside the inner lane's ring (47 px from its centre):
        # clear of the square's sign, of each other and of the inner lane's numbers
        angle = math.radians(90 - 60 * player)
        return x + AIRPORT_RING * math.cos(angle), y + AIRPORT_RING * math.sin(angle)

    def draw_marks(self, state: State) -> None:
        """Mark the moves of ``steps_shown()`` on the track: each route flown, dotted, and a ghost of each plane
        where it was before (the plane sent back by a hurricane, the plane that flew)."""
        graph = self.track.graph
        route_x: list[float | None] = []
        route_y: list[float | None] = []
        route_text: list[str] = []
        ghosts: list[tuple[int, float, float, str]] = []
        fields: list[str] = []  # the fields the ghosts stand on
        for step in self.steps_shown():
            before, after = step.before, step.after
            told = f"{self.describe_player(step.player)}: {self.step_text(step)}"
            if isinstance(step.move, Move):
                path = tuple(step.move.path)
                if all(field in graph for field in path):
                    x, y = self.plane_point(before, step.player)  # where the plane stood: the route starts there
                    route_x += [x] + [graph.nodes[f]["x"] for f in path[1:]] + [None]
                    route_y += [y] + [graph.nodes[f]["y"] for f in path[1:]] + [None]
                    route_text += [told] * len(path) + [""]
                    ghosts.append((step.player, x, y, f"{player_label(step.player)} flew from here: {told}"))
                    fields.append(before.positions[step.player])
            if isinstance(step.move, Fly) and after.flight == before.flight:  # a hurricane sends planes back
                ghosts += self._sent_back(before, after)
                fields += [
                    was
                    for was, now in zip(before.positions, after.positions)
                    if was != now and self.track.lane.get(was) is not None  # as _sent_back finds them
                ]
        self.ghost_fields = tuple(fields)
        self.route_trace.update(x=route_x, y=route_y, hovertext=route_text)
        self.ghost_trace.update(
            x=[x for _, x, _, _ in ghosts],
            y=[y for _, _, y, _ in ghosts],
            text=[str(player + 1) for player, _, _, _ in ghosts],
            hovertext=[text for _, _, _, text in ghosts],
            customdata=list(fields),  # the field each ghost stands on: a click there is a click on that field
            marker={"symbol": [f"{PLAYER_SYMBOL[player]}-open" for player, _, _, _ in ghosts]},
        )

    def _sent_back(self, before: State, after: State) -> list[tuple[int, float, float, str]]:
        """The ghosts of the planes a hurricane sent back: where each stood, with what happened."""
        graph = self.track.graph
        ghosts = []
        for player in range(before.players):
            was, now = before.positions[player], after.positions[player]
            if was != now and self.track.lane.get(was) is not None:
                where = field_name(self.track, was)
                text = f"{player_label(player)} was on {where}; the hurricane sent it back"
                ghosts.append((player, graph.nodes[was]["x"], graph.nodes[was]["y"], text))
        return ghosts

    def draw_hint(self, state: State, move: Any) -> None:
        """Mark the move Hint suggested (``hinted``), never played: a route dashed in gold with a star where it
        ends; any other move as a gold star round the plane, named beside it (its button turns orange too).
        Each point's id is the field it stands on, so a click on the star flies there as a click on its ring."""
        graph = self.track.graph
        if move is None or state.player is None:
            self.hint_trace.update(x=[], y=[], text=[], hovertext=[], customdata=[])
            return
        told = f"Hint: {self.describe_move(move, state)}"
        x, y = self.plane_point(state, state.player)
        here = state.positions[state.player]
        if isinstance(move, Move) and all(field in graph for field in move.path):
            xs = [x] + [graph.nodes[f]["x"] for f in move.path[1:]]
            ys = [y] + [graph.nodes[f]["y"] for f in move.path[1:]]
            self.hint_trace.update(
                x=xs,
                y=ys,
                customdata=[here, *move.path[1:]],
                text=[""] * (len(xs) - 1) + ["hint"],
                hovertext=[told] * len(xs),
                marker={"size": [0] * (len(xs) - 1) + [27]},
            )
            return
        self.hint_trace.update(
            x=[x],
            y=[y],
            customdata=[here],
            text=[f"hint: {_short_hint(move)}"],
            hovertext=[told],
            marker={"size": [27]},
        )

    def choice_title(self) -> str:
        """What the list of choices holds right now."""
        if self.finished:
            return "The game is over."
        phase = self.state.phase if self.choices() else ""
        return {
            "move": "Route (or click an orange ring on the track):",
            "repair": "Cards that pay the repairs:",
            "keep": "The card to keep for the next flight:",
        }.get(phase, "Routes, repairs and cards to keep are chosen here.")

    def info_html(self) -> str:
        """Players' planes, cards and scores, the passenger, the marble and the last events."""
        state = self.state
        last_marble = next((m for m in reversed(state.history) if isinstance(m, MarbleShaken)), None)
        last_card = next((m for m in reversed(state.history) if isinstance(m, CardDrawn)), None)
        return markup.render(
            "info.html",
            package=__package__,
            state=state,
            outbound=state.direction == 1,
            pile=describe_cards(state.pile),
            discard=describe_cards(state.discard),
            marble=None if last_marble is None else last_marble.colour,
            card=None if last_card is None else ("red 3" if last_card.value == 3 else last_card.value),
            events=[self.say(event) for event in state.events],
        )

    def players_html(self) -> str:
        """The players panel, as on Board Game Arena (Meetjesland's look): per player the score, where the plane
        is, the cards in front of them (open, ADP-C6: how many and which), their points and the passenger; the
        player to move marked."""
        state = self.state
        return markup.render(
            "players.html",
            package=__package__,
            rows=[self.player_row(player) for player in range(state.players)],
            goal=max(1, state.config.target),
            minimum=state.config.fly_minimum,
        )

    def player_row(self, player: int) -> dict[str, Any]:
        """One player's row of the players panel: who, the score, where (short, and in full), the cards."""
        state = self.state
        position = state.positions[player]
        data = self.track.graph.nodes[position]
        lane = self.track.lane[position]
        if lane is None:
            where = "start field" if position == "start" else "airport"
        else:
            where = f"{lane} {data['section']}·{data['step']}"
        hand = state.hands[player]
        return {
            "seat": player,
            "glyph": PLAYER_GLYPH[player],
            "name": player_label(player),
            "computer": player in self.bots,
            "to_move": player == state.player and state.phase != "over",
            "where": where,
            "where_long": field_name(self.track, position),
            "hand": hand,
            "count": sum(hand),
            "card_values": [value for number, value in zip(hand, (1, 2, 3)) for _ in range(number)],
            "points": hand_points(hand),
            "passenger": state.passenger == player,
            "score": state.scores[player],
        }

    def odds_html(self) -> str:
        """Live exact odds for the player to move: next card busts, reaching the flying minimum and the repair cost,
        and whether drawing on or stopping ends the turn with more points on average."""
        state = self.state
        if state.player is None or state.phase != "turn":
            return ""
        hand = state.hands[state.player]
        pile, reserve = advisor.cards_left(state)  # the discard is shuffled in when the pile runs out (ADP-4.3)
        points, reds = hand_points(hand), hand[2]
        minimum = state.config.fly_minimum
        reach = advisor.reach(minimum, points, reds, pile, reserve)
        lines = [
            ("The next card is a third red 3 (bust)", percent(advisor.next_bust(reds, pile, reserve))),
            (f"Reaching {minimum} points (to fly) before a bust", percent(reach)),
        ]
        lane = self.track.lane[state.positions[state.player]]
        if lane is not None:
            cost = odds.repair_cost(lane, state.config)
            chance = advisor.reach(cost, points, reds, pile, reserve)
            lines.append((f"Reaching {cost} points (repairs on the {lane} lane)", percent(chance)))
        advice = advisor.choose("points", points, reds, pile, reserve)
        if advice.value_if_draw is None:
            verdict = ("stop", f"no card is left to draw; stopping keeps {points}")
        elif advice.draw:
            verdict = (
                "draw on",
                f"drawing, then stopping at the best moment, ends the turn with {float(advice.value_if_draw):.1f} "
                f"points on average; stopping now keeps {points}",
            )
        else:
            verdict = (
                "stop",
                f"stopping keeps {points} points; drawing on ends the turn with {float(advice.value_if_draw):.1f} "
                "points on average",
            )
        return markup.render("odds.html", package=__package__, lines=lines, verdict=verdict)


def __getattr__(name: str) -> object:
    """``widget.Explorer`` still names the game's explorer, imported when first asked for (a board needs none)."""
    if name == "Explorer":
        from .explorer import Explorer

        return Explorer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
