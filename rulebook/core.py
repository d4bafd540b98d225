"""The pieces every game shares: errors, outcomes, chance sampling, replay and save files.

Every game module (``rulebook.meetjesland``, ...) exposes the same verbs over an immutable state:
``new_game``, ``legal_moves``, ``chance_outcomes``, ``check``, ``apply``, ``outcome``, ``to_json`` and
``from_json``.  Chance (dice, draws, shuffles) is an explicit node of the game: the engine lists the
outcomes with exact ``Fraction`` probabilities and the caller picks one, with :func:`sample` or by hand.
"""

from __future__ import annotations

import array
import bisect
import dataclasses
import heapq
import itertools
import json
import math
import random
import threading
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
            raise ValueError(f"chance outcome {quote(outcome)} has probability {quote(probability)}")
        total += probability
    if outcomes and total != 1:
        raise ValueError(f"chance outcomes sum to {total}, not 1")


def game_module(state: Any) -> Any:
    """The engine module of the registered game a state belongs to (the module with ``chance_outcomes``, ``apply``).

    Remembered per state class: :func:`advance` and :func:`sample` ask on every chance node."""
    cls = type(state)
    engine = _ENGINES.get(cls)
    if engine is None:
        from . import registry  # the registry imports this module: asked here, not at import

        engine = _ENGINES[cls] = registry.game_of(state).engine
    return engine


_ENGINES: dict[type, Any] = {}


_TICKETS: dict[int, tuple[Sequence, int, tuple[int, ...]]] = {}
# held while the remembered lists change: a study's games may run in threads of one process (a dask worker's), and two
# threads evicting the same oldest entry at once made one of them fail with a KeyError
_TICKETS_LOCK = threading.Lock()


