"""The draw advisor (issue 13.2) against hand counts, against every order of small piles, and against a brute-force
search of the rules engine's own game tree (draws, busts and the reshuffled discard played by ``apply``)."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import pytest

from rulebook.ab_die_post import DrawCard, advisor, apply, chance_outcomes, charts, hand_points, new_game, odds


def drawing(hand, pile, discard, drawn=1):
    """A two-player position: player 1 is drawing spare parts with this hand, pile and discard."""
    return dataclasses.replace(
        new_game(players=2, seed=0),
        hands=(tuple(hand), (0, 0, 0)),
        pile=tuple(pile),
        discard=tuple(discard),
        drawn=drawn,
    )


def engine_best(state, utility):
    """The best value of the turn by searching the engine's tree: Stop (when a card was drawn) or DrawCard, then
    every card the engine offers with its probability; a bust ends the turn (the engine moves to the next player)."""
    player = state.turn_player
    options = []
    if state.drawn:
        options.append(Fraction(utility(hand_points(state.hands[player]))))
    waiting = apply(state, DrawCard())
    outcomes = chance_outcomes(waiting)
    if outcomes:
        value = Fraction(0)
        for card, chance in outcomes:
            after = apply(waiting, card)
            if after.turn_player != player:  # a third red 3: the turn is over
                value += chance * utility(hand_points(after.hands[player]))
            else:
                value += chance * engine_best(after, utility)
        options.append(value)
    return max(options)


def engine_draw_value(state, utility):
    """The value of drawing one more card now (then playing best), by the same search."""
    return engine_best(dataclasses.replace(state, drawn=0), utility) if state.drawn else None


CASES = [  # (hand, pile, discard): small piles, some running out into the discard mid-turn
    ((0, 0, 2), (1, 1, 1), (0, 0, 0)),
    ((0, 0, 2), (1, 0, 1), (1, 1, 1)),
    ((1, 0, 1), (0, 1, 1), (2, 0, 2)),
    ((0, 1, 0), (0, 0, 0), (1, 2, 2)),
    ((2, 0, 2), (2, 1, 0), (0, 1, 2)),
    ((0, 0, 1), (1, 1, 2), (1, 0, 1)),
]


@pytest.mark.parametrize(("hand", "pile", "discard"), CASES)
def test_optimal_points_choice_matches_the_engine_tree(hand, pile, discard):
    state = drawing(hand, pile, discard)
    points = hand_points(hand)
    choice = advisor.choose("points", points, hand[2], *advisor.cards_left(state))
    assert choice.best == engine_best(state, lambda p: p)
    # drawing at least one card (the engine's "draw" branch alone): the advisor's value of drawing on
    assert choice.value_if_draw == engine_best(dataclasses.replace(state, drawn=0), lambda p: p)
    assert choice.draw == (choice.value_if_draw > points)


@pytest.mark.parametrize(("hand", "pile", "discard"), CASES)
@pytest.mark.parametrize("goal", [4, 7, 10, 13])
def test_optimal_reach_choice_matches_the_engine_tree(hand, pile, discard, goal):
    state = drawing(hand, pile, discard)
    points = hand_points(hand)
    choice = advisor.choose("reach", points, hand[2], *advisor.cards_left(state), goal=goal)
    assert choice.best == engine_best(state, lambda p: int(p >= goal))
    assert choice.value_if_draw == engine_best(dataclasses.replace(state, drawn=0), lambda p: int(p >= goal))
    assert choice.draw == (points < goal and choice.value_if_draw > 0)
    assert advisor.reach(goal, points, hand[2], *advisor.cards_left(state)) == choice.best


def play_order(order, goal, points, reds):
    """Draw the cards in this order until ``goal`` points or a third red 3: reached or not."""
    for card in order:
        if points >= goal:
            return True
        if card == 3:
            reds += 1
            if reds == 3:
                return False
        points += card
    return points >= goal


@pytest.mark.parametrize(("pile", "discard"), [((1, 1, 1), (1, 1, 1)), ((0, 2, 1), (2, 0, 2)), ((1, 0, 2), (0, 2, 1))])
@pytest.mark.parametrize("reds", [0, 1, 2])
def test_reach_matches_every_order_of_pile_then_discard(pile, discard, reds):
    """Each physical card distinct: every order of the pile, followed by every order of the shuffled discard."""
    first = [1] * pile[0] + [2] * pile[1] + [3] * pile[2]
    then = [1] * discard[0] + [2] * discard[1] + [3] * discard[2]
    orders = [a + b for a in itertools.permutations(first) for b in itertools.permutations(then)]
    for goal in range(3 * reds, 3 * reds + 14):
        reached = sum(play_order(order, goal, 3 * reds, reds) for order in orders)
        assert advisor.reach(goal, 3 * reds, reds, pile, discard) == Fraction(reached, len(orders)), goal


def test_hand_counts():
    # two red 3s held, 14 of 53 cards are red 3s
    assert advisor.next_bust(2, (16, 23, 14)) == Fraction(14, 53)
    assert advisor.next_bust(1, (16, 23, 14)) == 0
    # the pile is empty: the next card comes from the shuffled discard, 2 red 3s in 4 cards
    assert advisor.next_bust(2, (0, 0, 0), (1, 1, 2)) == Fraction(1, 2)
    # 6 points with two red 3s, target 7: any 1 or 2 (39 of 55) gets there, a red 3 busts
    assert advisor.reach(7, 6, 2, (16, 23, 16)) == Fraction(39, 55)
    # pile: one 1 and one red 3, two red 3s held: drawing wins 1 with chance 1/2 (then stops), loses 6 with 1/2
    assert advisor.choose("points", 6, 2, (1, 0, 1)).value_if_draw == 6 + Fraction(1, 2) * 1 + Fraction(1, 2) * -6
    # a 1 left, then the discard's 2: no risk, so draw both: 6 + 1 + 2
    choice = advisor.choose("points", 6, 2, (1, 0, 0), (0, 1, 0))
    assert choice.draw and choice.value_if_draw == 9
    # full pile from an empty hand: the same optimum as odds' stopping rule (a separate implementation)
    assert advisor.choose("points", 0, 0, (16, 23, 16)).value_if_draw == Fraction(226, 17)
    assert advisor.choose("points", 0, 0, (16, 23, 16)).value_if_draw == odds.best_stopping_rule("points").value_if_draw
    # nothing left anywhere: stop
    assert advisor.choose("points", 6, 2, (0, 0, 0)) == advisor.Choice("points", None, False, None, Fraction(6))


def test_policy_for_points_draws_below_two_red_threes_and_depends_on_the_pile():
    table = advisor.policy("points", (16, 23, 16))
    assert all(table[(points, reds)].draw for points, reds in table if reds < 2)
    assert not any(table[(points, 2)].draw for points in range(6, 21))  # 16 of 55 red 3s: stop
    # one red 3 in 19 cards: drawing gains (9 * 1 + 9 * 2 - 6) / 19 = 21/19 on the next card alone, so draw
    rich = advisor.policy("points", (9, 9, 1))
    assert all(rich[(points, 2)].draw for points in range(6, 21))
    assert rich[(6, 2)].value_if_draw - 6 >= Fraction(21, 19)
    reach = advisor.policy("reach", (16, 23, 16), goal=9)
    assert all(choice.draw == (points < 9) for (points, _), choice in reach.items())


def test_advise_reads_the_live_position():
    state = drawing((0, 1, 2), (3, 2, 1), (5, 5, 5), drawn=2)
    advice = advisor.advise(state, goal=12)
    assert (advice.points, advice.reds, advice.pile, advice.reserve, advice.drawn) == (8, 2, (3, 2, 1), (5, 5, 5), 2)
    assert advice.bust_next == Fraction(1, 6) and advice.reach_fly == 1
    assert advice.reach_goal == advisor.reach(12, 8, 2, (3, 2, 1), (5, 5, 5))
    empty = dataclasses.replace(state, pile=(0, 0, 0))
    assert advisor.advise(empty).pile == (5, 5, 5) and advisor.advise(empty).reserve == (0, 0, 0)


def test_malformed_input_is_refused():
    with pytest.raises(ValueError, match="objective"):
        advisor.choose("fast", 0, 0, (1, 1, 1))
    with pytest.raises(ValueError, match="pile"):
        advisor.choose("points", 0, 0, (1, 1))
    with pytest.raises(ValueError, match="discard"):
        advisor.choose("points", 0, 0, (1, 1, 1), (-1, 0, 0))
    with pytest.raises(ValueError, match="red 3s held"):
        advisor.reach(5, 9, 3, (1, 1, 1))
    with pytest.raises(ValueError, match="points held"):
        advisor.reach(5, 2, 1, (1, 1, 1))
    with pytest.raises(ValueError, match="target"):
        advisor.reach(-1, 0, 0, (1, 1, 1))
    with pytest.raises(ValueError, match="player"):
        advisor.advise(new_game(players=2, seed=0), player=5)


def test_chance_and_points_in_words():
    assert advisor.chance_text(Fraction(14, 53)) == "14/53 (26.4 %)"
    assert advisor.chance_text(Fraction(779879473, 1329484065)) == "58.7 %"
    assert advisor.chance_text(Fraction(1)) == "1 (certain)" and advisor.chance_text(Fraction(0)) == "0 (no chance)"
    assert (
        advisor.points_text(Fraction(241, 17)) == "241/17 = 14.2 points"
        and advisor.points_text(Fraction(1)) == "1 point"
    )


def test_policy_chart_says_draw_or_stop_in_every_possible_cell():
    table = advisor.policy("points", (3, 5, 4), (8, 10, 6), max_points=14)
    figure = charts.policy_chart(table, hand=(7, 2), width=340, height=300)
    heat = figure.data[0]
    assert figure.layout.xaxis.title.text == "points held (dark: draw, light: stop)"
    assert figure.layout.yaxis.title.text == "red 3s held"
    assert heat.texttemplate == ""  # 15 cells in 340 pixels: too narrow for the words, which stay in the hover
    assert charts.policy_chart(table, width=760).data[0].texttemplate == "%{text}"
    assert figure.layout.width == 340 and figure.layout.height == 300
    for reds in (0, 1, 2):
        for points in range(15):
            choice = table.get((points, reds))
            word = heat.text[reds][points]
            if choice is None:
                assert word == "" and heat.z[reds][points] is None
            else:
                assert word == ("draw" if choice.draw else "stop")
                assert heat.hovertext[reds][points].startswith(f"{points} points, {reds} red 3s held: {word}.")
    assert "85/12 = 7.1 points" in heat.hovertext[2][8]  # 8 points, two red 3s: drawing on is worth less
    assert figure.data[1].name == "your hand" and (figure.data[1].x[0], figure.data[1].y[0]) == (7, 2)
