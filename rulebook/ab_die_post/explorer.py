"""The draw advisor beside the Ab die Post! board (the app's Odds tab): the exact odds of the hand of the player whose
turn it is, the optimal draw-or-stop choice for a chosen objective, and the policy chart for the cards left.

It follows the board it is given (redrawn after every move, from ``board.state``, also in a replay); its chart is a
:class:`rulebook.view.figures.ChartView` and its HTML comes from the templates in ``templates/``.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from ..view import markup
from ..view.figures import ChartView
from ..view.table import Table  # the type of this game's widget.Board, which this module never imports
from . import advisor, charts, odds
from .narrate import player_label
from .rules import FULL_DECK, describe_cards

__all__ = ["Explorer"]


class Explorer(widgets.VBox):
    """The draw advisor beside the board (issue 13.2): for the hand of the player whose turn it is and the cards
    left (pile, then the discard shuffled in), the exact chance that the next card busts, the chances to reach the
    flying minimum and a chosen target this turn, the optimal choice for a chosen objective, and the policy chart.

    It follows the board: redrawn after every move, from ``board.state`` (the position shown, also in a replay)."""

    def __init__(self, board: Table, *, width: int = 340) -> None:
        self.board = board
        self.width = width
        self.height = 300 if width <= 400 else 340
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
        # the full deck's policy until the first update (and after the game, when there is no hand to advise)
        policy = advisor.policy("reach", FULL_DECK, goal=self.target.value)
        self.figure = ChartView(charts.policy_chart(policy, width=width, height=self.height))
        self.objective.observe(lambda _: self.update(), "value")
        self.target.observe(lambda _: self.update(), "value")
        super().__init__(
            [self.heading, self.objective, self.target, self.result, self.figure],
            layout=widgets.Layout(width=f"{width}px", max_width=f"{width}px"),
        )
        self.add_class("rulebook-explorer")
        board.listeners.append(self.update)
        self.update()

    def update(self, _board: Any = None) -> None:
        """Show the advice for the position on the board."""
        state = self.board.state
        goal = self.target.value
        if self.board.game.outcome(state) is not None:
            self.heading.value = markup.render("advisor_heading.html", package=__package__, over=True)
            self.result.value = markup.render("advisor_result.html", package=__package__, over=True)
            return
        advice = advisor.advise(state, goal=goal)
        self.heading.value = markup.render(
            "advisor_heading.html",
            package=__package__,
            over=False,
            who=player_label(advice.player),
            points=advice.points,
            reds=advice.reds,
            pile=describe_cards(advice.pile),
            reserve=describe_cards(advice.reserve) if sum(advice.reserve) else "",
            drawing=state.phase == "turn",
        )
        aim = {"fly": advice.fly_minimum, "reach": goal}.get(self.objective.value)
        if aim is None:
            choice = advice.for_points
        elif aim == goal:
            choice = advice.for_reach
        else:
            choice = advisor.choose("reach", advice.points, advice.reds, advice.pile, advice.reserve, goal=aim)
        lines = [
            ("Next card busts (a third red 3)", advisor.chance_text(advice.bust_next)),
            (f"Reach {advice.fly_minimum} points (to fly) this turn", advisor.chance_text(advice.reach_fly)),
            (f"Reach the target, {goal} points, this turn", advisor.chance_text(advice.reach_goal)),
        ]
        self.result.value = markup.render(
            "advisor_result.html", package=__package__, over=False, lines=lines, verdict=self._verdict(advice, choice)
        )
        self.figure.plot = self._chart(advice, choice, aim)
        self.figure.draw()

    def _chart(self, advice: advisor.Advice, choice: advisor.Choice, aim: int | None) -> go.Figure:
        """The policy for the cards left, the live hand outlined."""
        objective = f"reach {aim}" if aim is not None else "most points"
        table = advisor.policy(
            choice.objective, advice.pile, advice.reserve, goal=aim or 0, max_points=self._most(aim or 0)
        )
        return charts.policy_chart(
            table,
            hand=(advice.points, advice.reds),
            title=f"Best choice ({objective}) with these cards left",
            width=self.width,
            height=self.height,
        )

    @staticmethod
    def _most(goal: int) -> int:
        return max(12, min(goal + 3, 24))

    @staticmethod
    def _verdict(advice: advisor.Advice, choice: advisor.Choice) -> dict[str, str]:
        """The optimal choice in words (``aim``, ``verb``), with the exact values behind it (``detail``; empty when
        no card is left to draw)."""
        aim = (
            f"to end the turn with {choice.goal} points or more"
            if choice.objective == "reach"
            else "for the most points in hand on average"
        )
        if choice.value_if_draw is None:
            return {"aim": aim, "verb": "stop", "detail": ""}
        if advice.drawn:
            stop_word = "stop"
        elif advice.points >= advice.fly_minimum:
            stop_word = "do not draw (fly instead)"
        else:  # neither flying nor a turn without a card is allowed (ADP-5.1, ADP-C4)
            stop_word = f"draw one card, then stop (flying needs {advice.fly_minimum})"
        verb = "draw" if choice.draw else stop_word
        return {"aim": aim, "verb": verb, "detail": charts.values_text(choice)}
