"""The class server's storage: tables, seats, every accepted move and the refusals, in SQLite or PostgreSQL.

Why these choices (issue 45.3: a move is written before any seat sees it, and a server killed mid-game comes back
at the same move with nothing played twice):

- Each call is one transaction, committed before it returns, so a move that :meth:`Store.add_moves` accepted is
  on disk when the server shows it to anyone; a crash loses at most a move nobody has seen.
- SQLite runs in WAL mode (readers never wait for the writer, and a commit appends to one log file instead of
  rewriting pages) with ``synchronous=FULL``: WAL's default (NORMAL) may lose the last commits on a power cut, FULL
  syncs the log on every commit. PostgreSQL commits durably by default (``synchronous_commit=on``).
- The primary key ``(code, n)`` of ``moves`` makes a move number impossible to write twice, even by two server
  processes sharing one PostgreSQL database; together with the check that ``first`` is the number of moves so far,
  a table's log has no duplicates and no gaps. ``(code, seat)`` does the same for seats.
- A version table names the schema, so a file that is not a class database is refused rather than written to, and
  a later schema migrates an older database in place (:data:`MIGRATIONS`).
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

APPLICATION = "rulebook class"
KINDS = ("person", "computer", "away", "chance")
# MIGRATIONS[v] takes a database from version v - 1 to v; the SQL is the common part of SQLite's and PostgreSQL's
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        """CREATE TABLE class_tables (
            code TEXT PRIMARY KEY, game TEXT NOT NULL, setup TEXT NOT NULL, computer TEXT NOT NULL,
            away_level TEXT NOT NULL, away_after DOUBLE PRECISION NOT NULL, secret TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE seats (
            code TEXT NOT NULL REFERENCES class_tables (code), seat INTEGER NOT NULL, name TEXT NOT NULL,
            token_hash TEXT NOT NULL, joined DOUBLE PRECISION NOT NULL, PRIMARY KEY (code, seat))""",
        """CREATE TABLE moves (
            code TEXT NOT NULL REFERENCES class_tables (code), n INTEGER NOT NULL, seat INTEGER,
            kind TEXT NOT NULL CHECK (kind IN ('person', 'computer', 'away', 'chance')), move TEXT NOT NULL,
            PRIMARY KEY (code, n))""",
        """CREATE TABLE refusals (
            code TEXT NOT NULL REFERENCES class_tables (code), seat INTEGER, rule TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX refusals_by_rule ON refusals (rule, code, seat)",
    ),
    # issue 49: each student's progress by rule id (rulebook.progress's record, as its JSON), under the seat's name
    2: (
        """CREATE TABLE progress (
            name TEXT PRIMARY KEY, record TEXT NOT NULL, updated DOUBLE PRECISION NOT NULL)""",
    ),
}
SCHEMA_VERSION = max(MIGRATIONS)
OUR_TABLES = frozenset({"rulebook_schema", "class_tables", "seats", "moves", "refusals", "progress"})


class Conflict(ValueError):
    """A write that would repeat what is already stored: a move number, a taken seat or a table code."""


@dataclass(frozen=True)
class TableRow:
    """A table as created: its game and set-up, computer seats, who plays for an absent student, its chance secret."""

    code: str
    game: str
    setup: dict  # {"players": int, "seed": int | None, "options": dict}
    computer: dict[int, str]  # seat -> computer level name
    away_level: str  # the level that plays for a student gone longer than away_after seconds
    away_after: float
    secret: str  # the table's chance secret (never shown to a seat)
    created: float  # unix time


@dataclass(frozen=True)
class SeatRow:
    """A taken seat: the student's display name and the hash of the token their browser keeps."""

    code: str
    seat: int
    name: str
    token_hash: str
    joined: float


@dataclass(frozen=True)
class MoveRow:
    """Move ``n`` of a table: who played it (``None`` for chance), how, and ``core.encode_move``'s JSON text."""

    code: str
    n: int
    seat: int | None
    kind: str  # "person", "computer", "away" or "chance"
    move: str


def open_store(url: str) -> Store:
    """The store at ``url``: a path or ``sqlite:///abs/path.db`` (an SQLite file, created when missing),
    ``:memory:``, or ``postgresql://...`` / ``postgres://...`` (psycopg 3, the extra ``school``)."""
    if not isinstance(url, str) or not url.strip():
        raise ValueError(f"a class database is a path or an address, not {url!r}")
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]*)://", url)
    if scheme is None:
        return SQLiteStore(url)
    name = scheme.group(1).lower()
    if name == "sqlite":
        rest = url[len("sqlite://") :]
        if not rest.startswith("/"):
            raise ValueError(f"an SQLite address is sqlite:///absolute/path.db, not {url!r}")
        return SQLiteStore(":memory:" if rest == "/:memory:" else rest)
    if name in ("postgresql", "postgres"):
        return PostgresStore(url)
    raise ValueError(f"a class database is an SQLite file or a postgresql:// address, not a {name}:// address")


