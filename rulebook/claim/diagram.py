"""Claim positions as text: ``from_diagram`` / ``to_diagram`` (headers, territory grid, piece grid), and the save
files (``to_json`` / ``from_json``), whose set-up may be a diagram.

::

    players: red blue
    to-move: red
    phase: battle

    aabb
    aabb

    r.b.
    .R..

Optional headers carry what a position in the middle of a turn needs: ``first: red`` (who began),
``removals-left: red 4 blue 2``, ``follow-up: (1, 2)`` (the piece that has just captured),
``claims: red=ce blue=a`` (conquered territories still waiting for a tower) and ``quiet: 12`` (turns
since the last capture or tower).  ``to_diagram`` writes an optional header only when it is not the default.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from ..core import Outcome, dump_game, load_game, replay_saved
from .rules import (
    COLOURS,
    EMPTY,
    GAME,
    LETTERS,
    MOVE_CLASSES,
    NO_POINT,
    PIECES_EACH,
    REMOVALS_EACH,
    RULES_VERSION,
    TOWERS_EACH,
    Config,
    Jump,
    PlaceTower,
    State,
    Step,
    _removable,
    apply,
    island,
    legal_moves,
    new_game,
    short,
    stalled_outcome,
    teams_of,
    tower_target,
)

REQUIRED = ("players", "to-move", "phase")
OPTIONAL = ("teams", "first", "removals-left", "follow-up", "claims", "quiet")
PHASES = ("placement", "removal", "towers", "battle")


def _headers(lines: list[str]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        key, colon, value = line.partition(":")
        key = key.strip()
        if not colon:
            raise ValueError(f"diagram header line {number}: expected 'name: value', got {short(line)}")
        if key not in REQUIRED + OPTIONAL:
            raise ValueError(
                f"diagram header line {number}: unknown header {short(key)} (known: {REQUIRED + OPTIONAL})"
            )
        if key in headers:
            raise ValueError(f"diagram header line {number}: {short(key)} is given twice")
        headers[key] = value.strip()
    missing = [key for key in REQUIRED if key not in headers]
    if missing:
        raise ValueError(f"diagram: missing header(s) {missing}")
    return headers


def _colour(name: str, colours: tuple[str, ...], where: str) -> int:
    if name not in colours:
        raise ValueError(f"diagram {where}: {short(name)} is not one of the players {list(colours)}")
    return colours.index(name)


def _per_player(text: str, colours: tuple[str, ...], where: str) -> tuple[int, ...]:
    words = text.split()
    if len(words) != 2 * len(colours):
        raise ValueError(f"diagram {where}: expected a number for each player, like 'red 4 blue 2', got {short(text)}")
    values = [0] * len(colours)
    given = set()
    for name, number in zip(words[::2], words[1::2]):
        seat = _colour(name, colours, where)
        if seat in given or not number.isdigit():
            raise ValueError(f"diagram {where}: bad entry {short(name)} {short(number)}")
        given.add(seat)
        values[seat] = int(number)
    return tuple(values)


def from_diagram(text: str, config: Config | None = None) -> State:
    """The position a diagram describes (no move log); malformed diagrams raise ``ValueError`` saying where."""
    if not isinstance(text, str):
        raise ValueError("a diagram is text")  # noqa: TRY004 - malformed input is a ValueError here
    config = Config() if config is None else config
    lines = [line.strip() for line in text.strip().splitlines()]
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line:
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    if len(blocks) != 3:
        raise ValueError(
            f"diagram: expected 3 blocks separated by blank lines (headers, territories, pieces), got {len(blocks)}"
        )
    headers = _headers(blocks[0])
    colours = tuple(headers["players"].split())
    if not 2 <= len(colours) <= 4 or len(set(colours)) != len(colours) or not set(colours) <= set(COLOURS):
        raise ValueError(
            f"diagram players: expected 2-4 different colours out of {COLOURS}, got {short(headers['players'])}"
        )
    players = len(colours)
    if players == 4:
        if "teams" not in headers:
            raise ValueError("diagram: 4 players need a 'teams:' header, like 'teams: red+green blue+yellow'")
        teams = {
            frozenset(_colour(name, colours, "teams") for name in team.split("+")) for team in headers["teams"].split()
        }
        if teams != {frozenset(side) for side in teams_of(4)}:
            expected = " ".join("+".join(colours[p] for p in side) for side in teams_of(4))
            raise ValueError(f"diagram teams: partners sit opposite each other, so the teams are {short(expected)}")
    elif "teams" in headers:
        raise ValueError("diagram: a 'teams:' header is only for 4 players")
    phase = headers["phase"]
    if phase not in PHASES:
        raise ValueError(f"diagram phase: expected one of {PHASES}, got {short(phase)}")
    finished = headers["to-move"] == "none"
    turn = 0 if finished else _colour(headers["to-move"], colours, "to-move")
    first = _colour(headers["first"], colours, "first") if "first" in headers else turn
    territories = tuple(blocks[1])
    grid = tuple(blocks[2])
    try:
        board = island(territories)
    except ValueError as error:
        raise ValueError(f"diagram {error}") from None
    if len(grid) != len(territories) or any(len(a) != len(b) for a, b in zip(grid, territories)):
        raise ValueError("diagram: the piece grid must have the same shape as the territory grid")
    allowed = {LETTERS[c] for c in colours} | {LETTERS[c].upper() for c in colours} | {EMPTY}
    for row, (line, shape) in enumerate(zip(grid, territories)):
        for column, (char, land) in enumerate(zip(line, shape)):
            if (char == NO_POINT) != (land == NO_POINT):
                raise ValueError(f"diagram piece grid row {row} column {column}: '#' must match the territory grid")
            if char != NO_POINT and char not in allowed:
                raise ValueError(
                    f"diagram piece grid row {row} column {column}: {char!r} is not '.', a player's letter or tower"
                )
    removals = (
        _per_player(headers["removals-left"], colours, "removals-left")
        if "removals-left" in headers
        else ((REMOVALS_EACH,) * players)
    )
    if any(value > REMOVALS_EACH for value in removals):
        raise ValueError(f"diagram removals-left: at most {REMOVALS_EACH} each")
    if "removals-left" in headers and phase != "removal":
        # the count matters only while pieces are removed; kept in another phase it would not survive a save
        raise ValueError(f"diagram removals-left: only for the removal phase, not the {phase} phase")
    quiet_text = headers.get("quiet", "0")
    if not quiet_text.isdigit() or len(quiet_text) > 6:
        raise ValueError(f"diagram quiet: expected a number of turns, got {short(quiet_text)}")
    follow_up = None
    if "follow-up" in headers:
        match = re.fullmatch(r"\(?\s*(\d+)\s*,\s*(\d+)\s*\)?", headers["follow-up"])
        if not match:
            raise ValueError(f"diagram follow-up: expected a point like (3, 4), got {short(headers['follow-up'])}")
        follow_up = (int(match.group(1)), int(match.group(2)))
    claims = set()
    for item in headers.get("claims", "").split():
        name, equals, letters = item.partition("=")
        seat = _colour(name, colours, "claims")
        if not equals or not letters or any(letter not in board.territories for letter in letters):
            raise ValueError(f"diagram claims: expected colour=territories like red=ce, got {short(item)}")
        claims |= {(seat, letter) for letter in letters}
    state = State(
        territories=territories,
        grid=grid,
        colours=colours,
        phase=phase,
        turn=turn,
        first=first,
        removals_left=removals,
        follow_up=follow_up,
        claims=frozenset(claims),
        quiet_turns=int(quiet_text),
        config=config,
    )
    _validate(state)
    if finished:
        state = _finished(state)
    else:
        _check_not_won(state)
    canonical = to_diagram(state)
    setup = {"diagram": canonical, "config": config.to_dict()}
    return dataclasses.replace(state, setup=json.dumps(setup, sort_keys=True))


def _validate(state: State) -> None:
    for player, colour in enumerate(state.colours):
        pieces, towers = len(state.pieces(player)), len(state.towers(player))
        if pieces > PIECES_EACH:
            raise ValueError(f"diagram: {colour} has {pieces} pieces, more than {PIECES_EACH}")
        if towers > TOWERS_EACH:
            raise ValueError(f"diagram: {colour} has {towers} towers, more than {TOWERS_EACH}")
        if towers and state.phase not in ("towers", "battle"):
            raise ValueError(f"diagram: towers are placed only after the removals, but {colour} has one")
        if state.phase == "removal" and pieces < PIECES_EACH - REMOVALS_EACH:
            raise ValueError(f"diagram: in the removal phase nobody has lost more than 4 pieces, but {colour} has")
    if state.phase == "placement" and all(len(state.pieces(p)) == PIECES_EACH for p in range(state.players)):
        raise ValueError("diagram: every piece is placed, so the placement phase is over")
    if state.phase == "placement" and len(state.pieces(state.turn)) == PIECES_EACH:
        raise ValueError(f"diagram: {state.colours[state.turn]} is to place but has placed all {PIECES_EACH} pieces")
    for letter, points in state.island.territories.items():
        if sum(state.is_tower(point) for point in points) > 1:
            raise ValueError(f"diagram: territory {letter} has more than one tower")
    if state.phase == "removal" and (state.removals_left[state.turn] == 0 or not _removable(state, state.turn)):
        raise ValueError(
            f"diagram: {state.colours[state.turn]} is to move in the removal phase but has nothing to remove"
        )
    follow_up = state.follow_up
    if follow_up is not None and (
        state.phase != "battle" or state.owner(follow_up) != state.turn or state.is_tower(follow_up)
    ):
        raise ValueError(f"diagram follow-up: {state.follow_up} must hold a piece of the player to move in battle")
    if state.phase == "placement":
        _check_placement_order(state)
    if state.phase == "towers" and not any(isinstance(move, PlaceTower) for move in legal_moves(state)):
        raise ValueError(
            f"diagram: in the towers phase {state.colours[state.turn]} must hold a territory alone, with a tower left"
        )
    if state.quiet_turns > state.config.quiet_turn_limit:
        raise ValueError(
            f"diagram quiet: {state.quiet_turns} turns is more than the game's limit of {state.config.quiet_turn_limit}"
        )


def _check_placement_order(state: State) -> None:
    """CL-4.2: pieces go down two per turn in seat order from the first player, so the counts on the board say
    whose turn it is: players before the one to move (from the first) have one pair more than those after."""
    order = [(state.first + offset) % state.players for offset in range(state.players)]
    counts = [len(state.pieces(seat)) for seat in order]
    position = order.index(state.turn)
    mover = counts[position]
    pairs = mover // 2  # the pairs the player to move has finished
    expected = [2 * (pairs + 1) if index < position else 2 * pairs for index in range(state.players)]
    expected[position] = mover
    if counts != expected:
        have = ", ".join(f"{state.colours[seat]} {count}" for seat, count in zip(order, counts))
        raise ValueError(
            f"diagram: in the placement phase, with {state.colours[state.first]} first and "
            f"{state.colours[state.turn]} to move, these piece counts cannot happen ({have})"
        )


def _check_not_won(state: State) -> None:
    """CL-10.1: the game ends as soon as a side has its towers, so such a position has nobody to move."""
    for side in teams_of(state.players):
        towers = sum(len(state.towers(p)) for p in side)
        if towers >= tower_target(state.players):
            names = " and ".join(state.colours[p] for p in side)
            raise ValueError(
                f"diagram: {names} {'have' if len(side) > 1 else 'has'} {towers} towers, so the game is over: "
                "write 'to-move: none'"
            )


def _finished(state: State) -> State:
    for side in teams_of(state.players):
        towers = sum(len(state.towers(p)) for p in side)
        if towers >= tower_target(state.players):
            names = "+".join(state.colours[p] for p in side)
            scores = tuple(len(state.towers(p)) for p in range(state.players))
            return dataclasses.replace(state, result=Outcome(side, f"{names} placed {towers} towers", scores))
    if state.quiet_turns >= state.config.quiet_turn_limit:
        return dataclasses.replace(state, result=stalled_outcome(state))
    raise ValueError("diagram to-move: 'none' is only for a finished game, and nobody has won or stalled here")


def to_diagram(state: State) -> str:
    """The diagram of a position (headers, territory grid, piece grid); ``from_diagram`` reads it back."""
    lines = [f"players: {' '.join(state.colours)}"]
    if state.players == 4:
        lines.append("teams: " + " ".join("+".join(state.colours[p] for p in side) for side in teams_of(4)))
    lines.append(f"to-move: {'none' if state.result is not None else state.colours[state.turn]}")
    lines.append(f"phase: {state.phase}")
    shown_turn = 0 if state.result is not None else state.turn
    if state.first != shown_turn:
        lines.append(f"first: {state.colours[state.first]}")
    if state.phase == "removal" and state.removals_left != (REMOVALS_EACH,) * state.players:
        lines.append("removals-left: " + " ".join(f"{c} {n}" for c, n in zip(state.colours, state.removals_left)))
    if state.follow_up is not None:
        lines.append(f"follow-up: {state.follow_up}")
    if state.claims:
        parts = []
        for player, colour in enumerate(state.colours):
            letters = "".join(sorted(t for p, t in state.claims if p == player))
            if letters:
                parts.append(f"{colour}={letters}")
        lines.append("claims: " + " ".join(parts))
    if state.quiet_turns:
        lines.append(f"quiet: {state.quiet_turns}")
    return "\n".join(lines) + "\n\n" + "\n".join(state.territories) + "\n\n" + "\n".join(state.grid) + "\n"


# --- the rule text's figures as diagrams (our drawings of what the French text describes in words) --------------


@dataclasses.dataclass(frozen=True)
class Figure:
    """One figure of the rules: a caption, the position before, and the moves played (a series for figure 4)."""

    number: str
    caption: str
    before: str
    moves: tuple


def _figure_moves() -> dict[str, tuple]:
    return {
        "jump": (Jump((4, 0), ((4, 2), (2, 2), (2, 4))),),
        "1": (Step((2, 1), (2, 2)),),
        "2": (Step((2, 1), (2, 2)),),
        "3": (Step((2, 2), (2, 1)),),
        "4": (Step((4, 3), (3, 3)), Step((3, 3), (3, 4))),
        "5": (Jump((3, 0), ((3, 2), (3, 4), (3, 6))),),
        "6": (Step((1, 2), (2, 2)),),
        "tower": (Step((1, 6), (1, 5)), PlaceTower("b", (0, 6))),
    }


_LAND_7 = "\n".join(["aaaabbb"] * 5)
_FIGURE_TEXT = {
    "jump": (
        "A jump chain: the red piece jumps over a red piece, turns, jumps over a blue piece and then a blue tower.",
        "players: red blue\nto-move: red\nphase: battle\n\n"
        + _LAND_7
        + "\n\n.......\n.......\n...B...\n..b....\nrr.....\n",
    ),
    "1": (
        "Figure (1): a piece caught between two enemy pieces of one colour is captured.",
        "players: red blue\nto-move: red\nphase: battle\n\n"
        + _LAND_7
        + "\n\n.......\n.......\n.r.br..\n.......\n.......\n",
    ),
    "2": (
        "Figure (2): between two enemy pieces of different colours (three players: red and yellow both fight blue).",
        "players: red blue yellow\nto-move: red\nphase: battle\n\n"
        + _LAND_7
        + "\n\n.......\n.......\n.r.by..\n.......\n.......\n",
    ),
    "3": (
        "Figure (3): between an enemy piece and the edge of the board.",
        "players: red blue\nto-move: red\nphase: battle\n\n"
        + _LAND_7
        + "\n\n.......\n.......\nb.r....\n.......\n.......\n",
    ),
    "4": (
        "Figure (4): the red piece captures 4 blue pieces in one turn: 2 with its move, 2 more with the follow-up.",
        "players: red blue\nto-move: red\nphase: battle\n\n"
        + "\n".join(["aaaabbb"] * 7)
        + "\n\n.......\n...rr..\n...bb..\n.rb....\n...rb..\n....r..\n.......\n",
    ),
    "5": (
        "Figure (5): the blue piece jumps over 3 pieces, then captures the 3 yellow pieces around it at once.",
        "players: blue yellow\nto-move: blue\nphase: battle\n\n"
        + "\n".join(["aaaaabbbb"] * 7)
        + "\n\n.........\n......b..\n......y..\nbb.y.y.yb\n......y..\n......b..\n.........\n",
    ),
    "6": (
        "Figure (6): the red piece moves in between two blue pieces and is not captured.",
        "players: red blue\nto-move: red\nphase: battle\n\n"
        + _LAND_7
        + "\n\n.......\n..r....\n.b.b...\n.......\n.......\n",
    ),
    "tower": (
        "Capturing a tower: red captures blue's tower against the edge and puts its own tower in territory b.",
        "players: red blue\nto-move: red\nphase: battle\n\n"
        + _LAND_7
        + "\n\n.....B.\n......r\n....bb.\n.......\n.......\n",
    ),
}


def figure(number: str | int) -> Figure:
    """A figure of the rules as a diagram and its moves: ``"jump"`` and ``1``-``6``."""
    key = str(number)
    if key not in _FIGURE_TEXT:
        raise ValueError(f"no figure {short(number)} (figures: {', '.join(_FIGURE_TEXT)})")
    caption, before = _FIGURE_TEXT[key]
    return Figure(key, caption, before, _figure_moves()[key])


FIGURE_NUMBERS = tuple(_FIGURE_TEXT)


def play_figure(number: str | int) -> tuple[State, State]:
    """A figure's position before and after its moves are played through the engine."""
    shown = figure(number)
    before = from_diagram(shown.before)
    after = before
    for move in shown.moves:
        after = apply(after, move)
    return before, after


