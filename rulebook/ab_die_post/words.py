"""Ab die Post's numbers in words for the rulebook's examples: chances, marbles, routes, the stopping advice, a game's
outcome and the passenger study as sentences, so that the notebook never prints raw tuples, dicts or dataclasses.
Pure functions, no ipywidgets."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..core import Outcome
from .narrate import player_label
from .rules import Track, shortest_routes


def chance(value: Fraction) -> str:
    """An exact chance with its percentage: ``16/55 (29.1 %)``; ``certain`` and ``impossible`` for 1 and 0."""
    if value == 1:
        return "certain"
    if value == 0:
        return "impossible"
    return f"{value.numerator}/{value.denominator} ({float(value):.1%})".replace("%)", " %)")


def points(value: Fraction) -> str:
    """Expected points: whole numbers as they are, fractions with their decimal value: ``296/55 (5.38)``."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator} ({float(value):.2f})"


def marbles_text(distribution: Mapping[str, Fraction]) -> str:
    """The chance of each marble colour in one shake: ``green 1/8 (12.5 %), blue 1/4 (25.0 %), ...``."""
    return ", ".join(f"{colour} {chance(value)}" for colour, value in distribution.items())


def routes_text(track: Track) -> str:
    """The fewest fields from the start field to the airport, along each lane alone and with free lane changes."""
    routes = {lane: len(route) - 1 for lane, route in shortest_routes(track).items()}
    lanes = ", ".join(f"{count} along the {lane} lane" for lane, count in routes.items() if lane != "any")
    return f"Fewest fields from the start field to the airport: {lanes}; {routes['any']} changing lanes freely."


def advice_text(advice: Any) -> str:
    """A stopping advice (``odds.StoppingAdvice`` or ``advisor.Choice``): the choice and the value of each option."""
    choice = "draw" if advice.draw else "stop"
    if advice.value_if_draw is None:
        return f"{choice}: no card is left to draw; stopping is worth {points(advice.value_if_stop)}"
    return (
        f"{choice}: drawing on (then playing best) is worth {points(advice.value_if_draw)} points on average, "
        f"stopping {points(advice.value_if_stop)}"
    )


def outcome_text(result: Outcome | None) -> str:
    """A finished game in a sentence: who won, why, and every seat's score."""
    if result is None:
        return "the game is not over"
    winners = " and ".join(player_label(seat) for seat in result.winners)
    scores = ", ".join(f"{player_label(seat)} {score}" for seat, score in enumerate(result.scores))
    return f"{winners} won: {result.reason}. Scores: {scores}."


def study_text(study: Mapping[str, Fraction]) -> str:
    """The passenger study (``bots.passenger_study``), one line per kind of player: points, wins, passenger."""
    lines = []
    for kind in ("detour", "direct"):
        mean = study[f"{kind}: mean points per game"]
        wins = study[f"{kind}: share of wins"]
        held = study[f"{kind}: share of flights with the passenger"]
        lines.append(
            f"{kind.capitalize()} players: {float(mean):.2f} points a game, {float(wins):.1%} of the wins, "
            f"the passenger in {float(held):.1%} of their flights"
        )
    return "\n".join(lines)
