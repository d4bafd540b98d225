"""Exact distributions shared by the games: dice and draws from a multiset, all as ``Fraction``."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from math import comb, prod


@cache
def sorted_dice(count: int, sides: int = 6) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """All results of ``count`` dice sorted high to low, each with its exact probability."""
    if count < 0 or sides < 1:
        raise ValueError(f"cannot roll {count} dice with {sides} sides")
    tally: Counter[tuple[int, ...]] = Counter()
    for roll in itertools.product(range(1, sides + 1), repeat=count):
        tally[tuple(sorted(roll, reverse=True))] += 1
    total = sides**count
    return tuple((roll, Fraction(n, total)) for roll, n in sorted(tally.items(), reverse=True))


def draw_distribution(counts: Mapping[object, int], draws: int) -> dict[tuple[tuple[object, int], ...], Fraction]:
    """Drawing ``draws`` items without replacement from a multiset: probability of each sub-multiset.

    Keys are sorted ``(kind, how many)`` tuples (kinds drawn zero times left out)."""
    kinds = [kind for kind, n in counts.items() if n > 0]
    total = sum(counts[kind] for kind in kinds)
    if draws < 0 or draws > total:
        raise ValueError(f"cannot draw {draws} from {total} items")
    result: dict[tuple[tuple[object, int], ...], Fraction] = {}
    denominator = comb(total, draws)

    def spread(index: int, left: int, chosen: list[tuple[object, int]]) -> None:
        if index == len(kinds):
            if left == 0:
                ways = prod(comb(counts[kind], n) for kind, n in chosen)
                key = tuple(sorted(((kind, n) for kind, n in chosen if n), key=lambda kn: str(kn[0])))
                result[key] = result.get(key, Fraction(0)) + Fraction(ways, denominator)
            return
        kind = kinds[index]
        for n in range(min(left, counts[kind]) + 1):
            spread(index + 1, left - n, chosen + [(kind, n)])

    spread(0, draws, [])
    return result
