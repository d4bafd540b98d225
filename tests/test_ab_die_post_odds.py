"""Exact Ab die Post! odds against hand counts and independent brute-force enumeration over small piles."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rulebook.ab_die_post import odds
from rulebook.ab_die_post.rules import Config

SMALL_PILES = [(2, 2, 3), (1, 3, 2), (2, 1, 3), (0, 2, 3), (2, 0, 1)]


def orderings(pile):
    """Every order of the physical cards (each card distinct), all equally likely: a brute-force shuffle."""
    cards = [1] * pile[0] + [2] * pile[1] + [3] * pile[2]
    return list(itertools.permutations(cards))


def play_out(order, stop_when, red_held, points_held):
    """Draw from a fixed order until ``stop_when(points, drawn)`` or a third red 3; returns (busted, points)."""
    points, reds = points_held, red_held
    for drawn, card in enumerate(order):
        if stop_when(points, drawn):
            break
        if card == 3:
            reds += 1
            if reds == 3:
                return True, points - 6
        points += card
    return False, points


@pytest.mark.parametrize("pile", SMALL_PILES)
@pytest.mark.parametrize("red_held", [0, 1, 2])
def test_bust_probability_matches_enumeration(pile, red_held):
    every = orderings(pile)
    for draws in range(sum(pile) + 1):
        busts = sum(play_out(order, lambda _p, n, k=draws: n >= k, red_held, 3 * red_held)[0] for order in every)
        assert odds.bust_probability(draws, red_held, pile) == Fraction(busts, len(every))


@pytest.mark.parametrize("pile", SMALL_PILES)
@pytest.mark.parametrize("red_held", [0, 1, 2])
def test_reach_probability_matches_enumeration(pile, red_held):
    every = orderings(pile)
    for extra in range(3):
        points_held = 3 * red_held + extra
        for target in range(points_held, points_held + 12):
            reached = 0
            for order in every:
                busted, points = play_out(order, lambda p, _n, t=target: p >= t, red_held, points_held)
                reached += (not busted) and points >= target
            assert odds.reach_probability(target, points_held, red_held, pile) == Fraction(reached, len(every))


@pytest.mark.parametrize("pile", SMALL_PILES)
def test_expected_points_matches_enumeration(pile):
    every = orderings(pile)
    for red_held in (0, 1, 2):
        for draws in range(sum(pile) + 1):
            total = sum(play_out(order, lambda _p, n, k=draws: n >= k, red_held, 3 * red_held)[1] for order in every)
            assert odds.expected_points(draws, 3 * red_held, red_held, pile) == Fraction(total, len(every))


def brute_best(cards, points, reds, goal):
    """Optimal value by brute force over the remaining cards as a list (each physical card equally likely next)."""
    stop = Fraction(points) if goal == "points" else Fraction(int(points >= goal))
    if not cards:
        return stop
    draw = Fraction(0)
    for index, card in enumerate(cards):
        rest = cards[:index] + cards[index + 1 :]
        if card == 3 and reds == 2:
            value = Fraction(points - 6) if goal == "points" else Fraction(int(points - 6 >= goal))
        else:
            value = brute_best(rest, points + card, reds + (card == 3), goal)
        draw += value / len(cards)
    return max(stop, draw)


@pytest.mark.parametrize("pile", [(2, 2, 3), (1, 2, 2), (0, 1, 3)])
@pytest.mark.parametrize("goal", ["points", 5, 8])
def test_best_stopping_rule_matches_brute_force(pile, goal):
    cards = (1,) * pile[0] + (2,) * pile[1] + (3,) * pile[2]
    for reds in (0, 1, 2):
        for points in range(3 * reds, 3 * reds + 4):
            advice = odds.best_stopping_rule(goal, points, reds, pile)
            assert max(advice.value_if_draw, advice.value_if_stop) == brute_best(cards, points, reds, goal)
            assert advice.draw == (advice.value_if_draw > advice.value_if_stop)


def test_best_stopping_rule_hand_counts():
    # Two red 3s held, full pile: drawing gains (16*1 + 23*2)/55 and loses 6 with chance 16/55, so stop.
    advice = odds.best_stopping_rule("points", 6, 2, (16, 23, 16))
    assert not advice.draw
    # With no red 3 left in the pile drawing cannot bust, so drawing always helps.
    assert odds.best_stopping_rule("points", 6, 2, (3, 3, 0)).draw
    # One card left, a 2: drawing gains exactly 2.
    assert odds.best_stopping_rule("points", 6, 2, (0, 1, 0)).value_if_draw == 8
    # For a target the optimal value is the reach probability of drawing until the target.
    assert odds.best_stopping_rule(10).value_if_draw == odds.reach_probability(10)


def test_bust_hand_counts():
    assert odds.bust_probability(1, 2) == Fraction(16, 55)
    assert odds.bust_probability(2, 1) == Fraction(16 * 15, 55 * 54)
    assert odds.bust_probability(3, 0) == Fraction(16 * 15 * 14, 55 * 54 * 53)
    assert odds.bust_probability(2, 0) == 0
    assert odds.next_card_bust_probability(1) == 0
    assert odds.next_card_bust_probability(2, (1, 1, 2)) == Fraction(2, 4)


def test_reaching_four_points_is_certain():
    # A bust needs a third red 3, and two red 3s are already 6 points: 4 points are always reached first.
    for red_held in (0, 1, 2):
        for points in range(3 * red_held, 3 * red_held + 4):
            assert odds.reach_probability(4, points, red_held) == 1
    # Hand count: two red 3s held (6 points), target 7: a 1 or a 2 (39 of 55 cards) reaches it, a red 3 busts.
    assert odds.reach_probability(7, 6, 2) == Fraction(39, 55)


def test_odds_refuse_malformed_input():
    with pytest.raises(ValueError, match="pile"):
        odds.bust_probability(2, 0, (1, 2))
    with pytest.raises(ValueError, match="cannot draw"):
        odds.bust_probability(56)
    with pytest.raises(ValueError, match="red 3s"):
        odds.reach_probability(5, 0, 3)
    with pytest.raises(ValueError, match="at least 6"):
        odds.reach_probability(8, 2, 2)
    with pytest.raises(ValueError, match="goal"):
        odds.best_stopping_rule("fast")


def test_marble_odds_per_player_count():
    # Sourced table: 3p 1/2/2/1/2, 4p 2/2/2/2/2, 5p 2/3/3/2/2, 6p 3/3/3/3/2; 2p proposed 1/1/1/1/2.
    assert [odds.hurricane_probability(n) for n in range(2, 7)] == [
        Fraction(1, 3),
        Fraction(1, 4),
        Fraction(1, 5),
        Fraction(1, 6),
        Fraction(1, 7),
    ]
    assert odds.hurricane_per_round(4) == 1 - Fraction(4, 5) ** 4 == Fraction(369, 625)
    for players in range(2, 7):
        distances = odds.distance_distribution(players)
        coloured = {d: p for d, p in distances.items() if d}
        assert sum(distances.values()) == 1
        assert sum(d * p for d, p in coloured.items()) / sum(coloured.values()) == Fraction(7, 2)
    # Two shakes with 4 players (each 1/5 black, 1/5 of each colour): 0 fields only if both are black.
    two = odds.distance_distribution(4, 2)
    assert two[0] == Fraction(1, 25) and two[10] == Fraction(1, 25) and two[7] == Fraction(4, 25)
    counts = odds.hurricane_count_distribution(3, 3)
    assert counts == {0: Fraction(27, 64), 1: Fraction(27, 64), 2: Fraction(9, 64), 3: Fraction(1, 64)}
    assert odds.marble_distribution(2, Config(marbles=((2, (0, 0, 0, 1, 1)),))) == {
        "yellow": Fraction(1, 2),
        "black": Fraction(1, 2),
    }


def set_partitions(items):
    """Every way to split the cards into groups (restricted growth strings), independent of the library."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first]] + partition
        for index in range(len(partition)):
            yield partition[:index] + [[first] + partition[index]] + partition[index + 1 :]


