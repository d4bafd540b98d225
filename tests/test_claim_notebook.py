"""Claim's notebook: committed stripped, the numbers and pictures its text gives (that every rule id the engine raises
or cites is a paragraph of it: tests/test_rules_text.py)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "claim.ipynb"


def markdown() -> str:
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")


def test_the_notebook_is_committed_without_outputs():
    for cell in json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None
            assert "def " not in "".join(cell["source"]) and "class " not in "".join(cell["source"])


def test_the_numbers_the_notebook_shows():
    """The checks that used to sit in the notebook's cells: the learner reads the pictures, the tests check them."""
    import random

    from rulebook import claim
    from rulebook.claim import bots

    sections = claim.load_sections()
    assert sorted(len(claim.island(rows).letters) for rows in sections.values()) == [1, 2, 2, 2, 2]
    layouts = {players: claim.assemble(claim.fixed_layout(players)) for players in (2, 3, 4)}
    assert [len(claim.island(rows).letters) for rows in layouts.values()] == [5, 7, 9]
    assert [len(claim.island(rows).points) for rows in layouts.values()] == [68, 95, 123]
    assert len(claim.new_game(players=4, seed=5, assembly="random").island.letters) == 9
    graph = claim.points_graph(claim.new_game(players=2, seed=3))
    assert graph.number_of_nodes() == 68 and all("territory" in data for _, data in graph.nodes(data=True))
    opening = bots.play_until_battle(claim.new_game(players=2, seed=3), random.Random(3))
    assert sum(claim.territory_summary(opening)["sizes"].values()) == 68
    game = claim.apply(claim.new_game(players=2, seed=7), claim.Place((0, 0)))
    assert game.turn == game.first  # the second piece of the pair comes next
    assert claim.check(game, claim.Place((0, 0))).rule == "CL-4.2"
    battle = bots.play_until_battle(claim.new_game(players=2, seed=7), random.Random(7))
    assert battle.phase == "battle" and [len(battle.pieces(p)) for p in range(2)] == [14, 14]
    wins, played = bots.greedy_vs_random(count=10, seed=2000)
    assert played == 10 and wins >= 9
    games = bots.play_games(players=2, count=12, seed=100)
    assert all(claim.outcome(game) is not None for game in games)


def test_the_figures_the_notebook_draws():
    from rulebook import claim

    before, after = claim.play_figure("jump")
    assert after.at((2, 4)) == "r" and after.at((2, 3)) == "B" and after.at((3, 2)) == "b"
    for number, point in ((1, (2, 3)), (2, (2, 3)), (3, (2, 0))):
        before, after = claim.play_figure(number)
        assert before.at(point) == "b" and after.at(point) == "."
    before, after = claim.play_figure(4)
    assert "".join(before.grid).count("b") - "".join(after.grid).count("b") == 4
    before, after = claim.play_figure(5)
    assert "".join(before.grid).count("y") - "".join(after.grid).count("y") == 3
    before, after = claim.play_figure(6)
    assert after.at((2, 2)) == "r" and "".join(after.grid).count("b") == 2
    before, after = claim.play_figure("tower")
    assert after.at((0, 5)) == "." and after.at((0, 6)) == "R" and after.towers_in_reserve(1) == 3


def test_the_notebook_names_points_as_the_board_does():
    """One coordinate system for the reader: the board's names ("C5"); (row, column) stays in the code."""
    from rulebook import claim, rules_text
    from rulebook.claim import words

    game = claim.new_game(players=2, seed=7)
    assert words.point(game, "A11") == (0, 0) and words.point(game, "a11") == (0, 0)
    for bad in ("A99", "11A", "", 5):
        try:
            words.point(game, bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was accepted")
    placed = claim.apply(game, claim.Place(words.point(game, "A11")))
    refusal = words.readable(placed, str(claim.check(placed, claim.Place((0, 0)))))
    assert refusal == "CL-4.2: the point A11 is taken (a blue piece)"
    assert words.sections_text(claim.load_sections()) == (
        "A: 14 and 14 points; B: 14 and 12 points; C: 12 and 15 points; D: 15 and 13 points; E: 14 points"
    )
    graph = claim.points_graph(claim.new_game(players=2, seed=3))
    assert words.graph_text(graph) == "68 points, 115 pairs of neighbours, 29 of the points on the island's edge"
    first_screen = markdown().split("## 1.")[0]
    assert "(row, column)" not in first_screen and "**C5**" in first_screen
    for rule, paragraph in rules_text.paragraphs("claim").items():
        assert "(row, column)" not in paragraph.markdown and "`" not in paragraph.markdown, rule


def test_the_translation_says_a_single_move_and_the_reading_is_marked():
    """CL-7.4: «capture 4 pièces bleues en un seul coup»; CL-C5 says why the engine needs the follow-up move."""
    from rulebook import rules_text

    paragraphs = rules_text.paragraphs("claim")
    assert "captures 4 blue pieces in a single move" in paragraphs["CL-7.4"].markdown
    assert "in one go" not in markdown()
    reading = paragraphs["CL-C5"].markdown
    assert "«en un seul\ncoup»" in reading and "follow-up move" in reading
    # CL-6.2's figure: the rule sheet's is lost and the notebook draws its own right after the paragraph
    assert "see the figure opposite" not in markdown() and "«figure ci contre»" in paragraphs["CL-6.2"].markdown
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    at = next(i for i, cell in enumerate(cells) if "**CL-6.2**" in "".join(cell["source"]))
    assert "our figure for CL-6.2" in "".join(cells[at + 1]["source"]) and 'figure_pair("jump")' in "".join(
        cells[at + 2]["source"]
    )
    # figure (4) is four captures by one piece in one turn: two with the move, two with the follow-up
    from rulebook import claim

    before, after = claim.play_figure(4)
    assert "".join(before.grid).count("b") - "".join(after.grid).count("b") == 4


def test_no_study_figure_is_typed_into_the_prose():
    text = markdown()
    for typed in ("97.5", "87.1", "99.6", "0.07 s", "Wilson interval"):
        assert typed not in text, typed
