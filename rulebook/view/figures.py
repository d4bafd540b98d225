"""Figures drawn in the page from their own synced state: plotly's public JSON of a ``go.Figure`` and a revision.

Python keeps a plain ``go.Figure`` (``view.plot``) and updates it with plotly's public API; ``view.draw()`` sends it
as ``figure`` (``go.Figure.to_plotly_json()``, made plain JSON) with ``revision`` one higher.  Nothing here reads or
writes plotly.py's private widget protocol (its FigureWidget's messages and attributes), so a plotly release that
renames one of them cannot freeze a board.

- :class:`BoardView` draws scatter traces as SVG with ``board.js`` (a few kilobytes, drawn in milliseconds).  A click
  names its trace by ``name`` and its point by id (the trace's ``ids[i]``, else ``customdata[i]``, else ``i``), with
  the revision it was drawn at: ``view.on_click(name, handler)`` hears ``handler(point_id)``.
- :class:`ChartView` draws any plotly figure with plotly.js (``plotly.offline.get_plotlyjs()``), loaded once per page.
"""

from __future__ import annotations

import base64
import datetime
import functools
import hashlib
import math
import struct
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

if TYPE_CHECKING:
    import plotly.graph_objects as go

_HERE = Path(__file__).parent

ClickHandler = Callable[[Any], None]
CancelHandler = Callable[[], None]
StaleHandler = Callable[[str, Any, int], None]


# -- plotly's JSON as plain JSON ----------------------------------------------------------------------------------


# plotly's typed-array dtypes (read as little-endian) as struct codes, for the reading without numpy; the 64-bit
# integers and booleans too, which numpy reads as well
_STRUCT_CODES = {"i1": "b", "u1": "B", "i2": "h", "u2": "H", "i4": "i", "u4": "I", "f4": "f", "f8": "d"}
_STRUCT_CODES |= {"i8": "q", "u8": "Q", "b1": "?"}


def _typed_array(spec: dict[str, Any]) -> list[Any]:
    """plotly's typed-array spec (``{"dtype": "i1", "bdata": <base64>, "shape": "3, 2"}``, what
    ``to_plotly_json()`` makes of a numeric numpy array) as nested lists: read with numpy where a figure holds numpy
    arrays (numpy is imported only here), else with ``struct`` (a spec read from JSON where numpy is missing)."""
    try:
        import numpy
    except ImportError:
        return _typed_array_python(spec)
    dtype = numpy.dtype(spec["dtype"]).newbyteorder("<")  # plotly.js reads the bytes as little-endian
    values = numpy.frombuffer(base64.b64decode(spec["bdata"]), dtype=dtype)
    shape = spec.get("shape")
    if shape:
        values = values.reshape(tuple(int(part) for part in str(shape).split(",")))
    plain: list[Any] = _plain(values.tolist(), typed_arrays=False)
    return plain


def _typed_array_python(spec: dict[str, Any]) -> list[Any]:
    """:func:`_typed_array` without numpy: the same lists, the same numbers (float32 widened exactly, as numpy's
    ``tolist`` does); ValueError for a dtype it does not know or bytes that do not fill the shape."""
    code = _STRUCT_CODES.get(str(spec["dtype"]).lstrip("<>=|"))
    if code is None:
        raise ValueError(f"plotly typed array: dtype {spec['dtype']!r} is none of {', '.join(_STRUCT_CODES)}")
    data = base64.b64decode(spec["bdata"])
    size = struct.calcsize("<" + code)
    if len(data) % size:
        raise ValueError(f"plotly typed array: {len(data)} bytes are not a whole number of {spec['dtype']} values")
    values: list[Any] = list(struct.unpack(f"<{len(data) // size}{code}", data))
    shape = spec.get("shape")
    if shape:
        sizes = [int(part) for part in str(shape).split(",")]
        if math.prod(sizes) != len(values):
            raise ValueError(f"plotly typed array: {len(values)} values do not fill the shape {shape!r}")
        values = _nested(values, sizes)
    plain: list[Any] = _plain(values, typed_arrays=False)
    return plain


