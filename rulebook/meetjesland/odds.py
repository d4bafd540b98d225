"""Exact odds of Verover het Meetjesland: dice rolls, whole battles, chains of attacks and card trades.

A battle is the classic Risk battle in Osborne's convention: ``stake`` is the attacking army (the point left
behind on the origin is not part of it).  Every roll removes 1 or 2 points, so the chain of battle states is
acyclic and one pass over the (stake, defenders) grid solves it.  Exact answers are ``Fraction``; the float
paths are vectorised with numpy along anti-diagonals of the grid where numpy is installed, and run as plain loops
where it is not (Pyodide in the browser has no numpy): the loops do the same operations in the same order, so both
paths give the same floats to the last bit.  ``USE_NUMPY`` chooses the path; tests set it to try each one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from rulebook.probability import draw_distribution, sorted_dice

from .rules import BREWERY, Config, resolve_roll

# MJ-C3 (clarification): the 44 cards are the 44 territory cards, and the Ertvelde card (green) is the Brewery
# Van Steenberge card, so green keeps 8 coloured cards.  See ../shared/reference/meetjesland.md, section 1.
FULL_DECK: Mapping[str, int] = {
    "red": 8,
    "yellow": 4,
    "blue": 10,
    "green": 8,
    "orange": 8,
    "mauve": 5,
    BREWERY: 1,
}

# Trade values from the rules text: Brewery card alone 5, three colours 4, a pair and one other 6, three alike 8.
BREWERY_VALUE = Config().brewery_value
THREE_DIFFERENT_VALUE, PAIR_AND_ONE_VALUE, THREE_ALIKE_VALUE = Config().set_values

Probability = float | Fraction

try:
    import numpy as np
except ImportError:  # the browser's Python (Pyodide) has no numpy: the plain loops below stand in
    np = None  # type: ignore[assignment]

# The float passes use numpy when it imports; a test sets this to False to run the plain-Python path.
USE_NUMPY: bool = np is not None
# Whole numbers as arguments: numpy's integers too, where numpy is installed (whichever path computes).
_WHOLE: tuple[type, ...] = (int,) if np is None else (int, np.integer)


class Table(Sequence[tuple[Any, ...]]):
    """A grid indexed ``[stake, defenders]`` like an array (``[stake]`` is a row, slices give a sub-grid), which
    ``win_table`` returns where numpy is not used; ``tolist()`` gives nested lists, as an array's does."""

    __slots__ = ("_rows",)

    def __init__(self, rows: Any) -> None:
        self._rows = tuple(tuple(row) for row in rows)

    @property
    def shape(self) -> tuple[int, int]:
        return len(self._rows), (len(self._rows[0]) if self._rows else 0)

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, key: Any) -> Any:
        if not isinstance(key, tuple):
            rows = self._rows[key]
            return Table(rows) if isinstance(key, slice) else rows
        if len(key) != 2:
            raise IndexError(f"a Table has two axes [stake, defenders], not {len(key)}")
        stakes, defenders = key
        if isinstance(stakes, slice):
            picked = [row[defenders] for row in self._rows[stakes]]
            return Table(picked) if isinstance(defenders, slice) else tuple(picked)
        return self._rows[stakes][defenders]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Table) and self._rows == other._rows

    __hash__ = None  # type: ignore[assignment]  # equal by value, like a list

    def tolist(self) -> list[list[Any]]:
        return [list(row) for row in self._rows]

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        """``numpy.asarray(table)`` works too (numpy is imported only when asked for)."""
        import numpy

        return numpy.array(self.tolist(), dtype=dtype)

    def __repr__(self) -> str:
        return f"Table({self.tolist()!r})"


# --- single rolls -----------------------------------------------------------------------------------------------


