"""The class server's web side (``rulebook class``): JSON over HTTP for scripts and pages, a WebSocket per open seat.

Protocol. The teacher's requests carry the teacher's token (``Authorization: token T`` or ``?token=T``); a seat's
carry the seat's token (``X-Seat-Token``, or ``?seat_token=`` on the WebSocket). Over HTTP:

- ``POST /api/tables`` {game, players, computer, options, seed, away_level, away_after} -> {code}  (teacher)
- ``GET /api/tables`` -> every table; ``GET /api/stumbles`` -> refusals by rule id; ``GET /api/progress`` -> the
  class's map of paragraphs (per game and paragraph, students in each state)  (teacher)
- ``POST /api/tables/CODE/progress`` {record} -> {name, kept}: a student's progress, kept under the seat's name
- ``GET /api/tables/CODE/save`` -> the table's save file; ``POST /api/tables/CODE/estimate`` -> Winning?  (teacher)
- ``POST /api/tables/CODE/seats`` {name, seat} -> {seat, token}; ``POST /api/tables/CODE/rejoin`` {token} -> {seat}
- ``GET /api/tables/CODE/view`` -> what the seat sees; ``GET /api/tables/CODE/watch`` -> what a spectator sees
- ``GET /api/tables/CODE/legal`` -> {moves: [{move, text}]}; ``POST /api/tables/CODE/moves`` {move, moves} ->
  {view} or, refused, 409 {rule, message, paragraph}; bad input 400 {error}

``/ws/CODE`` sends ``{"type": "view", "view": ...}`` (with ``legal`` when the seat is to move) at once and after every
change at the table (with ``?state=1``, on the socket or on ``view``, the view also holds ``state``: the seat's own copy
of the position for an engine on its page, rulebook.tables.positions), and takes ``{"type": "move", "move": ...,
"moves": n}``, answered to that socket alone by ``refused`` or ``error`` when it is not played. Every message is at
most :data:`MAX_MESSAGE` bytes and nested at most ``core.MAX_DEPTH``; a socket sending more than :data:`BURST`
messages in a burst is told and closed.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import mimetypes
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tornado.web
import tornado.websocket
from tornado.ioloop import IOLoop, PeriodicCallback

from rulebook.core import IllegalMove, parse_json

from .room import Room, legal_lines

MAX_MESSAGE = 64 * 1024  # bytes of one request body or WebSocket message: a move is under 1 KB, a set-up under 4 KB
MAX_PROGRESS = 512 * 1024  # bytes of a student's progress record (a full record of four games is about 60 kB)
MAX_BODY = 1024 * 1024  # bytes tornado reads at all: a body above MAX_MESSAGE and below this is refused in words
BURST = 100  # messages a socket may send at once; it earns back RATE a second (a script playing at full speed sends
RATE = 50.0  # about 40 a second; a person a few a minute)
TICK = 2.0  # seconds between looks for students who are away
PAGES = Path(__file__).with_name("pages")


class Class:
    """One class server: its room, its teacher's token, the open sockets per table and a pool for the engines' work."""

    def __init__(self, room: Room, token: str, workers: int = 2) -> None:
        self.room = room
        self.token = token
        self.sockets: dict[str, set[SeatSocket]] = {}
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="table")

    async def run(self, work: Callable[[], Any]) -> Any:
        return await IOLoop.current().run_in_executor(self.pool, work)

    def told(self, code: str) -> None:
        """Send every open socket at a table what it now sees."""
        for socket in list(self.sockets.get(code, ())):
            socket.send_view()

    async def tick(self) -> None:
        for played in await self.run(self.room.tick):
            self.told(played.code)


def refusal(game: str, error: IllegalMove) -> dict[str, Any]:
    """A refusal as a seat is shown it: the rule id, the engine's message and the paragraph's text."""
    from rulebook.teach import rules_text

    try:
        paragraph = rules_text.paragraph(game, error.rule).markdown
    except (ValueError, KeyError, OSError):
        paragraph = ""
    return {"rule": error.rule, "message": error.message, "paragraph": paragraph}


class Handler(tornado.web.RequestHandler):
    """JSON in and out; a ValueError becomes 400 with its words, never a traceback."""

    @property
    def classroom(self) -> Class:
        return self.settings["classroom"]

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")

    def body(self, limit: int = MAX_MESSAGE) -> dict[str, Any]:
        if len(self.request.body) > limit:
            raise ValueError(f"the request is {len(self.request.body)} bytes, more than {limit}")
        if not self.request.body:
            return {}
        data = parse_json(self.request.body, "not a request", "a request")
        if not isinstance(data, dict):
            raise ValueError("a request is a JSON object")
        return data

    def teacher(self) -> None:
        given = self.request.headers.get("Authorization", "").removeprefix("token ").strip()
        given = given or self.get_query_argument("token", "")
        if not secrets.compare_digest(given.encode(), self.classroom.token.encode()):
            raise tornado.web.HTTPError(403, reason="the teacher's token is needed")

    def seat_token(self, data: dict[str, Any] | None = None) -> str:
        given = self.request.headers.get("X-Seat-Token", "") or (data or {}).get("token", "")
        return str(given or self.get_query_argument("seat_token", ""))

    def reply(self, data: Any, status: int = 200) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps(data, separators=(",", ":")))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.reply({"error": self._reason}, status_code)

    async def handle(self, work: Callable[[], Any], status: int = 200) -> None:
        try:
            self.reply(await self.classroom.run(work), status)
        except IllegalMove:
            raise
        except ValueError as error:
            self.reply({"error": str(error)}, 400)


class TablesHandler(Handler):
    async def get(self) -> None:
        self.teacher()
        await self.handle(self.classroom.room.listing)

    async def post(self) -> None:
        self.teacher()
        try:
            data = self.body()
        except ValueError as error:
            return self.reply({"error": str(error)}, 400)
        known = {"game", "players", "computer", "options", "seed", "away_level", "away_after"}
        if set(data) - known or "game" not in data:
            return self.reply({"error": f"a table is made of {', '.join(sorted(known))} (game required)"}, 400)
        game = data.pop("game")
        players = data.pop("players", None)
        computer = {
            int(seat) if str(seat).isdigit() else seat: level
            for seat, level in (data.pop("computer", None) or {}).items()
        }

        def create() -> dict[str, Any]:
            from rulebook import registry

            count = players if players is not None else registry.game(game).default_players
            return {"code": self.classroom.room.create(game, count, computer=computer, **data)}

        await self.handle(create, 201)


class ProgressHandler(Handler):
    """``GET /api/progress``: the class's map of paragraphs, how many students are in each state (teacher)."""

    async def get(self) -> None:
        self.teacher()
        await self.handle(self.classroom.room.class_map)


