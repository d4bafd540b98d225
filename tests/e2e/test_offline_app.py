"""Issue 26.9 in a real browser: each game's app served as `rulebook app GAME` serves it (Voila, preheated kernel),
opened in Chromium that can reach 127.0.0.1 and localhost only (--host-resolver-rules, as tests/e2e/test_site.py
does). Every request of the page is recorded while it opens, a move is played by clicking the board, the Odds tab
(plotly.js) is opened and the set-up is used; one to another host, or one that fails, fails the test. axe finds no
serious or critical violation of the rulebook's on the first screen, after the move, and with each tab open
(tests/e2e/test_access.py, issue 28). The icons still show (Font Awesome from Voila's own voila-style.js, not a CDN),
the Load button says Load (issue 26.8), every label of the set-up is shown whole and none is under 11 px (issue
26.7), and each computer level's description under its seat is shown whole at 1280x800 (issue 26.5):
.e2e/offline-<game>-setup.png."""

from __future__ import annotations

import time

import pytest

from rulebook import registry
from rulebook.app import App
from rulebook.cli import app_notebook
from rulebook.views import point_ids, trace

from .conftest import SHOTS, serve_voila
from .drivers import button, new_game, type_seed
from .test_access import axe_findings, every_tab_without_serious_violations
from .test_site import Traffic

WIDTH, HEIGHT = 1280, 800
BOARD = ".rulebook-app .rulebook-board .rulebook-figure svg .trace .point"
GAMES = list(registry.names())
SEED = 1  # the game the page plays a move in, built beside it in Python to know where a click plays one
# the trace whose point is clicked and the point's index: a ring (a build), a free point (a piece placed), the star
# the Hint draws round the plane (its move, a card drawn, played), a territory of the person's (None: the first)
CLICKS = {
    "kingdom_builder": ("legal", 0),
    "claim": ("territories", 0),
    "ab_die_post": ("suggested move (Hint)", 0),
    "meetjesland": ("territories", None),
}
# every label of the set-up panel shown: the ones cut (their text overflows them, or a box around them that hides
# what overflows is smaller than the text) and the ones under 11 px
LABELS = """option => {
  const panel = option.closest(".widget-tab-contents");
  const labels = [...panel.querySelectorAll("label, .widget-label, label span")]
    .filter(e => e.checkVisibility() && e.textContent.replace(/\u200b/g, "").trim());
  const cut = [], small = [];
  for (const label of labels) {
    const name = label.textContent.trim().slice(0, 40), style = getComputedStyle(label);
    if (parseFloat(style.fontSize) < 11) small.push(`${name}: ${style.fontSize}`);
    if (style.display !== "inline" && (label.scrollWidth > label.clientWidth + 1
        || label.scrollHeight > label.clientHeight + 1))
      cut.push(`${name}: ${label.scrollWidth}x${label.scrollHeight} in ${label.clientWidth}x${label.clientHeight}`);
    const range = document.createRange();
    range.selectNodeContents(label);
    const text = range.getBoundingClientRect();
    for (let box = label.parentElement; box && !box.matches(".widget-tab"); box = box.parentElement) {
      const boxStyle = getComputedStyle(box);
      if (boxStyle.overflowX === "visible" && boxStyle.overflowY === "visible") continue;
      const outer = box.getBoundingClientRect();
      if (text.left < outer.left - 1 || text.right > outer.right + 1)  // never scrolled sideways
        cut.push(`${name}: ${Math.round(text.width)} px wide in ${box.className} of ${Math.round(outer.width)}`);
      if (boxStyle.overflowY === "auto" || boxStyle.overflowY === "scroll") break;  // the panel scrolls down
      if (text.top < outer.top - 1 || text.bottom > outer.bottom + 1)
        cut.push(`${name}: ${Math.round(text.height)} px high in ${box.className} of ${Math.round(outer.height)}`);
    }
  }
  // each option shown (a row of the set-up's options) with whether one of the labels checked is its own
  const options = [...panel.querySelectorAll(".rulebook-option")].filter(e => e.checkVisibility())
    .map(e => [e.textContent.trim().slice(0, 40), labels.some(label => e.contains(label))]);
  // every menu and field of the set-up inside the panel's column: a 330 px row in its 328 px cut their right edge
  const column = [...panel.children].find(child => child.contains(option));  // the set-up's own box in the tab
  const edge = column.getBoundingClientRect().right - (column.offsetWidth - column.clientWidth);
  const wide = [...column.querySelectorAll("select, input, .widget-inline-hbox")].filter(e => e.checkVisibility())
    .filter(e => e.getBoundingClientRect().right > edge + 0.5)
    .map(e => `${(e.closest(".widget-inline-hbox") || e).textContent.trim().slice(0, 30) || e.tagName}: ends at `
      + `${Math.round(e.getBoundingClientRect().right)}, the panel at ${Math.round(edge)}`);
  if (column.scrollWidth > column.clientWidth + 1)
    wide.push(`the panel: ${column.scrollWidth} in ${column.clientWidth}`);
  return {labels: labels.map(e => e.textContent.trim()), options, cut, small, wide};
}"""