@cache
def _roll_table(attacker_dice: int, defender_dice: int) -> tuple[tuple[int, int, Fraction], ...]:
    """Enumerated outcomes of one roll as ``(attacker_losses, defender_losses, probability)``, stable order."""
    if attacker_dice < 1 or defender_dice < 1:
        raise ValueError(f"a roll needs at least one die a side, not {attacker_dice} v {defender_dice}")
    tally: dict[tuple[int, int], Fraction] = {}
    for attack, p_attack in sorted_dice(attacker_dice):
        for defence, p_defence in sorted_dice(defender_dice):
            losses = resolve_roll(attack, defence)
            tally[losses] = tally.get(losses, Fraction(0)) + p_attack * p_defence
    return tuple((a, d, p) for (a, d), p in sorted(tally.items()))


def roll_outcomes(attacker_dice: int, defender_dice: int) -> dict[tuple[int, int], Fraction]:
    """Exact distribution of one roll's losses ``{(attacker_losses, defender_losses): probability}``."""
    return {(a, d): p for a, d, p in _roll_table(attacker_dice, defender_dice)}


def dice_for(stake: int, defenders: int) -> tuple[int, int]:
    """Dice rolled in a battle state: attacker min(stake, 3), defender 2 with at least 2 points, else 1."""
    return min(stake, 3), (2 if defenders >= 2 else 1)


def _transitions(stake: int, defenders: int) -> tuple[tuple[int, int, Fraction], ...]:
    return _roll_table(*dice_for(stake, defenders))


def _float_roll(attacker_dice: int, defender_dice: int) -> dict[tuple[int, int], float]:
    return {(a, d): float(p) for a, d, p in _roll_table(attacker_dice, defender_dice)}


# --- argument checks ---------------------------------------------------------------------------------------------


def _check_counts(**counts: int) -> None:
    for name, value in counts.items():
        if not isinstance(value, _WHOLE) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{name} must be a whole number >= 0, not {value!r}")


# --- win probabilities: backward pass over the grid ---------------------------------------------------------------


def _win_edges(max_stake: int, max_defenders: int, stop_at: int) -> tuple[list[float], dict[int, list[float]]]:
    """The grid's boundary, where the 3v2 recurrence does not hold: the column of one defender (by stake) and the
    rows of stakes 1 and 2 (those not broken off at ``stop_at``)."""
    rows, columns = max_stake + 1, max_defenders + 1
    first = stop_at + 1  # rows at or below stop_at are break-offs: P(conquest) = 0
    column = [0.0] * rows
    for stake in range(max(first, 1), rows):
        table = _float_roll(min(stake, 3), 1)
        column[stake] = table[(0, 1)] + table[(1, 0)] * column[stake - 1]
    edges: dict[int, list[float]] = {}
    if max_defenders < 2:
        return column, edges
    if first <= 1 and max_stake >= 1:  # one die against two: only a full win removes a defender
        p = _float_roll(1, 2)[(0, 1)]
        edges[1] = row = [1.0, column[1]] + [0.0] * (columns - 2)
        for defenders in range(2, columns):
            row[defenders] = p * row[defenders - 1]
    if first <= 2 and max_stake >= 2:
        table = _float_roll(2, 2)
        one = edges.get(1, [1.0, column[1]] + [0.0] * (columns - 2))
        edges[2] = row = [1.0, column[2]] + [0.0] * (columns - 2)
        for defenders in range(2, columns):
            row[defenders] = table[(0, 2)] * row[defenders - 2] + table[(1, 1)] * one[defenders - 1]
    return column, edges


def _win_grid_float(max_stake: int, max_defenders: int, stop_at: int = 0) -> Any:
    """P(conquest) for every start ``[stake, defenders]`` up to the maxima, in one O(N·M) float pass: a numpy
    array, or (without numpy) a list of row lists holding the same floats."""
    rows, columns = max_stake + 1, max_defenders + 1
    column, edges = _win_edges(max_stake, max_defenders, stop_at)
    first_interior = max(3, stop_at + 1)
    if USE_NUMPY:
        win = np.zeros((rows, columns))
        win[1:, 0] = 1.0
        if columns > 1:
            win[:, 1] = column
        for stake, row in edges.items():
            win[stake, :] = row
        if max_defenders >= 2:
            _interior_backward(win, first_interior)
        return win
    grid = [[0.0] * columns for _ in range(rows)]
    for stake, row in enumerate(grid):
        row[0] = float(stake > 0)
        if columns > 1:
            row[1] = column[stake]
    for stake, row in edges.items():
        grid[stake] = row
    if max_defenders >= 2:
        _interior_backward_python(grid, first_interior)
    return grid


