"""The figures drawn from their own synced state (rulebook.views): plotly's public JSON and a revision, clicks that
name a trace and a point, charts that load plotly.js once per page; and no code that speaks plotly.py's private
widget protocol."""

from __future__ import annotations

import datetime
import hashlib
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest
from plotly.offline import get_plotlyjs

from rulebook import claim, views
from rulebook.views import BoardView, ChartView, plotly_json, point_ids, trace

PACKAGE = Path(views.__file__).parents[1]  # the package: rulebook/view/ holds the figures and their scripts
VIEW = PACKAGE / "view"


def sent_by(view) -> list[dict]:
    """The messages the view sends to the page from now on (state updates and custom messages)."""
    messages: list[dict] = []
    view.comm.send = lambda data=None, metadata=None, buffers=None: messages.append(data)
    return messages


def board(**layout) -> BoardView:
    return BoardView(
        go.Figure(
            [
                go.Scatter(x=[0, 1, 2], y=[0, 0, 0], name="cells", customdata=[[0, 0], [0, 1], [0, 2]]),
                go.Scatter(x=[1], y=[1], name="pieces", ids=["red-1"], customdata=[[9, 9]]),
                go.Scatter(x=[0, 2], y=[1, 1], name="marks"),
            ],
            layout=layout,
        )
    )


# -- plotly's JSON --------------------------------------------------------------------------------------------------


def test_the_figure_is_plotly_s_public_json_made_plain():
    plot = go.Figure(
        go.Scatter(x=np.arange(3), y=[1.5, float("nan"), np.float32(2)], customdata=np.array([[1, 2], [3, 4], [5, 6]])),
        layout={"title": {"text": "t"}},
    )
    figure = plotly_json(plot)
    (data,) = figure["data"]
    assert data["x"] == [0, 1, 2] and data["y"] == [1.5, None, 2.0]  # NaN is a gap, as plotly draws it
    assert data["customdata"] == [[1, 2], [3, 4], [5, 6]]  # plotly's typed array, read back into lists
    assert figure["layout"]["title"] == {"text": "t"} and "template" in figure["layout"]
    # what plotly.py itself makes of it, but for the typed arrays: for plotly.js they stay typed (smaller)
    typed = plotly_json(plot, typed_arrays=True)["data"][0]
    assert set(typed["x"]) == {"dtype", "bdata"} and typed["customdata"]["shape"] == "3, 2"
    assert plot.to_plotly_json()["layout"] == figure["layout"]
    assert views._plain((datetime.date(2024, 5, 1), np.int64(3)), typed_arrays=False) == ["2024-05-01", 3]
    with pytest.raises(TypeError, match="has no JSON form"):
        views._plain({"x": object()}, typed_arrays=False)


def test_a_point_s_id_is_its_id_else_its_customdata_else_its_index():
    assert point_ids({"x": [0, 1], "ids": ["a", "b"], "customdata": [1, 2]}) == ["a", "b"]
    assert point_ids({"x": [0, 1], "customdata": [[1, 2], [3, 4]]}) == [[1, 2], [3, 4]]
    assert point_ids({"x": [0, 1, 2]}) == [0, 1, 2]
    assert point_ids({"x": [0, 1], "ids": ["a"]}) == ["a", None]  # a point without an id answers no click
    plot = board().plot
    assert trace(plot, "pieces").ids == ("red-1",)
    with pytest.raises(ValueError, match="no trace named 'gone' in the figure"):
        trace(plot, "gone")
    plot.add_trace(go.Scatter(name="cells"))
    with pytest.raises(ValueError, match="2 traces named 'cells'"):
        trace(plot, "cells")


# -- BoardView ------------------------------------------------------------------------------------------------------


