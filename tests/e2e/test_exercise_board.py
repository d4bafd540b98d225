"""Show on the board in a real browser (issue 25.3): a game in progress, an exercise shown on its own board with no
legal targets drawn until the answer is checked, a sign of work while it is built, then Back to your game returns
to the game as it was. Screenshots go to .e2e/ (app-GAME-exercise-board-*.png), the times to .e2e/timings.md."""

from __future__ import annotations

import time

import pytest

from .conftest import SHOTS
from .drivers import click_point, new_game, show_setup, status, type_seed
from .test_app import open_app, record

# the trace a game's board draws its legal targets in (the red hexes that gave Kingdom Builder's answers away), and
# the trace of a first move of the game in progress (Kingdom Builder: a ringed hex; Claim: a free point to place on)
TARGETS = {"kingdom_builder": "legal", "claim": "targets"}
FIRST_MOVE = {"kingdom_builder": "legal", "claim": "territories"}
EXERCISE_BOARD = ".rulebook-app .rulebook-exercise-board .rulebook-board"


def exercise_with_targets(game: str) -> int:
    """The first exercise of ``game`` whose board, once its answer is checked, rings legal targets."""
    from rulebook import exercises, registry, views

    board_class = registry.game(game).board_class()
    for number, item in enumerate(exercises.exercises(game)):
        board = board_class(item.state(), seed=0, computer={})
        drawn = len(views.trace(board.figure.plot, TARGETS[game]).x or ())
        board.close()
        if drawn:
            return number
    raise AssertionError(f"no exercise of {game} has legal targets")


def trace_index(game: str, name: str) -> int:
    """Where the trace ``name`` is in the board's drawing (its data-trace in the page)."""
    from rulebook import exercises, registry

    item = exercises.exercises(game)[0]
    board = registry.game(game).board_class()(item.state(), seed=0, computer={})
    index = [drawn.name for drawn in board.figure.plot.data].index(name)
    board.close()
    return index


def targets_drawn(page, index: int) -> int:
    return page.locator(f"{EXERCISE_BOARD} .rulebook-figure g.trace[data-trace='{index}'] path.point").count()


@pytest.mark.parametrize("game", sorted(TARGETS))
def test_an_exercise_on_its_own_board_keeps_the_game_and_gives_nothing_away(browser, apps, game):
    from rulebook import exercises

    number, index = exercise_with_targets(game), trace_index(game, TARGETS[game])
    item = exercises.exercises(game)[number]
    page, _ = open_app(browser, apps, game)
    try:
        type_seed(page, "3")
        new_game(page)
        board = page.locator(".rulebook-app .rulebook-board").first
        before = status(page)
        click_point(board, trace_index(game, FIRST_MOVE[game]), 0)  # a move of the game in progress
        deadline = time.monotonic() + 20
        while status(page) == before and time.monotonic() < deadline:
            time.sleep(0.3)
        game_status = status(page)
        assert game_status != before and "Refused" not in game_status, game_status
        page.locator(".rulebook-app .lm-TabBar-tab", has_text="Exercises").first.click()
        panel = page.locator(".rulebook-app .rulebook-exercises").first
        panel.wait_for(state="visible", timeout=30_000)
        panel.locator("select").first.select_option(index=number)
        panel.get_by_text(item.question[:40]).first.wait_for(timeout=30_000)
        started = time.monotonic()
        panel.locator("button", has_text="Show on the board").first.click()
        signs = set()
        ready = f"{EXERCISE_BOARD} .rulebook-figure svg .trace .point"
        while time.monotonic() - started < 60:
            text = page.inner_text(".rulebook-app")
            signs |= {sign for sign in ("Building the board", "Setting up exercise") if sign in text}
            if page.locator(ready).count():
                break
            time.sleep(0.05)
        seconds = time.monotonic() - started
        record(f"app {game}: Show on the board to the exercise's board drawn", seconds)
        page.locator(ready).first.wait_for(timeout=30_000)
        assert signs or seconds < 5.0, f"{seconds:.1f} s with no sign of work"
        shown = page.locator(EXERCISE_BOARD).first
        assert "the position only" in shown.locator(".rulebook-status").first.inner_text()
        assert targets_drawn(page, index) == 0, "legal targets drawn before the answer"
        assert page.locator(".rulebook-hint").first.is_disabled()
        assert f"Exercise {item.id}" in page.locator(".rulebook-exercise-bar").first.inner_text()
        page.screenshot(path=SHOTS / f"app-{game}-exercise-board-before.png")
        for choice in exercises.computed_answer(item):
            panel.get_by_text(item.choices[choice].label, exact=True).first.click()
        panel.locator(".rulebook-exercise-check").first.click()
        page.wait_for_function(
            "() => document.querySelector('.rulebook-exercise-feedback')?.innerText.includes('Right')",
            timeout=30_000,
        )
        deadline = time.monotonic() + 20
        while targets_drawn(page, index) == 0 and time.monotonic() < deadline:
            time.sleep(0.3)
        assert targets_drawn(page, index) > 0, "no legal targets once the answer is checked"
        page.screenshot(path=SHOTS / f"app-{game}-exercise-board-answered.png")
        page.locator(".rulebook-back-to-game").first.click()
        page.locator(".rulebook-exercise-board").first.wait_for(state="hidden", timeout=30_000)
        board = page.locator(".rulebook-app .rulebook-board").first
        board.wait_for(state="visible", timeout=30_000)
        page.get_by_text("Back to your game, as you left it.").first.wait_for(timeout=30_000)
        assert status(page) == game_status, (status(page), game_status)
        toolbar = page.locator(".rulebook-app").first.inner_text()
        assert f"exercise {item.id}" not in toolbar and "seed 3" in toolbar, toolbar[:300]
        assert page.locator(".rulebook-app .rulebook-board").count() == 1
        page.screenshot(path=SHOTS / f"app-{game}-exercise-board-back.png")
        show_setup(page)
    finally:
        page.close()
