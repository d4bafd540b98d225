"""board.js and chart.js, the figures' drawing, in a real browser, fed the synced state of a BoardView or ChartView
(a stand-in for the kernel records what the page sends back): a board draws every marker and label its figure holds,
keeps one scale on both axes, redraws at a new revision, reports a click by trace name, point id and revision, and
hides a trace from a legend click in the page only; a chart is drawn by plotly.js, loaded once per page from an
address or from the kernel."""

from __future__ import annotations

import json
from pathlib import Path

import plotly.graph_objects as go
import pytest

from rulebook import views
from rulebook.views import BoardView, ChartView, trace
from tests.e2e.conftest import SHOTS

PACKAGE = Path(views.__file__).parent  # rulebook/view/: the figures and their scripts
BOARD_JS = (PACKAGE / "board.js").read_text()
CHART_JS = (PACKAGE / "chart.js").read_text()
SITE = "http://rulebook.test"

# a page with the module and, per figure, a model holding its synced values; what the page sends is recorded
HARNESS = """
async ([source, figures]) => {
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  const widget = (await import(url)).default;
  window.models ??= {};
  window.sent ??= [];
  for (const [name, values] of Object.entries(figures)) {
    const handlers = {};
    const fire = (event, ...args) => (handlers[event] || []).forEach((handler) => handler(...args));
    const model = {
      get: (key) => values[key],
      on: (event, handler) => (handlers[event] ??= []).push(handler),
      off: (event, handler) => { handlers[event] = (handlers[event] || []).filter((h) => h !== handler); },
      set: (key, value) => { values[key] = value; window.sent.push([name, key, value]); },
      save_changes() {},
      send: (content) => window.sent.push([name, "send", content]),
      // the kernel's side: new synced values (one message, as ipywidgets sends them), a custom message
      update(changes) { Object.assign(values, changes); Object.keys(changes).forEach((key) => fire("change:" + key)); },
      receive: (content) => fire("msg:custom", content),
    };
    widget.initialize?.({ model });
    const el = document.createElement("div");
    el.id = name;
    document.body.append(el);
    widget.render({ model, el });
    window.models[name] = model;
  }
}
"""


def synced(figure: views.FigureView) -> dict:
    """What the page's model holds of a figure: its ``figure`` and ``revision`` (and a chart's settings)."""
    chart = ("config", "plotly_url", "plotly_key") if isinstance(figure, ChartView) else ()
    return {name: getattr(figure, name) for name in ("figure", "revision", *chart)}


