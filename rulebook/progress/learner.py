"""The learner of this Python: their record, where it is kept, and what to review next.

One :class:`Learner` hears every event (:mod:`.events`), folds it into the record and writes the record to its store
after each one. A record the store holds that cannot be read is told, left as it was and never written over.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from rulebook.progress import events
from rulebook.progress.events import Event
from rulebook.progress.record import Record
from rulebook.progress.storage import Store, default_store

MAX_PENDING = 500  # events heard before the store answered (a page's first seconds): more are folded, not replayed


class Learner:
    """A learner's record, loaded from ``store`` when it is ready and written back after every event heard.
    ``listeners`` are called with the learner after each change (a panel redraws)."""

    def __init__(self, store: Store, listen: bool = True) -> None:
        self.store = store
        self.record = Record()
        self.loaded = False
        self.problem = ""  # why the kept record was not read (then it is never written over)
        self.listeners: list[Callable[[Learner], None]] = []
        self._pending: list[Event] = []
        self._stop = events.listen(self.hear) if listen else (lambda: None)
        store.when_ready(self._load)

    def _load(self) -> None:
        try:
            text = self.store.read()
            kept = Record.from_json(text) if text else Record()
        except ValueError as error:
            self.problem = (
                f"The progress kept {self.store.where} could not be read: {error}. It is left as it was, and this "
                "visit's progress is not written over it (Import a good file to replace it)."
            )
            kept = Record()
        heard, self._pending = self._pending, []
        for event in heard:
            kept.apply(event)
        self.record, self.loaded = kept, True
        if heard:
            self.save()
        self._changed()

    def hear(self, event: Event) -> None:
        """Fold an event into the record and keep the record (before the store answered: kept to be replayed)."""
        self.record.apply(event)
        if not self.loaded:
            if len(self._pending) < MAX_PENDING:
                self._pending.append(event)
        else:
            self.save()
        self._changed()

    def save(self) -> None:
        """Write the record to the store, unless the store holds a record that could not be read."""
        if not self.problem:
            self.store.write(self.record.to_json())

    def export(self) -> tuple[str, str]:
        """The file name and text of the record, for a download."""
        return "rulebook-progress.json", self.record.to_json()

    def import_file(self, data: bytes | str) -> str:
        """Merge a progress file into the record (per paragraph, the entry touched last wins) and keep it; says what
        it did. A file that is not a good record raises ValueError and changes nothing."""
        other = Record.from_json(data)
        merged = self.record.merged(other)
        paragraphs = sum(len(entries) for entries in other.games.values())
        self.record, self.problem = merged, ""
        self.save()
        self._changed()
        return f"Imported {paragraphs} paragraphs' progress in {len(other.games)} games."

    def close(self) -> None:
        """Stop hearing events (a test's learner; the page's lives as long as Python)."""
        self._stop()

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener(self)

    def follow(self, method: Callable[[Learner], None]) -> Callable[[Learner], None]:
        """Call the bound ``method`` after each change, for as long as its object lives: the learner is this
        Python's for good, and a panel it held would keep its whole app (and every board) alive after the page
        dropped it (a notebook's cell run again makes a new app). Returns the listener, for ``listeners.remove``."""
        owner = weakref.WeakMethod(method)  # type: ignore[arg-type]

        def listener(learner: Learner) -> None:
            bound = owner()
            if bound is None:
                if listener in learner.listeners:
                    learner.listeners.remove(listener)
                return
            bound(learner)

        self.listeners.append(listener)
        return listener


_current: list[Learner] = []  # this Python's learner, once asked for


def learner() -> Learner:
    """This Python's learner, kept where :func:`~rulebook.progress.storage.default_store` says (made when first
    asked for: every app and panel of the page shares it). A browser store closed with the page that showed it is
    replaced by a new one, which reads the record the browser kept."""
    if _current and getattr(_current[0].store, "comm", True) is not None:
        return _current[0]
    if _current:
        _current.pop().close()
    made = Learner(default_store())
    _current.append(made)
    return made


@dataclass(frozen=True)
class Review:
    """What practises one paragraph: an exercise of the game's, or an engine-made question (``made``), or none (the
    paragraph's text is shown alone)."""

    game: str
    rule: str
    exercise: Any  # rulebook.teach.exercises.Exercise | None
    made: bool = False


def practice(game: str, rule: str) -> Review:
    """The exercise that practises ``rule`` (the game's own, the one citing fewest paragraphs), else a question the
    engine makes (:mod:`.questions`), else none."""
    from rulebook.progress import questions
    from rulebook.teach import exercises

    try:
        own = [item for item in exercises.exercises(game) if rule in item.rules]
    except ValueError:  # a game without exercises
        own = []
    if own:
        return Review(game, rule, min(own, key=lambda item: len(item.rules)))
    made = questions.question(game, rule)
    return Review(game, rule, made, made=made is not None)


def review_queue(record: Record, game: str, when: datetime | None = None) -> list[Review]:
    """The paragraphs of ``game`` due for review, longest overdue first, each with what practises it."""
    return [practice(game, rule) for rule in record.due(game, when)]
