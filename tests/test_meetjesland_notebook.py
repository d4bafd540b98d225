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


def markdown_cells() -> list[str]:
    return [
        "".join(cell["source"]) for cell in json.loads(NOTEBOOK.read_text())["cells"] if cell["cell_type"] == "markdown"
    ]


def test_the_map_summary_the_notebook_prints():
    board = mj.load_board()
    assert analysis.cut_off(board, "maldegem") == ["middelburg"] and analysis.cut_off(board, "sleidinge") == []
    assert analysis.summary(board).splitlines() == [
        "Chokepoints (their loss cuts the map in two): Landegem (the only way to Vosselare), Maldegem (the only way"
        " to Middelburg) and Zelzate-West (the only way to Zelzate-Oost).",
        "Most neighbours to attack: Sleidinge 9, Ursel 7, Eeklo 6, Ertvelde 6, Hansbeke 6.",
        "Green is entered through Belzele, Ertvelde, Rieme and Sleidinge.",
        "Fewest conquests from Middelburg to Zelzate-Oost: 7, through Maldegem → Sint-Laureins → Kaprijke → "
        "Bassevelde → Assenede → Zelzate-West → Zelzate-Oost.",
    ]
    # the prose after it: Sleidinge is the crossroads; the polders (reached two ways) are not cut off by one territory
    assert analysis.degrees(board)[0][0] == "sleidinge"
    polders = {"sint_margriete", "sint_jan_in_eremo", "waterland_oudeman", "watervliet"}
    assert not any(polders & set(analysis.cut_off(board, t)) for t in board.territories)


def test_the_rolls_of_the_rule_sheet_as_the_notebook_prints_them():
    from rulebook.meetjesland import examples

    assert examples.sheet_rolls() == [
        "MJ-6.1: 6-1-1 against 3: the attacker loses nothing, the defender 1 point",
        "MJ-6.2: 5-4-2 against 6-3: the attacker loses 1 point, the defender 1 point",
        "MJ-6.3: 4-3-1 against 4-3: the attacker loses 2 points, the defender nothing",
        "MJ-6.4: 5 against 4-2: the attacker loses nothing, the defender 1 point",
    ]


def test_the_numbers_the_clarifications_quote():
    """MJ-C1's region sizes, MJ-C2's closed canals, MJ-C4's mission sizes and MJ-C9's example, from the map."""
    from rulebook.meetjesland import rules

    board = mj.load_board()
    text = "\n".join(markdown_cells())
    sizes = {region: len(members) for region, members in board.regions.items()}
    assert "8 red, 4 yellow, 10 blue, 9 green,\n8 orange and 5 mauve" in text
    assert sizes == {"red": 8, "yellow": 4, "blue": 10, "green": 9, "orange": 8, "mauve": 5}
    assert sum(1 for *_, line in board.graph.edges(data="line") if line == "thick") == 9  # "Nine canal borders"
    assert "Nine canal borders stay closed" in text
    for mission, size in ((0, 18), (1, 17), (2, 18), (3, 18)):
        assert sum(sizes[region] for region in rules.MISSIONS[mission].regions) == size
    numbered = [t for t in board.territories if board.number(t)]
    assert len(numbered) == 13 and {board.number(t) for t in numbered} == {2} and "zelzate_west" in numbered
    # MJ-C9's example: the whole of red and Eeklo, no other numbered territory: 2 + 2 + 2 + 2 = 8
    mine = {t: (0, 1) for t in board.regions["red"]} | {"eeklo": (0, 1)}
    others = {t: (1, 1) for t in board.territories if t not in mine}
    state = mj.arrange(mj.new_game(4, seed=0), mine | others)
    assert rules.colour_bonus(state, 0) == 8 and "2 + 2 + 2 + 2 = 8 points" in text


def test_the_clarification_of_moving_points_names_the_option_the_set_up_offers():
    from rulebook.meetjesland import game

    labels = {option.name: option.label for option in game.GAME.options}
    words = " ".join("\n".join(markdown_cells()).replace("*", "").split())  # the text as read, line breaks aside
    assert labels["move_and_reinforce"] in words and labels["trade_down"] in words
    text = "\n".join(markdown_cells())
    assert "«Vous passez ensuite votre tour»" in text and mj.Config().move_and_reinforce is False


def test_a_first_reader_meets_one_word_for_territories_and_no_code_in_the_rules():
    from rulebook import rules_text

    prose = "\n".join(markdown_cells()).lower()
    assert "village" not in prose.replace("village centres", "").replace("main village", "").replace(
        "villages of evergem", ""
    )
    for rule, paragraph in rules_text.paragraphs("meetjesland").items():
        for word in ("`", "Config", ".json", ".py", "seed", "Wilson"):
            assert word not in paragraph.markdown, (rule, word)
    first = markdown_cells()[0]
    assert "The game in short" in first and "territor" in first


def test_the_map_picture_draws_the_deal_as_the_board_does():
    from rulebook.meetjesland import widget

    state = mj.new_game(players=4, seed=1)
    figure = widget.map_picture(state)
    territories = next(trace for trace in figure.data if trace.name == "territories")
    assert list(territories.text) == ["2"] * 44  # MJ-4.1: two points on every territory at the start
    assert territories.marker.symbol[0] == widget.PLAYER_SYMBOL[state.owner[0]]
    lines = {trace.name: trace.line.color for trace in figure.data if trace.name.endswith(" line")}
    assert lines == {
        "thin line": "#555555",
        "white line": "#ffffff",
        "thick line": "#1d4e89",
    }  # MJ-C2: grey, white, blue
