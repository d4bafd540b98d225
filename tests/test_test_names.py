"""A test named for a rule paragraph is named for one the rules text has, and checks it: a test function whose name
carries rule ids (``test_MJ_5_3_...``, ``test_cl_c3_...``) names paragraphs of the rules text (a clarification
renumbered since left names that pointed at another paragraph), and where its body gives rule ids (the rule a refusal
must carry, a paragraph it reads) one of them is an id of its name. A scenario that checks its paragraph's behaviour
without a refusal gives no id and passes; one checked through another paragraph's refusal names that one too."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rulebook import registry, rules_text

TESTS = Path(__file__).resolve().parent
PREFIXES = sorted((game.prefix for game in registry.games().values()), key=len, reverse=True)
# in a name: the prefix, then the paragraph's numbers joined by _ (test_MJ_5_3_..., test_KB_C12_8_..., test_cl_c3_...)
NAMED = re.compile(rf"(?:^|_)({'|'.join(PREFIXES)})_(c?\d+(?:_\d+)*)(?=_|$)", re.IGNORECASE)
GIVEN = re.compile(rf"[\"']((?:{'|'.join(PREFIXES)})-C?\d+(?:\.\d+)*)[\"']")


def rules_in_name(name: str) -> list[str]:
    """The rule ids a test's name carries, written as the rules text writes them."""
    return [f"{prefix.upper()}-{numbers.upper().replace('_', '.')}" for prefix, numbers in NAMED.findall(name)]


def named_tests():
    """(where, name, rule ids of the name, the function's source) of every test function named for rules."""
    for module in sorted(TESTS.rglob("test_*.py")):
        source = module.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
                rules = rules_in_name(node.name)
                if rules:
                    yield module.relative_to(TESTS).as_posix(), node.name, rules, ast.get_source_segment(source, node)


def problems() -> list[str]:
    paragraphs = {rule for game in rules_text.GAMES for rule in rules_text.paragraphs(game)}
    found = []
    for where, name, rules, source in named_tests():
        found += [f"{where}::{name}: {rule} is no paragraph" for rule in rules if rule not in paragraphs]
        given = set(GIVEN.findall(source or ""))
        if given and not given & set(rules):
            found.append(f"{where}::{name} is named for {rules} but gives {sorted(given)}")
    return found


def test_a_test_named_for_a_rule_names_a_paragraph_and_gives_that_rule():
    found = problems()
    assert not found, "\n".join(found)


def test_the_rule_ids_of_a_name_are_read_as_the_text_writes_them():
    assert rules_in_name("test_MJ_5_3_one_attack") == ["MJ-5.3"]
    assert rules_in_name("test_cl_c3_three_players") == ["CL-C3"]
    assert rules_in_name("test_KB_C12_8_and_KB_4_1_x") == ["KB-C12.8", "KB-4.1"]
    assert rules_in_name("test_ADP_2_3_marbles") == ["ADP-2.3"]
    assert rules_in_name("test_random_play_of_4_players") == []
    assert GIVEN.findall('refused(state, move, "KB-C12.8")  # not KB-4.1') == ["KB-C12.8"]
    assert any(where == "test_test_names.py" for where, *_ in named_tests()) is False
    assert len(list(named_tests())) > 100  # the scenario tests of the four games are read
