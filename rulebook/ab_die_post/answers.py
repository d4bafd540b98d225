"""The answers of Ab die Post's exercises: the value functions their "value" questions name (see rulebook.exercises).

Each takes the exercise's position first, then the exercise's ``args``; the names are those the JSON data uses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import advisor, rules


def ab_die_post_draw_advice(state: rules.State, objective: str = "reach") -> str:
    """The draw advisor's exact choice for the player to move, "draw" or "stop"."""
    advice = advisor.advise(state)
    choice = advice.for_reach if objective == "reach" else advice.for_points
    return "draw" if choice.draw else "stop"


def ab_die_post_flight_leader(state: rules.State) -> int:
    """The seat placed first if the flight ended now (the river ranking, ADP-9.3)."""
    return rules.placings(state)[0][0]


VALUES: dict[str, Callable[..., Any]] = {
    "ab_die_post_draw_advice": ab_die_post_draw_advice,
    "ab_die_post_flight_leader": ab_die_post_flight_leader,
}
