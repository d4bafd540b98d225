"""Rule exercises (issue 15): every stated answer is the engine's answer, every cited paragraph exists, malformed
data is refused with the exercise named, and the app's Exercises tab marks answers, counts progress and shows
positions on the board."""

from __future__ import annotations

import copy
import json

import pytest

from rulebook import exercises as ex
from rulebook import registry, rules_text, ui, views
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


def _value_exercise(game: str, value: str) -> tuple[dict, int]:
    data = copy.deepcopy(_raw(game))
    number = next(i for i, item in enumerate(data["exercises"]) if item.get("value") == value)
    return data, number


@pytest.mark.parametrize("value", [{}, [], ["kingdom_builder_card_gold"], 5, None])
def test_a_value_function_named_by_an_object_or_a_list_is_a_value_error(value):
    """ "value": {} raised TypeError (a dict looked up in the allow-list) instead of naming the exercise."""
    data, number = _value_exercise("kingdom_builder", "kingdom_builder_card_gold")
    data["exercises"][number]["value"] = value
    identifier = data["exercises"][number]["id"]
    with pytest.raises(ValueError, match=f"kingdom_builder.json, exercise {identifier}: value function"):
        ex.parse("kingdom_builder", data, "kingdom_builder.json")


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("player", "0", "'args.player' must be a whole number, not '0'"),
        ("player", True, "'args.player' must be a whole number"),
        ("player", 0.5, "'args.player' must be a whole number"),
        ("card", 3, "'args.card' must be a text, not 3"),
        ("card", ["hermits"], "'args.card' must be a text"),
    ],
)
def test_a_value_argument_of_the_wrong_type_is_refused_when_the_file_is_read(name, value, words):
    """ "player": "0" passed parse and then crashed in mark (a value function given a text as its seat)."""
    data, number = _value_exercise("kingdom_builder", "kingdom_builder_card_gold")
    data["exercises"][number]["args"][name] = value
    identifier = data["exercises"][number]["id"]
    with pytest.raises(ValueError) as error:
        ex.parse("kingdom_builder", data, "kingdom_builder.json")
    assert f"exercise {identifier}" in str(error.value) and words in str(error.value), str(error.value)


def test_list_arguments_are_checked_item_by_item():
    data, number = _value_exercise("meetjesland", "meetjesland_roll_losses")
    data["exercises"][number]["args"]["attacker"] = [5, "4", 2]
    with pytest.raises(ValueError, match="'args.attacker' must be a list of whole numbers"):
        ex.parse("meetjesland", data, "meetjesland.json")
    data["exercises"][number]["args"]["attacker"] = [5, 4, 2]
    assert ex.parse("meetjesland", data, "meetjesland.json")  # the real ones are read


def test_an_answer_the_engine_cannot_compute_is_a_value_error_naming_the_exercise():
    """A seat past the players (the right type, a wrong value) is found when marking: a ValueError, not IndexError,
    and the panel says so in its feedback instead of raising."""
    data, number = _value_exercise("kingdom_builder", "kingdom_builder_card_gold")
    data["exercises"][number]["args"]["player"] = 7
    item = ex.parse("kingdom_builder", data, "kingdom_builder.json")[number]
    with pytest.raises(ValueError, match=f"exercise {item.id}: its answer cannot be computed"):
        ex.computed_answer(item)
    with pytest.raises(ValueError, match=item.id):
        ex.mark(item, [0])
    panel = ex.ExercisePanel("kingdom_builder")
    panel.items = (item,)
    panel.go_to(0)
    panel.choose([0])
    assert not panel.check()
    assert f"Exercise {item.id} cannot be marked" in panel.feedback.value
    panel.close()


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


# --- "Show on the board": the exercise on its own board, the game kept, nothing given away ------------------------


def _targets(game: str, board) -> int:
    """How many legal targets (rings) the board draws: what gave Kingdom Builder's answers away."""
    plot = board.figure.plot
    if game == "meetjesland":
        return sum(1 for size in views.trace(plot, "highlight").marker.size or () if size)
    name = {"kingdom_builder": "legal", "claim": "targets", "ab_die_post": "legal targets"}[game]
    return len(views.trace(plot, name).x or ())


def _hashable(value) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _play_a_few_moves(app: App, count: int = 6) -> None:
    board = app.board
    for _ in range(count):
        moves = board.game.legal_moves(board.live)
        if board.finished or board.live.__class__ is None or not moves:
            return
        if board.current_player(board.live) in board.bots:
            return
        board.play(moves[-1])


