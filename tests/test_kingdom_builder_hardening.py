"""Kingdom Builder against hostile input (issue 17): malformed moves, huge values in moves and saves, unknown
set-up keys. Each case failed before the fix: a TypeError/IndexError/KeyError escaped, a message repeated the whole
bad value, or a bad save loaded."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rulebook import kingdom_builder as kb
from rulebook.core import IllegalMove

HUGE = "x" * 100_000


def playing() -> kb.State:
    state = kb.new_game(players=2, seed=1, first_game=True)
    return kb.apply(kb.apply(state, kb.CardDrawn("grass")), kb.CardDrawn("desert"))


STATES = {
    "playing": playing,
    "finished": lambda: dataclasses.replace(playing(), finished=True),
    "drawing": lambda: dataclasses.replace(playing(), player=None, drawing=0),
}
BAD_HEXES = [True, None, 1.5, -1, (1,), {}, b"x", [[[]]], (True, 0), (1, 2, 3), (10**40, 1), (HUGE, 0)]
MALFORMED = (
    [kb.Build(hex_) for hex_ in BAD_HEXES]
    + [kb.UseTile("farm", hex_) for hex_ in BAD_HEXES]
    + [kb.UseTile("paddock", (7, 7), hex_) for hex_ in BAD_HEXES if hex_ is not None]
    + [kb.UseTile(tile, (7, 7)) for tile in (["farm"], {}, None, 3, HUGE)]
    + [kb.CardDrawn(terrain) for terrain in (["grass"], {}, None, 3, HUGE)]
    + ["build at (7,7)", None, (7, 7)]
)


@pytest.mark.parametrize("where", sorted(STATES))
def test_malformed_moves_raise_value_error_with_a_short_message_and_leave_the_state(where):
    state = STATES[where]()
    saved = kb.to_json(state)
    for move in MALFORMED:
        named = move if len(repr(move)) < 80 else type(move)
        with pytest.raises(ValueError) as caught:  # IllegalMove is a ValueError too: never anything else
            kb.apply(state, move)
        assert len(str(caught.value)) < 300, (named, where)
        refusal = kb.check(state, move)  # returned, never raised (issue 48.6)
        assert isinstance(refusal, IllegalMove) and len(str(refusal)) < 300, (named, where)
    assert kb.to_json(state) == saved


def test_a_save_with_a_huge_or_wrong_config_value_is_refused_in_a_short_message():
    save = json.loads(kb.to_json(playing()))
    for key, value in (("tile_loss", HUGE), ("lords_zero_scores", HUGE), ("move_in_place", 1), (HUGE, True)):
        bad = json.loads(json.dumps(save))
        bad["setup"]["config"][key] = value
        with pytest.raises(ValueError, match="(?i)config") as caught:
            kb.from_json(json.dumps(bad))
        assert len(str(caught.value)) < 300


@pytest.mark.parametrize(
    ("key", "value"), [("players", HUGE), ("players", 10**40), ("cards", [HUGE] * 3), ("sections", [[HUGE, False]] * 4)]
)
def test_a_save_with_a_huge_set_up_value_is_refused_in_a_short_message(key, value):
    bad = json.loads(kb.to_json(playing()))
    bad["setup"][key] = value
    with pytest.raises(ValueError) as caught:
        kb.from_json(json.dumps(bad))
    assert len(str(caught.value)) < 300


def test_a_save_with_an_unknown_set_up_key_is_refused():
    bad = json.loads(kb.to_json(playing()))
    bad["setup"]["seats"] = 2
    with pytest.raises(ValueError, match="unknown setup key 'seats'"):
        kb.from_json(json.dumps(bad))
    bad["setup"] = {**bad["setup"], "config": "fast"}
    bad["setup"].pop("seats")
    with pytest.raises(ValueError, match="'config' must be an object"):
        kb.from_json(json.dumps(bad))


def test_a_diagram_with_a_huge_line_is_refused_in_a_short_message():
    text = "sections: tavern paddock oasis farm\ncards: fishermen knights merchants\nplayers: 2\n"
    text += "\n".join(["." * 20] * 19 + ["." * 100_000]) + "\n"
    with pytest.raises(ValueError, match="diagram row 19") as caught:
        kb.from_diagram(text)
    assert len(str(caught.value)) < 300
    with pytest.raises(ValueError) as caught:
        kb.from_diagram(text.replace("." * 100_000, "." * 20), hands=[HUGE, HUGE])
    assert len(str(caught.value)) < 300


def test_config_values_out_of_their_bounds_are_refused():
    for fields in ({"tile_loss": "sometimes"}, {"tile_loss": ["immediate"]}, {"lords_zero_scores": 1}):
        with pytest.raises(ValueError, match="Config"):
            kb.Config(**fields)


# --- generated input: the class of bug stays caught -------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SCALARS = st.none() | st.booleans() | st.integers() | st.integers(min_value=10**18) | st.floats() | st.text(max_size=8)
VALUES = st.recursive(
    SCALARS | st.binary(max_size=4), lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner), max_leaves=12
)
HEXES = st.tuples(st.integers(-3, 22), st.integers(-3, 22)) | VALUES
FIELD_MOVES = st.one_of(
    st.builds(kb.Build, HEXES),
    st.builds(kb.UseTile, st.sampled_from(kb.LOCATIONS) | VALUES, HEXES, st.none() | HEXES),
    st.builds(kb.CardDrawn, st.sampled_from(kb.TERRAINS) | VALUES),
)


def deep(levels: int) -> list:
    nested: list = []
    for _ in range(levels):
        nested = [nested]
    return nested


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(where=st.sampled_from(sorted(STATES)), move=FIELD_MOVES)
def test_generated_moves_are_refused_or_played_never_crash(where, move):
    state = STATES[where]()
    saved = kb.to_json(state)
    try:
        after = kb.apply(state, move)
    except ValueError as error:  # IllegalMove included
        assert len(str(error)) < 300
    else:
        if where == "playing":  # the other two are made by hand, without a history that leads to them
            assert kb.from_json(kb.to_json(after)) == after
    assert kb.to_json(state) == saved


def test_deeply_nested_move_fields_are_value_errors():
    state = playing()
    for move in (kb.Build(deep(900)), kb.UseTile("farm", deep(900)), kb.CardDrawn(deep(900))):
        with pytest.raises(ValueError) as caught:
            kb.apply(state, move)
        assert len(str(caught.value)) < 300


def test_undo_never_stops_at_the_computer_s_turn():
    """Issue 17 item 4: after Undo the person is to move and the board offers moves."""
    from rulebook.kingdom_builder.widget import Board

    table = Board(kb.new_game(players=2, seed=7, first_game=True), seed=7, computer=(1,))
    for _ in range(3):
        table.play(kb.Build(table.target_menu.options[1][1]))
    table.end_button.click()
    assert table.live.player == 0 and len(table.states) > 5
    for _ in range(6):
        table.undo_button.click()
        assert table.live.player == 0 and not (table.play_button.disabled and table.end_button.disabled)