def _interior_backward(win: np.ndarray, first_stake: int) -> None:
    """Fill cells stake >= first_stake, defenders >= 2 with the 3v2 recurrence, one anti-diagonal at a time: each
    anti-diagonal is one strided slice of the flat array."""
    rows, columns = win.shape
    max_stake, max_defenders = rows - 1, columns - 1
    table = _float_roll(3, 2)
    q0, q1, q2 = table[(0, 2)], table[(1, 1)], table[(2, 0)]
    flat = win.reshape(-1)
    step = max_defenders  # moving one stake up and one defender down along an anti-diagonal
    for total in range(first_stake + 2, max_stake + max_defenders + 1):
        low, high = max(first_stake, total - max_defenders), min(max_stake, total - 2)
        if low > high:
            continue
        start, stop = low * step + total, high * step + total + 1
        target = flat[start:stop:step]
        np.multiply(flat[start - 2 : stop - 2 : step], q0, out=target)
        target += q1 * flat[start - columns - 1 : stop - columns - 1 : step]
        target += q2 * flat[start - 2 * columns : stop - 2 * columns : step]


def _interior_backward_python(win: list[list[float]], first_stake: int) -> None:
    """:func:`_interior_backward` as plain loops: the same products and sums in the same order, so the same floats
    (a cell needs only cells of smaller stake+defenders, so rows in order are as good as anti-diagonals)."""
    table = _float_roll(3, 2)
    q0, q1, q2 = table[(0, 2)], table[(1, 1)], table[(2, 0)]
    for stake in range(first_stake, len(win)):
        row, down, down2 = win[stake], win[stake - 1], win[stake - 2]
        for defenders in range(2, len(row)):
            row[defenders] = q0 * row[defenders - 2] + q1 * down[defenders - 1] + q2 * down2[defenders]


def _win_grid_exact(max_stake: int, max_defenders: int, stop_at: int = 0) -> list[list[Fraction]]:
    """The same grid in exact Fractions (slow: denominators grow like 6**k; meant for tests and small tables)."""
    win = [[Fraction(0)] * (max_defenders + 1) for _ in range(max_stake + 1)]
    for stake in range(1, max_stake + 1):
        win[stake][0] = Fraction(1)
        if stake <= stop_at:
            continue
        for defenders in range(1, max_defenders + 1):
            win[stake][defenders] = sum(
                (p * win[stake - a][defenders - d] for a, d, p in _transitions(stake, defenders)), Fraction(0)
            )
    return win


def win_table(max_stake: int, max_defenders: int, exact: bool = False) -> Any:
    """Win probabilities indexed ``[stake, defenders]`` for every start up to the maxima, in one O(N²) pass.

    Floats by default; ``exact=True`` gives Fractions (slow beyond ~40). A numpy array (of objects when exact), or
    without numpy a :class:`Table` holding the same numbers."""
    _check_counts(max_stake=max_stake, max_defenders=max_defenders)
    if exact:
        rows = _win_grid_exact(max_stake, max_defenders)
        if not USE_NUMPY:
            return Table(rows)
        grid = np.empty((max_stake + 1, max_defenders + 1), dtype=object)
        grid[:, :] = rows
        return grid
    grid = _win_grid_float(max_stake, max_defenders)
    return grid if USE_NUMPY else Table(grid)


