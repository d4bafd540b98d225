"""board.js, the boards' drawing, in a real browser: fed the state and the messages plotly.py's FigureWidget sends (a
stand-in for the kernel records what the page sends back), it draws every marker and label the figure holds, keeps
one scale on both axes, follows restyle and relayout messages, and reports a click on the nearest clickable point."""

from __future__ import annotations

import json
from pathlib import Path

import plotly.graph_objects as go
import pytest

from rulebook import ui

BOARD_JS = (Path(ui.__file__).parent / "board.js").read_text()

# a page with the module and a model that records what the page sets; messages are played to it by name
HARNESS = """
async ([source, figures]) => {
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  const widget = (await import(url)).default;
  window.models = {};
  window.sent = [];
  document.body.innerHTML = "";
  for (const [name, figure] of Object.entries(figures)) {
    const handlers = {};
    const values = { _widget_data: figure.data, _widget_layout: figure.layout };
    const model = {
      get: (key) => values[key],
      on: (event, handler) => (handlers[event] ??= []).push(handler),
      set: (key, value) => { values[key] = value; window.sent.push([name, key, value]); },
      save_changes() {},
      play(key, value) { values[key] = value; (handlers["change:" + key] || []).forEach((h) => h()); },
    };
    widget.initialize({ model });
    const el = document.createElement("div");
    el.id = name;
    document.body.append(el);
    widget.render({ model, el });
    window.models[name] = model;
  }
}
"""


def state(figure) -> dict:
    ui.settle_figure(figure)
    return {"data": figure._widget_data, "layout": figure._widget_layout}


