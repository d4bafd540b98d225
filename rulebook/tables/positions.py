"""A seat's own copy of the position, for an engine that runs where the student is (issue 45.4).

A student's page (the website's, the Voila app's, a notebook's) runs the engine to highlight the legal targets at
once, so it needs a position the engine can play from; the server must still keep every secret. :func:`seat_state`
is the table's position as one seat may hold it: what that seat cannot see dealt again at random from the cards it
has not seen (the registry's ``Game.redeal``, as Winning? does for a player), the log left out (it is sent as words,
masked per seat), and the seed replaced by a fresh random one (it would predict every deal). No deal the seat gets
depends on the true one beyond what the seat sees, so any number of them tells it nothing more.

:func:`encode` writes a position as JSON with its types kept (tuples, frozensets, the game's dataclasses), and
:func:`decode` reads it back, building only dataclasses defined in that game's own package or in ``rulebook.core``
(never importing a module, never evaluating text), each through its constructor so its checks run.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import secrets
import sys
from fractions import Fraction
from typing import Any

from rulebook import registry
from rulebook.core import MAX_DEPTH

FORMAT = 1  # the encoding's version: a page from another version is told so


def seat_state(state: Any, seat: int | None, rng: random.Random | None = None) -> Any:
    """``state`` as ``seat`` (None: a spectator) may hold it: others' secrets dealt again, no log, a fresh seed
    (``rng``: the generator that deals, by default a fresh one from the system's randomness)."""
    game = registry.game_of(state)
    rng = rng if rng is not None else random.Random(secrets.randbits(64))
    if game.redeal:
        state = registry.resolve(game.redeal)(state, seat, rng)
    changes: dict[str, Any] = {}
    names = {field.name for field in dataclasses.fields(state)}
    if "history" in names:
        changes["history"] = ()
    if "seed" in names:
        changes["seed"] = rng.randrange(2**31)
    return _replace(state, changes)


def _replace(state: Any, changes: dict[str, Any]) -> Any:
    """A copy of the (frozen) dataclass ``state`` with ``changes``, without running its constructor again (a State's
    own checks may ask for the log it no longer has)."""
    made = copy.copy(state)
    for name, value in changes.items():
        object.__setattr__(made, name, value)
    return made


def encode(state: Any) -> dict[str, Any]:
    """The position as JSON's types, each value's type kept: ``{"format": 1, "game": name, "state": ...}``."""
    game = registry.game_of(state)
    return {"format": FORMAT, "game": game.name, "state": _encode(state, 0)}


def _encode(value: Any, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise ValueError(f"a position nested deeper than {MAX_DEPTH}")
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return {"float": repr(value)}
    if isinstance(value, tuple):
        return {"tuple": [_encode(item, depth + 1) for item in value]}
    if isinstance(value, list):
        return {"list": [_encode(item, depth + 1) for item in value]}
    if isinstance(value, frozenset):
        return {"frozenset": [_encode(item, depth + 1) for item in sorted(value, key=repr)]}
    if isinstance(value, dict):
        return {"dict": [[_encode(key, depth + 1), _encode(item, depth + 1)] for key, item in value.items()]}
    if isinstance(value, Fraction):
        return {"fraction": f"{value.numerator}/{value.denominator}"}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        kind = type(value)
        fields = {field.name: _encode(getattr(value, field.name), depth + 1) for field in dataclasses.fields(value)}
        return {"dataclass": f"{kind.__module__}:{kind.__qualname__}", "fields": fields}
    raise ValueError(f"a position holds a {type(value).__name__}, which a seat's copy cannot carry")


def decode(data: Any, game: str) -> Any:
    """The position :func:`encode` wrote for ``game``; ValueError saying what is wrong with anything else."""
    entry = registry.game(game)
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("game") != entry.name:
        raise ValueError(f"not a {entry.title} position of format {FORMAT}")
    allowed = (entry.module.rsplit(".", 1)[0] + ".", "rulebook.core")
    state = _decode(data.get("state"), allowed, 0)
    if registry.game_of(state) is not entry:
        raise ValueError(f"not a {entry.title} position")
    return state


def _decode(value: Any, allowed: tuple[str, ...], depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise ValueError(f"a position nested deeper than {MAX_DEPTH}")
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if not isinstance(value, dict) or not value:
        raise ValueError(f"a position's value must be tagged, not {type(value).__name__}")
    tag = next(iter(value))
    if tag == "float" and isinstance(value[tag], str):
        return float(value[tag])
    if tag in ("tuple", "list", "frozenset") and isinstance(value[tag], list):
        items = [_decode(item, allowed, depth + 1) for item in value[tag]]
        return {"tuple": tuple, "list": list, "frozenset": frozenset}[tag](items)
    if tag == "dict" and isinstance(value[tag], list):
        pairs = value[tag]
        if not all(isinstance(pair, list) and len(pair) == 2 for pair in pairs):
            raise ValueError("a position's mapping is a list of [key, value] pairs")
        return {_decode(key, allowed, depth + 1): _decode(item, allowed, depth + 1) for key, item in pairs}
    if tag == "fraction" and isinstance(value[tag], str):
        try:
            return Fraction(value[tag])
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"not a fraction: {value[tag][:20]!r}") from None
    if tag == "dataclass" and isinstance(value[tag], str) and isinstance(value.get("fields"), dict):
        return _made(_dataclass(value[tag], allowed), value["fields"], allowed, depth)
    raise ValueError(f"a position's value has an unknown tag {str(tag)[:20]!r}")


def _made(kind: type, sent: dict[str, Any], allowed: tuple[str, ...], depth: int) -> Any:
    """A ``kind`` made through its constructor from the fields sent (each decoded)."""
    fields = {str(name): _decode(item, allowed, depth + 1) for name, item in sent.items()}
    own = {field.name: field for field in dataclasses.fields(kind)}
    if set(fields) != set(own):
        raise ValueError(f"{kind.__name__}: the fields are {', '.join(sorted(own))}")
    initial = {name: fields[name] for name, field in own.items() if field.init}
    try:
        made = kind(**initial)
    except TypeError as error:
        raise ValueError(f"{kind.__name__}: {error}") from None
    for name, field in own.items():  # fields the constructor works out itself are taken as they were sent
        if not field.init:
            object.__setattr__(made, name, fields[name])
    return made


def _dataclass(name: str, allowed: tuple[str, ...]) -> type:
    """The dataclass ``module:qualname`` names, from a module already imported and allowed; ValueError otherwise."""
    module_name, _, qualname = name.partition(":")
    if not any(module_name == prefix or module_name.startswith(prefix) for prefix in allowed):
        raise ValueError(f"a position may not hold a {name[:60]!r}")
    module = sys.modules.get(module_name)
    kind: Any = module
    for part in qualname.split("."):
        kind = getattr(kind, part, None) if part and not part.startswith("_") else None
    if not isinstance(kind, type) or not dataclasses.is_dataclass(kind):
        raise ValueError(f"no dataclass {name[:60]!r} in the game")
    return kind
