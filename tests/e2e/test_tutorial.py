"""The guided first game in a real browser (issue 27.4): Claim's lesson opened from the app's Learn tab and completed by
clicks on the board, with one deliberate wrong move on the way (a legal placement that is not the step's: its
explanation shown, nothing played), then Back to your game. The time a scripted learner needs goes to
.e2e/timings.md; screenshots to .e2e/app-claim-tutorial-*.png."""

from __future__ import annotations

import time

from .conftest import SHOTS
from .drivers import click_point
from .test_app import open_app, record, serve, status  # noqa: F401 (serve)

LESSON = ".rulebook-app .rulebook-learn"
LESSON_BOARD = f"{LESSON} .rulebook-board"
TEXT = f"{LESSON} .rulebook-tutorial"


def lesson_text(page) -> str:
    return page.locator(TEXT).first.inner_text()


def wait_for_text(page, words: str, seconds: float = 30) -> None:
    page.locator(TEXT, has_text=words).first.wait_for(timeout=seconds * 1000)


def clicks(step) -> list[tuple[int, int]]:
    """The points a person clicks to make the step's move on Claim's board: a piece that has just captured stays in
    hand (CL-7.4), and a jump that could go on is ended with a click on its last landing point."""
    from rulebook.claim import widget

    move = step.move
    name = type(move).__name__
    if name in ("Place", "Remove", "PlaceTower"):
        return [move.point]
    held = step.state.follow_up == move.origin
    points = [] if held else [move.origin]
    if name == "Step":
        return [*points, move.destination]
    points.extend(move.path)
    if widget.jump_ends(step.state, move.origin, move.path):
        points.append(move.path[-1])
    return points


def test_the_claim_lesson_completed_by_clicks_with_one_wrong_move(browser, serve, tmp_path):  # noqa: F811
    from rulebook import tutorial

    lesson = tutorial.load("claim")
    total = len(lesson.steps)
    page, _ = open_app(browser, serve, tmp_path, "claim")
    try:
        game_status = status(page)
        page.locator(".rulebook-app .lm-TabBar-tab", has_text="Learn").first.click()
        page.locator(".rulebook-learn-start").first.click()
        started = time.monotonic()
        page.locator(f"{LESSON_BOARD} .rulebook-figure svg .trace .point").first.wait_for(timeout=60_000)
        wait_for_text(page, f"Step 1 of {total}")
        record("app claim: Learn to the lesson's board drawn", time.monotonic() - started)
        board = page.locator(LESSON_BOARD).first
        where = {point: index for index, point in enumerate(lesson.steps[0].state.island.points)}
        click_point(board, 0, where[(0, 0)])  # A11: free, so legal, but step 1 asks for C7
        board.locator(".rulebook-status", has_text="That is legal too, by CL-4.2").first.wait_for(timeout=30_000)
        told = board.locator(".rulebook-status").first.inner_text()
        assert "this step is about placing your first piece on C7" in told and "taken back" in told, told
        assert f"Step 1 of {total}" in lesson_text(page)
        page.screenshot(path=SHOTS / "app-claim-tutorial-wrong-move.png")
        for step in lesson.steps:
            wait_for_text(page, f"Step {step.number} of {total}")
            board = page.locator(LESSON_BOARD).first
            board.locator(".rulebook-figure svg .trace .point").first.wait_for(timeout=60_000)
            for point in clicks(step):
                click_point(board, 0, where[point])
            following = f"Step {step.number + 1} of {total}" if step.number < total else f"All {total} steps done"
            next_button = page.locator(f"{LESSON} .rulebook-tutorial-skip", has_text="Next").first
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                text = lesson_text(page)
                if following in text:
                    break
                if "Done." in text and next_button.is_visible():
                    if step.number in (6,):
                        page.screenshot(path=SHOTS / f"app-claim-tutorial-step-{step.number}-done.png")
                    next_button.click()
                    wait_for_text(page, following)  # one click: a second one would skip the step after
                    break
                time.sleep(0.3)
            assert following in lesson_text(page), (step.number, lesson_text(page), status(page))
            if step.number in (8, 13):
                page.screenshot(path=SHOTS / f"app-claim-tutorial-step-{step.number}.png")
        seconds = time.monotonic() - started
        record(f"app claim: the guided first game completed by clicks ({total} steps, one wrong move)", seconds)
        page.locator(".rulebook-app .rulebook-banner", has_text="Red wins").first.wait_for(timeout=30_000)
        assert page.locator(f"{LESSON} button", has_text="Play a full game").first.is_visible()
        page.screenshot(path=SHOTS / "app-claim-tutorial-end.png")
        page.locator(".rulebook-back-to-game").first.click()
        page.get_by_text("Back to your game, as you left it.").first.wait_for(timeout=30_000)
        assert status(page) == game_status, (status(page), game_status)
    finally:
        page.close()
