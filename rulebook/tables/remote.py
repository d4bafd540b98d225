"""A seat at a class table played from an app (issue 45.4): the website's game page, the Voila app or a notebook.

The engine runs where the student is, on the seat's own copy of the position (:mod:`.positions`: others' secrets
dealt again), so the legal targets light up at once and an illegal move is refused at once with its rule id. A move
the engine allows goes to the class server over the table's WebSocket; the server checks it again, settles chance,
stores it and sends every seat its new view, and this seat's board then shows the position the server sent. The
board never applies a move itself: what it shows is always the server's.

:class:`Connection` speaks to the server: the first view over HTTP (so the app opens on the table at once), then
the WebSocket. In the browser's Python (Pyodide, in a web worker) it uses the browser's own ``XMLHttpRequest`` and
``WebSocket``; in a kernel, ``urllib`` and tornado's WebSocket client on the kernel's event loop.
"""

from __future__ import annotations

import asyncio
import json
import sys
import urllib.parse
from collections.abc import Callable
from typing import Any

from rulebook import registry
from rulebook.core import IllegalMove, encode_move, parse_json
from rulebook.play.session import LogGroup, LogLine, Session, Step
from rulebook.progress import events as progress

from . import positions

BROWSER = sys.platform == "emscripten"
PING = 20.0  # seconds between the seat's pings: the server counts a seat present while it hears from it


def _away(state: Any, rng: Any) -> Any:
    raise ValueError("another seat of the table plays this seat: its moves come from the class server")


# --- the connection ---------------------------------------------------------------------------------------------


class Connection:
    """The seat's line to the class server at ``address`` (``http://host:port``; in the browser, "" for the page's
    own server), for the table ``code``, held by the seat's ``token``."""

    def __init__(self, address: str, code: str, token: str) -> None:
        if not isinstance(code, str) or not code.isalnum() or len(code) > 20:
            raise ValueError(f"not a table's code: {str(code)[:40]!r}")
        if not isinstance(token, str) or not token or len(token) > 200:
            raise ValueError("a seat's token is the text the class server gave when the seat was taken")
        self.address = _address(address)
        self.code, self.token = code.upper(), token
        self._socket: Any = None
        self._task: Any = None
        self._waiting: list[str] = []  # sent while the socket opens
        self._closed = False

    def url(self, path: str, **query: str) -> str:
        query = {"seat_token": self.token, **query}
        return f"{self.address}{path}?{urllib.parse.urlencode(query)}"

    def fetch(self) -> dict[str, Any]:
        """What the seat sees now, with its own copy of the position (``"state"``)."""
        text, status = _get(self.url(f"/api/tables/{self.code}/view", state="1"))
        answer = parse_json(text, "the class server's answer") if text else {}
        if status != 200 or not isinstance(answer, dict):
            said = answer.get("error") if isinstance(answer, dict) else None
            raise ValueError(said or f"the class server said {status}")
        return answer

    def keep_progress(self, record: str) -> None:
        """Send the learner's progress (the record's JSON) to be kept under this seat's name (issue 49.3)."""
        text, status = _post(self.url(f"/api/tables/{self.code}/progress"), json.dumps({"record": record}))
        if status != 200:
            answer = _message(text) if text else {}
            raise ValueError(str(answer.get("error") or f"the class server said {status}"))

    def open(self, heard: Callable[[dict[str, Any]], None]) -> None:
        """Listen to the table: ``heard`` gets every message the server sends this seat (views, refusals)."""
        socket_url = self.url(f"/ws/{self.code}", state="1").replace("http", "ws", 1)
        if BROWSER:
            self._socket = _BrowserSocket(socket_url, heard)
        else:
            self._task = asyncio.ensure_future(self._listen(socket_url, heard))

    async def _listen(self, url: str, heard: Callable[[dict[str, Any]], None]) -> None:
        import tornado.websocket

        while not self._closed:
            try:
                self._socket = await tornado.websocket.websocket_connect(url, ping_interval=PING)
                waiting, self._waiting = self._waiting, []
                for text in waiting:
                    self._socket.write_message(text)
            except OSError as error:
                heard({"type": "lost", "message": f"no class server answers ({error}); trying again"})
                await asyncio.sleep(2.0)
                continue
            while True:
                message = await self._socket.read_message()
                if message is None:
                    break
                heard(_message(message))
            self._socket = None
            if not self._closed:
                heard({"type": "lost", "message": "the connection to the class server dropped; trying again"})
                await asyncio.sleep(1.0)

    def send(self, data: dict[str, Any]) -> None:
        """Send the server one message (a move): at once, or as soon as the socket opens; ValueError when the
        table's line is down."""
        if self._socket is None and self._task is not None and not self._waiting:
            self._waiting.append(json.dumps(data))
            return
        if self._socket is None:
            raise ValueError("not connected to the class server: it is being tried again; play again in a moment")
        self._socket.write_message(json.dumps(data))

    def close(self) -> None:
        self._closed = True
        if self._socket is not None:
            self._socket.close()
        if self._task is not None:
            self._task.cancel()


