"""`rulebook class` as a teacher and students use it (issue 45): the command's addresses, the documented Python
client, WebSockets with bad input and floods, and a server killed with SIGKILL mid-game and started again."""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from tornado.websocket import websocket_connect

from rulebook import claim
from rulebook.core import IllegalMove, encode_move
from rulebook.tables import Client

pytestmark = pytest.mark.xdist_group("class_server")
pytest_plugins = ["tests.postgres"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`rulebook class` in a child process, its printed addresses read off its output."""

    def __init__(self, db: str, port: int, *extra: str) -> None:
        self.db, self.port = db, port
        self.process = subprocess.Popen(
            [sys.executable, "-m", "rulebook.cli", "class", "--port", str(port), "--db", db, *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise AssertionError("rulebook class ended: " + "".join(self.lines))
            self.lines.append(line)
            if line.startswith("Students:"):
                break
        teacher = next(line for line in self.lines if line.startswith("Teacher:"))
        self.teacher = re.search(r"http://\S+", teacher).group(0)
        self.students = re.search(r"http://\S+", self.lines[-1]).group(0)
        # the rest of its output (the server's warnings) is read on, so a full pipe never stops the server
        threading.Thread(target=lambda: self.lines.extend(self.process.stdout), daemon=True).start()

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(str(tmp_path_factory.mktemp("class") / "class.db"), free_port())
    yield running
    running.stop()


def test_the_command_prints_both_addresses_with_a_fresh_token(server):
    assert "/teacher?token=" in server.teacher
    assert server.students == f"http://127.0.0.1:{server.port}/"
    with urllib.request.urlopen(server.students) as page:
        assert b"Join your table" in page.read()
    with pytest.raises(ValueError, match="teacher's token"):
        Client(server.students).create("claim", players=2)


def test_the_documented_client_plays_a_game(server):
    client = Client(server.teacher)
    code = client.create("claim", players=2, seed=21)
    seat = client.join(code, seat=0)
    other = client.join(code, seat=1, name="Bob")
    expected = claim.new_game(players=2, seed=21)
    assert seat.view()["moves"] == len(expected.history)
    mover, waiting = (seat, other) if expected.player == 0 else (other, seat)
    assert waiting.legal_moves() == ()
    assert mover.legal_moves() == claim.legal_moves(expected)
    move = mover.legal_moves()[0]
    after = mover.play(move)
    assert after["moves"] == len(claim.apply(expected, move).history)
    now = mover if mover.legal_moves() else waiting
    with pytest.raises(IllegalMove) as refused:
        now.play(move)  # the point is taken now
    assert refused.value.rule.startswith("CL-")
    again = client.rejoin(code, seat.token)
    assert again.seat == 0 and again.view() == seat.view()
    watched = client.watch(code)
    assert watched["seat"] is None and watched["moves"] == after["moves"]
    with pytest.raises(ValueError, match="full"):
        client.join(code)
    stumbles = client.stumbles()
    assert any(line["rule"] == refused.value.rule and line["paragraph"] for line in stumbles)
    assert claim.from_json(client.save(code)) is not None
    listed = {table["code"]: table for table in client.tables()}
    assert listed[code]["moves"] == after["moves"]
    lines = client.estimate(code)
    assert len(lines) == 2 and all(line.startswith(("Red", "Blue")) for line in lines)
    with pytest.raises(ValueError, match="teacher's token"):
        Client(server.students).estimate(code)


def test_a_file_that_is_no_class_database_is_refused_in_words(tmp_path):
    wrong = tmp_path / "notes.db"
    wrong.write_text("my notes, not a database\n")
    done = subprocess.run(
        [sys.executable, "-m", "rulebook.cli", "class", "--port", str(free_port()), "--db", str(wrong)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "rulebook class:" in done.stderr and "notes.db" in done.stderr and "Traceback" not in done.stderr
    assert wrong.read_text() == "my notes, not a database\n"


def test_bad_requests_are_refused_in_words_and_change_nothing(server):
    client = Client(server.teacher)
    code = client.create("claim", players=2, seed=2)
    seat = client.join(code, seat=0)
    client.join(code, seat=1)
    before = client.watch(code)
    for token in ("forged", "A" * 32):
        with pytest.raises(ValueError, match="token"):
            client.request(
                "POST", f"/api/tables/{code}/moves", {"move": {"move": "Place"}}, headers={"X-Seat-Token": token}
            )
    with pytest.raises(ValueError, match="bytes"):
        client.request(
            "POST", f"/api/tables/{code}/moves", {"move": "x" * 70_000}, headers={"X-Seat-Token": seat.token}
        )
    deep = "[" * 5000 + "]" * 5000
    request = urllib.request.Request(
        f"{client.base}/api/tables/{code}/moves",
        data=deep.encode(),
        method="POST",
        headers={"X-Seat-Token": seat.token},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request)
    assert refused.value.code == 400 and b"nested" in refused.value.read()
    assert client.watch(code) == before


async def _socket_session(url: str, messages: list[str]) -> list[dict]:
    connection = await websocket_connect(url)
    received = [json.loads(await connection.read_message())]
    for message in messages:
        await connection.write_message(message)
    while True:
        try:
            text = await asyncio.wait_for(connection.read_message(), 3)
        except asyncio.TimeoutError:
            break
        if text is None:
            received.append({"type": "closed", "code": connection.close_code})
            break
        received.append(json.loads(text))
    connection.close()
    return received


def test_websocket_moves_refusals_and_floods(server):
    client = Client(server.teacher)
    code = client.create("claim", players=2, seed=4)
    seats = [client.join(code, seat=0), client.join(code, seat=1)]
    mover = next(seat for seat in seats if seat.legal_moves())
    base = server.students.replace("http", "ws") + f"ws/{code}?seat_token={mover.token}"
    move = mover.legal_moves()[0]
    played = asyncio.run(_socket_session(base, [json.dumps({"type": "move", "move": encode_move(move)})]))
    assert played[0]["type"] == "view" and "legal" in played[0]["view"]
    assert any(m["type"] == "view" and m["view"]["moves"] == played[0]["view"]["moves"] + 1 for m in played[1:])
    bad = asyncio.run(
        _socket_session(
            base, ["not json", json.dumps({"type": "move", "move": {"move": "Fly"}}), "[" * 3000 + "]" * 3000]
        )
    )
    errors = [m for m in bad if m["type"] == "error"]
    assert len(errors) == 3 and "nested" in errors[2]["message"]
    moves = client.watch(code)["moves"]
    flood = asyncio.run(_socket_session(base, [json.dumps({"type": "ping"})] * 400))
    assert any(m["type"] == "error" and "too many" in m["message"] for m in flood)
    assert flood[-1] == {"type": "closed", "code": 1008}
    assert client.watch(code)["moves"] == moves
    watcher = asyncio.run(_socket_session(server.students.replace("http", "ws") + f"ws/{code}", []))
    assert watcher[0]["view"]["seat"] is None and "legal" not in watcher[0]["view"]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_sigkill_mid_game_and_start_again(kind, tmp_path, request):
    """Killed with SIGKILL mid-game and started again on the same database: every seat rejoins with its token at the
    same move, with the same log (nothing played twice, nothing lost)."""
    db = str(tmp_path / "class.db") if kind == "sqlite" else request.getfixturevalue("postgres_database")
    first = Server(db, free_port())
    try:
        client = Client(first.teacher)
        code = client.create("kingdom_builder", players=2, seed=6)
        seats = {seat.seat: seat for seat in (client.join(code, seat=0), client.join(code, seat=1))}
        for _ in range(15):
            seat = next(seat for seat in seats.values() if seat.legal_moves())
            seat.play(seat.legal_moves()[0])
        seen = {number: seat.view() for number, seat in seats.items()}
        first.kill()
    finally:
        first.stop()
    second = Server(db, free_port())
    try:
        client = Client(second.teacher)
        for number, seat in seats.items():
            back = client.rejoin(code, seat.token)
            assert back.seat == number
            view = back.view()
            assert view["moves"] == seen[number]["moves"]
            assert view["position"] == seen[number]["position"]
            assert [line["text"] for line in view["log"]] == [line["text"] for line in seen[number]["log"]]
    finally:
        second.stop()
    if kind == "sqlite":
        assert os.path.exists(db)


def test_a_built_website_is_served_beside_the_tables(tmp_path):
    site = tmp_path / "site"
    (site / "claim").mkdir(parents=True)
    (site / "index.html").write_text("<title>the rulebook's website</title>")
    (site / "claim" / "index.html").write_text("<title>Claim</title>")
    running = Server(str(tmp_path / "class.db"), free_port(), "--site", str(site))
    try:
        assert any(line.startswith("The rulebook's website:") for line in running.lines)
        with urllib.request.urlopen(running.students + "site/") as page:
            assert b"the rulebook's website" in page.read()
        with urllib.request.urlopen(running.students + "site/claim/") as page:
            assert b"Claim" in page.read()
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(running.students + "site/../class.db")
        # a file with its .gz beside it (make site writes them) goes compressed to a browser that takes gzip
        wasm = bytes(range(256)) * 400
        (site / "static").mkdir()
        (site / "static" / "runtime.wasm").write_bytes(wasm)
        (site / "static" / "runtime.wasm.gz").write_bytes(gzip.compress(wasm))
        (site / "claim" / "index.html.gz").write_bytes(gzip.compress(b"<title>Claim</title>"))
        for path, body, kind in (
            ("site/static/runtime.wasm", wasm, "application/wasm"),
            ("site/claim/", b"<title>Claim</title>", "text/html"),
        ):
            asked = urllib.request.Request(running.students + path, headers={"Accept-Encoding": "gzip"})
            with urllib.request.urlopen(asked) as answer:
                assert answer.headers["Content-Encoding"] == "gzip" and answer.headers["Content-Type"].startswith(kind)
                assert gzip.decompress(answer.read()) == body
            with urllib.request.urlopen(running.students + path) as answer:  # no gzip asked: the file as it is
                assert answer.headers.get("Content-Encoding") is None and answer.read() == body
    finally:
        running.stop()
    done = subprocess.run(
        [sys.executable, "-m", "rulebook.cli", "class", "--port", str(free_port()), "--site", str(tmp_path / "none")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "holds no built website" in done.stderr
