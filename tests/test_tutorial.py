"""Guided first games (issue 27.4): every tutorial file is checked by the engine, and a scripted learner completes
each one through the widget API, with a legal move that is not the step's (explained, taken back) and an illegal
one (refused with its rule) on the way; the Claim lesson by clicks on the board, and the app's Learn tab."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from rulebook import registry, rules_text, tutorial
from rulebook.app import App
from rulebook.core import encode_move
from rulebook.learn import LearnPanel
from rulebook.tutorial import Lesson, same_position

GAMES = tutorial.games()


def test_the_claim_tutorial_is_found() -> None:
    assert "claim" in GAMES
    assert tutorial.path("meetjesland") is None or "meetjesland" in GAMES


@pytest.mark.parametrize("game", GAMES)
def test_every_step_is_legal_and_cites_paragraphs_that_exist(game: str) -> None:
    """Each step's move is legal in its position by the engine's check (and among its legal moves where the game
    lists them all), its replies are legal in turn, and every cited id is a paragraph of the rules text."""
    lesson = tutorial.load(game)
    engine = registry.game(game).engine
    known = rules_text.paragraphs(game)
    assert 12 <= len(lesson.steps) <= 25
    assert set(lesson.allows.values()) <= set(known)
    for step in lesson.steps:
        assert engine.check(step.state, step.move) is None, step.number
        assert any(step.accepts(step.state, move, engine) for move in engine.legal_moves(step.state)), step.number
        state = engine.apply(step.state, step.move)
        for reply in step.replies:
            assert engine.check(state, reply) is None, (step.number, reply)
            state = engine.apply(state, reply)
        assert same_position(state, step.after)
        assert step.rules and set(step.rules) <= set(known), step.number
        assert 1 <= step.say.count(". ") + 1 <= 3, f"step {step.number}: one or two sentences"


@pytest.mark.parametrize("game", GAMES)
def test_every_continuing_step_starts_where_the_last_one_ended(game: str) -> None:
    steps = tutorial.load(game).steps
    for before, step in zip(steps, steps[1:]):
        if not step.own_position:
            assert before.accept == "move" and same_position(step.state, before.after)


# Issue 27.2: what each lesson must have the learner do and see. The ids are the paragraphs of the issue's list (for
# Claim: placement in pairs, removals, steps, a jump, a custodian capture, a conquest and a tower, the win), and the
# move classes left out are chance outcomes: the engine plays them, never a player, so the lesson scripts them as the
# replies (a card turned over, dice thrown, a marble shaken).
COVERAGE: dict[str, tuple[set[str], dict[str, str]]] = {
    "meetjesland": (
        # set-up; reinforcement by territories and by a whole region; an attack with its dice; a conquest moving
        # points in; a card drawn and a set traded; moving points; a mission checked
        {"MJ-2.1", "MJ-4.1", "MJ-4.4", "MJ-4.10", "MJ-4.9", "MJ-5.2", "MJ-5.5", "MJ-5.6", "MJ-5.7", "MJ-4.6", "MJ-4.7"}
        | {"MJ-5.9", "MJ-3.1", "MJ-C6"},
        {"Dice": "the dice of an attack are chance's outcome", "CardDrawn": "the card a conquest earns is dealt"},
    ),
    "kingdom_builder": (
        # the three builds on the card's terrain and adjacency; a location tile taken and used the next turn; a tile
        # lost; end-of-game scoring of the three cards and the castles
        {"KB-4.1", "KB-5.1", "KB-6.3", "KB-5.2", "KB-7.1", "KB-5.3", "KB-9.2", "KB-9.3"},
        {"CardDrawn": "the terrain card drawn at the end of a turn is chance's outcome"},
    ),
    "ab_die_post": (
        # drawing; a bust by the third red 3; flying by a route; a hurricane paid; a passenger; the flight's scoring
        {"ADP-4.1", "ADP-4.2", "ADP-5.2", "ADP-6.1", "ADP-7.1", "ADP-8.1", "ADP-9.1", "ADP-9.2"},
        {"CardDrawn": "the card turned over is chance's outcome", "MarbleShaken": "the marble shown is chance's"},
    ),
    "claim": (
        {"CL-4.2", "CL-5.1", "CL-5.2", "CL-6.1", "CL-6.2", "CL-7.1", "CL-7.3", "CL-7.4", "CL-8.1", "CL-8.2", "CL-10.1"},
        {},  # Claim has no chance: every move class is a player's
    ),
}


def test_every_game_with_a_tutorial_has_its_coverage_written() -> None:
    assert set(GAMES) <= set(COVERAGE)


def _learner_moves(lesson: tutorial.Tutorial) -> list[Any]:
    """The moves a scripted learner makes over the whole lesson, each one judged by the lesson as its step's."""
    walk = Lesson(lesson)
    made = []
    while not walk.finished:
        step = walk.step
        assert step is not None
        assert walk.judge(step.state, step.move).kind == "step", step.number
        made.append(step.move)
        walk.advance()
        if walk.waiting:
            walk.skip()
    return made


