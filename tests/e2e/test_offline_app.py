"""Issue 26.9 in a real browser: each game's app served as `rulebook app GAME` serves it (Voila, preheated kernel),
opened in Chromium that can reach 127.0.0.1 and localhost only (--host-resolver-rules, as tests/e2e/test_site.py
does). Every request of the page is recorded while it opens, a move is played and the set-up is used; one to another
host, or one that fails, fails the test. The icons still show (Font Awesome from Voila's own voila-style.js, not a
CDN), the Load button says Load (issue 26.8), and each computer level's description under its seat is shown whole
at 1280x800 (issue 26.5): .e2e/offline-<game>-setup.png."""

from __future__ import annotations

import time

import pytest

from rulebook import registry
from rulebook.cli import app_notebook

from .conftest import SHOTS, serve_voila
from .test_site import Traffic

WIDTH, HEIGHT = 1280, 800
BOARD = ".rulebook-app .rulebook-board .rulebook-figure svg .trace .point"
GAMES = list(registry.names())


@pytest.fixture()
def served(jupyter_env, request, tmp_path):
    """The app's notebook served exactly as `rulebook app` serves it; the page's address once Voila answers."""

    def start(game: str) -> str:
        return serve_voila(app_notebook(game, tmp_path), jupyter_env, request, f"voila-offline-{game}.log")

    return start


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
        # every seat a computer at each level in turn: its description is shown whole beside the menu
        page.locator(".rulebook-app .lm-TabBar-tab", has_text="Set-up").first.click()
        time.sleep(0.5)
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
