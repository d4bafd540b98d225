"""The class server's tables without the network (issue 45): seats and tokens, moves checked by the engine, chance
and computer seats settled on the server, away students, refusals counted, saves, and a restart from the store."""

from __future__ import annotations

import json

import pytest

from rulebook import claim, kingdom_builder, meetjesland, registry
from rulebook.core import IllegalMove, encode_move
from rulebook.tables import room as rooms
from rulebook.tables import store as storage
from rulebook.tables import views


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


pytest_plugins = ["tests.postgres"]


@pytest.fixture(params=["sqlite", "postgresql"])
def place(request, tmp_path):
    """A room on a fresh database: an SQLite file, or a new database on a PostgreSQL server this test run started."""
    url = str(tmp_path / "class.db") if request.param == "sqlite" else request.getfixturevalue("postgres_database")
    clock = Clock()
    kept = storage.open_store(url)
    yield rooms.Room(kept, clock), clock, url
    kept.close()


def test_a_seeded_table_deals_as_new_game_does(place):
    room, _clock, _path = place
    code = room.create("claim", 2, seed=11)
    seat, token = room.join(code, "Ann")
    assert seat == 0
    expected = claim.new_game(players=2, seed=11)
    assert room.tables[code].state == expected
    assert room.view(code, 0)["position"] == views.view(expected, 0)["position"]
    assert room.view(code, 0)["moves"] == len(expected.history)


def test_moves_are_checked_by_the_engine_and_refusals_counted(place):
    room, _clock, _path = place
    code = room.create("claim", 2, seed=3)
    first, first_token = room.join(code, "Ann")
    second, second_token = room.join(code, "Bob")
    table = room.tables[code]
    mover = table.to_move()
    tokens = {first: first_token, second: second_token}
    waiting = tokens[1 - mover]
    assert room.legal_moves(code, waiting) == ()
    legal = room.legal_moves(code, tokens[mover])
    assert legal == tuple(claim.legal_moves(table.state))
    with pytest.raises(ValueError, match="turn, not yours"):  # a move for another seat, in words
        room.play(code, waiting, encode_move(legal[0]))
    taken = legal[0]
    played = room.play(code, tokens[mover], encode_move(taken))
    assert played.entries[0][2] == taken
    # the same point again is refused by the engine's rule, and counted for the teacher
    again = room.legal_moves(code, tokens[table.to_move()])
    refused_move = taken if taken not in again else None
    if refused_move is not None:
        with pytest.raises(IllegalMove) as refused:
            room.play(code, tokens[table.to_move()], encode_move(refused_move))
        assert refused.value.rule.startswith("CL-")
        stumbles = room.stumbles()
        assert stumbles[0]["rule"] == refused.value.rule
        assert (stumbles[0]["count"], stumbles[0]["tables"], stumbles[0]["seats"]) == (1, 1, 1)


def test_bad_tokens_codes_and_moves_change_nothing(place):
    room, _clock, _path = place
    code = room.create("claim", 2, seed=5)
    _seat, token = room.join(code, "Ann")
    room.join(code, "Bob")
    before = room.tables[code].state
    for forged in ("", "x" * 32, None, 7, token[:-1] + ("A" if token[-1] != "A" else "B")):
        with pytest.raises(ValueError, match="not a seat's token"):
            room.play(code, forged, {"move": "Place"})
    for bad_code in ("NOPE1", 42, "x" * 500):
        with pytest.raises(ValueError, match="no table"):
            room.join(bad_code, "Eve")
    mover_token = token if room.tables[code].to_move() == 0 else None
    if mover_token is not None:
        for malformed in ({"move": "Nothing"}, {"move": "Place"}, [], "x", {"move": "Place", "point": [1] * 10_000}):
            with pytest.raises(ValueError):
                room.play(code, mover_token, malformed)
    with pytest.raises(ValueError, match="full"):
        room.join(code, "Cid")
    assert room.tables[code].state == before
    assert room.store.moves(code) == []


