"""Where the Meetjesland map's texts go, in the page's pixels: the territories' names (placed once per map size) and
the marks of the last move and of a hint (placed at each redraw), so that no text lies over another text, over a
territory's piece or halo, or over an arrowhead.

The map is drawn at a scale fixed here (:class:`Geometry` gives the axes' ranges), so a box computed in Python is
where the page draws it. Text widths are Arial's (Helvetica and Liberation Sans share them): the map names that
font, so every browser measures its names alike.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import rules

Box = tuple[float, float, float, float]  # left, top, right, bottom in px (y grows downwards, as in the page)

FONT = "Arial, Helvetica, Liberation Sans"  # one set of metrics everywhere (board.js adds sans-serif after them)
NAME_PX = 11  # no text of the map is smaller
MARK_PX = 11
LINE_PX = 13  # the height of one line of 11 px text, with a pixel to spare
PIECE = 15.5  # px: half the side of the square round every piece's shape (a diamond's tips); no name enters it
PIECE_SIZE = 23  # px: a piece's marker size (its "radius" in board.js is half of it), drawn with a 1.5 px edge
# how far each piece's shape reaches from its point (left and right, up, down) in board.js's drawing, in radii: the
# marks of a move, placed with the owners known, keep clear of the shape itself
SHAPE_REACH = {
    "circle": (1.0, 1.0, 1.0),
    "square": (1.0, 1.0, 1.0),
    "diamond": (1.3, 1.3, 1.3),
    "triangle-up": (2 / math.sqrt(3), 1.0, 0.5),
    "pentagon": (math.sin(math.radians(72)), 1.0, math.cos(math.radians(36))),
    "hexagram": (1.32 * math.sin(math.radians(60)), 1.32, 1.32),
}
MARGIN = 5  # px: the map's margin on every side (the figure's layout.margin)
EDGE_ROOM = 26  # px between the outermost points and the map's edge
ARROW_TIP = 14.0  # px from a point's centre to the tip of an arrow ending there (and to where it starts)
ARROW_SIZE = 12  # the last move's arrowheads, px
HINT_ARROW_SIZE = 14  # the hint's arrowhead, px
DISTANCES = (17, 19, 22, 26, 31, 37, 44)  # px from a point to a name's box: nearer, a box always meets the square
MARK_DISTANCES = (13, 15, 17, 19, 22, 26, 31, 37)  # and to a mark's (clear of the piece's own shape)
# what a place costs for what it covers, against MISREAD (2000) for each point it could be taken for, LEADER (600)
# and 2 per px from its own point: a text over a piece is worst, then over another text or an arrow
COVERS_PIECE, COVERS_TEXT, MISREAD, LEADER = 20000, 5000, 2000, 600
LEADER_STOP = 13.0  # px from a piece's centre where a name's leader line stops

# advance widths in em (Arial, regular and bold); a character not listed counts as 0.6 em
_REGULAR = dict(zip("0123456789", [0.556] * 10))
_REGULAR.update({" ": 0.278, "+": 0.584, "−": 0.584, "-": 0.333, ":": 0.278, "A": 0.667, "B": 0.667, "D": 0.722})
_REGULAR.update({"E": 0.667, "H": 0.722, "J": 0.5, "K": 0.667, "L": 0.556, "M": 0.833, "N": 0.722, "O": 0.778})
_REGULAR.update({"P": 0.667, "R": 0.722, "S": 0.667, "U": 0.722, "V": 0.667, "W": 0.944, "Z": 0.611, "a": 0.556})
_REGULAR.update({"b": 0.556, "c": 0.5, "d": 0.556, "e": 0.556, "f": 0.278, "g": 0.556, "h": 0.556, "i": 0.222})
_REGULAR.update({"j": 0.222, "k": 0.5, "l": 0.222, "m": 0.833, "n": 0.556, "o": 0.556, "p": 0.556, "r": 0.333})
_REGULAR.update({"s": 0.5, "t": 0.278, "u": 0.556, "v": 0.5, "w": 0.722, "x": 0.5, "y": 0.5, "z": 0.5})
_BOLD = dict(_REGULAR)
_BOLD.update({":": 0.333, "A": 0.722, "B": 0.722, "J": 0.556, "K": 0.722, "L": 0.611, "b": 0.611, "c": 0.556})
_BOLD.update({"d": 0.611, "f": 0.333, "g": 0.611, "h": 0.611, "i": 0.278, "j": 0.278, "k": 0.556, "l": 0.278})
_BOLD.update({"m": 0.889, "n": 0.611, "o": 0.611, "p": 0.611, "q": 0.611, "r": 0.389, "s": 0.556, "t": 0.333})
_BOLD.update({"u": 0.611, "v": 0.556, "w": 0.778, "x": 0.556, "y": 0.556})


def text_width(text: str, size: float = NAME_PX, bold: bool = False) -> float:
    """The width of ``text`` in px as the map draws it, with 4 % and a pixel to spare (fonts round differently)."""
    widths = _BOLD if bold else _REGULAR
    return sum(widths.get(character, 0.6) for character in text) * size * 1.04 + 1


def overlap(a: Box, b: Box, gap: float = 0.0) -> float:
    """The area two boxes share, each grown by ``gap`` px (0 when they are at least ``gap`` apart)."""
    dx = min(a[2], b[2]) - max(a[0], b[0]) + gap
    dy = min(a[3], b[3]) - max(a[1], b[1]) + gap
    return dx * dy if dx > 0 and dy > 0 else 0.0


def gap(point: tuple[float, float], box: Box) -> float:
    """The distance from a point to the nearest point of a box (0 inside it)."""
    dx = max(box[0] - point[0], 0.0, point[0] - box[2])
    dy = max(box[1] - point[1], 0.0, point[1] - box[3])
    return math.hypot(dx, dy)


def centred(x: float, y: float, width: float, height: float) -> Box:
    return (x - width / 2, y - height / 2, x + width / 2, y + height / 2)


@dataclass(frozen=True)
class Geometry:
    """The map's pixels: ``scale`` px per km, the centre of the data at the centre of the drawing."""

    width: int
    height: int
    scale: float
    centre: tuple[float, float]

    @property
    def x_range(self) -> list[float]:
        half = (self.width - 2 * MARGIN) / 2 / self.scale
        return [self.centre[0] - half, self.centre[0] + half]

    @property
    def y_range(self) -> list[float]:
        half = (self.height - 2 * MARGIN) / 2 / self.scale
        return [self.centre[1] - half, self.centre[1] + half]

    def px(self, x: float, y: float) -> tuple[float, float]:
        """Where the point (x, y) in km is drawn, px from the map's top left corner."""
        return self.width / 2 + (x - self.centre[0]) * self.scale, self.height / 2 - (y - self.centre[1]) * self.scale

    def km(self, x: float, y: float) -> tuple[float, float]:
        """The point (km) drawn at (x, y) px."""
        return self.centre[0] + (x - self.width / 2) / self.scale, self.centre[1] - (y - self.height / 2) / self.scale

    def inside(self, box: Box) -> bool:
        """Whether a box lies within the drawing (which cuts off what reaches past its margin)."""
        return (
            box[0] >= MARGIN + 1
            and box[1] >= MARGIN + 1
            and box[2] <= self.width - MARGIN - 1
            and (box[3] <= self.height - MARGIN - 1)
        )


