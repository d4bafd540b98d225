"""The Claim engine keeps, beside each state's fields, what it works out from them (the island, the seats of the
letters, the pieces of each row) and hands it on to the states made from it.  A state built afresh from the same
fields, with nothing kept, must answer every question the same way, move after move."""

from __future__ import annotations

import dataclasses
import random

from rulebook import claim
from rulebook.claim import rules


def fresh(state: claim.State) -> claim.State:
    return claim.State(**{field.name: getattr(state, field.name) for field in dataclasses.fields(state)})


def test_states_made_by_the_engine_answer_as_fresh_ones_do():
    for players, seed in ((2, 5), (3, 6), (4, 7)):
        state = claim.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        checked = 0
        while state.result is None and checked < 400:
            again = fresh(state)
            assert again == state and "_rows_cache" not in again.__dict__
            assert claim.legal_moves(state) == claim.legal_moves(again)
            for player in range(players):
                assert state.pieces(player) == again.pieces(player)
                assert state.towers(player) == again.towers(player)
                assert claim.conquerable(state, player) == claim.conquerable(again, player)
            for letter in state.island.letters:
                assert state.tower_owner(letter) == again.tower_owner(letter)
            state = claim.apply(state, rng.choice(claim.legal_moves(state)))
            checked += 1


def test_a_piece_list_follows_the_grid_row_by_row():
    # red on A5 and C5 and a tower on B4, blue on G1: rows are listed top to bottom, columns left to right
    land = "\n".join(["aaaabbb"] * 5)
    state = claim.from_diagram(
        f"players: red blue\nto-move: red\nphase: battle\n\n{land}\n\nr.r....\n.R.....\n.......\n.......\n......b\n"
    )
    assert state.pieces(0) == ((0, 0), (0, 2)) and state.towers(0) == ((1, 1),) and state.pieces(1) == ((4, 6),)
    moved = claim.apply(state, claim.Step((0, 2), (0, 3)))
    assert moved.pieces(0) == ((0, 0), (0, 3)) and state.pieces(0) == ((0, 0), (0, 2))  # the old state unchanged
    # the jump chains' landing points never sit next to the origin: a jump moves two rows or two columns
    for origin in [(0, 0), (2, 2), (4, 6)]:
        for landing in rules._jump_destinations(moved, origin):
            assert abs(landing[0] - origin[0]) % 2 == 0 and abs(landing[1] - origin[1]) % 2 == 0