def test_names_and_set_up_are_checked_before_anything_is_kept(place):
    room, _clock, _path = place
    for bad in (
        dict(game="chess", players=2),
        dict(game="claim", players=9),
        dict(game="claim", players=2, computer={0: "greedy", 1: "greedy"}),
        dict(game="claim", players=2, computer={5: "greedy"}),
        dict(game="claim", players=2, computer={1: "grandmaster"}),
        dict(game="claim", players=2, options={"colour": "plaid"}),
        dict(game="claim", players=2, seed=-1),
        dict(game="claim", players=2, away_after=0),
    ):
        with pytest.raises(ValueError):
            room.create(bad.pop("game"), bad.pop("players"), **bad)
    assert room.store.tables() == []
    code = room.create("claim", 2)
    for name in ("x" * 41, "\x00bad", 3):
        with pytest.raises(ValueError, match="display name"):
            room.join(code, name)


def test_computer_seats_and_chance_are_played_by_the_server(place):
    room, _clock, _path = place
    code = room.create(
        "meetjesland", 3, computer={1: "greedy", 2: "greedy"}, seed=4, options={"starting_points": "random"}
    )
    seat, token = room.join(code, "Ann")
    table = room.tables[code]
    assert table.to_move() == seat  # the computer seats have played up to the student's turn
    for _ in range(30):
        moves = room.legal_moves(code, token)
        if not moves:
            break
        room.play(code, token, encode_move(moves[-1]))
        assert table.to_move() in (seat, None)
    kinds = {kind for _seat, kind in table.kinds.values()}
    assert {"person", "computer", "chance"} <= kinds
    log = [line["kind"] for line in room.view(code, seat)["log"] if line["n"] >= table.start]
    assert "computer" in log and "chance" in log


def test_an_away_student_is_played_by_the_computer_and_the_log_says_so(place):
    room, clock, _path = place
    code = room.create("claim", 2, seed=8, away_after=30)
    room.join(code, "Ann")
    room.join(code, "Bob")
    table = room.tables[code]
    assert room.tick() == []  # nobody is away yet
    clock.now += 31
    moved = room.tick()
    assert moved and moved[0].code == code
    assert all(kind == "away" for _seat, kind, _move in moved[0].entries if kind != "chance")
    texts = [line["text"] for line in room.view(code, None)["log"]]
    assert any("the computer played for" in text and "away" in text for text in texts)
    assert table.moves > 0


def test_a_restart_replays_every_table_to_the_same_move(place):
    room, _clock, path = place
    code = room.create("kingdom_builder", 2, seed=2)
    tokens = dict(room.join(code, name) for name in ("Ann", "Bob"))
    table = room.tables[code]
    for _ in range(12):
        seat = table.to_move()
        room.play(code, tokens[seat], encode_move(kingdom_builder.legal_moves(table.state)[0]))
    room.store.close()
    again = rooms.Room(storage.open_store(str(path)))
    try:
        assert again.tables[code].state == table.state
        assert again.tables[code].kinds == table.kinds
        for seat, token in tokens.items():
            assert again.seat_of(code, token)[1] == seat
        assert again.view(code, 0) == room.view(code, 0)
    finally:
        again.store.close()


def test_the_download_is_the_save_the_app_loads(place):
    room, _clock, _path = place
    code = room.create(
        "meetjesland", 3, computer={1: "random", 2: "random"}, seed=9, options={"starting_points": "random"}
    )
    _seat, token = room.join(code, "Ann")
    room.play(code, token, encode_move(room.legal_moves(code, token)[0]))
    text = room.save(code)
    assert json.loads(text)["game"] == "meetjesland"
    assert meetjesland.from_json(text) == room.tables[code].state
    assert registry.game("meetjesland").engine.to_json(meetjesland.from_json(text)) == text


def test_a_stale_move_is_refused_in_words(place):
    room, _clock, _path = place
    code = room.create("claim", 2, seed=1)
    tokens = dict(room.join(code, name) for name in ("Ann", "Bob"))
    table = room.tables[code]
    seat = table.to_move()
    move = encode_move(room.legal_moves(code, tokens[seat])[0])
    with pytest.raises(ValueError, match="moved on"):
        room.play(code, tokens[seat], move, expected=table.moves + 1)
    room.play(code, tokens[seat], move, expected=table.moves)
