"""Save and Load: the two buttons (anywidgets: the browser downloads the file, or reads the chosen one), and what the
app does with a save: its file name, and a loaded game continued from its position."""

from __future__ import annotations

import json
from typing import Any

import anywidget
import traitlets

from rulebook.app.base import Part, Started
from rulebook.core import check_depth
from rulebook.view import FILES as VIEW
from rulebook.view import markup

MAX_UPLOAD = 5_000_000  # bytes: a save of a very long game is well under 1 MB


class SaveButton(anywidget.AnyWidget):
    """A Save button: a click asks the kernel for the game's JSON, which the browser downloads as a file."""

    _esm = VIEW / "save_button.js"
    _css = markup.STYLESHEET  # the app's toolbar holds one: the app's page has the styles before any board

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.provider: Any = None
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("save") and self.provider is not None:
            name, text = self.provider()
            self.send({"file": name, "text": text})


class LoadButton(anywidget.AnyWidget):
    """A Load button: the browser's file chooser, whose file comes to the kernel as bytes: each of ``handlers`` is
    called with its name, its content and "" (or None and why it was not read). Unlike ipywidgets' FileUpload it
    shows no count of files ("Load (0)")."""

    _esm = VIEW / "load_button.js"
    _css = markup.STYLESHEET
    limit = traitlets.Int(MAX_UPLOAD).tag(sync=True)  # bytes: a larger file is not read, its size is told

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.handlers: list[Any] = []
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, buffers: Any) -> None:
        if not isinstance(content, dict) or "load" not in content:
            return
        name = str(content.get("load") or "the file")[:200]
        size = content.get("size")
        data: bytes | None = None
        if content.get("unreadable"):
            why = "the browser could not read the file"
        elif buffers:
            data, why = bytes(buffers[0]), ""
        elif isinstance(size, int) and size > self.limit:  # too large to send: only its size came
            why = f"the file is {size:,} bytes; a saved game is much smaller"
        else:
            data, why = b"", ""  # an empty file
        for handler in list(self.handlers):
            handler(name, data, why)


def moves_played(module: Any, state: Any) -> int:
    """The moves of a game's history as its log counts them: every entry but the chance outcomes (dice, cards
    drawn), which the log tells with the move they follow. Replays the history from the game's set-up."""
    history = list(getattr(state, "history", ()))
    if not history:
        return 0
    data = json.loads(module.to_json(state))
    data["history"] = []
    position = module.from_json(json.dumps(data))
    count = 0
    for entry in history:
        if module.outcome(position) is not None or not module.chance_outcomes(position):
            count += 1
        position = module.apply(position, entry)
    return count


def read_save(data: bytes) -> str:
    """The text of an uploaded file that may be a save; ValueError in words when it cannot be one (no parser's
    message: "'Expecting value: line 1 column 1 (char 0)'" told a player nothing)."""
    if len(data) > MAX_UPLOAD:
        raise ValueError(f"the file is {len(data):,} bytes; a saved game is much smaller")
    try:
        text = bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("this file is not a saved game: it is not a text file (a saved game is JSON text)") from None
    if not text.strip():
        raise ValueError("this file is empty: it is not a saved game")
    check_depth(text, "this file is not a saved game", "a saved game")  # before any parser recurses into it
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"this file is not a saved game: it is not JSON (line {error.lineno})") from None
    except ValueError:  # a number of more than 4300 digits
        raise ValueError("this file is not a saved game: it holds a number too long to read") from None
    return text


class FilesPart(Part):
    """Save gives the game on the board as a file; Load continues the game a file holds."""

    def saved(self) -> tuple[str, str]:
        """The file name and JSON text of the game on the board (the position shown); the name counts its moves as
        the log does (a chance outcome is not a move), the moves before a loaded game's start included."""
        assert self.board is not None
        state = self.board.state
        before = self.current.moves if self.current is not None else 0
        return f"{self.game}-move{before + self.board.session.shown}.json", self.module.to_json(state)

    def load(self, name: str, data: bytes) -> bool:
        """Continue a saved game; a file that is not one leaves the game on the board as it was."""
        try:
            state = self.module.from_json(read_save(data))
        except (ValueError, RecursionError, TypeError, KeyError, IndexError, AttributeError) as error:
            reason = "it is nested too deeply" if isinstance(error, RecursionError) else str(error)
            self._say(f"Could not load {name}: {reason}. The game on the board is unchanged.", error=True)
            return False
        players = getattr(state, "players", self.setup.default_players)
        playing = self._away.game if self._away is not None else self.current  # the game, not an exercise shown
        keep = playing.computer if playing is not None else {}
        computer = {seat: bot for seat, bot in keep.items() if seat < players}
        seed = getattr(state, "seed", 0) + len(getattr(state, "history", ()))
        try:
            moves = moves_played(self.module, state)
            game = Started(players=players, seed=seed, computer=computer, loaded=state, source=f"loaded from {name}")
            game.moves = moves
            self._start(game)
        except ValueError as error:
            self._say(f"Could not load {name}: {error}. The game on the board is unchanged.", error=True)
            return False
        assert self.board is not None
        if self.board.finished:
            result = self.board.result_text() or "it is over."
            self._say(f"Loaded {name}: the game is over, after {moves} moves. {result} Press New game to play again.")
        else:
            self._say(f"Loaded {name}: the game continues after move {moves}.")
        return True

    def _uploaded(self, name: str, data: bytes | None, why: str = "") -> None:
        """A file chosen with Load: loaded, or (one the browser did not send) why not told."""
        if data is None:
            self._say(f"Could not load {name}: {why}. The game on the board is unchanged.", error=True)
            return
        self.load(name, data)
