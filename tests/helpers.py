"""Helpers several test modules share (fixtures are in tests/conftest.py): a free port for a server a test starts, the
check that a move is refused with a rule id, and the written positions of the games' scenario tests."""

from __future__ import annotations

import copy
import dataclasses
import functools
import socket
from typing import Any

import pytest

from rulebook.core import IllegalMove


def free_port() -> int:
    """A port of 127.0.0.1 no server listens on now (the server a test starts binds it just after)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def refused(engine: Any, state: Any, move: Any, rule: str) -> IllegalMove:
    """``move`` is refused with ``rule`` by the game ``engine``'s ``apply`` and ``check`` alike, and the state is left
    as it was. A module of one game binds its engine: ``refused = functools.partial(helpers.refused, mj)``."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as caught:
        engine.apply(state, move)
    assert caught.value.rule == rule, caught.value
    checked = engine.check(state, move)
    assert checked is not None and checked.rule == rule, (move, checked)
    assert state == before, f"refusing {move} changed the state"
    return caught.value


# --- Meetjesland ---------------------------------------------------------------------------------------------------


@functools.cache
def _mj_deal(players: int, seed: int, config: Any) -> Any:
    from rulebook import meetjesland as mj

    return mj.new_game(players, seed=seed, config=config)


def mj_playing(territories=None, players: int = 4, seed: int = 0, config=None, **changes) -> Any:
    """A Meetjesland game after set-up (the deal of ``seed``), at the start of player 0's turn with nothing to place,
    with ``territories`` = {territory: (owner, points)} written over the deal and the state's ``changes``."""
    from rulebook.meetjesland import arrange

    fields = {"to_place": 0, "stage": "start", "turn": 0, **changes}
    return arrange(_mj_deal(players, seed, config), territories or {}, **fields)


# --- Kingdom Builder -----------------------------------------------------------------------------------------------

KB_FIRST = "sections: tavern paddock oasis farm\ncards: fishermen knights merchants\nplayers: {players}\n"


def kb_diagram(settlements: dict, header: str = KB_FIRST, players: int = 2) -> str:
    """A written Kingdom Builder position: the header, then 20 rows of 20 hexes with the given settlements
    ({(row, column): player})."""
    rows = [["."] * 20 for _ in range(20)]
    for (row, column), player in settlements.items():
        rows[row][column] = str(player)
    return header.format(players=players) + "\n".join("".join(row) for row in rows) + "\n"


# --- Ab die Post ---------------------------------------------------------------------------------------------------


def adp_position(players: int = 3, **changes) -> Any:
    """A written Ab die Post position: a fresh game (seed 0) with the listed fields replaced; the cards must still add
    up to 55."""
    from rulebook.ab_die_post import new_game
    from rulebook.ab_die_post.rules import card_count_invariant

    state = dataclasses.replace(new_game(players=players, seed=0), **changes)
    assert card_count_invariant(state), "the written position loses or invents cards"
    return state
