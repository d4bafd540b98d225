"""Each game's glossary and FAQ: data kept in the game's package (``glossary.json``, ``faq.json``), checked here.

The glossary gives the game's own words with the words a learner uses for them (English and the French of the
originals), each tied to the paragraph that defines it; the FAQ answers the questions players ask, each answer
resting on the paragraph ids it names. The rules pages, the search and the printed rulebook all read them from here.

A file is checked strictly when first read: bad JSON, an unknown key, a rule id that is not a paragraph of the
game's rules (:func:`rulebook.teach.rules_text.paragraphs`) or a repeated id is a ValueError naming the file. A game
whose package has no such file has an empty glossary or FAQ.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulebook import registry
from rulebook.core import parse_json, quote
from rulebook.teach import rules_text

GLOSSARY_FILE = "glossary.json"
FAQ_FILE = "faq.json"
AID_FILE = "aid.json"
MAX_FILE = 1_000_000  # characters: a glossary or FAQ is a few tens of KB; a larger file is refused unread

_TERM_KEYS = ("term", "aliases", "rule", "definition")
_QUESTION_KEYS = ("id", "question", "answer", "rules")
_SECTION_KEYS = ("heading", "lines", "rule", "columns", "rows", "note")


@dataclass(frozen=True)
class Term:
    """A word of the game: the rules' own word, what else learners call it, the paragraph defining it, its meaning."""

    term: str
    aliases: tuple[str, ...]
    rule: str
    definition: str


@dataclass(frozen=True)
class Question:
    """A question players ask (``id`` like ``MJ-Q1``), its short answer and the paragraph ids the answer rests on."""

    id: str
    question: str
    answer: str
    rules: tuple[str, ...]


def _name(path: Path) -> str:
    """A data file as errors name it: its package's folder and its name (``claim/faq.json``)."""
    return f"{path.parent.name}/{path.name}"


@dataclass(frozen=True)
class AidSection:
    """A block of the player aid: a heading, then lines each with the rule id it summarises, or a table (``columns``,
    ``rows`` of texts) summarising the paragraph ``rule``; ``note`` a line under it."""

    heading: str
    lines: tuple[tuple[str, str], ...] = ()
    rule: str = ""
    columns: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    note: str = ""


def data_path(game: str, name: str) -> Path:
    """Where a game keeps its data file ``name``: the folder of its package (``Game.module``)."""
    module = registry.game(game).module  # ValueError for an unknown game, naming the known ones
    return Path(str(importlib.resources.files(module).joinpath(name)))


def _read(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{_name(path)}: cannot read the file ({error})") from None
    if len(text) > MAX_FILE:
        raise ValueError(f"{_name(path)}: {len(text)} characters, more than such a file holds ({MAX_FILE})")
    return parse_json(text, _name(path))


def _items(data: Any, what: str, key: str) -> list[dict[str, Any]]:
    """The list under ``key`` of a file's top object (the only key allowed there), each item an object."""
    if not isinstance(data, dict):
        raise ValueError(f"{what}: expected a JSON object with the key {key!r}")
    unknown = set(data) - {key}
    if unknown:
        raise ValueError(f"{what}: unknown key {quote(min(unknown))} (the file holds only {key!r})")
    items = data.get(key)
    if not isinstance(items, list):
        raise ValueError(f"{what}: {key!r} must be a list")
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict):
            raise ValueError(f"{what}: entry {number} of {key!r} is not an object")
    return items


def _fields(item: dict[str, Any], keys: tuple[str, ...], where: str) -> None:
    unknown = set(item) - set(keys)
    if unknown:
        raise ValueError(f"{where}: unknown key {quote(min(unknown))} (an entry holds {', '.join(keys)})")
    missing = [key for key in keys if key not in item]
    if missing:
        raise ValueError(f"{where}: the key {missing[0]!r} is missing")


def _text(value: Any, where: str, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where}: {key!r} must be a text that is not empty, not {quote(value)}")
    if value != value.strip():
        raise ValueError(f"{where}: {key!r} starts or ends with white space")
    return value


