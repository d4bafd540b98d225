"""``check(state, move)`` answers every move and raises for none (issue 48.6): a malformed move (a field of the wrong
type, a value the game does not know, a look-alike class, a move of another game, a dict, None) comes back as the
game's refusal, an IllegalMove naming a paragraph of its rules, in a short message, for every game of the registry.
Claim, Kingdom Builder and Ab die Post raised their malformed moves' ValueError where Meetjesland returned it."""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import Any

import pytest

from rulebook import core, registry, rules_text
from rulebook.core import IllegalMove

GAMES = list(registry.names())

# values no move field of any game holds: wrong types, out of range, huge, nested, of no JSON type at all
WRONG = [
    None,
    True,
    -1,
    10**30,
    1.5,
    float("nan"),
    "",
    "no such thing",
    "x" * 100_000,
    (),
    (0,),
    (7, 7, 7),
    ((1, 2), (3,)),
    ("a", "b"),
    (None, None),
    (-1, -1),
    (10**30, 0),
    [1, 2],
    {"a": 1},
    frozenset({1}),
    object(),
]


@functools.cache
def positions(game: str) -> tuple[Any, ...]:
    """Positions of seeded random games at every player count: the start, every tenth ply (chance nodes among them)
    and, where the game ends within the plies played, the finished game."""
    declared = registry.game(game)
    engine = declared.engine
    found = []
    for players in declared.players:
        rng = random.Random(players)
        state = declared.new_state(players, players)
        for ply in range(400):
            if ply % 10 == 0:
                found.append(state)
            if engine.outcome(state) is not None:
                found.append(state)
                break
            outcomes = engine.chance_outcomes(state)
            state = engine.apply(state, core.pick(outcomes, rng) if outcomes else rng.choice(engine.legal_moves(state)))
    return tuple(found)


def look_alike(cls: type) -> type:
    """A class of the same name and fields as a move class, and one field more: not the game's class."""
    fields = [(field.name, Any) for field in dataclasses.fields(cls)] + [("extra", Any)]
    return dataclasses.make_dataclass(cls.__name__, fields, frozen=True)


def malformed(game: str, rng: random.Random) -> list[Any]:
    """Moves no game should take: each of the game's move classes with wrong values in its fields (one field wrong,
    then all), look-alike classes, the classes themselves, moves of the other games, what a save writes (a dict),
    and values that are no move at all."""
    classes = registry.game(game).move_classes()
    moves: list[Any] = [None, 0, "Build", {}, [], (), object(), *classes.values()]
    for cls in classes.values():
        names = [field.name for field in dataclasses.fields(cls)]
        if not names:
            continue
        moves.append({"move": cls.__name__, **{name: [0, 0] for name in names}})  # as a save writes it, not decoded
        moves.append(look_alike(cls)(*([0] * len(names)), extra=1))
        for wrong in WRONG:
            moves.append(cls(*[wrong] * len(names)))
        for _ in range(10):
            moves.append(cls(*(rng.choice(WRONG) for _ in names)))
    for other in GAMES:
        if other != game:
            state = registry.game(other).new_state(registry.game(other).default_players, 1)
            engine = registry.game(other).engine
            moves.extend(engine.legal_moves(state)[:3] or [outcome for outcome, _ in engine.chance_outcomes(state)][:3])
    return moves


@pytest.mark.parametrize("game", GAMES)
def test_check_returns_a_malformed_move_s_refusal_and_never_raises(game: str) -> None:
    engine = registry.game(game).engine
    paragraphs = rules_text.paragraphs(game)
    rng = random.Random(game)
    moves = malformed(game, rng)
    for state in positions(game):
        for move in moves:
            try:
                refusal = engine.check(state, move)
            except Exception as error:  # noqa: BLE001 - the test is that nothing is raised
                pytest.fail(f"{game}: check raised {type(error).__name__} for {core.quote(move)}: {error!s:.200}")
            assert isinstance(refusal, IllegalMove), f"{game}: {core.quote(move)} was not refused ({refusal!r})"
            assert refusal.rule in paragraphs, f"{game}: {refusal.rule} is no paragraph of the rules"
            assert len(str(refusal)) < 400, f"{game}: a refusal of {len(str(refusal))} characters"


@pytest.mark.parametrize("game", GAMES)
def test_apply_refuses_the_same_moves_with_a_value_error(game: str) -> None:
    """``apply`` refuses what ``check`` refuses (a ValueError: IllegalMove, or the malformed move's own ValueError),
    with the same words."""
    engine = registry.game(game).engine
    state = positions(game)[1]
    for move in malformed(game, random.Random(game)):
        refusal = engine.check(state, move)
        with pytest.raises(ValueError) as raised:
            engine.apply(state, move)
        assert refusal is not None and str(raised.value) in str(refusal), (str(raised.value), str(refusal))
