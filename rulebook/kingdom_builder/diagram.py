"""Kingdom Builder positions as text (``from_diagram`` / ``to_diagram``).

A diagram is three header lines (sections, cards, players) and 20 rows of 20 characters, ``.`` or the digit of the
player whose settlement stands there (KB-C2). The save files (``to_json`` / ``from_json``) are read and written here
too: a save's set-up may be a diagram.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from typing import Any

from .. import core
from .rules import (
    CARDS_PER_TERRAIN,
    COLUMNS,
    FIRST_GAME_CARDS,
    FIRST_GAME_SECTIONS,
    GAME,
    MOVE_CLASSES,
    ROWS,
    RULES_VERSION,
    SETTLEMENTS,
    TERRAINS,
    Config,
    State,
    _check_cards,
    _check_sections,
    _index,
    _initial,
    apply,
    board_for,
    new_game,
    short,
)

__all__ = ["from_diagram", "from_json", "position", "terrain_diagram", "to_diagram", "to_json"]

MAX_HEADER = 200  # characters of a header line at most: the longest real one, the sections, has about 40


def _section_words(sections: tuple[tuple[str, bool], ...]) -> str:
    return " ".join(f"{name}{'*' if turned else ''}" for name, turned in sections)


def to_diagram(state: State) -> str:
    """The position as text: sections, cards, players, then 20 rows of 20 hexes ('.' or the owner's digit)."""
    return _diagram_text(state.sections, state.cards, state.players, state.board)


def terrain_diagram(state_or_sections: Any) -> str:
    """Terrain as 20 rows of letters: G C D F T (grass..forest), W water, M mountain, K castle, L location."""
    sections = state_or_sections.sections if isinstance(state_or_sections, State) else state_or_sections
    geometry = board_for(_check_sections(sections, "sections"))
    letters = {
        "grass": "G",
        "canyon": "C",
        "desert": "D",
        "flower": "F",
        "forest": "T",
        "water": "W",
        "mountain": "M",
        "castle": "K",
        "location": "L",
    }
    return (
        "\n".join(
            ("" if row % 2 == 0 else " ")
            + " ".join(letters[geometry.terrain[row * COLUMNS + c]] for c in range(COLUMNS))
            for row in range(ROWS)
        )
        + "\n"
    )


def from_diagram(
    text: str, *, hands: Iterable[str] | None = None, player: int = 0, config: Config | None = None
) -> State:
    """A position from its text diagram (see :func:`to_diagram`).

    Without ``hands`` the state waits for the deal of terrain cards; with ``hands`` (one terrain per player)
    it is ``player``'s turn. Players hold, ready to use, the tiles of the location hexes they touch."""
    if not isinstance(text, str):
        raise ValueError("diagram: expected text")  # noqa: TRY004
    lines = [line.rstrip() for line in text.strip("\n").splitlines()]
    lines = [line for line in lines if line.strip()]
    if len(lines) != 23:
        raise ValueError(f"diagram: expected 3 header lines and 20 rows, got {len(lines)} non-empty lines")
    headers = {}
    for number, key in enumerate(("sections", "cards", "players")):
        line = lines[number].strip()
        if len(line) > MAX_HEADER:  # refused before it is split into words
            raise ValueError(
                f"diagram line {number + 1}: {len(line)} characters, more than a header has ({MAX_HEADER})"
            )
        if not line.startswith(f"{key}:"):
            raise ValueError(f"diagram line {number + 1}: expected '{key}: ...', got {short(line)}")
        headers[key] = line[len(key) + 1 :].split()
    sections = []
    for word in headers["sections"]:
        turned = word.endswith("*")
        sections.append((word.rstrip("*"), turned))
    sections_t = _check_sections(sections, "diagram line 1")
    cards = _check_cards(headers["cards"], "diagram line 2")
    if len(headers["players"]) != 1 or headers["players"][0] not in ("2", "3", "4"):
        raise ValueError(f"diagram line 3: players must be 2, 3 or 4, got {short(' '.join(headers['players']))}")
    players = int(headers["players"][0])
    geometry = board_for(sections_t)
    board = []
    for row, line in enumerate(lines[3:]):
        if len(line) != COLUMNS:
            raise ValueError(f"diagram row {row}: expected 20 characters, got {len(line)} ({short(line)})")
        for column, char in enumerate(line):
            if char == ".":
                board.append(-1)
                continue
            if char not in "0123"[:players]:
                raise ValueError(
                    f"diagram row {row} column {column}: {char!r} is neither '.' nor a player 0..{players - 1}"
                )
            terrain = geometry.terrain[row * COLUMNS + column]
            if terrain not in TERRAINS and terrain != "water":
                raise ValueError(f"diagram row {row} column {column}: a settlement cannot stand on {terrain}")
            board.append(int(char))
    for p in range(players):
        if board.count(p) > SETTLEMENTS:
            raise ValueError(f"diagram: player {p} has {board.count(p)} settlements, more than {SETTLEMENTS}")
    config = config or Config()
    hands_t: tuple[str | None, ...] = ()
    if hands is not None:
        try:
            hands_t = tuple(hands)
        except TypeError:  # not a sequence of terrains
            raise ValueError(f"hands: expected one terrain per player, got {short(hands)}") from None
        if len(hands_t) != players or any(card not in TERRAINS for card in hands_t):
            raise ValueError(
                f"hands: expected one terrain of {', '.join(TERRAINS)} per player, got {short(list(hands_t))}"
            )
        for terrain in TERRAINS:
            if hands_t.count(terrain) > CARDS_PER_TERRAIN:
                raise ValueError(f"hands: only {CARDS_PER_TERRAIN} {terrain} cards exist")
    if not isinstance(player, int) or not 0 <= player < players:
        raise ValueError(f"player must be 0..{players - 1}, not {short(player)}")
    setup = {
        "players": players,
        "sections": [list(s) for s in sections_t],
        "cards": list(cards),
        "config": dataclasses.asdict(config),
        "diagram": _diagram_text(sections_t, cards, players, board),
        "hands": list(hands_t) if hands is not None else None,
        "player": player,
    }
    return _initial(players, sections_t, cards, config, tuple(board), setup, hands_t, player)


def position(
    settlements: Mapping[Any, int],
    *,
    sections: Any = FIRST_GAME_SECTIONS,
    cards: Any = FIRST_GAME_CARDS,
    players: int = 2,
    hands: Iterable[str] | None = None,
    player: int = 0,
    config: Config | None = None,
) -> State:
    """A position written as a few settlements ``{(row, column): player}`` on an otherwise empty board: the
    diagram of :func:`from_diagram` without its 20 rows of dots (the first-game board unless ``sections`` say)."""
    if not isinstance(settlements, Mapping):
        raise ValueError(f"settlements: expected {{(row, column): player}}, got {short(settlements)}")  # noqa: TRY004
    if players not in (2, 3, 4) or isinstance(players, bool):
        raise ValueError(f"players must be 2, 3 or 4, not {short(players)}")
    board = [-1] * (ROWS * COLUMNS)
    for hex_, owner in settlements.items():
        index = _index(hex_, "settlements")
        if not isinstance(owner, int) or isinstance(owner, bool) or not 0 <= owner < players:
            raise ValueError(f"settlements: the owner of {short(hex_)} must be a player 0..{players - 1}")
        board[index] = owner
    text = _diagram_text(_check_sections(sections, "sections"), _check_cards(cards, "cards"), players, board)
    return from_diagram(text, hands=hands, player=player, config=config)


def _diagram_text(sections: tuple, cards: tuple, players: int, board: Iterable[int]) -> str:
    cells = list(board)
    lines = [f"sections: {_section_words(sections)}", f"cards: {' '.join(cards)}", f"players: {players}"]
    for row in range(ROWS):
        lines.append("".join("." if o < 0 else str(o) for o in cells[row * COLUMNS : (row + 1) * COLUMNS]))
    return "\n".join(lines) + "\n"


# --- save files ---------------------------------------------------------------------------------------
# here, not in rules.py: a save may start from a diagram, and the diagram reader builds on the rules


def to_json(state: State) -> str:
    """A save file: the set-up and the move log (chance outcomes included), replayed on loading."""
    return core.dump_game(GAME, RULES_VERSION, json.loads(state.setup), state.history)


SETUP_KEYS = frozenset(("players", "sections", "cards", "config", "diagram", "hands", "player"))


def _start_from_setup(setup: dict[str, Any]) -> State:
    """The starting state a save file's set-up describes: a new game, or a written position (a diagram)."""
    unknown = sorted(str(key) for key in setup if key not in SETUP_KEYS)
    if unknown:
        raise ValueError(f"saved game: unknown setup key {short(unknown[0])} (keys: {', '.join(sorted(SETUP_KEYS))})")
    if not isinstance(setup.get("config"), dict):
        raise ValueError(f"saved game: setup 'config' must be an object, not {short(setup.get('config'))}")
    try:
        config = Config(**setup["config"])
    except (TypeError, KeyError) as error:
        raise ValueError(f"saved game: bad config ({short(str(error), 80)})") from None
    if setup.get("diagram") is not None:
        hands = setup.get("hands")
        return from_diagram(setup["diagram"], hands=hands, player=setup.get("player", 0), config=config)
    for key in ("players", "sections", "cards"):
        if key not in setup:
            raise ValueError(f"saved game: setup lacks {key!r}")
    sections = setup["sections"]
    if not isinstance(sections, list) or not all(isinstance(s, list) and len(s) == 2 for s in sections):
        raise ValueError("saved game: setup 'sections' must be a list of [name, turned] pairs")
    return new_game(
        players=setup["players"], seed=0, sections=[tuple(s) for s in sections], cards=setup["cards"], config=config
    )


def from_json(text: str | bytes) -> State:
    """The game saved by :func:`to_json`; malformed or illegal content raises ValueError saying where."""
    setup, history = core.load_game(text, GAME, RULES_VERSION)
    start = _start_from_setup(setup)
    return core.replay_saved(start, history, MOVE_CLASSES, apply)