def test_a_board_view_draws_what_plot_holds_and_sends_nothing_when_nothing_changed():
    view = board(width=300)
    assert view.revision == 1 and view.figure == plotly_json(view.plot)
    assert view.get_state()["_esm"] == (VIEW / "board.js").read_text()  # the page runs board.js, a file
    messages = sent_by(view)
    assert view.draw() is False and messages == []  # the same figure: nothing sent, the same revision
    with view.plot.batch_update():
        trace(view.plot, "pieces").update(x=[2], marker={"color": "red"})
        view.plot.update_layout(width=320)
    view.plot.update_traces(selector={"name": "marks"}, mode="lines")
    assert view.draw() is True and view.revision == 2
    # one message carries the new figure and its revision together
    (message,) = messages
    assert message["method"] == "update" and set(message["state"]) == {"figure", "revision"}
    assert message["state"]["revision"] == 2
    assert message["state"]["figure"]["data"][1]["x"] == [2] and message["state"]["figure"]["layout"]["width"] == 320
    assert view.figure["data"][2]["mode"] == "lines"


def test_a_board_view_draws_scatter_traces_only():
    with pytest.raises(ValueError, match="scatter traces only, not bar, heatmap: use a ChartView"):
        BoardView(go.Figure([go.Bar(x=[1], y=[2]), go.Heatmap(z=[[1]]), go.Scatter(x=[0], y=[0])]))
    view = board()
    view.plot.add_trace(go.Bar(x=[1], y=[1]))
    with pytest.raises(ValueError, match="not bar"):
        view.draw()


def test_a_click_names_the_trace_and_the_point_and_reaches_that_trace_s_handlers():
    view = board()
    heard: list = []
    view.on_click("cells", lambda point: heard.append(("cells", point)))
    view.on_click("pieces", lambda point: heard.append(("pieces", point)))
    assert view.click("cells", (0, 2)) and view.click("pieces", "red-1")  # customdata; ids before customdata
    assert view.click("marks", 1)  # a trace with neither: the index; no handler, nothing heard
    assert heard == [("cells", [0, 2]), ("pieces", "red-1")]
    # the page's message, as board.js sends it
    view._handle_custom_msg({"event": "click", "trace": "cells", "point": [0, 1], "revision": view.revision}, [])
    assert heard[-1] == ("cells", [0, 1])
    for malformed in ({"event": "click", "trace": 3, "point": 0, "revision": 1}, {"trace": "cells"}, "click"):
        view._handle_custom_msg(malformed, [])
    assert len(heard) == 3
    with pytest.raises(ValueError, match="0 traces named 'nothing'"):
        view.on_click("nothing", print)


def test_a_click_on_a_point_no_longer_in_its_trace_is_stale():
    view = board()
    heard: list = []
    stale: list = []
    view.on_click("cells", heard.append)
    view.on_stale(lambda name, point, revision: stale.append((name, point, revision)))
    drawn = view.revision
    trace(view.plot, "cells").update(x=[0, 1], y=[0, 0], customdata=[[0, 0], [0, 1]])  # the third cell goes
    assert view.click("cells", [0, 2])  # not drawn yet: the page still shows the third cell, which answers
    assert heard == [[0, 2]]
    heard.clear()
    view.draw()
    assert not view.click("cells", [0, 2], revision=drawn)  # clicked on the older drawing: that point is gone
    assert view.click("cells", [0, 1], revision=drawn)  # still there: a click on that point
    assert not view.click("cells", [0, 1], revision=view.revision + 1)  # a drawing the page cannot have seen
    assert not view.click("gone", 0)  # no such trace
    assert heard == [[0, 1]]
    assert stale == [("cells", [0, 2], drawn), ("cells", [0, 1], view.revision + 1), ("gone", 0, view.revision)]
    view.plot.add_trace(go.Scatter(name="cells"))
    with pytest.raises(ValueError, match="clickable trace 'cells' is in the figure 2 times"):
        view.draw()


# -- ChartView ------------------------------------------------------------------------------------------------------


