"""The Exercises tab's panel (and a notebook cell's): the exercises of :mod:`rulebook.teach.exercises` one at a
time, answered with choices, marked by the engine, shown on a board of their own. The rules the learner's record
(:mod:`rulebook.progress`) has due for review today come first, and each answer says when its rules come back."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

import ipywidgets as widgets

from rulebook import registry
from rulebook.progress import events as progress
from rulebook.progress.events import now
from rulebook.progress.learner import Learner, Review, learner, review_queue
from rulebook.teach import exercises as teach
from rulebook.teach import rules_text
from rulebook.teach.exercises import Exercise
from rulebook.view import markup
from rulebook.view.table import RuleText, build, close_widgets


class ExercisePanel(widgets.VBox):
    """The exercises of one game: a progress line, the rules due for review, a picker, the question and its choices,
    Check, the feedback, when its rules come back, Next, Reset and "Show on the board". Which exercises are solved
    is kept while the panel lives; the learner's record (``who``, else this Python's) keeps every answer for good,
    and the exercises of the paragraphs it has due for review today come first, marked ↻.

    ``on_show(exercise, state)`` puts a position on the app's board; without it (a notebook) the panel shows the
    position on a board of its own, under the exercise. Either board shows the position only (no legal targets, no
    hint) until the answer is checked: the ``check_handlers`` hear ``handler(exercise)`` after each check."""

    def __init__(
        self, game: str, on_show: Callable[[Exercise, Any], None] | None = None, who: Learner | None = None
    ) -> None:
        self.game = game
        self.catalogue = tuple(teach.exercises(game))  # read through the module: a test (or a cell) may replace it
        self.items = self.catalogue
        self.learner = who if who is not None else learner()
        self.reviews: dict[str, tuple[str, ...]] = {}  # exercise id -> the due paragraphs it was put first for
        self.unpractised: tuple[str, ...] = ()  # due paragraphs with no exercise or engine question
        self.solved: set[str] = set()
        self.on_show = on_show
        self.check_handlers: list[Callable[[Exercise], None]] = []
        self.shown: tuple[Exercise, Any] | None = None  # the exercise on the panel's own board, and that board
        self.index = 0
        self.progress = widgets.HTML()
        self.progress.add_class("rulebook-exercise-progress")
        self.reset_button = widgets.Button(description="Reset", tooltip="Forget which exercises are solved")
        self.reset_button.layout.width = "80px"
        self.reset_button.on_click(lambda _: self.reset())
        # a label names the menu to a screen reader too (axe: select-name)
        self.picker = widgets.Dropdown(
            description="Exercise",
            style={"description_width": "4.5em"},
            layout=widgets.Layout(width="100%", max_width="330px"),
        )
        self._drawing = False
        self.picker.observe(self._picked, names="value")
        self.question = widgets.HTML()
        self.choice_box = widgets.VBox()
        self.radio: widgets.RadioButtons | None = None
        self.boxes: list[widgets.Checkbox] = []
        self.check_button = widgets.Button(description="Check", button_style="primary", tooltip="Mark my answer")
        self.check_button.add_class("rulebook-exercise-check")
        self.check_button.on_click(lambda _: self.check())
        self.next_button = widgets.Button(description="Next", tooltip="The next exercise")
        self.next_button.on_click(lambda _: self.next())
        self.show_button = widgets.Button(
            description=SHOW, tooltip="This position on a board of its own (your game is kept)"
        )
        self.show_button.layout.width = "150px"
        self.show_button.on_click(lambda _: self.show())
        for button in (self.check_button, self.next_button):
            button.layout.width = "80px"
        self.feedback = RuleText(game)
        self.feedback.add_class("rulebook-exercise-feedback")
        self.due_line = widgets.HTML()
        self.due_line.add_class("rulebook-exercise-due")
        self.comes_back = widgets.HTML()  # after an answer: when its paragraphs come up for review again
        self.comes_back.add_class("rulebook-exercise-comes-back")
        self.board_box = widgets.Box()
        buttons = widgets.HBox([self.check_button, self.next_button, self.show_button], layout=_row())
        top = widgets.HBox([self.progress, self.reset_button], layout=_row())
        parts = [top, self.due_line, self.picker, self.question, self.choice_box, buttons, self.comes_back]
        parts.append(self.feedback)  # (after when the rules come back: its paragraphs' text is long)
        for part in parts:  # in a scrolling column nothing is squeezed: the last choices were cut off
            part.layout.flex = "0 0 auto"
        self._own = (*parts, self.board_box)  # the panel's widgets without the learner's shared store
        store = self.learner.store
        shared = [store] if isinstance(store, widgets.Widget) else []  # the browser's storage must be on the page
        super().__init__(
            [*self._own, *shared],
            layout=widgets.Layout(padding="4px", max_height="700px", overflow="auto"),
        )
        self.add_class("rulebook-exercises")
        self._ordered = self.learner.loaded  # due-first order is made again once a browser's record arrives
        self._heard = self.learner.follow(self._learner_heard)  # weakly: a dropped app is freed
        self.review_first()

    @property
    def current(self) -> Exercise:
        return self.items[self.index]

    def review_first(self, when: datetime | None = None) -> None:
        """Put first the exercises of the paragraphs due for review at ``when`` (now), the longest overdue first: one
        each, the game's own exercise citing it, else a question the engine makes; then show the first exercise."""
        queue: list[Review] = review_queue(self.learner.record, self.game, when)
        first: dict[str, Exercise] = {}
        self.reviews = {}
        for review in queue:
            if review.exercise is not None:
                first.setdefault(review.exercise.id, review.exercise)
                self.reviews[review.exercise.id] = (*self.reviews.get(review.exercise.id, ()), review.rule)
        self.unpractised = tuple(review.rule for review in queue if review.exercise is None)
        self.items = (*first.values(), *(item for item in self.catalogue if item.id not in first))
        self.index = 0
        self._draw_picker(when)
        self.go_to(0)

    def due_now(self, when: datetime | None = None) -> list[str]:
        """The paragraphs of this game due for review at ``when`` (now), the longest overdue first."""
        return self.learner.record.due(self.game, when)

    def _learner_changed(self) -> None:
        if not self._ordered and self.learner.loaded:  # the record kept in the browser has arrived
            self._ordered = True
            self.review_first()
        else:
            self._draw_picker()

    def _draw_due(self, due: list[str]) -> None:
        """The line over the picker: how many rules are due today and where their exercises are."""
        if not due:
            self.due_line.value = markup.render("exercise_due.html", kind="done") if self.reviews else ""
            return
        waiting = [rule for rules in self.reviews.values() for rule in rules if rule in due]
        said = [": their exercises come first, marked ↻." if waiting else "."]
        alone = [rule for rule in self.unpractised if rule in due]
        if alone:
            verb, them = ("has", "it") if len(alone) == 1 else ("have", "them")
            said.append(f" {', '.join(alone)} {verb} no question here: read {them} again under My progress.")
        rules = "1 rule" if len(due) == 1 else f"{len(due)} rules"
        self.due_line.value = markup.render("exercise_due.html", kind="due", rules=rules, said="".join(said))

    def _draw_picker(self, when: datetime | None = None) -> None:
        due = self.due_now(when)
        self._draw_due(due)
        options = []
        for number, item in enumerate(self.items):
            words = " ".join(item.question.split()[:6])
            mark_ = "✓ " if item.id in self.solved else ""
            if any(rule in due for rule in self.reviews.get(item.id, ())):
                mark_ = "↻ " + mark_
            options.append((f"{mark_}{item.id}: {words}…", number))
        if tuple(options) != tuple(self.picker.options):  # (every event of the record redraws: most change nothing)
            self._drawing = True  # new options reset the picker's value: not a choice of the learner
            try:
                self.picker.options = options
                self.picker.value = self.index
            finally:
                self._drawing = False
        self.progress.value = markup.render("exercise_progress.html", solved=len(self.solved), total=len(self.items))

    def _picked(self, change: dict[str, Any]) -> None:
        if not self._drawing and change["new"] is not None and change["new"] != self.index:
            self.go_to(change["new"])

    def go_to(self, index: int) -> None:
        """Show exercise ``index``: its question and its choices, nothing ticked."""
        self.index = index % len(self.items)
        item = self.current
        if self.picker.value != self.index:
            self.picker.value = self.index
        hint = "Tick every right answer." if item.several else "Choose one answer."
        self.question.value = markup.render(
            "exercise_question.html", question=item.question, hint=hint, rules=item.rules
        )
        old_choices = self.choice_box.children  # closed once replaced: each exercise shown built new ones
        if item.several:
            self.radio = None
            self.boxes = [
                widgets.Checkbox(description=choice.label, value=False, indent=False, layout=_wide())
                for choice in item.choices
            ]
            self.choice_box.children = tuple(self.boxes)
        else:
            self.boxes = []
            self.radio = widgets.RadioButtons(
                options=[(choice.label, number) for number, choice in enumerate(item.choices)],
                value=None,
                layout=_wide(),
            )
            self.choice_box.children = (self.radio,)
        close_widgets(*old_choices)
        self.feedback.value = ""
        self.feedback.detail = ""
        self.comes_back.value = ""

    def chosen(self) -> tuple[int, ...]:
        """The choices the learner has ticked or picked."""
        if self.radio is not None:
            return () if self.radio.value is None else (self.radio.value,)
        return tuple(number for number, box in enumerate(self.boxes) if box.value)

    def choose(self, indices: Iterable[int]) -> None:
        """Tick these choices (what a learner does by clicking)."""
        wanted = set(indices)
        if self.radio is not None:
            self.radio.value = next(iter(wanted)) if wanted else None
        for number, box in enumerate(self.boxes):
            box.value = number in wanted

    def check(self) -> bool:
        """Mark the answer: the feedback says right or wrong and why; a right answer counts as solved."""
        item = self.current
        chosen = self.chosen()
        try:
            right, text = teach.feedback_html(item, chosen)
        except ValueError as error:  # an answer the engine cannot compute (a broken exercise): told, not raised
            self.feedback.value = markup.render("exercise_broken.html", exercise=item.id, error=str(error))
            return False
        self.feedback.value = rules_text.rule_links(text, rules_text.paragraphs(self.game))
        if right:
            self.solved.add(item.id)
            self._draw_picker()
        if chosen:  # the answer is told now: a board showing this exercise may show its moves
            progress.answered(self.game, item.rules, right, item.id)  # the learner's record (issue 49)
            self.comes_back.value = self._comes_back(item, right)
            if self.shown is not None and self.shown[0].id == item.id and self.shown[1].shown_only:
                self.shown[1].show_only("")
            for handler in list(self.check_handlers):
                handler(item)
        return right

    def _comes_back(self, item: Exercise, right: bool) -> str:
        """When the record will ask about the exercise's paragraphs again (a wrong answer brings them back sooner)."""
        moment = now()
        said = []
        for rule in item.rules:
            entry = self.learner.record.entry(self.game, rule)
            if entry is None or entry.card is None:
                continue
            days = max(0, round((entry.card.due - moment).total_seconds() / 86400))
            said.append(f"{rule} {_in_days(days)}")
        if not said:
            return ""
        why = "" if right else " (a wrong answer brings a rule back sooner)"
        return markup.render("exercise_due.html", kind="next", said=", ".join(said) + why)

    def next(self) -> None:
        """The next exercise, preferring one not solved yet."""
        count = len(self.items)
        for step in range(1, count + 1):
            candidate = (self.index + step) % count
            if self.items[candidate].id not in self.solved:
                self.go_to(candidate)
                return
        self.go_to(self.index + 1)

    def reset(self) -> None:
        """Forget the progress and start again from the first exercise."""
        self.solved.clear()
        self.index = 0
        self._draw_picker()
        self.go_to(0)

    def show(self) -> None:
        """Put the exercise's position on a board (the app's, or the panel's own in a notebook), showing the position
        only until the answer is checked; the button says the board is being built meanwhile."""
        item = self.current
        self.show_button.disabled = True
        self.show_button.description = "Building the board…"
        self.show_button.icon = "hourglass-half"
        try:
            state = item.state()
            if self.on_show is not None:
                self.on_show(item, state)
                return
            board_class = registry.game(self.game).board_class()
            board = build(lambda: board_class(state, seed=0, computer={}))
            board.show_only(
                f"Exercise {item.id}: the position only. Answer above; once your answer is checked, the board "
                "shows the moves and you can play on from here."
            )
            old = self.board_box.children
            self.board_box.children = (board,)
            self.shown = (item, board)
            close_widgets(*old)
        finally:
            self.show_button.disabled = False
            self.show_button.description = SHOW
            self.show_button.icon = ""

    def _learner_heard(self, _learner: Any) -> None:
        self._learner_changed()

    def close(self) -> None:
        """Close the panel and every widget it built (its choices, its own board). Not while Python shuts down
        (ipywidgets' ``__del__`` calls this then, when no module can be imported and no page is left to tell)."""
        if self._heard in self.learner.listeners:
            self.learner.listeners.remove(self._heard)
        if self.comm is not None and sys.meta_path is not None:
            self.children = self._own  # the learner's store is shared by every panel of the page: left open
            close_widgets(self)


SHOW = "Show on the board"  # the notebooks name the button so


def _in_days(days: int) -> str:
    return "today" if days == 0 else "tomorrow" if days == 1 else f"in {days} days"


def _row() -> widgets.Layout:
    return widgets.Layout(align_items="center", flex_flow="row wrap", grid_gap="8px")


def _wide() -> widgets.Layout:
    return widgets.Layout(width="auto")
