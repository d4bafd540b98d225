"""The translated rules read as a rulebook: every clarification stands beside the paragraph it clarifies (right after
it, or after the clarifications already there), and the clarifications of a game are numbered in reading order
(issue 14)."""

from __future__ import annotations

import pytest

from rulebook import rules_text


def number(rule: str) -> tuple[int, ...]:
    return tuple(int(part) for part in rule.split("-")[1].lstrip("C").split("."))


@pytest.mark.parametrize("game", rules_text.GAMES)
def test_clarifications_are_numbered_in_reading_order(game):
    clarifications = [rule for kind, rule in rules_text.outline(game) if kind == "rule" and "-C" in rule]
    assert clarifications, game
    numbers = [number(rule) for rule in clarifications]
    assert numbers == sorted(numbers), clarifications
    majors = sorted({n[0] for n in numbers})
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


def test_the_order_check_can_fail():
    numbers = [number(rule) for rule in ("MJ-C1", "MJ-C9", "MJ-C3")]
    assert numbers != sorted(numbers)
    assert number("KB-C12.10") > number("KB-C12.9")
