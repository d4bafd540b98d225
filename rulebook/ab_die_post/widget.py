"""The live Ab die Post! board: the track drawn from the graph, the planes, every player's cards, the live
draw odds, the marble, hurricane damage and the scoring track; played with buttons, a dropdown or clicks.

The widget only renders the state and sends moves through ``check``/``apply`` (via :class:`rulebook.ui.Table`).
Everything it shows is said in players' words: fields by lane, river section and number, odds as percentages.
"""

from __future__ import annotations

import html
import re
from fractions import Fraction
from typing import Any

import ipywidgets as widgets

from .. import ui
from ..ui import Table, settle_figure
from . import advisor, charts, odds
from .charts import BACKGROUND, RIVER, track_figure
from .narrate import PLAYER_NAME, player_label
from .rules import (
    FULL_DECK,
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

__all__ = ["PALETTES", "PLAYER_NAME", "Board", "Explorer", "field_name", "percent", "player_label", "route_text", "say"]

# Per player: a fill colour, a marker shape, a number and a name: shapes, numbers and names keep planes apart
# without colour. The fills are at least 23 CAM02-UCS units apart under simulated deuteranomaly, protanomaly and
# tritanomaly (severity 100), checked by tests/test_ab_die_post_narrate.py.
PLAYER_FILL = ("#d62728", "#0072b2", "#f2c500", "#ffffff", "#999999", "#882255")
PLAYER_TEXT = ("#ffffff", "#ffffff", "#000000", "#000000", "#000000", "#ffffff")  # the seat number on the fill
PLAYER_SYMBOL = ("triangle-up", "square", "diamond", "circle", "star", "hexagram")
PLAYER_GLYPH = ("&#9650;", "&#9632;", "&#9670;", "&#9679;", "&#9733;", "&#10017;")  # the marker shapes as text
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


class Board(Table):
    """A game of Ab die Post! in play: the track with planes at the left; buttons, the route or card chooser,
    the players' cards and the live odds in a column at its right; the move log folded away underneath."""

    def __init__(
        self,
        state: State,
        *,
        seed: int = 0,
        computer: Any = (),
    ) -> None:
        super().__init__(state, seed=seed, computer=computer)
        self.track = state.track
        # Built as a Figure and wrapped once complete: traces added to a live FigureWidget before its view exists
        # are lost in Voila, while a widget created with its traces renders everywhere.
        figure = track_figure(self.track, width=FIGURE_SIZE, height=FIGURE_SIZE, widget=False)
        figure.update_layout(
            title={"text": "The track (reconstructed, see ADP-C1)", "font": {"size": 12}, "y": 0.985},
            margin={"l": 2, "r": 2, "t": 24, "b": 2},
            legend={"font": {"size": 9}, "itemwidth": 30},
        )
        figure.add_scatter(
            x=[],
            y=[],
            mode="lines",
            name="last move",
            hoverinfo="text",
            line={"color": LAST_MOVE, "width": 2.5, "dash": "dot"},
        )
        figure.add_scatter(
            x=[],
            y=[],
            mode="markers+text",
            name="where planes were",
            hoverinfo="text",
            textposition="middle center",
            textfont={"size": 9, "color": GHOST},
            marker={"size": 17, "color": GHOST, "line": {"width": 1.5}},
        )
        figure.add_scatter(
            x=[],
            y=[],
            mode="markers",
            name="legal targets",
            hoverinfo="text",
            marker={"size": 21, "symbol": "circle-open", "color": TARGET_RING, "line": {"width": 4}},
        )
        figure.add_scatter(
            x=[],
            y=[],
            mode="lines+markers+text",
            name="suggested move (Hint)",
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
            name="planes",
            hoverinfo="text",
            textposition="middle center",
            textfont={"size": 10},
            marker={"size": 19, "line": {"color": "#000000", "width": 1.5}},
        )
        self.figure = ui.BoardFigure(figure)
        self.field_trace = next(trace for trace in self.figure.data if trace.name == "fields")
        self.route_trace, self.ghost_trace, self.target_trace, self.hint_trace, self.plane_trace = self.figure.data[-5:]
        graph = self.track.graph
        # A click names its field by the coordinates the browser sends back, checked against the trace's field ids:
        # a click on an older drawing (the rings moved since) is ignored rather than landing on another field.
        self.field_at = {(graph.nodes[f]["x"], graph.nodes[f]["y"]): f for f in graph if self.track.lane[f] is not None}
        self.field_trace.on_click(self._clicked)
        self.target_trace.on_click(self._clicked)

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
        self.choice = widgets.Dropdown(options=[], layout=widgets.Layout(width="calc(100% - 4px)"))
        self.play_button = widgets.Button(
            description="Play choice", icon="check", tooltip="Play the move chosen in the list above", layout=half()
        )
        self.undo_button.layout = half()
        self.draw_button.on_click(lambda _: self.play(DrawCard()))
        self.stop_button.on_click(lambda _: self.play(Stop()))
        self.fly_button.on_click(lambda _: self.play(Fly()))
        self.stay_button.on_click(lambda _: self.play(Stay()))
        self.play_button.on_click(lambda _: self.play_choice())
        self.info = widgets.HTML()
        self.odds_panel = widgets.HTML()
        self.log_box = widgets.Accordion(
            children=[widgets.VBox([self.history_bar, self.move_log])],
            titles=("Moves so far (newest first; click one to see the board after it)",),
        )
        self.log_box.selected_index = None
        column = widgets.VBox(
            [
                widgets.HBox([self.draw_button, self.stop_button]),
                widgets.HBox([self.fly_button, self.stay_button]),
                self.choice_label,
                self.choice,
                widgets.HBox([self.play_button, self.undo_button]),
                self.info,
                self.odds_panel,
            ],
            layout=widgets.Layout(width=COLUMN_WIDTH, min_width=COLUMN_WIDTH),
        )
        self.status.layout = widgets.Layout(min_height="2.6em", max_width="880px")
        self.children = [
            self.status,
            widgets.HBox([self.figure, column], layout=widgets.Layout(align_items="flex-start")),
            self.log_box,
        ]
        self.layout = widgets.Layout(max_width="880px")
        self.start()

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
        """A click on a field: fly there if a route ends there (the passenger route first), else explain."""
        if self.replaying or self.finished:
            return self.play(Stay())  # the shared refusal: back to the game, or the game is over
        if field not in self.field_at.values():
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

    def _clicked(self, trace: Any, points: Any, _selector: Any) -> None:
        """A click on the track: the field under the pointer, if the trace still holds it at the clicked index."""
        indices, xs, ys = getattr(points, "point_inds", ()), getattr(points, "xs", ()), getattr(points, "ys", ())
        if not indices:
            return
        index = indices[0]
        fields = tuple(trace.customdata or ())
        named = fields[index] if isinstance(index, int) and 0 <= index < len(fields) else None
        under = self.field_at.get((xs[0], ys[0])) if xs and ys else None
        if named is None or named != under:
            self.message = "That click was on an earlier drawing of the board (it has changed since): click again."
            self.message_kind = "info"
            self.redraw()
            return
        self.click_field(named)

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
            return f"{who} (computer) is to move."
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
        state = self.state
        graph = self.track.graph
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
        self.choice_label.value = f"<span style='font-size:12px'>{self.choice_title()}</span>"
        self.play_button.button_style = "primary" if options else ""
        targets = sorted({move.path[-1] for _, move in options if isinstance(move, Move)})
        xs, ys, texts, symbols, fills, colours = [], [], [], [], [], []
        for player, field in enumerate(state.positions):
            x, y = self.plane_point(state, player)
            xs.append(x)
            ys.append(y)
            texts.append(str(player + 1))
            symbols.append(PLAYER_SYMBOL[player])
            fills.append(PLAYER_FILL[player])
            colours.append(PLAYER_TEXT[player])
        self.draw_marks(state)
        self.draw_hint(state, hinted)
        # One update per trace: a batch spanning several traces with different keys resets, in the browser, the
        # keys a trace lacks (plotly's FigureWidget), which filled the orange rings with the default colour.
        self.target_trace.update(
            x=[graph.nodes[f]["x"] for f in targets],
            y=[graph.nodes[f]["y"] for f in targets],
            customdata=targets,
            hovertext=[f"fly here: {field_name(self.track, f)}" for f in targets],
        )
        self.plane_trace.update(
            x=xs,
            y=ys,
            text=texts,
            textfont={"color": colours},
            marker={"symbol": symbols, "color": fills},
            hovertext=[f"{player_label(p)} on {field_name(self.track, f)}" for p, f in enumerate(state.positions)],
        )
        self.info.value = self.info_html()
        self.odds_panel.value = self.odds_html()
        self.move_log.value = self.history_html()

    def plane_point(self, state: State, player: int) -> tuple[float, float]:
        """Where a plane is drawn: on its field, or at its seat's own place by the start field or the airport (where
        several planes stand), so that planes and their numbers never overlap."""
        field = state.positions[player]
        x, y = self.track.graph.nodes[field]["x"], self.track.graph.nodes[field]["y"]
        if field not in ("start", "airport"):
            return x, y
        # two rows of three places, one per seat: above the start field's square, on and around the airport's
        column, row = player % 3, player // 3
        if field == "start":
            return x + 0.85 * (column - 1), y + 1.0 + 0.85 * row
        return x + 0.8 * (column - 1), y + 0.4 - 0.8 * row

    def draw_marks(self, state: State) -> None:
        """Mark the moves of ``steps_shown()`` on the track: each route flown, dotted, and a ghost of each plane
        where it was before (the plane sent back by a hurricane, the plane that flew)."""
        graph = self.track.graph
        route_x: list[float | None] = []
        route_y: list[float | None] = []
        route_text: list[str] = []
        ghosts: list[tuple[int, float, float, str]] = []
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
            if isinstance(step.move, Fly) and after.flight == before.flight:  # a hurricane sends planes back
                for player in range(before.players):
                    was, now = before.positions[player], after.positions[player]
                    if was != now and self.track.lane.get(was) is not None:
                        where = field_name(self.track, was)
                        ghosts.append(
                            (
                                player,
                                graph.nodes[was]["x"],
                                graph.nodes[was]["y"],
                                f"{player_label(player)} was on {where}; the hurricane sent it back",
                            )
                        )
        self.route_trace.update(x=route_x, y=route_y, hovertext=route_text)
        self.ghost_trace.update(
            x=[x for _, x, _, _ in ghosts],
            y=[y for _, _, y, _ in ghosts],
            text=[str(player + 1) for player, _, _, _ in ghosts],
            hovertext=[text for _, _, _, text in ghosts],
            marker={"symbol": [f"{PLAYER_SYMBOL[player]}-open" for player, _, _, _ in ghosts]},
        )

    def draw_hint(self, state: State, move: Any) -> None:
        """Mark the move Hint suggested (``hinted``), never played: a route dashed in gold with a star where it
        ends; any other move as a gold star round the plane, named beside it (its button turns orange too)."""
        graph = self.track.graph
        if move is None or state.player is None:
            self.hint_trace.update(x=[], y=[], text=[], hovertext=[])
            return
        told = f"Hint: {self.describe_move(move, state)}"
        x, y = self.plane_point(state, state.player)
        if isinstance(move, Move) and all(field in graph for field in move.path):
            xs = [x] + [graph.nodes[f]["x"] for f in move.path[1:]]
            ys = [y] + [graph.nodes[f]["y"] for f in move.path[1:]]
            self.hint_trace.update(
                x=xs,
                y=ys,
                text=[""] * (len(xs) - 1) + ["hint"],
                hovertext=[told] * len(xs),
                marker={"size": [0] * (len(xs) - 1) + [27]},
            )
            return
        self.hint_trace.update(
            x=[x], y=[y], text=[f"hint: {_short_hint(move)}"], hovertext=[told], marker={"size": [27]}
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
        rows = []
        for player in range(state.players):
            hand = state.hands[player]
            position = state.positions[player]
            lane = self.track.lane[position]
            if lane is None:
                where = "start field" if position == "start" else "airport"
            else:
                data = self.track.graph.nodes[position]
                where = f"{lane} lane<br><small>section {data['section']}, field {data['step']}</small>"
            mark = " &#9992;" if player == state.player else ""
            passenger = " + passenger" if state.passenger == player else ""
            share = min(100, round(100 * state.scores[player] / max(1, state.config.target)))
            bar = (
                f"<div style='width:40px;height:7px;border:1px solid #333;display:inline-block'>"
                f"<div style='width:{share}%;height:100%;background:#555'></div></div>"
            )
            kind = "computer" if player in self.bots else "person"
            rows.append(
                f"<tr style='border-top:1px solid #ddd'><td><span style='color:{PLAYER_FILL[player]};"
                f"-webkit-text-stroke:1px #000'>{PLAYER_GLYPH[player]}</span> "
                f"<b>{html.escape(player_label(player))}</b>{mark}<br><small>{kind}</small></td>"
                f"<td>{where}</td><td>{hand[0]}&times;1, {hand[1]}&times;2, {hand[2]}&times;<b>red 3</b>"
                f"<br><small>{hand_points(hand)} point{'' if hand_points(hand) == 1 else 's'}{passenger}</small></td>"
                f"<td>{bar} <b>{state.scores[player]}</b></td></tr>"
            )
        direction = "start field &rarr; airport" if state.direction == 1 else "airport &rarr; start field"
        latest = []
        last_marble = next((m for m in reversed(state.history) if isinstance(m, MarbleShaken)), None)
        if last_marble is not None:
            latest.append(
                f"last marble: <span style='color:{MARBLE_FILL[last_marble.colour]}'>&#11044;</span> "
                f"<b>{last_marble.colour}</b>"
            )
        last_card = next((m for m in reversed(state.history) if isinstance(m, CardDrawn)), None)
        if last_card is not None:
            latest.append(f"last card: <b>{'red 3' if last_card.value == 3 else last_card.value}</b>")
        events = "".join(f"<li>{html.escape(self.say(event))}</li>" for event in state.events)
        return (
            f"<div style='font-size:12px;line-height:1.3;margin-top:4px'><b>Flight {state.flight}</b> "
            f"({direction}), first to {state.config.target} points wins"
            f"<table style='border-collapse:collapse;font-size:12px;line-height:1.2;width:100%' cellpadding='1'>"
            f"<tr style='text-align:left'><th>player</th><th>where</th><th>cards</th><th>score</th></tr>"
            f"{''.join(rows)}</table>"
            f"Pile: {describe_cards(state.pile)}<br>Discard: {describe_cards(state.discard)}<br>"
            f"{' &middot; '.join(latest)}"
            f"<ul style='margin:2px 0;padding-left:1.4em'>{events}</ul></div>"
        )

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
        bust = advisor.next_bust(reds, pile, reserve)
        lines = [f"The next card is a third red 3 (bust): <b>{percent(bust)}</b>"]
        reach = advisor.reach(minimum, points, reds, pile, reserve)
        lines.append(f"Reaching {minimum} points (to fly) before a bust: <b>{percent(reach)}</b>")
        lane = self.track.lane[state.positions[state.player]]
        if lane is not None:
            cost = odds.repair_cost(lane, state.config)
            chance = advisor.reach(cost, points, reds, pile, reserve)
            lines.append(f"Reaching {cost} points (repairs on the {lane} lane): <b>{percent(chance)}</b>")
        advice = advisor.choose("points", points, reds, pile, reserve)
        if advice.value_if_draw is None:
            verdict = f"<b>stop</b>: no card is left to draw; stopping keeps {points}"
        elif advice.draw:
            verdict = (
                f"<b>draw on</b>: drawing, then stopping at the best moment, ends the turn with "
                f"{float(advice.value_if_draw):.1f} points on average; stopping now keeps {points}"
            )
        else:
            verdict = (
                f"<b>stop</b>: stopping keeps {points} points; drawing on ends the turn with "
                f"{float(advice.value_if_draw):.1f} points on average"
            )
        lines.append(f"For the most points in hand: {verdict}.")
        return (
            "<div style='font-size:12px;line-height:1.3;border:1px solid #ccc;padding:3px 5px;margin-top:4px'>"
            "<b>Exact odds</b> (from the cards left in the pile)<br>" + "<br>".join(lines) + "</div>"
        )


class Explorer(widgets.VBox):
    """The draw advisor beside the board (issue 13.2): for the hand of the player whose turn it is and the cards
    left (pile, then the discard shuffled in), the exact chance that the next card busts, the chances to reach the
    flying minimum and a chosen target this turn, the optimal choice for a chosen objective, and the policy chart.

    It follows the board: redrawn after every move, from ``board.state`` (the position shown, also in a replay)."""

    def __init__(self, board: Board, *, width: int = 340) -> None:
        self.board = board
        self.width = width
        state = board.state
        self.objective = widgets.Dropdown(
            options=[
                (f"reach {state.config.fly_minimum} points (to fly) this turn", "fly"),
                ("reach the target this turn", "reach"),
                ("the most points on average", "points"),
            ],
            value="reach",
            description="Objective",
            style={"description_width": "70px"},
            layout=widgets.Layout(width=f"{min(width, 330)}px"),
        )
        self.target = widgets.BoundedIntText(
            value=odds.repair_cost("inner", state.config),
            min=0,
            max=advisor.MAX_GOAL,
            description="Target",
            tooltip="Points in hand to reach this turn (8 pays an inner-lane repair)",
            style={"description_width": "70px"},
            layout=widgets.Layout(width="160px"),
        )
        self.heading = widgets.HTML()
        self.result = widgets.HTML()
        self.result.add_class("rulebook-explorer-result")
        height = 300 if width <= 400 else 340
        figure = charts.policy_chart(
            advisor.policy("reach", FULL_DECK, goal=self.target.value), width=width, height=height
        )
        self.figure = ui.ChartFigure(figure)
        self.objective.observe(lambda _: self.update(), "value")
        self.target.observe(lambda _: self.update(), "value")
        super().__init__(
            [self.heading, self.objective, self.target, self.result, self.figure],
            layout=widgets.Layout(width=f"{width}px", max_width=f"{width}px"),
        )
        self.add_class("rulebook-explorer")
        board.listeners.append(self.update)
        self.update()
        settle_figure(self.figure)

    def update(self, _board: Any = None) -> None:
        """Show the advice for the position on the board."""
        state = self.board.state
        goal = self.target.value
        if self.board.game.outcome(state) is not None:
            self.heading.value = "<b>Draw advisor</b>: the game is over."
            self.result.value = "<div style='font-size:12px'>Start a new game to see the odds of a hand.</div>"
            return
        advice = advisor.advise(state, goal=goal)
        who = html.escape(player_label(advice.player))
        reshuffle = f", then the discard ({describe_cards(advice.reserve)}) shuffled in" if sum(advice.reserve) else ""
        reds = f"{advice.reds} red 3{'' if advice.reds == 1 else 's'}"
        when = "" if state.phase == "turn" else " These are the odds of its next drawing turn."
        self.heading.value = (
            f"<div style='font-size:12px;line-height:1.35'><b>Draw advisor</b> for {who}, whose turn it is: "
            f"<b>{advice.points} point{'' if advice.points == 1 else 's'}</b> in hand ({reds}). Cards left: "
            f"{describe_cards(advice.pile)}{reshuffle}.{when}</div>"
        )
        aim = {"fly": advice.fly_minimum, "reach": goal}.get(self.objective.value)
        if aim is None:
            choice = advice.for_points
        elif aim == goal:
            choice = advice.for_reach
        else:
            choice = advisor.choose("reach", advice.points, advice.reds, advice.pile, advice.reserve, goal=aim)
        lines = [
            f"Next card busts (a third red 3): <b>{advisor.chance_text(advice.bust_next)}</b>",
            f"Reach {advice.fly_minimum} points (to fly) this turn: <b>{advisor.chance_text(advice.reach_fly)}</b>",
            f"Reach the target, {goal} points, this turn: <b>{advisor.chance_text(advice.reach_goal)}</b>",
            self._verdict(advice, choice),
        ]
        self.result.value = "<div style='font-size:12px;line-height:1.4'>" + "<br>".join(lines) + "</div>"
        objective = f"reach {aim}" if aim is not None else "most points"
        table = advisor.policy(
            choice.objective, advice.pile, advice.reserve, goal=aim or 0, max_points=self._most(aim or 0)
        )
        fresh = charts.policy_chart(
            table,
            hand=(advice.points, advice.reds),
            title=f"Best choice ({objective}) with these cards left",
            width=self.width,
            height=self.figure.layout.height,
        )
        with self.figure.batch_update():
            heat = self.figure.data[0]
            heat.update(
                x=fresh.data[0].x, z=fresh.data[0].z, text=fresh.data[0].text, hovertext=fresh.data[0].hovertext
            )
            self.figure.layout.title.text = fresh.layout.title.text
            self.figure.layout.xaxis.update(fresh.layout.xaxis)
        self._mark(fresh)

    def _mark(self, fresh: Any) -> None:
        """The live hand's outline: a trace of its own, added once."""
        marks = [trace for trace in self.figure.data if trace.name == "your hand"]
        new = [trace for trace in fresh.data if trace.name == "your hand"]
        if not marks and new:
            self.figure.add_trace(new[0])
        elif marks:
            marks[0].update(
                x=new[0].x if new else [], y=new[0].y if new else [], hovertext=new[0].hovertext if new else []
            )

    @staticmethod
    def _most(goal: int) -> int:
        return max(12, min(goal + 3, 24))

    @staticmethod
    def _verdict(advice: advisor.Advice, choice: advisor.Choice) -> str:
        """The optimal choice in words, with the exact values behind it."""
        aim = (
            f"to end the turn with {choice.goal} points or more"
            if choice.objective == "reach"
            else ("for the most points in hand on average")
        )
        if choice.value_if_draw is None:
            return f"Best {aim}: <b>stop</b> (no card is left to draw)."
        if advice.drawn:
            stop_word = "stop"
        elif advice.points >= advice.fly_minimum:
            stop_word = "do not draw (fly instead)"
        else:  # neither flying nor a turn without a card is allowed (ADP-5.1, ADP-C4)
            stop_word = f"draw one card, then stop (flying needs {advice.fly_minimum})"
        verb = "draw" if choice.draw else stop_word
        return f"Best {aim}: <b>{verb}</b>. {html.escape(charts.values_text(choice))}"
