"""Claim (Alex Randolph, Jumbo 1983): the island of points, the four phases and every rule as code.

Points are ``(row, column)`` tuples on a square lattice, counted from the top-left of the island's
bounding box.  A state is immutable; ``apply`` returns a new one and raises ``IllegalMove`` with the
id of the translated paragraph (``CL-...``) that forbids a move.  Claim has no dice: ``chance_outcomes``
is always ``()``.
"""

from __future__ import annotations

import dataclasses
import json
import random
import reprlib
from bisect import insort
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..boards import graphs_dir
from ..core import IllegalMove, Outcome, check_depth, describe, seeded

if TYPE_CHECKING:  # imported where a graph is asked for (views, summaries): play and set-up never need it
    import networkx as nx

RULES_VERSION = 2  # 2: towers go down at once after the removals (CL-5.2), removals kept balanced (CL-C3)
GAME = "claim"

Point = tuple[int, int]
COLOURS = ("red", "blue", "yellow", "green")
LETTERS = {"red": "r", "blue": "b", "yellow": "y", "green": "g"}
# Default seats; with four players opposite seats (0+2, 1+3) are partners: red+green against blue+yellow.
SEATS = {2: ("red", "blue"), 3: ("red", "blue", "yellow"), 4: ("red", "blue", "green", "yellow")}
PIECES_EACH = 18
TOWERS_EACH = 3
REMOVALS_EACH = 4
PLACED_PER_TURN = 2
SECTIONS_PER_PLAYER_COUNT = {2: 3, 3: 4, 4: 5}
TERRITORIES_PER_PLAYER_COUNT = {2: 5, 3: 7, 4: 9}
DIRECTIONS = ((-1, 0), (0, 1), (1, 0), (0, -1))
TERRITORY_LETTERS = "abcdefghi"
EMPTY, NO_POINT = ".", "#"
MAX_SIDE = 64  # rows and columns of an island at most: the real ones have about 12; a diagram may not be larger
REMOVAL_TOWERS = ("at once", "first battle turn")
MAX_QUIET_TURNS = 1000  # CL-C11: the largest quiet_turn_limit a game or save may set

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 40
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 4
_SHORT.maxlevel = 3


def short(value: Any) -> str:
    """A bad value quoted in an error message: at most a short prefix, however large or deep the value is."""
    try:
        text = _SHORT.repr(value)
    except Exception:  # noqa: BLE001 - a hostile __repr__ must not hide the error being reported
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


# --- the island -------------------------------------------------------------------------------------


def _components(nodes: Sequence[Any], neighbours: Any) -> list[set[Any]]:
    """The connected parts of ``nodes`` through ``neighbours[node]`` (only neighbours among ``nodes`` count), each
    found from its first node in ``nodes`` order: what networkx's connected_components gives, without networkx on
    the way to a first game."""
    inside = set(nodes)
    seen: set[Any] = set()
    parts = []
    for start in nodes:
        if start in seen:
            continue
        part = {start}
        frontier = [start]
        while frontier:
            here = frontier.pop()
            for near in neighbours[here]:
                if near in inside and near not in part:
                    part.add(near)
                    frontier.append(near)
        seen |= part
        parts.append(part)
    return parts


class Island:
    """The lattice points of an assembled board, their territories and their orthogonal neighbours."""

    def __init__(self, rows: tuple[str, ...]) -> None:
        if not rows or not all(isinstance(row, str) for row in rows):
            raise ValueError("territory grid: expected at least one row of text")
        width = len(rows[0])
        if width == 0 or any(len(row) != width for row in rows):
            raise ValueError(f"territory grid: every row must have the same length ({short(width)})")
        if len(rows) > MAX_SIDE or width > MAX_SIDE:
            raise ValueError(
                f"territory grid: {len(rows)} rows and {width} columns; "
                f"an island has at most {MAX_SIDE} rows and columns"
            )
        self.rows = rows
        self.height, self.width = len(rows), width
        self.territory: dict[Point, str] = {}
        for row_index, row in enumerate(rows):
            for column, char in enumerate(row):
                if char == NO_POINT:
                    continue
                if char not in TERRITORY_LETTERS:
                    raise ValueError(
                        f"territory grid row {row_index} column {column}: {char!r} is not a territory letter a-i or #"
                    )
                self.territory[(row_index, column)] = char
        if not self.territory:
            raise ValueError("territory grid: the island has no points")
        self.points: tuple[Point, ...] = tuple(sorted(self.territory))
        grouped: dict[str, list[Point]] = {}
        for point in self.points:
            grouped.setdefault(self.territory[point], []).append(point)
        self.territories: dict[str, tuple[Point, ...]] = {letter: tuple(points) for letter, points in grouped.items()}
        self.letters = tuple(sorted(self.territories))
        self.neighbours: dict[Point, tuple[Point, ...]] = {
            (row, column): tuple(
                (row + dr, column + dc) for dr, dc in DIRECTIONS if (row + dr, column + dc) in self.territory
            )
            for row, column in self.points
        }
        parts = sorted(_components(self.points, self.neighbours), key=len)
        if len(parts) > 1:
            raise ValueError(f"territory grid: the island is not in one piece; cut off: {sorted(parts[0])}")
        for letter, points in self.territories.items():
            if len(_components(points, self.neighbours)) > 1:
                raise ValueError(f"territory grid: territory {letter} is not in one piece")

    def __contains__(self, point: object) -> bool:
        return point in self.territory

    # The tables below serve play only: built when first asked for, so the sections checked at set-up (five islands
    # read once a process) and an assembly's checks never build them.
    @cached_property
    def on_edge(self) -> dict[Point, bool]:
        return {point: len(near) < 4 for point, near in self.neighbours.items()}

    @cached_property
    def jumps(self) -> dict[Point, tuple[tuple[Point, Point], ...]]:
        """The jumps a piece on a point could make, as (point jumped over, landing point), both on the island."""
        territory = self.territory
        return {
            (row, column): tuple(
                ((row + dr, column + dc), (row + 2 * dr, column + 2 * dc))
                for dr, dc in DIRECTIONS
                if (row + dr, column + dc) in territory and (row + 2 * dr, column + 2 * dc) in territory
            )
            for row, column in self.points
        }

    @cached_property
    def steps(self) -> dict[Point, tuple[tuple[Point, Step], ...]]:
        """Each step a piece on a point could make, as (neighbour, the Step move): moves are immutable, so one object
        per pair of points serves every position."""
        return {point: tuple((near, Step(point, near)) for near in self.neighbours[point]) for point in self.points}

    @cached_property
    def places(self) -> dict[Point, Place]:
        return {point: Place(point) for point in self.points}

    # the same steps and jumps by flat index (row * width + column) into the rows joined (State._flat): the battle's
    # move search reads one string by integer instead of a row and a column per point
    @cached_property
    def flat_point(self) -> tuple[Point | None, ...]:
        return tuple(
            (row, column) if (row, column) in self.territory else None
            for row in range(self.height)
            for column in range(self.width)
        )

    @cached_property
    def flat_steps(self) -> tuple[tuple[tuple[int, Step], ...], ...]:
        width, steps = self.width, self.steps
        return tuple(
            tuple((near[0] * width + near[1], step) for near, step in steps[point]) if point else ()
            for point in self.flat_point
        )

    @cached_property
    def flat_jumps(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        width, jumps = self.width, self.jumps
        return tuple(
            tuple((over[0] * width + over[1], land[0] * width + land[1]) for over, land in jumps[point])
            if point
            else ()
            for point in self.flat_point
        )

    @cached_property
    def flat_lines(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """For a capture on landing at a flat index: each neighbour on the island in DIRECTIONS order with the point
        beyond it (-1 where the beyond is off the island, the edge of CL-7.3)."""
        territory, width = self.territory, self.width
        lines: list[tuple[tuple[int, int], ...]] = []
        for point in self.flat_point:
            found = []
            if point is not None:
                row, column = point
                for dr, dc in DIRECTIONS:
                    middle, beyond = (row + dr, column + dc), (row + 2 * dr, column + 2 * dc)
                    if middle in territory:
                        far = beyond[0] * width + beyond[1] if beyond in territory else -1
                        found.append((middle[0] * width + middle[1], far))
            lines.append(tuple(found))
        return tuple(lines)

    @cached_property
    def contents(self) -> dict[str, Callable[[str], Any]]:
        """Each territory's pieces and towers read in one call: ``contents[letter](flat)`` is its characters."""
        width = self.width
        return {
            letter: itemgetter(*(row * width + column for row, column in points))
            for letter, points in self.territories.items()
        }

    @cached_property
    def flat_reads(self) -> tuple[int, ...]:
        """The points whose pieces a search from a point reads: itself, its neighbours and its landing points, as a
        bit mask of flat indices (bit ``index`` set)."""
        masks = []
        for index, (steps, jumps) in enumerate(zip(self.flat_steps, self.flat_jumps)):
            mask = 1 << index
            for near, _ in steps:
                mask |= 1 << near
            for over, land in jumps:
                mask |= 1 << over | 1 << land
            masks.append(mask)
        return tuple(masks)

    @cached_property
    def flat_places(self) -> tuple[tuple[int, Place], ...]:
        """Each point's flat index with its Place move, in the order of ``points``."""
        return tuple((row * self.width + column, self.places[(row, column)]) for row, column in self.points)

    def graph(self) -> nx.Graph:
        """The networkx graph of the points: orthogonal neighbours, ``territory`` and ``edge`` node attributes."""
        import networkx as nx

        graph = nx.Graph()
        for point in self.points:
            graph.add_node(point, territory=self.territory[point], edge=self.on_edge.get(point, False))
        for point in self.points:
            for near in self.neighbours.get(point, ()):
                graph.add_edge(point, near, border=self.territory[point] != self.territory[near])
        return graph


@lru_cache(maxsize=64)
def island(rows: tuple[str, ...]) -> Island:
    """The (cached) island described by a territory grid."""
    return Island(tuple(rows))


# --- sections and assemblies (graphs/claim/) ---------------------------------------------------------------


def claim_dir() -> Path:
    return graphs_dir() / "claim"


def _read_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
        check_depth(text, path.name, "a board file")  # before the parser recurses into it
        return json.loads(text)
    except FileNotFoundError:
        raise ValueError(f"{path.name}: file missing from graphs/claim/") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path.name}: not UTF-8 text") from None
    except OSError as error:  # a directory, an unreadable file
        raise ValueError(f"{path.name}: cannot be read ({error.strerror or type(error).__name__})") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path.name}: not valid JSON ({error.msg}, line {error.lineno})") from None


