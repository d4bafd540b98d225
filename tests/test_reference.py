"""The glossary and FAQ of every game (rulebook.teach.reference): the data is valid, every rule id it cites is a
paragraph of the game's rules, a bad file is refused in words and changes nothing cached, and what an answer claims
the engine can decide is played through the engine from a written position (counts by hand in the comments)."""

from __future__ import annotations

import functools
import itertools
import json
import re
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from rulebook import registry
from rulebook.teach import reference, rules_text
from rulebook.teach.reference import Question, Term
from tests import helpers

GAMES = tuple(registry.games())


# --- the data of the four games ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_glossary_of_15_to_30_terms_tied_to_its_paragraphs(game):
    terms = reference.glossary(game)
    paragraphs = rules_text.paragraphs(game)
    assert 15 <= len(terms) <= 30
    assert all(isinstance(term, Term) and term.rule in paragraphs for term in terms)
    words = [word.casefold() for term in terms for word in (term.term, *term.aliases)]
    assert len(words) == len(set(words)), "a word stands for two terms"
    assert all(term.aliases and term.definition.endswith(".") for term in terms)
    assert reference.glossary(game) is terms  # cached


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_faq_of_12_to_20_questions_numbered_in_order(game):
    questions = reference.faq(game)
    prefix = registry.game(game).prefix
    assert 12 <= len(questions) <= 20
    assert [question.id for question in questions] == [f"{prefix}-Q{n}" for n in range(1, len(questions) + 1)]
    paragraphs = rules_text.paragraphs(game)
    for question in questions:
        assert isinstance(question, Question) and question.question.endswith("?")
        assert question.rules and all(rule in paragraphs for rule in question.rules), question.id
        # an id written in the answer's words is a paragraph too
        assert all(rule in paragraphs for rule in rules_text.RULE_ID.findall(question.answer)), question.id
        assert len(question.answer) <= 400, f"{question.id}: a FAQ answer is a few sentences"
    assert reference.faq(game) is questions


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_player_aid_whose_lines_and_tables_name_its_paragraphs(game):
    sections = reference.aid(game)
    paragraphs = rules_text.paragraphs(game)
    assert 3 <= len(sections) <= 8
    assert all(rule in paragraphs for section in sections for rule, _ in section.lines)
    assert all(section.rule in paragraphs for section in sections if section.rows)
    assert all(bool(section.lines) != bool(section.rows) for section in sections)
    assert reference.aid(game) is sections


def aid_table(game: str, rule: str) -> reference.AidSection:
    (section,) = [section for section in reference.aid(game) if section.rule == rule]
    return section


def percent(value: Fraction) -> str:
    return "0%" if value == 0 else f"{float(value) * 100:.1f}%"


def test_aid_meetjesland_one_roll_odds_are_the_engines():
    """Each row summed over the engine's dice outcomes of a battle with that many dice (resolved by the engine)."""
    from rulebook import meetjesland as mj

    section = aid_table("meetjesland", "MJ-5.6")
    for label, defender_all, one_each, attacker_all in section.rows:
        attacking, defending = (int(n) for n in label.split(" against "))
        position = helpers.mj_playing(territories={"eeklo": (0, 6), "kaprijke": (1, defending)})
        state = mj.apply(position, mj.Attack("eeklo", "kaprijke", attacking))
        losses: dict[tuple[int, int], Fraction] = {}
        for dice, chance in mj.chance_outcomes(state):
            key = mj.resolve_roll(dice.attacker, dice.defender)
            losses[key] = losses.get(key, Fraction(0)) + chance
        compared = min(attacking, defending)
        assert percent(losses.get((0, compared), Fraction(0))) == defender_all
        assert (percent(losses[(1, 1)]) if compared == 2 else "-") == one_each
        assert percent(losses.get((compared, 0), Fraction(0))) == attacker_all
    assert aid_table("meetjesland", "MJ-5.6").rows[0] == ("3 against 2", "37.2%", "33.6%", "29.3%")  # Risk's table


def test_aid_meetjesland_whole_attack_odds_are_the_engines():
    from rulebook.meetjesland import odds

    def shown(chance: Fraction) -> str:
        if chance >= Fraction(995, 1000):
            return ">99%"
        return "<1%" if 0 < chance < Fraction(5, 1000) else f"{float(chance) * 100:.0f}%"

    section = aid_table("meetjesland", "MJ-C10")
    for staked, *cells in section.rows:
        defending = [int(column) for column in section.columns[1:]]
        assert [shown(odds.win_probability(int(staked), count, exact=True)) for count in defending] == cells
    # Risk's published figure: 3 attacking armies against 2 defenders take the territory 65.6% of the time
    assert [row for row in section.rows if row[0] == "3"][0][2] == "66%"


