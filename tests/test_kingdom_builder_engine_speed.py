"""The faster engine paths (issue 16.2) give exactly what the plain definitions give, on positions from random play:
cached build targets, the Tavern found from the player's settlements, moved settlements, the settlements list, the
State copy and the cached chance outcomes."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

from rulebook import core
from rulebook import kingdom_builder as kb
from rulebook.kingdom_builder import rules
from rulebook.kingdom_builder.rules import TERRAINS


def positions(seeds=range(4), players=(2, 4), configs=(kb.Config(), kb.Config(move_in_place=True))):
    for seed in seeds:
        for count, config in zip(players, configs):
            rng = random.Random(seed)
            state = kb.new_game(players=count, seed=seed, config=config)
            while kb.outcome(state) is None:
                state = core.advance(state, rng)
                if kb.outcome(state) is not None:
                    break
                yield state
                state = kb.apply(state, rng.choice(kb.legal_moves(state)))


def tavern_by_definition(state, player):
    """KB-C12.5 read literally: an empty buildable hex with 3 own settlements in a row beyond it in some direction."""
    geometry, board = state.geometry, state.board
    found = []
    for i in sorted(geometry.buildable):
        if board[i] >= 0:
            continue
        for d in range(6):
            a = geometry.steps[i][d]
            b = geometry.steps[a][d] if a >= 0 else -1
            c = geometry.steps[b][d] if b >= 0 else -1
            if c >= 0 and board[a] == board[b] == board[c] == player:
                found.append(i)
                break
    return tuple(found)


def test_fast_paths_agree_with_the_definitions_on_random_positions():
    checked = 0
    for state in list(positions())[::7]:
        geometry = state.geometry
        for player in range(state.players):
            own = [i for i, owner in enumerate(state.board) if owner == player]
            assert list(rules._owned(state.board, player)[0]) == own
            for terrain in TERRAINS:
                plain = rules._adjacent_choice(state, player, geometry.by_terrain[terrain])
                assert rules._terrain_targets(state, player, terrain) == plain
            edge = rules._adjacent_choice(state, player, (i for i in geometry.buildable if geometry.on_edge[i]))
            assert rules._terrain_targets(state, player, "edge") == edge
            if state.supply[player]:
                assert rules._tile_targets(state, player, "tavern") == tavern_by_definition(state, player)
            for origin in own[:6]:
                for terrain in ("water", "grass", "forest"):
                    plain = rules._adjacent_choice(state, player, geometry.by_terrain[terrain], origin)
                    assert rules._moved_targets(state, player, terrain, origin) == plain
            checked += 1
    assert checked > 100


def test_the_state_copy_and_the_chance_outcomes_are_the_plain_ones():
    state = kb.new_game(players=3, seed=2)
    copied = rules._replace(state, drawing=None, built=2)
    assert copied == dataclasses.replace(state, drawing=None, built=2) and state.built == 0
    try:
        rules._replace(state, colour="red")
    except TypeError as error:
        assert "colour" in str(error)
    else:
        raise AssertionError("an unknown field must be refused")
    # the deal: 25 cards, 5 of each terrain
    assert kb.chance_outcomes(state) == tuple((kb.CardDrawn(t), Fraction(5, 25)) for t in TERRAINS)
