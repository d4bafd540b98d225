"""Kingdom Builder card odds (issue 13.3): the exact odds against a plain step-by-step enumeration of the card flow,
on small decks where the pile is reshuffled several times, and hand counts."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from functools import cache

import pytest

from rulebook import kingdom_builder as kb
from rulebook.kingdom_builder import odds
from rulebook.kingdom_builder.rules import TERRAINS

HEADER = "sections: tavern paddock oasis farm\ncards: fishermen knights merchants\nplayers: {players}\n"
EMPTY = "\n".join(["." * 20] * 20) + "\n"


def table(players: int, hands: tuple, pile: tuple, discard: tuple) -> kb.State:
    """A position at the start of player 0's turn with the given hands, pile and discards (the rest removed)."""
    state = kb.from_diagram(HEADER.format(players=players) + EMPTY, hands=hands)
    held = [sum(card == t for card in hands) for t in TERRAINS]
    removed = tuple(5 - p - d - h for p, d, h in zip(pile, discard, held))
    assert min(removed) >= 0
    return dataclasses.replace(state, pile=pile, discard=discard, removed=removed)


def own_sequences(state: kb.State, player: int, draws: int) -> dict[tuple, Fraction]:
    """Independent enumeration: play the draws one by one (every player discards, then draws one card, each card in
    the pile equally likely; an empty pile takes the shuffled discards), and collect the chance of each sequence of
    ``player``'s next ``draws`` cards."""
    order = [((state.player + i) % state.players) for i in range(draws * state.players + 1)]

    @cache
    def walk(step: int, pile: tuple, discard: tuple, hands: tuple, seen: tuple) -> tuple:
        if len(seen) == draws:
            return ((seen, Fraction(1)),)
        drawer = order[step]
        hands_l, discard_l = list(hands), list(discard)
        if hands_l[drawer] is not None:
            discard_l.append(hands_l[drawer])
            hands_l[drawer] = None
        pile_l = list(pile)
        if not pile_l:
            pile_l, discard_l = discard_l, []
        if not pile_l:
            more = seen + (None,) if drawer == player else seen
            return walk(step + 1, (), tuple(sorted(discard_l)), tuple(hands_l), more)
        found: dict[tuple, Fraction] = {}
        for position, card in enumerate(pile_l):
            rest = tuple(sorted(pile_l[:position] + pile_l[position + 1 :]))
            new_hands = hands_l[:]
            new_hands[drawer] = card
            more = seen + (card,) if drawer == player else seen
            for sequence, chance in walk(step + 1, rest, tuple(sorted(discard_l)), tuple(new_hands), more):
                found[sequence] = found.get(sequence, Fraction(0)) + chance / len(pile_l)
        return tuple(found.items())

    pile = tuple(sorted(t for t, n in zip(TERRAINS, state.pile) for _ in range(n)))
    discard = tuple(sorted(t for t, n in zip(TERRAINS, state.discard) for _ in range(n)))
    return dict(walk(0, pile, discard, state.hands, ()))


SMALL = [
    # players, hands, pile, discard: decks of 5 to 9 cards, reshuffled once or more within 4 own draws
    (2, ("grass", "canyon"), (0, 0, 1, 1, 0), (1, 0, 0, 0, 1)),
    (3, ("grass", "desert", "forest"), (1, 1, 0, 0, 1), (0, 1, 1, 0, 0)),
    (4, ("grass", "grass", "flower", "forest"), (1, 0, 1, 1, 0), (0, 1, 0, 1, 1)),
    (3, ("canyon", "canyon", "canyon"), (2, 0, 0, 0, 0), (0, 0, 1, 0, 0)),
    (2, ("forest", "desert"), (0, 0, 0, 0, 0), (2, 1, 0, 1, 0)),  # the pile is empty: the first draw reshuffles
]


