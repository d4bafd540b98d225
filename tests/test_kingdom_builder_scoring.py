"""Kingdom Builder scoring (KB-9.2, KB-9.3, KB-C16.x, KB-C17) from hand-counted positions, and the text diagrams."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from rulebook import core
from rulebook import kingdom_builder as kb
from rulebook.kingdom_builder import bots
from tests.helpers import KB_FIRST as FIRST
from tests.helpers import kb_diagram as diagram


def gold(settlements: dict, card: str, players: int = 2, **options) -> tuple[int, ...]:
    state = kb.from_diagram(diagram(settlements, FIRST, players), **options)
    return kb.card_scores(state, card)


def test_KB_C16_1_fishermen_next_to_water_but_not_on_it():
    # (3,2) touches water (3,1); (0,14) touches water (0,15); (0,8) is dry; (3,0) stands on water.
    assert gold({(3, 2): 0, (0, 14): 0, (0, 8): 0, (3, 0): 0}, "fishermen") == (2, 0)


def test_KB_C16_2_merchants_link_locations_and_castles():
    chain = {(6, 8): 0, (6, 9): 0, (6, 10): 0}  # from the tavern hex (6,7) to the paddock hex (6,11)
    assert gold(chain, "merchants") == (8, 0)
    assert gold({(6, 8): 0, (6, 10): 0}, "merchants") == (0, 0)  # the chain is broken at (6,9)
    assert gold({**chain, (2, 3): 0, (6, 9): 1}, "merchants") == (0, 0)  # another player's piece breaks it
    # (6,3) touches the tavern (6,2); going up by water hexes (5,3) (4,3) it reaches the castle (3,3).
    assert gold({**chain, (6, 3): 0, (5, 3): 0, (4, 3): 0}, "merchants") == (16, 0)


def test_KB_C16_3_discoverers_count_rows():
    assert gold({(0, 8): 0, (0, 9): 0, (5, 5): 0, (9, 9): 0, (9, 10): 1}, "discoverers") == (3, 1)


def test_KB_C16_4_hermits_count_areas():
    assert gold({(9, 9): 0, (9, 10): 0, (0, 8): 0, (12, 0): 0, (8, 9): 1, (8, 11): 1}, "hermits") == (3, 2)
    assert gold({}, "hermits") == (0, 0)


def test_KB_C16_5_citizens_half_the_largest_area():
    area = {(9, 7): 0, (9, 8): 0, (9, 9): 0, (9, 10): 0, (8, 9): 0}  # five joined hexes
    assert gold({**area, (0, 8): 0, (0, 11): 1}, "citizens") == (2, 0)
    assert gold({**area, (8, 10): 0, (8, 11): 0}, "citizens") == (3, 0)


def test_KB_C16_6_miners_next_to_mountains():
    assert gold({(1, 4): 0, (0, 2): 0, (9, 9): 0}, "miners") == (2, 0)


def test_KB_C16_7_workers_next_to_locations_or_castles():
    assert gold({(7, 6): 0, (2, 3): 0, (9, 9): 0, (7, 7): 1}, "workers") == (2, 1)


def test_KB_C16_8_knights_twice_the_best_row():
    assert gold({(0, 8): 0, (0, 9): 0, (0, 12): 0, (5, 5): 0, (5, 6): 0, (9, 9): 1}, "knights") == (6, 2)


def test_KB_C16_9_KB_C17_lords_twelve_and_six_per_sector():
    tie = {(9, 7): 0, (9, 8): 0, (9, 9): 1, (9, 6): 1, (8, 7): 2, (8, 8): 2}
    assert gold(tie, "lords", players=3) == (12, 12, 12)  # 2, 2 and 2 in sector 0: everyone is first
    # 8, 8, 6 in sector 0: the next distinct count after the tied first still earns 6.
    terrain = kb.board_graph(kb.FIRST_GAME_SECTIONS).nodes
    hexes = [(r, c) for r in range(5, 10) for c in range(10) if terrain[(r, c)]["terrain"] in kb.TERRAINS]
    owners = [0] * 8 + [1] * 8 + [2] * 6 + [3] * 2
    assert gold(dict(zip(hexes, owners)), "lords", players=4) == (12, 12, 6, 0)
    # Zero counts: player 0 alone in sector 0; other sectors empty.
    assert gold({(9, 9): 0}, "lords", players=3) == (12, 0, 0)
    assert gold({(9, 9): 0}, "lords", players=3, config=kb.Config(lords_zero_scores=True)) == (12 + 36, 6 + 36, 6 + 36)


def test_KB_C16_10_farmers_three_times_the_weakest_sector():
    one_each = {(9, 9): 0, (9, 15): 0, (15, 9): 0, (16, 15): 0, (0, 8): 0}
    assert gold(one_each, "farmers") == (3, 0)
    assert gold({(9, 9): 0, (9, 15): 0, (15, 9): 0}, "farmers") == (0, 0)


def test_KB_5_4_KB_9_3_castles_three_gold_each_for_every_player_next_to_one():
    state = kb.from_diagram(diagram({(2, 3): 0, (4, 4): 1, (6, 15): 0, (0, 0): 1}))
    # (2,3) and (4,4) both touch the castle (3,3); (6,15) touches the castle (7,15).
    assert kb.castle_scores(state) == (6, 3)


def test_KB_9_2_score_table_adds_the_three_cards_and_the_castles():
    state = kb.from_diagram(diagram({(3, 2): 0, (0, 14): 0, (6, 8): 0, (6, 9): 0, (6, 10): 0, (2, 3): 0}))
    table = kb.score(state)
    # fishermen (3,2) (0,14) = 2; knights row 6 has 3 = 6; merchants tavern (6,7) + paddock (6,11) = 8; castle (3,3).
    assert table[0] == {"fishermen": 2, "knights": 6, "merchants": 8, "castles": 3, "total": 19}
    assert table[1] == {"fishermen": 0, "knights": 0, "merchants": 0, "castles": 0, "total": 0}


def test_scores_agree_with_networkx_areas_on_random_games():
    """Hermits, Citizens and Merchants recomputed with networkx on the board graph of finished random games."""
    for seed in range(3):
        rng = random.Random(seed)
        state = kb.new_game(players=3, seed=seed, cards=("hermits", "citizens", "merchants"))
        state = bots.play_game(state, dict.fromkeys(range(3), bots.random_player), rng)
        graph = kb.board_graph(state)
        table = kb.score(state)
        for player in range(3):
            own = [n for n, d in graph.nodes(data=True) if d["owner"] == player]
            areas = list(nx.connected_components(graph.subgraph(own)))
            assert table[player]["hermits"] == len(areas)
            assert table[player]["citizens"] == max(map(len, areas)) // 2
            specials = {n for n, d in graph.nodes(data=True) if d["location"] or d["castle"]}
            linked = graph.subgraph(set(own) | specials).copy()
            linked.remove_edges_from([(a, b) for a, b in linked.edges if a in specials and b in specials])
            parts = [part & specials for part in nx.connected_components(linked)]
            counted = {s for part in parts if len(part) >= 2 for s in part}
            assert table[player]["merchants"] == 4 * len(counted)


# --- diagrams ------------------------------------------------------------------------------------------


def test_KB_C15_diagram_round_trip_and_errors():
    state = core.advance(kb.new_game(players=3, seed=4), random.Random(4))
    rng = random.Random(2)
    for _ in range(12):
        state = core.advance(kb.apply(state, rng.choice(kb.legal_moves(state))), rng)
    text = kb.to_diagram(state)
    lines = text.splitlines()
    assert lines[0].startswith("sections: ") and lines[1].startswith("cards: ") and lines[2] == "players: 3"
    assert len(lines) == 23 and all(len(line) == 20 for line in lines[3:])
    again = kb.from_diagram(text)
    assert again.board == state.board and again.sections == state.sections and again.cards == state.cards
    assert kb.to_diagram(again) == text
    good = diagram({(9, 9): 0})
    bad_cases = {
        good.replace("players: 2", "players: 5"): "players",
        good.replace("tavern", "castle"): "unknown section",
        good.replace("knights", "knights knights"): "3 different",
        good.replace("0", "7"): "neither",
        good.replace("cards:", "card:"): "cards",
        "\n".join(good.splitlines()[:-1]): "20 rows",
        good.replace("....................\n", "...\n", 1): "20 characters",
        diagram({(3, 3): 0}): "castle",
        diagram({(2, 7): 1}): "mountain",
    }
    for text, words in bad_cases.items():
        with pytest.raises(ValueError, match=words):
            kb.from_diagram(text)
    crowded = kb.from_diagram(diagram({(7, 6): 0, (5, 6): 1, (7, 7): 2}, players=3))
    assert [len(crowded.tiles_of(p)) for p in range(3)] == [1, 1, 0]  # the tavern (6,7) has only 2 tiles
    turned = kb.from_diagram(diagram({}, FIRST.replace("farm", "farm*")))
    assert turned.sections[3] == ("farm", True) and kb.to_diagram(turned).splitlines()[0].endswith("farm*")