def win_probability(stake: int, defenders: int, stop_at: int = 0, exact: bool = False) -> Probability:
    """P(the attacker conquers) with ``stake`` points against ``defenders``, breaking off at ``stop_at`` left."""
    _check_counts(stake=stake, defenders=defenders, stop_at=stop_at)
    if defenders == 0:
        return Fraction(int(stake > 0)) if exact else float(stake > 0)
    if stake <= stop_at:
        return Fraction(0) if exact else 0.0
    if exact:
        return _win_grid_exact(stake, defenders, stop_at)[stake][defenders]
    return float(_win_grid_float(stake, defenders, stop_at)[stake][defenders])


# --- terminal distributions: forward pass from the start ---------------------------------------------------------


def _forward_float(mass: Any, stop_at: int) -> Any:
    """Push probability mass from every live state to the terminal states, highest stake+defenders first: ``mass``
    is a numpy array, or (without numpy) a list of row lists, changed in place and returned."""
    max_stake, max_defenders = len(mass) - 1, len(mass[0]) - 1
    table = _float_roll(3, 2)
    q0, q1, q2 = table[(0, 2)], table[(1, 1)], table[(2, 0)]
    first_interior = max(3, stop_at + 1)
    flat, step, columns = (mass.reshape(-1), max_defenders, max_defenders + 1) if USE_NUMPY else (None, 0, 0)
    for total in range(max_stake + max_defenders, 1, -1):
        # boundary states on this anti-diagonal: stake 1 or 2, or a single defender
        boundary = {(stake, total - stake) for stake in (1, 2)} | {(total - 1, 1)}
        for stake, defenders in boundary:
            if stop_at < stake <= max_stake and 1 <= defenders <= max_defenders and mass[stake][defenders]:
                here = mass[stake][defenders]
                for (a, d), p in _float_roll(*dice_for(stake, defenders)).items():
                    mass[stake - a][defenders - d] += here * p
        if max_defenders < 2:
            continue
        low, high = max(first_interior, total - max_defenders), min(max_stake, total - 2)
        if low > high:
            continue
        if flat is None:
            # as the slices below: a cell two lower receives q0 from stake s, then q1 from s+1, then q2 from s+2
            for stake in range(low, high + 1):
                defenders = total - stake
                here = mass[stake][defenders]
                mass[stake][defenders - 2] += q0 * here
                mass[stake - 1][defenders - 1] += q1 * here
                mass[stake - 2][defenders] += q2 * here
            continue
        start, stop = low * step + total, high * step + total + 1
        source = flat[start:stop:step]
        flat[start - 2 : stop - 2 : step] += q0 * source
        flat[start - columns - 1 : stop - columns - 1 : step] += q1 * source
        flat[start - 2 * columns : stop - 2 * columns : step] += q2 * source
    return mass


def _ends_float(starts: Mapping[int, float], defenders: int, stop_at: int) -> dict[tuple[int, int], float]:
    """Terminal distribution in floats of battles against ``defenders`` starting from each stake with its
    probability in ``starts`` (one battle, or the next link of a chain)."""
    top = max(starts)
    mass = np.zeros((top + 1, defenders + 1)) if USE_NUMPY else [[0.0] * (defenders + 1) for _ in range(top + 1)]
    for stake, p in starts.items():
        mass[stake][defenders] = p
    _forward_float(mass, stop_at)
    return {(s, d): float(mass[s][d]) for s, d in _terminal_cells(top, defenders, stop_at) if mass[s][d] > 0}


def _terminal_cells(stake: int, defenders: int, stop_at: int) -> list[tuple[int, int]]:
    """Where a battle can end: conquest (defenders 0) or break-off/defeat (stake at or below stop_at)."""
    cells = [(left, 0) for left in range(1, stake + 1)]
    cells += [(left, held) for left in range(min(stop_at, stake) + 1) for held in range(1, defenders + 1)]
    return cells


