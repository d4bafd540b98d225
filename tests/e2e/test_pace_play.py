"""The computer's turn played out on the page one move at a time (issue 26.2), in Claim's app served by Voila: the
status line tells the computer's moves one after another (each sent from a timer of the kernel's event loop, not
from a click), Skip to the end finishes the turn at once, and a page that prefers reduced motion (issue 28.3) gets
the pace "off" by itself. Screenshots in .e2e/pace-*.png."""

from __future__ import annotations

import time

import pytest

from .conftest import SHOTS
from .drivers import button, skip_a_computer_turn

BOARD = ".rulebook-app .rulebook-board .rulebook-figure svg .trace .point"
STATUS = ".rulebook-app .rulebook-status"
SKIP = ".rulebook-app .rulebook-status button:has-text('Skip to the end')"


@pytest.fixture()
def page_of(browser, apps, request):
    """Claim's app served as `rulebook app claim` serves it (Red plays the greedy Blue); a new page on it."""

    def open_page(reduced_motion: bool = False):
        page = browser.new_page()
        request.addfinalizer(page.close)
        # the shared browser prefers reduced motion (conftest.py): this page says which it prefers
        page.emulate_media(reduced_motion="reduce" if reduced_motion else "no-preference")
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(apps("claim"), wait_until="commit", timeout=120_000)
        page.wait_for_selector(BOARD, timeout=180_000)
        return page

    return open_page


def status(page) -> str:
    return page.locator(STATUS).first.inner_text()


def red_moves_until_blue_answers(page) -> None:
    """Red's "Computer move" until Blue is to answer (in the placement Red puts down two pieces a turn). Each click
    waits for Red's turn, told whole: the app's game has a random seed, and where Blue begins, its first pieces are
    still being told when the page is up, and a status changed by them is no answer to Red's click (make e2e on a
    busy machine took Blue's second piece for the answer, then waited for a Blue that was not to move)."""
    board = page.locator(".rulebook-app .rulebook-board").first
    computer = button(board, "Computer move")
    for _ in range(3):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (
            computer.is_enabled() and "Your turn" in status(page) and page.locator(SKIP).count() == 0
        ):
            time.sleep(0.1)
        before = status(page)
        computer.click()
        deadline = time.monotonic() + 30
        while status(page) == before and time.monotonic() < deadline:
            time.sleep(0.05)
        if "The computer plays Blue" in status(page) or "Blue:" in status(page):
            return
    raise AssertionError(f"Blue never answered: {status(page)!r}")


def test_the_status_line_tells_the_computer_s_moves_one_by_one_and_skip_ends_the_turn(page_of):
    page = page_of()
    assert page.locator(".rulebook-app .rulebook-pace select").first.input_value() == "one by one"
    red_moves_until_blue_answers(page)
    seen: list[str] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        text = status(page)
        last = text.strip().splitlines()[-1]
        if not seen or seen[-1] != last:
            seen.append(last)
        if "Skip to the end" not in text and last.startswith("Blue:"):
            break
        time.sleep(0.05)
    page.screenshot(path=SHOTS / "pace-after-blue.png")
    blue = [line for line in seen if line.startswith("Blue:")]
    assert len(blue) >= 2, seen  # Blue's two pieces, told one at a time, each by a timer's update
    assert any("Skip to the end" in line for line in seen), seen
    # the next answer: Skip to the end while Blue's first piece is still to come
    skip_a_computer_turn(page, lambda: red_moves_until_blue_answers(page))
    page.screenshot(path=SHOTS / "pace-skipped.png")
    assert page.locator(SKIP).count() == 0


def test_a_page_that_prefers_reduced_motion_gets_the_computer_s_moves_at_once(page_of):
    page = page_of(reduced_motion=True)
    menu = page.locator(".rulebook-app .rulebook-pace select").first
    deadline = time.monotonic() + 30
    while menu.input_value() != "all at once (off)" and time.monotonic() < deadline:
        time.sleep(0.2)
    assert menu.input_value() == "all at once (off)"
    red_moves_until_blue_answers(page)
    assert "; then Blue" in status(page) and page.locator(SKIP).count() == 0
