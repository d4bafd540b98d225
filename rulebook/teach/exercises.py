"""Rule exercises (issue 15): a position, a question, choices, and an answer the engine computes.

The exercises are data, one JSON file per game in ``rulebook/exercises/`` (read with :mod:`json`, never evaluated).
Each one names the paragraphs it practises, holds its position in the game's own save format (the object
``to_json`` writes, or a text diagram for a game that reads one: ``Game.diagram``) and its choices; the answer it
states is checked against the engine by the tests, and marking always uses the engine's answer
(:func:`computed_answer`).

Three kinds of question:

- ``"legal"``: choices are moves; the right ones are exactly those ``check(state, move)`` allows (several may be);
- ``"most"``: choices are moves; the right one gains most when applied, by the game's measure (``Game.measure``);
- ``"value"``: choices are values; the right one equals what the function named in ``"value"`` (one of
  :func:`value_functions`, an explicit allow-list) computes from the position and the exercise's ``"args"``.

Which games have exercises, where their files are and their answer functions: the registry (``Game.exercises``,
``Game.values``, ``Game.measure``) says; nothing here names a game.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
import types
import typing
from collections import abc
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulebook import registry
from rulebook.core import cut, decode_move, parse_json, quote
from rulebook.teach import rules_text
from rulebook.view import markup
from rulebook.view.markup import Markup

KINDS = ("legal", "most", "value")
FIELDS = {"id", "rules", "position", "question", "kind", "choices", "answer", "why", "value", "args"}
REQUIRED = ("id", "rules", "position", "question", "kind", "choices", "answer", "why")


def __getattr__(name: str) -> Any:
    if name == "GAMES":  # the games, read from the registry when asked for (importing this module loads none)
        return rules_text.GAMES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Choice:
    """One answer a learner may pick: its label, and the move (``"legal"``, ``"most"``) or value it stands for."""

    label: str
    move: Any = None
    value: Any = None


@dataclass(frozen=True)
class Exercise:
    """One exercise, as validated from its game's data file."""

    game: str
    id: str
    rules: tuple[str, ...]
    position: Any  # the save object (dict) or the text of a diagram (Game.diagram)
    question: str
    kind: str
    choices: tuple[Choice, ...]
    answer: tuple[int, ...]  # the stated answer; the tests check it against computed_answer
    why: str
    value: str = ""
    args: tuple[tuple[str, Any], ...] = ()

    @property
    def several(self) -> bool:
        """Whether the learner ticks every right choice (checkboxes) rather than one (radio buttons)."""
        return self.kind == "legal"

    def state(self) -> Any:
        """The exercise's position as a state of its game (parsed anew each time: states are cheap to rebuild)."""
        return _state(self.game, _position_key(self.position))


# --- how "most" and "value" are measured: each game's answers, plus one question every game shares ----------------


def allowed(state: Any, move: Mapping[str, Any]) -> str:
    """ "yes" if the engine allows ``move`` (a move as the save format encodes it) in this position, else "no"."""
    game = registry.game_of(state)
    decoded = decode_move(dict(move), game.move_classes(), where="args.move")
    return "yes" if game.engine.check(state, decoded) is None else "no"


SHARED_VALUES: dict[str, Callable[..., Any]] = {"allowed": allowed}


def value_functions(game: str) -> dict[str, Callable[..., Any]]:
    """The functions a "value" question of ``game`` may name (an explicit allow-list): the shared ones and the
    game's own (its ``Game.values``)."""
    return {**SHARED_VALUES, **registry.game(game).value_functions()}


# --- loading --------------------------------------------------------------------------------------------------


def data_dir() -> Path:
    """The folder of the rulebook's own exercise files (a game's relative ``Game.exercises`` is read from here)."""
    return Path(__file__).resolve().parent / "exercises"


def data_path(game: str) -> Path:
    """The exercise file of ``game``; ValueError for a game without exercises."""
    declared = registry.game(game)
    if not declared.exercises:
        raise ValueError(f"{declared.title} has no exercises")
    return data_dir() / declared.exercises  # an absolute path stays as it is


def _position_key(position: Any) -> str:
    return position if isinstance(position, str) else json.dumps(position, sort_keys=True)


@functools.lru_cache(maxsize=128)
def _state(game: str, key: str) -> Any:
    declared = registry.game(game)
    if not key.lstrip().startswith("{"):
        reader = declared.diagram_reader()
        if reader is None:
            raise ValueError(f"{declared.title} reads no diagrams: a position is a saved game")
        return reader(key)
    return declared.engine.from_json(key)


