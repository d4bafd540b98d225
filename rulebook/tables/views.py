"""What one seat of a class-server table may see (issue 45.1): the position, its own secrets and the log, as JSON.

:func:`view` is all the server ever sends about a game. It is built from the State's dataclass fields, so a new field
reaches the seats by itself, and each game's entry in :data:`HIDDEN` masks what its rules keep from that seat:
other seats' missions and cards become counts or None, a pile whose content is secret becomes its size, and a chance
outcome in the log that deals a secret (a card drawn into a hand) is told without it to everyone but its owner. The
seed (it would predict every deal) and fields that repeat it are never sent.

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


@dataclass(frozen=True)
class Hidden:
    """What one game keeps from a seat: ``mask(state, position, seat)`` edits the plain position in place;
    ``secret(state, seat)`` is the seat's own secrets in words; ``drawn(before, entry, seat)`` is the text of a chance
    outcome that deals a secret (None for any other entry; ``before`` is None when the position before is unknown),
    ``actor(before)`` the seat a chance outcome is about; ``start_key(state)`` identifies the game's start (the
    log's cache); ``summary(state)`` the table in the game's words from public fields only (the same for every
    seat); ``board(state)`` rows of text to show in monospace, where the game has a text board; ``dropped`` the
    fields never sent besides seed and history."""

    mask: Callable[[Any, dict[str, Any], int | None], None]
    secret: Callable[[Any, int], dict[str, Any]]
    drawn: Callable[[Any, Any, int | None], str | None]
    actor: Callable[[Any], int | None]
    start_key: Callable[[Any], Hashable]
    summary: Callable[[Any], list[str]]
    board: Callable[[Any], list[str]] | None = None
    dropped: tuple[str, ...] = ()
    words: Callable[[Any, Any], str] | None = None  # a legal move as the game's board words it, where it differs


def _nothing_masked(state: Any, position: dict[str, Any], seat: int | None) -> None:
    return None


def _no_secret(state: Any, seat: int) -> dict[str, Any]:
    return {}


def _nothing_drawn(before: Any, entry: Any, seat: int | None) -> str | None:
    return None


# Meetjesland: missions (MJ-2.2) and the cards in hand (MJ-4.6) are secret, and so is the pile's content.


def _mj_mask(state: Any, position: dict[str, Any], seat: int | None) -> None:
    position["missions"] = [mission if index == seat else None for index, mission in enumerate(state.missions)]
    position["hands"] = [
        list(hand) if index == seat else {"cards": len(hand)} for index, hand in enumerate(state.hands)
    ]
    position["pile"] = {"cards": len(state.pile)}
    position["config"].pop("missions", None)  # every mission's text: a seat is told its own in "secret"


def _mj_secret(state: Any, seat: int) -> dict[str, Any]:
    from rulebook.meetjesland.rules import card_colour, card_name, effective_mission

    number = state.missions[seat]
    cards = [
        {"card": card, "name": card_name(card), "colour": card_colour(card, state.board)} for card in state.hands[seat]
    ]
    mission: dict[str, Any] = {"number": number, "text": state.config.missions[number].text}
    counting = effective_mission(state, seat)
    if counting.text != mission["text"]:  # MJ-C5: a destroy mission that cannot be done gives way to the fallback
        mission["instead"] = counting.text
    return {"mission": mission, "cards": cards}


def _mj_drawn(before: Any, entry: Any, seat: int | None) -> str | None:
    from rulebook.meetjesland.rules import CardDrawn, card_name

    if not isinstance(entry, CardDrawn):
        return None
    if before is not None and seat == before.turn:
        return f"draws the card {card_name(entry.card)}"
    return "draws a card"


# Kingdom Builder: the terrain card of a player not on turn is hidden (KB-C5, rules.view), and so is which cards the
# pile holds (its counts together with the hidden cards would tell them).


def _kb_hidden(state: Any, seat: int | None) -> list[int]:
    from rulebook.kingdom_builder.hidden import hidden_seats

    return hidden_seats(state, seat)


def _kb_mask(state: Any, position: dict[str, Any], seat: int | None) -> None:
    for index in _kb_hidden(state, seat):
        position["hands"][index] = {"cards": 1}
    position["pile"] = {"cards": sum(state.pile)}


def _kb_secret(state: Any, seat: int) -> dict[str, Any]:
    from rulebook.kingdom_builder.rules import terrain_word

    card = state.hands[seat]
    return {} if card is None else {"card": card, "terrain": terrain_word(card)}


def _kb_drawn(before: Any, entry: Any, seat: int | None) -> str | None:
    from rulebook.kingdom_builder.rules import CardDrawn, terrain_word

    if not isinstance(entry, CardDrawn):
        return None
    if before is not None and seat is not None and seat == before.drawing:
        return f"draws a {terrain_word(entry.terrain)} card"
    return "draws a terrain card"


# Ab die Post!: hands are open (ADP-C6); the pile is counts (its order is a chance node, not a field).


def _adp_mask(state: Any, position: dict[str, Any], seat: int | None) -> None:
    return None


# --- the table in words ------------------------------------------------------------------------------------------
# Each game's summary reads only what every seat sees (the masks above hide the rest), in the words of its board's
# side panel and status line; the boards' own panel functions live in widget modules that need ipywidgets, so their
# sentences are said again here from the same rules and narrate helpers.


def count(number: int, word: str, words: str | None = None) -> str:
    """``1 card``, ``3 cards``, ``no cards``: a number with its noun."""
    many = words or word + "s"
    if number == 0:
        return f"no {many}"
    return f"{number} {word if number == 1 else many}"


def _mj_summary(state: Any) -> list[str]:
    """Meetjesland: what the turn is at (set-up, reinforce or conquer, a battle) and per colour the territories,
    the points on the board, the cards in hand (how many), the whole regions, or who put that colour out."""
    from rulebook.meetjesland import rules
    from rulebook.meetjesland.narrate import dice_text, player_name, points

    lines = [_mj_stage(state)]
    for player in range(state.players):
        name = player_name(player)
        if not state.alive[player]:
            beaten_by = state.eliminated_by[player] if player < len(state.eliminated_by) else None
            by = "" if beaten_by is None else f" (put out by {player_name(beaten_by)})"
            lines.append(f"{name}: out of the game{by}")
            continue
        held = state.territories_of(player)
        on_board = sum(state.points_on(territory) for territory in held)
        regions = rules.whole_regions(state, player)
        whole = f", whole regions: {', '.join(regions)}" if regions else ""
        lines.append(
            f"{name}: {count(len(held), 'territory', 'territories')}, {points(on_board)} on the board, "
            f"{count(len(state.hands[player]), 'card')} in hand{whole}"
        )
    lines.append(f"The pile: {count(len(state.pile), 'card')}")
    if state.last_dice is not None:
        lines.append(f"Last dice: {dice_text(state.last_dice)}")
    return lines


def _mj_stage(state: Any) -> str:
    """Whose turn it is and what it is at, as the board's status line says it."""
    from rulebook.meetjesland.narrate import player_name, points

    if state.phase == "over":
        return "The game is over."
    who = player_name(state.turn)
    if state.phase == "setup":
        return f"Set-up: {who} places {points(state.to_place)} more on their territories"
    if state.battle is not None:
        battle = state.battle
        target, origin = state.board.name(battle.target), state.board.name(battle.origin)
        return f"{who} attacks {target} from {origin}: {battle.stake} staked against {state.points_on(battle.target)}"
    if state.drawing:
        return f"{who} draws a card"
    moved = f"; {state.moved} of {state.config.move_limit} points moved" if state.moved else ""
    place = f", {points(state.to_place)} to place" if state.to_place else ""
    if state.stage == "reinforce":
        return f"{who}'s turn, reinforce{place}{moved}"
    if state.stage == "conquer":
        return f"{who}'s turn, conquer{place}{moved}"
    return f"{who}'s turn: trade cards, then reinforce or conquer{place}"