def _forward_exact(start: Mapping[tuple[int, int], Fraction], stop_at: int) -> dict[tuple[int, int], Fraction]:
    layers: dict[int, dict[tuple[int, int], Fraction]] = {}
    for (stake, defenders), p in start.items():
        layer = layers.setdefault(stake + defenders, {})
        layer[(stake, defenders)] = layer.get((stake, defenders), Fraction(0)) + p
    result: dict[tuple[int, int], Fraction] = {}
    for total in range(max(layers, default=0), -1, -1):
        for (stake, defenders), p in sorted(layers.pop(total, {}).items()):
            if defenders == 0 or stake <= stop_at:
                result[(stake, defenders)] = result.get((stake, defenders), Fraction(0)) + p
                continue
            for a, d, q in _transitions(stake, defenders):
                layer = layers.setdefault(total - a - d, {})
                key = (stake - a, defenders - d)
                layer[key] = layer.get(key, Fraction(0)) + p * q
    return result


def battle_outcomes(
    stake: int, defenders: int, stop_at: int = 0, exact: bool = False
) -> dict[tuple[int, int], Probability]:
    """Terminal distribution ``{(attacker_left, defender_left): probability}`` of one battle.

    Floats by default (a 100 v 100 battle in a few ms); exact Fractions with ``exact=True``.  The attacker
    breaks off as soon as the remaining stake is at most ``stop_at`` (0: fight to the end)."""
    _check_counts(stake=stake, defenders=defenders, stop_at=stop_at)
    if exact:
        return dict(sorted(_forward_exact({(stake, defenders): Fraction(1)}, stop_at).items()))
    if defenders == 0 or stake <= stop_at:
        return {(stake, defenders): 1.0}
    return _ends_float({stake: 1.0}, defenders, stop_at)


def expected_left(stake: int, defenders: int, stop_at: int = 0, exact: bool = False) -> tuple[Probability, Probability]:
    """Expected points left ``(attacker, defender)`` at the end of a battle (losses are the start minus these)."""
    outcomes = battle_outcomes(stake, defenders, stop_at, exact)
    zero = Fraction(0) if exact else 0.0
    attacker = sum((left * p for (left, _), p in outcomes.items()), zero)
    defender = sum((held * p for (_, held), p in outcomes.items()), zero)
    return attacker, defender


# --- chains of attacks -------------------------------------------------------------------------------------------


def chain_outcomes(
    stake: int, defenders_along_path: Sequence[int], exact: bool = False
) -> dict[tuple[int, int, int], Probability]:
    """Distribution of ``(territories_conquered, attacker_left, defender_left)`` for attacks along a path.

    After each conquest 1 point stays behind and the other survivors attack the next territory; the last one
    takes all survivors.  On failure ``attacker_left`` is 0 and ``defender_left`` is what holds the next one."""
    _check_counts(stake=stake)
    path = list(defenders_along_path)
    for index, defenders in enumerate(path):
        if not isinstance(defenders, _WHOLE) or defenders < 1:
            raise ValueError(f"territory {index} on the path must hold at least 1 point, not {defenders!r}")
    one: Probability = Fraction(1) if exact else 1.0
    stakes: dict[int, Probability] = {stake: one} if stake >= 1 else {}
    result: dict[tuple[int, int, int], Probability] = {}
    if stake < 1 and path:
        result[(0, 0, path[0])] = one
    for index, defenders in enumerate(path):
        if not stakes:
            break
        if exact:
            ends = _forward_exact({(s, defenders): p for s, p in stakes.items()}, 0)
        else:
            ends = _ends_float(stakes, defenders, 0)
        stakes = {}
        last = index == len(path) - 1
        for (left, held), p in ends.items():
            if held:
                result[(index, 0, held)] = result.get((index, 0, held), 0) + p
            elif last:
                result[(index + 1, left, 0)] = result.get((index + 1, left, 0), 0) + p
            elif left == 1:  # the only survivor stays in the conquered territory: the chain stops here
                key = (index + 1, 0, path[index + 1])
                result[key] = result.get(key, 0) + p
            else:
                stakes[left - 1] = stakes.get(left - 1, 0) + p
    if not path:
        result[(0, stake, 0)] = one
    return dict(sorted(result.items()))


