"""The translated rules read as a rulebook: every clarification stands beside the paragraph it clarifies (right after
it, or after the clarifications already there), and the clarifications of a game are numbered in reading order
(issue 14). Every rule id a game's engine raises, refuses a move with in play, or cites in its source is a
paragraph of its rules text, for every game the registry finds (one test for all games, issue 44)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from rulebook import registry, rules_text
from rulebook.core import IllegalMove

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


# --- every rule id a game can raise or cite is a paragraph of its rules text --------------------------------------

# Ids each game's source is known to raise or cite: the search below can fail (a regex that finds nothing passes).
KNOWN = {
    "meetjesland": {"MJ-4.8", "MJ-5.2", "MJ-5.3", "MJ-C8"},
    "kingdom_builder": {"KB-4.1", "KB-6.3", "KB-C12.8", "KB-C13"},
    "ab_die_post": {"ADP-3.1", "ADP-C1", "ADP-C2", "ADP-C4"},
    "claim": {"CL-4.2", "CL-6.2", "CL-7.4", "CL-8.1", "CL-9.1", "CL-C4", "CL-C10"},
}


def cited(game: str) -> tuple[set[str], set[str]]:
    """The rule ids of ``game``'s package source: those ``IllegalMove(...)`` is given as its first argument, and every
    id written anywhere (strings, comments, docstrings; "KB-C12.x", a family of paragraphs, is not an id)."""
    declared = registry.game(game)
    source = "\n".join(path.read_text(encoding="utf-8") for path in sorted(package_of(game).rglob("*.py")))
    rule = rf"{declared.prefix}-C?\d+(?:\.\d+)*"
    raised = set(re.findall(rf"IllegalMove\(\s*f?[\"']({rule})[\"']", source))
    written = set(re.findall(rf"\b{rule}\b(?!\.[A-Za-z])", source))
    return raised, written


def package_of(game: str) -> Path:
    return Path(registry.game(game).engine.__file__).parent


def refused_in_play(game: str, plies: int = 300) -> set[str]:
    """The rule ids of the refusals met in seeded random games at every player count: at each step, moves that were
    legal a few steps before are tried again (stale moves, as a slow click sends them); each refusal's ``check``
    agrees with ``apply``."""
    engine = registry.game(game).engine
    found: set[str] = set()
    for players in registry.game(game).players:
        rng = random.Random(players)
        state, earlier = engine.new_game(players=players, seed=players), []
        for _ in range(plies):
            outcomes = engine.chance_outcomes(state)
            options = [outcome for outcome, _ in outcomes] if outcomes else list(engine.legal_moves(state))
            if not options:
                break
            for move in (move for moves in earlier[-3:] for move in moves):
                try:
                    engine.apply(state, move)
                except IllegalMove as refusal:
                    found.add(refusal.rule)
                    assert engine.check(state, move).rule == refusal.rule, (game, move)
            earlier.append(rng.sample(options, min(5, len(options))))
            state = engine.apply(state, rng.choice(options))
    return found


@pytest.mark.parametrize("game", rules_text.GAMES)
def test_every_rule_id_a_game_raises_or_cites_is_a_paragraph_of_its_rules_text(game):
    raised, written = cited(game)
    played = refused_in_play(game)
    assert raised and played, f"{game}: no refusal found in its source or its play"
    assert KNOWN.get(game, set()) <= written | played, KNOWN[game] - written - played
    paragraphs = rules_text.paragraphs(game)
    missing = sorted((raised | written | played) - set(paragraphs))
    assert not missing, f"{game}: rule ids with no paragraph in {rules_text.notebook_path(game).name}: {missing}"
    for rule in sorted(written | played):  # a clarification reads as one where the text gives it
        if paragraphs[rule].is_clarification:
            assert paragraphs[rule].markdown.startswith(f"**{rule} (clarification"), rule


def test_the_rule_id_search_finds_ids_in_a_refusal_a_comment_and_play():
    raised, written = cited("claim")
    assert "CL-4.2" in raised and "CL-C1" not in raised and {"CL-4.2", "CL-C4"} <= written
    assert {"CL-4.2", "CL-6.1"} <= refused_in_play("claim", plies=80)
