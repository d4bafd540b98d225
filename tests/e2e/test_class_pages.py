"""The class server's pages in Chromium as a teacher and two students use them (issue 45): the teacher makes a table
on the teacher's page, two students join it from the students' page (one on a phone's width), play by tapping their
move buttons, see each other's moves, come back to their seat after a reload, and a projector watches; axe-core finds
no serious or critical problem on any page. Screenshots go to .e2e/class-*.png."""

from __future__ import annotations

import pytest

from rulebook.progress.events import Event
from rulebook.progress.record import Record
from rulebook.tables.remote import Connection
from rulebook.teach.rules_text import paragraphs
from tests.e2e.conftest import SHOTS
from tests.e2e.test_access import axe_findings
from tests.test_class_server import Server, free_port

pytestmark = pytest.mark.xdist_group("class_server")


@pytest.fixture()
def server(tmp_path):
    # the tables' own text pages (the website's game pages: test_class_site.py)
    running = Server(str(tmp_path / "class.db"), free_port(), "--no-site")
    yield running
    running.stop()


def _join(playwright_browser, students: str, code: str, name: str, width: int, height: int):
    context = playwright_browser.new_context(viewport={"width": width, "height": height}, has_touch=width < 700)
    page = context.new_page()
    page.goto(f"{students}?code={code}")
    assert page.input_value("#code") == code
    page.fill("#name", name)
    page.click("#join button[type=submit]")
    page.wait_for_url(f"**/table/{code}")
    page.wait_for_function("document.querySelector('#status').textContent.includes('moves played')")
    return page


def _moves(page) -> int:
    return int(page.evaluate("document.querySelector('#status').textContent.match(/(\\d+) moves played/)[1]"))


def test_a_teacher_and_two_students_play_a_table(server, fresh_browsers):
    teacher = fresh_browsers.new_page(viewport={"width": 1280, "height": 800})
    teacher.goto(server.teacher)
    teacher.wait_for_function("document.querySelector('#game').options.length >= 4")
    teacher.select_option("#game", "claim")
    teacher.select_option("#players", "2")
    teacher.click("#create button[type=submit]")
    teacher.wait_for_selector("#tables tr")
    code = teacher.text_content("#tables tr .code").strip()
    assert len(code) == 5
    assert "/teacher" in teacher.url and "token" not in teacher.url  # the token leaves the address bar

    phone = _join(fresh_browsers, server.students, code, "Ann", 390, 844)
    laptop = _join(fresh_browsers, server.students, code, "Bob", 1280, 800)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling on a phone
    for page in (phone, laptop):
        assert "Ann" in page.text_content("#seats") and "Bob" in page.text_content("#seats")

    for _ in range(6):  # each student plays on their turn, by tapping or clicking a move button
        mover = phone if phone.is_visible("#play") else laptop
        other = laptop if mover is phone else phone
        before = _moves(other)
        button = mover.locator("#moves button").first
        if mover is phone:
            button.tap()
        else:
            button.click()
        # both seats hear the move before the next turn is chosen: a seat whose page still showed its Play buttons
        # from before its own move tapped again on the other's turn, was refused, and the other page waited forever
        for page in (other, mover):
            page.wait_for_function(
                f"Number(document.querySelector('#status').textContent.match(/(\\d+) moves played/)[1]) > {before}"
            )
    assert _moves(phone) == _moves(laptop) >= 6

    phone.reload()  # a reload (a closed lid, a lost connection) returns the student to the same seat
    phone.wait_for_function("document.querySelector('#status').textContent.includes('moves played')")
    assert "Ann (you)" in phone.text_content("#seats")
    phone.screenshot(path=str(SHOTS / "class-seat-phone.png"), full_page=True)
    laptop.screenshot(path=str(SHOTS / "class-seat-laptop.png"), full_page=True)

    watcher = fresh_browsers.new_page(viewport={"width": 1280, "height": 800})
    watcher.goto(server.students + f"watch/{code}")
    watcher.wait_for_function("document.querySelector('#status').textContent.includes('moves played')")
    assert watcher.is_hidden("#play") and watcher.is_hidden("#secret-card")
    watcher.screenshot(path=str(SHOTS / "class-watch.png"), full_page=True)

    # Ann's progress (issue 49.3): her record, sent with her seat's token, shows in the class's map of paragraphs
    rules = list(paragraphs("claim"))[:3]
    record = Record()
    record.apply(Event(kind="answered", game="claim", rules=tuple(rules[:2]), right=True))
    record.apply(Event(kind="refused", game="claim", rules=(rules[2],)))
    token = phone.evaluate(f"JSON.parse(localStorage.getItem('rulebook-seat-{code}')).token")
    Connection(server.students, code, token).keep_progress(record.to_json())
    teacher.wait_for_function(f"document.querySelector('#known').textContent.includes({rules[2]!r})")

    teacher.wait_for_function("document.querySelector('#tables').textContent.includes('(here)')")
    teacher.screenshot(path=str(SHOTS / "class-teacher.png"), full_page=True)
    for page, where in (
        (teacher, "class teacher"),
        (phone, "class seat 390"),
        (laptop, "class seat 1280"),
        (watcher, "class watch"),
    ):
        ours, theirs = axe_findings(page, where)
        assert ours + theirs == [], (where, ours + theirs)


def test_a_wrong_code_and_a_full_table_are_told_in_words(server, fresh_browsers):
    from rulebook.tables import Client

    client = Client(server.teacher)
    code = client.create("claim", players=2)
    client.join(code)
    client.join(code)
    page = fresh_browsers.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.students)
    page.fill("#code", "ZZZZZ")
    page.fill("#name", "Eve")
    page.click("#join button[type=submit]")
    page.wait_for_function("document.querySelector('#said').textContent.includes('no table')")
    page.fill("#code", code)
    page.click("#join button[type=submit]")
    page.wait_for_function("document.querySelector('#said').textContent.includes('full')")