def test_aid_meetjesland_cards_and_starting_points_agree_with_the_faq_checks():
    assert [row[1] for row in aid_table("meetjesland", "MJ-4.7").rows] == ["5", "4", "6", "8"]  # test_faq_q9
    (setting_up,) = [
        text for section in reference.aid("meetjesland") for rule, text in section.lines if rule == "MJ-4.1"
    ]
    assert "35 each with 3 players, 30 with 4, 25 with 5, 20 with 6" in setting_up  # test_faq_q17


def test_aid_ab_die_post_marbles_wind_and_busts_are_the_engines():
    from rulebook import ab_die_post as adp
    from rulebook.ab_die_post import odds

    colours = ("green", "blue", "red", "yellow", "black")
    for label, *counts, hurricane in aid_table("ab_die_post", "ADP-C2").rows:
        players = int(label.split()[0])
        hands = ((2, 1, 0),) + ((0, 0, 0),) * (players - 1)
        state = adp.apply(helpers.adp_position(players, hands=hands, pile=(14, 22, 16)), adp.Fly())
        chances = {marble.colour: chance for marble, chance in adp.chance_outcomes(state)}
        total = sum(int(count) for count in counts)
        assert chances == {colour: Fraction(int(count), total) for colour, count in zip(colours, counts)}
        assert str(chances["black"]) == hurricane
    (wind,) = aid_table("ab_die_post", "ADP-C7").rows
    config = adp.new_game(players=3, seed=0).config
    assert [str(adp.rules.wind_distance(config, colour)) for colour in colours[:4]] == list(wind[1:])
    for held, *cells in aid_table("ab_die_post", "ADP-4.2").rows:
        assert [percent(odds.bust_probability(draws, int(held))) for draws in range(1, 6)] == cells
    assert aid_table("ab_die_post", "ADP-4.2").rows[2][1] == "29.1%"  # 16 red 3s in 55 cards: 16/55, by hand


def test_aid_claim_islands_are_the_engines():
    from rulebook import claim

    for players, sections, territories, _ in aid_table("claim", "CL-3.2").rows:
        assert len(claim.fixed_layout(int(players))) == int(sections)
        assert len(claim.new_game(players=int(players), seed=1).island.letters) == int(territories)


def test_lookup_finds_a_term_by_any_of_its_words():
    game = GAMES[0]
    term = reference.glossary(game)[0]
    assert reference.lookup(game, term.aliases[0].upper()) is term
    assert reference.lookup(game, f"  {term.term} ") is term
    assert reference.lookup(game, "no such word at all") is None


def test_the_learners_words_include_the_french_of_the_originals():
    """Each game's glossary carries some words of the French rule sheets among its aliases (accented or not)."""
    french = {"meetjesland": "limitrophe", "kingdom_builder": "maison", "ab_die_post": "ouragan", "claim": "allié"}
    for game, word in french.items():
        assert reference.lookup(game, word) is not None, (game, word)


def test_an_unknown_game_is_refused_naming_the_known_ones():
    with pytest.raises(ValueError, match="meetjesland"):
        reference.faq("monopoly")


# --- bad files ------------------------------------------------------------------------------------------------------

TOY_RULES = """# Toy

## 1. The only section

**TY-1.1** The first rule.

**TY-C1 (clarification: a reading).** What the text leaves open.
"""
GOOD_TERM = {"term": "token", "aliases": ["piece"], "rule": "TY-1.1", "definition": "A piece."}
GOOD_QUESTION = {"id": "TY-Q1", "question": "Can I?", "answer": "Yes.", "rules": ["TY-1.1"]}


