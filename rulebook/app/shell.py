"""The game app: one page that opens on a game, with its set-up, rules, save and load beside the board.

``App("claim")`` is all the app notebook holds; ``rulebook app GAME`` serves it with Voila. The shell knows no game:
it asks the registry (``rulebook.registry``) for the game's set-up, board, explorer and verbs (saving and loading),
and ``rulebook.teach.rules_text`` for the rules (read from the game's notebook, the one source). App is made of its
parts, each a module of this package: the toolbar, the set-up panel, the side tabs, the Rules tab, save and load, an
exercise on the board and the Learn tab; here is only how a game comes onto the board and what follows it.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from rulebook import registry
from rulebook.app.base import Away, Started
from rulebook.app.files import FilesPart
from rulebook.app.learn_tab import LearnTabPart
from rulebook.app.progress_panel import ProgressPart
from rulebook.app.rules import RulesPart
from rulebook.app.side_tabs import SideTabsPart
from rulebook.app.table_part import TablePart
from rulebook.app.toolbar import ToolbarPart
from rulebook.teach.exercises import Exercise
from rulebook.view import figures, markup
from rulebook.view.table import Table, build, close_widgets

NOTICE_HEIGHT = "28px"  # a line of an HTML widget (ipywidgets' --jp-widgets-inline-height)


class App(ToolbarPart, SideTabsPart, RulesPart, FilesPart, LearnTabPart, TablePart, ProgressPart):
    """One game as an app: toolbar (New game, Restart, Save, Load), the board, and a side panel (set-up, rules)."""

    def __init__(
        self,
        game: str,
        *,
        players: int | None = None,
        seed: int | None = None,
        computer: Any = None,
        plotly_url: str | None = None,
        table: Any = None,
    ):
        if plotly_url is not None:  # `rulebook app` serves plotly.js as a file (figures.serve_plotly_from)
            figures.serve_plotly_from(plotly_url)
        self.setup: registry.Game = registry.game(game)
        self.game = game
        self.module = self.setup.engine
        self.board_class = self.setup.board_class()
        self.board: Table | None = None
        self.current: Started | None = None
        self._away: Away | None = None  # the game in progress while an exercise is on the board
        self.exercise_shown: Exercise | None = None  # the exercise on the board, if one is

        # one line kept for what the last action did, shown or not: a notice coming (Load, Restart) moves no board
        self.notice = widgets.HTML(layout=widgets.Layout(min_height=NOTICE_HEIGHT))
        toolbar = self._build_toolbar()
        self.banner = self._build_banner()
        self.tabs = self._build_side_panel()
        self.board_box = widgets.Box(layout=widgets.Layout(flex="1 1 auto", min_width="0"))
        self.exercise_view = self._build_exercise_view()
        body = widgets.HBox([self.board_box, self.tabs], layout=widgets.Layout(align_items="flex-start"))
        body.add_class("rulebook-body")  # style.css: the side panel under the board where the page is narrow
        skip = self._build_skip_link()  # first: the keyboard's way to the board
        super().__init__([skip, toolbar, self.notice, self.banner, body], layout=widgets.Layout(width="100%"))
        self.add_class("rulebook-app")
        self._apply_arguments(players, seed, computer)
        if table is not None:  # a seat at a class table (rulebook.app.table_part): the server's game, not a new one
            self._join_table(table)
        else:
            self.new_game()

    def new_game(self) -> bool:
        """Start a game from the set-up panel; a choice the game refuses is explained and nothing changes."""
        try:
            game = self.read_setup()
            self._start(game)
        except ValueError as error:
            self._say(f"Set-up: {error}", error=True)
            self.tabs.selected_index = self.SETUP_TAB
            return False
        self._say("")
        return True

    def restart(self) -> None:
        """The same game again from its start: same players, seats, seed and options (or the loaded position); while
        an exercise is shown, the exercise's position again (the game put aside stays as it was)."""
        if self._learn is not None and self._away is not None and self.board is self._learn.board:
            self._learn.lesson.go(self._learn.lesson.index)  # the lesson's step again from its start (issue 27)
        elif self.exercise_shown is not None:
            self.show_exercise(self.exercise_shown, self.exercise_shown.state())
        elif self.current is not None:
            self._start(self.current)
            self._say("Restarted: the same game from its start.")

    def _start(self, game: Started) -> None:
        state = game.loaded if game.loaded is not None else self.setup.new_state(game.players, game.seed, game.options)
        board = build(lambda: self.board_class(state, seed=game.seed, computer=game.computer))
        self.current = game
        self._show(board)

    def _follow(self, board: Table) -> None:
        """Make ``board`` the app's: the banner and the about line follow it, its rule ids open the rules tab."""
        self.board = board
        board.page_root = lambda: self  # a page shown the board gets the whole app's state again (Table._page_shown)
        board.listeners.append(self._board_changed)
        for text in (board.status, board.move_log):
            text.handlers.append(self.open_rule)

    def _show(self, board: Table) -> None:
        """Put a new game's board in place of what was shown, and close the boards and explorers it replaces (a
        replaced board left open stays in the kernel and the page: 70 to 120 widgets per New game)."""
        retired: list[widgets.Widget] = [] if self.board is None else [self.board]
        retired += [child for child in self.odds_box.children if child is not self.odds_note]
        if self._away is not None:  # a new game ends the exercise, and the game put aside for it
            retired += [self._away.board, *self._away.explorer]
            self._away, self.exercise_shown = None, None
            self.exercise_view.children = (self.exercise_bar,)
        self._follow(board)
        self.board_box.children = (board,)
        self.odds_box.children = ()
        close_widgets(*retired)
        self._build_explorer()
        self._board_changed(board)

    def _board_changed(self, board: Table) -> None:
        """After every redraw of the board: the banner and the line about the game."""
        if board is not self.board or self.current is None:
            return
        game = self.current
        people = [name for seat, name in enumerate(self.setup.seat_names(game.players)) if seat not in game.computer]
        who = ", ".join(people) if people else "nobody (computer players only)"
        origin = game.source or f"seed {game.seed}"
        self.about.value = markup.render("about.html", players=game.players, origin=origin, who=who)
        self.hint_button.disabled = board.finished or board.replaying
        if self.pace_menu.value != board.pace:  # a board that follows the page's prefers-reduced-motion: "off"
            self.pace_menu.value = board.pace
        if board.finished:
            self.banner_text.value = markup.render("banner.html", result=board.result_text())
            self.banner.layout.display = "flex"
        else:
            self.banner.layout.display = "none"