def test_an_exercise_is_shown_on_its_own_board_and_back_returns_to_the_game_as_it_was(app):
    """The game in progress is not thrown away: the same board object, its states and its log come back."""
    app.seed_text.value = "7"
    for control in app.seats:
        control.value = ""
    assert app.new_game()
    _play_a_few_moves(app)
    game_board, game = app.board, app.current
    states, saved = list(game_board.states), app.saved()
    panel = app.exercises
    item = panel.items[-1]
    panel.go_to(len(panel.items) - 1)
    panel.show_button.click()
    board = app.board
    assert board is not game_board and board.state == item.state() and board.bots == {}
    assert app.board_box.children == (app.exercise_view, game_board)
    assert app.exercise_view.children == (app.exercise_bar, board)
    assert game_board.layout.display == "none" and game_board.comm is not None  # hidden, kept open
    assert f"Exercise {item.id}" in app.exercise_text.value and not app.back_button.disabled
    assert f"exercise {item.id}" in app.about.value and "your game waits" in app.notice.value
    app.back_button.click()
    assert app.board is game_board and app.current is game
    assert game_board.states == states and app.saved() == saved
    assert app.board_box.children == (game_board,) and game_board.layout.display is None
    assert board.comm is None and board.figure.comm is None  # the exercise's board is closed
    assert "Back to your game" in app.notice.value


def test_the_exercise_board_gives_nothing_away_until_the_answer_is_checked(app):
    """No legal targets, no hint, no score panel, no move before the answer; after it, the board plays."""
    panel = app.exercises
    shown_after = 0
    for number, item in enumerate(panel.items):
        panel.go_to(number)
        panel.show()
        board = app.board
        assert board.shown_only and item.id in board.status.text
        assert "position only" in board.status.text
        assert _targets(app.game, board) == 0, item.id
        assert app.hint_button.disabled and board.hint() is None and board.hinted is None
        assert all(control.disabled for control in board.move_controls()), item.id
        legal = set(board.game.legal_moves(board.live))
        listed = [value for control in board.move_controls() for _, value in getattr(control, "options", ())]
        assert not [value for value in listed if _hashable(value) and value in legal], f"{item.id}: a move listed"
        assert all(panel_.layout.display == "none" for panel_ in board.answer_panels)
        before = board.live
        moves = board.game.legal_moves(board.live)
        assert not moves or not board.play(moves[0])
        assert board.live is before and len(board.states) == 1
        panel.choose([0])
        panel.check()
        assert not board.shown_only and "checked" in app.notice.value
        assert all(panel_.layout.display != "none" for panel_ in board.answer_panels)
        player = board.current_player(board.live)
        assert app.hint_button.disabled == (board.finished or player is None)
        shown_after += _targets(app.game, board) > 0
    assert shown_after, "no exercise of this game has legal targets once answered: the check above proves nothing"
    app.back_to_game()


def test_the_board_knows_whether_it_shows_only():
    """The lock is the board's: an exercise board is refused moves and hints, and says so; unlocking plays."""
    panel = ex.ExercisePanel("claim")
    item = next(i for i in panel.items if i.kind == "legal")
    panel.go_to(panel.items.index(item))
    panel.show()
    (board,) = panel.board_box.children
    assert board.shown_only and board.replaying and not board.session.replaying
    right = ex.computed_answer(item)
    assert not board.play(item.choices[right[0]].move) and len(board.states) == 1
    panel.choose(right)
    assert panel.check() and not board.shown_only
    assert board.play(item.choices[right[0]].move) and len(board.states) > 1  # now the learner may try it
    panel.close()
    assert board.comm is None


def test_show_says_the_board_is_being_built_while_it_is(app):
    panel = app.exercises
    seen = []
    shown = panel.on_show
    panel.on_show = lambda item, state: (
        seen.append((panel.show_button.description, panel.show_button.disabled)),
        shown(item, state),
    )
    panel.show()
    assert seen == [("Building the board…", True)]
    assert panel.show_button.description == "Show on the board" and not panel.show_button.disabled


def test_new_game_during_an_exercise_closes_both_boards_and_restart_keeps_the_game(app):
    game_board = app.board
    panel = app.exercises
    panel.show()
    first = app.board
    app.restart()  # the exercise again, on a new board; the game put aside stays
    assert app.board is not first and first.comm is None and app.board.shown_only
    assert app.board.state == panel.current.state()
    panel.go_to(1)
    panel.show()  # another exercise: the one before is closed, the game still waits
    second = app.board
    assert second.state == panel.items[1].state() and game_board.comm is not None
    app.back_to_game()
    assert app.board is game_board
    panel.show()
    exercise_board = app.board
    assert app.new_game()
    assert exercise_board.comm is None and game_board.comm is None
    assert app.board_box.children == (app.board,) and app.exercise_shown is None
    # a Load during an exercise continues the file's game with the seats of the game put aside, not the exercise's
    computer, (name, text) = dict(app.current.computer), app.saved()
    game_board = app.board
    panel.show()
    assert app.current.computer == {}
    assert app.load(name, text.encode()) and app.current.computer == computer
    assert game_board.comm is None and app.exercise_shown is None and app.board_box.children == (app.board,)


def test_showing_exercises_and_going_back_leaves_no_widget_open(app):
    panel = app.exercises
    panel.show()
    app.back_to_game()
    for number in [*range(len(panel.items)), 0]:  # every exercise once: its choices are built and closed
        panel.go_to(number)
    first = ui.live_widgets()  # with the choices of the first exercise, as at the end
    for number in range(12):
        panel.go_to(number)
        panel.show()
        if number % 3 == 0:
            app.back_to_game()
        panel.choose([0])
        panel.check()
    app.back_to_game()
    panel.go_to(0)
    assert ui.live_widgets() - first <= 3


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
