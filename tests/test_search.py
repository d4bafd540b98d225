"""The rules search (issue 46.2): questions written as players ask them, each with the paragraph(s) that answer it,
found by reading the rules text (the answers are ours, not the search's); every one must be among the first three
hits. Then the edges: every game at once, bad input, the index file read back by Python and by lunr.js (the page's
own search.js run in Node on the same index.json gives the same hits), related paragraphs, the Rules tab's box."""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from rulebook import registry, search
from rulebook.search import find
from rulebook.search import site as search_site
from rulebook.teach import rules_text

ROOT = Path(__file__).resolve().parents[1]

# (question, the ids of the paragraphs that answer it): any one of them among the first three hits passes
MEETJESLAND = [
    ("how many dice does the attacker roll", "MJ-5.4 MJ-5.3"),
    ("can I attack across the canal?", "MJ-C2 MJ-5.2"),
    ("how many dice does the defender roll", "MJ-5.5"),
    ("what happens on a tie?", "MJ-5.7 MJ-6.3"),
    ("who wins when both dice are equal", "MJ-5.7 MJ-6.3"),
    ("how many troops do I get at the start with 4 players", "MJ-4.1"),
    ("how many reinforcements do I get per turn", "MJ-4.10 MJ-4.4"),
    ("what is the minimum number of extra points", "MJ-4.10"),
    ("how much is the brewery card worth", "MJ-4.7"),
    ("what are three cards of the same colour worth", "MJ-4.7"),
    ("how many cards can I hold", "MJ-4.8"),
    ("what if I have more than 5 cards", "MJ-4.8 MJ-C8"),
    ("do I get a card when I conquer a territory", "MJ-4.6"),
    ("can I attack from a territory with only one army", "MJ-5.2 MJ-5.3"),
    ("how many points must stay behind when I attack", "MJ-5.3"),
    ("can I attack more than once in a turn", "MJ-5.8"),
    ("how many armies can I move to a neighbouring territory", "MJ-5.9 MJ-C11"),
    ("can I fortify after attacking", "MJ-C11 MJ-5.9"),
    ("who goes first", "MJ-2.1 MJ-C3"),
    ("how do I win the game", "MJ-3.1"),
    ("what are the missions", "MJ-C4 MJ-2.2"),
    ("what happens when a player is eliminated", "MJ-C5"),
    ("my mission is to destroy a player who is already out", "MJ-C5"),
    ("what bonus do I get for holding a whole region", "MJ-4.9 MJ-C9"),
    ("which territories have numbers", "MJ-C9 MJ-4.9"),
    ("how many territories are there", "MJ-1.1 MJ-C1"),
    ("how much is a Grand Cru token worth", "MJ-1.2"),
    ("what is in the box", "MJ-1.3"),
    ("how many points on each territory at the start", "MJ-4.1 MJ-C7"),
    ("can I get reinforcements and attack in the same turn", "MJ-4.3 MJ-4.5 MJ-5.1"),
    ("does the attacker throw first", "MJ-5.5"),
    ("which dice are compared", "MJ-5.6"),
    ("how many troops can I move into the territory I conquered", "MJ-5.3 MJ-5.7 MJ-C10"),
    ("can I stop an attack halfway", "MJ-C10"),
    ("what does the thick line on the map mean", "MJ-5.2 MJ-C2"),
    ("is there a bridge over the canal", "MJ-C2"),
    ("when is a mission checked", "MJ-C6"),
    ("who is the game master", "MJ-C3 MJ-4.2 MJ-4.3"),
    ("can a territory ever be left empty", "MJ-4.2"),
    ("attacker with 3 points against 2 defenders, who loses", "MJ-6.2 MJ-6.3"),
    ("how are the cards dealt", "MJ-2.1"),
    ("when can I trade my cards", "MJ-C8 MJ-4.7"),
    ("can I move troops over water", "MJ-C2"),
    ("combien de dés lance l'attaquant", "MJ-5.4 MJ-5.3"),
    ("peut-on attaquer par-dessus l'eau ?", "MJ-C2 MJ-5.2"),
    ("que se passe-t-il en cas d'égalité", "MJ-5.7 MJ-6.3"),
    ("combien de cartes peut-on garder", "MJ-4.8"),
    ("combien de renforts je reçois", "MJ-4.10 MJ-4.4"),
]
KINGDOM_BUILDER = [
    ("can I build next to a castle", "KB-5.4 KB-9.3 KB-6.2"),
    ("how many settlements do I place each turn", "KB-4.1"),
    ("do my houses have to be adjacent", "KB-6.3 KB-5.1 KB-C10"),
    ("can I build on water", "KB-6.2 KB-C12.7"),
    ("can I build on a mountain", "KB-6.2"),
    ("how many settlements does each player have", "KB-1.2"),
    ("what happens when I build next to a location", "KB-5.2"),
    ("when can I use a location tile", "KB-5.2 KB-7.1 KB-C11"),
    ("can I use a tile twice in one turn", "KB-C11"),
    ("what if I no longer have a settlement next to the location", "KB-5.3 KB-C8"),
    ("can I take two tiles from the same location", "KB-5.2 KB-C7"),
    ("what does the oracle do", "KB-C12.1"),
    ("what does the farm do", "KB-C12.2"),
    ("what does the tower tile do", "KB-C12.4"),
    ("what does the tavern do", "KB-C12.5"),
    ("how does the paddock move a settlement", "KB-C12.8"),
    ("what does the barn let me do", "KB-C12.6"),
    ("what does the harbor do", "KB-C12.7"),
    ("what does the oasis do", "KB-C12.3"),
    ("when does the game end", "KB-9.1"),
    ("does everyone get the same number of turns", "KB-9.1"),
    ("how much gold for a castle", "KB-5.4 KB-9.3"),
    ("what if two players tie", "KB-2.1"),
    ("how is the Fishermen card scored", "KB-C16.1"),
    ("how do the Lords score", "KB-C16.9 KB-C17"),
    ("how do Hermits score", "KB-C16.4"),
    ("Citizens scoring", "KB-C16.5"),
    ("how many points for the Miners", "KB-C16.6"),
    ("how many points for the Knights", "KB-C16.8"),
    ("what do the Farmers earn", "KB-C16.10"),
    ("Merchants gold", "KB-C16.2"),
    ("what do Discoverers give", "KB-C16.3"),
    ("how are Workers scored", "KB-C16.7"),
    ("how many terrain cards are there", "KB-1.3 KB-3.3"),
    ("when do I draw a new card", "KB-8.1 KB-C4"),
    ("can I see the other players' cards", "KB-C5"),
    ("what if there is no free space of my terrain left", "KB-C14"),
    ("can two settlements share a hex", "KB-6.1"),
    ("how many character cards are used", "KB-3.4"),
    ("can I use my bonus action in the middle of my mandatory action", "KB-7.1"),
    ("what if I run out of settlements", "KB-C6 KB-9.1"),
    ("who starts", "KB-C3"),
    ("how is the board made", "KB-3.1 KB-C1"),
    ("puis-je construire à côté d'un château ?", "KB-5.4 KB-9.3"),
    ("combien de maisons par tour", "KB-4.1"),
    ("peut-on construire sur l'eau", "KB-6.2 KB-C12.7"),
    ("do Lords score for zero settlements in a sector", "KB-C17"),
    ("which location tiles are there", "KB-1.5"),
    ("when is the draw pile reshuffled", "KB-C4"),
]
AB_DIE_POST = [
    ("what if two planes want the same field", "ADP-6.2"),
    ("can I fly on my first turn", "ADP-3.2"),
    ("how many points of cards do I need to fly", "ADP-5.1"),
    ("does flying cost cards", "ADP-C5"),
    ("what happens if I draw a third red 3", "ADP-4.2"),
    ("how many cards can I draw", "ADP-4.1 ADP-C4"),
    ("what happens when the deck runs out", "ADP-4.3"),
    ("what does a black marble mean", "ADP-7.1 ADP-5.2"),
    ("how much does a hurricane cost on the inner lane", "ADP-7.1"),
    ("what if I can't pay for the repairs", "ADP-7.3"),
    ("do I get change if I overpay", "ADP-7.2 ADP-C10"),
    ("how far does a blue marble move me", "ADP-C7 ADP-6.1"),
    ("can I change lanes", "ADP-6.3 ADP-C9"),
    ("can I overtake other planes", "ADP-6.2"),
    ("can I switch lanes when taking off", "ADP-6.3"),
    ("how do I get the passenger", "ADP-8.1 ADP-C12"),
    ("how much is the passenger worth", "ADP-8.2"),
    ("what happens to the passenger card after a hurricane", "ADP-8.2"),
    ("when does a flight end", "ADP-9.1"),
    ("how many points for first place", "ADP-9.2"),
    ("how are placings worked out", "ADP-9.3 ADP-C13"),
    ("which card can I keep at the end of a flight", "ADP-9.4 ADP-C14"),
    ("who starts the next flight", "ADP-9.5 ADP-C16"),
    ("how many points to win", "ADP-10.1 ADP-C18"),
    ("what if two players both reach 15", "ADP-10.1"),
    ("what if they are still tied after the last flight", "ADP-C17 ADP-10.1"),
    ("how many marbles go in the indicator", "ADP-2.3 ADP-C2"),
    ("who begins the game", "ADP-2.4 ADP-C3"),
    ("can I stay where I am after a coloured marble", "ADP-C8"),
    ("is the player who shook hit by the hurricane", "ADP-C10"),
    ("are planes on the start field hit by the storm", "ADP-C10"),
    ("are the cards face up or hidden", "ADP-C6"),
    ("can I draw cards and fly in the same turn", "ADP-C4 ADP-3.1"),
    ("what cards are in the pile", "ADP-1.2"),
    ("how many lanes are there", "ADP-C1"),
    ("where do the planes start", "ADP-2.1"),
    ("which way does the return flight go", "ADP-9.5"),
    ("do planes on the start field score", "ADP-9.2 ADP-C13"),
    ("where does my plane go back to after a hurricane on a return flight", "ADP-C11"),
    ("how many players can play", "ADP-1.1 ADP-C2"),
    ("do I lose my 1s and 2s when I bust", "ADP-C6 ADP-4.2"),
    ("que se passe-t-il si deux avions veulent la même case ?", "ADP-6.2"),
    ("combien coûte un ouragan", "ADP-7.1"),
    ("combien de points pour gagner", "ADP-10.1 ADP-C18"),
    ("what is the wind table", "ADP-C7"),
]
CLAIM = [
    ("can a tower be captured", "CL-9.1"),
    ("can I move diagonally", "CL-6.1"),
    ("how do I capture a piece", "CL-7.1"),
    ("can I capture against the edge of the board", "CL-7.3 CL-C6"),
    ("can I jump over my own pieces", "CL-6.2"),
    ("can I make several jumps in a row", "CL-6.2 CL-C4"),
    ("is a jumped piece captured", "CL-C5"),
    ("can I move between two enemy pieces safely", "CL-7.5"),
    ("when is a territory conquered", "CL-2.1 CL-8.1"),
    ("how do I win", "CL-2.1 CL-10.1"),
    ("how many towers do I need to win", "CL-2.1 CL-10.1"),
    ("how many pieces does each player have", "CL-1.1 CL-4.2"),
    ("how are the pieces placed at the start", "CL-4.2"),
    ("how many pieces are placed at a time", "CL-4.2"),
    ("how many enemy pieces can I remove", "CL-5.1"),
    ("can a player lose more than 4 pieces in the removals", "CL-5.1 CL-C3"),
    ("how many board sections for 3 players", "CL-3.2"),
    ("what are the phases of the game", "CL-3.1"),
    ("how do teams work with four players", "CL-2.2 CL-C9"),
    ("how many territories do partners need", "CL-2.2 CL-10.1"),
    ("can I capture together with my partner", "CL-7.2"),
    ("can towers move", "CL-9.1"),
    ("can I jump over a tower", "CL-9.1 CL-C4"),
    ("how do I take over a territory with an enemy tower", "CL-8.2"),
    ("what happens to a captured tower", "CL-8.2 CL-9.1"),
    ("when can I place a tower", "CL-C7 CL-8.1 CL-2.1"),
    ("is placing a tower a move", "CL-C7"),
    ("what if I cannot move", "CL-C10"),
    ("can the game end in a draw", "CL-C11"),
    ("can I capture several pieces at once", "CL-7.4 CL-C5"),
    ("can I move again after a capture", "CL-7.4"),
    ("does a notch count as the edge", "CL-C6"),
    ("how are the board sections put together", "CL-3.3"),
    ("who plays first", "CL-4.1 CL-C2"),
    ("which colours are partners", "CL-C2 CL-4.1"),
    ("are two pieces in a line captured", "CL-C5"),
    ("can I pass my turn", "CL-C10"),
    ("does my partner's piece stop me conquering", "CL-C9"),
    ("any advice for placing pieces", "CL-4.3"),
    ("what if I conquer a territory while removing pieces", "CL-5.2"),
    ("can a jump chain come back to where it started", "CL-C4"),
    ("peut-on se déplacer en diagonale ?", "CL-6.1"),
    ("une tour peut-elle être capturée ?", "CL-9.1"),
    ("comment capturer un pion", "CL-7.1"),
    ("what shape is the board", "CL-C1 CL-3.3"),
]