def _kb_summary(state: Any) -> list[str]:
    """Kingdom Builder: the player to move with the card they show and the settlements still to build, the three
    Kingdom Builder cards, and per colour the settlements built and left, the gold if the game ended now and the
    location tiles held."""
    from rulebook.kingdom_builder import rules
    from rulebook.kingdom_builder.narrate import colour
    from rulebook.kingdom_builder.words import join, tiles_text

    if state.finished:
        lines = ["The game is over."]
    elif state.player is None:
        drawing = "" if state.drawing is None else f" for {colour(state.drawing)}"
        lines = [f"A terrain card is being drawn{drawing}"]
    else:
        card = state.hands[state.player]  # the card of the player to move is shown to all (KB-4.1)
        shown = "" if card is None else f", card shown: {rules.terrain_word(card)}"
        if state.mandatory_done:
            left = "; the settlements of this turn are built"
        else:
            more = min(3 - state.built, state.supply[state.player])
            left = f"; {count(more, 'settlement')} still to build this turn"
        lines = [f"{colour(state.player)} to play{shown}{left}"]
    lines.append(f"Kingdom Builder cards: {join([card.title() for card in state.cards])} (and the castles)")
    gold = rules.score(state)
    for player in range(state.players):
        built = sum(1 for owner in state.board if owner == player)
        lines.append(
            f"{colour(player)}: {count(built, 'settlement')} on the board, {state.supply[player]} left in supply, "
            f"{gold[player]['total']} gold if the game ended now; {tiles_text(state, player)}"
        )
    lines.append(f"Terrain cards: {sum(state.pile)} in the pile, {sum(state.discard)} discarded")
    return lines


