"""One scenario per rule paragraph of Verover het Meetjesland, named after its id, from written positions."""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from fractions import Fraction

import pytest

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
    arrange,
    rules,
)
from tests import helpers
from tests.helpers import mj_playing as playing

refused = functools.partial(helpers.refused, mj)


def test_the_map_reads_positions_borders_and_attributes_without_networkx_as_networkx_does():
    """The live board draws from Map.position, Map.edges and Map.attributes (so a page need not import networkx);
    they must say what the networkx graph of the same file says, borders in the same order. Also a map built from a
    networkx graph (Map(graph), the loader's other road), with a border added last."""
    board = mj.load_board()
    graph = board.graph
    assert list(board.edges("line")) == list(graph.edges(data="line")) and len(graph.edges) == 100
    assert list(board.edges("passable")) == list(graph.edges(data="passable"))
    assert all(board.position(t) == (graph.nodes[t]["x"], graph.nodes[t]["y"]) for t in board.territories)
    assert board.attributes == graph.graph and board.attributes["brewery"] == board.brewery_territory
    other = graph.copy()
    first, last = board.territories[0], board.territories[-1]
    other.add_edge(last, first, line="thick", border="canal", passable=False)
    built = mj.Map(other)
    assert list(built.edges("line")) == list(other.edges(data="line"))


def test_MJ_1_1_board_has_44_territories_in_six_regions_as_the_text_lists():
    board = mj.load_board()
    assert len(board.territories) == 44
    municipalities = {
        region: sorted({board.graph.nodes[t]["municipality"] for t in members})
        for region, members in board.regions.items()
    }
    assert municipalities == {  # the French text, "Le jeu"
        "red": ["Assenede", "Kaprijke", "Zelzate"],
        "yellow": ["Eeklo", "Lovendegem", "Waarschoot"],
        "blue": ["Aalter", "Nevele"],
        "green": ["Evergem"],
        "orange": ["Maldegem", "Sint-Laureins"],
        "mauve": ["Knesselare", "Zomergem"],
    }


def test_MJ_1_3_there_are_44_cards_and_12_missions():
    cards = mj.deck()
    assert len(cards) == 44 and len(set(cards)) == 44 and cards.count(BREWERY) == 1
    assert len(mj.MISSIONS) == 12


@pytest.mark.parametrize(
    "players, sizes", [(3, [15, 15, 14]), (4, [11] * 4), (5, [9, 9, 9, 9, 8]), (6, [8, 8, 7, 7, 7, 7])]
)
def test_MJ_2_1_cards_dealt_clockwise_from_the_first_player(players, sizes):
    state = mj.new_game(players, seed=11)
    assert [len(state.territories_of(p)) for p in range(players)] == sizes
    assert mj.new_game(players, seed=11) == state  # the same deal for the same seed


def test_MJ_2_1_three_to_six_players():
    for players in (2, 7, "4"):
        with pytest.raises(ValueError, match="3 to 6"):
            mj.new_game(players)


def test_MJ_2_2_each_player_draws_a_different_mission():
    state = mj.new_game(6, seed=5)
    assert len(set(state.missions)) == 6


@pytest.mark.parametrize("players, points", [(3, 35), (4, 30), (5, 25), (6, 20)])
def test_MJ_4_1_starting_points_and_two_on_each_territory(players, points):
    import random

    state = mj.new_game(players, seed=3)
    assert min(state.points) == 2
    rng = random.Random(1)
    while state.phase == "setup":
        state = mj.auto_setup(state, rng)
    for player in range(players):
        assert sum(state.points_on(t) for t in state.territories_of(player)) == points


def test_MJ_4_1_place_only_on_own_territories_and_only_what_is_left():
    state = mj.new_game(4, seed=2)
    foreign = state.territories_of(1)[0]
    own = state.territories_of(0)[0]
    refused(state, Place(foreign, 1), "MJ-4.1")
    refused(state, Place(own, state.to_place + 1), "MJ-4.1")
    refused(state, Reinforce(), "MJ-4.1")
    after = mj.apply(state, Place(own, state.to_place))
    assert after.turn == 1 and after.phase == "setup"