def _tickets(outcomes: Sequence[tuple[Any, Fraction]]) -> tuple[int, tuple[int, ...]]:
    """The common denominator and the running sums of the outcomes' shares of it, remembered for the outcome lists
    games reuse (a cached tuple of dice outcomes has over a thousand Fractions; summing them on every roll was the
    cost)."""
    cached = _TICKETS.get(id(outcomes))
    if cached is not None and cached[0] is outcomes:
        return cached[1], cached[2]
    denominator = math.lcm(*(probability.denominator for _, probability in outcomes))
    ends = tuple(itertools.accumulate(p.numerator * (denominator // p.denominator) for _, p in outcomes))
    if isinstance(outcomes, tuple):
        with _TICKETS_LOCK:
            if len(_TICKETS) >= 256:
                _TICKETS.pop(next(iter(_TICKETS)))
            _TICKETS[id(outcomes)] = (outcomes, denominator, ends)  # the reference keeps the id from being reused
    return denominator, ends


def pick(outcomes: Sequence[tuple[Any, Fraction]], rng: random.Random) -> Any:
    """Pick one outcome exactly in proportion to its Fraction (one integer draw from ``rng``): the outcome whose
    range of tickets holds the ticket drawn, found by bisection (a 3-against-2 dice table has 1,176 outcomes)."""
    if not outcomes:
        raise ValueError("not a chance node: there is no outcome to pick")
    denominator, ends = _tickets(outcomes)
    ticket = rng.randrange(denominator)
    index = bisect.bisect_right(ends, ticket)
    if index == len(ends):
        raise ValueError("chance outcomes sum to less than 1")
    return outcomes[index][0]


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
        raise TypeError(f"{quote(move)} is not a move")
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
MAX_TEXT = 200  # characters of a text in a move field: names of territories, cards, tiles and colours are short
MAX_ITEMS = 1000  # items of a list in a move field: the longest real one is a jump chain or a route of a few dozen
MAX_NUMBER = 10**18  # a number in a move field counts points, dice or fields: a larger one is refused unread


def count(number: int, word: str, words: str | None = None) -> str:
    """``1 card``, ``3 cards``, ``no cards``: a number with its noun (``words``: a plural that is not ``word + s``)."""
    many = words or word + "s"
    if number == 0:
        return f"no {many}"
    return f"{number} {word if number == 1 else many}"


def cut(text: str, limit: int, ellipsis: str = "...") -> str:
    """``text`` if it has at most ``limit`` characters, else its first characters and ``ellipsis`` in ``limit``."""
    return text if len(text) <= limit else text[: max(0, limit - len(ellipsis))] + ellipsis


def repr_prefix(value: Any, limit: int = 60) -> str:
    """The first ``limit`` characters of ``repr(value)`` (the whole repr when shorter), computed without building
    the rest: a save may hold megabytes in one field, lists nested thousands deep or numbers of thousands of digits.
    The text comes back one character longer than ``limit`` when the repr goes on, so a caller knows to cut it."""
    parts: list[str] = []
    _prefix(value, limit + 1, parts, 0)
    return "".join(parts)[: limit + 1]


def _prefix(value: Any, budget: int, parts: list[str], depth: int) -> int:
    """Append at least ``budget`` characters of ``value``'s repr to ``parts`` (or all of it); the budget left."""
    if budget <= 0:
        return 0
    if depth > MAX_NESTING:
        parts.append("...")
        return budget - 3
    if isinstance(value, str):
        text = repr(value[:budget])
        text = text[:-1] if len(value) > budget else text  # the closing quote is not reached
    elif isinstance(value, bytes):
        text = repr(value[:budget])
    elif isinstance(value, int) and value.bit_length() > 4 * budget + 64:  # over ~budget digits: say the size
        text = f"<a number of about {int(value.bit_length() * 0.30103)} digits>"
    elif isinstance(value, (tuple, list, set, frozenset, dict)) and not hasattr(value, "_fields"):
        return _prefix_items(value, budget, parts, depth)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts.append(f"{type(value).__name__}(")
        budget -= len(parts[-1])
        for index, field in enumerate(field for field in dataclasses.fields(value) if field.repr):
            if budget <= 0:
                return 0
            parts.append(f"{', ' if index else ''}{field.name}=")
            budget = _prefix(getattr(value, field.name, None), budget - len(parts[-1]), parts, depth + 1)
        text = ")"
    else:
        try:
            text = repr(value)  # a number, None, a Fraction, an exception, an object of the engine
        except Exception:  # noqa: BLE001 - a hostile or broken repr must not replace the error being reported
            text = f"<{type(value).__name__}>"
    parts.append(text[: budget + 1])
    return budget - len(parts[-1])


def _prefix_items(value: Any, budget: int, parts: list[str], depth: int) -> int:
    if isinstance(value, dict):
        opening, closing = "{", "}"
    elif not value and isinstance(value, (set, frozenset)):
        opening, closing = f"{type(value).__name__}(", ")"
    elif isinstance(value, frozenset):
        opening, closing = "frozenset({", "})"
    elif isinstance(value, set):
        opening, closing = "{", "}"
    else:
        opening, closing = ("(", ",)" if len(value) == 1 else ")") if isinstance(value, tuple) else ("[", "]")
    parts.append(opening)
    budget -= len(opening)
    for index, item in enumerate(value.items() if isinstance(value, dict) else value):
        if budget <= 0:
            return 0
        if index:
            parts.append(", ")
            budget -= 2
        if isinstance(value, dict):
            budget = _prefix(item[0], budget, parts, depth + 1)
            parts.append(": ")
            budget = _prefix(item[1], budget - 2, parts, depth + 1)
        else:
            budget = _prefix(item, budget, parts, depth + 1)
    parts.append(closing)
    return budget - len(closing)


def quote(value: Any, limit: int = 60) -> str:
    """A value for an error message: its repr, cut to a short prefix; the cost stays small however large or deep
    the value is (see :func:`repr_prefix`)."""
    return cut(repr_prefix(value, limit), limit)


def _small(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is small enough to word in full: short texts, ordinary numbers, a few items, not deep."""
    if value is None or isinstance(value, (bool, float, Fraction)):
        return True
    if isinstance(value, str):
        return len(value) <= MAX_TEXT
    if isinstance(value, int):
        return -MAX_NUMBER <= value <= MAX_NUMBER
    if depth >= 4:
        return False
    if isinstance(value, (tuple, list, frozenset)):
        return len(value) <= 16 and all(_small(item, depth + 1) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return all(_small(getattr(value, field.name, None), depth + 1) for field in dataclasses.fields(value))
    return False


def said(move: Any, limit: int = 80, ellipsis: str = "...") -> str:
    """A move for an error message: as the rules word it when its fields are small, else the short prefix of its
    repr (wording a move holding a megabyte text, or a text as its list of cards, took seconds), cut to ``limit``."""
    text = describe(move) if _small(move) else repr_prefix(move, limit)
    return cut(text, limit, ellipsis)


def _frozen(value: Any, where: str, depth: int = 0) -> Any:
    if depth > MAX_NESTING:
        raise ValueError(f"{where}: nested more than {MAX_NESTING} deep")
    if isinstance(value, list):
        if len(value) > MAX_ITEMS:
            raise ValueError(f"{where}: a list of {len(value)} items (a move's lists hold at most {MAX_ITEMS})")
        return tuple(_frozen(item, where, depth + 1) for item in value)
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise ValueError(f"{where}: a text of {len(value)} characters ({quote(value, 40)}); at most {MAX_TEXT}")
        return value
    if isinstance(value, int) and not isinstance(value, bool) and not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise ValueError(f"{where}: the number {quote(value, 40)} is out of range for a move")
    if value is None or isinstance(value, (bool, int)):
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
        missing, extra = sorted(names - given), heapq.nsmallest(4, given - names)  # not all of a million keys
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


# How deep a JSON text the rulebook reads may nest: the most brackets ([ and {) open at once. Measured on the real
# files: a save nests at most 6 levels (Ab die Post's: the save, its set-up, the rules' options, the marble table,
# a row, its counts), a tutorial 8 (Claim's) and an exercise file 9 (Ab die Post's: the file, its exercises, one
# exercise, its position, a save). A move's field may nest MAX_NESTING (8) levels under a move (the file, its
# exercises, one exercise, its choices, a choice, the move: 6 levels): 14.
# 20 leaves room above all of them and stays far below where a parser's recursion is at risk: Python's own limit
# is 1,000 levels, and the browser's Python (Pyodide) lost its stack to a save 3,000 deep (issue 48.1).
MAX_DEPTH = 20

# Each bracket's step, +1 or -1 as a signed byte, and the bytes that are no bracket (UTF-8 writes every other
# character with bytes that are none of the four).
_BRACKET_STEP = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_A_BRACKET = bytes(byte for byte in range(256) if byte not in b"[{]}")


def json_depth(text: str) -> int:
    """How deep a JSON text nests: the most brackets open at once, outside its strings (0 for a number or a text).

    Counted without parsing and without recursion, each step in C: the escapes (``\\\\``, ``\\"``) taken out, the
    strings' text dropped (every other piece between quotes), the brackets' running sum taken (an 8 MB text in under
    a second, 100,000 brackets in milliseconds). It is never less than the depth a parser reaches: in valid JSON the
    escapes pair up from the left within a string, as ``str.replace`` takes them, and a parser stops at the first
    thing that is not JSON (a stray backslash, a badly matched bracket): what this reads after that point may add
    to the count, never take from it."""
    plain = text.replace("\\\\", "").replace('\\"', "")
    outside = "".join(plain.split('"')[::2])  # an unclosed string runs to the end, as the parser reads it
    steps = outside.encode("utf-8", "surrogatepass").translate(_BRACKET_STEP, _NOT_A_BRACKET)
    return max(itertools.accumulate(array.array("b", steps)), default=0)


def check_depth(text: str, what: str, kind: str = "a file of the rulebook", limit: int = MAX_DEPTH) -> None:
    """ValueError starting with ``what`` when ``text`` nests deeper than ``limit`` (``kind`` names what it should
    be): called before the text is parsed, so no parser recurses into it (issue 48.1)."""
    depth = json_depth(text)
    if depth > limit:
        raise ValueError(f"{what}: the JSON is nested too deeply ({depth:,} levels; {kind} needs at most {limit})")


def parse_json(text: str | bytes | bytearray, what: str, kind: str = "a file of the rulebook") -> Any:
    """``json.loads`` whose every failure is a ValueError starting with ``what``; a text nested deeper than
    :data:`MAX_DEPTH` is refused before it is parsed (:func:`check_depth`; ``kind`` names what the text should be)."""
    try:
        if isinstance(text, (bytes, bytearray)):  # read as json.loads reads bytes: UTF-8, -16 or -32
            text = bytes(text).decode(json.detect_encoding(text), "surrogatepass")
    except UnicodeDecodeError as error:
        raise ValueError(f"{what}: {quote(str(error), 200)}") from None
    if isinstance(text, str):
        check_depth(text, what, kind)
    try:
        return json.loads(text)
    except (TypeError, ValueError) as error:  # bad JSON, not a text, or a number of more than 4300 digits
        raise ValueError(f"{what}: {quote(str(error), 200)}") from None


MAX_SAVE = 8_000_000  # characters of a save at most: a long game takes about 100 KB; a larger text is refused unread


def load_game(text: str | bytes, game: str, version: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Parse and check the envelope of a save file; returns ``(setup, history)`` still to be replayed."""
    if isinstance(text, (str, bytes)) and len(text) > MAX_SAVE:
        raise ValueError(f"not a saved game: {len(text)} characters, more than a save holds ({MAX_SAVE})")
    data = parse_json(text, "not a saved game", "a saved game")
    if not isinstance(data, dict):
        raise ValueError("not a saved game: expected a JSON object")
    unknown = set(data) - set(SAVE_KEYS)
    if unknown:
        raise ValueError(f"saved game: unknown key {quote(min(unknown))} (a save holds {', '.join(SAVE_KEYS)})")
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
            raise ValueError(f"history[{index}] ({said(move, 60)}) is not legal here: {cut(str(error), 160)}") from None
        except ValueError as error:
            raise ValueError(f"history[{index}] ({said(move, 60)}) is malformed: {cut(str(error), 160)}") from None
        except (TypeError, KeyError, IndexError, AttributeError) as error:
            problem = f"{type(error).__name__}: {cut(str(error), 140)}"
            raise ValueError(f"history[{index}] ({said(move, 60)}) is malformed: {problem}") from None
    return state


def seeded(seed: int | None) -> random.Random:
    """A private random generator; a seed is required so that every run shows the same game."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an int, got {quote(seed)}")
    return random.Random(seed)
