"""The shared view of a game in play (ui.Table over a Session): boards drawn by board.js on BoardViews, the status line,
the log with replay, undo and the computer's replies."""

from __future__ import annotations

import importlib
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook import ab_die_post, claim, kingdom_builder, meetjesland, ui
from rulebook.ab_die_post import widget as adp_widget
from rulebook.claim import widget as claim_widget
from rulebook.kingdom_builder import widget as kb_widget
from rulebook.meetjesland import widget as mj_widget
from rulebook.views import BoardView
from tests.soak import count

BOARDS = {
    "meetjesland": lambda: mj_widget.Board(meetjesland.new_game(players=3, seed=1), seed=1),
    "kingdom_builder": lambda: kb_widget.Board(kingdom_builder.new_game(players=2, seed=1, first_game=True), seed=1),
    "ab_die_post": lambda: adp_widget.Board(ab_die_post.new_game(players=2, seed=1), seed=1),
    "claim": lambda: claim_widget.Board(claim.new_game(players=2, seed=1), seed=1),
}


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_every_board_draws_on_a_board_view(game):
    figure = BOARDS[game]().figure
    assert isinstance(figure, BoardView)
    state = figure.get_state()
    # the module the browser runs is board.js, a few kilobytes, not plotly's bundle nor a loader of it
    assert state["_esm"] == (Path(ui.__file__).parent / "board.js").read_text()
    assert len(state["_esm"]) < 60_000 and "__rulebookPlotly" not in state["_esm"]
    assert {trace.type for trace in figure.plot.data} == {"scatter"}


def test_the_status_line_says_what_the_computer_answered():

    board = claim_widget.Board(claim.new_game(players=2, seed=3), seed=3, computer={1: "greedy"})
    for _ in range(10):  # in placement a player puts down two pieces before the other answers
        count = len(board.states)
        move = claim.legal_moves(board.state)[0]
        assert board.play(move)
        replies = len(board.states) - count - 1
        if replies:
            break
    assert 1 <= replies <= 2, replies
    steps = [board.step(index) for index in range(len(board.states) - replies - 1, len(board.states))]
    assert steps[0].move == move and [s.player for s in steps] == [0] + [1] * replies
    expected = f"{board.describe_player(0)}: {board.step_text(steps[0])}"
    expected += "".join(f"; then {board.describe_player(1)}: {board.step_text(s)}" for s in steps[1:])
    assert board.message == expected
    assert board.message in board.status.text


def test_a_long_series_of_computer_moves_is_counted_not_listed():
    board = mj_widget.Board(meetjesland.new_game(players=4, seed=1), seed=1, computer=(1, 2, 3))
    board.auto_button.click()
    steps = [board.step(index) for index in range(1, len(board.states))]
    computer_moves = sum(step.player != 0 for step in steps)  # the person's auto-placement is a Place a territory
    assert computer_moves == 3  # one reinforcement each (hand count: three computer seats, one place each)
    assert board.message.startswith("Starting points spread at random: ")
    assert board.message.endswith(
        "; then Black played 1 move, Pink 1 move and Teal 1 move "
        "(marked on the board; the log tells each, newest first)"
    )


GAMES = {"meetjesland": meetjesland, "kingdom_builder": kingdom_builder, "ab_die_post": ab_die_post, "claim": claim}


def _bots(game):
    return importlib.import_module(f"rulebook.{game}.bots").BOTS


def _person_move(board, rng):
    return rng.choice(board.game.legal_moves(board.live))


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_undo_always_returns_to_a_position_where_a_person_is_to_move(game):
    for seed in range(count(2, 4)):  # random games: two in `make test`, four in `make soak`
        board = BOARDS[game]()
        board.bots = {1: _bots(game)["random"]}
        board.start()
        rng = random.Random(seed)
        for turn in range(30):
            if board.finished:
                break
            if rng.random() < 0.3:
                board.undo()
            else:
                assert board.play(_person_move(board, rng)), board.message
            assert board.current_player(board.live) not in board.bots or board.finished, (turn, board.message)


