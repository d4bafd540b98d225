"""The class server's load test (issue 45.6): scripted seats and real browser pages playing at once on this machine.

:func:`run` starts ``rulebook class`` as a child process (SQLite in a temporary folder), creates the tables through
the Python client, opens one WebSocket per seat (all in this process, on one asyncio loop) and has every seat play
random legal moves from the ``legal`` list of its view until each table has played its moves or finished. It
measures moves accepted per second, the time from a move sent to each other seat of its table seeing it, the
server's memory, and checks that nothing was lost or played twice: every table's save replays to the move count
every seat last saw, and every move a seat sent stands once in the log, where it was sent. ``browsers=N`` opens N
Chromium pages too, each joining a table of its own through the students' page and playing by clicking.

``python -m rulebook.tools.class_load [--tables 20] [--seats 3] [--browsers 0] [--moves 40] [--seed 0]`` prints
the report's table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebook import registry
from rulebook.core import encode_move


def _games() -> list[str]:
    """The tables' games, in turn: every registered game, in the registry's order."""
    return list(registry.games())


def _browser_game() -> registry.Game:
    """A page's table: a game for the fewest players (the registry's last of them), the page's seat against the
    computer's first (quickest) level."""
    return min(registry.games().values(), key=lambda game: (game.players[0], -game.order))


STATUS_SECONDS = 10.0  # a page shows its table's status within this, or it counts as a page without status
START_SECONDS = 60.0
SETTLE_SECONDS = 20.0  # for every seat to see its table's last move once the playing stops
LATENCY = "move to the other seats' views, median / 95th percentile (ms)"  # the measure's name in make bench
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def chromium() -> str:
    """Debian's Chromium as the end-to-end tests use it (``RULEBOOK_CHROMIUM`` chooses another); "" when missing."""
    for path in (os.environ.get("RULEBOOK_CHROMIUM", ""), "/usr/bin/chromium-headless-shell", "/usr/bin/chromium"):
        if path and os.path.exists(path):
            return path
    return ""


@dataclass
class Report:
    """What one load test measured and found."""

    tables: int
    seats: int
    browsers: int
    moves_per_table: int
    moves_played: int  # seats' moves accepted by the server (chance and computer entries not counted)
    log_entries: int  # every entry the tables' logs gained, chance and computer replies included
    seconds: float
    moves_per_second: float
    latency_median_ms: float
    latency_p95_ms: float
    latency_samples: int
    memory_start_mib: float
    memory_end_mib: float
    lost: int
    duplicated: int
    backwards: int
    refused: int
    seats_at_final: int
    tables_over: int
    pages_with_status: int = 0
    page_status_seconds: float = 0.0
    page_moves: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def correct(self) -> bool:
        """Nothing lost, nothing played twice, no count went back, every seat saw its table's last move."""
        return (
            self.lost == 0
            and self.duplicated == 0
            and self.backwards == 0
            and self.seats_at_final == self.seats + self.browsers
            and not self.problems
        )

    def rows(self) -> dict[str, object]:
        """The report as measure -> value (``make bench`` prints it as one of its sections)."""
        rows: dict[str, object] = {
            "tables, scripted seats (WebSockets), browser pages": f"{self.tables}, {self.seats}, {self.browsers}",
            "seats' moves accepted (target per table), log entries": (
                f"{self.moves_played} ({self.moves_per_table}), {self.log_entries}"
            ),
            "seats' moves accepted per second": round(self.moves_per_second, 1),
            LATENCY: (f"{self.latency_median_ms:.1f} / {self.latency_p95_ms:.1f} ({self.latency_samples} deliveries)"),
            "server memory, start / end (MiB)": f"{self.memory_start_mib:.1f} / {self.memory_end_mib:.1f}",
            "moves lost, duplicated, counts gone back": f"{self.lost}, {self.duplicated}, {self.backwards}",
            "refusals and errors met by the seats": self.refused,
            "seats that saw their table's last move": f"{self.seats_at_final} of {self.seats + self.browsers}",
            "tables whose game ended": self.tables_over,
            "wall time of the playing (s)": round(self.seconds, 1),
        }
        if self.browsers:
            rows["pages showing their table's status (slowest, s)"] = (
                f"{self.pages_with_status} of {self.browsers} ({self.page_status_seconds:.1f})"
            )
            rows["moves played by clicks in the pages"] = self.page_moves
        if self.problems:
            rows["problems"] = "; ".join(self.problems[:5])
        return rows

    def table(self) -> str:
        """The report as a Markdown table."""
        lines = ["| measure | value |", "| --- | --- |"]
        lines += [f"| {name} | {value} |" for name, value in self.rows().items()]
        return "\n".join(lines)


