"""Claim's moves told in players' words (``claim.narrate``): every kind of move, checked against sentences written
by hand from the diagrams.  Points are named as the board's edges label them: column letter, row from the bottom."""

from __future__ import annotations

import re

import pytest

from rulebook import claim
from rulebook.claim.diagram import figure

# 6 rows x 7 columns: territory a is columns A-D, territory b columns E-G; row 6 is the top row
LAND = "\n".join(["aaaabbb"] * 6)
FULL = "rrrrbbb\nrrrrbbb\nrrrrbbb\nrrrrbbb\nrr..bbb\n....bbb"  # 18 red and 18 blue pieces


def diagram(headers: str, pieces: str, land: str = LAND) -> claim.State:
    return claim.from_diagram(f"{headers}\n\n{land}\n\n{pieces}\n")


def told(state: claim.State, move) -> str:
    return claim.narrate(state, move, claim.apply(state, move))


def test_a_placed_piece_is_counted():
    state = diagram("players: red blue\nto-move: red\nphase: placement", ".......\n" * 6)
    assert told(state, claim.Place((5, 0))) == "places a piece on A1 (1 of 18)"


def test_the_last_placed_piece_starts_the_removals():
    state = diagram("players: red blue\nto-move: red\nfirst: blue\nphase: placement", FULL.replace("rr..", "r...", 1))
    assert told(state, claim.Place((4, 1))) == (
        "places a piece on B2 (18 of 18); every piece is on the board, so the removals begin: "
        "Blue takes off enemy pieces first"
    )


def test_a_removal_says_how_many_are_left():
    state = diagram("players: red blue\nto-move: red\nphase: removal", FULL)
    assert told(state, claim.Remove((0, 4))) == "removes the blue piece on E6 (1 of 4; 3 more to remove)"


def test_the_last_removal_of_a_player_hands_over():
    state = diagram(
        "players: red blue\nto-move: red\nphase: removal\nremovals-left: red 1 blue 4",
        "rrrr...\nrrrrbbb\nrrrrbbb\nrrrrbbb\nrr..bbb\n....bbb",  # red has taken 3 blue pieces off
    )
    assert told(state, claim.Remove((3, 4))) == "removes the blue piece on E3; Blue removes next"


LAST_REMOVAL = "r......\nrrrr.bb\nrrrrbbb\nrrrrbbb\nrr..bbb\n....bbb"  # red has lost 3 pieces, blue 4
LAST_HEADERS = "players: red blue\nto-move: blue\nfirst: red\nphase: removal\nremovals-left: red 0 blue 1"


def test_the_last_removal_starts_the_round_of_towers_and_says_who_holds_what():
    state = diagram(LAST_HEADERS, LAST_REMOVAL)
    assert told(state, claim.Remove((3, 0))) == (
        "removes the red piece on A3; the removals are over (Red holds territory a alone; Blue holds territory b "
        "alone); Red may put a tower down before the battle"
    )
    towers = claim.apply(state, claim.Remove((3, 0)))
    assert told(towers, claim.PlaceTower("a", (5, 0))) == (
        "puts a tower on A1 in territory a; Blue may put a tower down before the battle"
    )
    blue = claim.apply(towers, claim.PlaceTower("a", (5, 0)))
    assert told(blue, claim.Stop()) == "puts no tower in territory b; the battle begins: Red moves first"


def test_with_towers_on_the_first_battle_turn_the_battle_begins_at_once():
    text = f"{LAST_HEADERS}\n\n{LAND}\n\n{LAST_REMOVAL}\n"
    state = claim.from_diagram(text, claim.Config(removal_towers="first battle turn"))
    assert told(state, claim.Remove((3, 0))) == (
        "removes the red piece on A3; the removals are over and the battle begins (Red holds territory a alone; "
        "Blue holds territory b alone: a tower may go there); Red moves first"
    )


def play(number):
    shown = figure(number)
    state = claim.from_diagram(shown.before)
    texts = []
    for move in shown.moves:
        after = claim.apply(state, move)
        texts.append(claim.narrate(state, move, after))
        state = after
    return texts, state


@pytest.mark.parametrize(
    ("number", "expected"),
    [
        ("6", ["steps from C4 to C3"]),
        (
            "1",
            ["steps from B3 to C3 and captures a blue piece on D3; Red conquers territory a and may put a tower there"],
        ),
        (
            "3",
            ["steps from C3 to B3 and captures a blue piece on A3; Red conquers territory a and may put a tower there"],
        ),
        (
            "4",
            [
                "steps from D3 to D4 and captures 2 blue pieces (D5, C4); the piece on D4 may capture again; "
                "Red conquers territory a and may put a tower there",
                "steps from D4 to E4 and captures 2 blue pieces (E5, E3); Red conquers territory b and may put a tower "
                "there",
            ],
        ),
        ("jump", ["jumps from A1 over B1 to C1, then over C2 to C3, then over D3 to E3"]),
        (
            "5",
            [
                "jumps from A4 over B4 to C4, then over D4 to E4, then over F4 to G4 and captures 3 yellow pieces "
                "(G5, H4, G3)"
            ],
        ),
        (
            "tower",
            [
                "steps from G4 to F4 and captures the blue tower on F5 (the tower goes back to Blue); Red conquers "
                "territory b and may put a tower there",
                "puts a tower on G5 in territory b",
            ],
        ),
    ],
)
def test_steps_jumps_captures_and_towers_of_the_rules_figures(number, expected):
    assert play(number)[0] == expected


def test_stop_names_the_territories_left_without_a_tower():
    _, state = play("1")
    assert told(state, claim.Stop()) == "ends the series of captures and leaves territories a and b without a tower"


def test_a_tower_put_where_an_enemy_tower_stands_sends_it_back():
    pieces = "....B..\n....r..\n.......\n.b.....\n.......\n......."
    state = diagram("players: red blue\nto-move: red\nphase: battle", pieces)
    assert told(state, claim.PlaceTower("b", (0, 6))) == (
        "puts a tower on G6 in territory b; the blue tower on E6 goes back to Blue"
    )


def test_the_third_tower_wins():
    land = "aaabbbb\naaabbbb\ncccbbbb\ncccdddd\ncccdddd\nccccddd"
    pieces = "R...B..\n.......\n.b.....\n.......\n....r..\nR......"  # red towers in a and c, a piece alone in d
    state = diagram("players: red blue\nto-move: red\nphase: battle", pieces, land)
    assert told(state, claim.PlaceTower("d", (4, 5))) == "puts a tower on F2 in territory d; Red has 3 towers and wins"


def test_a_pass_and_a_game_stopped_by_quiet_turns():
    state = diagram(
        "players: red blue\nto-move: red\nphase: battle\nquiet: 10", "R......\n" + ".......\n" * 4 + "b......"
    )
    assert told(state, claim.Pass()) == "passes: none of their pieces can move"
    quiet = claim.from_diagram(
        "players: red blue\nto-move: blue\nphase: battle\nquiet: 59\n\n"
        + LAND
        + "\n\nR......\n"
        + ".......\n" * 4
        + "b......\n"
    )
    assert told(quiet, claim.Step((5, 0), (5, 1))) == (
        "steps from A1 to B1; the game stops after 60 turns without a capture or a tower: Red wins with the most towers"
    )


def test_no_narration_shows_an_internal_point():
    texts = []
    for number in claim.FIGURE_NUMBERS:
        texts += play(number)[0]
    assert texts and not any(re.search(r"\(\d+, \d+\)|[a-z]=|Step\(|Jump\(", text) for text in texts)
