"""An exercise on the board: its position on a board of its own in the board's place, the game in progress put aside
as it is, and "Back to your game" (the guided first game of :mod:`.learn_tab` uses the same place and way back)."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from rulebook.app.base import Away, Part, Started
from rulebook.teach.exercises import Exercise
from rulebook.view import markup
from rulebook.view.table import build, close_widgets


class ExerciseViewPart(Part):
    """What stands in the board's place while an exercise (or the lesson) is shown, and the way back."""

    board_class: Any

    def _build_exercise_view(self) -> widgets.VBox:
        """A line naming the exercise with "Back to your game", over the exercise's own board (:meth:`show_exercise`
        puts it in)."""
        self.exercise_text = widgets.HTML()
        self.back_button = widgets.Button(
            description="Back to your game",
            icon="undo",
            button_style="success",
            tooltip="The game you were playing, exactly as you left it",
            layout=widgets.Layout(width="170px", flex="0 0 auto"),
        )
        self.back_button.add_class("rulebook-back-to-game")
        self.back_button.on_click(lambda _: self.back_to_game())
        self.exercise_bar = widgets.HBox(
            [self.exercise_text, self.back_button],
            layout=widgets.Layout(align_items="center", flex_flow="row wrap", grid_gap="8px", padding="2px 0"),
        )
        self.exercise_bar.add_class("rulebook-exercise-bar")
        self.odds_note = widgets.HTML(markup.render("exercise_odds_note.html"))  # the odds tab during an exercise
        view = widgets.VBox([self.exercise_bar], layout=widgets.Layout(width="100%"))
        view.add_class("rulebook-exercise-board")
        return view

    def _put_aside(self, keep: Any = None) -> list[widgets.Widget]:
        """Put the game in progress aside, board and all (hidden, not closed: its page stays drawn for the way back);
        if it already is, the board shown since (an exercise's, unless it is ``keep``) is returned to be closed."""
        if self._away is None:
            assert self.board is not None and self.current is not None
            self._away = Away(self.board, self.current, tuple(self.odds_box.children), self.board.layout.display)
            self.board.layout.display = "none"
            return []
        return [self.board] if self.board is not None and self.board is not keep else []

    def _in_the_board_s_place(self, shown: widgets.Widget) -> None:
        """Show ``shown`` under the exercise bar where the board was; the odds tab waits with the game put aside."""
        assert self._away is not None
        self.exercise_view.children = (self.exercise_bar, shown)
        self.board_box.children = (self.exercise_view, self._away.board)
        self.odds_box.children = (self.odds_note,)

    def show_exercise(self, exercise: Exercise, state: Any) -> None:
        """Show an exercise's position on a board of its own, in the place of the game's board, which is kept as it
        was ("Back to your game" shows it again, the same board). The exercise's board has no computer players and
        shows no legal target, hint or score until the answer is checked (:meth:`_exercise_checked`)."""
        self._say(f"Setting up exercise {exercise.id} on its own board…")
        players = getattr(state, "players", self.setup.default_players)
        game = Started(players=players, seed=0, computer={}, loaded=state, source=f"exercise {exercise.id}")
        try:
            board = build(lambda: self.board_class(state, seed=0, computer={}))
        except ValueError as error:
            self._say(f"Exercise {exercise.id} cannot be shown: {error}", error=True)
            return
        board.show_only(
            f"Exercise {exercise.id}: the position only. Answer under Exercises; once your answer is checked, "
            "the board shows the moves and you can play on from here."
        )
        retired = self._put_aside()
        assert self._away is not None
        self.exercise_shown, self.current = exercise, game
        self._follow(board)
        self.exercise_text.value = markup.render(
            "exercise_bar.html", exercise=exercise.id, moves=self.moves_put_aside()
        )
        self._in_the_board_s_place(board)
        close_widgets(*retired)
        self._board_changed(board)
        self._say(f"Exercise {exercise.id} is on its own board; your game waits: Back to your game returns to it.")

    def _exercise_checked(self, exercise: Exercise) -> None:
        """Once the answer to the exercise on the board is checked, its board plays: legal targets, hints, moves."""
        board = self.board
        if self.exercise_shown is None or exercise.id != self.exercise_shown.id or board is None:
            return
        if board.shown_only:
            board.show_only("")
            self._say(f"Exercise {exercise.id} is checked: play on from its position, or go back to your game.")

    def back_to_game(self) -> None:
        """Close the exercise's board and show the game put aside for it, exactly as it was left."""
        away = self._away
        if away is None:
            return
        exercise_board = self.board
        self._away, self.exercise_shown = None, None
        self.board, self.current = away.board, away.game
        away.board.layout.display = away.display
        self.board_box.children = (away.board,)
        self.exercise_view.children = (self.exercise_bar,)
        self.odds_box.children = away.explorer
        if exercise_board is not None and exercise_board is not away.board:
            close_widgets(exercise_board)
        self._build_explorer()
        self._board_changed(away.board)
        self._say("Back to your game, as you left it.")
