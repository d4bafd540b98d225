"""The draw advisor (issue 13.2): for a hand and the cards left, the exact chance that the next card busts, the
chance to reach the flying minimum and a chosen target this turn, and the exactly optimal choice, draw or stop,
for a stated objective.

The optimal choice is backward induction (dynamic programming) over the composition of the pile. Unlike
:mod:`odds`, the pile may run out during the turn: the discard is then shuffled into a new pile (ADP-4.3). Within
one drawing turn the discard does not change (a bust ends the turn), so the cards that can still come are known
exactly: the pile, then the discard. Everything is a ``Fraction``.

Objectives:
- ``"reach"``: the most chance to end the turn with at least ``goal`` points (4 to fly, ADP-5.1, or any target);
- ``"points"``: the most points in hand at the end of the turn, on average (a bust loses the red 3s, ADP-4.2).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache

from .rules import RED, Config, State, hand_points

Cards = tuple[int, int, int]
OBJECTIVES = {
    "reach": "end the turn with at least the target",
    "points": "the most points in hand on average",
}
MAX_GOAL = 200


def _cards(value: object, name: str) -> Cards:
    if not (
        isinstance(value, (tuple, list))
        and len(value) == 3
        and all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 100 for n in value)
    ):
        raise ValueError(f"{name}: expected (ones, twos, red threes) as whole numbers from 0 to 100, not {value!r}")
    return tuple(value)  # type: ignore[return-value]


def _hand(points: object, reds: object) -> tuple[int, int]:
    if reds not in (0, 1, 2) or isinstance(reds, bool):
        raise ValueError(f"red 3s held: 0, 1 or 2 between draws (the third is lost, ADP-4.2), not {reds!r}")
    if not isinstance(points, int) or isinstance(points, bool) or not 3 * reds <= points <= 1000:
        raise ValueError(f"points held: a whole number of at least {3 * reds} with {reds} red 3s, not {points!r}")
    return points, reds  # type: ignore[return-value]


def _goal(goal: object) -> int:
    if not isinstance(goal, int) or isinstance(goal, bool) or not 0 <= goal <= MAX_GOAL:
        raise ValueError(f"target: a whole number of points from 0 to {MAX_GOAL}, not {goal!r}")
    return goal


def draws(pile: Cards, reserve: Cards) -> Iterator[tuple[int, Fraction, Cards, Cards]]:
    """The next card: (value, chance, pile after, reserve after); an empty pile is replaced by the reserve (the
    discard, shuffled, ADP-4.3). Nothing when both are empty."""
    if not sum(pile):
        pile, reserve = reserve, (0, 0, 0)
    total = sum(pile)
    for kind, count in enumerate(pile):
        if count:
            after = tuple(n - (index == kind) for index, n in enumerate(pile))
            yield kind + 1, Fraction(count, total), after, reserve  # type: ignore[misc]


@lru_cache(maxsize=400_000)
def _points_value(reds: int, pile: Cards, reserve: Cards) -> Fraction:
    """Best expected gain from here on, stopping allowed (worth 0)."""
    return max(Fraction(0), _points_draw(reds, pile, reserve))


@lru_cache(maxsize=400_000)
def _points_draw(reds: int, pile: Cards, reserve: Cards) -> Fraction:
    """Expected gain of drawing one card now, then playing best for points (a bust loses the two red 3s held)."""
    gain = Fraction(0)
    for value, chance, after, rest in draws(pile, reserve):
        if value == 3 and reds == 2:
            gain += chance * -6
        else:
            gain += chance * (value + _points_value(reds + (value == 3), after, rest))
    return gain


@lru_cache(maxsize=400_000)
def _reach_value(goal: int, points: int, reds: int, pile: Cards, reserve: Cards) -> Fraction:
    """Best chance of ending the turn with at least ``goal`` points, stopping allowed."""
    if points >= goal:
        return Fraction(1)  # stopping is certain: nothing does better
    return _reach_draw(goal, points, reds, pile, reserve)


def _reach_draw(goal: int, points: int, reds: int, pile: Cards, reserve: Cards) -> Fraction:
    chance_total = Fraction(0)
    for value, chance, after, rest in draws(pile, reserve):
        if value == 3 and reds == 2:
            chance_total += chance * int(points - 6 >= goal)
        else:
            chance_total += chance * _reach_value(goal, points + value, reds + (value == 3), after, rest)
    return chance_total


@dataclasses.dataclass(frozen=True)
class Choice:
    """The optimal choice for one objective: ``draw`` (else stop), with the exact value of each."""

    objective: str
    goal: int | None
    draw: bool
    value_if_draw: Fraction | None  # None: no card is left to draw
    value_if_stop: Fraction

    @property
    def best(self) -> Fraction:
        return self.value_if_stop if self.value_if_draw is None else max(self.value_if_draw, self.value_if_stop)


def choose(objective: str, points: int, reds: int, pile: Cards, reserve: Cards = (0, 0, 0), goal: int = 4) -> Choice:
    """The exactly optimal choice, draw one more card or stop, for ``objective`` ("reach" ``goal`` points this
    turn, or the most "points" on average). Ties go to stopping (no risk for nothing)."""
    points, reds = _hand(points, reds)
    pile, reserve = _cards(pile, "pile"), _cards(reserve, "discard")
    if objective == "points":
        stop = Fraction(points)
        draw = points + _points_draw(reds, pile, reserve) if sum(pile) + sum(reserve) else None
        return Choice("points", None, draw is not None and draw > stop, draw, stop)
    if objective == "reach":
        goal = _goal(goal)
        stop = Fraction(int(points >= goal))
        draw = _reach_draw(goal, points, reds, pile, reserve) if sum(pile) + sum(reserve) else None
        return Choice("reach", goal, draw is not None and draw > stop, draw, stop)
    raise ValueError(f"objective: one of {', '.join(OBJECTIVES)}, not {objective!r}")


def next_bust(reds: int, pile: Cards, reserve: Cards = (0, 0, 0)) -> Fraction:
    """Chance that the very next card is a third red 3 (0 unless two are held)."""
    _hand(3 * reds, reds)
    if reds < 2:
        return Fraction(0)
    return sum(
        (chance for value, chance, _, _ in draws(_cards(pile, "pile"), _cards(reserve, "discard")) if value == 3),
        Fraction(0),
    )


def reach(goal: int, points: int, reds: int, pile: Cards, reserve: Cards = (0, 0, 0)) -> Fraction:
    """Chance to hold at least ``goal`` points this turn, drawing until there (the best play for that goal)."""
    points, reds = _hand(points, reds)
    return _reach_value(_goal(goal), points, reds, _cards(pile, "pile"), _cards(reserve, "discard"))


def policy(
    objective: str, pile: Cards, reserve: Cards = (0, 0, 0), goal: int = 4, max_points: int = 20
) -> dict[tuple[int, int], Choice]:
    """The optimal choice for every hand (points held, red 3s held) with these cards left: the policy chart's data.
    A hand with r red 3s holds at least 3r points."""
    return {
        (points, reds): choose(objective, points, reds, pile, reserve, goal)
        for reds in (0, 1, 2)
        for points in range(3 * reds, max_points + 1)
    }


@dataclasses.dataclass(frozen=True)
class Advice:
    """Everything the advisor says about the hand of the player whose turn it is."""

    player: int
    points: int
    reds: int
    pile: Cards
    reserve: Cards
    drawn: int  # cards drawn this turn: before the first, the choice is to draw or not (fly), ADP-C4
    fly_minimum: int
    goal: int
    bust_next: Fraction
    reach_fly: Fraction
    reach_goal: Fraction
    for_reach: Choice
    for_points: Choice


def cards_left(state: State) -> tuple[Cards, Cards]:
    """The pile and, behind it, the discard that becomes the next pile when it runs out (ADP-4.3)."""
    if not sum(state.pile):
        return state.discard, (0, 0, 0)
    return state.pile, state.discard


def advise(state: State, goal: int | None = None, player: int | None = None) -> Advice:
    """The advisor on a position: the hand of ``player`` (default: whose turn it is) against the live pile and
    discard, for the flying minimum and ``goal`` points (default: the flying minimum)."""
    player = state.turn_player if player is None else player
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < state.players:
        raise ValueError(f"player: a seat from 0 to {state.players - 1}, not {player!r}")
    config: Config = state.config
    goal = config.fly_minimum if goal is None else _goal(goal)
    hand = state.hands[player]
    points, reds = hand_points(hand), hand[RED]
    pile, reserve = cards_left(state)
    return Advice(
        player=player,
        points=points,
        reds=reds,
        pile=pile,
        reserve=reserve,
        drawn=state.drawn if player == state.turn_player else 0,
        fly_minimum=config.fly_minimum,
        goal=goal,
        bust_next=next_bust(reds, pile, reserve),
        reach_fly=reach(config.fly_minimum, points, reds, pile, reserve),
        reach_goal=reach(goal, points, reds, pile, reserve),
        for_reach=choose("reach", points, reds, pile, reserve, goal),
        for_points=choose("points", points, reds, pile, reserve),
    )


def chance_text(chance: Fraction) -> str:
    """A chance in words: exact as a fraction when it is short ('3/13, 23.1 %'), else a percent with one decimal."""
    if chance == 0:
        return "0 (no chance)"
    if chance == 1:
        return "1 (certain)"
    if chance.denominator <= 1000:
        return f"{chance.numerator}/{chance.denominator} ({float(chance) * 100:.1f} %)"
    return f"{float(chance) * 100:.1f} %"


def points_text(value: Fraction) -> str:
    """Points on average: exact when it is a short fraction, else one decimal."""
    if value.denominator == 1:
        return f"{value.numerator} point{'' if value.numerator == 1 else 's'}"
    if value.denominator <= 100:
        return f"{value.numerator}/{value.denominator} = {float(value):.1f} points"
    return f"{float(value):.1f} points"
