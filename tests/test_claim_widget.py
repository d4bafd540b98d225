"""Claim's board widget, driven without a browser: set ``.value``, call ``.click()``, read the state and status."""

from __future__ import annotations

import html
import re

import ipywidgets as widgets

from rulebook import claim
from rulebook.claim import bots
from rulebook.claim.diagram import figure
from rulebook.claim.widget import CONTROLS_WIDTH, FIGURE_BOX, Board, board_figure, figure_pair, point_name, readable
from rulebook.ui import RuleText
from rulebook.views import trace


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
    rings = trace(board.figure.plot, "targets")
    highlighted = set(zip(rings.x, rings.y))
    enemy = board.state.pieces(1)[0]
    assert (float(enemy[1]), float(-enemy[0])) in highlighted
    for _ in range(4):
        pick(board, board.state.pieces(1)[0])
    assert len(board.state.pieces(1)) == 14
    # after blue's removals red holds territories alone: a tower may go down before the battle (CL-5.2)
    assert board.state.phase == "towers" and board.state.turn == 0
    assert "before the battle, put a tower in" in board.status.text and not board.stop_button.disabled
    pick(board, board.state.pieces(0)[0])
    assert "No piece moves before the battle" in board.status.text
    board.stop_button.click()
    # red took blue's first pieces and left blue alone in three territories: blue's three towers win at once
    assert claim.outcome(board.state).reason == "blue placed 3 towers"
    assert "Blue may put a tower down before the battle" in board.status.text


def test_click_a_piece_to_see_its_moves_and_captures_then_play_a_series():
    board = Board(claim.from_diagram(figure(4).before))
    pick(board, (4, 3))
    assert board.selected == (4, 3)
    texts = list(trace(board.figure.plot, "targets").text)
    assert any(text.startswith("step to D4: captures 2 (") for text in texts)  # (3, 3) on an island of 7 rows
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
    assert "You may put a tower in territories a, b" in board.status.text
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
    board = Board(claim.new_game(players=4, seed=2), seed=2, computer={1: "random", 2: "greedy", 3: "random"})
    moves = 0
    while claim.outcome(board.state) is None:
        board.computer_button.click()
        moves += 1
        assert moves < 2000
    assert "Game over" in board.status.text
    assert board.computer_button.disabled
    assert "win" in board.status.text and "Towers: Red " in board.status.text


def test_a_whole_two_player_game_by_clicks():
    board = Board(claim.new_game(players=2, seed=4), seed=4, computer={1: "random"})
    clicks = 0
    while claim.outcome(board.state) is None:
        state = board.state
        move = bots.greedy_player(state, board.rng)
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
            if board.jumping:  # the piece could jump on from there: a click on it ends the jump
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
    assert len(trace(fig, "pieces").x) == "".join(state.grid).count("b") + "".join(state.grid).count("y")


def test_points_are_named_by_column_letter_and_row_number_from_the_bottom():
    assert point_name((0, 0), 11) == "A11" and point_name((10, 8), 11) == "I1"
    assert readable("step (2, 1) -> (2, 2)", 5) == "step from B3 to C3"
    assert readable("jump (4, 0) -> (4, 2) -> (2, 2)", 5) == "jump from A1 to C1, then to C3"
    assert readable("Refused by CL-4.2: Claim: the point (0, 0) is taken by a red piece", 11) == (
        "Refused by CL-4.2: the point A11 is taken by a red piece"
    )
    board = Board(claim.new_game(players=2, seed=1))
    labels = trace(board.figure.plot, "coordinates")
    assert set("ABCDEFGHI") <= set(labels.text) and {"1", "11"} <= set(labels.text)
    assert ("A", 0.0) in {(text, x) for text, x in zip(labels.text, labels.x)}  # column A under column 0


