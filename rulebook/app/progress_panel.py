"""The "My progress" tab (issue 49): the four games' paragraphs by section, each with its state in words and colour,
a link to its paragraph and one to practise it; the rules due for review today first; Export and Import.

:class:`ProgressPanel` stands alone too (a notebook cell: ``ProgressPanel("claim")``); :class:`ProgressPart` puts it
in the app's side tabs, opens a paragraph in the Rules tab and shows an exercise's position on the board.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

import ipywidgets as widgets

from rulebook import registry
from rulebook.app.base import Part
from rulebook.progress import events
from rulebook.progress.learner import Learner, Review, learner, practice
from rulebook.progress.record import RETIRED, STATES
from rulebook.progress.widgets import ProgressFiles, ProgressMap
from rulebook.teach import exercises as teach
from rulebook.teach import rules_text
from rulebook.teach.exercises import Exercise
from rulebook.view import markup
from rulebook.view.table import RuleText

SYMBOL = {"not met": "○", "seen": "◔", "practised": "◑", "known": "●", "due": "↻", RETIRED: "×"}
WORDS = 24  # words of a paragraph beside its id (the row shows what fits, the tooltip the rest)


class ProgressPanel(widgets.VBox):
    """The learner's progress in every game, ``game`` shown first. ``on_rule(game, id)`` opens a paragraph (else it
    opens under the map); ``on_show(exercise)`` puts an exercise's position on a board (the app's), if given."""

    def __init__(
        self,
        game: str,
        who: Learner | None = None,
        on_rule: Callable[[str, str], None] | None = None,
        on_show: Callable[[Exercise], None] | None = None,
    ) -> None:
        self.game = game
        self.learner = who if who is not None else learner()
        self.on_rule, self.on_show = on_rule, on_show
        self.checked: list[Callable[[Exercise], None]] = []  # told after a review answer is checked
        self.queue: list[Review] = []
        self.review: Review | None = None
        self.targets: list[tuple[str, str]] = []  # (game, rule) of each practise link in the map
        self.where = widgets.HTML()
        self.due_line = widgets.HTML()
        self.due_line.add_class("rulebook-progress-due")
        self.review_button = _button("Review now", "The rules due today, one question each", "primary", "110px")
        self.review_button.on_click(lambda _: self.start_review())
        self.question = RuleText(game)
        self.question.handlers.append(lambda rule: self._open(self.review.game if self.review else game, rule))
        self.choices = widgets.RadioButtons(options=[], value=None, layout=widgets.Layout(width="auto"))
        self.check_button = _button("Check", "Mark my answer", "primary", "80px")
        self.check_button.on_click(lambda _: self.check())
        self.remembered = _button("I remembered it", "Rate this rule as remembered", "success", "140px")
        self.remembered.on_click(lambda _: self.rate(True))
        self.forgot = _button("I had forgotten", "Rate this rule as forgotten: it comes back sooner", "", "140px")
        self.forgot.on_click(lambda _: self.rate(False))
        self.next_button = _button("Next", "The next rule to review", "", "80px")
        self.next_button.on_click(lambda _: self.next_review())
        self.show_button = _button("Show on the board", "This position on a board of its own", "", "150px")
        self.show_button.on_click(lambda _: self.show())
        self.feedback = RuleText(game)
        self.feedback.add_class("rulebook-progress-feedback")
        self.feedback.handlers.append(lambda rule: self._open(self.review.game if self.review else game, rule))
        buttons = widgets.HBox(
            [self.check_button, self.remembered, self.forgot, self.next_button, self.show_button],
            layout=widgets.Layout(flex_flow="row wrap", grid_gap="6px"),
        )
        self.review_box = widgets.VBox([self.question, self.choices, buttons, self.feedback])
        self.review_box.layout.display = "none"
        self.review_box.add_class("rulebook-progress-review")
        names = list(registry.games())
        order = [game, *(name for name in names if name != game)]
        self.picker = widgets.Dropdown(
            description="Game",
            options=[(registry.game(name).title, name) for name in order],
            value=game,
            style={"description_width": "3em"},
            layout=widgets.Layout(width="100%", max_width="330px"),
        )
        self.picker.observe(lambda _: self.draw(), "value")
        self.summary = widgets.HTML()
        self.summary.add_class("rulebook-progress-summary")
        self.map = ProgressMap()
        self.map.add_class("rulebook-progress-map")
        self.map.on_rule.append(lambda rule: self._open(self.picker.value, rule))
        self.map.on_practise.append(self._practise_link)
        self.detail = RuleText(None)
        self.files = ProgressFiles()
        self.files.provider = self.learner.export
        self.files.handlers.append(self.import_file)
        self.message = widgets.HTML()
        self.message.add_class("rulebook-progress-message")
        top = widgets.HBox([self.due_line, self.review_button], layout=widgets.Layout(align_items="center"))
        parts: list[widgets.Widget] = [
            widgets.HTML(markup.render("heading.html", text="My progress")),
            top,
            self.review_box,
            self.picker,
            self.summary,
            self.detail,
            self.map,
            self.files,
            self.message,
            self.where,
        ]
        self._own = tuple(parts)  # the panel's widgets without the shared store
        store = self.learner.store
        if isinstance(store, widgets.Widget):  # the browser's storage: its page side must be on the page
            parts.append(store)
        for part in parts:
            part.layout.flex = "0 0 auto"
        super().__init__(parts, layout=widgets.Layout(padding="4px", max_height="700px", overflow="auto"))
        self.add_class("rulebook-progress")
        self._heard = self.learner.follow(self._learner_changed)  # weakly: a dropped app is freed
        self.draw()

    def _learner_changed(self, _learner: Any) -> None:
        self.draw()

    def close(self) -> None:
        """Stop following the learner; the browser's store (shared by every panel of the page) is left open."""
        if self._heard in self.learner.listeners:
            self.learner.listeners.remove(self._heard)
        self.children = self._own
        super().close()

    # -- drawing ------------------------------------------------------------------------------------------------
    def draw(self, when: datetime | None = None) -> None:
        """Redraw what the record says: the rules due today, the chosen game's summary and its map."""
        record = self.learner.record
        due = {name: len(record.due(name, when)) for name in registry.games()}
        total = sum(due.values())
        games = [f"{registry.game(name).title} {count}" for name, count in due.items() if count]
        self.due_line.value = markup.render("progress_due.html", total=total, games=games)
        self.review_button.disabled = not total
        game = self.picker.value
        states = record.states(game, when)
        counts = {state: sum(1 for value in states.values() if value == state) for state in (*STATES, RETIRED)}
        shown = ", ".join(f"{SYMBOL[state]} {state} {count}" for state, count in counts.items() if count)
        self.summary.value = markup.render("progress_summary.html", shown=shown)
        self.map.value = self._map_html(game, states)
        where = f"Your progress is kept {self.learner.store.where}."
        self.where.value = markup.render("progress_where.html", problem=self.learner.problem or "", where=where)

    def _map_html(self, game: str, states: dict[str, str]) -> str:
        paragraphs = rules_text.paragraphs(game)
        practised = _exercised(game)
        self.targets = []
        sections: list[tuple[str, list[dict[str, Any]]]] = []
        section = None
        for rule, state in states.items():
            if state == RETIRED:
                continue
            paragraph = paragraphs[rule]
            if paragraph.section != section or not sections:
                section = paragraph.section
                sections.append((section or "Rules", []))
            label = "practise" if rule in practised else "review"
            sections[-1][1].append(self._row(game, rule, state, _first_words(paragraph.markdown, rule), label))
        retired = [rule for rule, state in states.items() if state == RETIRED]
        if retired:
            rows = [self._row(game, rule, RETIRED, "kept from an older rules text") for rule in retired]
            sections.append(("Retired (no longer in the rules)", rows))
        return markup.render("progress_map.html", sections=sections)

    def _row(self, game: str, rule: str, state: str, words: str, label: str = "") -> dict[str, Any]:
        """A row of the map; a paragraph still in the rules gets a practise link (a target, by its index)."""
        practise = None
        if state != RETIRED:
            practise = len(self.targets)
            self.targets.append((game, rule))
        return dict(rule=rule, state=state, symbol=SYMBOL[state], words=words, practise=practise, label=label)

    # -- links --------------------------------------------------------------------------------------------------
    def _open(self, game: str, rule: str) -> None:
        if self.on_rule is not None and rule in rules_text.paragraphs(game):
            self.on_rule(game, rule)
            return
        self.detail.game = game
        self.detail.open_rule(rule)

    def _practise_link(self, number: int) -> None:
        if 0 <= number < len(self.targets):
            self.queue = []
            self.present(practice(*self.targets[number]))

    # -- review -------------------------------------------------------------------------------------------------
    def start_review(self, when: datetime | None = None) -> None:
        """The rules due today, the chosen game's first: the first one is shown, Next shows the others."""
        record = self.learner.record
        order = [self.picker.value, *(name for name in registry.games() if name != self.picker.value)]
        self.queue = [practice(game, rule) for game in order for rule in record.due(game, when)]
        self.next_review()

    def next_review(self) -> None:
        if self.queue:
            self.present(self.queue.pop(0))
        else:
            self.review_box.layout.display = "none"
            self.review = None
            self.message.value = "No more rules to review today."

    def present(self, review: Review) -> None:
        """Show one paragraph's practice: its exercise (or the engine's question, with the paragraph's text), or
        the paragraph alone with "I remembered it" and "I had forgotten"."""
        self.review = review
        self.message.value = ""
        item = review.exercise
        title = registry.game(review.game).title
        self.question.game = self.feedback.game = review.game
        known = rules_text.paragraphs(review.game)
        text = rules_text.to_html(rules_text.paragraph(review.game, review.rule).markdown)
        about = None if item is None else rules_text.rule_links(markup.escape(", ".join(item.rules)), known)
        self.question.value = markup.render(
            "progress_question.html",
            title=title,
            rule=review.rule,
            text=text,
            about=about,
            question="" if item is None else item.question,
            made=review.made,
        )
        self.choices.options = [] if item is None else [(choice.label, n) for n, choice in enumerate(item.choices)]
        self.choices.value = None
        self.choices.layout.display = "none" if item is None else None
        self.check_button.layout.display = "none" if item is None else None
        for button in (self.remembered, self.forgot):
            button.layout.display = None if item is None else "none"
        board = item is not None and self.on_show is not None and review.game == getattr(self, "game", None)
        self.show_button.layout.display = None if board else "none"
        self.feedback.value = ""
        self.review_box.layout.display = None

    def check(self) -> bool:
        """Mark the answer with the engine; a right or wrong answer is an event for the paragraphs it practises."""
        review = self.review
        if review is None or review.exercise is None:
            return False
        item = review.exercise
        chosen = () if self.choices.value is None else (self.choices.value,)
        try:
            right, text = teach.feedback_html(item, chosen)
        except ValueError as error:
            self.feedback.value = markup.escape(f"This question cannot be marked: {error}")
            return False
        self.feedback.value = rules_text.rule_links(text, rules_text.paragraphs(item.game))
        if chosen:
            events.answered(item.game, item.rules, right, item.id)
            for handler in list(self.checked):
                handler(item)
        return right

    def rate(self, remembered: bool) -> None:
        """The learner's own word on a paragraph no question practises: remembered (it waits longer) or not."""
        if self.review is not None:
            events.answered(self.review.game, (self.review.rule,), remembered, "read")
            self.next_review()

    def show(self) -> None:
        if self.review is not None and self.review.exercise is not None and self.on_show is not None:
            self.on_show(self.review.exercise)

    def import_file(self, name: str, data: bytes | None) -> bool:
        """Import a progress file; one that is not a good record is refused in words and changes nothing."""
        if data is None:
            self.message.value = _message("error", f"Could not import {name}: it is too large.")
            return False
        try:
            said = self.learner.import_file(data)
        except ValueError as error:
            text = f"Could not import {name}: {error}. Your progress is unchanged."
            self.message.value = _message("error", text)
            return False
        self.message.value = _message("info", said)
        return True


