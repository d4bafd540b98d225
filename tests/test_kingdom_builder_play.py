"""Kingdom Builder random play, save files, odds against an independent enumeration, and the computer players."""

from __future__ import annotations

import dataclasses
import json
import random
from fractions import Fraction

import pytest

from rulebook import core
from rulebook import kingdom_builder as kb
from rulebook.core import IllegalMove
from rulebook.kingdom_builder import bench, bots, odds
from rulebook.kingdom_builder.rules import TERRAINS
from tests.helpers import KB_FIRST as FIRST
from tests.helpers import kb_diagram as diagram

CONFIGS = (kb.Config(), kb.Config(tile_loss="end_of_turn", move_in_place=True, lords_zero_scores=True))


def invariants(state: kb.State) -> None:
    graph_terrain = state.geometry.terrain
    for terrain_index in range(len(TERRAINS)):
        in_hands = sum(card == TERRAINS[terrain_index] for card in state.hands)
        assert state.pile[terrain_index] + state.discard[terrain_index] + state.removed[terrain_index] + in_hands == 5
    for player in range(state.players):
        assert state.supply[player] + state.board.count(player) == kb.SETTLEMENTS
        assert state.supply[player] >= 0
        for tile in state.tiles[player]:
            assert (player, tile.location) in state.taken
            if state.config.tile_loss == "immediate":
                assert any(state.board[n] == player for n in state.geometry.neighbours[tile.location])
    for index, owner in enumerate(state.board):
        if owner >= 0:
            assert graph_terrain[index] in TERRAINS or graph_terrain[index] == "water"
    held = {}
    for player in range(state.players):
        for tile in state.tiles[player]:
            held[tile.location] = held.get(tile.location, 0) + 1
    for location, left in state.tiles_left:
        assert 0 <= left and left + held.get(location, 0) <= 2


def crafted_illegal(state: kb.State) -> list:
    """Moves that must be refused here: building on a taken hex, on a mountain, with an absent tile."""
    moves = []
    taken = [i for i, owner in enumerate(state.board) if owner >= 0]
    if taken:
        moves.append(kb.Build(divmod(taken[0], 20)))
    mountain = state.geometry.by_terrain.get("mountain", ())
    if mountain:
        moves.append(kb.Build(divmod(mountain[0], 20)))
    held = {tile.kind for tile in state.tiles[state.player]}
    for kind in kb.LOCATIONS:
        if kind not in held:
            moves.append(kb.UseTile(kind, (0, 0), None if kind not in ("barn", "harbor", "paddock") else (0, 1)))
            break
    return moves


@pytest.mark.parametrize("seed", range(9))
def test_random_play_keeps_every_rule_and_round_trips(seed: int):
    players = 2 + seed % 3
    rng = random.Random(seed)
    state = kb.new_game(players=players, seed=seed, config=CONFIGS[seed % 2])
    start = state
    checkpoints = []
    while kb.outcome(state) is None:
        invariants(state)
        outcomes = kb.chance_outcomes(state)
        if outcomes:
            assert state.player is None and kb.legal_moves(state) == ()
            assert sum(p for _, p in outcomes) == 1 and all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
            state = kb.apply(state, core.pick(outcomes, rng))
            continue
        moves = kb.legal_moves(state)
        assert moves and len(set(moves)) == len(moves)
        for move in rng.sample(moves, min(8, len(moves))):
            assert kb.check(state, move) is None
        for move in crafted_illegal(state):
            if move in moves:
                continue
            before = state
            error = kb.check(state, move)
            assert isinstance(error, IllegalMove) and error.rule.startswith("KB-")
            with pytest.raises(IllegalMove):
                kb.apply(state, move)
            assert state == before
        if rng.random() < 0.02:
            checkpoints.append(state)
        state = kb.apply(state, rng.choice(moves))
    invariants(state)
    assert kb.legal_moves(state) == () and kb.chance_outcomes(state) == ()
    assert len(set(state.turns)) == 1 and 0 in state.supply
    result = kb.outcome(state)
    totals = [kb.score(state)[p]["total"] for p in range(players)]
    assert result.scores == tuple(totals)
    assert result.winners == tuple(p for p, t in enumerate(totals) if t == max(totals))
    assert core.replay(start, state.history, kb.apply) == state
    for position in checkpoints + [state]:
        assert kb.from_json(kb.to_json(position)) == position


