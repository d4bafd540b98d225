"""Plotly charts of the Meetjesland odds: data in (from :mod:`rulebook.meetjesland.odds`), Figure out.

Every chart has a title and axis titles with units, exact numbers in the hover text, and patterns or a
monotone colour scale so that it still reads when printed in grey.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import plotly.graph_objects as go

from ..view.charts import HEIGHT, finish
from . import odds
from .odds import AttackOdds

WIDTH = 720
PATTERNS = ("", "/", "x", ".", "+", "-", "\\", "|")
# Light to dark, so neighbouring series differ in grey-scale too.
GREYS_SAFE = ("#fde725", "#5ec962", "#21918c", "#3b528b", "#440154", "#b5de2b", "#31688e")


EXACT_DIGITS = 12  # a fraction whose denominator has more digits than this is shown as a percentage only


def percent(probability: float | Fraction) -> str:
    """A probability as players read it: a percentage with one decimal ("83.4 %"); "less than 0.1 %" and "more
    than 99.9 %" rather than a rounded 0 or 100 for what can still happen or fail."""
    value = float(probability)
    if 0 < value < 0.0005:
        return "less than 0.1 %"
    if 0.9995 <= value < 1:
        return "more than 99.9 %"
    return f"{value * 100:.1f} %"


def _exact_text(probability: float | Fraction) -> str:
    """A probability for hover text: the percentage, and the exact fraction when it is short enough to read."""
    if isinstance(probability, Fraction) and len(str(probability.denominator)) <= EXACT_DIGITS:
        return f"{percent(probability)} (exactly {probability})"
    return percent(probability)


def _layout(
    figure: go.Figure, title: str, x_title: str, y_title: str, width: int = WIDTH, height: int = HEIGHT
) -> go.Figure:
    """The shared finish, with the legend kept clear of the x axis's title (below it, not over it)."""
    finish(figure, title, x_title, y_title, width=width, height=height)
    figure.update_layout(legend={"orientation": "h", "y": -0.3, "yanchor": "top"}, margin={"b": 110})
    return figure


def win_heatmap(table: Any, title: str = "Chance to conquer a territory") -> go.Figure:
    """Heatmap of a ``win_table`` ``[stake, defenders]`` (its array, its :class:`~.odds.Table` or nested lists):
    rows are stakes 1.., columns defending points 1..."""
    values: Any
    if odds.USE_NUMPY:  # the cells as a float array, which plotly sends as a typed array
        import numpy

        values = numpy.asarray(table, dtype=float)[1:, 1:]
    else:
        rows = table.tolist() if hasattr(table, "tolist") else table
        values = [[float(value) for value in row[1:]] for row in rows[1:]]
    stakes = list(range(1, len(values) + 1))
    defenders = list(range(1, (len(values[0]) if len(values) else 0) + 1))
    small = len(stakes) <= 15 and len(defenders) <= 15
    figure = go.Figure(
        go.Heatmap(
            z=values,
            x=defenders,
            y=stakes,
            zmin=0,
            zmax=1,
            colorscale="Cividis",
            colorbar={"title": {"text": "chance to take it"}, "tickformat": ".0%"},
            texttemplate="%{z:.0%}" if small else None,
            hovertemplate="%{y} attacking against %{x} defending: %{z:.1%} to take the territory<extra></extra>",
        )
    )
    figure = _layout(figure, title, "defending points (Augustijn points)", "stake (attacking Augustijn points)")
    figure.update_layout(margin={"b": 60})
    return figure


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
            hovertemplate="%{x} points left: %{customdata}<extra>" + name + "</extra>",
        )
    total_conquest = sum(conquest.values(), 0)
    stop_text = f", breaking off at {stop_at} left" if stop_at else ""
    title = f"Stake {stake} against {defenders}{stop_text}: {percent(total_conquest)} to take it"
    figure.update_layout(barmode="group")
    figure.update_yaxes(tickformat=".0%")
    return _layout(figure, title, "points left at the end (Augustijn points)", "chance")


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
            hovertemplate="%{x}: " + name + " in %{customdata}<extra></extra>",
        )
    figure.update_layout(barmode="stack")
    figure.update_yaxes(tickformat=".0%")
    figure = _layout(figure, "What one roll does", "dice rolled (attacker v defender)", "chance")
    figure.update_layout(legend={"y": -0.25}, margin={"b": 150})
    return figure