def _address(address: str) -> str:
    if BROWSER and not address:
        import js  # type: ignore[import-not-found]  # the page's origin: the class server serves this site

        return str(js.location.origin)
    parts = urllib.parse.urlsplit(str(address).strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"not a class server's address: {str(address)[:80]!r} (it starts with http://)")
    return f"{parts.scheme}://{parts.netloc}"


def _message(text: str | bytes) -> dict[str, Any]:
    try:
        data = parse_json(text, "the class server's message")
    except ValueError as error:
        return {"type": "error", "message": str(error)}
    return data if isinstance(data, dict) else {"type": "error", "message": "the class server sent a bare value"}


def _get(url: str) -> tuple[str, int]:
    """One GET: the body's text and the status."""
    if BROWSER:  # a web worker may make synchronous requests
        import js

        request = js.XMLHttpRequest.new()
        request.open("GET", url, False)
        request.send()
        return str(request.responseText), int(request.status)
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.read().decode("utf-8"), response.status
    except urllib.error.HTTPError as error:
        return error.read().decode("utf-8", "replace"), error.code
    except urllib.error.URLError as error:
        raise ValueError(f"no class server answers at {url.split('/api/')[0]}: {error.reason}") from None


def _post(url: str, body: str) -> tuple[str, int]:
    """One POST of JSON: the answer's text and the status."""
    if BROWSER:
        import js

        request = js.XMLHttpRequest.new()
        request.open("POST", url, False)
        request.setRequestHeader("Content-Type", "application/json")
        request.send(body)
        return str(request.responseText), int(request.status)
    import urllib.error
    import urllib.request

    sent = urllib.request.Request(url, data=body.encode("utf-8"), method="POST")
    sent.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(sent, timeout=30) as response:
            return response.read().decode("utf-8"), response.status
    except urllib.error.HTTPError as error:
        return error.read().decode("utf-8", "replace"), error.code
    except urllib.error.URLError as error:
        raise ValueError(f"no class server answers at {url.split('/api/')[0]}: {error.reason}") from None


class _BrowserSocket:
    """The browser's WebSocket, from the browser's Python: messages to ``heard``, reopened when it drops."""

    def __init__(self, url: str, heard: Callable[[dict[str, Any]], None]) -> None:
        from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

        self.url, self.heard, self.closed = url, heard, False
        self.waiting: list[str] = []  # sent while the socket opens: sent once it is open
        self._proxies = [create_proxy(self._on_message), create_proxy(self._on_close), create_proxy(self._on_open)]
        self._open()

    def _open(self) -> None:
        import js

        self.socket = js.WebSocket.new(self.url)
        self.socket.onmessage, self.socket.onclose, self.socket.onopen = self._proxies

    def _on_open(self, _event: Any) -> None:
        waiting, self.waiting = self.waiting, []
        for text in waiting:
            self.socket.send(text)

    def _on_message(self, event: Any) -> None:
        self.heard(_message(str(event.data)))

    def _on_close(self, _event: Any) -> None:
        if self.closed:
            return
        self.heard({"type": "lost", "message": "the connection to the class server dropped; trying again"})
        import js
        from pyodide.ffi import create_once_callable

        js.setTimeout(create_once_callable(self._open), 1500)

    def write_message(self, text: str) -> None:
        state = int(self.socket.readyState)
        if state == 0 and not self.waiting:  # opening: sent once open
            self.waiting.append(text)
        elif state == 1:
            self.socket.send(text)
        else:
            raise ValueError("not connected to the class server: it is being tried again; play again in a moment")

    def close(self) -> None:
        self.closed = True
        self.socket.close()


