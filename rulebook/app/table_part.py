"""The app at a class table (issue 45.4): ``App(game, table=seat)`` plays one seat of a table the class server owns.

``table`` is a seat a Python client took (``Client(address).join(code)``, in a notebook or the Voila app), a
:class:`rulebook.tables.remote.TableSeat`, or ``(address, code, token)``; on the website the game page passes
``("", code, token)``: the page's own server. The board is the game's usual board on the seat's copy of the position;
the toolbar's New game, Restart and Load would leave the table, so they are off, and Save is the teacher's (the table's
log is its save file).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import ipywidgets as widgets

from rulebook.app.base import Part, Started
from rulebook.view import markup
from rulebook.view.table import build

BROWSER = sys.platform == "emscripten"
SEATS_KEY = "rulebook-class-seats"  # the browser's storage of the seats it holds: {"<server> <code>": token}
MAX_KEPT = 50


def _page_origin() -> str:
    import js  # type: ignore[import-not-found]  # the website's Python: the page's own server

    return str(js.location.origin)


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
        others = {other: "the class" for other in range(state.players) if other != seat.seat}  # "you play" one seat
        self.current = Started(
            players=state.players, seed=0, computer=others, source=f"class table {seat.connection.code}"
        )
        seat.attach(board)
        seat.changed.append(lambda _seen: self._table_changed())
        from rulebook.progress.learner import learner

        seat.keep_progress(learner())  # the student's progress, kept by the class under the seat's name (issue 49)
        self._show(board)
        hidden = (self.new_button, self.restart_button, self.upload, self.save_button, self.banner_new, self.pace_menu)
        for control in hidden:  # the table is the teacher's, and its computer seats play on the server
            control.layout.display = "none"
        self.undo_hidden(board)
        self.tabs.selected_index = self.RULES_TAB

    # -- joining from the Set-up panel ------------------------------------------------------------------------------
    def _build_join_box(self) -> widgets.VBox:
        """The "Join a class table" box: the class server's address (on the website, the page's own server), the
        table's code and the student's name. The seat's token is kept in this browser, so joining the same table
        again after a reload returns to the same seat."""
        from rulebook.progress.storage import BrowserStore

        self.kept_seats = BrowserStore(key=SEATS_KEY)
        self.join_address = widgets.Text(
            description="Server", placeholder="http://... (the students' address)", layout=widgets.Layout(width="100%")
        )
        if BROWSER:
            self.join_address.layout.display = "none"  # the website's page: its own server
        self.join_code = widgets.Text(description="Table code", layout=widgets.Layout(width="100%"))
        self.join_name = widgets.Text(description="Your name", layout=widgets.Layout(width="100%"))
        self.join_button = widgets.Button(description="Join the table", tooltip="Take a seat at a class table")
        self.join_button.on_click(lambda _: self.join_table())
        self.join_message = widgets.HTML()
        heading = widgets.HTML(markup.render("heading.html", text="Join a class table"))
        box = widgets.VBox(
            [
                heading,
                self.join_address,
                self.join_code,
                self.join_name,
                self.join_button,
                self.join_message,
                self.kept_seats,
            ]
        )
        box.add_class("rulebook-join")
        return box

    def join_table(self) -> bool:
        """Take a seat at the table the Set-up panel names (or return to the seat this browser holds there)."""
        from rulebook.tables.client import Client

        code = self.join_code.value.strip().upper()
        name = self.join_name.value.strip()
        try:
            if not code:
                raise ValueError("type the table's code (the teacher gives it)")
            address = self.join_address.value.strip() or (_page_origin() if BROWSER else "")
            if not address:
                raise ValueError("type the class server's address (the students' address, http://...)")
            client = Client(address)
            kept = self._kept().get(f"{client.base} {code}")
            seat = None
            if kept:
                try:
                    seat = client.rejoin(code, kept)
                except ValueError:
                    seat = None  # that seat is no longer held by this browser's token: take a new one
            if seat is None:
                if not name:
                    raise ValueError("type your name: the others at the table see it")
                seat = client.join(code, name=name)
                self._keep(f"{client.base} {code}", seat.token)
            if self.table_seat is not None:
                self.table_seat.close()
            self._join_table(seat)
        except ValueError as error:
            self.join_message.value = markup.render("notice.html", kind="error", text=str(error))
            return False
        self.join_message.value = ""
        return True

    def _kept(self) -> dict[str, str]:
        try:
            kept = json.loads(self.kept_seats.text or "{}")
        except ValueError:
            return {}
        return {str(key): str(value) for key, value in kept.items()} if isinstance(kept, dict) else {}

    def _keep(self, key: str, token: str) -> None:
        kept = self._kept()
        kept[key] = token
        self.kept_seats.text = json.dumps(dict(list(kept.items())[-MAX_KEPT:]))

    @staticmethod
    def undo_hidden(board: Any) -> None:
        board.undo_button.layout.display = "none"

    def _table_changed(self) -> None:
        """After each message from the server: the banner and the line about the table follow the board."""
        if self.board is not None:
            self._board_changed(self.board)
