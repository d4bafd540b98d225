"""A seat at a class table played from the app (issue 45.4): the seat's own copy of the position, which carries no
secret of another seat, and ``App(game, table=seat)`` playing through the class server."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from rulebook import registry
from rulebook.meetjesland import Place
from rulebook.tables import Client
from rulebook.tables.positions import decode, encode, seat_state
from tests.test_class_server import Server, free_port

pytestmark = pytest.mark.xdist_group("class_server")


def _played(name: str, moves: int, seed: int = 7):
    """A game of ``name`` after ``moves`` random legal moves (chance settled with its first outcome)."""
    game = registry.game(name)
    engine = game.engine
    state = game.new_state(game.default_players, seed, {})
    rng = random.Random(seed)
    for _ in range(moves):
        if engine.outcome(state) is not None:
            break
        chances = engine.chance_outcomes(state)
        if chances:
            state = engine.apply(state, rng.choice(chances)[0])
        else:
            state = engine.apply(state, rng.choice(list(engine.legal_moves(state))))
    return state


@pytest.mark.parametrize("name", registry.names())
@pytest.mark.parametrize("moves", [0, 25, 70])
def test_a_seats_copy_reads_back_equal_and_plays_as_the_table(name, moves):
    state = _played(name, moves)
    engine = registry.game(name).engine
    for seat in range(state.players):
        own = seat_state(state, seat)
        text = json.dumps(encode(own))
        back = decode(json.loads(text), name)
        assert back == own
        assert back.history == ()
        # the engine on the page offers the moves the server's engine offers, and agrees on who moves
        assert list(engine.legal_moves(back)) == list(engine.legal_moves(state))
        assert engine.outcome(back) == engine.outcome(state)


@pytest.mark.parametrize("name", [name for name in registry.names() if registry.game(name).redeal])
def test_a_seats_copy_depends_only_on_what_that_seat_sees(name):
    """Two games alike in all a seat sees, their hidden cards dealt otherwise, give the seat the same copy: so no
    copy, nor any number of them, tells the seat anything of the true deal."""
    game = registry.game(name)
    redeal = registry.resolve(game.redeal)
    differed = 0
    for moves in (0, 15, 40, 41):
        truth = _played(name, moves)
        for seat in range(truth.players):
            other = redeal(truth, seat, random.Random(99))  # the same public game, the others' secrets elsewhere
            differed += other != truth
            assert seat_state(truth, seat, random.Random(5)) == seat_state(other, seat, random.Random(5))
            # and the seat's own secrets are its own
            assert seat_state(truth, seat).hands[seat] == truth.hands[seat]
    assert differed  # some of those games hid something (else the test would prove nothing)


@pytest.mark.parametrize(
    "data, words",
    [
        ({"format": 1, "game": "claim", "state": {"dataclass": "os:system", "fields": {}}}, "may not hold"),
        ({"format": 1, "game": "claim", "state": {"oops": 1}}, "unknown tag"),
        ({"format": 1, "game": "claim", "state": [1, 2]}, "must be tagged"),
        ({"format": 2, "game": "claim", "state": None}, "format 1"),
        ({"format": 1, "game": "meetjesland", "state": None}, "Claim position"),
    ],
)
def test_a_bad_copy_is_refused_in_words(data, words):
    with pytest.raises(ValueError, match=words):
        decode(data, "claim")


def test_a_copy_of_another_game_or_too_deep_is_refused():
    claim = encode(seat_state(_played("claim", 5), 0))
    with pytest.raises(ValueError, match="not a Meetjesland|Meetjesland position"):
        decode(claim, "meetjesland")
    deep: dict = {"tuple": []}
    for _ in range(300):
        deep = {"tuple": [deep]}
    with pytest.raises(ValueError, match="deeper"):
        decode({"format": 1, "game": "claim", "state": deep}, "claim")
    fields = json.loads(json.dumps(claim))
    fields["state"]["fields"].pop("turn")
    with pytest.raises(ValueError, match="the fields are"):
        decode(fields, "claim")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(str(tmp_path_factory.mktemp("class") / "class.db"), free_port())
    yield running
    running.stop()


def test_the_app_plays_a_seat_through_the_server(server):
    """The board at a table: an illegal move is refused on the page with its rule id and never sent; a legal one is
    played by the server (its log has it), and another seat's move reaches this board."""
    from rulebook.app import App

    client = Client(server.teacher)
    code = client.create("meetjesland", players=3, computer={2: "greedy"}, seed=5)
    ann, bob = client.join(code, seat=0, name="Ann"), client.join(code, seat=1, name="Bob")

    async def wait_for(check, seconds=20.0):
        for _ in range(int(seconds / 0.05)):
            if check():
                return
            await asyncio.sleep(0.05)
        raise AssertionError("not within the time")

    async def play():
        app = App("meetjesland", table=ann)
        board = app.board
        try:
            assert board.session.seat == 0
            assert app.new_button.layout.display == "none" and board.undo_button.layout.display == "none"
            # a territory Ann does not own: refused here, with the rule's id, and nothing is sent
            engine = registry.game("meetjesland").engine
            state = board.session.live
            theirs = state.territories_of(1)[0]
            moves_before = client.watch(code)["moves"]
            assert not board.play(Place(territory=theirs, points=1))
            assert board.message.startswith("Refused by MJ-") and not board.session.waiting
            legal = list(engine.legal_moves(state))
            await wait_for(lambda: app.table_seat.connection._socket is not None)
            assert board.play(legal[0])
            await wait_for(lambda: client.watch(code)["moves"] > moves_before)
            await wait_for(lambda: not board.session.waiting)
            assert "places 1 point" in board.message
            # Ann's turn still (5 points to place): Bob moving now is refused by the server, in words
            with pytest.raises(ValueError):
                bob.play(legal[0])
            # Ann places the rest; Bob's first placement then reaches Ann's board
            while board.session.current_player(board.session.live) == 0:
                before = client.watch(code)["moves"]
                assert board.play(list(engine.legal_moves(board.session.live))[0])
                await wait_for(lambda: client.watch(code)["moves"] > before and not board.session.waiting)
            bob.play(bob.legal_moves()[0])
            await wait_for(lambda: "Black: places" in board.message)
            # Bob plays at another screen, the computer plays Pink: the status line tells them apart
            assert board.seat_label(1, "Black") == "Black (another screen)"
            assert board.seat_label(2, "Pink") == "Pink (computer)"
            assert board.session.live.points == decode_state_of(client, code, ann).points
            assert client.watch(code)["moves"] >= moves_before + 6
        finally:
            app.table_seat.close()

    asyncio.run(play())