def _adp_summary(state: Any) -> list[str]:
    """Ab die Post!: the flight and its way, what the turn is at, per player the plane's field and lane, the cards
    in front of them (open, ADP-C6), the score and the passenger, the last marble and the hurricane indicator."""
    from rulebook.ab_die_post.narrate import hand_text, player_label
    from rulebook.ab_die_post.rules import COLOURS, MarbleShaken, describe_cards, field_name, wind_distance

    track, config = state.track, state.config
    way = "start field to airport" if state.direction == 1 else "airport to start field"
    lines = [_adp_stage(state), f"Flight {state.flight} ({way}), first to {config.target} points wins"]
    for player in range(state.players):
        passenger = ", carries the passenger" if state.passenger == player else ""
        lines.append(
            f"{player_label(player)}: plane on {field_name(track, state.positions[player])}; cards: "
            f"{hand_text(state.hands[player])}; score {state.scores[player]}{passenger}"
        )
    marble = state.marble or next((m.colour for m in reversed(state.history) if isinstance(m, MarbleShaken)), None)
    if marble is not None:
        lines.append(f"Last marble: {_marble(config, marble, wind_distance)}")
    marbles = [
        f"{number} {_marble(config, colour, wind_distance)}"
        for colour, number in zip(COLOURS, config.marble_counts(state.players))
        if number
    ]
    lines.append(f"Hurricane indicator: {', '.join(marbles)}")
    lines.append(f"Pile: {describe_cards(state.pile)}; discard: {describe_cards(state.discard)}")
    return lines


def _marble(config: Any, colour: str, wind_distance: Callable[[Any, str], int]) -> str:
    """``red (4 fields)``, ``black (hurricane)``: a marble and what it does."""
    if colour == "black":
        return "black (hurricane)"
    return f"{colour} ({count(wind_distance(config, colour), 'field')})"