def _problem(where: str, text: str) -> ValueError:
    return ValueError(f"{where}: {text}")


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise _problem(where, f"'{key}' must be a non-empty text")
    return value.strip()


@dataclass(frozen=True)
class _Reading:
    """What every exercise of one file is checked against: its game, the paragraphs, move classes and value
    functions of that game."""

    game: str
    declared: registry.Game
    known: Mapping[str, Any]
    classes: Mapping[str, type]
    values: Mapping[str, Callable[..., Any]]


def parse(game: str, data: Any, source: str = "exercises") -> tuple[Exercise, ...]:
    """The exercises of ``game`` from decoded JSON; anything malformed raises ValueError naming the exercise."""
    declared = registry.game(game)  # ValueError for an unknown game, naming the known ones
    if not isinstance(data, dict) or set(data) != {"game", "exercises"}:
        raise ValueError(f"{source}: expected an object with 'game' and 'exercises'")
    if data["game"] != game:
        raise ValueError(f"{source}: holds the exercises of {quote(data['game'])}, not {game!r}")
    if not isinstance(data["exercises"], list) or not data["exercises"]:
        raise ValueError(f"{source}: 'exercises' must be a non-empty list")
    reading = _Reading(game, declared, rules_text.paragraphs(game), declared.move_classes(), value_functions(game))
    found: list[Exercise] = []
    seen: set[str] = set()
    for number, item in enumerate(data["exercises"], start=1):
        where = f"{source}, exercise {number}"
        if not isinstance(item, dict):
            raise _problem(where, "expected an object")
        if isinstance(item.get("id"), str):
            where = f"{source}, exercise {cut(item['id'], 40)}"  # every message names it: a short prefix
        found.append(_exercise(reading, item, where, seen))
    return tuple(found)


def _exercise(reading: _Reading, item: dict[str, Any], where: str, seen: set[str]) -> Exercise:
    """One exercise of the file, every field checked (``where`` names it in the errors); its id is added to
    ``seen``, the ids of the exercises before it."""
    missing = [key for key in REQUIRED if key not in item]
    if missing:
        raise _problem(where, f"missing {', '.join(missing)}")
    unknown = set(item) - FIELDS
    if unknown:
        raise _problem(where, f"unknown field {quote(min(unknown))}")
    identifier = _text(item, "id", where)
    if identifier in seen:
        raise _problem(where, "the id is used twice")
    seen.add(identifier)
    rules = item["rules"]
    if not isinstance(rules, list) or not rules or not all(isinstance(rule, str) for rule in rules):
        raise _problem(where, "'rules' must be a non-empty list of paragraph ids")
    for rule in rules:
        if rule not in reading.known:
            raise _problem(where, f"cites {cut(rule, 40)}, which is no paragraph of the {reading.game} rules")
    kind, value_name, args = _question(reading, item, where)
    _position(reading, item["position"], where)
    choices = _choices(reading, item["choices"], kind, where)
    return Exercise(
        game=reading.game,
        id=identifier,
        rules=tuple(rules),
        position=item["position"],
        question=_text(item, "question", where),
        kind=kind,
        choices=choices,
        answer=_answer(item["answer"], kind, len(choices), where),
        why=_text(item, "why", where),
        value=value_name,
        args=tuple(sorted(args.items())),
    )


def _question(reading: _Reading, item: dict[str, Any], where: str) -> tuple[str, str, dict[str, Any]]:
    """The kind of question, and for a "value" question the function it names and the arguments, which must fit."""
    kind = item["kind"]
    if kind not in KINDS:
        raise _problem(where, f"kind {quote(kind)} is not one of {', '.join(KINDS)}")
    if kind == "most" and reading.declared.measure_function() is None:
        raise _problem(where, f"'most' needs a measure, and {reading.game} has none")
    value_name, args = item.get("value", ""), item.get("args", {})
    if kind == "value":
        if not isinstance(value_name, str) or value_name not in reading.values:
            raise _problem(where, f"value function {quote(value_name)} is not one of {', '.join(reading.values)}")
    elif value_name or args:
        raise _problem(where, "'value' and 'args' belong to value questions only")
    if not isinstance(args, dict):
        raise _problem(where, "'args' must be an object")
    if kind == "value":
        function = reading.values[value_name]
        try:
            inspect.signature(function).bind(None, **args)
        except TypeError as error:
            raise _problem(where, f"the arguments do not fit {value_name} ({cut(str(error), 120)})") from None
        _check_argument_types(function, args, where)
    return kind, value_name, args


