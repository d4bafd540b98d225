"""The live Ab die Post! board: the track drawn from the graph, the planes, every player's cards, the live
draw odds, the marble, hurricane damage and the scoring track; played with buttons, a dropdown or clicks.

The widget only renders the state and sends moves through ``check``/``apply`` (via :class:`rulebook.ui.Table`).
"""

from __future__ import annotations

import html
import math
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
)

# Per player: a fill colour, a marker shape and a name; shapes and labels keep planes apart without colour.
PLAYER_FILL = ("#d62728", "#1f4e9c", "#f2c500", "#2ca02c", "#7b3f9e", "#ffffff")
PLAYER_SYMBOL = ("triangle-up", "square", "diamond", "circle", "star", "hexagram")
PLAYER_NAME = ("red", "blue", "yellow", "green", "purple", "white")
PLAYER_GLYPH = ("&#9650;", "&#9632;", "&#9670;", "&#9679;", "&#9733;", "&#10017;")  # the marker shapes as text
MARBLE_FILL = {"green": "#2ca02c", "blue": "#1f77b4", "red": "#d62728", "yellow": "#f2c500", "black": "#000000"}


def player_label(player: int) -> str:
    """'P1 (red)' - the number and the colour name, so no one needs to tell colours apart."""
    return f"P{player + 1} ({PLAYER_NAME[player]})"


