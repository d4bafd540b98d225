"""Every registered game's engine module is a ``rulebook.engine.Engine`` (issue 44, item 2): it has each verb of the
Protocol, and each verb takes the Protocol's parameters, by position and by name, leaving out those with defaults.

The code typed with ``Engine`` gets its engine from ``registry.Game.engine`` through a ``cast``, so this test is the
check mypy does not make there."""

from __future__ import annotations

import inspect

import pytest

from rulebook import registry
from rulebook.engine import Engine

VERBS = sorted(name for name, value in vars(Engine).items() if inspect.isfunction(value) and not name.startswith("_"))
GAMES = list(registry.games())


def _parameters(verb: str) -> list[inspect.Parameter]:
    """The Protocol's parameters of ``verb``, without ``self``."""
    return list(inspect.signature(getattr(Engine, verb)).parameters.values())[1:]


def test_the_protocol_holds_the_shared_verbs():
    assert VERBS == sorted(
        ["new_game", "legal_moves", "chance_outcomes", "check", "apply", "outcome", "to_json", "from_json"]
    )


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("verb", VERBS)
def test_the_engine_has_the_verb_and_takes_its_parameters(game, verb):
    engine = registry.game(game).engine
    function = getattr(engine, verb, None)
    assert callable(function), f"{game}: the engine module {registry.game(game).module} has no {verb}"
    signature = inspect.signature(function)
    parameters = _parameters(verb)
    required = sum(1 for parameter in parameters if parameter.default is inspect.Parameter.empty)
    for count in range(required, len(parameters) + 1):  # the Protocol's defaults may be left out, last first
        given = parameters[:count]
        try:
            signature.bind(*[object()] * count)
            signature.bind(**{parameter.name: object() for parameter in given})
        except TypeError as error:
            names = ", ".join(parameter.name for parameter in given)
            pytest.fail(f"{game}: {verb}{signature} does not take ({names}) as Engine.{verb} does: {error}")
