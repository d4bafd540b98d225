"""The facts the Kingdom Builder notebook shows, checked here so that its cells read as commands (issue 14): the
same inputs as the notebook's cells, with the answers counted by hand on the printed boards."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import networkx as nx

from rulebook import kingdom_builder as kb
from rulebook.kingdom_builder import bots, odds
from rulebook.kingdom_builder.widget import Board

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "kingdom_builder.ipynb"


def code_cells() -> list[str]:
    return ["".join(c["source"]) for c in json.loads(NOTEBOOK.read_text())["cells"] if c["cell_type"] == "code"]


def test_the_notebook_cells_are_commands_without_checks():
    assert not [cell for cell in code_cells() if "assert " in cell]


def test_board_graph_and_rim():
    graph = kb.board_graph(kb.FIRST_GAME_SECTIONS)
    assert (graph.number_of_nodes(), graph.number_of_edges()) == (400, 1121)
    sectors = [
        sum(1 for _, d in graph.nodes(data=True) if d["sector"] == s and d["terrain"] in kb.TERRAINS) for s in range(4)
    ]
    rim = [n for n, d in graph.nodes(data=True) if d["on_edge"] and d["terrain"] in kb.TERRAINS]
    assert len(rim) == 47 and sum(sectors) == 284  # 47: counted by hand on the printed board (17 + 3 + 11 + 16)


def test_hidden_cards():
    state = kb.new_game(players=3, seed=11, first_game=True)
    for terrain in ("grass", "desert", "forest"):
        state = kb.apply(state, kb.CardDrawn(terrain))
    assert state.player == 0 and kb.view(state, 1).hands == ("grass", "desert", None)


def test_the_adjacency_example_and_its_short_form():
    text = "sections: tavern paddock oasis farm\ncards: fishermen knights merchants\nplayers: 2\n"
    rows = ["." * 20] * 20
    rows[7] = "......0............."
    example = kb.from_diagram(text + "\n".join(rows) + "\n", hands=("grass", "forest"))
    assert kb.position({(7, 6): 0}, hands=("grass", "forest")) == example
    legal = [move.hex for move in kb.legal_moves(example) if isinstance(move, kb.Build)]
    assert legal == [(7, 7), (8, 7)] and kb.check(example, kb.Build((9, 9))).rule == "KB-6.3"
    lonely = kb.to_diagram(example).replace("fishermen knights merchants", "lords farmers hermits")
    strict = kb.card_scores(kb.from_diagram(lonely), "lords")
    generous = kb.card_scores(kb.from_diagram(lonely, config=kb.Config(lords_zero_scores=True)), "lords")
    assert strict == (12, 0) and generous == (48, 42)


def test_the_paddock_example():
    paddock = kb.position({(5, 10): 0}, hands=("grass", "forest"))
    jumps = sorted(move.target for move in kb.legal_moves(paddock) if isinstance(move, kb.UseTile))
    assert paddock.tiles_of(0) == (("paddock", (6, 11), "ready"),)
    assert jumps == [(3, 11), (5, 8), (5, 12), (7, 9), (7, 11)]


def test_the_scoring_example():
    scored = kb.position({(0, 2): 0, (7, 6): 0, (7, 7): 0, (7, 8): 0}, hands=("grass", "forest"))
    assert kb.score(scored)[0] == {"fishermen": 0, "knights": 6, "merchants": 0, "castles": 0, "total": 6}


def test_the_live_board_and_its_odds():
    live = Board(kb.new_game(players=2, seed=7, first_game=True), seed=7, computer=(1,))
    assert live.state.player == 0 and live.action_menu.value == "build"
    first = odds.terrain_within(live.state, 0, "grass", 1, viewer=None)
    assert first == live.state.pile[0] * Fraction(1, sum(live.state.pile))


def test_areas_with_networkx_and_the_bots():
    finished = bots.play_game(
        kb.new_game(players=3, seed=5, cards=("hermits", "citizens", "knights")),
        {0: bots.greedy_player, 1: bots.greedy_player, 2: bots.random_player},
        random.Random(5),
    )
    board = kb.board_graph(finished)
    own = board.subgraph(n for n, d in board.nodes(data=True) if d["owner"] == 0)
    areas = sorted(map(len, nx.connected_components(own)), reverse=True)
    assert kb.score(finished)[0]["hermits"] == len(areas) and kb.score(finished)[0]["citizens"] == areas[0] // 2
    records = bots.tournament(("greedy", "random"), games=12, seed=2)
    greedy_wins = sum(r["won"] for r in records if r["bot"] == "greedy")
    assert greedy_wins > sum(r["won"] for r in records if r["bot"] == "random")


def markdown() -> str:
    return "\n".join(
        "".join(c["source"]) for c in json.loads(NOTEBOOK.read_text())["cells"] if c["cell_type"] == "markdown"
    )


def test_the_sentences_the_notebook_prints_instead_of_tuples_and_dicts():
    from rulebook.kingdom_builder import words

    graph = kb.board_graph(kb.FIRST_GAME_SECTIONS)
    assert words.hex_text(graph, (12, 7)) == (
        "(12,7) is a location hex (Oasis, 2 tiles), in the oasis section (bottom-left quarter), not on the outer edge."
    )
    assert (
        words.hex_text(graph, (0, 0))
        == "(0,0) is a flower field hex, in the tavern section (top-left quarter), on the outer edge."
    )
    state = kb.new_game(players=3, seed=11, first_game=True)
    for terrain in ("grass", "desert", "forest"):
        state = kb.apply(state, kb.CardDrawn(terrain))
    assert words.hands_text(kb.view(state, 1)) == "Orange grassland, Blue desert, White hidden"
    first = words.chances_text(kb.chance_outcomes(kb.new_game(players=2, seed=1)))
    assert first == "grassland 1/5, canyon 1/5, desert 1/5, flower field 1/5, forest 1/5"  # 5 of 25 cards each
    assert words.hexes_text([(8, 7), (7, 7)]) == "(7,7) and (8,7)" and words.join([]) == "nothing"
    paddock = kb.position({(5, 10): 0}, hands=("grass", "forest"))
    assert (
        words.tiles_text(paddock, 0) == "the Paddock tile of (6,11), usable"
        and words.tiles_text(paddock, 1) == "no tile"
    )
    scored = kb.position({(0, 2): 0, (7, 6): 0, (7, 7): 0, (7, 8): 0}, hands=("grass", "forest"))
    assert (
        words.score_text(kb.score(scored)).splitlines()[0]
        == "Orange: Fishermen 0, Knights 6, Merchants 0, castles 0: 6 gold"
    )
    assert words.per_player((12, 0)) == "Orange 12, Blue 0"
    assert words.per_quarter((78, 74, 63, 69)) == "78 top-left, 74 top-right, 63 bottom-left, 69 bottom-right"


def test_the_translation_keeps_the_turn_after_and_marks_the_reading():
    """«Les tuiles sont jouables le tour suivant son acquisition» and «Le tour suivant l'acquisition d'une tuile lieu
    permet d'avoir une action bonus»: the turn after, not "from the turn after"; KB-C11 says how the engine reads
    it, quoting the aid's own words (the aid has no "once per turn")."""
    from rulebook import rules_text

    paragraphs = rules_text.paragraphs("kingdom_builder")
    assert "the turn after they are taken" in paragraphs["KB-5.2"].markdown
    assert paragraphs["KB-7.1"].markdown.startswith("**KB-7.1** The turn after a location tile is taken")
    reading = paragraphs["KB-C11"].markdown
    assert "«le tour suivant son\nacquisition»" in reading and "«perdue»" in reading
    assert '"once per turn"' not in reading and "once per turn" not in markdown().split("## 7.")[0]


def test_one_heading_per_cell_and_examples_outside_the_rules_paragraphs():
    from rulebook import rules_text

    cells = ["".join(c["source"]) for c in json.loads(NOTEBOOK.read_text())["cells"] if c["cell_type"] == "markdown"]
    for source in cells:
        headings = [line for line in source.splitlines() if line.startswith("#")]
        assert len(headings) <= 1 and (not headings or source.startswith(headings[0])), source[:60]
    for rule in ("KB-C10", "KB-C13", "KB-C15"):  # their examples used to run on inside them
        assert len(rules_text.paragraphs("kingdom_builder")[rule].markdown.split("\n\n")) == 1, rule