def _argument_types(function: Callable[..., Any]) -> dict[str, Any]:
    """The annotated types of a value function's parameters ({} where they cannot be read)."""
    try:
        return typing.get_type_hints(function)
    except (NameError, TypeError, AttributeError, SyntaxError):  # an annotation naming what its module lacks
        return {}


def _fits(value: Any, hint: Any) -> bool:
    """Whether a JSON value is of the annotated type: the types JSON holds (text, whole numbers, numbers, true or
    false, lists, objects), with their items; a type JSON cannot name (a state, a move class) is not checked."""
    if hint is Any:
        return True
    origin, inner = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        return any(_fits(value, option) for option in inner)
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    if hint in (list, tuple) or origin in (list, tuple, abc.Sequence):
        items = [option for option in inner if option is not Ellipsis]
        return isinstance(value, list) and all(_fits(each, items[0]) for each in value) if items else True
    if hint is dict or origin in (dict, abc.Mapping):
        return isinstance(value, dict) and (not inner or all(_fits(each, inner[1]) for each in value.values()))
    return True


def _type_name(hint: Any) -> str:
    names = {int: "a whole number", float: "a number", str: "a text", bool: "true or false"}
    if hint in names:
        return names[hint]
    origin = typing.get_origin(hint)
    if hint in (list, tuple) or origin in (list, tuple, abc.Sequence):
        inner = [option for option in typing.get_args(hint) if option is not Ellipsis]
        return f"a list of {_type_name(inner[0]).split(' ', 1)[-1]}s" if inner else "a list"
    if hint is dict or origin in (dict, abc.Mapping):
        return "an object"
    return getattr(hint, "__name__", str(hint))


def _check_argument_types(function: Callable[..., Any], args: Mapping[str, Any], where: str) -> None:
    """Refuse an argument of the wrong type for its value function ("player": "0" where a seat number is meant):
    the function would fail while marking, long after the file was read."""
    hints = _argument_types(function)
    for name, value in args.items():
        if name in hints and not _fits(value, hints[name]):
            raise _problem(where, f"'args.{name}' must be {_type_name(hints[name])}, not {quote(value)}")


def _position(reading: _Reading, position: Any, where: str) -> None:
    """Refuse a position that is neither a save nor (for a game that reads them) a diagram, or does not load."""
    if not isinstance(position, (dict, str)) or (isinstance(position, str) and not reading.declared.diagram):
        raise _problem(where, "'position' must be a saved game (an object), or a diagram for a game that reads one")
    try:
        _state(reading.game, _position_key(position))
    except ValueError as error:
        raise _problem(where, f"the position does not load ({cut(str(error), 200)})") from None


def _choices(reading: _Reading, choices: Any, kind: str, where: str) -> tuple[Choice, ...]:
    """The choices: labelled values for a "value" question, labelled moves (decoded) for the others."""
    if not isinstance(choices, list) or len(choices) < 2:
        raise _problem(where, "'choices' must list at least two choices")
    parsed: list[Choice] = []
    for index, choice in enumerate(choices):
        place = f"{where}, choice {index + 1}"
        if not isinstance(choice, dict):
            raise _problem(place, "expected an object")
        label = _text(choice, "label", place)
        if kind == "value":
            if set(choice) != {"label", "value"} or not isinstance(choice["value"], (str, int)):
                raise _problem(place, "a value question's choice has a 'label' and a 'value' (text or number)")
            parsed.append(Choice(label, value=choice["value"]))
        else:
            if set(choice) != {"label", "move"}:
                raise _problem(place, "a move question's choice has a 'label' and a 'move'")
            parsed.append(Choice(label, move=decode_move(choice["move"], reading.classes, where=place)))
    return tuple(parsed)


def _answer(answer: Any, kind: str, count: int, where: str) -> tuple[int, ...]:
    """The stated answer: choice numbers, each once; exactly one but for "legal" questions."""
    if (
        not isinstance(answer, list)
        or not answer
        or not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < count for i in answer)
        or len(set(answer)) != len(answer)
    ):
        raise _problem(where, f"'answer' must list choice numbers from 0 to {count - 1}, each once")
    if kind != "legal" and len(answer) != 1:
        raise _problem(where, f"a {kind!r} question has exactly one right choice")
    return tuple(sorted(answer))


