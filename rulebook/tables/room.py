"""The class's tables, kept by the server: every game is here and only here (issue 45).

A :class:`Room` holds the tables of one class server. Each table is a game of a registered engine, its seats and the
tokens that claim them. Moves arrive from seats, are checked by the engine (a refusal is the engine's
:class:`~rulebook.core.IllegalMove`, counted by rule id for the teacher), chance is settled here with the table's
secret, and every new entry of the move log is written to the store before anyone is told (:meth:`Room.play`
returns only after the store has it). On start the tables are rebuilt from the store by replaying their logs, so a
server killed at any moment comes back at the same move.

Chance and the computer's choices draw from a generator seeded by the table's secret and the length of the log
(``"<secret>:<n>"``): the same log always gets the same next dice, so a restart neither re-rolls nor repeats, and
nothing a seat sees predicts them. A table created with a seed deals as ``new_game(players=, seed=)`` does.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rulebook import registry
from rulebook.core import IllegalMove, decode_move, encode_move, pick, quote

from . import positions, views
from . import store as storage

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: a code read off a projector is typed right
CODE_LENGTH = 5
AWAY_AFTER = 120.0  # seconds a student may be gone before a computer player takes their turns
MAX_NAME = 40
MAX_TABLES = 500  # tables one class server keeps; a teacher makes a handful per lesson


def token_hash(token: str) -> str:
    """What the store keeps of a seat's token: a leaked database gives nobody a seat."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{what}: a whole number from {low} to {high}, not {quote(value)}")
    return value


def _name(value: Any, seat: int) -> str:
    if value is None or value == "":
        return f"Seat {seat + 1}"
    if not isinstance(value, str):
        raise ValueError(f"a display name is text, not {quote(value)}")
    name = " ".join(value.split())
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise ValueError(f"a display name is 1 to {MAX_NAME} printable characters, not {quote(value)}")
    return name


@dataclass
class Table:
    """One game in the room: its row in the store, the state as it stands, the kind of every log entry, its seats."""

    row: storage.TableRow
    game: registry.Game
    state: Any
    start: int  # log entries the set-up itself made (a random spread of starting points): the store numbers from here
    kinds: dict[int, tuple[int | None, str]] = field(default_factory=dict)  # log index -> (seat, kind) of stored moves
    seats: dict[int, storage.SeatRow] = field(default_factory=dict)
    seen: dict[int, float] = field(default_factory=dict)  # seat -> when its student last showed a sign of life
    present: dict[int, int] = field(default_factory=dict)  # seat -> open connections
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def code(self) -> str:
        return self.row.code

    @property
    def players(self) -> int:
        return int(self.row.setup["players"])

    @property
    def moves(self) -> int:
        return len(self.state.history)

    def to_move(self) -> int | None:
        """The seat whose decision the game waits for; None at the end."""
        if self.game.engine.outcome(self.state) is not None:
            return None
        return getattr(self.state, "player", None)

    def away(self, seat: int, now: float) -> bool:
        """Whether a taken seat's student is gone: no connection open and no sign of life for the table's time."""
        if seat not in self.seats or self.present.get(seat, 0) > 0:
            return False
        return now - self.seen.get(seat, self.seats[seat].joined) > self.row.away_after


@dataclass(frozen=True)
class Played:
    """What a move did: the table's code and the log entries it added (the person's move, chance, computer replies)."""

    code: str
    first: int
    entries: tuple[tuple[int | None, str, Any], ...]


_progress_lock = threading.Lock()  # one merge of a student's progress at a time