def chain_win_probability(stake: int, defenders_along_path: Sequence[int], exact: bool = False) -> Probability:
    """P(conquering every territory of the path in turn), leaving 1 point in each conquered one."""
    count = len(defenders_along_path)
    zero = Fraction(0) if exact else 0.0
    outcomes = chain_outcomes(stake, defenders_along_path, exact)
    return sum((p for (conquered, _, _), p in outcomes.items() if conquered == count), zero)


def smallest_stake(defenders: int | Sequence[int], target_probability: float, stop_at: int = 0) -> int:
    """The smallest stake whose win probability reaches the target; a sequence of defenders means a chain.

    Float arithmetic; the search doubles the stake and raises ``ValueError`` past 2**16 points."""
    if not 0 < target_probability < 1:
        raise ValueError(f"target probability must lie strictly between 0 and 1, not {target_probability!r}")
    chain = not isinstance(defenders, _WHOLE)
    if chain:
        path = list(defenders)
        if stop_at:
            raise ValueError("stop_at is only defined for a single battle, not for a chain")

        def reaches(stake: int) -> bool:
            return chain_win_probability(stake, path) >= target_probability

        low, high = 0, 1
        while not reaches(high):
            low, high = high, high * 2
            if high > 1 << 16:
                raise ValueError(f"no stake up to {1 << 16} reaches {target_probability} against {path}")
        while high - low > 1:  # chain odds rise with the stake: binary search between low (fails) and high
            middle = (low + high) // 2
            low, high = (low, middle) if reaches(middle) else (middle, high)
        return high
    _check_counts(defenders=defenders, stop_at=stop_at)
    if defenders == 0:
        return 1
    size = max(8, 2 * defenders + stop_at)
    while size <= 1 << 16:
        grid = _win_grid_float(size, defenders, stop_at)
        if USE_NUMPY:
            hits = np.nonzero(grid[:, defenders] >= target_probability)[0]
            first = int(hits[0]) if hits.size else None
        else:
            first = next((stake for stake, row in enumerate(grid) if row[defenders] >= target_probability), None)
        if first is not None:
            return first
        size *= 2
    raise ValueError(f"no stake up to {1 << 16} reaches {target_probability} against {defenders}")


# --- cards -------------------------------------------------------------------------------------------------------


def best_trade_value(cards: Sequence[str]) -> int:
    """The most points one trade of these cards gives (0 when none): Brewery 5, 3 colours 4, pair+1 6, 3 alike 8."""
    # MJ-4.7 as the engine reads it: the Brewery card is traded alone and is no joker inside a coloured set.
    colours = Counter(card for card in cards if card != BREWERY)
    values = [0]
    if BREWERY in cards:
        values.append(BREWERY_VALUE)
    if colours and max(colours.values()) >= 3:
        values.append(THREE_ALIKE_VALUE)
    if len(colours) >= 2 and max(colours.values()) >= 2:
        values.append(PAIR_AND_ONE_VALUE)
    if len(colours) >= 3:
        values.append(THREE_DIFFERENT_VALUE)
    return max(values)


def set_odds(k: int, deck: Mapping[str, int] = FULL_DECK, hand: Sequence[str] = ()) -> dict[int, Fraction]:
    """Exact distribution of the best trade value held after drawing ``k`` cards from ``deck`` onto ``hand``.

    ``deck`` holds the cards still to be drawn (the hand is not in it); keys are colours and ``"brewery"``."""
    _check_counts(k=k)
    for colour, count in deck.items():
        if not isinstance(colour, str) or not isinstance(count, int) or count < 0:
            raise ValueError(f"deck entry {colour!r}: {count!r} must be a colour name with a count >= 0")
    for card in hand:
        if not isinstance(card, str):
            # house rule: malformed input raises ValueError, also for a wrong type
            raise ValueError(f"hand card {card!r} is not a colour name")  # noqa: TRY004
    result: dict[int, Fraction] = {}
    for drawn, p in draw_distribution(deck, k).items():
        cards = list(hand) + [colour for colour, count in drawn for _ in range(count)]
        value = best_trade_value(cards)
        result[value] = result.get(value, Fraction(0)) + p
    return dict(sorted(result.items()))