# Written after the synonyms and boosts were tuned on the questions above, and never tuned on: the share of them
# answered in the first three hits says how the search does on questions it has not seen (39 of 48 when written).
WRITTEN_AFTER = {
    "meetjesland": [
        ("how many extra points do I get with 12 territories", "MJ-4.10"),
        ("can the defender pick one die", "MJ-5.5"),
        ("does a tie go to the defender", "MJ-5.7 MJ-6.3"),
        ("how many mission cards are there", "MJ-1.3 MJ-C4"),
        ("where does the Brewery card come from", "MJ-C3 MJ-4.7"),
        ("can I attack a territory that is not next to mine", "MJ-5.2"),
        ("do I have to trade cards when I hold six", "MJ-4.8 MJ-C8"),
        ("what is the most points I can move", "MJ-5.9"),
        ("is the map real", "MJ-C1"),
        ("when do I place my reinforcements", "MJ-5.4 MJ-4.4 MJ-C8"),
        ("peut-on déplacer des points", "MJ-5.9 MJ-C11"),
        ("qui est le meneur de jeu", "MJ-C3 MJ-4.2 MJ-4.3"),
    ],
    "kingdom_builder": [
        ("can I build anywhere with my first house", "KB-5.1 KB-C10"),
        ("how many castles on a section", "KB-3.1"),
        ("what do I get for a castle at the end", "KB-9.3 KB-5.4"),
        ("can I put a settlement on a castle", "KB-6.2"),
        ("what is the oracle tile", "KB-C12.1"),
        ("how far does the paddock jump", "KB-C12.8"),
        ("can I lose a tile", "KB-5.3 KB-C8"),
        ("how many cards in my hand", "KB-3.5"),
        ("what are the terrain types", "KB-1.3"),
        ("how many character cards are in the box", "KB-1.4"),
        ("comment marque le seigneur", "KB-C16.9"),
        ("où poser la deuxième maison", "KB-5.1 KB-6.3"),
    ],
    "ab_die_post": [
        ("how many fields per lane", "ADP-C1"),
        ("what is the yellow marble worth", "ADP-C7"),
        ("can I change lanes when landing", "ADP-6.3"),
        ("what do I do on a drawing turn", "ADP-C4 ADP-4.1"),
        ("do I lose all my cards in a hurricane", "ADP-7.3 ADP-7.1 ADP-C10"),
        ("who plays first in the second flight", "ADP-9.5 ADP-C16"),
        ("can I stop drawing whenever I want", "ADP-C4 ADP-4.1"),
        ("what does the passenger card give", "ADP-8.2"),
        ("does my plane have to move the full distance", "ADP-C8 ADP-6.1"),
        ("where are the passenger fields", "ADP-8.1 ADP-C1"),
        ("combien de cartes faut-il pour voler", "ADP-5.1"),
        ("que se passe-t-il si je tire trois 3 rouges", "ADP-4.2"),
    ],
    "claim": [
        ("can I capture two pieces at the same time", "CL-7.4 CL-C5"),
        ("what is a territory", "CL-1.1 CL-C1"),
        ("do partners share towers", "CL-C9 CL-2.2"),
        ("can I land on an occupied point", "CL-6.1 CL-6.2"),
        ("can pieces move backwards", "CL-6.1"),
        ("how many pieces do I place per turn", "CL-4.2"),
        ("is going first an advantage", "CL-4.1"),
        ("what happens if all my pieces are captured", "CL-C10"),
        ("can I jump and then step", "CL-C4"),
        ("does a line of two pieces get captured", "CL-C5"),
        ("combien de tours pour gagner", "CL-2.1 CL-10.1"),
        ("peut-on sauter par-dessus une tour", "CL-9.1 CL-C4"),
    ],
}


