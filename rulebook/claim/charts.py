"""Plotly charts for Claim: the island's territories read from the graph of points, and statistics of bot games.

Data in, Figure out: the numbers come from :func:`rules.territory_summary` and from :mod:`bots`
(``play_games``, ``game_record``, ``conquests``); no rule is decided here.  Claim has no dice, so every
number is an exact count over the games played, told in words in the hover text ("5 of 12 games"); shares are
percentages with one decimal.  Legends sit above the plot, where they cover no bar or line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import plotly.graph_objects as go

from ..view.charts import finish
from .bots import conquests, game_record
from .rules import State, teams_of

WIDTH = 760
DASHES = ("solid", "dash", "dot", "dashdot")
MARKERS = ("circle", "square", "diamond", "triangle-up")
PATTERNS = ("", "/", ".", "x", "-")


# the sides' lines in the players' own hues, dark enough on white, and told apart by dash and marker in grey-scale
LINE_COLOURS = {"red": "#b71c1c", "blue": "#1565c0", "yellow": "#8d6e00", "green": "#00695c"}


def _layout(figure: go.Figure, title: str, x_title: str, y_title: str) -> go.Figure:
    figure = finish(figure, title, x_title, y_title, width=WIDTH)
    # a legend above the plot, right-aligned under the title: it covers no line and no axis title
    figure.update_layout(legend={"orientation": "h", "x": 1, "xanchor": "right", "y": 1.0, "yanchor": "bottom"})
    return figure


def _percent(value: float) -> str:
    return f"{value:.1f} %"


def territory_sizes(summary: dict[str, Any]) -> go.Figure:
    """Points per territory (the rules say 11-16)."""
    letters = sorted(summary["sizes"])
    values = [summary["sizes"][letter] for letter in letters]
    figure = go.Figure(
        go.Bar(
            x=letters,
            y=values,
            marker={"color": "#757575", "line": {"color": "black", "width": 1}},
            text=values,
            textposition="outside",
            hovertemplate="territory %{x} has %{y} points<extra></extra>",
        )
    )
    return _layout(figure, "Territory sizes on this island", "territory", "points (count)")


def border_lengths(summary: dict[str, Any]) -> go.Figure:
    """Heat map of how many neighbouring point pairs each two territories share (0 = no common border)."""
    letters = sorted(summary["sizes"])
    matrix = [[0] * len(letters) for _ in letters]
    for (first, second), length in summary["borders"].items():
        i, j = letters.index(first), letters.index(second)
        matrix[i][j] = matrix[j][i] = length
    words = [
        [
            "the same territory"
            if i == j
            else f"territories {letters[i]} and {letters[j]} "
            + (f"share a border of {matrix[i][j]} point pairs" if matrix[i][j] else "do not touch")
            for j in range(len(letters))
        ]
        for i in range(len(letters))
    ]
    shown = [
        ["" if i == j or not matrix[i][j] else str(matrix[i][j]) for j in range(len(letters))]
        for i in range(len(letters))
    ]
    figure = go.Figure(
        go.Heatmap(
            z=[[None if i == j else value for j, value in enumerate(row)] for i, row in enumerate(matrix)],
            x=letters,
            y=letters,
            colorscale="Greys",
            colorbar={"title": "point pairs"},
            text=shown,
            texttemplate="%{text}",
            customdata=words,
            hovertemplate="%{customdata}<extra></extra>",
        )
    )
    figure = _layout(figure, "Borders between territories (neighbouring point pairs)", "territory", "territory")
    figure.update_yaxes(autorange="reversed")
    return figure


def territory_distances(summary: dict[str, Any], colours: Sequence[str]) -> go.Figure:
    """Heat map: orthogonal steps from each player's nearest piece to each territory (0 = already there)."""
    letters = sorted(summary["sizes"])
    rows = [[summary["distances"][player][letter] for letter in letters] for player in range(len(colours))]
    figure = go.Figure(
        go.Heatmap(
            z=rows,
            x=letters,
            y=list(colours),
            colorscale="Greys",
            reversescale=True,
            colorbar={"title": "steps"},
            text=rows,
            texttemplate="%{text}",
            customdata=[
                [
                    f"{colour} has a piece in territory {letter}"
                    if value == 0
                    else f"{colour}'s nearest piece is {value} step{'s' if value != 1 else ''} from territory {letter}"
                    for letter, value in zip(letters, row)
                ]
                for colour, row in zip(colours, rows)
            ],
            hovertemplate="%{customdata}<extra></extra>",
        )
    )
    return _layout(figure, "How far each territory is from each player's pieces", "territory", "player")


