"""Kingdom Builder's card odds from a player's own view (issue 48.7d): the others' hidden cards are unknown to the
player, so the odds average over every way they could have been dealt from the unseen cards; a referee sees all.
The Odds tab shows the player's view by default and a referee's on request, and says which one it shows."""

from __future__ import annotations

import dataclasses
import html
import re
from fractions import Fraction
from itertools import permutations

import pytest

from rulebook import kingdom_builder as kb
from rulebook.app import App
from rulebook.kingdom_builder import odds
from rulebook.kingdom_builder.explorer import REFEREE, Explorer
from rulebook.kingdom_builder.rules import TERRAINS
from rulebook.kingdom_builder.widget import Board

HEADER = "sections: tavern paddock oasis farm\ncards: fishermen knights merchants\nplayers: {players}\n"
EMPTY = "\n".join(["." * 20] * 20) + "\n"


def table(players: int, hands: tuple, pile: tuple, discard: tuple = (0,) * 5) -> kb.State:
    """Player 0 to move with the given hands, pile and discards; every other card is out of the game."""
    state = kb.from_diagram(HEADER.format(players=players) + EMPTY, hands=hands)
    held = [sum(card == t for card in hands) for t in TERRAINS]
    removed = tuple(5 - p - d - h for p, d, h in zip(pile, discard, held))
    assert state.player == 0 and min(removed) >= 0
    return dataclasses.replace(state, pile=pile, discard=discard, removed=removed)


