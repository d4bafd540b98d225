"""Board data: ``graphs/*.json`` files (networkx node-link data, ``edges="edges"``) loaded and checked.

A board file is plain data.  :func:`load` reads it with ``json`` (never pickle or eval), builds the
networkx graph and validates it; anything wrong raises ``ValueError`` that names the file and the problem.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .core import cut, parse_json, quote

if TYPE_CHECKING:  # networkx is imported when a graph is built: an engine reading its board without it starts faster
    import networkx as nx


def graphs_dir() -> Path:
    """Where the board files are: ``graphs/`` beside the package in a checkout, or inside the wheel."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "graphs", here.parent / "graphs"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the rulebook's graphs/ folder is missing from this installation")


def available() -> list[str]:
    """Names of the board files shipped with the rulebook."""
    return sorted(path.stem for path in graphs_dir().glob("*.json"))


def read(path: str | Path) -> dict[str, Any]:
    """Parse a board file's JSON; a malformed file raises ``ValueError`` naming it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{path.name}: cannot be read ({type(error).__name__})") from None
    data = parse_json(text, f"{path.name}: not valid JSON")
    if not isinstance(data, dict):
        raise ValueError(f"{path.name}: expected a node-link object at the top level")
    return data


def _node_id(value: Any, where: str) -> Any:
    """A node id as networkx keeps it: a string, a number, or a list of those (made a tuple)."""
    if isinstance(value, list) and all(isinstance(part, (str, int, float)) for part in value):
        return tuple(value)
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return value
    raise ValueError(f"{where}: a node id must be a string, a number or a list of those, not {quote(value)}")


def from_data(
    data: dict[str, Any],
    *,
    name: str = "board",
    node_attributes: Iterable[str] = (),
    edge_attributes: Iterable[str] = (),
    passable: str | None = None,
) -> nx.Graph:
    """Build and validate an undirected graph from node-link data.

    ``node_attributes`` and ``edge_attributes`` must be present on every node and edge; when ``passable``
    names a boolean edge attribute, every node must be reachable through the edges where it is true. The caller's
    ``data`` is never changed, whether it is accepted or refused: node ids made tuples go into copies."""
    import networkx as nx

    if not isinstance(data, dict):
        raise ValueError(f"{name}: expected a node-link object")
    for key in ("directed", "multigraph"):  # networkx reads a missing "multigraph" as true: say so at load
        if data.get(key) is not False:
            found = "missing" if key not in data else f"found {quote(data[key])}"
            raise ValueError(f"{name}: '{key}' must be false: a board is an undirected simple graph ({found})")
    if not isinstance(data.get("graph", {}), dict):
        raise ValueError(f"{name}: 'graph' (the board's own attributes) must be an object")
    nodes, edges = data.get("nodes"), data.get("edges")
    if not isinstance(nodes, list) or not isinstance(edges, list):
        raise ValueError(f"{name}: node-link data needs a 'nodes' list and an 'edges' list")
    ids: set[Any] = set()
    copied_nodes: list[dict[str, Any]] = []
    for index, node in enumerate(nodes):
        if not isinstance(node, dict) or "id" not in node:
            raise ValueError(f"{name}: nodes[{index}] has no 'id'")
        key = _node_id(node["id"], f"{name}: nodes[{index}]")
        node = {**node, "id": key}
        copied_nodes.append(node)
        if key in ids:
            raise ValueError(f"{name}: node {quote(key)} is listed twice")
        ids.add(key)
        missing = [attribute for attribute in node_attributes if attribute not in node]
        if missing:
            raise ValueError(f"{name}: node {quote(key)} lacks {', '.join(missing)}")
    seen: dict[frozenset, dict] = {}
    copied_edges: list[dict[str, Any]] = []
    for index, edge in enumerate(edges):
        if not isinstance(edge, dict) or "source" not in edge or "target" not in edge:
            raise ValueError(f"{name}: edges[{index}] needs 'source' and 'target'")
        source, target = (_node_id(edge[end], f"{name}: edges[{index}].{end}") for end in ("source", "target"))
        edge = {**edge, "source": source, "target": target}
        copied_edges.append(edge)
        for end in (source, target):
            if end not in ids:
                raise ValueError(f"{name}: edge {quote(source)}-{quote(target)} names unknown node {quote(end)}")
        if source == target:
            raise ValueError(f"{name}: edge {quote(source)}-{quote(target)} joins a node to itself")
        pair = frozenset((source, target))
        attributes = {k: v for k, v in edge.items() if k not in ("source", "target")}
        if pair in seen:
            if seen[pair] != attributes:
                raise ValueError(
                    f"{name}: edge {quote(source)}-{quote(target)} is listed twice with different data (not symmetric)"
                )
            raise ValueError(f"{name}: edge {quote(source)}-{quote(target)} is listed twice")
        seen[pair] = attributes
        missing = [attribute for attribute in edge_attributes if attribute not in edge]
        if missing:
            raise ValueError(f"{name}: edge {quote(source)}-{quote(target)} lacks {', '.join(missing)}")
        if passable is not None and not isinstance(edge.get(passable), bool):
            raise ValueError(f"{name}: edge {quote(source)}-{quote(target)}: '{passable}' must be true or false")
    copy = {**data, "graph": dict(data.get("graph", {})), "nodes": copied_nodes, "edges": copied_edges}
    try:  # networkx keeps the "graph" object itself as the graph's attributes: a copy, not the caller's
        graph = nx.node_link_graph(copy, directed=False, multigraph=False, edges="edges")
    except (KeyError, TypeError, nx.NetworkXError) as error:
        raise ValueError(f"{name}: not networkx node-link data ({quote(str(error), 200)})") from None
    if graph.number_of_nodes() == 0:
        raise ValueError(f"{name}: the board has no nodes")
    if passable is not None:
        open_graph = nx.Graph()
        open_graph.add_nodes_from(graph)
        open_graph.add_edges_from((u, v) for u, v, ok in graph.edges(data=passable) if ok)
        if not nx.is_connected(open_graph):
            parts = sorted(nx.connected_components(open_graph), key=len)
            cut_off = [cut(node, 40) for node in sorted(map(str, parts[0]))[:10]]  # ids from a file: a few, short
            more = f" and {len(parts[0]) - 10} more" if len(parts[0]) > 10 else ""
            raise ValueError(f"{name}: not connected through passable borders; cut off: {', '.join(cut_off)}{more}")
    return graph


def load(
    name: str,
    *,
    node_attributes: Iterable[str] = (),
    edge_attributes: Iterable[str] = (),
    passable: str | None = None,
    path: str | Path | None = None,
) -> nx.Graph:
    """Load ``graphs/<name>.json`` (or ``path``) and validate it as in :func:`from_data`."""
    file = Path(path) if path is not None else graphs_dir() / f"{name}.json"
    if not file.is_file():
        raise ValueError(f"no board file {file.name} (available: {', '.join(available())})")
    return from_data(
        read(file), name=file.name, node_attributes=node_attributes, edge_attributes=edge_attributes, passable=passable
    )
