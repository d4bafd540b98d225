"""The live Meetjesland board: the map drawn at the villages' coordinates, played by clicks or dropdowns.

The widget only renders the state and sends moves through ``check``/``apply`` (via :class:`rulebook.ui.Table`).
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from ..ui import BoardFigure, Table
from . import rules
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

# Colours and marker shapes per player: distinct in hue, lightness and shape (colour-blind safe).
PLAYER_FILL = ("#ffffff", "#222222", "#f4a6c8", "#1b9e9e", "#8c564b", "#a0a0a0")
PLAYER_TEXT = ("#000000", "#ffffff", "#000000", "#ffffff", "#ffffff", "#000000")
PLAYER_SYMBOL = ("circle", "square", "diamond", "triangle-up", "pentagon", "hexagram")
LINE_STYLE = {"thin": ("#555555", 1.2, "solid"), "white": ("#ffffff", 4, "solid"), "thick": ("#1d4e89", 6, "solid")}


def player_chip(player: int) -> str:
    """A small coloured label for a player, for status lines and the hand."""
    return (
        f"<span style='background:{PLAYER_FILL[player]};color:{PLAYER_TEXT[player]};border:1px solid #333;"
        f"padding:0 5px;border-radius:3px'>{PLAYER_COLOURS[player]}</span>"
    )


def dice_faces(values: tuple[int, ...], colour: str) -> str:
    """Dice as small square faces with their numbers (no emoji, so every browser font shows them)."""
    return " ".join(
        f"<span style='display:inline-block;width:1.5em;text-align:center;border:2px solid {colour};"
        f"border-radius:4px;font-weight:bold;font-size:15px'>{value}</span>"
        for value in values
    )


def dice_html(dice: rules.Dice) -> str:
    """The last roll as faces, and what it cost each side (MJ-5.6, MJ-5.7: ties go to the defender)."""
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
    faces = f"{dice_faces(dice.attacker, '#c0392b')} against {dice_faces(dice.defender, '#1f4e89')}"
    return f"<b>Dice</b> {faces}<br><span style='font-size:12px'>{costs.capitalize()}{tie}.</span>"


def place_names(
    xs: list[float], ys: list[float], names: list[str], width: float, height: float, font_px: float = 9
) -> tuple[list[float], list[float]]:
    """Where to write each territory's name: below its point unless that covers another point or name, else
    above, right or left, whichever covers least (greedy, most crowded points first). In data units."""
    scale = min(width / ((max(xs) - min(xs)) or 1), height / ((max(ys) - min(ys)) or 1)) * 0.92  # px per km
    marker = 20.0  # half the width of a point with its halo, in px
    sizes = [(0.56 * font_px * len(name) + 4, font_px + 4) for name in names]  # label boxes, px

    def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
        dx = min(a[0] + a[2], b[0] + b[2]) - max(a[0] - a[2], b[0] - b[2])
        dy = min(a[1] + a[3], b[1] + b[3]) - max(a[1] - a[3], b[1] - b[3])
        return max(dx, 0) * max(dy, 0)

    points = [(x * scale, y * scale, marker * 0.8, marker * 0.8) for x, y in zip(xs, ys)]
    crowding = [sum(1 for q in points if abs(q[0] - p[0]) + abs(q[1] - p[1]) < 90) for p in points]
    placed: dict[int, tuple[float, float, float, float]] = {}
    for i in sorted(range(len(xs)), key=lambda i: -crowding[i]):
        half_w, half_h = sizes[i][0] / 2, sizes[i][1] / 2
        x, y = points[i][0], points[i][1]
        candidates = [
            (x, y - marker - half_h + 4),  # below, the usual place
            (x, y + marker + half_h - 4),  # above
            (x + marker + half_w - 6, y),  # right
            (x - marker - half_w + 6, y),  # left
        ]
        costs = []
        for rank, (cx, cy) in enumerate(candidates):
            box = (cx, cy, half_w, half_h)
            cost = sum(overlap(box, p) for j, p in enumerate(points) if j != i)
            cost += 3 * sum(overlap(box, other) for other in placed.values())
            costs.append((cost, rank))
        best = candidates[min(costs)[1]]
        placed[i] = (best[0], best[1], half_w, half_h)
    return [placed[i][0] / scale for i in range(len(xs))], [placed[i][1] / scale for i in range(len(xs))]


MAP_WIDTH, MAP_HEIGHT = 500, 480  # px: with the 360 px controls column the board fits the app's 880 x 680 px box
COLUMN_WIDTH = 360  # px, the controls column at the right of the map


def plural(count: int, word: str) -> str:
    """``1 point``, ``3 points``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def map_figure(state: State, width: int = MAP_WIDTH, height: int = MAP_HEIGHT) -> BoardFigure:
    """The map as a FigureWidget: borders by kind, regions as halos, territories by owner with their points."""
    board = state.board
    graph = board.graph
    figure = go.Figure(
        layout=go.Layout(
            width=width,
            height=height,
            margin=dict(l=5, r=5, t=5, b=5),
            showlegend=False,
            plot_bgcolor="#efe9d8",
            paper_bgcolor="#ffffff",
            dragmode=False,
            clickmode="event",
            xaxis=dict(visible=False, scaleanchor="y"),
            yaxis=dict(visible=False),
        )
    )
    for line, (colour, width_px, dash) in LINE_STYLE.items():
        xs: list[Any] = []
        ys: list[Any] = []
        for a, b, kind in graph.edges(data="line"):
            if kind == line:
                xs += [graph.nodes[a]["x"], graph.nodes[b]["x"], None]
                ys += [graph.nodes[a]["y"], graph.nodes[b]["y"], None]
        figure.add_scatter(
            x=xs,
            y=ys,
            mode="lines",
            line=dict(color=colour, width=width_px, dash=dash),
            hoverinfo="skip",
            name=f"{line} line",
        )
    territories = board.territories
    xs = [graph.nodes[t]["x"] for t in territories]
    ys = [graph.nodes[t]["y"] for t in territories]
    colours = graph.graph["region_colours"]
    figure.add_scatter(
        x=xs,
        y=ys,
        mode="markers",
        hoverinfo="skip",
        name="regions",
        marker=dict(size=36, color=[colours[board.region(t)] for t in territories], opacity=0.45, line=dict(width=0)),
    )
    figure.add_scatter(
        x=xs,
        y=ys,
        mode="markers",
        hoverinfo="skip",
        name="highlight",
        marker=dict(size=0, symbol="circle-open", color="#e6a100", line=dict(width=4)),
    )
    figure.add_scatter(
        x=xs,
        y=ys,
        mode="markers+text",
        name="territories",
        textfont=dict(size=11),
        hoverinfo="text",
        marker=dict(size=23, line=dict(width=1.5, color="#222222")),
    )
    names = [board.name(t) for t in territories]
    name_xs, name_ys = place_names(xs, ys, names, width=width - 10, height=height - 10)
    figure.add_scatter(
        x=name_xs,
        y=name_ys,
        mode="text",
        hoverinfo="skip",
        name="names",
        text=names,
        textfont=dict(size=9, color="#222222", shadow="auto"),  # a halo in the background colour over lines
    )
    # Built as a Figure and wrapped at the end: traces added to a live FigureWidget before its view exists are
    # lost in Voila (the board drew empty there), while a widget created with its traces renders everywhere.
    return BoardFigure(figure)


