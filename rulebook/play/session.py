"""A game in play, as plain Python over the engine's verbs: the states so far (undo and replay), chance settled with a
seeded generator, computer players, hints, and the move log as data.

``ui.Table`` renders a :class:`Session` and forwards clicks to it; a script or a test drives one directly (as
boardgame.io keeps its game logic in a reducer with no UI). Nothing here imports ipywidgets, plotly or anywidget.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import Any, NamedTuple

from rulebook import registry
from rulebook.core import IllegalMove, pick
from rulebook.engine import Engine
from rulebook.progress import events as progress
from rulebook.registry import Game

Bot = Callable[[Any, random.Random], Any]


# how the message of a refused Undo names the chance outcome that stops it, by the outcome's class (else "chance")
CHANCE_WORDS = {
    "Dice": "The dice have been rolled",
    "CardDrawn": "A card has been drawn",
    "MarbleShaken": "The hurricane indicator has shown its marble",
}


def chance_words(outcome: Any) -> str:
    """A settled chance outcome in a refused Undo's words: "The dice have been rolled", "A card has been drawn"."""
    return CHANCE_WORDS.get(type(outcome).__name__, "Chance has been settled")


def _dice_of(rng: random.Random) -> tuple[Any, Any, Any] | None:
    """The generator's state, its 625 words packed in 2.5 kB (``getstate`` holds 20 kB of ints); None if it has none."""
    try:
        version, internal, gauss = rng.getstate()
    except (NotImplementedError, TypeError, ValueError):  # a SystemRandom, or a generator of another kind
        return None
    try:
        packed: Any = array("I", internal).tobytes()
    except (OverflowError, TypeError):
        packed = internal
    return version, packed, gauss


def _set_dice(rng: random.Random, dice: tuple[Any, Any, Any]) -> None:
    """Put a generator back in a state ``_dice_of`` read."""
    version, packed, gauss = dice
    rng.setstate((version, tuple(array("I", packed)) if isinstance(packed, bytes) else packed, gauss))


def _entry_of(state: Any) -> Game:
    """The registered game a state belongs to: the one place a session looks a game up."""
    return registry.game_of(state)


def _bots_of(game: str) -> dict[str, Bot]:
    """The computer players of the registered game named ``game``, by name (its ``bots.BOTS``)."""
    return registry.game(game).bots()


def game_name(module: ModuleType) -> str:
    """The registered name of the game whose engine is ``module`` (``rulebook.claim`` -> ``claim``)."""
    for name, entry in registry.games().items():
        if entry.module == module.__name__:
            return name
    raise ValueError(f"{module.__name__} is not the engine of a registered game")


def computer_players(game: str, computer: Mapping[int, str | Bot] | Iterable[int]) -> dict[int, Bot]:
    """Seats the computer plays, as {seat: bot}: a mapping of seats to names from the game's ``bots.BOTS`` (or bot
    functions), or just the seats, which then get the game's greedy player."""
    table = _bots_of(game)
    chosen = computer.items() if isinstance(computer, Mapping) else ((seat, "greedy") for seat in computer)
    players: dict[int, Bot] = {}
    for seat, bot in chosen:
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
            raise ValueError(f"computer: a seat is a number from 0, not {seat!r}")
        if isinstance(bot, str):
            if bot not in table:
                raise ValueError(f"computer: no computer player named {bot!r} (players: {', '.join(table)})")
            bot = table[bot]
        if not callable(bot):
            raise ValueError(f"computer: seat {seat} needs a computer player's name, not {bot!r}")
        players[seat] = bot
    return players


class Step(NamedTuple):
    """One move of the game on the board: ``states[index - 1]`` -> ``states[index]``.

    ``move`` is the first new entry of ``after.history`` (the move played); chance outcomes that followed it are the
    later new entries. A tuple (Claim's marks read ``step[2]``), whose field ``index`` shadows ``tuple.index``."""

    index: int  # type: ignore[assignment]
    player: int | None
    move: Any
    before: Any
    after: Any


class LogLine(NamedTuple):
    """One move in the log: the step and its narration."""

    step: Step
    text: str


class LogGroup(NamedTuple):
    """Consecutive moves of one player in the log, newest first, under the player's name."""

    player: int | None
    name: str
    computer: bool
    lines: tuple[LogLine, ...]


