"""The game app in a real browser, served as `rulebook app GAME` serves it (Voila, preheated kernel): the board in the
first screen, a New game with another set-up chosen by clicking, a move played by clicking the board, a refused move's
rule opened beside the board, and (Ab die Post, Claim) a game played to its end with the banner. Times from opening
the address to a usable board go to .e2e/timings.md beside a minimal Voila page served the same way."""

from __future__ import annotations

import json
import re
import statistics
import time

import pytest

from rulebook.cli import app_notebook
from rulebook.setup import SETUPS

from .conftest import SHOTS, serve_voila
from .drivers import DRIVERS, button, changed, choose, click_point, new_game, show_setup, status, type_seed

WIDTH, HEIGHT = 1280, 800
BOARD = ".rulebook-app .rulebook-board .rulebook-figure svg .trace .point"  # a board drawn, with its pieces
MINIMAL = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": "button",
            "metadata": {},
            "outputs": [],
            "source": "import ipywidgets as widgets\n\nwidgets.Button(description='Ready')",
        }
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


@pytest.fixture()
def serve(jupyter_env, request, tmp_path):
    """Serve a notebook exactly as `rulebook app` does; returns the page's address once the kernel is preheated."""

    def start(notebook) -> str:
        return serve_voila(notebook, jupyter_env, request, f"voila-{notebook.stem}.log", head_start=8)

    return start


def record(what: str, seconds: float) -> None:
    with open(SHOTS / "timings.md", "a", encoding="utf-8") as report:
        report.write(f"| {what} | {seconds:.1f} |\n")


def open_page(browser, url: str, ready: str) -> tuple[object, float]:
    page = browser.new_page()
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    started = time.monotonic()
    page.goto(url, wait_until="commit", timeout=120_000)
    page.wait_for_selector(ready, timeout=180_000)
    return page, time.monotonic() - started


def open_app(browser, apps, game: str):
    """A new page on the game's app (the session's server for it: conftest's ``apps``), once its board is drawn."""
    page, seconds = open_page(browser, apps(game), BOARD)
    page.locator(".rulebook-status").first.wait_for(timeout=60_000)
    record(f"app {game} (Voila, opened as the server answers): address to usable board", seconds)
    return page, seconds


def set_number(page, label: str, value: int) -> None:
    show_setup(page)
    field = page.locator(".rulebook-app .widget-inline-hbox", has=page.locator(f"label:text-is('{label}')")).first
    field.locator("input").fill(str(value))
    field.locator("input").press("Enter")
    time.sleep(0.5)


def check_first_screen(page, game: str) -> None:
    """The board's figure and every control of the board sit inside the 1280x800 window, with no scrolling."""
    page.evaluate("() => window.scrollTo(0, 0)")
    board = page.locator(".rulebook-app .rulebook-board").first
    # the board's places for the keyboard and screen readers (board.js) are visually hidden 1-px buttons: the ring a
    # keyboard user sees is drawn on the figure, at the place itself
    pieces = board.locator(".rulebook-figure, button:not(.rulebook-figure-place), select, input")
    outside = []
    for index in range(pieces.count()):
        piece = pieces.nth(index)
        if not piece.is_visible():
            continue
        box = piece.bounding_box()
        if box and (box["x"] + box["width"] > WIDTH + 1 or box["y"] + box["height"] > HEIGHT + 1):
            outside.append((piece.evaluate("e => e.outerHTML.slice(0, 80)"), box))
    page.screenshot(path=SHOTS / f"app-{game}-first-screen.png")
    assert not outside, f"{game}: outside the first screen: {outside[:3]}"
    tabs = page.locator(".rulebook-app .widget-tab").first.bounding_box()
    assert tabs and tabs["x"] + tabs["width"] <= WIDTH + 1, tabs


