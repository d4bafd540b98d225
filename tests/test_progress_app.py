"""Where the learner's record lives and how it reaches the app (issue 49): stores, the learner, engine-made review
questions, the hooks in the exercise panel, the session and the lesson, and the My progress panel."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import pytest

from rulebook import registry
from rulebook.app import progress_panel
from rulebook.app.exercise_panel import ExercisePanel
from rulebook.play.session import Session
from rulebook.progress import events, questions, storage
from rulebook.progress.events import Event
from rulebook.progress.learner import Learner, practice, review_queue
from rulebook.progress.record import Record
from rulebook.progress.storage import BrowserStore, FileStore, MemoryStore
from rulebook.teach import exercises as teach
from rulebook.teach import rules_text

GAMES = list(registry.games())
WHEN = datetime(2026, 3, 2, 9, tzinfo=timezone.utc)


@pytest.fixture()
def heard():
    found: list[Event] = []
    stop = events.listen(found.append)
    yield found
    stop()


@pytest.fixture()
def learner():
    made = Learner(MemoryStore())
    yield made
    made.close()


def test_a_learner_keeps_each_event_in_its_store_and_reads_it_back():
    store = MemoryStore()
    first = Learner(store)
    try:
        events.answered(GAMES[0], ("AB-1.1",), True, "x")
        events.refused(GAMES[0], "AB-1.2")
    finally:
        first.close()
    again = Learner(store, listen=False)
    assert again.record.to_json() == first.record.to_json()
    assert again.record.entry(GAMES[0], "AB-1.1").right == 1 and again.record.entry(GAMES[0], "AB-1.2").refused == 1


def test_an_unreadable_kept_record_is_told_and_never_written_over():
    store = MemoryStore('{"format": "something else"}')
    who = Learner(store)
    try:
        assert "could not be read" in who.problem and "format" in who.problem
        events.refused(GAMES[0], "AB-1.2")
        assert store.text == '{"format": "something else"}'
        assert who.record.entry(GAMES[0], "AB-1.2").refused == 1  # still counted while the page is open
    finally:
        who.close()


def test_import_refuses_a_bad_file_and_changes_nothing(learner):
    learner.hear(Event("answered", GAMES[0], ("AB-1.1",), right=True, when=WHEN))
    before = learner.record.to_json()
    for bad in (b"not json", b'{"players": 2}', json.dumps({"format": "rulebook-progress", "version": 9}).encode()):
        with pytest.raises(ValueError, match="progress file"):
            learner.import_file(bad)
        assert learner.record.to_json() == before and learner.store.read() == before


def test_import_merges_the_entry_touched_last(learner):
    learner.hear(Event("answered", GAMES[0], ("AB-1.1",), right=False, when=WHEN))
    other = Record()
    other.apply(Event("answered", GAMES[0], ("AB-1.1",), right=True, when=WHEN + timedelta(days=1)))
    other.apply(Event("hinted", GAMES[1], ("AB-2.2",), when=WHEN))
    said = learner.import_file(other.to_json().encode())
    assert said == "Imported 2 paragraphs' progress in 2 games."
    assert learner.record.entry(GAMES[0], "AB-1.1").right == 1 and learner.record.entry(GAMES[1], "AB-2.2")
    assert Record.from_json(learner.store.read()).to_json() == learner.record.to_json()


def test_a_file_store_writes_whole_files(tmp_path):
    store = FileStore(tmp_path / "deep" / "progress.json")
    assert store.read() is None
    store.write("one")
    store.write("two")
    assert store.read() == "two"
    assert [path.name for path in (tmp_path / "deep").iterdir()] == ["progress.json"]  # no temporary file left


def test_the_default_store(tmp_path, monkeypatch):
    monkeypatch.delenv("RULEBOOK_PROGRESS", raising=False)
    monkeypatch.chdir(tmp_path)
    assert isinstance(storage.default_store(), BrowserStore)  # the app in Voila: the browser keeps it
    from rulebook.serve.working_copy import RECORD

    (tmp_path / RECORD).write_text("{}")
    (tmp_path / "games").mkdir()
    monkeypatch.chdir(tmp_path / "games")
    store = storage.default_store()  # JupyterLab's working copy: a file in it
    assert isinstance(store, FileStore) and store.path == tmp_path / storage.FILE_NAME
    monkeypatch.setenv("RULEBOOK_PROGRESS", str(tmp_path / "mine.json"))
    assert storage.default_store().path == tmp_path / "mine.json"


def test_a_browser_store_waits_for_the_page_and_keeps_what_came_before():
    kept = Record()
    kept.apply(Event("answered", GAMES[0], ("AB-1.1",), right=True, when=WHEN))
    store = BrowserStore()
    who = Learner(store)
    try:
        events.refused(GAMES[0], "AB-1.2")  # a refusal before the page answered
        assert not who.loaded and store.text == ""
        store.text, store.ready = kept.to_json(), True  # what the page's side does (browser_store.js)
        assert who.loaded
        assert who.record.entry(GAMES[0], "AB-1.1").right == 1 and who.record.entry(GAMES[0], "AB-1.2").refused == 1
        assert Record.from_json(store.text).to_json() == who.record.to_json()  # written back to the browser
    finally:
        who.close()
        store.close()


@pytest.mark.parametrize("game", GAMES)
def test_engine_made_questions_are_answered_by_the_engine(game):
    found = questions.positions(game)
    for rule in found:
        item = questions.question(game, rule)
        assert item.rules == (rule,)
        assert teach.computed_answer(item) == item.answer, (rule, item.question)
        assert rule in rules_text.paragraphs(game)


def test_questions_cover_paragraphs_no_exercise_practises():
    new = {}
    for game in GAMES:
        exercised = {rule for item in teach.exercises(game) for rule in item.rules}
        new[game] = set(questions.positions(game)) - exercised
        for rule in new[game]:
            review = practice(game, rule)
            assert review.made and review.exercise.kind == "value"
    assert sum(len(rules) >= 3 for rules in new.values()) >= 2, new


def test_the_review_queue_offers_what_is_due_first(learner):
    game = GAMES[0]
    exercised = teach.exercises(game)[0]
    learner.hear(Event("answered", game, exercised.rules[:1], right=False, when=WHEN))
    queue = review_queue(learner.record, game, WHEN + timedelta(days=1))
    assert [review.rule for review in queue] == list(exercised.rules[:1])
    assert queue[0].exercise is not None and not queue[0].made


def test_the_exercise_panel_tells_every_checked_answer(heard):
    game = GAMES[0]
    panel = ExercisePanel(game)
    try:
        item = panel.current
        panel.choose(teach.computed_answer(item))
        assert panel.check()
        wrong = [n for n in range(len(item.choices)) if (n,) != teach.computed_answer(item)][:1]
        panel.choose(wrong)
        panel.check()
    finally:
        panel.close()
    assert [(event.kind, event.rules, event.right, event.item) for event in heard] == [
        ("answered", item.rules, True, item.id),
        ("answered", item.rules, False, item.id),
    ]


@pytest.mark.parametrize("game", GAMES[:2])
def test_a_refused_move_and_a_hint_are_told(game, heard):
    found = next(iter(questions.positions(game).values()))
    session = Session(found.state)
    assert not session.play(found.refused)
    assert (heard[0].kind, heard[0].rules) == ("refused", (found.rule,))
    assert Session(found.state).hint() is not None
    assert heard[-1].kind == "hinted" and heard[-1].game == game


def test_a_lesson_step_done_is_told_once(heard):
    steps = [SimpleNamespace(number=1, rules=("AB-1.1",)), SimpleNamespace(number=2, rules=("AB-2.1", "AB-2.2"))]
    lesson = SimpleNamespace(tutorial=SimpleNamespace(steps=steps), done=set())
    listener = events.lesson_listener(GAMES[0])
    listener(lesson)
    lesson.done.add(1)
    listener(lesson)
    listener(lesson)  # Back and Skip: the step is not done again
    lesson.done.add(2)
    listener(lesson)
    assert [(event.kind, event.rules) for event in heard] == [
        ("learned", ("AB-1.1",)),
        ("learned", ("AB-2.1", "AB-2.2")),
    ]


def rows(panel: progress_panel.ProgressPanel) -> dict[str, str]:
    """The map's rows as the page shows them: id -> the state written in the row."""
    import re

    return dict(re.findall(r"data-id='([^']+)' data-state='([^']+)'", panel.map.value))