# --- the seat's session -----------------------------------------------------------------------------------------


class SeatSession(Session):
    """A board's session at a class table: the positions the server sent, this seat's moves checked by the engine
    here and then sent, the other seats played by the server (shown as its players: the board shows their secrets to
    nobody), the log as the server words it for this seat. No Undo, replay or local chance: the table keeps its log."""

    def __init__(self, state: Any, seat: int, send: Callable[[Any], None], names: Any = None) -> None:
        players = state.players
        others = {other: _away for other in range(players) if other != seat}
        super().__init__(state, seed=0, computer=others, names=names)
        self.seat = seat
        self.elsewhere: frozenset[int] = frozenset()  # the seats other students play (TableSeat.heard sets them)
        self._send = send
        self.waiting = False  # a move sent and not yet answered
        self.lines: list[dict[str, Any]] = []  # the server's log for this seat

    # the server plays the other seats and settles chance
    @property
    def computer_to_move(self) -> bool:
        return False

    def computer_step(self) -> None:
        return None

    def settle(self) -> list[Step]:
        return []

    def _settle_chance(self) -> None:
        return None

    def start(self, *, reply: bool = True) -> Session:
        return self

    def play(self, move: Any, *, reply: bool = True) -> bool:
        """Check ``move`` here (a refusal is told at once, with its rule id), then send it to the server."""
        if self.finished:
            self._say("The game is over: the teacher can start a new table.", "error")
            return False
        if self.waiting:
            self._say("Your move is on its way to the class server: wait for its answer.", "error")
            return False
        player = self.current_player(self.live)
        if player != self.seat:
            self._say(f"It is {self.describe_player(player)}'s turn: wait for their move.", "error")
            return False
        try:
            error = self.game.check(self.live, move)
            if error is not None:
                raise error
        except IllegalMove as error:
            self._say(f"Refused by {error.rule}: {error.message}", "error")
            progress.refused(self.game_name, error.rule)  # the learner's record (issue 49), as Session does
            return False
        except ValueError as error:
            self._say(str(error), "error")
            return False
        try:
            self._send(move)
        except ValueError as error:
            self._say(str(error), "error")
            return False
        self.waiting = True
        self.hinted = None
        self._say(f"{self.describe_player(self.seat)}: {self.move_text(move)}. Sent to the table…")
        return True

    def undo(self) -> None:
        self._say("At a class table a move played stays played: the table keeps its log (no Undo).", "error")

    def show_move(self, index: int) -> None:
        self.view = None
        self._say("The log tells the table's moves; the board shows the table as it stands.")

    def received(self, state: Any, lines: list[dict[str, Any]]) -> None:
        """The server's new view: its position and its log for this seat; the newest line says what happened."""
        self.waiting = False
        self.states = [state]
        self.view = None
        self._narrations.clear()
        new = lines[len(self.lines) :] if len(lines) >= len(self.lines) else lines
        self.lines = list(lines)
        if new:
            said = "; then ".join(str(line.get("text", "")) for line in new[-3:])
            self._say(said)

    def refused(self, rule: str, message: str) -> None:
        self.waiting = False
        self._say(f"Refused by {rule}: {message}", "error")
        progress.refused(self.game_name, rule)

    def failed(self, message: str) -> None:
        self.waiting = False
        self._say(message, "error")

    def steps_shown(self) -> list[Step]:
        return []

    def log(self, limit: int = 60) -> list[LogGroup]:
        """The server's log, newest first, grouped by the seat that played."""
        groups: list[LogGroup] = []
        state = self.live
        for line in reversed(self.lines[-limit:]):
            player = line.get("player") if isinstance(line.get("player"), int) else None
            step = Step(int(line.get("n", 0)) + 1, player, None, state, state)
            told = LogLine(step, str(line.get("text", "")))
            if groups and groups[-1].player == player:
                last = groups[-1]
                groups[-1] = last._replace(lines=(*last.lines, told))
            else:
                name = self.describe_player(player) if player is not None else "Chance"
                groups.append(LogGroup(player, name, line.get("kind") == "away", (told,)))
        return groups


