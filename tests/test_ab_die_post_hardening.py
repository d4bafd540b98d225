"""Ab die Post! against hostile input (issue 17): every Config option bounded where a save or a Config is loaded,
the track chosen by name (never a path), malformed move objects refused with the state unchanged, and error
messages that quote at most a short prefix of the bad value."""

from __future__ import annotations

import dataclasses
import json

import hypothesis
import pytest

from rulebook.ab_die_post import (
    CardDrawn,
    Config,
    DrawCard,
    Fly,
    KeepCard,
    MarbleShaken,
    Move,
    Repair,
    Stop,
    apply,
    check,
    from_json,
    load_track,
    new_game,
    to_json,
)
from rulebook.ab_die_post.rules import BOUNDS, short
from rulebook.core import IllegalMove

HUGE = "x" * 1_000_000


def save_with(**config):
    """A save file of a fresh 3-player game whose config has these options."""
    data = json.loads(to_json(new_game(players=3, seed=1)))
    data["setup"]["config"].update(config)
    return json.dumps(data)


# --- options bounded -----------------------------------------------------------------------------------------


def test_a_save_with_a_wind_of_thirty_fields_is_refused_at_once():
    # A plane 30 fields per marble made route finding run for ever (a 466-byte save hung the board).
    with pytest.raises(ValueError, match=r"config\.wind\[3\]: 30 is out of bounds \(1 to 8\)"):
        from_json(save_with(wind=[2, 3, 4, 30]))
    with pytest.raises(ValueError, match=r"Config\.wind\[0\]: 16 is out of bounds"):
        Config(wind=(16, 3, 4, 5))


@pytest.mark.parametrize(
    ("option", "low", "high"),
    [(name, *BOUNDS[name]) for name in ("target", "fly_minimum", "passenger_points", "first_player")],
)
def test_every_number_option_has_bounds(option, low, high):
    assert getattr(Config(**{option: high}), option) == high
    for value in (high + 1, low - 1, 10**40):
        with pytest.raises(ValueError, match=f"Config.{option}"):
            Config(**{option: value})
        with pytest.raises(ValueError, match=f"config.{option}"):
            from_json(save_with(**{option: value}))


def test_list_options_are_bounded_too():
    with pytest.raises(ValueError, match=r"repair\[0\]: 51 is out of bounds"):
        Config(repair=(51, 4, 2))
    with pytest.raises(ValueError, match=r"placing_points\[5\]"):
        Config.from_dict({"placing_points": [7, 5, 4, 3, 2, 10**6]})
    with pytest.raises(ValueError, match=r"marbles\[0\]\[4\]: 500 is out of bounds"):
        Config.from_dict({"marbles": [[3, [1, 2, 2, 1, 500]]]})
    with pytest.raises(ValueError, match=r"marbles\[1\]: the row's players must be a new number from 2 to 6, not 3"):
        Config.from_dict({"marbles": [[3, [1, 2, 2, 1, 2]], [3, [1, 1, 1, 1, 1]]]})
    with pytest.raises(ValueError, match=r"marbles\[0\]: the row's players must be a new number from 2 to 6, not 9"):
        Config(marbles=((9, (1, 1, 1, 1, 1)),))
    with pytest.raises(ValueError, match="1 to 5 rows"):
        Config.from_dict({"marbles": [[2, [1, 1, 1, 1, 1]]] * 6})
    # the rules' own values still load, and round-trip
    config = Config.from_dict(Config().to_dict())
    assert config == Config()


# --- the track by name, never a path -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["../graphs/ab_die_post", "/etc/passwd", "meetjesland", "ab_die_post.json", ""])
def test_the_track_is_one_of_the_shipped_tracks(name):
    with pytest.raises(ValueError, match="is not a track of the rulebook") as raised:
        Config(track=name)
    assert "(tracks: ab_die_post)" in str(raised.value)
    with pytest.raises(ValueError, match="is not a track of the rulebook"):
        from_json(save_with(track=name))
    with pytest.raises(ValueError, match="is not a track of the rulebook"):
        load_track(name)


def test_a_long_track_name_is_refused_without_touching_the_disk():
    # 300 characters used to reach the file system (OSError: file name too long).
    with pytest.raises(ValueError, match="is not a track of the rulebook") as raised:
        Config(track="a" * 300)
    assert len(str(raised.value)) < 200
    with pytest.raises(ValueError, match="is not a track of the rulebook"):
        load_track("a" * 300)
    with pytest.raises(ValueError, match="named by its name"):
        load_track(["ab_die_post"])


# --- short messages ------------------------------------------------------------------------------------------


def test_error_messages_quote_a_short_prefix_of_the_bad_value():
    for load in (
        lambda: Config(track=HUGE),
        lambda: Config.from_dict({"track": HUGE}),
        lambda: Config.from_dict({HUGE: 1}),
        lambda: Config.from_dict({"wind": [HUGE, 1, 1, 1]}),
        lambda: Config.from_dict({"wind": list(range(10**5))}),
        lambda: Config(target=10**4000),
        lambda: from_json(save_with(track=HUGE)),
    ):
        with pytest.raises(ValueError) as raised:
            load()
        assert len(str(raised.value)) < 200, str(raised.value)[:300]
    assert short(HUGE) == repr("x" * 30) + "..." and short([1] * 9) == "a list of 9 items"


# --- malformed moves -----------------------------------------------------------------------------------------

