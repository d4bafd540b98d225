"""Hostile input for Meetjesland (issue 17): Config bounds, maps named not pathed, malformed moves refused with short
messages and the state unchanged, saves with bad set-ups."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random

import pytest

from rulebook import meetjesland as mj
from rulebook.core import IllegalMove
from rulebook.meetjesland import (
    MOVE_CLASSES,
    Attack,
    Config,
    Dice,
    EndTurn,
    Mission,
    Place,
    TradeCards,
    arrange,
)

HUGE = "x" * 1_000_000


@pytest.mark.parametrize(
    "field, value",
    [
        ("move_limit", 10**9),
        ("move_limit", True),
        ("move_limit", 101),
        ("hand_limit", 45),
        ("hand_limit", 2),
        ("brewery_value", 10**6),
        ("brewery_value", False),
        ("set_values", (4, 6, 10**12)),
        ("set_values", (4, 6, True)),
        ("board", "../ab_die_post"),
        ("board", "/etc/passwd"),
        ("board", "kingdom_builder_sections"),
        ("board", HUGE),
    ],
)
def test_config_fields_have_the_bounds_the_set_up_panel_offers(field, value):
    with pytest.raises(ValueError, match=f"Config.{field}") as caught:
        Config(**{field: value})
    assert len(str(caught.value)) < 200


def test_config_bounds_admit_the_set_up_panels_extremes():
    Config(move_limit=0, hand_limit=3, brewery_value=0, set_values=(0, 0, 0))
    Config(move_limit=100, hand_limit=44, brewery_value=100, set_values=(100, 100, 100))


@pytest.mark.parametrize(
    "mission, says",
    [
        (Mission("Conquer purple", regions=("purple",)), "regions must be colours of the map"),
        (Mission("Conquer red twice", regions=("red", "red")), "different colour names"),
        (Mission("Hold everything", territories=10**9), "territories"),
        (Mission("Hold strong", territories=18, min_points=0), "min_points"),
        (Mission("Destroy the ninth", destroy=8), "destroy names a player"),
        (Mission("Destroy someone", destroy=True), "destroy names a player"),
        (Mission(HUGE, territories=24), "the text must be 1 to 200 characters"),
        (Mission("Nothing to do"), "a mission needs"),
        (Mission("Half a colour", regions=("red",), extra_region=1), "extra_region"),
    ],
)
def test_every_mission_card_of_a_config_is_checked(mission, says):
    missions = mj.MISSIONS[:6] + (mission,)
    with pytest.raises(ValueError, match=says) as caught:
        Config(missions=missions)
    assert "Config.missions[6]" in str(caught.value) and len(str(caught.value)) < 300


DEAL = mj.new_game(4, seed=0)
PLAY = arrange(
    DEAL,
    {"kaprijke": (0, 5), "eeklo": (1, 2)},
    to_place=0,
    stage="start",
    turn=0,
    hands=(("eeklo", "kaprijke", "zomergem", mj.BREWERY), (), (), ()),
)
ROLLING = mj.apply(PLAY, Attack("kaprijke", "eeklo", 3))
POSITIONS = {"setup": DEAL, "play": PLAY, "rolling": ROLLING, "placing": dataclasses.replace(PLAY, to_place=3)}
WRONG = [None, True, 0, -1, 10**30, 1.5, "", HUGE, ["kaprijke"], ("kaprijke",), {"a": 1}, (7,), (HUGE,), object()]


def malformed_moves(rng: random.Random, count: int):
    """Every move class with fields drawn from values of the wrong kind (and a few right ones among them)."""
    for cls in MOVE_CLASSES.values():
        fields = len(dataclasses.fields(cls))
        if fields <= 1:
            for values in itertools.product(WRONG, repeat=fields):
                yield cls(*values)
        for _ in range(count):
            yield cls(*(rng.choice(WRONG + ["kaprijke", "eeklo", 3, (6, 5), (4,)]) for _ in range(fields)))


@pytest.mark.parametrize("where", sorted(POSITIONS))
def test_malformed_moves_are_refused_briefly_and_change_nothing(where):
    state = POSITIONS[where]
    text = mj.to_json(DEAL)
    for move in malformed_moves(random.Random(where), 60):
        try:
            mj.apply(state, move)
        except IllegalMove as error:
            assert len(error.message) < 200, (where, error.message[:80])
            assert mj.check(state, move).rule == error.rule
        except ValueError as error:
            assert len(str(error)) < 200
    assert mj.to_json(DEAL) == text  # the positions are frozen; nothing reached into them


def test_a_refusal_quotes_a_short_prefix_of_a_huge_value():
    with pytest.raises(IllegalMove) as caught:
        mj.apply(PLAY, Place(HUGE, 1))
    assert caught.value.message == f"there is no territory '{'x' * 38}… on the map"
    with pytest.raises(IllegalMove) as caught:
        mj.apply(PLAY, TradeCards(HUGE))
    assert len(caught.value.message) < 80
    with pytest.raises(IllegalMove) as caught:
        mj.apply(ROLLING, EndTurn())
    assert caught.value.message == "the dice must be rolled first, not end the turn"
    with pytest.raises(IllegalMove) as caught:
        mj.apply(PLAY, Dice((1,) * 100_000, (1,)))
    assert len(caught.value.message) < 120


def test_a_save_with_a_bad_set_up_is_refused_with_a_short_message():
    save = json.loads(mj.to_json(DEAL))
    save["setup"]["seed"] = True
    with pytest.raises(ValueError, match="seed"):
        mj.from_json(json.dumps(save))
    save["setup"] = {"players": 4, "seed": 1, **{f"key{i}": i for i in range(10_000)}}
    with pytest.raises(ValueError, match="setup must have") as caught:
        mj.from_json(json.dumps(save))
    assert len(str(caught.value)) < 200
    save["setup"] = {"players": HUGE, "seed": 1}
    with pytest.raises(ValueError, match="3 to 6 players") as caught:
        mj.from_json(json.dumps(save))
    assert len(str(caught.value)) < 200