QUESTIONS = {
    "meetjesland": MEETJESLAND,
    "kingdom_builder": KINGDOM_BUILDER,
    "ab_die_post": AB_DIE_POST,
    "claim": CLAIM,
}
ALL = [(game, question, answer) for game, items in QUESTIONS.items() for question, answer in items]


@pytest.mark.parametrize(("game", "question", "answer"), ALL, ids=[f"{g}:{q}" for g, q, _ in ALL])
def test_a_question_finds_its_paragraph_in_the_first_three_hits(game, question, answer):
    hits = find(question, game=game, limit=3)
    assert set(answer.split()) & {hit.id for hit in hits}, [hit.id for hit in hits]


def test_most_questions_written_after_the_tuning_are_answered_in_the_first_three_hits():
    asked = [(game, question, answer) for game, items in WRITTEN_AFTER.items() for question, answer in items]
    answered = [
        question for game, question, answer in asked if set(answer.split()) & {h.id for h in find(question, game, 3)}
    ]
    assert len(answered) >= 0.75 * len(asked), sorted(set(q for _, q, _ in asked) - set(answered))


def test_every_game_has_forty_questions_some_in_french_and_the_issue_s_examples():
    assert set(QUESTIONS) == set(registry.games())
    for game, items in QUESTIONS.items():
        assert len(items) >= 40, game
        french = [
            q
            for q, _ in items
            if any(word in q.lower() for word in ("combien", "peut", "puis", "que ", "une ", "comment"))
        ]
        assert len(french) >= 3, game
        known = rules_text.paragraphs(game)
        assert all(rule in known for _, answer in items for rule in answer.split()), game
    asked = {(game, question) for game, question, _ in ALL}
    for example in [
        ("meetjesland", "how many dice does the attacker roll"),
        ("kingdom_builder", "can I build next to a castle"),
        ("ab_die_post", "what if two planes want the same field"),
        ("claim", "can a tower be captured"),
    ]:
        assert example in asked


