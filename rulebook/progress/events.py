"""What a learner did, as events against the rules' paragraphs, and the one door they come through.

The app, the exercise panels and the boards call :func:`emit`; whoever keeps a learner's record (:mod:`.learner`)
listens. Nothing is kept here, and nothing heavy is imported: the play layer imports this module on every move.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone

# what a learner did: an exercise answered (right or wrong), a move the engine refused, a Learn step completed,
# a Hint asked
KINDS = ("answered", "refused", "learned", "hinted")
RULE_ID = re.compile(r"\b[A-Z]{2,3}-C?\d+(?:\.\d+)*\b")  # as rules_text's ids (not imported: that module is heavier)
MAX_RULES = 20  # paragraphs one event may name: an exercise cites 1 to 4
GAME_NAME = re.compile(r"[A-Za-z0-9_]{1,60}")  # a game's name, as a progress file allows it


def now() -> datetime:
    """The time an event happens, in UTC (the record compares times across machines and time zones)."""
    return datetime.now(timezone.utc)


@dataclass(frozen=True)
class Event:
    """One thing a learner did in ``game``, against the paragraphs ``rules`` it involves; ``right`` is the verdict
    of an answer (None for the other kinds); ``item`` names the exercise answered, if any."""

    kind: str
    game: str
    rules: tuple[str, ...]
    right: bool | None = None
    item: str = ""
    when: datetime = field(default_factory=now)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"an event's kind is one of {', '.join(KINDS)}, not {self.kind[:40]!r}")
        if not isinstance(self.game, str) or not GAME_NAME.fullmatch(self.game):
            raise ValueError("an event names its game (a short name of letters, digits and _)")
        if len(self.rules) > MAX_RULES or not all(isinstance(r, str) and RULE_ID.fullmatch(r) for r in self.rules):
            raise ValueError(f"an event names at most {MAX_RULES} paragraph ids (such as AB-4.2)")
        if (self.kind == "answered") != (self.right is not None):
            raise ValueError("an answer, and only an answer, is right or wrong")
        if self.when.tzinfo is None:
            raise ValueError("an event's time says its time zone")
        if not 2000 <= self.when.year <= 2300:  # as a progress file's times (a record must read back what it wrote)
            raise ValueError(f"an event's time is in the year {self.when.year}")


_listeners: list[Callable[[Event], None]] = []


def listen(listener: Callable[[Event], None]) -> Callable[[], None]:
    """Hear every event from now on; returns the function that stops it (a closed app's record stops listening)."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener) if listener in _listeners else None


def emit(event: Event) -> None:
    """Tell every listener; a listener's failure never reaches the learner's move or answer (it is the record's
    business, not the game's), so errors are swallowed here, once, on purpose."""
    for listener in list(_listeners):
        try:
            listener(event)
        except Exception:  # noqa: BLE001, S112 - progress must never break a move, an answer or a hint
            continue


def rules_in(text: str) -> tuple[str, ...]:
    """The paragraph ids a text names, each once, in order (a hint's reason, a refusal's message)."""
    return tuple(dict.fromkeys(RULE_ID.findall(text or "")))[:MAX_RULES]


# --- the hooks: one call each from the places where the learner acts -----------------------------------------


def answered(game: str, rules: Iterable[str], right: bool, item: str = "") -> None:
    """An exercise (or a review question) was answered, right or wrong."""
    emit(Event("answered", game, tuple(rules)[:MAX_RULES], right=bool(right), item=item[:80]))


def refused(game: str, rule: str) -> None:
    """The engine refused a move the learner tried, by paragraph ``rule``."""
    if RULE_ID.fullmatch(rule or ""):
        emit(Event("refused", game, (rule,)))


def learned(game: str, rules: Iterable[str]) -> None:
    """A step of the guided first game was completed, teaching ``rules``."""
    emit(Event("learned", game, tuple(rules)[:MAX_RULES]))


def hinted(game: str, text: str) -> None:
    """A Hint was asked; the paragraphs its reason names (if any) were shown to the learner."""
    emit(Event("hinted", game, rules_in(text)))


def lesson_listener(game: str) -> Callable[[object], None]:
    """A listener for a Learn lesson (``lesson.listeners``): each step newly done is a ``learned`` event for the
    paragraphs it teaches (Back and Skip change the step without doing one: no event)."""
    told: set[int] = set()

    def heard(lesson: object) -> None:
        tutorial = getattr(lesson, "tutorial", None)
        for number in sorted(set(getattr(lesson, "done", ())) - told):
            told.add(number)
            step = next((s for s in getattr(tutorial, "steps", ()) if s.number == number), None)
            if step is not None:
                learned(game, step.rules)

    return heard