def brute_affordable(cards, cost):
    """Most repairs: over every split of the cards into groups, count the groups worth at least ``cost``."""
    return max(sum(sum(group) >= cost for group in partition) for partition in set_partitions(list(cards)))


def test_repairs_affordable_hand_counts_and_brute_force():
    assert odds.repairs_affordable((0, 0, 2), 2) == 2  # two red 3s pay two outer-lane repairs
    assert odds.repairs_affordable((0, 0, 2), 4) == 1  # 3 + 3 = 6 pays one central repair, not 2 x 4
    assert odds.repairs_affordable((4, 0, 0), 4) == 1
    assert odds.repairs_affordable((0, 4, 0), 8) == 1
    assert odds.repairs_affordable((1, 1, 1), 2) == 2
    for hand in itertools.product(range(4), range(3), range(3)):
        cards = [1] * hand[0] + [2] * hand[1] + [3] * hand[2]
        for cost in (2, 4, 8):
            assert odds.repairs_affordable(hand, cost) == brute_affordable(cards, cost), (hand, cost)


def test_survival_probability_matches_enumeration():
    pile = (3, 2, 3)
    cards = [1] * 3 + [2] * 2 + [3] * 3
    for size in range(1, 6):
        hands = [
            combo for combo in itertools.combinations(range(len(cards)), size) if sum(cards[i] == 3 for i in combo) <= 2
        ]
        for lane, cost in (("inner", 8), ("central", 4), ("outer", 2)):
            for hurricanes in range(3):
                good = sum(brute_affordable([cards[i] for i in combo], cost) >= hurricanes for combo in hands)
                assert odds.survival_probability(hurricanes, lane, size, pile) == Fraction(good, len(hands))


def test_flight_survival_probability():
    # (0, 2, 0) pays one central repair (4): survives 3 shakes with 3 players unless 2+ hurricanes come.
    assert odds.flight_survival_probability((0, 2, 0), "central", 3, 3) == Fraction(27 + 27, 64)
    assert odds.survives((0, 2, 0), "central", 1) and not odds.survives((0, 2, 0), "inner", 1)
    with pytest.raises(ValueError, match="lane"):
        odds.repair_cost("middle")