class StumblesHandler(Handler):
    async def get(self) -> None:
        self.teacher()
        await self.handle(self.stumbles)

    def stumbles(self) -> list[dict[str, Any]]:
        from rulebook.teach import exercises, rules_text

        lines = self.classroom.room.stumbles()
        for line in lines:
            try:
                line["paragraph"] = rules_text.paragraph(line["game"], line["rule"]).markdown
            except (ValueError, KeyError, OSError):
                line["paragraph"] = ""
            try:
                practised = exercises.exercises(line["game"])
                line["exercises"] = [item.id for item in practised if line["rule"] in item.rules]
            except (ValueError, OSError):
                line["exercises"] = []
        return lines


class TableHandler(Handler):
    """``/api/tables/CODE/<what>``."""

    async def get(self, code: str, what: str) -> None:
        room = self.classroom.room
        if what == "save":
            self.teacher()
            try:
                text = await self.classroom.run(lambda: room.save(code))
            except ValueError as error:
                return self.reply({"error": str(error)}, 404)
            self.set_header("Content-Type", "application/json; charset=utf-8")
            self.set_header("Content-Disposition", f'attachment; filename="table-{room.table(code).code}.json"')
            self.finish(text)
            return
        if what == "watch":
            return await self.handle(lambda: room.view(code, None))
        token = self.seat_token()
        if what == "view":
            own = self.get_query_argument("state", "") == "1"  # the seat's copy of the position (an engine on its page)
            return await self.handle(lambda: room.view(code, room.seat_of(code, token)[1], state=own))
        if what == "legal":
            return await self.handle(
                lambda: {"moves": legal_lines(room.table(code).state, room.legal_moves(code, token))}
            )
        raise tornado.web.HTTPError(404)

    async def post(self, code: str, what: str) -> None:
        room = self.classroom.room
        try:
            data = self.body(MAX_PROGRESS if what == "progress" else MAX_MESSAGE)
        except ValueError as error:
            return self.reply({"error": str(error)}, 400)
        if what == "progress":  # a student's progress by rule id, kept under the seat's name (issue 49.3)
            token = self.seat_token(data)
            return await self.handle(lambda: room.keep_progress(code, token, data.get("record")))
        if what == "seats":
            return await self.handle(
                lambda: dict(zip(("seat", "token"), room.join(code, data.get("name"), data.get("seat")))), 201
            )
        if what == "rejoin":
            return await self.handle(lambda: {"seat": room.seat_of(code, data.get("token"))[1]})
        if what == "estimate":
            self.teacher()
            return await self.handle(lambda: estimate(room, code))
        if what == "moves":
            token = self.seat_token(data)
            try:
                played = await self.classroom.run(lambda: room.play(code, token, data.get("move"), data.get("moves")))
            except IllegalMove as error:
                return self.reply(refusal(room.table(code).game.name, error), 409)
            except ValueError as error:
                return self.reply({"error": str(error)}, 400)
            self.classroom.told(played.code)
            own = self.get_query_argument("state", "") == "1"
            return await self.handle(lambda: room.view(code, room.seat_of(code, token)[1], state=own))
        raise tornado.web.HTTPError(404)


