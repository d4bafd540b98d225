"""Plotly charts of the Meetjesland odds: data in (from :mod:`rulebook.meetjesland.odds`), Figure out.

Every chart has a title and axis titles with units, exact numbers in the hover text, and patterns or a
monotone colour scale so that it still reads when printed in grey.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

import numpy as np
import plotly.graph_objects as go

from ..charts import finish

WIDTH = 720
HEIGHT = 460
PATTERNS = ("", "/", "x", ".", "+", "-", "\\", "|")
# Light to dark, so neighbouring series differ in grey-scale too.
GREYS_SAFE = ("#fde725", "#5ec962", "#21918c", "#3b528b", "#440154", "#b5de2b", "#31688e")


def _exact_text(probability: float | Fraction) -> str:
    """A probability for hover text: the exact fraction when there is one, with its decimal value."""
    if isinstance(probability, Fraction):
        return f"{probability} = {float(probability):.10f}"
    return f"{probability:.10f}"


def _layout(figure: go.Figure, title: str, x_title: str, y_title: str) -> go.Figure:
    return finish(figure, title, x_title, y_title, width=WIDTH)


def win_heatmap(table: np.ndarray, title: str = "Chance to conquer a territory") -> go.Figure:
    """Heatmap of a ``win_table`` ``[stake, defenders]``: rows are stakes 1.., columns defending points 1..."""
    table = np.asarray(table, dtype=float)
    stakes = list(range(1, table.shape[0]))
    defenders = list(range(1, table.shape[1]))
    values = table[1:, 1:]
    small = len(stakes) <= 15 and len(defenders) <= 15
    figure = go.Figure(
        go.Heatmap(
            z=values,
            x=defenders,
            y=stakes,
            zmin=0,
            zmax=1,
            colorscale="Cividis",
            colorbar={"title": {"text": "P(conquest)"}},
            texttemplate="%{z:.2f}" if small else None,
            hovertemplate="stake %{y} v %{x} defending points<br>P(conquest) = %{z:.10f}<extra></extra>",
        )
    )
    return _layout(figure, title, "defending points (Augustijn points)", "stake (attacking Augustijn points)")


def battle_chart(
    outcomes: Mapping[tuple[int, int], float | Fraction], stake: int, defenders: int, stop_at: int = 0
) -> go.Figure:
    """Terminal distribution of one battle from ``battle_outcomes``: the attacker's points left after a
    conquest, and the defender's points left when the attack fails or breaks off."""
    conquest: dict[int, float | Fraction] = {}
    held: dict[int, float | Fraction] = {}
    for (attacker_left, defender_left), p in outcomes.items():
        if defender_left == 0 and attacker_left > 0:
            conquest[attacker_left] = conquest.get(attacker_left, 0) + p
        elif defender_left > 0:
            held[defender_left] = held.get(defender_left, 0) + p
    figure = go.Figure()
    for index, (name, side) in enumerate(
        (("conquest: attacker's points left", conquest), ("territory holds: defender's points left", held))
    ):
        points = sorted(side)
        figure.add_bar(
            x=points,
            y=[float(side[point]) for point in points],
            name=name,
            marker={"color": GREYS_SAFE[2 * index + 1], "pattern": {"shape": PATTERNS[index]}},
            customdata=[_exact_text(side[point]) for point in points],
            hovertemplate="%{x} points left<br>P = %{customdata}<extra>" + name + "</extra>",
        )
    total_conquest = sum(conquest.values(), 0)
    stop_text = f", breaking off at {stop_at} left" if stop_at else ""
    title = f"Stake {stake} against {defenders}{stop_text}: P(conquest) = {float(total_conquest):.4f}"
    figure.update_layout(barmode="group")
    return _layout(figure, title, "points left at the end (Augustijn points)", "probability")


def roll_chart(rolls: Mapping[tuple[int, int], Mapping[tuple[int, int], float | Fraction]]) -> go.Figure:
    """Stacked bars of single-roll outcomes, one bar per ``(attacker dice, defender dice)`` from ``roll_outcomes``."""
    matchups = list(rolls)
    labels = [f"{attack} v {defence} dice" for attack, defence in matchups]
    results = sorted({result for outcome in rolls.values() for result in outcome}, key=lambda r: (r[0], -r[1]))
    figure = go.Figure()
    for index, (attacker_losses, defender_losses) in enumerate(results):
        name = f"attacker loses {attacker_losses}, defender loses {defender_losses}"
        values = [rolls[matchup].get((attacker_losses, defender_losses), 0) for matchup in matchups]
        figure.add_bar(
            x=labels,
            y=[float(value) for value in values],
            name=name,
            marker={"color": GREYS_SAFE[index % len(GREYS_SAFE)], "pattern": {"shape": PATTERNS[index % 8]}},
            customdata=[_exact_text(value) for value in values],
            hovertemplate="%{x}<br>P = %{customdata}<extra>" + name + "</extra>",
        )
    figure.update_layout(barmode="stack")
    return _layout(figure, "What one roll does", "dice rolled (attacker v defender)", "probability")