@pytest.fixture()
def page(browser):
    page = browser.new_page()
    page.set_viewport_size({"width": 1200, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("about:blank")
    yield page
    page.close()
    assert not errors, errors


def show(page, **figures) -> None:
    page.evaluate(HARNESS, [BOARD_JS, json.loads(json.dumps({k: state(f) for k, f in figures.items()}, default=list))])


def centre(page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def clicks(page) -> list:
    return [value for _, key, value in page.evaluate("window.sent") if key == "_js2py_pointsCallback"]


def test_every_game_s_board_is_drawn_whole(page):
    """Each marker of size > 0 and each non-empty label of every visible trace is in the drawing, of all four boards
    after a few moves and a hint."""
    from tests.test_ui import BOARDS

    boards = {game: make() for game, make in BOARDS.items()}
    for board in boards.values():
        board.hint()
    show(page, **{game: board.figure for game, board in boards.items()})
    for game, board in boards.items():
        for index, trace in enumerate(board.figure.data):
            if trace.visible is False:
                continue
            group = f"#{game} g.trace[data-trace='{index}']"
            points = list(zip(trace.x or (), trace.y or ()))
            drawn = [i for i, (x, y) in enumerate(points) if x is not None and y is not None]
            mode = trace.mode or ""
            if "markers" in mode:
                sizes = trace.marker.size
                own = [i for i in drawn if (sizes[i] if isinstance(sizes, (list, tuple)) else (sizes or 6)) > 0]
                found = page.eval_on_selector_all(f"{group} path.point", "els => els.map(e => +e.dataset.point)")
                assert found == own, (game, index, trace.name)
            if "text" in mode and trace.text is not None:
                texts = trace.text if isinstance(trace.text, (list, tuple)) else [trace.text] * len(points)
                labels = [str(texts[i]) for i in drawn if texts[i] not in ("", None)]
                assert page.eval_on_selector_all(f"{group} text", "els => els.map(e => e.textContent)") == labels


def test_a_click_reports_the_nearest_point_of_a_clickable_trace(page):
    figure = ui.BoardFigure(
        go.Figure(
            [
                go.Scatter(x=[0, 1, 2], y=[0, 0, 0], mode="markers", marker={"size": 30, "symbol": "square"}),
                go.Scatter(x=[0], y=[0], mode="markers", marker={"size": 50}, hoverinfo="skip"),  # drawn on top
            ],
            layout={"width": 300, "height": 200, "xaxis": {"range": [-1, 3]}, "yaxis": {"range": [-1, 1]}},
        )
    )
    show(page, board=figure)
    x, y = centre(page, "#board g.trace[data-trace='1'] path.point")
    page.mouse.click(x, y)  # on the unclickable marker: the point under it answers
    x2, y2 = centre(page, "#board g.trace[data-trace='0'] path.point[data-point='2']")
    page.mouse.click(x2 + 12, y2 - 12)  # inside the square, off its centre
    page.mouse.click(x2, y2 + 60)  # far from every point: nothing
    reported = clicks(page)
    assert [c["points"]["trace_indexes"] + c["points"]["point_indexes"] for c in reported] == [[0, 0], [0, 2]]
    # what plotly.py makes of the message: the trace's on_click hears the point
    heard = []
    figure.data[0].on_click(lambda trace, points, state: heard.append((points.point_inds, state.ctrl)))
    figure._handler_js2py_pointsCallback({"new": reported[1]})
    assert heard == [([2], False)]


def test_messages_from_python_change_the_drawing(page):
    """The restyle and relayout messages plotly.py sends for an update, recorded from a FigureWidget, then played."""
    figure = ui.BoardFigure(
        go.Figure(
            go.Scatter(x=[0, 1], y=[0, 1], mode="markers+text", text=["a", "b"], marker={"color": "grey"}),
            layout={"width": 300, "height": 300, "title": {"text": "before"}},
        )
    )
    show(page, board=figure)
    sent: list[tuple[str, dict]] = []
    names = ("_py2js_restyle", "_py2js_relayout", "_py2js_update")
    figure.observe(lambda change: change["new"] and sent.append((change["name"], change["new"])), names=names)
    figure.data[0].update(marker={"color": ["#ff0000", "#0000ff"]}, text=["c", "d"])
    with figure.batch_update():
        figure.data[0].x = [1, 0]  # the two points change places
        figure.layout.title.text = "after <b>the swap</b>"
    figure.data[0].marker.opacity = 0.5
    figure.layout.width = 320
    assert [name for name, _ in sent] == ["_py2js_update", "_py2js_update", "_py2js_restyle", "_py2js_relayout"]
    for name, message in sent:
        page.evaluate("([name, message]) => window.models.board.play(name, message)", [name, message])
    page.wait_for_timeout(100)  # drawn at the next animation frame
    fills = page.eval_on_selector_all("#board path.point", "els => els.map(e => e.getAttribute('fill'))")
    assert fills == ["#ff0000", "#0000ff"]
    assert (
        page.eval_on_selector_all("#board path.point", "els => els.map(e => e.getAttribute('opacity'))") == ["0.5"] * 2
    )
    assert page.get_attribute("#board svg", "width") == "320"
    texts = page.eval_on_selector_all("#board g.trace text", "els => els.map(e => e.textContent)")
    assert texts == ["c", "d"]
    first, second = (centre(page, f"#board path.point[data-point='{i}']") for i in (0, 1))
    assert first[0] > second[0] + 50  # the first point now stands right of the second
    assert "after the swap" in page.inner_text("#board")


def test_one_scale_on_both_axes_and_arrows_along_their_line(page):
    figure = ui.BoardFigure(
        go.Figure(
            [
                go.Scatter(x=[0, 1, 0], y=[0, 0, 1], mode="markers", marker={"size": 4}),
                go.Scatter(
                    x=[0, 1], y=[0, 0], mode="lines+markers", marker={"symbol": "arrow", "angleref": "previous"}
                ),
            ],
            layout={
                "width": 600,
                "height": 300,
                "margin": {"l": 0, "r": 0, "t": 0, "b": 0},
                "xaxis": {"range": [0, 1], "scaleanchor": "y"},
                "yaxis": {"range": [0, 1]},
            },
        )
    )
    show(page, board=figure)
    origin, east, north = (
        centre(page, f"#board g.trace[data-trace='0'] path.point[data-point='{i}']") for i in range(3)
    )
    assert abs((east[0] - origin[0]) - (origin[1] - north[1])) < 1.5  # a unit is as long across as up
    assert abs((origin[1] - north[1]) - 300) < 2  # the height fits; the width's range grew about its centre
    turn = page.get_attribute("#board g.trace[data-trace='1'] path.point[data-point='1']", "transform")
    assert turn.endswith("rotate(90.0)"), turn  # the arrow at the line's end points east, from its previous point


def test_the_hover_label_shows_the_text_with_its_line_breaks_and_nothing_else_as_html(page):
    figure = ui.BoardFigure(
        go.Figure(
            go.Scatter(x=[0], y=[0], mode="markers", hovertext=["Eeklo<br><b>3</b> points <script>x</script>"]),
            layout={"width": 300, "height": 300, "hoverlabel": {"font": {"size": 13}}},
        )
    )
    show(page, board=figure)
    page.mouse.move(*centre(page, "#board path.point"))
    label = page.locator("#board .rulebook-figure-label")
    label.wait_for(state="visible", timeout=5_000)
    assert label.inner_html() == "Eeklo<br><b>3</b> points &lt;script&gt;x&lt;/script&gt;"
    page.mouse.move(1, 299)
    label.wait_for(state="hidden", timeout=5_000)


def test_the_legend_lists_the_traces_that_draw_something(page):
    figure = ui.BoardFigure(
        go.Figure(
            [
                go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="lane links"),
                go.Scatter(x=[], y=[], mode="markers", name="legal targets"),  # nothing to show now
                go.Scatter(x=[0], y=[1], mode="markers", name="hidden", showlegend=False),
                go.Scatter(x=[1], y=[0], mode="markers", name="planes"),
            ],
            layout={"width": 400, "height": 300, "showlegend": True, "legend": {"orientation": "h", "y": -0.02}},
        )
    )
    show(page, board=figure)
    entries = page.eval_on_selector_all("#board .legend-item text", "els => els.map(e => e.textContent)")
    assert entries == ["lane links", "planes"]
    # a click on an entry hides its trace (the entry stays, faded) and a second click shows it again
    planes = "#board g.trace[data-trace='3'] path.point"
    page.click("#board .legend-item[data-trace='3']")
    page.wait_for_selector(planes, state="detached", timeout=5_000)
    assert page.get_attribute("#board .legend-item[data-trace='3']", "opacity") == "0.4"
    told = [value for _, key, value in page.evaluate("window.sent") if key == "_js2py_restyle"]
    figure._handler_js2py_restyle({"new": told[0]})  # what plotly.py makes of it: the trace is hidden there too
    assert figure.data[3].visible == "legendonly"
    page.click("#board .legend-item[data-trace='3']")
    page.wait_for_selector(planes, timeout=5_000)
    told = [value for _, key, value in page.evaluate("window.sent") if key == "_js2py_restyle"]
    figure._handler_js2py_restyle({"new": told[1]})
    assert figure.data[3].visible is True
    assert clicks(page) == []  # the legend is not a point of the board