def test_the_issue_s_call_returns_paragraphs_best_first_with_their_text():
    hits = find("can I attack across the canal?", game="meetjesland", limit=5)
    assert 1 <= len(hits) <= 5
    assert hits[0].id in {"MJ-C2", "MJ-5.2"}
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)
    paragraph = rules_text.paragraph("meetjesland", hits[0].id)
    assert hits[0].title.startswith(paragraph.section) and hits[0].game == "meetjesland"
    assert "canal" in hits[0].text and "**" not in hits[0].text and not hits[0].text.startswith(hits[0].id)
    assert "canal" in [word.lower() for word in hits[0].matched]


def test_the_learner_s_word_finds_the_text_s_word_and_shows_it():
    # "water" is nowhere in MJ-C2's reason to refuse: the synonyms map it to "canal"
    hits = find("can I attack across the water?", game="meetjesland", limit=3)
    assert hits[0].id == "MJ-C2" and "canal" in [word.lower() for word in hits[0].matched]
    troops = find("how many troops at the start with 3 players", game="meetjesland", limit=3)
    assert "MJ-4.1" in [hit.id for hit in troops]


def test_no_game_searches_all_four_and_a_game_keeps_to_its_own():
    everywhere = find("what happens on a tie?", limit=40)
    assert {hit.game for hit in everywhere} >= {"meetjesland", "kingdom_builder", "ab_die_post"}
    assert find("can I attack across the canal?")[0].id in {"MJ-C2", "MJ-5.2"}
    for game in registry.games():
        assert {hit.game for hit in find("what happens on a tie?", game=game, limit=40)} <= {game}