def first_player_advantage(games: Sequence[State]) -> go.Figure:
    """Share of games won by the player who moved first, second, ... (seat order counted from the first player)."""
    players = games[0].players
    wins: Counter[int] = Counter()
    draws = 0
    for game in games:
        if game.result is None or not game.result.winners:
            draws += 1
            continue
        for winner in game.result.winners:
            wins[(winner - game.first) % players] += 1
    labels = [f"{ordinal} to move" for ordinal in ("1st", "2nd", "3rd", "4th")[:players]] + ["draw"]
    counts = [wins[position] for position in range(players)] + [draws]
    total = len(games)
    shares = [Fraction(count, total) for count in counts]
    figure = go.Figure(
        go.Bar(
            x=labels,
            y=[float(share) * 100 for share in shares],
            marker={
                "color": "#9e9e9e",
                "line": {"color": "black", "width": 1},
                "pattern": {"shape": list(PATTERNS[: len(labels)])},
            },
            text=[_percent(float(share) * 100) for share in shares],
            textposition="outside",
            customdata=[f"{count} of {total} games" for count in counts],
            hovertemplate="%{x}: won %{customdata} (%{y:.1f} %)<extra></extra>",
        )
    )
    note = " (4 players: both partners of the winning side count)" if players == 4 else ""
    figure = _layout(figure, f"Wins by turn order, {total} bot games{note}", "turn order", "games won (%)")
    figure.update_yaxes(range=[0, 105], ticksuffix=" %")
    return figure


def territory_control(final: State) -> go.Figure:
    """Towers on the board for each side after every battle turn of one game."""
    record = game_record(final)
    sides = teams_of(final.players)
    figure = go.Figure()
    for index, side in enumerate(sides):
        name = " and ".join(final.colours[p] for p in side)
        colour = LINE_COLOURS[final.colours[side[0]]]
        figure.add_trace(
            go.Scatter(
                x=[row["turn"] for row in record],
                y=[row["towers"][index] for row in record],
                name=name,
                mode="lines+markers",
                line={"dash": DASHES[index % 4], "color": colour, "width": 2.5, "shape": "hv"},
                marker={"symbol": MARKERS[index % 4], "size": 6, "color": colour},
                hovertemplate=name + " had %{y} towers on the board after battle turn %{x}<extra></extra>",
            )
        )
    reason = final.result.reason.replace("+", " and ") if final.result else "unfinished"
    figure = _layout(
        figure, f"Territory control over one game ({reason})", "battle turn (count)", "towers on the board (count)"
    )
    figure.update_yaxes(dtick=1, rangemode="tozero")
    return figure


def territory_changes(games: Sequence[State]) -> go.Figure:
    """How often each territory changed hands (a tower placed in it), per game on average."""
    totals: Counter[str] = Counter()
    for game in games:
        totals.update(conquests(game))
    letters = sorted(totals)
    count = len(games)
    figure = go.Figure(
        go.Bar(
            x=letters,
            y=[totals[letter] / count for letter in letters],
            marker={"color": "#8d8d8d", "line": {"color": "black", "width": 1}},
            text=[f"{totals[letter] / count:.1f}" for letter in letters],
            textposition="outside",
            customdata=[
                f"changed hands {totals[letter]} times in {count} games ({Fraction(totals[letter], count)} per game)"
                for letter in letters
            ],
            hovertemplate="territory %{x} %{customdata}<extra></extra>",
        )
    )
    return _layout(
        figure,
        f"How often each territory changes hands ({count} bot games)",
        "territory",
        "towers placed per game (count)",
    )


def captures_per_turn(games: Sequence[State]) -> go.Figure:
    """Distribution of the number of pieces and towers captured in one battle turn."""
    histogram: Counter[int] = Counter()
    for game in games:
        histogram.update(row["captured"] for row in game_record(game))
    turns = sum(histogram.values())
    values = list(range(max(histogram) + 1))
    figure = go.Figure(
        go.Bar(
            x=values,
            y=[100 * histogram[v] / turns for v in values],
            marker={"color": "#616161", "line": {"color": "black", "width": 1}},
            text=[_percent(100 * histogram[v] / turns) for v in values],
            textposition="outside",
            customdata=[f"{histogram[v]} of {turns} turns" for v in values],
            hovertemplate="%{x} captured in %{customdata} (%{y:.1f} %)<extra></extra>",
        )
    )
    figure = _layout(
        figure,
        f"Captures per turn ({len(games)} bot games, {turns} battle turns)",
        "pieces and towers captured in the turn (count)",
        "turns (%)",
    )
    figure.update_xaxes(dtick=1)
    figure.update_yaxes(ticksuffix=" %")
    return figure
