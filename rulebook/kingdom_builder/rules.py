"""Kingdom Builder (base game): board, state, moves, scoring and text diagrams.

Ids in ``IllegalMove.rule`` refer to the translated paragraphs of ``notebooks/kingdom_builder.ipynb``
(``KB-n.m``) and to the clarifications the short French player aid leaves open (``KB-Cn``).
"""

from __future__ import annotations

import bisect
import dataclasses
import json
import random
from collections.abc import Iterable, Sized
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .. import boards, core
from ..core import IllegalMove, Outcome

if TYPE_CHECKING:  # imported where a graph is built (a view, scoring highlights): play never needs it
    import networkx as nx

RULES_VERSION = 1
GAME = "kingdom_builder"
ROWS = COLUMNS = 20
HEXES = ROWS * COLUMNS
SETTLEMENTS = 40
TERRAINS = ("grass", "canyon", "desert", "flower", "forest")
CARDS_PER_TERRAIN = 5
SECTIONS = ("tavern", "paddock", "oasis", "farm", "tower", "harbor", "oracle", "barn")
LOCATIONS = ("oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock")
MOVE_TILES = ("barn", "harbor", "paddock")
KINGDOM_BUILDER_CARDS = (
    "fishermen",
    "merchants",
    "discoverers",
    "hermits",
    "citizens",
    "miners",
    "workers",
    "knights",
    "lords",
    "farmers",
)
FIRST_GAME_SECTIONS = (("tavern", False), ("paddock", False), ("oasis", False), ("farm", False))
FIRST_GAME_CARDS = ("fishermen", "knights", "merchants")
COLOURS = ("orange", "blue", "white", "black")
SLOT_NAMES = ("top-left", "top-right", "bottom-left", "bottom-right")
TILE_RULE = {
    "oracle": "KB-C12.1",
    "farm": "KB-C12.2",
    "oasis": "KB-C12.3",
    "tower": "KB-C12.4",
    "tavern": "KB-C12.5",
    "barn": "KB-C12.6",
    "harbor": "KB-C12.7",
    "paddock": "KB-C12.8",
}
Hex = tuple[int, int]


TERRAIN_WORD = {
    "grass": "grassland",
    "canyon": "canyon",
    "desert": "desert",
    "flower": "flower field",
    "forest": "forest",
    "water": "water",
    "mountain": "mountain",
    "castle": "castle",
    "location": "location",
}


def label(hex_: Hex) -> str:
    """A hex written as the rules text writes it: ``(row, column)``, both counted from 0 at the top left."""
    return f"({hex_[0]},{hex_[1]})"


def terrain_word(terrain: str) -> str:
    """A terrain as players name it ("grassland", "flower field")."""
    return TERRAIN_WORD.get(terrain, terrain)


def short(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to a short prefix, so that a huge bad value never makes a huge message (the prefix is
    found without building the whole repr: a list of a million cards took a tenth of a second)."""
    return core.quote(value, limit)


def _index(hex_: Any, where: str) -> int:
    if type(hex_) is tuple and len(hex_) == 2:  # the common case, checked without a generator
        row, column = hex_
        if type(row) is int and type(column) is int and 0 <= row < ROWS and 0 <= column < COLUMNS:
            return row * COLUMNS + column
    if (
        not isinstance(hex_, tuple)
        or len(hex_) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in hex_)
        or not (0 <= hex_[0] < ROWS and 0 <= hex_[1] < COLUMNS)
    ):
        raise ValueError(f"{where}: {short(hex_)} is not a hex (row, column) with both in 0..19")
    return hex_[0] * COLUMNS + hex_[1]


def _name(player: int) -> str:
    """A seat in a refusal: its colour, as the board shows it."""
    return COLOURS[player]


def _hex(index: int) -> Hex:
    return divmod(index, COLUMNS)


# --- configuration -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    """Points where players' house rules differ (see the clarifications named on each field)."""

    lords_zero_scores: bool = False  # KB-C17: may a sector count of 0 earn the Lords' 12 or 6 gold?
    tile_loss: str = "immediate"  # KB-C8: "immediate" (rulebook) or "end_of_turn" (BGA help page)
    move_in_place: bool = False  # KB-C13: may Barn/Harbor "move" a settlement back onto the hex it left?

    def __post_init__(self) -> None:
        if self.tile_loss not in ("immediate", "end_of_turn"):
            raise ValueError(f"Config.tile_loss must be 'immediate' or 'end_of_turn', not {short(self.tile_loss)}")
        for name in ("lords_zero_scores", "move_in_place"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"Config.{name} must be true or false, not {short(getattr(self, name))}")  # noqa: TRY004


# --- the board ---------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def section_data() -> dict[str, tuple[str, ...]]:
    """Terrain of the 8 sections as printed, from ``graphs/kingdom_builder_sections.json`` (100 hexes each)."""
    path = boards.graphs_dir() / "kingdom_builder_sections.json"
    raw = boards.read(path) if path.is_file() else None
    nodes = _plain_nodes(raw) if raw is not None else None
    if nodes is None:  # anything unusual: the full loader, which names what is wrong
        graph = boards.load("kingdom_builder_sections", node_attributes=("section", "row", "column", "terrain"))
        nodes = list(graph.nodes(data=True))
    grids: dict[str, list[str]] = {name: [""] * 100 for name in SECTIONS}
    for node, data in nodes:
        if not isinstance(data["section"], str) or data["section"] not in grids:
            raise ValueError(f"kingdom_builder_sections.json: unknown section {short(data['section'])}")
        row, column, terrain = data["row"], data["column"], data["terrain"]
        if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 10 for v in (row, column)):
            raise ValueError(
                f"kingdom_builder_sections.json: hex {short(node)} has row {short(row)}, column {short(column)} (0..9)"
            )
        if not isinstance(terrain, str) or terrain not in TERRAINS + ("water", "mountain", "castle", "location"):
            raise ValueError(f"kingdom_builder_sections.json: hex {short(node)} has unknown terrain {short(terrain)}")
        grids[data["section"]][row * 10 + column] = terrain
    for name, grid in grids.items():
        if "" in grid:
            raise ValueError(f"kingdom_builder_sections.json: section {name} lacks hexes")
    return {name: tuple(grid) for name, grid in grids.items()}


_NODE_KEYS = frozenset(("id", "section", "row", "column", "terrain"))
_EDGE_KEYS = frozenset(("source", "target"))


def _plain_nodes(data: dict[str, Any]) -> list[tuple[Any, dict[str, Any]]] | None:
    """The nodes of the sections file as ``(id, attributes)`` when it is plainly what :func:`boards.from_data` accepts
    (an undirected simple graph, ids ``[section, row, column]`` each listed once, every node with exactly the four
    attributes, edges between listed nodes, each once): the file as shipped, read without building the networkx graph
    (a third of a first game's time). None for anything else, which goes to the full loader and its refusals."""
    nodes, edges = data.get("nodes"), data.get("edges")
    if (
        data.get("directed") is not False
        or data.get("multigraph") is not False
        or not isinstance(data.get("graph", {}), dict)
        or not isinstance(nodes, list)
        or not isinstance(edges, list)
        or not nodes
    ):
        return None
    found: list[tuple[Any, dict[str, Any]]] = []
    ids: set[tuple[str, int, int]] = set()
    for node in nodes:
        key = _plain_id(node.get("id")) if type(node) is dict and node.keys() == _NODE_KEYS else None
        if key is None or key in ids:
            return None
        ids.add(key)
        found.append((key, {name: value for name, value in node.items() if name != "id"}))
    pairs: set[frozenset] = set()
    for edge in edges:
        if type(edge) is not dict or edge.keys() != _EDGE_KEYS:
            return None
        source, target = _plain_id(edge["source"]), _plain_id(edge["target"])
        pair = frozenset((source, target))
        if source not in ids or target not in ids or len(pair) != 2 or pair in pairs:
            return None
        pairs.add(pair)
    return found


