"""What a move did, in the words players use at the table: the card drawn, the marble shaken, where the plane flew,
who the hurricane hit, who paid what, the placings at the airport.  Pure functions (no ipywidgets), shared by the
board's log and status line and usable from a terminal.

``narrate(before, move, after)`` reads ``after.history``: its first new entry is ``move``, the later ones are the
chance outcomes that followed (the card turned over, the marble shaken).  The sentence has no subject: the log puts
the mover's name in front ("P1 (red): draws a 2, holds 1 x 1, 1 x 2: 3 points").
"""

from __future__ import annotations

from typing import Any

from .rules import (
    CARD_NAMES,
    LANES,
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
    outcome,
    picks_up_passenger,
    wind_distance,
)

# A name per seat, said with the number so that no one needs to tell colours apart (the board adds a shape).
PLAYER_NAME = ("red", "blue", "yellow", "white", "grey", "purple")


def player_label(player: int) -> str:
    """'P1 (red)': the seat number and the colour name."""
    return f"P{player + 1} ({PLAYER_NAME[player]})"


def hand_text(hand: tuple[int, int, int]) -> str:
    """'1 x 1, 1 x 2: 3 points' or 'no cards'."""
    if hand == (0, 0, 0):
        return "no cards"
    points = hand_points(hand)
    return f"{describe_cards(hand)}: {points} point{'s' if points != 1 else ''}"


def route_text(track: Track, path: tuple[str, ...]) -> str:
    """'3 fields from the start field to the central lane, section 1, field 3 (via the inner lane)'."""
    steps = len(path) - 1
    text = (
        f"{steps} field{'s' if steps != 1 else ''} from {field_name(track, path[0])} to {field_name(track, path[-1])}"
    )
    lanes = [lane for lane in LANES if any(track.lane.get(f) == lane for f in path[1:-1])]
    lanes = [lane for lane in lanes if lane not in (track.lane.get(path[0]), track.lane.get(path[-1]))]
    if lanes:
        text += f" (via the {' and '.join(lanes)} lane{'s' if len(lanes) > 1 else ''})"
    return text


def narrate(before: State, move: Any, after: State) -> str:
    """The consequence of ``move`` (played in ``before``, giving ``after``) as a player would say it."""
    new = after.history[len(before.history) :]
    chance = [entry for entry in new[1:] if isinstance(entry, (CardDrawn, MarbleShaken))]
    if isinstance(move, DrawCard):
        return _drawn(before, after, chance)
    if isinstance(move, CardDrawn):  # a chance outcome told on its own
        return _drawn(before, after, [move])
    if isinstance(move, Stop):
        player = before.player
        return f"stops drawing, holding {hand_text(after.hands[player])}"
    if isinstance(move, Fly):
        if not chance:
            return "flies: shakes the hurricane indicator"
        return "flies: " + _shaken(before, after, chance[0])
    if isinstance(move, MarbleShaken):
        return _shaken(before, after, move)
    if isinstance(move, Move):
        return _flown(before, after, move)
    if isinstance(move, Stay):
        player = before.player
        marble = f" after the {before.marble} marble" if before.marble else ""
        return f"stays on {field_name(before.track, before.positions[player])}{marble}" + _turn_end(after)
    if isinstance(move, Repair):
        player = before.player
        cards = (move.ones, move.twos, move.reds)
        lane = before.track.lane[before.positions[player]]
        cost = before.config.repair[LANES.index(lane)]
        return (
            f"pays {describe_cards(cards)} ({hand_points(cards)} points) for the repairs on the {lane} lane "
            f"(cost {cost}); keeps {hand_text(after.hands[player])}" + _turn_end(after)
        )
    if isinstance(move, KeepCard):
        kept = "keeps no card" if move.value == 0 else f"keeps a {CARD_NAMES[move.value]}"
        return kept + " for the next flight" + _flight_start(before, after)
    return str(move)


