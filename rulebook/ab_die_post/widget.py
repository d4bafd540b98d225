"""The live Ab die Post! board: the track drawn from the graph, the planes, every player's cards, the live
draw odds, the marble, hurricane damage and the scoring track; played with buttons, a dropdown or clicks.

The widget only renders the state and sends moves through ``check``/``apply`` (via :class:`rulebook.ui.Table`).
Everything it shows is said in players' words: fields by lane, river section and number, odds as percentages.
"""

from __future__ import annotations

import html
import math
import re
from fractions import Fraction
from typing import Any

import ipywidgets as widgets

from ..ui import BoardFigure, Table
from . import odds
from .charts import track_figure
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
    hand_points,
    legal_moves,
    picks_up_passenger,
)

# Per player: a fill colour, a marker shape and a name; shapes and labels keep planes apart without colour.
PLAYER_FILL = ("#d62728", "#1f4e9c", "#f2c500", "#2ca02c", "#7b3f9e", "#ffffff")
PLAYER_SYMBOL = ("triangle-up", "square", "diamond", "circle", "star", "hexagram")
PLAYER_NAME = ("red", "blue", "yellow", "green", "purple", "white")
PLAYER_GLYPH = ("&#9650;", "&#9632;", "&#9670;", "&#9679;", "&#9733;", "&#10017;")  # the marker shapes as text
MARBLE_FILL = {"green": "#2ca02c", "blue": "#1f77b4", "red": "#d62728", "yellow": "#f2c500", "black": "#000000"}

# The board fits beside the app's side panel: figure and controls column within 880 x 680 pixels.
FIGURE_SIZE = 490
COLUMN_WIDTH = "370px"


def player_label(player: int) -> str:
    """'P1 (red)' - the number and the colour name, so no one needs to tell colours apart."""
    return f"P{player + 1} ({PLAYER_NAME[player]})"


def percent(chance: Fraction) -> str:
    """A probability as a player reads it: '26.4%' (exact 0 and 1 say 'no chance' and 'certain')."""
    if chance == 0:
        return "0% (no chance)"
    if chance == 1:
        return "100% (certain)"
    return f"{float(chance):.1%}"


def field_name(track: Track, field: str) -> str:
    """'inner lane, section 1, field 2', 'the start field' or 'the airport': a field as players point at it."""
    if field == "start":
        return "the start field"
    if field == "airport":
        return "the airport"
    data = track.graph.nodes[field]
    return f"{data['lane']} lane, section {data['section']}, field {data['step']}"


