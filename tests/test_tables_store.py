"""The class server's storage (issue 45.3): the same tests on SQLite and on a PostgreSQL server started for them."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulebook.tables.store import Conflict, MoveRow, SeatRow, Store, TableRow, open_store

pytest_plugins = ["tests.postgres"]

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: an SQLite file, or a new database on this process's PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "class.db")
    return request.getfixturevalue("postgres_database")


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    opened = open_store(url)
    yield opened
    opened.close()


def table_row(code: str, created: float = 1_700_000_000.0, players: int = 2) -> TableRow:
    return TableRow(
        code=code,
        game="claim",
        setup={"players": players, "seed": 7, "options": {"variant": "short"}},
        computer={1: "greedy"},
        away_level="random",
        away_after=90.5,
        secret="b1e2c3",
        created=created,
    )


MOVE_A = json.dumps({"move": "PlaceTower", "point": "c5"})
MOVE_B = json.dumps({"move": "Step", "to": "d5"})
ROLL = json.dumps({"move": "Roll", "faces": [3, 5]})


def test_tables_are_created_listed_oldest_first_and_read_back(store: Store, url: str) -> None:
    store.create_table(table_row("KLM", created=30.0))
    store.create_table(table_row("ABC", created=10.0, players=3))
    store.create_table(table_row("XYZ", created=20.0))
    assert [row.code for row in store.tables()] == ["ABC", "XYZ", "KLM"]
    abc = store.table("ABC")
    assert abc == table_row("ABC", created=10.0, players=3)
    assert abc is not None and abc.computer == {1: "greedy"} and abc.setup["options"] == {"variant": "short"}
    assert store.table("NOPE") is None
    with pytest.raises(Conflict, match="ABC"):
        store.create_table(table_row("ABC", created=99.0))
    assert store.table("ABC") == table_row("ABC", created=10.0, players=3)
    assert len(store.tables()) == 3
    assert store.kind == ("sqlite" if not url.startswith("postgresql") else "postgresql")


def test_moves_are_written_in_order_and_read_back(store: Store) -> None:
    store.create_table(table_row("ABC"))
    store.create_table(table_row("DEF"))
    store.add_moves("ABC", 0, [(0, "person", MOVE_A), (None, "chance", ROLL)])
    store.add_moves("DEF", 0, [(1, "computer", MOVE_B)])
    store.add_moves("ABC", 2, [(1, "away", MOVE_B)])
    assert store.moves("ABC") == [
        MoveRow("ABC", 0, 0, "person", MOVE_A),
        MoveRow("ABC", 1, None, "chance", ROLL),
        MoveRow("ABC", 2, 1, "away", MOVE_B),
    ]
    assert store.moves("DEF") == [MoveRow("DEF", 0, 1, "computer", MOVE_B)]
    assert store.moves("NOPE") == []


@pytest.mark.parametrize("first", [0, 1, 3, 7, -1])
def test_a_repeated_or_skipped_move_number_is_a_conflict_and_writes_nothing(store: Store, first: int) -> None:
    store.create_table(table_row("ABC"))
    store.add_moves("ABC", 0, [(0, "person", MOVE_A), (None, "chance", ROLL)])
    before = store.moves("ABC")
    with pytest.raises(Conflict, match="has 2 moves"):
        store.add_moves("ABC", first, [(1, "person", MOVE_B), (0, "person", MOVE_A)])
    assert store.moves("ABC") == before


def test_a_bad_entry_anywhere_in_a_batch_writes_none_of_it(store: Store) -> None:
    store.create_table(table_row("ABC"))
    with pytest.raises(ValueError, match="kind"):
        store.add_moves("ABC", 0, [(0, "person", MOVE_A), (1, "teleport", MOVE_B)])
    with pytest.raises(ValueError, match="no table"):
        store.add_moves("NOPE", 0, [(0, "person", MOVE_A)])
    assert store.moves("ABC") == []


def test_the_database_itself_refuses_a_second_move_or_seat_with_the_same_number(store: Store) -> None:
    """The primary keys hold even for a writer that skips add_moves' count (another server, a hand-written query)."""
    store.create_table(table_row("ABC"))
    store.add_moves("ABC", 0, [(0, "person", MOVE_A)])
    store.take_seat(SeatRow("ABC", 0, "Ann", "h1", 5.0))
    for sql, params in [
        ("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", ("ABC", 0, 1, "person", MOVE_B)),
        ("INSERT INTO seats VALUES (?, ?, ?, ?, ?)", ("ABC", 0, "Bob", "h2", 6.0)),
    ]:
        with pytest.raises(store._integrity_errors):
            with store._transaction(write=True) as cursor:
                store._run(cursor, sql, params)
    assert store.moves("ABC") == [MoveRow("ABC", 0, 0, "person", MOVE_A)]
    assert store.seats("ABC") == [SeatRow("ABC", 0, "Ann", "h1", 5.0)]


