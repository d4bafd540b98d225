"""The Learn tab (issue 27): what the guided first game is and a button that opens it in the board's place, the game
in progress put aside for it (as for an exercise, :mod:`.exercise_view`); the lesson itself is :mod:`.learn`."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from rulebook.app.base import Started
from rulebook.app.exercise_view import ExerciseViewPart
from rulebook.app.setup_panel import SetupPart
from rulebook.progress import events as progress
from rulebook.view import markup
from rulebook.view.table import Table, build, close_widgets


class LearnTabPart(ExerciseViewPart, SetupPart):
    """The Learn tab, the lesson's panel (made when first opened) and what the lesson's last step offers."""

    def _add_learn_tab(self, panels: list[widgets.Widget], titles: list[str]) -> None:
        """A Learn tab, after Exercises, for a game that has a tutorial: what it is and a button that opens it (the
        tutorial itself is read when first opened)."""
        from rulebook.teach import tutorial

        self._learn: Any = None  # the LearnPanel, once opened: it keeps the learner's step while the page is open
        if tutorial.path(self.game) is None:
            self.learn_tab: int | None = None
            return
        self.learn_offer = widgets.HTML(markup.render("tutorial_offer.html", title=self.setup.title, progress=""))
        self.learn_button = widgets.Button(
            description="Start the guided game",
            button_style="primary",
            icon="graduation-cap",
            tooltip="Learn to play on the board, step by step; your game waits",
            layout=widgets.Layout(width="220px"),
        )
        self.learn_button.add_class("rulebook-learn-start")
        self.learn_button.on_click(lambda _: self.show_tutorial())
        self.learn_tab = len(panels)
        self.learn_offer_box = widgets.VBox([self.learn_offer, self.learn_button])
        # the offer, and while the lesson is in the board's place its step's text and buttons, beside the board
        self.learn_box = widgets.VBox([self.learn_offer_box], layout=widgets.Layout(padding="4px"))
        panels.append(self.learn_box)
        titles.append("Learn")

    @property
    def learn(self) -> Any:
        """The guided first game's panel, made the first time it is asked for."""
        if self._learn is None:
            from rulebook.app.learn import LearnPanel

            panel = build(
                lambda: LearnPanel(
                    self.game, on_full_game=self._learned_full_game, on_exercises=self._learned_exercises
                )
            )
            panel.text.handlers.append(self.open_rule)
            panel.board_handlers.append(self._learn_board)
            panel.lesson.listeners.append(lambda _lesson: self._learn_progress())
            panel.lesson.listeners.append(progress.lesson_listener(self.game))  # steps done: the record (issue 49)
            self._learn = panel
            self.learn_box.children = (self.learn_offer_box, panel.guide_apart())
            # whatever takes the board's place (the game again, an exercise, a new game), the tab follows it
            self.board_box.observe(self._learn_placed, "children")
            self.exercise_view.observe(self._learn_placed, "children")
            self._learn_placed()
        return self._learn

    @property
    def learn_shown(self) -> bool:
        """Whether the lesson is in the board's place."""
        panel = self._learn
        return (
            panel is not None and panel in self.exercise_view.children and self.exercise_view in self.board_box.children
        )

    def _learn_placed(self, _change: Any = None) -> None:
        """The Learn tab shows the step's text and buttons while the lesson is in the board's place (beside the
        board, both in the first screen at 1280x800), and the offer to go back to it otherwise."""
        if self._learn is None:
            return
        shown = self.learn_shown
        self.learn_offer_box.layout.display = "none" if shown else None
        self._learn.guide.layout.display = None if shown else "none"

    def show_tutorial(self) -> None:
        """Show the guided first game in the board's place, at the step the learner left it; the game in progress is
        put aside as it is ("Back to your game" returns to it, as from an exercise)."""
        panel = self.learn
        retired = self._put_aside(keep=panel.board)
        self.exercise_shown = None
        board = panel.show()
        self._in_the_board_s_place(panel)
        close_widgets(*retired)
        self._learn_board(board)
        if self.learn_tab is not None:
            self.tabs.selected_index = self.learn_tab  # the step's text, beside the board
        self.panel_bar.board_shown += 1  # on a phone the step is under the board: the board comes into sight

    def _learn_board(self, board: Table) -> None:
        """The lesson put a board on the page: the app follows it (rule links, banner, about line)."""
        if self._learn is None or self._away is None or self._learn.board is not board:
            return
        state = board.state
        players = getattr(state, "players", self.setup.default_players)
        replying = self._learn.replying_seats(state)  # the seats whose moves the lesson plays
        self.current = Started(players, seed=0, computer=replying, loaded=state, source="the guided first game")
        self._follow(board)
        self._learn_progress()
        self._board_changed(board)

    def _learn_progress(self) -> None:
        """The bar over the lesson and the Learn tab tell the learner's step."""
        if self._learn is None or self.learn_tab is None:
            return
        progress = self._learn.lesson.progress()
        self.learn_offer.value = markup.render("tutorial_offer.html", title=self.setup.title, progress=progress)
        self.learn_button.description = "Back to the lesson"
        if self._away is not None and self.exercise_shown is None and self.board is self._learn.board:
            moves = self.moves_put_aside()
            self.exercise_text.value = markup.render("tutorial_bar.html", progress=progress, moves=moves)
            self._say(f"Learn to play {self.setup.title}: {progress.lower()}. Your game waits.")

    def _learned_full_game(self) -> None:
        """After the lesson: a new game against the computer at the beginner level (seats but the first)."""
        beginner = self._learn.beginner() if self._learn is not None else {}
        self.players.value = self.setup.default_players
        for seat, control in enumerate(self.seats):
            control.value = beginner.get(seat, "")
        self.seed_text.value = ""
        self.new_game()

    def _learned_exercises(self) -> None:
        """After the lesson: back to the game, with the exercises' tab open."""
        self.back_to_game()
        self.tabs.selected_index = self.EXERCISES_TAB
