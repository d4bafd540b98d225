"""Claim: the five sections, the fixed assemblies, the generator of other assemblies and the graph of points."""

from __future__ import annotations

import json
import random

import networkx as nx
import pytest

from rulebook import claim
from rulebook.claim import rules


def test_sections_are_our_reconstruction_with_a_note():
    data = json.loads((rules.claim_dir() / "sections.json").read_text())
    assert "RECONSTRUCTION" in data["note"]
    sections = claim.load_sections()
    # hand count of sections.json: territory sizes a/b per section
    sizes = {name: sorted(len(p) for p in claim.island(rows).territories.values()) for name, rows in sections.items()}
    assert sizes == {"A": [14, 14], "B": [12, 14], "C": [12, 15], "D": [13, 15], "E": [14]}


def _sections_data():
    return json.loads((rules.claim_dir() / "sections.json").read_text())


@pytest.mark.parametrize(
    "spoil, message",
    [
        (lambda d: d.pop("note"), "note"),
        (lambda d: d["sections"].pop(), "5 sections"),
        (lambda d: d["sections"][0].update(rows=["aaaa"] * 5), "not 11-16"),
        (lambda d: d["sections"][1].update(name="A"), "listed twice"),
        (lambda d: d["sections"][2].update(rows="abc"), "list of strings"),
        (lambda d: d["sections"][4].update(rows=["#ccc", "cccc", "cccc", "ccc#"]), "lettered a"),
        (lambda d: d["sections"][4].update(rows=["aaaa", "aaaa", "####", "aaaa", "aaaa"]), "one piece"),
    ],
)
def test_malformed_section_data_is_refused(spoil, message):
    data = _sections_data()
    spoil(data)
    with pytest.raises(ValueError, match=message):
        rules.parse_sections(data)


@pytest.mark.parametrize(
    "spoil, message",
    [
        (lambda d: d.pop("note"), "note"),
        (lambda d: d.update(players=5), "players"),
        (lambda d: d["sections"].pop(), "use 3 sections"),
        (lambda d: d["sections"][0].update(rotation=7), "rotation"),
        (lambda d: d["sections"][0].update(row="1"), "wrong type"),
        (lambda d: d["sections"][0].pop("column"), "exactly"),
        (lambda d: d["sections"][1].update(row=40), "joined"),
    ],
)
def test_malformed_layouts_are_refused(spoil, message):
    data = json.loads((rules.claim_dir() / "layout_2.json").read_text())
    spoil(data)
    with pytest.raises(ValueError, match=message):
        rules.parse_layout(data, "layout_2.json")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fixed_layouts_are_valid_islands(players):
    rows = claim.assemble(claim.fixed_layout(players))
    board = claim.island(rows)
    assert len(board.letters) == {2: 5, 3: 7, 4: 9}[players]
    assert all(11 <= len(points) <= 16 for points in board.territories.values())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_generator_gives_other_valid_assemblies(players):
    layouts = {rules.random_layout(players, random.Random(seed)) for seed in range(4)}
    assert len(layouts) > 1
    for layout in layouts:
        names = [placement.section for placement in layout]
        assert "E" in names and len(names) == {2: 3, 3: 4, 4: 5}[players]
        claim.assemble(layout)  # raises if not valid
    assert rules.random_layout(players, random.Random(9)) == rules.random_layout(players, random.Random(9))
    game = claim.new_game(players=players, seed=11, assembly="random")
    assert len(game.island.letters) == {2: 5, 3: 7, 4: 9}[players]


def test_compactness_refuses_holes():
    with pytest.raises(ValueError, match="holes"):
        rules._check_compact(("aaa", "a#a", "aaa"))
    with pytest.raises(ValueError, match="2/3"):
        rules._check_compact(("a###", "a###", "aaaa"))


def test_rotation_turns_clockwise():
    assert rules.rotated(("ab", "cd"), 1) == ("ca", "db")
    assert rules.rotated(("ab", "cd"), 4) == ("ab", "cd")


@pytest.mark.parametrize("players", [2, 4])
def test_points_graph(players):
    state = claim.new_game(players=players, seed=0)
    graph = claim.points_graph(state)
    rows = state.territories
    points = {(r, c) for r, row in enumerate(rows) for c, char in enumerate(row) if char != "#"}
    assert set(graph.nodes) == points
    expected_edges = {
        frozenset(((r, c), (r + dr, c + dc)))
        for r, c in points
        for dr, dc in ((0, 1), (1, 0))
        if (r + dr, c + dc) in points
    }
    assert {frozenset(edge) for edge in graph.edges} == expected_edges
    for (r, c), data in graph.nodes(data=True):
        assert data["territory"] == rows[r][c]
        missing = sum((r + dr, c + dc) not in points for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)))
        assert data["edge"] == (missing > 0)
    assert nx.is_connected(graph)
    for u, v, border in graph.edges(data="border"):
        assert border == (rows[u[0]][u[1]] != rows[v[0]][v[1]])