def geometry(board: rules.Map, width: int, height: int) -> Geometry:
    """The scale at which every territory and its halo fit in a map of ``width`` x ``height`` px."""
    xs = [board.position(t)[0] for t in board.territories]
    ys = [board.position(t)[1] for t in board.territories]
    room = 2 * (MARGIN + EDGE_ROOM)
    scale = min((width - room) / ((max(xs) - min(xs)) or 1), (height - room) / ((max(ys) - min(ys)) or 1))
    return Geometry(width, height, scale, ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2))


def arrow_ends(start: tuple[float, float], end: tuple[float, float]) -> tuple[tuple[float, float], tuple[float, float]]:
    """An arrow between two points (px), stopped ``ARROW_TIP`` short of both (less on a short one)."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    cut = min(ARROW_TIP, length * 0.3) / length
    return (start[0] + dx * cut, start[1] + dy * cut), (end[0] - dx * cut, end[1] - dy * cut)


def arrow_head(start: tuple[float, float], end: tuple[float, float], size: float) -> Box:
    """The box the page gives an arrow's head (px): board.js's arrow turned along the line, its box that of its own
    box turned (as a browser measures a turned path)."""
    tail, tip = arrow_ends(start, end)
    dx, dy = tip[0] - tail[0], tip[1] - tail[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    radius = size / 2
    corners = [
        (tip[0] - ux * along - uy * side, tip[1] - uy * along + ux * side)
        for along in (0.0, 1.9 * radius)
        for side in (-0.62 * radius, 0.62 * radius)
    ]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return (min(xs), min(ys), max(xs), max(ys))


def name_forms(name: str) -> list[tuple[str, ...]]:
    """The ways to write a name on the map: on one line, and a hyphenated one also on two, broken after the hyphen
    that best balances them ("Kerkbrugge-", "Langerbrugge")."""
    breaks = [i + 1 for i, character in enumerate(name) if character == "-"]
    if not breaks:
        return [(name,)]
    cut = min(breaks, key=lambda i: abs(text_width(name[:i]) - text_width(name[i:])))
    return [(name,), (name[:cut], name[cut:])]


def _ring(half_w: float, half_h: float, distance: float, step: float = 5.0) -> list[tuple[float, float]]:
    """Offsets of a box's centre from a point at which the box is ``distance`` px from the point: round the box's
    four sides and four corners, about ``step`` px apart; below the point first, then above, right and left."""
    below, side = half_h + distance, half_w + distance

    def along(length: float) -> list[float]:
        count = max(1, round(length / step))
        return sorted((-1 + 2 * k / count for k in range(count + 1)), key=abs) if count > 1 else [0.0]

    offsets = [(half_w * f, below) for f in along(2 * half_w)] + [(half_w * f, -below) for f in along(2 * half_w)]
    offsets += [(side, half_h * f) for f in along(2 * half_h)] + [(-side, half_h * f) for f in along(2 * half_h)]
    arcs = max(1, round(distance * math.pi / 2 / step))
    for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
        for k in range(1, arcs):
            angle = math.pi / 2 * k / arcs
            offsets.append((sx * (half_w + distance * math.sin(angle)), sy * (half_h + distance * math.cos(angle))))
    return offsets


@dataclass(frozen=True)
class Place:
    """Where a text may go: its box, its lines (a name's; () for a mark) and the cost of what it covers there
    that stays put (pieces, points it would be mistaken for)."""

    cost: float
    box: Box
    lines: tuple[str, ...] = ()
    leader: bool = False  # a name drawn with a line to its piece (it stands nearer another)


@dataclass(frozen=True)
class Name:
    """A territory's name as drawn: its lines, each centred at (x, y) px, and the box round them all."""

    territory: str
    lines: tuple[tuple[str, float, float], ...]
    box: Box
    leader: tuple[tuple[float, float], tuple[float, float]] | None = None  # from the box to the piece, px


def _name(territory: str, place: Place, point: tuple[float, float]) -> Name:
    middle, top = (place.box[0] + place.box[2]) / 2, place.box[1] + LINE_PX / 2
    lines = tuple((line, middle, top + k * LINE_PX) for k, line in enumerate(place.lines))
    return Name(territory, lines, place.box, leader(place.box, point) if place.leader else None)


@dataclass(frozen=True)
class MapLabels:
    """A map drawn at one size: its geometry, its points (px), every territory's name and the other places each
    name could take (tried when an arrow is drawn over it)."""

    geometry: Geometry
    points: tuple[tuple[float, float], ...]
    names: tuple[Name, ...] = ()
    places: tuple[tuple[Place, ...], ...] = ()  # per territory, every place its name may take
    chosen: tuple[Place, ...] = ()  # per territory, the place its name takes when no arrow is in the way
    # the places of marks already asked for, by territory, size and the shapes of the pieces round it
    marks: dict[tuple[Any, ...], tuple[Place, ...]] = field(default_factory=dict, compare=False, repr=False)

    def mark_places(self, mark: Mark, shapes: Sequence[str] | None) -> tuple[Place, ...]:
        """The places of a mark beside its territory, clear of the pieces as drawn now (kept: a redraw asks for
        the same marks again)."""
        reach = max(mark.width, mark.height) / 2 + 60
        near = self.near(mark.territory, reach)
        key = (mark.territory, mark.width, mark.height, None if shapes is None else tuple(shapes[j] for j in near))
        if key not in self.marks:
            pieces = piece_boxes(self.points, shapes)
            self.marks[key] = _places(self, mark.territory, (), (mark.width, mark.height), pieces)
        return self.marks[key]

    def near(self, index: int, reach: float) -> list[int]:
        """The points within ``reach`` px (in x and in y) of point ``index``, itself included."""
        x, y = self.points[index]
        return [j for j, (a, b) in enumerate(self.points) if abs(a - x) <= reach and abs(b - y) <= reach]


def piece_boxes(points: Sequence[tuple[float, float]], shapes: Sequence[str] | None = None) -> list[Box]:
    """The box round each piece, a pixel to spare: the square every shape fits in (``PIECE``), or, with the shapes
    drawn now (plotly's symbol names), each shape's own box."""
    boxes = []
    for index, (x, y) in enumerate(points):
        if shapes is None:
            boxes.append((x - PIECE - 1, y - PIECE - 1, x + PIECE + 1, y + PIECE + 1))
            continue
        side, up, down = SHAPE_REACH.get(shapes[index], SHAPE_REACH["diamond"])
        radius, edge = PIECE_SIZE / 2, 0.75 + 1
        boxes.append(
            (x - side * radius - edge, y - up * radius - edge, x + side * radius + edge, y + down * radius + edge)
        )
    return boxes


class _Scorer:
    """What a text at a box beside point ``own`` would cover, and how many points it could be mistaken for (the boxes
    tried round one point, one after the other): a piece's box (``COVERS_PIECE``, and 100 per px²) and 2 per px from
    its own point; the points a reader could pair it with instead (:func:`misread`, inline; not counted over a piece,
    never chosen where a free place is). Written for speed: the map's names took 0.15 s in CPython and about 0.45 s
    in the browser's Python with a call per box and neighbour; the sums are the same, in the same order."""

    def __init__(
        self, own: int, points: Sequence[tuple[float, float]], nearby: Sequence[int], boxes: Sequence[Box]
    ) -> None:
        self.point = points[own]
        self.boxes = list(boxes)  # the pieces of ``nearby``, in its order
        self.all_boxes = self.boxes
        self.others = [points[j] for j in nearby if j != own]

    def within(self, envelope: Box) -> None:
        """Weigh only the pieces that meet ``envelope`` (every box to be scored lies in it): the others add nothing."""
        self.boxes = [box for box in self.all_boxes if overlap(box, envelope) > 0]

    def cost(self, box: Box) -> tuple[float, int]:
        left, top, right, bottom = box
        covered = 0.0
        for p_left, p_top, p_right, p_bottom in self.boxes:
            dx = (right if right < p_right else p_right) - (left if left > p_left else p_left)
            if dx > 0:
                dy = (bottom if bottom < p_bottom else p_bottom) - (top if top > p_top else p_top)
                if dy > 0:
                    covered += dx * dy
        x, y = self.point
        own_gap = _gap(x, y, left, top, right, bottom)
        cost = own_gap * 2
        if covered:  # never where a free place is left: not worth weighing whom it would be taken for
            return cost + COVERS_PIECE + 100 * covered, 0
        misreads = 0
        middle = None
        for other in self.others:  # misread(box, own, other), inline
            other_gap = _gap(other[0], other[1], left, top, right, bottom)
            if other_gap + 6 <= own_gap:
                misreads += 1
            elif other_gap <= own_gap + 1:
                if middle is None:
                    middle = ((left + right) / 2, (top + bottom) / 2)
                    own_middle = math.dist(self.point, middle)
                if math.dist(other, middle) <= own_middle:
                    misreads += 1
        return cost, misreads


def _gap(x: float, y: float, left: float, top: float, right: float, bottom: float) -> float:
    """:func:`gap` of the point (x, y) and the box, unpacked."""
    dx = left - x if left > x else (x - right if x > right else 0.0)
    dy = top - y if top > y else (y - bottom if y > bottom else 0.0)
    return math.hypot(dx, dy)


def leader(box: Box, point: tuple[float, float]) -> tuple[tuple[float, float], tuple[float, float]]:
    """A thin line from a name's box to the edge of its piece, for a name that stands where it could be taken for
    another's: from the box's point nearest the piece to ``LEADER_STOP`` px from the piece's centre."""
    near = (min(max(point[0], box[0]), box[2]), min(max(point[1], box[1]), box[3]))
    length = math.dist(near, point) or 1.0
    cut = LEADER_STOP / length
    return near, (point[0] + (near[0] - point[0]) * cut, point[1] + (near[1] - point[1]) * cut)


def _clear(segment: tuple[tuple[float, float], tuple[float, float]], others: Sequence[tuple[float, float]]) -> bool:
    """Whether a leader passes clear of the squares of the ``others`` pieces (tested every 2 px)."""
    (x0, y0), (x1, y1) = segment
    reach = PIECE + 1  # a piece farther than its square (and a pixel) from the segment's box cannot meet it
    low_x, high_x, low_y, high_y = min(x0, x1) - reach, max(x0, x1) + reach, min(y0, y1) - reach, max(y0, y1) + reach
    near = [(a, b) for a, b in others if low_x < a < high_x and low_y < b < high_y]
    if not near:
        return True
    steps = max(1, int(math.dist(segment[0], segment[1]) / 2))
    for k in range(steps + 1):
        x, y = x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps
        if any(abs(a - x) < PIECE and abs(b - y) < PIECE for a, b in near):
            return False
    return True


def misread(box: Box, own: tuple[float, float], other: tuple[float, float]) -> bool:
    """Whether a reader could pair a text at ``box`` with the point ``other`` rather than its own: ``other`` is
    clearly nearer its nearest edge (by 6 px), or about as near it and nearer its middle."""
    other_gap, own_gap = gap(other, box), gap(own, box)
    if other_gap + 6 <= own_gap:
        return True
    middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return other_gap <= own_gap + 1 and math.dist(other, middle) <= math.dist(own, middle)


def _places(
    layout: MapLabels,
    index: int,
    forms: Sequence[tuple[str, ...]],
    size: tuple[float, float] | None = None,
    pieces: Sequence[Box] | None = None,
) -> tuple[Place, ...]:
    """The places round point ``index`` for a text in each of ``forms`` (a name's lines), or of ``size`` (a mark),
    cheapest first, inside the drawing and clear of the ``pieces`` (default: every piece's square). A name that could
    be taken for another point's (a mark too) costs MISREAD for each such point, unless a leader line to its own
    piece can be drawn clear of the others (LEADER)."""
    point = layout.points[index]
    pieces = piece_boxes(layout.points) if pieces is None else pieces
    shapes: list[tuple[tuple[float, float], tuple[str, ...]]] = [(size, ())] if size is not None else []
    shapes += [((max(text_width(line) for line in lines), LINE_PX * len(lines)), lines) for lines in forms]
    found = []
    for (width, height), lines in shapes:
        nearby = layout.near(index, max(width, height) / 2 + 60)
        others = [layout.points[j] for j in nearby if j != index]
        scorer = _Scorer(index, layout.points, nearby, [pieces[j] for j in nearby])
        penalty = 3.0 * (len(lines) > 1)  # one line reads best
        for distance in DISTANCES if size is None else MARK_DISTANCES:
            offsets = _ring(width / 2, height / 2, distance)
            ring = [centred(point[0] + dx, point[1] + dy, width, height) for dx, dy in offsets]
            scorer.within(_box_envelope(ring))
            for rank, box in enumerate(ring):
                if not layout.geometry.inside(box):
                    continue
                cost, misreads = scorer.cost(box)
                cost += penalty + rank * 0.01
                if not misreads:
                    found.append(Place(cost, box, lines))
                elif distance >= 18 and _clear(leader(box, point), others):
                    found.append(Place(cost + LEADER, box, lines, leader=True))
                else:
                    found.append(Place(cost + MISREAD * misreads, box, lines))
    found.sort(key=lambda place: place.cost)
    return tuple(found[:100] if size is None else found)  # a mark's every place: names and arrows may take the best


def _envelope(places: Sequence[Place]) -> Box:
    return _box_envelope([place.box for place in places])


def _box_envelope(boxes: Sequence[Box]) -> Box:
    boxes = boxes or [(0.0, 0.0, 0.0, 0.0)]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _cheapest(places: Sequence[Place], others: Sequence[Box]) -> Place:
    """The cheapest of ``places`` counting what it shares with the ``others`` boxes (``COVERS_TEXT`` each, and 100
    per px²); the places come cheapest first, so the search stops at the first whose own cost is already above the
    best found."""
    found, lowest = places[0], math.inf
    for place in places:
        if place.cost >= lowest:
            break
        cost = place.cost
        left, top, right, bottom = place.box
        for other in others:
            dx = min(right, other[2]) - max(left, other[0]) + 1.0
            dy = min(bottom, other[3]) - max(top, other[1]) + 1.0
            if dx > 0 and dy > 0:
                cost += COVERS_TEXT + 100 * dx * dy
                if cost >= lowest:
                    break
        if cost < lowest:
            found, lowest = place, cost
    return found


def _settle(
    options: Sequence[Sequence[Place]],
    fixed: Sequence[Box] = (),
    order: Sequence[int] | None = None,
    start: Sequence[Place] = (),
    movable: Sequence[int] | None = None,
) -> list[Place]:
    """Choose a place for each text: those not placed in ``start`` greedily in ``order``, then each ``movable`` one
    again while any moves (a few rounds), each time the cheapest place counting ``COVERS_TEXT`` (and 100 per px²)
    for each other text or ``fixed`` box it meets."""
    envelopes = [_envelope(places) for places in options]
    rivals = [
        [j for j, other in enumerate(envelopes) if j != i and overlap(envelope, other, 2.0) > 0]
        for i, envelope in enumerate(envelopes)
    ]
    near_fixed = [[box for box in fixed if overlap(envelope, box, 2.0) > 0] for envelope in envelopes]
    chosen: dict[int, Place] = dict(enumerate(start))

    def best(i: int) -> Place:
        return _cheapest(options[i], [chosen[j].box for j in rivals[i] if j in chosen] + near_fixed[i])

    for i in order if order is not None else range(len(options)):
        if i not in chosen:
            chosen[i] = best(i)
    waiting = list(movable if movable is not None else range(len(options)))
    for _ in range(8):  # each round, again those whose rivals moved
        moved = []
        for i in waiting:
            place = best(i)
            if place != chosen[i]:
                chosen[i] = place
                moved.append(i)
        if not moved:
            break
        allowed = set(waiting)
        waiting = sorted({j for i in moved for j in rivals[i] if j in allowed} | set(moved))
    return [chosen[i] for i in range(len(options))]


@functools.cache
def map_labels(board_name: str, width: int, height: int) -> MapLabels:
    """The names of the map ``board_name`` drawn ``width`` x ``height`` px: each beside its own point, clear of every
    piece and other name, and nearer its own point than any other wherever the map leaves room for that."""
    board = rules.load_board(board_name)
    shape = geometry(board, width, height)
    points = tuple(shape.px(*board.position(t)) for t in board.territories)
    layout = MapLabels(shape, points)
    options = [_places(layout, i, name_forms(board.name(t))) for i, t in enumerate(board.territories)]
    room = [sum(1 for place in places if place.cost < LEADER) for places in options]  # the most hemmed in go first
    chosen = _settle(options, order=sorted(range(len(points)), key=lambda i: room[i]))
    names = tuple(_name(t, place, point) for t, place, point in zip(board.territories, chosen, points))
    return MapLabels(shape, points, names, tuple(options), tuple(chosen))


@dataclass(frozen=True)
class Mark:
    """A text to place beside a territory (points lost or gained, a hint's word), ``width`` x ``height`` px."""

    territory: int
    width: float
    height: float


def arrange(
    layout: MapLabels, arrows: Sequence[Box] = (), marks: Sequence[Mark] = (), shapes: Sequence[str] | None = None
) -> tuple[list[Name], list[Name]]:
    """The names and the ``marks`` as drawn over these ``arrows`` (boxes of their heads): each mark goes beside its
    territory, clear of the pieces (the ``shapes`` drawn now, plotly's symbol per territory), names, arrows and
    other marks, and a name an arrow or a mark would cover moves to another of its places (where the map leaves no
    such room, to where it covers least). The marks come back as :class:`Name` without lines: a box, maybe a
    leader."""
    covered = [i for i, name in enumerate(layout.names) if any(overlap(name.box, box, 1.0) > 0 for box in arrows)]
    options = list(layout.places) + [layout.mark_places(mark, shapes) for mark in marks]
    count = len(layout.names)
    marked = {mark.territory for mark in marks}
    nearby = [i for i in range(count) if any(j in marked for j in layout.near(i, 80))]  # a mark may move them
    movable = sorted(set(covered) | set(nearby)) + list(range(count, len(options)))
    if not movable:
        return list(layout.names), []
    chosen = _settle(options, fixed=arrows, start=layout.chosen, movable=movable, order=range(count, len(options)))
    points = layout.points
    names = [_name(name.territory, place, point) for name, place, point in zip(layout.names, chosen, points)]
    placed = [_name(str(mark.territory), place, points[mark.territory]) for mark, place in zip(marks, chosen[count:])]
    return names, placed
