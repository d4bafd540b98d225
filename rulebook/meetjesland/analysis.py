"""The map as a networkx graph, queried: who borders whom, chokepoints and region borders."""

from __future__ import annotations

import networkx as nx

from .rules import Map


def passable_graph(board: Map) -> nx.Graph:
    """Territories joined only where an attack may cross (thin and white lines, not canals)."""
    graph = nx.Graph()
    graph.add_nodes_from(board.graph.nodes(data=True))
    graph.add_edges_from((u, v, d) for u, v, d in board.graph.edges(data=True) if d["passable"])
    return graph


def chokepoints(board: Map) -> list[str]:
    """Articulation points: territories whose loss splits the map into parts that cannot reach each other."""
    return sorted(nx.articulation_points(passable_graph(board)), key=board.name)


def region_borders(board: Map) -> dict[str, list[str]]:
    """Per region, its territories with a passable border into another region (the ones to defend)."""
    graph = passable_graph(board)
    result: dict[str, list[str]] = {}
    for region, members in board.regions.items():
        result[region] = sorted(
            (t for t in members if any(board.region(n) != region for n in graph[t])), key=board.name
        )
    return result


def degrees(board: Map) -> list[tuple[str, int]]:
    """Territories by number of neighbours one may attack, most first."""
    graph = passable_graph(board)
    return sorted(((t, graph.degree(t)) for t in graph), key=lambda item: (-item[1], board.name(item[0])))


def shortest_attack_path(board: Map, origin: str, target: str) -> list[str]:
    """The fewest conquests leading from ``origin`` to ``target`` across passable borders."""
    for territory in (origin, target):
        if territory not in board.index:
            raise ValueError(f"unknown territory {territory!r}")
    return nx.shortest_path(passable_graph(board), origin, target)


def _names(board: Map, territories) -> str:
    """``Belzele, Ertvelde and Rieme``: territories by name, in the map's order of names."""
    names = sorted(board.name(t) for t in territories)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def cut_off(board: Map, territory: str) -> list[str]:
    """The territories that can no longer reach the rest of the map once ``territory`` is lost to them (all parts
    but the largest of the passable map without it); [] for a territory that is not a chokepoint."""
    graph = passable_graph(board)
    graph.remove_node(territory)
    parts = sorted(nx.connected_components(graph), key=len, reverse=True)
    return sorted((t for part in parts[1:] for t in part), key=board.name)


def summary(board: Map, region: str = "green", route: tuple[str, str] = ("middelburg", "zelzate_oost")) -> str:
    """The map's graph in a few sentences: its chokepoints and what each cuts off, the territories with the most
    neighbours, where ``region`` is entered from, and the fewest conquests along ``route``."""
    points = [f"{board.name(t)} (the only way to {_names(board, cut_off(board, t))})" for t in chokepoints(board)]
    most = degrees(board)[:5]
    busiest = ", ".join(f"{board.name(t)} {count}" for t, count in most)
    path = shortest_attack_path(board, *route)
    return "\n".join(
        (
            f"Chokepoints (their loss cuts the map in two): {', '.join(points[:-1])} and {points[-1]}.",
            f"Most neighbours to attack: {busiest}.",
            f"{region.capitalize()} is entered through {_names(board, region_borders(board)[region])}.",
            f"Fewest conquests from {board.name(path[0])} to {board.name(path[-1])}: {len(path) - 1}, through "
            + " → ".join(board.name(t) for t in path[1:])
            + ".",
        )
    )
