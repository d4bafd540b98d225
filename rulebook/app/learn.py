"""The guided first game on the page (issue 27): the lesson's text, progress, Back and Skip, over the game's own live
board, whose every move the lesson judges (:mod:`rulebook.tutorial` holds the data and the judging).

``LearnPanel("claim")`` is all a notebook cell needs; the app shows the same panel in the board's place (its Learn
tab). Nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from rulebook import registry
from rulebook.teach import tutorial
from rulebook.teach.tutorial import Lesson, same_position
from rulebook.view import markup
from rulebook.view.table import RuleText, Table, build, close_widgets


class LearnPanel(widgets.VBox):
    """A tutorial played on the live board: the instruction (its rule ids link to the rules), "step 4 of 16", Back,
    Skip (Next once a step is done) and Start over (the ``guide``), then the board. At the end it offers a full game
    against the computer at the beginner level, or the exercises: ``on_full_game`` and ``on_exercises`` say what
    those do (the app's own game and tab); without them the panel plays the game on its own board, or shows the
    exercises under it."""

    def __init__(
        self,
        game: str,
        *,
        on_full_game: Callable[[], None] | None = None,
        on_exercises: Callable[[], None] | None = None,
    ) -> None:
        self.game = game
        self.setup = registry.game(game)
        self.tutorial = tutorial.load(game)
        self.lesson = Lesson(self.tutorial)
        self.lesson.listeners.append(self._changed)
        self.board: Table | None = None
        self.board_handlers: list[Callable[[Table], None]] = []  # called with each new board (the app follows it)
        self.on_full_game = on_full_game
        self.on_exercises = on_exercises
        self.text = RuleText(game)
        self.text.add_class("rulebook-tutorial")
        self.back_button, self.skip_button = self._step_buttons()
        self.restart_button = widgets.Button(description="Start over", tooltip="The lesson from its first step")
        self.restart_button.on_click(lambda _: self.lesson.go(0))
        self.back_button.add_class("rulebook-tutorial-back")
        self.skip_button.add_class("rulebook-tutorial-skip")
        self.full_game_button = widgets.Button(
            description="Play a full game",
            button_style="success",
            icon="play",
            tooltip="A new game against the computer at the beginner level",
        )
        self.exercises_button = widgets.Button(description="Try the exercises", icon="question-circle")
        self.full_game_button.layout.width = "170px"
        self.exercises_button.layout.width = "170px"
        self.full_game_button.on_click(lambda _: self.full_game())
        self.exercises_button.on_click(lambda _: self.exercises())
        self.end_buttons = widgets.HBox([self.full_game_button, self.exercises_button])
        self.end_buttons.layout.display = "none"
        controls = widgets.HBox(
            [self.back_button, self.skip_button, self.restart_button],
            layout=widgets.Layout(align_items="center", grid_gap="6px"),
        )
        # the step's text and buttons: over the board here, or beside it where a page has room (the app's Learn tab)
        self.guide = widgets.VBox([self.text, controls, self.end_buttons], layout=widgets.Layout(width="100%"))
        self.guide.add_class("rulebook-learn")
        self.guide.add_class("rulebook-learn-guide")
        # the step's text with Back and Next again, under the board on a phone (style.css), where the guide beside the
        # board is in a side panel far below it: widgets of their own, so that the guide's classes name one text and
        # one set of buttons on every page (its rule links open what the guide's do)
        self.near_text = RuleText(game)
        self.near_text.handlers.append(self.text.open_rule)
        self.near_back, self.near_skip = self._step_buttons()
        self.near = widgets.VBox([self.near_text, widgets.HBox([self.near_back, self.near_skip])])
        self.near.add_class("rulebook-learn-near")
        self.board_box = widgets.Box(layout=widgets.Layout(width="100%"))
        self.board_box.add_class("rulebook-learn-place")
        self.extra = widgets.Box(layout=widgets.Layout(width="100%"))  # the exercises, when the panel shows them
        self.extra.add_class("rulebook-learn-extra")
        super().__init__([self.guide, self.board_box, self.extra])
        self.add_class("rulebook-learn")
        self.show()

    def guide_apart(self) -> widgets.VBox:
        """Take the step's text and buttons out of the panel, for a page that shows them beside the board (at
        1280x800 a board under the text ran past the first screen); returns them to be put there. The step's text and
        its Back and Next stay near the board for a phone's page (:attr:`near`, shown there only)."""
        self.children = (self.board_box, self.near, self.extra)
        self.add_class("rulebook-learn-apart")
        return self.guide

    def _step_buttons(self) -> tuple[widgets.Button, widgets.Button]:
        """Back and Skip (Next once the step is done), 90 px wide each."""
        back = widgets.Button(description="Back", icon="step-backward", tooltip="The step before")
        skip = widgets.Button(description="Skip", icon="step-forward", tooltip="Go on to the next step")
        back.on_click(lambda _: self.lesson.back())
        skip.on_click(lambda _: self.lesson.skip())
        for button in (back, skip):
            button.layout.width = "90px"
        return back, skip

    # -- the board --------------------------------------------------------------------------------------------
    def show(self) -> Table:
        """Put the board of the step on the page (a new one if there is none, it was closed, or it shows another
        position) and the step's text; returns the board."""
        board = self.board
        wanted = self.lesson.start_state()
        if board is None or board.comm is None or not same_position(board.live, wanted):
            board = self._new_board(wanted)
        self._mark(board)
        self._draw()
        return board

    def _mark(self, board: Table) -> None:
        """Mark on the board the place of the move the step wants, as Hint marks its move (distinct from the
        rings of every legal target); a board already marking it is not drawn again."""
        wanted = self.lesson.wanted
        if board.session.hinted != wanted:
            board.session.hinted = wanted
            board.redraw()

    def _new_board(self, state: Any) -> Table:
        board_class, computer = self.setup.board_class(), self.replying_seats(state)
        board = build(lambda: board_class(state, seed=0, computer=computer))
        self.lesson.guard(board.session)
        old, self.board = self.board, board
        self.board_box.children = (board,)
        if old is not None:
            close_widgets(old)
        for handler in list(self.board_handlers):
            handler(board)
        return board

    def replying_seats(self, state: Any) -> dict[int, str]:
        """The seats the learner does not play, named as the computer's (the board then says "You play Red"); their
        moves are the steps' replies, played by the lesson, never by a computer player."""
        players = getattr(state, "players", 0)
        level = self.setup.levels[0].name
        seats = range(players) if isinstance(players, int) else ()
        return {seat: level for seat in seats if seat not in self.tutorial.learner}

    def _changed(self, _lesson: Lesson) -> None:
        self.show()

    def _draw(self) -> None:
        lesson, step = self.lesson, self.lesson.step
        finished = lesson.finished
        if finished:
            say = self.text.linked(self.tutorial.end)
            cited: Any = ""
        else:
            assert step is not None
            say = self.text.linked(step.say)
            cited = self.text.linked(", ".join(step.rules))
        self.text.value = self.near_text.value = markup.render(
            "tutorial.html",
            title=self.tutorial.title,
            progress=lesson.progress(),
            part=step.title if step is not None else "",
            finished=finished,
            waiting=lesson.waiting,
            say=say,
            cited=cited,
        )
        for back, skip in ((self.back_button, self.skip_button), (self.near_back, self.near_skip)):
            back.disabled = lesson.index == 0 and not lesson.waiting
            skip.disabled = finished
            skip.description = "Next" if lesson.waiting else "Skip"
            skip.button_style = "primary" if lesson.waiting else ""
        self.end_buttons.layout.display = "flex" if finished else "none"

    # -- the end --------------------------------------------------------------------------------------------
    def beginner(self) -> dict[int, str]:
        """The computer's seats in a full game after the lesson: every seat but the first, at the weakest level."""
        level = self.setup.levels[0].name
        return {seat: level for seat in range(1, self.setup.default_players)}

    def full_game(self) -> None:
        """A full game against the computer at the beginner level: the app's, or one on this panel's board."""
        if self.on_full_game is not None:
            self.on_full_game()
            return
        state = self.setup.new_state(self.setup.default_players, 0)
        board_class, computer = self.setup.board_class(), self.beginner()
        board = build(lambda: board_class(state, seed=0, computer=computer))
        old, self.board = self.board, board
        self.board_box.children = (board,)
        if old is not None:
            close_widgets(old)

    def exercises(self) -> None:
        """The exercises: the app's tab, or a panel of them under this board."""
        if self.on_exercises is not None:
            self.on_exercises()
            return
        if not self.extra.children:
            from rulebook.app.exercise_panel import ExercisePanel

            self.extra.children = (build(lambda: ExercisePanel(self.game)),)
