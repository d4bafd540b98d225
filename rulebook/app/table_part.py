"""The app at a class table (issue 45.4): ``App(game, table=seat)`` plays one seat of a table the class server owns.

``table`` is a seat a Python client took (``Client(address).join(code)``, in a notebook or the Voila app), a
:class:`rulebook.tables.remote.TableSeat`, or ``(address, code, token)``; on the website the game page passes
``("", code, token)``: the page's own server. The board is the game's usual board on the seat's copy of the position;
the toolbar's New game, Restart and Load would leave the table, so they are off, and Save is the teacher's (the table's
log is its save file).
"""

from __future__ import annotations

from typing import Any

from rulebook.app.base import Part, Started
from rulebook.view import markup
from rulebook.view.table import build


class TablePart(Part):
    """Joins the app to a class table: the board, the line about the table, and the controls that stay."""

    table_seat: Any = None

    def _join_table(self, table: Any) -> None:
        from rulebook.tables.remote import Connection, TableSeat

        if isinstance(table, TableSeat):
            seat = table
        elif isinstance(table, tuple) and len(table) == 3:
            seat = TableSeat(Connection(*table))
        elif hasattr(table, "token") and hasattr(table, "client"):
            seat = TableSeat.of(table)
        else:
            raise ValueError("table: a seat from Client(...).join(...), or (address, code, token)")
        if seat.game.name != self.game:
            raise ValueError(f"table {seat.connection.code} plays {seat.game.title}, not {self.setup.title}")
        self.table_seat = seat
        state = seat.state_of(seat.first)
        board = build(lambda: self.board_class(state, seed=0, computer={}))
        names = [line.get("name", "") for line in seat.first.get("seats", [])]
        self.current = Started(players=state.players, seed=0, computer={}, source=f"class table {seat.connection.code}")
        seat.attach(board)
        seat.changed.append(lambda _seen: self._table_changed())
        from rulebook.progress import learner

        seat.keep_progress(learner())  # the student's progress, kept by the class under the seat's name (issue 49)
        self._show(board)
        for control in (self.new_button, self.restart_button, self.upload, self.save_button, self.banner_new):
            control.layout.display = "none"
        self.undo_hidden(board)
        self.tabs.selected_index = self.RULES_TAB
        self.about.value = markup.render(
            "about.html", players=state.players, origin=f"class table {seat.connection.code}", who=", ".join(names)
        )

    @staticmethod
    def undo_hidden(board: Any) -> None:
        board.undo_button.layout.display = "none"

    def _table_changed(self) -> None:
        """After each message from the server: the banner and the line about the table follow the board."""
        if self.board is not None:
            self._board_changed(self.board)