def test_the_panel_shows_each_paragraph_s_state_and_practises_it(learner):
    game = GAMES[0]
    panel = progress_panel.ProgressPanel(game, who=learner)
    try:
        assert set(rows(panel)) == set(rules_text.paragraphs(game))
        assert set(rows(panel).values()) == {"not met"}
        assert "○ not met" in panel.map.value  # the state in words, not by colour alone
        assert "Nothing to review today" in panel.due_line.value
        item = teach.exercises(game)[0]
        rule = item.rules[0]
        panel._practise_link([target for target in panel.targets].index((game, rule)))
        assert panel.review is not None and panel.review.exercise == item
        panel.choices.value = next(n for n in range(len(item.choices)) if (n,) != teach.computed_answer(item))
        assert not panel.check()
        assert rows(panel)[rule] == "practised"
        panel.draw(datetime.now(timezone.utc) + timedelta(days=2))
        assert rows(panel)[rule] == "due" and "to review today" in panel.due_line.value
        assert panel.import_file("x.json", b"{}") is False and "unchanged" in panel.message.value
    finally:
        panel.close()


def test_a_paragraph_without_a_question_is_rated_by_the_learner(learner):
    game = GAMES[0]
    panel = progress_panel.ProgressPanel(game, who=learner)
    try:
        exercised = {rule for item in teach.exercises(game) for rule in item.rules} | set(questions.positions(game))
        bare = next(rule for rule in rules_text.paragraphs(game) if rule not in exercised)
        panel._practise_link(panel.targets.index((game, bare)))
        assert panel.review.exercise is None and "did you remember it" in panel.question.value
        panel.rate(True)
        assert rows(panel)[bare] == "practised"
    finally:
        panel.close()