def open_refused_rule(page, game: str) -> None:
    """A refusal's rule id is a link: a click shows that paragraph, with its id, in the rules panel."""
    link = page.locator(".rulebook-status a[data-rule]").first
    link.wait_for(timeout=30_000)
    rule = link.inner_text()
    link.click()
    focus = page.locator(".rulebook-rules .rulebook-focus").first
    focus.wait_for(timeout=30_000)
    assert rule in focus.inner_text(), (rule, focus.inner_text()[:200])
    box = None
    for _ in range(50):  # the panel scrolls once it is shown: give it a few frames
        box = focus.bounding_box()
        if box and 0 <= box["y"] < HEIGHT and box["x"] < WIDTH:
            break
        page.wait_for_timeout(100)
    assert box and 0 <= box["y"] < HEIGHT and box["x"] < WIDTH, box
    page.screenshot(path=SHOTS / f"app-{game}-rule.png")


def game_over(page, game: str, first_seat: str, seconds: float = 120) -> None:
    banner = page.locator(".rulebook-banner").first
    banner.wait_for(state="visible", timeout=seconds * 1000)
    text = banner.inner_text()
    assert "Game over." in text and "win" in text, text
    page.screenshot(path=SHOTS / f"app-{game}-game-over.png")
    enabled = page.locator(".rulebook-board .widget-button:not([disabled]):not(:has-text('Undo'))")
    moves = [  # the replay buttons only change the view: they stay on
        enabled.nth(i).inner_text()
        for i in range(enabled.count())
        if enabled.nth(i).evaluate("e => !e.closest('.rulebook-history')")
    ]
    assert not moves, moves
    choose(page, first_seat, "Person")
    banner.locator("button:has-text('New game')").click()  # a person in the first seat: the game waits for them
    banner.wait_for(state="hidden", timeout=30_000)


def replay_from_log(page, game: str) -> None:
    """The log tells each move with its player; a click on a line shows the board as it was after that move, and a
    click on the newest line returns to the game."""
    log = page.locator(".rulebook-app .rulebook-log").first
    if not log.is_visible():
        headers = page.locator(".rulebook-app .jupyter-widget-Collapse-header")
        headers.filter(has_text=re.compile("log|moves", re.I)).first.click()
    log.wait_for(state="visible", timeout=30_000)
    assert "(computer)" in log.inner_text(), log.inner_text()[:300]
    assert page.locator(".rulebook-app .rulebook-history").count() >= 1
    lines = log.locator("[data-step]")
    assert lines.count() >= 2
    lines.nth(1).scroll_into_view_if_needed()
    lines.nth(1).click()
    page.wait_for_function(
        "() => document.querySelector('.rulebook-status')?.innerText.includes('Replay of move')", timeout=30_000
    )
    page.screenshot(path=SHOTS / f"app-{game}-replay.png")
    lines.first.click()  # the newest move: back to the game
    page.wait_for_function(
        "() => !document.querySelector('.rulebook-status')?.innerText.includes('Replay of move')", timeout=30_000
    )
    assert "You play" in status(page), status(page)