MALFORMED = [
    KeepCard([1]),
    KeepCard("2"),
    KeepCard(None),
    Move(""),
    Move(None),
    Move(()),
    Move(("start", 5)),
    Move(("start", ["central-1-1"])),
    Move(("start", HUGE)),
    Move(("start",) * 100),
    Repair("a", 0, 0),
    Repair(True, 0, 0),
    Repair(0, -1, 0),
    Repair(0, 0, 10**30),
    CardDrawn([1]),
    CardDrawn(2.0),
    MarbleShaken(None),
    MarbleShaken(["black"]),
    MarbleShaken(HUGE),
]


def positions():
    """One position of each phase: turn, card, marble, move, repair, keep."""
    turn = dataclasses.replace(new_game(players=3, seed=0), hands=((0, 2, 0), (0, 0, 0), (0, 0, 0)), pile=(16, 21, 16))
    card = apply(turn, DrawCard())
    marble = apply(turn, Fly())
    move = apply(marble, MarbleShaken("blue"))
    hit = dataclasses.replace(turn, positions=("central-1-2", "start", "start"))
    repair = apply(apply(hit, Fly()), MarbleShaken("black"))
    keep = dataclasses.replace(
        new_game(players=2, seed=0),
        hands=((1, 1, 0), (0, 0, 0)),
        pile=(15, 22, 16),
        phase="keep",
        player=0,
        pending=(0,),
        positions=("outer-1-3", "airport"),
        turn_player=1,
    )
    states = [turn, card, marble, move, repair, keep]
    assert [state.phase for state in states] == ["turn", "card", "marble", "move", "repair", "keep"]
    return states


@pytest.mark.parametrize("move", MALFORMED, ids=lambda move: type(move).__name__)
def test_a_malformed_move_is_refused_with_the_state_unchanged(move):
    for state in positions():
        saved = to_json(state)
        for attempt in (apply, check):
            try:
                result = attempt(state, move)
            except (IllegalMove, ValueError) as error:
                text = error.message if isinstance(error, IllegalMove) else str(error)
                assert len(text) < 300, text[:300]
                assert "-1-" not in text  # no field id (inner-1-1 ...) in what a person reads
            else:
                assert attempt is check and isinstance(result, IllegalMove), (state.phase, move, result)
        assert to_json(state) == saved


def test_the_refusal_of_a_route_names_fields_as_the_board_does():
    move_state = positions()[3]
    error = check(move_state, Move(("start", "nowhere")))
    assert error.rule == "ADP-6.1"
    assert error.message == (
        "a field that is not on the track ('nowhere') is not one field ahead of the start field in this flight's "
        "direction"
    )
    error = check(positions()[0], Move(("start", "central-1-1", "central-1-2", "central-1-3")))
    assert error.rule == "ADP-3.1" and error.message.startswith(
        "a flight to the central lane, section 1, field 3 is not a turn choice"
    )
    assert check(positions()[0], "fly" * 10**5).message.startswith("'flyflyflyflyflyflyflyflyflyfly'... is not")
    assert check(positions()[0], Stop()).rule == "ADP-C4"


# --- fuzzing: wrong types, huge numbers, deep nesting ----------------------------------------------------------

st = hypothesis.strategies


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


field_values = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**18, max_value=10**40)
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
    | st.sampled_from(("start", "airport", "central-1-1", "inner-3-4", "black", "x" * 5000))
    | st.builds(nested, st.integers(0, 600))
    | st.lists(st.text(max_size=12) | st.integers(), max_size=6)
    | st.tuples(st.just("start"), st.sampled_from(("central-1-1", "outer-1-1", "nowhere")))
)
POSITIONS = positions()


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(
    kind=st.sampled_from((Move, Repair, KeepCard, CardDrawn, MarbleShaken)),
    values=st.lists(field_values, min_size=3, max_size=3),
)
def test_fuzzed_move_fields_are_refused_cleanly(kind, values):
    arity = {Move: 1, Repair: 3, KeepCard: 1, CardDrawn: 1, MarbleShaken: 1}[kind]
    move = kind(*values[:arity])
    for state in POSITIONS:
        saved = to_json(state)
        try:
            apply(state, move)
        except IllegalMove as error:
            assert len(error.message) < 400
        except ValueError as error:
            assert 0 < len(str(error)) < 400
        assert to_json(state) == saved


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(
    option=st.sampled_from(sorted(Config().to_dict())),
    value=field_values | st.lists(st.integers(-5, 60), min_size=3, max_size=6),
)
def test_fuzzed_options_load_within_bounds_or_are_refused(option, value):
    try:
        config = Config.from_dict({option: value})
    except ValueError as error:
        assert 0 < len(str(error)) < 400
        return
    for name, (low, high) in BOUNDS.items():
        values = getattr(config, name, None)
        for number in values if isinstance(values, tuple) else () if values is None else (values,):
            assert low <= number <= high
    try:  # a seat or a marble row the game of 3 lacks is refused when the game is set up
        state = new_game(players=3, seed=1, config=config)
    except ValueError as error:
        assert "first_player" in str(error) or "marble table" in str(error)
        return
    assert state.track.name == "ab_die_post"


def test_deeply_nested_options_are_refused_without_recursion():
    deep = nested(5000)
    for load in (
        lambda: Config(wind=tuple(deep)),
        lambda: Config(marbles=((3, tuple(deep)),)),
        lambda: Config.from_dict({"wind": deep}),
        lambda: Config.from_dict({"marbles": [[3, deep]]}),
    ):
        with pytest.raises(ValueError) as raised:
            load()
        assert len(str(raised.value)) < 200
