"""Search the rules with a learner's question: one lunr index over every paragraph of every game, its FAQ, glossary
and exercises, shared by :func:`find` (lunr.py) and the website's search box (lunr.js reads the same file).

A result is a paragraph of the rules. A FAQ entry, glossary term or exercise is indexed with the paragraph(s) it names,
so a question that matches it finds those paragraphs. The learner's words ("water", "troops", French) are mapped to
the text's words by each game's ``search_terms.json`` (and ``words.json`` here for words every game shares) before
lunr's own pipeline (stemming) runs; the ranking is lunr's (BM25 with field boosts).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from lunr import lunr  # type: ignore[import-untyped]
from lunr.builder import Builder  # type: ignore[import-untyped]
from lunr.index import Index  # type: ignore[import-untyped]
from lunr.pipeline import Pipeline  # type: ignore[import-untyped]
from lunr.stemmer import PorterStemmer  # type: ignore[import-untyped]
from lunr.stop_word_filter import WORDS as ENGLISH_STOP_WORDS  # type: ignore[import-untyped]
from lunr.stop_word_filter import stop_word_filter
from lunr.token import Token  # type: ignore[import-untyped]
from lunr.trimmer import trimmer  # type: ignore[import-untyped]

from rulebook import registry
from rulebook.teach import rules_text

FORMAT = 1  # the version of the index file's own tables (lunr's part carries lunr's version)
TERMS_FILE = "search_terms.json"  # in each game's package: the learner's words for the text's words
COMMON = Path(__file__).with_name("words.json")  # words of questions in any game (French question words, ...)
# the fields of a paragraph's document and their boosts: the text's own words count most where a learner's
# question is most likely to have been written (the glossary's terms, the FAQ's and exercises' questions)
FIELDS = (("title", 2.0), ("text", 1.0), ("terms", 2.0), ("questions", 1.0), ("answers", 0.5))
EXPANDED_BOOST = 0.5  # a word the query gained from the synonyms counts half as much as one the learner typed
LENGTH_WEIGHT, SATURATION = 0.75, 1.2  # lunr's BM25 b and k1 (its defaults)
LONGEST_PHRASE = 3  # the most words a synonym's key may have
RELATED = 3  # a paragraph with fewer links than this is shown with its section's nearest paragraphs too
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class Hit:
    """One paragraph that answers a question: its id, section heading, plain text, game, lunr's score, the words of
    the text that matched (to show them) and the ids of related paragraphs (:func:`related`)."""

    id: str
    title: str
    text: str
    game: str
    score: float
    matched: tuple[str, ...]
    related: tuple[str, ...]


# --- words: the same steps in search.js -----------------------------------------------------------------------


def fold(text: str) -> str:
    """Lower case without accents, as the page folds a query too ("dés" and "des" meet)."""
    decomposed = unicodedata.normalize("NFD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("œ", "oe").replace("æ", "ae")


def words(text: str) -> list[str]:
    """The words of a text, folded: letters and digits, everything else separates."""
    return _WORD.findall(fold(text))


class _Porter(PorterStemmer):
    """lunr.py's Porter stemmer with lunr.js's step 1c, so that the index lunr.py writes holds the stems lunr.js
    looks up: lunr.py turns a final y into i when a vowel comes before it in the word ("play" -> "plai", "fly" ->
    "fly"), lunr.js when the letter just before it is not a vowel ("play", "fli"). The other steps agree (the tests
    compare the two on every word of the rules)."""

    b: str  # the word being stemmed, k0..k its current part (PorterStemmer's own state)
    k: int
    k0: int

    def step1c(self) -> None:
        if self.b[self.k] == "y" and self.k - self.k0 >= 2 and self.b[self.k - 1] not in "aeiou":
            self.b = self.b[: self.k] + "i" + self.b[self.k + 1 :]


_PORTER = _Porter()


def stemmer(token: Token, i: int | None = None, tokens: list[Token] | None = None) -> Token:
    """The pipeline's stemmer, under lunr's label "stemmer" (the name lunr.js loads its own stemmer by)."""
    return token.update(_PORTER.stem)


stemmer.label = "stemmer"  # type: ignore[attr-defined]  # not registered: lunr.py's own stays as it is


def stem(word: str) -> str:
    """The stem of a word as the index and search pipelines make it, so that keys match as queries do."""
    return str(stemmer(Token(word)))


def _search_pipeline() -> Pipeline:
    pipeline = Pipeline()
    pipeline.add(stemmer)
    return pipeline


# --- the documents -------------------------------------------------------------------------------------------


def plain(markdown: str) -> str:
    """A paragraph's markdown as plain text without its leading id: links keep their text, marks go."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    text = re.sub(r"^\*\*[A-Z]{2,3}-C?\d+(?:\.\d+)*\b", "", text.strip())
    text = text.replace("**", "").replace("`", "")
    text = re.sub(r"(?<!\w)[*_]|[*_](?!\w)", "", text)
    text = re.sub(r"\s*\n\s*", " ", text)
    return text.strip()