# -- the server ------------------------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class _Server:
    """``rulebook class`` in a child process; its output goes to a file (a full pipe would stop it)."""

    def __init__(self, folder: Path, db: str) -> None:
        self.port = _free_port()
        self.output = open(folder / "class.log", "w+")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "rulebook.cli", "class", "--port", str(self.port), "--db", db, "--no-site"],
            stdout=self.output,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        deadline = time.monotonic() + START_SECONDS
        text = ""
        while "Students:" not in text:
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"rulebook class did not start: {(folder / 'class.log').read_text()[-2000:]}")
            time.sleep(0.1)
            text = (folder / "class.log").read_text()
        self.teacher = re.search(r"Teacher: open (http://\S+)", text).group(1)  # type: ignore[union-attr]
        self.students = re.search(r"Students: open (http://\S+)", text).group(1)  # type: ignore[union-attr]

    def memory(self) -> float:
        """The server's resident memory in MiB."""
        import psutil

        return psutil.Process(self.process.pid).memory_info().rss / (1 << 20)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.output.close()


# -- the players -----------------------------------------------------------------------------------------------------


@dataclass
class _Table:
    code: str
    game: str
    target: int
    start: int | None = None  # the move count of the first view: the set-up's own log entries come before it
    count: int = 0  # the highest move count any seat has seen
    accepted: dict[int, tuple[int, str]] = field(default_factory=dict)  # move number -> (seat, move as JSON)
    pending: dict[int, tuple[int, str, float]] = field(default_factory=dict)  # sent, not yet seen played
    over: bool = False

    @property
    def done(self) -> bool:
        return self.over or len(self.accepted) >= self.target


@dataclass
class _Seat:
    table: _Table
    seat: int
    token: str
    last: int = -1
    sent_at: int = -1  # the move count this seat last sent a move for
    view: dict[str, Any] | None = None
    tries: int = 0


def _canonical(move: Any) -> str:
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


class _Play:
    """Every scripted seat's socket on one loop, and what they saw."""

    def __init__(self, students: str, seats: list[_Seat], rng: random.Random) -> None:
        self.base = students.replace("http://", "ws://").rstrip("/")
        self.seats = seats
        self.rng = rng
        self.latencies: list[float] = []
        self.backwards = 0
        self.refused = 0
        self.problems: list[str] = []
        self.first_sent: float | None = None
        self.last_accepted = 0.0
        self.connections: dict[int, Any] = {}  # id of a seat -> its socket
        self.ready = False  # every seat has its first view: nobody moves before (a move would meet a seat connecting)
        self.pages_joining = 0  # pages not yet at their seat: the seats start with the pages

    def _seen(self, seat: _Seat, view: dict[str, Any]) -> None:
        """A view reached ``seat``: counts checked, pending moves of its table settled, latencies kept."""
        now = time.perf_counter()
        table, count, previous = seat.table, int(view["moves"]), seat.last
        if table.start is None:
            table.start = count
        if count < previous:
            self.backwards += 1
        seat.last = max(previous, count)
        seat.view = view
        table.count = max(table.count, count)
        table.over = table.over or bool(view.get("over"))
        for number, (sender, move, sent) in list(table.pending.items()):
            if not previous <= number < count:
                continue
            if sender != seat.seat:
                self.latencies.append((now - sent) * 1000)
            if number not in table.accepted:
                table.accepted[number] = (sender, move)
                self.last_accepted = now
            if all(other.last > number for other in self.seats if other.table is table):
                del table.pending[number]

    async def start(self) -> None:
        """Let every seat play once each has its first view and every page has joined (or failed to)."""
        if self.ready or self.pages_joining or any(seat.view is None for seat in self.seats):
            return
        self.ready = True
        for seat in self.seats:
            if id(seat) in self.connections:
                await self._move(seat, self.connections[id(seat)])

    async def _move(self, seat: _Seat, connection: Any) -> None:
        view = seat.view
        if not self.ready or view is None or seat.table.done or not view.get("legal") or seat.sent_at == view["moves"]:
            return
        line = self.rng.choice(view["legal"])
        number = int(view["moves"])
        seat.sent_at = number
        sent = time.perf_counter()
        self.first_sent = self.first_sent if self.first_sent is not None else sent
        seat.table.pending[number] = (seat.seat, _canonical(line["move"]), sent)
        await connection.write_message(json.dumps({"type": "move", "move": line["move"], "moves": number}))

    async def seat(self, seat: _Seat, stop: asyncio.Event) -> None:
        from tornado.websocket import websocket_connect

        url = f"{self.base}/ws/{seat.table.code}?seat_token={seat.token}"
        connection = await websocket_connect(url, max_message_size=16 * 1024 * 1024)
        self.connections[id(seat)] = connection
        try:
            while not stop.is_set():
                reading = asyncio.ensure_future(connection.read_message())
                stopping = asyncio.ensure_future(stop.wait())
                await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
                if not reading.done():
                    reading.cancel()
                    stopping.cancel()
                    break
                stopping.cancel()
                text = reading.result()
                if text is None:
                    self.problems.append(f"table {seat.table.code} seat {seat.seat}: the socket closed")
                    return
                message = json.loads(text)
                if message["type"] == "view":
                    self._seen(seat, message["view"])
                    await self.start()
                    await self._move(seat, connection)
                elif message["type"] in ("refused", "error"):
                    self.refused += 1
                    seat.table.pending.pop(seat.sent_at, None)
                    seat.tries += 1
                    if seat.tries > 20:
                        self.problems.append(f"table {seat.table.code} seat {seat.seat}: {message}")
                        return
                    seat.sent_at = -1  # try another move of the same view
                    await self._move(seat, connection)
        finally:
            connection.close()


