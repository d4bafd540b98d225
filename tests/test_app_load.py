"""Issue 26.8's shared rough edges in the app: a load error in words (no parser's text), a finished game loaded
says it is over and who won, a saved file is named by the move count the log shows, and a refusal leaves the
status line at the next action that says nothing new (a selection)."""

from __future__ import annotations

import json
import random

import pytest

from rulebook import registry
from rulebook.app import App, moves_played
from rulebook.core import pick

GAMES = list(registry.names())


def played(app: App, moves: int, seed: int = 1) -> None:
    """``moves`` of the person's legal moves, chosen at random (the computer seats answer)."""
    board, rng = app.board, random.Random(seed)
    for _ in range(moves):
        legal = board.game.legal_moves(board.live)
        if board.finished or not legal:
            break
        board.play(rng.choice(legal))


def finished(game: str, seed: int = 2):
    """A whole game between greedy players, dice and cards drawn with ``Random(seed)``."""
    entry = registry.game(game)
    module, bots, rng = entry.engine, entry.bots(), random.Random(seed)
    state = entry.new_state(entry.default_players, seed)
    while module.outcome(state) is None:
        outcomes = module.chance_outcomes(state)
        state = module.apply(state, pick(outcomes, rng) if outcomes else bots["greedy"](state, rng))
    return module, state


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"", "this file is empty: it is not a saved game"),
        (b" \n\t", "this file is empty: it is not a saved game"),
        (b"{not json", "this file is not a saved game: it is not JSON (line 1)"),
        (b"Hello,\nthis is a letter.\n", "this file is not a saved game: it is not JSON (line 1)"),
        (b'{"game": "claim",\n "setup": {}\n', "this file is not a saved game: it is not JSON (line 3)"),
        (b"\xff\xfe\x00", "this file is not a saved game: it is not a text file"),
        (b"9" * 5000, "this file is not a saved game: it holds a number too long to read"),
    ],
)
def test_a_file_that_is_not_json_is_told_in_words(data, said):
    app = App("claim", seed=1)
    board = app.board
    assert not app.load("letter.json", data)
    text = app.notice.value
    assert f"Could not load letter.json: {said}" in text and "unchanged" in text and app.board is board
    assert "Expecting" not in text and "char " not in text and "column" not in text


@pytest.mark.parametrize("game", GAMES)
def test_the_saved_file_is_named_by_the_log_s_move_count(game):
    app = App(game, seed=4)
    played(app, 25)
    board = app.board
    shown = len(board.states) - 1  # what the history bar says: "N moves"
    assert f"{shown} moves" in board._history_label.value
    name, text = app.saved()
    assert name == f"{game}-move{shown}.json"
    assert moves_played(app.module, board.state) == shown  # the history's entries but the chance outcomes
    # a loaded game goes on counting from the file's moves, as the message says
    other = App(game, seed=9)
    assert other.load(name, text.encode())
    assert f"the game continues after move {shown}" in other.notice.value
    assert other.saved()[0] == name
    played(other, 3, seed=2)
    assert other.saved()[0] == f"{game}-move{shown + len(other.board.states) - 1}.json"


def test_chance_outcomes_are_not_counted_as_moves():
    """Ab die Post's draws are chance: the history holds more entries than the log counts moves."""
    app = App("ab_die_post", seed=4)
    played(app, 25)
    state = app.board.state
    assert len(state.history) > len(app.board.states) - 1 == moves_played(app.module, state)


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_game_loaded_says_it_is_over_and_who_won(game):
    module, state = finished(game)
    app = App(game, seed=1)
    assert app.load("done.json", module.to_json(state).encode())
    text, result = app.notice.value, app.board.result_text()
    moves = moves_played(module, state)
    assert f"Loaded done.json: the game is over, after {moves} moves." in text and "continues" not in text
    assert result and json.dumps(result)[1:-1].split(" (")[0] in text  # "P3 (yellow) wins", "Red wins", ...
    assert app.banner.layout.display == "flex"


# --- a refusal goes at the next action that says nothing new -----------------------------------------------------
def test_a_refusal_is_told_once_and_again_when_repeated():
    app = App("meetjesland", seed=1)
    board = app.board
    board.auto_button.click()
    board._attack()  # nothing chosen: refused
    refusal = "Choose the territory to attack from and the one to attack."
    assert refusal in board.status.text
    board._attack()  # the same refusal again is told again
    assert refusal in board.status.text
    board.select(board.state.territories_of(0)[0])  # a selection: the refusal goes
    assert refusal not in board.status.text and "Refused" not in board.status.text


def test_a_refusal_goes_at_the_next_redraw_that_tells_nothing_even_where_the_board_rewrites_it():
    """Claim's redraw rewrites the message's points as the board names them: the refusal is still told once, and a
    redraw for a selection (a piece chosen, which tells nothing) clears it."""
    app = App("claim", seed=1, computer={})
    board = app.board
    board.message, board.message_kind = "Refused by CL-4.2: the point (0, 0) is taken", "error"
    board.redraw()
    assert "the point A11 is taken" in board.status.text
    board.redraw()
    assert "is taken" not in board.status.text
    board.message, board.message_kind = "Refused by CL-4.2: the point (0, 0) is taken", "error"
    board.redraw()  # the same refusal set again is told again
    assert "the point A11 is taken" in board.status.text