def decode_state_of(client, code, seat):
    """The position the server shows ``seat`` now, read back."""
    seen = client.request("GET", f"/api/tables/{code}/view?state=1", headers={"X-Seat-Token": seat.token})
    return decode(seen["state"], seen["game"])


def test_the_setup_panel_joins_a_table_and_returns_to_the_same_seat(server):
    """Join a class table from the Set-up panel: a missing code or name is told in words; joining takes a seat, and
    joining the same table again from the same browser returns to that seat (its token kept in the browser)."""
    from rulebook.app import App

    client = Client(server.teacher)
    code = client.create("claim", players=2, seed=2)

    async def join():
        app = App("claim")
        app.join_address.value = server.students
        assert not app.join_table() and "code" in app.join_message.value
        app.join_code.value = code.lower()
        assert not app.join_table() and "name" in app.join_message.value
        app.join_name.value = "Eve"
        assert app.join_table(), app.join_message.value
        first = app.table_seat
        assert first.seat == 0 and "class table" in app.about.value
        kept = json.loads(app.kept_seats.text)
        assert list(kept.values()) == [json.loads(json.dumps(kept))[next(iter(kept))]]
        # the same browser (its kept seats) joins again: the same seat, not the second one
        again = App("claim")
        again.kept_seats.text = app.kept_seats.text
        again.join_address.value, again.join_code.value = server.students, code
        assert again.join_table(), again.join_message.value
        assert again.table_seat.seat == 0
        assert [seat["taken"] for seat in client.watch(code)["seats"]] == [True, False]
        first.close()
        again.table_seat.close()

    asyncio.run(join())
