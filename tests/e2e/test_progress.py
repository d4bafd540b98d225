"""My progress in a real browser (issue 49): an exercise answered in the app's Exercises tab turns its paragraphs
"practised" in the My progress tab, the browser keeps the record (localStorage, reached from the page while Python
runs in the kernel), and after a reload (a new kernel) the panel shows the same progress. Screenshots:
.e2e/progress-panel.png (after the answer) and .e2e/progress-panel-reloaded.png."""

from __future__ import annotations

import json
import time

from .conftest import SHOTS
from .test_access import axe_findings
from .test_app import HEIGHT, WIDTH

GAME = "claim"
BOARD = ".rulebook-app .rulebook-board .rulebook-figure"
KEY = "rulebook-progress"


def open_tab(page, title: str) -> None:
    page.locator(".rulebook-app .lm-TabBar-tab", has_text=title).first.click()


def row_state(page, rule: str) -> str:
    row = page.locator(f".rulebook-progress-map li[data-id='{rule}']").first
    row.wait_for(state="visible", timeout=30_000)
    return row.inner_text()


def wait_for_state(page, rule: str, words: str, seconds: float = 30) -> str:
    deadline = time.monotonic() + seconds
    text = row_state(page, rule)
    while words not in text and time.monotonic() < deadline:
        time.sleep(0.3)
        text = row_state(page, rule)
    return text


def test_an_answer_shows_in_my_progress_and_lasts_a_reload(fresh_browsers, apps):
    from rulebook.teach import exercises

    item = exercises.exercises(GAME)[0]
    (right,) = exercises.computed_answer(item)
    context = fresh_browsers.new_context(viewport={"width": WIDTH, "height": HEIGHT}, reduced_motion="reduce")
    try:
        page = context.new_page()
        url = apps(GAME, refill=True)  # a reload takes a second kernel at once
        page.goto(url, wait_until="commit", timeout=120_000)
        page.wait_for_selector(BOARD, timeout=180_000)

        open_tab(page, "My progress")
        before = row_state(page, item.rules[0])
        assert "not met" in before, before
        assert "Nothing to review today" in page.inner_text(".rulebook-progress-due")

        open_tab(page, "Exercises")
        panel = page.locator(".rulebook-app .rulebook-exercises").first
        panel.get_by_text(item.question[:40]).first.wait_for(timeout=30_000)
        panel.locator("label", has_text=item.choices[right].label).first.click()
        panel.locator("button", has_text="Check").first.click()
        feedback = panel.locator(".rulebook-exercise-feedback").first
        feedback.get_by_text("Right").first.wait_for(timeout=30_000)

        open_tab(page, "My progress")
        for rule in item.rules:
            shown = wait_for_state(page, rule, "practised")
            assert "◑ practised" in shown, (rule, shown)  # the state in words, beside its colour
        page.screenshot(path=SHOTS / "progress-app.png")
        rows = page.locator(f".rulebook-progress-map li[data-id='{item.rules[0]}']").first
        rows.scroll_into_view_if_needed()
        page.locator(".rulebook-progress").first.screenshot(path=SHOTS / "progress-panel.png")

        deadline = time.monotonic() + 20
        kept = None
        while time.monotonic() < deadline and not (kept and item.rules[0] in kept):
            kept = page.evaluate(f"() => localStorage.getItem({KEY!r})")
            time.sleep(0.3)
        assert kept and set(json.loads(kept)["games"][GAME]) == set(item.rules), kept

        page.reload(wait_until="commit", timeout=120_000)
        page.wait_for_selector(BOARD, timeout=180_000)
        open_tab(page, "My progress")
        for rule in item.rules:
            shown = wait_for_state(page, rule, "practised")
            assert "◑ practised" in shown, (rule, shown)
        assert "Your progress is kept in this browser" in page.inner_text(".rulebook-progress")
        page.locator(f".rulebook-progress-map li[data-id='{item.rules[0]}']").first.scroll_into_view_if_needed()
        page.locator(".rulebook-progress").first.screenshot(path=SHOTS / "progress-panel-reloaded.png")
    finally:
        context.close()


def learner_session() -> tuple[str, dict[str, str]]:
    """A record as a learner's week leaves it (times from now): the JSON text and the state each rule should show."""
    from datetime import datetime, timedelta, timezone

    from rulebook.progress.events import Event
    from rulebook.progress.record import Record
    from rulebook.teach import rules_text

    rules = list(rules_text.paragraphs(GAME))
    now = datetime.now(timezone.utc)
    record = Record()

    def answer(rule: str, right: bool, days_ago: float) -> None:
        record.apply(Event("answered", GAME, (rule,), right=right, when=now - timedelta(days=days_ago)))

    answer(rules[0], True, 12)
    answer(rules[0], True, 10)  # then 11 days: known
    answer(rules[1], True, 3)  # due after 2 days
    answer(rules[2], False, 2)  # wrong: due the next day
    answer(rules[3], True, 1)  # practised, due tomorrow
    record.apply(Event("refused", GAME, (rules[4],), when=now - timedelta(hours=1)))
    record.apply(Event("refused", GAME, ("CL-99.9",), when=now - timedelta(days=30)))
    expected = {rules[0]: "known", rules[1]: "due", rules[2]: "due", rules[3]: "practised", rules[4]: "seen"}
    return record.to_json(), {**expected, "CL-99.9": "retired"}


def test_review_today_in_the_browser(fresh_browsers, apps):
    """A learner back after a week: the panel says what is due (axe finds nothing serious in it), Review now asks
    about it, a right answer moves the paragraph on. Screenshot .e2e/progress-review.png."""
    from rulebook.progress.learner import review_queue
    from rulebook.progress.record import Record
    from rulebook.teach import exercises

    text, expected = learner_session()
    context = fresh_browsers.new_context(viewport={"width": WIDTH, "height": HEIGHT}, reduced_motion="reduce")
    context.add_init_script(f"localStorage.setItem({KEY!r}, {json.dumps(text)})")
    try:
        page = context.new_page()
        page.goto(apps(GAME), wait_until="commit", timeout=120_000)
        page.wait_for_selector(BOARD, timeout=180_000)
        open_tab(page, "My progress")
        for rule, state in expected.items():
            shown = wait_for_state(page, rule, state)
            assert state in shown, (rule, shown)
        due = page.locator(".rulebook-progress-due").first
        assert "2 rules to review today" in due.inner_text()
        ours, _theirs = axe_findings(page, f"app {GAME}: My progress with every state")
        assert not ours, ours  # colour contrast of every state's row, links' and buttons' names
        page.locator(".rulebook-progress button", has_text="Review now").first.click()
        review = page.locator(".rulebook-progress-review").first
        review.wait_for(state="visible", timeout=30_000)
        page.locator(".rulebook-progress").first.screenshot(path=SHOTS / "progress-review.png")
        first = review_queue(Record.from_json(text), GAME)[0]  # the longest overdue, as the page orders them
        item = first.exercise
        assert item is not None and item.question[:40] in review.inner_text()
        for number in exercises.computed_answer(item):
            review.locator("label", has_text=item.choices[number].label).first.click()
        review.locator("button", has_text="Check").first.click()
        review.locator(".rulebook-progress-feedback").get_by_text("Right").first.wait_for(timeout=30_000)
        assert "practised" in wait_for_state(page, first.rule, "practised")
        assert "1 rule to review today" in due.inner_text()
    finally:
        context.close()