def parse_sections(data: Any, name: str = "sections.json") -> dict[str, tuple[str, ...]]:
    """Check the section data (shapes as rows of local territory letters, ``#`` = no point)."""
    if not isinstance(data, dict) or not isinstance(data.get("sections"), list):
        raise ValueError(f"{name}: expected an object with a 'sections' list")  # noqa: TRY004 - malformed input is a ValueError here
    if not isinstance(data.get("note"), str):
        raise ValueError(f"{name}: a 'note' saying where the shapes come from is required")  # noqa: TRY004 - malformed input is a ValueError here
    sections: dict[str, tuple[str, ...]] = {}
    for index, section in enumerate(data["sections"]):
        where = f"{name}: sections[{index}]"
        if not isinstance(section, dict) or not isinstance(section.get("name"), str):
            raise ValueError(f"{where} needs a 'name'")  # noqa: TRY004 - malformed input is a ValueError here
        rows = section.get("rows")
        if not isinstance(rows, list) or not rows or not all(isinstance(row, str) for row in rows):
            raise ValueError(f"{where} ({section['name']}): 'rows' must be a list of strings")
        if section["name"] in sections:
            raise ValueError(f"{where}: section {section['name']} is listed twice")
        try:
            shape = island(tuple(rows))
        except ValueError as error:
            raise ValueError(f"{where} ({section['name']}): {error}") from None
        for letter, points in shape.territories.items():
            if not 11 <= len(points) <= 16:
                raise ValueError(f"{where} ({section['name']}): territory {letter} has {len(points)} points, not 11-16")
        if shape.letters not in (("a",), ("a", "b")):
            raise ValueError(f"{where} ({section['name']}): territories must be lettered a (and b)")
        sections[section["name"]] = tuple(rows)
    counts = sorted(len(island(rows).letters) for rows in sections.values())
    if counts != [1, 2, 2, 2, 2]:
        raise ValueError(f"{name}: Claim has 5 sections, 4 with two territories and 1 with one (got {counts})")
    return sections


@lru_cache(maxsize=1)
def load_sections() -> dict[str, tuple[str, ...]]:
    """The five board sections of ``graphs/claim/sections.json`` (our reconstruction, see its note)."""
    path = claim_dir() / "sections.json"
    return parse_sections(_read_json(path), path.name)


@dataclass(frozen=True)
class Placement:
    """One section laid on the table: which one, turned clockwise by ``rotation`` quarter turns, at an offset."""

    section: str
    rotation: int
    row: int
    column: int


def rotated(rows: Sequence[str], quarter_turns: int) -> tuple[str, ...]:
    """A section's rows turned clockwise by a number of quarter turns."""
    grid = tuple(rows)
    for _ in range(quarter_turns % 4):
        grid = tuple("".join(grid[len(grid) - 1 - r][c] for r in range(len(grid))) for c in range(len(grid[0])))
    return grid


def _section_points(rows: Sequence[str], placement: Placement) -> dict[Point, str]:
    turned = rotated(rows, placement.rotation)
    return {
        (placement.row + r, placement.column + c): char
        for r, line in enumerate(turned)
        for c, char in enumerate(line)
        if char != NO_POINT
    }


def assemble(placements: Sequence[Placement], sections: dict[str, tuple[str, ...]] | None = None) -> tuple[str, ...]:
    """The territory grid of a valid assembly; raises ``ValueError`` saying which rule of CL-3.2/CL-3.3 fails."""
    sections = load_sections() if sections is None else sections
    count = len(placements)
    if count not in (3, 4, 5):
        raise ValueError(f"an island is made of 3, 4 or 5 sections, not {count}")
    names = [placement.section for placement in placements]
    if len(set(names)) != count:
        raise ValueError(f"a section is used twice in {short(names)}")
    unknown = [name for name in names if name not in sections]
    if unknown:
        raise ValueError(f"unknown section(s) {short(unknown)} (known: {sorted(sections)})")
    territories = sum(len(island(sections[name]).letters) for name in names)
    players = {v: k for k, v in SECTIONS_PER_PLAYER_COUNT.items()}[count]
    if territories != TERRITORIES_PER_PLAYER_COUNT[players]:
        raise ValueError(
            f"{count} sections must hold {TERRITORIES_PER_PLAYER_COUNT[players]} territories, these hold {territories}"
        )
    owner: dict[Point, int] = {}
    letter: dict[Point, str] = {}
    next_letter = 0
    for index, placement in enumerate(placements):
        local = _section_points(sections[placement.section], placement)
        mapping = {}
        for char in sorted(set(local.values())):
            mapping[char] = TERRITORY_LETTERS[next_letter]
            next_letter += 1
        for point, char in local.items():
            if point in owner:
                raise ValueError(
                    f"section {placement.section} overlaps section {placements[owner[point]].section} at {point}"
                )
            owner[point] = index
            letter[point] = mapping[char]
    seams: dict[tuple[int, int], int] = {}
    for (row, column), index in owner.items():
        for near in ((row + 1, column), (row, column + 1)):
            other = owner.get(near)
            if other is not None and other != index:
                key = (min(index, other), max(index, other))
                seams[key] = seams.get(key, 0) + 1
    joins: dict[int, list[int]] = {index: [] for index in range(count)}
    for (first, second), length in seams.items():
        if length >= MIN_SEAM:
            joins[first].append(second)
            joins[second].append(first)
    if len(_components(range(count), joins)) > 1:
        raise ValueError(f"the sections are not all joined along seams of at least {MIN_SEAM} points")
    top = min(r for r, _ in owner)
    left = min(c for _, c in owner)
    height = max(r for r, _ in owner) - top + 1
    width = max(c for _, c in owner) - left + 1
    grid = [[NO_POINT] * width for _ in range(height)]
    for (row, column), char in letter.items():
        grid[row - top][column - left] = char
    rows = tuple("".join(line) for line in grid)
    _check_compact(rows)
    island(rows)
    return rows


def _assembled(placements: tuple[Placement, ...]) -> tuple[str, ...]:
    """:func:`assemble` of the shipped sections, remembered while :func:`load_sections` gives the same sections: a
    fixed layout is assembled when its file is checked and again for its game (a refusal is raised each time)."""
    sections = load_sections()
    if _ASSEMBLED_FROM[0] is not sections:
        _ASSEMBLED.clear()
        _ASSEMBLED_FROM[0] = sections
    known = _ASSEMBLED.get(placements)
    if known is None:
        known = assemble(placements, sections)
        if len(_ASSEMBLED) >= 64:
            _ASSEMBLED.clear()
        _ASSEMBLED[placements] = known
    return known


_ASSEMBLED: dict[tuple[Placement, ...], tuple[str, ...]] = {}
_ASSEMBLED_FROM: list[Any] = [None]  # the sections _ASSEMBLED was made from


MIN_SEAM = 3  # CL-C1: two sections are joined when at least 3 pairs of their points are neighbours
MIN_FILL = Fraction(2, 3)  # CL-C1: "compact" = no holes and at least 2/3 of the bounding box are points


def _check_compact(rows: tuple[str, ...]) -> None:
    height, width = len(rows), len(rows[0])
    outside = set()
    stack = [(r, c) for r in range(-1, height + 1) for c in (-1, width)] + [
        (r, c) for c in range(width) for r in (-1, height)
    ]
    while stack:
        row, column = stack.pop()
        if (row, column) in outside:
            continue
        if 0 <= row < height and 0 <= column < width and rows[row][column] != NO_POINT:
            continue
        if not (-1 <= row <= height and -1 <= column <= width):
            continue
        outside.add((row, column))
        stack.extend((row + dr, column + dc) for dr, dc in DIRECTIONS)
    holes = [(r, c) for r in range(height) for c in range(width) if rows[r][c] == NO_POINT and (r, c) not in outside]
    if holes:
        raise ValueError(f"the island is not compact: it has holes at {holes}")
    points = sum(char != NO_POINT for row in rows for char in row)
    if Fraction(points, height * width) < MIN_FILL:
        raise ValueError(f"the island is not compact: {points} points fill less than 2/3 of its {height}x{width} box")