def tradeable_probability(k: int, deck: Mapping[str, int] = FULL_DECK, hand: Sequence[str] = ()) -> Fraction:
    """Exact chance that ``hand`` plus ``k`` cards drawn from ``deck`` allow at least one trade."""
    return 1 - set_odds(k, deck, hand).get(0, Fraction(0))


# --- the explorer's summaries ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackOdds:
    """One attack in numbers: the chance to take the territory, the expected losses of both sides, and the full
    distribution of ``(attacker_left, defender_left)`` it comes from (``battle_outcomes``)."""

    stake: int
    defenders: int
    stop_at: int
    outcomes: Mapping[tuple[int, int], Probability]
    conquest: Probability
    attacker_losses: Probability
    defender_losses: Probability

    @property
    def beaten(self) -> Probability:
        """The chance that the whole stake is lost (the attack ends with 0 points left)."""
        return sum((p for (left, held), p in self.outcomes.items() if held and not left), 0 * self.conquest)

    @property
    def broken_off(self) -> Probability:
        """The chance that the attacker breaks off under the stop rule with points left to bring home."""
        return sum((p for (left, held), p in self.outcomes.items() if held and left), 0 * self.conquest)


def attack_odds(stake: int, defenders: int, stop_at: int = 0, exact: bool = False) -> AttackOdds:
    """Chance to conquer and expected losses of a battle of ``stake`` against ``defenders``, breaking off when the
    stake is down to ``stop_at`` points (0: fight to the end).  Losses count the points taken off the board: the
    attacker's stake minus what moves in or comes home, the defender's points minus what still holds."""
    _check_counts(stake=stake, defenders=defenders, stop_at=stop_at)
    outcomes = battle_outcomes(stake, defenders, stop_at, exact)
    zero = Fraction(0) if exact else 0.0
    conquest = sum((p for (left, held), p in outcomes.items() if held == 0 and left > 0), zero)
    attacker_left, defender_left = expected_left(stake, defenders, stop_at, exact)
    return AttackOdds(stake, defenders, stop_at, outcomes, conquest, stake - attacker_left, defenders - defender_left)


@dataclass(frozen=True)
class ChainOdds:
    """A chain of attacks in numbers: ``reached[i]`` is the chance to have taken the first ``i + 1`` territories
    (so ``reached[-1]`` takes them all), and ``stakes`` the smallest stake for each chance asked for."""

    stake: int
    defenders: tuple[int, ...]
    reached: tuple[Probability, ...]
    stakes: Mapping[float, int]

    @property
    def all_taken(self) -> Probability:
        return self.reached[-1] if self.reached else 1


CHAIN_TARGETS = (0.5, 0.75, 0.9)


def chain_odds(
    stake: int, defenders_along_path: Sequence[int], targets: Sequence[float] = CHAIN_TARGETS, exact: bool = False
) -> ChainOdds:
    """The chance to take each territory of a path in turn with ``stake`` points, leaving one point in each, and
    the smallest stake that takes them all with each chance in ``targets``."""
    path = tuple(defenders_along_path)
    outcomes = chain_outcomes(stake, path, exact)
    zero = Fraction(0) if exact else 0.0
    reached = tuple(
        sum((p for (conquered, _, _), p in outcomes.items() if conquered >= position), zero)
        for position in range(1, len(path) + 1)
    )
    stakes = {target: smallest_stake(path, target) for target in targets} if path else {}
    return ChainOdds(stake, path, reached, stakes)