def test_the_figure_and_its_controls_fit_beside_the_apps_side_panel():
    for players, seed in ((2, 7), (3, 1), (4, 11)):
        board = Board(claim.new_game(players=players, seed=seed), seed=seed, computer={1: "greedy"})
        island = board.state.island
        width, height = board.figure.plot.layout.width, board.figure.plot.layout.height
        assert (width, height) <= FIGURE_BOX or (width <= FIGURE_BOX[0] and height <= FIGURE_BOX[1])
        assert width + CONTROLS_WIDTH + 10 <= 880 and height <= 680
        assert min(width, height) >= 400, "smaller, not unreadable"
        # the island's shape decides the size: one lattice step is as many pixels across as down
        across = (width - 8) / (island.width + 0.95)
        down = (height - 8) / (island.height + 0.95)
        assert abs(across - down) < 0.5 and across >= 35
        # the figure beside one column that holds the status line and every control
        (row,) = board.children
        assert isinstance(row, widgets.HBox) and row.children[0] is board.figure
        column = row.children[1]
        assert column.layout.width == f"{CONTROLS_WIDTH}px" and column.children[0] is board.status
        inside = set(map(id, _descendants(column)))
        for control in (board.move_list, board.play_button, board.point_picker, board.pick_button):
            assert id(control) in inside
        for control in (board.stop_button, board.pass_button, board.undo_button, board.computer_button):
            assert id(control) in inside
        assert isinstance(board.move_log, RuleText) and board.log_panel.selected_index is None  # log folded


def test_the_person_is_told_which_colour_they_play():
    board = Board(claim.new_game(players=2, seed=1), seed=1, computer={1: "greedy"})
    assert board.status.text.startswith("You play Red. Your turn: place 2 more pieces this turn: click free points.")
    four = Board(claim.new_game(players=4, seed=11), seed=11, computer={1: "greedy", 2: "greedy", 3: "random"})
    assert four.status.text.startswith("You play Red (partner: Green). Your turn: place ")
    alone = Board(claim.new_game(players=2, seed=1))  # two people at one screen: the colour to move, not "you"
    assert alone.status.text.startswith("People play Red and Blue. Red to move: place 2 more pieces")


FORBIDDEN = re.compile(r"Fraction\(|[{}]|None|computer=|seed=|Traceback|\(\d+, \d+\)|\b(?:Step|Jump|Place|Remove)\(")


def _descendants(box):
    for child in box.children:
        yield child
        if isinstance(child, (widgets.Box, widgets.Accordion)):
            yield from _descendants(child)


def _shown_texts(board: Board) -> list[str]:
    """Every text of the board a player can read: status, scores, log, options, tooltips and hover texts."""
    texts = [board.status.text, board.move_log.text, re.sub("<[^>]*>", "", board.score_view.value)]
    texts += [label for label, _ in board.move_list.options] + [label for label, _ in board.point_picker.options]
    for control in _descendants(board):
        texts += [getattr(control, "description", ""), getattr(control, "tooltip", "") or ""]
    texts += list(board.log_panel.titles)
    plot = board.figure.plot
    texts += list(trace(plot, "territories").text) + list(trace(plot, "targets").text or ())
    texts += list(trace(plot, "pieces").hovertext or ())
    return texts


def test_no_python_shows_on_a_played_game():
    assert FORBIDDEN.search("Red: step (2, 1) -> (2, 2)") and FORBIDDEN.search("{'a': 1}")  # the check can fail
    board = Board(claim.new_game(players=2, seed=5), seed=5, computer={1: "greedy"})
    seen = []
    while claim.outcome(board.state) is None:
        state = board.state
        move = bots.greedy_player(state, board.rng)
        if isinstance(move, (claim.Step, claim.Jump)):
            pick(board, move.origin)  # a selected piece: its targets and their captures are shown
            seen += _shown_texts(board)
            pick(board, move.origin)  # let it go
            enemy = next(p for p in state.island.points if state.owner(p) not in (None, state.turn))
            pick(board, enemy)  # explained: not a piece the person can move
            seen += _shown_texts(board)
            assert not board.play(claim.Step(move.origin, move.origin))  # refused: the engine's text names points
            seen += _shown_texts(board)
        assert board.play(move), board.status.text
        seen += _shown_texts(board)
    board.click_point((5, 5))
    seen += _shown_texts(board)
    bad = sorted({text for text in seen if FORBIDDEN.search(text)})
    assert not bad, bad[:5]
    assert any(re.search(r"\b[A-I]\d+ to [A-I]\d+\b", text) for text in seen)  # moves named by their points