def _texts(value: Any, where: str, key: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: {key!r} must be a list of texts, not {quote(value)}")
    return tuple(_text(item, where, key) for item in value)


def _rule(value: Any, where: str, known: Collection[str], game: str) -> str:
    rule = _text(value, where, "rule")
    if rule not in known:
        raise ValueError(f"{where}: {quote(rule)} is not a paragraph of the {game} rules")
    return rule


def read_glossary(data: Any, game: str, what: str, known: Collection[str]) -> tuple[Term, ...]:
    """The terms of a parsed glossary file, checked: ``known`` holds the game's paragraph ids, ``what`` names the file.

    A word (a term or an alias, compared without case) may stand for one term only, so a look-up is never ambiguous."""
    terms: list[Term] = []
    owner: dict[str, str] = {}
    for number, item in enumerate(_items(data, what, "terms"), 1):
        where = f"{what}: term {number}"
        _fields(item, _TERM_KEYS, where)
        term = _text(item["term"], where, "term")
        where = f"{what}: term {term!r}"
        aliases = _texts(item["aliases"], where, "aliases")
        if len({word.casefold() for word in (term, *aliases)}) != len(aliases) + 1:
            raise ValueError(f"{where}: an alias appears twice or repeats the term")
        for word in (term, *aliases):
            earlier = owner.setdefault(word.casefold(), term)
            if earlier != term:
                raise ValueError(f"{where}: the word {word!r} is already taken by the term {earlier!r}")
        rule = _rule(item["rule"], where, known, game)
        terms.append(Term(term, aliases, rule, _text(item["definition"], where, "definition")))
    return tuple(terms)


def read_faq(data: Any, game: str, what: str, known: Collection[str]) -> tuple[Question, ...]:
    """The questions of a parsed FAQ file, checked: ids ``<prefix>-Q<n>`` once each, every cited rule a paragraph."""
    prefix = registry.game(game).prefix
    pattern = re.compile(rf"{re.escape(prefix)}-Q[1-9]\d*")
    questions: list[Question] = []
    seen: set[str] = set()
    for number, item in enumerate(_items(data, what, "questions"), 1):
        where = f"{what}: question {number}"
        _fields(item, _QUESTION_KEYS, where)
        ident = _text(item["id"], where, "id")
        if not pattern.fullmatch(ident):
            raise ValueError(f"{where}: the id {ident!r} is not of the form {prefix}-Q<number>")
        if ident in seen:
            raise ValueError(f"{where}: the id {ident!r} appears twice")
        seen.add(ident)
        where = f"{what}: {ident}"
        rules = _texts(item["rules"], where, "rules")
        if not rules:
            raise ValueError(f"{where}: 'rules' names no paragraph: an answer rests on at least one")
        if len(set(rules)) != len(rules):
            raise ValueError(f"{where}: a rule id appears twice in 'rules'")
        for rule in rules:
            _rule(rule, where, known, game)
        question = _text(item["question"], where, "question")
        questions.append(Question(ident, question, _text(item["answer"], where, "answer"), rules))
    return tuple(questions)


def read_aid(data: Any, game: str, what: str, known: Collection[str]) -> tuple[AidSection, ...]:
    """The sections of a parsed player-aid file, checked: each holds lines (``[rule, text]``) or a table with its rule
    and rows as long as its columns, and every rule id is a paragraph of the game."""
    sections: list[AidSection] = []
    for number, item in enumerate(_items(data, what, "sections"), 1):
        unknown = set(item) - set(_SECTION_KEYS)
        if unknown:
            raise ValueError(f"{what}: section {number}: unknown key {quote(min(unknown))}")
        heading = _text(item.get("heading"), f"{what}: section {number}", "heading")
        where = f"{what}: section {heading!r}"
        table = "columns" in item or "rows" in item
        if table == ("lines" in item) or table != ("rule" in item):
            raise ValueError(f"{where}: a section holds either 'lines' or a table ('rule', 'columns' and 'rows')")
        lines: list[tuple[str, str]] = []
        raw = item.get("lines", [])
        for line in raw if isinstance(raw, list) else [raw]:
            if not (isinstance(line, list) and len(line) == 2):
                raise ValueError(f"{where}: a line is [rule id, text], not {quote(line)}")
            lines.append((_rule(line[0], where, known, game), _text(line[1], where, "lines")))
        if "lines" in item and not lines:
            raise ValueError(f"{where}: 'lines' is empty")
        rule = _rule(item["rule"], where, known, game) if table else ""
        columns = _texts(item.get("columns", []), where, "columns")
        rows_data = item.get("rows", [])
        if not isinstance(rows_data, list):
            raise ValueError(f"{where}: 'rows' must be a list of rows")
        rows = tuple(_texts(row, where, "rows") for row in rows_data)
        if table and (not columns or not rows or any(len(row) != len(columns) for row in rows)):
            raise ValueError(f"{where}: a table has columns and rows of one cell per column ({len(columns)})")
        note = _text(item["note"], where, "note") if "note" in item else ""
        sections.append(AidSection(heading, tuple(lines), rule, columns, rows, note))
    return tuple(sections)


@functools.cache
def glossary(game: str) -> tuple[Term, ...]:
    """A game's glossary, in the file's order (cached; a bad file is a ValueError and nothing is cached)."""
    path = data_path(game, GLOSSARY_FILE)
    data = _read(path)
    return () if data is None else read_glossary(data, game, _name(path), rules_text.paragraphs(game))


@functools.cache
def faq(game: str) -> tuple[Question, ...]:
    """A game's FAQ, in the file's order (cached; a bad file is a ValueError and nothing is cached)."""
    path = data_path(game, FAQ_FILE)
    data = _read(path)
    return () if data is None else read_faq(data, game, _name(path), rules_text.paragraphs(game))


@functools.cache
def aid(game: str) -> tuple[AidSection, ...]:
    """A game's player aid: what a table needs at hand, each line with its rule id (cached like :func:`faq`)."""
    path = data_path(game, AID_FILE)
    data = _read(path)
    return () if data is None else read_aid(data, game, _name(path), rules_text.paragraphs(game))


def lookup(game: str, word: str) -> Term | None:
    """The glossary term a word names (the term or one of its aliases, without case), or None."""
    folded = word.strip().casefold()
    for term in glossary(game):
        if folded == term.term.casefold() or folded in (alias.casefold() for alias in term.aliases):
            return term
    return None
