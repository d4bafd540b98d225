"""Guided first games (issue 27): a tutorial is data, one ``tutorial.json`` in a game's package, played on the live
board step by step and checked by the engine.

A step holds a position (its own, or the previous step's after its move), an instruction, the move it teaches and the
paragraphs it cites; replies (other seats' moves, chance outcomes) follow the step's move. :class:`Lesson` judges
every move the learner makes with the engine's ``check``: the step's own move advances, another legal move is
explained and taken back, an illegal one gets its refusal. Plain Python: nothing here imports a widget library, so a
script or a test walks a tutorial through a :class:`~rulebook.session.Session`. Nothing here names a game: the
registry says where a game's package is and what its moves are.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebook import registry
from rulebook.core import IllegalMove, cut, decode_move, parse_json, quote
from rulebook.engine import Engine
from rulebook.progress import events as progress
from rulebook.teach import rules_text

FILE = "tutorial.json"
TOP_FIELDS = {"game", "title", "intro", "allows", "steps", "end"}
STEP_FIELDS = {"position", "title", "say", "move", "accept", "rules", "about", "replies", "done"}
ACCEPT = ("move", "kind")  # the step's exact move (or one with the same result), or any legal move of its class
NEW_GAME_FIELDS = {"players", "seed", "options", "arrange", "moves"}
MAX_STEPS = 60


@dataclass(frozen=True)
class TutorialStep:
    """One step: where it starts, what the learner is told, the move it teaches and what follows that move."""

    number: int  # from 1
    state: Any  # the position the step starts from (built and checked when the file is read)
    say: str  # the instruction: what to do and why, in one or two sentences
    move: Any  # the move it teaches (an engine move); with accept "kind", an example of the kind
    accept: str  # "move" or "kind"
    rules: tuple[str, ...]  # the paragraphs it teaches (ids of the game's rules text)
    about: str  # what the step is about, for the explanation of another legal move ("a step"); "" names its move
    replies: tuple[Any, ...] = ()  # moves of the other seats (or chance outcomes) played after the step's move
    done: str = ""  # what the step's move did, told once it is made (besides the engine's narration)
    title: str = ""  # the heading of a part of the tutorial that starts here
    own_position: bool = False  # whether the step sets a position of its own (else it continues the previous one)
    after: Any = None  # the position once the step's move and its replies are played

    def accepts(self, state: Any, move: Any, engine: Engine) -> bool:
        """Whether ``move`` (legal in ``state``) does what the step asks: the same move or one with the same result,
        or, for a step that accepts a kind, any move of the step's move class."""
        if move == self.move:
            return True
        if self.accept == "kind":
            return type(move) is type(self.move)
        try:
            return same_position(engine.apply(state, move), engine.apply(state, self.move))
        except (IllegalMove, ValueError):
            return False


@dataclass(frozen=True)
class Tutorial:
    """A game's guided first game, as validated from its file."""

    game: str
    title: str
    intro: str
    allows: Mapping[str, str]  # move class name -> the paragraph that allows such a move ("that is legal too, by ...")
    steps: tuple[TutorialStep, ...]
    end: str

    @property
    def learner(self) -> frozenset[int]:
        """The seats the learner plays: those to move where a step starts (the others only reply)."""
        return frozenset(seat for step in self.steps if (seat := getattr(step.state, "player", None)) is not None)

    @property
    def rules(self) -> tuple[str, ...]:
        """Every paragraph the tutorial teaches, in the order first taught."""
        return tuple(dict.fromkeys(rule for step in self.steps for rule in step.rules))


def same_position(first: Any, second: Any) -> bool:
    """Whether two states are the same position, whatever their move logs say (a jump landed by another path)."""
    if dataclasses.is_dataclass(first) and dataclasses.is_dataclass(second) and type(first) is type(second):
        names = [f.name for f in dataclasses.fields(first) if f.name != "history"]
        return all(getattr(first, name) == getattr(second, name) for name in names)
    return first == second


# --- reading a tutorial file --------------------------------------------------------------------------------------


def path(game: str) -> Path | None:
    """Where ``game``'s tutorial file is (in its package, found through the registry), or None for a game without
    one."""
    declared = registry.game(game)
    spec = importlib.util.find_spec(declared.module)
    if spec is None or not spec.submodule_search_locations:
        return None
    found = Path(next(iter(spec.submodule_search_locations))) / FILE
    return found if found.is_file() else None


