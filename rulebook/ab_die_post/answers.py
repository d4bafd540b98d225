"""The answers of Ab die Post's exercises: the value functions their "value" questions name (rulebook.teach.exercises).

Each takes the exercise's position first, then the exercise's ``args``; the names are those the JSON data uses. A
position whose answer is not one answer (draw and stop equally good; a leader that depends on how ADP-9.3 is read)
is refused with a ValueError: an exercise must have exactly one right answer."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from . import advisor, rules


def ab_die_post_draw_advice(state: rules.State, objective: str = "reach") -> str:
    """The draw advisor's exact choice for the player to move, "draw" or "stop"; a ValueError when both are
    equally good for the objective (the advisor then stops, but a learner who draws is not wrong)."""
    advice = advisor.advise(state)
    choice = advice.for_reach if objective == "reach" else advice.for_points
    if choice.value_if_draw == choice.value_if_stop:
        raise ValueError(
            f"for the {objective!r} objective drawing and stopping are worth the same ({choice.value_if_stop}): "
            "no single right answer"
        )
    return "draw" if choice.draw else "stop"


def _fields_to_river(state: rules.State, field: str) -> tuple[Fraction, int]:
    """A plane's place read as counting fields: the river sections passed in the flight's direction, then (negated)
    the fields of its lane still between it and the next river. The airport comes first, as every reading has it."""
    track = state.track
    if track.lane[field] is None:  # the start field or the airport: no lane, its place is its progress
        return track.distance_along(field, state.direction), 0
    data = track.graph.nodes[field]
    section, step, steps = data["section"], data["step"], data["steps"]
    if state.direction == 1:
        return Fraction(section - 1), -(steps - step)
    return Fraction(track.sections - section), -(step - 1)


def ab_die_post_flight_leader(state: rules.State) -> int:
    """The seat placed first if the flight ended now (the river ranking, ADP-9.3, measured as ADP-C13 does).

    «Plus près de la rivière» can also be read as the fewest fields to the next river on the plane's own lane; a
    position where that reading places another plane first, or ties two planes first, is refused (ValueError)."""
    placed = rules.placings(state)
    if not placed:
        raise ValueError("no plane has left the departure field: nobody is placed")
    leader = placed[0][0]
    counted = sorted(((_fields_to_river(state, state.positions[player]), player) for player, _ in placed), reverse=True)
    if len(counted) > 1 and counted[0][0] == counted[1][0]:
        raise ValueError(
            f"counting fields to the river, players {counted[0][1] + 1} and {counted[1][1] + 1} tie for first: "
            "the leader depends on how ADP-9.3 is read"
        )
    if counted[0][1] != leader:
        raise ValueError(
            f"ADP-C13 places player {leader + 1} first, counting fields to the river places player "
            f"{counted[0][1] + 1} first: the leader depends on how ADP-9.3 is read"
        )
    return leader


VALUES: dict[str, Callable[..., Any]] = {
    "ab_die_post_draw_advice": ab_die_post_draw_advice,
    "ab_die_post_flight_leader": ab_die_post_flight_leader,
}
