"""Exact odds for Ab die Post!: busting and reaching a total while drawing, the best stopping rule, the
hurricane indicator, and surviving hurricanes.  Everything is a ``Fraction``; nothing is simulated.

A pile is ``(ones, twos, red threes)`` still face down; red 3s *held* count towards the third red 3 (ADP-4.2).
Drawing past the end of the given pile is not modelled (the reshuffled discard is unknown): such calls raise
``ValueError`` or, for ``reach_probability``, count a pile that runs out as not reaching the target.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from functools import lru_cache
from math import comb

from .rules import FULL_DECK, LANES, Config, hand_points, payments

DEFAULT = Config()


def _pile(pile: tuple[int, int, int]) -> tuple[int, int, int]:
    if not (isinstance(pile, (tuple, list)) and len(pile) == 3 and all(isinstance(n, int) and n >= 0 for n in pile)):
        raise ValueError(f"a pile is (ones, twos, red threes) as non-negative ints, not {pile!r}")
    return tuple(pile)  # type: ignore[return-value]


def _red_held(red_held: int) -> int:
    if red_held not in (0, 1, 2):
        raise ValueError(f"a player holds 0, 1 or 2 red 3s between draws (the third is lost), not {red_held!r}")
    return red_held


# --- drawing spare parts ---------------------------------------------------------------------------


def bust_probability(draws: int, red_held: int = 0, pile: tuple[int, int, int] = FULL_DECK) -> Fraction:
    """Chance that drawing up to ``draws`` more cards (stopping at the bust) ends with a third red 3 (ADP-4.2).

    That happens iff the next ``draws`` cards of the pile hold at least ``3 - red_held`` red 3s (hypergeometric)."""
    ones, twos, reds = _pile(pile)
    _red_held(red_held)
    total = ones + twos + reds
    if not isinstance(draws, int) or not 0 <= draws <= total:
        raise ValueError(f"cannot draw {draws!r} cards from a pile of {total}")
    needed = 3 - red_held
    safe = sum(comb(reds, k) * comb(total - reds, draws - k) for k in range(min(needed, draws + 1)))
    return 1 - Fraction(safe, comb(total, draws))


def next_card_bust_probability(red_held: int = 0, pile: tuple[int, int, int] = FULL_DECK) -> Fraction:
    """Chance that the very next card busts: the pile's share of red 3s when two are held, else 0."""
    return bust_probability(1, red_held, pile) if sum(_pile(pile)) else Fraction(0)


def reach_probability(
    target: int, points_held: int = 0, red_held: int = 0, pile: tuple[int, int, int] = FULL_DECK
) -> Fraction:
    """Chance that drawing until the hand holds at least ``target`` points gets there before a third red 3."""
    _red_held(red_held)
    if points_held < 3 * red_held:
        raise ValueError(f"a hand with {red_held} red 3s holds at least {3 * red_held} points, not {points_held}")
    return _reach(target, points_held, red_held, _pile(pile))


@lru_cache(maxsize=200_000)
def _reach(target: int, points: int, reds_held: int, pile: tuple[int, int, int]) -> Fraction:
    if points >= target:
        return Fraction(1)
    ones, twos, reds = pile
    total = ones + twos + reds
    if total == 0:
        return Fraction(0)
    chance = Fraction(0)
    if ones:
        chance += Fraction(ones, total) * _reach(target, points + 1, reds_held, (ones - 1, twos, reds))
    if twos:
        chance += Fraction(twos, total) * _reach(target, points + 2, reds_held, (ones, twos - 1, reds))
    if reds and reds_held < 2:
        chance += Fraction(reds, total) * _reach(target, points + 3, reds_held + 1, (ones, twos, reds - 1))
    return chance


def expected_points(
    draws: int, points_held: int = 0, red_held: int = 0, pile: tuple[int, int, int] = FULL_DECK
) -> Fraction:
    """Expected points in hand after drawing up to ``draws`` more cards, stopping at a bust (which loses the red 3s)."""
    ones, twos, reds = _pile(pile)
    _red_held(red_held)
    if not isinstance(draws, int) or not 0 <= draws <= ones + twos + reds:
        raise ValueError(f"cannot draw {draws!r} cards from a pile of {ones + twos + reds}")
    return points_held + _expected_gain(draws, red_held, (ones, twos, reds))


@lru_cache(maxsize=200_000)
def _expected_gain(draws: int, reds_held: int, pile: tuple[int, int, int]) -> Fraction:
    if draws == 0:
        return Fraction(0)
    ones, twos, reds = pile
    total = ones + twos + reds
    gain = Fraction(0)
    if ones:
        gain += Fraction(ones, total) * (1 + _expected_gain(draws - 1, reds_held, (ones - 1, twos, reds)))
    if twos:
        gain += Fraction(twos, total) * (2 + _expected_gain(draws - 1, reds_held, (ones, twos - 1, reds)))
    if reds:
        after = (
            -3 * reds_held if reds_held == 2 else 3 + _expected_gain(draws - 1, reds_held + 1, (ones, twos, reds - 1))
        )
        gain += Fraction(reds, total) * after
    return gain