def test_a_finished_game_switches_off_every_move_control_and_says_the_result():
    board = Board(claim.new_game(players=2, seed=5), seed=5, computer={1: "greedy"})
    while claim.outcome(board.state) is None:
        board.computer_button.click()
    result = claim.outcome(board.state)
    towers = ", ".join(
        f"{colour.capitalize()} {len(board.state.towers(p))}" for p, colour in enumerate(["red", "blue"])
    )
    assert board.status.text.startswith(f"You play Red. Game over: Red wins ({result.reason}). Towers: {towers}.")
    for control in (board.move_list, board.play_button, board.point_picker, board.pick_button):
        assert control.disabled
    for control in (board.stop_button, board.pass_button, board.computer_button):
        assert control.disabled
    assert board.undo_button.disabled  # a finished game is finished (issue 48.9)
    history = board.state.history
    board.click_point(board.state.island.points[0])  # a click on the figure after the end is refused
    assert board.state.history == history and "The game is over" in board.status.text
    board.undo()  # so is Undo
    assert board.state.history == history and board.play_button.disabled


def test_a_drawn_game_says_nobody_wins_with_the_towers():
    state = claim.new_game(players=2, seed=3, config=claim.Config(quiet_turn_limit=1))
    board = Board(bots.play_until_battle(state, __import__("random").Random(3)), seed=3, computer={1: "greedy"})
    while claim.outcome(board.state) is None:
        board.computer_button.click()
    assert board.status.text.startswith("You play Red. Game over: ")
    assert "Towers: Red " in board.status.text and ", Blue " in board.status.text


def test_the_rules_figures_draw_their_moves_once_without_a_second_caption():
    pair = figure_pair(1)
    assert [annotation.text for annotation in pair.layout.annotations] == ["before", "after"]
    assert pair.layout.title.text is None  # the caption is the notebook's, beside the picture
    paths = [trace for trace in pair.data if trace.name == "last move"]
    # figure 1 on 5 rows: red steps from B3 (row 2, column 1) to C3, drawn on both halves as a dotted line
    assert [(list(t.x), list(t.y)) for t in paths] == [([1.0, 2.0, None], [-2.0, -2.0, None])] * 2
    ghosts = [trace for trace in pair.data if trace.name == "taken off"]
    assert [list(zip(t.x, t.y)) for t in ghosts] == [[], [(3.0, -2.0)]]  # the blue piece on D3, after only


# --- a jump made landing by landing (issue 26.6) ------------------------------------------------------------------

LAND = "\n".join(["aaaabbb"] * 5)  # 5 rows: row 0 of the diagram is row 5 on the board
DOUBLE = ".......\n.......\nrb.b...\n.......\n.....b."  # red on A3 jumps B3 to C3, then D3 to E3


def double_jump() -> Board:
    return Board(claim.from_diagram(f"players: red blue\nto-move: red\nphase: battle\n\n{LAND}\n\n{DOUBLE}\n"))


def drawn(board: Board, name: str) -> list[tuple[float, float]]:
    shown = trace(board.figure.plot, name)
    return [(x, y) for x, y in zip(shown.x or (), shown.y or ()) if x is not None]