def route_text(track: Track, steps: int, destination: str, via: tuple[str, ...]) -> str:
    """'fly 3 fields to inner lane, section 1, field 2 via the central lane': where a route ends and the other
    lanes it crosses on the way."""
    text = f"fly {steps} field{'s' if steps != 1 else ''} to {field_name(track, destination)}"
    lanes: list[str] = []
    for field in via:
        lane = track.lane[field]
        if lane is not None and lane != track.lane[destination] and lane not in lanes:
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
            title={"text": "The track (reconstructed, see ADP-C3)", "font": {"size": 12}, "y": 0.985},
            margin={"l": 2, "r": 2, "t": 24, "b": 2},
            legend={"font": {"size": 9}, "itemwidth": 30},
        )
        figure.add_scatter(
            x=[],
            y=[],
            mode="markers",
            name="legal targets",
            hoverinfo="text",
            marker={"size": 20, "symbol": "circle-open", "color": "#ff7f0e", "line": {"width": 4}},
        )
        figure.add_scatter(
            x=[],
            y=[],
            mode="markers+text",
            name="planes",
            hoverinfo="text",
            textposition="top center",
            textfont={"size": 11, "color": "#000000"},
            marker={"size": 16, "line": {"color": "#000000", "width": 1.5}},
        )
        self.figure = BoardFigure(figure)
        self.field_trace = next(trace for trace in self.figure.data if trace.name == "fields")
        self.target_trace = self.figure.data[-2]
        self.plane_trace = self.figure.data[-1]
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
        self.log_box = widgets.Accordion(children=[self.move_log], titles=("Move log (newest first)",))
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
        if self.finished:
            self.message, self.message_kind = "The game is over: start a new game to play again.", "error"
            self.redraw()
            return False
        routes = [move for move in self.choices() if isinstance(move, Move) and move.path[-1] == field]
        if not routes:
            name = field_name(self.track, field)
            self.message = (
                f"No route of this marble ends on {name}: pick one of the orange rings."
                if self.state.phase == "move"
                else f"{name[0].upper()}{name[1:]}: planes move only after a coloured marble."
            )
            self.message_kind = "info"
            self.redraw()
            return False
        routes.sort(key=lambda move: not picks_up_passenger(self.state, move.path))
        return self.play(routes[0])

    def _clicked(self, trace: Any, points: Any, _selector: Any) -> None:
        if points.point_inds:
            self.click_field(trace.customdata[points.point_inds[0]])

    # -- rendering -----------------------------------------------------------------------------------
    def describe_player(self, player: int | None) -> str:
        return "Chance" if player is None else player_label(player)

    def status_html(self) -> str:
        """The base class's status line, with the engine's field ids and player numbers in players' words."""
        message = self.message
        self.message = self.say(message)
        try:
            return super().status_html()
        finally:
            self.message = message

    def prompt(self) -> str:
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
        points = hand_points(state.hands[player])
        if state.phase == "turn":
            if state.drawn:
                return f"{who}: draw another card or stop ({points} points in hand)."
            minimum = state.config.fly_minimum
            can_fly = " or fly" if points >= minimum else f" (fewer than {minimum} points: no flying yet)"
            return f"Flight {state.flight}, {who}: draw spare parts{can_fly}."
        if state.phase == "move":
            distance = state.config.wind[("green", "blue", "red", "yellow").index(state.marble)]
            return f"{who}: {state.marble} marble, fly {distance} fields - click an orange ring or choose a route."
        if state.phase == "repair":
            return f"{who}: hurricane! Choose the cards that pay the repairs."
        if state.phase == "keep":
            return f"{who}: the flight is over - choose the one card you keep."
        return ""

    def draw(self) -> None:
        state = self.state
        graph = self.track.graph
        human = state.player is not None and state.player not in self.bots
        legal = set(legal_moves(state)) if human else set()
        for button, move in (
            (self.draw_button, DrawCard()),
            (self.stop_button, Stop()),
            (self.fly_button, Fly()),
            (self.stay_button, Stay()),
        ):
            button.button_style = "primary" if move in legal else ""
        options = [(self.describe_move(move), move) for move in self.choices()]
        self.choice.options = options
        self.choice.value = options[0][1] if options else None
        self.choice_label.value = f"<span style='font-size:12px'>{self.choice_title()}</span>"
        self.play_button.button_style = "primary" if options else ""
        targets = sorted({move.path[-1] for _, move in options if isinstance(move, Move)})
        xs, ys, texts, symbols, fills = [], [], [], [], []
        crowd: dict[str, int] = {}
        for player, field in enumerate(state.positions):
            slot = crowd.get(field, 0)
            crowd[field] = slot + 1
            x, y = graph.nodes[field]["x"], graph.nodes[field]["y"]
            if field in ("start", "airport"):
                angle = math.pi * (slot + 0.5) / state.players  # fan out above the field, clear of its label
                x, y = x + 0.9 * math.cos(angle), y + 0.9 * math.sin(angle)
            xs.append(x)
            ys.append(y)
            texts.append(f"P{player + 1}")
            symbols.append(PLAYER_SYMBOL[player])
            fills.append(PLAYER_FILL[player])
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
            marker={"symbol": symbols, "color": fills},
            hovertext=[f"{player_label(p)} on {field_name(self.track, f)}" for p, f in enumerate(state.positions)],
        )
        self.info.value = self.info_html()
        self.odds_panel.value = self.odds_html()
        self.move_log.value = self.turn_log_html()

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
                f"<br><small>{hand_points(hand)} points{passenger}</small></td>"
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

    def turn_log_html(self, limit: int = 40) -> str:
        """The last decisions, newest first, each with its player and the cards or marbles it brought."""
        first = max(1, len(self.states) - limit)
        rows = [
            self._log_entry(self.states[index - 1], self.states[index])
            for index in range(len(self.states) - 1, first - 1, -1)
        ]
        items = "".join(
            f"<li value='{index}'>{row}</li>" for index, row in zip(range(len(self.states) - 1, 0, -1), rows) if row
        )
        return f"<ol reversed style='margin:0;padding-left:2.5em;font-size:12px'>{items}</ol>"

    def _log_entry(self, before: State, after: State) -> str:
        """One line per decision: who made it, what it was, and the chance outcomes it caused."""
        moves = after.history[len(before.history) :]
        if not moves:
            return ""
        who = "Chance" if before.player is None else player_label(before.player)
        line = f"{who}: {self.move_log.linked(self.describe_move(moves[0], before))}"
        if len(moves) > 1:
            line += " &rarr; " + ", ".join(self.move_log.linked(self.describe_move(move)) for move in moves[1:])
        events = after.events
        if events[: len(before.events)] == before.events:
            events = events[len(before.events) :]
        if events:  # hurricane damage, payments, placings: what the move caused
            line += "<br><i>" + " ".join(self.move_log.linked(self.say(event)) for event in events) + "</i>"
        return line

    def odds_html(self) -> str:
        """Live exact odds for the player to move: next card busts, reaching the flying minimum and the repair cost,
        and whether drawing on or stopping ends the turn with more points on average."""
        state = self.state
        if state.player is None or state.phase != "turn":
            return ""
        hand = state.hands[state.player]
        pile = state.pile if sum(state.pile) else state.discard
        points, reds = hand_points(hand), hand[2]
        minimum = state.config.fly_minimum
        bust = odds.next_card_bust_probability(reds, pile)
        lines = [f"The next card is a third red 3 (bust): <b>{percent(bust)}</b>"]
        reach = odds.reach_probability(minimum, points, reds, pile)
        lines.append(f"Reaching {minimum} points (to fly) before a bust: <b>{percent(reach)}</b>")
        lane = self.track.lane[state.positions[state.player]]
        if lane is not None:
            cost = odds.repair_cost(lane, state.config)
            chance = odds.reach_probability(cost, points, reds, pile)
            lines.append(f"Reaching {cost} points (repairs on the {lane} lane): <b>{percent(chance)}</b>")
        advice = odds.best_stopping_rule("points", points, reds, pile)
        if advice.draw:
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