@dataclasses.dataclass(frozen=True)
class StoppingAdvice:
    """Whether to draw another card, with the exact value of drawing on (then playing best) and of stopping now."""

    draw: bool
    value_if_draw: Fraction
    value_if_stop: Fraction


def best_stopping_rule(
    goal: str | int = "points", points_held: int = 0, red_held: int = 0, pile: tuple[int, int, int] = FULL_DECK
) -> StoppingAdvice:
    """The optimal draw-or-stop decision for a goal, found by exact backward induction over the pile.

    ``goal="points"`` maximises the expected points held when the turn ends; an int ``goal`` maximises the
    chance of ending the turn with at least that many points.  Ties go to stopping."""
    pile = _pile(pile)
    _red_held(red_held)
    if points_held < 3 * red_held:
        raise ValueError(f"a hand with {red_held} red 3s holds at least {3 * red_held} points, not {points_held}")
    if goal == "points":
        stop = Fraction(points_held)
        draw = points_held + _draw_gain(red_held, pile) if sum(pile) else None
    elif isinstance(goal, int) and not isinstance(goal, bool):
        stop = Fraction(int(points_held >= goal))
        draw = _target_draw_value(goal, points_held, red_held, pile) if sum(pile) else None
    else:
        raise ValueError(f"goal must be 'points' or a target number of points, not {goal!r}")
    if draw is None:
        return StoppingAdvice(False, stop, stop)
    return StoppingAdvice(draw > stop, draw, stop)


@lru_cache(maxsize=200_000)
def _points_value(reds_held: int, pile: tuple[int, int, int]) -> Fraction:
    """Best expected gain from here on (stopping is worth 0)."""
    if not sum(pile):
        return Fraction(0)
    return max(Fraction(0), _draw_gain(reds_held, pile))


@lru_cache(maxsize=200_000)
def _draw_gain(reds_held: int, pile: tuple[int, int, int]) -> Fraction:
    """Expected gain of drawing one card now and then playing best for expected points."""
    ones, twos, reds = pile
    total = ones + twos + reds
    gain = Fraction(0)
    if ones:
        gain += Fraction(ones, total) * (1 + _points_value(reds_held, (ones - 1, twos, reds)))
    if twos:
        gain += Fraction(twos, total) * (2 + _points_value(reds_held, (ones, twos - 1, reds)))
    if reds:
        after = Fraction(-6) if reds_held == 2 else 3 + _points_value(reds_held + 1, (ones, twos, reds - 1))
        gain += Fraction(reds, total) * after
    return gain


@lru_cache(maxsize=200_000)
def _target_value(target: int, points: int, reds_held: int, pile: tuple[int, int, int]) -> Fraction:
    stop = Fraction(int(points >= target))
    if stop == 1 or not sum(pile):
        return stop
    return max(stop, _target_draw_value(target, points, reds_held, pile))


def _target_draw_value(target: int, points: int, reds_held: int, pile: tuple[int, int, int]) -> Fraction:
    ones, twos, reds = pile
    total = ones + twos + reds
    value = Fraction(0)
    if ones:
        value += Fraction(ones, total) * _target_value(target, points + 1, reds_held, (ones - 1, twos, reds))
    if twos:
        value += Fraction(twos, total) * _target_value(target, points + 2, reds_held, (ones, twos - 1, reds))
    if reds:
        if reds_held == 2:
            value += Fraction(reds, total) * int(points - 6 >= target)
        else:
            value += Fraction(reds, total) * _target_value(target, points + 3, reds_held + 1, (ones, twos, reds - 1))
    return value


def stopping_table(
    goal: str | int = "points", pile: tuple[int, int, int] = FULL_DECK, max_points: int = 20
) -> dict[tuple[int, int], StoppingAdvice]:
    """Best decision for every (points held, red 3s held) with this pile left, for charts and tables."""
    return {
        (points, reds): best_stopping_rule(goal, points, reds, pile)
        for reds in (0, 1, 2)
        for points in range(3 * reds, max_points + 1)
    }


def stopping_threshold(ones: int = 16, twos: int = 23, max_reds: int = 16) -> int:
    """With two red 3s held and this many 1s and 2s left, the most red 3s left in the pile at which drawing on
    is still best for expected points (-1: never draw)."""
    right = [reds for reds in range(max_reds + 1) if best_stopping_rule("points", 6, 2, (ones, twos, reds)).draw]
    return max(right, default=-1)


# --- the hurricane indicator ----------------------------------------------------------------------


def marble_distribution(players: int, config: Config = DEFAULT) -> dict[str, Fraction]:
    """Chance of each marble colour in one shake for this many players (ADP-C2 marble table)."""
    counts = config.marble_counts(players)
    total = sum(counts)
    colours = ("green", "blue", "red", "yellow", "black")
    return {colour: Fraction(count, total) for colour, count in zip(colours, counts) if count}


def hurricane_probability(players: int, config: Config = DEFAULT) -> Fraction:
    """Chance that one shake shows the black marble."""
    return marble_distribution(players, config).get("black", Fraction(0))


