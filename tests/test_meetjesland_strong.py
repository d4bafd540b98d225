"""The strong Meetjesland computer player (issue 16.1): legal, deterministic, what each of its rules does in a
written position, and stronger than the greedy player over a fixed set of games."""

from __future__ import annotations

import functools
import random

import pytest

from rulebook import meetjesland as mj
from rulebook import study
from rulebook.core import pick
from rulebook.meetjesland import bots
from tests.helpers import mj_playing

DEAL = mj.new_game(3, seed=0)
playing = functools.partial(mj_playing, players=3)


def test_the_strong_player_is_listed_with_the_others():
    assert {"random", "greedy", "strong"} <= set(bots.BOTS)


@pytest.mark.parametrize("seed", range(6))
def test_every_move_of_the_strong_player_is_legal_and_does_not_depend_on_the_generator(seed):
    state = mj.new_game(3, seed=seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if mj.outcome(state) is not None:
            break
        outcomes = mj.chance_outcomes(state)
        if outcomes:
            state = mj.apply(state, pick(outcomes, rng))
            continue
        move = bots.strong_player(state, random.Random(1))
        assert move == bots.strong_player(state, random.Random(2))  # the same move whatever the generator
        assert mj.check(state, move) is None
        state = mj.apply(state, move)
    assert mj.outcome(state) is not None


def test_it_attacks_only_with_good_odds_counting_the_mission():
    # White's mission in this deal: destroy Pink. Kaprijke (White, 4) borders four Black territories of 2 points:
    # 3 against 2 wins in 65.6 % (Osborne's table), enough for the greedy player (60 %), not for the strong one (80 %)
    assert DEAL.mission(0).destroy == 2
    around = {"bassevelde": (1, 2), "lembeke": (1, 2), "eeklo": (1, 2), "sint_laureins": (1, 2)}
    # no region to complete, and none whole for Black to lose (Pink holds Vinderhoute, out of White's reach)
    yellow = {"waarschoot": (1, 2), "lovendegem": (1, 2), "vinderhoute": (2, 2)}
    state = playing({"kaprijke": (0, 4), **around, **yellow})
    assert "vinderhoute" not in state.board.neighbours["kaprijke"]
    assert isinstance(bots.greedy_player(state, random.Random(0)), mj.Attack)
    assert bots.strong_player(state, random.Random(0)) == mj.Reinforce()
    assert "wins in 65.6 %" in bots.explain(state, mj.Reinforce())
    # with Vinderhoute Black's, Black holds all of yellow: Eeklo breaks it, 65.6 % + 15 % for holding Black back
    state = playing({"kaprijke": (0, 4), **around, **yellow, "vinderhoute": (1, 2)})
    move = bots.strong_player(state, random.Random(0))
    assert move == mj.Attack("kaprijke", "eeklo", 3)
    assert "It holds back Black." in bots.explain(state, move)
    # the same odds against a Pink territory serve the mission: 65.6 % + 20 % for the mission reaches 80 %
    state = playing({"kaprijke": (0, 4), **around, **yellow, "eeklo": (2, 2)})
    move = bots.strong_player(state, random.Random(0))
    assert move == mj.Attack("kaprijke", "eeklo", 3)
    assert bots.explain(state, move) == "Attack: 65.6 % to take Eeklo with 3 against 2. It serves your mission."


def test_it_brings_idle_points_to_the_front():
    # White holds every territory but Eeklo; Sleidinge, far from Eeklo, has 9 points to spare
    board = DEAL.board
    everything = {t: (0, 1) for t in board.territories}
    everything.update({"eeklo": (1, 1), "sleidinge": (0, 10)})
    # a turn of reinforcements moves no points (MJ-4.4) unless the table plays MJ-C11's option
    assert isinstance(bots.strong_player(playing(everything, stage="reinforce"), random.Random(0)), mj.EndTurn)
    state = playing(everything, stage="reinforce", config=mj.Config(move_and_reinforce=True))
    move = bots.strong_player(state, random.Random(0))
    distance = bots._front_distance(state)
    assert isinstance(move, mj.Fortify) and move.origin == "sleidinge" and move.points == 7  # MJ-5.9: 7 a turn
    assert distance[move.destination] == distance["sleidinge"] - 1
    assert "no enemy neighbour" in bots.explain(state, move)


def test_it_places_where_the_best_attack_is():
    state = playing({"kaprijke": (0, 2), "eeklo": (1, 1)}, to_place=5, stage="reinforce")
    move = bots.strong_player(state, random.Random(0))
    assert isinstance(move, mj.Place) and move.points == 5
    _, chance, attack = bots._strong_attack(state, extra=5)
    assert attack.origin == move.territory and chance > 0.9


def test_it_is_stronger_than_the_greedy_player_over_thirty_fixed_games():
    # one strong and two greedy players, seats rotated; the games are the same on every run (seeded), so this is
    # a fixed result, not a flaky one (a fair seat wins 10); issue 29.2's goal is 60 %: 18 of 30
    result = study.run("meetjesland", ("strong", "greedy", "greedy"), 30, workers=1)
    strong = result.rows()[0]
    assert strong["who"] == "strong" and strong["wins"] >= 18, result.table()