def _title(paragraph: rules_text.Paragraph) -> str:
    """The section heading, with a clarification's subject ("5. Conquering...: the borders on this map")."""
    head = r"\*\*[A-Z]{2,3}-C?\d+(?:\.\d+)*\s*\(clarification"
    found = re.match(head + r":\s*([^)]*)\)", paragraph.markdown)  # "(clarification: the map)."
    found = found or re.match(head + r"\)\.?\*\*\s*\*([^*]+?)\.?\*", paragraph.markdown)  # "(clarification)** *Jumps.*"
    return f"{paragraph.section}: {found.group(1).strip()}" if found else paragraph.section


def _reference(game: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The game's glossary and FAQ (:mod:`rulebook.teach.reference`), or nothing while that module is absent."""
    if importlib.util.find_spec("rulebook.teach.reference") is None:
        return (), ()
    reference = importlib.import_module("rulebook.teach.reference")
    return tuple(reference.glossary(game)), tuple(reference.faq(game))


def _exercises(game: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """The question, explanation and cited ids of each of the game's exercises (none for a game without them), read
    from the exercise file as it is: the positions are not replayed here (the exercise tests check them), so that
    the first search or related list in the browser's Python does not import and run the engine."""
    if not registry.game(game).exercises:
        return []
    from rulebook.teach import exercises

    path = exercises.data_path(game)
    try:
        items = json.loads(path.read_text(encoding="utf-8"))["exercises"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path.name}: cannot read the exercises ({error})") from None
    found = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("rules"), list):
            rules = tuple(rule for rule in item["rules"] if isinstance(rule, str))
            found.append((str(item.get("question", "")), str(item.get("why", "")), rules))
    return found


def game_terms(game: str) -> dict[str, Any]:
    """A game's ``search_terms.json`` (from its package, found through the registry): ``synonyms`` maps a learner's
    word or phrase to the text's words; ``stop`` lists words to drop from a question."""
    module = registry.game(game).module
    path = resources.files(module) / TERMS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"synonyms": {}, "stop": []}
    except (OSError, ValueError) as error:
        raise ValueError(f"{game}/{TERMS_FILE}: cannot read the search terms ({error})") from None
    return _checked(data, f"{game}/{TERMS_FILE}")


def _checked(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict) or not isinstance(data.get("synonyms", {}), dict):
        raise ValueError(f"{where}: an object with a 'synonyms' object is expected")
    for key, value in data.get("synonyms", {}).items():
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value) or not words(key):
            raise ValueError(f"{where}: synonyms of {key!r} must be a list of words")
    stop = data.get("stop", [])
    if not isinstance(stop, list) or not all(isinstance(word, str) for word in stop):
        raise ValueError(f"{where}: 'stop' must be a list of words")
    return {"synonyms": dict(data.get("synonyms", {})), "stop": list(stop)}


@functools.cache
def common_terms() -> dict[str, Any]:
    """The words every game's questions share (``words.json``): French question words, general verbs."""
    return _checked(json.loads(COMMON.read_text(encoding="utf-8")), COMMON.name)