def hurricane_per_round(players: int, config: Config = DEFAULT) -> Fraction:
    """Chance of at least one hurricane when every player shakes once (the marble goes back each time)."""
    return 1 - (1 - hurricane_probability(players, config)) ** players


def hurricane_count_distribution(shakes: int, players: int, config: Config = DEFAULT) -> dict[int, Fraction]:
    """Number of hurricanes in ``shakes`` independent shakes (binomial)."""
    if not isinstance(shakes, int) or shakes < 0:
        raise ValueError(f"shakes must be a non-negative int, not {shakes!r}")
    p = hurricane_probability(players, config)
    return {k: comb(shakes, k) * p**k * (1 - p) ** (shakes - k) for k in range(shakes + 1)}


def distance_distribution(players: int, shakes: int = 1, config: Config = DEFAULT) -> dict[int, Fraction]:
    """Fields flown in ``shakes`` shakes by the wind table (a hurricane moves 0), ignoring blocked fields."""
    if not isinstance(shakes, int) or shakes < 0:
        raise ValueError(f"shakes must be a non-negative int, not {shakes!r}")
    one: dict[int, Fraction] = {}
    for colour, chance in marble_distribution(players, config).items():
        distance = 0 if colour == "black" else config.wind[("green", "blue", "red", "yellow").index(colour)]
        one[distance] = one.get(distance, Fraction(0)) + chance
    result = {0: Fraction(1)}
    for _ in range(shakes):
        following: dict[int, Fraction] = {}
        for total, chance in result.items():
            for distance, other in one.items():
                following[total + distance] = following.get(total + distance, Fraction(0)) + chance * other
        result = following
    return dict(sorted(result.items()))


# --- surviving hurricanes ----------------------------------------------------------------------------


def repair_cost(lane: str, config: Config = DEFAULT) -> int:
    """Points of cards a hurricane costs on this lane (ADP-7.1)."""
    if lane not in LANES:
        raise ValueError(f"unknown lane {lane!r} (lanes: {', '.join(LANES)})")
    return config.repair[LANES.index(lane)]


def repairs_affordable(hand: tuple[int, int, int], cost: int) -> int:
    """How many hurricanes in a row a hand can pay for at ``cost`` points each (best choice of cards each time)."""
    if not isinstance(cost, int) or cost <= 0:
        raise ValueError(f"a repair costs a positive number of points, not {cost!r}")
    return _affordable(_pile(hand), cost)


@lru_cache(maxsize=100_000)
def _affordable(hand: tuple[int, int, int], cost: int) -> int:
    if hand_points(hand) < cost:
        return 0
    best = 0
    for cards in payments(hand, cost):
        if any(cards[kind] and hand_points(_minus_one(cards, kind)) >= cost for kind in range(3)):
            continue  # a card could be left out: paying more never leaves more to pay with
        rest = tuple(held - paid for held, paid in zip(hand, cards))
        best = max(best, 1 + _affordable(rest, cost))
    return best


def _minus_one(cards: tuple[int, int, int], kind: int) -> tuple[int, int, int]:
    return tuple(count - (index == kind) for index, count in enumerate(cards))  # type: ignore[return-value]


def survives(hand: tuple[int, int, int], lane: str, hurricanes: int, config: Config = DEFAULT) -> bool:
    """Whether a plane holding ``hand`` can pay ``hurricanes`` repairs on ``lane`` without drawing in between."""
    return repairs_affordable(_pile(hand), repair_cost(lane, config)) >= hurricanes


def survival_probability(
    hurricanes: int, lane: str, hand_size: int, pile: tuple[int, int, int] = FULL_DECK, config: Config = DEFAULT
) -> Fraction:
    """Chance that ``hand_size`` cards drawn from ``pile`` (a hand holds at most two red 3s, so hands with three
    or more are left out) pay for ``hurricanes`` repairs in a row on ``lane``."""
    ones, twos, reds = _pile(pile)
    cost = repair_cost(lane, config)
    favourable = possible = 0
    for red in range(min(2, reds, hand_size) + 1):
        for two in range(min(twos, hand_size - red) + 1):
            one = hand_size - red - two
            if one > ones:
                continue
            ways = comb(ones, one) * comb(twos, two) * comb(reds, red)
            possible += ways
            if repairs_affordable((one, two, red), cost) >= hurricanes:
                favourable += ways
    if not possible:
        raise ValueError(f"no hand of {hand_size} cards with at most two red 3s comes from the pile {pile}")
    return Fraction(favourable, possible)


def flight_survival_probability(
    hand: tuple[int, int, int], lane: str, shakes: int, players: int, config: Config = DEFAULT
) -> Fraction:
    """Chance that the hurricanes among the next ``shakes`` shakes do not send this plane back to the start,
    if it stays on ``lane`` and draws no card in between."""
    affordable = repairs_affordable(_pile(hand), repair_cost(lane, config))
    counts = hurricane_count_distribution(shakes, players, config)
    return sum((chance for k, chance in counts.items() if k <= affordable), Fraction(0))
