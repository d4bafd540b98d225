"""Hint on the Claim board: the strong player's move for the person, its reason in the status line, and a dashed
dark-gold mark on the board (path and stars) until the next move; never played, never shown on a replay."""

from __future__ import annotations

from rulebook import claim
from rulebook.claim.widget import HINT, PALETTES, Board, hint_marks
from rulebook.views import trace

LAND = "\n".join(["aaaabbb"] * 5)
# red D2 -> D3 captures the blue piece on C3 (see test_claim_strong.py); blue holds territory b alone
CAPTURE = "......b\n.......\n.rb....\n...r...\n......b"


def board() -> Board:
    text = f"players: red blue\nto-move: red\nphase: battle\n\n{LAND}\n\n{CAPTURE}\n"
    return Board(claim.from_diagram(text), computer={1: "greedy"})


def xy(table: Board, name: str) -> list[tuple[float, float]]:
    drawn = trace(table.figure.plot, name)
    return [(x, y) for x, y in zip(drawn.x or (), drawn.y or ()) if x is not None]


def test_hint_marks_the_suggested_move_and_says_why_without_playing_it():
    table = board()
    before = table.live
    move = table.hint()
    assert move == claim.Step((3, 3), (2, 3))
    assert table.live is before and table.hinted == move
    assert "Hint (strong computer player): step from D2 to D3. Captures a blue piece on C3" in table.status.text
    # x = column, y = -row: a dashed path D2 -> D3 and stars on both points
    assert xy(table, "suggested move") == [(3.0, -3.0), (3.0, -2.0)]
    assert xy(table, "suggested points") == [(3.0, -3.0), (3.0, -2.0)]
    path = trace(table.figure.plot, "suggested move")
    assert path.line.dash == "dash" and path.line.color == HINT
    assert table.play(claim.Step((2, 1), (1, 1)))  # another move: the hint is gone
    assert table.hinted is None and xy(table, "suggested move") == [] and xy(table, "suggested points") == []


def test_hint_marks_of_every_kind_of_move():
    assert hint_marks(claim.Jump((4, 0), ((2, 0), (0, 0)))) == ([(4, 0), (2, 0), (0, 0)], [(4, 0), (0, 0)])
    assert hint_marks(claim.PlaceTower("a", (1, 1))) == ([], [(1, 1)])
    assert hint_marks(claim.Place((0, 2))) == ([], [(0, 2)]) == hint_marks(claim.Remove((0, 2)))
    assert hint_marks(claim.Stop()) == ([], []) == hint_marks(claim.Pass()) == hint_marks(None)
    assert HINT in PALETTES["island"] and HINT in PALETTES["pieces"]


def test_a_replay_shows_no_hint_and_the_game_shows_it_again():
    table = Board(claim.new_game(players=2, seed=1), seed=1, computer={1: "greedy"})  # red places first
    table.play(claim.Place((5, 5)))
    table.play(claim.Place((5, 6)))  # then the computer places blue's two pieces
    move = table.hint()
    assert isinstance(move, claim.Place) and "Hint (strong computer player): place a piece on" in table.status.text
    star = (float(move.point[1]), -float(move.point[0]))
    assert xy(table, "suggested points") == [star] and xy(table, "suggested move") == []
    table.show_move(1)  # the hint is for the game as it stands, not for an earlier position
    assert xy(table, "suggested points") == []
    table.show_move(len(table.states) - 1)
    assert xy(table, "suggested points") == [star]