# -- the browser pages -------------------------------------------------------------------------------------------


async def _page(
    browser: Any, play: _Play, code: str, moves: int, rng: random.Random, stop: asyncio.Event
) -> dict[str, Any]:
    """One page joins ``code`` through the students' door and plays ``moves`` moves by clicking (or until its game
    ends, or ``stop``); what it showed."""
    context = await browser.new_context()
    page = await context.new_page()
    students = play.base.replace("ws://", "http://") + "/"
    result: dict[str, Any] = {"status": None, "clicks": 0, "count": -1, "backwards": 0}
    joining = True
    try:
        await page.goto(f"{students}?code={code}", timeout=60_000)
        await page.fill("#name", f"Page {code}")
        began = time.monotonic()
        await page.click("#join button[type=submit]")
        try:
            await page.wait_for_url(f"**/table/{code}", timeout=STATUS_SECONDS * 1000)
            await page.wait_for_function(
                "() => /moves played/.test((document.getElementById('status') || {}).textContent || '')",
                timeout=max(0.1, STATUS_SECONDS - (time.monotonic() - began)) * 1000,
            )
            result["status"] = time.monotonic() - began
        except Exception:  # Playwright's TimeoutError: counted as a page without status
            return result
        finally:
            play.pages_joining -= 1
            joining = False
            await play.start()
        while not stop.is_set() and result["clicks"] < moves:
            shown = await _shown_count(page)
            if shown < result["count"]:
                result["backwards"] += 1
            result["count"] = max(result["count"], shown)
            buttons = await page.query_selector_all("#play:not([hidden]) #moves button")
            if buttons:
                try:
                    await rng.choice(buttons).click(timeout=2000)
                    result["clicks"] += 1
                    await page.wait_for_function(
                        f"() => !/ {shown} moves played/.test(document.getElementById('status').textContent)",
                        timeout=5000,
                    )
                except Exception:  # the page redrew its buttons under the click: look again
                    pass
            elif "game is over" in (await page.text_content("#status") or ""):
                break
            else:
                await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)  # the view of the page's last click, on its way
        shown = await _shown_count(page)
        result["backwards"] += shown < result["count"]
        result["count"] = max(result["count"], shown)
        return result
    finally:
        if joining:
            play.pages_joining -= 1
            await play.start()
        await context.close()