class Store:
    """The storage verbs over one connection, shared by both backends; each call is one committed transaction."""

    kind: str
    _integrity_errors: tuple[type[BaseException], ...] = ()

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._connection: Any = None

    # backend parts
    def _sql(self, sql: str) -> str:
        """``sql`` with this backend's placeholders (the common SQL uses ``?``)."""
        return sql

    @contextlib.contextmanager
    def _transaction(self, write: bool) -> Iterator[Any]:
        """A cursor inside one transaction under the lock: committed when the block ends, rolled back if it raises."""
        raise NotImplementedError

    def _table_names(self, cursor: Any) -> set[str]:
        """The names of the tables in this database (this schema, for PostgreSQL)."""
        raise NotImplementedError

    def _where(self) -> str:
        """The database in words, for error messages."""
        raise NotImplementedError

    # shared
    def _run(self, cursor: Any, sql: str, params: tuple = ()) -> list[tuple]:
        cursor.execute(self._sql(sql), params)
        return cursor.fetchall() if cursor.description is not None else []

    def _migrate(self, cursor: Any) -> None:
        """Create the schema in an empty database, bring an older one up to :data:`SCHEMA_VERSION`, refuse others."""
        names = self._table_names(cursor)
        if "rulebook_schema" not in names:
            if names & OUR_TABLES or (self.kind == "sqlite" and names):
                raise ValueError(f"{self._where()} is not a rulebook class database (it has other tables)")
            self._run(cursor, "CREATE TABLE rulebook_schema (application TEXT PRIMARY KEY, version INTEGER NOT NULL)")
            self._run(cursor, "INSERT INTO rulebook_schema VALUES (?, 0)", (APPLICATION,))
        rows = self._run(cursor, "SELECT version FROM rulebook_schema WHERE application = ?", (APPLICATION,))
        if not rows:
            raise ValueError(f"{self._where()} is not a rulebook class database (its schema table names another)")
        version = rows[0][0]
        if version > SCHEMA_VERSION:
            raise ValueError(
                f"{self._where()} has schema version {version}, made by a newer rulebook (this one reads up to "
                f"{SCHEMA_VERSION})"
            )
        for step in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[step]:
                self._run(cursor, statement)
        if version < SCHEMA_VERSION:
            self._run(
                cursor, "UPDATE rulebook_schema SET version = ? WHERE application = ?", (SCHEMA_VERSION, APPLICATION)
            )

    def _require_table(self, cursor: Any, code: str) -> tuple:
        rows = self._run(cursor, "SELECT * FROM class_tables WHERE code = ?", (code,))
        if not rows:
            raise ValueError(f"there is no table {code!r}")
        return rows[0]

    def create_table(self, row: TableRow) -> None:
        """Store a new table; :class:`Conflict` if its code is taken."""
        if not isinstance(row, TableRow):
            raise ValueError(f"create_table takes a TableRow, not {type(row).__name__}")
        setup = json.dumps(row.setup, sort_keys=True)
        computer = json.dumps({str(seat): level for seat, level in sorted(row.computer.items())})
        try:
            with self._transaction(write=True) as cursor:
                self._run(
                    cursor,
                    "INSERT INTO class_tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        row.code,
                        row.game,
                        setup,
                        computer,
                        row.away_level,
                        float(row.away_after),
                        row.secret,
                        float(row.created),
                    ),
                )
        except self._integrity_errors as error:
            raise Conflict(f"the table code {row.code!r} is already used") from error

    def tables(self) -> list[TableRow]:
        """Every table, the oldest first."""
        with self._transaction(write=False) as cursor:
            rows = self._run(cursor, "SELECT * FROM class_tables ORDER BY created, code")
        return [_table_row(row) for row in rows]

    def table(self, code: str) -> TableRow | None:
        """The table with this code, or None."""
        with self._transaction(write=False) as cursor:
            rows = self._run(cursor, "SELECT * FROM class_tables WHERE code = ?", (code,))
        return _table_row(rows[0]) if rows else None

    def add_moves(self, code: str, first: int, entries: list[tuple[int | None, str, str]]) -> None:
        """Write ``entries`` (seat, kind, move JSON) as moves ``first``, ``first + 1``, ... in one durable commit;
        :class:`Conflict`, with nothing written, unless ``first`` is the number of moves stored so far."""
        for seat, kind, move in entries:
            if kind not in KINDS:
                raise ValueError(f"a move's kind is one of {', '.join(KINDS)}, not {kind!r}")
            if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
                raise ValueError(f"a move's seat is a number or None, not {seat!r}")
            if not isinstance(move, str):
                raise ValueError(f"a move is stored as its JSON text, not {type(move).__name__}")
        try:
            with self._transaction(write=True) as cursor:
                self._require_table(cursor, code)
                (stored,) = self._run(cursor, "SELECT COUNT(*) FROM moves WHERE code = ?", (code,))[0]
                if first != stored:
                    raise Conflict(f"table {code!r} has {stored} moves, so the next is move {stored}, not {first}")
                for n, (seat, kind, move) in enumerate(entries, start=first):
                    self._run(cursor, "INSERT INTO moves VALUES (?, ?, ?, ?, ?)", (code, n, seat, kind, move))
        except self._integrity_errors as error:
            # another process wrote these numbers between our count and our insert: the key refused them
            raise Conflict(f"table {code!r} already has a move numbered from {first} on") from error

    def moves(self, code: str) -> list[MoveRow]:
        """The table's moves in order."""
        with self._transaction(write=False) as cursor:
            rows = self._run(cursor, "SELECT code, n, seat, kind, move FROM moves WHERE code = ? ORDER BY n", (code,))
        return [MoveRow(*row) for row in rows]

    def take_seat(self, row: SeatRow) -> None:
        """Give a seat to a student; :class:`Conflict` if someone holds it already."""
        if not isinstance(row, SeatRow):
            raise ValueError(f"take_seat takes a SeatRow, not {type(row).__name__}")
        try:
            with self._transaction(write=True) as cursor:
                table = _table_row(self._require_table(cursor, row.code))
                players = table.setup.get("players")
                if isinstance(players, int) and not 0 <= row.seat < players:
                    raise ValueError(f"table {row.code!r} has seats 0 to {players - 1}, not {row.seat}")
                self._run(
                    cursor,
                    "INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                    (row.code, row.seat, row.name, row.token_hash, float(row.joined)),
                )
        except self._integrity_errors as error:
            raise Conflict(f"seat {row.seat} of table {row.code!r} is taken") from error

    def seats(self, code: str) -> list[SeatRow]:
        """The taken seats of a table, by seat number."""
        with self._transaction(write=False) as cursor:
            rows = self._run(cursor, "SELECT * FROM seats WHERE code = ? ORDER BY seat", (code,))
        return [SeatRow(*row) for row in rows]

    def add_refusal(self, code: str, seat: int | None, rule: str, at: float) -> None:
        """Count one refused move: the rule id that refused it, at which table and seat, when."""
        if not isinstance(rule, str) or not rule:
            raise ValueError(f"a refusal names the rule id that refused the move, not {rule!r}")
        with self._transaction(write=True) as cursor:
            self._require_table(cursor, code)
            self._run(cursor, "INSERT INTO refusals VALUES (?, ?, ?, ?)", (code, seat, rule, float(at)))

    def refusals(self) -> list[tuple[str, str, int | None, int]]:
        """(rule, code, seat, count) for every rule, table and seat with a refusal, the most counted first."""
        with self._transaction(write=False) as cursor:
            rows = self._run(
                cursor,
                "SELECT rule, code, seat, COUNT(*) FROM refusals GROUP BY rule, code, seat "
                "ORDER BY COUNT(*) DESC, rule, code, COALESCE(seat, -1)",
            )
        return [(rule, code, seat, int(count)) for rule, code, seat, count in rows]

    def keep_progress(self, name: str, record: str, at: float) -> None:
        """Keep a student's progress (the record's JSON) under their name, in place of what was kept."""
        if not isinstance(name, str) or not name.strip():
            raise ValueError("progress is kept under a student's name")
        with self._transaction(write=True) as cursor:
            self._run(
                cursor,
                "INSERT INTO progress VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET record = excluded.record, updated = excluded.updated",
                (name, record, float(at)),
            )

    def progress(self, name: str | None = None) -> list[tuple[str, str]]:
        """(name, record JSON) of every student with progress kept (or of ``name`` only), by name."""
        with self._transaction(write=False) as cursor:
            if name is None:
                rows = self._run(cursor, "SELECT name, record FROM progress ORDER BY name")
            else:
                rows = self._run(cursor, "SELECT name, record FROM progress WHERE name = ?", (name,))
        return [(str(who), str(text)) for who, text in rows]

    def close(self) -> None:
        """Close the connection; later calls raise ValueError."""
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    def _open_connection(self) -> Any:
        if self._connection is None:
            raise ValueError(f"the store of {self._where()} is closed")
        return self._connection


