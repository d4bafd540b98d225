"""What a player of Kingdom Builder cannot see, dealt again for the estimate's playouts (determinization, issue 29.1).

Hidden are the terrain cards in the hands of the players not on turn (each keeps their card to themselves until
their turn shows it: :func:`rules.view`). Public are the board, the supplies, the tiles, the card of the player on
turn, the discards and the cards removed, so the cards of the pile and the hidden hands together are known, not
which is where. :func:`redeal` keeps all that and draws every hidden hand again from those cards; the rest is the
pile. The pile has no order to shuffle: a draw is a chance node over its counts (``chance_outcomes``).

The hidden cards are taken as exchangeable with the pile's, as they are while no reshuffle (KB-C4) came between a
hidden card's draw and now; after one, a table that counted could know a little more (the reshuffled pile's cards
were the discards).
"""

from __future__ import annotations

import random

from . import rules
from .rules import TERRAINS, State


def hidden_seats(state: State, viewer: int | None) -> list[int]:
    """The seats whose card ``viewer`` (a seat, or None: an onlooker) cannot see, as :func:`rules.view` hides them."""
    return [
        seat
        for seat, card in enumerate(state.hands)
        if card is not None and seat != viewer and not (seat == state.player)
    ]


def redeal(state: State, viewer: int | None, rng: random.Random) -> State:
    """``state`` with the cards ``viewer`` cannot see drawn again from the pile and those cards (the same number of
    cards in each hand, the pile's counts the rest)."""
    if not isinstance(state, State):
        raise ValueError(f"a Kingdom Builder position, not {type(state).__name__}")
    if viewer is not None and (
        not isinstance(viewer, int) or isinstance(viewer, bool) or not 0 <= viewer < state.players
    ):
        raise ValueError(f"no seat {viewer!r}: seats are 0 to {state.players - 1} (or None for an onlooker)")
    seats = hidden_seats(state, viewer)
    if not seats:
        return state
    unseen = [terrain for terrain, count in zip(TERRAINS, state.pile) for _ in range(count)]
    unseen += [state.hands[seat] for seat in seats]
    unseen.sort()  # the deal depends on which cards are unseen, never on who truly holds them
    rng.shuffle(unseen)
    hands = list(state.hands)
    for seat, card in zip(seats, unseen):
        hands[seat] = card
    rest = unseen[len(seats) :]
    pile = tuple(rest.count(terrain) for terrain in TERRAINS)
    return rules._replace(state, hands=tuple(hands), pile=pile)
