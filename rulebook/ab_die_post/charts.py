"""Plotly figures for Ab die Post!: draw odds, the best stopping rule, the hurricane indicator, surviving
hurricanes, the track graph and the threshold study.  Data in, Figure out; exact values in the hover text.

The track itself (:func:`track_figure`) is drawn here and is the live board's picture too (the widget adds its live
layers above it): the static track charts draw their routes on it, so the notebook and the board show one track."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import plotly.graph_objects as go

from . import advisor, odds
from .rules import FULL_DECK, LANES, Track, field_name, load_track, routes, shortest_routes

LANE_SYMBOL = {"inner": "circle", "central": "diamond", "outer": "square"}
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "star")
GREYS = ("#000000", "#555555", "#999999")
BACKGROUND = "#eef3f7"  # the sky around the track
RIVER = "#3b7dd8"
# The fields' numbers at 11 px, the least any text of the board has; the disc holds two digits of them. Fields along
# a lane lie 20 px apart on the live board, so their discs never touch.
FIELD_FONT, FIELD_SIZE = 11, 18
# The track's traces a click on the live board answers: each point's id is its field (customdata)
FIELDS, PASSENGER, ENDS = "fields", "passenger fields", "start / airport"


def _layout(title: str, x_title: str, y_title: str, width: int = 760, height: int = 430, **extra: Any) -> go.Layout:
    return go.Layout(
        title={"text": title, "x": 0.5, "font": {"size": 15}},
        width=width,
        height=height,
        template="simple_white",
        xaxis={"title": x_title, "showgrid": True},
        yaxis={"title": y_title, "showgrid": True},
        legend={"font": {"size": 11}},
        margin={"l": 70, "r": 20, "t": 60, "b": 60},
        **extra,
    )


def _percent_hover(values: Sequence[Fraction]) -> list[str]:
    """Chances as the hover text says them: a short exact fraction with its percent, else a percent (one decimal)."""
    return [advisor.chance_text(value) for value in values]


def _line(name: str, xs: Sequence[Any], values: Sequence[Fraction], index: int, hover: Sequence[str]) -> go.Scatter:
    return go.Scatter(
        x=list(xs),
        y=[float(v) for v in values],
        name=name,
        mode="lines+markers",
        hovertext=list(hover),
        hoverinfo="text+name",
        line={"color": GREYS[index % 3], "dash": DASHES[index % len(DASHES)], "width": 2},
        marker={"symbol": SYMBOLS[index % len(SYMBOLS)], "size": 7},
    )


# --- drawing spare parts ------------------------------------------------------------------------------


def bust_chart(max_draws: int = 20, pile: tuple[int, int, int] = FULL_DECK) -> go.Figure:
    """Chance of a bust within k more cards, one line per number of red 3s already held."""
    figure = go.Figure(
        layout=_layout(
            "Chance of losing the red 3s within k more cards (full pile)",
            "cards drawn this turn, k",
            "chance of a bust (probability)",
        )
    )
    draws = range(max_draws + 1)
    for reds in (0, 1, 2):
        values = [odds.bust_probability(k, reds, pile) for k in draws]
        hover = [
            f"{k} more card{'' if k == 1 else 's'} with {reds} red 3s held: a bust with chance {text}"
            for k, text in zip(draws, _percent_hover(values))
        ]
        figure.add_trace(_line(f"{reds} red 3s held", draws, values, reds, hover))
    figure.update_yaxes(range=[0, 1.02], tickformat=".0%")
    return figure


def reach_chart(max_target: int = 30, pile: tuple[int, int, int] = FULL_DECK) -> go.Figure:
    """Chance of drawing up to a target before a bust, from an empty hand and from hands holding red 3s."""
    figure = go.Figure(
        layout=_layout(
            "Chance of reaching a target by drawing on (full pile)", "target (points in hand)", "chance of reaching it"
        )
    )
    targets = range(1, max_target + 1)
    for index, (points, reds) in enumerate(((0, 0), (3, 1), (6, 2))):
        values = [odds.reach_probability(t, max(points, 0), reds, pile) for t in targets]
        hover = [
            f"{t} points reached from {points} points ({reds} red 3s held) with chance {text}"
            for t, text in zip(targets, _percent_hover(values))
        ]
        figure.add_trace(_line(f"from {points} points, {reds} red 3s", targets, values, index, hover))
    for cost, lane in zip((8, 4, 2), LANES):
        # one height per label: the outer (2) and central (4) lines are close and their labels used to overlap
        figure.add_vline(
            x=cost,
            line={"color": "#888888", "dash": "dot", "width": 1},
            annotation={"text": f"{lane} lane repair: {cost}", "y": 0.3 - 0.1 * LANES.index(lane), "yref": "paper"},
            annotation_position="right",
        )
    figure.update_yaxes(range=[0, 1.02], tickformat=".0%")
    return figure


def expected_points_chart(max_draws: int = 15, pile: tuple[int, int, int] = FULL_DECK) -> go.Figure:
    """Expected points after drawing up to k more cards (a bust loses the red 3s) against stopping now."""
    figure = go.Figure(
        layout=_layout(
            "Expected points after k more cards, against stopping (full pile)",
            "cards drawn, k",
            "expected points in hand (points)",
        )
    )
    draws = range(max_draws + 1)
    for reds in (0, 1, 2):
        values = [odds.expected_points(k, 3 * reds, reds, pile) for k in draws]
        hover = [
            f"{k} more cards from {3 * reds} points ({reds} red 3s): {advisor.points_text(value)} on average"
            for k, value in zip(draws, values)
        ]
        figure.add_trace(_line(f"{reds} red 3s held (stop = {3 * reds})", draws, values, reds, hover))
    return figure


def stopping_chart(
    piles_without_reds: Sequence[tuple[int, int]] = ((16, 23), (8, 12), (4, 6)), max_reds: int = 16
) -> go.Figure:
    """The best stopping rule for expected points with two red 3s held (with fewer, drawing never busts, so always
    draw): the gain of drawing on, then playing best, over stopping; above zero means draw."""
    figure = go.Figure(
        layout=_layout(
            "Best stopping rule with two red 3s held: draw while the gain is above 0",
            "red 3s left in the pile",
            "expected gain of drawing on (points)",
        )
    )
    reds_left = range(max_reds + 1)
    for index, (ones, twos) in enumerate(piles_without_reds):
        gains, hover = [], []
        for reds in reds_left:
            advice = odds.best_stopping_rule("points", 6, 2, (ones, twos, reds))
            gain = advice.value_if_draw - advice.value_if_stop
            gains.append(gain)
            hover.append(
                f"{ones} 1s, {twos} 2s, {reds} red 3s left: drawing on gains {float(gain):+.2f} points on average,"
                f" so {'draw' if advice.draw else 'stop'}"
            )
        figure.add_trace(_line(f"{ones} 1s and {twos} 2s left", reds_left, gains, index, hover))
    figure.add_hline(y=0, line={"color": "#000000", "width": 1})
    figure.update_yaxes(range=[-6, 12])
    return figure


def policy_chart(
    table: Mapping[tuple[int, int], advisor.Choice],
    *,
    hand: tuple[int, int] | None = None,
    title: str = "The best choice for every hand",
    width: int = 760,
    height: int = 330,
) -> go.Figure:
    """The optimal draw-or-stop policy (``advisor.policy``): one cell per hand, points held across and red 3s held
    up; each cell says "draw" or "stop" in words (dark or light too), the hover gives the exact values of both.
    ``hand`` (points, red 3s) is outlined: the live hand."""
    most = max(points for points, _ in table)
    xs = list(range(most + 1))
    z: list[list[float | None]] = []
    text: list[list[str]] = []
    hover: list[list[str]] = []
    for reds in (0, 1, 2):
        row_z: list[float | None] = []
        row_text: list[str] = []
        row_hover: list[str] = []
        for points in xs:
            choice = table.get((points, reds))
            if choice is None:  # r red 3s are already 3r points: no such hand
                row_z.append(None)
                row_text.append("")
                row_hover.append(f"{points} points cannot hold {reds} red 3s")
                continue
            row_z.append(1.0 if choice.draw else 0.0)
            row_text.append("draw" if choice.draw else "stop")
            row_hover.append(f"{points} points, {reds} red 3s held: {row_text[-1]}. {values_text(choice)}")
        z.append(row_z)
        text.append(row_text)
        hover.append(row_hover)
    figure = go.Figure(
        layout=_layout(
            title, "points held (dark: draw, light: stop)", "red 3s held", width=width, height=height, showlegend=False
        )
    )
    figure.update_layout(margin={"l": 55, "r": 10, "t": 50, "b": 45}, title={"font": {"size": 13}})
    wide_enough = (width - 65) / len(xs) >= 26  # room for the words in the cells; else the shades and the hover
    figure.add_heatmap(
        name="best choice",
        x=xs,
        y=[0, 1, 2],
        z=z,
        zmin=0,
        zmax=1,
        colorscale=[[0, "#f0f0f0"], [0.5, "#f0f0f0"], [0.5, "#4d4d4d"], [1, "#4d4d4d"]],
        showscale=False,
        text=text,
        texttemplate="%{text}" if wide_enough else "",
        textfont={"size": 9},
        hovertext=hover,
        hoverinfo="text",
        xgap=1,
        ygap=1,
    )
    if hand is not None and hand in table:
        figure.add_scatter(
            x=[hand[0]],
            y=[hand[1]],
            mode="markers",
            name="your hand",
            hovertext=[f"your hand: {hand[0]} points, {hand[1]} red 3s"],
            hoverinfo="text",
            marker={"symbol": "square-open", "size": 22, "color": "#e69f00", "line": {"width": 3}},
        )
    figure.update_xaxes(showgrid=False, dtick=2 if most > 12 else 1, range=[-0.5, most + 0.5])
    figure.update_yaxes(showgrid=False, tickvals=[0, 1, 2], range=[-0.5, 2.5])
    return figure


def values_text(choice: advisor.Choice) -> str:
    """The exact values behind a choice, in words."""
    if choice.value_if_draw is None:
        return "No card is left to draw."
    if choice.objective == "points":
        return (
            f"Drawing on (then stopping at the best moment) ends with {advisor.points_text(choice.value_if_draw)} on "
            f"average; stopping keeps {advisor.points_text(choice.value_if_stop)}."
        )
    return (
        f"Chance to end the turn with {choice.goal} or more: drawing on {advisor.chance_text(choice.value_if_draw)}, "
        f"stopping {advisor.chance_text(choice.value_if_stop)}."
    )


# --- the hurricane indicator ----------------------------------------------------------------------------


def hurricane_chart(player_counts: Sequence[int] = (2, 3, 4, 5, 6)) -> go.Figure:
    """Chance of a hurricane per shake and per round (every player shakes once), by player count."""
    figure = go.Figure(
        layout=_layout(
            "Hurricane chance by number of players (2-player row proposed, ADP-C2)",
            "players",
            "chance of at least one hurricane",
            barmode="group",
        )
    )
    for index, (name, function) in enumerate(
        (("per shake", odds.hurricane_probability), ("per round", odds.hurricane_per_round))
    ):
        values = [function(n) for n in player_counts]
        figure.add_bar(
            x=[str(n) for n in player_counts],
            y=[float(v) for v in values],
            name=name,
            hovertext=[f"{n} players, {name}: {text}" for n, text in zip(player_counts, _percent_hover(values))],
            hoverinfo="text",
            marker={"color": GREYS[index * 2], "pattern": {"shape": ("", "/")[index]}},
            text=[f"{float(v) * 100:.1f} %" for v in values],
            textposition="outside",
        )
    figure.update_yaxes(range=[0, 0.75], tickformat=".0%")
    return figure


def distance_chart(players: int = 4, shakes: Sequence[int] = (1, 2, 3)) -> go.Figure:
    """Distribution of the fields flown in 1, 2, 3 shakes (a hurricane flies 0), blocking ignored."""
    figure = go.Figure(
        layout=_layout(
            f"Fields flown in k shakes with {players} players (wind table 2/3/4/5)",
            "fields flown",
            "chance",
            barmode="group",
        )
    )
    figure.update_yaxes(tickformat=".0%")
    for index, count in enumerate(shakes):
        distribution = odds.distance_distribution(players, count)
        figure.add_bar(
            x=list(distribution),
            y=[float(v) for v in distribution.values()],
            name=f"{count} shake{'' if count == 1 else 's'}",
            hovertext=[
                f"{count} shakes, {d} fields: {text}"
                for d, text in zip(distribution, _percent_hover(list(distribution.values())))
            ],
            hoverinfo="text",
            marker={"color": GREYS[index % 3], "pattern": {"shape": ("", "/", ".")[index % 3]}},
        )
    return figure


def survival_chart(max_cards: int = 12, hurricanes: Sequence[int] = (1, 2)) -> go.Figure:
    """Repair affordability by lane: chance that a hand of n cards (at most two red 3s) pays j hurricanes."""
    figure = go.Figure(
        layout=_layout(
            "Can a hand of n cards pay j hurricanes? (no drawing in between)",
            "cards in hand, n",
            "chance the hand pays them all",
        )
    )
    sizes = range(1, max_cards + 1)
    index = 0
    for lane in LANES:
        for count in hurricanes:
            values = [odds.survival_probability(count, lane, n) for n in sizes]
            hover = [
                f"{lane} lane, {count} hurricane(s), {n} cards: {text}"
                for n, text in zip(sizes, _percent_hover(values))
            ]
            trace = _line(
                f"{lane} lane ({odds.repair_cost(lane)} points), {count} hurricane(s)", sizes, values, index, hover
            )
            trace.marker.symbol = LANE_SYMBOL[lane]
            trace.line.dash = ("solid", "dot")[count - 1] if count <= 2 else "dash"
            trace.line.color = GREYS[LANES.index(lane)]
            figure.add_trace(trace)
            index += 1
    figure.update_yaxes(range=[0, 1.02], tickformat=".0%")
    return figure


def threshold_chart(rates: Mapping[int, Fraction], games: int) -> go.Figure:
    """Win rate of a threshold player by its target, against threshold players with random targets."""
    targets = sorted(rates)
    figure = go.Figure(
        layout=_layout(
            f"Threshold player: win rate by target ({games} games each, 4 players)",
            "target (points before flying)",
            "share of games won",
        )
    )
    figure.add_bar(
        x=targets,
        y=[float(rates[t]) for t in targets],
        marker={"color": "#777777"},
        hovertext=[f"target {t}: {rates[t]} = {float(rates[t]):.1%}" for t in targets],
        hoverinfo="text",
    )
    figure.add_hline(y=0.25, line={"dash": "dash", "color": "#000000"}, annotation_text="1 in 4")
    return figure


# --- the track -------------------------------------------------------------------------------------------


def river_lines(track: Track) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Segments across the three lanes where one river section ends and the next begins."""
    graph = track.graph
    lines = []
    for section in range(1, track.sections):
        points = []
        for lane in LANES:
            last = [n for n, d in graph.nodes(data=True) if d["lane"] == lane and d["section"] == section]
            first = [n for n, d in graph.nodes(data=True) if d["lane"] == lane and d["section"] == section + 1]
            a = max(last, key=lambda n: graph.nodes[n]["step"])
            b = min(first, key=lambda n: graph.nodes[n]["step"])
            points.append(
                ((graph.nodes[a]["x"] + graph.nodes[b]["x"]) / 2, (graph.nodes[a]["y"] + graph.nodes[b]["y"]) / 2)
            )
        (x0, y0), (x1, y1) = points[0], points[-1]
        stretch = 0.12
        lines.append(
            ((x0 - stretch * (x1 - x0), y0 - stretch * (y1 - y0)), (x1 + stretch * (x1 - x0), y1 + stretch * (y1 - y0)))
        )
    return lines


