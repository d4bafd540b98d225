"""The Exercises tab follows the learner's record (issue 49): the exercises of the paragraphs due for review come
first and the tab says so; an answer says when its paragraphs come back, a wrong one sooner; a refusal inside the
guided Learn lesson is an event of the record like a refusal on the board."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest

from rulebook import registry
from rulebook.app.exercise_panel import ExercisePanel
from rulebook.play.session import Session
from rulebook.progress import events, questions
from rulebook.progress.events import Event
from rulebook.progress.learner import Learner
from rulebook.progress.storage import BrowserStore, MemoryStore
from rulebook.teach import exercises as teach
from rulebook.teach import rules_text, tutorial

GAMES = list(registry.games())
GAME = GAMES[0]


@pytest.fixture()
def heard():
    found: list[Event] = []
    stop = events.listen(found.append)
    yield found
    stop()


def ago(days: float) -> datetime:
    return datetime.now(timezone.utc) - timedelta(days=days)


def answered(who: Learner, rule: str, right: bool, days_ago: float) -> None:
    """A scripted answer in the past, told to this learner only (emitted, it would reach every learner listening)."""
    who.hear(Event("answered", GAME, (rule,), right=right, when=ago(days_ago)))


def cited_once() -> dict[str, teach.Exercise]:
    """The paragraphs exactly one exercise of the game cites, with that exercise (the one a review of it offers)."""
    cited: dict[str, list[teach.Exercise]] = {}
    for item in teach.exercises(GAME):
        for rule in item.rules:
            cited.setdefault(rule, []).append(item)
    return {rule: items[0] for rule, items in cited.items() if len(items) == 1}


def two_due_far_from_the_top() -> tuple[str, teach.Exercise, str, teach.Exercise]:
    """Two paragraphs of two different exercises, neither of them the first exercise of the list nor citing the
    other's paragraph: their exercises moving to the top is the tab's doing."""
    catalogue = teach.exercises(GAME)
    once = [(rule, item) for rule, item in cited_once().items() if item is not catalogue[0]]
    (rule_a, item_a) = once[-1]
    rule_b, item_b = next((rule, item) for rule, item in once if item is not item_a and rule_a not in item.rules)
    return rule_a, item_a, rule_b, item_b


def wrong_choice(item: teach.Exercise) -> tuple[int, ...]:
    right = teach.computed_answer(item)
    return next((n,) for n in range(len(item.choices)) if (n,) != right)


def label(panel: ExercisePanel, item: teach.Exercise) -> str:
    return next(text for text, number in panel.picker.options if panel.items[number] is item)


def test_the_exercises_of_rules_due_come_first_and_the_tab_says_so():
    who = Learner(MemoryStore())
    panel = None
    try:
        rule_a, item_a, rule_b, item_b = two_due_far_from_the_top()
        answered(who, rule_a, True, 20)  # first review two days later: 18 days overdue
        answered(who, rule_b, True, 5)  # 3 days overdue
        exercised = {rule for item in teach.exercises(GAME) for rule in item.rules}
        unasked = set(questions.positions(GAME)) | exercised
        bare = next(rule for rule in rules_text.paragraphs(GAME) if rule not in unasked)
        who.hear(Event("answered", GAME, (bare,), right=True, item="read", when=ago(10)))  # rated in My progress
        fresh = next(rule for rule in exercised if rule not in item_a.rules + item_b.rules)
        answered(who, fresh, True, 1 / 24)  # an hour ago: not due
        panel = ExercisePanel(GAME, who=who)

        catalogue = list(teach.exercises(GAME))
        rest = [item for item in catalogue if item is not item_a and item is not item_b]
        assert list(panel.items) == [item_a, item_b, *rest]  # the longest overdue first
        assert panel.current is item_a
        line = re.sub(r"<[^>]+>", "", panel.due_line.value)
        assert line.startswith("↻ 3 rules to review today: their exercises come first, marked ↻."), line
        assert line.endswith(f" {bare} has no question here: read it again under My progress."), line
        assert label(panel, item_a).startswith(f"↻ {item_a.id}: ")
        assert label(panel, item_b).startswith(f"↻ {item_b.id}: ")
        assert not any(label(panel, item).startswith("↻") for item in rest)

        panel.choose(wrong_choice(item_a))
        assert panel.check() is False
        assert re.sub(r"<[^>]+>", "", panel.due_line.value).startswith("↻ 2 rules to review today")
        assert not label(panel, item_a).startswith("↻") and label(panel, item_b).startswith("↻")
        assert "a wrong answer brings a rule back sooner" in panel.comes_back.value
        assert rule_a in panel.comes_back.value
        panel.next()
        assert panel.current is item_b and panel.comes_back.value == ""  # Next goes on to the other rule due
    finally:
        if panel is not None:
            panel.close()
        who.close()


def days_until_next(panel: ExercisePanel, rule: str) -> int:
    found = re.search(rf"{re.escape(rule)} (today|tomorrow|in (\d+) days)", panel.comes_back.value)
    assert found, panel.comes_back.value
    return {"today": 0, "tomorrow": 1}.get(found.group(1)) or int(found.group(2))


@pytest.mark.parametrize(("right", "days", "others"), [(True, 46, 2), (False, 2, 1)])
def test_an_answer_says_when_its_rules_come_back_and_a_wrong_one_sooner(right, days, others):
    """docs/progress.md's simulated learner: right on days 0 and 2, then on day 13 right (46 days) or wrong (2);
    a paragraph answered for the first time comes back in 2 days if right, tomorrow if wrong."""
    rule, item = next(iter(cited_once().items()))
    who = Learner(MemoryStore())
    panel = None
    try:
        answered(who, rule, True, 13)
        answered(who, rule, True, 11)  # next review 11 days later: due now
        panel = ExercisePanel(GAME, who=who)
        assert panel.current is item
        panel.choose(teach.computed_answer(item) if right else wrong_choice(item))
        assert panel.check() is right
        assert days_until_next(panel, rule) == days
        for other in item.rules:
            if other != rule:
                assert days_until_next(panel, other) == others
        assert ("brings a rule back sooner" in panel.comes_back.value) is not right
        assert panel.due_now() == [] and "Nothing more to review today" in panel.due_line.value
    finally:
        if panel is not None:
            panel.close()
        who.close()


def test_a_record_arriving_from_the_browser_puts_its_due_rules_first():
    rule_a, item_a, _rule_b, _item_b = two_due_far_from_the_top()
    kept = Learner(MemoryStore(), listen=False)
    answered(kept, rule_a, False, 3)  # wrong three days ago: due two days ago
    store = BrowserStore()
    who = Learner(store)
    panel = ExercisePanel(GAME, who=who)
    try:
        assert panel.items == tuple(teach.exercises(GAME)) and panel.due_line.value == ""
        assert store in panel.children  # the browser's side of the store is on the page with the panel
        store.text = kept.record.to_json()
        store.ready = True  # what the page does once it has read the browser's storage
        assert panel.current is item_a and "1 rule to review today" in panel.due_line.value
    finally:
        panel.close()
        who.close()
    assert store.comm is not None  # shared by every panel of the page: left open
    store.close()


def _lesson_and_illegal(game: str) -> tuple[tutorial.Lesson, object, object]:
    lesson = tutorial.Lesson(tutorial.load(game))
    step = lesson.step
    engine = lesson.engine
    moves = [move for s in lesson.tutorial.steps for move in (s.move, *s.replies)]
    illegal = next(move for move in moves if engine.check(step.state, move) is not None)
    other = next((m for m in engine.legal_moves(step.state) if not step.accepts(step.state, m, engine)), None)
    return lesson, illegal, other


@pytest.mark.parametrize("game", tutorial.games())
def test_a_refusal_in_the_lesson_is_an_event_of_the_record(game, heard):
    lesson, illegal, other = _lesson_and_illegal(game)
    session = Session(lesson.step.state)
    lesson.guard(session)
    refusal = lesson.engine.check(session.live, illegal)
    assert session.play(illegal) is False and f"Refused by {refusal.rule}" in session.message
    assert [(event.kind, event.game, event.rules) for event in heard] == [("refused", game, (refusal.rule,))]
    if other is not None:  # legal but not the step's: explained and taken back, no refusal of the rules
        assert session.play(other) is False
        assert len(heard) == 1
    assert session.play(lesson.tutorial.steps[0].move) is True
    lesson.go(lesson.total)
    assert session.play(illegal) is False and "The lesson waits" in session.message  # the lesson's, not a rule's
    assert len(heard) == 1