def _table_row(row: tuple) -> TableRow:
    code, game, setup, computer, away_level, away_after, secret, created = row
    return TableRow(
        code=code,
        game=game,
        setup=json.loads(setup),
        computer={int(seat): level for seat, level in json.loads(computer).items()},
        away_level=away_level,
        away_after=away_after,
        secret=secret,
        created=created,
    )


class SQLiteStore(Store):
    """The embedded default: one SQLite file (WAL, synchronous FULL), one connection shared by the server's threads."""

    kind = "sqlite"
    _integrity_errors = (sqlite3.IntegrityError,)

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        self.path = str(path)
        if self.path != ":memory:":
            file = Path(self.path)
            if file.is_dir():
                raise ValueError(f"{self._where()} is a directory, not a class database file")
            if not file.parent.is_dir():
                raise ValueError(f"{self._where()} cannot be created: there is no directory {str(file.parent)!r}")
        try:
            # isolation_level=None: the module starts no transactions of its own; _transaction says BEGIN and COMMIT
            self._connection = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
            self._connection.execute("PRAGMA foreign_keys = ON")
            self._connection.execute("PRAGMA journal_mode = WAL")
            self._connection.execute("PRAGMA synchronous = FULL")
            with self._transaction(write=True) as cursor:
                self._migrate(cursor)
        except sqlite3.Error as error:
            self.close()
            raise ValueError(f"{self._where()} is not a rulebook class database ({error})") from error
        except ValueError:
            self.close()
            raise

    def _where(self) -> str:
        return "the in-memory database" if self.path == ":memory:" else f"the file {self.path!r}"

    def _table_names(self, cursor: Any) -> set[str]:
        return {name for (name,) in self._run(cursor, "SELECT name FROM sqlite_master WHERE type = 'table'")}

    @contextlib.contextmanager
    def _transaction(self, write: bool) -> Iterator[Any]:
        with self._lock:
            connection = self._open_connection()
            # IMMEDIATE takes the write lock at the start, so another process cannot slip in between count and insert
            connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            cursor = connection.cursor()
            try:
                yield cursor
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            else:
                connection.execute("COMMIT")
            finally:
                cursor.close()