def _add_links(figure: go.Figure, track: Track) -> None:
    """The lane links solid, the cross-links dotted: one trace each."""
    graph = track.graph
    for kind, style in (
        ("lane", {"color": "#777777", "width": 2}),
        ("cross", {"color": "#bbbbbb", "width": 1, "dash": "dot"}),
    ):
        xs: list[Any] = []
        ys: list[Any] = []
        for a, b, data in graph.edges(data=True):
            if data["kind"] == kind:
                xs += [graph.nodes[a]["x"], graph.nodes[b]["x"], None]
                ys += [graph.nodes[a]["y"], graph.nodes[b]["y"], None]
        figure.add_scatter(x=xs, y=ys, mode="lines", line=style, hoverinfo="skip", name=f"{kind} links")


def _add_rivers(figure: go.Figure, track: Track) -> None:
    """The rivers between the sections, one trace (its legend entry shows or hides them all), each named."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for number, ((x0, y0), (x1, y1)) in enumerate(river_lines(track), start=1):
        xs += [x0, x1, None]
        ys += [y0, y1, None]
        # the name just beyond the outer end, drawn above the fields (a trace's text went under the field markers)
        figure.add_annotation(
            x=x1 + 0.09 * (x1 - x0),
            y=y1 + 0.09 * (y1 - y0),
            text=f"river {number}",
            showarrow=False,
            font={"size": 11, "color": "#1f4e9c"},
            bgcolor=BACKGROUND,
        )
    figure.add_scatter(x=xs, y=ys, mode="lines", line={"color": RIVER, "width": 5}, hoverinfo="skip", name="river")


def _add_fields(figure: go.Figure, track: Track) -> None:
    """The lane fields, shaped by lane and numbered along it, with a legend entry per lane."""
    graph = track.graph
    fields = [n for n, d in graph.nodes(data=True) if d["kind"] == "field"]
    # Each field shows its number along its lane in the section, the number the texts use ("section 2, field 5").
    figure.add_scatter(
        x=[graph.nodes[n]["x"] for n in fields],
        y=[graph.nodes[n]["y"] for n in fields],
        mode="markers+text",
        customdata=fields,
        text=[str(graph.nodes[n]["step"]) for n in fields],
        textfont={"size": FIELD_FONT, "color": "#333333"},
        textposition="middle center",
        hovertext=[graph.nodes[n]["label"] for n in fields],
        hoverinfo="text",
        name=FIELDS,
        showlegend=False,
        marker={
            "size": FIELD_SIZE,
            "color": "#ffffff",
            "line": {"color": "#444444", "width": 1.2},
            "symbol": [LANE_SYMBOL[graph.nodes[n]["lane"]] for n in fields],
        },
    )
    # a legend entry per lane: the fields' shapes tell the lanes apart without colour
    for lane in LANES:
        figure.add_scatter(
            x=[None],
            y=[None],
            mode="markers",
            name=f"{lane} lane",
            hoverinfo="skip",
            marker={
                "size": 12,
                "color": "#ffffff",
                "line": {"color": "#444444", "width": 1.2},
                "symbol": LANE_SYMBOL[lane],
            },
        )


def _add_landmarks(figure: go.Figure, track: Track) -> None:
    """The passenger fields, the start field and the airport."""
    graph = track.graph
    passenger = list(track.passenger_fields)
    figure.add_scatter(
        x=[graph.nodes[n]["x"] for n in passenger],
        y=[graph.nodes[n]["y"] for n in passenger],
        mode="markers+text",
        text=["", "passenger"],
        textposition="top right",
        hoverinfo="text",
        name=PASSENGER,
        customdata=passenger,
        hovertext=["passenger field (ADP-8.1)"] * len(passenger),
        marker={"size": 19, "symbol": "star-open", "color": "#000000", "line": {"width": 2}},
    )
    ends = ["start", "airport"]
    figure.add_scatter(
        x=[graph.nodes[n]["x"] for n in ends],
        y=[graph.nodes[n]["y"] for n in ends],
        mode="markers+text",
        # the airport is ringed by the inner lane, whose numbers a word under it would cover: its sign sits inside
        text=["START", "\u2708"],
        textposition=["bottom center", "middle center"],
        hoverinfo="text",
        name=ENDS,
        hovertext=["start field", "airport"],
        customdata=ends,
        marker={"size": 30, "symbol": "square", "color": "#dddddd", "line": {"color": "#000000", "width": 2}},
    )


def track_figure(track: Track, width: int = 640, height: int = 600) -> go.Figure:
    """The track: lane links solid, cross-links dotted, fields shaped by lane, rivers, passenger, start, airport.

    The live board draws it (:func:`.widget.board_figure`), and the notebook's static track charts draw on it."""
    figure = go.Figure(
        layout=go.Layout(
            width=width,
            height=height,
            margin={"l": 5, "r": 5, "t": 35, "b": 5},
            showlegend=True,
            dragmode=False,
            legend={"orientation": "h", "y": -0.02, "font": {"size": 11}},
            plot_bgcolor=BACKGROUND,
            clickmode="event",
            xaxis={"visible": False, "scaleanchor": "y"},
            yaxis={"visible": False},
            title={"text": "Ab die Post! - the track (proposed default, see ADP-C1)", "x": 0.5, "font": {"size": 14}},
        )
    )
    _add_links(figure, track)
    _add_rivers(figure, track)
    _add_fields(figure, track)
    _add_landmarks(figure, track)
    # room on both sides for the labels at the rivers' outer ends (plotly sizes the axes by the points alone)
    xs = [data["x"] for _, data in track.graph.nodes(data=True)]
    pad = 0.11 * (max(xs) - min(xs))
    figure.update_xaxes(range=[min(xs) - pad, max(xs) + pad])
    return figure


