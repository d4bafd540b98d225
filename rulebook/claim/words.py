"""Claim's things in words for the rulebook's examples: points named as the board labels its edges ("C5"), the
sections and the graph of points in sentences, so that the notebook never prints raw tuples, dicts or grids.
Pure functions, no ipywidgets."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .narrate import point_name
from .rules import Point, State, island

_POINT = re.compile(r"\((-?\d+), (-?\d+)\)")
_NAME = re.compile(r"([A-Z])(\d+)")


def readable(state: State, text: str) -> str:
    """An engine text (a refusal, a move) with its ``(row, column)`` points named as the board names them: on the
    2-player island ``CL-4.2: Claim: the point (0, 0) is taken`` reads ``CL-4.2: the point A11 is taken``."""
    height = state.island.height
    text = _POINT.sub(lambda found: point_name((int(found.group(1)), int(found.group(2))), height), text)
    return re.sub(r"^((?:[A-Z]+-[\w.]+: )?)Claim: ", r"\1", text)  # the game's name, said once already


def point(state: State, name: str) -> Point:
    """The point the board labels ``name`` ("A11": column A, row 11 from the bottom); ValueError if the island has
    no such point."""
    found = _NAME.fullmatch(name.strip().upper()) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"a point is named by a column letter and a row number, like C5, not {name!r:.40}")
    row, column = state.island.height - int(found.group(2)), ord(found.group(1)) - ord("A")
    if (row, column) not in state.island.points:
        raise ValueError(f"the island has no point {name}")
    return row, column


def sections_text(sections: Mapping[str, Sequence[str]]) -> str:
    """The board sections and the size of each of their territories: ``A: 14 and 14 points; ...; E: 14 points``."""
    parts = []
    for name, rows in sections.items():
        sizes = [str(len(points)) for points in island(rows).territories.values()]
        parts.append(f"{name}: {' and '.join(sizes)} points")
    return "; ".join(parts)


def graph_text(graph: Any) -> str:
    """The graph of points in one sentence: its points, pairs of neighbours and points on the island's edge."""
    edge = sum(1 for _, on_edge in graph.nodes(data="edge") if on_edge)
    return (
        f"{graph.number_of_nodes()} points, {graph.number_of_edges()} pairs of neighbours, "
        f"{edge} of the points on the island's edge"
    )