def test_to_json_rejects_bad_text():
    state = core.advance(kb.new_game(players=2, seed=3), random.Random(3))
    text = kb.to_json(state)
    data = json.loads(text)
    with pytest.raises(ValueError, match="not a saved game"):
        kb.from_json("{nope")
    with pytest.raises(ValueError, match="not 'kingdom_builder'"):
        kb.from_json(text.replace("kingdom_builder", "claim"))
    broken = dict(data, history=data["history"] + [{"move": "Build", "hex": [3, 3]}])
    with pytest.raises(ValueError, match=r"history\[2\]"):
        kb.from_json(json.dumps(broken))
    bad_card = dict(data, history=[{"move": "CardDrawn", "terrain": "lava"}])
    with pytest.raises(ValueError, match="lava"):
        kb.from_json(json.dumps(bad_card))
    bad_setup = dict(data, setup=dict(data["setup"], sections=[["tavern", False]] * 4))
    with pytest.raises(ValueError, match="only once"):
        kb.from_json(json.dumps(bad_setup))
    with pytest.raises(ValueError, match="not a hex"):
        kb.apply(state, kb.Build((20, 3)))
    assert "not a hex" in str(kb.check(state, kb.Build((20, 3))))  # returned, not raised (issue 48.6)


def test_json_from_a_diagram_position_replays():
    state = kb.from_diagram(diagram({(5, 10): 0}), hands=("grass", "forest"))
    state = kb.apply(state, kb.UseTile("paddock", (7, 11), (5, 10)))
    assert kb.from_json(kb.to_json(state)) == state


# --- odds --------------------------------------------------------------------------------------------


def enumerate_draws(pile, discard, hands, order, player, terrain, draws):
    """Independent brute force: every ordering of the pile, reshuffles as every ordering of the discards."""

    def walk(pile, discard, hands, step, left):
        if left == 0 or step == len(order):
            return Fraction(0)
        drawer, discards = order[step]
        hands, discard = list(hands), list(discard)
        if discards and hands[drawer] is not None:
            discard.append(hands[drawer])
            hands[drawer] = None
        if not pile:
            pile, discard = discard, []
        if not pile:
            return walk(pile, discard, hands, step + 1, left - (drawer == player))
        total = Fraction(0)
        for position in range(len(pile)):  # each physical card equally likely
            card = pile[position]
            if drawer == player and card == terrain:
                total += Fraction(1, len(pile))
                continue
            rest = pile[:position] + pile[position + 1 :]
            new_hands = hands[:]
            new_hands[drawer] = card
            total += Fraction(1, len(pile)) * walk(rest, discard, new_hands, step + 1, left - (drawer == player))
        return total

    return walk(list(pile), list(discard), list(hands), 0, draws)


def test_terrain_within_matches_brute_force_with_a_reshuffle():
    state = kb.from_diagram(diagram({}, FIRST, 2), hands=("grass", "forest"))
    # A late pile: 1 grass and 2 desert left, 19 discards; player 0's third card comes from the reshuffled discards.
    state = dataclasses.replace(state, pile=(1, 0, 2, 0, 0), discard=(3, 5, 3, 5, 3), removed=(0,) * 5)
    pile = ["grass"] + ["desert"] * 2
    discard = ["grass"] * 3 + ["canyon"] * 5 + ["desert"] * 3 + ["flower"] * 5 + ["forest"] * 3
    order = [(0, True), (1, True)] * 4
    for terrain in ("grass", "canyon", "desert"):
        for draws in (1, 2, 3):
            expected = enumerate_draws(pile, discard, ["grass", "forest"], order, 0, terrain, draws)
            assert odds.terrain_within(state, 0, terrain, draws, viewer=None) == expected, (terrain, draws)
    two, three = (odds.terrain_within(state, 0, "canyon", k, viewer=None) for k in (2, 3))
    assert two == 0 < three


