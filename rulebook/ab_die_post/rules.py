"""Ab die Post! (Helga & Hermann Huber, Goldsieber 1996): the rules engine.

Biplanes race along a three-lane track.  A turn is either drawing spare-part cards (push your luck: the
third red 3 in front of a player is lost) or flying (shake the hurricane indicator: a coloured marble moves
the plane, the black marble is a hurricane that costs every plane in the air repairs by lane).  Rule ids
``ADP-n.m`` are paragraphs of the notebook's translation; ``ADP-Cn`` are the documented clarifications.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

import networkx as nx

from .. import boards, core
from ..core import IllegalMove, Outcome

RULES_VERSION = 1
GAME = "ab_die_post"

ONE, TWO, RED = 0, 1, 2  # positions in a (ones, twos, red threes) card count
CARD_VALUES = (1, 2, 3)
CARD_NAMES = {1: "1", 2: "2", 3: "red 3"}
FULL_DECK = (16, 23, 16)  # ADP-1.2: 16 x 1, 23 x 2, 16 x red 3
LANES = ("inner", "central", "outer")
COLOURS = ("green", "blue", "red", "yellow", "black")

# ADP-C2: marble table for 3-6 players (sourced: gamecabinet rules and the Le Clube French translation agree);
# the 2-player row 1/1/1/1/2 is a proposed default (the box says 3-6, the text says 2-6).
MARBLE_TABLE = (
    (2, (1, 1, 1, 1, 2)),
    (3, (1, 2, 2, 1, 2)),
    (4, (2, 2, 2, 2, 2)),
    (5, (2, 3, 3, 2, 2)),
    (6, (3, 3, 3, 3, 2)),
)


@dataclasses.dataclass(frozen=True)
class Config:
    """Everything the French text leaves to a table or a decision; defaults are documented in the notebook."""

    target: int = 15  # ADP-10.1 (ADP-C18: 21 is the other figure found in the research)
    fly_minimum: int = 4  # ADP-5.1
    marbles: tuple[tuple[int, tuple[int, int, int, int, int]], ...] = MARBLE_TABLE  # ADP-C2
    wind: tuple[int, int, int, int] = (2, 3, 4, 5)  # ADP-C7: green, blue, red, yellow
    repair: tuple[int, int, int] = (8, 4, 2)  # ADP-7.1: inner, central, outer
    placing_points: tuple[int, ...] = (7, 5, 4, 3, 2, 1)  # ADP-9.2
    passenger_points: int = 2  # ADP-8.2
    first_player: int = 0  # ADP-C3: seat 0 is the youngest player
    track: str = "ab_die_post"  # ADP-C1: graphs/<track>.json

    def __post_init__(self) -> None:
        """Refuse options of the wrong type or outside the bounds the rules allow (``BOUNDS``), at once, rather than
        failing, or running for ever, in the middle of a game."""
        for name in ("marbles", "wind", "repair", "placing_points"):
            value = getattr(self, name)
            if not isinstance(value, tuple) or (name == "marbles" and not all(_is_row(row) for row in value)):
                raise ValueError(f"Config.{name}: expected tuples, got {short(value)}")
        _check_options({field.name: getattr(self, field.name) for field in dataclasses.fields(self)}, "Config")

    def marble_counts(self, players: int) -> tuple[int, int, int, int, int]:
        """The marbles in the hurricane indicator for this many players (green, blue, red, yellow, black)."""
        for count, row in self.marbles:
            if count == players:
                return row
        raise ValueError(f"the marble table has no row for {players} players")

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "fly_minimum": self.fly_minimum,
            "marbles": [[count, list(row)] for count, row in self.marbles],
            "wind": list(self.wind),
            "repair": list(self.repair),
            "placing_points": list(self.placing_points),
            "passenger_points": self.passenger_points,
            "first_player": self.first_player,
            "track": self.track,
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "config") -> Config:
        """A Config from JSON data; anything malformed or out of bounds raises ``ValueError`` naming the field."""
        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: expected an object")  # noqa: TRY004 - malformed input is a ValueError here
        names = [field.name for field in dataclasses.fields(cls)]
        unknown = sorted(str(key) for key in data if key not in names)
        if unknown:
            raise ValueError(f"{where}: unknown options {', '.join(short(key) for key in unknown[:5])}")
        values = {name: data[name] for name in names if name in data}
        _check_options(values, where)
        for name in ("wind", "repair", "placing_points"):
            if name in values:
                values[name] = tuple(values[name])
        if "marbles" in values:
            values["marbles"] = tuple((row[0], tuple(row[1])) for row in values["marbles"])
        return cls(**values)


# The bounds of every option, from the rules and their plausible variants: a save file or a set-up panel can choose
# within them, never beyond (a wind of 30 fields made route finding run for ever, issue 17).
BOUNDS = {
    "target": (1, 100),  # ADP-10.1: 15 (or 21, ADP-C18)
    "fly_minimum": (0, 50),  # ADP-5.1: 4
    "passenger_points": (0, 50),  # ADP-8.2: 2
    "first_player": (0, 5),  # ADP-C3: a seat of at most 6
    "wind": (1, 8),  # ADP-C7: 2-5 fields per marble
    "repair": (0, 50),  # ADP-7.1: 8, 4, 2 points
    "placing_points": (0, 50),  # ADP-9.2: 7 ... 1
    "marble_count": (0, 20),  # ADP-C2: 1-3 marbles of a colour
}
TUPLE_LENGTHS = {"wind": 4, "repair": 3, "placing_points": 6}


def short(value: Any, limit: int = 30) -> str:
    """A bad value as an error message quotes it: a short prefix of a text, the size of a list, never all of it."""
    if isinstance(value, str):
        return repr(value[:limit]) + ("..." if len(value) > limit else "")
    if value is None or isinstance(value, (bool, float)):
        return repr(value)
    if isinstance(value, int):
        return str(value) if -(10**15) < value < 10**15 else "a number of more than 15 digits"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)} items"
    if isinstance(value, Mapping):
        return f"an object of {len(value)} keys"
    return f"a {type(value).__name__}"


def _is_row(row: Any) -> bool:
    return isinstance(row, tuple) and len(row) == 2 and isinstance(row[1], tuple)


def _count(value: Any, where: str, name: str) -> int:
    low, high = BOUNDS[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{where}: expected a whole number from {low} to {high}, got {short(value)}")
    if not low <= value <= high:
        raise ValueError(f"{where}: {short(value)} is out of bounds ({low} to {high})")
    return value


def _counts(value: Any, where: str, name: str, length: int) -> tuple[int, ...]:
    if not (isinstance(value, (list, tuple)) and len(value) == length):
        raise ValueError(f"{where}: expected a list of {length} whole numbers, got {short(value)}")
    return tuple(_count(item, f"{where}[{index}]", name) for index, item in enumerate(value))


def _check_options(values: Mapping[str, Any], where: str) -> None:
    """Check the options present in ``values`` (JSON lists or tuples) against their types and ``BOUNDS``."""
    for name in ("target", "fly_minimum", "passenger_points", "first_player"):
        if name in values:
            _count(values[name], f"{where}.{name}", name)
    for name, length in TUPLE_LENGTHS.items():
        if name in values:
            _counts(values[name], f"{where}.{name}", name, length)
    if "marbles" in values:
        rows = values["marbles"]
        if not isinstance(rows, (list, tuple)) or not 1 <= len(rows) <= 5:
            raise ValueError(f"{where}.marbles: expected 1 to 5 rows [players, [green, blue, red, yellow, black]]")
        seen = set()
        for index, row in enumerate(rows):
            here = f"{where}.marbles[{index}]"
            if not (isinstance(row, (list, tuple)) and len(row) == 2):
                raise ValueError(f"{here}: expected [players, [5 marble counts]], got {short(row)}")
            players = row[0]
            if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 6 or players in seen:
                raise ValueError(f"{here}: the row's players must be a new number from 2 to 6, not {short(players)}")
            seen.add(players)
            if sum(_counts(row[1], here, "marble_count", 5)) == 0:
                raise ValueError(f"{here}: the indicator holds no marble")
    if "track" in values:
        track = values["track"]
        if not isinstance(track, str) or track not in track_names():
            names = ", ".join(track_names())
            raise ValueError(f"{where}.track: {short(track)} is not a track of the rulebook (tracks: {names})")


def track_names() -> tuple[str, ...]:
    """The tracks shipped with the rulebook (``graphs/ab_die_post*.json``): a track is chosen by name, never by a
    path (issue 17)."""
    return tuple(name for name in boards.available() if name.startswith("ab_die_post"))


# --- the track ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Track:
    """The track graph with what the rules need: field progress, lanes, lane and cross edges, passenger fields."""

    name: str
    graph: Any
    sections: int
    progress: Mapping[str, Fraction]
    lane: Mapping[str, str | None]
    ahead: Mapping[
        tuple[str, int], tuple[tuple[str, bool], ...]
    ]  # (field, direction) -> ((next field, lane edge?), ...)
    passenger_fields: tuple[str, ...]

    def departure(self, direction: int) -> str:
        """Where a flight starts: the start field on odd flights, the airport on the way back (ADP-9.5)."""
        return "start" if direction == 1 else "airport"

    def arrival(self, direction: int) -> str:
        return "airport" if direction == 1 else "start"

    def distance_along(self, field: str, direction: int) -> Fraction:
        """How far a field is along the flight in this direction (ADP-9.3: river section, then nearness to it)."""
        value = self.progress[field]
        return value if direction == 1 else self.sections - value


def field_name(track: Track, field: str) -> str:
    """'the inner lane, section 1, field 2', 'the start field' or 'the airport': a field as players point at it
    (lane, river section and field number along the lane, as the board draws them)."""
    if field == "start":
        return "the start field"
    if field == "airport":
        return "the airport"
    if not isinstance(field, str) or field not in track.graph:
        return f"a field that is not on the track ({short(field)})"
    data = track.graph.nodes[field]
    return f"the {data['lane']} lane, section {data['section']}, field {data['step']}"


def load_track(name: str = "ab_die_post") -> Track:
    """Load ``graphs/<name>.json`` (a shipped track's name, never a path) and derive the track the rules use; an
    unknown name or a malformed board raises ``ValueError``."""
    if not isinstance(name, str):
        raise ValueError(f"a track is named by its name, not {short(name)}")  # noqa: TRY004 - malformed input
    return _load_track(name)


@lru_cache(maxsize=8)
def _load_track(name: str) -> Track:
    if name not in track_names():  # checked once per name: the cache holds the shipped tracks only
        raise ValueError(f"{short(name)} is not a track of the rulebook (tracks: {', '.join(track_names())})")
    graph = boards.load(
        name,
        node_attributes=("kind", "lane", "section", "step", "steps", "passenger", "x", "y"),
        edge_attributes=("kind",),
    )
    try:
        return track_from_graph(graph, name)
    except (TypeError, KeyError) as error:  # an attribute of the wrong type (e.g. a section that is not a number)
        raise ValueError(f"{name}.json: a field or edge attribute has the wrong type ({error})") from None


load_track.cache_clear = _load_track.cache_clear  # type: ignore[attr-defined]


MAX_SECTIONS = 50  # river sections of a track at most (the shipped one has 3; the charts draw one line per section)
MAX_STEPS = 1000  # fields of a lane in one section at most (the shipped one has 4, 8 and 16)


def _check_track_node(node: Any, data: Mapping[str, Any], name: str) -> None:
    """ValueError naming the node and the attribute when one the rules read has the wrong type (a section "1"
    raised TypeError deep in the track's indexing)."""
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in ("start", "airport", "field"):
        raise ValueError(f"{name}: node {short(node)} has unknown kind {short(kind)}")
    for key in ("x", "y"):
        value = data.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{name}: node {short(node)} has {key} {short(value)}; expected a number")
    if kind != "field":
        return
    if not isinstance(data.get("lane"), str) or data["lane"] not in LANES:
        raise ValueError(f"{name}: field {short(node)} has lane {short(data.get('lane'))}, expected one of {LANES}")
    for key in ("section", "steps", "step"):
        high = {"section": MAX_SECTIONS, "steps": MAX_STEPS}.get(key) or data["steps"]  # steps is checked by now
        value = data.get(key)
        if type(value) is not int or not 1 <= value <= high:
            raise ValueError(
                f"{name}: field {short(node)} has {key} {short(value)}; expected a whole number from 1 to {high}"
            )


def track_from_graph(graph: Any, name: str = "board") -> Track:
    """Check a track graph (one start, one airport, lanes, forward edges) and index it for move generation."""
    for node, data in graph.nodes(data=True):
        _check_track_node(node, data, name)
    kinds = {node: data["kind"] for node, data in graph.nodes(data=True)}
    if sorted(node for node, kind in kinds.items() if kind in ("start", "airport")) != ["airport", "start"]:
        raise ValueError(f"{name}: a track needs exactly the nodes 'start' (kind start) and 'airport' (kind airport)")
    sections = max(data["section"] for _, data in graph.nodes(data=True) if data["kind"] == "field")
    progress: dict[str, Fraction] = {"start": Fraction(0), "airport": Fraction(sections)}
    lane: dict[str, str | None] = {"start": None, "airport": None}
    for node, data in graph.nodes(data=True):
        if data["kind"] == "field":
            progress[node] = (data["section"] - 1) + Fraction(2 * data["step"] - 1, 2 * data["steps"])
            lane[node] = data["lane"]
    ahead: dict[tuple[str, int], list[tuple[str, bool]]] = {}
    for first, second, data in graph.edges(data=True):
        where = f"{short(first)}-{short(second)}"
        if not isinstance(data.get("kind"), str) or data["kind"] not in ("lane", "cross"):
            raise ValueError(f"{name}: edge {where} has unknown kind {short(data.get('kind'))}")
        if progress[first] == progress[second]:
            raise ValueError(f"{name}: edge {where} joins two fields equally far along the track")
        is_lane = data["kind"] == "lane"
        if not is_lane and None in (lane[first], lane[second]):
            raise ValueError(f"{name}: cross-link {where} touches the start field or the airport")
        low, high = sorted((first, second), key=progress.__getitem__)
        ahead.setdefault((low, 1), []).append((high, is_lane))
        ahead.setdefault((high, -1), []).append((low, is_lane))
    frozen = {key: tuple(sorted(value)) for key, value in ahead.items()}
    for node, data in graph.nodes(data=True):
        if not isinstance(data.get("passenger"), bool):
            raise ValueError(
                f"{name}: node {short(node)} has passenger {short(data.get('passenger'))}; expected true/false"
            )
    passenger = tuple(sorted(node for node, data in graph.nodes(data=True) if data["passenger"]))
    return Track(name, graph, sections, progress, lane, frozen, passenger)


def shortest_routes(track: Track) -> dict[str, tuple[str, ...]]:
    """Fewest fields from the start field to the airport: along each lane alone, and with free lane changes."""
    result = {}
    for lane in LANES + ("any",):
        forward = nx.DiGraph()
        for (field, direction), following in track.ahead.items():
            if direction != 1:
                continue
            for other, is_lane in following:
                if lane == "any" or (
                    is_lane and track.lane[field] in (lane, None) and track.lane[other] in (lane, None)
                ):
                    forward.add_edge(field, other)
        result[lane] = tuple(nx.shortest_path(forward, "start", "airport"))
    return result


def flight_graph(track: Track, direction: int) -> Any:
    """The fields as a directed graph of single steps in a flight's direction (lane and cross links alike)."""
    forward = nx.DiGraph()
    for (field, way), following in track.ahead.items():
        if way == direction:
            forward.add_edges_from((field, other) for other, _ in following)
    return forward


def steps_left(track: Track, direction: int, via_passenger: bool = False) -> dict[str, int]:
    """Fewest steps from each field to the flight's arrival, straight or through a passenger field (ADP-8.1: landing
    on one of them takes the card); a field with no passenger field ahead is left out of the second table."""
    forward = flight_graph(track, direction)
    arrival = track.arrival(direction)
    to_arrival = nx.single_source_shortest_path_length(forward.reverse(copy=False), arrival)
    if not via_passenger:
        return dict(to_arrival)
    # A move lands on a field straight along its lane (ADP-6.3): the passenger field is entered from the field
    # before it on the outer lane.
    best: dict[str, int] = {}
    for passenger in track.passenger_fields:
        for before in forward.predecessors(passenger):
            if track.lane.get(before) != track.lane[passenger]:
                continue
            for field, steps in nx.single_source_shortest_path_length(forward.reverse(copy=False), before).items():
                total = steps + 1 + to_arrival[passenger]
                best[field] = min(best.get(field, total), total)
    return best


# --- moves and chance outcomes ----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class DrawCard:
    """Obtain spare parts: turn over the top card of the pile (ADP-4.1)."""

    def __str__(self) -> str:
        return "draw a spare-part card"


@dataclasses.dataclass(frozen=True)
class Stop:
    """Stop drawing spare parts; the turn ends (ADP-4.1)."""

    def __str__(self) -> str:
        return "stop drawing"


@dataclasses.dataclass(frozen=True)
class Fly:
    """Fly: shake the hurricane indicator (ADP-5.2)."""

    def __str__(self) -> str:
        return "fly: shake the hurricane indicator"


@dataclasses.dataclass(frozen=True)
class Move:
    """Move the plane along ``path`` (its current field first) after a coloured marble (ADP-6.1)."""

    path: tuple[str, ...]

    def __str__(self) -> str:
        steps = len(self.path) - 1
        via = f" via {' > '.join(self.path[1:-1])}" if steps > 1 else ""
        return f"fly {steps} field{'s' if steps != 1 else ''} to {self.path[-1]}{via}"


@dataclasses.dataclass(frozen=True)
class Stay:
    """Leave the plane where it is after a coloured marble (ADP-C8)."""

    def __str__(self) -> str:
        return "stay put"


@dataclasses.dataclass(frozen=True)
class Repair:
    """Pay hurricane repairs with these cards (ADP-7.1, ADP-7.2)."""

    ones: int
    twos: int
    reds: int

    def __str__(self) -> str:
        return f"pay repairs with {describe_cards((self.ones, self.twos, self.reds))}"


@dataclasses.dataclass(frozen=True)
class KeepCard:
    """At the end of a flight keep one card of this value (0: keep none) (ADP-9.4)."""

    value: int

    def __str__(self) -> str:
        return "keep no card" if self.value == 0 else f"keep a {CARD_NAMES.get(self.value, self.value)}"


@dataclasses.dataclass(frozen=True)
class CardDrawn:
    """Chance: the drawn card's value (3 is a red 3)."""

    value: int

    def __str__(self) -> str:
        return f"drew a {CARD_NAMES.get(self.value, self.value)}"


@dataclasses.dataclass(frozen=True)
class MarbleShaken:
    """Chance: the marble the hurricane indicator shows."""

    colour: str

    def __str__(self) -> str:
        return f"the indicator shows a {self.colour} marble" + (" (hurricane!)" if self.colour == "black" else "")


MOVE_CLASSES = {
    cls.__name__: cls for cls in (DrawCard, Stop, Fly, Move, Stay, Repair, KeepCard, CardDrawn, MarbleShaken)
}


# --- state --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class State:
    """A position. ``phase``: turn, card (chance), marble (chance), move, repair, keep or over."""

    players: int
    seed: int
    config: Config
    phase: str
    player: int | None
    turn_player: int
    flight: int
    positions: tuple[str, ...]
    hands: tuple[tuple[int, int, int], ...]
    pile: tuple[int, int, int]
    discard: tuple[int, int, int]
    drawn: int  # cards drawn this turn
    passenger: int | None  # who holds the passenger card
    scores: tuple[int, ...]
    last_points: tuple[int, ...]
    pending: tuple[int, ...]  # players still to pay repairs or to choose the card they keep
    marble: str | None  # the marble of the current flight move (for the move phase and display)
    events: tuple[str, ...]  # what the last action caused (hurricane damage, placings), for display
    history: tuple[Any, ...]

    @property
    def direction(self) -> int:
        """+1 on odd flights (start field to airport), -1 on the way back (ADP-9.5)."""
        return 1 if self.flight % 2 == 1 else -1

    @property
    def track(self) -> Track:
        return load_track(self.config.track)


def hand_points(hand: tuple[int, int, int]) -> int:
    """Points of a hand of (ones, twos, red threes)."""
    return hand[ONE] + 2 * hand[TWO] + 3 * hand[RED]


def describe_cards(cards: tuple[int, int, int]) -> str:
    """'2 x 1, 1 x red 3' style description of a card count."""
    parts = [f"{count} x {CARD_NAMES[value]}" for value, count in zip(CARD_VALUES, cards) if count]
    return ", ".join(parts) if parts else "no cards"


def _add(first: tuple[int, ...], second: tuple[int, ...], sign: int = 1) -> tuple[int, int, int]:
    return tuple(a + sign * b for a, b in zip(first, second))  # type: ignore[return-value]


def _replace(items: tuple, index: int, value: Any) -> tuple:
    return items[:index] + (value,) + items[index + 1 :]


def new_game(players: int = 4, seed: int = 0, config: Config | None = None) -> State:
    """Set up (ADP-2.1 to ADP-2.4): planes on the start field, the shuffled pile, nobody holding cards."""
    config = config or Config()
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 6:
        raise ValueError(f"Ab die Post! is for 2-6 players, not {short(players)}")
    core.seeded(seed)  # checks the seed is an int
    config.marble_counts(players)
    if not 0 <= config.first_player < players:
        raise ValueError(f"config.first_player {config.first_player} is not a seat of {players} players")
    load_track(config.track)
    first = config.first_player
    return State(
        players=players,
        seed=seed,
        config=config,
        phase="turn",
        player=first,
        turn_player=first,
        flight=1,
        positions=("start",) * players,
        hands=((0, 0, 0),) * players,
        pile=FULL_DECK,
        discard=(0, 0, 0),
        drawn=0,
        passenger=None,
        scores=(0,) * players,
        last_points=(0,) * players,
        pending=(),
        marble=None,
        events=(),
        history=(),
    )


# --- move generation -------------------------------------------------------------------------------


def wind_distance(config: Config, colour: str) -> int:
    """Fields a coloured marble moves a plane (ADP-C7 wind table)."""
    return config.wind[COLOURS.index(colour)]


def occupied(state: State, player: int) -> dict[str, int]:
    """Track fields holding another player's plane (start field and airport hold any number)."""
    return {
        field: other
        for other, field in enumerate(state.positions)
        if other != player and state.track.lane[field] is not None
    }


def routes(track: Track, origin: str, distance: int, direction: int) -> list[tuple[str, ...]]:
    """Every path of exactly ``distance`` forward steps, first and last step along a lane (ADP-6.3), or ending
    early at the arrival (ADP-9.1: extra movement is ignored)."""
    arrival = track.arrival(direction)
    found: list[tuple[str, ...]] = []

    def extend(path: tuple[str, ...]) -> None:
        step = len(path)  # number of the step about to be taken
        for following, is_lane in track.ahead.get((path[-1], direction), ()):
            if (step == 1 or step == distance) and not is_lane:
                continue
            longer = path + (following,)
            if following == arrival or step == distance:
                found.append(longer)
            else:
                extend(longer)

    if distance >= 1:
        extend((origin,))
    return found


def picks_up_passenger(state: State, path: tuple[str, ...]) -> bool:
    """ADP-8.1: the free passenger card goes to a plane passing both passenger fields or ending on one."""
    if state.passenger is not None:
        return False
    fields = state.track.passenger_fields
    return path[-1] in fields or all(field in path[1:] for field in fields)


def legal_moves(state: State) -> tuple[Any, ...]:
    """The moves the player to move may make, in a stable order; () at chance nodes and at the end."""
    if state.player is None or state.phase in ("card", "marble", "over"):
        return ()
    player = state.player
    if state.phase == "turn":
        # Pile and discard are never both empty: hands hold at most 2 red 3s each, 12 of the 16 (ADP-4.2).
        moves: list[Any] = [DrawCard()]
        if state.drawn:
            moves.append(Stop())
        elif hand_points(state.hands[player]) >= state.config.fly_minimum:
            moves.append(Fly())
        return tuple(moves)
    if state.phase == "move":
        return tuple(_distinct_routes(state)) + (Stay(),)
    if state.phase == "repair":
        return tuple(Repair(*cards) for cards in payments(state.hands[player], _repair_cost(state, player)))
    if state.phase == "keep":
        hand = state.hands[player]
        return tuple(KeepCard(value) for value, count in zip(CARD_VALUES, hand) if count) + (KeepCard(0),)
    raise AssertionError(f"unknown phase {state.phase}")


def _distinct_routes(state: State) -> list[Move]:
    """One route per (destination, passenger pick-up) choice, ending on a free field (ADP-6.2)."""
    player = state.player
    taken = occupied(state, player)
    chosen: dict[tuple[str, bool], tuple[str, ...]] = {}
    distance = wind_distance(state.config, state.marble)
    for path in routes(state.track, state.positions[player], distance, state.direction):
        if path[-1] in taken:
            continue
        key = (path[-1], picks_up_passenger(state, path))
        if key not in chosen or path < chosen[key]:
            chosen[key] = path
    order = sorted(chosen, key=lambda key: (-state.track.distance_along(key[0], state.direction), key[0], not key[1]))
    return [Move(chosen[key]) for key in order]


def payments(hand: tuple[int, int, int], cost: int) -> list[tuple[int, int, int]]:
    """Every set of cards from ``hand`` worth at least ``cost`` (overpaying is allowed, ADP-7.2), cheapest first."""
    result = [
        (ones, twos, reds)
        for ones in range(hand[ONE] + 1)
        for twos in range(hand[TWO] + 1)
        for reds in range(hand[RED] + 1)
        if ones + 2 * twos + 3 * reds >= cost
    ]
    return sorted(result, key=lambda cards: (hand_points(cards), -cards[RED], cards))


def _repair_cost(state: State, player: int) -> int:
    return state.config.repair[LANES.index(state.track.lane[state.positions[player]])]


def chance_outcomes(state: State) -> tuple[tuple[Any, Fraction], ...]:
    """A card from the pile (reshuffled discard if it is empty, ADP-4.3) or a marble from the indicator."""
    if state.phase == "card":
        pile = state.pile if state.pile != (0, 0, 0) else state.discard
        total = sum(pile)
        return tuple((CardDrawn(value), Fraction(count, total)) for value, count in zip(CARD_VALUES, pile) if count)
    if state.phase == "marble":
        counts = state.config.marble_counts(state.players)
        total = sum(counts)
        return tuple((MarbleShaken(colour), Fraction(count, total)) for colour, count in zip(COLOURS, counts) if count)
    return ()


# --- applying -------------------------------------------------------------------------------------


def check(state: State, move: Any) -> IllegalMove | None:
    """The IllegalMove that ``apply`` would raise for ``move`` (same code path), or None. A malformed move (a route
    that is not a list of field names, a card value that is not a number), which ``apply`` refuses with a
    ValueError, is refused here too, by the paragraph on a turn's choices (ADP-3.1): ``check`` answers every move
    and raises for none, as Meetjesland's does (issue 48.6)."""
    try:
        _transition(state, move)
    except IllegalMove as error:
        return error
    except ValueError as error:
        return IllegalMove("ADP-3.1", str(error))
    return None


def apply(state: State, move: Any) -> State:
    """The state after ``move`` (a player's move or a chance outcome); raises IllegalMove, never half-applies."""
    new_state = _transition(state, move)
    return dataclasses.replace(new_state, history=state.history + (move,))


def _check_shape(move: Any) -> None:
    """A move object whose fields have the wrong type (a list for a card value, a text for a route) is malformed
    input: ``ValueError`` before any rule is read, quoting at most a short prefix of the bad value."""
    if isinstance(move, Move):
        path = move.path
        if not (
            isinstance(path, (tuple, list))
            and 1 <= len(path) <= 64
            and all(isinstance(field, str) and len(field) <= 40 for field in path)
        ):
            raise ValueError(f"Move.path: expected a list of up to 64 field names, got {short(path)}")
    elif isinstance(move, Repair):
        for name in ("ones", "twos", "reds"):
            value = getattr(move, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= sum(FULL_DECK):
                raise ValueError(f"Repair.{name}: expected a number of cards, got {short(value)}")
    elif isinstance(move, (KeepCard, CardDrawn)):
        value = move.value
        if not isinstance(value, int) or isinstance(value, bool) or not -1000 <= value <= 1000:
            raise ValueError(f"{type(move).__name__}.value: expected a card value (1, 2 or 3), got {short(value)}")
    elif isinstance(move, MarbleShaken):
        if not isinstance(move.colour, str) or len(move.colour) > 20:
            raise ValueError(f"MarbleShaken.colour: expected a marble colour, got {short(move.colour)}")


def said(state: State, move: Any) -> str:
    """A move as a refusal names it: routes by where they end, anything that is not a move by a short prefix."""
    if isinstance(move, Move):
        return f"a flight to {field_name(state.track, move.path[-1])}"
    if isinstance(move, tuple(MOVE_CLASSES.values())):
        return str(move)
    return short(move)


def _transition(state: State, move: Any) -> State:
    _check_shape(move)
    if state.phase == "over":
        raise IllegalMove("ADP-10.1", f"the game is over; {said(state, move)} cannot be played")
    if state.phase in ("card", "marble"):
        expected = CardDrawn if state.phase == "card" else MarbleShaken
        if not isinstance(move, expected):
            raise IllegalMove("ADP-3.1", f"waiting for chance ({expected.__name__}), not for {said(state, move)}")
        if move not in {outcome for outcome, _ in chance_outcomes(state)}:
            what = "pile" if state.phase == "card" else "hurricane indicator"
            raise IllegalMove(
                "ADP-4.1" if state.phase == "card" else "ADP-5.2", f"{said(state, move)}: not possible from the {what}"
            )
        return _draw(state, move.value) if state.phase == "card" else _shake(state, move.colour)
    if isinstance(move, (CardDrawn, MarbleShaken)):
        raise IllegalMove(
            "ADP-3.1", f"{said(state, move)} is chance's outcome, but player {state.player + 1} is to move"
        )
    handler = {
        "turn": _turn_move,
        "move": _flight_move,
        "repair": _repair_move,
        "keep": _keep_move,
    }[state.phase]
    return handler(state, move)


def _turn_move(state: State, move: Any) -> State:
    player = state.player
    hand = state.hands[player]
    if isinstance(move, DrawCard):
        return dataclasses.replace(state, phase="card", player=None, events=())
    if isinstance(move, Stop):
        if not state.drawn:
            raise IllegalMove("ADP-C4", f"player {player + 1} has not drawn a card this turn; draw at least one or fly")
        return _next_turn(state)
    if isinstance(move, Fly):
        if state.drawn:
            raise IllegalMove("ADP-3.1", f"player {player + 1} chose to draw spare parts this turn and cannot also fly")
        if hand_points(hand) < state.config.fly_minimum:
            raise IllegalMove(
                "ADP-5.1",
                f"player {player + 1} holds {hand_points(hand)} points ({describe_cards(hand)}); flying needs "
                f"{state.config.fly_minimum}",
            )
        return dataclasses.replace(state, phase="marble", player=None, events=())
    raise IllegalMove("ADP-3.1", f"{said(state, move)} is not a turn choice: draw a card, stop drawing, or fly")


def _draw(state: State, value: int) -> State:
    pile, discard = state.pile, state.discard
    if pile == (0, 0, 0):  # ADP-4.3: the discard is shuffled into a new pile
        pile, discard = discard, (0, 0, 0)
    kind = CARD_VALUES.index(value)
    card = tuple(int(index == kind) for index in range(3))
    pile = _add(pile, card, -1)
    player = state.turn_player
    hand = _add(state.hands[player], card)
    if hand[RED] >= 3:  # ADP-4.2: the third red 3 loses all three and ends the turn
        lost = (0, 0, hand[RED])
        state = dataclasses.replace(
            state,
            pile=pile,
            discard=_add(discard, lost),
            hands=_replace(state.hands, player, _add(hand, lost, -1)),
            events=(f"Player {player + 1} drew a third red 3 and loses the three red 3s.",),
        )
        return _next_turn(state)
    return dataclasses.replace(
        state,
        pile=pile,
        discard=discard,
        hands=_replace(state.hands, player, hand),
        drawn=state.drawn + 1,
        phase="turn",
        player=player,
    )


def _shake(state: State, colour: str) -> State:
    player = state.turn_player
    if colour != "black":
        return dataclasses.replace(state, phase="move", player=player, marble=colour)
    # ADP-7.1 / ADP-C10: every plane out on the track (not on the departure field) is hit, the shaker included.
    track = state.track
    hands, positions, passenger, discard = list(state.hands), list(state.positions), state.passenger, state.discard
    events = [f"Hurricane! Player {player + 1} shook the black marble."]
    payers = []
    departure = track.departure(state.direction)
    for offset in range(state.players):
        other = (player + offset) % state.players
        if positions[other] == departure:
            continue
        cost = _repair_cost(state, other)
        if hand_points(hands[other]) >= cost:
            payers.append(other)
        else:  # ADP-7.3: cannot pay: all cards to the discard, plane back to the start, passenger card back
            events.append(
                f"Player {other + 1} cannot pay {cost} points on the {track.lane[positions[other]]} lane: "
                f"discards {describe_cards(hands[other])} and goes back to {field_name(track, departure)}."
            )
            discard = _add(discard, hands[other])
            hands[other] = (0, 0, 0)
            positions[other] = departure
            if passenger == other:
                passenger = None
                events.append("The passenger card goes back to its place.")
    state = dataclasses.replace(
        state,
        hands=tuple(hands),
        positions=tuple(positions),
        passenger=passenger,
        discard=discard,
        marble="black",
        events=tuple(events),
    )
    if payers:
        return dataclasses.replace(state, phase="repair", player=payers[0], pending=tuple(payers))
    return _next_turn(state)


def _flight_move(state: State, move: Any) -> State:
    player = state.player
    track = state.track
    if isinstance(move, Stay):
        return _next_turn(
            dataclasses.replace(
                state, events=(f"Player {player + 1} stays on {field_name(track, state.positions[player])}.",)
            )
        )
    if not isinstance(move, Move):
        raise IllegalMove(
            "ADP-6.1",
            f"after a {state.marble} marble player {player + 1} moves the plane or stays, not {said(state, move)}",
        )
    path = tuple(move.path)
    distance = wind_distance(state.config, state.marble)
    if not path or path[0] != state.positions[player]:
        raise IllegalMove(
            "ADP-6.1",
            f"the route must start at player {player + 1}'s plane on {field_name(track, state.positions[player])}",
        )
    arrival = track.arrival(state.direction)
    for step, (here, there) in enumerate(itertools.pairwise(path), start=1):
        links = dict(track.ahead.get((here, state.direction), ()))
        if there not in links:
            raise IllegalMove(
                "ADP-6.1",
                f"{field_name(track, there)} is not one field ahead of {field_name(track, here)} "
                "in this flight's direction",
            )
        last = step == len(path) - 1
        if (step == 1 or last) and not links[there]:
            raise IllegalMove(
                "ADP-6.3",
                f"step {step} from {field_name(track, here)} to {field_name(track, there)} changes lane; "
                "the first and the last step go straight",
            )
        if there == arrival and not last:
            raise IllegalMove(
                "ADP-9.1", f"the route reaches {field_name(track, arrival)} at step {step} and must end there"
            )
    steps = len(path) - 1
    if steps != distance and not (path[-1] == arrival and steps < distance):
        raise IllegalMove(
            "ADP-6.1", f"the {state.marble} marble moves the plane exactly {distance} fields, not {steps}"
        )
    taken = occupied(state, player)
    if path[-1] in taken:
        raise IllegalMove(
            "ADP-6.2",
            f"{field_name(track, path[-1])} is occupied by player {taken[path[-1]] + 1}'s plane; "
            "a plane landing there does not move (stay instead)",
        )
    events = [f"Player {player + 1} flies {steps} field{'s' if steps != 1 else ''} to {field_name(track, path[-1])}."]
    passenger = state.passenger
    if picks_up_passenger(state, path):
        passenger = player
        events.append(f"Player {player + 1} picks up the passenger card.")
    state = dataclasses.replace(state, positions=_replace(state.positions, player, path[-1]), passenger=passenger)
    if path[-1] == arrival:
        return _end_flight(state, events)
    return _next_turn(dataclasses.replace(state, events=tuple(events)))


def _repair_move(state: State, move: Any) -> State:
    player = state.player
    if not isinstance(move, Repair):
        raise IllegalMove("ADP-7.1", f"player {player + 1} must pay hurricane repairs first, not {said(state, move)}")
    cards = (move.ones, move.twos, move.reds)
    hand = state.hands[player]
    if not all(isinstance(count, int) and 0 <= count <= held for count, held in zip(cards, hand)):
        raise IllegalMove(
            "ADP-7.1", f"player {player + 1} holds {describe_cards(hand)}, cannot pay {describe_cards(cards)}"
        )
    cost = _repair_cost(state, player)
    if hand_points(cards) < cost:
        lane = state.track.lane[state.positions[player]]
        raise IllegalMove(
            "ADP-7.1",
            f"repairs on the {lane} lane cost {cost} points; {describe_cards(cards)} is only {hand_points(cards)}",
        )
    state = dataclasses.replace(
        state,
        hands=_replace(state.hands, player, _add(hand, cards, -1)),
        discard=_add(state.discard, cards),
        pending=state.pending[1:],
        events=state.events + (f"Player {player + 1} pays {describe_cards(cards)} for repairs.",),
    )
    if state.pending:
        return dataclasses.replace(state, player=state.pending[0])
    return _next_turn(state)


def _keep_move(state: State, move: Any) -> State:
    player = state.player
    if not isinstance(move, KeepCard):
        raise IllegalMove("ADP-9.4", f"player {player + 1} chooses the card to keep first, not {said(state, move)}")
    hand = state.hands[player]
    if move.value not in (0,) + CARD_VALUES or (move.value and not hand[CARD_VALUES.index(move.value)]):
        raise IllegalMove(
            "ADP-9.4", f"player {player + 1} holds {describe_cards(hand)}, no {CARD_NAMES.get(move.value, move.value)}"
        )
    kept = tuple(int(move.value == value) for value in CARD_VALUES)
    state = dataclasses.replace(
        state,
        hands=_replace(state.hands, player, kept),
        discard=_add(state.discard, _add(hand, kept, -1)),
        pending=state.pending[1:],
        events=state.events + (f"Player {player + 1} keeps {describe_cards(kept)}.",),
    )
    if state.pending:
        return dataclasses.replace(state, player=state.pending[0])
    return _next_flight(state)


def _next_turn(state: State) -> State:
    following = (state.turn_player + 1) % state.players
    return dataclasses.replace(state, phase="turn", player=following, turn_player=following, drawn=0, pending=())


def placings(state: State) -> list[tuple[int, int]]:
    """(player, placing points) for the planes not on the departure field, best placed first (ADP-9.2, ADP-9.3)."""
    track = state.track
    departure = track.departure(state.direction)
    flying = [player for player in range(state.players) if state.positions[player] != departure]
    flying.sort(key=lambda player: -track.distance_along(state.positions[player], state.direction))
    return [(player, state.config.placing_points[rank]) for rank, player in enumerate(flying)]


def _end_flight(state: State, events: list[str]) -> State:
    """ADP-9.1: the first plane at the airport ends the flight for everybody; score it (ADP-9.2)."""
    points = [0] * state.players
    for player, placing in placings(state):
        points[player] += placing
        events.append(f"Player {player + 1} scores {placing} for placing.")
    if state.passenger is not None:
        points[state.passenger] += state.config.passenger_points
        events.append(f"Player {state.passenger + 1} scores {state.config.passenger_points} for the passenger.")
    scores = tuple(score + gained for score, gained in zip(state.scores, points))
    state = dataclasses.replace(state, scores=scores, last_points=tuple(points), events=tuple(events))
    if max(scores) >= state.config.target:  # ADP-10.1; ADP-C15: the game ends before the keep step
        return dataclasses.replace(state, phase="over", player=None, pending=())
    # ADP-9.4 / ADP-C14: players whose plane is out on the track keep one card; all other cards are discarded.
    track = state.track
    hands, discard = list(state.hands), state.discard
    keepers = []
    for offset in range(state.players):
        player = (state.turn_player + offset) % state.players
        if track.lane[state.positions[player]] is not None and hands[player] != (0, 0, 0):
            keepers.append(player)
        else:
            discard = _add(discard, hands[player])
            hands[player] = (0, 0, 0)
    state = dataclasses.replace(state, hands=tuple(hands), discard=discard)
    if keepers:
        return dataclasses.replace(state, phase="keep", player=keepers[0], pending=tuple(keepers))
    return _next_flight(state)


def _next_flight(state: State) -> State:
    """ADP-9.5: the next flight goes the other way; everybody starts at the previous arrival."""
    flight = state.flight + 1
    departure = state.track.departure(1 if flight % 2 == 1 else -1)
    ender = state.turn_player  # the player whose plane reached the airport
    # ADP-9.5: most points starts; tie: fewest points in the last flight; ADP-C16: then clockwise from the ender.
    seats = [(ender + offset) % state.players for offset in range(state.players)]
    first = min(seats, key=lambda player: (-state.scores[player], state.last_points[player], seats.index(player)))
    return dataclasses.replace(
        state,
        flight=flight,
        positions=(departure,) * state.players,
        passenger=None,
        phase="turn",
        player=first,
        turn_player=first,
        drawn=0,
        pending=(),
        marble=None,
        events=state.events
        + (f"Flight {flight} starts from {field_name(state.track, departure)}; player {first + 1} begins.",),
    )


def outcome(state: State) -> Outcome | None:
    """ADP-10.1: most points wins; tie: most points in the last flight; still tied: shared (ADP-C17)."""
    if state.phase != "over":
        return None
    best = max(state.scores)
    leaders = [player for player in range(state.players) if state.scores[player] == best]
    top_last = max(state.last_points[player] for player in leaders)
    winners = tuple(player for player in leaders if state.last_points[player] == top_last)
    reason = f"{best} points (target {state.config.target})"
    if len(leaders) > 1:
        reason += ", tie broken by the points of the last flight" + (
            " (still tied: shared)" if len(winners) > 1 else ""
        )
    return Outcome(winners=winners, reason=reason, scores=state.scores)


# --- save files -------------------------------------------------------------------------------------


def to_json(state: State) -> str:
    """A save file: set-up plus move log (``from_json`` replays it)."""
    setup = {"players": state.players, "seed": state.seed, "config": state.config.to_dict()}
    return core.dump_game(GAME, RULES_VERSION, setup, state.history)


def from_json(text: str | bytes) -> State:
    """Load a save file by replaying its log; anything malformed or illegal raises ``ValueError``."""
    setup, history = core.load_game(text, GAME, RULES_VERSION)
    unknown = set(setup) - {"players", "seed", "config"}
    if unknown:
        raise ValueError(f"saved game setup: unknown key {short(min(unknown))} (a setup holds players, seed, config)")
    config = Config.from_dict(setup.get("config", {}), where="setup.config")
    try:
        start = new_game(players=setup.get("players"), seed=setup.get("seed"), config=config)
    except (TypeError, KeyError) as error:
        raise ValueError(f"saved game setup: {short(str(error), 120)}") from None
    return core.replay_saved(start, history, MOVE_CLASSES, apply)


def card_count_invariant(state: State) -> bool:
    """Cards are conserved: pile + discard + hands is the full deck of 55."""
    total = _add(state.pile, state.discard)
    for hand in state.hands:
        total = _add(total, hand)
    return total == FULL_DECK
