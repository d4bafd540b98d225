"""The class's progress by rule id (issue 49.3) on the class server: each student's record kept under the seat's
name (merged across tables), the teacher's map of paragraphs, bad records refused in words, and a seat's refusals
reaching the map by themselves."""

from __future__ import annotations

import json
import urllib.request

import pytest

from rulebook.progress import Record
from rulebook.progress.events import Event, now
from rulebook.progress.learner import Learner
from rulebook.progress.storage import MemoryStore
from rulebook.tables import Client
from rulebook.tables.remote import Connection, SeatSession, TableSeat
from tests.test_class_server import Server, free_port

pytestmark = pytest.mark.xdist_group("class_server")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(str(tmp_path_factory.mktemp("class") / "class.db"), free_port(), "--no-site")
    yield running
    running.stop()


def _record(*events: tuple[str, str, str]) -> Record:
    record = Record()
    for kind, game, rule in events:
        record.apply(Event(kind=kind, game=game, rules=(rule,), when=now()))
    return record


def _map(client: Client) -> dict:
    return client.request("GET", "/api/progress")


def test_records_are_kept_by_name_merged_and_counted(server):
    client = Client(server.teacher)
    first, second = client.create("claim", players=2), client.create("claim", players=2)
    ann = client.join(first, seat=0, name="Ann")
    ann_again = client.join(second, seat=0, name="Ann")  # Ann at another table (another device)
    bob = client.join(first, seat=1, name="Bob")
    rules = sorted(json.loads(json.dumps(_map(client)["games"]["claim"])))
    one, two = rules[0], rules[1]
    Connection(client.base, first, ann.token).keep_progress(_record(("refused", "claim", one)).to_json())
    Connection(client.base, second, ann_again.token).keep_progress(_record(("refused", "claim", two)).to_json())
    Connection(client.base, first, bob.token).keep_progress(_record(("refused", "claim", one)).to_json())
    seen = _map(client)
    assert seen["students"] == 2  # Ann's two records are one student's, merged
    counts = seen["games"]["claim"]
    assert sum(n for state, n in counts[one].items() if state != "not met") == 2  # Ann and Bob met it
    assert sum(n for state, n in counts[two].items() if state != "not met") == 1  # Ann only
    assert counts[two]["not met"] == 1  # Bob has not met it


def test_a_bad_record_or_token_is_refused_in_words_and_nothing_changes(server):
    client = Client(server.teacher)
    code = client.create("claim", players=2)
    ann = client.join(code, seat=0, name="Cleo")
    before = _map(client)
    for record in ("not json", json.dumps({"format": "something else"}), json.dumps([1] * 10)):
        with pytest.raises(ValueError):
            Connection(client.base, code, ann.token).keep_progress(record)
    with pytest.raises(ValueError, match="token"):
        Connection(client.base, code, "forged-token").keep_progress(Record().to_json())
    assert _map(client) == before
    # the map is the teacher's: without the token it is refused
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{client.base}/api/progress", timeout=10)
    assert refused.value.code == 403


def test_a_seats_refusal_reaches_the_class_map(server):
    """A move refused on the student's board is an event of the learner's record, which the seat sends on."""
    from rulebook.claim import rules as claim_rules

    client = Client(server.teacher)
    code = client.create("claim", players=2, seed=4)
    dana = client.join(code, seat=0, name="Dana")
    seat = TableSeat(Connection(client.base, code, dana.token))
    learner = Learner(MemoryStore())
    seat.keep_progress(learner)
    try:
        board_state = seat.state_of(seat.first)
        engine = seat.game.engine
        point = next(iter(engine.legal_moves(board_state))).point
        illegal = claim_rules.Remove(point)  # a removal while pieces are placed: refused
        refusal = engine.check(board_state, illegal)
        assert refusal is not None

        def met() -> int:
            return sum(n for state, n in _map(client)["games"]["claim"][refusal.rule].items() if state != "not met")

        before = met()
        session = SeatSession(board_state, 0, lambda move: None)
        assert not session.play(illegal)
        assert met() == before + 1  # Dana's record, sent by her seat, now counts the paragraph as met
        assert not seat.progress_problem
    finally:
        seat.close()