def legend_html(state: State) -> str:
    """What the colours, shapes, lines and rings of the map mean, in a few short lines under the map."""
    colours = state.board.graph.graph["region_colours"]
    regions = " ".join(
        f"<span style='background:{colour};opacity:0.8;padding:0 5px;border-radius:8px'>{region}</span>"
        for region, colour in colours.items()
    )
    shapes = {"circle": "●", "square": "■", "diamond": "◆", "triangle-up": "▲", "pentagon": "⬟", "hexagram": "✶"}
    players = " ".join(f"{shapes[PLAYER_SYMBOL[p]]} {player_chip(p)}" for p in range(state.players))
    return (
        f"<div style='font-size:11px;line-height:1.6;width:{MAP_WIDTH}px'>"
        f"<b>Regions</b> (halo): {regions}<br><b>Players</b> (number = points): {players}<br>"
        "<b>Borders</b>: grey = same municipality, white = other municipality or bridge, "
        "<span style='color:#1d4e89'><b>thick blue</b></span> = canal, no access (MJ-5.2)<br>"
        "<b>Rings</b>: <span style='color:#b07b00'><b>gold</b></span> chosen, "
        "<span style='color:#2e7d32'><b>green</b></span> may attack or move there, "
        "<span style='color:#1f77b4'><b>blue</b></span> place here, <span style='color:#c0392b'><b>red</b></span> "
        "target</div>"
    )


