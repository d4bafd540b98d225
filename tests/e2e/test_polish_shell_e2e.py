"""Issue 48.9 in a real browser: Enter plays a board's place where the page's host takes Enter for itself (the
website's REPL), a "Skip to the board" link comes first in the tab order, the set-up's level menus show their whole
names, and Load changes neither the toolbar's height nor where the board is drawn."""

from __future__ import annotations

import json
import time

import pytest

from .test_app import BOARD, open_app
from .test_board_js import BOARD_JS, HARNESS, SITE

# what JupyterLab's code console (the website's REPL, in which the app runs) does with Enter pressed outside its
# prompt: a listener of the console's node, in the capture phase, stops the key's default (a button's click) and
# moves the focus to the prompt's editor (CodeConsole._evtKeyDown of @jupyterlab/console 4)
CONSOLE_TAKES_ENTER = """
() => {
  const editor = document.createElement("textarea");
  editor.id = "prompt";
  editor.tabIndex = -1;  // hidden by the website's styles: never a stop of the Tab key
  document.body.append(editor);
  document.body.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && document.activeElement !== editor) { event.preventDefault(); editor.focus(); }
  }, true);
}
"""


@pytest.fixture()
def blank(browser):
    """An empty page of its own address, as test_board_js's (no page error allowed)."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route(f"{SITE}/", lambda route: route.fulfill(body="<!doctype html><body></body>", content_type="text/html"))
    page.goto(f"{SITE}/")
    yield page
    page.close()
    assert not errors, errors


def test_enter_on_a_board_place_plays_it_as_space_does_where_the_host_takes_enter(blank):
    import plotly.graph_objects as go

    from rulebook.views import BoardView

    plot = go.Figure(
        [go.Scatter(x=[0, 1, 2], y=[0, 0, 0], mode="markers", name="cells", customdata=["a", "b", "c"])],
        layout={"width": 300, "height": 200, "xaxis": {"visible": False}, "yaxis": {"visible": False}},
    )
    view = BoardView(plot)
    view.on_click("cells", lambda point: None)
    state = {"figure": view.figure, "revision": view.revision, "clickable": view.clickable}
    blank.evaluate(CONSOLE_TAKES_ENTER)
    blank.evaluate(HARNESS, [BOARD_JS, {"board": json.loads(json.dumps(state))}])
    blank.keyboard.press("Tab")
    focused = "() => document.activeElement.className || document.activeElement.id"
    assert blank.evaluate(focused) == "rulebook-figure-place", blank.evaluate(focused)
    blank.keyboard.press("Enter")
    blank.keyboard.press("ArrowRight")
    blank.keyboard.press(" ")
    sent = blank.evaluate("window.sent")
    clicks = [value for _, key, value in sent if key == "send" and value.get("event") == "click"]
    assert [click["point"] for click in clicks] == ["a", "b"], clicks  # Enter played "a", as Space played "b"
    assert blank.evaluate(focused) == "rulebook-figure-place", "the focus stays on the board, not in the prompt"


@pytest.fixture()
def app(browser, apps):
    """Meetjesland's app in a 1280 x 800 window, its board drawn (its level names are the longest: intermediate)."""
    page, _ = open_app(browser, apps, "meetjesland")
    page.evaluate("() => window.scrollTo(0, 0)")
    yield page
    page.close()


def test_a_skip_link_first_in_the_tab_order_puts_the_focus_on_the_board(app):
    app.locator("body").click(position={"x": 1270, "y": 790})  # the page has the focus, nothing in it
    app.keyboard.press("Tab")
    first = app.evaluate(
        "() => { const e = document.activeElement; const r = e.getBoundingClientRect();"
        " return { text: e.textContent.trim(), width: r.width, height: r.height, top: r.top, left: r.left }; }"
    )
    assert first["text"] == "Skip to the board", first
    assert first["width"] > 40 and first["height"] > 10 and 0 <= first["top"] < 800 and 0 <= first["left"] < 1280
    app.keyboard.press("Enter")
    time.sleep(0.5)
    inside = app.evaluate(
        "() => Boolean(document.activeElement.closest('.rulebook-board'))"
        " && document.activeElement.classList.contains('rulebook-figure-place')"
    )
    assert inside, app.evaluate("() => document.activeElement.outerHTML.slice(0, 200)")
    app.keyboard.press("Tab")  # away from the link, it is out of sight again
    hidden = app.locator(".rulebook-skip-link").first.bounding_box()
    assert hidden is None or hidden["width"] <= 1 or hidden["x"] + hidden["width"] <= 0


def test_the_set_up_s_level_menus_show_their_whole_names(app):
    app.locator(".rulebook-app .lm-TabBar-tab", has_text="Set-up").first.click()
    time.sleep(0.5)
    cut = app.evaluate(
        """() => {
          const canvas = document.createElement("canvas").getContext("2d");
          const cut = [];
          for (const select of document.querySelectorAll(".rulebook-app .widget-dropdown select")) {
            if (!select.offsetParent) continue;  // a seat the game does not use is hidden
            const style = getComputedStyle(select);
            canvas.font = style.font;
            const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
            for (const option of select.options) {
              const width = canvas.measureText(option.text).width;
              if (width > room) cut.push(`${option.text}: ${Math.round(width)} px in ${Math.round(room)} px`);
            }
          }
          return cut;
        }"""
    )
    assert cut == [], cut


def test_load_keeps_the_toolbar_on_one_line_and_the_board_where_it_was(app, tmp_path):
    from rulebook.app import App

    python = App("meetjesland", seed=5)
    for _ in range(12):
        board = python.board
        assert board.play(board.game.legal_moves(board.live)[0]), board.message
    _, text = python.saved()
    save = tmp_path / "meetjesland-the-tuesday-class-second-table-before-the-break-move12.json"
    save.write_text(text)

    def places() -> dict[str, float]:
        return app.evaluate(
            "() => ({ toolbar: document.querySelector('.rulebook-app > .widget-hbox').getBoundingClientRect().height,"
            " board: document.querySelector('.rulebook-app .rulebook-board').getBoundingClientRect().top })"
        )

    before = places()
    with app.expect_file_chooser(timeout=30_000) as choosing:
        app.locator(".rulebook-app .rulebook-load").first.click()
    choosing.value.set_files(str(save))
    app.locator(".rulebook-app", has_text=f"Loaded {save.name}").first.wait_for(timeout=60_000)
    app.wait_for_selector(BOARD, timeout=60_000)
    time.sleep(1)
    after = places()
    app.screenshot(path=str(tmp_path / "loaded.png"))
    assert after == before, (before, after)