def games() -> tuple[str, ...]:
    """The registered games that have a tutorial, in the rulebook's order."""
    return tuple(name for name in registry.games() if path(name) is not None)


@functools.cache
def load(game: str) -> Tutorial:
    """``game``'s tutorial, read and validated once per process; ValueError names what is wrong (or that there is
    none)."""
    found = path(game)
    if found is None:
        raise ValueError(f"{registry.game(game).title} has no tutorial ({FILE} in its package)")
    try:
        text = found.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{found.name} of {game}: cannot be read ({cut(str(error), 120)})") from None
    return read(game, text, source=f"{game}/{FILE}")


def read(game: str, text: str | bytes, source: str = "tutorial") -> Tutorial:
    """``game``'s tutorial from the text of a tutorial file; JSON nested deeper than a tutorial needs is refused
    before it is parsed (:func:`rulebook.core.parse_json`), anything else malformed as :func:`parse` refuses it."""
    return parse(game, parse_json(text, f"{source}: cannot be read as JSON", "a tutorial file"), source=source)


def _fail(where: str, text: str) -> ValueError:
    return ValueError(f"{where}: {text}")


def _text(data: Mapping[str, Any], key: str, where: str, required: bool = True) -> str:
    value = data.get(key, "" if not required else None)
    if not isinstance(value, str) or (required and not value.strip()):
        raise _fail(where, f"'{key}' must be a non-empty text")
    return value.strip()


def _moves(data: Any, classes: Mapping[str, type], where: str) -> tuple[Any, ...]:
    if not isinstance(data, list):
        raise _fail(where, "expected a list of moves")
    return tuple(decode_move(item, classes, where=f"{where}[{index}]") for index, item in enumerate(data))


def _play(engine: Engine, state: Any, moves: Sequence[Any], where: str) -> Any:
    """``state`` after ``moves``, each checked by the engine; an illegal one is named with the engine's refusal."""
    for index, move in enumerate(moves):
        error = _check(engine, state, move, f"{where}[{index}]")
        if error is not None:
            raise _fail(
                f"{where}[{index}]", f"{quote(str(move), 80)} is not legal there ({error.rule}: {error.message})"
            )
        state = engine.apply(state, move)
    return state


def _check(engine: Engine, state: Any, move: Any, where: str) -> IllegalMove | None:
    """The engine's refusal of ``move`` (None if it is legal); a move the engine cannot read is named at ``where``.
    Asked of ``apply``, whose malformed moves are a ValueError of their own: ``check`` returns them as refusals."""
    try:
        engine.apply(state, move)
    except IllegalMove as error:
        return error
    except ValueError as error:
        raise _fail(where, str(error)) from None
    return None


def _position(declared: registry.Game, data: Any, classes: Mapping[str, type], where: str) -> Any:
    """A step's own position: a diagram (text, for a game that reads them), a save object (``setup`` and
    ``history``), or a new game from the set-up (``players``, ``seed``, ``options``) and the moves played since.
    A new game may be rewritten first by ``arrange`` (for an engine with an ``arrange(state, **fields)`` function,
    such as a written position of territories, hands and whose turn it is): its fields are the function's keyword
    arguments, JSON lists read as tuples; the engine checks the position as it checks every move after it."""
    if isinstance(data, str):
        reader = declared.diagram_reader()
        if reader is None:
            raise _fail(where, f"{declared.title} reads no diagrams: give a new game or a save")
        try:
            return reader(data)
        except ValueError as error:
            raise _fail(where, str(error)) from None
    if not isinstance(data, dict):
        raise _fail(where, "a position is a diagram, a save object or a new game")
    if "setup" in data:
        try:
            return declared.engine.from_json(json.dumps(data))
        except ValueError as error:
            raise _fail(where, str(error)) from None
    unknown = sorted(set(data) - NEW_GAME_FIELDS)
    if unknown or "seed" not in data:
        raise _fail(
            where,
            f"a new game needs 'seed' (and may give {sorted(NEW_GAME_FIELDS - {'seed'})})"
            + (f"; unknown field {quote(unknown[0])}" if unknown else ""),
        )
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise _fail(where, "'options' must be an object of set-up options")
    try:
        state = declared.new_state(data.get("players", declared.default_players), data["seed"], options)
    except ValueError as error:
        raise _fail(where, str(error)) from None
    if "arrange" in data:
        state = _arranged(declared, state, data["arrange"], f"{where}.arrange")
    return _play(declared.engine, state, _moves(data.get("moves", []), classes, f"{where}.moves"), f"{where}.moves")