TOYS = itertools.count()


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A registered game of one paragraph whose package (a folder on sys.path) holds the data files to spoil; a new
    name each time, as the caches hold games by name."""
    name = f"reference_toy_{next(TOYS)}"
    package = tmp_path / name
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    rules = tmp_path / "rules.md"
    rules.write_text(TOY_RULES, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    game = registry.Game(
        name=name,
        title="Toy",
        prefix="TY",
        module=name,
        players=(2,),
        default_players=2,
        bots_module=name,
        board=f"{name}:Board",
        rules=str(rules),
        moves=f"{name}:MOVES",
    )
    registry.register(game)
    yield name, package
    registry.unregister(name)
    sys.modules.pop(name, None)


def spoil(package: Path, name: str, data) -> None:
    text = data if isinstance(data, str) else json.dumps(data)
    (package / name).write_text(text, encoding="utf-8")


BAD_GLOSSARIES = [
    ("{not json", "/glossary.json: 'Expecting property name"),
    ("[]", "expected a JSON object with the key 'terms'"),
    ({"terms": [], "more": 1}, "unknown key 'more'"),
    ({"terms": {}}, "'terms' must be a list"),
    ({"terms": ["token"]}, "entry 1 of 'terms' is not an object"),
    ({"terms": [{**GOOD_TERM, "see": "x"}]}, "term 1: unknown key 'see'"),
    ({"terms": [{k: v for k, v in GOOD_TERM.items() if k != "definition"}]}, "the key 'definition' is missing"),
    ({"terms": [{**GOOD_TERM, "rule": "TY-9.9"}]}, "'TY-9.9' is not a paragraph of the reference_toy_"),
    ({"terms": [{**GOOD_TERM, "aliases": "piece"}]}, "'aliases' must be a list of texts"),
    ({"terms": [{**GOOD_TERM, "term": ""}]}, "'term' must be a text that is not empty"),
    ({"terms": [GOOD_TERM, {**GOOD_TERM, "term": "coin"}]}, "the word 'piece' is already taken by the term 'token'"),
    ({"terms": [{**GOOD_TERM, "aliases": ["Token"]}]}, "an alias appears twice or repeats the term"),
]
GOOD_SECTION = {"heading": "Turn", "lines": [["TY-1.1", "Do it."]]}
BAD_AIDS = [
    ({"sections": [{**GOOD_SECTION, "colour": "red"}]}, "section 1: unknown key 'colour'"),
    ({"sections": [{"heading": "Turn"}]}, "holds either 'lines' or a table"),
    ({"sections": [{**GOOD_SECTION, "columns": ["a"], "rows": [["1"]], "rule": "TY-1.1"}]}, "holds either"),
    ({"sections": [{"heading": "T", "columns": ["a"], "rows": [["1"]]}]}, "holds either 'lines' or a table"),
    ({"sections": [{"heading": "T", "rule": "TY-1.1", "columns": ["a", "b"], "rows": [["1"]]}]}, "one cell per column"),
    ({"sections": [{"heading": "T", "lines": [["TY-1.1"]]}]}, "a line is [rule id, text]"),
    ({"sections": [{"heading": "T", "lines": [["TY-4.4", "x"]]}]}, "'TY-4.4' is not a paragraph"),
    ({"sections": [{"heading": "T", "lines": []}]}, "'lines' is empty"),
]
BAD_FAQS = [
    ("", "/faq.json: 'Expecting value"),
    ({"questions": [GOOD_QUESTION, GOOD_QUESTION]}, "question 2: the id 'TY-Q1' appears twice"),
    ({"questions": [{**GOOD_QUESTION, "id": "MJ-Q1"}]}, "the id 'MJ-Q1' is not of the form TY-Q<number>"),
    ({"questions": [{**GOOD_QUESTION, "id": "TY-Q01"}]}, "is not of the form"),
    ({"questions": [{**GOOD_QUESTION, "rules": []}]}, "TY-Q1: 'rules' names no paragraph"),
    ({"questions": [{**GOOD_QUESTION, "rules": ["TY-1.1", "TY-2.1"]}]}, "TY-Q1: 'TY-2.1' is not a paragraph"),
    ({"questions": [{**GOOD_QUESTION, "rules": "TY-1.1"}]}, "'rules' must be a list of texts"),
    ({"questions": [{**GOOD_QUESTION, "rules": ["TY-1.1", "TY-1.1"]}]}, "a rule id appears twice"),
    ({"questions": [{**GOOD_QUESTION, "answer": " Yes."}]}, "'answer' starts or ends with white space"),
    ({"questions": [{**GOOD_QUESTION, "answer": 3}]}, "'answer' must be a text"),
    ({"faq": []}, "unknown key 'faq'"),
]


@pytest.mark.parametrize("data, words", BAD_GLOSSARIES)
def test_a_bad_glossary_is_refused_in_words_and_nothing_cached_changes(toy, data, words):
    name, package = toy
    known = reference.glossary(GAMES[0])
    size = reference.glossary.cache_info().currsize
    spoil(package, "glossary.json", data)
    with pytest.raises(ValueError, match=re.escape(words)):
        reference.glossary(name)
    assert reference.glossary.cache_info().currsize == size
    assert reference.glossary(GAMES[0]) is known


@pytest.mark.parametrize("data, words", BAD_FAQS)
def test_a_bad_faq_is_refused_in_words_and_nothing_cached_changes(toy, data, words):
    name, package = toy
    known = reference.faq(GAMES[0])
    size = reference.faq.cache_info().currsize
    spoil(package, "faq.json", data)
    with pytest.raises(ValueError, match=re.escape(words)):
        reference.faq(name)
    assert reference.faq.cache_info().currsize == size
    assert reference.faq(GAMES[0]) is known


@pytest.mark.parametrize("data, words", BAD_AIDS)
def test_a_bad_player_aid_is_refused_in_words_and_nothing_cached_changes(toy, data, words):
    name, package = toy
    known = reference.aid(GAMES[0])
    size = reference.aid.cache_info().currsize
    spoil(package, "aid.json", data)
    with pytest.raises(ValueError, match=re.escape(words)):
        reference.aid(name)
    assert reference.aid.cache_info().currsize == size
    assert reference.aid(GAMES[0]) is known


def test_a_game_without_files_has_no_glossary_no_faq_and_no_aid(toy):
    name, _ = toy
    assert reference.glossary(name) == () and reference.faq(name) == () and reference.aid(name) == ()


def test_a_good_file_loads(toy):
    name, package = toy
    spoil(package, "glossary.json", {"terms": [GOOD_TERM]})
    spoil(package, "faq.json", {"questions": [GOOD_QUESTION, {**GOOD_QUESTION, "id": "TY-Q2", "rules": ["TY-C1"]}]})
    assert reference.glossary(name) == (Term("token", ("piece",), "TY-1.1", "A piece."),)
    assert [question.rules for question in reference.faq(name)] == [("TY-1.1",), ("TY-C1",)]


# --- the answers the engine can decide --------------------------------------------------------------------------


def answer(game: str, ident: str, *words: str) -> Question:
    """The FAQ entry ``ident``, which must say ``words`` (so the test checks what the answer claims)."""
    (question,) = [q for q in reference.faq(game) if q.id == ident]
    for word in words:
        assert word in question.answer, (ident, word)
    return question


class TestMeetjesland:
    from rulebook import meetjesland as mj

    refused = staticmethod(functools.partial(helpers.refused, mj))

    def test_faq_q1_ties_go_to_the_defender(self):
        mj = self.mj
        answer("meetjesland", "MJ-Q1", "defender wins the tie", "attacker loses 1 point")
        position = helpers.mj_playing(territories={"eeklo": (0, 2), "kaprijke": (1, 1)})
        state = mj.apply(mj.apply(position, mj.Attack("eeklo", "kaprijke", 1)), mj.Dice((6,), (6,)))
        # 6 against 6: the one staked point is lost, the defender keeps its point, the attack has failed
        assert state.battle is None and state.points_on("eeklo") == 1 and state.points_on("kaprijke") == 1
        assert state.owner_of("kaprijke") == 1

    @pytest.mark.parametrize("stake, defending, dice", [(1, 1, (1, 1)), (2, 3, (2, 2)), (5, 2, (3, 2)), (3, 9, (3, 2))])
    def test_faq_q2_q3_dice_follow_the_stake_and_the_defenders_points(self, stake, defending, dice):
        mj = self.mj
        answer("meetjesland", "MJ-Q2", "1 die for 1 point, 2 for 2, 3 for 3 or more")
        answer("meetjesland", "MJ-Q3", "two dice with 2 or more points, one die with a single point")
        position = helpers.mj_playing(territories={"eeklo": (0, 6), "kaprijke": (1, defending)})
        state = mj.apply(position, mj.Attack("eeklo", "kaprijke", stake))
        assert mj.rules.dice_counts(state) == dice
        assert {len(outcome.attacker) for outcome, _ in mj.chance_outcomes(state)} == {dice[0]}

    def test_faq_q4_one_point_stays_home(self):
        answer("meetjesland", "MJ-Q4", "At least 1 point stays behind")
        position = helpers.mj_playing(territories={"eeklo": (0, 4), "kaprijke": (1, 2), "lembeke": (0, 1)})
        self.refused(position, self.mj.Attack("eeklo", "kaprijke", 4), "MJ-5.3")
        assert self.mj.check(position, self.mj.Attack("eeklo", "kaprijke", 3)) is None
        self.refused(position, self.mj.Attack("lembeke", "oosteeklo", 1), "MJ-5.2")

    def test_faq_q5_no_attack_over_a_canal_without_a_bridge(self):
        answer("meetjesland", "MJ-Q5", "thick line")
        position = helpers.mj_playing(territories={"nevele": (0, 4), "vosselare": (1, 1)})
        error = self.refused(position, self.mj.Attack("nevele", "vosselare", 2), "MJ-5.2")  # the Schipdonk canal
        assert "thick line" in error.message

    def test_faq_q6_a_turn_of_reinforcements_attacks_nothing(self):
        mj = self.mj
        answer("meetjesland", "MJ-Q6", "A turn is one or the other")
        position = helpers.mj_playing(territories={"eeklo": (0, 5), "kaprijke": (1, 2)})
        state = mj.apply(position, mj.Reinforce())
        state = mj.apply(state, mj.Place("eeklo", state.to_place))
        self.refused(state, mj.Attack("eeklo", "kaprijke", 2), "MJ-4.4")

    @pytest.mark.parametrize("held, points", [(8, 3), (14, 4), (24, 8)])
    def test_faq_q7_one_point_per_three_territories_at_least_three(self, held, points):
        mj = self.mj
        answer("meetjesland", "MJ-Q7", f"{held} {'territories' if held == 8 else ''}".strip(), f"give {points}")
        board = mj.load_board()
        # player 0 takes territories from every region but never a whole one (the colour bonus stays out of it)
        mine: list[str] = []
        while len(mine) < held:
            for members in board.regions.values():
                free = [t for t in members if t not in mine][: len(members) - 1 - sum(t in mine for t in members)]
                if free and len(mine) < held:
                    mine.append(free[0])
        owners = {t: (0, 2) if t in mine else (1 + index % 3, 2) for index, t in enumerate(board.territories)}
        position = helpers.mj_playing(territories=owners)
        assert len(position.territories_of(0)) == held and mj.whole_regions(position, 0) == ()
        assert mj.apply(position, mj.Reinforce()).to_place == points

    def test_faq_q8_one_card_however_many_conquests(self):
        mj = self.mj
        answer("meetjesland", "MJ-Q8", "One.")
        position = helpers.mj_playing(territories={"eeklo": (0, 9), "kaprijke": (1, 1), "lembeke": (1, 1)})
        state = position
        for target in ("kaprijke", "lembeke"):
            state = mj.apply(state, mj.Attack("eeklo", target, 3))
            state = mj.apply(state, mj.Dice((6, 6, 6), (1,)))
        assert state.owner_of("kaprijke") == state.owner_of("lembeke") == 0
        state = mj.apply(state, mj.EndTurn())
        card = mj.chance_outcomes(state)[0][0]
        state = mj.apply(state, card)
        assert len(state.hands[0]) == 1 and state.turn == 1 and mj.chance_outcomes(state) == ()

    @pytest.mark.parametrize(
        "cards, value",
        [
            (("brewery",), 5),
            (("eeklo", "kaprijke", "aalter"), 4),  # yellow, red, blue
            (("eeklo", "waarschoot", "aalter"), 6),  # yellow, yellow, blue
            (("aalter", "bellem", "poeke"), 8),  # blue, blue, blue
        ],
    )
    def test_faq_q9_card_sets(self, cards, value):
        mj = self.mj
        answer("meetjesland", "MJ-Q9", "alone: 5 points", "different colours: 4", "one other: 6", "same colour: 8")
        cards = tuple(mj.BREWERY if card == "brewery" else card for card in cards)
        position = helpers.mj_playing(
            hands=(tuple(sorted(cards)), (), (), ()), pile=tuple(c for c in mj.deck() if c not in cards)
        )
        assert mj.apply(position, mj.TradeCards(tuple(sorted(cards)))).to_place == value

    def test_faq_q10_six_cards_must_trade_three_first(self):
        mj = self.mj
        answer("meetjesland", "MJ-Q10", "the Brewery card alone does not do")
        six = tuple(sorted(("eeklo", "kaprijke", "aalter", "bellem", "poeke", mj.BREWERY)))
        position = helpers.mj_playing(
            territories={"eeklo": (0, 5), "kaprijke": (1, 2)},
            hands=(six, (), (), ()),
            pile=tuple(c for c in mj.deck() if c not in six),
        )
        self.refused(position, mj.Attack("eeklo", "kaprijke", 2), "MJ-4.8")
        self.refused(position, mj.TradeCards((mj.BREWERY,)), "MJ-4.8")
        after = mj.apply(position, mj.TradeCards(tuple(sorted(("aalter", "bellem", "poeke")))))
        assert len(after.hands[0]) == 3

    def test_faq_q11_seven_points_a_turn(self):
        mj = self.mj
        answer("meetjesland", "MJ-Q11", "At most 7 points in all in a turn")
        position = helpers.mj_playing(territories={"eeklo": (0, 12), "waarschoot": (0, 1), "lovendegem": (0, 1)})
        self.refused(position, mj.Fortify("eeklo", "waarschoot", 8), "MJ-5.9")
        state = mj.apply(position, mj.Fortify("eeklo", "waarschoot", 4))
        self.refused(state, mj.Fortify("eeklo", "waarschoot", 4), "MJ-5.9")  # 4 + 4 > 7
        assert mj.check(state, mj.Fortify("eeklo", "waarschoot", 3)) is None

    def test_faq_q12_q13_break_off_or_move_the_survivors_in(self):
        mj = self.mj
        answer("meetjesland", "MJ-Q12", "break off")
        answer("meetjesland", "MJ-Q13", "less your losses")
        position = helpers.mj_playing(territories={"eeklo": (0, 8), "kaprijke": (1, 3)})
        state = mj.apply(position, mj.Attack("eeklo", "kaprijke", 5))
        state = mj.apply(state, mj.Dice((6, 6, 1), (6, 1)))  # one each: 4 staked against 2
        retreat = mj.apply(state, mj.Retreat())
        assert retreat.points_on("eeklo") == 3 + 4 and retreat.points_on("kaprijke") == 2
        state = mj.apply(mj.apply(state, mj.Roll()), mj.Dice((6, 6, 6), (2, 2)))  # the defender's last 2 fall
        assert state.owner_of("kaprijke") == 0 and state.points_on("kaprijke") == 4 and state.points_on("eeklo") == 3

    def test_faq_q14_attack_again_from_the_conquered_territory(self):
        mj = self.mj
        answer("meetjesland", "MJ-Q14", "the one you just took included")
        position = helpers.mj_playing(territories={"eeklo": (0, 6), "kaprijke": (1, 2), "sint_laureins": (1, 1)})
        state = mj.apply(mj.apply(position, mj.Attack("eeklo", "kaprijke", 3)), mj.Dice((6, 6, 6), (1, 1)))
        assert mj.check(state, mj.Attack("kaprijke", "sint_laureins", 2)) is None

    @pytest.mark.parametrize("players, points", [(3, 35), (4, 30), (5, 25), (6, 20)])
    def test_faq_q17_starting_points(self, players, points):
        import random

        answer("meetjesland", "MJ-Q17", f"{points}")
        state = self.mj.new_game(players, seed=4)
        assert min(state.points) == 2
        while state.phase == "setup":
            state = self.mj.auto_setup(state, random.Random(2))
        assert [sum(state.points_on(t) for t in state.territories_of(p)) for p in range(players)] == [points] * players


class TestKingdomBuilder:
    from rulebook import kingdom_builder as kb

    def position(self, settlements: dict, players: int = 2, **options):
        return self.kb.from_diagram(helpers.kb_diagram(settlements, helpers.KB_FIRST, players), **options)

    def test_faq_q1_tied_players_share_the_victory(self):
        import dataclasses

        answer("kingdom_builder", "KB-Q1", "every player with the most gold wins")
        # Fishermen, Knights, Merchants: a lone settlement on row 0 away from water earns 2 (Knights) for each
        state = dataclasses.replace(self.position({(0, 8): 0, (0, 11): 1}), finished=True)
        assert self.kb.outcome(state).winners == (0, 1)

    def builds(self, state) -> set:
        return {move.hex for move in self.kb.legal_moves(state) if isinstance(move, self.kb.Build)}

    def test_faq_q2_q3_the_first_settlement_too_goes_next_to_your_own(self):
        kb = self.kb
        answer("kingdom_builder", "KB-Q2", "Like the second and third, it must go next to your own")
        answer("kingdom_builder", "KB-Q3", "any free hex of that terrain")
        state = kb.from_diagram(helpers.kb_diagram({(7, 6): 0, (16, 16): 1}), hands=("grass", "grass"))
        # (7,6) touches (7,5) forest, (7,7) grass, (6,6) forest, (6,7) the tavern, (8,6) forest, (8,7) grass
        assert self.builds(state) == {(7, 7), (8, 7)}
        helpers.refused(kb, state, kb.Build((9, 9)), "KB-6.3")
        # blue's only settlement (16,16) touches no grassland: any free grass hex will do
        blue = kb.from_diagram(helpers.kb_diagram({(7, 6): 0, (16, 16): 1}), hands=("grass", "grass"), player=1)
        assert (9, 9) in self.builds(blue) and len(self.builds(blue)) > 20

    def test_faq_q4_a_tile_waits_for_your_next_turn(self):
        kb = self.kb
        answer("kingdom_builder", "KB-Q4", "pending until your next turn")
        state = kb.from_diagram(helpers.kb_diagram({(8, 8): 0}), hands=("grass", "desert"))
        for hex_ in ((7, 8), (7, 7), (7, 6)):  # (7,7) touches the tavern (6,7)
            state = kb.apply(state, kb.Build(hex_))
        assert state.tiles_of(0) == (("tavern", (6, 7), "pending"),)
        helpers.refused(kb, state, kb.UseTile("tavern", (7, 5)), "KB-5.2")
        state = kb.apply(kb.apply(state, kb.EndTurn()), kb.CardDrawn("grass"))
        assert state.tiles_of(0) == (("tavern", (6, 7), "ready"),)

    def test_faq_q12_lords_ties(self):
        answer("kingdom_builder", "KB-Q12", "counts 8, 8, 6, 2 earn 12, 12, 6, 0")
        terrain = self.kb.board_graph(self.kb.FIRST_GAME_SECTIONS).nodes
        hexes = [(r, c) for r in range(5, 10) for c in range(10) if terrain[(r, c)]["terrain"] in self.kb.TERRAINS]
        owners = [0] * 8 + [1] * 8 + [2] * 6 + [3] * 2  # all in the top-left sector
        state = self.position(dict(zip(hexes, owners)), players=4)
        assert self.kb.card_scores(state, "lords") == (12, 12, 6, 0)

    def test_faq_q13_q18_fishermen_and_castles(self):
        answer("kingdom_builder", "KB-Q13", "one standing on water earns nothing")
        answer("kingdom_builder", "KB-Q18", "3 gold per castle")
        # (3,2) touches water (3,1); (3,0) stands on water
        assert self.kb.card_scores(self.position({(3, 2): 0, (3, 0): 0}), "fishermen") == (1, 0)
        # (2,3) and (4,4) both touch the castle (3,3): 3 gold once
        assert self.kb.castle_scores(self.position({(2, 3): 0, (4, 4): 0})) == (3, 0)


class TestAbDiePost:
    from rulebook import ab_die_post as adp

    def test_faq_q2_flying_spends_no_card(self):
        adp = self.adp
        answer("ab_die_post", "ADP-Q2", "keep them all")
        state = helpers.adp_position(3, hands=((1, 0, 1), (0, 0, 0), (0, 0, 0)), pile=(15, 23, 15))
        state = adp.apply(state, adp.Fly())
        state = adp.apply(state, adp.MarbleShaken("yellow"))
        moved = adp.apply(state, adp.legal_moves(state)[0])
        assert moved.hands[0] == (1, 0, 1)

    def test_faq_q3_q4_the_third_red_three(self):
        adp = self.adp
        answer("ab_die_post", "ADP-Q3", "Your 1s and 2s stay")
        answer("ab_die_post", "ADP-Q4", "the next red 3 busts")
        # two red 3s kept from an earlier turn, a 1 and a 2; the first card of this turn is a red 3
        state = helpers.adp_position(3, hands=((1, 1, 2), (0, 0, 0), (0, 0, 0)), pile=(15, 22, 14))
        state = adp.apply(adp.apply(state, adp.DrawCard()), adp.CardDrawn(3))
        assert state.hands[0] == (1, 1, 0) and state.discard == (0, 0, 3) and state.player == 1

    @pytest.mark.parametrize("players, black", [(3, Fraction(1, 4)), (4, Fraction(1, 5)), (6, Fraction(1, 7))])
    def test_faq_q9_the_chance_of_a_hurricane(self, players, black):
        adp = self.adp
        answer("ab_die_post", "ADP-Q9", f"{black.numerator}/{black.denominator}")
        hands = ((2, 1, 0),) + ((0, 0, 0),) * (players - 1)
        state = helpers.adp_position(players, hands=hands, pile=(14, 22, 16))
        state = adp.apply(state, adp.Fly())
        assert dict(adp.chance_outcomes(state))[adp.MarbleShaken("black")] == black

    def flying(self, positions: tuple[str, ...], scores: tuple[int, ...], **changes):
        """Player 0 to move after a green marble (2 fields), the other players' hands empty."""
        hands = ((0, 2, 0), (0, 0, 0), (0, 0, 0))
        return helpers.adp_position(
            3,
            hands=hands,
            pile=(16, 21, 16),
            positions=positions,
            phase="move",
            player=0,
            marble="green",
            scores=scores,
            **changes,
        )

    def test_faq_q17_who_starts_the_next_flight(self):
        adp = self.adp
        answer("ab_die_post", "ADP-Q17", "fewest in the last flight", "first of them clockwise")
        # inner-3-4 lands: placings 7 (player 0), 5 (outer-1-4, 7/32 along), 4 (central-1-1, 2/32 along)
        state = self.flying(("inner-3-4", "outer-1-4", "central-1-1"), (2, 4, 0))
        state = adp.apply(state, adp.Move(("inner-3-4", "airport")))
        assert state.scores == (9, 9, 4) and state.player == 1  # tied at 9: player 1 scored 5 against 7
        # all at 7 after the flight, players 1 and 2 scored nothing in it (start field): first clockwise from 0
        state = self.flying(("inner-3-4", "start", "start"), (0, 7, 7))
        state = adp.apply(state, adp.Move(("inner-3-4", "airport")))
        assert state.scores == (7, 7, 7) and state.player == 1

    def test_faq_q18_ties_at_the_end(self):
        import dataclasses

        adp = self.adp
        answer("ab_die_post", "ADP-Q18", "scored more in the last flight", "they share the win")
        state = self.flying(("inner-3-4", "inner-3-1", "start"), (8, 10, 3))
        state = adp.apply(state, adp.Move(("inner-3-4", "airport")))
        assert state.scores == (15, 15, 3) and adp.outcome(state).winners == (0,)  # 7 against 5 in the flight
        tied = dataclasses.replace(state, last_points=(7, 7, 0), scores=(15, 15, 3))
        assert adp.outcome(tied).winners == (0, 1)

    def test_faq_q8_the_wind_table(self):
        adp = self.adp
        answer("ab_die_post", "ADP-Q8", "Green 2 fields, blue 3, red 4, yellow 5")
        state = adp.new_game(players=3, seed=0)
        assert [adp.rules.wind_distance(state.config, c) for c in ("green", "blue", "red", "yellow")] == [2, 3, 4, 5]