def _adp_stage(state: Any) -> str:
    """What the turn is at, as the board's status line says it."""
    from rulebook.ab_die_post.narrate import player_label
    from rulebook.ab_die_post.rules import LANES, hand_points, wind_distance

    phase, config = state.phase, state.config
    who = player_label(state.turn_player)
    if phase == "over":
        return "The game is over."
    if phase == "card":
        return f"{who} draws: a card is being turned over"
    if phase == "marble":
        return f"{who} flies: the hurricane indicator is being shaken"
    player = state.player if state.player is not None else state.turn_player
    mover = player_label(player)
    if phase == "turn":
        held = hand_points(state.hands[player])
        if state.drawn:  # ADP-4.1: after a card, draw on or stop
            return f"{mover} to play: draw another card or stop drawing ({held} points in hand)"
        return f"{mover} to play: draw a card or fly ({held} points in hand, flying needs {config.fly_minimum})"
    if phase == "move" and state.marble is not None:
        return f"{mover}: {state.marble} marble, fly {count(wind_distance(config, state.marble), 'field')}"
    if phase == "repair":
        lane = state.track.lane.get(state.positions[player])
        cost = config.repair[LANES.index(lane)] if lane in LANES else 0
        return f"{mover}: hurricane! Repairs on the {lane} lane cost {cost}"
    if phase == "keep":
        return f"{mover}: the flight is over, chooses the one card to keep"
    return f"{mover} to move"


def _claim_summary(state: Any) -> list[str]:
    """Claim: the phase and what the player to move does in it, per colour the pieces and towers (with their
    territories), what wins, and how to read the board's rows."""
    from rulebook.claim.narrate import colour_name, side_name
    from rulebook.claim.rules import LETTERS, PIECES_EACH, tower_target

    lines = [_claim_stage(state)]
    for player in range(state.players):
        pieces = len(state.pieces(player))
        towers = sorted(state.island.territory[point] for point in state.towers(player))
        where = f" (in territory {', '.join(towers)})" if len(towers) == 1 else ""
        where = f" (in territories {', '.join(towers)})" if len(towers) > 1 else where
        to_place = f", {PIECES_EACH - pieces} still to place" if state.phase == "placement" else ""
        lines.append(
            f"{colour_name(state, player)}: {count(pieces, 'piece')} on the board{to_place}, "
            f"{count(len(towers), 'tower')}{where}, {state.towers_in_reserve(player)} in reserve"
        )
    target = tower_target(state.players)
    if state.players == 4:
        sides = " against ".join(side_name(state, seat) for seat in (0, 1))
        lines.append(f"{target} towers between partners win: {sides}")
    else:
        lines.append(f"{target} towers win")
    letters = ", ".join(f"{LETTERS[colour]} {colour}" for colour in state.colours)
    named = sorted({letter for row in state.territories for letter in row if letter.isalpha()})
    territories = f" ({named[0]} to {named[-1]})" if named else ""
    lines.append(
        f"The board: {letters}; a capital letter is a tower, . a free point, # no point; "
        f"beside it each point's territory{territories}"
    )
    return lines


def _claim_stage(state: Any) -> str:
    """The phase and what the player to move does in it, as the board's status line says it."""
    from rulebook.claim.narrate import colour_name, name

    if state.result is not None:
        return "The game is over."
    who = colour_name(state, state.turn)
    if state.phase == "placement":
        left = 2 - len(state.pieces(state.turn)) % 2
        return f"Placement: {who} places {count(left, 'more piece', 'more pieces')} this turn"
    if state.phase == "removal":
        return f"Removal: {who} removes {count(state.removals_left[state.turn], 'more enemy piece')}"
    if state.phase == "towers":
        return f"Towers: {who} may put a tower in a territory held alone"
    if state.follow_up is not None:
        return f"Battle: {who} may capture again with the piece on {name(state, state.follow_up)}"
    return f"Battle: {who} to move"