class ProgressRoom:
    """The class's progress by rule id (issue 49.3): each student's record kept under the name of their seat, merged
    with what that name kept before (a student at several tables or devices), and the class's map of paragraphs."""

    store: storage.Store
    clock: Callable[[], float]
    seat_of: Callable[[str, Any], tuple[Any, int]]

    def keep_progress(self, code: str, token: Any, text: Any) -> dict[str, Any]:
        """Keep the record ``text`` (rulebook.progress's JSON) for the student holding ``token``; a record that
        cannot be read is refused in words and nothing kept changes. Returns the name and the paragraphs kept."""
        from rulebook.progress import Record

        table, seat = self.seat_of(code, token)
        if not isinstance(text, str):
            raise ValueError("progress is sent as the record's JSON text")
        record = Record.from_json(text)
        name = table.seats[seat].name
        with _progress_lock:
            kept = self.store.progress(name)
            if kept:
                try:
                    record = Record.from_json(kept[0][1]).merged(record)
                except ValueError:
                    pass  # what was kept is no record now (a newer format's): the new one takes its place
            self.store.keep_progress(name, record.to_json(), self.clock())
        return {"name": name, "kept": True}

    def class_map(self) -> dict[str, Any]:
        """Per game, per paragraph, how many students are in each state; and how many students have progress."""
        from rulebook.progress import Record, class_map

        records = []
        for _name, text in self.store.progress():
            try:
                records.append(Record.from_json(text))
            except ValueError:
                continue
        games = {name: class_map(records, name) for name in registry.names()}
        return {"students": len(records), "games": games}