def text(markup: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", markup)))


def test_by_hand_the_other_players_hidden_grass_card():
    """Two players; the pile holds one grassland and one forest; Blue (seat 1, not on turn) holds grassland.

    A referee knows Blue's card: the next card is one of the pile's two, grassland 1/2. Orange cannot see Blue's
    card: the unseen cards are {grass, forest, grass}, any one of them as likely to be Blue's. Blue holds a grass
    (2 of 3): the pile is {grass, forest}, grass next 1/2; Blue holds the forest (1 of 3): the pile is {grass,
    grass}, grass next 1. So for Orange: 2/3 * 1/2 + 1/3 * 1 = 2/3 (= 2 grass among the 3 unseen cards).
    Blue sees their own card, and Orange's is shown (Orange is on turn): Blue's view is the referee's, 1/2."""
    state = table(2, ("desert", "grass"), (1, 0, 0, 0, 1))
    assert odds.next_card_odds(state, viewer=None)["grass"] == Fraction(1, 2)
    assert odds.next_card_odds(state, viewer=0)["grass"] == Fraction(2, 3)
    assert odds.next_card_odds(state)["grass"] == Fraction(2, 3)  # default: the player to move, Orange
    assert odds.next_card_odds(state)["forest"] == Fraction(1, 3)
    assert odds.next_card_odds(state, viewer=1)["grass"] == Fraction(1, 2)
    # Orange draws the next card: their own next card, and at least once in 1 turn, are the same 2/3
    assert odds.own_card_odds(state, 0, 1)[0]["grass"] == Fraction(2, 3)
    assert odds.terrain_within(state, 0, "grass", 1) == Fraction(2, 3)
    assert odds.terrain_within(state, 0, "grass", 1, viewer=None) == Fraction(1, 2)
    assert odds.unseen_seats(state) == [1] and odds.unseen_seats(state, None) == []


def test_by_hand_no_desert_in_orange_next_two_cards_of_the_seed_7_game():
    """Seed 7: Orange (to move) holds desert, Blue grassland; the pile has 23 cards, 4 of them desert. Orange's
    next two cards are the 1st and 3rd of the pile. A referee: no desert in them (19/23)(18/22), at least one
    1 - 171/253 = 82/253. Orange: Blue's card is one of 24 unseen cards with 4 deserts, all exchangeable, so
    (20/24)(19/23) = 95/138 without, at least one 43/138; the next card desert 4/24 = 1/6."""
    state = Board(kb.new_game(players=2, seed=7, first_game=True), seed=7, computer=(1,)).state
    assert state.hands == ("desert", "grass") and sum(state.pile) == 23 and state.pile[TERRAINS.index("desert")] == 4
    assert odds.terrain_within(state, 0, "desert", 2, viewer=None) == Fraction(82, 253)
    assert odds.terrain_within(state, 0, "desert", 2) == Fraction(43, 138)
    assert odds.next_card_odds(state)["desert"] == Fraction(1, 6)


def brute_force(state: kb.State, viewer: int, player: int, draws: int) -> tuple[list[dict], dict[str, list]]:
    """The referee's odds averaged over every deal of the hidden hands, card by card: each ordered choice of
    distinct unseen cards for the hidden seats equally likely, the rest the pile."""
    hidden = [seat for seat in range(state.players) if seat not in (viewer, state.player)]
    unseen = [t for t, n in zip(TERRAINS, state.pile) for _ in range(n)] + [state.hands[seat] for seat in hidden]
    deals = list(permutations(range(len(unseen)), len(hidden)))
    cards = [dict.fromkeys(TERRAINS, Fraction(0)) for _ in range(draws)]
    within = {t: [Fraction(0)] * draws for t in TERRAINS}
    for chosen in deals:
        hands = list(state.hands)
        for seat, index in zip(hidden, chosen):
            hands[seat] = unseen[index]
        rest = [card for index, card in enumerate(unseen) if index not in chosen]
        dealt = dataclasses.replace(state, hands=tuple(hands), pile=tuple(rest.count(t) for t in TERRAINS))
        weight = Fraction(1, len(deals))
        for nth, card in enumerate(odds.own_card_odds(dealt, player, draws, viewer=None)):
            for terrain in TERRAINS:
                cards[nth][terrain] += weight * card[terrain]
        for terrain in TERRAINS:
            for k in range(1, draws + 1):
                within[terrain][k - 1] += weight * odds.terrain_within(dealt, player, terrain, k, viewer=None)
    return cards, within


@pytest.mark.parametrize(
    ("players", "hands", "pile", "discard", "viewer"),
    [
        (3, ("grass", "desert", "forest"), (1, 1, 0, 0, 1), (0, 1, 1, 0, 0), 0),  # Blue's and Red's cards hidden
        (3, ("grass", "desert", "forest"), (1, 1, 0, 0, 1), (0, 1, 1, 0, 0), 1),  # Red's hidden from Blue
        (4, ("grass", "grass", "flower", "forest"), (1, 0, 1, 1, 0), (0, 1, 0, 1, 1), 0),  # three hidden hands
        (2, ("forest", "desert"), (0, 0, 0, 0, 0), (2, 1, 0, 1, 0), 0),  # an empty pile: the first draw reshuffles
    ],
)
def test_a_players_view_is_the_referees_odds_averaged_over_every_deal(players, hands, pile, discard, viewer):
    state = table(players, hands, pile, discard)
    draws = 3
    cards, within = brute_force(state, viewer, viewer, draws)
    assert odds.own_card_odds(state, viewer, draws, viewer=viewer) == cards
    assert odds.own_card_odds(state, viewer, draws) == cards  # the default viewer: the player themselves
    for terrain in TERRAINS:
        assert [odds.terrain_within(state, viewer, terrain, k) for k in range(1, draws + 1)] == within[terrain]
    assert all(sum(card.values()) == 1 for card in cards)


def test_a_bad_viewer_is_refused_in_words():
    state = table(2, ("desert", "grass"), (1, 0, 0, 0, 1))
    for bad in (2, -1, True, "blue"):
        with pytest.raises(ValueError, match="viewer must be a seat 0..1 or None"):
            odds.terrain_within(state, 0, "grass", 1, viewer=bad)
        with pytest.raises(ValueError, match="viewer must be"):
            odds.next_card_odds(state, viewer=bad)


def test_the_odds_tab_shows_the_players_own_view_by_default_and_a_referees_on_request():
    board = Board(kb.new_game(players=2, seed=7, first_game=True), seed=7, computer=(1,))
    explorer = Explorer(board)
    assert explorer.view.value != REFEREE and explorer.viewer() == 0
    explorer.turns.value = 2
    shown = text(explorer.result.value)
    # by hand (test above): Orange's view, next card desert 1/6, at least once in 2 turns 43/138
    assert "desert 1/6 = 16.7 %" in shown and "43/138 = 31.2 %" in shown
    assert "4/23" not in shown and "82/253" not in shown
    assert "What Orange can see: Blue's card is hidden from Orange" in shown and "24 unseen cards" in shown
    desert = next(line for line in explorer.chart.plot.data if "desert" in line.name)
    assert desert.y[1] == pytest.approx(100 * 43 / 138)
    explorer.view.value = REFEREE
    shown = text(explorer.result.value)
    assert "desert 4/23 = 17.4 %" in shown and "82/253 = 32.4 %" in shown
    assert "As a referee" in shown and "What Orange can see" not in shown
    desert = next(line for line in explorer.chart.plot.data if "desert" in line.name)
    assert desert.y[1] == pytest.approx(100 * 82 / 253)


def test_the_apps_odds_tab_opens_on_the_view_of_the_person_playing():
    app = App("kingdom_builder", seed=2)
    app.tabs.selected_index = app.odds_tab
    explorer = app.odds_box.children[0]
    state = app.board.state
    people = [seat for seat in range(state.players) if seat not in app.board.bots]
    viewer = people[0] if len(people) == 1 else state.player
    assert explorer.viewer() == viewer is not None
    # the next card, counted by hand: the pile and the cards of the hands the viewer cannot see
    hidden = [seat for seat, card in enumerate(state.hands) if card and seat not in (viewer, state.player)]
    unseen = [state.pile[i] + sum(state.hands[seat] == t for seat in hidden) for i, t in enumerate(TERRAINS)]
    shown = text(explorer.result.value)
    for terrain, count in zip(TERRAINS, unseen):
        chance = Fraction(count, sum(unseen))
        assert f"{kb.rules.terrain_word(terrain)} {chance.numerator}/{chance.denominator} =" in shown
    assert f"What {kb.rules.COLOURS[viewer].capitalize()} can see" in shown
