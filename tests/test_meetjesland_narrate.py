"""What the log and the status line say after each kind of Meetjesland move: exact sentences written by hand from
the position and the dice (highest against highest, ties to the defender), never computed by the code under test."""

from __future__ import annotations

import random

from rulebook import meetjesland as mj
from rulebook.meetjesland import (
    BREWERY,
    Attack,
    CardDrawn,
    Dice,
    EndTurn,
    Fortify,
    Place,
    Reinforce,
    Retreat,
    Roll,
    TradeCards,
    narrate,
)
from tests.helpers import mj_playing as playing

# Seed 0, four players: White holds 11 territories (Oosteeklo ... Ursel) and must destroy Pink; Black holds
# Zelzate-Oost, Assenede, ...; Pink holds Waarschoot, Aalter, ...; Teal holds Kaprijke, Eeklo, ...
DEAL = mj.new_game(4, seed=0)


def told(state: mj.State, move, *chance) -> str:
    """The narration of ``move`` with the chance outcomes that followed it, as the board's log gets it."""
    after = mj.apply(state, move)
    for outcome in chance:
        after = mj.apply(after, outcome)
    return narrate(state, move, after)


def test_the_deal_is_the_one_the_expectations_were_written_for():
    assert [DEAL.board.name(t) for t in DEAL.territories_of(0)][:3] == ["Oosteeklo", "Lovendegem", "Nevele"]
    assert DEAL.mission(0).text == "Destroy the pink player"
    assert len(DEAL.territories_of(1)) == 11


def test_an_attack_that_takes_the_territory():
    state = playing({"kaprijke": (0, 5), "eeklo": (1, 2)})
    # 6 beats 4, 5 beats 3: the defender loses both points; the 3 staked move in
    text = told(state, Attack("kaprijke", "eeklo", 3), Dice((6, 5, 2), (4, 3)))
    assert text == (
        "attacks Eeklo (Black, 2 points) from Kaprijke with 3: 6-5-2 against 4-3, Eeklo loses 2 and falls "
        "(3 points move in)"
    )


def test_an_attack_that_goes_on_then_a_roll_again_then_a_retreat():
    state = playing({"kaprijke": (0, 5), "eeklo": (1, 4)})
    attack = Attack("kaprijke", "eeklo", 4)
    # 6 beats 5, 2 loses to 4: one each; 3 staked points against 3
    assert told(state, attack, Dice((6, 2, 1), (5, 4))) == (
        "attacks Eeklo (Black, 4 points) from Kaprijke with 4: 6-2-1 against 5-4, each side loses 1 (3 against 3 now)"
    )
    fighting = mj.apply(mj.apply(state, attack), Dice((6, 2, 1), (5, 4)))
    # 3 loses to 4 (the attack loses one), 3 beats 2 (Eeklo loses one): 2 against 2
    assert told(fighting, Roll(), Dice((3, 3, 1), (4, 2))) == (
        "rolls again at Eeklo: 3-3-1 against 4-2, each side loses 1 (2 against 2 now)"
    )
    # a tie goes to the defender: 5-5 against 5-5 costs the attack two points
    assert told(fighting, Roll(), Dice((5, 5, 1), (5, 5))) == (
        "rolls again at Eeklo: 5-5-1 against 5-5, the attack loses 2 (1 against 3 now)"
    )
    assert told(fighting, Retreat()) == "breaks off the attack on Eeklo: 3 points go back to Kaprijke"


def test_an_attack_beaten_off():
    state = playing({"kaprijke": (0, 2), "eeklo": (1, 2)})
    assert told(state, Attack("kaprijke", "eeklo", 1), Dice((2,), (4, 3))) == (
        "attacks Eeklo (Black, 2 points) from Kaprijke with 1: 2 against 4-3, the attack loses 1; "
        "the attack on Eeklo is beaten off"
    )


def test_a_conquest_that_knocks_a_player_out():
    black = {t: (3, 2) for t in DEAL.territories_of(1)}  # Black's territories go to Teal, but Eeklo
    state = playing({**black, "kaprijke": (0, 4), "eeklo": (1, 1)})
    assert told(state, Attack("kaprijke", "eeklo", 3), Dice((5, 1, 1), (3,))) == (
        "attacks Eeklo (Black, 1 point) from Kaprijke with 3: 5-1-1 against 3, Eeklo loses 1 and falls "
        "(3 points move in); Black is out of the game"
    )