def chain_chart(
    outcomes: Mapping[tuple[int, int, int], float | Fraction], territory_names: Sequence[str], stake: int
) -> go.Figure:
    """Chance to have conquered each territory of a path, from ``chain_outcomes`` (cumulative along the path)."""
    reached = []
    for position in range(1, len(territory_names) + 1):
        reached.append(sum((p for (conquered, _, _), p in outcomes.items() if conquered >= position), 0))
    labels = [f"{position}. {name}" for position, name in enumerate(territory_names, start=1)]
    figure = go.Figure(
        go.Bar(
            x=labels,
            y=[float(p) for p in reached],
            name="P(conquered up to here)",
            marker={"color": GREYS_SAFE[2], "pattern": {"shape": "/"}},
            customdata=[_exact_text(p) for p in reached],
            text=[f"{float(p):.3f}" for p in reached],
            textposition="outside",
            hovertemplate="%{x}<br>P(conquered) = %{customdata}<extra></extra>",
        )
    )
    figure.update_yaxes(range=[0, 1.1])
    return _layout(
        figure,
        f"Attacking along a path with a stake of {stake}",
        "territory on the path (in order)",
        "probability of having conquered it",
    )


def card_chart(odds_by_draws: Mapping[int, Mapping[int, float | Fraction]]) -> go.Figure:
    """Stacked bars of the best trade on hand after ``k`` draws, one bar per ``k``, from ``set_odds``."""
    draws = sorted(odds_by_draws)
    values = sorted({value for odds in odds_by_draws.values() for value in odds})
    figure = go.Figure()
    for index, value in enumerate(values):
        name = "no trade" if value == 0 else f"best trade {value} points"
        probabilities = [odds_by_draws[k].get(value, 0) for k in draws]
        figure.add_bar(
            x=draws,
            y=[float(p) for p in probabilities],
            name=name,
            marker={"color": GREYS_SAFE[index % len(GREYS_SAFE)], "pattern": {"shape": PATTERNS[index % 8]}},
            customdata=[_exact_text(p) for p in probabilities],
            hovertemplate="%{x} cards drawn<br>P = %{customdata}<extra>" + name + "</extra>",
        )
    figure.update_layout(barmode="stack")
    figure.update_xaxes(dtick=1)
    return _layout(figure, "Best card trade on hand", "cards drawn (cards)", "probability")


def reinforcements_chart(reinforcements_for: Callable[[int], int], max_territories: int = 44) -> go.Figure:
    """Reinforcement points by territories held, for the rule ``reinforcements_for(territories) -> points``."""
    territories = list(range(1, max_territories + 1))
    points = [reinforcements_for(count) for count in territories]
    figure = go.Figure(
        go.Bar(
            x=territories,
            y=points,
            name="reinforcements",
            marker={"color": GREYS_SAFE[3], "pattern": {"shape": "."}},
            hovertemplate="%{x} territories: %{y} points<extra></extra>",
        )
    )
    return _layout(
        figure,
        "Reinforcements for a turn without conquest",
        "territories held (territories)",
        "reinforcements (Augustijn points)",
    )


def graph_figure(graph, chokepoints: Sequence[str] = (), borders: Sequence[str] = ()) -> go.Figure:
    """The networkx board graph at its coordinates: edges by border kind, territories by region colour,
    chokepoints (articulation points) as stars and region-border territories with a thick outline."""
    figure = go.Figure()
    styles = {"open": ("#444444", 1.5, "solid"), "bridge": ("#444444", 2, "dot"), "canal": ("#1d4e89", 5, "solid")}
    for kind, (colour, width, dash) in styles.items():
        xs: list = []
        ys: list = []
        for a, b, border in graph.edges(data="border"):
            if border == kind:
                xs += [graph.nodes[a]["x"], graph.nodes[b]["x"], None]
                ys += [graph.nodes[a]["y"], graph.nodes[b]["y"], None]
        label = {"open": "open border", "bridge": "canal with a bridge (passable)", "canal": "canal (no access)"}[kind]
        figure.add_scatter(
            x=xs, y=ys, mode="lines", name=label, line={"color": colour, "width": width, "dash": dash}, hoverinfo="skip"
        )
    colours = graph.graph.get("region_colours", {})
    for region in sorted({r for _, r in graph.nodes(data="region")}):
        # chokepoints last, so that the legend shows the region's plain marker
        members = sorted((t for t, r in graph.nodes(data="region") if r == region), key=lambda t: t in chokepoints)
        figure.add_scatter(
            x=[graph.nodes[t]["x"] for t in members],
            y=[graph.nodes[t]["y"] for t in members],
            mode="markers+text",
            name=f"{region} region",
            text=[graph.nodes[t]["name"] for t in members],
            textposition="top center",
            textfont={"size": 9},
            marker={
                "size": [20 if t in chokepoints else 13 for t in members],
                "color": colours.get(region, "#999999"),
                "symbol": ["star" if t in chokepoints else "circle" for t in members],
                "line": {"width": [3 if t in borders else 0.5 for t in members], "color": "#111111"},
            },
            customdata=[graph.degree(t) for t in members],
            hovertemplate="%{text}<br>" + region + " region<br>%{customdata} borders<extra></extra>",
        )
    figure.add_scatter(
        x=[None],
        y=[None],
        mode="markers",
        name="chokepoint (articulation point)",
        marker={"symbol": "star", "size": 16, "color": "#ffffff", "line": {"width": 1.5, "color": "#111111"}},
    )
    figure.add_scatter(
        x=[None],
        y=[None],
        mode="markers",
        name="borders another region",
        marker={"size": 12, "color": "#ffffff", "line": {"width": 3, "color": "#111111"}},
    )
    figure.update_layout(
        title={"text": "The board as a graph: chokepoints and region borders", "x": 0.5},
        width=860,
        height=620,
        template="plotly_white",
        legend={"orientation": "v", "x": 1.02, "y": 1},
        xaxis={"title": "west - east (km)", "scaleanchor": "y"},
        yaxis={"title": "south - north (km)"},
        margin={"l": 60, "r": 10, "t": 50, "b": 50},
    )
    return figure