def _plain_id(value: Any) -> tuple[str, int, int] | None:
    """A node id ``[section, row, column]`` (a string and two ints) as a tuple, else None."""
    if type(value) is not list or len(value) != 3:
        return None
    if type(value[0]) is not str or type(value[1]) is not int or type(value[2]) is not int:
        return None
    return (value[0], value[1], value[2])


def _neighbours(row: int, column: int) -> list[Hex]:
    """The six neighbours of a hex in the odd-r layout (odd rows half a hex to the right), inside the board."""
    if row % 2 == 0:
        around = [
            (row, column - 1),
            (row, column + 1),
            (row - 1, column - 1),
            (row - 1, column),
            (row + 1, column - 1),
            (row + 1, column),
        ]
    else:
        around = [
            (row, column - 1),
            (row, column + 1),
            (row - 1, column),
            (row - 1, column + 1),
            (row + 1, column),
            (row + 1, column + 1),
        ]
    return [(r, c) for r, c in around if 0 <= r < ROWS and 0 <= c < COLUMNS]


NEIGHBOURS = tuple(tuple(r * COLUMNS + c for r, c in _neighbours(*divmod(i, COLUMNS))) for i in range(HEXES))

# Axial directions: east, west, north-east, north-west, south-east, south-west.
DIRECTIONS = ((1, 0), (-1, 0), (1, -1), (0, -1), (0, 1), (-1, 1))
OPPOSITE = tuple(DIRECTIONS.index((-q, -r)) for q, r in DIRECTIONS)


def _step(index: int, direction: tuple[int, int]) -> int:
    row, column = _hex(index)
    q = column - (row - (row & 1)) // 2 + direction[0]
    r = row + direction[1]
    c = q + (r - (r & 1)) // 2
    return r * COLUMNS + c if 0 <= r < ROWS and 0 <= c < COLUMNS else -1


