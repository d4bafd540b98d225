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


def moved_by_definition(state, player, terrain, lifted):
    """KB-6.3 for a settlement lifted from ``lifted`` (Barn, Harbor), read literally from the board: the free hexes of
    the terrain (its own hex too when the Config allows it, KB-C13) next to another own settlement, else all of them."""
    geometry, board = state.geometry, state.board
    free = [i for i in geometry.by_terrain[terrain] if board[i] < 0 or (i == lifted and state.config.move_in_place)]
    near = [i for i in free if any(board[n] == player and n != lifted for n in geometry.neighbours[i])]
    return tuple(near or free)


def test_moved_settlements_and_the_board_facts_agree_with_the_definitions():
    checked = 0
    for state in list(positions())[3::7]:
        geometry, board = state.geometry, state.board
        for player in range(state.players):
            own = [i for i, owner in enumerate(board) if owner == player]
            beside = {n for i in own for n in geometry.neighbours[i]}
            assert rules._owned(board, player) == (tuple(own), frozenset(beside))
            for terrain in TERRAINS + ("water",):
                free = tuple(i for i in geometry.by_terrain[terrain] if board[i] < 0)
                assert rules._free(rules._facts(board), geometry, terrain) == free
                for origin in own[:8]:
                    expected = moved_by_definition(state, player, terrain, origin)
                    assert rules._moved_targets(state, player, terrain, origin) == expected
            checked += 1
    assert checked > 100


def test_games_play_the_same_without_the_board_facts_carried_from_move_to_move():
    """The facts of a new board are started from the previous board's (_seed_facts); the same games played with every
    cache emptied before each step give equal states and the same legal moves."""
    for seed, players, config in ((5, 2, kb.Config()), (6, 3, kb.Config(move_in_place=True, tile_loss="end_of_turn"))):
        rng = random.Random(seed)
        state = kb.new_game(players=players, seed=seed, config=config)
        while kb.outcome(state) is None:
            moves = kb.legal_moves(state)
            move = core.pick(kb.chance_outcomes(state), rng) if not moves else rng.choice(moves)
            after = kb.apply(state, move)
            seeded = kb.legal_moves(after), [rules._build_targets(after, p) for p in range(players)]
            rules._FACTS.clear()
            rules._GEOMETRIES.clear()
            fresh = kb.apply(state, move)
            assert fresh == after
            rules._FACTS.clear()
            assert (kb.legal_moves(fresh), [rules._build_targets(fresh, p) for p in range(players)]) == seeded
            state = after
        assert kb.outcome(state) is not None


def test_the_assembled_board_agrees_with_the_definitions():
    state = kb.new_game(players=2, seed=11)
    geometry = state.geometry
    terrain = geometry.terrain
    specials = {i for i in range(rules.HEXES) if geometry.location[i] or terrain[i] == "castle"}
    for i in range(rules.HEXES):
        around = geometry.neighbours[i]
        assert geometry.near_water[i] == any(terrain[n] == "water" for n in around)
        assert geometry.near_mountain[i] == any(terrain[n] == "mountain" for n in around)
        assert geometry.near_special[i] == any(n in specials for n in around)
        assert geometry.near_locations[i] == tuple(n for n in around if geometry.location[n])
    for kind in set(terrain):
        assert geometry.by_terrain[kind] == tuple(i for i in range(rules.HEXES) if terrain[i] == kind)
    assert geometry.castles == tuple(i for i in range(rules.HEXES) if terrain[i] == "castle")
    assert geometry.buildable == {i for i in range(rules.HEXES) if terrain[i] in TERRAINS}
    # the board is found by the sections' identity, and an equal tuple of sections finds an equal board
    copied = tuple((name, turned) for name, turned in state.sections)
    assert copied is not state.sections and rules._geometry(copied) is rules.board_for(copied) is geometry
