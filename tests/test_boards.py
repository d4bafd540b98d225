"""The board loader: every shipped board validates, and malformed board files are refused with a clear message."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from rulebook import boards


@pytest.mark.parametrize("name", boards.available())
def test_every_shipped_board_is_valid_node_link_data(name):
    graph = boards.load(name)
    assert graph.number_of_nodes() > 0 and not graph.is_directed()


def good():
    return {
        "directed": False,
        "multigraph": False,
        "graph": {},
        "nodes": [{"id": "a", "region": "red"}, {"id": "b", "region": "red"}, {"id": "c", "region": "blue"}],
        "edges": [{"source": "a", "target": "b", "passable": True}, {"source": "b", "target": "c", "passable": True}],
    }


def test_good_data_loads():
    graph = boards.from_data(good(), node_attributes=["region"], edge_attributes=["passable"], passable="passable")
    assert sorted(graph.edges) == [("a", "b"), ("b", "c")]


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda d: d.update(directed=True), "undirected"),
        (lambda d: d.pop("edges"), "'edges' list"),
        (lambda d: d["nodes"].append({"id": "a", "region": "red"}), "listed twice"),
        (lambda d: d["nodes"][2].pop("region"), "lacks region"),
        (lambda d: d["edges"].append({"source": "c", "target": "z", "passable": True}), "unknown node 'z'"),
        (lambda d: d["edges"].append({"source": "c", "target": "b", "passable": False}), "not symmetric"),
        (lambda d: d["edges"].append({"source": "c", "target": "c", "passable": True}), "itself"),
        (lambda d: d["edges"][1].update(passable=False), "cut off: c"),
        (lambda d: d["edges"][1].update(passable="yes"), "true or false"),
        (lambda d: d["edges"][0].pop("passable"), "lacks passable"),
    ],
)
def test_malformed_boards_raise_value_error_naming_the_problem(damage, message):
    data = good()
    damage(data)
    with pytest.raises(ValueError, match=message):
        boards.from_data(data, node_attributes=["region"], edge_attributes=["passable"], passable="passable")


def test_bad_files(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(ValueError, match="broken.json: not valid JSON"):
        boards.load("broken", path=broken)
    with pytest.raises(ValueError, match="no board file"):
        boards.load("atlantis")
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps([1, 2]))
    with pytest.raises(ValueError, match="node-link object"):
        boards.load("list", path=listed)


def test_meetjesland_board_connected_only_through_passable_borders():
    graph = boards.load("meetjesland", passable="passable")
    assert graph.number_of_nodes() == 44 and graph.number_of_edges() == 100
    open_only = nx.Graph((u, v) for u, v, ok in graph.edges(data="passable") if ok)
    assert nx.is_connected(open_only) and open_only.number_of_nodes() == 44


@pytest.mark.parametrize("key", ["multigraph", "directed"])
def test_a_board_without_its_graph_kind_is_refused_at_load(key):
    # networkx reads node-link data without "multigraph" as a MultiGraph, which then failed in play
    data = good()
    del data[key]
    with pytest.raises(ValueError, match=f"'{key}' must be false.*missing"):
        boards.from_data(data)


def test_a_board_file_nested_too_deep_or_unreadable_is_a_value_error(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="deep.json: not valid JSON: the JSON is nested too deeply"):
        boards.read(deep)
    folder = tmp_path / "folder.json"
    folder.mkdir()
    with pytest.raises(ValueError, match="folder.json: cannot be read"):
        boards.read(folder)


def test_an_error_quotes_only_a_short_prefix_of_a_huge_node_id():
    data = good()
    data["edges"].append({"source": "a", "target": "x" * 5_000_000, "passable": True})
    with pytest.raises(ValueError) as error:
        boards.from_data(data)
    assert "unknown node" in str(error.value) and len(str(error.value)) < 300