# The grid is the same under every choice of sections: neighbours, straight steps, edge and sector per hex.
STEPS = tuple(tuple(_step(i, d) for d in DIRECTIONS) for i in range(HEXES))
ON_EDGE = tuple(i // COLUMNS in (0, ROWS - 1) or i % COLUMNS in (0, COLUMNS - 1) for i in range(HEXES))
SECTOR = tuple(2 * (i // COLUMNS >= 10) + (i % COLUMNS >= 10) for i in range(HEXES))


@lru_cache(maxsize=8)
def _slot_hexes(slot: int, turned: bool) -> tuple[int, ...]:
    """The board indices of a section's 100 hexes (in the section's own row order) when placed in ``slot``."""
    top, left = 10 * (slot // 2), 10 * (slot % 2)
    hexes = []
    for local in range(100):
        i, j = divmod(local, 10)
        # KB-1.1: a section turned 180 degrees maps its hex (i, j) to (9-i, 9-j).
        r, c = (9 - i, 9 - j) if turned else (i, j)
        hexes.append((top + r) * COLUMNS + left + c)
    return tuple(hexes)


class Geometry:
    """The assembled 20x20 board of four sections: terrain, specials and neighbours per hex index (row*20+column);
    ``State.geometry``. (Named ``Board`` once: that name is the widget's, and ``State.board`` holds the settlements.)"""

    def __init__(self, sections: tuple[tuple[str, bool], ...]) -> None:
        grids = section_data()
        self.sections = sections
        terrain = [""] * HEXES
        section_of = [""] * HEXES
        for slot, (name, turned) in enumerate(sections):
            grid = grids[name]
            for local, index in enumerate(_slot_hexes(slot, turned)):
                terrain[index] = grid[local]
                section_of[index] = name
        self.section_of = tuple(section_of)
        self.location = tuple([name if t == "location" else None for t, name in zip(terrain, section_of)])
        self.terrain = tuple(terrain)
        self.sector = SECTOR
        self.neighbours = NEIGHBOURS
        self.steps = STEPS
        self.on_edge = ON_EDGE
        by_terrain: dict[str, list[int]] = {}
        for i, t in enumerate(terrain):
            by_terrain.setdefault(t, []).append(i)
        self.by_terrain = {t: tuple(hexes) for t, hexes in by_terrain.items()}
        self.buildable = frozenset([i for t in TERRAINS for i in self.by_terrain.get(t, ())])
        self.edge_buildable = tuple(i for i in self.buildable if ON_EDGE[i])
        self.locations = tuple([i for i in range(HEXES) if self.location[i]])
        self.castles = self.by_terrain.get("castle", ())
        self.specials = frozenset(self.locations + self.castles)
        self.near_water = self._beside(self.by_terrain.get("water", ()))
        self.near_mountain = self._beside(self.by_terrain.get("mountain", ()))
        self.near_special = self._beside(self.specials)
        # the location hexes next to each hex: where a settlement built there takes tiles (KB-5.2)
        self.near_locations = tuple(tuple([n for n in NEIGHBOURS[i] if self.location[n]]) for i in range(HEXES))

    @staticmethod
    def _beside(hexes: Iterable[int]) -> tuple[bool, ...]:
        """Per hex: whether it touches one of ``hexes`` (neighbourhood is symmetric, so mark their neighbours)."""
        marked = [False] * HEXES
        for i in hexes:
            for n in NEIGHBOURS[i]:
                marked[n] = True
        return tuple(marked)

    def graph(self) -> nx.Graph:
        """The board as a networkx graph: nodes (row, column) with terrain, section, sector, edge flag and specials."""
        import networkx as nx

        graph = nx.Graph(sections=[f"{name}{'*' if turned else ''}" for name, turned in self.sections])
        for i in range(HEXES):
            graph.add_node(
                _hex(i),
                terrain=self.terrain[i],
                section=self.section_of[i],
                sector=self.sector[i],
                on_edge=self.on_edge[i],
                location=self.location[i],
                castle=self.terrain[i] == "castle",
                tiles=2 if self.location[i] else 0,
            )
        graph.add_edges_from((_hex(i), _hex(j)) for i in range(HEXES) for j in self.neighbours[i] if i < j)
        return graph


@lru_cache(maxsize=64)
def board_for(sections: tuple[tuple[str, bool], ...]) -> Geometry:
    """The (cached) assembled board for four ``(section name, turned)`` pairs."""
    return Geometry(sections)


_GEOMETRIES: dict[int, tuple[Any, Geometry]] = {}


def _geometry(sections: tuple[tuple[str, bool], ...]) -> Geometry:
    """:func:`board_for` looked up by the identity of the sections tuple, which every state of a game shares (hashing
    the nested tuple on each of the engine's many lookups was a measurable cost); the entry keeps the tuple alive, so
    its id is not reused while the entry lasts."""
    entry = _GEOMETRIES.get(id(sections))
    if entry is not None and entry[0] is sections:
        return entry[1]
    geometry = board_for(sections)
    if len(_GEOMETRIES) >= 256:
        _GEOMETRIES.pop(next(iter(_GEOMETRIES)), None)
    _GEOMETRIES[id(sections)] = (sections, geometry)
    return geometry


def board_graph(state_or_sections: Any) -> nx.Graph:
    """The networkx hex graph of a game's board (400 hexes, 1121 edges), with settlements as ``owner``."""
    if isinstance(state_or_sections, State):
        graph = board_for(state_or_sections.sections).graph()
        for i, owner in enumerate(state_or_sections.board):
            graph.nodes[_hex(i)]["owner"] = None if owner < 0 else owner
        return graph
    return board_for(_check_sections(state_or_sections, "sections")).graph()


def _check_sections(sections: Any, where: str) -> tuple[tuple[str, bool], ...]:
    if isinstance(sections, Sized) and not isinstance(sections, str) and len(sections) != 4:  # counted, not read
        raise ValueError(f"{where}: the board needs exactly 4 sections, got {len(sections)}")
    try:
        pairs = tuple((name, turned) for name, turned in sections)
    except (TypeError, ValueError):
        raise ValueError(f"{where}: expected four (section, turned) pairs, got {short(sections)}") from None
    if len(pairs) != 4:
        raise ValueError(f"{where}: the board needs exactly 4 sections, got {len(pairs)}")
    for name, turned in pairs:
        if name not in SECTIONS:
            raise ValueError(f"{where}: unknown section {short(name)} (sections: {', '.join(SECTIONS)})")
        if not isinstance(turned, bool):
            raise ValueError(f"{where}: turned must be true or false for section {name}")  # noqa: TRY004
    if len({name for name, _ in pairs}) != 4:
        raise ValueError(f"{where}: a section can be used only once ({', '.join(n for n, _ in pairs)})")
    return pairs


# --- moves and chance outcomes -----------------------------------------------------------------------


@dataclass(frozen=True)
class Build:
    """One settlement of the mandatory action, on a hex of the terrain card's kind."""

    hex: Hex

    def __str__(self) -> str:
        return f"build at {label(self.hex)}"


@dataclass(frozen=True)
class UseTile:
    """Use a location tile: build at ``target``, or (Barn, Harbor, Paddock) move the settlement at ``origin`` there."""

    tile: str
    target: Hex
    origin: Hex | None = None

    def __str__(self) -> str:
        if self.origin is None:
            return f"use {self.tile}: build at {label(self.target)}"
        return f"use {self.tile}: move {label(self.origin)} to {label(self.target)}"


@dataclass(frozen=True)
class EndTurn:
    """Finish the turn: discard the terrain card and draw the next one."""

    def __str__(self) -> str:
        return "end turn"


@dataclass(frozen=True)
class CardDrawn:
    """Chance: the terrain card drawn from the pile (shuffled discards when the pile is empty)."""

    terrain: str

    def __str__(self) -> str:
        return f"draw a {self.terrain} card"


# any move of the game, chance outcomes included (``Move`` is a move class of Ab die Post)
AnyMove = Build | UseTile | EndTurn | CardDrawn
MOVE_CLASSES = {cls.__name__: cls for cls in (Build, UseTile, EndTurn, CardDrawn)}


@dataclass(frozen=True)
class Tile:
    """A location tile held by a player: taken from ``location`` (a hex index), ``pending``, ``ready`` or ``used``."""

    location: int
    kind: str
    status: str


# --- the state ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class State:
    """A position: settlements per hex (-1 empty), supplies, cards, tiles, whose turn, and the move log."""

    players: int
    sections: tuple[tuple[str, bool], ...]
    cards: tuple[str, ...]
    config: Config
    board: tuple[int, ...]
    supply: tuple[int, ...]
    hands: tuple[str | None, ...]
    pile: tuple[int, ...]
    discard: tuple[int, ...]
    removed: tuple[int, ...]
    tiles: tuple[tuple[Tile, ...], ...]
    tiles_left: tuple[tuple[int, int], ...]
    taken: frozenset
    player: int | None
    drawing: int | None
    after_draw: str
    built: int
    mandatory_done: bool
    turns: tuple[int, ...]
    finished: bool
    setup: str
    history: tuple = ()

    @property
    def geometry(self) -> Geometry:
        return _geometry(self.sections)

    def settlements(self, player: int) -> tuple[Hex, ...]:
        """The hexes of ``player``'s settlements, in row order."""
        return tuple(_hex(i) for i, owner in enumerate(self.board) if owner == player)

    def tiles_of(self, player: int) -> tuple[tuple[str, Hex, str], ...]:
        """``(kind, location hex, status)`` of each tile ``player`` holds."""
        return tuple((tile.kind, _hex(tile.location), tile.status) for tile in self.tiles[player])


def _replace(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` for a State, without its per-call introspection (the engine's hottest copy). A State
    has no ``__post_init__`` to run, so copying the fields and overwriting the changed ones is the same thing."""
    unknown = changes.keys() - state.__dict__.keys()
    if unknown:
        raise TypeError(f"State has no field {', '.join(sorted(unknown))}")
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def _initial(
    players: int,
    sections: tuple[tuple[str, bool], ...],
    cards: tuple[str, ...],
    config: Config,
    board: tuple[int, ...],
    setup: dict[str, Any],
    hands: tuple[str | None, ...] = (),
    player: int = 0,
) -> State:
    geometry = board_for(sections)
    supply = tuple(SETTLEMENTS - board.count(p) for p in range(players))
    pile = [CARDS_PER_TERRAIN] * len(TERRAINS)
    tiles: list[list[Tile]] = [[] for _ in range(players)]
    left = dict.fromkeys(geometry.locations, 2)
    taken = set()
    # A written position gives each player, in seat order while tiles last, a ready tile per location hex they touch.
    for p in range(players):
        for location in geometry.locations:
            if any(board[n] == p for n in geometry.neighbours[location]):
                if left[location] == 0:
                    continue
                left[location] -= 1
                taken.add((p, location))
                tiles[p].append(Tile(location, geometry.location[location], "ready"))
    for card in hands:
        if card is not None:
            pile[TERRAINS.index(card)] -= 1
    state = State(
        players=players,
        sections=sections,
        cards=cards,
        config=config,
        board=board,
        supply=supply,
        hands=tuple(hands) if hands else (None,) * players,
        pile=tuple(pile),
        discard=(0,) * len(TERRAINS),
        removed=(0,) * len(TERRAINS),
        tiles=tuple(tuple(t) for t in tiles),
        tiles_left=tuple(sorted(left.items())),
        taken=frozenset(taken),
        player=None,
        drawing=0,
        after_draw="deal",
        built=0,
        mandatory_done=False,
        turns=(0,) * players,
        finished=False,
        setup=json.dumps(setup, sort_keys=True),
    )
    if hands:
        state = _start_turn(_replace(state, drawing=None), player)
    return state


def new_game(
    players: int = 2,
    seed: int = 0,
    *,
    first_game: bool = False,
    sections: Any = None,
    cards: Any = None,
    config: Config | None = None,
) -> State:
    """A new game at its first chance node (dealing one terrain card to each player).

    The seed chooses 4 of the 8 sections, their turns and 3 of the 10 Kingdom Builder cards (KB-3.1, KB-3.4);
    ``first_game=True`` uses the rulebook's first-game set-up instead; ``sections``/``cards`` fix them by hand."""
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise ValueError(f"Kingdom Builder is played by 2 to 4 players, not {short(players)}")
    rng = core.seeded(seed)
    config = config or Config()
    if not isinstance(config, Config):
        raise ValueError(f"config must be a kingdom_builder.Config, not {short(config)}")  # noqa: TRY004
    if first_game:
        chosen_sections, chosen_cards = FIRST_GAME_SECTIONS, FIRST_GAME_CARDS
    else:
        names = rng.sample(SECTIONS, 4)
        chosen_sections = tuple((name, rng.random() < 0.5) for name in names)
        chosen_cards = tuple(sorted(rng.sample(KINGDOM_BUILDER_CARDS, 3), key=KINGDOM_BUILDER_CARDS.index))
    if sections is not None:
        chosen_sections = _check_sections(sections, "sections")
    if cards is not None:
        chosen_cards = _check_cards(cards, "cards")
    setup = {
        "players": players,
        "sections": [list(s) for s in chosen_sections],
        "cards": list(chosen_cards),
        "config": dataclasses.asdict(config),
    }
    return _initial(players, chosen_sections, chosen_cards, config, (-1,) * HEXES, setup)


def _check_cards(cards: Any, where: str) -> tuple[str, ...]:
    if isinstance(cards, str) or (isinstance(cards, Sized) and len(cards) != 3):  # not read item by item
        raise ValueError(f"{where}: a game uses 3 different Kingdom Builder cards, got {short(cards)}")
    try:
        chosen = tuple(cards)
        different = len(set(chosen))
    except TypeError:  # not a sequence of names (a number, or lists inside)
        raise ValueError(f"{where}: a game uses 3 different Kingdom Builder cards, got {short(cards)}") from None
    if len(chosen) != 3 or different != 3:
        raise ValueError(f"{where}: a game uses 3 different Kingdom Builder cards, got {short(list(chosen))}")
    for card in chosen:
        if card not in KINGDOM_BUILDER_CARDS:
            raise ValueError(f"{where}: unknown card {short(card)} (cards: {', '.join(KINGDOM_BUILDER_CARDS)})")
    return chosen


# --- targets: the one code path shared by legal_moves and check --------------------------------------


def _adjacent_choice(state: State, player: int, candidates: Iterable[int], lifted: int = -1) -> tuple[int, ...]:
    """KB-6.3: of the empty candidate hexes, those next to an own settlement if there are any, else all of them.

    ``lifted`` is a settlement being moved: it does not count for adjacency and its hex counts as empty (KB-C13)."""
    board, neighbours = state.board, state.geometry.neighbours
    empty = [i for i in candidates if board[i] < 0 or i == lifted]
    if lifted >= 0 and not state.config.move_in_place:
        empty = [i for i in empty if i != lifted]
    # the hexes next to the player's settlements, found once from the settlements (cached per board and player)
    beside = _owned(board, player)[1]
    if lifted >= 0:
        # the lifted settlement's neighbours stay "beside" only if another own settlement touches them
        alone = {n for n in neighbours[lifted] if not any(board[m] == player and m != lifted for m in neighbours[n])}
        near = [i for i in empty if i in beside and i not in alone]
    else:
        near = [i for i in empty if i in beside]
    return tuple(near or empty)


def _build_targets(state: State, player: int) -> tuple[int, ...]:
    card = state.hands[player]
    if card is None or state.supply[player] == 0:
        return ()
    return _terrain_targets(state, player, card)


def _terrain_targets(state: State, player: int, terrain: str) -> tuple[int, ...]:
    """KB-6.3 on the hexes of one terrain ("edge": the buildable hexes on the board's rim, for the Tower)."""
    return _targets(state.geometry, state.board, player, terrain)


def _targets(geometry: Geometry, board: tuple[int, ...], player: int, terrain: str) -> tuple[int, ...]:
    """The targets of :func:`_terrain_targets`, kept with the board's facts: a move is listed, checked and applied
    on the same board."""
    facts = _facts(board)
    key = (geometry, player, terrain)
    found = facts.targets.get(key)
    if found is None:
        empty = _free(facts, geometry, terrain)
        beside = _owned(board, player)[1]
        found = facts.targets[key] = tuple([i for i in empty if i in beside]) or empty
    return found


def _free(facts: _Facts, geometry: Geometry, terrain: str) -> tuple[int, ...]:
    """The empty hexes of a terrain ("edge": buildable hexes on the rim), in the order of the board's lists."""
    key = (geometry, terrain)
    empty = facts.empty.get(key)
    if empty is None:
        board = facts.board
        candidates = geometry.edge_buildable if terrain == "edge" else geometry.by_terrain[terrain]
        empty = facts.empty[key] = tuple([i for i in candidates if board[i] < 0])
    return empty


def _moved_targets(state: State, player: int, terrain: str, lifted: int) -> tuple[int, ...]:
    """:func:`_adjacent_choice` for a settlement lifted from ``lifted`` onto ``terrain`` (Barn, Harbor): the free
    hexes of the terrain next to the player's settlements are found once per board, and each lifted settlement
    only takes away the neighbours that no other own settlement touches."""
    board, geometry = state.board, state.geometry
    if state.config.move_in_place and geometry.terrain[lifted] == terrain:
        return _adjacent_choice(state, player, geometry.by_terrain[terrain], lifted)  # KB-C13: its own hex counts
    facts = _facts(board)
    empty = _free(facts, geometry, terrain)
    key = (geometry, player, terrain, "near")
    near = facts.targets.get(key)
    if near is None:
        beside = _owned(board, player)[1]
        listed = tuple([i for i in empty if i in beside])
        near = facts.targets[key] = (listed, frozenset(listed))
    listed, near_set = near
    # the lifted settlement's neighbours stay "beside" only if another own settlement touches them
    alone = [
        n
        for n in NEIGHBOURS[lifted]
        if n in near_set and not any(board[m] == player and m != lifted for m in NEIGHBOURS[n])
    ]
    if alone:
        listed = tuple([i for i in listed if i not in alone])
    return listed or empty


def _tile_targets(state: State, player: int, kind: str, origin: int = -1) -> tuple[int, ...]:
    """Legal target hexes of a tile action (for move tiles: of moving the settlement at ``origin``)."""
    geometry = state.geometry
    if kind in ("oracle", "farm", "oasis", "tower", "tavern") and state.supply[player] == 0:
        return ()
    if kind == "oracle":
        card = state.hands[player]
        return () if card is None else _terrain_targets(state, player, card)
    if kind == "farm":
        return _terrain_targets(state, player, "grass")
    if kind == "oasis":
        return _terrain_targets(state, player, "desert")
    if kind == "tower":
        return _terrain_targets(state, player, "edge")
    if kind == "tavern":
        board, steps = state.board, geometry.steps
        found = set()
        # from each own settlement a: if the next two hexes in a direction are own too (a line of 3), the hex just
        # behind a in the opposite direction ends the line
        for a in _owned(board, player)[0]:
            for d in range(6):
                b = steps[a][d]
                if b >= 0 and board[b] == player:
                    c = steps[b][d]
                    if c >= 0 and board[c] == player:
                        i = steps[a][OPPOSITE[d]]
                        if i >= 0 and board[i] < 0 and i in geometry.buildable:
                            found.add(i)
        return tuple(sorted(found))
    if kind == "barn":
        card = state.hands[player]
        return () if card is None else _moved_targets(state, player, card, origin)
    if kind == "harbor":
        return _moved_targets(state, player, "water", origin)
    if kind == "paddock":
        # KB-C12.8: exactly two hexes in a straight line, jumping over anything; no adjacency requirement.
        out = []
        for d in range(6):
            a = geometry.steps[origin][d]
            b = geometry.steps[a][d] if a >= 0 else -1
            if b >= 0 and b in geometry.buildable and state.board[b] < 0:
                out.append(b)
        return tuple(sorted(out))
    raise ValueError(f"unknown location tile {short(kind)} (tiles: {', '.join(LOCATIONS)})")


def _ready_kinds(state: State, player: int) -> list[str]:
    kinds: list[str] = []
    for tile in state.tiles[player]:
        if tile.status == "ready" and tile.kind not in kinds:
            kinds.append(tile.kind)
    return kinds


def _in_mandatory(state: State) -> bool:
    return state.built > 0 and not state.mandatory_done


def legal_moves(state: State) -> tuple[AnyMove, ...]:
    """Every legal move of the player to move, in a stable order; () at chance nodes and at the end."""
    player = state.player
    if player is None or state.finished:
        return ()
    moves: list[AnyMove] = []
    if not state.mandatory_done:
        moves.extend([_BUILDS[i] for i in _build_targets(state, player)])
    if _in_mandatory(state):
        return tuple(moves)
    for kind in _ready_kinds(state, player):
        if kind in MOVE_TILES:
            for origin in _owned(state.board, player)[0]:
                made = _tile_moves(kind, origin)
                moves.extend(
                    [made.get(t) or _use_tile(kind, t, origin) for t in _tile_targets(state, player, kind, origin)]
                )
        else:
            made = _tile_moves(kind, -1)
            moves.extend([made.get(t) or _use_tile(kind, t) for t in _tile_targets(state, player, kind)])
    if state.mandatory_done or not _build_targets(state, player):
        moves.append(EndTurn())
    return tuple(moves)


def _own(state: State, player: int) -> list[int]:
    return list(_owned(state.board, player)[0])


# Moves are immutable values, so legal_moves hands out shared instances instead of building new ones each time:
# a Build per hex, and the UseTile moves per (tile, origin hex or -1), by target hex, made when first needed.
_HEXES = tuple(_hex(i) for i in range(HEXES))
_BUILDS = tuple(Build(hex_) for hex_ in _HEXES)
_TILE_MOVES: dict[tuple[str, int], dict[int, UseTile]] = {}


def _tile_moves(kind: str, origin: int) -> dict[int, UseTile]:
    made = _TILE_MOVES.get((kind, origin))
    if made is None:
        made = _TILE_MOVES[(kind, origin)] = {}
    return made


def _use_tile(kind: str, target: int, origin: int = -1) -> UseTile:
    made = _tile_moves(kind, origin)
    move = made.get(target)
    if move is None:
        move = made[target] = UseTile(kind, _HEXES[target], None if origin < 0 else _HEXES[origin])
    return move


class _Facts:
    """What the engine asks of one board (the tuple of 400 owners), worked out once per board object: each player's
    settlements and the hexes beside them, the free hexes of a terrain, and a player's targets on a terrain."""

    __slots__ = ("board", "empty", "owned", "targets")

    def __init__(self, board: tuple[int, ...]) -> None:
        self.board = board
        self.owned: dict[int, tuple[tuple[int, ...], frozenset[int]]] = {}
        self.empty: dict[tuple[Geometry, str], tuple[int, ...]] = {}
        self.targets: dict[tuple, Any] = {}


_FACTS: dict[int, _Facts] = {}


def _facts(board: tuple[int, ...]) -> _Facts:
    """The facts of ``board``, found by the board's identity: the states of a turn share their board tuple, and
    hashing 400 owners for every cached lookup was a large part of the engine's time. The entry holds the board, so
    its id is not reused while the entry lasts; the oldest entries make way for new ones."""
    facts = _FACTS.get(id(board))
    if facts is not None and facts.board is board:
        return facts
    facts = _Facts(board)
    if len(_FACTS) >= 1024:
        _FACTS.pop(next(iter(_FACTS)), None)
    _FACTS[id(board)] = facts
    return facts


def _owned(board: tuple[int, ...], player: int) -> tuple[tuple[int, ...], frozenset[int]]:
    """The hexes of ``player``'s settlements and the hexes next to them (kept with the board's facts). The grid's
    neighbours are the same on every board, so the board's settlements are all it depends on."""
    facts = _facts(board)
    found = facts.owned.get(player)
    if found is None:
        own = []
        index = board.index(player) if player in board else -1
        while index >= 0:  # tuple.index scans in C: much faster than a loop over the 400 hexes
            own.append(index)
            try:
                index = board.index(player, index + 1)
            except ValueError:
                index = -1
        found = facts.owned[player] = (tuple(own), frozenset([n for i in own for n in NEIGHBOURS[i]]))
    return found


# --- check and apply ---------------------------------------------------------------------------------


def check(state: State, move: Any) -> IllegalMove | None:
    """The ``IllegalMove`` that ``apply`` would raise for ``move``, or None when it is legal. A malformed move (not a
    Kingdom Builder move, a hex off the board, an unknown tile), which ``apply`` refuses with a ValueError, is refused
    here too, by the paragraph on what a turn is (KB-4.1): ``check`` answers every move and raises for none, as
    Meetjesland's does (issue 48.6)."""
    try:
        _validate(state, move)
    except IllegalMove as error:
        return error
    except ValueError as error:
        return IllegalMove("KB-4.1", str(error))
    return None


def _who(state: State) -> str:
    return _name(state.player) if state.player is not None else "nobody"


def _check_fields(move: Any) -> None:
    """ValueError for a move whose fields have the wrong type or range (checked before any rule)."""
    if not isinstance(move, (Build, UseTile, EndTurn, CardDrawn)):
        raise ValueError(f"not a Kingdom Builder move: {short(move)}")  # noqa: TRY004
    if isinstance(move, Build):
        _index(move.hex, "Build")
    elif isinstance(move, UseTile):
        if not isinstance(move.tile, str) or move.tile not in LOCATIONS:
            raise ValueError(f"UseTile: unknown location tile {short(move.tile)} (tiles: {', '.join(LOCATIONS)})")
        _index(move.target, "UseTile.target")
        if move.origin is not None:
            _index(move.origin, "UseTile.origin")
    elif isinstance(move, CardDrawn) and (not isinstance(move.terrain, str) or move.terrain not in TERRAINS):
        raise ValueError(f"CardDrawn: unknown terrain {short(move.terrain)} (terrains: {', '.join(TERRAINS)})")


def _validate(state: State, move: Any) -> None:
    """Raise the IllegalMove for ``move`` (or ValueError when it is malformed); returns quietly when legal."""
    _check_fields(move)
    if state.finished:
        raise IllegalMove("KB-9.1", f"the game is over; {move} is not possible")
    if isinstance(move, CardDrawn):
        if state.drawing is None:
            raise IllegalMove("KB-C4", f"no card is being drawn now (it is {_who(state)}'s turn)")
        counts = state.pile if sum(state.pile) else state.discard
        if counts[TERRAINS.index(move.terrain)] == 0:
            raise IllegalMove("KB-C4", f"no {terrain_word(move.terrain)} card is left to draw")
        return
    if state.player is None:
        raise IllegalMove("KB-C4", f"{move}: a terrain card must be drawn first (chance)")
    player, _geometry = state.player, state.geometry
    if isinstance(move, EndTurn):
        if not state.mandatory_done and _build_targets(state, player):
            left = 3 - state.built
            raise IllegalMove(
                "KB-4.1",
                f"{_name(player)} must still build {left} settlement{'s' if left > 1 else ''} "
                f"on {terrain_word(state.hands[player] or '')} before ending the turn",
            )
        return
    if isinstance(move, Build):
        target = _index(move.hex, "Build")
        if state.mandatory_done:
            raise IllegalMove("KB-4.1", f"{_name(player)} has already made the mandatory action this turn")
        if state.supply[player] == 0:
            raise IllegalMove("KB-C6", f"{_name(player)} has no settlement left to build")
        card = state.hands[player]
        if card is None:
            raise IllegalMove("KB-C14", f"{_name(player)} has no terrain card to play")
        _check_target(state, player, target, _build_targets(state, player), card, "KB-4.1", "build")
        return
    kind = move.tile
    target = _index(move.target, "UseTile.target")
    if kind in MOVE_TILES and move.origin is None:
        raise ValueError(f"UseTile: the {kind} moves a settlement, so it needs an origin hex")
    if kind not in MOVE_TILES and move.origin is not None:
        raise ValueError(f"UseTile: the {kind} builds a new settlement, so it takes no origin hex")
    if _in_mandatory(state):
        raise IllegalMove(
            "KB-7.1", f"the {kind} cannot be used in the middle of the mandatory action ({state.built} of 3 built)"
        )
    statuses = [tile.status for tile in state.tiles[player] if tile.kind == kind]
    if not statuses:
        raise IllegalMove("KB-5.2", f"{_name(player)} has no {kind.capitalize()} tile")
    if "ready" not in statuses:
        if "pending" in statuses and "used" not in statuses:
            raise IllegalMove(
                "KB-5.2", f"the {kind.capitalize()} tile taken this turn can be used from {_name(player)}'s next turn"
            )
        raise IllegalMove(
            "KB-7.1",
            f"{_name(player)}'s {kind.capitalize()} tile{'s have' if len(statuses) > 1 else ' has'} already been used "
            "this turn",
        )
    rule = TILE_RULE[kind]
    origin = -1
    if move.origin is not None:
        origin = _index(move.origin, "UseTile.origin")
        if state.board[origin] != player:
            raise IllegalMove(
                rule,
                f"the {kind.capitalize()} moves one of {_name(player)}'s settlements, and there is none at "
                f"{label(move.origin)}",
            )
    if state.supply[player] == 0 and kind not in MOVE_TILES:
        raise IllegalMove("KB-C6", f"{_name(player)} has no settlement left to build with the {kind.capitalize()}")
    if kind in ("oracle", "barn") and state.hands[player] is None:
        raise IllegalMove(rule, f"the {kind.capitalize()} needs this turn's terrain card and {_name(player)} has none")
    targets = _tile_targets(state, player, kind, origin)
    if kind == "paddock":
        if target not in targets:
            raise IllegalMove(
                rule,
                f"the Paddock moves a settlement exactly 2 hexes in a straight line onto an empty "
                f"buildable hex; {label(move.origin)} to {label(move.target)} is not such a move",
            )
        return
    if kind == "tavern":
        if target not in targets:
            raise IllegalMove(
                rule,
                f"the Tavern builds at the end of a line of at least 3 of {_name(player)}'s "
                f"settlements, on an empty buildable hex; {label(move.target)} is not one",
            )
        return
    if kind in ("oracle", "barn"):
        terrain = state.hands[player]
    else:
        terrain = {"farm": "grass", "oasis": "desert", "tower": "edge", "harbor": "water"}[kind]
    _check_target(state, player, target, targets, terrain, rule, f"use the {kind.capitalize()}", origin)


def _check_target(
    state: State,
    player: int,
    target: int,
    targets: tuple[int, ...],
    terrain: str,
    rule: str,
    what: str,
    lifted: int = -1,
) -> None:
    """Explain why ``target`` is not among ``targets`` (computed by the same functions as ``legal_moves``)."""
    if target in targets:
        return
    geometry, where = state.geometry, label(_hex(target))
    if target == lifted:
        raise IllegalMove("KB-C13", f"a moved settlement must leave its hex {where}")
    if state.board[target] >= 0:
        owner = state.board[target]
        raise IllegalMove("KB-6.1", f"cannot {what} at {where}: {_name(owner)} already has a settlement there")
    actual = geometry.terrain[target]
    if actual not in TERRAINS and not (actual == "water" and terrain == "water"):
        if actual == "water":
            raise IllegalMove("KB-6.2", f"cannot {what} at {where}: {_water_refusal(state, player, terrain, what)}")
        raise IllegalMove(
            "KB-6.2", f"cannot {what} at {where}: {terrain_word(actual)} is not one of the five building terrains"
        )
    if terrain == "edge":
        if not geometry.on_edge[target]:
            raise IllegalMove(rule, f"the Tower builds on the outer edge of the board; {where} is not on it")
        place = "building hexes on the edge"
    elif actual != terrain:
        raise IllegalMove(
            rule, f"cannot {what} at {where}: it is {terrain_word(actual)}, and this needs {terrain_word(terrain)}"
        )
    else:
        place = f"{terrain_word(terrain)} hexes"
    # KB-6.3 (KB-C10): the hex is of the right kind but others of that kind touch the player's settlements.
    raise IllegalMove(
        "KB-6.3",
        f"cannot {what} at {where}: {_name(player)} has free {place} next to its own settlements, "
        "so the settlement must go next to one of them",
    )


def _water_refusal(state: State, player: int, terrain: str, what: str) -> str:
    """Why a water hex is refused, in the player's situation (KB-6.2): what the card or tile builds on, then whether
    the player holds a Harbor, the only way onto water, and whether it is usable now."""
    who = _name(player)
    if what in ("build", "use the Oracle", "use the Barn"):
        needs = f"it is water, and {who}'s card is {terrain_word(terrain)}"
    elif terrain == "edge":
        needs = "it is water, and the Tower builds on a building hex at the edge"
    else:
        needs = f"it is water, not {terrain_word(terrain)}"
    statuses = [tile.status for tile in state.tiles[player] if tile.kind == "harbor"]
    only = "only a Harbor tile moves a settlement onto water"
    if "ready" in statuses and _in_mandatory(state):
        harbor = f"{only}; {who}'s is usable once the three builds are done"
    elif "ready" in statuses:
        harbor = f"{only}: choose {who}'s Harbor, then the settlement it moves"
    elif "pending" in statuses:
        harbor = f"{only}; {who}'s is usable from the next turn"
    elif statuses:
        harbor = f"{only}; {who}'s was used this turn"
    else:
        harbor = f"{only}, and {who} holds none"
    return f"{needs}; {harbor}"


def apply(state: State, move: AnyMove) -> State:
    """The state after ``move`` (a player's move or a chance outcome); raises IllegalMove and never half-applies."""
    _validate(state, move)
    history = state.history + (move,)
    if isinstance(move, CardDrawn):
        return _draw(state, move.terrain, history)
    player = state.player
    assert player is not None
    if isinstance(move, EndTurn):
        return _end_turn(state, player, history)
    if isinstance(move, Build):
        target = _index(move.hex, "Build")
        changes = _place(state, player, target)
        built = state.built + 1
        # the mandatory action ends after 3 settlements, or when none more can be built (_build_targets afterwards)
        card = state.hands[player]
        done = (
            built == 3
            or card is None
            or changes["supply"][player] == 0
            or not _targets(state.geometry, changes["board"], player, card)
        )
        return _replace(state, built=built, mandatory_done=done, history=history, **changes)
    kind = move.tile
    target = _index(move.target, "UseTile.target")
    tiles = _mark_used(state, player, kind)
    if move.origin is None:
        return _replace(state, history=history, **_place(state, player, target, tiles=tiles))
    origin = _index(move.origin, "UseTile.origin")
    state = _replace(state, history=history, **_place(state, player, target, tiles=tiles, lifted=origin))
    if state.config.tile_loss == "immediate":
        state = _lose_tiles(state, player)
    return state


def _tile_order(tile: Tile) -> tuple[str, int]:
    return tile.kind, tile.location


def _place(
    state: State, player: int, target: int, tiles: tuple[Tile, ...] | None = None, lifted: int = -1
) -> dict[str, Any]:
    """The fields that change when a settlement is put on ``target`` and takes the tiles it earns (KB-5.2): from the
    supply, or moved from ``lifted``. ``tiles``: the player's tiles to start from (after a tile was marked used)."""
    cells = list(state.board)
    if lifted >= 0:
        cells[lifted] = -1
    cells[target] = player
    board = tuple(cells)
    geometry = state.geometry
    _seed_facts(state.board, board, geometry, player, target, lifted)
    changes: dict[str, Any] = {"board": board}
    if lifted < 0:
        supply = list(state.supply)
        supply[player] -= 1
        changes["supply"] = tuple(supply)
    own = state.tiles[player] if tiles is None else tiles
    taken = state.taken
    # KB-C7: one tile per location hex per player, ever; none once the hex's two tiles are gone.
    near = [location for location in geometry.near_locations[target] if (player, location) not in taken]
    if near:
        left = dict(state.tiles_left)
        gained = [location for location in near if left[location] > 0]
        if gained:
            for location in gained:
                left[location] -= 1
            own = own + tuple(Tile(location, geometry.location[location], "pending") for location in gained)
            changes["tiles_left"] = tuple(sorted(left.items()))
            changes["taken"] = taken | {(player, location) for location in gained}
    if len(own) > 1:
        own = tuple(sorted(own, key=_tile_order))
    if own is not state.tiles[player]:
        all_tiles = list(state.tiles)
        all_tiles[player] = own
        changes["tiles"] = tuple(all_tiles)
    return changes


def _seed_facts(
    before: tuple[int, ...], board: tuple[int, ...], geometry: Geometry, player: int, target: int, lifted: int
) -> None:
    """Start the facts of ``board`` (``before`` with a settlement of ``player`` put on ``target``, lifted from
    ``lifted`` when >= 0) from those of ``before``: the other players' settlements are the same, the player's gain
    one, and a free-hex list changes only for the target's and the lifted hex's terrains."""
    old = _FACTS.get(id(before))
    if old is None or old.board is not before:
        return
    facts = _facts(board)
    for p, found in old.owned.items():
        if p != player:
            facts.owned[p] = found
        elif lifted < 0:
            own, beside = found
            k = bisect.bisect(own, target)
            facts.owned[p] = (own[:k] + (target,) + own[k:], beside.union(NEIGHBOURS[target]))
    for key, empty in old.empty.items():
        where, terrain = key
        if where is not geometry:
            continue
        if lifted >= 0 and (terrain == geometry.terrain[lifted] or (terrain == "edge" and geometry.on_edge[lifted])):
            continue  # a hex freed: found again from the board when asked
        if target in empty:
            k = empty.index(target)
            empty = empty[:k] + empty[k + 1 :]
        facts.empty[key] = empty


STATUS_ORDER = {"ready": 0, "pending": 1, "used": 2}


def _mark_used(state: State, player: int, kind: str) -> tuple[Tile, ...]:
    """The player's tiles with the first ready one of ``kind`` used."""
    tiles = list(state.tiles[player])
    for n, tile in enumerate(tiles):
        if tile.kind == kind and tile.status == "ready":
            tiles[n] = Tile(tile.location, tile.kind, "used")
            break
    return tuple(tiles)


def _lose_tiles(state: State, player: int) -> State:
    """KB-5.3: drop the tiles of location hexes no own settlement touches any more (they leave the game)."""
    geometry, board = state.geometry, state.board
    tiles = list(state.tiles[player])
    lost = [t for t in tiles if not any(board[n] == player for n in geometry.neighbours[t.location])]
    if not lost:
        return state
    for tile in lost:
        same = [t for t in tiles if t.kind == tile.kind]
        # KB-C9: with two tiles of a kind the player gives up the less useful one (used, then pending, then ready).
        statuses = sorted((t.status for t in same), key=STATUS_ORDER.get)[:-1]
        keep = [t for t in same if t is not tile]
        tiles = [t for t in tiles if t.kind != tile.kind] + [
            dataclasses.replace(t, status=s) for t, s in zip(keep, statuses)
        ]
    all_tiles = list(state.tiles)
    all_tiles[player] = tuple(sorted(tiles, key=lambda t: (t.kind, t.location)))
    return _replace(state, tiles=tuple(all_tiles))


def _end_turn(state: State, player: int, history: tuple) -> State:
    if state.config.tile_loss == "end_of_turn":
        state = _lose_tiles(state, player)
    tiles = state.tiles
    # KB-7.1: tiles taken this turn become usable, and used tiles are usable again, from the next turn.
    if any(t.status != "ready" for t in tiles[player]):
        all_tiles = list(tiles)
        all_tiles[player] = tuple(
            t if t.status == "ready" else Tile(t.location, t.kind, "ready") for t in tiles[player]
        )
        tiles = tuple(all_tiles)
    discard = state.discard
    card = state.hands[player]
    if card is not None:
        counts = list(discard)
        counts[TERRAINS.index(card)] += 1
        discard = tuple(counts)
    hands = list(state.hands)
    hands[player] = None
    turns = list(state.turns)
    turns[player] += 1
    changes = {
        "tiles": tiles,
        "discard": discard,
        "hands": tuple(hands),
        "turns": tuple(turns),
        "history": history,
        "built": 0,
        "mandatory_done": False,
    }
    # KB-9.1: once a supply is empty the round is completed, so that everyone has had the same number of turns.
    if 0 in state.supply and player == state.players - 1:
        return _replace(state, player=None, drawing=None, finished=True, **changes)
    if sum(state.pile) + sum(discard) == 0:
        return _start_turn(state, (player + 1) % state.players, **changes)
    return _replace(state, player=None, drawing=player, after_draw="next", **changes)


def _draw(state: State, terrain: str, history: tuple) -> State:
    pile, discard = list(state.pile), list(state.discard)
    if sum(pile) == 0:  # KB-C4: the discards are shuffled into a new pile
        pile, discard = discard, [0] * len(TERRAINS)
    pile[TERRAINS.index(terrain)] -= 1
    hands = list(state.hands)
    drawer = state.drawing
    assert drawer is not None
    hands[drawer] = terrain
    changes = {"pile": tuple(pile), "discard": tuple(discard), "hands": tuple(hands), "history": history}
    if state.after_draw == "deal":
        if drawer + 1 < state.players:
            return _replace(state, drawing=drawer + 1, **changes)
        return _start_turn(state, 0, **changes)
    if state.after_draw == "replace":
        return _start_turn(state, drawer, **changes)
    return _start_turn(state, (drawer + 1) % state.players, **changes)


def _start_turn(state: State, player: int, **changes: Any) -> State:
    """``player``'s turn begins (with the other ``changes`` of the move that led here)."""
    changes.update(player=player, drawing=None, built=0, mandatory_done=False)
    state = _replace(state, **changes)
    card = state.hands[player]
    if card is not None and state.supply[player] > 0 and not _free(_facts(state.board), state.geometry, card):
        # KB-C14: a card whose terrain has no free hex left leaves the game and is replaced at once.
        removed = list(state.removed)
        removed[TERRAINS.index(card)] += 1
        hands = list(state.hands)
        hands[player] = None
        state = _replace(state, removed=tuple(removed), hands=tuple(hands))
        if sum(state.pile) + sum(state.discard) > 0:
            return _replace(state, player=None, drawing=player, after_draw="replace")
    return state


# --- chance, outcome, views ---------------------------------------------------------------------------


def chance_outcomes(state: State) -> tuple[tuple[CardDrawn, Fraction], ...]:
    """At a draw: each terrain with probability (cards of it) / (cards in the pile); else ()."""
    if state.drawing is None or state.finished:
        return ()
    return _draws(state.pile if sum(state.pile) else state.discard)


@lru_cache(maxsize=4096)
def _draws(counts: tuple[int, ...]) -> tuple[tuple[CardDrawn, Fraction], ...]:
    """The chance outcomes of a draw from a pile with these counts (cached: a game sees few different piles)."""
    total = sum(counts)
    return tuple((CardDrawn(t), Fraction(n, total)) for t, n in zip(TERRAINS, counts) if n)


def outcome(state: State) -> Outcome | None:
    """None while playing; at the end the players with the most gold (ties share the win, KB-2.1)."""
    if not state.finished:
        return None
    scores = score(state)
    totals = tuple(scores[p]["total"] for p in range(state.players))
    best = max(totals)
    winners = tuple(p for p, t in enumerate(totals) if t == best)
    return Outcome(
        winners=winners, reason=f"a supply ran out and the round was completed; best score {best} gold", scores=totals
    )


def view(state: State, player: int) -> State:
    """What ``player`` may see: other players' cards hidden (``None``) unless being played this turn; no log."""
    hands = tuple(
        card if p == player or (p == state.player and card is not None) else None for p, card in enumerate(state.hands)
    )
    return _replace(state, hands=hands, history=())


# --- scoring (KB-9.2, KB-9.3 and the card clarifications KB-C16.x) -------------------------------------


def _areas(state: State, own: list[int]) -> list[int]:
    """Sizes of the connected groups of the given settlements."""
    owned, seen, sizes = set(own), set(), []
    neighbours = state.geometry.neighbours
    for start in own:
        if start in seen:
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:
            i = stack.pop()
            size += 1
            for n in neighbours[i]:
                if n in owned and n not in seen:
                    seen.add(n)
                    stack.append(n)
        sizes.append(size)
    return sizes


def card_scores(state: State, card: str) -> tuple[int, ...]:
    """Gold each player earns from one Kingdom Builder card in the current position."""
    geometry = state.geometry
    owns = [_own(state, p) for p in range(state.players)]
    if card == "lords":
        return _lords(state, owns)
    return tuple(_card_score(state, geometry, card, own) for own in owns)


def _card_score(state: State, geometry: Geometry, card: str, own: list[int]) -> int:
    if card == "fishermen":
        return sum(1 for i in own if geometry.near_water[i] and geometry.terrain[i] != "water")
    if card == "miners":
        return sum(1 for i in own if geometry.near_mountain[i])
    if card == "workers":
        return sum(1 for i in own if geometry.near_special[i])
    if card == "discoverers":
        return len({i // COLUMNS for i in own})
    if card == "knights":
        rows: dict[int, int] = {}
        for i in own:
            rows[i // COLUMNS] = rows.get(i // COLUMNS, 0) + 1
        return 2 * max(rows.values(), default=0)
    if card == "hermits":
        return len(_areas(state, own))
    if card == "citizens":
        return max(_areas(state, own), default=0) // 2
    if card == "farmers":
        counts = [0, 0, 0, 0]
        for i in own:
            counts[geometry.sector[i]] += 1
        return 3 * min(counts)
    if card == "merchants":
        return 4 * len(_linked_specials(state, own))
    raise ValueError(f"unknown Kingdom Builder card {short(card)}")


def _linked_specials(state: State, own: list[int]) -> set[int]:
    """KB-C16.2: location and castle hexes joined to another one by a chain of the player's settlements."""
    geometry = state.geometry
    owned = set(own)
    linked: set[int] = set()
    seen: set[int] = set()
    for start in own:
        if start in seen:
            continue
        seen.add(start)
        stack, touched = [start], set()
        while stack:
            i = stack.pop()
            for n in geometry.neighbours[i]:
                if n in geometry.specials:
                    touched.add(n)
                elif n in owned and n not in seen:
                    seen.add(n)
                    stack.append(n)
        if len(touched) >= 2:
            linked |= touched
    return linked


def _lords(state: State, owns: list[list[int]]) -> tuple[int, ...]:
    geometry = state.geometry
    gold = [0] * state.players
    for sector in range(4):
        counts = [sum(1 for i in own if geometry.sector[i] == sector) for own in owns]
        # KB-C17: unless the Config allows it, a count of 0 never earns gold.
        distinct = sorted({c for c in counts if c > 0 or state.config.lords_zero_scores}, reverse=True)
        for rank, prize in zip(distinct, (12, 6)):
            for p, c in enumerate(counts):
                if c == rank:
                    gold[p] += prize
    return tuple(gold)


def castle_scores(state: State) -> tuple[int, ...]:
    """KB-9.3: 3 gold per castle hex next to at least one of the player's settlements."""
    geometry = state.geometry
    return tuple(
        3 * sum(1 for c in geometry.castles if any(state.board[n] == p for n in geometry.neighbours[c]))
        for p in range(state.players)
    )


def score(state: State) -> dict[int, dict[str, int]]:
    """Gold per player from each of the 3 cards, the castles and in total; valid at any moment (running score)."""
    result: dict[int, dict[str, int]] = {p: {} for p in range(state.players)}
    for card in state.cards:
        for p, gold in enumerate(card_scores(state, card)):
            result[p][card] = gold
    for p, gold in enumerate(castle_scores(state)):
        result[p]["castles"] = gold
        result[p]["total"] = sum(result[p].values())
    return result


def scoring_hexes(state: State, card: str, player: int) -> tuple[Hex, ...]:
    """The hexes that earn ``player`` gold for ``card`` (settlements, or the linked specials for Merchants)."""
    geometry = state.geometry
    own = _own(state, player)
    if card == "fishermen":
        chosen = [i for i in own if geometry.near_water[i] and geometry.terrain[i] != "water"]
    elif card == "miners":
        chosen = [i for i in own if geometry.near_mountain[i]]
    elif card == "workers":
        chosen = [i for i in own if geometry.near_special[i]]
    elif card == "merchants":
        chosen = sorted(_linked_specials(state, own))
    elif card == "knights":
        rows = [sum(1 for i in own if i // COLUMNS == r) for r in range(ROWS)]
        best = max(rows)
        row = rows.index(best) if best else -1
        chosen = [i for i in own if i // COLUMNS == row]
    elif card == "citizens":
        import networkx as nx

        graph = nx.Graph()
        graph.add_nodes_from(own)
        graph.add_edges_from((i, n) for i in own for n in geometry.neighbours[i] if n in graph)
        chosen = sorted(max(nx.connected_components(graph), key=len, default=set()))
    elif card == "farmers":
        counts = [sum(1 for i in own if geometry.sector[i] == s) for s in range(4)]
        weakest = counts.index(min(counts))
        chosen = [i for i in own if geometry.sector[i] == weakest]
    elif card == "castles":
        chosen = [c for c in geometry.castles if any(state.board[n] == player for n in geometry.neighbours[c])]
    elif card in KINGDOM_BUILDER_CARDS:
        chosen = own  # discoverers, hermits and lords count every settlement
    else:
        raise ValueError(f"unknown Kingdom Builder card {short(card)}")
    return tuple(_hex(i) for i in chosen)


def random_move(state: State, rng: random.Random) -> AnyMove:
    """A uniformly random legal move (or chance outcome, by its probability)."""
    outcomes = chance_outcomes(state)
    if outcomes:
        return core.pick(outcomes, rng)
    return rng.choice(legal_moves(state))
