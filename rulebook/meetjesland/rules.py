"""Verover het Meetjesland: the rules as pure functions over an immutable :class:`State`.

Paragraph ids (``MJ-4.7``, clarifications ``MJ-C8``) refer to the English translation in
``notebooks/meetjesland.ipynb``; every :class:`~rulebook.core.IllegalMove` names the paragraph that forbids
the move.  Dice rolls and card draws are chance nodes with exact probabilities (see :func:`chance_outcomes`).
"""

from __future__ import annotations

import dataclasses
import itertools
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from typing import TYPE_CHECKING, Any

from .. import boards, core
from ..core import IllegalMove, Outcome, dump_game, load_game, replay_saved, seeded
from ..probability import sorted_dice

if TYPE_CHECKING:  # the map's networkx graph is built when asked for (Map.graph): play never needs it
    import networkx as nx

RULES_VERSION = 1
GAME = "meetjesland"
STARTING_POINTS = {3: 35, 4: 30, 5: 25, 6: 20}  # MJ-4.1
BREWERY = "brewery"
PLAYER_COLOURS = ("white", "black", "pink", "teal", "brown", "grey")
BOARDS = (GAME,)  # the shipped maps: a Config names one of these, never a path
QUOTE_LIMIT = 40  # characters of a bad value quoted in an error message


def quote(value) -> str:
    """A bad value for an error message: a short prefix of its repr, found without building the rest (a save may
    carry megabytes in one field)."""
    return core.cut(core.repr_prefix(value, QUOTE_LIMIT), QUOTE_LIMIT, "…")


def _said(move) -> str:
    """A move as the rules word it, cut short like :func:`quote`; a move with huge fields is not worded at all
    (wording a megabyte text as a trade of a million cards took a second)."""
    return core.said(move, QUOTE_LIMIT, "…")


