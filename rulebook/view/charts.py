"""What every game's Plotly charts share: one finish for titles, axis titles, size and a print-friendly theme."""

from __future__ import annotations

import plotly.graph_objects as go

WIDTH = 740
HEIGHT = 450


def finish(
    figure: go.Figure, title: str, x_title: str, y_title: str, *, width: int = WIDTH, height: int = HEIGHT
) -> go.Figure:
    """Title, axis titles (with units), a width that fits the notebook, a white theme and a legend below."""
    figure.update_layout(
        title={"text": title, "x": 0.5},
        width=width,
        height=height,
        template="plotly_white",
        xaxis_title=x_title,
        yaxis_title=y_title,
        legend={"orientation": "h", "y": -0.22},
        margin={"l": 70, "r": 20, "t": 60, "b": 60},
    )
    return figure
