"""Issue 48.9, the app's shell and the shared board view, without a browser: a finished game stays finished (Undo
is off and refused), the replay's status line uses only characters the page's fonts have, the count of moves a
waiting game shows is the log's, and the set-up's level menus are wide enough for their names."""

from __future__ import annotations

from rulebook.ab_die_post import bots, new_game, outcome, widget


def finished_ab_die_post() -> widget.Board:
    """A game of Ab die Post played to its end by a person (seat 0, as the greedy player) against two computers."""
    board = widget.Board(new_game(players=3, seed=5), seed=3, computer=(1, 2))
    greedy = bots.BOTS["greedy"]
    while outcome(board.state) is None:
        assert board.play(greedy(board.state, board.rng))
    return board


def test_a_finished_game_keeps_undo_off_and_refuses_it():
    board = finished_ab_die_post()
    finished, states = board.state, len(board.states)
    assert board.undo_button.disabled, "Undo is off once the game is over"
    board.undo()  # as a click that got through would
    assert board.state is finished and len(board.states) == states
    assert outcome(board.state) is not None
    assert "The game is over" in board.status.text
    assert board.undo_button.disabled
