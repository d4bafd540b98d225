"""Kingdom Builder's strong computer player (issue 16.1) and the reasons the Hint gives (issue 13.4)."""

from __future__ import annotations

import random

import pytest

from rulebook import core, study
from rulebook import kingdom_builder as kb
from rulebook.kingdom_builder import bots
from tests.soak import count


def test_strong_is_registered_plays_legal_moves_and_is_deterministic_for_a_given_rng():
    assert {"random", "greedy", "strong"} <= set(bots.BOTS)
    rng = random.Random(5)
    state = kb.new_game(players=2, seed=5)
    for _ in range(40):
        state = core.advance(state, rng)
        move = bots.strong_player(state, random.Random(9))
        assert move == bots.strong_player(state, random.Random(9))
        assert move in kb.legal_moves(state)
        state = kb.apply(state, move)


def test_the_evaluation_counts_the_score_and_each_tile_while_turns_remain():
    # Orange at (5,10) touches the paddock location at (5,11): one tile, 39 settlements left (13 turns)
    state = kb.position({(5, 10): 0}, hands=("grass", "forest"))
    assert len(state.tiles[0]) == 1
    value = bots.evaluate(state, 0)
    assert value.score == kb.score(state)[0]["total"]
    assert value.tiles == bots.MOVE_TILE_VALUE  # a Paddock, at full worth with 13 turns left
    assert value.total == value.score + value.tiles + value.locations


def test_explain_tells_the_gold_card_by_card_and_the_tiles():
    state = kb.position({(9, 9): 0}, hands=("grass", "forest"))
    # (9,8) is grassland on row 9: two settlements on the fullest row, Knights 2 -> 4
    text = bots.explain(state, kb.Build((9, 8)))
    assert "Knights +2" in text and "gold now" in text and "evaluation" in text
    # Orange at (3,7) has no grassland beside it, so any grassland hex will do: (7,7) touches a location
    tiled = kb.position({(3, 7): 0}, hands=("grass", "forest"))
    assert len(kb.apply(tiled, kb.Build((7, 7))).tiles[0]) == 1
    assert "takes 1 location tile" in bots.explain(tiled, kb.Build((7, 7)))
    assert "end the turn" in bots.explain(tiled, kb.EndTurn())


def test_strong_beats_greedy_in_a_small_study():
    # `make test` plays the study's first 2 games (about 3 s of CPU each: strong first, then greedy first), `make
    # soak` all 8 (the seeds and seats are the same: game i has seed 200 + i and the seats rotated by i, so the short
    # study is the long one's start)
    games = count(2, 8)
    result = study.run("kingdom_builder", ("strong", "greedy"), games, workers=1, seed=200)
    strong = result.rows()[0]
    # seeded, so a fixed result: 7 of 8 when issue 29.2's goal (80 %) was set (6 of 8 would be 75 %), the one loss
    # the second game (greedy first): 1 of the first 2, 3 of the first 4
    assert strong["who"] == "strong" and strong["wins"] >= {2: 1, 8: 7}[games], result.table()


def test_a_smaller_budget_is_a_level_and_bad_budgets_are_refused():
    quick = bots.make_strong_player(1)
    rng = random.Random(3)
    state = core.advance(kb.new_game(players=2, seed=3), rng)
    assert quick(state, random.Random(1)) in kb.legal_moves(state)
    with pytest.raises(ValueError, match="lookahead"):
        bots.make_strong_player(0)


def test_the_quick_level_plays_whole_games_legally_and_the_same_way_twice():
    first = study.play_game("kingdom_builder", ("quick", "greedy"), seed=3)
    assert first.finished and first == study.play_game("kingdom_builder", ("quick", "greedy"), seed=3)
    assert bots.BOTS["quick"] is not bots.BOTS["strong"]