def test_a_conquest_that_wins_the_game():
    pink = {t: (3, 2) for t in DEAL.territories_of(2)}  # White must destroy Pink, who is left with Eeklo only
    state = playing({**pink, "kaprijke": (0, 4), "eeklo": (2, 1)})
    assert told(state, Attack("kaprijke", "eeklo", 2), Dice((4, 4), (1,))) == (
        "attacks Eeklo (Pink, 1 point) from Kaprijke with 2: 4-4 against 1, Eeklo loses 1 and falls "
        "(2 points move in); Pink is out of the game; game over: White fulfilled the mission: Destroy the pink player"
    )


def test_dice_and_a_card_told_on_their_own():
    state = playing({"kaprijke": (0, 5), "eeklo": (1, 2)})
    rolling = mj.apply(state, Attack("kaprijke", "eeklo", 3))
    assert told(rolling, Dice((6, 5, 2), (4, 3))) == "6-5-2 against 4-3, Eeklo loses 2 and falls (3 points move in)"
    drawing = mj.apply(playing(conquered=True), EndTurn())
    assert told(drawing, CardDrawn(drawing.pile[0])) == "draws a card"


def test_placing_reinforcing_and_moving():
    state = playing({"kaprijke": (0, 5), "eeklo": (0, 1)}, to_place=5, stage="reinforce")
    assert told(state, Place("kaprijke", 3)) == "places 3 points on Kaprijke (2 points left to place)"
    assert told(state, Place("eeklo", 5)) == "places 5 points on Eeklo"
    # 11 territories: 11 // 3 = 3 points, and at least 3 anyway (MJ-4.10)
    assert told(playing(), Reinforce()) == "takes 3 reinforcements for 11 territories"
    moving = playing({"kaprijke": (0, 5), "eeklo": (0, 1)}, moved=2)
    assert (
        told(moving, Fortify("kaprijke", "eeklo", 3))
        == "moves 3 points from Kaprijke to Eeklo (5 of 7 moved this turn)"
    )


def test_the_last_starting_point_ends_the_set_up():
    state = DEAL
    for player in range(3):
        state = mj.auto_setup(state, random.Random(player))
    assert state.turn == 3 and state.to_place == 8  # 30 points for 4 players, 2 already on each of 11 territories
    assert told(state, Place("kaprijke", 8)) == "places 8 points on Kaprijke; every player has set up"


def test_trades():
    hands = (("eeklo", "kaprijke", "zomergem", BREWERY), (), (), ())
    state = playing(hands=hands)
    # yellow, red and mauve: three different colours are worth 4 (MJ-4.7)
    assert told(state, TradeCards(("eeklo", "kaprijke", "zomergem"))) == (
        "trades Eeklo, Kaprijke and Zomergem (three colours) for 4 points"
    )
    assert told(state, TradeCards((BREWERY,))) == "trades the Brewery Van Steenberge card for 5 points"


def test_ending_a_turn_with_and_without_a_card_and_with_a_colour_bonus():
    state = playing()
    assert told(state, EndTurn()) == "ends the turn; Black to play"
    conquered = playing(conquered=True)
    assert told(conquered, EndTurn(), CardDrawn(conquered.pile[0])) == (
        "ends the turn and draws a card for the conquest; Black to play"
    )
    # Black holds the whole of green (nine territories, of which only Evergem carries a number: 2) and White the
    # rest: Black's turn starts with 2 points to place (MJ-4.9)
    green = set(DEAL.board.regions["green"])
    split = {t: ((1, 2) if t in green else (0, 2)) for t in DEAL.board.territories}
    assert told(playing(split), EndTurn()) == "ends the turn; Black to play (receives 2 points for whole colours)"


def test_no_narration_shows_an_internal_id():
    state = playing({"kaprijke": (0, 5), "sint_laureins": (1, 2), "kerkbrugge_langerbrugge": (1, 2)})
    text = told(state, Attack("kaprijke", "sint_laureins", 3), Dice((6, 5, 2), (4, 3)))
    assert "Sint-Laureins" in text and "sint_laureins" not in text


def test_auto_place_is_told_as_one_placement_with_its_spread():
    before = DEAL
    after = before
    for move in (Place("oosteeklo", 3), Place("nevele", 1), Place("oosteeklo", 4)):  # White's 8 starting points
        after = mj.apply(after, move)
    assert narrate(before, Place("oosteeklo", 3), after) == "places 8 points: 7 on Oosteeklo and 1 on Nevele"
