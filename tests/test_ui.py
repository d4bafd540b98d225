"""The shared board figure: every game's board ships plotly's bundle as data, behind one small loader."""

from __future__ import annotations

import hashlib

import plotly.graph_objects as go
import pytest
from plotly.basewidget import BaseFigureWidget

from rulebook import ab_die_post, claim, kingdom_builder, meetjesland
from rulebook.ab_die_post import widget as adp_widget
from rulebook.claim import widget as claim_widget
from rulebook.kingdom_builder import widget as kb_widget
from rulebook.meetjesland import widget as mj_widget
from rulebook.ui import BoardFigure

BOARDS = {
    "meetjesland": lambda: mj_widget.Board(meetjesland.new_game(players=3, seed=1), seed=1),
    "kingdom_builder": lambda: kb_widget.Board(kingdom_builder.new_game(players=2, seed=1, first_game=True), seed=1),
    "ab_die_post": lambda: adp_widget.Board(ab_die_post.new_game(players=2, seed=1), seed=1),
    "claim": lambda: claim_widget.Board(claim.new_game(players=2, seed=1), seed=1),
}


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_every_board_draws_on_a_board_figure(game):
    assert isinstance(BOARDS[game]().figure, BoardFigure)


def test_the_figure_sends_plotly_bundle_as_data_with_a_key_naming_its_contents():
    figure = BoardFigure(go.Figure(go.Scatter(x=[0, 1], y=[1, 0])))
    state = figure.get_state()
    bundle = str(BaseFigureWidget._esm)  # the file plotly would send as each figure's module
    assert state["_bundle"] == bundle and len(bundle) > 1_000_000
    assert state["_bundle_key"] == hashlib.sha256(bundle.encode()).hexdigest()[:16]
    # the module the browser evaluates per figure is the small loader, which imports the bundle once per page
    assert len(state["_esm"]) < 2_000 and "__rulebookPlotlyBundles" in state["_esm"]
    assert "export default" in state["_esm"]


def test_the_figure_behaves_as_a_plotly_figure_widget():
    figure = BoardFigure(go.Figure(go.Scatter(x=[0, 1], y=[1, 0], name="points")))
    clicks = []
    figure.data[0].on_click(lambda trace, points, selector: clicks.append(points.point_inds))
    figure.data[0].update(marker={"color": ["red", "blue"]})
    assert isinstance(figure, go.FigureWidget)
    assert list(figure.data[0].marker.color) == ["red", "blue"]
    figure._handler_js2py_pointsCallback(
        {
            "new": {
                "event_type": "plotly_click",
                "points": {"trace_indexes": [0], "point_indexes": [1], "xs": [1], "ys": [0]},
                "selector": None,
                "device_state": {"alt": False, "ctrl": False, "meta": False, "shift": False, "button": 0, "buttons": 0},
            }
        }
    )
    assert clicks == [[1]]


def test_the_move_log_shows_the_newest_move_first_with_its_number():
    board = claim_widget.Board(claim.new_game(players=2, seed=3), seed=3)
    played = []
    for _ in range(3):
        move = claim.legal_moves(board.state)[0]
        assert board.play(move)
        played.append(board.move_text(move))
    history = list(board.state.history)
    log = board.log_html(history)
    numbers = [int(item.split("'")[0]) for item in log.split("<li value='")[1:]]
    assert numbers == list(range(len(history), 0, -1))
    assert log.index(played[-1]) < log.index(played[0])
    assert board.log_html(history, limit=2).count("<li") == 2


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
    answered = [board.move_text(m) for m in board.state.history][-replies:]
    expected = f"{board.describe_player(0)}: {board.move_text(move)}"
    expected += "".join(f"; then {board.describe_player(1)}: {reply}" for reply in answered)
    assert board.message == expected
    assert board.message in board.status.text


def test_a_long_series_of_computer_moves_is_counted_not_listed():
    board = mj_widget.Board(meetjesland.new_game(players=4, seed=1), seed=1, computer=(1, 2, 3))
    board.auto_button.click()
    computer_moves = len(board.states) - 2  # the start and the person's auto-placement come first
    assert computer_moves > 2
    assert board.message == (
        f"Starting points spread at random; then the computer players made {computer_moves} moves "
        "(the log lists them, newest first)"
    )