def expansion_table(games: Iterable[str]) -> dict[str, Any]:
    """The synonyms of ``games`` (with the common words and the glossaries' aliases) as the query expansion reads
    them: ``phrases`` maps the stems of a learner's phrase (joined by spaces) to the words it adds; ``stop`` the
    folded words dropped from a question."""
    phrases: dict[str, list[str]] = {}
    stop: set[str] = set()

    def add(key: str, targets: Iterable[str]) -> None:
        stems = " ".join(stem(word) for word in words(key)[:LONGEST_PHRASE])
        known = phrases.setdefault(stems, [])
        for target in targets:
            for word in words(target):  # "turn of conquest" adds "turn" and "conquest": lunr indexes no "of"
                if word not in known and word not in ENGLISH_STOP_WORDS:
                    known.append(word)

    tables = [common_terms()] + [game_terms(game) for game in games]
    for table in tables:
        for key, targets in table["synonyms"].items():
            add(key, targets)
        stop.update(word for entry in table["stop"] for word in words(entry))
    for game in games:
        glossary, _ = _reference(game)
        # a glossary alias the rules text itself uses ("conquer") is found as it is: expanding it too would let the
        # term ("turn of conquest") outweigh the paragraphs that use the word
        vocabulary = {
            stem(word) for paragraph in rules_text.paragraphs(game).values() for word in words(paragraph.markdown)
        }
        for term in glossary:
            for alias in term.aliases:
                if len(words(alias)) != 1 or stem(words(alias)[0]) not in vocabulary:
                    add(alias, [term.term])
    return {"phrases": phrases, "stop": sorted(stop)}


def _cited(markdown: str, known: Mapping[str, Any], own: str) -> list[str]:
    found = []
    for rule in rules_text.RULE_ID.findall(markdown):
        if rule in known and rule != own and rule not in found:
            found.append(rule)
    return found


@functools.cache
def documents() -> dict[str, dict[str, Any]]:
    """Every paragraph of every game as the index holds it: id -> title, section, text, game, related and the
    extra fields (glossary terms, FAQ and exercise questions and answers naming it)."""
    table: dict[str, dict[str, Any]] = {}
    for game in registry.games():
        known = rules_text.paragraphs(game)
        cites = {rule: _cited(p.markdown, known, rule) for rule, p in known.items()}
        extra: dict[str, dict[str, list[str]]] = {rule: {"terms": [], "questions": [], "answers": []} for rule in known}
        together: dict[str, list[str]] = {rule: [] for rule in known}  # named in one FAQ entry or exercise
        glossary, faq = _reference(game)
        for term in glossary:
            if term.rule in extra:
                extra[term.rule]["terms"] += [term.term, *term.aliases]
                extra[term.rule]["answers"].append(term.definition)
        named: list[tuple[str, str, tuple[str, ...]]] = [(q.question, q.answer, tuple(q.rules)) for q in faq]
        named += _exercises(game)
        for question, answer, rules in named:
            rules = tuple(rule for rule in rules if rule in known)
            for rule in rules:
                extra[rule]["questions"].append(question)
                extra[rule]["answers"].append(answer)
                together[rule] += [other for other in rules if other != rule]
        order = list(known)
        for rule, paragraph in known.items():
            cited_by = [other for other in known if rule in cites[other]]
            # after the links, the nearest paragraphs (of its section first), so one nothing cites still shows some
            position = order.index(rule)
            nearby = sorted(
                (other for other in order if other != rule),
                key=lambda other: (known[other].section != paragraph.section, abs(order.index(other) - position)),
            )
            related: list[str] = []
            for other in cites[rule] + cited_by + together[rule]:
                if other not in related:
                    related.append(other)
            related += [other for other in nearby if other not in related][: max(0, RELATED - len(related))]
            table[rule] = {
                "game": game,
                "section": paragraph.section,
                "title": _title(paragraph),
                "text": plain(paragraph.markdown),
                "related": related,
                **{field: " ".join(values) for field, values in extra[rule].items()},
            }
    return table


def related(rule: str) -> tuple[str, ...]:
    """The ids of the paragraphs related to ``rule``: those it cites, those citing it, those a FAQ entry or exercise
    names with it, then (up to 3 in all) the nearest paragraphs, of its section first."""
    try:
        return tuple(documents()[rule]["related"])
    except KeyError:
        raise ValueError(f"no paragraph {rule!r} in the rules") from None


def build_index() -> dict[str, Any]:
    """The one search index: lunr's serialized index (lunr.js loads it as it is), the documents table the results
    are shown from, and the query expansion (the synonyms), for :func:`find` and the website alike."""
    table = documents()
    fields = [{"field_name": name, "boost": boost} for name, boost in FIELDS]
    rows = [{"id": rule, **{name: row[name] for name, _ in FIELDS}} for rule, row in table.items()]
    builder = Builder()  # lunr's default pipelines, with the stemmer lunr.js agrees with
    builder.pipeline.add(trimmer, stop_word_filter, stemmer)
    builder.search_pipeline.add(stemmer)
    builder.b(LENGTH_WEIGHT)
    builder.k1(SATURATION)
    index = lunr(ref="id", fields=fields, documents=rows, builder=builder)
    games = list(registry.games())
    return {
        "format": FORMAT,
        "games": games,
        "lunr": index.serialize(),
        "documents": {
            rule: {key: row[key] for key in ("game", "section", "title", "text", "related")}
            for rule, row in table.items()
        },
        "expansion": {"*": expansion_table(games), **{game: expansion_table([game]) for game in games}},
        "boost": EXPANDED_BOOST,
    }