def track_graph_chart(track: Track | None = None) -> go.Figure:
    """The networkx track graph with the shortest route along each lane and with lane changes."""
    track = track or load_track()
    graph = track.graph
    figure = track_figure(track, width=760, height=700)
    figure.update_layout(title={"text": "The track graph: shortest routes from the start field to the airport"})
    routes = shortest_routes(track)
    for index, (lane, route) in enumerate(routes.items()):
        name = "with lane changes" if lane == "any" else f"{lane} lane only"
        figure.add_scatter(
            x=[graph.nodes[n]["x"] for n in route],
            y=[graph.nodes[n]["y"] for n in route],
            mode="lines",
            name=f"{name}: {len(route) - 1} steps",
            hoverinfo="name",
            line={"color": ("#d62728", "#1f77b4", "#2ca02c", "#000000")[index], "width": 3, "dash": DASHES[index]},
        )
    return figure


def example_routes(track: Track | None = None, origin: str = "central-1-2", distance: int = 5) -> dict[str, Any]:
    """ADP-C9 on the track: the legal route of ``distance`` fields from ``origin`` with the most lane changes, and a
    route the rules refuse because its first step changes lane (ADP-6.3)."""
    track = track or load_track()
    legal = routes(track, origin, distance, 1)
    changes = {path: sum(track.lane[a] != track.lane[b] for a, b in zip(path, path[1:])) for path in legal}
    best = min(legal, key=lambda path: (-changes[path], path))
    refused: tuple[str, ...] = ()
    cross = sorted(other for other, is_lane in track.ahead[(origin, 1)] if not is_lane)
    if cross:  # off over a cross-link, then straight along the new lane for the rest of the move
        refused = (origin, cross[0])
        while len(refused) <= distance:
            ahead = [other for other, is_lane in track.ahead.get((refused[-1], 1), ()) if is_lane]
            if not ahead:
                break
            refused += (ahead[0],)
    return {"legal": best, "changes": changes[best], "refused": refused}