class PostgresStore(Store):
    """The same tables in PostgreSQL (psycopg 3), for several class servers sharing one database."""

    kind = "postgresql"

    def __init__(self, url: str) -> None:
        super().__init__()
        try:
            import psycopg
            from psycopg.conninfo import conninfo_to_dict
        except ImportError as error:
            raise ValueError("a postgresql:// database needs psycopg: pip install 'rulebook[school]'") from error
        try:
            info = conninfo_to_dict(url)
        except psycopg.Error as error:
            raise ValueError(
                "the PostgreSQL address cannot be read (is it postgresql://user@host/database?)"
            ) from error
        host = str(info.get("host") or "localhost")
        port = str(info.get("port") or 5432)
        self.database = f"{info.get('dbname') or info.get('user') or 'postgres'} on {host} port {port}"
        self._integrity_errors = (psycopg.IntegrityError,)
        self._url, self._password = url, str(info.get("password") or "")
        self._connection = self._connect()
        try:
            with self._transaction(write=True) as cursor:
                # two servers starting at once on an empty database: one creates the schema, the other then sees it
                self._run(cursor, "SELECT pg_advisory_xact_lock(4545)")
                self._migrate(cursor)
        except BaseException:
            self.close()
            raise

    def _connect(self) -> Any:
        """A new connection (autocommit off: each call commits its own transaction); ValueError naming the server,
        never the password, when it cannot connect."""
        import psycopg

        try:
            return psycopg.connect(self._url, autocommit=False, connect_timeout=10)
        except psycopg.Error as error:
            reason = "; ".join(line.strip() for line in str(error).splitlines() if line.strip()) or type(error).__name__
            if self._password:
                reason = reason.replace(self._password, "***")
            raise ValueError(f"cannot connect to {self._where()}: {reason}") from None

    def _where(self) -> str:
        return f"the PostgreSQL database {self.database}"

    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s")

    def _table_names(self, cursor: Any) -> set[str]:
        rows = self._run(
            cursor, "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
        return {name for (name,) in rows}

    @contextlib.contextmanager
    def _transaction(self, write: bool) -> Iterator[Any]:
        with self._lock:
            connection = self._open_connection()
            if connection.broken:
                # the server restarted or dropped us: the call that saw it failed, this one connects again (a write
                # whose commit went unanswered is not repeated here; repeating it is refused by the primary keys)
                connection = self._connection = self._connect()
            cursor = connection.cursor()
            try:
                yield cursor
            except BaseException:
                if not connection.broken:
                    connection.rollback()
                raise
            else:
                connection.commit()
            finally:
                cursor.close()
