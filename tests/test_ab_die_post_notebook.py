"""The facts the Ab die Post! notebook states and prints, checked here (issue 25): the translation of ADP-4.1 and
ADP-7.2 as the French says it, the readings marked with the French words, the numbers of the prose as the engine
computes them, and sentences instead of raw tuples, dicts and dataclasses."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from rulebook import ab_die_post, rules_text
from rulebook.ab_die_post import advisor, bots, odds, words

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "ab_die_post.ipynb"


def cells(kind: str) -> list[str]:
    return [
        "".join(c["source"])
        for c in json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
        if c["cell_type"] == kind
    ]


def prose() -> str:
    return "\n".join(cells("markdown"))


def test_the_translation_follows_the_french_and_marks_the_readings():
    paragraphs = rules_text.paragraphs("ab_die_post")
    assert "face up" not in paragraphs["ADP-4.1"].markdown  # «les met devant lui»
    assert "puts them in\nfront of themselves" in paragraphs["ADP-4.1"].markdown
    assert "«devant lui»" in paragraphs["ADP-C6"].markdown and "open" in paragraphs["ADP-C6"].markdown
    assert paragraphs["ADP-7.2"].markdown.startswith(
        "**ADP-7.2** The change is not made if a player cannot gather the points required."
    )
    reading = " ".join(paragraphs["ADP-C10"].markdown.split())
    assert "«Le changement n'est pas fait si un joueur ne peut pas réunir les points exigés»" in reading
    assert "no change is given" in reading


def test_the_numbers_of_the_prose_are_the_engine_s():
    text = prose()
    assert odds.bust_probability(1, red_held=2) == Fraction(16, 55) and "chance 16/55 from a full pile" in text
    assert odds.reach_probability(4) == 1 and "4 points (enough to fly) are always reached" in text
    assert odds.stopping_threshold(ones=16, twos=23) == 10 and "at most 10 red 3s are left in the pile" in text
    track = ab_die_post.load_track()
    steps = ab_die_post.rules.steps_left(track, 1)["start"], ab_die_post.rules.steps_left(track, 1, True)["start"]
    assert steps == (13, 17) and "takes 13 steps" in text and "takes 17" in text
    assert odds.repairs_affordable((0, 0, 2), cost=2) == 2 and odds.repairs_affordable((0, 0, 2), cost=4) == 1
    for typed in ("94.0 %", "won all 60", "5 of 60", "60 of 60", "Wilson interval"):
        assert typed not in text, typed


def test_the_sentences_the_notebook_prints():
    assert words.routes_text(ab_die_post.load_track()) == (
        "Fewest fields from the start field to the airport: 13 along the inner lane, 25 along the central lane, "
        "49 along the outer lane; 13 changing lanes freely."
    )
    assert words.marbles_text(odds.marble_distribution(3)) == (
        "green 1/8 (12.5 %), blue 1/4 (25.0 %), red 1/4 (25.0 %), yellow 1/8 (12.5 %), black 1/4 (25.0 %)"
    )
    assert words.chance(Fraction(1)) == "certain" and words.chance(Fraction(0)) == "impossible"
    assert words.advice_text(odds.best_stopping_rule("points", points_held=6, red_held=2)) == (
        "stop: drawing on (then playing best) is worth 296/55 (5.38) points on average, stopping 6"
    )
    choice = advisor.choose("points", points=6, reds=2, pile=(16, 23, 14))
    assert words.advice_text(choice).startswith("stop: drawing on (then playing best) is worth 296/53")
    players = [bots.greedy_player, bots.make_threshold_player(9), bots.random_player, bots.make_threshold_player(5)]
    final = bots.play_game(players, seed=3)
    assert words.outcome_text(ab_die_post.outcome(final)) == (
        "P2 (blue) won: 21 points (target 15). Scores: P1 (red) 13, P2 (blue) 21, P3 (yellow) 9, P4 (white) 14."
    )
    assert words.outcome_text(None) == "the game is not over"


def test_one_heading_per_cell_no_code_in_the_rules_and_the_odds_outside_them():
    for source in cells("markdown"):
        headings = [line for line in source.splitlines() if line.startswith("#")]
        assert len(headings) <= 1 and (not headings or source.startswith(headings[0])), source[:60]
    paragraphs = rules_text.paragraphs("ab_die_post")
    for rule, paragraph in paragraphs.items():
        for word in ("`", "Config", ".json", "Wilson", "odds."):
            assert word not in paragraph.markdown, (rule, word)
    assert "The odds of drawing" not in paragraphs["ADP-C6"].markdown
    assert "Surviving hurricanes" not in paragraphs["ADP-C11"].markdown
    assert not [source for source in cells("code") if "assert " in source]