def _arranged(declared: registry.Game, state: Any, fields: Any, where: str) -> Any:
    """``state`` rewritten by the engine's ``arrange`` with ``fields`` (JSON lists read as tuples); a game without
    one, or fields it refuses, raise ValueError naming the place."""
    arrange = getattr(declared.engine, "arrange", None)
    if arrange is None:
        raise _fail(where, f"{declared.title} has no 'arrange': give a new game's moves, a save or a diagram")
    if not isinstance(fields, dict):
        raise _fail(where, "'arrange' must be an object of the fields to write")

    def frozen(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: frozen(item) for key, item in value.items()}
        return tuple(frozen(item) for item in value) if isinstance(value, list) else value

    try:
        return arrange(state, **frozen(fields))
    except (TypeError, ValueError) as error:
        raise _fail(where, str(error)) from None


def parse(game: str, data: Any, source: str = "tutorial") -> Tutorial:
    """The tutorial of ``game`` from decoded JSON. Every position is built, every move (the step's and its replies)
    checked by the engine in its position and every cited id looked up in the rules text; the first problem
    raises ValueError naming the step."""
    declared = registry.game(game)
    if not isinstance(data, dict):
        raise _fail(source, "expected an object")
    unknown = sorted(set(data) - TOP_FIELDS)
    if unknown:
        raise _fail(source, f"unknown field {quote(unknown[0])} (known: {', '.join(sorted(TOP_FIELDS))})")
    if data.get("game") != game:
        raise _fail(source, f"holds the tutorial of {quote(data.get('game'))}, not {game!r}")
    known = rules_text.paragraphs(game)
    classes = declared.move_classes()
    allows = data.get("allows")
    if not isinstance(allows, dict) or not allows:
        raise _fail(source, "'allows' must map move names to the paragraph that allows each")
    for name, rule in allows.items():
        if name not in classes:
            raise _fail(source, f"'allows' names {quote(name)}, which is no move of {declared.title}")
        if rule not in known:
            raise _fail(source, f"'allows' cites {quote(rule)} for {name}, which is no paragraph of the rules")
    steps = data.get("steps")
    if not isinstance(steps, list) or not steps:
        raise _fail(source, "'steps' must be a non-empty list")
    if len(steps) > MAX_STEPS:
        raise _fail(source, f"{len(steps)} steps; a tutorial has at most {MAX_STEPS}")
    read: list[TutorialStep] = []
    for number, item in enumerate(steps, start=1):
        read.append(
            _step(declared, item, number, read[-1] if read else None, known, classes, f"{source}, step {number}")
        )
    _check_ends(declared, read, source)
    return Tutorial(
        game=game,
        title=_text(data, "title", source),
        intro=_text(data, "intro", source),
        allows=dict(allows),
        steps=tuple(read),
        end=_text(data, "end", source),
    )


def _step(
    declared: registry.Game,
    item: Any,
    number: int,
    before: TutorialStep | None,
    known: Mapping[str, Any],
    classes: Mapping[str, type],
    where: str,
) -> TutorialStep:
    engine = declared.engine
    if not isinstance(item, dict):
        raise _fail(where, "expected an object")
    unknown = sorted(set(item) - STEP_FIELDS)
    if unknown:
        raise _fail(where, f"unknown field {quote(unknown[0])} (known: {', '.join(sorted(STEP_FIELDS))})")
    state = _start_of(declared, item, before, classes, where)
    accept = item.get("accept", "move")
    if accept not in ACCEPT:
        raise _fail(where, f"'accept' is {' or '.join(ACCEPT)}, not {quote(accept)}")
    if "move" not in item:
        raise _fail(where, "missing 'move' (the move the step teaches)")
    move = decode_move(item["move"], classes, where=f"{where}, move")
    error = _check(engine, state, move, f"{where}, move")
    if error is not None:
        raise _fail(where, f"its move {quote(str(move), 80)} is not legal there ({error.rule}: {error.message})")
    rules = _cited(item, known, declared.title, where)
    replies = _moves(item.get("replies", []), classes, f"{where}, replies")
    if replies and accept == "kind":
        raise _fail(where, "a step that accepts any move of a kind has no replies (the learner's move may differ)")
    after = _play(engine, engine.apply(state, move), replies, f"{where}, replies")
    return TutorialStep(
        number=number,
        state=state,
        say=_text(item, "say", where),
        move=move,
        accept=accept,
        rules=tuple(rules),
        about=_text(item, "about", where, required=False),
        replies=replies,
        done=_text(item, "done", where, required=False),
        title=_text(item, "title", where, required=False),
        own_position="position" in item,
        after=after,
    )