def test_terrain_within_small_deck_brute_force_over_all_orders():
    state = kb.from_diagram(diagram({}, FIRST, 2), hands=("grass", "canyon"))
    state = dataclasses.replace(state, pile=(0, 0, 1, 1, 0), discard=(1, 0, 0, 0, 1), removed=(3, 4, 4, 4, 4))
    order = [(0, True), (1, True), (0, True), (1, True), (0, True), (1, True), (0, True)]
    for terrain in TERRAINS:
        for draws in range(1, 5):
            expected = enumerate_draws(
                ["desert", "flower"], ["grass", "forest"], ["grass", "canyon"], order + order, 0, terrain, draws
            )
            assert odds.terrain_within(state, 0, terrain, draws, viewer=None) == expected, (terrain, draws)


def test_next_card_odds_and_legal_hexes_by_terrain():
    state = kb.from_diagram(diagram({(9, 9): 0}), hands=("grass", "forest"))
    assert odds.next_card_odds(state, viewer=None) == {
        "grass": Fraction(4, 23),
        "canyon": Fraction(5, 23),
        "desert": Fraction(5, 23),
        "flower": Fraction(5, 23),
        "forest": Fraction(4, 23),
    }
    counts = odds.legal_hexes_by_terrain(state, 0)
    # (9,9) touches grass (9,8) (9,10) (8,9) (8,10) (10,9) and desert (10,10); no canyon, flower or forest.
    assert counts["grass"] == 5 and counts["desert"] == 1 and counts["forest"] == 58


# --- bots and bench -------------------------------------------------------------------------------------


def test_greedy_beats_random():
    records = bots.tournament(("greedy", "random"), games=8, seed=11)
    wins = {name: sum(r["won"] for r in records if r["bot"] == name) for name in ("greedy", "random")}
    assert wins["greedy"] >= 6, wins
    for game in range(8):
        turns = {r["turns"] for r in records if r["game"] == game}
        assert len(turns) == 1  # everyone had the same number of turns (KB-9.1)


def test_bench_reports_positive_figures():
    """The report's shape on a tiny run; the strong player's figures (seconds of strong moves, for a wins count and
    two times) only in `make soak`: its strength is tested in test_kingdom_builder_strong.py."""
    from rulebook import study
    from tests.soak import count

    strong_games = count(0, 2)
    figures = bench.bench(games=1, strong_games=strong_games, study=study.run)
    assert set(figures) >= {"random_games_per_second_2p", "random_games_per_second_4p", "legal_moves_microseconds"}
    if strong_games:
        wins = figures.pop("strong_wins_against_greedy_of_2")
        assert wins in (0, 1, 2)
        assert figures["strong_move_cpu_seconds_max"] >= figures["strong_move_cpu_seconds_median"]
    else:
        assert not [name for name in figures if name.startswith("strong")]
    assert all(value > 0 for value in figures.values())


def test_brute_force_sanity_by_hand():
    # One draw from {grass, desert}: 1/2. Two draws for player 0 from {grass, desert, flower} with player 1
    # drawing in between: no grass for player 0 = (2/3)(1/2) -> grass with 2/3.
    assert enumerate_draws(["grass", "desert"], [], ["flower", "forest"], [(0, True)], 0, "grass", 1) == Fraction(1, 2)
    order = [(0, True), (1, True), (0, True)]
    assert enumerate_draws(["grass", "desert", "flower"], [], [None, None], order, 0, "grass", 2) == Fraction(2, 3)
