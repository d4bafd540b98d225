"""The faster engine paths of Meetjesland (issue 16.2) decide exactly what the plain rules decide: legal moves
built per kind against every candidate checked on its own, regions and colour bonus against their definitions,
and a malformed roll refused as before."""

from __future__ import annotations

import random

import pytest

from rulebook import meetjesland as mj
from rulebook.core import IllegalMove, pick
from rulebook.meetjesland import bots, rules


def positions(players: int, seed: int, config: mj.Config | None = None, count: int = 400):
    """Positions of a game between the strong and greedy players (they reach trades, conquests and moves)."""
    state = mj.new_game(players, seed=seed, config=config)
    rng = random.Random(seed)
    seats = [bots.strong_player, bots.greedy_player, bots.random_player] * 2
    seen = 0
    while seen < count and mj.outcome(state) is None:
        outcomes = mj.chance_outcomes(state)
        if outcomes:
            state = mj.apply(state, pick(outcomes, rng))
            continue
        yield state
        seen += 1
        state = mj.apply(state, seats[state.turn](state, rng))


@pytest.mark.parametrize(
    ("players", "seed", "config"),
    [(3, 1, None), (5, 2, None), (4, 3, mj.Config(trade_down=True, hand_limit=3)), (6, 4, mj.Config(move_limit=2))],
)
def test_legal_moves_are_every_candidate_that_passes_check(players, seed, config):
    kinds = set()
    for state in positions(players, seed, config):
        moves = mj.legal_moves(state)
        assert moves == tuple(m for m in rules._candidates(state) if mj.check(state, m) is None)
        kinds |= {type(m).__name__ for m in moves}
    assert {"Attack", "Fortify", "Reinforce", "EndTurn", "Place"} <= kinds


def test_regions_and_colour_bonus_match_their_definitions():
    for state in positions(3, 5):
        board = state.board
        for player in range(state.players):
            held = set(state.territories_of(player))
            whole = tuple(r for r, members in board.regions.items() if held.issuperset(members))
            assert mj.whole_regions(state, player) == whole
            bonus = sum(board.number(t) for t in held) if whole else 0
            assert mj.colour_bonus(state, player) == bonus


def test_a_roll_with_malformed_faces_is_refused_not_crashed():
    state = mj.arrange(mj.new_game(4, seed=0), {"kaprijke": (0, 5), "eeklo": (1, 2)}, to_place=0, stage="start")
    state = mj.apply(state, mj.Attack("kaprijke", "eeklo", 3))
    with pytest.raises(IllegalMove):
        mj.apply(state, mj.Dice(([6], [5], [4]), (1, 1)))
    with pytest.raises(IllegalMove):
        mj.apply(state, mj.Dice((7, 5, 4), (1, 1)))
    taken = mj.apply(state, mj.Dice((6, 5, 4), (1, 1)))  # both defenders fall: 3 points move in (MJ-5.7)
    assert taken.owner_of("eeklo") == 0 and taken.points_on("eeklo") == 3


def test_the_engine_keeps_states_immutable_and_equal_to_their_replay():
    state = None
    for state in positions(4, 6, count=300):
        pass
    assert state is not None and mj.replay(state) == state
    with pytest.raises(TypeError):
        rules._evolve(state, no_such_field=1)
    with pytest.raises(AttributeError):
        state.turn = 2
