"""Battle and card odds of Verover het Meetjesland, pinned by answers found outside the code under test:
brute-force dice enumeration, hand counts, an independent recursion written here, Osborne's published table,
and brute-force enumeration of card combinations."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from rulebook.meetjesland import odds

# --- independent reference implementations (share no code with odds.py) -------------------------------------------


@cache
def brute_roll(attacker_dice: int, defender_dice: int) -> dict[tuple[int, int], Fraction]:
    """Every one of the 6**(a+d) ordered rolls, compared by hand: highest v highest, ties to the defender."""
    counts: dict[tuple[int, int], int] = {}
    for faces in itertools.product(range(1, 7), repeat=attacker_dice + defender_dice):
        attack = sorted(faces[:attacker_dice], reverse=True)
        defence = sorted(faces[attacker_dice:], reverse=True)
        attacker_losses = sum(1 for a, d in zip(attack, defence) if a <= d)
        defender_losses = sum(1 for a, d in zip(attack, defence) if a > d)
        counts[(attacker_losses, defender_losses)] = counts.get((attacker_losses, defender_losses), 0) + 1
    total = 6 ** (attacker_dice + defender_dice)
    return {key: Fraction(n, total) for key, n in counts.items()}


@cache
def reference_ends(stake: int, defenders: int, stop_at: int = 0) -> dict[tuple[int, int], Fraction]:
    """Terminal distribution by plain top-down recursion over the brute-force rolls."""
    if defenders == 0 or stake <= stop_at:
        return {(stake, defenders): Fraction(1)}
    result: dict[tuple[int, int], Fraction] = {}
    for (lost, killed), p in brute_roll(min(stake, 3), min(defenders, 2)).items():
        for end, q in reference_ends(stake - lost, defenders - killed, stop_at).items():
            result[end] = result.get(end, Fraction(0)) + p * q
    return result


def reference_win(stake: int, defenders: int, stop_at: int = 0) -> Fraction:
    return sum(
        (p for (left, held), p in reference_ends(stake, defenders, stop_at).items() if held == 0 and left > 0),
        Fraction(0),
    )


def reference_chain(stake: int, path: tuple[int, ...]) -> Fraction:
    """P(conquering the whole path), leaving one point in each conquered territory, by recursion."""
    if not path:
        return Fraction(1)
    total = Fraction(0)
    for (left, held), p in reference_ends(stake, path[0]).items():
        if held == 0 and left > 0:
            if len(path) == 1:
                total += p
            elif left - 1 >= 1:
                total += p * reference_chain(left - 1, path[1:])
    return total


# --- single rolls ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("attacker_dice,defender_dice", [(a, d) for a in (1, 2, 3) for d in (1, 2)])
def test_roll_outcomes_equal_brute_force_enumeration(attacker_dice, defender_dice):
    assert odds.roll_outcomes(attacker_dice, defender_dice) == brute_roll(attacker_dice, defender_dice)
    assert sum(odds.roll_outcomes(attacker_dice, defender_dice).values()) == 1


def test_roll_outcomes_match_the_published_counts():
    # ../shared/reference/risk_odds.md section 1 (counts out of 6**(a+d)).
    assert odds.roll_outcomes(1, 1) == {(0, 1): Fraction(15, 36), (1, 0): Fraction(21, 36)}
    assert odds.roll_outcomes(2, 1) == {(0, 1): Fraction(125, 216), (1, 0): Fraction(91, 216)}
    assert odds.roll_outcomes(3, 1) == {(0, 1): Fraction(855, 1296), (1, 0): Fraction(441, 1296)}
    assert odds.roll_outcomes(1, 2) == {(0, 1): Fraction(55, 216), (1, 0): Fraction(161, 216)}
    assert odds.roll_outcomes(2, 2) == {
        (0, 2): Fraction(295, 1296),
        (1, 1): Fraction(420, 1296),
        (2, 0): Fraction(581, 1296),
    }
    assert odds.roll_outcomes(3, 2) == {
        (0, 2): Fraction(2890, 7776),
        (1, 1): Fraction(2611, 7776),
        (2, 0): Fraction(2275, 7776),
    }


def test_MJ_resolve_roll_follows_the_examples_of_the_text():
    # The text's first example: attacker 6, 1, 1 against a single defender die 3 - the defender loses 1 point.
    assert odds.resolve_roll((6, 1, 1), (3,)) == (0, 1)
    assert odds.resolve_roll([1, 6, 1], [3]) == (0, 1)  # any order
    assert odds.resolve_roll((5, 5, 3), (5, 5)) == (2, 0)  # ties go to the defender
    assert odds.resolve_roll((6, 2, 1), (5, 4)) == (1, 1)
    assert odds.resolve_roll((3,), (2, 6)) == (1, 0)  # one die compares against the highest only


@pytest.mark.parametrize("attack,defence", [((), (3,)), ((7,), (3,)), ((2,), (0,)), ((2,), ())])
def test_resolve_roll_rejects_impossible_dice(attack, defence):
    with pytest.raises(ValueError):
        odds.resolve_roll(attack, defence)


# --- battles ---------------------------------------------------------------------------------------------------


def test_small_battles_computed_by_hand():
    # 1 v 1: one roll; the attacker's die must beat the defender's: sum over a of (a-1)/36 = 15/36.
    assert odds.win_probability(1, 1, exact=True) == Fraction(15, 36)
    # 2 v 1: win the 2v1 roll (125/216), or lose it (91/216) and then win 1 v 1 (15/36).
    assert odds.win_probability(2, 1, exact=True) == Fraction(125, 216) + Fraction(91, 216) * Fraction(15, 36)
    # 1 v 2: the single die must beat both defender dice (55/216) and then win 1 v 1.
    assert odds.win_probability(1, 2, exact=True) == Fraction(55, 216) * Fraction(15, 36)
    # 2 v 2: win both (295/1296) outright, or trade one each (420/1296) and then win 1 v 1.
    assert odds.win_probability(2, 2, exact=True) == Fraction(295, 1296) + Fraction(420, 1296) * Fraction(15, 36)
    # 0 staked points never conquer; an empty territory is conquered by any stake.
    assert odds.win_probability(0, 3, exact=True) == 0
    assert odds.win_probability(4, 0) == 1.0


# Osborne, J. A. (2003), "Markov Chains for the RISK Board Game Revisited", Mathematics Magazine 76(2), 129-135,
# Table 3: P(attacker wins), rows A = 1..10 attacking units, columns D = 1..10, three decimals.  Transcribed from
# two public code copies of that table which agree number for number: the Clojure test `jvw.analysis-test`
# (binding `Osborne-2003-table-3`) and a Python Alexa skill's `PROB_CHART` (citing
# www4.stat.ncsu.edu/~jaosborn/research/RISK.pdf).  The paper's own PDF was not readable here.
OSBORNE_TABLE_3 = [
    [0.417, 0.106, 0.027, 0.007, 0.002, 0.000, 0.000, 0.000, 0.000, 0.000],
    [0.754, 0.363, 0.206, 0.091, 0.049, 0.021, 0.011, 0.005, 0.003, 0.001],
    [0.916, 0.656, 0.470, 0.315, 0.206, 0.134, 0.084, 0.054, 0.033, 0.021],
    [0.972, 0.785, 0.642, 0.477, 0.359, 0.253, 0.181, 0.123, 0.086, 0.057],
    [0.990, 0.890, 0.769, 0.638, 0.506, 0.397, 0.297, 0.224, 0.162, 0.118],
    [0.997, 0.934, 0.857, 0.745, 0.638, 0.521, 0.423, 0.329, 0.258, 0.193],
    [0.999, 0.967, 0.910, 0.834, 0.736, 0.640, 0.536, 0.446, 0.357, 0.287],
    [1.000, 0.980, 0.947, 0.888, 0.818, 0.730, 0.643, 0.547, 0.464, 0.380],
    [1.000, 0.990, 0.967, 0.930, 0.873, 0.808, 0.726, 0.646, 0.558, 0.480],
    [1.000, 0.994, 0.981, 0.954, 0.916, 0.861, 0.800, 0.724, 0.650, 0.568],
]


def test_win_table_reproduces_osborne_table_3():
    table = odds.win_table(10, 10)
    for attackers in range(1, 11):
        for defenders in range(1, 11):
            published = OSBORNE_TABLE_3[attackers - 1][defenders - 1]
            assert abs(table[attackers, defenders] - published) <= 0.0005 + 1e-12, (attackers, defenders)


def test_win_table_equals_independent_recursion_cell_by_cell():
    exact = odds.win_table(8, 8, exact=True)
    for stake in range(9):
        for defenders in range(9):
            expected = reference_win(stake, defenders) if defenders else Fraction(int(stake > 0))
            assert exact[stake, defenders] == expected, (stake, defenders)
            assert odds.win_probability(stake, defenders, exact=True) == expected


def test_float_table_agrees_with_exact_fractions():
    exact = odds.win_table(20, 20, exact=True)
    floats = odds.win_table(20, 20)
    assert floats.shape == (21, 21)
    assert np.max(np.abs(exact.astype(float) - floats)) < 1e-12
    assert abs(odds.win_probability(13, 17) - float(exact[13, 17])) < 1e-12
    # a wide, non-square table is the same numbers
    assert np.max(np.abs(odds.win_table(20, 7) - floats[:, :8])) < 1e-15


def test_win_table_is_monotone_and_bounded_for_large_armies():
    table = odds.win_table(200, 150)
    assert np.all((table >= 0) & (table <= 1))
    assert np.all(np.diff(table[1:, 1:], axis=0) >= -1e-15)  # more attackers never hurt
    assert np.all(np.diff(table[1:, 1:], axis=1) <= 1e-15)  # more defenders never help the attacker


@pytest.mark.parametrize("stake,defenders,stop_at", [(s, d, t) for s in range(8) for d in range(6) for t in (0, 1, 3)])
def test_battle_outcomes_equal_independent_recursion(stake, defenders, stop_at):
    expected = reference_ends(stake, defenders, stop_at)
    exact = odds.battle_outcomes(stake, defenders, stop_at, exact=True)
    assert exact == expected
    floats = odds.battle_outcomes(stake, defenders, stop_at)
    assert set(floats) == set(expected)
    assert all(abs(floats[key] - float(expected[key])) < 1e-14 for key in expected)
    expected_win = reference_win(stake, defenders, stop_at) if defenders else Fraction(int(stake > 0))
    assert odds.win_probability(stake, defenders, stop_at, exact=True) == expected_win
    assert abs(odds.win_probability(stake, defenders, stop_at) - float(expected_win)) < 1e-14


def test_stop_at_breaks_off_with_that_many_points_left():
    # 2 v 1 breaking off at 1 left: only the first roll counts, so it is the 2v1 roll itself.
    assert odds.win_probability(2, 1, stop_at=1, exact=True) == Fraction(125, 216)
    outcomes = odds.battle_outcomes(6, 4, stop_at=3, exact=True)
    assert sum(outcomes.values()) == 1
    for left, held in outcomes:
        assert held == 0 or left <= 3
    # a 3v2 roll from 4 left can lose two points and jump past stop_at=3 to 2 left: 6 -> 4 -> 2 with the
    # defender untouched is two 3v2 rolls lost outright, (2275/7776)**2
    assert outcomes[(2, 4)] == Fraction(2275, 7776) ** 2
    assert (3, 4) not in outcomes
    assert odds.win_probability(5, 3, stop_at=5) == 0.0
    assert odds.win_probability(5, 3, stop_at=2) < odds.win_probability(5, 3)


def test_high_break_off_points_float_agree_with_the_recursion():
    for stop_at in (4, 6):
        for stake in range(stop_at + 1, 15):
            for defenders in range(1, 7):
                expected = float(reference_win(stake, defenders, stop_at))
                assert abs(odds.win_probability(stake, defenders, stop_at) - expected) < 1e-14


def test_large_battle_distribution_sums_to_one_and_matches_the_table():
    outcomes = odds.battle_outcomes(100, 100)
    assert abs(sum(outcomes.values()) - 1) < 1e-12
    conquest = sum(p for (left, held), p in outcomes.items() if held == 0)
    assert abs(conquest - odds.win_table(100, 100)[100, 100]) < 1e-12
    attacker, defender = odds.expected_left(100, 100)
    assert 0 < attacker < 100 and 0 < defender < 100


def test_expected_left_exact_by_hand():
    # 1 v 1: the attacker keeps its point with 15/36, the defender keeps its point with 21/36.
    assert odds.expected_left(1, 1, exact=True) == (Fraction(15, 36), Fraction(21, 36))


@pytest.mark.parametrize("bad", [(-1, 2), (2, -1), (1.5, 2)])
def test_bad_arguments_raise_value_error(bad):
    with pytest.raises(ValueError):
        odds.win_probability(*bad)
    with pytest.raises(ValueError):
        odds.battle_outcomes(*bad)


# --- chains and smallest stakes ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "stake,path", [(1, (1,)), (3, (1, 1)), (5, (2, 1)), (6, (2, 2, 1)), (8, (3, 1, 2)), (4, ()), (2, (1, 1, 1))]
)
def test_chain_win_probability_equals_independent_recursion(stake, path):
    expected = reference_chain(stake, path)
    assert odds.chain_win_probability(stake, path, exact=True) == expected
    assert abs(odds.chain_win_probability(stake, path) - float(expected)) < 1e-13


def test_chain_outcomes_cover_every_end():
    outcomes = odds.chain_outcomes(7, (2, 3), exact=True)
    assert sum(outcomes.values()) == 1
    floats = odds.chain_outcomes(7, (2, 3))
    assert set(floats) == set(outcomes)
    # one territory is a single battle
    single = odds.chain_outcomes(5, (3,), exact=True)
    battle = odds.battle_outcomes(5, 3, exact=True)
    assert single == {(int(held == 0), left, held): p for (left, held), p in battle.items()}
    with pytest.raises(ValueError):
        odds.chain_outcomes(5, (2, 0))


def test_smallest_stake_is_the_first_stake_reaching_the_target():
    table = odds.win_table(60, 10)
    for defenders in (1, 3, 10):
        for target in (0.5, 0.8, 0.99):
            expected = next(stake for stake in range(61) if table[stake, defenders] >= target)
            assert odds.smallest_stake(defenders, target) == expected
    # against a chain, compared with a linear scan of the independent recursion
    path = (2, 1)
    expected = next(stake for stake in range(1, 30) if reference_chain(stake, path) >= Fraction(9, 10))
    assert odds.smallest_stake(path, 0.9) == expected
    for target in (0, 1, 1.5):
        with pytest.raises(ValueError):
            odds.smallest_stake(3, target)


# --- cards -----------------------------------------------------------------------------------------------------


def test_full_deck_has_the_44_cards():
    assert sum(odds.FULL_DECK.values()) == 44
    assert odds.FULL_DECK["brewery"] == 1
    assert odds.FULL_DECK["green"] + odds.FULL_DECK["brewery"] == 9


def reference_best_value(cards: tuple[str, ...]) -> int:
    """Every trade the rules allow, listed by looking at each 3-card subset of the coloured cards."""
    values = [5] if "brewery" in cards else [0]
    coloured = [card for card in cards if card != "brewery"]
    for trio in itertools.combinations(coloured, 3):
        distinct = len(set(trio))
        values.append({1: 8, 2: 6, 3: 4}[distinct])
    return max(values)


def brute_force_set_odds(k: int, deck: dict[str, int], hand: tuple[str, ...]) -> dict[int, Fraction]:
    cards = [colour for colour, count in deck.items() for _ in range(count)]
    counts: dict[int, int] = {}
    total = 0
    for drawn in itertools.combinations(range(len(cards)), k):
        value = reference_best_value(hand + tuple(cards[i] for i in drawn))
        counts[value] = counts.get(value, 0) + 1
        total += 1
    return {value: Fraction(n, total) for value, n in sorted(counts.items())}


def test_trade_values_of_the_text():
    assert odds.best_trade_value(["brewery"]) == 5
    assert odds.best_trade_value(["red", "blue", "green"]) == 4
    assert odds.best_trade_value(["red", "red", "green"]) == 6
    assert odds.best_trade_value(["mauve", "mauve", "mauve"]) == 8
    assert odds.best_trade_value(["red", "red"]) == 0
    assert odds.best_trade_value(["red", "blue", "brewery"]) == 5  # the Brewery card is no joker


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_set_odds_full_deck_equals_brute_force(k):
    assert odds.set_odds(k) == brute_force_set_odds(k, dict(odds.FULL_DECK), ())


@pytest.mark.parametrize(
    "k,hand", [(2, ("red",)), (1, ("red", "blue")), (3, ("yellow", "yellow")), (4, ()), (5, ("brewery",))]
)
def test_set_odds_with_a_hand_equals_brute_force(k, hand):
    deck = {"red": 3, "yellow": 2, "blue": 4, "green": 2, "orange": 1, "mauve": 2, "brewery": 1}
    expected = brute_force_set_odds(k, deck, hand)
    assert odds.set_odds(k, deck, hand) == expected
    assert odds.tradeable_probability(k, deck, hand) == 1 - expected.get(0, Fraction(0))


def test_tradeable_probability_by_hand():
    # Two cards form no coloured set; only the Brewery card (1 of 44) trades: P = 1 - C(43,2)/C(44,2) = 2/44.
    assert odds.tradeable_probability(2) == Fraction(2, 44)
    # Three coloured cards always form a set of some kind.
    assert odds.tradeable_probability(3) == 1
    with pytest.raises(ValueError):
        odds.set_odds(45)
    with pytest.raises(ValueError):
        odds.set_odds(1, {"red": -1})