def estimate(room: Room, code: str) -> dict[str, Any]:
    """Winning? for a table, as an onlooker knows it (the teacher's page may be on the projector)."""
    from rulebook.play import estimate as estimating

    table = room.table(code)
    with table.lock:
        state = table.state
    result = estimating.estimate(state, seed=len(state.history), cpu=2.0, viewer=None)
    return {"lines": [seat.words() for seat in result.seats], "playouts": result.playouts}


class SeatSocket(tornado.websocket.WebSocketHandler):
    """One open seat (or a spectator, without a token): told every change at its table, sending moves."""

    code = ""
    seat: int | None = None

    @property
    def classroom(self) -> Class:
        return self.settings["classroom"]

    def check_origin(self, origin: str) -> bool:  # same origin only: a page elsewhere cannot play for a student
        return super().check_origin(origin)

    def open(self, code: str) -> None:
        room = self.classroom.room
        token = self.get_query_argument("seat_token", "")
        self.allowance, self.checked = float(BURST), time.monotonic()
        try:
            table = room.table(code)
            self.code = table.code
            self.seat = room.seat_of(code, token)[1] if token else None
        except ValueError as error:
            self.write_message(json.dumps({"type": "error", "message": str(error)}))
            self.close(4004, "no such table or seat")
            return
        self.classroom.sockets.setdefault(self.code, set()).add(self)
        room.connected(table, self.seat, +1)
        self.classroom.told(self.code)  # the others see this seat connected

    def on_close(self) -> None:
        sockets = self.classroom.sockets.get(self.code)
        if sockets is not None and self in sockets:
            sockets.discard(self)
            room = self.classroom.room
            room.connected(room.table(self.code), self.seat, -1)
            self.classroom.told(self.code)

    def send_view(self) -> None:
        room = self.classroom.room
        try:
            seen = room.view(self.code, self.seat, legal=True, state=self.get_query_argument("state", "") == "1")
            self.write_message(json.dumps({"type": "view", "view": seen}, separators=(",", ":")))
        except tornado.websocket.WebSocketClosedError:
            pass

    def say(self, kind: str, **data: Any) -> None:
        try:
            self.write_message(json.dumps({"type": kind, **data}, separators=(",", ":")))
        except tornado.websocket.WebSocketClosedError:
            pass

    def _flooding(self) -> bool:
        now = time.monotonic()
        self.allowance = min(float(BURST), self.allowance + (now - self.checked) * RATE)
        self.checked = now
        if self.allowance < 1:
            return True
        self.allowance -= 1
        return False

    async def on_message(self, message: str | bytes) -> None:
        if self._flooding():
            self.say("error", message=f"too many messages: at most {BURST} at once and {RATE:.0f} a second")
            self.close(1008, "too many messages")
            return
        room = self.classroom.room
        try:
            data = parse_json(message, "not a message", "a message")
            if not isinstance(data, dict) or data.get("type") not in ("move", "ping"):
                raise ValueError('a message is {"type": "move", "move": ..., "moves": n} or {"type": "ping"}')
            if data["type"] == "ping":
                if self.seat is not None:
                    room.table(self.code).seen[self.seat] = room.clock()
                return self.say("pong")
            if self.seat is None:
                raise ValueError("a spectator watches: join the table to play")
            token = self.get_query_argument("seat_token", "")
            played = await self.classroom.run(lambda: room.play(self.code, token, data.get("move"), data.get("moves")))
        except IllegalMove as error:
            return self.say("refused", **refusal(room.table(self.code).game.name, error))
        except ValueError as error:
            return self.say("error", message=str(error))
        self.classroom.told(played.code)


