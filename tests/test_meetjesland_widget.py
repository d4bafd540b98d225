"""The live board without a browser: clicks and buttons reach the engine, refusals show the rule id."""

from __future__ import annotations

import pytest

from rulebook import meetjesland as mj
from rulebook.meetjesland.widget import Board


def after_setup(computer=(1, 2, 3)) -> Board:
    table = Board(mj.new_game(players=4, seed=1), seed=1, computer=computer)
    table.auto_button.click()
    assert table.state.phase == "play" and table.state.turn == 0
    return table


def test_setup_by_clicks_and_place_button():
    table = Board(mj.new_game(players=4, seed=2), seed=2)
    own = table.state.territories_of(0)[0]
    left = table.state.to_place
    table.select(own)
    assert table.origin_menu.value == own
    table.amount.value = 2
    table.place_button.click()
    assert table.state.points_on(own) == 4 and table.state.to_place == left - 2
    assert "place 2 on" in table.status.text


def test_refused_move_shows_the_rule_not_a_traceback():
    table = after_setup()
    foreign = next(t for t in table.state.board.territories if table.state.owner_of(t) != 0)
    before = table.state
    table.origin_menu.value = foreign
    table.place_button.click()
    assert table.state == before
    assert "Refused by MJ-5.4" in table.status.text or "Refused by MJ-4.1" in table.status.text


def test_attack_with_clicks_and_roll_to_the_end():
    table = after_setup()
    state = table.state
    origin, target = next(
        (o, t)
        for o in state.territories_of(0)
        for t in state.board.neighbours[o]
        if state.owner_of(t) != 0 and state.points_on(o) >= 2
    )
    table.select(origin)
    table.select(target)
    assert (table.origin, table.target) == (origin, target)
    rings = list(table.figure.data[4].marker.size)
    assert rings[state.board.index[origin]] > 0 and rings[state.board.index[target]] > 0  # highlighted
    table.stake.value = table.stake.max
    assert "Chance to conquer" in table.odds.value
    table.attack_button.click()
    assert table.state.last_dice is not None or table.state.battle is None
    assert "Dice" in table.dice.value
    table.blitz_button.click()
    assert table.state.battle is None
    assert any(isinstance(m, mj.Attack) for m in table.state.history)


def test_undo_reinforce_and_end_turn_lets_computers_play():
    table = after_setup()
    history = len(table.state.history)
    table.reinforce_button.click()
    assert table.state.stage == "reinforce" and table.state.to_place >= 3
    table.undo_button.click()
    assert len(table.state.history) == history and table.state.stage == "start"
    table.reinforce_button.click()
    own = table.state.territories_of(0)[0]
    table.select(own)
    table.amount.value = table.state.to_place
    table.place_button.click()
    table.end_button.click()
    assert table.state.turn == 0 or mj.outcome(table.state) is not None  # three computer turns were played
    assert len(table.state.history) > history + 3
    assert "move log" not in table.move_log.value and "<li" in table.move_log.value


def test_map_shows_owner_and_points():
    table = after_setup()
    trace = table.figure.data[5]
    assert list(trace.text) == [str(p) for p in table.state.points]
    assert len(set(trace.marker.symbol)) == 4


def test_a_person_plays_a_whole_game_through_the_board():
    """Seat 0 is driven through the widget (moves chosen like the greedy player would); the rest are computers."""
    import random

    from rulebook.meetjesland.bots import greedy_player

    table = Board(mj.new_game(players=4, seed=5), seed=5, computer=(1, 2, 3))
    table.auto_button.click()
    chooser = random.Random(0)
    for _ in range(3000):
        if mj.outcome(table.state) is not None:
            break
        assert table.state.player == 0
        assert table.play(greedy_player(table.state, chooser)), table.status.text
    result = mj.outcome(table.state)
    assert result is not None
    assert "Game over" in table.status.text and all(b.disabled for b in (table.attack_button, table.end_button))


def test_territory_names_are_placed_next_to_their_point_without_covering_each_other():
    from rulebook.meetjesland.widget import place_names

    board = mj.load_board()
    graph = board.graph
    xs = [graph.nodes[t]["x"] for t in board.territories]
    ys = [graph.nodes[t]["y"] for t in board.territories]
    names = [board.name(t) for t in board.territories]
    name_xs, name_ys = place_names(xs, ys, names, width=570, height=550)
    scale = min(570 / (max(xs) - min(xs)), 550 / (max(ys) - min(ys))) * 0.92  # px per km, as drawn
    boxes = [
        (x * scale, y * scale, (0.56 * 9 * len(name) + 4) / 2, 13 / 2) for x, y, name in zip(name_xs, name_ys, names)
    ]
    for i, (x, y, half_w, half_h) in enumerate(boxes):
        # next to its own point: the box's nearest edge is at most a marker's width from the point
        gap_x = max(abs(x - xs[i] * scale) - half_w, 0)
        gap_y = max(abs(y - ys[i] * scale) - half_h, 0)
        assert gap_x <= 22 and gap_y <= 22, names[i]
    clashes = [
        (names[i], names[j])
        for i in range(len(boxes))
        for j in range(i + 1, len(boxes))
        if abs(boxes[i][0] - boxes[j][0]) < boxes[i][2] + boxes[j][2] - 2
        and abs(boxes[i][1] - boxes[j][1]) < boxes[i][3] + boxes[j][3] - 2
    ]
    assert clashes == []


def test_a_lone_name_goes_below_its_point():
    from rulebook.meetjesland.widget import place_names

    name_xs, name_ys = place_names([3.0], [4.0], ["Eeklo"], width=500, height=500)
    assert name_xs == [3.0] and name_ys[0] < 4.0


@pytest.mark.parametrize(
    "attacker, defender, says",
    [  # counted by hand: highest against highest, then second against second; a tie goes to the defender
        ((2,), (4, 3), "The attacker loses 1."),
        ((6, 5, 1), (5, 2), "The defender loses 2."),
        ((6, 2), (5, 2), "The attacker loses 1 and the defender loses 1 (a tie goes to the defender)."),
        ((3,), (3,), "The attacker loses 1 (a tie goes to the defender)."),
    ],
)
def test_the_dice_line_says_what_the_roll_cost(attacker, defender, says):
    from rulebook.meetjesland.widget import dice_html

    assert dice_html(mj.Dice(attacker, defender)).endswith(f"{says}</span>")
