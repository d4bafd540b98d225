"""The translated rules read as a rulebook: every clarification stands beside the paragraph it clarifies (right after
it, or after the clarifications already there), and the clarifications of a game are numbered in reading order
(issue 14)."""

from __future__ import annotations

import pytest

from rulebook import rules_text

# Clarifications moved after their numbers were given: a moved paragraph keeps its id (teachers cite them), so these
# stand outside the numbering order. MJ-C2 explains the map's border lines, which MJ-5.2 introduces (issue 25.6).
MOVED = {"MJ-C2": "MJ-5.2"}


def number(rule: str) -> tuple[int, ...]:
    return tuple(int(part) for part in rule.split("-")[1].lstrip("C").split("."))


@pytest.mark.parametrize("game", rules_text.GAMES)
def test_clarifications_are_numbered_in_reading_order(game):
    clarifications = [
        rule for kind, rule in rules_text.outline(game) if kind == "rule" and "-C" in rule and rule not in MOVED
    ]
    assert clarifications, game
    numbers = [number(rule) for rule in clarifications]
    assert numbers == sorted(numbers), clarifications
    moved = {number(rule)[0] for rule in MOVED if rule.split("-")[0] == clarifications[0].split("-")[0]}
    majors = sorted({n[0] for n in numbers} | moved)
    assert majors == list(range(1, len(majors) + 1)), f"{game}: numbers skip ({majors})"


@pytest.mark.parametrize("game", rules_text.GAMES)
def test_paragraphs_of_the_text_are_in_order_and_each_clarification_follows_one(game):
    outline = rules_text.outline(game)
    texts = [number(rule) for kind, rule in outline if kind == "rule" and "-C" not in rule]
    assert texts == sorted(texts)
    previous = None
    for kind, item in outline:
        if kind == "heading":
            previous = None
            continue
        if "-C" in item:
            assert previous is not None, f"{item} opens a section instead of following the paragraph it clarifies"
        previous = item


def test_a_moved_clarification_follows_the_paragraph_it_explains():
    for moved, paragraph in MOVED.items():
        game = next(g for g in rules_text.GAMES if moved in rules_text.paragraphs(g))
        rules = [rule for kind, rule in rules_text.outline(game) if kind == "rule"]
        assert rules.index(moved) > rules.index(paragraph), (moved, paragraph)
        between = rules[rules.index(paragraph) + 1 : rules.index(moved)]
        assert all("-C" in rule for rule in between), f"{moved} is not beside {paragraph}: {between}"


def test_the_order_check_can_fail():
    numbers = [number(rule) for rule in ("MJ-C1", "MJ-C9", "MJ-C3")]
    assert numbers != sorted(numbers)
    assert number("KB-C12.10") > number("KB-C12.9")


CODE_WORDS = ("`", "Config", ".json", ".py", "Wilson")  # code, file names and statistics jargon (issue 25.6)


@pytest.mark.parametrize("game", rules_text.GAMES)
def test_the_rules_paragraphs_carry_no_code_words(game):
    """Set-up options are named by their labels in the app; the code behind them is in each notebook's 'for the
    curious' note, outside the rules."""
    import re

    for rule, paragraph in rules_text.paragraphs(game).items():
        for word in CODE_WORDS:
            assert word not in paragraph.markdown, f"{rule} carries {word!r}"
        assert not re.search(r"\bseed\b", paragraph.markdown), f"{rule} speaks of a seed"


@pytest.mark.parametrize("game", rules_text.GAMES)
def test_each_markdown_cell_holds_at_most_one_heading_and_starts_with_it(game):
    import json

    notebook = json.loads(rules_text.notebook_path(game).read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        source = "".join(cell["source"])
        headings = [line for line in source.splitlines() if line.startswith("#")]
        assert len(headings) <= 1, f"{game}: one cell holds {headings}"
        assert not headings or source.startswith(headings[0]), f"{game}: {headings[0]!r} starts mid-cell"


def test_the_heading_check_can_fail():
    text = "Some prose.\n\n## The live board\n\nMore."
    assert not text.startswith([line for line in text.splitlines() if line.startswith("#")][0])