class Room(ProgressRoom):
    """Every table of one class server, backed by a store (``rulebook.tables.store``)."""

    def __init__(self, store: storage.Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self._lock = threading.Lock()  # creating tables and seats
        for row in store.tables():
            self.tables[row.code] = self._rebuild(row)

    # -- building ----------------------------------------------------------------------------------------------
    def _rebuild(self, row: storage.TableRow) -> Table:
        """A table from the store: its set-up dealt again and its log replayed through the engine."""
        game = registry.game(row.game)
        state = game.new_state(row.setup["players"], row.setup["seed"], row.setup.get("options") or {})
        table = Table(row=row, game=game, state=state, start=len(state.history))
        classes = game.move_classes()
        for moved in store_moves(self.store, row.code):
            if table.start + moved.n != table.moves:
                raise ValueError(f"table {row.code}: the stored log skips to move {moved.n}")
            move = decode_move(json.loads(moved.move), classes, where=f"table {row.code} move {moved.n}")
            table.kinds[table.moves] = (moved.seat, moved.kind)
            table.state = game.engine.apply(table.state, move)
        for seat in self.store.seats(row.code):
            table.seats[seat.seat] = seat
        return table

    def create(
        self,
        game: str,
        players: int,
        *,
        computer: Mapping[int, str] | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        away_level: str | None = None,
        away_after: float = AWAY_AFTER,
    ) -> str:
        """A new table; returns its code. Every choice is checked before anything is stored."""
        entry = registry.game(game)
        _whole(players, "players", entry.players[0], entry.players[-1])
        computer = self._computer(entry, players, computer)
        levels = [level.name for level in entry.levels] or list(entry.bots())
        away_level = away_level or entry.strongest()
        if away_level not in levels:
            raise ValueError(f"away_level: one of {', '.join(levels)}, not {quote(away_level)}")
        if isinstance(away_after, bool) or not isinstance(away_after, (int, float)) or not 5 <= away_after <= 86400:
            raise ValueError(f"away_after: seconds from 5 to 86400, not {quote(away_after)}")
        if seed is not None:
            _whole(seed, "seed", 0, 2**63 - 1)
        dealt = secrets.randbelow(2**31) if seed is None else seed
        options = dict(options or {})
        entry.new_state(players, dealt, options)  # refuses a bad option in words before anything is kept
        with self._lock:
            if len(self.tables) >= MAX_TABLES:
                raise ValueError(f"this class server keeps at most {MAX_TABLES} tables")
            code = self._fresh_code()
            row = storage.TableRow(
                code=code,
                game=entry.name,
                setup={"players": players, "seed": dealt, "options": options},
                computer=dict(computer),
                away_level=away_level,
                away_after=float(away_after),
                secret=secrets.token_hex(16) if seed is None else f"seed-{seed}",
                created=self.clock(),
            )
            self.store.create_table(row)
            table = self._rebuild(row)
            self.tables[code] = table
        with table.lock:
            self._advance(table)
        return code

    @staticmethod
    def _computer(entry: registry.Game, players: int, computer: Mapping[int, str] | None) -> dict[int, str]:
        bots = entry.bots()
        chosen: dict[int, str] = {}
        for seat, level in dict(computer or {}).items():
            seat = _whole(
                int(seat) if isinstance(seat, str) and seat.isdigit() else seat, "computer seat", 0, players - 1
            )
            if level not in bots:
                raise ValueError(f"computer: seat {seat} needs one of {', '.join(bots)}, not {quote(level)}")
            chosen[seat] = level
        if len(chosen) == players:
            raise ValueError("computer: at least one seat is for a student")
        return chosen

    def _fresh_code(self) -> str:
        for _ in range(1000):
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.tables:
                return code
        raise RuntimeError("no free table code")

    # -- seats -------------------------------------------------------------------------------------------------
    def table(self, code: Any) -> Table:
        """The table with that code (case and spaces forgiven); ValueError in words for an unknown one."""
        if not isinstance(code, str) or len(code) > 20:
            raise ValueError(f"no table {quote(code)}: a table's code is {CODE_LENGTH} letters and digits")
        table = self.tables.get(code.strip().upper())
        if table is None:
            raise ValueError(f"no table {quote(code)}: check the code the teacher gave")
        return table

    def join(self, code: str, name: Any = None, seat: int | None = None) -> tuple[int, str]:
        """Take a free seat (the first free one, or ``seat``): returns ``(seat, token)``. A full table is told so."""
        table = self.table(code)
        with table.lock:
            free = [s for s in range(table.players) if s not in table.seats and s not in table.row.computer]
            if seat is None:
                if not free:
                    raise ValueError(f"table {table.code} is full: every seat is taken")
                seat = free[0]
            _whole(seat, "seat", 0, table.players - 1)
            if seat in table.row.computer:
                raise ValueError(f"seat {seat + 1} of table {table.code} is played by the computer")
            if seat in table.seats:
                raise ValueError(f"seat {seat + 1} of table {table.code} is taken by {table.seats[seat].name}")
            token = secrets.token_urlsafe(24)
            row = storage.SeatRow(table.code, seat, _name(name, seat), token_hash(token), self.clock())
            self.store.take_seat(row)
            table.seats[seat] = row
            table.seen[seat] = row.joined
        return seat, token

    def seat_of(self, code: str, token: Any) -> tuple[Table, int]:
        """The table and seat a token holds; ValueError for a token that holds no seat there."""
        table = self.table(code)
        if isinstance(token, str) and 0 < len(token) <= 100:
            wanted = token_hash(token)
            for seat, row in table.seats.items():
                if secrets.compare_digest(row.token_hash, wanted):
                    table.seen[seat] = self.clock()
                    return table, seat
        raise ValueError(f"that is not a seat's token at table {table.code}: join the table again")

    # -- play --------------------------------------------------------------------------------------------------
    def legal_moves(self, code: str, token: str) -> tuple[Any, ...]:
        """The seat's legal moves now; () when it is not that seat's turn."""
        table, seat = self.seat_of(code, token)
        with table.lock:
            if table.to_move() != seat:
                return ()
            return tuple(table.game.engine.legal_moves(table.state))

    def play(self, code: str, token: str, data: Any, expected: int | None = None) -> Played:
        """Play a seat's move (encoded as ``core.encode_move`` writes it): refused with the rule's IllegalMove (and
        counted) or ValueError in words, else stored with the chance and computer moves after it."""
        table, seat = self.seat_of(code, token)
        with table.lock:
            if expected is not None and expected != table.moves:
                raise ValueError(
                    f"the table moved on (move {table.moves}, your move was for move {expected}): look again"
                )
            if isinstance(data, (dict, list)) or data is None:
                move = decode_move(data, table.game.move_classes())
            else:
                move = data
            refusal = self._refusal(table, seat, move)
            if refusal is not None:
                self.store.add_refusal(table.code, seat, refusal.rule, self.clock())
                raise refusal
            state = table.game.engine.apply(table.state, move)
            entries, state = self._settled(table, state)
            return self._commit(table, [(seat, "person", move), *entries], state)

    def _refusal(self, table: Table, seat: int, move: Any) -> IllegalMove | None:
        """The engine's refusal of ``move`` by ``seat``; ValueError in words when the seat may not move at all."""
        engine = table.game.engine
        if engine.outcome(table.state) is not None:
            raise ValueError(f"the game at table {table.code} is over")
        to_move = table.to_move()
        if to_move != seat:
            raise ValueError(
                f"it is {self._name(table, to_move)}'s turn, not yours"
                if to_move is not None
                else "wait: chance is being settled"
            )
        try:
            return engine.check(table.state, move)
        except (TypeError, KeyError, IndexError, AttributeError) as error:
            raise ValueError(f"a malformed move: {type(error).__name__}") from None

    def _settled(self, table: Table, state: Any) -> tuple[list[tuple[int | None, str, Any]], Any]:
        """Chance settled after ``state`` with the table's secret, then the computer seats' turns (and the turns of
        students who are away), each followed by its chance: the log entries they add and the state they reach."""
        engine = table.game.engine
        entries: list[tuple[int | None, str, Any]] = []
        bots = table.game.bots()
        now = self.clock()
        for _ in range(100_000):
            if engine.outcome(state) is not None:
                break
            outcomes = engine.chance_outcomes(state)
            if outcomes:
                outcome = pick(outcomes, self._rng(table, state, "chance"))
                state = engine.apply(state, outcome)
                entries.append((None, "chance", outcome))
                continue
            seat = state.player
            if seat in table.row.computer:
                kind, level = "computer", table.row.computer[seat]
            elif seat is not None and table.away(seat, now):
                kind, level = "away", table.row.away_level
            else:
                break
            move = bots[level](state, self._rng(table, state, "computer"))
            state = engine.apply(state, move)
            entries.append((seat, kind, move))
        else:
            raise RuntimeError(f"table {table.code}: chance and computer turns did not settle")
        return entries, state

    @staticmethod
    def _rng(table: Table, state: Any, what: str) -> random.Random:
        return random.Random(f"{table.row.secret}:{what}:{len(state.history)}")

    def _commit(self, table: Table, entries: list[tuple[int | None, str, Any]], state: Any) -> Played:
        """Store ``entries`` (the log from the table's state to ``state``) in one transaction, then move the table
        there: nobody is told of a move the store does not hold."""
        before = table.moves
        if not entries:
            return Played(table.code, before, ())
        if len(state.history) != before + len(entries):
            raise RuntimeError(f"table {table.code}: the log grew by {len(state.history) - before}, not {len(entries)}")
        rows = [(seat, kind, json.dumps(encode_move(move), separators=(",", ":"))) for seat, kind, move in entries]
        self.store.add_moves(table.code, before - table.start, rows)  # the store numbers the moves after the set-up
        table.state = state
        for index, (seat, kind, _move) in enumerate(entries):
            table.kinds[before + index] = (seat, kind)
        return Played(table.code, before, tuple(entries))

    def _advance(self, table: Table) -> Played:
        """Settle what no person decides (chance, computer seats, away students) at a table; caller holds its lock."""
        entries, state = self._settled(table, table.state)
        return self._commit(table, entries, state)

    def tick(self) -> list[Played]:
        """Let the computer play for students who are away at tables waiting for them: the tables that moved."""
        moved = []
        now = self.clock()
        for table in list(self.tables.values()):
            seat = table.to_move()
            if seat is None or not table.away(seat, now):
                continue
            with table.lock:
                played = self._advance(table)
            if played.entries:
                moved.append(played)
        return moved

    def connected(self, table: Table, seat: int | None, change: int) -> None:
        """A seat's connection opened (+1) or closed (-1)."""
        if seat is None:
            return
        table.present[seat] = max(0, table.present.get(seat, 0) + change)
        table.seen[seat] = self.clock()

    # -- what people see ---------------------------------------------------------------------------------------
    def view(self, code: str, seat: int | None, legal: bool = False, state: bool = False) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) sees at a table, with the seats' names and who is connected; with
        ``legal``, also the seat's legal moves when it is to move (``"legal"``, encoded and worded); with ``state``,
        the seat's own copy of the position for an engine on its page (``"state"``: :mod:`.positions`, others'
        secrets dealt again); all taken from the same position."""
        table = self.table(code)
        with table.lock:
            seen = views.view(table.state, seat)
            if legal and seat is not None and table.to_move() == seat:
                seen["legal"] = legal_lines(table.state, table.game.engine.legal_moves(table.state))
            if state:
                seen["state"] = positions.encode(positions.seat_state(table.state, seat))
            now = self.clock()
            seen["code"] = table.code
            seen["title"] = table.game.title
            seen["seats"] = [self._seat_line(table, s, now) for s in range(table.players)]
            for line in seen.get("log", []):
                who, kind = table.kinds.get(line.get("n", -1), (None, "person"))
                if kind == "away" and who is not None:
                    line["text"] = f"{line['text']} (the computer played for {self._name(table, who)}, who was away)"
                line["kind"] = kind
        return seen

    @staticmethod
    def _name(table: Table, seat: int) -> str:
        row = table.seats.get(seat)
        if row is not None:
            return row.name
        return table.game.seat_names(table.players)[seat]

    def _seat_line(self, table: Table, seat: int, now: float) -> dict[str, Any]:
        level = table.row.computer.get(seat)
        taken = seat in table.seats
        return {
            "seat": seat,
            "colour": table.game.seat_names(table.players)[seat],
            "name": self._name(table, seat) if taken or level is None else table.game.bot_label(level),
            "computer": level is not None,
            "taken": taken,
            "connected": table.present.get(seat, 0) > 0,
            "away": table.away(seat, now) if taken else False,
        }

    def listing(self) -> list[dict[str, Any]]:
        """Every table as the teacher's page lists it, newest first."""
        now = self.clock()
        lines = []
        for table in sorted(self.tables.values(), key=lambda t: t.row.created, reverse=True):
            with table.lock:
                result = table.game.engine.outcome(table.state)
                to_move = table.to_move()
                lines.append(
                    {
                        "code": table.code,
                        "game": table.game.name,
                        "title": table.game.title,
                        "players": table.players,
                        "seats": [self._seat_line(table, s, now) for s in range(table.players)],
                        "to_move": None if to_move is None else self._name(table, to_move),
                        "moves": table.moves,
                        "over": result is not None,
                        "created": table.row.created,
                    }
                )
        return lines

    def save(self, code: str) -> str:
        """A table's game as the save file ``to_json`` writes: the app's Load opens it."""
        table = self.table(code)
        with table.lock:
            return str(table.game.engine.to_json(table.state))

    def stumbles(self) -> list[dict[str, Any]]:
        """The class's refusals by rule id, most first: how often, at how many tables, by how many seats."""
        by_rule: dict[str, dict[str, Any]] = {}
        for rule, code, seat, count in self.store.refusals():
            table = self.tables.get(code)
            game = table.game.name if table is not None else ""
            line = by_rule.setdefault(rule, {"rule": rule, "game": game, "count": 0, "tables": set(), "seats": set()})
            line["count"] += count
            line["tables"].add(code)
            line["seats"].add((code, seat))
        lines = sorted(by_rule.values(), key=lambda line: (-line["count"], line["rule"]))
        return [{key: len(value) if isinstance(value, set) else value for key, value in line.items()} for line in lines]


def legal_lines(state: Any, moves: Any) -> list[dict[str, Any]]:
    """Legal moves as a seat is sent them: each encoded for the engine and worded for the move's button."""
    return [{"move": encode_move(move), "text": views.move_text(state, move)} for move in moves]


def store_moves(store: storage.Store, code: str) -> list[storage.MoveRow]:
    """A table's stored log (a function of its own so a test can watch the replay)."""
    return store.moves(code)