async def _shown_count(page: Any) -> int:
    text = await page.text_content("#status") or ""
    found = re.search(r"(\d+) moves played", text)
    return int(found.group(1)) if found else -1


# -- the run ---------------------------------------------------------------------------------------------------------


def _players(game: str, wanted: int) -> int:
    allowed = registry.game(game).players
    return min(max(wanted, allowed[0]), allowed[-1])


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run(
    tables: int = 20,
    seats_per_table: int = 3,
    browsers: int = 0,
    moves: int = 40,
    seed: int = 0,
    db: str | None = None,
    deadline: float = 900.0,
) -> Report:
    """Start a class server, play ``tables`` tables of scripted seats (and ``browsers`` pages) and report; ``db`` is
    the server's database (a fresh SQLite file by default), ``deadline`` the seconds the playing may take at most."""
    for name, value, low in (("tables", tables, 1), ("seats_per_table", seats_per_table, 2), ("moves", moves, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{name}: a whole number from {low}, not {value!r}")
    if isinstance(browsers, bool) or not isinstance(browsers, int) or not 0 <= browsers <= 16:
        raise ValueError(f"browsers: a whole number from 0 to 16, not {browsers!r}")
    if browsers and not chromium():
        raise ValueError("browsers: Debian's chromium-headless-shell or chromium is needed (make e2e installs it)")
    from rulebook.tables import Client

    folder = Path(tempfile.mkdtemp(prefix="rulebook-class-load-"))
    server = _Server(folder, db or str(folder / "class.db"))
    try:
        memory_start = server.memory()
        client = Client(server.teacher)
        seats: list[_Seat] = []
        for number in range(tables):
            game = _games()[number % len(_games())]
            players = _players(game, seats_per_table)
            table = _Table(client.create(game, players=players, seed=seed * 1000 + number), game, moves)
            seats += [_Seat(table, seat, client.join(table.code, seat=seat).token) for seat in range(players)]
        paged = _browser_game()
        level = {seat: paged.levels[0].name if paged.levels else next(iter(paged.bots())) for seat in range(1, 2)}
        pages = [
            client.create(paged.name, players=paged.players[0], computer=level, seed=seed * 1000 + tables + number)
            for number in range(browsers)
        ]
        page_starts = [client.watch(code)["moves"] for code in pages]
        play = _Play(server.students, seats, random.Random(seed))
        began = time.perf_counter()
        shown = asyncio.run(_play_all(play, seats, pages, moves, random.Random(seed + 1), deadline))
        seconds = (play.last_accepted or time.perf_counter()) - (play.first_sent or began)
        memory_end = server.memory()
        report = _check(client, play, seats, list(zip(pages, page_starts)), shown)
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    played = sum(len(table.accepted) for table in {id(s.table): s.table for s in seats}.values())
    report.update(
        tables=tables,
        seats=len(seats),
        browsers=browsers,
        moves_per_table=moves,
        moves_played=played,
        seconds=seconds,
        moves_per_second=played / seconds if seconds > 0 else 0.0,
        latency_median_ms=statistics.median(play.latencies) if play.latencies else 0.0,
        latency_p95_ms=_percentile(play.latencies, 0.95),
        latency_samples=len(play.latencies),
        memory_start_mib=memory_start,
        memory_end_mib=memory_end,
        backwards=play.backwards + report.pop("page_backwards"),
        refused=play.refused,
    )
    report["problems"] = play.problems + report["problems"]
    return Report(**report)


async def _play_all(
    play: _Play, seats: list[_Seat], pages: list[str], moves: int, rng: random.Random, deadline: float
) -> list[dict[str, Any]]:
    """The seats' sockets and the pages together until every table is done (or ``deadline``), then until every seat
    has seen its table's last move; what each page showed."""
    stop = asyncio.Event()
    play.pages_joining = len(pages)
    tasks = [asyncio.ensure_future(play.seat(seat, stop)) for seat in seats]
    tables = list({id(seat.table): seat.table for seat in seats}.values())
    playwright = browser = None
    page_tasks: list[asyncio.Future[dict[str, Any]]] = []
    try:
        if pages:
            from playwright.async_api import async_playwright

            playwright = await async_playwright().start()
            browser = await playwright.chromium.launch(executable_path=chromium(), headless=True, args=FLAGS)
            page_tasks = [asyncio.ensure_future(_page(browser, play, code, moves, rng, stop)) for code in pages]
        ends = time.monotonic() + deadline
        while time.monotonic() < ends and not (
            all(table.done for table in tables) and all(task.done() for task in page_tasks)
        ):
            if any(task.done() and task.exception() for task in tasks):
                break
            await asyncio.sleep(0.05)
        if not all(table.done for table in tables) or not all(task.done() for task in page_tasks):
            waiting = sum(not t.done for t in tables) + sum(not task.done() for task in page_tasks)
            play.problems.append(f"{waiting} tables or pages not done in {deadline:.0f} s")
        settle = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < settle and any(seat.last < seat.table.count for seat in seats):
            await asyncio.sleep(0.05)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        for task in tasks:
            if task.exception() is not None:
                play.problems.append(f"a seat's socket failed: {task.exception()!r}")
        shown = list(await asyncio.gather(*page_tasks, return_exceptions=True))
        return [item if isinstance(item, dict) else {"status": None, "error": repr(item)} for item in shown]
    finally:
        if browser is not None:
            await browser.close()
        if playwright is not None:
            await playwright.stop()


def _check(
    client: Any, play: _Play, seats: list[_Seat], pages: list[tuple[str, int]], shown: list[dict[str, Any]]
) -> dict[str, Any]:
    """Each table's save against what its seats saw and sent: moves lost, played twice, seats at the last move."""
    lost = duplicated = at_final = entries = over = 0
    problems: list[str] = []
    tables = list({id(seat.table): seat.table for seat in seats}.values())
    for table in tables:
        state = registry.game(table.game).engine.from_json(client.save(table.code))
        final = len(state.history)
        entries += final - (table.start or 0)
        over += registry.game(table.game).engine.outcome(state) is not None
        at_final += sum(1 for seat in seats if seat.table is table and seat.last == final)
        log = client.watch(table.code)["log"]
        people = {line["n"] for line in log if line.get("kind") == "person" and line["n"] >= (table.start or 0)}
        for number, (sender, move) in table.accepted.items():
            if number >= final or _canonical(encode_move(state.history[number])) != move:
                lost += 1
            elif log[number]["kind"] != "person" or log[number]["player"] != sender:
                lost += 1
        duplicated += len(people - set(table.accepted))
    page_backwards = page_moves = 0
    for (code, start), page in zip(pages, shown):
        page_backwards += page.get("backwards", 0)
        page_moves += page.get("clicks", 0)
        final = len(_browser_game().engine.from_json(client.save(code)).history)
        entries += final - start
        if page.get("status") is not None and page.get("count") == final:
            at_final += 1
        elif page.get("status") is not None:
            problems.append(f"the page at table {code} shows move {page.get('count')}, the table is at {final}")
    with_status = [page["status"] for page in shown if page.get("status") is not None]
    return {
        "lost": lost,
        "duplicated": duplicated,
        "seats_at_final": at_final,
        "log_entries": entries,
        "tables_over": over,
        "pages_with_status": len(with_status),
        "page_status_seconds": max(with_status, default=0.0),
        "page_moves": page_moves,
        "page_backwards": page_backwards,
        "problems": problems,
    }


def figures(browsers: int = 4) -> dict[str, object]:
    """The load test as ``make bench`` reports it: the default class (20 tables of 3 seats, 40 moves a table) with
    ``browsers`` pages when Chromium is here."""
    try:
        import psutil  # noqa: F401
    except ImportError:
        return {"class load test": "not run: the Python package psutil is missing"}
    report = run(browsers=browsers if chromium() else 0)
    return report.rows()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rulebook.tools.class_load", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seats", type=int, default=3, help="seats a table (within each game's player counts)")
    parser.add_argument("--browsers", type=int, default=0, help="real Chromium pages, each at a table of its own")
    parser.add_argument("--moves", type=int, default=40, help="seats' moves a table")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--db", default=None, help="the server's database (default: SQLite in a temporary folder)")
    args = parser.parse_args(argv)
    try:
        report = run(args.tables, args.seats, args.browsers, args.moves, args.seed, args.db)
    except ValueError as error:
        parser.error(str(error))
    print(report.table())
    return 0 if report.correct else 1


if __name__ == "__main__":
    raise SystemExit(main())
