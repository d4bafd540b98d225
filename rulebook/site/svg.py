"""A board's figure as a static SVG file: what ``rulebook/view/board.js`` draws in the app, drawn in Python at build
time.

The boards are plotly figures of scatter traces (``BoardView``), sent to the page as plain JSON; this draws the same
JSON (markers with plotly's symbols, lines with dashes and gaps, text, annotations, a title and a legend, axes hidden
and kept to one scale) with the same geometry as board.js, so the rules pages show each game's board without
JavaScript, Python or plotly.js in the browser.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

FONT = '"Open Sans", verdana, arial, sans-serif'
SQRT3 = math.sqrt(3)
COLOURWAY = ["#636efa", "#EF553B", "#00cc96", "#ab63fa", "#FFA15A", "#19d3f3", "#FF6692", "#B6E880", "#FF97FF"]


def _polygon(points: list[tuple[float, float]]) -> str:
    return "M" + "L".join(f"{x:.2f},{y:.2f}" for x, y in points) + "Z"


def _around(count: int, radius: float, turn: float) -> list[tuple[float, float]]:
    angles = (turn + 2 * math.pi * i / count for i in range(count))
    return [(radius * math.sin(angle), -radius * math.cos(angle)) for angle in angles]


def _star(count: int, outer: float, inner: float) -> list[tuple[float, float]]:
    points = []
    for i in range(2 * count):
        radius, angle = (inner if i % 2 else outer), math.pi * i / count
        points.append((radius * math.sin(angle), -radius * math.cos(angle)))
    return points


def _cross(r: float) -> str:
    a, b = 0.4 * r, 1.2 * r
    return _polygon(
        [(b, a), (a, a), (a, b), (-a, b), (-a, a), (-b, a), (-b, -a), (-a, -a), (-a, -b), (a, -b)] + [(a, -a), (b, -a)]
    )


def _x(r: float) -> str:
    a = 0.8 * r / math.sqrt(2)
    b = 2 * a
    corners = [(0, a), (a, b), (b, a), (a, 0), (b, -a), (a, -b), (0, -a), (-a, -b), (-b, -a), (-a, 0), (-b, a), (-a, b)]
    return _polygon(corners)


# plotly's marker symbols as paths centred on the point (r: the radius in px, y down), as board.js draws them
SHAPES: dict[str, Callable[[float], str]] = {
    "circle": lambda r: f"M{r:.2f},0A{r:.2f},{r:.2f} 0 1,1 0,-{r:.2f}A{r:.2f},{r:.2f} 0 0,1 {r:.2f},0Z",
    "square": lambda r: _polygon([(r, r), (-r, r), (-r, -r), (r, -r)]),
    "diamond": lambda r: _polygon(_around(4, 1.3 * r, 0)),
    "triangle-up": lambda r: _polygon([(-2 * r / SQRT3, r / 2), (2 * r / SQRT3, r / 2), (0, -r)]),
    "triangle-down": lambda r: _polygon([(-2 * r / SQRT3, -r / 2), (2 * r / SQRT3, -r / 2), (0, r)]),
    "pentagon": lambda r: _polygon(_around(5, r, 0)),
    "hexagon": lambda r: _polygon(_around(6, r, 0)),
    "hexagon2": lambda r: _polygon(_around(6, r, math.pi / 6)),
    "octagon": lambda r: _polygon(_around(8, r, math.pi / 8)),
    "star": lambda r: _polygon(_star(5, 1.4 * r, 1.4 * r * 0.382)),
    "hexagram": lambda r: _polygon(_star(6, 1.32 * r, 0.76 * r)),
    "cross": _cross,
    "x": _x,
    "x-thin": lambda r: f"M{r:.2f},{r:.2f}L{-r:.2f},{-r:.2f}M{r:.2f},{-r:.2f}L{-r:.2f},{r:.2f}",
    "cross-thin": lambda r: f"M0,{1.4 * r:.2f}V{-1.4 * r:.2f}M{1.4 * r:.2f},0H{-1.4 * r:.2f}",
    "arrow": lambda r: _polygon([(0, 0), (-0.62 * r, 1.9 * r), (0.62 * r, 1.9 * r)]),
}
LINE_ONLY = {"x-thin", "cross-thin"}
DASHES = {"dot": (1, 1), "dash": (3, 3), "longdash": (5, 5), "dashdot": (3, 1, 1, 1), "longdashdot": (5, 2, 1, 2)}


def _symbol(name: Any) -> tuple[str, bool]:
    text = str(name if name is not None else "circle")
    is_open = "-open" in text
    text = text.replace("-open", "").replace("-dot", "")
    shape = text if text in SHAPES else "circle"
    return shape, is_open or shape in LINE_ONLY


def _dash(dash: Any, width: float) -> str:
    unit = max(width or 1, 3)
    if not dash or dash == "solid":
        return ""
    if dash in DASHES:
        return ",".join(f"{n * unit:g}" for n in DASHES[dash])
    return str(dash).replace("px", "")


def _at(value: Any, i: int, fallback: Any) -> Any:
    own = value[i] if isinstance(value, list) and i < len(value) else (None if isinstance(value, list) else value)
    return fallback if own is None else own


def _has(trace: dict[str, Any], part: str) -> bool:
    mode = trace.get("mode") or ("lines" if len(trace.get("x") or ()) > 20 else "lines+markers")
    return part in str(mode)


def _shown(trace: dict[str, Any]) -> bool:
    return trace.get("visible") not in (False, "legendonly")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def plain_text(text: Any) -> str:
    """One line of a label as plain text: ``<br>`` a space, other tags dropped (the SVG writer escapes it)."""
    import html
    import re

    one_line = re.sub(r"<br\s*/?>", " ", str(text), flags=re.IGNORECASE)
    return html.unescape(re.sub(r"<[^>]*>", "", one_line))


def _attr(value: Any) -> str:
    return escape(str(value), {'"': "&quot;"})


def _family(name: str) -> str:
    return name if name.rstrip().endswith(("sans-serif", "serif", "monospace")) else f"{name}, sans-serif"


def _font(layout: dict[str, Any]) -> dict[str, Any]:
    base = ((layout.get("template") or {}).get("layout") or {}).get("font") or {}
    own = layout.get("font") or {}
    return {
        "family": own.get("family") or base.get("family") or FONT,
        "size": own.get("size") or base.get("size") or 12,
        "color": own.get("color") or base.get("color") or "#444",
    }


def _text_width(text: Any, size: float) -> float:
    return len(plain_text(text)) * size * 0.58


def _legend(layout: dict[str, Any], traces: list[dict[str, Any]], width: float, font: dict[str, Any]) -> Any:
    items = [
        (index, trace)
        for index, trace in enumerate(traces)
        if trace.get("visible") is not False and trace.get("showlegend") is not False and trace.get("name")
        if len(trace.get("x") or ()) > 0
    ]
    if layout.get("showlegend") is not True or not items:
        return None
    legend = layout.get("legend") or {}
    size = (legend.get("font") or {}).get("size") or font["size"]
    cell = max(
        [40 + _text_width(trace["name"], size) + 10 for _, trace in items] + [(legend.get("itemwidth") or 30) + 40]
    )
    horizontal = legend.get("orientation") == "h"
    columns = max(1, math.floor((width - 10) / cell)) if horizontal else 1
    rows = math.ceil(len(items) / columns)
    row = max(size * 1.6, 19)
    return {
        "items": items,
        "size": size,
        "cell": cell,
        "columns": columns,
        "row": row,
        "horizontal": horizontal,
        "height": rows * row + 6,
    }


def _axis_range(traces: list[dict[str, Any]], axis: str, length: float) -> list[float]:
    """An axis's range from its points, with room for the largest marker (plotly's autorange, as board.js has it)."""
    low, high, pad = math.inf, -math.inf, 0.0
    for trace in traces:
        if not _shown(trace):
            continue
        markers = _has(trace, "markers")
        for i, value in enumerate(trace.get(axis) or ()):
            if _number(value):
                low, high = min(low, value), max(high, value)
                if markers:
                    pad = max(pad, float(_at((trace.get("marker") or {}).get("size"), i, 6)) / 2 + 2)
    if not math.isfinite(low):
        low, high = -1.0, 6.0
    if low == high:
        low, high = low - 1, high + 1
    units = (high - low) * pad / max(1, length - 2 * pad)
    return [low - units, high + units]


def _ranges(traces: list[dict[str, Any]], layout: dict[str, Any], box: dict[str, float]) -> dict[str, list[float]]:
    result: dict[str, list[float]] = {}
    for axis in ("x", "y"):
        given = (layout.get(axis + "axis") or {}).get("range")
        if isinstance(given, list) and len(given) == 2 and all(_number(v) for v in given):
            result[axis] = [float(given[0]), float(given[1])]
        else:
            result[axis] = _axis_range(traces, axis, box["w"] if axis == "x" else box["h"])
    if (layout.get("xaxis") or {}).get("scaleanchor") == "y" or (layout.get("yaxis") or {}).get("scaleanchor") == "x":
        sx = box["w"] / (result["x"][1] - result["x"][0])
        sy = box["h"] / (result["y"][1] - result["y"][0])
        scale = min(sx, sy)
        for axis, own, length in (("x", sx, box["w"]), ("y", sy, box["h"])):
            if own > scale:
                middle = (result[axis][0] + result[axis][1]) / 2
                half = length / scale / 2
                result[axis] = [middle - half, middle + half]
    return result


def _line(trace: dict[str, Any], points: list[Any], colour: str) -> str:
    line = trace.get("line") or {}
    width = line.get("width", 2)
    path, pen = [], False
    for point in points:
        if point is None:
            pen = False
            continue
        path.append(f"{'L' if pen else 'M'}{point[0]:.1f},{point[1]:.1f}")
        pen = True
    dash = _dash(line.get("dash"), width)
    if not path or not width > 0:
        return ""
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<path d="{"".join(path)}" fill="none" stroke="{_attr(line.get("color") or colour)}" stroke-width="{width}"'
        f'{dashes} stroke-linejoin="round"/>'
    )


def _markers(trace: dict[str, Any], points: list[Any], colour: str) -> list[str]:
    marker = trace.get("marker") or {}
    edge_line = marker.get("line") or {}
    previous = None
    parts = []
    for i, point in enumerate(points):
        if point is None:
            previous = None
            continue
        shape, is_open = _symbol(_at(marker.get("symbol"), i, "circle"))
        size = float(_at(marker.get("size"), i, 6))
        angle = float(_at(marker.get("angle"), i, 0) or 0)
        if marker.get("angleref") == "previous" and previous is not None:
            angle += math.degrees(math.atan2(point[0] - previous[0], previous[1] - point[1]))
        previous = point
        if not size > 0:
            continue
        fill = _attr(_at(marker.get("color"), i, colour))
        edge = float(_at(edge_line.get("width"), i, 0) or 0)
        alpha = _at(marker.get("opacity"), i, 1)
        turn = f" rotate({angle:.1f})" if angle else ""
        if is_open:
            paint = f'fill="none" stroke="{fill}" stroke-width="{edge or 1:g}"'
        else:
            paint = f'fill="{fill}" stroke="{_attr(_at(edge_line.get("color"), i, "#444"))}" stroke-width="{edge:g}"'
        parts.append(
            f'<path transform="translate({point[0]:.1f},{point[1]:.1f}){turn}" d="{SHAPES[shape](size / 2)}"'
            f" {paint}" + (f' opacity="{alpha}"' if alpha != 1 else "") + "/>"
        )
    return parts


def _texts(trace: dict[str, Any], points: list[Any], font: dict[str, Any]) -> list[str]:
    textfont = trace.get("textfont") or {}
    markers = _has(trace, "markers")
    parts = []
    for i, point in enumerate(points):
        text = _at(trace.get("text"), i, "")
        if point is None or text == "":
            continue
        size = float(_at(textfont.get("size"), i, font["size"]))
        vertical, _, horizontal = str(_at(trace.get("textposition"), i, "middle center")).partition(" ")
        radius = float(_at((trace.get("marker") or {}).get("size"), i, 6)) / 2 if markers else 0
        gap = radius * 0.8 + 1
        x = point[0] + {"left": -gap, "right": gap}.get(horizontal, 0)
        y = point[1] + {"top": -gap - size * 0.3, "bottom": gap + size * 0.95}.get(vertical, size * 0.35)
        anchor = {"left": "end", "right": "start"}.get(horizontal, "middle")
        ink = _at(textfont.get("color"), i, font["color"])
        weight = _at(textfont.get("weight"), i, "normal")
        bold = f' font-weight="{_attr(weight)}"' if weight != "normal" else ""
        halo = ""
        if textfont.get("shadow") == "auto":
            halo = f' stroke="{_halo(ink)}" stroke-width="2" stroke-opacity="0.8" paint-order="stroke"'
        family = _attr(_family(_at(textfont.get("family"), i, font["family"])))
        parts.append(
            f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size:g}" font-family="{family}"'
            f' fill="{_attr(ink)}"{bold}{halo}>{escape(plain_text(text))}</text>'
        )
    return parts


def _trace(trace: dict[str, Any], index: int, px: Callable, py: Callable, colour: str, font: dict[str, Any]) -> str:
    """One trace: its line, then its markers, then its text, as plotly stacks them."""
    xs, ys = trace.get("x") or [], trace.get("y") or []
    points = [(px(x), py(y)) if _number(x) and _number(y) else None for x, y in zip(xs, ys)]
    opacity = trace.get("opacity", 1)
    parts = [f'<g class="trace" data-trace="{index}"' + (f' opacity="{opacity}"' if opacity != 1 else "") + ">"]
    if _has(trace, "lines"):
        parts.append(_line(trace, points, colour))
    if _has(trace, "markers"):
        parts += _markers(trace, points, colour)
    if _has(trace, "text") and trace.get("text") is not None:
        parts += _texts(trace, points, font)
    parts.append("</g>")
    return "".join(parts)


def _halo(colour: Any) -> str:
    text = str(colour).strip().lower()
    if text in ("white", "#fff", "#ffffff"):
        return "#222"
    if len(text) != 7 or not text.startswith("#"):
        return "#fff"
    n = int(text[1:], 16)
    light = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)
    return "#222" if light > 150 else "#fff"


def _legend_sample(trace: dict[str, Any], colour: str) -> str:
    parts = []
    first = lambda value, fallback: (value[0] if value else fallback) if isinstance(value, list) else value  # noqa: E731
    if _has(trace, "lines"):
        line = trace.get("line") or {}
        dash = _dash(line.get("dash"), line.get("width", 2))
        parts.append(
            f'<path d="M5,0H35" stroke="{_attr(line.get("color") or colour)}"'
            f' stroke-width="{min(line.get("width", 2), 5)}"' + (f' stroke-dasharray="{dash}"' if dash else "") + "/>"
        )
    if _has(trace, "markers"):
        marker = trace.get("marker") or {}
        shape, is_open = _symbol(first(marker.get("symbol"), "circle"))
        size = min(float(first(marker.get("size"), 6) or 6), 16)
        fill = _attr(first(marker.get("color"), colour) or colour)
        edge_line = marker.get("line") or {}
        edge = min(float(first(edge_line.get("width"), 0) or 0), 2)
        edge_colour = _attr(first(edge_line.get("color"), "#444") or "#444")
        if is_open:
            paint = f'fill="none" stroke="{fill}" stroke-width="{edge or 1:g}"'
        else:
            paint = f'fill="{fill}" stroke="{edge_colour}" stroke-width="{edge:g}"'
        parts.append(f'<path transform="translate(20,0)" d="{SHAPES[shape](size / 2)}" {paint}/>')
    return "".join(parts)


def _annotations(layout: dict[str, Any], box: dict[str, float], px: Callable, py: Callable, font: dict) -> list[str]:
    parts = []
    for note in layout.get("annotations") or ():
        if note.get("visible") is False or note.get("text") is None:
            continue
        size = (note.get("font") or {}).get("size") or font["size"]
        x = box["x"] + note.get("x", 0) * box["w"] if note.get("xref") == "paper" else px(note.get("x", 0))
        y = box["y"] + (1 - note.get("y", 0)) * box["h"] if note.get("yref") == "paper" else py(note.get("y", 0))
        if note.get("bgcolor"):
            wide = _text_width(note["text"], size) + 6
            parts.append(
                f'<rect x="{x - wide / 2:.1f}" y="{y - size * 0.75:.1f}" width="{wide:.1f}" height="{size * 1.5:.1f}"'
                f' fill="{_attr(note["bgcolor"])}"/>'
            )
        family = _attr(_family((note.get("font") or {}).get("family") or font["family"]))
        ink = _attr((note.get("font") or {}).get("color") or font["color"])
        parts.append(
            f'<text x="{x:.1f}" y="{y + size * 0.35:.1f}" text-anchor="middle" font-size="{size:g}"'
            f' font-family="{family}" fill="{ink}">{escape(plain_text(note["text"]))}</text>'
        )
    return parts


def _title(layout: dict[str, Any], width: float, height: float, font: dict[str, Any]) -> list[str]:
    parts = []
    heading = layout.get("title")
    heading = {"text": heading} if isinstance(heading, str) else heading or {}
    if heading.get("text"):
        size = (heading.get("font") or {}).get("size") or font["size"] * 1.4
        given = heading.get("x")
        x = (0.05 if given is None else given) * width
        y = (1 - (heading.get("y") if heading.get("y") is not None else 0.95)) * height + size * 0.9
        anchor = "start" if given is None or given < 0.34 else "end" if given > 0.66 else "middle"
        family = _attr(_family((heading.get("font") or {}).get("family") or font["family"]))
        ink = _attr((heading.get("font") or {}).get("color") or font["color"])
        parts.append(
            f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size:g}" font-family="{family}"'
            f' fill="{ink}">{escape(plain_text(heading["text"]))}</text>'
        )
    return parts


def render(figure: dict[str, Any], title: str, description: str = "") -> str:
    """The SVG document of a board's figure (``{"data": [...], "layout": {...}}``, plotly's JSON of scatter traces),
    with ``title`` (and ``description``) inside it for screen readers; ValueError for a figure of other traces."""
    if not isinstance(figure, dict) or not isinstance(figure.get("data"), list):
        raise ValueError("a board's figure is a JSON object with a list of traces under 'data'")
    traces: list[dict[str, Any]] = figure["data"]
    others = sorted({str(trace.get("type", "scatter")) for trace in traces} - {"scatter"})
    if others:
        raise ValueError(f"a board's figure holds scatter traces only, not {', '.join(others)}")
    layout: dict[str, Any] = figure.get("layout") or {}
    width, height = float(layout.get("width") or 700), float(layout.get("height") or 450)
    margin = {"l": 80, "r": 80, "t": 100, "b": 80, **(layout.get("margin") or {})}
    font = _font(layout)
    legend = _legend(layout, traces, width, font)
    bottom = max(margin["b"], legend["height"] + 4) if legend and legend["horizontal"] else margin["b"]
    box = {
        "x": margin["l"],
        "y": margin["t"],
        "w": max(10, width - margin["l"] - margin["r"]),
        "h": max(10, height - margin["t"] - bottom),
    }
    ranges = _ranges(traces, layout, box)
    sx = box["w"] / (ranges["x"][1] - ranges["x"][0])
    sy = box["h"] / (ranges["y"][1] - ranges["y"][0])

    def px(x: float) -> float:
        return box["x"] + (x - ranges["x"][0]) * sx

    def py(y: float) -> float:
        return box["y"] + box["h"] - (y - ranges["y"][0]) * sy

    colours = (
        layout.get("colorway") or ((layout.get("template") or {}).get("layout") or {}).get("colorway") or COLOURWAY
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}"'
        f' viewBox="0 0 {width:g} {height:g}" role="img" aria-labelledby="title">',
        f'<title id="title">{escape(title)}</title>',
    ]
    if description:
        parts.append(f"<desc>{escape(description)}</desc>")
    parts.append(f'<rect width="{width:g}" height="{height:g}" fill="{_attr(layout.get("paper_bgcolor") or "#fff")}"/>')
    parts.append(
        f'<rect x="{box["x"]:g}" y="{box["y"]:g}" width="{box["w"]:g}" height="{box["h"]:g}"'
        f' fill="{_attr(layout.get("plot_bgcolor") or "#E5ECF6")}"/>'
    )
    parts.append(
        f'<svg x="{box["x"]:g}" y="{box["y"]:g}" width="{box["w"]:g}" height="{box["h"]:g}"'
        f' viewBox="{box["x"]:g} {box["y"]:g} {box["w"]:g} {box["h"]:g}" overflow="hidden">'
    )
    for index, trace in enumerate(traces):
        if _shown(trace):
            parts.append(_trace(trace, index, px, py, colours[index % len(colours)], font))
    parts.append("</svg>")
    parts += _annotations(layout, box, px, py, font)
    parts += _title(layout, width, height, font)
    if legend:
        top = box["y"] + box["h"] + 6
        for n, (index, trace) in enumerate(legend["items"]):
            x = 4 + (n % legend["columns"]) * legend["cell"]
            y = top + (n // legend["columns"]) * legend["row"] + legend["row"] / 2
            faded = ' opacity="0.4"' if trace.get("visible") == "legendonly" else ""
            sample = _legend_sample(trace, colours[index % len(colours)])
            parts.append(
                f'<g transform="translate({x:g},{y:.1f})"{faded}>{sample}<text x="40" y="{legend["size"] * 0.35:.1f}"'
                f' font-size="{legend["size"]:g}" font-family="{_attr(_family(font["family"]))}"'
                f' fill="{_attr(font["color"])}">{escape(plain_text(trace["name"]))}</text></g>'
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