def _drawn(before: State, after: State, chance: list[Any]) -> str:
    player = before.turn_player
    if not chance:
        return "draws a spare-part card"
    card = chance[0]
    name = CARD_NAMES[card.value]
    shuffle = "shuffles the discard into a new pile and " if before.pile == (0, 0, 0) else ""
    if card.value == 3 and before.hands[player][2] == 2:  # ADP-4.2: the third red 3 loses all three
        return (
            f"{shuffle}draws a third red 3 and loses all three red 3s; the turn ends, "
            f"holding {hand_text(after.hands[player])}" + _turn_end(after)
        )
    return f"{shuffle}draws a {name}, holds {hand_text(after.hands[player])}"


def _shaken(before: State, after: State, marble: MarbleShaken) -> str:
    if marble.colour != "black":
        distance = wind_distance(before.config, marble.colour)
        return f"the indicator shows a {marble.colour} marble: fly {distance} fields"
    track = before.track
    departure = track.departure(before.direction)
    hit = [(offset + before.turn_player) % before.players for offset in range(before.players)]
    hit = [player for player in hit if before.positions[player] != departure]
    if not hit:
        return "the indicator shows the black marble: a hurricane, but no plane is in the air"
    parts = []
    for player in hit:
        lane = track.lane[before.positions[player]]
        cost = before.config.repair[LANES.index(lane)]
        who = player_label(player)
        if after.positions[player] == departure:
            hand = before.hands[player]
            held = f"with {hand_text(hand)}, discards them" if hand != (0, 0, 0) else "with no cards"
            passenger = ", gives back the passenger card" if before.passenger == player else ""
            parts.append(
                f"{who} cannot pay {cost} on the {lane} lane {held}{passenger} "
                f"and goes back to {field_name(track, departure)}"
            )
        else:
            parts.append(f"{who} must pay {cost} for the {lane} lane")
    # who pays is said above; what follows a hurricane nobody can pay is the next player's turn
    return "the indicator shows the black marble: a hurricane! " + "; ".join(parts)


def _flown(before: State, after: State, move: Move) -> str:
    player = before.player
    track = before.track
    path = tuple(move.path)
    text = "flies " + route_text(track, path)
    holder = before.passenger
    if picks_up_passenger(before, path):
        text += " and picks up the passenger"
        holder = player
    if after.scores != before.scores:
        return text + "; " + _flight_end(before, after, holder)
    return text + _turn_end(after)


def _flight_end(before: State, after: State, holder: int | None) -> str:
    """Placings, passenger, scores; then the game's end or the card each player keeps."""
    points = [(player, after.last_points[player]) for player in range(before.players) if after.last_points[player]]
    points.sort(key=lambda item: -item[1])
    passenger = f" (with the passenger's {before.config.passenger_points})"
    scored = ", ".join(
        f"{player_label(player)} {gained}{passenger if player == holder else ''}" for player, gained in points
    )
    text = f"flight {before.flight} is over; points: {scored}"
    result = outcome(after)
    if result is not None:
        names = " and ".join(player_label(p) for p in result.winners)
        verb = "wins" if len(result.winners) == 1 else "share the win"
        return text + f"; the game is over: {names} {verb} with {max(result.scores)} points"
    return text + _flight_start(before, after)


def _flight_start(before: State, after: State) -> str:
    if after.flight > before.flight:
        departure = after.track.departure(after.direction)
        return (
            f"; flight {after.flight} starts from {field_name(after.track, departure)}, "
            f"{player_label(after.player)} begins"
        )
    if after.phase == "keep":
        return f"; {player_label(after.player)} chooses a card to keep"
    return ""


def _turn_end(after: State) -> str:
    """What comes next when it is not simply the next player's turn (repairs to pay, a card to keep)."""
    if after.phase == "repair":
        return f"; {player_label(after.player)} pays next"
    if after.phase == "keep":
        return f"; {player_label(after.player)} chooses a card to keep"
    return ""