def test_the_claim_notebook_board_never_hands_a_person_the_computer_s_move():
    # the notebook's board (seed 7, the computer plays Blue): three Undo clicks once left Blue to move, and a click
    # played Blue's move for it
    board = claim_widget.Board(claim.new_game(players=2, seed=7), seed=7, computer={1: "greedy"})
    for _ in range(3):
        assert board.play(claim.legal_moves(board.live)[0])
    for _ in range(3):
        board.undo()
        assert board.current_player(board.live) == 0
    assert board.message in ("Took back your last move.", "Nothing to undo.")


def test_a_move_for_a_computer_seat_is_refused_and_changes_nothing():
    board = claim_widget.Board(claim.new_game(players=2, seed=3), seed=3)
    assert board.play(claim.legal_moves(board.live)[0])
    while board.current_player(board.live) == 0:
        assert board.play(claim.legal_moves(board.live)[0])
    board.bots[1] = claim.bots.BOTS["greedy"]  # Blue, to move now, becomes a computer seat
    before = list(board.states)
    assert not board.play(claim.legal_moves(board.live)[0])
    assert board.states == before
    assert "It is Blue's turn, and the computer plays Blue" in board.status.text


def test_the_moves_to_mark_are_the_person_s_move_and_every_computer_reply():
    board = mj_widget.Board(meetjesland.new_game(players=4, seed=1), seed=1, computer=(1, 2, 3))
    board.auto_button.click()
    steps = board.steps_shown()
    assert [step.player for step in steps] == [0, 1, 2, 3]
    assert [step.index for step in steps] == list(range(len(board.states) - 4, len(board.states)))
    assert all(step.after is board.states[step.index] for step in steps)


def test_replay_shows_an_earlier_position_read_only_and_a_click_on_the_board_returns_to_the_game():
    board = claim_widget.Board(claim.new_game(players=2, seed=3), seed=3, computer={1: "greedy"})
    for _ in range(4):
        assert board.play(claim.legal_moves(board.live)[0])
    last = len(board.states) - 1
    board.move_log._message(None, {"step": 2}, None)  # a click on the log line of move 2
    assert board.view == 2 and board.state is board.states[2] and board.live is board.states[-1]
    assert f"Replay of move 2 of {last}" in board.status.text
    assert board.steps_shown() == [board.step(2)]
    assert all(control.disabled for control in board.move_controls()) and board.undo_button.disabled
    assert board._slider.value == 2 and not board._slider.disabled
    first, back, _, forward, latest = board._history_controls
    back.click()
    assert board.view == 1 and board.state is board.states[1]
    first.click()
    assert board.view == 0 and board.steps_shown() == []
    before = list(board.states)
    assert not board.play(claim.legal_moves(board.states[0])[0])  # a click on the replayed board
    assert board.view is None and board.states == before and "Back to the game" in board.status.text
    board._slider.value = 3
    assert board.view == 3
    latest.click()
    assert board.view is None and not any(c.disabled for c in board.move_controls() if c.description == "Undo")


def test_the_log_names_the_player_on_every_group_and_links_each_move_to_its_position():
    board = claim_widget.Board(claim.new_game(players=2, seed=3), seed=3, computer={1: "greedy"})
    for _ in range(4):
        assert board.play(claim.legal_moves(board.live)[0])
    log = board.history_html()
    groups = re.findall(r"<b>(\w+)(?: <span[^>]*>\(computer\)</span>)?</b>", log)
    expected = []
    for index in range(len(board.states) - 1, 0, -1):
        name = board.describe_player(board.step(index).player)
        if not expected or expected[-1] != name:
            expected.append(name)
    assert groups == expected and "Blue <span class='rb-log-computer'>(computer)</span>" in log
    steps = [int(n) for n in re.findall(r"data-step='(\d+)'", log)]
    assert steps == list(range(len(board.states) - 1, 0, -1))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_move_of_random_games_is_told_in_words(game):
    for seed in range(3):
        board = BOARDS[game]()
        board.rng = random.Random(seed)
        board.bots = {seat: _bots(game)["random"] for seat in range(board.live.players)}
        del board.states[1:]
        board._settle()
        assert len(board.states) > 20
        for index in range(1, min(len(board.states), 400)):
            text = board.step_text(board.step(index))
            assert isinstance(text, str) and text.strip(), (index, board.step(index).move)