@pytest.mark.parametrize("game", GAMES)
def test_the_learner_makes_every_kind_of_move_and_sees_the_issue_s_rules(game: str) -> None:
    """Issue 27.2: by its end the learner has made a move of every move class of the game (but chance's outcomes,
    each named above with the reason, which the lesson scripts as replies), and the lesson cites the paragraphs of
    the issue's list for the game."""
    lesson = tutorial.load(game)
    engine = registry.game(game).engine
    wanted, chance_only = COVERAGE[game]
    classes = set(registry.game(game).move_classes())
    assert set(chance_only) <= classes, sorted(set(chance_only) - classes)
    made = {type(move).__name__ for move in _learner_moves(lesson)}
    assert not made & set(chance_only)
    assert classes - set(chance_only) <= made, f"the learner never makes {sorted(classes - set(chance_only) - made)}"
    for step in lesson.steps:  # the left-out classes are chance's: never a player's move, always its outcome
        state = engine.apply(step.state, step.move)
        assert not {type(move).__name__ for move in engine.legal_moves(step.state)} & set(chance_only), step.number
        for reply in step.replies:
            if type(reply).__name__ in chance_only:
                assert reply in {outcome for outcome, _ in engine.chance_outcomes(state)}, (step.number, reply)
            state = engine.apply(state, reply)
    assert wanted <= set(lesson.rules), f"never cited: {sorted(wanted - set(lesson.rules))}"


def test_a_part_set_later_in_the_lesson_s_game_continues_it() -> None:
    """A step with a position of its own that goes on with the lesson's game must not drift from the steps before it:
    Ab die Post's flight back replays the first flight as the lesson plays it, and Claim's "Back to your game" is
    the battle where the learner left it (the asides before it are positions of their own)."""
    steps = tutorial.load("ab_die_post").steps
    back = next(step for step in steps if step.title == "The flight back")
    played = steps[back.number - 2].after.history
    assert back.own_position and back.state.history[: len(played)] == played and back.state.flight == 2
    steps = tutorial.load("claim").steps
    back = next(step for step in steps if step.say.startswith("Back to your game"))
    assert back.own_position and any(same_position(back.state, step.after) for step in steps[: back.number - 1])


def test_claim_ends_with_the_learner_s_win() -> None:
    last = tutorial.load("claim").steps[-1]
    finished = registry.game("claim").engine.outcome(last.after)
    assert finished is not None and finished.winners == (0,)


# --- loading refuses a broken file, naming the problem ---------------------------------------------------------------