def test_bad_input_is_refused_in_words():
    with pytest.raises(ValueError, match="chess"):
        find("can I castle?", game="chess")
    with pytest.raises(ValueError, match="limit"):
        find("tie", limit=0)
    with pytest.raises(ValueError, match="limit"):
        find("tie", limit=True)
    with pytest.raises(ValueError, match="text"):
        find(None)  # type: ignore[arg-type]
    assert find("") == [] and find("   ?!") == []
    assert find("zzzqqq xylophone") == []
    with pytest.raises(ValueError, match="search index"):
        search.load({"format": 99})
    with pytest.raises(ValueError, match="no paragraph"):
        search.related("MJ-99.9")


def test_the_limit_is_kept():
    assert len(find("points", limit=2)) == 2
    assert len(find("points", game="meetjesland", limit=7)) == 7


def test_every_paragraph_of_every_notebook_is_in_the_index():
    index = search.build_index()
    documents = index["documents"]
    for game in registry.games():
        for rule in rules_text.paragraphs(game):
            assert documents[rule]["game"] == game and documents[rule]["text"], rule
    refs = {entry[0].split("/", 1)[1] for entry in index["lunr"]["fieldVectors"]}
    assert refs == set(documents)


def test_related_ids_are_those_cited_and_citing_then_the_section():
    # MJ-C2 cites MJ-5.2 ("the three lines MJ-5.2 names"); CL-C4 cites CL-9.1 ("Towers can be jumped too (CL-9.1)")
    assert "MJ-5.2" in search.related("MJ-C2") and "MJ-C2" in search.related("MJ-5.2")
    assert "CL-C4" in search.related("CL-9.1")
    documents = search.documents()
    for rule, row in documents.items():
        assert rule not in row["related"] and len(row["related"]) >= 1, rule
        assert all(documents[other]["game"] == row["game"] for other in row["related"]), rule
    hit = find("can a tower be captured", game="claim", limit=1)[0]
    assert hit.related == search.related(hit.id)