def _students(seen: dict[str, Any], own: int) -> frozenset[int]:
    """The seats of a view's table that other students hold (not the computer's, not this one)."""
    return frozenset(
        line["seat"]
        for line in seen.get("seats", [])
        if isinstance(line, dict)
        and isinstance(line.get("seat"), int)
        and line["seat"] != own
        and not line.get("computer")
    )


class TableSeat:
    """One seat at a class table on a board: the connection, the board's :class:`SeatSession`, and what the server
    says drawn on the board (``changed`` is told after each: the app redraws what stands around the board)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        first = connection.fetch()
        self.game = registry.game(str(first.get("game")))
        seat = first.get("seat")
        if not isinstance(seat, int):
            raise ValueError("the class server did not name this seat")
        self.seat: int = seat
        self.first = first
        self.board: Any = None
        self.changed: list[Callable[[dict[str, Any]], None]] = []
        self.seen: dict[str, Any] = first

    @classmethod
    def of(cls, seat: Any) -> TableSeat:
        """The table seat a Python client's seat (``Client(...).join(...)``) holds."""
        return cls(Connection(seat.client.base, seat.code, seat.token))

    def state_of(self, seen: dict[str, Any]) -> Any:
        return positions.decode(seen.get("state"), self.game.name)

    def attach(self, board: Any) -> None:
        """Play ``board`` (built on :meth:`state_of` the first view) at the table: its session becomes the seat's."""
        self.board = board
        board.session = SeatSession(board.session.live, self.seat, self._send, names=board)
        board.session.elsewhere = _students(self.first, self.seat)
        board.session.received(board.session.live, list(self.first.get("log", [])))
        board.session._say(self._greeting(self.first))
        self.connection.open(self.heard)

    def _greeting(self, seen: dict[str, Any]) -> str:
        names = [line.get("name") for line in seen.get("seats", []) if isinstance(line, dict)]
        own = names[self.seat] if self.seat < len(names) else ""
        return f"Table {seen.get('code', '')}: you are {own}, seat {self.seat + 1} of {len(names)}."

    def _send(self, move: Any) -> None:
        self.connection.send({"type": "move", "move": encode_move(move), "moves": int(self.seen.get("moves", 0))})

    def heard(self, message: dict[str, Any]) -> None:
        """A message from the server, drawn on the board; a malformed one is said, never raised."""
        board = self.board
        session = board.session
        kind = message.get("type")
        try:
            if kind == "view" and isinstance(message.get("view"), dict):
                seen = message["view"]
                state = self.state_of(seen)
                self.seen = seen
                session.elsewhere = _students(seen, self.seat)
                session.received(state, list(seen.get("log", [])))
            elif kind == "refused":
                session.refused(str(message.get("rule", "")), str(message.get("message", "")))
            elif kind in ("error", "lost"):
                session.failed(str(message.get("message", "")))
            else:
                return
        except ValueError as error:
            session.failed(f"The class server sent what this page cannot read: {error}")
        board.redraw()
        for listener in list(self.changed):
            listener(self.seen)

    def keep_progress(self, learner: Any) -> None:
        """Send ``learner``'s record to the class server after each change (issue 49.3): the teacher's page counts
        it in the class's map. A failure is kept in ``progress_problem``; the game goes on."""

        def changed(heard: Any) -> None:
            try:
                self.connection.keep_progress(heard.record.to_json())
                self.progress_problem = ""
            except ValueError as error:
                self.progress_problem = str(error)

        learner.listeners.append(changed)
        self._progress = (learner, changed)

    progress_problem = ""
    _progress: tuple[Any, Any] | None = None

    def close(self) -> None:
        if self._progress is not None:
            learner, changed = self._progress
            if changed in learner.listeners:
                learner.listeners.remove(changed)
        self.connection.close()
