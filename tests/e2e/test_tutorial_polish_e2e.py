"""The guided first game in a real browser at 1280x800 (issue 48.8): the lesson's board and the step's text share the
first screen (no scrolling), the text beside the board; screenshots go to .e2e/app-GAME-tutorial-first.png."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .test_app import HEIGHT, WIDTH, open_app
from .test_tutorial import LESSON, LESSON_BOARD, TEXT, wait_for_text


def _inside(box: dict | None) -> bool:
    return (
        bool(box)
        and box["x"] >= -1
        and box["y"] >= -1
        and (box["x"] + box["width"] <= WIDTH + 1 and box["y"] + box["height"] <= HEIGHT + 1)
    )


@pytest.mark.parametrize("game", ["claim", "kingdom_builder", "meetjesland", "ab_die_post"])
def test_the_lesson_s_board_and_text_are_in_the_first_screen(browser, apps, game):
    from rulebook import tutorial

    total = len(tutorial.load(game).steps)
    page, _ = open_app(browser, apps, game)
    try:
        page.locator(".rulebook-app .lm-TabBar-tab", has_text="Learn").first.click()
        page.locator(".rulebook-learn-start").first.click()
        page.locator(f"{LESSON_BOARD} .rulebook-figure svg .trace .point").first.wait_for(timeout=60_000)
        wait_for_text(page, f"Step 1 of {total}")
        page.wait_for_timeout(1000)  # the figure takes its size
        page.evaluate("() => window.scrollTo(0, 0)")
        figure = page.locator(f"{LESSON_BOARD} .rulebook-figure").first.bounding_box()
        text = page.locator(TEXT).first.bounding_box()
        controls = page.locator(f"{LESSON} .rulebook-tutorial-skip").first.bounding_box()
        page.screenshot(path=SHOTS / f"app-{game}-tutorial-first.png")
        assert _inside(figure), ("the board", figure)
        assert _inside(text), ("the step's text", text)
        assert _inside(controls), ("Skip", controls)
        scrolled = page.evaluate("() => document.scrollingElement.scrollHeight - window.innerHeight")
        assert figure["y"] + figure["height"] <= HEIGHT and scrolled >= 0
        # beside: the text is left or right of the board, not above it pushing it down
        assert text["x"] >= figure["x"] + figure["width"] - 1 or text["x"] + text["width"] <= figure["x"] + 1, (
            text,
            figure,
        )
    finally:
        page.close()