@pytest.fixture()
def page(browser):
    page = browser.new_page()
    page.set_viewport_size({"width": 1200, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route(f"{SITE}/", lambda route: route.fulfill(body="<!doctype html><body></body>", content_type="text/html"))
    page.goto(f"{SITE}/")
    yield page
    page.close()
    assert not errors, errors


def show(page, source: str = BOARD_JS, **figures) -> None:
    state = json.loads(json.dumps({name: synced(figure) for name, figure in figures.items()}, default=list))
    page.evaluate(HARNESS, [source, state])


def push(page, name: str, view: views.FigureView) -> None:
    """What the kernel sends after ``view.draw()``: the new figure and revision together."""
    page.evaluate("([name, state]) => window.models[name].update(state)", [name, synced(view)])
    page.wait_for_timeout(100)  # drawn at the next animation frame


def centre(page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def sent(page, kind: str = "send") -> list:
    """What the page sent of ``kind``, but the {event: "shown"} each view sends once it is made (the kernel then
    sends the page's states again: rulebook/ui.py), which test_a_view_says_once_that_it_is_shown checks."""
    return [
        value
        for _, key, value in page.evaluate("window.sent")
        if key == kind and not (isinstance(value, dict) and value.get("event") == "shown")
    ]


def test_every_game_s_board_is_drawn_whole(page):
    """Each marker of size > 0 and each non-empty label of every visible trace is in the drawing, of all four boards
    after a few moves and a hint."""
    from tests.test_ui import BOARDS

    boards = {game: make() for game, make in BOARDS.items()}
    for board in boards.values():
        board.hint()
    show(page, **{game: board.figure for game, board in boards.items()})
    for game, board in boards.items():
        figure = board.figure
        assert isinstance(figure, BoardView)
        for index, drawn in enumerate(figure.plot.data):
            if drawn.visible is False:
                continue
            group = f"#{game} g.trace[data-trace='{index}']"
            points = list(zip(drawn.x or (), drawn.y or ()))
            shown = [i for i, (x, y) in enumerate(points) if x is not None and y is not None]
            mode = drawn.mode or ""
            if "markers" in mode:
                sizes = drawn.marker.size
                own = [i for i in shown if (sizes[i] if isinstance(sizes, (list, tuple)) else (sizes or 6)) > 0]
                found = page.eval_on_selector_all(f"{group} path.point", "els => els.map(e => +e.dataset.point)")
                assert found == own, (game, index, drawn.name)
            if "text" in mode and drawn.text is not None:
                texts = drawn.text if isinstance(drawn.text, (list, tuple)) else [drawn.text] * len(points)
                labels = [str(texts[i]) for i in shown if texts[i] not in ("", None)]
                assert page.eval_on_selector_all(f"{group} text", "els => els.map(e => e.textContent)") == labels
    page.mouse.move(1, 1)
    page.locator("#claim .rulebook-figure").screenshot(path=SHOTS / "board-js-claim.png")


def test_a_click_sends_the_trace_s_name_the_point_s_id_and_the_revision_drawn(page):
    view = BoardView(
        go.Figure(
            [
                go.Scatter(
                    x=[0, 1, 2],
                    y=[0, 0, 0],
                    mode="markers",
                    name="cells",
                    customdata=[[5, 0], [5, 1], [5, 2]],
                    marker={"size": 30, "symbol": "square"},
                ),
                go.Scatter(x=[0], y=[0], mode="markers", marker={"size": 50}, hoverinfo="skip", name="ring"),  # on top
                go.Scatter(x=[1], y=[1], mode="markers", name="pieces", ids=["red-1"], marker={"size": 20}),
                go.Scatter(x=[2], y=[1], mode="markers", name="plain", marker={"size": 20}),
            ],
            layout={"width": 300, "height": 200, "xaxis": {"range": [-1, 3]}, "yaxis": {"range": [-1, 2]}},
        )
    )
    heard: list = []
    for name in ("cells", "pieces", "plain"):
        view.on_click(name, lambda point, name=name: heard.append((name, point)))
    show(page, board=view)
    page.mouse.click(*centre(page, "#board g.trace[data-name='ring'] path.point"))  # unclickable: the cell under it
    x, y = centre(page, "#board g.trace[data-name='cells'] path.point[data-point='2']")
    page.mouse.click(x + 12, y - 12)  # inside the square, off its centre
    page.mouse.click(x, y + 60)  # far from every point: nothing
    page.mouse.click(*centre(page, "#board g.trace[data-name='pieces'] path.point"))
    page.mouse.click(*centre(page, "#board g.trace[data-name='plain'] path.point"))
    clicks = sent(page)
    assert clicks == [
        {"event": "click", "trace": "cells", "point": [5, 0], "revision": 1},  # the id is the customdata
        {"event": "click", "trace": "cells", "point": [5, 2], "revision": 1},
        {"event": "click", "trace": "pieces", "point": "red-1", "revision": 1},  # ids before customdata
        {"event": "click", "trace": "plain", "point": 0, "revision": 1},  # neither: the index
    ]
    for content in clicks:  # what the BoardView makes of them
        view._handle_custom_msg(content, [])
    assert heard == [("cells", [5, 0]), ("cells", [5, 2]), ("pieces", "red-1"), ("plain", 0)]
    # a new revision: the click names it
    trace(view.plot, "cells").update(x=[2, 1, 0])
    assert view.draw()
    push(page, "board", view)
    page.mouse.click(x, y)
    assert sent(page)[-1] == {"event": "click", "trace": "cells", "point": [5, 0], "revision": 2}


def test_a_view_says_once_that_it_is_shown(page):
    view = BoardView(go.Figure(go.Scatter(x=[0, 1], y=[0, 1], mode="markers", name="cells")))
    show(page, board=view)
    page.wait_for_function("() => window.sent.some(([, key, value]) => key === 'send' && value?.event === 'shown')")
    page.wait_for_timeout(300)
    told = [value for name, key, value in page.evaluate("window.sent") if key == "send"]
    assert told == [{"event": "shown", "revision": view.revision}], told


def test_a_new_revision_changes_the_drawing(page):
    view = BoardView(
        go.Figure(
            go.Scatter(x=[0, 1], y=[0, 1], mode="markers+text", text=["a", "b"], marker={"color": "grey"}, name="p"),
            layout={"width": 300, "height": 300, "title": {"text": "before"}},
        )
    )
    show(page, board=view)
    assert page.eval_on_selector_all("#board g.trace text", "els => els.map(e => e.textContent)") == ["a", "b"]
    with view.plot.batch_update():
        points = trace(view.plot, "p")
        points.update(marker={"color": ["#ff0000", "#0000ff"], "opacity": 0.5}, text=["c", "d"], x=[1, 0])
        view.plot.update_layout(title_text="after <b>the swap</b>", width=320)
    assert view.draw() and not view.draw()  # the second: nothing changed, nothing sent
    push(page, "board", view)
    fills = page.eval_on_selector_all("#board path.point", "els => els.map(e => e.getAttribute('fill'))")
    assert fills == ["#ff0000", "#0000ff"]
    assert (
        page.eval_on_selector_all("#board path.point", "els => els.map(e => e.getAttribute('opacity'))") == ["0.5"] * 2
    )
    assert page.get_attribute("#board svg", "width") == "320"
    assert page.eval_on_selector_all("#board g.trace text", "els => els.map(e => e.textContent)") == ["c", "d"]
    first, second = (centre(page, f"#board path.point[data-point='{i}']") for i in (0, 1))
    assert first[0] > second[0] + 50  # the first point now stands right of the second
    assert "after the swap" in page.inner_text("#board")


def test_one_scale_on_both_axes_and_arrows_along_their_line(page):
    view = BoardView(
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
    show(page, board=view)
    origin, east, north = (
        centre(page, f"#board g.trace[data-trace='0'] path.point[data-point='{i}']") for i in range(3)
    )
    assert abs((east[0] - origin[0]) - (origin[1] - north[1])) < 1.5  # a unit is as long across as up
    assert abs((origin[1] - north[1]) - 300) < 2  # the height fits; the width's range grew about its centre
    turn = page.get_attribute("#board g.trace[data-trace='1'] path.point[data-point='1']", "transform")
    assert turn.endswith("rotate(90.0)"), turn  # the arrow at the line's end points east, from its previous point


def test_the_hover_label_shows_the_text_with_its_line_breaks_and_nothing_else_as_html(page):
    view = BoardView(
        go.Figure(
            go.Scatter(x=[0], y=[0], mode="markers", hovertext=["Eeklo<br><b>3</b> points <script>x</script>"]),
            layout={"width": 300, "height": 300, "hoverlabel": {"font": {"size": 13}}},
        )
    )
    show(page, board=view)
    page.mouse.move(*centre(page, "#board path.point"))
    label = page.locator("#board .rulebook-figure-label")
    label.wait_for(state="visible", timeout=5_000)
    assert label.inner_html() == "Eeklo<br><b>3</b> points &lt;script&gt;x&lt;/script&gt;"
    page.mouse.move(1, 299)
    label.wait_for(state="hidden", timeout=5_000)


def test_a_legend_click_hides_a_trace_in_the_page_only_and_across_redraws(page):
    view = BoardView(
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
    show(page, board=view)
    entries = page.eval_on_selector_all("#board .legend-item text", "els => els.map(e => e.textContent)")
    assert entries == ["lane links", "planes"]
    planes = "#board g.trace[data-name='planes'] path.point"
    page.click("#board .legend-item[data-trace='3']")
    page.wait_for_selector(planes, state="detached", timeout=5_000)
    assert page.get_attribute("#board .legend-item[data-trace='3']", "opacity") == "0.4"
    # a redraw from Python (a trace put in front of the planes) keeps them hidden: by their name, not their place
    view.plot.add_trace(go.Scatter(x=[0.5], y=[0.5], mode="markers", name="new"))
    view.plot.data = [view.plot.data[i] for i in (0, 4, 1, 2, 3)]
    trace(view.plot, "planes").update(x=[1, 0.5], y=[0, 0])
    view.draw()
    push(page, "board", view)
    assert page.locator(planes).count() == 0 and page.locator("#board g.trace[data-name='new'] path.point").count()
    assert page.get_attribute("#board .legend-item[data-trace='4']", "opacity") == "0.4"
    page.click("#board .legend-item[data-trace='4']")  # shown again
    page.wait_for_selector(planes, timeout=5_000)
    assert page.locator(planes).count() == 2
    assert sent(page) == [] and all(t.visible is None for t in view.plot.data)  # Python was told nothing


def serve_plotly(page) -> str:
    """Serve plotly.min.js at the address the app gives it (beside the notebook); returns the address."""
    name = views.plotly_file_name()
    text = views._plotly_js()[0]
    served: list[str] = []

    def answer(route):
        served.append(route.request.url)
        route.fulfill(body=text, content_type="text/javascript")

    page.route(f"{SITE}/voila/files/{name}", answer)
    page.served = served
    return f"voila/files/{name}"


def test_a_chart_is_drawn_by_plotly_js_loaded_once_from_the_address_the_app_serves(page):
    address = serve_plotly(page)
    views.serve_plotly_from(address)
    try:
        bars = ChartView(go.Figure(go.Bar(x=["a", "b"], y=[1, 2]), layout={"width": 300, "height": 250}))
        heat = ChartView(go.Figure(go.Heatmap(z=[[1, 2], [3, 4]]), layout={"width": 300, "height": 250}))
    finally:
        views.serve_plotly_from("")
    show(page, CHART_JS, bars=bars, heat=heat)
    for name in ("bars", "heat"):
        page.locator(f"#{name} .js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=30_000)
    assert len(page.served) == 1 and sent(page) == []  # one load for the page; nothing asked of the kernel
    assert page.locator("#bars .modebar").count() == 0 or not page.locator("#bars .modebar").first.is_visible()
    assert page.locator("#bars .point").count() == 2
    bars.plot.update_layout(title_text="Odds of a win")
    bars.plot.data[0].update(y=[1, 2])  # unchanged data, a new title
    assert bars.draw()
    push(page, "bars", bars)
    page.wait_for_function("() => document.querySelector('#bars .gtitle')?.textContent === 'Odds of a win'")
    page.locator("#bars").screenshot(path=SHOTS / "chart-js-bars.png")


def test_a_chart_asks_the_kernel_for_plotly_when_no_address_serves_it(page):
    views.serve_plotly_from(f"{SITE}/missing/plotly.js")  # an address that fails, as a removed file does
    try:
        first = ChartView(go.Figure(go.Bar(x=[0, 1], y=[1, 0]), layout={"width": 300, "height": 250}))
    finally:
        views.serve_plotly_from("")
    second = ChartView(go.Figure(go.Scatter(x=[0, 1], y=[1, 0]), layout={"width": 300, "height": 250}))
    page.route(f"{SITE}/missing/**", lambda route: route.fulfill(status=404, body="gone"))
    show(page, CHART_JS, first=first, second=second)
    page.wait_for_function("() => window.sent.some(([, key]) => key === 'send')", timeout=10_000)
    page.wait_for_timeout(300)
    asked = [(name, value) for name, key, value in page.evaluate("window.sent") if key == "send"]
    assert len(asked) == 1 and asked[0][1] == {"event": "plotly"}  # once for the page, by one of the charts
    view = {"first": first, "second": second}[asked[0][0]]
    replies: list = []
    view.comm.send = lambda data=None, metadata=None, buffers=None: replies.append(data)
    view._handle_custom_msg(asked[0][1], [])
    (reply,) = replies
    page.evaluate("([name, content]) => window.models[name].receive(content)", [asked[0][0], reply["content"]])
    for name in ("first", "second"):
        page.locator(f"#{name} .js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=30_000)


def test_a_rule_text_that_scrolls_in_its_box_is_reached_by_the_keyboard_and_leaves_the_tab_order_once_it_fits(page):
    """Ab die Post!'s status line keeps four lines' height and scrolls when it says more (at a tablet's width it
    wraps more): a scrolling box the keyboard cannot reach is a serious axe finding, so rule_text.js makes it
    focusable while it scrolls, and only then."""
    source = (PACKAGE / "rule_text.js").read_text()
    page.add_style_tag(content="#status { height: 80px; overflow: auto; width: 300px; font-size: 14px; }")
    short = "Player 1: draw a card or fly."
    page.evaluate(HARNESS, [source, {"status": {"value": short, "detail": "", "_dom_classes": ["rulebook-status"]}}])
    page.wait_for_timeout(100)
    assert page.locator("#status").get_attribute("tabindex") is None
    long = " ".join(["Player 1 drew a hurricane card and loses the spare parts on the inner lane."] * 6)
    page.evaluate("(value) => window.models.status.update({ value })", long)
    page.wait_for_timeout(100)
    assert page.locator("#status").get_attribute("tabindex") == "0"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "status"
    page.evaluate("(value) => window.models.status.update({ value })", short)
    page.wait_for_timeout(100)
    assert page.locator("#status").get_attribute("tabindex") is None
    page.add_style_tag(content="#status { width: 24px; }")  # the same short words, wrapped in a narrower box
    page.wait_for_timeout(150)
    assert page.locator("#status").get_attribute("tabindex") == "0"
