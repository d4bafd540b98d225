"""The learner's record by rule id (issue 49): states, compaction, spaced review, JSON, hostile files, class map.

Times are written out by hand; the FSRS numbers are its published default parameters (a first right answer's
stability is w[2] = 2.3065 days, a first wrong one's w[0] = 0.212 days)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from rulebook.progress import events, scheduling
from rulebook.progress.events import Event
from rulebook.progress.record import MAX_BYTES, MAX_RULES, RETIRED, STATES, Record, class_map
from rulebook.registry import games
from rulebook.teach import rules_text

START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def day(number: float) -> datetime:
    return START + timedelta(days=number)


@pytest.fixture(scope="module")
def game() -> str:
    return next(iter(games()))


@pytest.fixture(scope="module")
def rules(game) -> list[str]:
    return list(rules_text.paragraphs(game))


def answer(record: Record, game: str, rule: str, right: bool, when: datetime) -> None:
    record.apply(Event("answered", game, (rule,), right=right, when=when))


def test_each_state(game, rules):
    first, second, third, fourth, fifth = rules[:5]
    record = Record()
    record.apply(Event("learned", game, (first,), when=day(0)))
    record.apply(Event("hinted", game, (second,), when=day(0)))
    record.apply(Event("refused", game, (second,), when=day(0)))
    answer(record, game, third, True, day(0))
    for number in (0, 2, 13):  # right on each due day: 2 days, then 11 days (over a week: known)
        answer(record, game, fourth, True, day(number))
    answer(record, game, fifth, False, day(0))
    states = record.states(game, day(14))
    assert states[first] == "seen" and states[second] == "seen"
    assert states[third] == "due"  # 2.3 days after a first right answer
    assert record.states(game, day(1))[third] == "practised"
    assert states[fourth] == "known"
    assert states[fifth] == "due"
    assert states[rules[5]] == "not met"
    assert set(states.values()) <= set(STATES)
    assert list(states)[: len(rules)] == rules  # reading order


def test_a_refusal_after_practice_brings_the_rule_back_sooner(game, rules):
    rule = rules[0]
    record = Record()
    answer(record, game, rule, True, day(0))
    answer(record, game, rule, True, day(2))
    before = record.entry(game, rule).card.due
    record.apply(Event("refused", game, (rule,), when=day(3)))
    entry = record.entry(game, rule)
    assert entry.card.due < before and entry.refused == 1 and entry.last_right is False


def test_events_are_compacted_the_record_stays_small(game, rules):
    record = Record()
    for number in range(3000):
        rule = rules[number % 5]
        if number % 3:
            answer(record, game, rule, number % 7 != 0, day(number / 100))
        else:
            record.apply(Event("refused", game, (rule,), when=day(number / 100)))
    assert len(record.games[game]) == 5
    small = len(record.to_json())
    assert small < 5 * 400  # five entries of fixed fields, whatever the number of events
    # ids the rules do not have (an older rules text's) never push the record past its bound
    for number in range(MAX_RULES + 50):
        record.apply(Event("refused", game, (f"ZZ-{number}",), when=day(40 + number / 1000)))
    assert len(record.games[game]) == MAX_RULES
    assert all(rule in record.games[game] for rule in rules[:5])  # the live ones stay: the oldest retired go first


def simulate(script: dict[str, list[bool]], days: int = 30) -> dict[str, list[tuple[int, bool, float]]]:
    """A learner who reviews each rule on the day it is due and answers as scripted: (day, right, next interval)."""
    record, seen = Record(), {}
    game = next(iter(games()))
    for rule in script:
        seen[rule] = []
        answer(record, game, rule, script[rule][0], day(0))
        seen[rule].append((0, script[rule][0], scheduling.interval_days(record.entry(game, rule).card)))
    for number in range(1, days + 1):
        for rule in record.due(game, day(number) + timedelta(hours=1)):
            answers = script[rule]
            right = answers[len(seen[rule])] if len(seen[rule]) < len(answers) else True
            answer(record, game, rule, right, day(number))
            seen[rule].append((number, right, scheduling.interval_days(record.entry(game, rule).card)))
    return seen


def test_thirty_days_of_review_intervals_expand_and_a_wrong_answer_shortens(rules, capsys):
    steady, slip, late = rules[0], rules[1], rules[2]
    history = simulate({steady: [True] * 10, slip: [True, True, False, True, True], late: [False, True, True, True]})
    with capsys.disabled():
        print("\n30 days, reviewed when due (day: answer -> next interval in days)")
        for rule, rows in history.items():
            print(f"  {rule}: " + "; ".join(f"day {d} {'right' if r else 'WRONG'} -> {i:.0f}" for d, r, i in rows))
    steady_intervals = [interval for _, _, interval in history[steady]]
    assert steady_intervals[0] == 2  # round(w[2] = 2.3065): FSRS's first interval for a right answer at 90 %
    assert all(later > earlier for earlier, later in zip(steady_intervals, steady_intervals[1:]))
    assert [d for d, _, _ in history[steady]] == [0, 2, 13]  # 2 days, then 11: the third review is after day 30
    slip_rows = history[slip]
    wrong = next(index for index, (_, right, _) in enumerate(slip_rows) if not right)
    assert slip_rows[wrong][2] < slip_rows[wrong - 1][2]  # the wrong answer brings it back sooner
    assert slip_rows[-1][2] > slip_rows[wrong][2]  # and right answers after it expand again
    late_intervals = [interval for _, _, interval in history[late]]
    assert late_intervals[0] == 1 and late_intervals == sorted(late_intervals)  # wrong first: tomorrow, then growing


def test_a_first_wrong_answer_comes_back_the_next_day(game, rules):
    record = Record()
    answer(record, game, rules[0], False, day(0))
    assert record.entry(game, rules[0]).card.due == day(1)  # w[0] = 0.212 days, at least a day


def test_json_round_trip(game, rules):
    record = Record()
    answer(record, game, rules[0], True, day(0))
    record.apply(Event("hinted", game, (rules[1],), when=day(1)))
    record.apply(Event("refused", game, ("ZZ-9.9",), when=day(1)))
    text = record.to_json()
    again = Record.from_json(text)
    assert again.to_json() == text
    assert again.states(game, day(1)) == record.states(game, day(1))
    assert Record.from_json(text.encode()).to_json() == text


def test_retired_ids_are_kept_and_shown_retired(game, rules):
    record = Record()
    record.apply(Event("refused", game, ("ZZ-1.1",), when=day(0)))
    states = record.states(game, day(0))
    assert states["ZZ-1.1"] == RETIRED and list(states)[-1] == "ZZ-1.1"
    assert "ZZ-1.1" in Record.from_json(record.to_json()).games[game]
    assert record.due(game, day(9)) == []


def good_file() -> dict:
    entry = {
        "right": 1, "wrong": 0, "refused": 0, "learned": 0, "hinted": 0,
        "first": "2026-03-02T09:00:00+00:00", "last": "2026-03-02T09:00:00+00:00", "last_right": True,
        "card": {"stability": 2.3, "difficulty": 2.1, "due": "2026-03-04T09:00:00+00:00",
                 "last_review": "2026-03-02T09:00:00+00:00"},
    }  # fmt: skip
    return {"format": "rulebook-progress", "version": 1, "games": {next(iter(games())): {"AB-1.1": entry}}}


def spoil(change) -> str:
    data = good_file()
    change(data)
    return json.dumps(data)


def entry_of(data: dict) -> dict:
    return next(iter(next(iter(data["games"].values())).values()))


HOSTILE = {
    "not JSON": ("{nope", "not JSON"),
    "empty": ("", "empty"),
    "a saved game": ('{"players": 2, "history": []}', "format"),
    "a newer version": (spoil(lambda d: d.update(version=2)), "newer rulebook"),
    "an older version": (spoil(lambda d: d.update(version=0)), "unknown version"),
    "an extra field": (spoil(lambda d: d.update(script="<x>")), "should not have: script"),
    "a negative count": (spoil(lambda d: entry_of(d).update(right=-1)), "right must be a count"),
    "a count that is text": (spoil(lambda d: entry_of(d).update(wrong="7")), "wrong must be a count"),
    "a date that is not": (spoil(lambda d: entry_of(d).update(first="yesterday")), "first is not a time"),
    "a date without zone": (spoil(lambda d: entry_of(d).update(last="2026-03-02T09:00:00")), "no time zone"),
    "a far date": (spoil(lambda d: entry_of(d)["card"].update(due="9999-01-01T00:00:00+00:00")), "year 9999"),
    "an infinite stability": (spoil(lambda d: entry_of(d)["card"].update(stability=float("inf"))), "Infinity"),
    "a NaN stability": (spoil(lambda d: entry_of(d)["card"].update(stability=float("nan"))), "NaN"),
    "a difficulty out of range": (spoil(lambda d: entry_of(d)["card"].update(difficulty=99)), "outside 1 to 10"),
    "a bad rule id": (spoil(lambda d: next(iter(d["games"].values())).update({"<script>": {}})), "not a paragraph id"),
    "a bad game name": (spoil(lambda d: d["games"].update({"../x": {}})), "not a game's name"),
    "too many games": (spoil(lambda d: d["games"].update({f"g{n}": {} for n in range(20)})), "at most 16 games"),
    "deep nesting": ("[" * 5000 + "]" * 5000, "nested too deeply"),
    "too large": (" " * (MAX_BYTES + 1), "at most 1,000,000"),
    "not text": (b"\xff\xfe\x00garbage", "not"),
}  # fmt: skip


@pytest.mark.parametrize("case", HOSTILE, ids=list(HOSTILE))
def test_hostile_or_stale_files_are_refused_in_words(case):
    text, words = HOSTILE[case]
    with pytest.raises(ValueError) as error:
        Record.from_json(text)
    said = str(error.value)
    assert words in said, said
    assert "progress file" in said, said  # it says what it expected


def test_the_good_file_is_read():
    record = Record.from_json(json.dumps(good_file()))
    assert record.entry(next(iter(games())), "AB-1.1").right == 1


def test_class_map_counts_each_state(game, rules):
    learners = []
    for number in range(3):
        record = Record()
        if number:
            answer(record, game, rules[0], True, day(0))
        if number == 2:
            record.apply(Event("refused", game, ("ZZ-1",), when=day(0)))
        learners.append(record)
    counts = class_map(learners, game, day(1))
    assert counts[rules[0]] == {"not met": 1, "seen": 0, "practised": 2, "known": 0, "due": 0}
    assert counts[rules[1]]["not met"] == 3
    assert counts["ZZ-1"] == {RETIRED: 1}
    assert list(counts)[: len(rules)] == rules


def test_an_event_is_checked():
    with pytest.raises(ValueError, match="kind"):
        Event("cheered", "g", ())
    with pytest.raises(ValueError, match="paragraph ids"):
        Event("refused", "g", ("not an id",))
    with pytest.raises(ValueError, match="right or wrong"):
        Event("answered", "g", ("AB-1",))
    with pytest.raises(ValueError, match="time zone"):
        Event("hinted", "g", (), when=datetime(2026, 1, 1))
    with pytest.raises(ValueError, match="year 9999"):  # a record must read back what it wrote
        Event("hinted", "g", (), when=datetime(9999, 1, 1, tzinfo=timezone.utc))
    with pytest.raises(ValueError, match="short name"):
        Event("hinted", "../g", ())


def test_emit_reaches_listeners_and_a_failing_one_breaks_nothing():
    heard = []

    def broken(_event):
        raise RuntimeError("a listener's own trouble")

    stops = [events.listen(broken), events.listen(heard.append)]
    try:
        events.refused("g", "AB-1.2")
        events.refused("g", "nonsense")  # not a paragraph id: no event
        events.hinted("g", "Build there: AB-3.1 and AB-C2 both allow it.")
    finally:
        for stop in stops:
            stop()
    assert [(event.kind, event.rules) for event in heard] == [("refused", ("AB-1.2",)), ("hinted", ("AB-3.1", "AB-C2"))]
