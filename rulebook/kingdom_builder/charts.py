"""Plotly charts for Kingdom Builder: card odds, legal hexes per terrain, score breakdowns and bot statistics.

Data in (from :mod:`.odds`, :func:`.rules.score` and :func:`.bots.tournament`), Figure out. Every chart has a
title, axis titles with units, exact numbers in the hover text, and dashes / patterns / shades that survive
grey-scale printing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import plotly.graph_objects as go

from ..view.charts import finish
from .odds import OWN, Viewer, legal_hexes_by_terrain, terrain_within
from .rules import COLOURS, TERRAINS, State, score, terrain_word

WIDTH = 760
HEIGHT = 440
DASHES = ("solid", "dash", "dot", "dashdot", "longdash")
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x")
PATTERNS = ("", "/", "x", ".", "+", "-", "\\")
# Terrain shades from light to dark, so the five terrains differ in grey-scale too.
# The board's terrain colours (widget.TERRAIN_FILL), except flower field, a shade darker to show as a line on white.
TERRAIN_SHADE = {"desert": "#f0d898", "grass": "#89af75", "flower": "#a99bd9", "canyon": "#b66816", "forest": "#216847"}
CARD_SHADE = ("#fde725", "#5ec962", "#21918c", "#3b528b", "#440154")


SMALL_WIDTH = 340  # the app's side panel
SMALL_HEIGHT = 300


def chance_words(chance: Fraction) -> str:
    """A chance as a reader wants it: the exact fraction while it stays short, and the percent with one decimal."""
    if chance == 0:
        return "0 % (impossible)"
    if chance == 1:
        return "100 % (certain)"
    percent = f"{float(chance) * 100:.1f} %"
    return f"{chance.numerator}/{chance.denominator} = {percent}" if chance.denominator <= 999 else percent


def _layout(
    figure: go.Figure, title: str, x_title: str, y_title: str, width: int = WIDTH, height: int = HEIGHT
) -> go.Figure:
    """The shared finish, with the legend at the foot of the figure, under the axis title, where it covers nothing;
    a narrow figure (the app's side panel) gets smaller type and margins."""
    small = width < 500
    finish(figure, title, x_title, y_title, width=width, height=height)
    figure.update_layout(
        legend={"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0, "xanchor": "left"},
        margin={
            "l": 50 if small else 70,
            "r": 10 if small else 20,
            "t": 50 if small else 60,
            "b": 110 if small else 90,
        },
        font={"size": 11 if small else 13},
        title={"font": {"size": 13 if small else 16}},
    )
    return figure


def draw_odds_figure(
    state: State,
    player: int,
    max_draws: int = 6,
    *,
    width: int = WIDTH,
    height: int = HEIGHT,
    chosen: int | None = None,
    viewer: Viewer = OWN,
) -> go.Figure:
    """Chance (%) that ``player`` gets each terrain at least once within their next 1..``max_draws`` turns (one card
    a turn), following the real card flow (KB-C4), as ``viewer`` knows the table (:func:`.odds.terrain_within`).
    ``chosen`` marks one k with a vertical line.

    Terrains with the same chances at every k (the same number of cards left) share one line, named after all of
    them, so that no line hides another."""
    figure = go.Figure()
    draws = list(range(1, max_draws + 1))
    lines: dict[tuple, list[str]] = {}
    for terrain in TERRAINS:
        row = tuple(terrain_within(state, player, terrain, k, viewer=viewer) for k in draws)
        lines.setdefault(row, []).append(terrain)
    for number, (chances, terrains) in enumerate(lines.items()):
        name = " = ".join(terrain_word(t) for t in terrains)
        shade = TERRAIN_SHADE[terrains[0]]
        figure.add_scatter(
            x=draws,
            y=[100 * float(c) for c in chances],
            mode="lines+markers",
            name=name,
            line={"dash": DASHES[number], "color": shade, "width": 3},
            marker={"symbol": SYMBOLS[number], "size": 9, "color": shade, "line": {"width": 1, "color": "#000"}},
            hovertext=[
                f"{name} at least once in your next {k} turn{'s' if k > 1 else ''}: {chance_words(c)}"
                for k, c in zip(draws, chances)
            ],
            hoverinfo="text",
        )
    if chosen is not None and 1 <= chosen <= max_draws:
        figure.add_vline(x=chosen, line={"color": "#555", "width": 1, "dash": "dot"})
    figure.update_yaxes(range=[0, 104], ticksuffix=" %", dtick=20)
    figure.update_xaxes(dtick=1, range=[0.7, max_draws + 0.3])
    title = f"{COLOURS[player].capitalize()}: chance of a terrain within k turns"
    return _layout(figure, title, "own turns from now, k (one card a turn)", "chance (%)", width, height)


def legal_hexes_figure(state: State, player: int) -> go.Figure:
    """How many hexes ``player`` could start building on now with a card of each terrain (KB-6.3 applied)."""
    counts = legal_hexes_by_terrain(state, player)
    figure = go.Figure(
        go.Bar(
            x=[terrain_word(t) for t in TERRAINS],
            y=[counts[t] for t in TERRAINS],
            text=[counts[t] for t in TERRAINS],
            textposition="outside",
            marker={
                "color": [TERRAIN_SHADE[t] for t in TERRAINS],
                "line": {"color": "#000", "width": 1},
                "pattern": {"shape": list(PATTERNS[:5])},
            },
            hovertext=[
                f"with a {terrain_word(t)} card: {counts[t]} hex{'es' if counts[t] != 1 else ''} to build on now"
                for t in TERRAINS
            ],
            hoverinfo="text",
        )
    )
    return _layout(
        figure,
        f"Legal hexes for {COLOURS[player]}'s first settlement, per terrain card",
        "terrain card",
        "legal hexes (count)",
    )


def score_figure(state: State) -> go.Figure:
    """Running score per player, stacked by scoring card and castles."""
    table = score(state)
    parts = [*state.cards, "castles"]
    players = [COLOURS[p] for p in range(state.players)]
    figure = go.Figure()
    for number, part in enumerate(parts):
        values = [table[p][part] for p in range(state.players)]
        figure.add_bar(
            x=players,
            y=values,
            name=part.title(),
            text=values,
            textposition="inside",
            marker={
                "color": CARD_SHADE[number],
                "line": {"color": "#000", "width": 1},
                "pattern": {"shape": PATTERNS[number]},
            },
            hovertext=[f"{name}: {v} gold from {part}" for name, v in zip(players, values)],
            hoverinfo="text",
        )
    totals = [table[p]["total"] for p in range(state.players)]
    figure.add_scatter(
        x=players,
        y=totals,
        mode="text",
        text=[f"{t} gold" for t in totals],
        textposition="top center",
        showlegend=False,
        hoverinfo="skip",
    )
    figure.update_layout(barmode="stack")
    return _layout(figure, "Score breakdown per card and player", "player", "gold (points)")


def bot_games_figure(records: Sequence[Mapping[str, object]]) -> go.Figure:
    """Final scores of computer games, one box per bot, with wins counted in the legend."""
    figure = go.Figure()
    names = sorted({str(r["bot"]) for r in records})
    for number, name in enumerate(names):
        mine = [r for r in records if r["bot"] == name]
        totals = [int(r["total"]) for r in mine]  # type: ignore[call-overload]
        wins = sum(bool(r["won"]) for r in mine)
        figure.add_box(
            y=totals,
            name=f"{name} ({wins} of {len(mine)} won)",
            boxpoints="all",
            jitter=0.4,
            pointpos=0,
            marker={"color": CARD_SHADE[1 + 2 * number], "symbol": SYMBOLS[number], "size": 7},
            line={"color": "#000"},
            fillcolor=CARD_SHADE[1 + 2 * number],
            hovertext=[
                f"game {r['game']}, seat {r['seat']}: {r['total']} gold{' (won)' if r['won'] else ''}" for r in mine
            ],
            hoverinfo="text",
        )
    return _layout(figure, "End-of-game scores of computer players", "computer player", "final score (gold)")