class ProgressPart(Part):
    """The My progress tab of the app: a paragraph's link opens the Rules tab (the app's game) and an exercise of
    the app's game can be put on the board."""

    def _add_progress_tab(self, panels: list[widgets.Widget], titles: list[str]) -> None:
        """Add the tab, filled when first shown (:attr:`progress_panel`): the page opens without its widgets and
        without reading every game's rules (about 0.3-0.6 s of the browser's Python). Events are heard from the first
        move all the same (they go to the learner, not to the panel), and the browser's storage is on the page at
        once, so the record the learner keeps there is read before anything is written."""
        self._progress: ProgressPanel | None = None
        self.progress_box = widgets.VBox(layout=widgets.Layout(width="100%"))
        store = learner().store
        if isinstance(store, widgets.Widget):  # the browser's storage: its page side must be on the page
            self.progress_box.children = (store,)
        self.progress_tab = len(panels)
        panels.append(self.progress_box)
        titles.append("My progress")

    @property
    def progress_panel(self) -> ProgressPanel:
        """The My progress panel, built the first time its tab is shown or it is asked for."""
        if self._progress is None:
            panel = ProgressPanel(self.game, on_rule=self._progress_rule, on_show=self._progress_show)
            panel.checked.append(self._exercise_checked)
            self._progress = panel
            self.progress_box.children = (panel,)  # the panel holds the store from now on
        return self._progress

    def _progress_rule(self, game: str, rule: str) -> None:
        if game == self.game:
            self.open_rule(rule)
        else:
            self.progress_panel.detail.game = game
            self.progress_panel.detail.open_rule(rule)

    def _progress_show(self, exercise: Exercise) -> None:
        self.show_exercise(exercise, exercise.state())
        if self.exercise_shown is exercise:
            self._say(f"Exercise {exercise.id} is on its own board: answer under My progress. Your game waits.")


def _button(label: str, tooltip: str, style: str, width: str) -> widgets.Button:
    button = widgets.Button(description=label, tooltip=tooltip, button_style=style)
    button.layout.width = width
    return button


def _message(kind: str, text: str) -> str:
    """An Import's outcome, "info" or "error", in the page's colours."""
    return markup.render("progress_message.html", kind=kind, text=text)


def _first_words(markdown: str, rule: str) -> str:
    """The paragraph's first words after its id, without markdown marks."""
    text = re.sub(r"[*`_#|]", "", markdown).replace(rule, "", 1)
    text = re.sub(r"^\s*(\([^)]*\))?[\s.:]*", "", text)
    words = text.split()
    return " ".join(words[:WORDS]) + ("…" if len(words) > WORDS else "")


def _exercised(game: str) -> set[str]:
    try:
        return {rule for item in teach.exercises(game) for rule in item.rules}
    except ValueError:
        return set()