def test_threads_racing_for_the_same_move_number_write_it_once(store: Store) -> None:
    store.create_table(table_row("ABC"))
    start, results = threading.Barrier(8), []

    def play(seat: int) -> None:
        start.wait()
        try:
            store.add_moves("ABC", 0, [(seat, "person", MOVE_A)])
            results.append("written")
        except Conflict:
            results.append("conflict")

    threads = [threading.Thread(target=play, args=(seat,)) for seat in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["conflict"] * 7 + ["written"]
    assert len(store.moves("ABC")) == 1


def test_two_servers_on_one_database_racing_for_a_move_write_it_once(url: str) -> None:
    first, second = open_store(url), open_store(url)
    try:
        first.create_table(table_row("ABC"))
        start, results = threading.Barrier(2), []

        def play(store: Store, seat: int) -> None:
            start.wait()
            for n in range(20):
                try:
                    store.add_moves("ABC", n, [(seat, "person", MOVE_A)])
                    results.append(n)
                except Conflict:
                    pass

        threads = [threading.Thread(target=play, args=(store, seat)) for seat, store in enumerate((first, second))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(results) == list(range(20))
        assert [row.n for row in second.moves("ABC")] == list(range(20))
    finally:
        first.close()
        second.close()


def test_a_seat_is_taken_once(store: Store) -> None:
    store.create_table(table_row("ABC", players=3))
    store.take_seat(SeatRow("ABC", 2, "Ann", "hash-ann", 100.0))
    store.take_seat(SeatRow("ABC", 0, "Bob", "hash-bob", 101.0))
    with pytest.raises(Conflict, match="seat 2"):
        store.take_seat(SeatRow("ABC", 2, "Eve", "hash-eve", 102.0))
    with pytest.raises(ValueError, match="seats 0 to 2"):
        store.take_seat(SeatRow("ABC", 3, "Eve", "hash-eve", 102.0))
    with pytest.raises(ValueError, match="no table"):
        store.take_seat(SeatRow("NOPE", 0, "Eve", "hash-eve", 102.0))
    assert store.seats("ABC") == [
        SeatRow("ABC", 0, "Bob", "hash-bob", 101.0),
        SeatRow("ABC", 2, "Ann", "hash-ann", 100.0),
    ]


def test_refusals_are_counted_by_rule_table_and_seat(store: Store) -> None:
    store.create_table(table_row("A"))
    store.create_table(table_row("B"))
    for code, seat, rule in [
        ("A", 0, "MJ-5.3"),
        ("B", 0, "MJ-5.3"),
        ("A", 0, "MJ-5.3"),
        ("A", None, "CL-4.2"),
        ("A", 1, "MJ-5.3"),
        ("B", 0, "MJ-5.3"),
        ("A", 0, "MJ-5.3"),
    ]:
        store.add_refusal(code, seat, rule, 1.0)
    # by hand: MJ-5.3 at A seat 0 three times, at B seat 0 twice, at A seat 1 once; CL-4.2 at A by nobody once
    assert store.refusals() == [
        ("MJ-5.3", "A", 0, 3),
        ("MJ-5.3", "B", 0, 2),
        ("CL-4.2", "A", None, 1),
        ("MJ-5.3", "A", 1, 1),
    ]


def test_everything_survives_closing_and_opening_again(url: str) -> None:
    store = open_store(url)
    store.create_table(table_row("ABC"))
    store.add_moves("ABC", 0, [(0, "person", MOVE_A), (None, "chance", ROLL)])
    store.take_seat(SeatRow("ABC", 0, "Ann", "h1", 5.0))
    store.add_refusal("ABC", 0, "CL-4.2", 6.0)
    store.close()
    with pytest.raises(ValueError, match="closed"):
        store.moves("ABC")
    again = open_store(url)
    try:
        assert again.tables() == [table_row("ABC")]
        assert again.moves("ABC") == [MoveRow("ABC", 0, 0, "person", MOVE_A), MoveRow("ABC", 1, None, "chance", ROLL)]
        assert again.seats("ABC") == [SeatRow("ABC", 0, "Ann", "h1", 5.0)]
        assert again.refusals() == [("CL-4.2", "ABC", 0, 1)]
        again.add_moves("ABC", 2, [(1, "person", MOVE_B)])
    finally:
        again.close()


KILLED_WRITER = """
import sys, time
from rulebook.tables.store import open_store
store = open_store(sys.argv[1])
store.add_moves("ABC", 1, [(1, "person", sys.argv[2])])
print("written", flush=True)
time.sleep(60)
"""


def test_a_move_written_before_the_server_is_killed_is_there_after(url: str) -> None:
    store = open_store(url)
    store.create_table(table_row("ABC"))
    store.add_moves("ABC", 0, [(0, "person", MOVE_A)])
    store.close()
    writer = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, url, MOVE_B], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    try:
        assert writer.stdout is not None
        assert writer.stdout.readline().strip() == "written"
        os.kill(writer.pid, signal.SIGKILL)
    finally:
        writer.kill()
        writer.wait(timeout=30)
    assert writer.returncode == -signal.SIGKILL
    again = open_store(url)
    try:
        assert again.moves("ABC") == [MoveRow("ABC", 0, 0, "person", MOVE_A), MoveRow("ABC", 1, 1, "person", MOVE_B)]
    finally:
        again.close()


def test_sqlite_runs_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    path = tmp_path / "class.db"
    store = open_store(f"sqlite://{path}")
    try:
        assert store.kind == "sqlite"
        assert store._connection.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
        assert store._connection.execute("PRAGMA foreign_keys").fetchone() == (1,)
    finally:
        store.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # WAL is kept in the file


def test_sqlite_in_memory_works(tmp_path: Path) -> None:
    store = open_store(":memory:")
    store.create_table(table_row("ABC"))
    assert store.table("ABC") == table_row("ABC")
    store.close()


def test_a_file_that_is_not_a_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"These are my lesson notes, not a database at all. " * 100)
    with pytest.raises(ValueError, match="notes.db"):
        open_store(str(path))
    assert path.read_bytes() == b"These are my lesson notes, not a database at all. " * 100


