"""Claim's board widget, driven without a browser: set ``.value``, call ``.click()``, read the state and status."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")

from rulebook import claim
from rulebook.claim import bots
from rulebook.claim.diagram import figure
from rulebook.claim.widget import Board, board_figure


def pick(board: Board, point) -> None:
    board.point_picker.value = point
    board.pick_button.click()


def test_placement_and_removal_by_clicking_points():
    board = Board(claim.new_game(players=2, seed=1), computer={1: "greedy"})
    first = board.state.first
    assert first == 0, "seed 1 lets red begin; the test clicks for red"
    pick(board, (0, 0))
    assert board.state.at((0, 0)) == "r" and board.state.turn == 0
    pick(board, (0, 0))
    assert "Refused by CL-4.2" in board.status.text
    while board.state.phase == "placement":
        pick(board, board.move_list.value.point)
    assert board.state.phase == "removal"
    own = board.state.pieces(0)[0]
    pick(board, own)
    assert "Refused by CL-5.1" in board.status.text
    highlighted = set(zip(board.figure.data[3].x, board.figure.data[3].y))
    enemy = board.state.pieces(1)[0]
    assert (float(enemy[1]), float(-enemy[0])) in highlighted
    for _ in range(4):
        pick(board, board.state.pieces(1)[0])
    assert board.state.phase == "battle"
    assert len(board.state.pieces(1)) == 14


def test_click_a_piece_to_see_its_moves_and_captures_then_play_a_series():
    board = Board(claim.from_diagram(figure(4).before))
    pick(board, (4, 3))
    assert board.selected == (4, 3)
    texts = list(board.figure.data[3].text)
    assert any(text.startswith("step to (3, 3): captures 2") for text in texts)
    pick(board, (3, 3))
    assert board.state.follow_up == (3, 3)
    assert not board.stop_button.disabled
    assert board.selected == (3, 3)  # the capturing piece stays selected
    pick(board, (4, 3))  # captures nothing: refused by the follow-up rule
    assert "Refused by CL-7.4" in board.status.text
    assert board.selected == (3, 3)  # still selected after a refusal
    pick(board, (3, 4))
    assert "b" not in "".join(board.state.grid)
    # red is alone in both territories: clicking a free point of one places a tower there
    assert "Towers may go in a, b" in board.status.text
    pick(board, (3, 4))  # let the piece go, then click a free point of territory a
    assert board.selected is None
    pick(board, (0, 0))
    assert board.state.at((0, 0)) == "R"
    board.stop_button.click()
    assert board.state.turn == 1
    board.undo()
    assert board.state.turn == 0 and board.state.at((0, 0)) == "R"


def test_move_list_and_buttons_play_everything():
    board = Board(claim.from_diagram(figure(1).before))
    move = claim.Step((2, 1), (2, 2))
    board.move_list.value = move
    board.play_button.click()
    assert board.state.at((2, 3)) == "."
    board.stop_button.click()
    assert board.state.turn == 1
    assert not board.pass_button.disabled  # blue has no piece left to move
    board.pass_button.click()
    assert board.state.turn == 0 and board.pass_button.disabled


def test_a_whole_four_player_game_against_the_computer():
    board = Board(
        claim.new_game(players=4, seed=2), seed=2, computer={1: "random", 2: "greedy", 3: "random"}
    )
    moves = 0
    while claim.outcome(board.state) is None:
        board.computer_button.click()
        moves += 1
        assert moves < 2000
    assert "Game over" in board.status.text
    assert board.computer_button.disabled


def test_a_whole_two_player_game_by_clicks():
    board = Board(claim.new_game(players=2, seed=4), seed=4, computer={1: "random"})
    clicks = 0
    while claim.outcome(board.state) is None:
        state = board.state
        move = bots.greedy_bot(state, board.rng)
        if isinstance(move, (claim.Place, claim.Remove)):
            pick(board, move.point)
        elif isinstance(move, claim.PlaceTower):
            if board.selected is not None:
                pick(board, board.selected)  # let go of the piece first
            pick(board, move.point)
        elif isinstance(move, (claim.Step, claim.Jump)):
            if board.selected != move.origin:
                pick(board, move.origin)
            pick(board, move.destination)
        elif isinstance(move, claim.Stop):
            board.stop_button.click()
        else:
            board.pass_button.click()
        assert board.state is not state, board.status.text
        clicks += 1
        assert clicks < 2000
    assert "Game over" in board.status.text


def test_static_board_figure():
    state = claim.from_diagram(figure(5).before)
    fig = board_figure(state, title="Figure (5)")
    assert fig.layout.title.text == "Figure (5)"
    assert len(fig.data[4].x) == "".join(state.grid).count("b") + "".join(state.grid).count("y")