class GamesHandler(Handler):
    """The games a table can be made of, with their player counts, seat colours and computer levels."""

    def get(self) -> None:
        from rulebook import registry

        self.reply(
            [
                {
                    "name": game.name,
                    "title": game.title,
                    "players": list(game.players),
                    "default_players": game.default_players,
                    "seat_names": game.seat_names(max(game.players)),
                    "levels": [{"name": level.name, "label": level.label} for level in game.levels]
                    or [{"name": name, "label": name} for name in game.bots()],
                }
                for game in registry.games().values()
            ]
        )


class PageHandler(tornado.web.RequestHandler):
    """The class server's pages: the students' door, a seat, a spectator's table, the teacher's page."""

    def initialize(self, page: str) -> None:
        self.page = page

    def get(self, *_args: str) -> None:
        kind = "text/css" if self.page.endswith(".css") else "text/html"
        self.set_header("Content-Type", f"{kind}; charset=utf-8")
        self.set_header("Cache-Control", "no-cache")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.finish((PAGES / self.page).read_bytes())


class SiteHandler(tornado.web.StaticFileHandler):
    """The built website (``make site``) under /site/, so a class needs one server for its tables and its rules. A
    file with a ``.gz`` beside it (the build writes them) is sent compressed to a browser that takes gzip, as a static
    host with gzip_static does: a class's first visits fetch about half the bytes."""

    packed = False

    async def get(self, path: str, include_body: bool = True) -> None:
        wanted = path if path and not path.endswith("/") else path + "index.html"
        root = Path(self.root)
        accepts = "gzip" in self.request.headers.get("Accept-Encoding", "")
        if accepts and (root / (wanted + ".gz")).is_file() and (root / wanted).is_file():
            self.packed = True
            await super().get(wanted + ".gz", include_body)
        else:
            await super().get(path, include_body)

    def get_content_type(self) -> str:
        if self.packed and self.absolute_path:  # the type of what the .gz holds
            original = self.absolute_path[: -len(".gz")]
            kind, _ = mimetypes.guess_type(original)
            if original.endswith(".wasm"):
                return "application/wasm"
            return kind or "application/octet-stream"
        return super().get_content_type()

    def set_extra_headers(self, path: str) -> None:
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Vary", "Accept-Encoding")
        if self.packed:
            self.set_header("Content-Encoding", "gzip")


def application(classroom: Class, site: Path | None = None) -> tornado.web.Application:
    """The server's routes (see the module's docstring); with ``site``, the built website under /site/."""
    code = r"([A-Za-z0-9 ]{1,20})"
    extra: list[Any] = []
    if site is not None:
        extra = [
            (r"/site", tornado.web.RedirectHandler, {"url": "/site/"}),
            (r"/site/(.*)", SiteHandler, {"path": str(site), "default_filename": "index.html"}),
        ]
    return tornado.web.Application(
        [
            *extra,
            (r"/", PageHandler, {"page": "join.html"}),
            (r"/teacher", PageHandler, {"page": "teacher.html"}),
            (r"/class.css", PageHandler, {"page": "class.css"}),
            (r"/api/games", GamesHandler),
            (rf"/table/{code}", PageHandler, {"page": "seat.html"}),
            (rf"/watch/{code}", PageHandler, {"page": "seat.html"}),
            (r"/api/tables", TablesHandler),
            (r"/api/stumbles", StumblesHandler),
            (r"/api/progress", ProgressHandler),
            (rf"/api/tables/{code}/(\w+)", TableHandler),
            (rf"/ws/{code}", SeatSocket),
        ],
        classroom=classroom,
        websocket_max_message_size=MAX_MESSAGE,
        websocket_ping_interval=20,
        websocket_ping_timeout=20,
    )


def built_site() -> Path | None:
    """The website ``make site`` built in this checkout, if there is one."""
    folder = Path(__file__).resolve().parents[2] / "site"
    return folder if (folder / "index.html").is_file() else None


async def serve(
    room: Room,
    token: str,
    ip: str,
    port: int,
    ready: Callable[[], None] | None = None,
    site: Path | None = None,
) -> None:
    """Serve the class until cancelled (with ``site``, the built website under /site/ too)."""
    classroom = Class(room, token)
    app = application(classroom, site)
    server = app.listen(port, address=ip, max_body_size=MAX_BODY, xheaders=False)
    ticker = PeriodicCallback(lambda: IOLoop.current().add_callback(classroom.tick), TICK * 1000)
    ticker.start()
    if ready is not None:
        ready()
    try:
        await asyncio.Event().wait()
    finally:
        ticker.stop()
        server.stop()
        classroom.pool.shutdown(wait=False, cancel_futures=True)