def test_another_sqlite_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "grades.db"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE grades (student TEXT, grade INTEGER)")
        raw.execute("INSERT INTO grades VALUES ('Ann', 9)")
    with pytest.raises(ValueError, match=r"grades\.db.*not a rulebook class database"):
        open_store(str(path))
    with sqlite3.connect(path) as raw:
        names = {name for (name,) in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert names == {"grades"}


def test_a_database_from_a_newer_rulebook_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "class.db"
    open_store(str(path)).close()
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE rulebook_schema SET version = 99")
    with pytest.raises(ValueError, match="version 99"):
        open_store(str(path))


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://root@localhost/class", "mysql://"),
        ("sqlite://relative.db", "sqlite:///absolute"),
        ("", "path or an address"),
        ("/no/such/directory/class.db", "no directory"),
    ],
)
def test_an_address_that_names_no_class_database_is_refused(url: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        open_store(url)


def test_a_postgresql_server_that_cannot_be_reached_is_named_without_the_password() -> None:
    pytest.importorskip("psycopg")
    with pytest.raises(ValueError) as refused:
        open_store("postgresql://teacher:s3cret-word@127.0.0.1:1/school?connect_timeout=5")
    assert "127.0.0.1" in str(refused.value) and "school" in str(refused.value)
    assert "s3cret-word" not in str(refused.value)


def test_a_postgresql_store_connects_again_after_losing_its_connection(postgres_database: str) -> None:
    import psycopg

    url = postgres_database

    store = open_store(url)
    try:
        store.create_table(table_row("ABC"))
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        with pytest.raises(psycopg.OperationalError):
            store.add_moves("ABC", 0, [(0, "person", MOVE_A)])
        store.add_moves("ABC", 0, [(0, "person", MOVE_A)])
        assert store.moves("ABC") == [MoveRow("ABC", 0, 0, "person", MOVE_A)]
    finally:
        store.close()
