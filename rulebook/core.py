"""The pieces every game shares: errors, outcomes, chance sampling, replay and save files.

Every game module (``rulebook.meetjesland``, ...) exposes the same verbs over an immutable state:
``new_game``, ``legal_moves``, ``chance_outcomes``, ``check``, ``apply``, ``outcome``, ``to_json`` and
``from_json``.  Chance (dice, draws, shuffles) is an explicit node of the game: the engine lists the
outcomes with exact ``Fraction`` probabilities and the caller picks one, with :func:`sample` or by hand.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import reprlib
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeVar

State = TypeVar("State")


class IllegalMove(ValueError):
    """A move the rules forbid. ``rule`` is the id of the translated paragraph that forbids it."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message

    def __reduce__(self):  # keeps the exception picklable for pytest-xdist and multiprocessing
        return (IllegalMove, (self.rule, self.message))


@dataclasses.dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning players, why, and optional final scores per player."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...] | None = None


def check_distribution(outcomes: Sequence[tuple[Any, Fraction]]) -> None:
    """Raise ``ValueError`` unless the probabilities are positive Fractions summing to exactly 1."""
    total = Fraction(0)
    for outcome, probability in outcomes:
        if not isinstance(probability, Fraction) or probability <= 0:
            raise ValueError(f"chance outcome {outcome!r} has probability {probability!r}")
        total += probability
    if outcomes and total != 1:
        raise ValueError(f"chance outcomes sum to {total}, not 1")


def game_module(state: Any):
    """The game module a state belongs to (the package that defines ``chance_outcomes`` and ``apply``)."""
    module_name = type(state).__module__
    package = sys.modules[module_name.rsplit(".", 1)[0]]
    if hasattr(package, "chance_outcomes"):
        return package
    return sys.modules[module_name]


_TICKETS: dict[int, tuple[Sequence, int, tuple[int, ...]]] = {}


