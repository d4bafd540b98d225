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


# what every font of the page has: the ASCII letters, digits and punctuation, and the few others the texts use
# (middle dot, dashes, ellipsis, typographic quotes, the non-breaking space): a symbol such as U+23ED (the "skip to the
# end" triangle) is in no font of a default Linux or Windows install, and showed as an empty box
COMMON = set(map(chr, range(0x20, 0x7F))) | set("\u00a0\u00b7\u2013\u2014\u2026\u2018\u2019\u201c\u201d\n")


def test_the_replay_status_uses_only_characters_every_font_has():
    from rulebook import claim
    from rulebook.claim import widget as claim_widget

    board = claim_widget.Board(claim.new_game(players=2, seed=3), seed=3, computer={1: "greedy"})
    for _ in range(3):
        assert board.play(claim.legal_moves(board.live)[0])
    for index in (0, 1):
        board.show_move(index)
        text = board.status.text
        assert "Replay of move" in text or "the start" in text
        missing = sorted({f"U+{ord(c):04X}" for c in text if c not in COMMON})
        assert missing == [], f"the replay's status line holds {missing}: {text!r}"
        assert "the history bar's last button returns to the game" in text  # in words, not a symbol


def log_lines(board) -> int:
    """How many moves the board's log tells (one line a move, the dice and cards told with the move they follow)."""
    return sum(len(group.lines) for group in board.session.log(limit=10_000))


def test_the_waiting_game_s_moves_are_counted_as_its_log_counts_them():
    from rulebook.app import App

    app = App("meetjesland", seed=5)  # every turn rolls dice: its history holds more entries than its log has moves
    board = app.board
    while len(board.live.history) - log_lines(board) < 3:
        assert board.play(board.game.legal_moves(board.live)[0]), board.message
    lines = log_lines(board)
    assert lines == len(board.states) - 1 and len(board.live.history) > lines
    panel = app.exercises
    panel.go_to(0)
    panel.show_button.click()
    assert app.board is not board
    assert f"({lines} moves played)" in app.exercise_text.value, app.exercise_text.value
    app.back_button.click()
    app.learn_button.click()  # the guided game: its bar counts the waiting game's moves the same way
    assert f"({lines} moves played)" in app.exercise_text.value, app.exercise_text.value


def test_the_app_opens_with_a_skip_link_to_the_board_before_its_toolbar():
    from rulebook.app import App
    from rulebook.app.toolbar import SkipLink

    app = App("claim", seed=1)
    assert isinstance(app.children[0], SkipLink) and app.children[0] is app.skip_link
    assert app.skip_link.layout.height == "0px"  # it takes no room until the keyboard reaches it