def test_a_chart_view_is_drawn_by_plotly_js_which_it_asks_of_the_kernel_once_per_page():
    view = ChartView(go.Figure(go.Heatmap(z=np.arange(4).reshape(2, 2)), layout={"width": 300}))
    state = view.get_state()
    assert state["_esm"] == (VIEW / "chart.js").read_text()
    assert view.config == {"displayModeBar": False, "doubleClick": False}
    text = get_plotlyjs()
    assert view.plotly_key == hashlib.sha256(text.encode()).hexdigest()[:16] and view.plotly_url == ""
    assert view.figure["data"][0]["z"]["dtype"] and view.figure["data"][0]["type"] == "heatmap"
    # the text of plotly.js is not in the model's state (5 MB per chart): the page asks for it once
    assert len(str(state)) < 20_000
    messages = sent_by(view)
    view._handle_custom_msg({"event": "plotly"}, [])
    (message,) = messages
    assert message["method"] == "custom" and message["content"] == {"event": "plotly", "text": text}
    assert text.rstrip().endswith("}));") and "window.Plotly = Plotly" in text  # a classic script setting Plotly
    view.plot.update_layout(width=320)
    assert view.draw() and view.revision == 2


def test_the_app_serves_plotly_js_beside_its_notebook(tmp_path):
    name = views.plotly_file(tmp_path)
    key = hashlib.sha256(get_plotlyjs().encode()).hexdigest()[:16]
    assert name == f"plotly-{key}-script.js" == views.plotly_file_name()
    assert (tmp_path / name).read_text() == get_plotlyjs()
    # a chart built after the app named the file's address loads plotly.js from there
    views.serve_plotly_from(f"voila/files/{name}?v={key}")
    try:
        assert ChartView().plotly_url == f"voila/files/{name}?v={key}"
    finally:
        views.serve_plotly_from("")
    assert ChartView().plotly_url == ""


# -- the Claim board ----------------------------------------------------------------------------------------------


def test_the_claim_board_sends_the_figure_its_plot_holds_at_each_move():
    from rulebook.claim.widget import Board

    table = Board(claim.new_game(players=2, seed=1), seed=1)
    view = table.figure
    assert isinstance(view, BoardView) and view.figure == plotly_json(view.plot)
    revision = view.revision
    table.play(claim.legal_moves(table.live)[0])
    assert view.revision == revision + 1 and view.figure == plotly_json(view.plot)
    names = [t["name"] for t in view.figure["data"]]
    assert len(set(names)) == len(names) >= 12 and all(names)  # every trace named, each name once
    table.redraw()
    assert view.revision == revision + 1  # the same position: nothing sent


def test_a_board_imports_none_of_plotly_s_widget_machinery():
    """A Claim board (a BoardView) needs neither plotly's FigureWidget nor its renderers (which pull in nbformat and
    jsonschema, about 1.5 s of CPU)."""
    code = (
        "import sys\n"
        "from rulebook import claim\n"
        "from rulebook.claim.widget import Board\n"
        "Board(claim.new_game(players=2, seed=1))\n"
        "heavy = ('plotly.basewidget', 'plotly.io._renderers', 'nbformat', 'jsonschema')\n"
        "print([name for name in heavy if name in sys.modules])"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


# -- no private plotly --------------------------------------------------------------------------------------------

PRIVATE = re.compile(
    r"_py2js_|_js2py_|_widget_data|_widget_layout|_plotly_utils|plotly\.basewidget|BaseFigureWidget"
    r"|\._data\b|\._layout\b|\._config\b|_layout_edit_in_process|_handler_js2py|optional_imports"
)


def test_no_code_reads_or_writes_plotly_s_private_widget_protocol():
    assert PRIVATE.search("figure._widget_data = x") and PRIVATE.search('model.set("_js2py_restyle", m)')
    assert not PRIVATE.search("self._data_columns = 1; fig.to_plotly_json()")
    # (the site's build names plotly's packages to pack them, _plotly_utils among them: files, not the protocol)
    files = [
        p
        for p in PACKAGE.rglob("*")
        if p.suffix in (".py", ".js") and "__pycache__" not in p.parts and p.relative_to(PACKAGE).parts[0] != "site"
    ]
    assert len(files) > 20 and VIEW / "figures.py" in files and VIEW / "board.js" in files
    found = [
        f"{path.relative_to(PACKAGE)}:{text[: match.start()].count(chr(10)) + 1}: {match.group(0)}"
        for path in files
        for text in [path.read_text(encoding="utf-8")]
        for match in PRIVATE.finditer(text)
    ]
    assert found == [], "plotly.py's private names:\n" + "\n".join(found)