@functools.cache
def exercises(game: str) -> tuple[Exercise, ...]:
    """Every exercise of ``game``, read from its file (``Game.exercises``) and validated."""
    path = data_path(game)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{path.name}: cannot read the exercises ({cut(str(error), 120)})") from None
    return read(game, text, path.name)


def read(game: str, text: str | bytes, source: str = "exercises") -> tuple[Exercise, ...]:
    """The exercises of ``game`` from the text of an exercise file; JSON nested deeper than an exercise file needs
    is refused before it is parsed (:func:`rulebook.core.parse_json`), anything else malformed as :func:`parse`
    refuses it."""
    return parse(game, parse_json(text, f"{source}: cannot read the exercises", "an exercise file"), source)


def exercise(game: str, identifier: str) -> Exercise:
    for item in exercises(game):
        if item.id == identifier:
            return item
    raise ValueError(f"no exercise {quote(identifier)} for {game}")


# --- answers and marking ------------------------------------------------------------------------------------


def computed_answer(item: Exercise) -> tuple[int, ...]:
    """The indices of the right choices, as the engine decides them in the exercise's position; ValueError naming
    the exercise when the engine cannot decide (a value function refusing its arguments, a move it cannot read)."""
    try:
        return _computed_answer(item)
    except (ValueError, LookupError, TypeError, ArithmeticError) as error:
        reason = cut(str(error) or type(error).__name__, 160)
        raise ValueError(f"exercise {cut(item.id, 60)}: its answer cannot be computed ({reason})") from None


def _computed_answer(item: Exercise) -> tuple[int, ...]:
    state = item.state()
    declared = registry.game(item.game)
    game = declared.engine
    if item.kind == "legal":
        return tuple(i for i, choice in enumerate(item.choices) if game.check(state, choice.move) is None)
    if item.kind == "most":
        measure = declared.measure_function()
        assert measure is not None  # parse refuses a "most" question of a game without a measure
        gains: list[int | None] = []
        for choice in item.choices:
            if game.check(state, choice.move) is not None:
                gains.append(None)  # an illegal move gains nothing: it cannot be played
            else:
                gains.append(measure(state, game.apply(state, choice.move)))
        best = max((gain for gain in gains if gain is not None), default=None)
        return tuple(i for i, gain in enumerate(gains) if gain is not None and gain == best)
    value = value_functions(item.game)[item.value](state, **dict(item.args))
    return tuple(i for i, choice in enumerate(item.choices) if choice.value == value)


def cited(item: Exercise) -> list[tuple[str, str]]:
    """The paragraphs an exercise practises: (id, text without markdown marks, starting with the id) each."""
    result = []
    for rule in item.rules:
        markdown = rules_text.paragraph(item.game, rule).markdown
        plain = re.sub(r"[*`_]", "", markdown).strip()
        result.append((rule, plain))
    return result


def labels(item: Exercise, indices: Iterable[int]) -> str:
    names = [item.choices[i].label for i in indices]
    if not names:
        return "none of them"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def mark(item: Exercise, chosen: Iterable[int]) -> tuple[bool, str]:
    """Whether ``chosen`` (choice indices) is the engine's answer, and what to tell the learner: a right answer
    says so with the reason; a wrong one gives the answer, the reason and the cited paragraphs' text."""
    picked = tuple(sorted(set(chosen)))
    right = computed_answer(item)
    if not picked:
        return False, "Choose an answer first."
    if picked == right:
        return True, f"Right: {labels(item, right)}. {item.why}"
    paragraphs = "\n".join(text for _, text in cited(item))  # each text begins with its id
    return False, f"Not quite. The answer is {labels(item, right)}. {item.why}\n{paragraphs}"


def feedback_html(item: Exercise, chosen: Iterable[int]) -> tuple[bool, Markup]:
    """:func:`mark` as HTML for a panel: the verdict, the reason and, after a wrong answer, the cited paragraphs."""
    picked = tuple(sorted(set(chosen)))
    right = bool(picked) and mark(item, picked)[0]
    cited = []
    if picked and not right:  # a wrong answer shows the paragraphs it should have followed
        cited = [(rule, rules_text.to_html(rules_text.paragraph(item.game, rule).markdown)) for rule in item.rules]
    html = markup.render(
        "exercise_feedback.html",
        chosen=bool(picked),
        right=right,
        answer=labels(item, computed_answer(item)) if picked else "",
        why=item.why,
        cited=cited,
    )
    return right, html