def _check_ends(declared: registry.Game, steps: list[TutorialStep], source: str) -> None:
    """After every step the learner is to move (or the game is over), waiting on no chance: a board shows that
    position while the lesson waits, and a seat that only replies must never be left to move (its computer
    player would play there)."""
    engine = declared.engine
    learner = {seat for step in steps if (seat := getattr(step.state, "player", None)) is not None}
    for step in steps:
        if engine.outcome(step.after) is not None:
            continue
        if engine.chance_outcomes(step.after):
            raise _fail(f"{source}, step {step.number}", "its replies leave chance to settle: script the outcome")
        if getattr(step.after, "player", None) not in learner:
            raise _fail(f"{source}, step {step.number}", "its replies leave a seat the learner does not play to move")


def _start_of(
    declared: registry.Game, item: dict[str, Any], before: TutorialStep | None, classes: Mapping[str, type], where: str
) -> Any:
    """The position a step starts from: its own, or the previous step's after its move; one with a move to make."""
    engine = declared.engine
    if "position" in item:
        state = _position(declared, item["position"], classes, f"{where}, position")
    elif before is None:
        raise _fail(where, "the first step needs a 'position'")
    elif before.accept == "kind":
        raise _fail(where, f"step {before.number} accepts any move of its kind, so this step needs its own 'position'")
    else:
        state = before.after
    if engine.outcome(state) is not None:
        raise _fail(where, "the game is over in this position: nothing is left to do")
    if engine.chance_outcomes(state):
        raise _fail(where, "the position waits on chance: put the outcome in the moves before it (or the replies)")
    return state


def _cited(item: dict[str, Any], known: Mapping[str, Any], title: str, where: str) -> list[str]:
    """The step's paragraph ids, each one of the game's rules text."""
    rules = item.get("rules")
    if not isinstance(rules, list) or not rules or not all(isinstance(rule, str) for rule in rules):
        raise _fail(where, "'rules' must be a non-empty list of paragraph ids")
    for rule in rules:
        if rule not in known:
            raise _fail(where, f"cites {quote(rule)}, which is no paragraph of the {title} rules")
    return rules


# --- playing one ------------------------------------------------------------------------------------------------


@dataclass
class Verdict:
    """What the lesson made of a move: ``"step"`` (done, the lesson goes on), ``"other"`` (legal, but not the
    step's: taken back) or ``"refused"`` (illegal, or malformed); ``text`` is what the learner is told."""

    kind: str
    text: str
    rule: str = ""