def _tickets(outcomes: Sequence[tuple[Any, Fraction]]) -> tuple[int, tuple[int, ...]]:
    """The common denominator and each outcome's share of it, remembered for the outcome lists games reuse
    (a cached tuple of dice outcomes has over a thousand Fractions; summing them on every roll was the cost)."""
    cached = _TICKETS.get(id(outcomes))
    if cached is not None and cached[0] is outcomes:
        return cached[1], cached[2]
    denominator = math.lcm(*(probability.denominator for _, probability in outcomes))
    shares = tuple(p.numerator * (denominator // p.denominator) for _, p in outcomes)
    if isinstance(outcomes, tuple):
        if len(_TICKETS) >= 256:
            _TICKETS.pop(next(iter(_TICKETS)))
        _TICKETS[id(outcomes)] = (outcomes, denominator, shares)  # the reference keeps the id from being reused
    return denominator, shares


def pick(outcomes: Sequence[tuple[Any, Fraction]], rng: random.Random) -> Any:
    """Pick one outcome exactly in proportion to its Fraction (one integer draw from ``rng``)."""
    if not outcomes:
        raise ValueError("not a chance node: there is no outcome to pick")
    denominator, shares = _tickets(outcomes)
    ticket = rng.randrange(denominator)
    for (outcome, _), share in zip(outcomes, shares):
        if ticket < share:
            return outcome
        ticket -= share
    raise ValueError("chance outcomes sum to less than 1")


def sample(state: Any, rng: random.Random) -> Any:
    """Pick the outcome of the chance node ``state`` with ``rng`` (never the global ``random``)."""
    return pick(game_module(state).chance_outcomes(state), rng)


def advance(state: State, rng: random.Random) -> State:
    """Apply sampled chance outcomes until a player has to decide (or the game is over)."""
    game = game_module(state)
    while True:
        outcomes = game.chance_outcomes(state)
        if not outcomes:
            return state
        state = game.apply(state, pick(outcomes, rng))


def replay(start: State, history: Iterable[Any], apply: Callable[[State, Any], State]) -> State:
    """Fold ``apply`` over a move log: undo, save files and replays are all this one function."""
    state = start
    for move in history:
        state = apply(state, move)
    return state


# --- save files: a game is its set-up plus its move log, replayed on loading ------------------------


def encode_move(move: Any) -> dict[str, Any]:
    """A move dataclass as a JSON-ready dict: its class name under ``"move"`` plus its fields."""
    if not dataclasses.is_dataclass(move):
        raise TypeError(f"{move!r} is not a move")
    data: dict[str, Any] = {"move": type(move).__name__}
    for field in dataclasses.fields(move):
        data[field.name] = _plain(getattr(move, field.name))
    return data


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    if isinstance(value, frozenset):
        return sorted(_plain(item) for item in value)
    if isinstance(value, Fraction):
        return str(value)
    if dataclasses.is_dataclass(value):
        return encode_move(value)
    return value


MAX_NESTING = 8  # no move field nests deeper than a list of pairs; deeper input is refused, never recursed into


def quote(value: Any, limit: int = 60) -> str:
    """A value for an error message: its repr, cut to a short prefix (a save may hold megabytes in one field, or
    lists nested thousands deep: ``reprlib`` stops at a few levels instead of recursing)."""
    text = _QUOTER.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_QUOTER = reprlib.Repr()
_QUOTER.maxlevel = 3
_QUOTER.maxstring = _QUOTER.maxother = _QUOTER.maxlong = 80
_QUOTER.maxlist = _QUOTER.maxtuple = _QUOTER.maxdict = _QUOTER.maxset = _QUOTER.maxfrozenset = 8


def _frozen(value: Any, where: str, depth: int = 0) -> Any:
    if depth > MAX_NESTING:
        raise ValueError(f"{where}: nested more than {MAX_NESTING} deep")
    if isinstance(value, list):
        return tuple(_frozen(item, where, depth + 1) for item in value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise ValueError(f"{where}: unexpected value {quote(value)}")


def decode_move(data: Any, classes: Mapping[str, type], where: str = "move") -> Any:
    """The move encoded by :func:`encode_move`; anything malformed raises ``ValueError`` naming it."""
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected an object, got {type(data).__name__}")
    name = data.get("move")
    if not isinstance(name, str) or name not in classes:
        raise ValueError(f"{where}: unknown move {quote(name)} (known: {', '.join(sorted(classes))})")
    cls = classes[name]
    names = {field.name for field in dataclasses.fields(cls)}
    given = set(data) - {"move"}
    if given != names:
        missing, extra = sorted(names - given), sorted(given - names)
        raise ValueError(f"{where}: {name} fields wrong (missing {missing}, unexpected {quote(extra)})")
    values = {key: _frozen(data[key], f"{where}.{key}") for key in names}
    try:
        return cls(**values)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{where}: {quote(str(error), 200)}") from None


SAVE_KEYS = ("game", "version", "setup", "history")


def dump_game(game: str, version: int, setup: Mapping[str, Any], history: Iterable[Any]) -> str:
    """A save file: the game's name, the rules version, its set-up and its move log."""
    return json.dumps(
        {"game": game, "version": version, "setup": dict(setup), "history": [encode_move(m) for m in history]},
        indent=None,
        separators=(",", ":"),
    )


def parse_json(text: str | bytes, what: str) -> Any:
    """``json.loads`` whose every failure is a ValueError starting with ``what`` (nesting too deep included)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"{what}: the JSON is nested too deeply") from None
    except (TypeError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{what}: {quote(str(error), 200)}") from None


def load_game(text: str | bytes, game: str, version: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Parse and check the envelope of a save file; returns ``(setup, history)`` still to be replayed."""
    data = parse_json(text, "not a saved game")
    if not isinstance(data, dict):
        raise ValueError("not a saved game: expected a JSON object")
    unknown = sorted(set(data) - set(SAVE_KEYS))
    if unknown:
        raise ValueError(f"saved game: unknown key {quote(unknown[0])} (a save holds {', '.join(SAVE_KEYS)})")
    if data.get("game") != game:
        raise ValueError(f"this is a saved game of {quote(data.get('game'))}, not {game!r}")
    saved = data.get("version")
    if type(saved) is not int or saved != version:  # not `true`, which equals 1 in Python
        raise ValueError(f"saved with rules version {quote(saved)}; this rulebook plays version {version}")
    setup, history = data.get("setup"), data.get("history")
    if not isinstance(setup, dict):
        raise ValueError("saved game: 'setup' must be an object")
    if not isinstance(history, list):
        raise ValueError("saved game: 'history' must be a list")
    return setup, history


def describe(move: Any) -> str:
    """A move as the rules word it, or its plain repr when its fields are not of the right types."""
    try:
        return str(move)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):
        return repr(move)


def replay_saved(
    start: State, history: list[Any], classes: Mapping[str, type], apply: Callable[[State, Any], State]
) -> State:
    """Replay a decoded save file; an illegal or malformed entry raises ``ValueError`` with its index."""
    state = start
    for index, data in enumerate(history):
        move = decode_move(data, classes, where=f"history[{index}]")
        try:
            state = apply(state, move)
        except IllegalMove as error:
            raise ValueError(f"history[{index}] ({describe(move)}) is not legal here: {error}") from None
        except (TypeError, KeyError, IndexError, AttributeError) as error:
            raise ValueError(f"history[{index}] ({describe(move)}) is malformed: {error!r}") from None
    return state


def seeded(seed: int | None) -> random.Random:
    """A private random generator; a seed is required so that every run shows the same game."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an int, got {seed!r}")
    return random.Random(seed)