class Names:
    """How a session's messages call players and moves. These defaults serve a Session on its own; a board
    (``ui.Table``) is a Names too, and each game's board overrides them in the game's own words.

    A names object may also have ``replies(played, shown)``, the account of the computer players' moves, to add to
    the session's own (:meth:`Session.replies`)."""

    def current_player(self, state: Any) -> int | None:
        """The seat to move in ``state``; None at a chance node or at the end."""
        return getattr(state, "player", None)

    def describe_player(self, player: int | None) -> str:
        """A seat's name in messages."""
        return "Chance" if player is None else f"Player {player + 1}"

    def move_text(self, move: Any) -> str:
        """A move in the words the board uses (the engine's own words unless the board names places otherwise)."""
        return str(move)


class Session:
    """A game in play: the states so far (for undo and replay), the seats the computer plays, and what the last action
    said (``message``, of kind "info" or "error"; a refusal names its rule id).

    ``state`` is the position shown (an earlier one while the history is replayed), ``live`` the newest. ``names``
    words the messages (a board passes itself); by default players are "Player 1", "Player 2", ...

    Undo never takes back a chance outcome that has been shown (dice rolled, a card drawn), as on Board Game Arena:
    else a person could undo until the dice favour them. ``undo_chance=True`` (also ``board.undo_chance = True`` on
    a board) lets Undo go back past chance, for teaching ("what if I had attacked from there?"). Either way Undo puts
    the generator back as it was at the position returned to: taking back a move never re-rolls, and playing the same
    moves again gives the same dice, cards and computer replies."""

    def __init__(
        self,
        state: Any,
        *,
        seed: int = 0,
        computer: Mapping[int, str | Bot] | Iterable[int] = (),
        names: Names | None = None,
        undo_chance: bool = False,
    ) -> None:
        self.entry: Game = _entry_of(state)  # the registered game: its name, levels, explanations
        self.game: Engine = self.entry.engine  # its verbs
        self.game_name = self.entry.name
        self.names = names if names is not None else Names()
        self.seed = seed
        self.rng = random.Random(seed)
        self.undo_chance = undo_chance  # may Undo take back a chance outcome already shown? (for teaching)
        self.bots: dict[int, Bot] = computer_players(self.game_name, computer)
        players = getattr(state, "players", None)
        if isinstance(players, int) and any(seat >= players for seat in self.bots):
            raise ValueError(f"computer: seats are 0 to {players - 1} in a game of {players}")
        self.states: list[Any] = [state]
        self.view: int | None = None  # the index in ``states`` being replayed; None shows the game as it stands
        self.message = ""
        self.message_kind = "info"
        self.hinted: Any = None  # the move Hint suggested for this position (a board marks it); never played
        self._narrations: dict[int, tuple[Any, Any, str]] = {}
        self._chances: dict[int, tuple[Any, Any, tuple[Any, ...]]] = {}  # per step: the chance outcomes settled in it
        self._dice: dict[int, tuple[Any, tuple[Any, Any, Any]]] = {}  # per person's position: the generator there
        self._keep_dice()

    # -- state -------------------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The position shown: the newest one, or the one being replayed."""
        return self.states[-1] if self.view is None else self.states[self.view]

    @property
    def live(self) -> Any:
        """The game as it stands (whatever is shown)."""
        return self.states[-1]

    @property
    def shown(self) -> int:
        """The index in ``states`` of the position shown."""
        return len(self.states) - 1 if self.view is None else self.view

    @property
    def finished(self) -> bool:
        return self.game.outcome(self.live) is not None

    @property
    def replaying(self) -> bool:
        return self.view is not None

    def _say(self, message: str, kind: str = "info") -> None:
        self.message, self.message_kind = message, kind

    # -- words (from ``names``) --------------------------------------------------------------------
    def current_player(self, state: Any) -> int | None:
        return self.names.current_player(state)

    def describe_player(self, player: int | None) -> str:
        return self.names.describe_player(player)

    def move_text(self, move: Any) -> str:
        return self.names.move_text(move)

    # -- moves -------------------------------------------------------------------------------------
    def play(self, move: Any, *, reply: bool = True) -> bool:
        """Try a move for the person to move, then settle chance and let the computer answer (with ``reply=False``
        the computer's moves wait for :meth:`computer_step`: a board plays them out one at a time). A refused move
        leaves the states unchanged and ``message`` says why; returns whether the move was played."""
        if self.replaying:
            self.view = None
            self._say("Back to the game: you were looking at an earlier move.", "error")
            return False
        if self.finished:
            self._say("The game is over: start a new game to play again.", "error")
            return False
        player = self.current_player(self.live)
        if player in self.bots:
            name = self.describe_player(player)
            self._say(f"It is {name}'s turn, and the computer plays {name}: wait for its move.", "error")
            return False
        try:
            error = self.game.check(self.live, move)
            if error is not None:
                raise error
            state = self.game.apply(self.live, move)
        except IllegalMove as error:
            self._say(f"Refused by {error.rule}: {error.message}", "error")
            progress.refused(self.game_name, error.rule)  # the learner's record (issue 49)
            return False
        except ValueError as error:  # malformed input from a control: told, never raised
            self._say(str(error), "error")
            return False
        self.states.append(state)
        self.hinted = None
        self._settle_chance()
        mine = self.step(len(self.states) - 1)
        told = getattr(self.names, "replies", self.replies)  # a board may add to the account of the replies
        replies = told(self.settle()) if reply else ""
        self._say(f"{self.describe_player(mine.player)}: {self.step_text(mine)}" + replies)
        return True

    def _settle_chance(self) -> None:
        """Resolve the chance nodes in front of the newest state with the seeded generator (in place), and note the
        generator where a person is to move next."""
        for _ in range(100_000):
            state = self.live
            outcomes = () if self.game.outcome(state) is not None else self.game.chance_outcomes(state)
            if not outcomes:
                self._keep_dice()
                return
            self.states[-1] = self.game.apply(state, pick(outcomes, self.rng))
        raise RuntimeError("chance did not settle")

    def _keep_dice(self) -> None:
        """Note the generator's state at the newest position if a person is to move there: Undo returns to such a
        position and puts the generator back (an unchanged state is shared, not copied)."""
        index, state = len(self.states) - 1, self.live
        player = self.current_player(state)
        if player is None or player in self.bots or self.game.outcome(state) is not None:
            return
        dice = _dice_of(self.rng)
        if dice is None:
            return
        kept = self._dice.get(index - 1)
        if kept is not None and kept[1] == dice:
            dice = kept[1]
        self._dice[index] = (state, dice)

    def _computer_move(self) -> Step | None:
        """Settle chance, then play one move of the computer player to move and settle the chance after it; None
        (and nothing played) when a person is to move or the game is over."""
        self._settle_chance()
        state = self.live
        if self.game.outcome(state) is not None:
            return None
        player = self.current_player(state)
        bot = None if player is None else self.bots.get(player)
        if bot is None:
            return None
        self.states.append(self.game.apply(state, bot(state, self.rng)))
        self._settle_chance()
        return self.step(len(self.states) - 1)

    @property
    def computer_to_move(self) -> bool:
        """Whether a computer player is to move in the game as it stands: :meth:`computer_step` would play."""
        state = self.live
        return self.game.outcome(state) is None and self.current_player(state) in self.bots

    def computer_step(self) -> LogLine | None:
        """One move of the computer players, played (the chance after it settled) and told: the step and its
        narration; None when a person is to move or the game is over. Playing every step gives what
        :meth:`settle` gives, with the same dice: a board plays them out at the pace the player set."""
        step = self._computer_move()
        return None if step is None else LogLine(step, self.step_text(step))

    def settle(self) -> list[Step]:
        """Resolve chance nodes with the seeded generator, then let computer players take their turns; returns
        the computer players' moves."""
        played: list[Step] = []
        for _ in range(100_000):
            step = self._computer_move()
            if step is None:
                return played
            played.append(step)
        raise RuntimeError("computer players did not finish their turns")

    def start(self, *, reply: bool = True) -> Session:
        """Let computer players move if one of them begins (with ``reply=False`` only chance is settled: their
        moves wait for :meth:`computer_step`)."""
        if reply:
            self.settle()
        else:
            self._settle_chance()
        return self

    def replies(self, played: list[Step], shown: int = 2) -> str:
        """What the computer players did after a person's move, for the status line: told one by one when there
        are few, else counted per player (a board marks them and the log tells each)."""
        if not played:
            return ""
        if len(played) <= shown:
            return "".join(f"; then {self.describe_player(s.player)}: {self.step_text(s)}" for s in played)
        counts: dict[int | None, int] = {}
        for step in played:
            counts[step.player] = counts.get(step.player, 0) + 1
        told = [
            f"{self.describe_player(p)}{' played' if i == 0 else ''} {n} move{'s' if n > 1 else ''}"
            for i, (p, n) in enumerate(counts.items())
        ]
        listed = told[0] if len(told) == 1 else ", ".join(told[:-1]) + " and " + told[-1]
        return f"; then {listed} (marked on the board; the log tells each, newest first)"

    def undo(self) -> None:
        """Go back to the last earlier position where a person was to move (computer replies are undone with it), but
        not to one before a chance outcome settled since (``undo_chance`` allows that); the generator goes back too.
        A finished game is finished: Undo is refused there (issue 48.9), as every move is."""
        self.view = None
        self.hinted = None
        if self.finished:
            self._say("The game is over: a finished game is not taken back. Start a new game to play again.", "error")
            return
        for index in range(len(self.states) - 1, 0, -1):
            chance = () if self.undo_chance else self.chance_settled(index)
            if chance:
                self._say(f"{chance_words(chance[-1])}: a move that led to chance cannot be taken back.", "error")
                return
            player = self.current_player(self.states[index - 1])
            if player is not None and player not in self.bots:
                self._back_to(index - 1)
                self._say("Took back your last move.")
                return
        self._say("Nothing to undo.")

    def _back_to(self, index: int) -> None:
        """Drop the states after ``index`` and put the generator back as it was there (when it was noted)."""
        del self.states[index + 1 :]
        kept: dict[int, Any]  # each notes something per step index
        for kept in (self._dice, self._chances, self._narrations):
            for later in [i for i in kept if i > index]:
                del kept[later]
        noted = self._dice.get(index)
        if noted is not None and noted[0] is self.states[index]:
            _set_dice(self.rng, noted[1])

    def chance_settled(self, index: int) -> tuple[Any, ...]:
        """The chance outcomes (dice, cards drawn) settled in move ``index``, after the move itself: found by playing
        the step's history entries from ``states[index - 1]`` and keeping those played where chance was due."""
        if isinstance(index, bool) or not isinstance(index, int) or not 1 <= index < len(self.states):
            raise ValueError(f"chance_settled: a move is numbered 1 to {len(self.states) - 1}, not {index!r}"[:200])
        before, after = self.states[index - 1], self.states[index]
        cached = self._chances.get(index)
        if cached is not None and cached[0] is before and cached[1] is after:
            return cached[2]
        earlier = getattr(before, "history", ())
        new = tuple(getattr(after, "history", ()))[len(earlier) :]
        found: list[Any] = []
        state = before
        try:
            for entry in new:
                outcomes = () if self.game.outcome(state) is not None else self.game.chance_outcomes(state)
                if any(entry == outcome for outcome, _ in outcomes):
                    found.append(entry)
                state = self.game.apply(state, entry)
        except (IllegalMove, ValueError):  # a history that does not follow (a state put there by hand): what was found
            pass
        self._chances[index] = (before, after, tuple(found))
        return tuple(found)

    def hint(self) -> Any:
        """The move the game's best computer player would make for the person to move, with its reason: told in
        ``message`` and kept in ``hinted`` (a board marks it), never played. Returns the move, or None."""
        player = self.current_player(self.live)
        if self.replaying or self.finished or player is None or player in self.bots:
            self._say("No hint now: it is not your turn to move.", "error")
            return None
        name = self.entry.strongest()
        # its own generator, seeded by the position: the same hint each time, and the game's dice stay as they were
        move = self.entry.bots()[name](self.live, random.Random(f"hint {self.seed} {len(self.states)}"))
        reason = self.entry.explanation(self.live, move)
        self.hinted = move
        level = self.entry.level(name)
        said = level.label if level is not None else name  # the level as the set-up names it
        self._say(f"Hint ({said} computer player): {self.move_text(move)}" + (f". {reason}" if reason else ""))
        progress.hinted(self.game_name, reason)  # the learner's record: the paragraphs the reason names (issue 49)
        return move

    # -- history -----------------------------------------------------------------------------------
    def step(self, index: int) -> Step:
        """The move that led from ``states[index - 1]`` to ``states[index]``."""
        before, after = self.states[index - 1], self.states[index]
        earlier = getattr(before, "history", ())
        new = tuple(getattr(after, "history", ()))[len(earlier) :]
        return Step(index, self.current_player(before), new[0] if new else None, before, after)

    def steps_shown(self) -> list[Step]:
        """The moves to mark on the board: while replaying, the move that led to the position shown; otherwise the
        person's last move and every computer reply since (with computer players only, the last round); while a
        computer player is still to move (its moves played out one at a time), the newest move only."""
        if self.view is not None:
            return [self.step(self.view)] if self.view >= 1 else []
        if self.computer_to_move and len(self.states) > 1:  # computer moves played one at a time: the newest
            return [self.step(len(self.states) - 1)]
        steps: list[Step] = []
        now = self.current_player(self.live)
        for index in range(len(self.states) - 1, 0, -1):
            step = self.step(index)
            if steps and step.player == steps[0].player and any(s.player != step.player for s in steps):
                break  # a whole round back (a finished game has nobody to move)
            steps.append(step)
            if step.player not in self.bots or step.player == now:
                break
        return steps[::-1]

    def narrate(self, before: Any, move: Any, after: Any) -> str:
        """A move and its consequence in players' words: the game's ``narrate`` where it has one."""
        narrate = getattr(self.game, "narrate", None)
        narrate = getattr(narrate, "narrate", narrate)  # the function, also where a module of that name shadows it
        if not callable(narrate) or move is None:
            return self.move_text(move)
        return narrate(before, move, after)

    def step_text(self, step: Step) -> str:
        """The narration of one step (cached: states never change)."""
        cached = self._narrations.get(step.index)
        if cached is not None and cached[0] is step.before and cached[1] is step.after:
            return cached[2]
        text = self.narrate(step.before, step.move, step.after)
        self._narrations[step.index] = (step.before, step.after, text)
        return text

    def show_move(self, index: int) -> None:
        """Replay: show the position after move ``index`` (0 is the start); the newest returns to the game."""
        last = len(self.states) - 1
        index = max(0, min(int(index), last))
        self.view = None if index == last else index
        if self.view is None:
            self._say("Back to the game.")
        elif index == 0:
            self._say("Replay: the position at the start.")
        else:
            step = self.step(index)
            self._say(f"Replay, move {index} of {last}: {self.describe_player(step.player)}: {self.step_text(step)}")

    def log(self, limit: int = 60) -> list[LogGroup]:
        """The last ``limit`` moves, newest first, each told in players' words; consecutive moves of one player are
        grouped under their name."""
        last = len(self.states) - 1
        groups: list[tuple[int | None, list[Step]]] = []
        for index in range(last, max(1, last - limit + 1) - 1, -1):
            step = self.step(index)
            if groups and groups[-1][0] == step.player:
                groups[-1][1].append(step)
            else:
                groups.append((step.player, [step]))
        return [
            LogGroup(
                player,
                self.describe_player(player),
                player in self.bots,
                tuple(LogLine(step, self.step_text(step)) for step in steps),
            )
            for player, steps in groups
        ]

    # -- words about the game ----------------------------------------------------------------------
    def you_text(self) -> str:
        """Who the people at the screen play: "You play White"."""
        seats = getattr(self.live, "players", 0)
        people = [seat for seat in range(seats if isinstance(seats, int) else 0) if seat not in self.bots]
        if not people:
            return "The computer plays every seat"
        if len(people) == 1:
            return f"You play {self.describe_player(people[0])}"
        names = [self.describe_player(seat) for seat in people]
        return "People play " + ", ".join(names[:-1]) + " and " + names[-1]

    def result_text(self) -> str:
        """The result of a finished game in words, with the scores when the game keeps them; "" while playing."""
        result = self.game.outcome(self.live)
        if result is None:
            return ""
        names = [self.describe_player(player) for player in result.winners]
        if not names:
            winners = "Nobody wins"
        elif len(names) == 1:
            winners = f"{names[0]} wins"
        else:
            winners = " and ".join([", ".join(names[:-1]), names[-1]]) + " win"
        text = f"{winners} ({result.reason})."
        if result.scores is not None:
            scores = ", ".join(f"{self.describe_player(p)} {s}" for p, s in enumerate(result.scores))
            text += f" Scores: {scores}."
        return text
