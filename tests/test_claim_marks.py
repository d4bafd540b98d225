"""What the Claim board shows of the last move(s): the narration in the status and the log, the marks on the figure
(paths, rings, ghosts of captured pieces), the prompt naming the only button left, refusals in the board's words,
stale clicks, replay, and colour-vision-safe palettes."""

from __future__ import annotations

import itertools

from rulebook import claim
from rulebook.claim.widget import PALETTES, Board
from rulebook.views import trace

LAND = "\n".join(["aaaabbb"] * 5)  # 5 rows: row 0 of the diagram is row 5 on the board


def board_of(pieces: str, headers: str = "players: red blue\nto-move: red\nphase: battle", **kwargs) -> Board:
    return Board(claim.from_diagram(f"{headers}\n\n{LAND}\n\n{pieces}\n"), **kwargs)


def xy(board: Board, name: str) -> list[tuple[float, float]]:
    drawn = trace(board.figure.plot, name)
    return [(x, y) for x, y in zip(drawn.x or (), drawn.y or ()) if x is not None]


# red to move; the computer (blue) then steps from E4 to E3 and takes the red piece on D3 against its piece on C3
CAPTURE = "r......\n....b..\n..br...\n.......\n......r"


def test_the_computers_capture_is_told_and_marked_until_the_next_move():
    board = board_of(CAPTURE, computer={1: "greedy"})
    assert board.play(claim.Step((4, 6), (4, 5)))
    assert board.message == ("Red: steps from G1 to F1; then Blue: steps from E4 to E3 and captures a red piece on D3")
    log = board.move_log.text
    assert "Blue (computer)" in log and "steps from E4 to E3 and captures a red piece on D3" in log
    assert log.index("captures a red piece") < log.index("steps from G1 to F1")  # newest first
    # paths (x = column, y = -row): red G1 -> F1, blue E4 -> E3; rings where both arrived; the ghost of D3
    assert xy(board, "last move") == [(6.0, -4.0), (5.0, -4.0), (4.0, -1.0), (4.0, -2.0)]
    assert xy(board, "arrived") == [(5.0, -4.0), (4.0, -2.0)]
    assert xy(board, "taken off") == [(3.0, -2.0)]
    assert list(trace(board.figure.plot, "taken off").marker.symbol) == ["circle"]  # the red piece's shape, faded
    assert "a red piece was taken off here" in " ".join(trace(board.figure.plot, "territories").text)
    assert board.play(claim.Step((0, 0), (0, 1)))  # the next move: only it and the reply are marked now
    assert (3.0, -2.0) not in xy(board, "taken off") and (5.0, -4.0) not in xy(board, "arrived")
    assert (1.0, 0.0) in xy(board, "arrived")


def test_replay_shows_the_move_that_led_to_the_position_and_plays_nothing():
    board = board_of(CAPTURE, computer={1: "greedy"})
    board.play(claim.Step((4, 6), (4, 5)))
    history = board.live.history
    board.show_move(1)  # after red's move, before blue's capture
    assert board.state.at((2, 3)) == "r" and xy(board, "arrived") == [(5.0, -4.0)] and xy(board, "taken off") == []
    assert xy(board, "targets") == []  # no targets in a replay
    board.click_point((0, 0))
    assert board.live.history == history and not board.replaying
    assert "Back to the game" in board.status.text


def test_the_prompt_names_the_pass_button_when_no_piece_can_move():
    stuck = board_of("R......\n.......\n.......\n.......\n......b")
    assert claim.legal_moves(stuck.state) == (claim.Pass(),)
    assert "People play Red and Blue. Red to move: none of your pieces can move: press Pass." in stuck.status.text


def test_a_follow_up_with_only_stop_left_says_press_stop():
    # red steps B3 -> C3 taking D3; red is then alone in territory a and may put a tower there, or Stop
    board = board_of(".......\n.......\n.r.br..\n.......\n.......")
    board.play(claim.Step((2, 1), (2, 2)))
    moves = claim.legal_moves(board.state)
    assert claim.Stop() in moves and not any(isinstance(m, (claim.Step, claim.Jump)) for m in moves)
    assert board.status.text.startswith("People play Red and Blue. Red to move: press Stop to end your turn.")


def test_refusals_name_points_as_the_board_does():
    board = Board(claim.new_game(players=2, seed=1), seed=1, computer={1: "greedy"})
    board.play(claim.Place((0, 0)))
    board.play(claim.Place((0, 0)))
    height = board.state.island.height
    assert f"Refused by CL-4.2: the point A{height} is taken (a red piece)" in board.status.text
    assert "(0, 0)" not in board.status.text