def _claim_board(state: Any) -> list[str]:
    """The piece grid as the diagram writes it, beside the territory grid, with the row numbers and the column
    letters the board and the moves use (A1 is bottom left)."""
    from rulebook.claim.narrate import column_letter

    height = len(state.grid)
    width = max((len(row) for row in state.grid), default=0)
    margin = len(str(height))
    letters = "".join(column_letter(column) for column in range(width))
    head = " " * (margin + 2) + "pieces".ljust(max(width + 3, 7)) + "territories"  # over each grid
    rows = [
        f"{height - index:>{margin}}  {row.ljust(width)}   {territories}"
        for index, (row, territories) in enumerate(zip(state.grid, state.territories))
    ]
    foot = " " * (margin + 2) + letters + "   " + letters
    return [head, *rows, foot]


HIDDEN: dict[str, Hidden] = {
    "meetjesland": Hidden(
        mask=_mj_mask,
        secret=_mj_secret,
        drawn=_mj_drawn,
        actor=lambda state: state.turn,
        start_key=lambda state: (state.players, state.seed, state.config, state.arranged),
        summary=_mj_summary,
    ),
    "kingdom_builder": Hidden(
        mask=_kb_mask,
        secret=_kb_secret,
        drawn=_kb_drawn,
        actor=lambda state: state.drawing,
        start_key=lambda state: state.setup,
        summary=_kb_summary,
        dropped=("setup",),  # a written position's set-up holds the hands it started with
        words=lambda _state, move: _kb_move_words(move),
    ),
    "ab_die_post": Hidden(
        mask=_adp_mask,
        secret=_no_secret,
        drawn=_nothing_drawn,
        actor=lambda state: state.turn_player,
        start_key=lambda state: (state.players, state.seed, state.config),
        summary=_adp_summary,
    ),
    "claim": Hidden(
        mask=_nothing_masked,
        secret=_no_secret,
        drawn=_nothing_drawn,
        actor=lambda state: state.turn,
        start_key=lambda state: state.setup,
        summary=_claim_summary,
        board=_claim_board,
        dropped=("setup",),  # the set-up's text holds the seed
        words=lambda state, move: _claim_readable(state, str(move)),
    ),
}


def _kb_move_words(move: Any) -> str:
    from rulebook.kingdom_builder.narrate import move_words

    return str(move_words(move))


def _claim_readable(state: Any, text: str) -> str:
    from rulebook.claim.words import readable

    return readable(state, text)


def move_text(state: Any, move: Any) -> str:
    """A legal move as a seat's move button says it: in the board's own words (Claim's points named as on its edges)."""
    hidden = HIDDEN.get(registry.game_of(state).name)
    if hidden is not None and hidden.words is not None:
        return hidden.words(state, move)
    return describe(move)


# --- the view ---------------------------------------------------------------------------------------------------


def view(state: Any, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees of ``state``, as a JSON-able dict: the public position, the seat's own
    secrets in words, the outcome and the log, with nothing another seat keeps to itself."""
    game = registry.game_of(state)
    hidden = HIDDEN.get(game.name)
    if hidden is None:
        raise ValueError(f"the class server does not know what {game.title} hides (games: {', '.join(HIDDEN)})")
    players = state.players
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players):
        raise ValueError(f"no seat {seat!r}: seats are 0 to {players - 1} (or None for a spectator)")
    dropped = set(ALWAYS_DROPPED) | set(hidden.dropped)
    position = {
        field.name: plain(getattr(state, field.name))
        for field in dataclasses.fields(state)
        if field.name not in dropped
    }
    hidden.mask(state, position, seat)
    result = game.engine.outcome(state)
    over = None
    if result is not None:
        scores = None if result.scores is None else list(result.scores)
        over = {"winners": list(result.winners), "reason": result.reason, "scores": scores}
    entries = _entries(game.name, hidden, state)
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
        "summary": hidden.summary(state),
        "board": None if hidden.board is None else hidden.board(state),
        "position": position,
        "secret": {} if seat is None else hidden.secret(state, seat),
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