@dataclass
class Lesson:
    """A learner's way through a tutorial: the step they are on (kept while the page is open), and the judge of
    every move made on the board. ``listeners`` are called with the lesson after each change of step."""

    tutorial: Tutorial
    index: int = 0  # the step on the board; len(steps) once every step is done
    waiting: bool = False  # the step's move is made and the next step has a position of its own: "Next" shows it
    done: set[int] = field(default_factory=set)  # numbers of the steps the learner has made
    listeners: list[Callable[[Lesson], None]] = field(default_factory=list)

    @property
    def engine(self) -> Engine:
        return registry.game(self.tutorial.game).engine

    @property
    def total(self) -> int:
        return len(self.tutorial.steps)

    @property
    def finished(self) -> bool:
        return self.index >= self.total

    @property
    def step(self) -> TutorialStep | None:
        """The step on the board (None at the end)."""
        return None if self.finished else self.tutorial.steps[self.index]

    def progress(self) -> str:
        """ "Step 4 of 16", or that every step is done."""
        if self.finished:
            return f"All {self.total} steps done"
        return f"Step {self.index + 1} of {self.total}"

    def start_state(self) -> Any:
        """The position the board shows for the step on it: the step's start, or (waiting, or at the end) the
        position its move led to."""
        if self.finished:
            return self.tutorial.steps[-1].after
        step = self.tutorial.steps[self.index]
        return step.after if self.waiting else step.state

    @property
    def wanted(self) -> Any:
        """The one move the step on the board wants (a board marks its place among the legal ones, as Hint marks
        its move), or None: at the end, while waiting for Next, or at a step that accepts any move of a kind."""
        return self._wanted_at(self.index, self.waiting)

    def _wanted_at(self, index: int, waiting: bool) -> Any:
        step = self.tutorial.steps[index] if index < self.total else None
        return step.move if step is not None and not waiting and step.accept == "move" else None

    def go(self, index: int) -> None:
        """Go to step ``index`` (0-based; ``total`` is the end), as Back and Skip do."""
        self.index = max(0, min(int(index), self.total))
        self.waiting = False
        self._changed()

    def back(self) -> None:
        self.go(self.index - 1 if not self.waiting else self.index)

    def skip(self) -> None:
        self.go(self.index + 1)

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener(self)

    def judge(self, state: Any, move: Any, words: Callable[[Any], str] = str) -> Verdict:
        """What ``move``, made in ``state``, is to the step on the board; ``words`` names a move as the board does."""
        step = self.step
        if step is None or self.waiting:
            where = "every step is done" if step is None else "this step is done"
            return Verdict("refused", f"The lesson waits: {where}. Press Next to go on, or Back to try it again.")
        try:
            error = self.engine.check(state, move)
        except ValueError as problem:  # a malformed move from a control
            return Verdict("refused", str(problem))
        if error is not None:
            return Verdict("refused", f"Refused by {error.rule}: {error.message}", error.rule)
        if step.accepts(state, move, self.engine):
            return Verdict("step", "")
        rule = self.tutorial.allows.get(type(move).__name__, "")
        by = f", by {rule}," if rule else ""
        about = step.about or words(step.move)
        return Verdict(
            "other",
            f"That is legal too{by} but this step is about {about} ({', '.join(step.rules)}). "
            "It was taken back; try again.",
            rule,
        )

    def advance(self) -> None:
        """The step's move is made: mark it done, then go on to the next step, or wait for Next when the next step
        sets a position of its own (the learner first sees what their move did)."""
        step = self.step
        assert step is not None
        self.done.add(step.number)
        self.index, self.waiting = self._next()
        self._changed()

    def _next(self) -> tuple[int, bool]:
        """Where :meth:`advance` goes from the step on the board: (index, waiting)."""
        following = self.index + 1
        if following < self.total and self.tutorial.steps[following].own_position:
            return self.index, True
        return following, False

    def guard(self, session: Any) -> None:
        """Let the lesson judge every move played in ``session`` (a :class:`~rulebook.session.Session` showing the
        step's position): its ``play``, ``undo`` and ``hint`` are replaced, on this object only, by the lesson's."""
        session.play = functools.partial(self._play, session)
        session.undo = functools.partial(self._undo, session)
        session.hint = functools.partial(self._hint, session)

    def _play(self, session: Any, move: Any, **_ignored: Any) -> bool:
        """A move made on the board during the lesson: judged, then played with the step's replies, or told and
        taken back (never applied). The session's own options (how its computer players reply) do not apply: the
        lesson has no computer players, its replies are the step's."""
        if session.view is not None:
            session.view = None
            session.message, session.message_kind = "Back to the lesson: you were looking at an earlier move.", "error"
            return False
        verdict = self.judge(session.live, move, session.move_text)
        if verdict.kind != "step":
            if verdict.kind == "refused" and verdict.rule:  # the engine's refusal, as on the board (issue 49)
                progress.refused(self.tutorial.game, verdict.rule)
            session.message, session.message_kind = verdict.text, "error"
            return False
        step = self.step
        assert step is not None
        told = []
        for played in (move, *step.replies):
            session.states.append(self.engine.apply(session.live, played))
            made = session.step(len(session.states) - 1)
            told.append(f"{session.describe_player(made.player)}: {session.step_text(made)}")
        session.hinted = self._wanted_at(*self._next())  # the next step's place, marked when the board redraws
        text = "; then ".join(told)
        session.message, session.message_kind = (f"{text}. {step.done}" if step.done else text), "info"
        self.advance()
        return True

    def _undo(self, session: Any, **_ignored: Any) -> None:
        session.view = None
        session.message = "In the lesson, Back goes to the step before (and Skip to the next one)."
        session.message_kind = "error"

    def _hint(self, session: Any, **_ignored: Any) -> Any:
        step = self.step
        if step is None or self.waiting:
            session.message, session.message_kind = "No hint: press Next to go on.", "error"
            return None
        session.hinted = step.move
        session.message = f"Hint: {session.move_text(step.move)} ({', '.join(step.rules)})."
        session.message_kind = "info"
        return step.move
