"""Claim's board takes a click as a point (issue 24.10): anything but a (row, column) pair of whole numbers on the
island is refused in the status line, with the game as it was; ``click_point((1.5, 2))`` raised TypeError."""

from __future__ import annotations

import random

import pytest

from rulebook import claim
from rulebook.claim.widget import Board


def _battle() -> claim.State:
    state, rng = claim.new_game(2, 1), random.Random(1)
    while state.phase != "battle":
        state = claim.apply(state, rng.choice(claim.legal_moves(state)))
    return state


POSITIONS = {"placement": lambda: claim.new_game(2, 1), "battle": _battle}
NOT_POINTS = [(1.5, 2), ("a", 2), (1,), (1, 2, 3), "C5", 5, (True, 2), (float("nan"), 1), {"row": 1}, "<b>x</b>"]


@pytest.mark.parametrize("phase", sorted(POSITIONS))
@pytest.mark.parametrize("point", NOT_POINTS, ids=repr)
def test_a_click_that_names_no_point_is_refused_in_the_status_line(phase, point):
    board = Board(POSITIONS[phase]())
    before, states, selected = board.live, list(board.states), board.selected
    board.click_point(point)
    assert board.live is before and board.states == states and board.selected == selected
    assert board.message_kind == "error" and board.message.startswith("Not a point:"), board.message
    assert "Not a point" in board.status.text
    assert "<b>x" not in board.status.value  # the text clicked is escaped in the status line


@pytest.mark.parametrize("phase", sorted(POSITIONS))
@pytest.mark.parametrize("point", [(10**6, 3), (-1, 0), (2**80, 1)], ids=repr)
def test_a_click_off_the_island_names_the_rule(phase, point):
    board = Board(POSITIONS[phase]())
    before = board.live
    board.click_point(point)
    assert board.live is before and "is not a point of the island (CL-4.2)" in board.message, board.message
    assert len(board.message) < 120


def test_a_point_of_the_island_is_still_played_from_a_list_or_a_tuple():
    board = Board(claim.new_game(2, 1))
    point = board.live.island.points[0]
    board.click_point(list(point))
    assert len(board.states) == 2 and board.message_kind == "info"