# --- save files ----------------------------------------------------------------------------------------------
# here, not in rules.py: a save may start from a diagram, and the diagram reader builds on the rules


def to_json(state: State) -> str:
    """The game as set-up plus move log (replayed by :func:`from_json`)."""
    return dump_game(GAME, RULES_VERSION, json.loads(state.setup), state.history)


def from_json(text: str | bytes) -> State:
    """The game saved by :func:`to_json`; malformed or illegal content raises ``ValueError``."""
    setup, history = load_game(text, GAME, RULES_VERSION)
    start = start_from_setup(setup)
    return replay_saved(start, history, MOVE_CLASSES, apply)


def start_from_setup(setup: dict[str, Any]) -> State:
    """The starting state a save file's set-up describes (a new game, or a diagram)."""
    config = Config.from_dict(setup.get("config", {}))
    if "diagram" in setup:
        if not isinstance(setup["diagram"], str):
            raise ValueError("saved game: setup.diagram must be text")
        return from_diagram(setup["diagram"], config=config)
    keys = {"players", "seed", "assembly", "config", "colours"}
    if set(setup) != keys:
        missing, extra = sorted(keys - set(setup)), set(setup) - keys
        unexpected = f", unexpected {short(min(extra))}" if extra else ""  # one named, not a million listed
        raise ValueError(f"saved game: setup needs exactly {sorted(keys)} (missing {missing}{unexpected})")
    colours = setup["colours"]
    if not isinstance(colours, list):
        raise ValueError("saved game: setup.colours must be a list")  # noqa: TRY004 - malformed input is a ValueError here
    return new_game(setup["players"], setup["seed"], assembly=setup["assembly"], config=config, colours=colours)
