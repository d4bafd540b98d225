"""Rule exercises (issue 15): every stated answer is the engine's answer, every cited paragraph exists, malformed
data is refused with the exercise named, and the app's Exercises tab marks answers, counts progress and shows
positions on the board."""

from __future__ import annotations

import copy
import json

import pytest

from rulebook import exercises as ex
from rulebook import registry, rules_text
from rulebook.app import App

GAMES = [name for name, game in registry.games().items() if game.exercises]
ALL = [(game, item.id) for game in GAMES for item in ex.exercises(game)]


def _raw(game: str) -> dict:
    return json.loads(ex.data_path(game).read_text(encoding="utf-8"))


def test_every_game_of_the_rulebook_has_exercises():
    assert GAMES == list(registry.games())


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_ten_to_fifteen_exercises_with_distinct_ids(game):
    items = ex.exercises(game)
    assert 10 <= len(items) <= 15
    assert len({item.id for item in items}) == len(items)
    assert all(item.id.startswith(rules_text.PREFIX[game] + "-X") for item in items)


@pytest.mark.parametrize(("game", "identifier"), ALL)
def test_the_stated_answer_is_the_engine_s_answer(game, identifier):
    item = ex.exercise(game, identifier)
    computed = ex.computed_answer(item)
    assert computed, f"{identifier}: the engine finds no right choice"
    assert computed == item.answer, f"{identifier}: the data says {item.answer}, the engine {computed}"
    if not item.several:
        assert len(computed) == 1, f"{identifier}: a one-answer question with {len(computed)} right choices"
    if item.several:
        assert len(computed) < len(item.choices), f"{identifier}: every choice is right, nothing to learn"


@pytest.mark.parametrize(("game", "identifier"), ALL)
def test_every_cited_paragraph_exists_and_the_texts_are_plain_words(game, identifier):
    item = ex.exercise(game, identifier)
    known = rules_text.paragraphs(game)
    assert item.rules and all(rule in known for rule in item.rules)
    for text in (item.question, item.why, *(choice.label for choice in item.choices)):
        assert "Step(" not in text and "Build(" not in text and "{" not in text and "_" not in text, text


@pytest.mark.parametrize(("game", "identifier"), ALL)
def test_marking_a_right_and_a_wrong_answer(game, identifier):
    item = ex.exercise(game, identifier)
    right, text = ex.mark(item, item.answer)
    assert right and text.startswith("Right") and item.why in text
    wrong = [i for i in range(len(item.choices)) if i not in item.answer][:1]
    right, text = ex.mark(item, wrong)
    assert not right and item.why in text
    for rule in item.rules:
        assert rule in text, f"{identifier}: the feedback of a wrong answer cites {rule}"


def test_a_changed_answer_in_the_data_is_caught():
    data = _raw("claim")
    data["exercises"][0]["answer"] = [1]
    item = ex.parse("claim", data)[0]
    assert ex.computed_answer(item) != item.answer


def _broken(game: str, change) -> str:
    data = copy.deepcopy(_raw(game))
    change(data["exercises"][0])
    with pytest.raises(ValueError) as error:
        ex.parse(game, data, f"{game}.json")
    return str(error.value)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda e: e.update(rules=["CL-99.9"]), "cites CL-99.9"),
        (lambda e: e.pop("why"), "missing why"),
        (lambda e: e.update(kind="guess"), "kind 'guess'"),
        (lambda e: e.update(answer=[7]), "'answer'"),
        (lambda e: e.update(answer=[]), "'answer'"),
        (lambda e: e.update(position="players: red\n\nzz\n\nrr"), "the position does not load"),
        (lambda e: e["choices"][0].update(move={"move": "Teleport"}), "unknown move"),
        (lambda e: e.update(choices=e["choices"][:1]), "at least two choices"),
        (lambda e: e.update(extra=1), "unknown field 'extra'"),
        (lambda e: e.update(question=""), "'question'"),
    ],
)
def test_malformed_claim_data_names_the_exercise_and_the_problem(change, words):
    message = _broken("claim", change)
    assert "claim.json, exercise CL-X1" in message and words in message, message


def test_a_value_question_may_only_name_an_allowed_function():
    message = _broken("meetjesland", lambda e: e.update(value="__import__"))
    assert "MJ-X1" in message and "not one of" in message


