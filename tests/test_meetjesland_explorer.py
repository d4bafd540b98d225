"""The Odds tab of Meetjesland (issue 13.1): the attack calculator and the chain planner, their exact numbers
checked against brute-force enumeration of the dice (tests/test_meetjesland_odds.py's reference, which shares no
code with odds.py), and the widget driven by setting its controls in Python; the Hint's mark and reason (13.4)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import ipywidgets as widgets
import pytest

from rulebook import meetjesland as mj
from rulebook.meetjesland import bots, charts, odds
from rulebook.meetjesland.explorer import Explorer, parse_defenders
from rulebook.meetjesland.widget import Board, hint_places
from rulebook.views import ChartView, trace
from tests.helpers import mj_playing as playing
from tests.test_meetjesland_odds import reference_ends

DEAL = mj.new_game(4, seed=0)


@cache
def reference_chain(stake: int, path: tuple[int, ...]) -> Fraction:
    """Brute force: fight the first territory to the end; on a conquest 1 point stays and the rest go on."""
    if not path:
        return Fraction(1)
    total = Fraction(0)
    for (left, held), p in reference_ends(stake, path[0]).items():
        if held:
            continue
        if len(path) == 1:
            total += p
        elif left > 1:
            total += p * reference_chain(left - 1, path[1:])
    return total


# --- the numbers ----------------------------------------------------------------------------------------------


def test_one_against_one_by_hand():
    # 15 of the 36 rolls of two dice have the attacker's die higher: the attacker wins, else loses its one point
    attack = odds.attack_odds(1, 1, exact=True)
    assert attack.conquest == Fraction(15, 36)
    assert attack.attacker_losses == Fraction(21, 36) and attack.defender_losses == Fraction(15, 36)
    assert attack.beaten == Fraction(21, 36) and attack.broken_off == 0


@pytest.mark.parametrize("stop_at", [0, 1, 2])
@pytest.mark.parametrize("stake", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("defenders", [1, 2, 3, 4])
def test_attack_odds_match_brute_force(stake, defenders, stop_at):
    ends = reference_ends(stake, defenders, stop_at)
    attack = odds.attack_odds(stake, defenders, stop_at, exact=True)
    assert attack.outcomes == {end: p for end, p in ends.items() if p}
    assert attack.conquest == sum((p for (left, held), p in ends.items() if held == 0), Fraction(0))
    assert attack.attacker_losses == stake - sum((left * p for (left, _), p in ends.items()), Fraction(0))
    assert attack.defender_losses == defenders - sum((held * p for (_, held), p in ends.items()), Fraction(0))
    assert attack.conquest + attack.beaten + attack.broken_off == 1
    floats = odds.attack_odds(stake, defenders, stop_at)
    assert floats.conquest == pytest.approx(float(attack.conquest), abs=1e-12)
    assert floats.attacker_losses == pytest.approx(float(attack.attacker_losses), abs=1e-12)


def test_a_stake_already_at_the_stop_does_not_roll():
    attack = odds.attack_odds(3, 2, stop_at=3, exact=True)
    assert attack.outcomes == {(3, 2): 1} and attack.conquest == 0 and attack.attacker_losses == 0


def test_attack_odds_up_to_100_a_side_sum_to_one():
    attack = odds.attack_odds(100, 100, stop_at=10)
    assert sum(attack.outcomes.values()) == pytest.approx(1)
    assert 0 < attack.conquest < 1 and attack.attacker_losses > 0
    with pytest.raises(ValueError, match="stake"):
        odds.attack_odds(-1, 3)


@pytest.mark.parametrize(
    ("stake", "path"), [(1, (1,)), (3, (1, 1)), (4, (2, 1)), (5, (1, 2, 1)), (6, (3, 2)), (7, (2, 2, 2))]
)
def test_chain_odds_match_brute_force(stake, path):
    chain = odds.chain_odds(stake, path, exact=True)
    assert chain.all_taken == reference_chain(stake, path)
    assert chain.reached == tuple(reference_chain(stake, path[: i + 1]) for i in range(len(path)))


@pytest.mark.parametrize("path", [(1,), (2, 1), (3, 2, 4)])
def test_smallest_stakes_are_the_first_to_reach_each_chance(path):
    chain = odds.chain_odds(5, path)
    for target, stake in chain.stakes.items():
        assert reference_chain(stake, path) >= target
        assert stake == 1 or reference_chain(stake - 1, path) < target
    assert chain.stakes[0.5] <= chain.stakes[0.75] <= chain.stakes[0.9]


def test_the_issue_s_seven_against_four():
    # the issue read P = 0.8337390470 off a heatmap; the calculator says it in words
    assert f"{float(odds.attack_odds(7, 4).conquest):.10f}" == "0.8337390470"
    assert charts.percent(0.8337390470) == "83.4 %"
    assert charts.percent(0.0001) == "less than 0.1 %" and charts.percent(0.99991) == "more than 99.9 %"


def test_the_outcome_chart_shows_every_ending_once():
    attack = odds.attack_odds(6, 4, stop_at=2, exact=True)
    figure = charts.attack_chart(attack, width=340, height=380, name="Eeklo")
    taken, beaten, broke_off = figure.data
    assert all(x > 0 for x in taken.x) and all(x < 0 for x in beaten.x + broke_off.x)
    assert sum(taken.y) == pytest.approx(float(attack.conquest))
    assert sum(beaten.y) == pytest.approx(float(attack.beaten))
    assert sum(broke_off.y) == pytest.approx(float(attack.broken_off))
    assert figure.layout.width == 340 and figure.layout.xaxis.title.text and figure.layout.yaxis.tickformat == ".0%"
    assert "Eeklo" in taken.name and all("%" in row[1] for row in taken.customdata)


# --- the widget --------------------------------------------------------------------------------------------------


def result_text(explorer: Explorer, which: str = "attack") -> str:
    widget = explorer.attack_result if which == "attack" else explorer.chain_result
    return widgets.HTML(widget.value).value.replace("<b>", "").replace("</b>", "")


def test_the_calculator_answers_when_the_numbers_change():
    board = Board(playing({"kaprijke": (0, 5), "eeklo": (1, 2)}))
    explorer = Explorer(board)
    assert "rulebook-explorer" in explorer._dom_classes
    assert "rulebook-explorer-result" in explorer.attack_result._dom_classes
    assert isinstance(explorer.attackers, widgets.BoundedIntText) and explorer.attackers.max == 100
    explorer.attackers.value, explorer.defenders.value = 7, 4
    text = result_text(explorer)
    assert "7 attacking against 4 defending" in text and "83.4 %" in text
    before = explorer.attack_result.value
    explorer.stop_at.value = 3
    assert explorer.attack_result.value != before and "breaking off when down to 3" in explorer.attack_result.value
    assert isinstance(explorer.attack_figure, ChartView)
    assert explorer.attack_figure.plot.data[0].y and explorer.attack_figure.plot.layout.width == 340
    assert explorer.attack_figure.figure["layout"]["title"]["text"].startswith("7 against 4, stop at 3")  # sent


def test_one_against_one_shows_the_exact_fraction():
    explorer = Explorer(Board(playing({"kaprijke": (0, 5), "eeklo": (1, 2)})))
    explorer.attackers.value, explorer.defenders.value = 1, 1
    assert "41.7 % (exactly 5/12)" in result_text(explorer)


def test_both_follow_the_attack_chosen_on_the_board():
    board = Board(playing({"kaprijke": (0, 8), "eeklo": (1, 3), "bassevelde": (2, 2)}))
    explorer = Explorer(board)
    board.select("kaprijke")
    board.select("eeklo")
    board.stake.value = 6
    assert (explorer.attackers.value, explorer.defenders.value) == (6, 3)
    assert "Kaprijke attacks Eeklo with 6" in explorer.attack_source.value
    assert explorer.start == "kaprijke" and explorer.path == ["eeklo"] and explorer.chain_stake.value == 7
    assert f"{float(odds.chain_win_probability(7, [3])) * 100:.1f} %" in result_text(explorer, "chain")
    # the map shows the path from the start
    assert list(trace(board.figure.plot, "planned path").text) == ["", "1"]  # the start, then the territories in order
    sent = next(drawn for drawn in board.figure.figure["data"] if drawn["name"] == "planned path")
    assert sent["text"] == ["", "1"]  # and the page has it
    drawn = board.figure.revision
    explorer.attackers.value = 9  # the calculator's own numbers: the path, and so the map, stay as they are
    assert board.figure.revision == drawn


def test_a_path_clicked_on_the_map_while_planning():
    state = playing({"eeklo": (0, 12), "kaprijke": (1, 3), "bassevelde": (2, 2), "boekhoute": (3, 4)})
    board = Board(state)
    explorer = Explorer(board)
    explorer.plan_button.value = True
    for territory in ("eeklo", "kaprijke", "bassevelde", "boekhoute"):
        assert explorer.click(territory)
    assert board.origin is None  # the clicks built the path; the board chose nothing
    assert explorer.path == ["kaprijke", "bassevelde", "boekhoute"]
    assert explorer.defenders_along_path() == [3, 2, 4]
    explorer.chain_stake.value = 12
    text = result_text(explorer, "chain")
    assert f"{float(odds.chain_win_probability(12, [3, 2, 4])) * 100:.1f} %" in text
    stakes = odds.chain_odds(12, [3, 2, 4]).stakes
    assert f"50 %: {stakes[0.5]}; 75 %: {stakes[0.75]}; 90 %: {stakes[0.9]}" in text
    assert "Eeklo can stake 11 now" in text
    chart = explorer.chain_figure.plot.data[0]
    assert list(chart.x) == ["1. Kaprijke", "2. Bassevelde", "3. Boekhoute"]
    assert chart.y[-1] == pytest.approx(odds.chain_win_probability(12, [3, 2, 4]))
    explorer.click("bassevelde")  # a click on the path cuts it back
    assert explorer.path == ["kaprijke"]
    explorer.click("eeklo")  # a click on the start clears it
    assert explorer.path == [] and explorer.start == "eeklo"
    explorer.plan_button.value = False
    assert not explorer.click("kaprijke")


def test_the_planner_refuses_a_canal_a_far_territory_and_an_enemy_start():
    board = Board(playing({"nevele": (0, 6), "vosselare": (1, 2), "eeklo": (1, 3)}))
    explorer = Explorer(board)
    explorer.plan_button.value = True
    explorer.click("eeklo")
    assert explorer.start is None and "not yours" in explorer.path_text.value
    explorer.click("nevele")
    explorer.click("vosselare")
    assert explorer.path == [] and "canal" in explorer.path_text.value and "MJ-5.2" in explorer.path_text.value
    explorer.click("eeklo")
    assert explorer.path == [] and "does not border Nevele" in explorer.path_text.value


def test_typed_defenders_without_a_path():
    explorer = Explorer(Board(playing({"kaprijke": (0, 5)})))
    explorer.chain_stake.value = 9
    assert "No path yet for a stake of 9" in explorer.chain_result.value
    explorer.typed.value = "3, 2, 4"
    explorer.chain_stake.value = 12
    assert "against territory 1 (3), territory 2 (2), territory 3 (4)" in result_text(explorer, "chain")
    explorer.typed.value = "3, x"
    assert "entry 2" in explorer.chain_result.value
    assert parse_defenders(" 1 ; 2 ") == [1, 2]
    with pytest.raises(ValueError, match="from 1 to 100"):
        parse_defenders("0")


def test_the_planner_follows_a_conquest_along_the_path():
    board = Board(playing({"eeklo": (0, 12), "kaprijke": (1, 1), "bassevelde": (2, 2)}))
    explorer = Explorer(board)
    explorer.plan_button.value = True
    for territory in ("eeklo", "kaprijke", "bassevelde"):
        explorer.click(territory)
    after = mj.arrange(board.live, {"kaprijke": (0, 10)})
    board.states.append(after)
    board.redraw()
    assert explorer.start == "kaprijke" and explorer.path == ["bassevelde"]


def test_the_explorer_fits_the_app_panel_and_a_wider_notebook():
    board = Board(playing({"kaprijke": (0, 5)}))
    assert Explorer(board).layout.width == "340px"
    wide = Explorer(board, width=700, chart_height=380)
    assert wide.attack_figure.plot.layout.width == 700


# --- the hint -------------------------------------------------------------------------------------------------


def test_hint_is_marked_on_the_map_and_cleared_by_the_next_move():
    board = Board(playing({"kaprijke": (0, 9), "eeklo": (1, 1)}), computer={1: "greedy", 2: "greedy", 3: "greedy"})
    move = board.hint()
    assert move == bots.strong_player(board.live, None) and board.hinted == move
    hint = trace(board.figure.plot, "hint")
    assert isinstance(move, mj.Attack) and list(hint.marker.symbol) == ["circle", "arrow", "circle"]
    assert f"to take {board.state.board.name(move.target)}" in board.status.text and "%" in board.status.text
    assert board.play(move)
    assert list(trace(board.figure.plot, "hint").x) == []


def test_hint_places_of_each_kind_of_move():
    state = playing({"kaprijke": (0, 9), "eeklo": (1, 1)})
    assert hint_places(state, mj.Place("kaprijke", 2)) == [("kaprijke", None, "hint: +2")]
    assert hint_places(state, mj.Attack("kaprijke", "eeklo", 8)) == [("kaprijke", "eeklo", "hint: 8")]
    assert hint_places(state, mj.EndTurn()) == [] and hint_places(state, None) == []


def test_explain_says_the_odds_in_words():
    state = playing({"kaprijke": (0, 8), "eeklo": (1, 4)})
    text = bots.explain(state, mj.Attack("kaprijke", "eeklo", 7))
    assert text.startswith("Attack: 83.4 % to take Eeklo with 7 against 4")
    placed = bots.explain(playing({"kaprijke": (0, 2), "eeklo": (1, 4)}, to_place=6), mj.Place("kaprijke", 6))
    assert placed.startswith("Place on Kaprijke: then 7 against ") and placed.endswith(" %.")
    assert "points instead" in bots.explain(state, mj.Reinforce())