def _whole(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


# --- the board ------------------------------------------------------------------------------------


class Map:
    """The map: territories in file order, their region and number, and the borders one may attack across.

    ``Map(graph)`` reads a networkx graph; :func:`load_board` reads the file's node-link data as it is and builds
    the networkx graph only when :attr:`graph` is asked for (a view, a test), so that play never imports networkx.
    Maps compare equal and are frozen, as the dataclass they were. (Named ``Board`` once: that name is the widget's.)"""

    def __init__(self, graph: nx.Graph) -> None:
        self.__dict__.update(
            _graph=graph,
            _nodes=dict(graph.nodes(data=True)),
            _adjacent={node: list(graph[node].items()) for node in graph.nodes},
            _attributes=graph.graph,
        )

    @classmethod
    def _from_data(cls, data: dict[str, Any], build: Callable[[], nx.Graph]) -> Map:
        """A board from checked node-link data (see :func:`_plain_board`); ``build`` makes its networkx graph."""
        board = object.__new__(cls)
        nodes = {node["id"]: {k: v for k, v in node.items() if k != "id"} for node in data["nodes"]}
        adjacent: dict[str, list[tuple[str, dict[str, Any]]]] = {node: [] for node in nodes}
        for edge in data["edges"]:  # in file order, as networkx lists a node's neighbours
            attributes = {k: v for k, v in edge.items() if k not in ("source", "target")}
            adjacent[edge["source"]].append((edge["target"], attributes))
            adjacent[edge["target"]].append((edge["source"], attributes))
        board.__dict__.update(
            _graph=None, _build=build, _nodes=nodes, _adjacent=adjacent, _attributes=dict(data.get("graph", {}))
        )
        return board

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        return True if other.__class__ is self.__class__ else NotImplemented

    def __hash__(self) -> int:
        return hash(())

    def __repr__(self) -> str:
        return "Map()"

    @property
    def graph(self) -> nx.Graph:
        """The map as a networkx graph (node and edge attributes as in the file), built when first asked for."""
        graph = self.__dict__["_graph"]
        if graph is None:
            graph = self.__dict__["_graph"] = self.__dict__["_build"]()
        return graph

    @cached_property
    def territories(self) -> tuple[str, ...]:
        return tuple(self._nodes)

    @cached_property
    def index(self) -> dict[str, int]:
        return {territory: i for i, territory in enumerate(self.territories)}

    @cached_property
    def regions(self) -> dict[str, tuple[str, ...]]:
        result: dict[str, list[str]] = {}
        for territory, data in self._nodes.items():
            result.setdefault(data.get("region"), []).append(territory)
        return {region: tuple(members) for region, members in result.items()}

    @cached_property
    def neighbours(self) -> dict[str, tuple[str, ...]]:
        """Neighbours across passable borders (MJ-5.2, MJ-C2)."""
        return {
            territory: tuple(n for n, edge in self._adjacent[territory] if edge["passable"])
            for territory in self.territories
        }

    @cached_property
    def neighbour_indices(self) -> tuple[tuple[int, ...], ...]:
        """:attr:`neighbours` by index into :attr:`territories` (the engine's fast paths work on indices)."""
        return tuple(tuple(self.index[n] for n in self.neighbours[t]) for t in self.territories)

    @cached_property
    def numbers(self) -> tuple[int, ...]:
        return tuple(self.number(t) for t in self.territories)

    @cached_property
    def region_indices(self) -> dict[str, tuple[int, ...]]:
        return {region: tuple(self.index[t] for t in members) for region, members in self.regions.items()}

    def region(self, territory: str) -> str:
        return self._nodes[territory]["region"]

    def name(self, territory: str) -> str:
        return self._nodes[territory]["name"]

    def number(self, territory: str) -> int:
        return self._nodes[territory]["number"]

    def borders(self, first: str, second: str) -> bool:
        """Whether two territories share a border, passable or not (a canal is a border without access)."""
        return any(n == second for n, _ in self._adjacent.get(first, ()))

    @property
    def brewery_territory(self) -> str:
        return self._attributes["brewery"]

    @property
    def attributes(self) -> dict[str, Any]:
        """The map's own attributes (``graph.graph``: the brewery, the regions' colours), without building the
        networkx graph."""
        return self._attributes

    def position(self, territory: str) -> tuple[float, float]:
        """A territory's point (x, y) in km, as the file gives it."""
        node = self._nodes[territory]
        return node["x"], node["y"]

    def edges(self, attribute: str) -> Iterator[tuple[str, str, Any]]:
        """Every border once, with its ``attribute``, in the order ``graph.edges(data=attribute)`` lists them (the
        territories in file order, each with its neighbours not yet listed), without building the networkx graph."""
        done: set[str] = set()
        for territory in self._nodes:
            for near, data in self._adjacent[territory]:
                if near not in done:
                    yield territory, near, data.get(attribute)
            done.add(territory)


Board = Map  # the old name, still exported by rulebook.meetjesland; rulebook.meetjesland.widget.Board is the board


_NODE_ATTRIBUTES = ("name", "municipality", "region", "number", "x", "y")
_EDGE_ATTRIBUTES = ("border", "passable", "line")


def _plain_board(data: dict[str, Any]) -> bool:
    """Whether node-link data is plainly what ``boards.from_data`` accepts with the map's required attributes and
    passable borders: an undirected simple graph of string ids, each node once with every attribute, edges between
    listed nodes once each with ``passable`` true or false, every node reached across passable borders. Anything
    else goes to the full loader, which names what is wrong."""
    nodes, edges = data.get("nodes"), data.get("edges")
    if (
        data.get("directed") is not False
        or data.get("multigraph") is not False
        or not isinstance(data.get("graph", {}), dict)
        or not isinstance(nodes, list)
        or not isinstance(edges, list)
        or not nodes
    ):
        return False
    ids: dict[str, list[str]] = {}
    for node in nodes:
        if type(node) is not dict or type(node.get("id")) is not str or node["id"] in ids:
            return False
        if any(attribute not in node for attribute in _NODE_ATTRIBUTES):
            return False
        ids[node["id"]] = []
    pairs: set[frozenset[str]] = set()
    for edge in edges:
        if not _plain_edge(edge, ids, pairs):
            return False
        if edge["passable"]:
            ids[edge["source"]].append(edge["target"])
            ids[edge["target"]].append(edge["source"])
    start = nodes[0]["id"]
    reached, frontier = {start}, [start]
    while frontier:
        for near in ids[frontier.pop()]:
            if near not in reached:
                reached.add(near)
                frontier.append(near)
    return len(reached) == len(ids)


def _plain_edge(edge: Any, ids: dict[str, list[str]], pairs: set[frozenset[str]]) -> bool:
    """Whether an edge joins two listed nodes not joined before, with every required attribute and ``passable`` true
    or false (its pair then noted in ``pairs``)."""
    if type(edge) is not dict:
        return False
    source, target = edge.get("source"), edge.get("target")
    if type(source) is not str or type(target) is not str or source not in ids or target not in ids:
        return False
    pair = frozenset((source, target))
    if len(pair) != 2 or pair in pairs or any(attribute not in edge for attribute in _EDGE_ATTRIBUTES):
        return False
    if type(edge["passable"]) is not bool:
        return False
    pairs.add(pair)
    return True


def load_board(name: str = GAME) -> Map:
    """Load and check ``graphs/<name>.json``: every territory reachable across passable borders (read once: the
    default and its name are one board, not two)."""
    return _load_board(name)


@lru_cache(maxsize=4)
def _load_board(name: str) -> Map:
    path = boards.graphs_dir() / f"{name}.json"
    data = boards.read(path) if path.is_file() else None

    def build() -> nx.Graph:
        return boards.load(
            name, node_attributes=_NODE_ATTRIBUTES, edge_attributes=_EDGE_ATTRIBUTES, passable="passable"
        )

    if data is not None and _plain_board(data):
        board = Map._from_data(data, build)
    else:  # the full loader: its refusals name the problem
        board = Map(build())
    nodes, attributes = board._nodes, board._attributes
    try:
        known = "brewery" in attributes and attributes["brewery"] in nodes
    except TypeError:  # an unhashable value names no territory
        known = False
    if not known:
        raise ValueError(f"{name}.json: graph attribute 'brewery' must name a territory")
    for territory, data in nodes.items():
        if not isinstance(data["region"], str):
            raise ValueError(
                f"{name}.json: territory {quote(territory)} has region {quote(data['region'])}; expected a colour name"
            )
    for territory, data in nodes.items():
        if not isinstance(data["number"], int) or data["number"] < 0:
            raise ValueError(
                f"{name}.json: territory {quote(territory)} has number {quote(data['number'])}; expected an int >= 0"
            )
    return board


load_board.cache_clear = _load_board.cache_clear  # type: ignore[attr-defined]


# --- missions (MJ-C4: the text names none; these twelve are our reconstruction) ------------------------


@dataclass(frozen=True)
class Mission:
    """A mission card. Regions to hold (plus any one more whole region when ``extra_region``),
    or a number of territories (each with at least ``min_points``), or a player to destroy."""

    text: str
    regions: tuple[str, ...] = ()
    extra_region: bool = False
    territories: int = 0
    min_points: int = 1
    destroy: int | None = None


MISSIONS = (
    Mission("Conquer the whole of red and blue", regions=("red", "blue")),
    Mission("Conquer the whole of green and orange", regions=("green", "orange")),
    Mission("Conquer the whole of blue and orange", regions=("blue", "orange")),
    Mission("Conquer the whole of green, yellow and mauve", regions=("green", "yellow", "mauve")),
    Mission(
        "Conquer the whole of blue and mauve and one more colour of your choice",
        regions=("blue", "mauve"),
        extra_region=True,
    ),
    Mission(
        "Conquer the whole of red and yellow and one more colour of your choice",
        regions=("red", "yellow"),
        extra_region=True,
    ),
    Mission("Hold 24 territories", territories=24),
    Mission("Hold 18 territories with at least 2 points on each", territories=18, min_points=2),
    Mission("Destroy the white player", destroy=0),
    Mission("Destroy the black player", destroy=1),
    Mission("Destroy the pink player", destroy=2),
    Mission("Destroy the teal player", destroy=3),
)
FALLBACK_MISSION = MISSIONS[6]  # MJ-C5: a destroy mission that cannot be done becomes "hold 24 territories"


@dataclass(frozen=True)
class Config:
    """Decisions where players may differ; every field is a documented clarification."""

    board: str = GAME
    move_limit: int = 7  # MJ-5.9 / MJ-C11: points that may be moved between territories per turn
    hand_limit: int = 5  # MJ-4.8
    missions: tuple[Mission, ...] = MISSIONS  # MJ-C4
    brewery_value: int = 5  # MJ-4.7
    set_values: tuple[int, int, int] = (4, 6, 8)  # MJ-4.7: three different, two and one, three alike
    trade_down: bool = False  # MJ-C8 option: over the hand limit, any trade that brings the hand down to it will do
    # MJ-C11 option: a turn of reinforcements may also move points (before or after taking them). Off: MJ-4.4's
    # «Vous passez ensuite votre tour», and moving points is a part of conquering (MJ-5.9).
    move_and_reinforce: bool = False

    def __post_init__(self) -> None:
        # Bounds the set-up panel offers too (rulebook/setup.py): wide enough for any house rule, narrow enough that
        # no saved or typed Config can make the game loop or the board draw forever.
        if self.board not in BOARDS:
            raise ValueError(f"Config.board must be one of the shipped maps {BOARDS}, got {quote(self.board)}")
        if not _whole(self.move_limit, 0, 100):
            raise ValueError(f"Config.move_limit must be a whole number from 0 to 100, got {quote(self.move_limit)}")
        if not _whole(self.hand_limit, 3, 44):
            raise ValueError(f"Config.hand_limit must be a whole number from 3 to 44, got {quote(self.hand_limit)}")
        if not _whole(self.brewery_value, 0, 100):
            raise ValueError(
                f"Config.brewery_value must be a whole number from 0 to 100, got {quote(self.brewery_value)}"
            )
        if not isinstance(self.trade_down, bool):
            raise ValueError(f"Config.trade_down must be True or False, got {quote(self.trade_down)}")
        if not isinstance(self.move_and_reinforce, bool):
            raise ValueError(f"Config.move_and_reinforce must be True or False, got {quote(self.move_and_reinforce)}")
        values = self.set_values
        if not (isinstance(values, tuple) and len(values) == 3 and all(_whole(v, 0, 100) for v in values)):
            raise ValueError(f"Config.set_values must be three whole numbers from 0 to 100, got {quote(values)}")
        missions = self.missions
        if not isinstance(missions, tuple) or not all(isinstance(m, Mission) for m in missions):
            raise ValueError(f"Config.missions must be a tuple of Mission cards, got {quote(missions)}")
        if not 6 <= len(missions) <= 64:
            raise ValueError(f"Config.missions needs 6 to 64 missions (one per player at least), got {len(missions)}")
        regions = set(load_board(self.board).regions)
        for number, mission in enumerate(missions):
            problem = _mission_problem(mission, regions)
            if problem:
                raise ValueError(f"Config.missions[{number}]: {problem}")


def _mission_problem(mission: Mission, regions: set[str]) -> str:
    """What is wrong with a mission card, or ''."""
    if not isinstance(mission.text, str) or not 1 <= len(mission.text) <= 200:
        return f"the text must be 1 to 200 characters, got {quote(mission.text)}"
    if not isinstance(mission.regions, tuple) or not all(r in regions for r in mission.regions if isinstance(r, str)):
        return f"regions must be colours of the map ({', '.join(sorted(regions))}), got {quote(mission.regions)}"
    if not all(isinstance(r, str) for r in mission.regions) or len(set(mission.regions)) != len(mission.regions):
        return f"regions must be different colour names, got {quote(mission.regions)}"
    if not isinstance(mission.extra_region, bool):
        return f"extra_region must be True or False, got {quote(mission.extra_region)}"
    if not _whole(mission.territories, 0, 44) or not _whole(mission.min_points, 1, 100):
        return f"territories (0 to 44) and min_points (1 to 100), got {quote(mission.territories)}, " + quote(
            mission.min_points
        )
    if mission.destroy is not None and not _whole(mission.destroy, 0, len(PLAYER_COLOURS) - 1):
        return f"destroy names a player 0 to {len(PLAYER_COLOURS) - 1}, got {quote(mission.destroy)}"
    if not (mission.regions or mission.territories or mission.destroy is not None):
        return "a mission needs regions, a number of territories or a player to destroy"
    return ""


# --- moves and chance outcomes ----------------------------------------------------------------------


def _name(territory: str) -> str:
    """A territory as the map names it; anything else quoted short (it came from a malformed move)."""
    if isinstance(territory, str) and territory in load_board().index:
        return load_board().name(territory)
    return quote(territory)


@dataclass(frozen=True)
class Place:
    territory: str
    points: int = 1

    def __str__(self) -> str:
        return f"place {self.points} on {_name(self.territory)}"


@dataclass(frozen=True)
class Reinforce:
    """Choose the first kind of turn: take points for the territories held (MJ-4.4)."""

    def __str__(self) -> str:
        return "take reinforcements"


@dataclass(frozen=True)
class TradeCards:
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "trade " + ", ".join(card_name(card) for card in self.cards)


@dataclass(frozen=True)
class Attack:
    origin: str
    target: str
    stake: int

    def __str__(self) -> str:
        return f"attack {_name(self.target)} from {_name(self.origin)} with {self.stake}"


@dataclass(frozen=True)
class Roll:
    def __str__(self) -> str:
        return "roll again"


@dataclass(frozen=True)
class Retreat:
    def __str__(self) -> str:
        return "break off the attack"


@dataclass(frozen=True)
class Fortify:
    origin: str
    destination: str
    points: int

    def __str__(self) -> str:
        return f"move {self.points} from {_name(self.origin)} to {_name(self.destination)}"


@dataclass(frozen=True)
class EndTurn:
    def __str__(self) -> str:
        return "end the turn"


@dataclass(frozen=True)
class Dice:
    """A chance outcome: the attacker's and the defender's dice, each sorted high to low."""

    attacker: tuple[int, ...]
    defender: tuple[int, ...]

    def __str__(self) -> str:
        return f"dice {'-'.join(map(str, self.attacker))} against {'-'.join(map(str, self.defender))}"


@dataclass(frozen=True)
class CardDrawn:
    card: str

    def __str__(self) -> str:
        return f"receive the card {card_name(self.card)}"


MOVE_CLASSES = {
    cls.__name__: cls
    for cls in (Place, Reinforce, TradeCards, Attack, Roll, Retreat, Fortify, EndTurn, Dice, CardDrawn)
}
# any move of the game, chance outcomes included (``Move`` is a move class of Ab die Post)
AnyMove = Place | Reinforce | TradeCards | Attack | Roll | Retreat | Fortify | EndTurn | Dice | CardDrawn


# --- cards ------------------------------------------------------------------------------------------


def deck(board: Map | None = None) -> tuple[str, ...]:
    """The 44 Meetjesland cards: one per territory, the Brewery card standing for Ertvelde (MJ-C3)."""
    board = board or load_board()
    return tuple(BREWERY if t == board.brewery_territory else t for t in board.territories)


def card_colour(card: str, board: Map | None = None) -> str:
    board = board or load_board()
    return BREWERY if card == BREWERY else board.region(card)


def card_name(card: str) -> str:
    return "Brewery Van Steenberge" if card == BREWERY else _name(card)


def card_territory(card: str, board: Map | None = None) -> str:
    board = board or load_board()
    return board.brewery_territory if card == BREWERY else card


def set_value(cards: Iterable[str], config: Config = Config(), board: Map | None = None) -> int | None:
    """Points for trading these cards (MJ-4.7), or None when they are not a set."""
    cards = tuple(cards)
    if cards == (BREWERY,):
        return config.brewery_value
    if len(cards) != 3 or BREWERY in cards:
        return None
    kinds = len({card_colour(card, board) for card in cards})
    return {3: config.set_values[0], 2: config.set_values[1], 1: config.set_values[2]}[kinds]


# --- the state --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Battle:
    """An attack under way (MJ-5.3 to MJ-5.8): the stake still fighting and whether dice are due."""

    origin: str
    target: str
    stake: int
    rolling: bool


@dataclass(frozen=True)
class State:
    players: int
    seed: int
    config: Config
    owner: tuple[int, ...]
    points: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]
    missions: tuple[int, ...]
    alive: tuple[bool, ...]
    phase: str  # "setup", "play" or "over"
    turn: int  # whose turn it is (also while dice or a card are due)
    stage: str = "start"  # "start", "reinforce" (MJ-4.4 chosen) or "conquer" (MJ-4.5 chosen)
    to_place: int = 0
    moved: int = 0
    conquered: bool = False
    drawing: bool = False
    battle: Battle | None = None
    last_dice: Dice | None = None
    eliminated_by: tuple[int | None, ...] = ()
    winners: tuple[int, ...] = ()
    reason: str = ""
    arranged: bool = False  # a written position (see arrange): it has no move log from a deal
    history: tuple = ()

    @property
    def board(self) -> Map:
        board = _BOARDS.get(self.config.board)
        return board if board is not None else _BOARDS.setdefault(self.config.board, load_board(self.config.board))

    @property
    def player(self) -> int | None:
        """The player to decide, or None at a chance node and at the end."""
        if self.phase == "over" or self.drawing or (self.battle is not None and self.battle.rolling):
            return None
        return self.turn

    def owner_of(self, territory: str) -> int:
        return self.owner[self.board.index[territory]]

    def points_on(self, territory: str) -> int:
        return self.points[self.board.index[territory]]

    def territories_of(self, player: int) -> tuple[str, ...]:
        return tuple(t for t, o in zip(self.board.territories, self.owner) if o == player)

    def mission(self, player: int) -> Mission:
        return self.config.missions[self.missions[player]]

    def __str__(self) -> str:
        return f"Meetjesland, {self.players} players, {self.phase}, turn of {PLAYER_COLOURS[self.turn]}"


