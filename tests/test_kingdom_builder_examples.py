"""The worked examples of the Kingdom Builder notebook (issue 14): the Tavern, the Tower's adjacency among edge
hexes, the Harbor's lifted settlement. Expected hexes are read by hand off the printed boards (the notebook prints
them with ``kb.terrain_diagram``); the notebook draws the same positions with ``widget.position_figure``."""

from __future__ import annotations

import pytest

from rulebook import kingdom_builder as kb
from rulebook.kingdom_builder import widget
from rulebook.views import trace

OTHER = (("tower", False), ("harbor", False), ("oracle", False), ("barn", False))
OTHER_CARDS = ("lords", "farmers", "hermits")


def targets(state: kb.State, tile: str, origin=None) -> list:
    return sorted(
        m.target for m in kb.legal_moves(state) if isinstance(m, kb.UseTile) and m.tile == tile and m.origin == origin
    )


def test_tavern_builds_beyond_either_end_of_a_line_of_three():
    # Row 7 of the first-game board, "DDCWTTGGGGGGTWGKGFGT": (7,6) to (7,11) are grass; (7,7) touches the tavern
    # hex (6,7), so orange holds its tile.
    state = kb.position({(7, 7): 0, (7, 8): 0, (7, 9): 0}, hands=("forest", "grass"))
    assert state.tiles_of(0) == (("tavern", (6, 7), "ready"),)
    assert targets(state, "tavern") == [(7, 6), (7, 10)]
    figure = widget.position_figure(state, tile="tavern")
    assert sorted(divmod(i, 20) for i in trace(figure, widget.LEGAL).customdata) == [(7, 6), (7, 10)]


def test_tower_keeps_to_the_edge_hexes_next_to_own_settlements():
    # Tower section top-left: (7,3) desert touches the tower hex (7,2); (10,0) grass is on the left edge. Its edge
    # neighbours are (9,0) desert and (11,0) grass; (10,1) is not on the edge.
    state = kb.position({(7, 3): 0, (10, 0): 0}, sections=OTHER, cards=OTHER_CARDS, hands=("forest", "grass"))
    assert targets(state, "tower") == [(9, 0), (11, 0)]
    error = kb.check(state, kb.UseTile("tower", (0, 0)))  # forest on the edge, far from orange: adjacency
    assert error.rule == "KB-6.3"
    assert error.message == (
        "cannot use the Tower at (0,0): orange has free building hexes on the edge next to its own settlements, "
        "so the settlement must go next to one of them"
    )


def test_harbor_judges_adjacency_without_the_settlement_it_lifts():
    # Harbor section top-right: (7,17) canyon and (6,16) desert both touch the harbor hex (7,16). The only water
    # next to (6,16) is (7,15); (7,17) touches no water.
    state = kb.position({(7, 17): 0, (6, 16): 0}, sections=OTHER, cards=OTHER_CARDS, hands=("forest", "grass"))
    assert targets(state, "harbor", (7, 17)) == [(7, 15)]  # (6,16) stays: next to it only
    # Lifting (6,16) leaves orange with no settlement next to water: every water hex of the board is open.
    water = state.geometry.by_terrain["water"]
    assert len(targets(state, "harbor", (6, 16))) == len(water) == 56
    figure = widget.position_figure(state, tile="harbor", origin=(6, 16))
    assert list(trace(figure, widget.GHOSTS).customdata) == [6 * 20 + 16]


def test_position_refuses_malformed_settlements():
    with pytest.raises(ValueError, match="settlements"):
        kb.position({(20, 0): 0})
    with pytest.raises(ValueError, match="owner"):
        kb.position({(7, 7): 2})
    with pytest.raises(ValueError, match="settlements"):
        kb.position([((7, 7), 0)])