def example_route_chart(track: Track | None = None, origin: str = "central-1-2", distance: int = 5) -> go.Figure:
    """A yellow-marble move drawn step by step (ADP-C9): straight off, lane changes in between, straight landing;
    beside it, dashed, a route refused because it changes lane on its first step."""
    track = track or load_track()
    graph = track.graph
    example = example_routes(track, origin, distance)
    figure = track_figure(track, width=640, height=620)
    figure.update_layout(
        title={"text": f"ADP-C9: a move of {distance} fields with {example['changes']} lane changes", "x": 0.5}
    )
    if example["refused"]:
        refused = example["refused"]
        figure.add_scatter(
            x=[graph.nodes[f]["x"] for f in refused],
            y=[graph.nodes[f]["y"] for f in refused],
            mode="lines",
            name="refused: changes lane on its first step (ADP-6.3)",
            hoverinfo="name",
            line={"color": "#999999", "width": 3, "dash": "dash"},
        )
    path = example["legal"]
    figure.add_scatter(
        x=[graph.nodes[f]["x"] for f in path],
        y=[graph.nodes[f]["y"] for f in path],
        mode="lines+markers+text",
        name="legal: straight off, lane changes, straight landing",
        text=["from"] + [f"step {n}" for n in range(1, len(path))],
        textposition="top left",
        textfont={"size": 10},
        hovertext=[field_name(track, field) for field in path],
        hoverinfo="text",
        line={"color": "#000000", "width": 4},
        marker={"size": 9, "color": "#000000"},
    )
    xs = [graph.nodes[f]["x"] for f in path]
    ys = [graph.nodes[f]["y"] for f in path]
    pad = 3.5
    figure.update_xaxes(range=[min(xs) - pad, max(xs) + pad])
    figure.update_yaxes(range=[min(ys) - pad, max(ys) + pad])
    return figure