_BOARDS: dict[str, Map] = {}  # State.board without load_board's cache lookup (the map is read once)
_STATE_FIELDS = frozenset(f.name for f in dataclasses.fields(State))


def _evolve(state: State, **changes) -> State:
    """``dataclasses.replace`` for the engine's own changes, without its per-field overhead (it was a fifth of
    the time of a move): the fields are copied and the changed ones set. State has no ``__post_init__``."""
    if not _STATE_FIELDS.issuperset(changes):
        raise TypeError(f"State has no fields {sorted(changes.keys() - _STATE_FIELDS)}")
    new = object.__new__(State)
    values = new.__dict__
    values.update(state.__dict__)
    values.update(changes)
    return new


def _replace(values: tuple, index: int, value) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def _battle(origin: str, target: str, stake: int, rolling: bool) -> Battle:
    """A Battle made without the frozen dataclass's ``__setattr__`` per field (one is made at every roll)."""
    battle = object.__new__(Battle)
    battle.__dict__.update(origin=origin, target=target, stake=stake, rolling=rolling)
    return battle


# --- what a position's owners decide, kept with the states that follow ---------------------------------


class _Series(list):
    """One kind of move between the same territories with 1, 2, ... points or stake, made as far as asked for, each
    move once: the moves with 7 and with 8 points share their first seven (a bonus of 40 points made 820 Place
    objects per territory, now 40)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[int], Any]) -> None:
        super().__init__()
        self.make = make

    def grow(self, count: int) -> None:
        """Made up to ``count``, under a lock: a computer player's thread and the page's may grow the same series,
        and each move must be appended once, in order (a reader's slice of the first ``count`` is then whole)."""
        with _GROWING:
            make = self.make
            while len(self) < count:
                self.append(make(len(self) + 1))


_GROWING = threading.Lock()


_SERIES: dict[tuple, _Series] = {}  # (kind, territories) -> its _Series


def _series(kind: type, first: str, second: str = "") -> _Series:
    """The series of Place on ``first``, or of Attack or Fortify from ``first`` to ``second``."""
    key = (kind, first, second)
    series = _SERIES.get(key)
    if series is None:
        if kind is Place:
            series = _Series(lambda points: Place(first, points))
        elif kind is Attack:
            series = _Series(lambda stake: Attack(first, second, stake))
        else:
            series = _Series(lambda points: Fortify(first, second, points))
        _SERIES[key] = series
    return series


class _Moves(dict):
    """The moves of a few series in turn (one territory's attacks on its enemy neighbours, say) by count:
    ``moves[count]`` is a tuple of each series' first ``count``, joined when first asked for."""

    __slots__ = ("series",)

    def __init__(self, series: tuple[_Series, ...]) -> None:
        super().__init__()
        self.series = series

    def __missing__(self, count: int) -> tuple:
        joined: list = []
        for series in self.series:
            if len(series) < count:
                series.grow(count)
            joined += series[:count]
        moves = self[count] = tuple(joined)
        return moves


_Blocks = tuple  # (attacks by stake or None, moves of points by count or None): one territory's moves by its owner
_BLOCKS: dict[tuple[int, int], _Blocks] = {}  # (territory, which neighbours are its owner's) -> its blocks


def _blocks(board: Map, owner: tuple[int, ...], i: int) -> _Blocks:
    """Territory ``i``'s moves as its owner's: the attacks on each enemy neighbour in turn and the moves of points to
    each neighbour held in turn, by count. One pair per territory and set of neighbours held, shared by every
    position, so that a position's moves are a few kept tuples joined."""
    mine, bits, bit = owner[i], 0, 1
    neighbours = board.neighbour_indices[i]
    for j in neighbours:
        if owner[j] == mine:
            bits |= bit
        bit <<= 1
    blocks = _BLOCKS.get((i, bits))
    if blocks is None:
        names = board.territories
        origin = names[i]
        enemies = [_series(Attack, origin, names[j]) for k, j in enumerate(neighbours) if not bits >> k & 1]
        friends = [_series(Fortify, origin, names[j]) for k, j in enumerate(neighbours) if bits >> k & 1]
        blocks = _BLOCKS[(i, bits)] = (
            _Moves(tuple(enemies)) if enemies else None,
            _Moves(tuple(friends)) if friends else None,
        )
    return blocks


class _Seat:
    """One player's share of a position's owners: the territories held (indices, file order), those with an enemy
    neighbour and those with a neighbour held, each with its moves by count; the places to put points, the whole
    regions and the colour bonus (MJ-4.9) are made when first asked for."""

    __slots__ = ("owner", "player", "board", "own", "frontier", "inner", "_places", "_whole")

    def __init__(self, kept: _Kept, player: int, board: Map) -> None:
        owner, blocks = kept.owner, kept.blocks
        self.owner, self.player, self.board = owner, player, board
        self.own = own = tuple(i for i, o in enumerate(owner) if o == player)
        self.frontier = tuple((i, blocks[i][0]) for i in own if blocks[i][0] is not None)
        self.inner = tuple((i, blocks[i][1]) for i in own if blocks[i][1] is not None)
        self._places: _Moves | None = None
        self._whole: tuple[str, ...] | None = None

    @property
    def places(self) -> _Moves:
        """Every Place on a territory held, by the points to place (territories in file order, then points)."""
        if self._places is None:
            names = self.board.territories
            self._places = _Moves(tuple(_series(Place, names[i]) for i in self.own))
        return self._places

    @property
    def whole(self) -> tuple[str, ...]:
        """The regions held whole, in the map's order."""
        if self._whole is None:
            owner, player = self.owner, self.player
            regions = self.board.region_indices.items()
            self._whole = tuple(region for region, members in regions if all(owner[i] == player for i in members))
        return self._whole


class _Kept:
    """What a position's owners decide: each territory's blocks (:func:`_blocks`) and the players' seats, kept in the
    state's ``__dict__`` beside the fields and copied by ``_evolve`` to the states that follow; it serves while the
    state's ``owner`` is the very tuple it was made for."""

    __slots__ = ("owner", "blocks", "seats")

    def __init__(self, owner: tuple[int, ...], blocks: list[_Blocks], seats: dict[int, _Seat]) -> None:
        self.owner, self.blocks, self.seats = owner, blocks, seats


def _seat(state: State, player: int) -> _Seat:
    """``player``'s seat in this position, from the kept table when it is this position's (made and kept if not)."""
    values = state.__dict__
    kept = values.get("_kept")
    if kept is None or kept.owner is not state.owner:
        board, owner = state.board, state.owner
        kept = values["_kept"] = _Kept(owner, [_blocks(board, owner, i) for i in range(len(owner))], {})
    seat = kept.seats.get(player)
    if seat is None:
        seat = kept.seats[player] = _Seat(kept, player, state.board)
    return seat


def _keep_seats(before: State, after: State, index: int) -> None:
    """After territory ``index`` changed hands: only its blocks and its neighbours' held by the two players change,
    and only those two players' seats (the territory is an enemy's to everyone else before and after)."""
    kept = before.__dict__.get("_kept")
    if kept is None or kept.owner is not before.owner:
        return
    board, owner = after.board, after.owner
    changed = (before.owner[index], owner[index])
    blocks = list(kept.blocks)
    for i in (index, *board.neighbour_indices[index]):
        if owner[i] in changed:
            blocks[i] = _blocks(board, owner, i)
    seats = {player: seat for player, seat in kept.seats.items() if player not in changed}
    after.__dict__["_kept"] = _Kept(owner, blocks, seats)


# --- setting up (MJ-2.1 to MJ-4.2) --------------------------------------------------------------------


def new_game(players: int = 4, seed: int = 0, config: Config | None = None) -> State:
    """Deal the cards clockwise from the first player, deal the missions, put 2 points on every territory."""
    if not isinstance(players, int) or players not in STARTING_POINTS:
        raise ValueError(f"Meetjesland is played by 3 to 6 players, not {quote(players)} (MJ-2.1)")
    config = config or Config()
    if not isinstance(config, Config):
        raise ValueError(f"config must be a meetjesland Config, got {type(config).__name__}")
    rng = seeded(seed)
    board = load_board(config.board)
    cards = list(deck(board))
    rng.shuffle(cards)
    owner = [0] * len(board.territories)
    for position, card in enumerate(cards):  # MJ-2.1: dealt one by one, clockwise, starting player first
        owner[board.index[card_territory(card, board)]] = position % players
    missions = list(range(len(config.missions)))
    rng.shuffle(missions)
    state = State(
        players=players,
        seed=seed,
        config=config,
        owner=tuple(owner),
        points=(2,) * len(owner),  # MJ-C7: the two points every territory must carry are put down for you
        hands=((),) * players,
        pile=tuple(sorted(cards)),  # MJ-4.2: the game master takes back every card
        missions=tuple(missions[:players]),
        alive=(True,) * players,
        phase="setup",
        turn=0,
        eliminated_by=(None,) * players,
    )
    return dataclasses.replace(state, to_place=_setup_points(state, 0))


def _setup_points(state: State, player: int) -> int:
    return STARTING_POINTS[state.players] - 2 * len(state.territories_of(player))


# --- what a player receives (MJ-4.6 to MJ-4.10) ------------------------------------------------------


def reinforcements(territories: int) -> int:
    """MJ-4.10: one point per three territories held, at least three."""
    return max(3, territories // 3)


def whole_regions(state: State, player: int) -> tuple[str, ...]:
    """The regions (colours) ``player`` holds every territory of, in the map's order."""
    return _seat(state, player).whole


def colour_bonus(state: State, player: int) -> int:
    """MJ-4.9 / MJ-C9: with a whole colour, the numbers of all territories held, once per turn."""
    seat = _seat(state, player)
    if not seat.whole:
        return 0
    numbers = state.board.numbers
    return sum(numbers[i] for i in seat.own)


def effective_mission(state: State, player: int) -> Mission:
    """The mission that counts: a destroy mission that cannot be done becomes the fallback (MJ-C5)."""
    mission = state.mission(player)
    target = mission.destroy
    if target is None or (
        target < state.players and target != player and state.eliminated_by[target] in (None, player)
    ):
        return mission
    return FALLBACK_MISSION


def mission_done(state: State, player: int) -> bool:
    """Whether ``player`` has fulfilled their mission (MJ-3.1, MJ-C4, MJ-C5)."""
    mission = effective_mission(state, player)
    if mission.destroy is not None:
        return state.eliminated_by[mission.destroy] == player
    seat = _seat(state, player)
    if mission.territories:
        if len(seat.own) < mission.territories:  # fewer held than the mission asks: none of them counts more
            return False
        least, points = mission.min_points, state.points
        return sum(1 for i in seat.own if points[i] >= least) >= mission.territories
    regions = seat.whole
    if not set(mission.regions).issubset(regions):
        return False
    return not mission.extra_region or len(set(regions) - set(mission.regions)) >= 1


# --- the engine verbs -------------------------------------------------------------------------------


def legal_moves(state: State) -> tuple:
    """Every move the player to move may make, in a stable order; () at chance nodes and at the end."""
    if state.phase == "over" or state.drawing:
        return ()
    battle = state.battle
    if battle is not None:
        return () if battle.rolling else _ROLL_RETREAT
    # The candidates of _candidates are legal by construction except for conditions shared by every move of a kind
    # (the stage of the turn, points still to place, the hand limit), as _apply decides them: a trade needs a turn
    # not yet at its conquests (MJ-C8), Reinforce a turn not yet begun and without points moved, an attack or a move
    # of points a turn without reinforcements (MJ-4.4, MJ-C11). Only those kinds are built, from the player's seat
    # (the kept moves of each territory held, by count); a test compares the result with every candidate checked.
    player, stage, config = state.turn, state.stage, state.config
    seat = _seat(state, player)
    if state.phase == "setup":
        return seat.places[state.to_place]
    hand = state.hands[player]
    trades = _hand_trades(hand, config.hand_limit, config.trade_down) if hand and stage != "conquer" else ()
    if len(hand) > config.hand_limit:
        return trades
    if state.to_place:
        return trades + seat.places[state.to_place]
    legal = list(trades)
    together = config.move_and_reinforce
    if stage == "start" and (together or not state.moved):
        legal.append(_REINFORCE)
    points = state.points
    if stage != "reinforce":
        for i, attacks in seat.frontier:
            if points[i] > 1:
                legal += attacks[points[i] - 1]
    limit = config.move_limit - state.moved if stage != "reinforce" or together else 0
    if limit > 0:
        for i, fortifies in seat.inner:
            count = points[i] - 1
            if count > 0:
                legal += fortifies[count if count < limit else limit]
    legal.append(_END_TURN)
    return tuple(legal)


def _trade_moves(hand: tuple[str, ...], limit: int, trade_down: bool) -> tuple:
    """The trades a hand offers (MJ-4.7): the Brewery card alone unless over the hand limit (MJ-4.8), then every
    three coloured cards."""
    brewery = (_BREWERY_TRADE,) if BREWERY in hand and (len(hand) <= limit or trade_down) else ()
    return brewery + _trades(tuple(sorted(c for c in hand if c != BREWERY)))


def _hand_trades(hand: tuple[str, ...], limit: int, trade_down: bool) -> tuple:
    try:
        return _kept_trades(hand, limit, trade_down)
    except TypeError:  # a hand that is no tuple (a written position) is worked out each time
        return _trade_moves(hand, limit, trade_down)


_kept_trades = lru_cache(maxsize=4096)(_trade_moves)


# Shared move objects for legal_moves (moves are immutable values, so one object serves every position).
_REINFORCE, _END_TURN = None, None  # set below, once the classes exist
_BREWERY_TRADE = None
_ROLL_RETREAT: tuple = ()


@lru_cache(maxsize=4096)
def _trades(coloured: tuple[str, ...]) -> tuple:
    return tuple(TradeCards(combo) for combo in sorted(set(itertools.combinations(coloured, 3))))


def _candidates(state: State):
    board, player = state.board, state.turn
    own = state.territories_of(player)
    if state.battle is not None:
        yield Roll()
        yield Retreat()
        return
    if state.phase == "setup":
        for territory in own:
            for points in range(1, state.to_place + 1):
                yield Place(territory, points)
        return
    hand = state.hands[player]
    if BREWERY in hand and (len(hand) <= state.config.hand_limit or state.config.trade_down):
        yield TradeCards((BREWERY,))  # MJ-4.8: over the limit, only three cards will do
    for combo in sorted(set(itertools.combinations(sorted(c for c in hand if c != BREWERY), 3))):
        yield TradeCards(combo)
    if len(hand) > state.config.hand_limit:
        return  # MJ-4.8: only trades until the hand is small enough
    if state.to_place:  # MJ-5.4: extra points are placed before anything else
        for territory in own:
            for points in range(1, state.to_place + 1):
                yield Place(territory, points)
        return
    yield Reinforce()
    for origin in own:
        available = state.points_on(origin) - 1
        for target in board.neighbours[origin]:
            if state.owner_of(target) != player:
                for stake in range(1, available + 1):
                    yield Attack(origin, target, stake)
    limit = state.config.move_limit - state.moved
    for origin in own:
        for destination in board.neighbours[origin]:
            if state.owner_of(destination) == player:
                for points in range(1, min(limit, state.points_on(origin) - 1) + 1):
                    yield Fortify(origin, destination, points)
    yield EndTurn()


_REINFORCE, _END_TURN, _BREWERY_TRADE = Reinforce(), EndTurn(), TradeCards((BREWERY,))
_ROLL_RETREAT = (Roll(), Retreat())


def chance_outcomes(state: State) -> tuple[tuple[Dice | CardDrawn, Fraction], ...]:
    """Dice due in a battle (every sorted roll of both sides) or the card to draw; () elsewhere."""
    if state.phase == "over":
        return ()
    if state.battle is not None and state.battle.rolling:
        return _dice_outcomes(*dice_counts(state))
    if state.drawing:
        return _card_outcomes(state.pile)
    return ()


@lru_cache(maxsize=4096)
def _card_outcomes(pile: tuple[str, ...]) -> tuple[tuple[CardDrawn, Fraction], ...]:
    """Each card of the pile with probability 1/(cards in the pile): one tuple per pile, so that a draw asked for
    twice (by the player and by apply) is one object, and sampling finds its tickets made."""
    probability = _one_in(len(pile))
    return tuple((_card_drawn(card), probability) for card in pile)


@cache
def _one_in(count: int) -> Fraction:
    return Fraction(1, count)


@cache
def _card_drawn(card: str) -> CardDrawn:
    """One CardDrawn per card, shared by every pile's outcomes (moves are values)."""
    return CardDrawn(card)


def dice_counts(state: State) -> tuple[int, int]:
    """MJ-5.4 / MJ-5.5: attacker dice by the stake still fighting, defender dice by the points defending."""
    battle = state.battle
    if battle is None:
        raise ValueError("no battle is under way")
    return min(battle.stake, 3), (2 if state.points_on(battle.target) >= 2 else 1)


@cache
def _dice_outcomes(attacker: int, defender: int) -> tuple[tuple[Dice, Fraction], ...]:
    """Every sorted roll of both sides with its exact probability: the ways of each side's roll multiplied, over
    6 to the number of dice (the product of the two sides' Fractions, made once instead of multiplied)."""
    total = 6 ** (attacker + defender)
    attacks = [(a, pa.numerator * (6**attacker // pa.denominator)) for a, pa in sorted_dice(attacker)]
    defences = [(d, pd.numerator * (6**defender // pd.denominator)) for d, pd in sorted_dice(defender)]
    # one Fraction per number of ways (a handful for a table of 1,176 rolls)
    ways = {na * nd for na in {na for _, na in attacks} for nd in {nd for _, nd in defences}}
    chances = {n: Fraction(n, total) for n in ways}
    return tuple((Dice(a, d), chances[na * nd]) for a, na in attacks for d, nd in defences)


@cache
def _dice_set(attacker: int, defender: int) -> frozenset[Dice]:
    return frozenset(dice for dice, _ in _dice_outcomes(attacker, defender))


@cache
def _dice_ids(attacker: int, defender: int) -> dict[int, Dice]:
    """The outcome table's own Dice objects by id (the table keeps them, so the ids stay theirs): apply knows a roll
    handed out by :func:`chance_outcomes` by its id, without checking it again."""
    return {id(dice): dice for dice, _ in _dice_outcomes(attacker, defender)}


_LOSSES: dict[int, tuple[int, int]] = {}  # id of a table's Dice -> resolve_roll of it, when first rolled


def _table_losses(dice: Dice) -> tuple[int, int]:
    """:func:`resolve_roll` of a Dice from an outcome table, worked out once."""
    losses = _LOSSES.get(id(dice))
    if losses is None:
        losses = _LOSSES[id(dice)] = resolve_roll(dice.attacker, dice.defender)
    return losses


def _is_outcome(move: Dice, outcomes: frozenset[Dice]) -> bool:
    try:
        return move in outcomes
    except TypeError:  # a malformed Dice (unhashable faces) is no outcome
        return False


def resolve_roll(attacker_dice: Iterable[int], defender_dice: Iterable[int]) -> tuple[int, int]:
    """MJ-5.6 / MJ-5.7: highest against highest, ties to the defender -> (attacker losses, defender losses)."""
    attacker = sorted(attacker_dice, reverse=True)
    defender = sorted(defender_dice, reverse=True)
    for die in (*attacker, *defender):
        if not isinstance(die, int) or not 1 <= die <= 6:
            raise ValueError(f"a die shows 1 to 6, not {quote(die)}")
    if not 1 <= len(attacker) <= 3 or not 1 <= len(defender) <= 2:
        raise ValueError(f"the attacker rolls 1-3 dice and the defender 1-2, not {len(attacker)} and {len(defender)}")
    attacker_losses = defender_losses = 0
    for a, d in zip(attacker, defender):
        if a > d:
            defender_losses += 1
        else:
            attacker_losses += 1
    return attacker_losses, defender_losses


def check(state: State, move) -> IllegalMove | None:
    """The reason ``move`` is illegal now, or None; the same code path as :func:`apply`."""
    try:
        _apply(state, move)
    except IllegalMove as error:
        return error
    return None


def apply(state: State, move) -> State:
    """The state after ``move`` (a player's move or a chance outcome); raises IllegalMove, never half-applies."""
    new = _apply(state, move)
    if new is state:
        return _evolve(new, history=state.history + (move,))
    # a state _apply has just made (no one else holds it yet): its log is set in place instead of copying it again
    new.__dict__["history"] = state.history + (move,)
    return new


def outcome(state: State) -> Outcome | None:
    if state.phase != "over":
        return None
    return Outcome(winners=state.winners, reason=state.reason)


def _territory(state: State, territory, rule: str) -> str:
    if not isinstance(territory, str) or len(territory) > core.MAX_TEXT or territory not in state.board.index:
        raise IllegalMove(rule, f"there is no territory {quote(territory)} on the map")
    return territory


def _count(value, rule: str, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise IllegalMove(rule, f"{what} must be a whole number of at least 1, not {quote(value)}")
    return value


def _apply(state: State, move) -> State:
    if state.phase == "over":
        raise IllegalMove("MJ-3.1", f"the game is over: {state.reason}")
    battle = state.battle
    if battle is not None and battle.rolling:
        if move.__class__ is Dice and _dice_ids(*dice_counts(state)).get(id(move)) is move:
            return _apply_dice(state, move, _table_losses(move))  # a roll chance_outcomes handed out, as it is
    elif state.drawing and battle is None and move.__class__ is CardDrawn and move.card.__class__ is str:
        if _card_outcomes(state.pile) and move.card in state.pile:  # the card is one of the pile's outcomes
            return _apply_card(state, move)
    chance = chance_outcomes(state)
    if chance:
        if isinstance(move, Dice) and state.battle is not None:
            _check_dice_counts(state, move)
            due = _is_outcome(move, _dice_set(*dice_counts(state)))
        else:
            due = any(move == outcome for outcome, _ in chance)
        if not due:
            due = "the dice must be rolled" if state.battle else "a card must be drawn"
            raise IllegalMove("MJ-5.4" if state.battle else "MJ-4.6", f"{due} first, not {_said(move)}")
        return _apply_dice(state, move) if isinstance(move, Dice) else _apply_card(state, move)
    if isinstance(move, (Dice, CardDrawn)):
        raise IllegalMove("MJ-4.3", f"{_said(move)} is a chance outcome, and no dice or card are due now")
    if state.battle is not None:
        if isinstance(move, Roll):
            return _evolve(state, battle=_battle(battle.origin, battle.target, battle.stake, True))
        if isinstance(move, Retreat):
            return _end_battle(state, False, battle.stake, state.points)
        raise IllegalMove("MJ-C10", f"an attack on {_name(state.battle.target)} is under way: roll again or break off")
    if isinstance(move, (Roll, Retreat)):
        raise IllegalMove("MJ-5.4", "there is no attack under way")
    if state.phase == "setup":
        if not isinstance(move, Place):
            raise IllegalMove("MJ-4.1", f"first every player places their starting points, not {_said(move)}")
        return _place(state, move, rule="MJ-4.1")
    if isinstance(move, TradeCards):
        return _trade(state, move)
    if len(state.hands[state.turn]) > state.config.hand_limit:
        raise IllegalMove(
            "MJ-4.8", f"{PLAYER_COLOURS[state.turn]} holds {len(state.hands[state.turn])} cards: trade 3 first"
        )
    # Points to place come from MJ-4.4 in a reinforcement turn; otherwise from cards and colours, placed as MJ-4.5
    # says and before any attack (MJ-5.4, step 1).
    if isinstance(move, Place):
        return _check_win(_place(state, move, rule="MJ-4.4" if state.stage == "reinforce" else "MJ-4.5"))
    if state.to_place:
        rule = "MJ-4.4" if state.stage == "reinforce" else "MJ-5.4"
        raise IllegalMove(rule, f"place your {state.to_place} extra point(s) first")
    if isinstance(move, Reinforce):
        if state.stage == "conquer":
            raise IllegalMove("MJ-4.5", "you chose to conquer this turn: no points for territories")
        if state.stage == "reinforce":
            raise IllegalMove("MJ-4.4", "you already took your reinforcements this turn")
        if state.moved and not state.config.move_and_reinforce:  # MJ-C11: moving points belongs to conquering
            raise IllegalMove("MJ-4.4", "you moved points this turn: a turn of reinforcements only takes them")
        count = reinforcements(len(_seat(state, state.turn).own))
        return _evolve(state, stage="reinforce", to_place=count)
    if isinstance(move, Attack):
        return _attack(state, move)
    if isinstance(move, Fortify):
        return _check_win(_fortify(state, move))
    if isinstance(move, EndTurn):
        return _end_turn(state)
    raise IllegalMove("MJ-4.3", f"{quote(move)} is not a Meetjesland move")


def _place(state: State, move: Place, rule: str) -> State:
    territory = _territory(state, move.territory, rule)
    points = _count(move.points, rule, "the points placed")
    if state.owner_of(territory) != state.turn:
        raise IllegalMove(
            rule,
            f"{_name(territory)} belongs to {PLAYER_COLOURS[state.owner_of(territory)]}: place on your own territories",
        )
    if points > state.to_place:
        raise IllegalMove(rule, f"only {state.to_place} point(s) are left to place, not {quote(points)}")
    index = state.board.index[territory]
    state = _evolve(
        state, points=_replace(state.points, index, state.points[index] + points), to_place=state.to_place - points
    )
    if state.phase == "setup" and state.to_place == 0:
        if state.turn + 1 < state.players:  # MJ-C7: the next player sets up
            return _evolve(state, turn=state.turn + 1, to_place=_setup_points(state, state.turn + 1))
        return _start_turn(state, 0, phase="play")
    return state


def _check_dice_counts(state: State, dice: Dice) -> None:
    """A roll with the wrong number of dice is refused by the paragraph that sets the number (MJ-5.4, MJ-5.5)."""
    attacker, defender = dice_counts(state)
    counts = []
    for side in (dice.attacker, dice.defender):
        counts.append(len(side) if isinstance(side, tuple) else None)
    if counts[0] != attacker:
        raise IllegalMove(
            "MJ-5.4",
            f"a stake of {state.battle.stake} rolls {attacker} {'die' if attacker == 1 else 'dice'}, "
            f"not {quote(dice.attacker)}",
        )
    if counts[1] != defender:
        points = state.points_on(state.battle.target)
        raise IllegalMove(
            "MJ-5.5",
            f"{points} defending {'point rolls 1 die' if points == 1 else 'points roll 2 dice'}, "
            f"not {quote(dice.defender)}",
        )


def _trade(state: State, move: TradeCards) -> State:
    player, hand = state.turn, list(state.hands[state.turn])
    cards = move.cards
    if not isinstance(cards, tuple) or len(cards) > core.MAX_ITEMS or not all(isinstance(c, str) for c in cards):
        raise IllegalMove("MJ-4.7", f"a trade names cards, not {quote(cards)}")
    if state.stage == "conquer":
        raise IllegalMove("MJ-C8", "cards are traded before the first attack of the turn")
    for card in cards:
        if card not in hand:
            raise IllegalMove("MJ-4.7", f"{PLAYER_COLOURS[player]} does not hold the card {card_name(card)}")
        hand.remove(card)
    value = set_value(cards, state.config, state.board)
    if value is None:
        raise IllegalMove("MJ-4.7", "a trade is the Brewery card alone or three coloured cards")
    held = len(state.hands[player])
    if held > state.config.hand_limit and len(cards) != 3 and not state.config.trade_down:
        raise IllegalMove(
            "MJ-4.8",
            f"{PLAYER_COLOURS[player]} holds {held} cards, more than {state.config.hand_limit}: "
            "three cards must be traded, the Brewery card alone does not do",
        )
    return _evolve(
        state,
        hands=_replace(state.hands, player, tuple(hand)),
        pile=tuple(sorted(state.pile + cards)),
        to_place=state.to_place + value,
    )


def _attack(state: State, move: Attack) -> State:
    origin = _territory(state, move.origin, "MJ-5.2")
    target = _territory(state, move.target, "MJ-5.2")
    stake = _count(move.stake, "MJ-5.3", "the stake")
    if state.stage == "reinforce":
        raise IllegalMove("MJ-4.4", "you took reinforcements this turn, so you cannot conquer as well")
    board, owner, points = state.board, state.owner, state.points
    index = board.index[origin]
    if owner[index] != state.turn:
        raise IllegalMove("MJ-5.2", f"{_name(origin)} is not yours")
    if owner[board.index[target]] == state.turn:
        raise IllegalMove("MJ-5.2", f"{_name(target)} is already yours")
    if target not in board.neighbours[origin]:
        if board.borders(origin, target):
            raise IllegalMove(
                "MJ-5.2", f"a thick line (canal) separates {_name(origin)} and {_name(target)}: no access"
            )
        raise IllegalMove("MJ-5.2", f"{_name(target)} does not border {_name(origin)}")
    if points[index] < 2:
        raise IllegalMove("MJ-5.2", f"{_name(origin)} has only 1 point: attack from a territory with more than 1")
    if stake > points[index] - 1:
        raise IllegalMove(
            "MJ-5.3",
            f"a stake of {quote(stake)} would leave no point on {_name(origin)}: at most {points[index] - 1}",
        )
    return _evolve(
        state,
        stage="conquer",
        points=_replace(points, index, points[index] - stake),
        battle=_battle(origin, target, stake, True),
    )


def _apply_dice(state: State, dice: Dice, losses: tuple[int, int] | None = None) -> State:
    """The roll's losses (``losses`` when the outcome table had them); a battle that ends is ended at once."""
    battle = state.battle
    attacker_losses, defender_losses = resolve_roll(dice.attacker, dice.defender) if losses is None else losses
    target_index = state.board.index[battle.target]
    points = _replace(state.points, target_index, state.points[target_index] - defender_losses)
    stake = battle.stake - attacker_losses
    if points[target_index] == 0:
        return _end_battle(state, True, stake, points, last_dice=dice)
    if stake == 0:
        return _end_battle(state, False, stake, points, last_dice=dice)
    return _evolve(state, points=points, battle=_battle(battle.origin, battle.target, stake, False), last_dice=dice)


def _end_battle(state: State, conquered: bool, stake: int, points: tuple[int, ...], **changes) -> State:
    """The battle of ``state`` over, with ``stake`` points still standing and ``points`` on the map (the last roll's
    result, with ``changes``, is made in the same step)."""
    battle, board = state.battle, state.board
    player = state.turn
    if conquered:  # MJ-5.7: the staked points still standing move in
        index = board.index[battle.target]
        loser = state.owner[index]
        owner = _replace(state.owner, index, player)
        changes.update(owner=owner, points=_replace(points, index, stake), conquered=True, battle=None)
        if loser not in owner:  # MJ-C5: out of the game; the cards go back to the pile
            changes.update(
                alive=_replace(state.alive, loser, False),
                eliminated_by=_replace(state.eliminated_by, loser, player),
                pile=tuple(sorted(state.pile + state.hands[loser])),
                hands=_replace(state.hands, loser, ()),
            )
        after = _evolve(state, **changes)
        _keep_seats(state, after, index)
    else:  # broken off or beaten: what is left of the stake goes home
        index = board.index[battle.origin]
        after = _evolve(state, points=_replace(points, index, points[index] + stake), battle=None, **changes)
    return _check_win(after)


def _check_win(state: State) -> State:
    player = state.turn
    if sum(state.alive) == 1:
        return _evolve(
            state, phase="over", winners=(player,), reason=f"{PLAYER_COLOURS[player]} holds the whole Meetjesland"
        )
    if mission_done(state, player):
        return _evolve(
            state,
            phase="over",
            winners=(player,),
            reason=f"{PLAYER_COLOURS[player]} fulfilled the mission: {effective_mission(state, player).text}",
        )
    return state


def _fortify(state: State, move: Fortify) -> State:
    origin = _territory(state, move.origin, "MJ-5.9")
    destination = _territory(state, move.destination, "MJ-5.9")
    points = _count(move.points, "MJ-5.9", "the points moved")
    if state.stage == "reinforce" and not state.config.move_and_reinforce:  # MJ-C11: «Vous passez ensuite votre tour»
        raise IllegalMove("MJ-4.4", "you took reinforcements this turn: place them and pass; no points move")
    if state.owner_of(origin) != state.turn or state.owner_of(destination) != state.turn:
        raise IllegalMove(
            "MJ-5.9", f"points move only between your own territories ({_name(origin)}, {_name(destination)})"
        )
    if destination not in state.board.neighbours[origin]:
        raise IllegalMove(
            "MJ-5.9", f"{_name(origin)} and {_name(destination)} are not neighbours across an open border"
        )
    if points > state.points_on(origin) - 1:
        raise IllegalMove("MJ-4.2", f"{_name(origin)} must keep at least 1 point")
    if state.moved + points > state.config.move_limit:
        raise IllegalMove(
            "MJ-5.9", f"at most {state.config.move_limit} points move per turn; {state.moved} already moved"
        )
    o, d = state.board.index[origin], state.board.index[destination]
    values = list(state.points)
    values[o] -= points
    values[d] += points
    return _evolve(state, points=tuple(values), moved=state.moved + points)


def _end_turn(state: State) -> State:
    if state.conquered and state.pile:  # MJ-4.6: one card for a turn with a conquest
        return _evolve(state, drawing=True)
    return _next_turn(state)


def _apply_card(state: State, move: CardDrawn) -> State:
    pile = list(state.pile)
    pile.remove(move.card)
    hands = _replace(state.hands, state.turn, tuple(sorted(state.hands[state.turn] + (move.card,))))
    return _next_turn(state, pile=tuple(pile), hands=hands, drawing=False)


def _next_turn(state: State, **changes) -> State:
    """The next player alive starts a turn (``changes``, which leave who is alive alone, made in the same step)."""
    player = state.turn
    for _ in range(state.players):
        player = (player + 1) % state.players
        if state.alive[player]:
            break
    return _start_turn(state, player, **changes)


def _start_turn(state: State, player: int, **changes) -> State:
    """``player``'s turn begins, with the colour bonus to place (it depends on the owners alone, which ``changes``
    leave alone)."""
    bonus = colour_bonus(state, player)
    changes.update(turn=player, stage="start", moved=0, conquered=False, last_dice=None, to_place=bonus)
    return _check_win(_evolve(state, **changes))


# --- save files ------------------------------------------------------------------------------------


# The Config fields a save file holds: every field the set-up offers (the map and the missions are the shipped
# ones: a game with other missions cannot be saved).
SAVED_CONFIG = ("move_limit", "hand_limit", "brewery_value", "set_values", "trade_down", "move_and_reinforce")
# A save without a config was written before saves held one, when a turn of reinforcements could also move points
# (MJ-C11): it replays with that rule, and with the defaults of that time for everything else (the same as now).
OLDER_SAVES = {"move_and_reinforce": True}


def to_json(state: State) -> str:
    """The game as set-up (players, seed, the Config's set-up fields) plus move log; :func:`from_json` replays it
    to an equal state."""
    if state.arranged:
        raise ValueError("an arranged position has no move log from a deal, so it cannot be saved")
    if state.config.board != GAME or state.config.missions != MISSIONS:
        raise ValueError("only games with the shipped map and missions can be saved")
    config = {name: getattr(state.config, name) for name in SAVED_CONFIG}
    config["set_values"] = list(config["set_values"])
    setup = {"players": state.players, "seed": state.seed, "config": config}
    return dump_game(GAME, RULES_VERSION, setup, state.history)


def config_from_save(data) -> Config:
    """The Config a save's ``setup.config`` describes (missing fields take the defaults); bad data: ValueError."""
    if not isinstance(data, dict):
        raise ValueError(f"saved game: setup 'config' must be an object, got {quote(data)}")
    unknown = [str(key) for key in data if key not in SAVED_CONFIG]
    if unknown:
        known = ", ".join(SAVED_CONFIG)
        raise ValueError(f"saved game: unknown config field {quote(min(unknown))} (a save holds {known})")
    fields = dict(data)
    values = fields.get("set_values")
    if isinstance(values, list) and len(values) == 3:
        fields["set_values"] = tuple(values)
    return Config(**fields)  # Config checks every value, quoting a bad one short


def from_json(text: str | bytes) -> State:
    """A game saved by :func:`to_json`, replayed from its set-up; bad or illegal content raises ``ValueError``."""
    setup, history = load_game(text, GAME, RULES_VERSION)
    if not {"players", "seed"} <= set(setup) <= {"players", "seed", "config"}:
        keys = quote(sorted(map(str, setup)))
        raise ValueError(f"saved game: setup must have 'players' and 'seed' (and may have 'config'), got {keys}")
    if not isinstance(setup["seed"], int):
        raise ValueError(f"saved game: seed must be an int, got {quote(setup['seed'])}")
    config = config_from_save(setup["config"]) if "config" in setup else Config(**OLDER_SAVES)
    return replay_saved(new_game(setup["players"], setup["seed"], config), history, MOVE_CLASSES, apply)


def replay(state: State) -> State:
    """Replay the move log from a fresh deal: equal to ``state`` (the basis of undo and save files)."""
    fresh = new_game(state.players, state.seed, state.config)
    for move in state.history:
        fresh = apply(fresh, move)
    return fresh


def arrange(state: State, territories: dict[str, tuple[int, int]] | None = None, **changes) -> State:
    """A written position for examples and tests: ``{territory: (owner, points)}`` over the deal, plus fields."""
    board = state.board
    owner, points = list(state.owner), list(state.points)
    for territory, (player, count) in (territories or {}).items():
        if territory not in board.index:
            raise ValueError(f"arrange: unknown territory {quote(territory)}")
        if not (isinstance(player, int) and 0 <= player < state.players and isinstance(count, int) and count >= 1):
            raise ValueError(f"arrange: {territory} needs an owner 0..{state.players - 1} and at least 1 point")
        owner[board.index[territory]], points[board.index[territory]] = player, count
    fields = {f.name for f in dataclasses.fields(State)}
    unknown = set(changes) - fields
    if unknown:
        raise ValueError(f"arrange: unknown fields {sorted(unknown)}")
    changes.setdefault("phase", "play")
    alive = tuple(player in owner for player in range(state.players))
    return dataclasses.replace(
        state, owner=tuple(owner), points=tuple(points), alive=alive, arranged=True, history=(), **changes
    )


def auto_setup(state: State, rng) -> State:
    """Place every remaining starting point of the player setting up, spread at random (MJ-C7 helper)."""
    if state.phase != "setup":
        raise IllegalMove("MJ-4.1", "the set-up is over")
    player = state.turn
    own = state.territories_of(player)
    while state.phase == "setup" and state.turn == player:
        state = apply(state, Place(rng.choice(own), 1))
    return state
