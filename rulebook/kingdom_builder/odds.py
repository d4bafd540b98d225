"""Exact odds for Kingdom Builder's chance events: which terrain cards a player will draw, and what they allow now."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb

from .rules import TERRAINS, State, _adjacent_choice, short


def _drawers(state: State, events: int) -> list[tuple[int, bool]]:
    """The next ``events`` card draws as ``(player, discards first)``, in table order from this state."""
    n = state.players
    order: list[tuple[int, bool]] = []
    if state.drawing is not None:
        order.append((state.drawing, False))
        if state.after_draw == "deal":
            order.extend((p, False) for p in range(state.drawing + 1, n))
            following = 0
        elif state.after_draw == "replace":
            following = state.drawing
        else:
            following = (state.drawing + 1) % n
    else:
        following = state.player if state.player is not None else 0
    while len(order) < events:
        order.append((following, True))
        following = (following + 1) % n
    return order[:events]


def terrain_within(state: State, player: int, terrain: str, draws: int) -> Fraction:
    """Exact chance that at least one of ``player``'s next ``draws`` terrain cards is ``terrain``.

    Follows the real card flow: every player discards at the end of the turn and draws, and the discards
    are reshuffled into a new pile when it runs out (KB-C3). It sees the whole table (pile, discards and
    hands), as a referee would; replacing useless cards (KB-C4) is left out."""
    if terrain not in TERRAINS:
        raise ValueError(f"unknown terrain {short(terrain)} (terrains: {', '.join(TERRAINS)})")
    if not 0 <= player < state.players:
        raise ValueError(f"player must be 0..{state.players - 1}, not {short(player)}")
    if draws <= 0 or state.finished:
        return Fraction(0)
    order = _drawers(state, draws * state.players + state.players)
    target = TERRAINS.index(terrain)
    hands = tuple(-1 if card is None else TERRAINS.index(card) for card in state.hands)

    def needed(event: int, left: int) -> int:
        """Draws from ``event`` on until the player has drawn ``left`` more cards."""
        for count, (drawer, _) in enumerate(order[event:], start=1):
            left -= drawer == player
            if left == 0:
                return count
        return len(order) + 1

    @cache
    def chance(
        event: int,
        left: int,
        pile: tuple[int, ...],
        discard: tuple[int, ...],
        held: tuple[int, ...],
    ) -> Fraction:
        if left == 0 or event == len(order):
            return Fraction(0)
        if needed(event, left) <= sum(pile):
            # No reshuffle before the last draw that matters: the player's cards are a uniform sample of the pile.
            total, others = sum(pile), sum(pile) - pile[target]
            return 1 - Fraction(comb(others, left), comb(total, left))
        drawer, discards = order[event]
        held_list = list(held)
        discard_list = list(discard)
        if discards and held_list[drawer] >= 0:
            discard_list[held_list[drawer]] += 1
            held_list[drawer] = -1
        pile_list = list(pile)
        if sum(pile_list) == 0:
            pile_list, discard_list = discard_list, [0] * len(TERRAINS)
        total = sum(pile_list)
        next_left = left - (drawer == player)
        if total == 0:
            return chance(event + 1, next_left, tuple(pile_list), tuple(discard_list), tuple(held_list))
        result = Fraction(0)
        for kind, count in enumerate(pile_list):
            if count == 0:
                continue
            share = Fraction(count, total)
            if drawer == player and kind == target:
                result += share
                continue
            after = list(pile_list)
            after[kind] -= 1
            now_held = list(held_list)
            now_held[drawer] = kind
            result += share * chance(event + 1, next_left, tuple(after), tuple(discard_list), tuple(now_held))
        return result

    return chance(0, draws, state.pile, state.discard, hands)


def next_card_odds(state: State) -> dict[str, Fraction]:
    """The chance of each terrain for the next card drawn from the pile (the discards if the pile is empty)."""
    counts = state.pile if sum(state.pile) else state.discard
    total = sum(counts)
    return {t: Fraction(n, total) if total else Fraction(0) for t, n in zip(TERRAINS, counts)}


def legal_hexes_by_terrain(state: State, player: int) -> dict[str, int]:
    """How many hexes ``player`` could build the first settlement on now, for a card of each terrain (KB-6.3)."""
    geometry = state.geometry
    return {t: len(_adjacent_choice(state, player, geometry.by_terrain[t])) for t in TERRAINS}
