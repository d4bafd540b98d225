"""Every message each seat receives in a whole game of each game, recorded and checked for other seats' secrets
(issue 45.6): the class server in this process, one WebSocket per seat, every seat playing random legal moves."""

from __future__ import annotations

import asyncio
import json
import random
import socket

import pytest
from tornado.websocket import websocket_connect

from rulebook.tables import room as rooms
from rulebook.tables import server as servers
from rulebook.tables import store as storage
from rulebook.tables import views

SEED = 904_711_356_227  # a seed no view may carry: its digits would show in a message's text
GAMES = [("claim", 2, 400), ("kingdom_builder", 2, 400), ("ab_die_post", 3, 400), ("meetjesland", 3, 300)]


def _port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def _seat(connection, rng: random.Random, received: list[str], finish) -> None:
    """One seat: record every message; on its turn play a random legal move; stop the game at its end or cap."""
    while True:
        text = await connection.read_message()
        if text is None:
            return
        received.append(text)
        message = json.loads(text)
        if message["type"] != "view":
            continue
        view = message["view"]
        if finish(view):
            return
        if view.get("legal"):
            move = rng.choice(view["legal"])["move"]
            await connection.write_message(json.dumps({"type": "move", "move": move, "moves": view["moves"]}))


async def _play(room: rooms.Room, code: str, tokens: dict[int, str], cap: int) -> dict[int, list[str]]:
    classroom = servers.Class(room, "teacher")
    port = _port()
    listening = servers.application(classroom).listen(port, address="127.0.0.1")
    received: dict[int, list[str]] = {seat: [] for seat in tokens}
    connections = {
        seat: await websocket_connect(f"ws://127.0.0.1:{port}/ws/{code}?seat_token={token}")
        for seat, token in tokens.items()
    }

    def finish(view: dict) -> bool:
        if view["over"] is None and view["moves"] < cap:
            return False
        for connection in connections.values():
            connection.close()  # every seat's reader then ends
        return True

    try:
        await asyncio.wait_for(
            asyncio.gather(*(_seat(connections[seat], random.Random(seat), received[seat], finish) for seat in tokens)),
            600,
        )
    finally:
        for connection in connections.values():
            connection.close()
        listening.stop()
        classroom.pool.shutdown(wait=True)
    return received


def _states(room: rooms.Room, code: str) -> dict[int, object]:
    """Every position of the table by its move count, replayed from its set-up."""
    table = room.tables[code]
    engine = table.game.engine
    state = table.game.new_state(table.players, SEED, {})
    states = {len(state.history): state}
    for move in table.state.history[len(state.history) :]:
        state = engine.apply(state, move)
        states[len(state.history)] = state
    return states


def _secrets_of(game: str, state: object, seat: int) -> list[str]:
    """Texts that would give away ``seat``'s secrets to another seat: Meetjesland's mission text."""
    if game != "meetjesland":
        return []
    return [state.config.missions[state.missions[seat]].text]


@pytest.mark.parametrize(("game", "players", "cap"), GAMES)
def test_no_seat_ever_receives_another_seats_secret(game, players, cap, tmp_path):
    kept = storage.open_store(str(tmp_path / "class.db"))
    room = rooms.Room(kept)
    code = room.create(game, players, seed=SEED)
    tokens = {}
    for seat in range(players):
        taken, token = room.join(code, f"Student {seat}", seat)
        tokens[taken] = token
    received = asyncio.run(_play(room, code, tokens, cap))
    states = _states(room, code)
    secret = room.tables[code].row.secret
    finished = room.tables[code].game.engine.outcome(room.tables[code].state) is not None
    checked = 0
    for seat, messages in received.items():
        assert messages, f"seat {seat} received nothing"
        for text in messages:
            assert str(SEED) not in text and secret not in text
            message = json.loads(text)
            if message["type"] != "view":
                assert message["type"] in ("error", "refused", "pong"), message
                continue
            seen = message["view"]
            state = states[seen["moves"]]
            truth = views.view(state, seat)
            assert seen["seat"] == seat
            for key in ("position", "secret", "player", "over"):
                assert seen[key] == truth[key], (seat, seen["moves"], key)
            assert [line["text"] for line in seen["log"]][: len(truth["log"])] == [
                line["text"] for line in truth["log"]
            ]
            if seen.get("legal"):
                assert seen["player"] == seat
                engine = room.tables[code].game.engine
                assert len(seen["legal"]) == len(engine.legal_moves(state))
            if seen["over"] is None:
                for other in range(players):
                    if other != seat:
                        for words in _secrets_of(game, state, other):
                            assert words not in text, (seat, other, seen["moves"])
            checked += 1
    assert checked > 2 * players
    assert finished or max(states) >= cap
    if game == "meetjesland":
        assert all(_secrets_of(game, states[max(states)], seat)[0] for seat in range(players))
    kept.close()