def test_a_faq_entry_counts_for_the_paragraph_it_names(monkeypatch):
    from rulebook.teach import reference

    game = next(iter(registry.games()))
    rule = list(rules_text.paragraphs(game))[-1]
    entry = reference.Question(id="T-Q1", question="What about the quuxification?", answer="Fnord.", rules=(rule,))
    term = reference.Term(term="gizmo", aliases=("wibble",), rule=rule, definition="A thing.")
    monkeypatch.setattr(search, "_reference", lambda name: ((term,), (entry,)) if name == game else ((), ()))
    search.documents.cache_clear()
    search._loaded.cache_clear()
    try:
        assert [hit.id for hit in find("quuxification", game=game)] == [rule]
        assert [hit.id for hit in find("wibble", game=game)] == [rule]  # an alias finds the term's paragraph
    finally:
        monkeypatch.undo()
        search.documents.cache_clear()
        search._loaded.cache_clear()


def test_each_game_keeps_its_learner_s_words_as_data_and_bad_data_is_refused(tmp_path):
    vocabulary = {term for term, _ in search.build_index()["lunr"]["invertedIndex"]}
    for game in registry.games():
        terms = search.game_terms(game)
        assert len(terms["synonyms"]) >= 40, game
        # every word a synonym adds is a word of the index (else it could never match)
        phrases = search.expansion_table([game])["phrases"]
        missing = {word for targets in phrases.values() for word in targets if search.stem(word) not in vocabulary}
        assert not missing, f"{game}: {sorted(missing)}"
    with pytest.raises(ValueError, match="list of words"):
        search._checked({"synonyms": {"water": "canal"}}, "x")
    with pytest.raises(ValueError, match="synonyms"):
        search._checked([], "x")
    with pytest.raises(ValueError, match="stop"):
        search._checked({"synonyms": {}, "stop": "the"}, "x")


def test_the_same_steps_fold_expand_and_find_in_french():
    assert search.words("Dés, l'égalité!") == ["des", "l", "egalite"]
    table = search.build_index()["expansion"]["meetjesland"]
    # "de" and "des" are stop words, and "combien de dés" the French for "how many dice"
    assert "dice" in [word for word, _ in search.expand("combien de dés", table)]
    assert "dice" not in [word for word, _ in search.expand("peut-on déplacer des points", table)]
    assert "combien" not in [word for word, _ in search.expand("combien de dés", table)]


def test_the_index_json_read_back_gives_the_same_hits():
    text = json.dumps(search.build_index(), ensure_ascii=False)
    loaded = search.load(json.loads(text))
    for game, question, _ in ALL[::7]:
        assert [(h.id, round(h.score, 9)) for h in search.search(loaded, question, game, 5)] == [
            (h.id, round(h.score, 9)) for h in find(question, game=game, limit=5)
        ]


# --- the page's side: lunr.js and search.js, run in Node on the index the site holds ----------------------------