def test_MJ_4_2_cards_go_back_to_the_game_master_and_territories_keep_a_point():
    state = mj.new_game(4, seed=2)
    assert sorted(state.pile) == sorted(mj.deck()) and state.hands == ((),) * 4
    position = playing(territories={"eeklo": (0, 3), "waarschoot": (0, 1)})
    refused(position, Fortify("eeklo", "waarschoot", 3), "MJ-4.2")


def test_MJ_4_4_reinforcements_then_no_conquest():
    position = playing(territories={"eeklo": (0, 5), "kaprijke": (1, 2)})
    held = len(position.territories_of(0))
    after = mj.apply(position, Reinforce())
    assert after.to_place == max(3, held // 3)
    after = mj.apply(after, Place("eeklo", after.to_place))
    refused(after, Attack("eeklo", "kaprijke", 2), "MJ-4.4")
    refused(after, Reinforce(), "MJ-4.4")


def test_MJ_4_5_conquering_turn_gets_no_reinforcements():
    position = playing(territories={"eeklo": (0, 5), "kaprijke": (1, 2)})
    attacking = mj.apply(position, Attack("eeklo", "kaprijke", 2))
    beaten = mj.apply(attacking, Dice((1, 1), (6, 6)))  # both attackers lose: the attack fails
    assert beaten.battle is None and beaten.points_on("eeklo") == 3
    refused(beaten, Reinforce(), "MJ-4.5")


def conquer_kaprijke(position):
    state = mj.apply(position, Attack("eeklo", "kaprijke", 3))
    return mj.apply(state, Dice((6, 6, 6), (1, 1)))


def test_MJ_4_6_one_card_for_a_turn_with_a_conquest():
    position = playing(territories={"eeklo": (0, 6), "kaprijke": (1, 2)})
    state = conquer_kaprijke(position)
    assert state.owner_of("kaprijke") == 0
    state = mj.apply(state, EndTurn())
    outcomes = mj.chance_outcomes(state)
    assert state.player is None and len(outcomes) == 44
    assert all(p == Fraction(1, 44) for _, p in outcomes) and sum(p for _, p in outcomes) == 1
    state = mj.apply(state, CardDrawn("lembeke"))
    assert state.hands[0] == ("lembeke",) and state.turn == 1 and "lembeke" not in state.pile
    # no conquest, no card
    quiet = mj.apply(playing(), EndTurn())
    assert quiet.turn == 1 and quiet.hands[0] == ()


def hand(*cards):
    return tuple(sorted(cards))


@pytest.mark.parametrize(
    "cards, value",
    [
        ((BREWERY,), 5),
        (("eeklo", "kaprijke", "aalter"), 4),  # yellow, red, blue: three different colours
        (("eeklo", "waarschoot", "aalter"), 6),  # two yellow and one blue
        (("aalter", "bellem", "poeke"), 8),  # three blue
    ],
)
def test_MJ_4_7_card_combinations(cards, value):
    position = playing(hands=(hand(*cards), (), (), ()), pile=tuple(c for c in mj.deck() if c not in cards))
    after = mj.apply(position, TradeCards(tuple(cards)))
    assert after.to_place == value and after.hands[0] == ()
    assert sorted(after.pile) == sorted(mj.deck())


def test_MJ_4_7_not_a_set_or_not_held():
    position = playing(hands=(hand("eeklo", "kaprijke", BREWERY), (), (), ()))
    refused(position, TradeCards(("eeklo", "kaprijke")), "MJ-4.7")
    refused(position, TradeCards(("eeklo", "kaprijke", BREWERY)), "MJ-4.7")
    refused(position, TradeCards(("aalter",)), "MJ-4.7")


def test_MJ_4_8_more_than_five_cards_must_trade_three():
    six = hand("eeklo", "kaprijke", "aalter", "bellem", "poeke", "nevele")
    position = playing(territories={"eeklo": (0, 5), "kaprijke": (1, 2)}, hands=(six, (), (), ()))
    refused(position, Attack("eeklo", "kaprijke", 2), "MJ-4.8")
    refused(position, EndTurn(), "MJ-4.8")
    after = mj.apply(position, TradeCards(("aalter", "bellem", "poeke")))
    after = mj.apply(after, Place("eeklo", 8))
    assert mj.check(after, Attack("eeklo", "kaprijke", 2)) is None


def test_MJ_4_9_whole_colour_counts_the_numbers_of_all_territories_held():
    yellow = dict.fromkeys(("eeklo", "waarschoot", "lovendegem", "vinderhoute"), (0, 2))
    rest = {t: (1, 2) for t in mj.load_board().territories if t not in yellow}
    rest["aalter"] = (0, 2)  # a municipality seat outside yellow counts too
    position = playing(territories={**yellow, **rest}, turn=1)
    assert mj.whole_regions(position, 0) == ("yellow",)
    # by the default numbers (2 on each municipality's main village): Eeklo, Waarschoot, Lovendegem, Aalter
    assert mj.colour_bonus(position, 0) == 8
    after = mj.apply(position, EndTurn())  # player 1 ends; player 0's turn starts with the bonus
    assert after.turn == 0 and after.to_place == 8
    lost = arrange(position, {"vinderhoute": (1, 2)})
    assert mj.colour_bonus(lost, 0) == 0


@pytest.mark.parametrize("held, points", [(1, 3), (8, 3), (9, 3), (11, 3), (12, 4), (20, 6), (44, 14)])
def test_MJ_4_10_one_point_per_three_territories_at_least_three(held, points):
    assert mj.reinforcements(held) == points


def test_MJ_5_2_attack_from_more_than_one_point_across_an_open_border():
    position = playing(
        territories={
            "eeklo": (0, 5),
            "kaprijke": (1, 2),
            "lembeke": (0, 1),
            "oosteeklo": (1, 3),
            "nevele": (0, 4),
            "vosselare": (1, 1),
            "aalter": (1, 1),
        }
    )
    refused(position, Attack("lembeke", "oosteeklo", 1), "MJ-5.2")  # only 1 point
    error = refused(position, Attack("nevele", "vosselare", 2), "MJ-5.2")  # Schipdonk canal: thick line
    assert "thick line" in error.message
    refused(position, Attack("eeklo", "aalter", 1), "MJ-5.2")  # not neighbours
    refused(position, Attack("kaprijke", "eeklo", 1), "MJ-5.2")  # not the attacker's
    refused(position, Attack("eeklo", "atlantis", 1), "MJ-5.2")


def test_MJ_5_3_stake_at_least_one_and_one_point_stays_home():
    position = playing(territories={"eeklo": (0, 5), "kaprijke": (1, 2)})
    refused(position, Attack("eeklo", "kaprijke", 5), "MJ-5.3")
    refused(position, Attack("eeklo", "kaprijke", 0), "MJ-5.3")
    after = mj.apply(position, Attack("eeklo", "kaprijke", 4))
    assert after.points_on("eeklo") == 1 and after.battle.stake == 4


@pytest.mark.parametrize("stake, dice", [(1, 1), (2, 2), (3, 3), (6, 3)])
def test_MJ_5_4_attacker_dice_by_stake(stake, dice):
    position = playing(territories={"eeklo": (0, stake + 1), "kaprijke": (1, 2)})
    state = mj.apply(position, Attack("eeklo", "kaprijke", stake))
    outcomes = mj.chance_outcomes(state)
    assert {len(o.attacker) for o, _ in outcomes} == {dice}
    assert sum(p for _, p in outcomes) == 1
    refused(state, Roll(), "MJ-5.4")  # the dice are due: a chance node


def test_MJ_5_4_extra_points_are_placed_before_attacking():
    position = playing(territories={"eeklo": (0, 5), "kaprijke": (1, 2)}, to_place=3)
    refused(position, Attack("eeklo", "kaprijke", 2), "MJ-5.4")


@pytest.mark.parametrize("defenders, dice", [(1, 1), (2, 2), (7, 2)])
def test_MJ_5_5_defender_rolls_two_dice_with_two_points(defenders, dice):
    position = playing(territories={"eeklo": (0, 5), "kaprijke": (1, defenders)})
    state = mj.apply(position, Attack("eeklo", "kaprijke", 3))
    assert {len(o.defender) for o, _ in mj.chance_outcomes(state)} == {dice}


def test_MJ_5_6_highest_against_highest():
    # the text's first example: attacker 6, 1, 1 against one defender die 3 -> the defender loses 1
    assert mj.resolve_roll([6, 1, 1], [3]) == (0, 1)
    assert mj.resolve_roll([1, 6, 1], [3]) == (0, 1)  # order of the dice does not matter
    assert mj.resolve_roll([5, 4, 1], [6, 3]) == (1, 1)  # second example: both lose one
    assert mj.resolve_roll([2, 2], [1, 1]) == (0, 2)
    with pytest.raises(ValueError):
        mj.resolve_roll([7], [1])


def test_MJ_5_7_ties_go_to_the_defender_and_survivors_move_in():
    assert mj.resolve_roll([4, 3, 1], [4, 3]) == (2, 0)  # third example: a tie costs the attacker 2
    assert mj.resolve_roll([6, 2, 2], [5, 2]) == (1, 1)  # fourth: the defender still loses one
    position = playing(territories={"eeklo": (0, 6), "kaprijke": (1, 2)})
    state = mj.apply(position, Attack("eeklo", "kaprijke", 4))
    state = mj.apply(state, Dice((5, 4, 1), (6, 3)))  # one each: 3 staked against 1
    assert (state.battle.stake, state.points_on("kaprijke"), state.player) == (3, 1, 0)
    state = mj.apply(state, Roll())
    state = mj.apply(state, Dice((6, 6, 6), (2,)))
    assert state.owner_of("kaprijke") == 0 and state.points_on("kaprijke") == 3 and state.points_on("eeklo") == 2


def test_MJ_5_8_attack_again_while_points_remain():
    position = playing(territories={"eeklo": (0, 6), "kaprijke": (1, 2), "sint_laureins": (1, 1)})
    state = conquer_kaprijke(position)
    assert mj.check(state, Attack("kaprijke", "sint_laureins", 2)) is None
    assert mj.check(state, Attack("eeklo", "sint_laureins", 2)) is None


def test_MJ_5_9_move_at_most_seven_points_between_neighbours():
    position = playing(territories={"eeklo": (0, 12), "waarschoot": (0, 1), "lovendegem": (0, 1), "aalter": (0, 9)})
    refused(position, Fortify("eeklo", "lovendegem", 2), "MJ-5.9")  # not neighbours
    refused(position, Fortify("eeklo", "waarschoot", 8), "MJ-5.9")
    state = mj.apply(position, Fortify("eeklo", "waarschoot", 5))
    refused(state, Fortify("waarschoot", "lovendegem", 3), "MJ-5.9")  # 5 + 3 > 7 this turn
    state = mj.apply(state, Fortify("waarschoot", "lovendegem", 2))
    assert (state.points_on("eeklo"), state.points_on("waarschoot"), state.points_on("lovendegem")) == (7, 4, 3)


def test_MJ_C10_break_off_brings_the_stake_home():
    position = playing(territories={"eeklo": (0, 6), "kaprijke": (1, 5)})
    state = mj.apply(position, Attack("eeklo", "kaprijke", 5))
    state = mj.apply(state, Dice((6, 6, 1), (1, 1)))
    refused(state, EndTurn(), "MJ-C10")
    state = mj.apply(state, Retreat())
    assert state.battle is None and state.points_on("eeklo") == 6 and state.points_on("kaprijke") == 3


def test_MJ_3_1_first_to_fulfil_the_mission_wins():
    red_blue = [t for t, r in mj.load_board().graph.nodes(data="region") if r in ("red", "blue")]
    position = playing(
        territories={**dict.fromkeys(red_blue, (0, 3)), "kaprijke": (1, 1), "eeklo": (0, 4)},
        missions=(0, 1, 2, 3),
    )
    assert position.mission(0).regions == ("red", "blue")
    state = mj.apply(position, Attack("eeklo", "kaprijke", 3))
    state = mj.apply(state, Dice((6, 6, 6), (1,)))
    result = mj.outcome(state)
    assert result.winners == (0,) and "red and blue" in result.reason
    assert mj.legal_moves(state) == () and mj.chance_outcomes(state) == ()
    refused(state, EndTurn(), "MJ-3.1")


def test_MJ_C10_destroyed_players_leave_the_turn_order():
    board = mj.load_board()
    everything = dict.fromkeys(board.territories, (2, 2))
    position = playing(
        territories={**everything, "kaprijke": (1, 1), "eeklo": (0, 3), "aalter": (3, 3)}, missions=(6, 7, 4, 5)
    )
    state = mj.apply(position, Attack("eeklo", "kaprijke", 1))
    state = mj.apply(state, Dice((6,), (1,)))
    assert state.alive == (True, False, True, True) and state.eliminated_by[1] == 0
    state = mj.apply(mj.apply(state, EndTurn()), CardDrawn("poeke"))
    assert state.turn == 2


def test_MJ_C10_destroy_mission_falls_back_when_someone_else_destroys():
    board = mj.load_board()
    rest = dict.fromkeys(board.territories, (0, 1))
    position = playing(
        territories={**rest, "kaprijke": (1, 1), "eeklo": (0, 3), "aalter": (2, 2)}, missions=(6, 7, 9, 4)
    )  # player 2 must destroy black (player 1)
    assert position.mission(2).destroy == 1
    state = mj.apply(position, Attack("eeklo", "kaprijke", 2))
    state = mj.apply(state, Dice((6, 6), (1,)))
    # player 0 destroyed black and holds 43 territories: "hold 24" is player 0's mission and it is done
    assert mj.outcome(state).winners == (0,)
    assert mj.effective_mission(state, 2).territories == 24


def test_chance_nodes_refuse_player_moves_and_unknown_outcomes():
    position = playing(territories={"eeklo": (0, 5), "kaprijke": (1, 2)})
    state = mj.apply(position, Attack("eeklo", "kaprijke", 2))
    refused(state, EndTurn(), "MJ-5.4")
    refused(state, Dice((6, 6, 6), (1, 1)), "MJ-5.4")  # three dice cannot come from a stake of 2
    assert mj.legal_moves(state) == ()


def test_setup_then_play_and_the_move_strings_read_like_the_rules():
    assert str(Attack("kaprijke", "eeklo", 3)) == "attack Eeklo from Kaprijke with 3"
    assert str(Fortify("eeklo", "waarschoot", 2)) == "move 2 from Eeklo to Waarschoot"
    assert str(TradeCards((BREWERY,))) == "trade Brewery Van Steenberge"
    assert str(Dice((6, 1, 1), (3,))) == "dice 6-1-1 against 3"


def test_config_is_checked():
    with pytest.raises(ValueError, match="move_limit"):
        mj.Config(move_limit=-1)
    with pytest.raises(ValueError, match="hand_limit"):
        mj.Config(hand_limit=1)


def test_arrange_refuses_bad_positions():
    with pytest.raises(ValueError, match="unknown territory"):
        arrange(mj.new_game(4), {"atlantis": (0, 1)})
    with pytest.raises(ValueError, match="at least 1 point"):
        arrange(mj.new_game(4), {"eeklo": (0, 0)})
    with pytest.raises(ValueError, match="cannot be saved"):
        mj.to_json(playing())


def test_saved_game_round_trip_and_bad_files():
    import random

    rng = random.Random(4)
    state = mj.new_game(3, seed=9)
    for _ in range(200):
        from rulebook.core import advance

        state = advance(state, rng)
        state = mj.apply(state, rng.choice(mj.legal_moves(state)))
    text = mj.to_json(state)
    assert mj.from_json(text) == state
    assert mj.replay(state) == state
    for bad, needle in [
        ("{", "not a saved game"),
        ("[]", "JSON object"),
        ('{"game": "claim", "version": 1, "setup": {}, "history": []}', "not 'meetjesland'"),
        ('{"game": "meetjesland", "version": 99, "setup": {}, "history": []}', "rules version"),
        ('{"game": "meetjesland", "version": 1, "setup": {"players": 9, "seed": 1}, "history": []}', "3 to 6"),
        (
            '{"game": "meetjesland", "version": 1, "setup": {"players": 4, "seed": 1}, "history": [{"move": "Fly"}]}',
            "unknown move",
        ),
        (
            '{"game": "meetjesland", "version": 1, "setup": {"players": 4, "seed": 1}, '
            '"history": [{"move": "EndTurn"}]}',
            "not legal",
        ),
    ]:
        with pytest.raises(ValueError, match=needle):
            mj.from_json(bad)


def test_every_card_colour_count():
    colours = Counter(rules.card_colour(card) for card in mj.deck())
    assert colours == {"red": 8, "yellow": 4, "blue": 10, "green": 8, "orange": 8, "mauve": 5, BREWERY: 1}


def test_state_is_immutable():
    state = mj.new_game(4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.turn = 2  # type: ignore[misc]


# --- MJ-4.4 and MJ-C11: a turn of reinforcements moves no points (issue 25.5) ----------------------------------


def test_MJ_4_4_after_reinforcements_you_pass_and_no_points_move():
    """«Vous passez ensuite votre tour»: reinforcements taken and placed, the turn ends; moving points (MJ-5.9) is
    part of conquering."""
    position = playing(territories={"eeklo": (0, 5), "waarschoot": (0, 1), "kaprijke": (1, 2)})
    assert mj.check(position, Fortify("eeklo", "waarschoot", 2)) is None  # before choosing, a move is possible
    reinforced = mj.apply(position, Reinforce())
    refused(reinforced, Fortify("eeklo", "waarschoot", 2), "MJ-4.4")  # points to place come first anyway
    placed = mj.apply(reinforced, Place("eeklo", reinforced.to_place))
    error = refused(placed, Fortify("eeklo", "waarschoot", 2), "MJ-4.4")
    assert error.message == "you took reinforcements this turn: place them and pass; no points move"
    assert not [move for move in mj.legal_moves(placed) if isinstance(move, Fortify)]
    assert EndTurn() in mj.legal_moves(placed)


def test_MJ_4_4_points_moved_then_no_reinforcements():
    position = playing(territories={"eeklo": (0, 5), "waarschoot": (0, 1), "kaprijke": (1, 2)})
    moved = mj.apply(position, Fortify("eeklo", "waarschoot", 2))
    error = refused(moved, Reinforce(), "MJ-4.4")
    assert error.message == "you moved points this turn: a turn of reinforcements only takes them"
    assert Reinforce() not in mj.legal_moves(moved)
    assert mj.check(moved, Attack("eeklo", "kaprijke", 2)) is None  # still a turn of conquest


def test_MJ_C11_option_a_turn_of_reinforcements_may_move_points_MJ_4_4():
    config = mj.Config(move_and_reinforce=True)
    territories = {"eeklo": (0, 5), "waarschoot": (0, 1), "kaprijke": (1, 2)}
    position = arrange(mj.new_game(4, seed=0, config=config), territories, to_place=0, stage="start", turn=0)
    reinforced = mj.apply(position, Reinforce())
    placed = mj.apply(reinforced, Place("eeklo", reinforced.to_place))
    assert Fortify("eeklo", "waarschoot", 2) in mj.legal_moves(placed)
    after = mj.apply(placed, Fortify("eeklo", "waarschoot", 2))
    assert after.points_on("waarschoot") == 3 and after.moved == 2
    refused(after, Attack("eeklo", "kaprijke", 2), "MJ-4.4")  # reinforcing still rules out conquering
    moved_first = mj.apply(position, Fortify("eeklo", "waarschoot", 2))
    assert Reinforce() in mj.legal_moves(moved_first)
    with pytest.raises(ValueError, match="move_and_reinforce"):
        mj.Config(move_and_reinforce="yes")


def _moves_after_reinforcing(config: mj.Config) -> mj.State:
    """A dealt game of seed 3 whose first turn takes reinforcements, places them and then moves points."""
    import random

    state = mj.new_game(4, seed=3, config=config)
    rng = random.Random(3)
    while state.phase == "setup":
        state = rules.auto_setup(state, rng)
    state = mj.apply(state, Reinforce())
    own = state.territories_of(state.turn)
    state = mj.apply(state, Place(own[0], state.to_place))
    move = next(m for m in mj.legal_moves(state) if isinstance(m, Fortify))
    return mj.apply(state, move)


def test_MJ_C11_a_save_keeps_the_option_and_a_save_from_before_it_loads_with_it():
    import json

    played = _moves_after_reinforcing(mj.Config(move_and_reinforce=True))
    text = mj.to_json(played)
    assert json.loads(text)["setup"]["config"]["move_and_reinforce"] is True
    assert mj.from_json(text) == played
    # a save written before saves held a Config: players and seed only. It was played when a turn of
    # reinforcements could move points, so it loads with the option on and replays to the same game
    older = json.loads(text)
    del older["setup"]["config"]
    loaded = mj.from_json(json.dumps(older))
    assert loaded == played and loaded.config == mj.Config(move_and_reinforce=True)
    # the same moves saved under the default are refused at the move of points, naming the paragraph
    default = json.loads(text)
    default["setup"]["config"]["move_and_reinforce"] = False
    with pytest.raises(ValueError, match=r"history\[\d+\] \(move .*MJ-4\.4"):
        mj.from_json(json.dumps(default))


def test_a_save_holds_the_set_up_options_and_refuses_a_bad_config_briefly():
    import json

    config = mj.Config(move_limit=3, hand_limit=6, brewery_value=4, set_values=(3, 5, 7), trade_down=True)
    state = mj.new_game(3, seed=4, config=config)
    assert mj.from_json(mj.to_json(state)) == state
    save = json.loads(mj.to_json(state))
    for bad, message in (
        ("x" * 100_000, "must be an object"),
        ({"move_limit": 3, "x" * 100_000: 1}, "unknown config field"),
        ({"set_values": list(range(200_000))}, "set_values"),
        ({"move_and_reinforce": "yes"}, "move_and_reinforce"),
    ):
        save["setup"]["config"] = bad
        with pytest.raises(ValueError, match=message) as caught:
            mj.from_json(json.dumps(save))
        assert len(str(caught.value)) < 200
    with pytest.raises(ValueError, match="missions"):
        mj.to_json(mj.new_game(3, seed=4, config=mj.Config(missions=mj.MISSIONS[::-1])))


def test_MJ_4_4_the_board_says_to_pass_once_reinforcements_are_placed():
    from rulebook.meetjesland.widget import Board

    territories = {"eeklo": (0, 5), "waarschoot": (0, 1), "kaprijke": (1, 2)}
    cards = (("aalter", "bellem", "eeklo"), (), (), ())
    position = playing(territories=territories, stage="reinforce", hands=cards)
    assert Board(position).prompt() == "White: your reinforcements are placed; trade cards or press End turn (MJ-4.4)."
    empty = dataclasses.replace(position, hands=((),) * 4)
    assert Board(empty).prompt() == "White: nothing else can be done this turn; press End turn."
    option = dataclasses.replace(position, config=mj.Config(move_and_reinforce=True))
    assert "Move points" in Board(option).prompt()
