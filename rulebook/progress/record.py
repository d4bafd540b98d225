"""A learner's record by rule id: every event compacted into one small entry per paragraph, and the paragraph's
state read from it (not met, seen, practised, known, due for review; retired for an id the rules no longer have).

The record never grows with the events: an entry holds counts, two times and one FSRS card, and a game holds at
most :data:`MAX_RULES` entries. ``to_json``/``from_json`` are the one file format (browser storage, the working
copy's file, export and import, the class server); ``from_json`` refuses anything else in words.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fsrs import Card

from rulebook.core import check_depth
from rulebook.progress import scheduling
from rulebook.progress.events import GAME_NAME, RULE_ID, Event, now

FORMAT = "rulebook-progress"
VERSION = 1
STATES = ("not met", "seen", "practised", "known", "due")  # a live paragraph's states, least known first
RETIRED = "retired"  # an id kept from an older rules text that no longer has it
MAX_BYTES = 1_000_000  # a full record of four games is about 60 kB
MAX_GAMES = 16
MAX_RULES = 400  # entries per game: the largest rules text has under 100 paragraphs
MAX_COUNT = 10**9
COUNTS = ("right", "wrong", "refused", "learned", "hinted")


@dataclass
class Entry:
    """What the record keeps of one paragraph: how often each kind of event touched it, when first and last, the
    last answer's verdict and its FSRS card (None until it was answered on)."""

    right: int = 0
    wrong: int = 0
    refused: int = 0
    learned: int = 0
    hinted: int = 0
    first: datetime | None = None
    last: datetime | None = None
    last_right: bool | None = None
    card: Card | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {name: getattr(self, name) for name in COUNTS}
        data["first"] = self.first.isoformat() if self.first else None
        data["last"] = self.last.isoformat() if self.last else None
        data["last_right"] = self.last_right
        data["card"] = scheduling.card_to_dict(self.card) if self.card is not None else None
        return data

    @classmethod
    def from_dict(cls, data: Any, where: str) -> Entry:
        fields = {*COUNTS, "first", "last", "last_right", "card"}
        if not isinstance(data, dict) or set(data) != fields:
            raise ValueError(f"{where}: an entry has exactly the fields {', '.join(sorted(fields))}")
        entry = cls()
        for name in COUNTS:
            value = data[name]
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
                raise ValueError(f"{where}: {name} must be a count from 0 to {MAX_COUNT:,}")
            setattr(entry, name, value)
        for name in ("first", "last"):
            if data[name] is not None:
                setattr(entry, name, scheduling.parse_time(data[name], f"{where}: {name}"))
        if data["last_right"] not in (None, True, False):
            raise ValueError(f"{where}: last_right is true, false or null")
        entry.last_right = data["last_right"]
        entry.card = None if data["card"] is None else scheduling.card_from_dict(data["card"], where)
        if entry.first is None or entry.last is None or entry.first > entry.last:
            raise ValueError(f"{where}: first and last must be times, first not after last")
        return entry