def test_a_finished_computer_game_marks_its_last_round_not_the_whole_game():
    board = BOARDS["claim"]()
    board.bots = {seat: _bots("claim")["greedy"] for seat in range(2)}
    del board.states[1:]
    board._settle()
    assert board.finished
    steps = board.steps_shown()
    players = [step.player for step in steps]
    assert 1 <= len(steps) < 10 and steps[-1].index == len(board.states) - 1
    assert players[0] != players[-1] or len(set(players)) == 1


def test_no_board_needs_plotly_s_figure_widget():
    """The four boards draw on BoardViews: importing their modules, and building one of each, imports none of
    plotly's widget machinery (its FigureWidget, renderers, narwhals' dataframes, nbformat)."""
    heavy = ("plotly.basewidget", "plotly.io._renderers", "nbformat", "jsonschema")
    code = (
        "import sys\n"
        "import rulebook.app, rulebook.meetjesland.widget, rulebook.kingdom_builder.widget\n"
        "import rulebook.ab_die_post.widget, rulebook.claim.widget\n"
        f"print([name for name in {heavy!r} if name in sys.modules])\n"
        "from rulebook import meetjesland, kingdom_builder, ab_die_post, claim\n"
        "rulebook.meetjesland.widget.Board(meetjesland.new_game(players=3, seed=1))\n"
        "rulebook.kingdom_builder.widget.Board(kingdom_builder.new_game(players=2, seed=1))\n"
        "rulebook.ab_die_post.widget.Board(ab_die_post.new_game(players=2, seed=1))\n"
        "rulebook.claim.widget.Board(claim.new_game(players=2, seed=1))\n"
        f"print([name for name in {heavy!r} if name in sys.modules])\n"
    )
    lines = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert lines[:2] == ["[]", "[]"]


def test_the_legacy_figures_are_gone():
    for name in ("BoardFigure", "ChartFigure", "settle_figure", "plotly_file", "serve_plotly_from", "classic_script"):
        assert not hasattr(ui, name), name
    assert "_py2js" not in (Path(ui.__file__).parent / "board.js").read_text()


def test_a_status_line_telling_many_moves_tells_the_first_and_last_and_counts_the_rest():
    """The status line has a fixed height (the board never moves): a message of many moves, as a lesson's replies
    make, says how many it leaves to the log instead of being cut mid-sentence (issue 27, the guided first games)."""
    from rulebook.learn import LearnPanel

    panel = LearnPanel("kingdom_builder")
    lesson = panel.lesson
    number = next(s.number for s in lesson.tutorial.steps if len(s.replies) >= 3)
    lesson.go(number - 1)
    step, board = lesson.step, panel.board
    assert board.play(step.move)
    told = board.message.split("; then ")
    assert len(told) == 1 + len(step.replies)  # the session's message keeps every move (the log tells each too)
    shown = board.status.text
    assert f"{told[0]}; then {len(told) - 2} more moves (the log tells each); the last: {told[-1]}" in shown
    assert shown.count("; then ") == 1 and (not step.done or step.done in shown)
    board.message = "A: one; then B: two; then C: three"  # three moves fit: told as they are
    board.redraw()
    assert board.message in board.status.text


def test_a_fixed_status_line_that_holds_more_shows_a_shadow_where_the_text_goes_on():
    from rulebook import markup

    css = markup.STYLESHEET.read_text(encoding="utf-8")
    rule = re.search(r"\.rb-mj-board \.rb-status, \.rulebook-status \{([^}]*)\}", css)
    assert rule, "no scroll cue for the status lines"
    layers = rule.group(1)
    assert layers.count("no-repeat local") == 2 and layers.count("no-repeat scroll") == 2  # covers move, shadows stay