def card_label(card: str) -> str:
    """A card as players name it: the village and its colour, or the Brewery card."""
    if card == rules.BREWERY:
        return "Brewery Van Steenberge (traded alone)"
    return f"{rules.card_name(card)} ({rules.card_colour(card)})"


def _control(kind, **options):
    """A control of the side column: one width and one label width for all of them."""
    return kind(layout=widgets.Layout(width=f"{COLUMN_WIDTH - 8}px"), style={"description_width": "64px"}, **options)


class Board(Table):
    """A Meetjesland game on a live map; ``computer`` maps seats to computer players (``bots.BOTS`` names).

    The map sits at the left and a column of controls at its right, so that the whole board fits in 880 x 680 px
    (the app's board area); the move log waits below in a closed accordion."""

    def __init__(self, state: State, *, seed: int = 0, computer: Any = (), **kwargs: Any) -> None:
        super().__init__(state, seed=seed, computer=computer, **kwargs)
        self.origin: str | None = None
        self.target: str | None = None
        self.figure = map_figure(state)
        self.figure.data[5].on_click(self._clicked)
        board = state.board
        names = [(board.name(t), t) for t in sorted(board.territories, key=board.name)]
        # "" stands for no choice: a Dropdown shows a value of None as an empty box, without its label
        self.origin_menu = _control(
            widgets.Dropdown, options=[("(click the map)", "")] + names, value="", description="From / on"
        )
        self.target_menu = _control(
            widgets.Dropdown, options=[("(click the map)", "")] + names, value="", description="To"
        )
        self.amount = _control(widgets.IntSlider, value=1, min=1, max=1, description="Points")
        self.stake = _control(widgets.IntSlider, value=1, min=1, max=1, description="Stake")
        self.odds = widgets.HTML(layout=widgets.Layout(min_height="1.5em"))
        self.dice = widgets.HTML(layout=widgets.Layout(min_height="3em"))
        self.mission = widgets.HTML()
        self.hand = widgets.HTML()
        self.cards = _control(widgets.SelectMultiple, options=[], description="Cards", rows=4)
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
        row = widgets.HBox
        controls = widgets.VBox(
            [
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
            ],
            layout=widgets.Layout(width=f"{COLUMN_WIDTH}px", overflow="hidden"),
        )
        self.legend = widgets.HTML(legend_html(state))
        log_box = widgets.Accordion(children=[self.move_log], titles=("Move log",))
        left = widgets.VBox([self.figure, self.legend], layout=widgets.Layout(width=f"{MAP_WIDTH + 4}px"))
        self.children = [
            self.status,
            row([left, controls], layout=widgets.Layout(justify_content="flex-start")),
            log_box,
        ]
        self.start()

    # -- input ------------------------------------------------------------------------------------
    def _clicked(self, trace, points, selector) -> None:
        if points.point_inds:
            self.select(self.state.board.territories[points.point_inds[0]])

    def select(self, territory: str) -> None:
        """A click on a territory: choose where to place, attack from, or the target of an attack or move."""
        state = self.state
        if self.finished:
            self.message, self.message_kind = "The game is over: start a new game to play again.", "info"
            self.redraw()
            return
        own = state.owner_of(territory) == state.turn
        if (
            self.origin
            and not own
            or (
                self.origin
                and own
                and territory in state.board.neighbours[self.origin]
                and not state.to_place
                and state.phase == "play"
            )
        ):
            self._set(self.origin, territory)
        elif own:
            self._set(territory, None)
        else:
            self.message, self.message_kind = (
                f"{state.board.name(territory)} is not yours: choose one of your territories first.",
                "info",
            )
            self.redraw()

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
        if self.state.phase != "setup":
            self.message, self.message_kind = "Auto-place is for the starting points (MJ-C4).", "error"
            self.redraw()
            return
        self.states.append(rules.auto_setup(self.state, self.rng))
        self.message, self.message_kind = "Starting points spread at random", "info"
        self.message += self.replies(self._settle())
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
        state = self.state
        result = rules.outcome(state)
        if result is not None:
            winners = " and ".join(PLAYER_COLOURS[p].capitalize() for p in result.winners) or "Nobody"
            return f"Game over: {winners} {'wins' if len(result.winners) <= 1 else 'win'} ({result.reason})."
        name = PLAYER_COLOURS[state.turn].capitalize()
        who = f"{name} (computer)" if state.turn in self.bots else name
        if state.phase == "setup":
            return (
                f"{who} sets up: place {plural(state.to_place, 'more point')} on your territories "
                "(click one, or Auto-place)."
            )
        if state.battle is not None:
            b = state.battle
            return (
                f"{who} attacks {state.board.name(b.target)} from {state.board.name(b.origin)}: "
                f"{b.stake} staked against {state.points_on(b.target)}. Roll again or break off."
            )
        if len(state.hands[state.turn]) > state.config.hand_limit:
            return f"{who} holds {len(state.hands[state.turn])} cards: trade three of them first (MJ-4.8)."
        if state.to_place:
            return f"{who}: place {plural(state.to_place, 'point')} on your territories."
        if state.stage == "start":
            count = rules.reinforcements(len(state.territories_of(state.turn)))
            return (
                f"{who}'s turn: trade cards, take {count} reinforcements, "
                "or attack (click your territory, then a target)."
            )
        if state.stage == "reinforce":
            return f"{who}: move points if you like, then end the turn."
        return f"{who}: attack again, move points, or end the turn."

    def draw(self) -> None:
        state, board = self.state, self.state.board
        figure = self.figure
        territories = board.territories
        highlight = self._highlights()
        # One update per trace: a batch spanning several traces with different keys resets the keys a trace
        # lacks in the browser (seen with plotly 7's FigureWidget), so each trace gets its own message.
        figure.data[5].update(
            marker={"color": [PLAYER_FILL[o] for o in state.owner], "symbol": [PLAYER_SYMBOL[o] for o in state.owner]},
            text=[str(p) for p in state.points],
            textfont={"color": [PLAYER_TEXT[o] for o in state.owner]},
            hovertext=[
                f"{board.name(t)}: {board.region(t)} region, bonus number {board.number(t)}<br>"
                f"{PLAYER_COLOURS[o].capitalize()}, {plural(p, 'point')}"
                for t, o, p in zip(territories, state.owner, state.points)
            ],
        )
        figure.data[4].update(
            marker={
                "color": [highlight.get(t, "#ffffff") for t in territories],
                "size": [32 if t in highlight else 0 for t in territories],
            }
        )
        self._sync_controls()
        self._show_odds()
        self.move_log.value = self.log_html(list(state.history))

    def _highlights(self) -> dict[str, str]:
        """Gold ring: the chosen territory; green rings: where it may attack or move; blue: where to place."""
        state = self.state
        if state.phase == "over" or state.player is None:
            return {}
        if state.battle is not None:
            return {state.battle.origin: "#e6a100", state.battle.target: "#c0392b"}
        marks: dict[str, str] = {}
        if state.phase == "setup" or state.to_place:
            marks = dict.fromkeys(state.territories_of(state.turn), "#1f77b4")
        elif self.origin and state.owner_of(self.origin) == state.turn:
            for move in rules.legal_moves(state):
                if isinstance(move, (Attack, Fortify)) and move.origin == self.origin:
                    marks[move.target if isinstance(move, Attack) else move.destination] = "#2e7d32"
        if self.origin:
            marks[self.origin] = "#e6a100"
        if self.target:
            marks[self.target] = "#c0392b"
        return marks

    def _sync_controls(self) -> None:
        state = self.state
        player = state.turn
        available = state.points_on(self.origin) - 1 if self.origin else 0
        self.stake.max = max(1, available)
        self.amount.max = max(1, state.to_place or min(available, state.config.move_limit - state.moved))
        mission = state.mission(player)
        self.mission.value = (
            f"<div style='font-size:13px;line-height:1.35'><b>Mission</b> of {player_chip(player)}: "
            f"{html.escape(mission.text)}</div>"
        )
        hand = state.hands[player]
        colours = state.board.graph.graph["region_colours"]
        # The colours as swatches (the list below names them in words): the hand stays one line however long.
        swatches = "".join(
            f"<span title='{html.escape(card_label(c), quote=True)}' style='display:inline-block;width:10px;"
            f"height:12px;margin-right:2px;vertical-align:middle;border:1px solid #333;"
            f"background:{colours.get(rules.card_colour(c), '#8d6e63')}'></span>"
            for c in hand
        )
        count = plural(len(hand), "card") if hand else "no cards"
        self.hand.value = f"<div style='font-size:13px'><b>Hand</b>: {count} {swatches}</div>"
        self.cards.options = [(card_label(c), c) for c in hand]
        dice = state.last_dice
        self.dice.value = "" if dice is None else dice_html(dice)
        playing = state.player is not None and state.player not in self.bots
        for button in (
            self.place_button,
            self.auto_button,
            self.reinforce_button,
            self.attack_button,
            self.roll_button,
            self.blitz_button,
            self.retreat_button,
            self.move_button,
            self.trade_button,
            self.end_button,
        ):
            button.disabled = not playing
        in_battle = state.battle is not None
        self.roll_button.disabled |= not in_battle
        self.blitz_button.disabled |= not in_battle
        self.retreat_button.disabled |= not in_battle
        self.attack_button.disabled |= in_battle
        self.auto_button.disabled |= state.phase != "setup"

    def _show_odds(self) -> None:
        state = self.state
        if (
            self.origin
            and state.battle is None
            and state.owner_of(self.origin) == state.turn
            and state.points_on(self.origin) < 2
            and not state.to_place
        ):
            self.odds.value = f"{html.escape(state.board.name(self.origin))} has 1 point: it cannot attack (MJ-5.2)."
        elif (
            self.origin
            and self.target
            and state.battle is None
            and state.owner_of(self.origin) == state.turn
            and state.owner_of(self.target) != state.turn
        ):
            defenders = state.points_on(self.target)
            chance = win_probability(self.stake.value, defenders)
            self.odds.value = f"Chance to conquer with {self.stake.value} against {defenders}: <b>{chance:.1%}</b>"
        elif state.battle is not None:
            chance = win_probability(state.battle.stake, state.points_on(state.battle.target))
            self.odds.value = f"Chance to conquer if you fight on: <b>{chance:.1%}</b>"
        else:
            self.odds.value = ""