def test_a_multi_jump_goes_on_from_its_first_landing_without_clicking_the_piece_again():
    board = double_jump()
    start = board.state
    pick(board, (2, 0))
    assert sorted(trace(board.figure.plot, "targets").text) == ["jump to C3", "jump to E3", "step to A2", "step to A4"]
    pick(board, (2, 2))  # C3: the piece may jump on from there, so nothing is played yet
    assert board.state is start and board.jumping and board.landings == ((2, 2),)
    assert board.selected == (2, 0)  # the piece is still in hand
    assert "jumping from A3, on C3 now: click a ringed point to jump on" in board.status.text
    assert list(trace(board.figure.plot, "targets").text) == ["jump on to E3"]  # the rings show the next landing
    assert (2.0, -2.0) in drawn(board, "pieces") and (0.0, -2.0) not in drawn(board, "pieces")  # drawn on C3
    assert drawn(board, "jump so far") == [(0.0, -2.0), (2.0, -2.0)]
    pick(board, (2, 4))  # E3: no jump on from there, so the jump is played
    assert board.state.history == (claim.Jump((2, 0), ((2, 2), (2, 4))),)
    assert "is empty" not in board.status.text
    assert "Red: jumps from A3 over B3 to C3, then over D3 to E3" in board.status.text
    assert not board.jumping and board.selected is None and drawn(board, "jump so far") == []


def test_a_jump_ends_where_the_piece_stands_on_a_click_on_it_or_stop_and_undo_takes_a_landing_back():
    board = double_jump()
    pick(board, (2, 0))
    pick(board, (2, 2))
    assert not board.stop_button.disabled and "End the jump" in board.stop_button.tooltip
    board.undo()  # the landing is taken back: the piece is in hand on its starting point, nothing played
    assert board.landings == () and board.selected == (2, 0) and board.state.history == ()
    assert "The piece is back on A3: nothing was played." in board.status.text
    assert board.stop_button.disabled  # no series of captures to stop
    pick(board, (2, 2))
    pick(board, (2, 2))  # a click on the landed piece ends the jump there
    assert board.state.history == (claim.Jump((2, 0), ((2, 2),)),)
    board.undo()
    assert board.state.history == ()
    pick(board, (2, 0))
    pick(board, (2, 2))
    board.stop_button.click()  # Stop ends it there too
    assert board.state.history == (claim.Jump((2, 0), ((2, 2),)),)


def test_clicks_in_the_middle_of_a_jump_take_it_back_explain_or_take_up_another_piece():
    board = double_jump()
    pick(board, (2, 0))
    pick(board, (2, 2))
    pick(board, (0, 6))  # an empty point the piece cannot reach: explained, the jump still in hand
    assert board.jumping and "in the middle of its jump" in board.status.text and board.state.history == ()
    assert "Refused" not in board.status.text
    pick(board, (2, 0))  # its starting point: taken back, the piece still in hand
    assert not board.jumping and board.selected == (2, 0)
    assert "The piece is back on A3: nothing was played." in board.status.text
    two = Board(claim.from_diagram(f"players: red blue\nto-move: red\nphase: battle\n\n{LAND}\n\n{DOUBLE[:-1]}r\n"))
    pick(two, (2, 0))
    pick(two, (2, 2))
    pick(two, (4, 6))  # another red piece: the jump is let go and that piece taken up
    assert not two.jumping and two.selected == (4, 6) and two.state.history == ()
    assert "for the piece on G1" in two.status.text


def test_the_seeded_battles_double_jump_is_played_by_clicking_the_piece_then_each_landing():
    import random

    start = bots.play_until_battle(claim.new_game(players=2, seed=1), random.Random(1))
    move = claim.Jump((2, 1), ((4, 1), (4, 3)))
    assert move in claim.legal_moves(start) and start.turn == 0
    board = Board(start, seed=1, computer={1: "greedy"})
    pick(board, move.origin)
    for landing in move.path:
        assert board.state is start
        assert (float(landing[1]), float(-landing[0])) in drawn(board, "targets")  # ringed before the click
        pick(board, landing)
    assert board.state.history[len(start.history)] == move
    assert board.live.turn == 0 and len(board.live.history) == len(start.history) + 2  # and the computer answered


