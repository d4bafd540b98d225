"""What one seat of a class-server table may see (issue 45.1): the position, its own secrets and the log, as JSON.

:func:`view` is all the server ever sends about a game. It is built from the State's dataclass fields, so a new field
reaches the seats by itself, and each game's ``seats`` mapping (the registry's ``Game.seats``: a ``seats.py`` in the
game's package) masks what its rules keep from that seat: other seats' missions and cards become counts or None, a
pile whose content is secret becomes its size, and a chance outcome in the log that deals a secret (a card drawn
into a hand) is told without it to everyone but its owner. The seed (it would predict every deal) and fields that
repeat it are never sent.

The log is told in the game's own words (its ``narrate``), which needs the position before and after each entry:
the game is replayed from its start once and the sentences are kept per entry, so that a view after one more move
tells only that move (see :func:`_entries`).
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulebook import registry
from rulebook.core import describe

ALWAYS_DROPPED = ("seed", "history")  # the seed predicts the deal; the log is sent as words, masked per seat


# --- what each game hides ------------------------------------------------------------------------------------


def _nothing_masked(state: Any, position: dict[str, Any], seat: int | None) -> None:
    return None


def _no_secret(state: Any, seat: int) -> dict[str, Any]:
    return {}


def _nothing_drawn(before: Any, entry: Any, seat: int | None) -> str | None:
    return None


def _nobody(state: Any) -> int | None:
    return None


def _no_summary(state: Any) -> list[str]:
    return []


@dataclass(frozen=True)
class Hidden:
    """What one game keeps from a seat: ``mask(state, position, seat)`` edits the plain position in place;
    ``secret(state, seat)`` is the seat's own secrets in words; ``drawn(before, entry, seat)`` is the text of a chance
    outcome that deals a secret (None for any other entry; ``before`` is None when the position before is unknown),
    ``actor(before)`` the seat a chance outcome is about; ``start_key(state)`` identifies the game's start (the
    log's cache); ``summary(state)`` the table in the game's words from public fields only (the same for every
    seat); ``board(state)`` rows of text to show in monospace, where the game has a text board; ``dropped`` the
    fields never sent besides seed and history."""

    mask: Callable[[Any, dict[str, Any], int | None], None] = _nothing_masked
    secret: Callable[[Any, int], dict[str, Any]] = _no_secret
    drawn: Callable[[Any, Any, int | None], str | None] = _nothing_drawn
    actor: Callable[[Any], int | None] = _nobody
    start_key: Callable[[Any], Hashable] | None = None  # None: the log is told without its positions (_untold)
    summary: Callable[[Any], list[str]] = _no_summary
    board: Callable[[Any], list[str]] | None = None
    dropped: tuple[str, ...] = ()
    words: Callable[[Any, Any], str] | None = None  # a legal move as the game's board words it, where it differs


def hidden(game: registry.Game) -> Hidden:
    """What ``game`` keeps from a seat, from its ``seats`` mapping; a game without one hides nothing but the seed."""
    try:
        return Hidden(**game.seat_rules())
    except TypeError as error:
        raise ValueError(f"{game.title}: its seats mapping is not what the class server asks for ({error})") from None


def move_text(state: Any, move: Any) -> str:
    """A legal move as a seat's move button says it: in the board's own words (Claim's points named as on its edges)."""
    words = hidden(registry.game_of(state)).words
    return describe(move) if words is None else words(state, move)


# --- the view ---------------------------------------------------------------------------------------------------


def view(state: Any, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees of ``state``, as a JSON-able dict: the public position, the seat's own
    secrets in words, the outcome and the log, with nothing another seat keeps to itself."""
    game = registry.game_of(state)
    rules = hidden(game)
    players = state.players
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players):
        raise ValueError(f"no seat {seat!r}: seats are 0 to {players - 1} (or None for a spectator)")
    dropped = set(ALWAYS_DROPPED) | set(rules.dropped)
    position = {
        field.name: plain(getattr(state, field.name))
        for field in dataclasses.fields(state)
        if field.name not in dropped
    }
    rules.mask(state, position, seat)
    result = game.engine.outcome(state)
    over = None
    if result is not None:
        scores = None if result.scores is None else list(result.scores)
        over = {"winners": list(result.winners), "reason": result.reason, "scores": scores}
    entries = _entries(game.name, rules, state)
    names = game.seat_names(players)
    log = []
    for index, (player, actor, public, own) in enumerate(entries):
        text = own if own is not None and seat is not None and seat == actor else public
        subject = names[actor] if actor is not None and 0 <= actor < players else None
        log.append({"n": index, "player": player, "text": f"{subject}: {text}" if subject else text})
    return {
        "game": game.name,
        "players": players,
        "seat": seat,
        "player": state.player,
        "moves": len(state.history),
        "over": over,
        "summary": rules.summary(state),
        "board": None if rules.board is None else rules.board(state),
        "position": position,
        "secret": {} if seat is None else rules.secret(state, seat),
        "log": log,
    }


def plain(value: Any) -> Any:
    """``value`` as JSON's types: tuples and lists as lists, frozensets sorted, dataclasses as dicts of their fields,
    Fractions as text ("1/6")."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)):
        return [plain(item) for item in value]
    if isinstance(value, (frozenset, set)):
        return sorted((plain(item) for item in value), key=lambda item: json.dumps(item, sort_keys=True))
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: plain(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, Fraction):
        return str(value)
    return str(value)


# --- the log, told once per entry ------------------------------------------------------------------------------

# One told entry: (the seat that chose it or None for chance, the seat it is about, the text for everyone, the
# text for that seat alone or None).
Entry = tuple[int | None, int | None, str, str | None]

_CACHE_SIZE = 64  # games whose told logs are kept (a class has some 20 tables)
_lock = threading.Lock()
_told: dict[tuple[str, Hashable], list[tuple[tuple, list[Entry], Any]]] = {}  # start -> [(log, entries, last state)]


def _entries(name: str, hidden: Hidden, state: Any) -> list[Entry]:
    """Every entry of ``state.history`` told: the longest told log that begins this one is reused and extended."""
    log = tuple(state.history)
    if hidden.start_key is None:
        return _untold(hidden, log)
    try:
        key: tuple[str, Hashable] = (name, hidden.start_key(state))
        hash(key)
    except (AttributeError, TypeError):
        return _untold(hidden, log)
    with _lock:
        known = list(_told.get(key, ()))
    best = None
    for told in known:
        old_log = told[0]
        if len(old_log) >= len(log) and old_log[: len(log)] == log:
            return told[1][: len(log)]
        if best is None or len(old_log) > len(best[0]):
            if log[: len(old_log)] == old_log:
                best = told
    if best is None:
        start = _start(name, state)
        if start is None:
            return _untold(hidden, log)
        best = ((), [], start)
    old_log, entries, position = best
    entries = list(entries)
    engine = registry.game(name).engine
    narrate = getattr(engine, "narrate", None)
    narrate = getattr(narrate, "narrate", narrate)
    for entry in log[len(old_log) :]:
        after = engine.apply(position, entry)
        entries.append(_tell(hidden, narrate, position, entry, after))
        position = after
    with _lock:
        kept = [told for told in _told.get(key, []) if told is not best]
        kept.append((log, entries, position))
        _told[key] = kept[-4:]  # tables started alike (one seed) each keep their own log
        while len(_told) > _CACHE_SIZE:
            _told.pop(next(iter(_told)))
    return entries


def _tell(hidden: Hidden, narrate: Any, before: Any, entry: Any, after: Any) -> Entry:
    player = before.player
    actor = player if player is not None else hidden.actor(before)
    public = hidden.drawn(before, entry, None)
    if public is not None:
        return (player, actor, public, hidden.drawn(before, entry, actor))
    try:
        text = narrate(before, entry, after) if callable(narrate) else describe(entry)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):
        text = describe(entry)
    return (player, actor, text, None)


def _untold(hidden: Hidden, log: tuple) -> list[Entry]:
    """The log without the positions between its entries (a written position's log): each entry as the rules word
    it, a secret-dealing one without its secret (and without knowing whose it is)."""
    told: list[Entry] = []
    for entry in log:
        public = hidden.drawn(None, entry, None)
        told.append((None, None, public if public is not None else describe(entry), None))
    return told


def _start(name: str, state: Any) -> Any:
    """The position ``state``'s game started from: its save file without the log, loaded; None when it has none."""
    engine = registry.game(name).engine
    try:
        data = json.loads(engine.to_json(state))
        data["history"] = []
        return engine.from_json(json.dumps(data))
    except (ValueError, TypeError, KeyError):
        return None