def explore_odds(page, game: str, tab: str = "Odds") -> None:
    """The Odds tab beside the board: a number typed into the explorer (or, in Claim's Threats, another colour
    chosen) changes what it computes."""
    page.locator(".rulebook-app .lm-TabBar-tab", has_text=tab).first.click()
    explorer = page.locator(".rulebook-app .rulebook-explorer").first
    explorer.wait_for(state="visible", timeout=30_000)
    result = explorer.locator(".rulebook-explorer-result")
    result.first.wait_for(state="visible", timeout=30_000)
    before = [result.nth(i).inner_text() for i in range(result.count())]
    if explorer.locator("input[type=number]").count():
        number = explorer.locator("input[type=number]").first
        low, high, now = (number.get_attribute(name) for name in ("min", "max", "value"))
        value = str(int(high) if high and now != high else int(low or 0) + 1)
        number.fill(value)
        number.press("Enter")
    else:  # the players named by their colours
        menu = explorer.locator("select").first
        options = menu.locator("option").all_inner_texts()
        value = next(option for option in options if option != menu.evaluate("e => e.selectedOptions[0].text"))
        menu.select_option(label=value)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if [result.nth(i).inner_text() for i in range(result.count())] != before:
            break
        time.sleep(0.3)
    after = [result.nth(i).inner_text() for i in range(result.count())]
    assert after != before, (value, after)
    if tab == "Odds":  # the explorers' charts are drawn by plotly, loaded when the tab is first shown
        explorer.locator(".js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=30_000)
    page.screenshot(path=SHOTS / f"app-{game}-odds.png")
    show_setup(page)


def solve_an_exercise(page, game: str) -> None:
    """The Exercises tab: one exercise solved by clicking (it counts), the next answered wrongly (the page says why,
    with the paragraph it practises)."""
    from rulebook import exercises

    items = exercises.exercises(game)
    page.locator(".rulebook-app .lm-TabBar-tab", has_text="Exercises").first.click()
    panel = page.locator(".rulebook-app .rulebook-exercises").first
    panel.wait_for(state="visible", timeout=30_000)
    progress = panel.locator(".rulebook-exercise-progress").first
    feedback = panel.locator(".rulebook-exercise-feedback").first
    assert f"0 of {len(items)}" in progress.inner_text(), progress.inner_text()

    def answer(item, indices) -> None:
        panel.get_by_text(item.question[:40]).first.wait_for(timeout=30_000)  # the exercise is on the page
        for index, choice in enumerate(item.choices):
            label = panel.locator("label", has_text=choice.label).first
            box = label.locator("input")
            if item.several and box.is_checked() != (index in indices):
                label.click()
            elif not item.several and index in indices:
                label.click()
        panel.locator(".rulebook-exercise-check").first.click()

    def feedback_says(words: str) -> None:
        page.wait_for_function(
            f"() => document.querySelector('.rulebook-exercise-feedback')?.innerText.includes({words!r})",
            timeout=30_000,
        )

    first, second = items[0], items[1]
    answer(first, exercises.computed_answer(first))
    feedback_says("Right")
    deadline = time.monotonic() + 30
    while f"1 of {len(items)}" not in progress.inner_text() and time.monotonic() < deadline:
        time.sleep(0.3)
    assert f"1 of {len(items)}" in progress.inner_text(), progress.inner_text()
    page.screenshot(path=SHOTS / f"app-{game}-exercise-right.png")
    panel.locator("button", has_text="Next").first.click()
    right = exercises.computed_answer(second)
    wrong = next(index for index in range(len(second.choices)) if index not in right)
    answer(second, [wrong])
    feedback_says("Not quite")
    assert second.rules[0] in feedback.inner_text(), feedback.inner_text()[:300]
    assert f"1 of {len(items)}" in progress.inner_text()
    page.screenshot(path=SHOTS / f"app-{game}-exercise-wrong.png")
    show_setup(page)


def test_minimal_voila_page_for_comparison(browser, serve, tmp_path):
    """The yardstick: one notebook with one button, served the same way."""
    path = tmp_path / "Minimal.ipynb"
    path.write_text(json.dumps(MINIMAL))
    page, seconds = open_page(browser, serve(path), "button:has-text('Ready')")
    record("minimal Voila page (one button, preheated): address to usable button", seconds)
    page.close()


def test_repeat_visits_in_one_browser(browser, serve, tmp_path):
    """A person who comes back: the same pages opened three times in one browser profile, as a teacher reopens the
    app; the times of the third visits are recorded."""
    path = tmp_path / "Minimal.ipynb"
    path.write_text(json.dumps(MINIMAL))
    board = BOARD
    pages = {
        "minimal Voila page": (serve(path), "button:has-text('Ready')"),
        "app meetjesland": (serve(app_notebook("meetjesland", tmp_path)), board),
    }
    for visit in (1, 2, 3):
        for what, (url, ready) in pages.items():
            page, seconds = open_page(browser, url, ready)
            page.close()
            if visit == 3:
                record(f"{what}, third visit in the same browser", seconds)
            time.sleep(8)  # Voila preheats a kernel for the next visit


def test_first_visits_in_fresh_browsers(fresh_browsers, serve, tmp_path):
    """Issue 11's yardstick, first visits only: each page opened in an empty browser context, the app's pages in turn
    with the minimal page's; the times (medians of three rounds with RULEBOOK_SOAK=1) and their ratios to the minimal
    page go to .e2e/timings.md. A round is a minute of visits and pauses: `make e2e-soak` plays three, `make e2e`
    none (test_offline_app opens every app in an empty browser context there)."""
    from tests.soak import count

    path = tmp_path / "Minimal.ipynb"
    path.write_text(json.dumps(MINIMAL))
    pages = {"minimal Voila page": (serve(path), "button:has-text('Ready')")}
    for game in sorted(SETUPS):
        pages[f"app {game}"] = (serve(app_notebook(game, tmp_path)), BOARD)
    times: dict[str, list[float]] = {what: [] for what in pages}
    for _ in range(count(1, 3)):
        for what, (url, ready) in pages.items():
            context = fresh_browsers.new_context(viewport={"width": WIDTH, "height": HEIGHT})
            try:
                _, seconds = open_page(context, url, ready)
            finally:
                context.close()
            times[what].append(seconds)
            time.sleep(6)  # Voila preheats a kernel for the next visit
    minimal = statistics.median(times["minimal Voila page"])
    for what, seconds in times.items():
        middle = statistics.median(seconds)
        runs = ", ".join(f"{s:.1f}" for s in seconds)
        ratio = "" if what.startswith("minimal") else f", {middle / minimal:.2f}x the minimal page"
        record(f"{what}, first visit in an empty browser: median of {runs}{ratio}", middle)


def test_a_chart_draws_when_the_served_plotly_is_blocked_and_says_so_when_plotly_cannot_run(browser, apps):
    """The page cannot fetch plotly.min.js from the app's address (blocked here): the board, drawn without plotly, is
    whole and playable, and the odds charts are drawn all the same, with plotly.js sent by the kernel. A page in which
    plotly.js cannot run at all (here: it cannot set window.Plotly) says in the chart's place that it cannot be
    drawn."""
    url = apps("meetjesland", refill=True)  # two pages: the second takes the kernel preheated after the first
    blocked: list[str] = []

    def block(route) -> None:
        blocked.append(route.request.url)
        route.abort()

    def opened(broken: bool):
        page = browser.new_page()
        page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
        page.route(re.compile(r".*/plotly-[0-9a-f]+(-script)?\.js(\?.*)?$"), block)
        if broken:  # plotly's last line, window.Plotly = Plotly, throws: neither the file nor the kernel's text runs
            page.add_init_script("Object.defineProperty(window, 'Plotly', {value: undefined, writable: false});")
        page.goto(url, wait_until="commit", timeout=120_000)
        page.wait_for_selector(BOARD, timeout=180_000)
        assert page.locator(".rulebook-status").first.inner_text().startswith("You play White")
        page.locator(".rulebook-app .lm-TabBar-tab", has_text="Odds").first.click()
        return page

    page = opened(broken=False)
    try:
        explorer = page.locator(".rulebook-app .rulebook-explorer").first
        explorer.locator(".js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=60_000)
        assert page.locator(".rulebook-app .rulebook-explorer .js-plotly-plot").count() == 2  # both charts
        assert blocked, "the page never asked for the served plotly file, so nothing was blocked"
        assert "cannot be drawn" not in explorer.inner_text()
        page.screenshot(path=SHOTS / "app-meetjesland-odds-plotly-from-the-kernel.png")
        button(page.locator(".rulebook-app .rulebook-board").first, "Auto-place").click()  # the board plays on
        page.locator(".rulebook-status", has_text="Starting points spread at random").first.wait_for(timeout=30_000)
    finally:
        page.close()
    page = opened(broken=True)
    try:
        told = page.locator(".rulebook-app .rulebook-explorer :text('drawing library')").first
        told.wait_for(state="visible", timeout=60_000)
        assert "cannot be drawn" in told.inner_text() and "Reload the page" in told.inner_text()
        assert page.locator(BOARD).count() > 0  # the board is still drawn
    finally:
        page.close()


def test_meetjesland_app(browser, apps):
    page, _ = open_app(browser, apps, "meetjesland")
    try:
        check_first_screen(page, "meetjesland")
        choose(page, "Players", "3")
        type_seed(page, "5")
        new_game(page)
        page.locator(".rulebook-app", has_text="3 players").first.wait_for(timeout=30_000)  # the about line follows
        assert "seed 5" in page.inner_text(".rulebook-app")
        choose(page, "Players", "4")  # the notebook's game, which the driver knows
        type_seed(page, "1")
        new_game(page)
        board = page.locator(".rulebook-app .rulebook-board").first
        button(board, "End turn").click()  # the starting points are not placed yet: refused
        open_refused_rule(page, "meetjesland")
        DRIVERS["meetjesland"](page, board)
        page.screenshot(path=SHOTS / "app-meetjesland-played.png")
        replay_from_log(page, "meetjesland")
        explore_odds(page, "meetjesland")
    finally:
        page.close()


def test_kingdom_builder_app(browser, apps):
    page, _ = open_app(browser, apps, "kingdom_builder")
    try:
        check_first_screen(page, "kingdom_builder")
        choose(page, "Players", "3")
        type_seed(page, "1")
        new_game(page)
        page.locator(".rulebook-app", has_text="3 players").first.wait_for(timeout=30_000)
        choose(page, "Players", "2")  # the notebook's game, on which the driver plays
        type_seed(page, "7")
        page.locator(".rulebook-app .widget-checkbox", has_text="first game").locator("input").check()
        new_game(page)
        board = page.locator(".rulebook-app .rulebook-board").first
        before = status(page)
        DRIVERS["kingdom_builder"](page, board)  # a highlighted hex: a settlement is built
        after = changed(page, before)
        assert after != before and "Refused" not in after, after
        click_point(board, 0, 0)  # the corner hex, water on this board: refused
        open_refused_rule(page, "kingdom_builder")
        solve_an_exercise(page, "kingdom_builder")
        explore_odds(page, "kingdom_builder")
    finally:
        page.close()


def test_ab_die_post_app_played_to_the_end(browser, apps):
    page, _ = open_app(browser, apps, "ab_die_post")
    try:
        check_first_screen(page, "ab_die_post")
        choose(page, "Players", "4")
        choose(page, SETUPS["ab_die_post"].seat_names(4)[3], "Computer: intermediate")  # greedy: draws to 6
        type_seed(page, "1")
        new_game(page)
        board = page.locator(".rulebook-app .rulebook-board").first
        button(board, "Fly").click()  # no cards yet: refused
        open_refused_rule(page, "ab_die_post")
        before = status(page)
        button(board, "Draw a card").click()
        assert changed(page, before) != before
        explore_odds(page, "ab_die_post")
        # a whole game: every seat a computer player, to a short target
        choose(page, "Players", "2")
        choose(page, "P1 (red)", "Computer: intermediate")  # greedy: draws to 6
        set_number(page, "Points to win", 3)
        new_game(page)
        game_over(page, "ab_die_post", "P1 (red)")
    finally:
        page.close()


def test_claim_app_played_to_the_end(browser, apps):
    page, _ = open_app(browser, apps, "claim")
    try:
        check_first_screen(page, "claim")
        type_seed(page, "1")
        set_number(page, "Quiet turns before a stop", 2)
        new_game(page)
        board = page.locator(".rulebook-app .rulebook-board").first
        before = status(page)
        click_point(board, 0, 0)  # in placement every free point may take a piece
        after = changed(page, before)
        assert after != before and "Refused" not in after, after
        click_point(board, 0, 0)  # the same point again, now under the piece: refused
        open_refused_rule(page, "claim")
        computer = button(board, "Computer move")
        for _ in range(3):  # Red's second piece, then Blue (the computer) answers
            before = status(page)
            computer.click()
            changed(page, before)
        page.screenshot(path=SHOTS / "app-claim-replies.png")
        replay_from_log(page, "claim")
        solve_an_exercise(page, "claim")
        explore_odds(page, "claim", tab="Threats")
        from playwright.sync_api import TimeoutError as PlaywrightTimeout  # the browser extra's (make e2e)

        # the person lets the computer choose each of their moves until the game ends
        for _ in range(400):
            if page.locator(".rulebook-banner").first.is_visible():
                break
            if computer.is_enabled():
                try:  # the button goes off when the computer's reply ends the game between the look and the click
                    computer.click(timeout=5_000)
                except PlaywrightTimeout:
                    continue
            time.sleep(0.25)
        game_over(page, "claim", "Red")
    finally:
        page.close()