def test_the_boards_jumps_from_a_landing_are_the_engines():
    """jump_ends from a piece's own point lists exactly the engine's jumps of that piece, and every path it gives
    after a landing is one the engine plays, through that landing (random positions of seeded games)."""
    import random

    from rulebook.claim.widget import jump_ends

    checked = 0
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        state = bots.play_until_battle(claim.new_game(players=2, seed=seed), rng)
        for _ in range(30):
            if state.result is not None:
                break
            pieces = state.pieces(state.turn) if state.follow_up is None else (state.follow_up,)
            for piece in pieces:
                moves = claim.legal_moves(state)
                engine = {m.destination: m.path for m in moves if isinstance(m, claim.Jump) and m.origin == piece}
                assert jump_ends(state, piece) == engine
                for path in engine.values():
                    for end, longer in jump_ends(state, piece, path[:1]).items():
                        assert longer[0] == path[0] and longer[-1] == end
                        assert claim.check(state, claim.Jump(piece, longer)) is None
                        checked += 1
            state = claim.apply(state, bots.greedy_bot(state, rng))
    assert checked > 20


# --- the players panel (issue 26.4) -------------------------------------------------------------------------------


def _rows(board: Board) -> list[list[str]]:
    rows = re.findall(r"<tr class=\"rb-cl-player[^\"]*\">(.*?)</tr>", board.score_view.value, re.S)
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in rows]
    return [[html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in row] for row in cells]


def test_the_players_panel_counts_pieces_towers_and_territories_and_marks_the_player_to_move():
    state = claim.from_diagram(
        f"players: red blue\nto-move: red\nphase: battle\n\n{LAND}\n\nR...B..\nr...b..\n.r.....\n.......\n......b\n"
    )
    board = Board(state, computer={1: "greedy"})
    assert _rows(board) == [
        ["\u25b6", "\u25cf Red (you)", "2", "1", "a"],
        ["", "\u25a0 Blue (computer)", "2", "1", "b"],
    ]
    assert board.score_view.value.count("rb-cl-to-move") == 1 and "3 towers win." in board.score_view.value
    assert "rulebook-players" in board.score_view._dom_classes
    board.play(claim.Step((2, 1), (3, 1)))  # red moves, blue (the computer) answers: red is to move again
    assert _rows(board)[0][0] == "\u25b6" and len(board.state.history) == 2


def test_four_players_are_shown_by_side_with_the_towers_partners_share():
    board = Board(claim.new_game(players=4, seed=11), seed=11, computer={1: "greedy", 2: "greedy", 3: "random"})
    value = board.score_view.value
    assert "Red + Green: 0 of 5 towers together" in value and "Blue + Yellow: 0 of 5 towers together" in value
    assert [row[1] for row in _rows(board)] == [
        "\u25cf Red (you)",
        "\u25b2 Green (computer)",
        "\u25a0 Blue (computer)",
        "\u25c6 Yellow (computer)",
    ]
    assert [row[0] for row in _rows(board)] == ["\u25b6", "", "", ""]
    people = Board(claim.new_game(players=3, seed=1))  # everyone at one screen: no "you"
    assert [row[1] for row in _rows(people)] == ["\u25cf Red", "\u25a0 Blue", "\u25c6 Yellow"]


def test_the_hints_jump_told_as_one_move_is_played_by_clicking_the_points_it_names():
    """Seed 37's battle: the Hint says "jump from D7 to F7, then to H7"; the piece, F7 and H7 clicked in turn play
    exactly that jump (the second click used to play the jump to F7, and H7 then said "H7 is empty")."""
    import random

    start = bots.play_until_battle(claim.new_game(players=2, seed=37), random.Random(37))
    board = Board(start, seed=37, computer={1: "greedy"})
    hinted = board.hint()
    assert "Hint (strong computer player): jump from D7 to F7, then to H7." in board.status.text
    for point in (hinted.origin, *hinted.path):
        pick(board, point)
        assert "Refused" not in board.status.text and "is empty" not in board.status.text, board.status.text
    assert board.state.history[len(start.history)] == hinted