def chain_chart(
    outcomes: Mapping[tuple[int, int, int], float | Fraction],
    territory_names: Sequence[str],
    stake: int,
    width: int = WIDTH,
    height: int = HEIGHT,
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
            name="chance to have taken it",
            marker={"color": GREYS_SAFE[2], "pattern": {"shape": "/"}},
            customdata=[_exact_text(p) for p in reached],
            text=[percent(p) for p in reached],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{x}: taken, with every one before it, in %{customdata}<extra></extra>",
        )
    )
    figure.update_yaxes(range=[0, 1.12], tickformat=".0%")
    figure = _layout(
        figure,
        f"Attacking along a path with a stake of {stake}",
        "territory on the path (in order)",
        "chance to have taken it",
        width,
        height,
    )
    if width < WIDTH:  # the explorer's narrow panel: a smaller title and tighter margins
        figure.update_layout(title={"font": {"size": 13}}, margin={"l": 50, "r": 10, "t": 40, "b": 70})
    return figure


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
            hovertemplate="%{x} cards drawn: " + name + " in %{customdata}<extra></extra>",
        )
    figure.update_layout(barmode="stack")
    figure.update_xaxes(dtick=1)
    figure.update_yaxes(tickformat=".0%")
    return _layout(figure, "Best card trade on hand", "cards drawn (cards)", "chance")


def attack_chart(
    attack: AttackOdds, width: int = WIDTH, height: int = HEIGHT, name: str = "the territory"
) -> go.Figure:
    """Every way one attack can end, from ``odds.attack_odds``: to the right of 0 the territory is taken with that
    many of the attacker's points moving in; to the left it holds with that many defending points, stacked by
    whether the attacker was beaten or broke off under the stop rule."""
    taken: dict[int, float | Fraction] = {}
    beaten: dict[int, float | Fraction] = {}
    broke_off: dict[int, float | Fraction] = {}
    for (left, held), p in attack.outcomes.items():
        side = taken if held == 0 else (broke_off if left else beaten)
        key = left if held == 0 else -held
        side[key] = side.get(key, 0) + p
    figure = go.Figure()
    series = (
        (f"taken: points moving into {name}", taken, "{} of the attacker's points move in", 1, ""),
        ("holds: the attacker is beaten", beaten, "it holds with {} defending points; the whole stake is lost", 4, "/"),
        ("holds: the attacker breaks off", broke_off, "it holds with {}; the attacker breaks off", 2, "x"),
    )
    for label, side, words, colour, pattern in series:  # always three traces, so a live chart updates in place
        keys = sorted(side)
        figure.add_bar(
            x=keys,
            y=[float(side[k]) for k in keys],
            name=label,
            showlegend=bool(side),
            marker={"color": GREYS_SAFE[colour], "pattern": {"shape": pattern}, "line": {"width": 0}},
            customdata=[[words.format(abs(k)), _exact_text(side[k])] for k in keys],
            hovertemplate="%{customdata[0]}: %{customdata[1]}<extra></extra>",
        )
    low, high = -attack.defenders, attack.stake
    step = max(1, round((high - low) / 8))
    ticks = sorted({0, *range(0, low - 1, -step), *range(0, high + 1, step)})
    figure.update_xaxes(
        tickvals=ticks, ticktext=[str(abs(t)) for t in ticks], range=[low - 0.6, high + 0.6], zeroline=True
    )
    figure.update_yaxes(tickformat=".0%")
    figure.update_layout(barmode="stack", bargap=0.1)
    stop = f", stop at {attack.stop_at}" if attack.stop_at else ""
    title = f"{attack.stake} against {attack.defenders}{stop}: {percent(attack.conquest)} to take it"
    figure = _layout(figure, title, "← points left to the defender · to the attacker →", "chance", width, height)
    if width < WIDTH:  # the explorer's narrow panel: legend in one column below, a smaller title
        figure.update_layout(
            title={"font": {"size": 13}},
            legend={"orientation": "v", "y": -0.28, "x": 0, "font": {"size": 10}},
            margin={"l": 50, "r": 10, "t": 40, "b": 120},
        )
    return figure


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
            hovertemplate="%{x} territories held: %{y} points to place<extra></extra>",
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