class TestClaim:
    from rulebook import claim

    def position(self, pieces: str):
        land = "\n".join(["aaaabbb"] * 5)
        return self.claim.from_diagram(f"players: red blue\nto-move: red\nphase: battle\n\n{land}\n\n{pieces}\n")

    def test_faq_q1_no_diagonal_moves(self):
        answer("claim", "CL-Q1", "never diagonally")
        state = self.position(".......\n.......\n..r....\n.......\n......b")
        moves = self.claim.legal_moves(state)
        destinations = {move.destination for move in moves if getattr(move, "origin", None) == (2, 2)}
        assert destinations == {(1, 2), (3, 2), (2, 1), (2, 3)}  # the four orthogonal neighbours, by hand

    def test_faq_q4_q5_between_two_enemies_is_safe_and_two_in_a_row_are(self):
        answer("claim", "CL-Q4", "only the piece that moves captures")
        answer("claim", "CL-Q5", "a line of two is safe")
        state = self.position(".......\n.......\n.b.b...\n..r....\n......b")
        after = self.claim.apply(state, self.claim.Step((3, 2), (2, 2)))
        assert after.at((2, 2)) == "r"  # red moved in between two blue pieces and stands
        pair = self.position(".......\n.......\n.bbr...\n.......\n.r....b")
        assert self.claim.captures_of(pair, self.claim.Step((4, 1), (3, 1))) == ()  # nothing held: (2,1),(2,2) pair
        single = self.position(".......\n.......\n.br....\n.......\nr.....b")
        assert self.claim.captures_of(single, self.claim.Step((4, 0), (3, 0))) == ()  # not in a line with (2,1)
        line = self.position(".......\n.......\nb.r....\n.......\n......b")
        assert self.claim.captures_of(line, self.claim.Step((2, 2), (2, 1))) == ((2, 0),)  # against the edge

    def test_faq_q15_sixty_quiet_turns_stop_the_game(self):
        claim = self.claim
        answer("claim", "CL-Q15", "after 60 turns in a row", "equal towers is a draw")
        land = "\n".join(["aaaabbb"] * 5)

        def quiet(pieces: str, turns: int = 59):
            header = f"players: red blue\nto-move: red\nphase: battle\nquiet: {turns}"
            return claim.from_diagram(f"{header}\n\n{land}\n\n{pieces}\n")

        one_each = claim.apply(quiet("R......\n.r.....\n.......\n.....b.\n....bB."), claim.Step((1, 1), (1, 2)))
        assert claim.outcome(one_each) is not None and claim.outcome(one_each).winners == ()
        more = claim.apply(quiet("R......\n.r.....\n.......\n.....b.\n.....b."), claim.Step((1, 1), (1, 2)))
        assert claim.outcome(more).winners == (0,)
        before = quiet("R......\n.r.....\n.......\n.....b.\n.....b.", 58)  # the 59th quiet turn: play goes on
        assert claim.outcome(claim.apply(before, claim.Step((1, 1), (1, 2)))) is None

    def test_faq_q9_towers_never_move(self):
        answer("claim", "CL-Q9", "Towers never move")
        state = self.position(".......\n.......\n.R..r..\n.......\n......b")
        assert all(getattr(move, "origin", None) != (2, 1) for move in self.claim.legal_moves(state))
        helpers.refused(self.claim, state, self.claim.Step((2, 1), (1, 1)), "CL-9.1")