def test_value_arguments_must_fit_the_function():
    message = _broken("meetjesland", lambda e: e.update(args={"colour": "white"}))
    assert "MJ-X1" in message and "do not fit meetjesland_reinforcements" in message


def test_a_malformed_file_is_refused_as_a_whole():
    with pytest.raises(ValueError, match="'game' and 'exercises'"):
        ex.parse("claim", [], "claim.json")
    with pytest.raises(ValueError, match="not 'claim'"):
        ex.parse("claim", {"game": "meetjesland", "exercises": []}, "claim.json")
    with pytest.raises(ValueError, match="non-empty list"):
        ex.parse("claim", {"game": "claim", "exercises": []}, "claim.json")


# --- the app's Exercises tab -----------------------------------------------------------------------------------


@pytest.fixture(params=GAMES)
def app(request) -> App:
    return App(request.param, seed=4)


def test_the_exercises_tab_sits_after_the_rules(app):
    titles = list(app.tabs.titles)
    assert titles[:3] == ["Set-up", "Rules", "Exercises"]
    panel = app.exercises
    assert app.tabs.children[App.EXERCISES_TAB].children == (panel,)
    assert "rulebook-exercises" in app.exercises._dom_classes
    assert "rulebook-exercise-check" in app.exercises.check_button._dom_classes
    assert "rulebook-exercise-feedback" in app.exercises.feedback._dom_classes
    assert "rulebook-exercise-progress" in app.exercises.progress._dom_classes


def test_a_right_answer_counts_and_a_wrong_one_explains_with_the_paragraph(app):
    panel = app.exercises
    total = len(panel.items)
    assert f"Solved 0 of {total}" in panel.progress.value
    item = panel.current
    wrong = [i for i in range(len(item.choices)) if i not in item.answer][:1]
    panel.choose(wrong)
    panel.check_button.click()
    feedback = panel.feedback.text
    assert "Not quite" in feedback and item.why in feedback and item.rules[0] in feedback
    assert f"Solved 0 of {total}" in panel.progress.value
    panel.choose(item.answer)
    panel.check_button.click()
    assert "Right" in panel.feedback.text
    assert f"Solved 1 of {total}" in panel.progress.value
    panel.next_button.click()
    assert panel.current is not item and panel.feedback.value == ""
    assert panel.chosen() == ()
    # the progress stays while the app is open: a new game does not reset it
    assert app.new_game()
    assert f"Solved 1 of {total}" in panel.progress.value
    panel.reset_button.click()
    assert f"Solved 0 of {total}" in panel.progress.value and panel.current is panel.items[0]


def test_checking_without_an_answer_asks_for_one(app):
    panel = app.exercises
    panel.check_button.click()
    assert "Choose an answer first" in panel.feedback.text
    assert "Solved 0" in panel.progress.value


def test_the_picker_opens_an_exercise_with_its_kind_of_choices(app):
    panel = app.exercises
    for number, item in enumerate(panel.items):
        panel.picker.value = number
        assert panel.current is item
        if item.several:
            assert panel.radio is None and len(panel.boxes) == len(item.choices)
        else:
            assert panel.radio is not None and not panel.boxes


def test_show_on_the_board_puts_the_position_there_and_new_game_returns_to_play(app):
    panel = app.exercises
    panel.picker.value = len(panel.items) - 1
    item = panel.current
    panel.show_button.click()
    board = app.board
    assert board.state == item.state() and len(board.states) == 1
    assert board.bots == {} and f"exercise {item.id}" in app.about.value
    assert item.id in app.notice.value
    assert app.new_game() and app.board is not board and app.current.loaded is None


def test_a_rule_id_in_the_feedback_opens_the_rules_tab(app):
    panel = app.exercises
    item = panel.current
    panel.choose([i for i in range(len(item.choices)) if i not in item.answer][:1])
    panel.check()
    assert f"data-rule='{item.rules[0]}'" in panel.feedback.value
    panel.feedback.open_rule(item.rules[0])
    assert app.tabs.selected_index == App.RULES_TAB and app.rules.focus == item.rules[0]


def test_the_panel_works_alone_in_a_notebook():
    panel = ex.ExercisePanel("kingdom_builder")
    panel.show()
    (board,) = panel.board_box.children
    assert board.state.player == panel.current.state().player