@pytest.mark.parametrize(("players", "hands", "pile", "discard"), SMALL)
def test_odds_match_the_step_by_step_enumeration_on_small_decks(players, hands, pile, discard):
    state = table(players, hands, pile, discard)
    draws = 4
    sequences = own_sequences(state, 0, draws)
    assert sum(sequences.values()) == 1
    cards = odds.own_card_odds(state, 0, draws, viewer=None)
    for nth in range(draws):
        for terrain in TERRAINS:
            expected = sum(c for seq, c in sequences.items() if seq[nth] == terrain)
            assert cards[nth][terrain] == expected, (nth, terrain)
    for terrain in TERRAINS:
        for k in range(1, draws + 1):
            expected = sum(c for seq, c in sequences.items() if terrain in seq[:k])
            assert odds.terrain_within(state, 0, terrain, k, viewer=None) == expected, (terrain, k)


def test_by_hand_two_players_one_reshuffle():
    # Pile: 1 grass. Orange holds desert, Blue flower; no discards, the rest is out of the game.
    # Orange discards desert, draws the grass (certain). Blue discards flower, the pile is empty: the discards
    # {desert, flower} become the pile, Blue draws one of them. Orange discards grass and draws: from the one card
    # left (desert or flower, 1/2 each). So Orange's cards: grass, then desert 1/2 or flower 1/2.
    state = table(2, ("desert", "flower"), (1, 0, 0, 0, 0), (0, 0, 0, 0, 0))
    first, second = odds.own_card_odds(state, 0, 2, viewer=None)
    assert first["grass"] == 1
    assert second == {"grass": 0, "canyon": 0, "desert": Fraction(1, 2), "flower": Fraction(1, 2), "forest": 0}
    assert odds.terrain_within(state, 0, "desert", 2, viewer=None) == Fraction(1, 2)
    assert odds.terrain_within(state, 0, "grass", 2, viewer=None) == 1


def test_a_full_deck_before_any_reshuffle_is_count_over_cards():
    state = kb.apply(kb.apply(kb.new_game(players=2, seed=1), kb.CardDrawn("grass")), kb.CardDrawn("forest"))
    # 23 cards in the pile: 4 grassland, 5 canyon, 5 desert, 5 flower field, 4 forest; every own card alike
    for card in odds.own_card_odds(state, 0, 6, viewer=None):
        assert card["grass"] == Fraction(4, 23) and card["canyon"] == Fraction(5, 23)
    # no grassland in 2 own draws: (19/23)(18/22)
    assert odds.terrain_within(state, 0, "grass", 2, viewer=None) == 1 - Fraction(19 * 18, 23 * 22)


def test_every_own_card_sums_to_one_in_a_four_player_game_with_two_reshuffles():
    state = kb.apply(kb.new_game(players=4, seed=3), kb.CardDrawn("grass"))
    for terrain in ("desert", "flower", "forest"):
        state = kb.apply(state, kb.CardDrawn(terrain))
    cards = odds.own_card_odds(state, 0, 12, viewer=None)  # 48 draws: the 21-card pile runs out twice
    assert all(sum(card.values()) == 1 for card in cards)
    within = [odds.terrain_within(state, 0, "canyon", k, viewer=None) for k in range(1, 13)]
    assert within == sorted(within) and within[-1] < 1


def test_legal_hexes_and_bad_input():
    state = kb.position({(9, 9): 0}, hands=("grass", "forest"))
    # (9,9) touches grassland at (9,8) (9,10) (8,9) (8,10) (10,9): those five, counted by hand on the board
    assert odds.legal_hexes(state, 0, "grass") == ((8, 9), (8, 10), (9, 8), (9, 10), (10, 9))
    assert odds.legal_hexes_by_terrain(state, 0)["grass"] == 5
    with pytest.raises(ValueError, match="unknown terrain"):
        odds.legal_hexes(state, 0, "swamp")
    with pytest.raises(ValueError, match="player must be"):
        odds.own_card_odds(state, 2, 3)
    with pytest.raises(ValueError, match="draws must be"):
        odds.terrain_within(state, 0, "grass", 99)