# --- searching -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Loaded:
    """An index file read back: lunr's index and the tables beside it."""

    index: Index
    data: dict[str, Any]


def load(data: Mapping[str, Any]) -> Loaded:
    """An index as :func:`build_index` writes it (or index.json read back); ValueError if it is not one."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT or not isinstance(data.get("lunr"), dict):
        raise ValueError(f"not a rulebook search index of format {FORMAT}")
    index = Index.load(data["lunr"])
    index.pipeline = _search_pipeline()  # lunr.py would load its own stemmer for the label
    return Loaded(index, dict(data))


@functools.cache
def _loaded() -> Loaded:
    return load(build_index())


def expand(query: str, table: Mapping[str, Any]) -> list[tuple[str, float]]:
    """The words to search for (each with its boost): the question's own words but the stop words, then the words
    its phrases map to (the longest phrase from each word on, then the word after it), as search.js does."""
    tokens = words(query)
    stems = [stem(token) for token in tokens]
    phrases, stop, boost = table["phrases"], set(table["stop"]), EXPANDED_BOOST
    terms: dict[str, tuple[str, float]] = {}  # by stem: the word first given, the highest weight given

    def add(word: str, weight: float) -> None:
        key = stem(word)
        first, known = terms.get(key, (word, 0.0))
        terms[key] = (first, max(known, weight))

    expanded: list[tuple[str, float]] = []
    start = 0
    while start < len(tokens):  # a phrase's words are read once: "take over" is not also "take"
        for length in range(min(LONGEST_PHRASE, len(tokens) - start), 0, -1):
            key = " ".join(stems[start : start + length])
            if key in phrases:
                # a phrase of several words says more than one word ("same field" against "field")
                expanded += [(word, boost * length) for word in phrases[key]]
                break
        else:
            length = 1
        start += length
    for token in tokens:
        if token not in stop:
            add(token, 1.0)
    for word, weight in expanded:
        add(word, weight)
    return list(terms.values())


def matched_words(text: str, terms: Iterable[str]) -> tuple[str, ...]:
    """The words of ``text`` whose stem is one of the index ``terms`` a result matched, in the text's order."""
    wanted = set(terms)
    found: list[str] = []
    for word in re.findall(r"\w+", text):
        if stem(fold(word)) in wanted and word.lower() not in (w.lower() for w in found):
            found.append(word)
    return tuple(found)


def find(query: str, game: str | None = None, limit: int = 10) -> list[Hit]:
    """The paragraphs that answer ``query``, best first (at most ``limit``); ``game=None`` searches every game."""
    if not isinstance(query, str):
        raise ValueError(f"the question must be text, not {type(query).__name__}")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit must be a whole number of 1 or more, not {limit!r}")
    games = list(registry.games())
    if game is not None and game not in games:
        raise ValueError(f"no game {game!r}: the games are {', '.join(games)}")
    return search(_loaded(), query, game, limit)


def search(loaded: Loaded, query: str, game: str | None, limit: int) -> list[Hit]:
    """:func:`find` in a given index (one read back from index.json, say): the same steps as search.js."""
    terms = expand(query, loaded.data["expansion"]["*" if game is None else game])
    if not terms:
        return []
    search = loaded.index.create_query()
    for word, boost in terms:
        search.term(word, boost=boost)
    table = loaded.data["documents"]
    hits: list[Hit] = []
    for result in loaded.index.query(search):
        row = table[result["ref"]]
        if game is not None and row["game"] != game:
            continue
        matched = matched_words(row["title"] + " " + row["text"], result["match_data"].metadata)
        hits.append(
            Hit(result["ref"], row["title"], row["text"], row["game"], result["score"], matched, tuple(row["related"]))
        )
        if len(hits) == limit:
            break
    return hits


__all__ = ["Hit", "build_index", "documents", "expand", "find", "load", "related", "search"]
