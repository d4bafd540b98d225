"""The checks that used to sit in the Meetjesland notebook's cells (issue 14: the notebook reads as prose and
commands; the facts it shows are pinned here, against answers known from outside the code)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from rulebook import meetjesland as mj
from rulebook.meetjesland import analysis, bots, odds

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "meetjesland.ipynb"


def test_the_notebook_holds_no_checks_and_shows_the_worked_turn():
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    code = ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]
    assert not any("assert " in source for source in code)
    assert any("examples.worked_turn()" in source for source in code)


def test_the_map_has_44_territories_in_6_regions_and_three_chokepoints():
    board = mj.load_board()
    assert len(board.territories) == 44 and len(board.regions) == 6
    # cut vertices of the passable map, found by hand: Middelburg hangs on Maldegem, Zelzate-Oost on Zelzate-West,
    # Vosselare on Landegem; the polders have two ways in (Sint-Laureins and Boekhoute)
    assert [board.name(t) for t in analysis.chokepoints(board)] == ["Landegem", "Maldegem", "Zelzate-West"]


def test_reinforcements_and_card_odds_shown_in_the_notebook():
    assert [mj.reinforcements(n) for n in (5, 9, 11, 12, 24)] == [3, 3, 3, 4, 8]  # MJ-4.10, counted by hand
    assert odds.tradeable_probability(3) == 1
    assert odds.set_odds(1)[5] == Fraction(1, 44)  # one card: the Brewery card is 1 of 44


def test_roll_and_battle_odds_match_published_risk_tables():
    assert odds.roll_outcomes(3, 2)[0, 2] == Fraction(2890, 7776)  # 3 dice against 2: the defender loses both
    assert round(odds.win_table(20, 20)[3, 2], 3) == 0.656  # 3 attacking against 2 defending, to the end
    assert odds.win_probability(1, 1, exact=True) == Fraction(15, 36)  # one die each: 15 of 36 rolls win
    outcomes = odds.battle_outcomes(8, 6)
    assert abs(sum(outcomes.values()) - 1) < 1e-12


def test_the_four_rolls_of_the_rule_sheet():
    assert mj.resolve_roll([6, 1, 1], [3]) == (0, 1)  # MJ-6.1, the sheet's own dice
    assert mj.resolve_roll([5, 4, 2], [6, 3]) == (1, 1)  # MJ-6.2: both lose one
    assert mj.resolve_roll([4, 3, 1], [4, 3]) == (2, 0)  # MJ-6.3: both pairs tie, the attacker loses two
    assert mj.resolve_roll([5], [4, 2]) == (0, 1)  # MJ-6.4: two defending dice, yet only one point lost


def test_the_refused_attack_across_the_schipdonk_canal():
    position = mj.arrange(mj.new_game(4, seed=1), {"nevele": (0, 6), "vosselare": (1, 2)}, to_place=0)
    error = mj.check(position, mj.Attack("nevele", "vosselare", 3))
    assert error.rule == "MJ-5.2" and "Nevele and Vosselare" in error.message


def test_the_notebooks_game_between_computers_ends_and_round_trips():
    finished = bots.play_game(players=4, seed=7)
    assert mj.outcome(finished) is not None
    assert mj.from_json(mj.to_json(finished)) == finished


def test_the_notebook_and_board_file_point_into_the_repository_not_outside_it():
    root = NOTEBOOK.parent.parent
    text = NOTEBOOK.read_text() + (root / "graphs" / "meetjesland.json").read_text()
    assert "shared/" not in text
    assert (root / "rulebook" / "meetjesland" / "RESEARCH.md").is_file()
