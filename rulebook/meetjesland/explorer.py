"""The Odds tab of a Meetjesland game: an attack calculator and a chain planner over the exact odds.

Both follow the board (``board.listeners``): when the player to move has chosen an attack, or one is under way, the
calculator takes its stake and defenders and the planner starts its path there.  The planner's path is clicked on
the map itself (``board.click_hooks``) while "Plan a path" is pressed.  The numbers come from
:func:`rulebook.meetjesland.odds.attack_odds` and :func:`~rulebook.meetjesland.odds.chain_odds`; this module only
shows them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from ..view import markup
from ..view.figures import ChartView, trace
from ..view.table import Table  # the type of this game's widget.Board, which this module never imports
from . import charts
from .odds import CHAIN_TARGETS, AttackOdds, attack_odds, chain_odds
from .rules import Attack, State

MAX_POINTS = 100  # the calculator's inputs: up to 100 points a side
MAX_CHAIN_STAKE = 1000
MAX_PATH = 12  # territories on a planned path
EXACT_LIMIT = 60  # stake + defenders up to this: exact fractions (under 50 ms); beyond, floats
PANEL_WIDTH = 340  # px: the app's side panel


def exactly(probability: Any) -> str:
    """' (exactly 15/36)' when the probability is a fraction short enough to read, else ''."""
    if isinstance(probability, Fraction) and 0 < probability < 1:
        if len(str(probability.denominator)) <= charts.EXACT_DIGITS:
            return f" (exactly {probability})"
    return ""


def points_text(value: Any) -> str:
    """An expected number of points, one decimal."""
    number = float(value)
    return f"{number:.1f} point" if number == 1 else f"{number:.1f} points"


def parse_defenders(text: str) -> list[int]:
    """Typed defenders ``"3, 2, 4"`` -> ``[3, 2, 4]``; ValueError naming the first bad entry."""
    entries = [entry.strip() for entry in text.replace(";", ",").split(",")]
    entries = [entry for entry in entries if entry]
    if len(entries) > MAX_PATH:
        raise ValueError(f"at most {MAX_PATH} territories on a path, not {len(entries)}")
    values = []
    for position, entry in enumerate(entries, start=1):
        if not entry.isdigit() or not 1 <= int(entry) <= MAX_POINTS:
            raise ValueError(
                f"entry {position} ({entry[:10]!r}) must be a whole number of points from 1 to {MAX_POINTS}"
            )
        values.append(int(entry))
    return values


def note(text: str, kind: str = "", *, small: bool = True) -> markup.Markup:
    """A line of the explorer's text, in small print unless not ``small``: ``kind`` "info" (green), "muted" (grey),
    "error" (red) or "" (the text's own colour)."""
    return markup.render("note.html", package=__package__, text=text, kind=kind, small=small)


def _refresh(view: ChartView, fresh: go.Figure) -> None:
    """Show a new figure on a live chart (the page draws it with ``Plotly.react``, which keeps what is unchanged)."""
    view.plot = fresh
    view.draw()


class Explorer(widgets.VBox):
    """The attack calculator and the chain planner, in one column ``width`` px wide (340 in the app's panel; a
    notebook may pass more for bigger charts). A switch at the top shows one of the two there, so the planner, whose
    path is clicked on the map, stands beside the map (or just under it), not a screen below under the calculator."""

    def __init__(self, board: Table, *, width: int = PANEL_WIDTH, chart_height: int = 300) -> None:
        super().__init__()
        self.board = board
        self.width, self.chart_height = width, chart_height
        self.start: str | None = None  # the planner's own territory the path starts from
        self.path: list[str] = []
        self._synced: tuple[str, str, int] | None = None  # the board's attack last copied into the controls
        self._quiet = False
        self._shown: dict[str, Any] = {}  # what each part shows now, to skip recomputing the same numbers
        self._drawn_stops: tuple[str, ...] | None = None  # the path as the map shows it
        self.part = widgets.ToggleButtons(
            options=[("Attack calculator", "attack"), ("Chain planner", "chain")],
            value="attack",
            tooltips=["The odds of one attack", "The odds of a chain of attacks along a path clicked on the map"],
            style={"button_width": f"{(width - 24) // 2}px"},
        )
        self.part.add_class("rb-mj-explorer-part")
        self.calculator = widgets.VBox(self._calculator())
        self.planner = widgets.VBox(self._planner())
        self.part.observe(lambda _: self._show_part(), names="value")
        self.plan_button.observe(self._planning, names="value")
        self.children = (self.part, self.calculator, self.planner)
        self._show_part()
        self.layout.width = f"{width}px"
        self.add_class("rulebook-explorer")
        board.listeners.append(self.update)
        board.click_hooks.append(self.click)
        board.stake.observe(lambda _: self.update(), names="value")  # the stake slider moves without a redraw
        self.update()

    def _number(self, description: str, value: int, low: int, high: int, tooltip: str) -> widgets.BoundedIntText:
        """A number input of the explorer: its label in one width, and every change recomputes."""
        control = widgets.BoundedIntText(
            value=value,
            min=low,
            max=high,
            description=description,
            style={"description_width": "160px"},
            layout=widgets.Layout(width=f"{self.width - 12}px"),
            tooltip=tooltip,
        )
        control.observe(lambda _: self._controls_changed(), names="value")
        return control

    def _calculator(self) -> list[widgets.Widget]:
        """The attack calculator: stake, defenders and stop; the numbers and the chart of every way it ends."""
        self.attackers = self._number(
            "Attacking points (stake)", 5, 1, MAX_POINTS, "The points sent into the attack (1 more stays home)"
        )
        self.defenders = self._number("Defending points", 3, 1, MAX_POINTS, "The points on the territory attacked")
        self.stop_at = self._number(
            "Stop when down to", 0, 0, MAX_POINTS - 1, "The attacker breaks off with this many points left (0: never)"
        )
        self.attack_source = widgets.HTML()
        self.attack_result = widgets.HTML()
        self.attack_result.add_class("rulebook-explorer-result")
        self.attack_figure = ChartView(self._attack_figure(attack_odds(5, 3, exact=True)))
        heading = markup.render("heading.html", package=__package__, text="Attack calculator")
        return [
            widgets.HTML(heading),
            self.attack_source,
            self.attackers,
            self.defenders,
            self.stop_at,
            self.attack_result,
            self.attack_figure,
        ]

    def _planner(self) -> list[widgets.Widget]:
        """The chain planner: a path clicked on the map (or typed defenders), a stake, the numbers and a chart."""
        width = self.width
        self.plan_button = widgets.ToggleButton(
            value=False,
            description="Plan a path on the map",
            icon="map-marker",
            tooltip="While pressed, clicks on the map build the path instead of choosing a move",
            layout=widgets.Layout(width=f"{(width - 16) * 2 // 3}px"),
        )
        self.clear_button = widgets.Button(
            description="Clear", tooltip="Forget the path", layout=widgets.Layout(width=f"{(width - 16) // 3}px")
        )
        self.clear_button.on_click(lambda _: self.clear())
        self.plan_button.observe(lambda _: self._show_chain(), names="value")
        self.chain_stake = self._number(
            "Stake for the path", 6, 1, MAX_CHAIN_STAKE, "The points leaving the start (1 more stays home)"
        )
        self.typed = widgets.Text(
            description="Or defenders",
            placeholder="e.g. 3, 2, 4",
            style={"description_width": "160px"},
            layout=widgets.Layout(width=f"{width - 12}px"),
            continuous_update=False,
        )
        self.typed.observe(lambda _: self._controls_changed(), names="value")
        self.path_text = widgets.HTML()
        self.chain_result = widgets.HTML()
        self.chain_result.add_class("rulebook-explorer-result")
        self.chain_figure = ChartView(charts.chain_chart({}, [], 6, width=width, height=self.chart_height))
        return [
            widgets.HTML(markup.render("heading.html", package=__package__, text="Chain planner")),
            widgets.HTML(markup.render("planner_intro.html", package=__package__)),
            widgets.HBox([self.plan_button, self.clear_button]),
            self.path_text,
            self.chain_stake,
            self.typed,
            self.chain_result,
            self.chain_figure,
        ]

    def _show_part(self) -> None:
        """Show the part the switch names, at the top of the column; pressing "Plan a path" needs the planner shown."""
        planning = self.part.value == "chain"
        self.calculator.layout.display = "none" if planning else None
        self.planner.layout.display = None if planning else "none"
        if not planning and self.plan_button.value:
            self.plan_button.value = False  # clicks on the map go to the board again while the planner is away

    def _planning(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self.part.value = "chain"  # planning shows the planner, whatever pressed the button

    # -- following the board ------------------------------------------------------------------------------------
    def chosen_attack(self, state: State) -> tuple[str, str, int] | None:
        """The attack on the board now: one under way, or the origin, target and stake chosen for a legal attack."""
        board = self.board
        if state.battle is not None:
            return state.battle.origin, state.battle.target, state.battle.stake
        if state.player is None or board.origin is None or board.target is None:
            return None
        move = Attack(board.origin, board.target, board.stake.value)
        if board.game.check(state, move) is not None:
            return None
        return move.origin, move.target, move.stake

    def update(self, _board: Any = None) -> None:
        """After every redraw of the board: take a newly chosen attack, keep the path in step, show the odds."""
        state = self.board.state
        chosen = self.chosen_attack(state)
        if chosen is not None and chosen != self._synced:
            origin, target, stake = chosen
            self._quiet = True
            try:
                self.attackers.value = min(stake, MAX_POINTS)
                self.defenders.value = min(state.points_on(target), MAX_POINTS)
                self.stop_at.value = 0
                if self.start != origin or not self.path or self.path[0] != target:
                    self.start, self.path = origin, [target]
                self.chain_stake.value = max(
                    1, min(state.points_on(origin) - 1 + stake * (state.battle is not None), MAX_CHAIN_STAKE)
                )
            finally:
                self._quiet = False
            name = state.board.name
            under_way = "under way" if state.battle is not None else "chosen on the board"
            told = f"The attack {under_way}: {name(origin)} attacks {name(target)} with {stake}."
            self.attack_source.value = note(told, "info")
        self._synced = chosen
        self._follow_conquests(state)
        self._show_attack()
        self._show_chain()

    def _follow_conquests(self, state: State) -> None:
        """Territories of the path the attacker has taken since: the path now starts from the last of them."""
        if self.start is None:
            return
        attacker = state.owner_of(self.start)
        while self.path and state.owner_of(self.path[0]) == attacker:
            self.start = self.path.pop(0)

    def _controls_changed(self) -> None:
        if self._quiet:
            return
        self.attack_source.value = note("Your own numbers.", "muted")
        self._show_attack()
        self._show_chain()

    # -- the attack calculator ------------------------------------------------------------------------------------
    def _attack_figure(self, odds: AttackOdds) -> go.Figure:
        return charts.attack_chart(odds, width=self.width, height=self.chart_height + 80)

    def attack(self) -> AttackOdds:
        """The calculator's numbers: exact for small battles, floats beyond."""
        stake, defenders, stop_at = self.attackers.value, self.defenders.value, self.stop_at.value
        return attack_odds(stake, defenders, stop_at, exact=stake + defenders <= EXACT_LIMIT)

    def _show_attack(self) -> None:
        key = (self.attackers.value, self.defenders.value, self.stop_at.value)
        if self._shown.get("attack") == key:
            return
        self._shown["attack"] = key
        odds = self.attack()
        self.attack_result.value = markup.render(
            "attack_result.html",
            package=__package__,
            odds=odds,
            conquest=charts.percent(odds.conquest),
            exactly=exactly(odds.conquest),
            attacker_losses=points_text(odds.attacker_losses),
            defender_losses=points_text(odds.defender_losses),
            beaten=charts.percent(odds.beaten),
            broken_off=charts.percent(odds.broken_off),
        )
        _refresh(self.attack_figure, self._attack_figure(odds))

    # -- the chain planner --------------------------------------------------------------------------------------
    def click(self, territory: str) -> bool:
        """A click on the map: while planning, it builds the path (and the board does not see it)."""
        if not self.plan_button.value:
            return False
        self.add(territory)
        return True

    def clear(self) -> None:
        self.start, self.path = None, []
        self.path_text.value = ""
        self._show_chain()

    def add(self, territory: str) -> None:
        """Add ``territory`` to the path: the first click chooses the start (a territory of the player to move),
        each next one must border the last across an open border and belong to someone else; a click on the start
        clears the path, a click on a territory of the path cuts the path back to before it."""
        state = self.board.state
        board = state.board
        if territory not in board.index:
            raise ValueError(f"there is no territory {territory!r} on the map")
        name = board.name
        if territory == self.start:
            self.path = []
            told = f"Path cleared: click a neighbour of {name(territory)} held by another player."
        elif territory in self.path:
            del self.path[self.path.index(territory) :]
            told = f"Path cut back before {name(territory)}."
        elif self.start is None or state.owner_of(territory) == state.owner_of(self.start):
            if state.owner_of(territory) != state.turn:
                told = f"{name(territory)} is not yours: start the path from one of your territories."
            else:
                self.start, self.path = territory, []
                told = f"Starting from {name(territory)}: click a neighbour held by another player."
        elif len(self.path) >= MAX_PATH:
            told = f"A path holds at most {MAX_PATH} territories."
        else:
            last = self.path[-1] if self.path else self.start
            if territory in board.neighbours[last]:
                self.path.append(territory)
                told = f"{name(territory)} added."
            elif board.graph.has_edge(last, territory):
                told = f"A canal separates {name(last)} and {name(territory)}: no attack across it (MJ-5.2)."
            else:
                told = f"{name(territory)} does not border {name(last)}: click a neighbour of {name(last)}."
        self.path_text.value = note(told, "muted")
        self._show_chain()

    def defenders_along_path(self) -> list[int]:
        """The points on the path's territories in the position on the board, or the typed ones without a path."""
        if self.path:
            return [self.board.state.points_on(territory) for territory in self.path]
        return parse_defenders(self.typed.value)

    def _show_chain(self) -> None:
        self._draw_path()
        try:
            defenders = self.defenders_along_path()
        except ValueError as error:
            self._shown["chain"] = None
            self.chain_result.value = note(f"Defenders: {error}", "error", small=False)
            return
        stake = self.chain_stake.value
        if not defenders:
            self._shown["chain"] = None
            told = f"No path yet for a stake of {stake}: plan one on the map or type the defenders."
            self.chain_result.value = note(told, "muted", small=False)
            _refresh(self.chain_figure, charts.chain_chart({}, [], stake, self.width, self.chart_height))
            return
        state = self.board.state
        key = (stake, tuple(defenders), tuple(self.path), self.start, state.points_on(self.start) if self.start else 0)
        if self._shown.get("chain") == key:
            return
        self._shown["chain"] = key
        exact = stake + sum(defenders) <= EXACT_LIMIT
        odds = chain_odds(stake, defenders, CHAIN_TARGETS, exact=exact)
        name = state.board.name
        labels = [name(t) for t in self.path] if self.path else [f"territory {i}" for i in range(1, len(defenders) + 1)]
        self.chain_result.value = markup.render(
            "chain_result.html",
            package=__package__,
            stake=stake,
            start=name(self.start) if self.path and self.start else "",
            listed=", ".join(f"{label} ({points})" for label, points in zip(labels, defenders)),
            count=len(defenders),
            all_taken=charts.percent(odds.all_taken),
            exactly=exactly(odds.all_taken),
            needed="; ".join(f"{target * 100:.0f} %: {odds.stakes[target]}" for target in CHAIN_TARGETS),
            available=state.points_on(self.start) - 1 if self.path and self.start else None,
        )
        reached = [*odds.reached, 0]
        outcomes: dict[tuple[int, int, int], float | Fraction] = {  # chain_chart wants "exactly this many taken"
            (position + 1, 0, 0): reached[position] - reached[position + 1] for position in range(len(defenders))
        }
        _refresh(self.chain_figure, charts.chain_chart(outcomes, labels, stake, self.width, self.chart_height))

    def _draw_path(self) -> None:
        """The planned path on the map: a dash-dot line from the start through each territory, numbered in order.
        The map is sent again only when the path changed (the board's own redraws leave this trace as it is)."""
        stops = tuple(([self.start] if self.start else []) + self.path)
        if stops == self._drawn_stops:
            return
        self._drawn_stops = stops
        graph = self.board.state.board.graph
        trace(self.board.figure.plot, "planned path").update(
            x=[graph.nodes[t]["x"] for t in stops],
            y=[graph.nodes[t]["y"] for t in stops],
            text=([""] + [str(i) for i in range(1, len(self.path) + 1)]) if stops else [],
        )
        self.board.figure.draw()