@pytest.fixture()
def served(jupyter_env, request, tmp_path):
    """The app's notebook served exactly as `rulebook app` serves it; the page's address once Voila answers."""

    def start(game: str) -> str:
        log = f"voila-offline-{game}.log"
        return serve_voila(app_notebook(game, tmp_path), jupyter_env, request, log, refill=False)

    return start


def status(page) -> str:
    return " ".join(page.locator(".rulebook-status").first.inner_text().split())


def play_a_move(page, game: str) -> None:
    """Play one move of the person's by clicking the board (Meetjesland: a territory, then Place), in the game of
    seed 1; the same click on the same game in Python tells what the page's status must then say."""
    type_seed(page, str(SEED))
    new_game(page)
    board = page.locator(".rulebook-app .rulebook-board").first
    table = App(game, seed=SEED).board
    name, index = CLICKS[game]
    if game == "ab_die_post":
        table.hint()
        before = status(page)
        page.locator(".rulebook-app .rulebook-hint").first.click()
        page.wait_for_function(
            "(b) => document.querySelector('.rulebook-status').innerText !== b", arg=before, timeout=60_000
        )
    drawn = trace(table.figure.plot, name)
    if index is None:  # a territory of the person's
        index = list(drawn.customdata).index(table.state.territories_of(table.state.turn)[0])
    table.figure.click(name, point_ids(drawn.to_plotly_json())[index])
    point = board.locator(f".rulebook-figure g.trace[data-name='{name}'] path.point[data-point='{index}']").first
    box = point.bounding_box()
    assert box is not None, f"{game}: point {index} of {name!r} is not drawn"
    before = status(page)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    if game == "meetjesland":  # the territory chosen, its points placed
        menu = board.locator(".widget-dropdown", has=page.locator("label:text-is('From / on')")).locator("select")
        chosen = table.state.board.name(table.origin)
        page.wait_for_function(
            "([m, n]) => m.selectedOptions[0]?.text === n", arg=[menu.element_handle(), chosen], timeout=30_000
        )
        table.place_button.click()
        button(board, "Place").click()
    told = " ".join(table.message.split())[:60]
    assert "Refused" not in told and table.message_kind != "error", table.message
    page.wait_for_function(
        "([b, t]) => { const s = document.querySelector('.rulebook-status').innerText.split(/\\s+/).join(' ');"
        " return s !== b && s.includes(t); }",
        arg=[before, told],
        timeout=60_000,
    )


def icon_font(page, selector: str) -> dict:
    """The Font Awesome glyph of a button's icon as drawn: its font and the width of its ::before content."""
    return page.locator(selector).first.evaluate(
        """button => {
          const icon = button.querySelector("i.fa");
          if (!icon) return {font: "", content: "", width: 0};
          const before = getComputedStyle(icon, "::before");
          return {font: before.fontFamily, content: before.content, width: icon.getBoundingClientRect().width};
        }"""
    )