def test_the_app_has_the_tab_and_follows_an_exercise(learner, monkeypatch):
    from rulebook.app import App

    monkeypatch.setattr(progress_panel, "learner", lambda: learner)
    game = GAMES[-1]
    app = App(game)
    try:
        assert app.tabs.get_title(app.progress_tab) == "My progress"
        item = app.exercises.current
        app.exercises.choose(teach.computed_answer(item))
        app.exercises.check()
        shown = rows(app.progress_panel)
        assert all(shown[rule] == "practised" for rule in item.rules)
        opened = []
        monkeypatch.setattr(app, "open_rule", opened.append)
        app.progress_panel.map._message(None, {"rule": item.rules[0]}, [])
        assert opened == [item.rules[0]]
    finally:
        app.close()


def test_a_real_lesson_s_step_is_told_with_its_paragraphs(heard):
    from rulebook.teach import tutorial

    game = next(game for game in GAMES if tutorial.path(game) is not None)
    lesson = tutorial.Lesson(tutorial.load(game))
    lesson.listeners.append(events.lesson_listener(game))
    step = lesson.step
    lesson.skip()  # Skip does not do the step
    assert heard == []
    lesson.go(0)
    lesson.advance()  # what a right move on the board does (Lesson._play)
    assert [(event.kind, event.game, event.rules) for event in heard] == [("learned", game, step.rules)]


def test_the_learner_of_this_python_is_one_and_follows_a_closed_store(monkeypatch):
    from rulebook.progress import learner as module

    monkeypatch.setattr(module, "_current", [])
    monkeypatch.setattr(module, "default_store", BrowserStore)
    first = module.learner()
    assert module.learner() is first
    first.store.close()  # the page closed with the app that showed it
    second = module.learner()
    assert second is not first and second.store.comm is not None
    second.close()
    second.store.close()