def _data(game: str = "claim") -> dict[str, Any]:
    found = tutorial.path(game)
    assert found is not None
    return json.loads(found.read_text(encoding="utf-8"))


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(_data())
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["steps"][0].update(move={"move": "Place", "point": [0, 8]}), "step 1: its move"),
        (lambda d: d["steps"][1].update(move={"move": "Place", "point": [4, 2]}), "step 2: its move .* not legal"),
        (lambda d: d["steps"][6].update(rules=["CL-6.1", "CL-99.9"]), "step 7: cites 'CL-99.9'"),
        (lambda d: d["steps"][3].pop("position"), "step 4: step 3 accepts any move of its kind"),
        (lambda d: d["steps"][0].pop("position"), "step 1: the first step needs a 'position'"),
        (lambda d: d["steps"][2].update(replies=[{"move": "Place", "point": [0, 0]}]), "step 3: a step that accepts"),
        (lambda d: d["steps"][1]["replies"].append({"move": "Remove", "point": [4, 2]}), r"step 2, replies\[2\]"),
        (lambda d: d["steps"][4].update(sey="typo"), "step 5: unknown field 'sey'"),
        (lambda d: d["steps"][4].update(say=""), "step 5: 'say' must be a non-empty text"),
        (lambda d: d["steps"][4].update(accept="any"), "step 5: 'accept' is move or kind"),
        (lambda d: d["steps"][4].pop("move"), "step 5: missing 'move'"),
        (lambda d: d["steps"][3].update(position="players: red blue"), "step 4, position: diagram"),
        (lambda d: d["steps"][0].update(position={"players": 7, "seed": 1}), "step 1, position: Claim is for 2"),
        (lambda d: d["steps"][0].update(position={"seed": 1, "moves": [{"move": "Fly"}]}), "unknown move 'Fly'"),
        (lambda d: d["steps"][0]["move"].update(point=[4]), "step 1, move"),
        (lambda d: d["allows"].update(Fly="CL-6.1"), "'allows' names 'Fly'"),
        (lambda d: d["allows"].update(Step="CL-0"), "'allows' cites 'CL-0'"),
        (lambda d: d.update(game="nim"), "not 'claim'"),
        (lambda d: d.update(steps=[]), "'steps' must be a non-empty list"),
        (lambda d: d.update(extra=1), "unknown field 'extra'"),
        (lambda d: d.pop("end"), "'end' must be a non-empty text"),
    ],
)
def test_loading_a_broken_tutorial_names_the_problem(change: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tutorial.parse("claim", _broken(change), source="claim/tutorial.json")


def test_replies_that_leave_chance_or_a_replying_seat_to_move_are_refused() -> None:
    data = copy.deepcopy(_data("ab_die_post"))
    data["steps"] = data["steps"][:1]
    data["steps"][0]["replies"] = []  # the card drawn is no longer scripted
    with pytest.raises(ValueError, match="step 1: its replies leave chance to settle"):
        tutorial.parse("ab_die_post", data)
    data = copy.deepcopy(_data("ab_die_post"))
    data["steps"] = data["steps"][:3]
    data["steps"][2]["replies"] = data["steps"][2]["replies"][:2]  # Blue left in the middle of its turn
    with pytest.raises(ValueError, match="step 3: its replies leave a seat the learner does not play to move"):
        tutorial.parse("ab_die_post", data)


def test_a_position_at_the_end_of_the_game_is_refused() -> None:
    won = encode_move(tutorial.load("claim").steps[-1].move)
    data = _broken(lambda d: d["steps"].append({"say": "Again.", "move": won, "rules": ["CL-10.1"]}))
    with pytest.raises(ValueError, match=f"step {len(tutorial.load('claim').steps) + 1}: the game is over"):
        tutorial.parse("claim", data)


def test_a_game_without_a_tutorial_says_so() -> None:
    for game in registry.names():
        if game not in GAMES:
            with pytest.raises(ValueError, match="has no tutorial"):
                tutorial.load(game)


# --- the lesson judges every move ---------------------------------------------------------------------------------


def _wrong_but_legal(lesson: Lesson) -> Any:
    step = lesson.step
    assert step is not None
    engine = lesson.engine
    return next((m for m in engine.legal_moves(step.state) if not step.accepts(step.state, m, engine)), None)


def _illegal(lesson: Lesson) -> Any:
    """A move of the tutorial itself (another step's, or a reply) that the engine refuses in this step's position."""
    step = lesson.step
    assert step is not None
    moves = [m for s in lesson.tutorial.steps for m in (s.move, *s.replies)]
    return next((m for m in moves if lesson.engine.check(step.state, m) is not None), None)


@pytest.mark.parametrize("game", GAMES)
def test_a_scripted_learner_completes_the_tutorial_on_the_board(game: str) -> None:
    panel = LearnPanel(game)
    lesson = panel.lesson
    total = lesson.total
    explained = refused = False
    assert panel.text.text.count(f"Step 1 of {total}") == 1
    while not lesson.finished:
        if lesson.waiting:
            assert panel.skip_button.description == "Next"
            panel.skip_button.click()
            continue
        step, board = lesson.step, panel.board
        assert step is not None and board is not None
        assert same_position(board.live, step.state), step.number
        assert f"Step {step.number} of {total}" in panel.text.text
        assert all(rule in panel.text.value for rule in step.rules)  # the ids, as links
        before = len(board.states)
        wrong = None if explained else _wrong_but_legal(lesson)
        if wrong is not None:
            assert board.play(wrong) is False
            rule = lesson.tutorial.allows.get(type(wrong).__name__, "")
            about = step.about or board.move_text(step.move)
            assert f"That is legal too, by {rule}, but this step is about {about}" in board.status.text
            assert len(board.states) == before and lesson.step is step
            explained = True
        illegal = None if refused else _illegal(lesson)
        if illegal is not None:
            error = lesson.engine.check(board.live, illegal)
            assert board.play(illegal) is False
            assert f"Refused by {error.rule}: " in board.status.text  # the board words the message its way
            assert len(board.states) == before and lesson.step is step
            refused = True
        assert board.play(step.move) is True
        assert len(board.states) == before + 1 + len(step.replies)
        assert step.number in lesson.done
    assert explained and refused
    assert lesson.done == set(range(1, total + 1))
    assert f"All {total} steps done" in panel.text.text
    assert panel.end_buttons.layout.display == "flex" and panel.skip_button.disabled


def _click(board: Any, move: Any) -> None:
    """Make a Claim move as a person does: clicks on points (a jump landing by landing, ended on its last point)."""
    name = type(move).__name__
    if name in ("Place", "Remove", "PlaceTower"):
        board.click_point(move.point)
    elif name == "Step":
        if board.selected != move.origin:  # after a capture the piece stays in hand (CL-7.4)
            board.click_point(move.origin)
        board.click_point(move.destination)
    elif name == "Jump":
        if board.selected != move.origin:
            board.click_point(move.origin)
        for landing in move.path:
            board.click_point(landing)
        if board.jumping:
            board.click_point(move.path[-1])
    elif name == "Stop":
        board.stop_button.click()
    elif name == "Pass":
        board.pass_button.click()
    else:
        raise AssertionError(f"no click for {move}")


def test_the_claim_lesson_is_completed_by_clicks_on_the_board() -> None:
    panel = LearnPanel("claim")
    lesson = panel.lesson
    panel.board.click_point((0, 0))  # A11: a free point, but step 1 asks for C7
    assert "That is legal too, by CL-4.2, but this step is about placing your first piece on C7" in (
        panel.board.status.text
    )
    assert panel.board.live.history == ()
    while not lesson.finished:
        if lesson.waiting:
            panel.skip_button.click()
            continue
        number = lesson.step.number
        _click(panel.board, lesson.step.move)
        assert lesson.index > number - 1 or lesson.waiting, (number, panel.board.status.text)
    assert panel.board.finished
    assert "Red wins" in panel.board.result_text()


def test_back_skip_and_next_show_the_step_from_its_start() -> None:
    panel = LearnPanel("claim")
    lesson, first = panel.lesson, panel.board
    total = lesson.total
    assert panel.back_button.disabled
    panel.skip_button.click()
    assert lesson.progress() == f"Step 2 of {total}" and f"Step 2 of {total}" in panel.text.text
    assert same_position(panel.board.live, lesson.step.state) and first.comm is None  # the old board is closed
    panel.back_button.click()
    assert lesson.index == 0 and same_position(panel.board.live, lesson.tutorial.steps[0].state)
    lesson.go(5)  # the tower after the removals: the next step sets a position of its own
    assert panel.board.play(lesson.step.move)
    assert lesson.waiting and lesson.index == 5 and panel.skip_button.description == "Next"
    assert "Done." in panel.text.text
    done = panel.board
    assert done.play(lesson.tutorial.steps[6].move) is False and "Press Next" in done.status.text
    panel.back_button.click()  # back to the start of the step just made
    assert not lesson.waiting and lesson.index == 5 and same_position(panel.board.live, lesson.step.state)
    panel.restart_button.click()
    assert lesson.index == 0


def test_undo_and_hint_serve_the_lesson() -> None:
    panel = LearnPanel("claim")
    board = panel.board
    board.play(panel.lesson.step.move)
    board.undo()
    assert "Back goes to the step before" in board.status.text and len(board.states) == 2
    move = board.hint()
    assert move == panel.lesson.step.move and "Hint: place a piece on D7" in board.status.text
    assert "You play Red" in board.status.text  # the other seat only replies: the board names it the computer's


def test_the_notebook_panel_offers_a_full_game_and_the_exercises_at_the_end() -> None:
    panel = LearnPanel("claim")
    panel.lesson.go(panel.lesson.total)
    assert panel.end_buttons.layout.display == "flex"
    assert panel.board.finished  # the won position
    panel.full_game_button.click()
    assert set(panel.board.session.bots) == {1} and not panel.board.finished and panel.board.live.turn == 0
    panel.exercises_button.click()
    assert len(panel.extra.children) == 1


# --- the app's Learn tab ----------------------------------------------------------------------------------------------


def test_the_app_opens_the_lesson_and_returns_to_the_game_as_it_was() -> None:
    app = App("claim", seed=3)
    assert app.tabs.titles[app.learn_tab] == "Learn" and app.tabs.titles[-1] == "Threats"
    total = len(tutorial.load("claim").steps)
    game = app.board
    game.play(registry.game("claim").engine.legal_moves(game.live)[0])
    history = game.live.history
    app.learn_button.click()
    board = app.board
    assert board is app.learn.board and game.layout.display == "none"
    assert f"Step 1 of {total}" in app.exercise_text.value and "1 move played" in app.exercise_text.value
    assert "you play: Red" in app.about.value and "Blue" not in app.about.value  # Blue's moves are the replies
    board.click_point((4, 2))
    assert app.learn.lesson.progress() == f"Step 2 of {total}" and f"Step 2 of {total}" in app.exercise_text.value
    assert f"step 2 of {total}" in app.notice.value
    app.learn.text.open_rule("CL-4.2")  # a rule id of the lesson opens the rules beside the board
    assert app.tabs.selected_index == app.RULES_TAB and app.rules.focus == "CL-4.2"
    app.restart()  # the step again from its start, the game still put aside
    assert app.learn.lesson.index == 1 and app._away is not None and app._away.board is game
    app.back_button.click()
    assert app.board is game and game.live.history == history and game.layout.display != "none"
    app.learn_button.click()  # the lesson keeps the learner's place while the page is open
    assert app.learn.lesson.progress() == f"Step 2 of {total}" and f"Step 2 of {total}" in app.learn_offer.value
    assert same_position(app.board.live, app.learn.lesson.step.state)


def test_the_app_offers_a_game_against_the_beginner_level_and_the_exercises() -> None:
    app = App("claim", seed=3)
    game = app.board
    app.show_tutorial()
    app.learn.lesson.go(app.learn.lesson.total)
    app.learn.exercises_button.click()
    assert app.board is game and app.tabs.selected_index == app.EXERCISES_TAB
    app.show_tutorial()
    app.learn.full_game_button.click()
    beginner = registry.game("claim").levels[0].name
    assert app.current.computer == {1: beginner} and app._away is None and app.board is not game


def test_a_game_without_a_tutorial_has_no_learn_tab(monkeypatch) -> None:
    # every game of the rulebook has a tutorial: the last one is served as a game whose package has none
    without = GAMES[-1]
    found = tutorial.path
    monkeypatch.setattr(tutorial, "path", lambda game: None if game == without else found(game))
    app = App(without, seed=1)
    assert app.learn_tab is None and "Learn" not in app.tabs.titles
    assert App(GAMES[0], seed=1).learn_tab is not None  # the others keep theirs


def _press(board: Any, move: Any) -> None:
    """Make an Ab die Post! move with the board's own controls: its buttons, a click on a field, the list."""
    name = type(move).__name__
    buttons = {
        "DrawCard": board.draw_button,
        "Stop": board.stop_button,
        "Fly": board.fly_button,
        "Stay": board.stay_button,
    }
    if name in buttons:
        buttons[name].click()
    elif name == "Move":
        board.click_field(move.path[-1])
    else:
        board.choice.value = move
        board.play_button.click()


def test_the_ab_die_post_lesson_is_completed_with_the_boards_controls() -> None:
    panel = LearnPanel("ab_die_post")
    lesson = panel.lesson
    panel.board.fly_button.click()  # no cards yet: refused by the rule, nothing played
    assert "Refused by ADP-5.1" in panel.board.status.text and panel.board.live.history == ()
    logs = []  # each board's log of the moves made on it (a step with a position of its own gets a new board)
    while not lesson.finished:
        if lesson.waiting:
            logs.append(panel.board.history_html(limit=200))
            panel.skip_button.click()
            continue
        number = lesson.step.number
        _press(panel.board, lesson.step.move)
        assert lesson.index == number or lesson.waiting, (number, panel.board.status.text)
    logs.append(panel.board.history_html(limit=200))
    state = panel.board.live
    assert state.flight == 3 and state.player == 0  # two flights flown, and the learner begins the third
    assert f"{state.scores[0]} points to Blue's {state.scores[1]}" in lesson.tutorial.end  # the engine's scores
    assert state.hands[0] == (0, 1, 0)  # the 2 the learner kept
    assert len(logs) == 2 and "picks up the passenger" in logs[0] and "stays on" in logs[1]


def test_kingdom_builder_s_closing_scores_are_the_engine_s() -> None:
    """The last step's text quotes each player's gold by card: the numbers must be the engine's scoring of the
    position the step ends in (a story written once must not go stale when scoring or the computer changes)."""
    from rulebook.kingdom_builder.rules import COLOURS, outcome, score

    last = tutorial.load("kingdom_builder").steps[-1]
    assert outcome(last.after) is not None, "the lesson ends with the game scored"
    text = last.done
    names = [COLOURS[seat].capitalize() for seat in range(last.after.players)]
    parts = {name: text[text.index(f"{name}:") :] for name in names}
    for seat, name in enumerate(names):
        later = [text.index(f"{other}:") for other in names if text.index(f"{other}:") > text.index(f"{name}:")]
        part = parts[name][: min(later) - text.index(f"{name}:")] if later else parts[name]
        gold = score(last.after)[seat]
        for card, value in gold.items():
            if card == "total":
                assert f"{value} gold" in part, (name, card, value, part)
            else:
                assert f"{card.lower()} {value}" in part.lower(), (name, card, value, part)
