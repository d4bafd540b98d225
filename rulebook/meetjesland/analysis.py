"""The map as a networkx graph, queried: who borders whom, chokepoints and region borders."""

from __future__ import annotations

import networkx as nx

from .rules import Board


def passable_graph(board: Board) -> nx.Graph:
    """Territories joined only where an attack may cross (thin and white lines, not canals)."""
    graph = nx.Graph()
    graph.add_nodes_from(board.graph.nodes(data=True))
    graph.add_edges_from((u, v, d) for u, v, d in board.graph.edges(data=True) if d["passable"])
    return graph


def chokepoints(board: Board) -> list[str]:
    """Articulation points: territories whose loss splits the map into parts that cannot reach each other."""
    return sorted(nx.articulation_points(passable_graph(board)), key=board.name)


def region_borders(board: Board) -> dict[str, list[str]]:
    """Per region, its territories with a passable border into another region (the ones to defend)."""
    graph = passable_graph(board)
    result: dict[str, list[str]] = {}
    for region, members in board.regions.items():
        result[region] = sorted(
            (t for t in members if any(board.region(n) != region for n in graph[t])), key=board.name
        )
    return result


def degrees(board: Board) -> list[tuple[str, int]]:
    """Territories by number of neighbours one may attack, most first."""
    graph = passable_graph(board)
    return sorted(((t, graph.degree(t)) for t in graph), key=lambda item: (-item[1], board.name(item[0])))


def shortest_attack_path(board: Board, origin: str, target: str) -> list[str]:
    """The fewest conquests leading from ``origin`` to ``target`` across passable borders."""
    for territory in (origin, target):
        if territory not in board.index:
            raise ValueError(f"unknown territory {territory!r}")
    return nx.shortest_path(passable_graph(board), origin, target)