def _nested(values: list[Any], sizes: list[int]) -> list[Any]:
    """A flat list as nested lists of the given sizes, the last axis innermost (numpy's order)."""
    if len(sizes) <= 1:
        return values
    step = math.prod(sizes[1:])
    return [_nested(values[index * step : (index + 1) * step], sizes[1:]) for index in range(sizes[0])]


def _plain(value: Any, *, typed_arrays: bool) -> Any:
    """``value`` with only what JSON carries: dicts, lists, strings, finite numbers, booleans and None.

    numpy arrays and scalars become lists and numbers, tuples lists, dates ISO text, NaN and infinities None (a gap,
    as plotly draws them).  plotly's typed-array specs stay as they are when ``typed_arrays`` (plotly.js reads them),
    else become lists (board.js reads lists only)."""
    if isinstance(value, dict):
        if not typed_arrays and isinstance(value.get("bdata"), str) and isinstance(value.get("dtype"), str):
            return _typed_array(value)
        return {str(key): _plain(item, typed_arrays=typed_arrays) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item, typed_arrays=typed_arrays) for item in value]
    if isinstance(value, bool) or value is None or isinstance(value, (str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    tolist = getattr(value, "tolist", None)  # numpy arrays and scalars (and pandas' series)
    if callable(tolist):
        return _plain(tolist(), typed_arrays=typed_arrays)
    raise TypeError(f"a figure holds a {type(value).__name__} ({value!r:.60}), which has no JSON form")


def plotly_json(plot: go.Figure, *, typed_arrays: bool = False) -> dict[str, Any]:
    """The figure as plotly's public JSON (``{"data": [...], "layout": {...}}``), plain enough to sync."""
    figure: dict[str, Any] = _plain(plot.to_plotly_json(), typed_arrays=typed_arrays)
    return figure


def trace(plot: go.Figure, name: str) -> Any:
    """The one trace of ``plot`` named ``name`` (a ValueError when there is none, or more than one)."""
    found = [each for each in plot.data if each.name == name]  # what select_traces finds, in half the time
    if len(found) != 1:
        names = ", ".join(repr(t.name) for t in plot.data if t.name) or "none"
        many = "no trace" if not found else f"{len(found)} traces"
        raise ValueError(f"{many} named {name!r} in the figure (trace names: {names})")
    return found[0]


def point_ids(trace_json: dict[str, Any]) -> list[Any]:
    """The ids of a trace's points, as board.js sends them: ``ids[i]``, else ``customdata[i]``, else ``i``."""
    count = len(trace_json.get("x") or ())
    for key in ("ids", "customdata"):
        given = trace_json.get(key)
        if isinstance(given, list):
            return [given[i] if i < len(given) else None for i in range(count)]
    return list(range(count))


# -- the views -------------------------------------------------------------------------------------------------


class FigureView(anywidget.AnyWidget):
    """A plotly figure kept in Python as ``plot`` (a plain ``go.Figure``) and drawn in the page from ``figure``,
    its JSON as of ``revision``; :meth:`draw` sends the whole figure again when it has changed."""

    figure = traitlets.Dict().tag(sync=True)
    revision = traitlets.Int(0).tag(sync=True)

    _typed_arrays = False  # whether the page reads plotly's typed-array specs (plotly.js does, board.js does not)

    def __init__(self, plot: Any = None, **kwargs: Any) -> None:
        import plotly.graph_objects as go

        super().__init__(**kwargs)
        self.plot: go.Figure = plot if isinstance(plot, go.Figure) else go.Figure(plot)
        self.draw()

    def check(self, figure: dict[str, Any]) -> None:
        """Refuse, with a ValueError, a figure this view cannot draw."""

    def draw(self) -> bool:
        """Send the figure as ``plot`` holds it now, with the next revision; False (nothing sent) if it is the
        figure already drawn."""
        figure = plotly_json(self.plot, typed_arrays=self._typed_arrays)
        if figure == self.figure:
            return False
        self.check(figure)
        with self.hold_sync():  # one message: the page never sees the new figure under the old revision
            self.figure = figure
            self.revision += 1
        self.drawn(figure)
        return True

    def drawn(self, figure: dict[str, Any]) -> None:
        """What a view keeps of each figure it sends (for the clicks that name it)."""


class BoardView(FigureView):
    """A board: scatter traces (markers, lines, text, a legend) drawn as SVG by ``board.js``, without plotly.js.

    ``view.on_click("pieces", handler)`` calls ``handler(point_id)`` when a point of the trace named "pieces" is
    clicked; a click on a point that is no longer in that trace (the board changed before the click arrived) is
    stale: it goes to the ``on_stale`` handlers, or nowhere.  The page offers the clickable traces' points to the
    keyboard too (``clickable``: their names); Escape there calls the ``on_cancel`` handlers (let go of a choice)."""

    _esm = _HERE / "board.js"
    clickable = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(self, plot: Any = None, **kwargs: Any) -> None:
        self._points: dict[str, list[Any]] = {}
        self._click_handlers: dict[str, list[ClickHandler]] = {}
        self._stale_handlers: list[StaleHandler] = []
        self._cancel_handlers: list[CancelHandler] = []
        self._shown_handlers: list[Callable[[int], None]] = []
        super().__init__(plot, **kwargs)
        self.on_msg(self._message)

    def check(self, figure: dict[str, Any]) -> None:
        others = sorted({t.get("type", "scatter") for t in figure["data"]} - {"scatter"})
        if others:
            raise ValueError(f"a board draws scatter traces only, not {', '.join(others)}: use a ChartView")
        names = [t.get("name") for t in figure["data"]]
        for name in self._click_handlers:
            if names.count(name) != 1:
                raise ValueError(f"the clickable trace {name!r} is in the figure {names.count(name)} times, not once")

    def drawn(self, figure: dict[str, Any]) -> None:
        self._points = {t["name"]: point_ids(t) for t in figure["data"] if isinstance(t.get("name"), str)}

    def on_click(self, trace_name: str, handler: ClickHandler) -> None:
        """Call ``handler(point_id)`` on a click on a point of the trace named ``trace_name`` (exactly one trace of
        the figure must carry that name)."""
        names = [t.name for t in self.plot.data]
        if names.count(trace_name) != 1:
            raise ValueError(f"on_click: {names.count(trace_name)} traces named {trace_name!r}, not one")
        self._click_handlers.setdefault(trace_name, []).append(handler)
        if trace_name not in self.clickable:
            self.clickable = [*self.clickable, trace_name]

    def on_cancel(self, handler: CancelHandler) -> None:
        """Call ``handler()`` when the page asks to let go of a choice (Escape on the board)."""
        self._cancel_handlers.append(handler)

    def cancel(self) -> None:
        """What Escape on the board does (tests call it): the on_cancel handlers let go of the choice made."""
        for handler in list(self._cancel_handlers):
            handler()

    def on_shown(self, handler: Callable[[int], None]) -> None:
        """Call ``handler(revision)`` when a page has made a view of the board (``revision``: the figure it holds)."""
        self._shown_handlers.append(handler)

    def on_stale(self, handler: StaleHandler) -> None:
        """Call ``handler(trace_name, point_id, revision)`` on a click whose point is no longer in its trace."""
        self._stale_handlers.append(handler)

    def click(self, trace_name: str, point_id: Any, revision: int | None = None) -> bool:
        """What a click in the page does (tests call it): the point ``point_id`` of the trace ``trace_name``, clicked
        on the drawing of ``revision`` (default: the newest).  False if it was stale (the on_stale handlers heard it),
        else True, and the trace's on_click handlers heard it."""
        point_id = _plain(point_id, typed_arrays=False)
        revision = self.revision if revision is None else revision
        points = self._points.get(trace_name)
        if points is None or point_id is None or point_id not in points or revision > self.revision:
            for stale in list(self._stale_handlers):
                stale(trace_name, point_id, revision)
            return False
        for handler in list(self._click_handlers.get(trace_name, ())):
            handler(point_id)
        return True

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """The page's click: ``{"event": "click", "trace": name, "point": id, "revision": n}``; Escape:
        ``{"event": "cancel", "revision": n}``; a view made: ``{"event": "shown", "revision": n}``."""
        if isinstance(content, dict) and content.get("event") == "cancel":
            self.cancel()
            return
        if isinstance(content, dict) and content.get("event") == "shown":
            revision = content.get("revision")
            if isinstance(revision, int) and not isinstance(revision, bool):
                for handler in list(self._shown_handlers):
                    handler(revision)
            return
        if not isinstance(content, dict) or content.get("event") != "click":
            return
        name, revision = content.get("trace"), content.get("revision")
        if not isinstance(name, str) or not isinstance(revision, int) or isinstance(revision, bool):
            return  # a malformed message: no trace to answer it
        self.click(name, content.get("point"), revision)


# -- plotly.js for the charts -------------------------------------------------------------------------------------

_PLOTLY_URL = ""
_PLOTLY_KEY = ""  # the key of the file at _PLOTLY_URL, where plotly.py's own copy of plotly.js is left out (the site)


@functools.cache
def _plotly_js() -> tuple[str, str]:
    """plotly.min.js (a classic script that sets ``window.Plotly``) and a key naming its exact contents."""
    from plotly.offline import get_plotlyjs

    text = get_plotlyjs()
    return text, hashlib.sha256(text.encode()).hexdigest()[:16]


def plotly_file(folder: Path) -> str:
    """Write plotly.min.js into ``folder`` as ``plotly-<key>-script.js`` (the name names its contents, so a browser
    may keep it, and its compiled code, for good); returns the name."""
    text, key = _plotly_js()
    name = f"plotly-{key}-script.js"
    target = Path(folder) / name
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")
    return name


def serve_plotly_from(address: str, key: str = "") -> None:
    """Charts built from now on load plotly.js from ``address`` (the file :func:`plotly_file` wrote, relative to the
    page); ``""`` goes back to asking the kernel for its text. ``key`` names the file's contents where this Python
    has no plotly.js to read it from (the website's, whose plotly.py comes without it)."""
    global _PLOTLY_URL, _PLOTLY_KEY
    _PLOTLY_URL, _PLOTLY_KEY = address, key


def plotly_file_name() -> str:
    """The name :func:`plotly_file` gives plotly.min.js."""
    return f"plotly-{_plotly_js()[1]}-script.js"


class ChartView(FigureView):
    """A chart: any plotly figure, drawn by plotly.js with ``Plotly.react`` at each revision.

    plotly.js is loaded once per page however many charts it shows: from ``plotly_url`` when the app serves it as a
    file (a classic script, whose compiled code the browser keeps), else as text asked of the kernel (JupyterLab).
    Nothing waits for it in the widget's initialize, so the model follows the game whatever plotly's load takes."""

    _esm = _HERE / "chart.js"
    _typed_arrays = True
    config = traitlets.Dict().tag(sync=True)
    plotly_url = traitlets.Unicode().tag(sync=True)
    plotly_key = traitlets.Unicode().tag(sync=True)
    # the chart's text alternative (its aria-label): the sentence that states its numbers; empty: the figure's
    # title and axes, said by the page
    description = traitlets.Unicode().tag(sync=True)

    @traitlets.default("config")
    def _default_config(self) -> dict[str, Any]:
        # a chart beside the board is read, not zoomed or exported: plotly's tool bar only covered its title
        return {"displayModeBar": False, "doubleClick": False}

    @traitlets.default("plotly_url")
    def _default_plotly_url(self) -> str:
        return _PLOTLY_URL

    @traitlets.default("plotly_key")
    def _default_plotly_key(self) -> str:
        return _PLOTLY_KEY or _plotly_js()[1]

    def __init__(self, plot: Any = None, **kwargs: Any) -> None:
        super().__init__(plot, **kwargs)
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """The page asks for plotly.js's text when it has no address for it, or the address failed."""
        if isinstance(content, dict) and content.get("event") == "plotly":
            self.send({"event": "plotly", "text": _plotly_js()[0]})