class Board(Table):
    """A game of Ab die Post! in play: the track with planes, hands, odds, controls, log and undo."""

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
        figure = track_figure(self.track, width=560, height=560, widget=False)
        figure.add_scatter(
            x=[],
            y=[],
            mode="markers",
            name="legal targets",
            hoverinfo="text",
            marker={"size": 22, "symbol": "circle-open", "color": "#ff7f0e", "line": {"width": 4}},
        )
        figure.add_scatter(
            x=[],
            y=[],
            mode="markers+text",
            name="planes",
            hoverinfo="text",
            textposition="top center",
            textfont={"size": 11, "color": "#000000"},
            marker={"size": 18, "line": {"color": "#000000", "width": 1.5}},
        )
        self.figure = BoardFigure(figure)
        self.field_trace = next(trace for trace in self.figure.data if trace.name == "fields")
        self.target_trace = self.figure.data[-2]
        self.plane_trace = self.figure.data[-1]
        self.field_trace.on_click(self._clicked)
        self.target_trace.on_click(self._clicked)
        self.draw_button = widgets.Button(
            description="Draw a card", icon="clone", tooltip="Obtain spare parts (ADP-4.1)"
        )
        self.stop_button = widgets.Button(
            description="Stop drawing", icon="hand-paper-o", tooltip="End the turn (ADP-4.1)"
        )
        self.fly_button = widgets.Button(
            description="Fly", icon="plane", tooltip="Shake the hurricane indicator (ADP-5.2)"
        )
        self.stay_button = widgets.Button(
            description="Stay put", tooltip="Do not move after a coloured marble (ADP-C8)"
        )
        self.choice = widgets.Dropdown(description="Choice:", options=[], layout=widgets.Layout(width="520px"))
        self.play_button = widgets.Button(description="Play choice", icon="check", tooltip="Play the move chosen above")
        self.draw_button.on_click(lambda _: self.play(DrawCard()))
        self.stop_button.on_click(lambda _: self.play(Stop()))
        self.fly_button.on_click(lambda _: self.play(Fly()))
        self.stay_button.on_click(lambda _: self.play(Stay()))
        self.play_button.on_click(lambda _: self.play_choice())
        # ui.Table's ``self.log`` is overwritten by traitlets' logger when the VBox initialises, so keep our own.
        self.move_log = widgets.HTML(layout=widgets.Layout(max_height="14em", overflow="auto", border="1px solid #ccc"))
        self.info = widgets.HTML(layout=widgets.Layout(width="390px"))
        self.odds_panel = widgets.HTML()
        controls = widgets.VBox(
            [
                widgets.HBox([self.draw_button, self.stop_button, self.fly_button, self.stay_button]),
                widgets.HBox([self.choice, self.play_button]),
                widgets.HBox([self.undo_button]),
            ]
        )
        self.children = [
            self.status,
            widgets.HBox([self.figure, widgets.VBox([self.info, self.odds_panel])]),
            controls,
            widgets.HTML("<b>Move log</b> (newest first; chance outcomes after the move that caused them)"),
            self.move_log,
        ]
        self.start()

    # -- moves ---------------------------------------------------------------------------------------
    def choices(self) -> list[Any]:
        """The moves offered in the dropdown: routes, repair payments or the card to keep."""
        if self.state.player is None or self.state.player in self.bots:
            return []
        return [move for move in legal_moves(self.state) if isinstance(move, (Move, Repair, KeepCard))]

    def play_choice(self) -> bool:
        """Play the dropdown's move."""
        if self.choice.value is None:
            self.message, self.message_kind = "There is nothing to choose right now.", "info"
            self.redraw()
            return False
        return self.play(self.choice.value)

    def click_field(self, field: str) -> bool:
        """A click on a field: fly there if a route ends there (the passenger route first), else explain."""
        routes = [move for move in self.choices() if isinstance(move, Move) and move.path[-1] == field]
        if not routes:
            self.message = (
                f"No route of this marble ends on {field}."
                if self.state.phase == "move"
                else (f"{field}: planes move only after a coloured marble.")
            )
            self.message_kind = "info"
            self.redraw()
            return False
        routes.sort(key=lambda move: self.state.passenger is None and not _passes_passenger(self.track, move.path))
        return self.play(routes[0])

    def _clicked(self, trace: Any, points: Any, _selector: Any) -> None:
        if points.point_inds:
            self.click_field(trace.customdata[points.point_inds[0]])

    # -- rendering -----------------------------------------------------------------------------------
    def describe_player(self, player: int | None) -> str:
        return "Chance" if player is None else player_label(player)

    def prompt(self) -> str:
        state = self.state
        if state.phase == "over":
            result = self.game.outcome(state)
            names = " and ".join(player_label(p) for p in result.winners)
            return f"Game over: {names} won with {result.reason}."
        player = state.player
        who = player_label(player)
        points = hand_points(state.hands[player])
        if state.phase == "turn":
            if state.drawn:
                return f"{who}: draw another card or stop ({points} points in hand)."
            can_fly = " or fly" if points >= state.config.fly_minimum else " (fewer than 4 points: no flying yet)"
            return f"Flight {state.flight}, {who}: draw spare parts{can_fly}."
        if state.phase == "move":
            distance = state.config.wind[("green", "blue", "red", "yellow").index(state.marble)]
            return f"{who}: {state.marble} marble, fly {distance} fields - click an orange ring or use the dropdown."
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
        choices = self.choices()
        self.choice.options = [(str(move), move) for move in choices]
        self.choice.value = choices[0] if choices else None
        self.play_button.button_style = "primary" if choices else ""
        targets = sorted({move.path[-1] for move in choices if isinstance(move, Move)})
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
            hovertext=[f"fly to {f}" for f in targets],
        )
        self.plane_trace.update(
            x=xs,
            y=ys,
            text=texts,
            marker={"symbol": symbols, "color": fills},
            hovertext=[f"{player_label(p)} on {f}" for p, f in enumerate(state.positions)],
        )
        self.info.value = self.info_html()
        self.odds_panel.value = self.odds_html()
        self.move_log.value = self.turn_log_html()

    def info_html(self) -> str:
        """Players' planes, cards and scores, the passenger, the marble and the last events."""
        state = self.state
        rows = []
        for player in range(state.players):
            hand = state.hands[player]
            lane = self.track.lane[state.positions[player]] or state.positions[player]
            mark = " &#9992;" if player == state.player else ""
            passenger = " + passenger" if state.passenger == player else ""
            share = min(100, round(100 * state.scores[player] / max(1, state.config.target)))
            bar = (
                f"<div style='width:50px;height:7px;border:1px solid #333;display:inline-block'>"
                f"<div style='width:{share}%;height:100%;background:#555'></div></div>"
            )
            kind = "computer" if player in self.bots else "person"
            rows.append(
                f"<tr><td><span style='color:{PLAYER_FILL[player]};-webkit-text-stroke:1px #000'>"
                f"{PLAYER_GLYPH[player]}</span> "
                f"<b>{html.escape(player_label(player))}</b>{mark}<br><small>{kind}</small></td>"
                f"<td>{html.escape(lane)}</td><td>{hand[0]}&times;1, {hand[1]}&times;2, {hand[2]}&times;<b>red 3</b>"
                f"<br><small>{hand_points(hand)} points{passenger}</small></td>"
                f"<td>{bar} <b>{state.scores[player]}</b>/{state.config.target}</td></tr>"
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
        events = "".join(f"<li>{html.escape(event)}</li>" for event in state.events)
        return (
            f"<div style='font-size:12px'><b>Flight {state.flight}</b> ({direction}), "
            f"target {state.config.target} points"
            f"<table style='border-collapse:collapse;font-size:12px' cellpadding='2'><tr><th>player</th><th>where</th>"
            f"<th>cards</th><th>score</th></tr>{''.join(rows)}</table>"
            f"Pile: {describe_cards(state.pile)} &middot; discard: {describe_cards(state.discard)}<br>"
            f"{' &middot; '.join(latest)}"
            f"<ul style='margin:2px 0;padding-left:1.4em'>{events}</ul></div>"
        )

    def turn_log_html(self, limit: int = 40) -> str:
        """The last decisions, newest first, each with its player and the cards or marbles it brought."""
        first = max(1, len(self.states) - limit)
        rows = [
            _log_entry(self.states[index - 1], self.states[index])
            for index in range(len(self.states) - 1, first - 1, -1)
        ]
        items = "".join(
            f"<li value='{index}'>{row}</li>" for index, row in zip(range(len(self.states) - 1, 0, -1), rows) if row
        )
        return f"<ol reversed style='margin:0;padding-left:2.5em;font-size:12px'>{items}</ol>"

    def odds_html(self) -> str:
        """Live exact odds for the player to move: next card busts, reaching 4 points (to fly) and the repair cost."""
        state = self.state
        if state.player is None or state.phase not in ("turn",):
            return ""
        hand = state.hands[state.player]
        pile = state.pile if sum(state.pile) else state.discard
        points, reds = hand_points(hand), hand[2]
        bust = odds.next_card_bust_probability(reds, pile)
        lines = [f"Next card busts: <b>{bust}</b> ({float(bust):.1%})"]
        lines.append(f"Reach 4 points (to fly) before a bust: <b>{odds.reach_probability(4, points, reds, pile)}</b>")
        lane = self.track.lane[state.positions[state.player]]
        if lane is not None:
            cost = odds.repair_cost(lane, state.config)
            chance = odds.reach_probability(cost, points, reds, pile)
            lines.append(f"Reach {cost} points (a {lane}-lane repair): <b>{float(chance):.1%}</b>")
        advice = odds.best_stopping_rule("points", points, reds, pile)
        verdict = "draw" if advice.draw else "stop"
        lines.append(
            f"For most expected points: <b>{verdict}</b> (draw on: {float(advice.value_if_draw):.2f}, "
            f"stop: {advice.value_if_stop})"
        )
        return (
            "<div style='font-size:12px;border:1px solid #ccc;padding:4px'><b>Exact odds</b> (this pile)<br>"
            + "<br>".join(lines)
            + "</div>"
        )


def _log_entry(before: State, after: State) -> str:
    """One line per decision: who made it, what it was, and the chance outcomes it caused."""
    moves = after.history[len(before.history) :]
    if not moves:
        return ""
    who = "Chance" if before.player is None else f"P{before.player + 1}"
    line = f"{who}: {html.escape(str(moves[0]))}"
    if len(moves) > 1:
        line += " &rarr; " + ", ".join(html.escape(str(move)) for move in moves[1:])
    events = after.events
    if events[: len(before.events)] == before.events:
        events = events[len(before.events) :]
    if events:  # hurricane damage, payments, placings: what the move caused
        line += "<br><i>" + " ".join(html.escape(event) for event in events) + "</i>"
    return line


def _passes_passenger(track: Track, path: tuple[str, ...]) -> bool:
    return path[-1] in track.passenger_fields or all(field in path[1:] for field in track.passenger_fields)