def parse_layout(data: Any, name: str) -> tuple[Placement, ...]:
    """Check a fixed layout file: a note, the player count and the placed sections."""
    if not isinstance(data, dict):
        raise ValueError(f"{name}: expected a JSON object")  # noqa: TRY004 - malformed input is a ValueError here
    if not isinstance(data.get("note"), str):
        raise ValueError(f"{name}: a 'note' is required")  # noqa: TRY004 - malformed input is a ValueError here
    players = data.get("players")
    if not isinstance(players, int) or players not in SECTIONS_PER_PLAYER_COUNT:
        raise ValueError(f"{name}: 'players' must be 2, 3 or 4, got {short(players)}")
    items = data.get("sections")
    if not isinstance(items, list) or len(items) != SECTIONS_PER_PLAYER_COUNT[players]:
        raise ValueError(f"{name}: {players} players use {SECTIONS_PER_PLAYER_COUNT[players]} sections")
    placements = []
    for index, item in enumerate(items):
        if not isinstance(item, dict) or set(item) != {"section", "rotation", "row", "column"}:
            raise ValueError(f"{name}: sections[{index}] needs exactly section, rotation, row, column")
        if not isinstance(item["section"], str) or not all(
            isinstance(item[key], int) and not isinstance(item[key], bool) for key in ("rotation", "row", "column")
        ):
            raise ValueError(f"{name}: sections[{index}] has a value of the wrong type")
        if item["rotation"] not in (0, 1, 2, 3):
            raise ValueError(f"{name}: sections[{index}] rotation must be 0-3 quarter turns")
        placements.append(Placement(item["section"], item["rotation"], item["row"], item["column"]))
    try:
        _assembled(tuple(placements))
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
    return tuple(placements)


@lru_cache(maxsize=8)
def fixed_layout(players: int) -> tuple[Placement, ...]:
    """The fixed assembly shipped for a player count (``graphs/claim/layout_<players>.json``)."""
    if players not in SECTIONS_PER_PLAYER_COUNT:
        raise ValueError(f"Claim is for 2 to 4 players, not {short(players)}")
    path = claim_dir() / f"layout_{players}.json"
    return parse_layout(_read_json(path), path.name)


@lru_cache(maxsize=8)
def _fixed_rows(players: int) -> tuple[str, ...]:
    """The territory rows of the fixed assembly (assembled once a process: every fixed game has the same island)."""
    return _assembled(fixed_layout(players))


def random_layout(players: int, rng: random.Random, attempts: int = 400) -> tuple[Placement, ...]:
    """Another valid assembly for a player count, drawn with ``rng``: sections laid one by one along seams."""
    if players not in SECTIONS_PER_PLAYER_COUNT:
        raise ValueError(f"Claim is for 2 to 4 players, not {short(players)}")
    sections = load_sections()
    single = [name for name, rows in sorted(sections.items()) if len(island(rows).letters) == 1]
    double = [name for name, rows in sorted(sections.items()) if len(island(rows).letters) == 2]
    for _ in range(attempts):
        names = single + rng.sample(double, SECTIONS_PER_PLAYER_COUNT[players] - 1)
        rng.shuffle(names)
        placements: list[Placement] = []
        taken: set[Point] = set()
        for name in names:
            rotation = rng.randrange(4)
            shape = _section_points(sections[name], Placement(name, rotation, 0, 0))
            if not placements:
                placements.append(Placement(name, rotation, 0, 0))
                taken |= set(shape)
                continue
            rows = [r for r, _ in taken]
            columns = [c for _, c in taken]
            options = []
            for row in range(min(rows) - 7, max(rows) + 2):
                for column in range(min(columns) - 7, max(columns) + 2):
                    moved = {(r + row, c + column) for r, c in shape}
                    if moved & taken:
                        continue
                    seam = sum((r + dr, c + dc) in taken for r, c in moved for dr, dc in DIRECTIONS)
                    if seam >= MIN_SEAM:
                        options.append((row, column, seam))
            if not options:
                break
            best = max(seam for _, _, seam in options)
            # prefer long seams, which keeps the island compact
            row, column, _ = rng.choice([option for option in options if option[2] >= best - 2])
            placements.append(Placement(name, rotation, row, column))
            taken |= {(r + row, c + column) for r, c in shape}
        else:
            try:
                assemble(placements, sections)
            except ValueError:
                continue
            return tuple(placements)
    raise ValueError(f"no valid assembly found in {attempts} attempts")


def points_graph(state_or_rows: State | Sequence[str]) -> nx.Graph:
    """The networkx graph of an island's points (orthogonal neighbours; ``territory``, ``edge`` attributes)."""
    rows = state_or_rows.territories if isinstance(state_or_rows, State) else tuple(state_or_rows)
    return island(tuple(rows)).graph()


def territory_summary(state: State) -> dict[str, Any]:
    """The graph of points read per territory: sizes, border lengths between territories, and each player's
    distance (orthogonal steps, pieces ignored) from their nearest piece to the nearest point of each territory."""
    import networkx as nx

    board = state.island
    graph = board.graph()
    sizes = {letter: len(points) for letter, points in board.territories.items()}
    borders: dict[tuple[str, str], int] = {}
    for u, v, border in graph.edges(data="border"):
        if border:
            pair = tuple(sorted((board.territory[u], board.territory[v])))
            borders[pair] = borders.get(pair, 0) + 1
    distances: dict[int, dict[str, int | None]] = {}
    for player in range(state.players):
        pieces = state.pieces(player)
        if not pieces:
            distances[player] = dict.fromkeys(board.letters)
            continue
        reach = nx.multi_source_dijkstra_path_length(graph, set(pieces))
        distances[player] = {
            letter: min(reach[p] for p in points if p in reach) for letter, points in board.territories.items()
        }
    return {"sizes": sizes, "borders": borders, "distances": distances, "edge_points": sum(board.on_edge.values())}


# --- moves -------------------------------------------------------------------------------------------------