class Record:
    """One learner's progress in every game, by paragraph id. Apply events; read states; write and read JSON."""

    def __init__(self) -> None:
        self.games: dict[str, dict[str, Entry]] = {}

    # -- events -------------------------------------------------------------------------------------------------
    def apply(self, event: Event) -> None:
        """Fold one event into the entries of the paragraphs it names (the event itself is not kept)."""
        if event.game not in self.games and len(self.games) >= MAX_GAMES:
            raise ValueError(f"the record holds {MAX_GAMES} games already; {event.game[:40]} is not added")
        entries = self.games.setdefault(event.game, {})
        for rule in event.rules:
            entry = entries.get(rule)
            if entry is None:
                self._make_room(event.game, entries)
                entry = entries[rule] = Entry(first=event.when)
            entry.last = max(entry.last, event.when) if entry.last else event.when
            if event.kind == "answered":
                right = bool(event.right)
                entry.right += right
                entry.wrong += not right
                entry.last_right = right
                entry.card = scheduling.review(entry.card, right, event.when)
            elif event.kind == "refused":
                entry.refused += 1
                if entry.card is not None:  # tripped over a rule once practised: it comes back sooner
                    entry.card = scheduling.review(entry.card, False, event.when)
                    entry.last_right = False
            else:
                setattr(entry, event.kind, getattr(entry, event.kind) + 1)
            for name in COUNTS:
                setattr(entry, name, min(getattr(entry, name), MAX_COUNT))

    def _make_room(self, game: str, entries: dict[str, Entry]) -> None:
        """A game full of entries loses one to take a new one: the least recent retired id, else the least recent."""
        if len(entries) < MAX_RULES:
            return
        live = _paragraph_ids(game)
        retired = [rule for rule in entries if rule not in live]
        victims = retired or list(entries)
        oldest = min(victims, key=lambda rule: entries[rule].last or datetime.min)
        del entries[oldest]

    # -- states -------------------------------------------------------------------------------------------------
    def entry(self, game: str, rule: str) -> Entry | None:
        return self.games.get(game, {}).get(rule)

    def state(self, game: str, rule: str, when: datetime | None = None, live: Iterable[str] | None = None) -> str:
        """The state of one paragraph at ``when`` (now): one of :data:`STATES`, or ``"retired"``."""
        entry = self.entry(game, rule)
        if live is not None and rule not in live:
            return RETIRED
        if entry is None:
            return "not met"
        if entry.card is None:
            return "seen"
        if entry.card.due <= (when or now()):
            return "due"
        if entry.last_right and scheduling.interval_days(entry.card) >= scheduling.KNOWN_DAYS:
            return "known"
        return "practised"

    def states(self, game: str, when: datetime | None = None) -> dict[str, str]:
        """Every paragraph of ``game``'s rules text in reading order with its state, then the ids the record keeps
        that the text no longer has, as ``"retired"``."""
        live = _paragraph_ids(game, strict=True)
        result = {rule: self.state(game, rule, when) for rule in live}
        for rule in self.games.get(game, {}):
            if rule not in live:
                result[rule] = RETIRED
        return result

    def due(self, game: str, when: datetime | None = None) -> list[str]:
        """The paragraphs of ``game`` due for review at ``when``, the longest overdue first (retired ids never)."""
        moment = when or now()
        if not self.games.get(game):  # (nothing to read: the rules text of a game never met is not loaded)
            return []
        live = _paragraph_ids(game, strict=True)
        due = [
            (entry.card.due, rule)
            for rule, entry in self.games.get(game, {}).items()
            if rule in live and entry.card is not None and entry.card.due <= moment
        ]
        return [rule for _, rule in sorted(due)]

    def merged(self, other: Record) -> Record:
        """Both records in one (importing on a second computer): per paragraph, the entry touched last wins."""
        result = Record.from_json(self.to_json())
        for game, entries in other.games.items():
            for rule, entry in entries.items():
                mine = result.games.get(game, {}).get(rule)
                if mine is None or (entry.last and mine.last and entry.last > mine.last):
                    if game not in result.games and len(result.games) >= MAX_GAMES:
                        raise ValueError(f"the two records together hold more than {MAX_GAMES} games")
                    target = result.games.setdefault(game, {})
                    if rule not in target:
                        result._make_room(game, target)
                    target[rule] = Entry.from_dict(entry.to_dict(), f"{game} {rule}")
        return result

    # -- JSON ---------------------------------------------------------------------------------------------------
    def to_json(self) -> str:
        """The record as JSON text (keys sorted: the same record always gives the same text)."""
        games = {game: {rule: entry.to_dict() for rule, entry in kept.items()} for game, kept in self.games.items()}
        return json.dumps({"format": FORMAT, "version": VERSION, "games": games}, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """A record from :meth:`to_json`'s text. Anything else (not JSON, another file, a newer or older format,
        a field out of range, too large) is a ValueError saying what is wrong; nothing is half read."""
        games = _read_games(text)
        record = cls()
        for game, entries in games.items():
            if not GAME_NAME.fullmatch(game):
                raise ValueError(f"this progress file names a game {game[:40]!r}: not a game's name")
            if not isinstance(entries, dict) or len(entries) > MAX_RULES:
                raise ValueError(f"this progress file holds more than {MAX_RULES} paragraphs of {game}")
            kept = record.games[game] = {}
            for rule, entry in entries.items():
                if not RULE_ID.fullmatch(rule):
                    raise ValueError(f"this progress file names {rule[:40]!r} in {game}: not a paragraph id")
                kept[rule] = Entry.from_dict(entry, f"this progress file, {game} {rule}")
        return record


def _read_games(text: str | bytes) -> dict[str, Any]:
    """The "games" object of a progress file's text, after every check of the file as a whole."""
    what = "this is not a progress file"
    if len(text) > MAX_BYTES:
        raise ValueError(f"{what}: it is {len(text):,} bytes, a progress file is at most {MAX_BYTES:,}")
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{what}: it is not text (a progress file is JSON text)") from None
    if not text.strip():
        raise ValueError(f"{what}: it is empty")
    check_depth(text, what, "a progress file", limit=6)
    try:  # Infinity and NaN are no JSON numbers: refused where they stand, not read as floats
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise ValueError(f"{what}: it is not JSON (line {error.lineno}, column {error.colno})") from None
    except ValueError as error:  # a number of more than 4300 digits, or a constant
        raise ValueError(f"{what}: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f'{what}: it has no "format": "{FORMAT}" (a saved game or another file?)')
    version = data.get("version")
    if version != VERSION:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > VERSION
        which = "a newer rulebook" if newer else "an unknown version"
        raise ValueError(
            f"this progress file was made by {which} (version {str(version)[:20]}; this one reads {VERSION})"
        )
    if set(data) != {"format", "version", "games"}:
        extra = ", ".join(sorted(str(key)[:30] for key in set(data) - {"format", "version", "games"}))
        raise ValueError(f"this progress file has fields it should not have: {extra or 'games is missing'}")
    games = data["games"]
    if not isinstance(games, dict) or len(games) > MAX_GAMES:
        raise ValueError(f"this progress file's games must be an object of at most {MAX_GAMES} games")
    return games


def _no_constant(name: str) -> Any:
    raise ValueError(f"it holds {name}, which is no number a progress file has")


def _paragraph_ids(game: str, strict: bool = False) -> dict[str, Any]:
    """The paragraphs of the game's rules text by id; {} for a game this rulebook does not have (unless ``strict``:
    then the registry's ValueError naming the known games)."""
    from rulebook.teach import rules_text  # the rules text is read when first asked for, not on import

    try:
        return rules_text.paragraphs(game)
    except ValueError:
        if strict:
            raise
        return {}


def class_map(records: Iterable[Record], game: str, when: datetime | None = None) -> dict[str, dict[str, int]]:
    """A class's map of ``game``'s paragraphs: for each id, how many of the records are in each state (every live
    paragraph has every state of :data:`STATES`, zeros included; an id only older records have counts as retired)."""
    live = _paragraph_ids(game, strict=True)
    counts: dict[str, dict[str, int]] = {rule: dict.fromkeys(STATES, 0) for rule in live}
    for record in records:
        for rule, state in record.states(game, when).items():
            counts.setdefault(rule, {}).setdefault(state, 0)
            counts[rule][state] += 1
    return counts
