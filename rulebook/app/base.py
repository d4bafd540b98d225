"""What the app's parts share: the record of how the game on the board was started, and the names every part may use
(the App of :mod:`.shell` is made of the parts; each part is a class of its own module, mixed into App)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from rulebook import registry
from rulebook.teach.exercises import Exercise
from rulebook.view import markup
from rulebook.view.table import Table

PANEL_WIDTH = "360px"


@dataclass
class Started:
    """How the game on the board was started: what New game read from the set-up, or the file it was loaded from.
    (Not a game: the registry's :class:`rulebook.registry.Game` is the one Game.)"""

    players: int
    seed: int
    computer: dict[int, str]
    options: dict[str, Any] = field(default_factory=dict)
    loaded: Any = None  # the loaded position, for a game that came from a file
    source: str = ""
    moves: int = 0  # the moves played before the board's first position, as the log counts them (a loaded game)


@dataclass
class Away:
    """The game put aside while an exercise or the guided game is on the board, kept as it was: "Back to your game"
    shows it again."""

    board: Table
    game: Started
    explorer: tuple[widgets.Widget, ...]  # the odds tab's explorer of that board (none if it was never opened)
    display: str | None  # the board's layout.display before it was hidden


class Part(widgets.VBox):
    """The names the parts of the app share; App (:mod:`.shell`) sets them, each part builds and uses its own."""

    SETUP_TAB, RULES_TAB, EXERCISES_TAB = 0, 1, 2

    setup: registry.Game
    game: str
    module: Any
    board: Table | None
    current: Started | None
    exercise_shown: Exercise | None
    _away: Away | None  # the game put aside while an exercise or the guided game is shown
    tabs: widgets.Tab
    notice: widgets.HTML
    setup_message: widgets.HTML
    board_box: widgets.Box
    odds_box: widgets.Box

    def _say(self, text: str, error: bool = False) -> None:
        """Tell what the last action did (or, with ``error``, why it was refused) above the board; a refusal is told
        under the set-up too. The text is plain: file names and seeds in it are escaped."""
        self.notice.value = markup.render("notice.html", kind="error" if error else "info", text=text) if text else ""
        self.setup_message.value = self.notice.value if error else ""

    def moves_put_aside(self) -> int:
        """The moves of the game put aside for an exercise or the lesson, as its log and history bar count them: a
        person's or a computer's move each (the dice and cards it led to are told with it, not counted), with those
        before a loaded game's start. Its history has more entries: "55 moves played" beside a 43-move log."""
        away = self._away
        return 0 if away is None else away.game.moves + len(away.board.states) - 1

    if TYPE_CHECKING:  # what one part does and others call: App (:mod:`.shell`) and its parts define these

        def new_game(self) -> bool: ...

        def _start(self, game: Started) -> None: ...

        def _follow(self, board: Table) -> None: ...

        def _board_changed(self, board: Table) -> None: ...

        def _build_explorer(self, *_: Any) -> None: ...

        def open_rule(self, rule: str) -> None: ...

        def back_to_game(self) -> None: ...

        def show_exercise(self, exercise: Exercise, state: Any) -> None: ...

        def restart(self) -> None: ...

        def saved(self) -> tuple[str, str]: ...

        def _uploaded(self, name: str, data: bytes | None, why: str = "") -> None: ...

        def _build_setup(self) -> widgets.VBox: ...

        def _build_join_box(self) -> widgets.VBox: ...

        def _build_rules_tab(self) -> widgets.VBox: ...

        def _fill_rules(self) -> None: ...

        def _add_learn_tab(self, panels: list[widgets.Widget], titles: list[str]) -> None: ...

        def _exercise_checked(self, exercise: Exercise) -> None: ...