@pytest.mark.parametrize("game", GAMES)
def test_the_app_asks_no_other_host(game, chromium, served):  # chromium: only this machine's hosts resolve
    url = served(game)
    context = chromium.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    traffic = Traffic(base=url)
    traffic.watch(context)
    try:
        page = context.new_page()
        page.goto(url, wait_until="commit", timeout=120_000)
        page.wait_for_selector(BOARD, timeout=180_000)
        page.locator(".rulebook-status").first.wait_for(timeout=60_000)
        page.wait_for_load_state("networkidle", timeout=60_000)
        # the icons are drawn from Voila's own Font Awesome: the Hint's bulb, the history bar's arrows
        hint = icon_font(page, ".rulebook-app .rulebook-hint")
        assert "Font Awesome" in hint["font"] and hint["content"] not in ("", "none") and hint["width"] > 0, hint
        assert page.locator(".rulebook-app .rulebook-load").first.inner_text().strip() == "Load"
        found = axe_findings(page, f"app {game}: first screen")[0]  # issue 28: no serious violation of ours
        play_a_move(page, game)
        found += every_tab_without_serious_violations(page, game)
        assert not found, found
        # the game's explorer beside the board (the Odds tab loads plotly.js for its charts; Claim's is Threats)
        page.locator(".rulebook-app .lm-TabBar-tab", has_text="Threats" if game == "claim" else "Odds").first.click()
        explorer = page.locator(".rulebook-app .rulebook-explorer").first
        explorer.locator(".rulebook-explorer-result").first.wait_for(state="visible", timeout=60_000)
        if game != "claim":
            explorer.locator(".js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=60_000)
        page.wait_for_load_state("networkidle", timeout=60_000)
        page.locator(".rulebook-app .lm-TabBar-tab", has_text="Set-up").first.click()
        # issue 26.7: every label of the set-up shown whole, none under 11 px (its options' labels among them)
        option = page.locator(".rulebook-app .rulebook-option:visible").first
        option.wait_for(state="visible", timeout=30_000)
        labels = option.evaluate(LABELS)
        assert labels["options"] and all(checked for _, checked in labels["options"]), labels
        assert not labels["cut"], f"{game}: set-up labels cut off: {labels['cut']}"
        assert not labels["small"], f"{game}: set-up labels under 11 px: {labels['small']}"
        assert not labels["wide"], f"{game}: set-up controls past the panel's edge: {labels['wide']}"
        # every seat a computer at each level in turn: its description is shown whole beside the menu
        entry = registry.game(game)
        name = entry.seat_names(entry.default_players)[0]
        seat = page.locator(".rulebook-app .widget-dropdown", has=page.locator(f"label:text-is('{name}')")).first
        seat = seat.locator("select")
        levels = entry.levels
        for level in levels:
            seat.select_option(label=f"Computer: {level.label}")
            note = page.locator(".rulebook-app .rulebook-level-note").first
            note.wait_for(state="visible", timeout=30_000)
            page.wait_for_function(
                "([text]) => [...document.querySelectorAll('.rulebook-level-note')].some("
                "n => n.innerText.includes(text))",
                arg=[level.description[:40]],
                timeout=30_000,
            )
            shown = page.locator(".rulebook-app .rulebook-level-note", has_text=level.description[:40]).first
            assert level.description in shown.inner_text().replace("\n", " ")
            # cut: the text overflows its box, or a box around it that hides what overflows is smaller than it
            # (the set-up panel's column squeezed the row of a seat when the game has many options)
            cut = shown.evaluate(
                """note => {
                  const text = note.querySelector(".rb-level-note") || note;
                  const cut = [note, ...note.querySelectorAll("*")]
                    .filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
                    .map(
                      e => `${e.className}: ${e.scrollWidth}x${e.scrollHeight} in ${e.clientWidth}x${e.clientHeight}`
                    );
                  const inner = text.getBoundingClientRect();
                  for (let box = text.parentElement; box && !box.matches(".widget-tab"); box = box.parentElement) {
                    const style = getComputedStyle(box);
                    if (style.overflowY === "visible" && style.overflowX === "visible") continue;
                    const outer = box.getBoundingClientRect();
                    if (inner.right > outer.right + 1 || inner.left < outer.left - 1)  // never scrolled sideways
                      cut.push(`${box.className}: ${Math.round(outer.width)} px wide holds ${Math.round(inner.width)}`);
                    if (style.overflowY === "auto" || style.overflowY === "scroll") break;  // the panel scrolls down
                    if (inner.top < outer.top - 1 || inner.bottom > outer.bottom + 1)
                      cut.push(`${box.className}: ${Math.round(outer.height)} px holds ${Math.round(inner.height)}`);
                  }
                  return cut;
                }"""
            )
            page.screenshot(path=SHOTS / f"offline-{game}-setup-{level.name}.png")
            assert not cut, f"{game}: the description of {level.label} is cut off: {cut}"
            box = shown.bounding_box()
            assert box and box["x"] + box["width"] <= WIDTH + 1, box
        page.screenshot(path=SHOTS / f"offline-{game}-setup.png")
        page.locator(".rulebook-new-game").first.click()  # a new game with those seats: kernel round trips
        time.sleep(3)
        page.wait_for_load_state("networkidle", timeout=60_000)
        traffic.check(f"{game}'s app")
        assert len(traffic.requests) > 10, traffic.requests  # the page's own files were seen (the recorder works)
    finally:
        context.close()
