"""Random play over many seeds: every legal move applies, chance is exact, illegal moves change nothing,
save files and replay round-trip, and the invariants of the board hold at every step."""

from __future__ import annotations

import random

import pytest

from rulebook import meetjesland as mj
from rulebook.core import IllegalMove, check_distribution, pick
from rulebook.meetjesland import Attack, EndTurn, Fortify, Place, TradeCards
from rulebook.meetjesland.bots import greedy_player, play_game, random_player


def invariants(state: mj.State) -> None:
    assert min(state.points) >= 1 or state.battle is not None  # no territory is ever empty
    assert all(p >= 0 for p in state.points)
    cards = sorted(state.pile + sum(state.hands, ()))
    assert cards == sorted(mj.deck())  # cards are conserved between the pile and the hands
    for player in range(state.players):
        assert state.alive[player] == bool(state.territories_of(player)) or state.phase == "setup"


def crafted_illegal(state: mj.State):
    """Moves that must be refused here, whatever the position."""
    player = state.turn
    foreign = [t for t in state.board.territories if state.owner_of(t) != player]
    yield Place("atlantis", 1)
    if foreign:
        yield Place(foreign[0], 1)
        yield Fortify(foreign[0], foreign[0], 1)
    yield TradeCards(("not-a-card",))
    own = state.territories_of(player)
    if own:
        yield Attack(own[0], own[0], 1)


@pytest.mark.parametrize("seed", range(6))
def test_random_play(seed):
    rng = random.Random(seed)
    players = 3 + seed % 4
    state = mj.new_game(players, seed=seed)
    for step in range(600):
        invariants(state)
        outcomes = mj.chance_outcomes(state)
        if outcomes:
            check_distribution(outcomes)
            assert mj.legal_moves(state) == ()
            state = mj.apply(state, pick(outcomes, rng))
            continue
        if mj.outcome(state) is not None:
            assert mj.legal_moves(state) == ()
            break
        moves = mj.legal_moves(state)
        assert (
            moves
            and EndTurn() in moves
            or state.phase == "setup"
            or state.battle
            or state.to_place
            or len(state.hands[state.turn]) > 5
        )
        for bad in crafted_illegal(state):
            before = state
            with pytest.raises(IllegalMove) as caught:
                mj.apply(state, bad)
            assert caught.value.rule.startswith("MJ-") and state == before
        move = rng.choice(moves)
        assert mj.check(state, move) is None
        after = mj.apply(state, move)
        if not isinstance(move, (mj.Dice,)):
            lost = sum(state.points) - sum(after.points)
            # points only leave the board in battle: placing adds, moving and attacking keep the total
            stake = after.battle.stake if after.battle else 0
            assert lost == stake or lost <= 0 or isinstance(move, mj.Retreat)
        state = after
    assert mj.from_json(mj.to_json(state)) == state
    assert mj.replay(state) == state


def test_greedy_beats_random_in_most_four_player_games():
    wins = 0
    for seed in range(12):
        result = mj.outcome(play_game(4, seed, [greedy_player, random_player, random_player, random_player]))
        wins += result is not None and result.winners == (0,)
    assert wins >= 7  # a random seat would win about 3 of 12


def test_bot_games_finish_with_a_winner():
    state = play_game(5, 3, [greedy_player] * 5)
    result = mj.outcome(state)
    assert result is not None and len(result.winners) == 1
    assert mj.legal_moves(state) == () and mj.chance_outcomes(state) == ()
    assert mj.mission_done(state, result.winners[0]) or sum(state.alive) == 1


def test_legal_moves_equal_every_candidate_checked_on_its_own():
    """legal_moves decides each kind of move with one check; over many positions that gives exactly the moves
    that pass check one by one."""
    rng = random.Random(1)
    state, positions = mj.new_game(4, seed=3), 0
    while positions < 800:
        if mj.outcome(state) is not None:
            state = mj.new_game(4, seed=positions)
        outcomes = mj.chance_outcomes(state)
        if outcomes:
            state = mj.apply(state, pick(outcomes, rng))
            continue
        moves = mj.legal_moves(state)
        assert moves == tuple(m for m in mj.rules._candidates(state) if mj.check(state, m) is None)
        state = mj.apply(state, rng.choice(moves))
        positions += 1