def _point(value: Any, what: str = "point") -> Point:
    if type(value) is tuple and len(value) == 2 and type(value[0]) is int and type(value[1]) is int:
        return value  # the common case, decided at once
    if (
        isinstance(value, tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return value
    raise ValueError(f"{what} must be a (row, column) pair of integers, got {short(value)}")


@dataclass(frozen=True)
class Place:
    """Placement phase: put one of your pieces on a free point (two per turn)."""

    point: Point

    def __str__(self) -> str:
        return f"place a piece on {self.point}"


@dataclass(frozen=True)
class Remove:
    """Removal phase: take one enemy piece off the board."""

    point: Point

    def __str__(self) -> str:
        return f"remove the piece on {self.point}"


@dataclass(frozen=True)
class Step:
    """Battle: move a piece to a free orthogonal neighbour."""

    origin: Point
    destination: Point

    def __str__(self) -> str:
        return f"step {self.origin} -> {self.destination}"


@dataclass(frozen=True)
class Jump:
    """Battle: jump over neighbouring pieces or towers; ``path`` lists every landing point, the last is the end."""

    origin: Point
    path: tuple[Point, ...]

    @property
    def destination(self) -> Point:
        return self.path[-1]

    def __str__(self) -> str:
        return f"jump {self.origin} -> " + " -> ".join(str(point) for point in self.path)


@dataclass(frozen=True)
class PlaceTower:
    """Conquest: put one of your towers on a free point of a territory you have conquered."""

    territory: str
    point: Point

    def __str__(self) -> str:
        return f"place a tower on {self.point} in territory {self.territory}"


@dataclass(frozen=True)
class Stop:
    """End a series of captures (or leave a conquered territory without a tower) and pass the turn on."""

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True)
class Pass:
    """A player whose pieces cannot move passes (CL-C10)."""

    def __str__(self) -> str:
        return "pass (no piece can move)"


MOVE_CLASSES = {cls.__name__: cls for cls in (Place, Remove, Step, Jump, PlaceTower, Stop, Pass)}
_MOVE_TYPES = tuple(MOVE_CLASSES.values())
# any move of the game (``Move`` is a move class of Ab die Post)
AnyMove = Place | Remove | Step | Jump | PlaceTower | Stop | Pass


# --- state -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    """Options where players' house rules differ (see the CL-C clarifications)."""

    quiet_turn_limit: int = 60  # CL-C11: turns in a row with no capture and no tower before the game stops
    stalled_result: str = "most towers"  # CL-C11: "most towers" or "draw" when the game stops
    partners_share_territories: bool = True  # CL-C9: with 4 players a partner's pieces do not stop a conquest
    # CL-5.2 / CL-C3: when a territory held alone after the removals takes its tower: "at once" (a round of towers
    # before the battle, as the text says) or "first battle turn" (at the start of the holder's first battle turn)
    removal_towers: str = "at once"

    def __post_init__(self) -> None:
        if (
            not isinstance(self.quiet_turn_limit, int)
            or isinstance(self.quiet_turn_limit, bool)
            or not 1 <= self.quiet_turn_limit <= MAX_QUIET_TURNS
        ):
            raise ValueError(
                f"Config.quiet_turn_limit must be a whole number from 1 to {MAX_QUIET_TURNS}, "
                f"got {short(self.quiet_turn_limit)}"
            )
        if not isinstance(self.stalled_result, str) or self.stalled_result not in ("most towers", "draw"):
            raise ValueError(f"Config.stalled_result must be 'most towers' or 'draw', got {short(self.stalled_result)}")
        if not isinstance(self.removal_towers, str) or self.removal_towers not in REMOVAL_TOWERS:
            raise ValueError(
                f"Config.removal_towers must be 'at once' or 'first battle turn', got {short(self.removal_towers)}"
            )
        if not isinstance(self.partners_share_territories, bool):
            raise ValueError("Config.partners_share_territories must be true or false")  # noqa: TRY004 - malformed input is a ValueError here

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> Config:
        if not isinstance(data, dict) or set(data) - {f.name for f in dataclasses.fields(cls)}:
            raise ValueError(f"config: expected an object with keys from {[f.name for f in dataclasses.fields(cls)]}")
        return cls(**data)


@dataclass(frozen=True)
class State:
    """A position of Claim plus its move log. ``grid`` rows use the diagram's piece letters."""

    territories: tuple[str, ...]
    grid: tuple[str, ...]
    colours: tuple[str, ...]
    phase: str  # "placement", "removal", "towers" (CL-5.2: towers in territories held alone) or "battle"
    turn: int  # whose turn it is (also kept at the end, for the diagram)
    first: int  # the player who began (placement, removal and battle all start with them)
    removals_left: tuple[int, ...]
    follow_up: Point | None  # the piece that has just captured and may capture again (CL-7.4)
    claims: frozenset[tuple[int, str]]  # conquered territories where a player may still place a tower
    quiet_turns: int  # turns ended since the last capture or tower placement (CL-C11)
    config: Config = field(default_factory=Config)
    result: Outcome | None = None
    setup: str = "{}"
    history: tuple[Any, ...] = ()

    @property
    def player(self) -> int | None:
        return None if self.result is not None else self.turn

    @property
    def players(self) -> int:
        return len(self.colours)

    # The island and the letters' seats are worked out once per state and kept beside its fields (not fields: they
    # take no part in equality, and a state made with other fields computes its own).
    @property
    def island(self) -> Island:
        cached = self.__dict__.get("_island")
        if cached is None:
            cached = island(self.territories)
            object.__setattr__(self, "_island", cached)
        return cached

    def at(self, point: Point) -> str:
        """The diagram character on a point: ``.`` empty, ``r`` a red piece, ``R`` a red tower, ``#`` off the island."""
        row, column = point
        if 0 <= row < len(self.grid) and 0 <= column < len(self.grid[0]):
            return self.grid[row][column]
        return NO_POINT

    def owner(self, point: Point) -> int | None:
        """The player whose piece or tower stands on a point, else None."""
        char = self.at(point)
        if char in (EMPTY, NO_POINT):
            return None
        return self._seat_of_letter()[char.lower()]

    def is_tower(self, point: Point) -> bool:
        return self.at(point).isupper()

    def _seat_of_letter(self) -> dict[str, int]:
        """The seat of each piece letter (a shared dict: read it, never change it)."""
        cached = self.__dict__.get("_seats")
        if cached is None:
            cached = {LETTERS[colour]: seat for seat, colour in enumerate(self.colours)}
            object.__setattr__(self, "_seats", cached)
        return cached

    def letter(self, player: int, tower: bool = False) -> str:
        letter = LETTERS[self.colours[player]]
        return letter.upper() if tower else letter

    def pieces(self, player: int) -> tuple[Point, ...]:
        return self._places(self.letter(player))

    def towers(self, player: int) -> tuple[Point, ...]:
        return self._places(self.letter(player, tower=True))

    def _count(self, letter: str) -> int:
        """How many points hold ``letter`` (counted in the rows' text: quicker than listing them)."""
        return self._flat().count(letter)

    def _places(self, letter: str) -> tuple[Point, ...]:
        """The points holding ``letter``, row by row (the order of ``island.points``)."""
        return self._where().get(letter, ())

    def _where(self) -> dict[str, tuple[Point, ...]]:
        """Every piece and tower letter on the board with its points, row by row (one look at the grid per state)."""
        cached = self.__dict__.get("_where_cache")
        if cached is None:
            found: dict[str, list[Point]] = {}
            for row, cells in enumerate(self._occupied_rows()):
                for char, column in cells:
                    found.setdefault(char, []).append((row, column))
            cached = {char: tuple(points) for char, points in found.items()}
            object.__setattr__(self, "_where_cache", cached)
        return cached

    def _flat(self) -> str:
        """The grid's rows joined into one string, indexed by ``row * width + column`` (the island's flat index)."""
        cached = self.__dict__.get("_flat_cache")
        if cached is None:
            cached = "".join(self.grid)
            object.__setattr__(self, "_flat_cache", cached)
        return cached

    def _occupied_rows(self) -> tuple[tuple[tuple[str, int], ...], ...]:
        """Each row's pieces and towers as (letter, column): rows this state shares with the state it was made from
        (the same string) are taken from that state's list, the others are read anew."""
        cached = self.__dict__.get("_rows_cache")
        if cached is None:
            earlier = self.__dict__.get("_rows_from")
            if earlier is None:
                cached = tuple(_occupied(line) for line in self.grid)
            else:
                old_grid, old_rows = earlier
                cached = tuple(
                    old_rows[row] if line is old_grid[row] else _occupied(line) for row, line in enumerate(self.grid)
                )
            object.__setattr__(self, "_rows_cache", cached)
            self.__dict__.pop("_rows_from", None)
        return cached

    def team(self, player: int) -> tuple[int, ...]:
        """A player and their partner (4 players: opposite seats are allies, CL-2.2)."""
        if self.players == 4:
            return (player % 2, player % 2 + 2)
        return (player,)

    def enemies(self, first: int, second: int) -> bool:
        return second not in self.team(first)

    def tower_owner(self, territory: str) -> int | None:
        """Whose tower stands in a territory (at most one tower per territory)."""
        territory_of = self.island.territory
        for char, points in self._where().items():
            if char.isupper() and any(territory_of[point] == territory for point in points):
                return self._seat_of_letter()[char.lower()]
        return None

    def towers_in_reserve(self, player: int) -> int:
        return TOWERS_EACH - len(self.towers(player))


def _occupied(line: str) -> tuple[tuple[str, int], ...]:
    return tuple((char, column) for column, char in enumerate(line) if char != EMPTY and char != NO_POINT)


def teams_of(players: int) -> tuple[tuple[int, ...], ...]:
    """The sides of a game: each player alone, or two alliances of opposite seats with four players."""
    return ((0, 2), (1, 3)) if players == 4 else tuple((seat,) for seat in range(players))


def tower_target(players: int) -> int:
    """Towers a side needs to win: 3, or 5 between two partners (CL-10.1)."""
    return 5 if players == 4 else 3


_FIELDS = frozenset(f.name for f in dataclasses.fields(State))


def _with(state: State, touched: Sequence[Point] | None = None, **changes: Any) -> State:
    """``dataclasses.replace`` for the engine's own changes, without its checks (the fields are the engine's own, so
    the checks could only fail on a bug); the island and seats kept beside the fields carry over, as neither the
    territories nor the colours ever change in a game. ``touched``: the points a new grid changes (the move lists
    kept for the players' next looks stay with the state, those points marked; without it they are dropped)."""
    assert _FIELDS.issuperset(changes) and "territories" not in changes and "colours" not in changes
    new = object.__new__(State)
    kept = new.__dict__
    kept.update(state.__dict__)
    kept.update(changes)
    kept.pop("_conquerable", None)  # asked again of the new state
    if "config" in changes:
        kept.pop("_sides_cache", None)
    if "grid" in changes:
        # the pieces have moved: the joined rows made again when asked; the pieces of each letter changed where
        # ``touched`` says, else found again when asked from the rows that changed
        kept.pop("_flat_cache", None)
        kept.pop("_rows_cache", None)
        where = kept.pop("_where_cache", None)
        moves = kept.pop("_moves_kept", None)
        if touched is not None:
            if where is not None:
                kept["_where_cache"] = _where_after(where, state.grid, changes["grid"], touched)
            if moves:
                width = state.island.width
                marked = 0
                for row, column in touched:
                    marked |= 1 << (row * width + column)
                kept["_moves_kept"] = {seat: (found, dirty | marked) for seat, (found, dirty) in moves.items()}
        rows = state.__dict__.get("_rows_cache")
        if rows is not None:
            kept["_rows_from"] = (state.grid, rows)
        else:
            kept.pop("_rows_from", None)
    return new


def _where_after(
    where: dict[str, tuple[Point, ...]], before: tuple[str, ...], after: tuple[str, ...], touched: Sequence[Point]
) -> dict[str, tuple[Point, ...]]:
    """:meth:`State._where` of the grid ``after`` made from the one ``before`` by changes at the ``touched`` points
    only: the letters there lose and gain those points; the letters stay in the order of their first point."""
    changed: dict[str, tuple[list[Point], list[Point]]] = {}
    for point in dict.fromkeys(touched):
        was, now = before[point[0]][point[1]], after[point[0]][point[1]]
        if was != now:
            if was != EMPTY:
                changed.setdefault(was, ([], []))[0].append(point)
            if now != EMPTY:
                changed.setdefault(now, ([], []))[1].append(point)
    if not changed:
        return where
    found = dict(where)
    reorder = False
    for letter, (gone, came) in changed.items():
        old = where.get(letter, ())
        points = list(old)
        for point in gone:
            points.remove(point)  # it held ``letter`` before
        for point in came:
            insort(points, point)
        if not points:
            del found[letter]
            continue
        reorder = reorder or not old or points[0] != old[0]
        found[letter] = tuple(points)
    return dict(sorted(found.items(), key=lambda item: item[1][0])) if reorder else found


def _set(grid: tuple[str, ...], changes: dict[Point, str]) -> tuple[str, ...]:
    """The grid with the characters of ``changes`` put in (rows without a change are the same strings)."""
    lines = list(grid)
    for (row, column), char in changes.items():
        line = lines[row]
        if 0 <= column < len(line):
            lines[row] = line[:column] + char + line[column + 1 :]
        else:  # as a list would take it: counted from the end, or IndexError
            chars = list(line)
            chars[column] = char
            lines[row] = "".join(chars)
    return tuple(lines)


# --- new games ---------------------------------------------------------------------------------------------


def new_game(
    players: int = 2,
    seed: int = 0,
    *,
    assembly: str = "fixed",
    config: Config | None = None,
    colours: Sequence[str] | None = None,
) -> State:
    """A game at the start of placement; ``seed`` draws the first player (CL-4.1) and a ``"random"`` assembly."""
    if not isinstance(players, int) or players not in SEATS or isinstance(players, bool):
        raise ValueError(f"Claim is for 2, 3 or 4 players, not {short(players)}")
    if assembly not in ("fixed", "random"):
        raise ValueError(f"assembly must be 'fixed' or 'random', got {short(assembly)}")
    config = Config() if config is None else config
    try:
        colours = tuple(SEATS[players] if colours is None else colours)
    except TypeError:  # not a sequence of colour names
        raise ValueError(
            f"colours must be {players} different colours out of {COLOURS}, got {short(colours)}"
        ) from None
    if (
        len(colours) != players
        or not all(isinstance(colour, str) for colour in colours)
        or (len(set(colours)) != players or not set(colours) <= set(COLOURS))
    ):
        raise ValueError(f"colours must be {players} different colours out of {COLOURS}, got {short(colours)}")
    rng = seeded(seed)
    first = rng.randrange(players)
    rows = _fixed_rows(players) if assembly == "fixed" else assemble(random_layout(players, rng))
    setup = {
        "players": players,
        "seed": seed,
        "assembly": assembly,
        "config": config.to_dict(),
        "colours": list(colours),
    }
    return State(
        territories=rows,
        grid=tuple("".join(EMPTY if char != NO_POINT else NO_POINT for char in row) for row in rows),
        colours=colours,
        phase="placement",
        turn=first,
        first=first,
        removals_left=(REMOVALS_EACH,) * players,
        follow_up=None,
        claims=frozenset(),
        quiet_turns=0,
        config=config,
        setup=json.dumps(setup, sort_keys=True),
    )


# --- the rules ---------------------------------------------------------------------------------------------


def _lost(state: State, player: int) -> int:
    """Pieces a player has lost in the removal phase (every piece was placed, none captured yet)."""
    return PIECES_EACH - state._count(state.letter(player))


def _alone(state: State, player: int, territory: str) -> bool:
    """CL-8.1: the player's pieces are the only pieces in the territory (partners count as friends, CL-C9)."""
    friends = state.team(player) if state.config.partners_share_territories else (player,)
    seats = state._seat_of_letter()
    own = False
    for row, column in state.island.territories[territory]:
        char = state.grid[row][column]
        if char == EMPTY or char.isupper():
            continue
        seat = seats[char]
        if seat == player:
            own = True
        elif seat not in friends:
            return False
    return own


def conquerable(state: State, player: int) -> tuple[str, ...]:
    """Territories where ``player`` may place a tower now (CL-8.1, CL-8.2, CL-5.2 claims)."""
    known = state.__dict__.get("_conquerable")
    if known is None:
        known = state.__dict__["_conquerable"] = {}  # this state's answers (never carried to another state)
    found = known.get(player)
    if found is None:
        found = known[player] = _conquerable(state, player)
    return found


def _conquerable(state: State, player: int) -> tuple[str, ...]:
    flat = state._flat()
    mine, tower, held, blocked = _sides(state)[player]
    if flat.count(tower) == TOWERS_EACH:  # no tower left in reserve (towers_in_reserve)
        return ()
    # each territory's characters read at once (the same test as _alone)
    claims = state.claims
    contents = state.island.contents
    found = []
    for territory in state.island.letters:
        chars = set(contents[territory](flat))
        if not chars.isdisjoint(held):
            continue
        if (player, territory) in claims or (mine in chars and chars.isdisjoint(blocked)):
            found.append(territory)
    return tuple(found)


def _sides(state: State) -> tuple[tuple[str, str, frozenset[str], frozenset[str]], ...]:
    """Per player: their piece letter, their tower letter, the tower letters of their side and the piece letters
    that are not a friend's (partners are friends if the config says so, CL-C9); once a game, kept beside the fields."""
    cached = state.__dict__.get("_sides_cache")
    if cached is None:
        seats = state._seat_of_letter()
        table = []
        for player in range(state.players):
            team = state.team(player)
            friends = team if state.config.partners_share_territories else (player,)
            held = frozenset(letter.upper() for letter, seat in seats.items() if seat in team)
            blocked = frozenset(letter for letter, seat in seats.items() if seat not in friends)
            table.append((state.letter(player), state.letter(player, tower=True), held, blocked))
        cached = tuple(table)
        object.__setattr__(state, "_sides_cache", cached)
    return cached


def _captures(state: State, mover: int, landing: Point) -> tuple[Point, ...]:
    """CL-7.1-7.3: enemy pieces or towers next to the landing point, held by a flanker or the edge beyond them."""
    seats = state._seat_of_letter()
    grid = state.grid
    on_island = state.island.territory
    found = []
    row, column = landing
    for dr, dc in DIRECTIONS:
        middle = (row + dr, column + dc)
        if middle not in on_island:
            continue
        char = grid[middle[0]][middle[1]]
        if char == EMPTY:
            continue
        victim = seats[char.lower()]
        if not state.enemies(mover, victim):
            continue
        beyond = (row + 2 * dr, column + 2 * dc)
        if beyond not in on_island:
            found.append(middle)  # CL-7.3: between an enemy piece and the edge of the board
            continue
        far = grid[beyond[0]][beyond[1]]
        if far == EMPTY:
            continue
        flanker = seats[far.lower()]
        # CL-7.1 same colour; CL-7.2 another enemy colour of the victim, and with 4 players an ally of the mover
        if state.enemies(victim, flanker) and (state.players < 4 or flanker in state.team(mover)):
            found.append(middle)
    return tuple(found)


def _jump_destinations(state: State, origin: Point) -> dict[Point, tuple[Point, ...]]:
    """Every point a jump chain from ``origin`` can end on, with a shortest path (CL-6.2, CL-C4)."""
    board = state.island
    found = _jump_paths(state._flat(), board, origin[0] * board.width + origin[1])
    return {board.flat_point[end]: path for end, path in found.items()}


def _jump_paths(flat: str, board: Island, start: int) -> dict[int, tuple[Point, ...]]:
    """The jump chains from flat index ``start`` by the flat index they end on, each with a shortest path: a
    breadth-first search, each round's landing points taken in order, so the path found for a point is always the
    same (flat indices sort as the points do)."""
    jumps = board.flat_jumps
    came_from: dict[int, int] = {start: start}  # also every point reached so far
    order: list[int] = []
    frontier = [start]
    while frontier:
        following = []
        for here in frontier:
            for over, land in jumps[here]:
                # the moving piece has left its origin: it cannot be jumped over, nor landed on again (CL-C4)
                if flat[land] != EMPTY or flat[over] == EMPTY or land in came_from or over == start:
                    continue
                came_from[land] = here
                following.append(land)
        following.sort()
        order.extend(following)
        frontier = following
    if not order:
        return {}
    points = board.flat_point
    best: dict[int, tuple[Point, ...]] = {start: ()}
    for land in order:  # a landing point comes after the one it was reached from
        best[land] = best[came_from[land]] + (points[land],)
    del best[start]
    return best


def _movements(state: State, origin: Point) -> list[Step | Jump]:
    board = state.island
    return _movements_reading(state._flat(), board, origin, origin[0] * board.width + origin[1])[0]


def _movements_reading(flat: str, board: Island, origin: Point, start: int) -> tuple[list[Step | Jump], int]:
    """The steps and jumps of the piece on ``origin`` (flat index ``start``), and the bit mask of the flat indices
    whose pieces they depend on (the list stays right while none of those points changes)."""
    moves: list[Step | Jump] = [step for near, step in board.flat_steps[start] if flat[near] == EMPTY]
    for over, land in board.flat_jumps[start]:
        if flat[over] != EMPTY and flat[land] == EMPTY:
            break
    else:
        return moves, board.flat_reads[start]  # not even a first jump
    # a jump chain ends an even number of rows and columns away, never on a neighbour: no step has the same end
    paths = _jump_paths(flat, board, start)
    masks = board.flat_reads
    reads = masks[start]
    for end in paths:
        reads |= masks[end]
    new = object.__new__
    for end in sorted(paths):  # Jump(origin, path) without the frozen dataclass's checked __init__, as _jump does
        move = new(Jump)
        move.__dict__.update(origin=origin, path=paths[end])
        moves.append(move)
    return moves, reads


_NOTHING_KEPT: tuple[dict[int, Any], int] = ({}, 0)


def _pieces_movements(state: State, player: int) -> list[Step | Jump]:
    """Every step and jump of the player's pieces, piece by piece: a piece's list from the player's last look (kept
    with the states that follow, :func:`_with`) is taken again when none of the points it depends on has changed."""
    flat = state._flat()
    board = state.island
    width = board.width
    kept = state.__dict__.get("_moves_kept") or {}
    old_entries, dirty = kept.get(player, _NOTHING_KEPT)
    entries: dict[int, tuple[list[Step | Jump], int]] = {}
    moves: list[Step | Jump] = []
    for origin in state.pieces(player):
        start = origin[0] * width + origin[1]
        entry = old_entries.get(start)
        if entry is None or dirty & entry[1]:
            entry = _movements_reading(flat, board, origin, start)
        entries[start] = entry
        moves += entry[0]
    # a new dict for this state (the old one may be shared with the states it was made from)
    state.__dict__["_moves_kept"] = {**kept, player: (entries, 0)}
    return moves


def _jump(origin: Point, path: tuple[Point, ...]) -> Jump:
    """``Jump(origin, path)`` for points the engine found itself: made without the frozen dataclass's checked
    ``__init__`` (the same object, several times faster to make; move lists hold many jumps)."""
    move = object.__new__(Jump)
    move.__dict__.update(origin=origin, path=path)
    return move


def _captures_after(state: State, move: Step | Jump, mover: int) -> tuple[Point, ...]:
    board = state.island
    origin, destination = move.origin, move.destination
    if origin in board.territory and destination in board.territory:
        width = board.width
        found = _captured(
            state._flat(),
            board.flat_lines[destination[0] * width + destination[1]],
            _victims(state)[mover],
            origin[0] * width + origin[1],
        )
        return tuple(board.flat_point[index] for index in found)
    letter = state.letter(mover)
    moved = _set(state.grid, {origin: EMPTY, destination: letter})
    return _captures(_with(state, grid=moved), mover, destination)


def _captured(flat: str, lines: tuple[tuple[int, int], ...], victims: dict[str, frozenset[str]], left: int) -> list:
    """:func:`_captures` read in the joined rows before the move: the flat indices of the pieces and towers
    captured on landing where ``lines`` (Island.flat_lines) start, the piece having left ``left`` (empty now)."""
    found = []
    for middle, beyond in lines:
        flankers = victims.get(flat[middle])  # None: empty, or not the mover's enemy
        if flankers is None or middle == left:
            continue
        if beyond < 0 or (beyond != left and flat[beyond] in flankers):
            found.append(middle)
    return found


def _victims(state: State) -> tuple[dict[str, frozenset[str]], ...]:
    """Per mover, each enemy piece or tower letter with the letters that capture it from beyond (CL-7.1, CL-7.2:
    another enemy of the victim, and with 4 players an ally of the mover), the test of :func:`_captures` as a
    table; worked out once a game (kept beside the fields, as the seats are)."""
    cached = state.__dict__.get("_victims_cache")
    if cached is None:
        chars = {seat: (letter, letter.upper()) for letter, seat in state._seat_of_letter().items()}
        table = []
        for mover in range(state.players):
            victims = {}
            for victim in range(state.players):
                if not state.enemies(mover, victim):
                    continue
                flankers = frozenset(
                    char
                    for flanker in range(state.players)
                    if state.enemies(victim, flanker) and (state.players < 4 or flanker in state.team(mover))
                    for char in chars[flanker]
                )
                victims.update(dict.fromkeys(chars[victim], flankers))
            table.append(victims)
        cached = tuple(table)
        object.__setattr__(state, "_victims_cache", cached)
    return cached


def legal_moves(state: State) -> tuple[AnyMove, ...]:
    """Every legal move in a stable order; one step or jump per (origin, destination); () at the end."""
    if state.result is not None:
        return ()
    player = state.turn
    if state.phase == "placement":
        flat = state._flat()
        return tuple([place for index, place in state.island.flat_places if flat[index] == EMPTY])
    if state.phase == "removal":
        return tuple(Remove(point) for point in _removable(state, player))
    if state.phase == "towers":
        return _tower_moves(state, player) + (Stop(),)
    moves: list[AnyMove] = list(_tower_moves(state, player))
    if state.follow_up is not None:
        moves.extend(m for m in _movements(state, state.follow_up) if _captures_after(state, m, player))
        moves.append(Stop())
        return tuple(moves)
    before = len(moves)
    moves.extend(_pieces_movements(state, player))
    if len(moves) == before:
        moves.append(Pass())
    return tuple(moves)


def _tower_moves(state: State, player: int) -> tuple[PlaceTower, ...]:
    if not conquerable(state, player):
        return ()
    return tuple(
        PlaceTower(territory, point)
        for territory in conquerable(state, player)
        for point in state.island.territories[territory]
        if state.grid[point[0]][point[1]] == EMPTY
    )


def _removable(state: State, player: int) -> list[Point]:
    """The enemy pieces ``player`` may take off now (CL-5.1), keeping every later removal possible (CL-C3)."""
    seats = state._seat_of_letter()
    found: dict[int, list[Point]] = {}
    # a seat may lose a piece: an enemy, and with 3 or 4 players one that has lost fewer than 4 (counted once a seat)
    open_to = {
        seat
        for seat in range(state.players)
        if state.enemies(player, seat) and (state.players == 2 or _lost(state, seat) < REMOVALS_EACH)
    }
    where = state._where()
    for letter, seat in seats.items():  # each victim's pieces (lower-case letters: never a tower)
        if seat in open_to and letter in where:
            found[seat] = list(where[letter])
    balanced = _balanced_victims(state, player, found)
    return sorted(point for victim, points in found.items() if victim in balanced for point in points)


def _balanced_victims(state: State, player: int, candidates: dict[int, list[Point]]) -> set[int]:
    """CL-C3: with 3 or 4 players the losses are capped at 4 and the removals total exactly the caps, so a removal is
    allowed only if all the removals still to come can be made afterwards (every player then loses 4).  A position
    where that is impossible already (a diagram) keeps the plain CL-5.1 rule."""
    if state.players == 2:
        return set(candidates)
    lost = [_lost(state, seat) for seat in range(state.players)]
    left = list(state.removals_left)
    left[player] -= 1
    fine = set()
    for victim in candidates:
        lost[victim] += 1
        if _can_finish(state, tuple(left), tuple(lost)):
            fine.add(victim)
        lost[victim] -= 1
    return fine or set(candidates)


def _can_finish(state: State, left: tuple[int, ...], lost: tuple[int, ...]) -> bool:
    """Whether every player can still make their ``left`` removals with nobody losing more than 4 (a small search:
    at most 4 removals each, split over at most 3 opponents)."""
    return _finishable(state.players, left, lost)


@lru_cache(maxsize=4096)
def _finishable(players: int, left: tuple[int, ...], lost: tuple[int, ...]) -> bool:
    """:func:`_can_finish` for a player count (who is whose enemy depends on nothing else), remembered: the removal
    phase asks it of few different counts, once for every candidate of every removal."""
    room = [REMOVALS_EACH - count for count in lost]
    enemies_of = [list(_enemies_of(players, seat)) for seat in range(players)]

    def split(seat: int) -> bool:
        if seat == players:
            return True
        return any(split(seat + 1) for _ in _shares(left[seat], enemies_of[seat], room))

    return split(0)


def _enemies_of(players: int, seat: int) -> tuple[int, ...]:
    """The seats that are ``seat``'s enemies (with 4 players, the two of the other alliance, CL-2.2)."""
    team = (seat % 2, seat % 2 + 2) if players == 4 else (seat,)
    return tuple(other for other in range(players) if other not in team)


def _shares(count: int, enemies: list[int], room: list[int]) -> Any:
    """Every way to take ``count`` pieces from ``enemies`` within their ``room``; ``room`` is updated in place while
    each way is tried (a generator used by the search above)."""
    if count == 0:
        yield ()
        return
    if not enemies:
        return
    first, rest = enemies[0], enemies[1:]
    for taken in range(min(count, room[first]), -1, -1):
        room[first] -= taken
        yield from (((first, taken), *more) for more in _shares(count - taken, rest, room))
        room[first] += taken


def chance_outcomes(state: State) -> tuple:
    """Claim has no chance: always ``()``."""
    return ()


def check(state: State, move: Any) -> IllegalMove | None:
    """The ``IllegalMove`` that ``apply`` would raise for this move, or None if it is legal (same code path). A
    malformed move (not a Claim move, a point that is not a pair of numbers), which ``apply`` refuses with a
    ValueError, is refused here too, by the paragraph on what is played when (CL-3.1): ``check`` answers every
    move and raises for none, as Meetjesland's does (issue 48.6)."""
    try:
        _play(state, move)
    except IllegalMove as error:
        return error
    except ValueError as error:
        return IllegalMove("CL-3.1", f"Claim: {error}")
    return None


def apply(state: State, move: Any) -> State:
    """The state after a legal move (a new State; the old one is unchanged). Illegal moves raise ``IllegalMove``."""
    new = _play(state, move)
    if new is state:  # (no rule returns the state itself; if one did, it must not be changed)
        new = _with(state)
    new.__dict__["history"] = state.history + (move,)  # a state made just now, seen by nobody else yet
    return new


def outcome(state: State) -> Outcome | None:
    """None while playing; the ``Outcome`` once a side has its towers or the game has stopped (CL-C11)."""
    return state.result


_PHASE_MOVES: dict[str, type] = {"placement": Place, "removal": Remove}  # the only move of these phases


def _play(state: State, move: Any) -> State:
    if not isinstance(move, _MOVE_TYPES):
        raise ValueError(f"not a Claim move: {short(move)}")  # noqa: TRY004 - malformed input is a ValueError here
    _check_fields(state, move)
    if state.result is not None:
        raise IllegalMove("CL-10.1", f"Claim: the game is over ({state.result.reason}); no {describe(move)} now")
    colour = state.colours[state.turn]
    expected = _PHASE_MOVES.get(state.phase)
    if expected is not None and not isinstance(move, expected):
        raise IllegalMove("CL-3.1", f"Claim: it is the {state.phase} phase; {colour} cannot {describe(move)} now")
    if state.phase == "towers" and not isinstance(move, (PlaceTower, Stop)):
        raise IllegalMove(
            "CL-5.2",
            f"Claim: the removals are over and {colour} may first put towers in the territories held alone, or Stop; "
            f"{colour} cannot {describe(move)} before the battle",
        )
    if expected is None and isinstance(move, (Place, Remove)):
        raise IllegalMove("CL-3.1", f"Claim: it is the battle phase; {colour} cannot {describe(move)} now")
    if isinstance(move, Place):
        return _place(state, move)
    if isinstance(move, Remove):
        return _remove(state, move)
    if isinstance(move, PlaceTower):
        return _place_tower(state, move)
    if isinstance(move, Stop) and state.phase == "towers":
        return _next_tower_player(_drop_claims(state, state.turn), state.turn)
    if isinstance(move, Stop):
        if state.follow_up is None:
            raise IllegalMove(
                "CL-7.4", f"Claim: {colour} has made no capture this turn, so there is no series of captures to stop"
            )
        return _end_turn(state)
    if isinstance(move, Pass):
        if state.follow_up is not None or any(_movements(state, piece) for piece in state.pieces(state.turn)):
            raise IllegalMove("CL-C10", f"Claim: {colour} can still move a piece, so {colour} may not pass")
        return _end_turn(state)
    return _move(state, move)


def _check_fields(state: State, move: Any) -> None:
    """Malformed fields are a ValueError before any rule is looked at, so a refusal never has to quote them."""
    if isinstance(move, (Place, Remove)):
        _point(move.point)
    elif isinstance(move, Step):
        _point(move.origin, "origin")
        _point(move.destination, "destination")
    elif isinstance(move, Jump):
        _point(move.origin, "origin")
        if not isinstance(move.path, tuple):
            raise ValueError(f"a jump's path must be a tuple of landing points, got {short(move.path)}")
        if move.path:
            if len(move.path) > len(state.island.points):
                raise ValueError(f"a jump chain lands on at most {len(state.island.points)} points on this island")
            for landing in move.path:
                _point(landing, "jump landing point")
    elif isinstance(move, PlaceTower):
        if not isinstance(move.territory, str) or len(move.territory) != 1:
            raise ValueError(f"a tower's territory must be a territory letter, got {short(move.territory)}")
        _point(move.point)


def _place(state: State, move: Place) -> State:
    point = _point(move.point)
    if state._count(state.letter(state.turn)) >= PIECES_EACH:
        raise IllegalMove("CL-1.1", f"Claim: {state.colours[state.turn]} has placed all {PIECES_EACH} pieces")
    if point not in state.island:
        raise IllegalMove("CL-4.2", f"Claim: {point} is not a point of the island")
    if state.at(point) != EMPTY:
        raise IllegalMove("CL-4.2", f"Claim: the point {point} is taken ({_describe(state, point)})")
    grid = _set(state.grid, {point: state.letter(state.turn)})
    new = _with(state, grid=grid)
    placed = new._count(state.letter(state.turn))
    if placed % PLACED_PER_TURN and placed < PIECES_EACH:
        return new  # CL-4.2: the second piece of the pair follows
    following = (state.turn + 1) % state.players
    if all(new._count(new.letter(p)) == PIECES_EACH for p in range(state.players)):
        return _start_removal(new)
    return _with(new, turn=following)


def _start_removal(state: State) -> State:
    state = _with(state, phase="removal", turn=state.first, removals_left=(REMOVALS_EACH,) * state.players)
    return _next_remover(state, state.first)


def _next_remover(state: State, start: int) -> State:
    """The first player from ``start`` in seat order with removals left and something to remove (CL-C3)."""
    left = list(state.removals_left)
    for offset in range(state.players):
        seat = (start + offset) % state.players
        if left[seat] > 0 and _removable(state, seat):
            return _with(state, turn=seat, removals_left=tuple(left))
        left[seat] = 0
    return _start_battle(_with(state, removals_left=tuple(left)))


def _start_battle(state: State) -> State:
    # CL-5.2: a territory held alone after the removals is conquered at once.  As the text says, its holder puts the
    # tower down before anyone moves: a round of towers in seat order from the first player ("at once").  The option
    # "first battle turn" keeps the claim until the holder's first battle turn instead, even if an enemy walks in.
    claims = frozenset(
        (player, territory)
        for player in range(state.players)
        for territory in state.island.letters
        if _alone(state, player, territory)
    )
    if state.config.removal_towers == "first battle turn" or not claims:
        return _with(state, phase="battle", turn=state.first, claims=claims, quiet_turns=0)
    towers = _with(state, phase="towers", turn=state.first, claims=claims, quiet_turns=0)
    if _tower_moves(towers, state.first):
        return towers
    return _next_tower_player(towers, state.first)


def _next_tower_player(state: State, after: int) -> State:
    """The next player, in seat order up to the first player again, who may put a tower after the removals; when
    there is none, the battle begins with the first player (unused claims are gone: CL-C3)."""
    order = [(state.first + offset) % state.players for offset in range(state.players)]
    for seat in order[order.index(after) + 1 :]:
        if _tower_moves(state, seat):
            return _with(state, turn=seat)
    return _with(state, phase="battle", turn=state.first, claims=frozenset(), quiet_turns=0)


def _drop_claims(state: State, player: int) -> State:
    return _with(state, claims=frozenset(claim for claim in state.claims if claim[0] != player))


def _remove(state: State, move: Remove) -> State:
    point = _point(move.point)
    colour = state.colours[state.turn]
    if point not in state.island or state.at(point) == EMPTY:
        raise IllegalMove("CL-5.1", f"Claim: there is no piece on {point} for {colour} to remove")
    victim = state.owner(point)
    assert victim is not None
    if not state.enemies(state.turn, victim):
        raise IllegalMove(
            "CL-5.1", f"Claim: {colour} may only remove enemy pieces; {point} holds {_describe(state, point)}"
        )
    if state.players > 2 and _lost(state, victim) >= REMOVALS_EACH:
        raise IllegalMove(
            "CL-5.1", f"Claim: {state.colours[victim]} has already lost {REMOVALS_EACH} pieces and may lose no more"
        )
    if point not in _removable(state, state.turn):
        allowed = sorted(
            {state.colours[owner] for p in _removable(state, state.turn) if (owner := state.owner(p)) is not None}
        )
        raise IllegalMove(
            "CL-C3",
            f"Claim: if {colour} took a {state.colours[victim]} piece now, a later player could not make all "
            f"{REMOVALS_EACH} removals; {colour} must take a {' or '.join(allowed)} piece",
        )
    left = list(state.removals_left)
    left[state.turn] -= 1
    new = _with(state, grid=_set(state.grid, {point: EMPTY}), removals_left=tuple(left), touched=(point,))
    if left[state.turn] > 0 and _removable(new, state.turn):
        return new
    left[state.turn] = 0
    return _next_remover(_with(new, removals_left=tuple(left)), (state.turn + 1) % state.players)


def _place_tower(state: State, move: PlaceTower) -> State:
    point = _point(move.point)
    player = state.turn
    colour = state.colours[player]
    territory = move.territory
    if not isinstance(territory, str):
        raise ValueError(f"a tower's territory must be a territory letter, got {short(territory)}")
    if territory not in state.island.territories:
        raise IllegalMove("CL-8.1", f"Claim: there is no territory {short(territory)} on this island")
    if state.towers_in_reserve(player) == 0:
        raise IllegalMove("CL-1.1", f"Claim: {colour} has no tower left to place")
    holder = state.tower_owner(territory)
    if holder is not None and holder in state.team(player):
        raise IllegalMove("CL-8.1", f"Claim: territory {territory} already has a {state.colours[holder]} tower")
    if territory not in conquerable(state, player):
        raise IllegalMove(
            "CL-8.1",
            f"Claim: {colour} has not conquered territory {territory}: other pieces stand in it"
            if any(state.owner(p) is not None and not state.is_tower(p) for p in state.island.territories[territory])
            else f"Claim: {colour} has no piece in territory {territory}",
        )
    changes: dict[Point, str] = {}
    if holder is not None:
        # CL-8.2: the enemy tower is taken off and given back to its owner
        changes.update({p: EMPTY for p in state.island.territories[territory] if state.is_tower(p)})
    if point not in state.island or state.island.territory[point] != territory:
        raise IllegalMove("CL-8.1", f"Claim: {point} is not a point of territory {territory}")
    if state.at(point) != EMPTY and point not in changes:
        raise IllegalMove("CL-8.1", f"Claim: the point {point} is taken ({_describe(state, point)})")
    changes[point] = state.letter(player, tower=True)
    claims = frozenset(claim for claim in state.claims if claim[1] != territory)
    new = _with(state, grid=_set(state.grid, changes), claims=claims, quiet_turns=0, touched=tuple(changes))
    side = state.team(player)
    towers = sum(len(new.towers(p)) for p in side)
    if towers >= tower_target(state.players):
        names = "+".join(state.colours[p] for p in side)
        won = Outcome(winners=side, reason=f"{names} placed {towers} towers", scores=_scores(new))
        return _with(new, result=won, follow_up=None, claims=frozenset())
    if new.phase == "towers" and not _tower_moves(new, player):
        return _next_tower_player(_drop_claims(new, player), player)
    if new.follow_up is not None and not _follow_up_options(new):
        return _end_turn(new)
    return new


def _scores(state: State) -> tuple[int, ...]:
    return tuple(len(state.towers(p)) for p in range(state.players))


def _move(state: State, move: Step | Jump) -> State:
    player = state.turn
    colour = state.colours[player]
    origin = _point(move.origin, "origin")
    board = state.island
    width = board.width
    flat = state._flat()  # the grid's rows joined: a point inside its box is flat[row * width + column]
    char = flat[origin[0] * width + origin[1]] if origin in board.territory else NO_POINT
    if char == EMPTY or char == NO_POINT:
        raise IllegalMove("CL-6.1", f"Claim: there is no piece on {origin} to move")
    if state._seat_of_letter()[char.lower()] != player:
        raise IllegalMove("CL-6.1", f"Claim: {origin} holds {_describe(state, origin)}, not a {colour} piece")
    if char.isupper():
        raise IllegalMove("CL-9.1", f"Claim: the {colour} tower on {origin} cannot move")
    if state.follow_up is not None and origin != state.follow_up:
        raise IllegalMove(
            "CL-7.4", f"Claim: only the piece on {state.follow_up} that has just captured may move again this turn"
        )
    if isinstance(move, Step):
        destination = _point(move.destination, "destination")
        if destination not in board.neighbours[origin]:
            raise IllegalMove("CL-6.1", f"Claim: {destination} is not an orthogonal neighbour of {origin}")
        if flat[destination[0] * width + destination[1]] != EMPTY:
            raise IllegalMove("CL-6.1", f"Claim: {destination} is taken ({_describe(state, destination)})")
    else:
        if not isinstance(move.path, tuple) or not move.path:
            raise IllegalMove("CL-6.2", "Claim: a jump needs at least one landing point")
        seen = {origin}
        here = origin
        for landing in move.path:
            landing = _point(landing, "jump landing point")
            difference = (landing[0] - here[0], landing[1] - here[1])
            if difference not in ((2, 0), (-2, 0), (0, 2), (0, -2)):
                raise IllegalMove("CL-6.2", f"Claim: {here} -> {landing} is not a jump over one neighbouring point")
            over = (here[0] + difference[0] // 2, here[1] + difference[1] // 2)
            if landing not in board.territory:
                raise IllegalMove("CL-6.2", f"Claim: a jump from {here} would leave the island at {landing}")
            # ``over`` lies between two points of the island, so inside the grid's box
            if over == origin or flat[over[0] * width + over[1]] == EMPTY:
                raise IllegalMove("CL-6.2", f"Claim: there is no piece or tower on {over} to jump over")
            if landing in seen:
                raise IllegalMove("CL-C4", f"Claim: a jump chain may not come back to {landing}")
            if flat[landing[0] * width + landing[1]] != EMPTY:
                raise IllegalMove(
                    "CL-6.2", f"Claim: the landing point {landing} is taken ({_describe(state, landing)})"
                )
            seen.add(landing)
            here = landing
        destination = here
    moved = _set(state.grid, {origin: EMPTY, destination: state.letter(player)})
    found = _captured(
        flat,
        board.flat_lines[destination[0] * width + destination[1]],
        _victims(state)[player],
        origin[0] * width + origin[1],
    )
    captured = tuple(board.flat_point[index] for index in found)
    if state.follow_up is not None and not captured:
        raise IllegalMove(
            "CL-7.4",
            f"Claim: the piece on {origin} may move again only to capture, and {describe(move)} captures nothing",
        )
    if not captured:
        # CL-C7: conquests not used before moving are given up for this turn
        return _end_turn(state, grid=moved, touched=(origin, destination))
    claims = set(state.claims)
    for point in captured:
        if state.is_tower(point):
            # CL-8.2 / CL-9.1: a captured tower goes back to its owner; the capturer has conquered the territory
            territory = board.territory[point]
            claims = {claim for claim in claims if claim[1] != territory}
            claims.add((player, territory))
    grid = _set(moved, dict.fromkeys(captured, EMPTY))
    touched = (origin, destination, *captured)
    new = _with(state, grid=grid, claims=frozenset(claims), follow_up=destination, quiet_turns=0, touched=touched)
    if _follow_up_options(new):
        return new
    return _end_turn(new)


def _follow_up_options(state: State) -> bool:
    """Whether the turn goes on: a further capture for the piece that captured, or a tower to place."""
    if conquerable(state, state.turn):
        return True
    assert state.follow_up is not None
    board = state.island
    flat = state._flat()
    start = state.follow_up[0] * board.width + state.follow_up[1]
    lines = board.flat_lines
    victims = _victims(state)[state.turn]
    ends = [near for near, _ in board.flat_steps[start] if flat[near] == EMPTY]
    ends.extend(_jump_paths(flat, board, start))
    return any(_captured(flat, lines[end], victims, start) for end in ends)


def _end_turn(state: State, **changes: Any) -> State:
    """Pass the turn on (with ``changes`` made to the state in the same step)."""
    player = state.turn
    claims = frozenset(claim for claim in state.claims if claim[0] != player) if state.claims else state.claims
    quiet = state.quiet_turns + 1
    changes.update(claims=claims, follow_up=None, quiet_turns=quiet, turn=(player + 1) % state.players)
    new = _with(state, **changes)
    if quiet >= state.config.quiet_turn_limit:
        return _with(new, result=stalled_outcome(new))
    return new


def stalled_outcome(state: State) -> Outcome:
    """CL-C11: the side with most towers wins a stalled game (a tie, or the "draw" option, is a draw)."""
    scores = _scores(state)
    reason = f"{state.config.quiet_turn_limit} turns without a capture or a tower"
    if state.config.stalled_result == "draw":
        return Outcome(winners=(), reason=reason + ": draw", scores=scores)
    totals = {side: sum(scores[p] for p in side) for side in teams_of(state.players)}
    best = max(totals.values())
    leaders = [side for side, total in totals.items() if total == best]
    if len(leaders) > 1:
        return Outcome(winners=(), reason=reason + ": draw, equal towers", scores=scores)
    return Outcome(winners=leaders[0], reason=reason + ": most towers", scores=scores)


def _describe(state: State, point: Point) -> str:
    char = state.at(point)
    if char == EMPTY:
        return "empty"
    if char == NO_POINT:
        return "off the island"
    colour = state.colours[state._seat_of_letter()[char.lower()]]
    return f"a {colour} {'tower' if char.isupper() else 'piece'}"


def captures_of(state: State, move: Step | Jump) -> tuple[Point, ...]:
    """The pieces and towers a legal step or jump would capture (for highlighting and bots)."""
    return _captures_after(state, move, state.turn)


def moves_from(state: State, origin: Point) -> tuple[Step | Jump, ...]:
    """The legal steps and jumps of the piece on ``origin`` right now (empty if it may not move)."""
    return tuple(m for m in legal_moves(state) if isinstance(m, (Step, Jump)) and m.origin == origin)
