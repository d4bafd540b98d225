"""Claim's notebook carries every rule id the engine can raise, and every clarification the code cites."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "claim.ipynb"
PACKAGE = ROOT / "rulebook" / "claim"


def markdown() -> str:
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")


def source() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(PACKAGE.glob("*.py")))


def test_every_raised_rule_id_is_a_paragraph_of_the_notebook():
    raised = set(re.findall(r'IllegalMove\(\s*"(CL-[0-9C.]+)"', source()))
    assert {"CL-4.2", "CL-6.2", "CL-7.4", "CL-8.1", "CL-9.1", "CL-C4", "CL-C10"} <= raised
    text = markdown()
    for rule in sorted(raised):
        heading = f"**{rule} (clarification)**" if rule.startswith("CL-C") else f"**{rule}**"
        assert heading in text, f"{rule} is raised by the engine but not in the notebook"


def test_every_clarification_cited_in_the_code_is_explained():
    cited = set(re.findall(r"CL-C\d+", source()))
    text = markdown()
    for rule in sorted(cited):
        assert f"**{rule} (clarification)**" in text, rule


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
