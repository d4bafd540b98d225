"""Ab die Post! at a class-server table (rulebook.tables.views): what each seat may see.

Hands are open (ADP-C6); the pile is counts (its order is a chance node, not a field), shown as its size.
The summary reads only public fields.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulebook.core import count


def mask(state: Any, position: dict[str, Any], seat: int | None) -> None:
    return None


def summary(state: Any) -> list[str]:
    """Ab die Post!: the flight and its way, what the turn is at, per player the plane's field and lane, the cards
    in front of them (open, ADP-C6), the score and the passenger, the last marble and the hurricane indicator."""
    from .narrate import hand_text, player_label
    from .rules import COLOURS, MarbleShaken, describe_cards, field_name, wind_distance

    track, config = state.track, state.config
    way = "start field to airport" if state.direction == 1 else "airport to start field"
    lines = [_stage(state), f"Flight {state.flight} ({way}), first to {config.target} points wins"]
    for player in range(state.players):
        passenger = ", carries the passenger" if state.passenger == player else ""
        lines.append(
            f"{player_label(player)}: plane on {field_name(track, state.positions[player])}; cards: "
            f"{hand_text(state.hands[player])}; score {state.scores[player]}{passenger}"
        )
    marble = state.marble or next((m.colour for m in reversed(state.history) if isinstance(m, MarbleShaken)), None)
    if marble is not None:
        lines.append(f"Last marble: {_marble(config, marble, wind_distance)}")
    marbles = [
        f"{number} {_marble(config, colour, wind_distance)}"
        for colour, number in zip(COLOURS, config.marble_counts(state.players))
        if number
    ]
    lines.append(f"Hurricane indicator: {', '.join(marbles)}")
    lines.append(f"Pile: {describe_cards(state.pile)}; discard: {describe_cards(state.discard)}")
    return lines


def _marble(config: Any, colour: str, wind_distance: Callable[[Any, str], int]) -> str:
    """``red (4 fields)``, ``black (hurricane)``: a marble and what it does."""
    if colour == "black":
        return "black (hurricane)"
    return f"{colour} ({count(wind_distance(config, colour), 'field')})"


def _stage(state: Any) -> str:
    """What the turn is at, as the board's status line says it."""
    from .narrate import player_label
    from .rules import LANES, hand_points, wind_distance

    phase, config = state.phase, state.config
    who = player_label(state.turn_player)
    if phase == "over":
        return "The game is over."
    if phase == "card":
        return f"{who} draws: a card is being turned over"
    if phase == "marble":
        return f"{who} flies: the hurricane indicator is being shaken"
    player = state.player if state.player is not None else state.turn_player
    mover = player_label(player)
    if phase == "turn":
        held = hand_points(state.hands[player])
        if state.drawn:  # ADP-4.1: after a card, draw on or stop
            return f"{mover} to play: draw another card or stop drawing ({held} points in hand)"
        return f"{mover} to play: draw a card or fly ({held} points in hand, flying needs {config.fly_minimum})"
    if phase == "move" and state.marble is not None:
        return f"{mover}: {state.marble} marble, fly {count(wind_distance(config, state.marble), 'field')}"
    if phase == "repair":
        lane = state.track.lane.get(state.positions[player])
        cost = config.repair[LANES.index(lane)] if lane in LANES else 0
        return f"{mover}: hurricane! Repairs on the {lane} lane cost {cost}"
    if phase == "keep":
        return f"{mover}: the flight is over, chooses the one card to keep"
    return f"{mover} to move"


# what rulebook.tables.views asks of this game (registry: Game.seats)
SEATS: dict[str, Any] = {
    "mask": mask,
    "actor": lambda state: state.turn_player,
    "start_key": lambda state: (state.players, state.seed, state.config),
    "summary": summary,
}
