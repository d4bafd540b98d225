"""rulebook.core: exact chance sampling, save-file envelopes and move encoding."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import pytest

from rulebook import core
from rulebook.probability import draw_distribution, sorted_dice


def test_pick_from_many_threads_at_once_remembers_and_forgets_outcome_lists_safely():
    # a study's games in the threads of one process (a dask worker's): two threads forgetting the same oldest list
    # at once failed with a KeyError (seen in make test's dask study), or a RuntimeError while the other added one
    import sys
    import threading

    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns every microsecond: the race showed in 3 to 5 of 8 threads
    errors: list[str] = []

    def picks(seed: int) -> None:
        try:
            for i in range(3000):  # a new list each time, so that the remembered 256 are forgotten in turn
                outcomes = ((seed, Fraction(1, 3)), (i, Fraction(1, 3)), (-1, Fraction(1, 3)))
                assert core.pick(outcomes, random.Random(i)) in (seed, i, -1)
        except Exception as error:  # any failure in a thread fails the test
            errors.append(repr(error))

    threads = [threading.Thread(target=picks, args=(seed,)) for seed in range(8)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(before)
    assert errors == []


def test_illegal_move_is_a_value_error_with_the_rule():
    error = core.IllegalMove("MJ-5.2", "Eeklo does not border Aalter")
    assert (
        isinstance(error, ValueError)
        and error.rule == "MJ-5.2"
        and str(error) == "MJ-5.2: Eeklo does not border Aalter"
    )


def test_pick_is_exact_and_seeded():
    outcomes = (("a", Fraction(1, 6)), ("b", Fraction(1, 3)), ("c", Fraction(1, 2)))

    class EveryTicket:  # hands out 0, 1, 2, ... so that each ticket of the common denominator is drawn once
        def __init__(self):
            self.next = 0

        def randrange(self, stop):
            self.next += 1
            return (self.next - 1) % stop

    tickets = EveryTicket()
    counts = Counter(core.pick(outcomes, tickets) for _ in range(6))
    assert counts == {"a": 1, "b": 2, "c": 3}  # exactly in proportion to 1/6, 1/3, 1/2
    first = [core.pick(outcomes, random.Random(9)) for _ in range(20)]
    assert first == [core.pick(outcomes, random.Random(9)) for _ in range(20)]
    with pytest.raises(ValueError, match="not a chance node"):
        core.pick((), random.Random(1))


def test_check_distribution():
    core.check_distribution((("a", Fraction(1, 2)), ("b", Fraction(1, 2))))
    with pytest.raises(ValueError, match="sum to 3/4"):
        core.check_distribution((("a", Fraction(1, 2)), ("b", Fraction(1, 4))))
    with pytest.raises(ValueError, match="probability 0.5"):
        core.check_distribution((("a", 0.5),))


@dataclass(frozen=True)
class Hop:
    path: tuple[tuple[int, int], ...]
    name: str


def test_moves_encode_and_decode():
    move = Hop(((1, 2), (3, 4)), "x")
    data = core.encode_move(move)
    assert data == {"move": "Hop", "path": [[1, 2], [3, 4]], "name": "x"}
    assert core.decode_move(data, {"Hop": Hop}) == move
    with pytest.raises(ValueError, match="unknown move"):
        core.decode_move({"move": "Jump"}, {"Hop": Hop})
    with pytest.raises(ValueError, match="missing \\['name'\\]"):
        core.decode_move({"move": "Hop", "path": []}, {"Hop": Hop})
    with pytest.raises(ValueError, match="unexpected value"):
        core.decode_move({"move": "Hop", "path": [{"x": 1}], "name": "x"}, {"Hop": Hop})


def test_save_file_envelope():
    text = core.dump_game("claim", 1, {"players": 2}, [Hop(((0, 0),), "a")])
    assert core.load_game(text, "claim", 1) == ({"players": 2}, [{"move": "Hop", "path": [[0, 0]], "name": "a"}])
    with pytest.raises(ValueError, match="rules version 1"):
        core.load_game(text, "claim", 2)
    with pytest.raises(ValueError, match="not 'meetjesland'"):
        core.load_game(text, "meetjesland", 1)


def test_sorted_dice_counts_by_hand():
    two = dict(sorted_dice(2))
    assert two[(6, 6)] == Fraction(1, 36) and two[(6, 5)] == Fraction(2, 36) and len(two) == 21
    assert sum(p for _, p in sorted_dice(3)) == 1 and len(sorted_dice(3)) == 56


def test_draw_distribution_hypergeometric():
    # two cards from {red: 2, blue: 1}: red+red 1 way of 3, red+blue 2 ways of 3
    result = draw_distribution({"red": 2, "blue": 1}, 2)
    assert result == {(("red", 2),): Fraction(1, 3), (("blue", 1), ("red", 1)): Fraction(2, 3)}
    with pytest.raises(ValueError):
        draw_distribution({"red": 1}, 2)


def _save(**changes):
    data = {"game": "claim", "version": 1, "setup": {}, "history": []}
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    "text, message",
    [
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
        (_save(version=True), "rules version True"),
        (_save(extra=1), "unknown key 'extra'"),
        (_save(game="x" * 10_000), "saved game of 'xxxx"),
    ],
)
def test_a_hostile_save_envelope_is_a_short_value_error(text, message):
    with pytest.raises(ValueError, match=re.escape(message)) as error:
        core.load_game(text, "claim", 1)
    assert len(str(error.value)) < 300


def test_a_move_field_nested_deep_is_refused_not_recursed_into():
    @dataclass(frozen=True)
    class Build:
        hex: object

    field = 0
    for _ in range(498):  # a 1.1 KB save once raised RecursionError here
        field = [field]
    with pytest.raises(ValueError, match=r"history\[0\]\.hex: nested more than"):
        core.decode_move({"move": "Build", "hex": field}, {"Build": Build}, "history[0]")
    assert core.decode_move({"move": "Build", "hex": [[1, 2]]}, {"Build": Build}).hex == ((1, 2),)
    assert core.quote("y" * 1000).startswith("'yyy") and len(core.quote("y" * 1000)) <= 60
