"""Issue 14: where the engine departed from the French text, now followed (refusals with the paragraph that forbids)."""

from __future__ import annotations

import functools

import pytest

from rulebook import meetjesland as mj
from rulebook.meetjesland import BREWERY, Attack, Config, Dice, EndTurn, Place, TradeCards
from tests import helpers
from tests.helpers import mj_playing as playing

refused = functools.partial(helpers.refused, mj)

SIX = ("aalter", "bellem", "eeklo", "kaprijke", "poeke", BREWERY)  # six cards, the Brewery card among them


def test_MJ_4_8_over_five_cards_three_must_be_traded_the_brewery_alone_does_not_do():
    state = playing(territories={"ursel": (0, 5), "maldegem": (1, 2)}, hands=(SIX, (), (), ()))
    error = refused(state, TradeCards((BREWERY,)), "MJ-4.8")
    assert error.message == (
        "white holds 6 cards, more than 5: three cards must be traded, the Brewery card alone does not do"
    )
    trades = [m for m in mj.legal_moves(state) if isinstance(m, TradeCards)]
    assert trades and all(len(m.cards) == 3 for m in trades)
    assert len(trades) == 10  # any three of the five coloured cards: 5 choose 3
    after = mj.apply(state, TradeCards(("aalter", "bellem", "poeke")))
    assert len(after.hands[0]) == 3 and after.to_place == 8  # three blue cards: 8 points (MJ-4.7)


def test_MJ_C6_option_trading_down_with_the_brewery_card():
    state = playing(config=Config(trade_down=True), territories={"ursel": (0, 5)}, hands=(SIX, (), (), ()))
    assert TradeCards((BREWERY,)) in mj.legal_moves(state)
    after = mj.apply(state, TradeCards((BREWERY,)))
    assert len(after.hands[0]) == 5 and after.to_place == 5
    with pytest.raises(ValueError, match="trade_down"):
        Config(trade_down="yes")


def test_MJ_4_4_reinforcement_points_go_on_own_territories_before_the_turn_ends():
    state = playing(territories={"ursel": (0, 2), "maldegem": (1, 2)}, stage="reinforce", to_place=3)
    error = refused(state, Place("maldegem", 1), "MJ-4.4")
    assert error.message == "Maldegem belongs to black: place on your own territories"
    refused(state, EndTurn(), "MJ-4.4")


def test_MJ_4_5_and_MJ_5_4_card_points_go_on_own_territories_before_any_attack():
    state = playing(territories={"ursel": (0, 5), "maldegem": (1, 2)}, to_place=4)
    refused(state, Place("maldegem", 1), "MJ-4.5")
    refused(state, Attack("ursel", "maldegem", 2), "MJ-5.4")


def test_MJ_5_4_and_MJ_5_5_a_roll_with_the_wrong_number_of_dice_says_how_many_are_due():
    state = mj.apply(playing(territories={"ursel": (0, 5), "maldegem": (1, 2)}), Attack("ursel", "maldegem", 2))
    error = refused(state, Dice((6, 6, 6), (1, 1)), "MJ-5.4")
    assert error.message == "a stake of 2 rolls 2 dice, not (6, 6, 6)"
    error = refused(state, Dice((6, 6), (1,)), "MJ-5.5")
    assert error.message == "2 defending points roll 2 dice, not (1,)"
    refused(state, Dice((6, 6), (7, 1)), "MJ-5.4")  # the right counts, an impossible face: the dice are due


def test_MJ_C2_every_region_is_connected_across_passable_borders():
    """Orange once reached its polder villages only through red Boekhoute; the Langeweg bridge over the Leopold
    canal (Sint-Laureins to Sint-Margriete) joins them within orange."""
    import networkx as nx

    board = mj.load_board()
    passable = nx.Graph((a, b) for a in board.territories for b in board.neighbours[a])
    for region, members in board.regions.items():
        assert nx.is_connected(passable.subgraph(members)), region
    assert "sint_margriete" in board.neighbours["sint_laureins"]
    assert board.graph.edges["sint_laureins", "sint_margriete"]["border"] == "bridge"
    assert "sint_jan_in_eremo" not in board.neighbours["sint_laureins"]  # still a canal there (a foot ferry only)


def test_the_worked_turn_of_the_notebook_step_by_step():
    from rulebook.meetjesland import examples

    story = examples.worked_turn()
    lines = [line for line, _ in story]
    states = [state for _, state in story]
    assert lines == [
        "White: trades Eeklo, Sleidinge and Waarschoot (two alike and one) for 6 points",
        "White: places 6 points on Lovendegem",
        "White: attacks Waarschoot (Pink, 3 points) from Lovendegem with 5: 6-2-1 against 5-3, each side loses 1 "
        "(4 against 2 now)",
        "White: rolls again at Waarschoot: 5-5-2 against 4-1, Waarschoot loses 2 and falls (4 points move in)",
        "White: moves 2 points from Lovendegem to Waarschoot (2 of 7 moved this turn)",
        "White: ends the turn and draws a card for the conquest; Black to play",
    ]
    # counted by hand: 2 + 6 = 8 on Lovendegem; 5 staked leave 3; 4 move in; 2 moved: Lovendegem 1, Waarschoot 6
    assert states[0].to_place == 6 and states[1].points_on("lovendegem") == 8
    assert states[2].points_on("lovendegem") == 3 and states[2].battle.stake == 4
    assert (states[3].owner_of("waarschoot"), states[3].points_on("waarschoot")) == (0, 4)
    assert (states[4].points_on("lovendegem"), states[4].points_on("waarschoot")) == (1, 6)
    assert states[5].hands[0] == ("aalter",) and states[5].turn == 1
    assert len(states[5].pile) + sum(map(len, states[5].hands)) == 44  # every card in the pile or a hand
