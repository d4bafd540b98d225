"""The threat explorer beside the Claim board: what an enemy's next step or jump could capture, and the player's
own captures, counted by hand from a written position; the explorer follows the board and its colour menu."""

from __future__ import annotations

import re

from rulebook import claim
from rulebook.claim.threats import capture_moves, threats
from rulebook.claim.widget import Board, Explorer

LAND = "\n".join(["aaaabbb"] * 5)
# (see test_claim_strong.py) red: tower B5, pieces A4, F3, E1; blue: B3, F2.  Blue's captures, counted by hand: B3 to
# B4 takes the tower on B5 (against the top edge) and A4 (against the left edge); F2 to E2 takes E1 (against the
# bottom edge); its jump F2 over F3 to F4 takes nothing.  Red's only capture: E1 to F1 takes F2 (against F3).
BAIT = ".R.....\nr......\n.b...r.\n.....b.\n....r.."


def bait() -> claim.State:
    return claim.from_diagram(f"players: red blue\nto-move: red\nphase: battle\n\n{LAND}\n\n{BAIT}\n")


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_threats_and_captures_counted_by_hand():
    state = bait()
    assert threats(state, 0) == {
        (0, 1): [(1, claim.Step((2, 1), (1, 1)))],
        (1, 0): [(1, claim.Step((2, 1), (1, 1)))],
        (4, 4): [(1, claim.Step((3, 5), (3, 4)))],
    }
    assert capture_moves(state, 0) == [(claim.Step((4, 4), (4, 5)), ((3, 5),))]
    assert [move for move, _ in capture_moves(state, 1)] == [claim.Step((2, 1), (1, 1)), claim.Step((3, 5), (3, 4))]
    assert threats(state, 1) == {(3, 5): [(0, claim.Step((4, 4), (4, 5)))]}
    assert capture_moves(claim.new_game(players=2, seed=1), 0) == []  # nothing is captured before the battle


def test_the_explorer_follows_its_colour_and_the_board():
    board = Board(bait(), computer={1: "greedy"})
    explorer = Explorer(board)
    assert "rulebook-explorer" in explorer._dom_classes
    assert "rulebook-explorer-result" in explorer.result._dom_classes
    assert explorer.player.value == 0 and explorer.player.label == "Red"  # the person plays red
    shown = text(explorer.result.value)
    assert shown.startswith("Red has 3 pieces and 1 tower on the board.")
    assert "3 of these 4 (3/4) can be captured" in shown
    assert "the tower on B5, the piece on A4, the piece on E1" in shown
    assert "Blue: step from B3 to B4 takes 2" in shown and "Blue: step from F2 to E2 takes 1" in shown
    assert "step from E1 to F1 takes a blue piece on F2" in shown
    explorer.player.value = 1  # Blue
    shown = text(explorer.result.value)
    assert shown.startswith("Blue has 2 pieces and 0 towers") and "1 of these 2 (1/2)" in shown
    explorer.player.value = 0
    board.play(claim.Step((1, 0), (1, 1)))  # red blocks B4; the computer answers; the explorer follows
    assert explorer.update in board.listeners
    assert text(explorer.result.value) != shown and "B3 to B4" not in text(explorer.result.value)


def test_before_the_battle_the_explorer_says_when_captures_begin():
    board = Board(claim.new_game(players=2, seed=1), computer={1: "greedy"})
    explorer = Explorer(board)
    assert "captured only in the battle (CL-7.1)" in text(explorer.result.value)
    before = explorer.result.value
    explorer.player.value = 1
    assert explorer.result.value != before and "Blue has" in text(explorer.result.value)


def test_the_explorer_lives_in_explorer_py_and_its_html_in_templates_with_the_pieces_colours():
    from rulebook.claim import explorer, widget
    from rulebook.markup import STYLESHEET

    assert widget.Explorer is explorer.Explorer is Explorer  # claim.widget.Explorer keeps working
    shown = Explorer(Board(bait(), computer={1: "greedy"}))
    assert "style=" not in shown.result.value + shown.key.value
    assert '<span class="rb-text rb-cl-red">' in shown.key.value
    sheet = STYLESHEET.read_text()
    for colour, hex_colour in widget.COLOUR_HEX.items():  # the key's glyph in the colour of the pieces
        assert re.search(rf"\.rb-cl-{colour}\s*\{{\s*color:\s*{hex_colour};\s*\}}", sheet), colour
