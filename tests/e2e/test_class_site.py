"""A student plays a class table on the website's game page (issue 45.4), as a class does with one command: `rulebook
class` serves the built site beside the tables. The student joins from the students' page and lands on the game's
page, where the app runs in the browser's Python on the seat's own copy of the position: a move played by clicking
the board goes to the server, the computer's reply comes back onto the board, a refused move is refused there with
its rule id and never reaches the table, and after a reload the student is back at the seat with the table as it
stands. Screenshot: .e2e/class-site-seat.png."""

from __future__ import annotations

import re
import time

import pytest

from rulebook.tables import Client
from tests.test_class_server import Server, free_port

from .conftest import SHOTS
from .drivers import changed, click_point, status

pytestmark = pytest.mark.xdist_group("class_server")
BOARD = ".rulebook-app .rulebook-board .rulebook-figure svg .trace .point"


def _until(check, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.3)
    raise AssertionError(f"{what}: not within {seconds} s")


def test_a_student_plays_a_table_on_the_websites_game_page(site, browser, tmp_path):
    server = Server(str(tmp_path / "class.db"), free_port(), "--site", str(site))
    try:
        client = Client(server.teacher)
        code = client.create("claim", players=2, computer={1: "greedy"}, seed=3)
        page = browser.new_page()
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(f"{server.students}?code={code}")
        page.fill("#name", "Ann")
        page.click("#join button[type=submit]")
        page.wait_for_url(re.compile(rf"/site/claim/\?table={code}$"), timeout=60_000)
        frame = page.frame_locator("iframe[name=app]")
        frame.locator(BOARD).first.wait_for(timeout=240_000)
        app = page.frame(name="app")
        assert "class table" in app.locator(".rulebook-about").first.inner_text()
        assert app.locator(".rulebook-new-game").first.is_hidden()

        board = app.locator(".rulebook-app .rulebook-board").first
        # a Claim turn places two pieces: the first, then the second, each played by the server and shown back
        for point, moves in ((0, 1), (1, 2)):
            click_point(board, 0, point)
            _until(lambda moves=moves: client.watch(code)["moves"] >= moves, 60, f"move {moves} at the table")
        # the computer's two pieces follow on the server, and the board shows them: the student's turn again
        _until(lambda: client.watch(code)["moves"] >= 4, 60, "the computer's reply at the table")
        after = _until(
            lambda: (lambda now: now if "Your turn" in now and "Sent to the table" not in now else "")(status(app)),
            60,
            "the board showing the table after the reply",
        )
        assert "Refused" not in after, after
        page.screenshot(path=str(SHOTS / "class-site-seat.png"))

        played = client.watch(code)["moves"]
        click_point(board, 0, 0)  # the same point, under Ann's piece: refused on the page, with its rule
        refused = changed(app, after)
        assert re.search(r"Refused by CL-\S+", refused), refused
        time.sleep(1.0)
        assert client.watch(code)["moves"] == played  # nothing reached the table

        page.reload()
        frame.locator(BOARD).first.wait_for(timeout=240_000)
        app = page.frame(name="app")
        assert "Table " + code in page.title()
        assert "You play" in status(app) or "turn" in status(app).lower()
    finally:
        server.stop()