@pytest.fixture(scope="module")
def lunr_package(tmp_path_factory):
    """npm's lunr 2.3.9 unpacked (from the site build's cache, fetched there once); skipped without npm or Node."""
    if shutil.which("node") is None:
        pytest.skip("node is needed to run lunr.js")
    try:
        tarball = search_site.fetch_lunr(ROOT / ".site-cache" / "lunr")
    except SystemExit as error:
        pytest.skip(str(error))
    folder = tmp_path_factory.mktemp("lunr")
    with tarfile.open(tarball) as archive:
        archive.extractall(folder, filter="data")
    return folder / "package"


NODE = """
const fs = require("fs");
global.window = { location: { search: "" } };
global.lunr = window.lunr = require(process.argv[1]);
global.document = { currentScript: { src: "file:///site/search/search.js" }, readyState: "complete",
                    querySelectorAll: () => [] };
eval(fs.readFileSync(process.argv[2], "utf8"));
const data = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const loaded = { data, index: lunr.Index.load(data.lunr) };
const asked = JSON.parse(fs.readFileSync(0, "utf8"));
const stems = asked.words.map((w) => lunr.stemmer(new lunr.Token(w, {})).toString());
const hits = asked.questions.map(([q, g]) => window.rulebookSearch.search(loaded, q, g, 5).map((h) => [h.id, h.score]));
console.log(JSON.stringify({ stems, hits }));
"""


def test_the_page_finds_what_python_finds_in_the_same_index_json(lunr_package, tmp_path):
    written = search_site.write(tmp_path, cache=ROOT / ".site-cache" / "lunr")
    assert sorted(path.name for path in written) == ["index.json", "lunr.min.js", "search.js"]
    index = tmp_path / "search" / "index.json"
    loaded = search.load(json.loads(index.read_text(encoding="utf-8")))
    questions = [(question, game) for game, question, _ in ALL] + [("can I attack across the canal?", None)]
    vocabulary = sorted({word for row in loaded.data["documents"].values() for word in search.words(row["text"])})
    asked = json.dumps({"questions": questions, "words": vocabulary})
    command = ["node", "-e", NODE, str(lunr_package / "lunr.js"), str(tmp_path / "search" / "search.js"), str(index)]
    done = subprocess.run(command, input=asked, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    answer = json.loads(done.stdout)
    # the stemmer of the index (lunr.py's, with lunr.js's rule for a final y) is lunr.js's on every word
    assert answer["stems"] == [search.stem(word) for word in vocabulary]
    for (question, game), page in zip(questions, answer["hits"], strict=True):
        python = [(h.id, h.score) for h in search.search(loaded, question, game, 5)]
        assert [rule for rule, _ in page] == [rule for rule, _ in python], question
        assert all(abs(a - b) < 1e-6 for (_, a), (_, b) in zip(page, python, strict=True)), question


def test_a_lunr_package_that_is_not_npm_s_is_refused_and_dropped(tmp_path):
    fake = tmp_path / f"lunr-{search_site.LUNR}.tgz"
    fake.write_bytes(b"not lunr")
    with pytest.raises(SystemExit, match="digest differs"):
        search_site.fetch_lunr(tmp_path)
    assert not fake.exists()  # the next build fetches it again


# --- the app's Rules tab --------------------------------------------------------------------------------------


def test_the_rules_tab_searches_and_a_result_or_a_refusal_opens_its_paragraph():
    from rulebook.app import App

    game = "meetjesland"
    app = App(game)
    app.search_box.value = "can I attack across the water?"
    assert "data-rule='MJ-C2'" in app.search_results.value and "<mark>canal</mark>" in app.search_results.value
    assert "Related:" in app.search_results.value
    app.search_results.open_rule("MJ-C2")  # what a click on the result's id does
    assert app.tabs.selected_index == App.RULES_TAB and app.rules.focus == "MJ-C2"
    assert "data-rule='MJ-C2'" in app.search_results.value  # the results stay
    app.search_box.value = "zzzqqq"
    assert "No paragraph matches" in app.search_results.value
    # a refusal's rule id (the board's status line) opens its paragraph and lists the related ones
    app.board.status.open_rule("MJ-5.2")
    assert app.rules.focus == "MJ-5.2" and app.rule_picker.value == "MJ-5.2"
    assert "Related to MJ-5.2" in app.search_results.value and "data-rule='MJ-C2'" in app.search_results.value