def test_a_click_names_its_point_and_a_stale_one_is_ignored_with_a_message():
    board = board_of(CAPTURE, computer={1: "greedy"})
    view = board.figure
    before = view.revision
    assert view.click("pieces", [4, 6]) and board.selected == (4, 6)  # G1 picked up, by its point, not an index
    assert view.click("targets", [4, 5])  # its ring on F1: red steps there, and blue's reply captures D3
    assert board.state.at((2, 3)) == "." and board.selected is None
    # the captured piece, clicked on the drawing from before the move: that point is no longer a piece
    assert not view.click("pieces", [2, 3], revision=before)
    assert "The board changed before that click arrived" in board.status.text and board.selected is None
    assert not view.click("territories", [9, 9])  # no such point on this island (a forged click): the same
    assert "The board changed before that click arrived" in board.status.text and board.selected is None
    # a click on an older drawing whose point is still in its trace is a click on that point: A5 is picked up
    assert view.click("pieces", [0, 0], revision=before) and board.selected == (0, 0)


def test_the_palettes_stay_apart_for_colour_blind_eyes():
    import colorspacious
    import numpy as np

    assert set(PALETTES) == {"pieces", "island"}
    for name, colours in PALETTES.items():
        rgb = np.array([[int(c[i : i + 2], 16) / 255 for i in (1, 3, 5)] for c in colours])
        for kind in ("deuteranomaly", "protanomaly", "tritanomaly"):
            space = {"name": "sRGB1+CVD", "cvd_type": kind, "severity": 100}
            seen = np.clip(colorspacious.cspace_convert(rgb, space, "sRGB1"), 0, 1)
            for a, b in itertools.combinations(range(len(colours)), 2):
                distance = colorspacious.deltaE(seen[a], seen[b], input_space="sRGB1")
                assert distance >= 15, (name, kind, colours[a], colours[b], distance)


def test_pieces_carry_no_letter_to_confuse_with_a_territory_and_each_colour_has_its_own_shape():
    from rulebook.claim.widget import GLYPH, SYMBOL, TOWER_MARK

    board = board_of("R......\nr......\n..b....\n....B..\n......b")
    pieces = trace(board.figure.plot, "pieces")
    by_point = {
        (x, y): (text, symbol, size)
        for x, y, text, symbol, size in zip(pieces.x, pieces.y, pieces.text, pieces.marker.symbol, pieces.marker.size)
    }
    assert by_point[(0.0, -1.0)] == ("", "circle", 19) and by_point[(2.0, -2.0)] == ("", "square", 19)
    assert by_point[(0.0, 0.0)] == (TOWER_MARK, "circle", 27) and by_point[(4.0, -3.0)] == (TOWER_MARK, "square", 27)
    letters = set(claim.rules.TERRITORY_LETTERS) | set(claim.rules.TERRITORY_LETTERS.upper())
    assert not letters & set("".join(pieces.text))
    # four shapes, none two of the round ones (a hexagon reads as a circle at 19 px): red and green, both dark in
    # grey, are a circle and a triangle
    assert len(set(SYMBOL.values())) == 4 and not {"hexagon", "octagon", "pentagon"} & set(SYMBOL.values())
    assert len(set(GLYPH.values())) == 4


def test_a_territory_letter_sits_between_four_of_its_points_clear_of_every_mark():
    """Each letter is at the middle of a square of four points of its territory (on the islands of 2, 3 and 4
    players): half a step from each of them, out of reach of a piece, a tower, a ring or a star, and of the lattice
    lines and borders."""
    from rulebook.claim.widget import _letter_spot

    for players, seed in ((2, 7), (3, 1), (4, 11)):
        island = claim.new_game(players=players, seed=seed).island
        for letter, points in island.territories.items():
            x, y = _letter_spot(island, letter)
            row, column = -y, x
            assert row % 1 == 0.5 and column % 1 == 0.5, (players, letter)
            corners = {(row + dr, column + dc) for dr in (-0.5, 0.5) for dc in (-0.5, 0.5)}
            assert corners <= set(points), (players, letter)
    board = Board(claim.new_game(players=2, seed=7))
    spots = xy(board, "territory letters")
    assert len(spots) == len(board.state.island.territories)
    assert all(min(abs(x - px) + abs(y + pr) for pr, px in board.state.island.points) == 1.0 for x, y in spots)
