"""What every game's ipywidgets board shares: a state stack with undo, moves sent through ``check``
and ``apply``, chance resolved with a seeded generator, computer players, a status line and a move log
(``move_log``; the name ``log`` is taken by traitlets).

A game's widget subclasses :class:`Table` and draws its own board in :meth:`Table.draw` (on a
:class:`~rulebook.views.BoardView`, or with plain ipywidgets).  Refused moves are shown in the status line with the
rule id; a widget never lets a traceback reach the page. Its HTML comes from templates (:mod:`rulebook.markup`).

The computer players' moves are played out on the board one at a time, at the pace the player sets (``board.pace``:
"off" lands them at once, "normal", "fast"), each told in the status line and marked, with "Skip to the end" there;
a timer of the kernel's event loop (ipykernel, Voila, Pyodide's web loop in JupyterLite) plays them. Where no loop
runs (a script, a test) they land at once, as with the pace off; ``board.clock`` may give another timer.
"""

from __future__ import annotations

import asyncio
import html
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

import anywidget
import ipywidgets as widgets
import traitlets

from rulebook.play.session import Bot, LogLine, Names, Session, Step, computer_players, game_name  # noqa: F401 (importable here)
from rulebook.teach import rules_text
from rulebook.view import markup
from rulebook.view.figures import BoardView, ChartView, FigureView  # noqa: F401 (the figures drawn from their own state)
from rulebook.view.markup import Markup


class RuleText(anywidget.AnyWidget):
    """HTML text whose rule ids are links: a click on one calls the ``on_rule`` handlers with the id.

    With no handler the paragraph opens under the text itself (a board used on its own in a notebook); the app
    registers a handler that opens it in the rules panel beside the board."""

    _esm = Path(__file__).with_name("rule_text.js")
    _css = markup.STYLESHEET  # every board holds a RuleText (its status line), so every page with one has the styles
    value = traitlets.Unicode("").tag(sync=True)
    detail = traitlets.Unicode("").tag(sync=True)

    def __init__(self, game: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.handlers: list[Callable[[str], None]] = []
        self.step_handlers: list[Callable[[int], None]] = []
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        if isinstance(content.get("rule"), str):
            self.open_rule(content["rule"])
        step = content.get("step")
        if isinstance(step, int) and not isinstance(step, bool):
            for handler in self.step_handlers:
                handler(step)

    def open_rule(self, rule: str) -> None:
        """What a click on a rule id does."""
        if self.game is None or rule not in rules_text.paragraphs(self.game):
            return  # a stale or forged id: nothing to open
        if self.handlers:
            for handler in self.handlers:
                handler(rule)
            return
        text = rules_text.to_html(rules_text.paragraph(self.game, rule).markdown)
        self.detail = markup.render("rule_detail.html", text=text)

    @property
    def text(self) -> str:
        """The text as a reader sees it: tags dropped, entities read."""
        return html.unescape(re.sub(r"<br\s*/?>", "\n", re.sub(r"<(?!br)[^>]*>", "", self.value)))

    def linked(self, text: str) -> Markup:
        """Escape plain text and link the rule ids in it."""
        escaped = markup.escape(text)
        if self.game is None:
            return escaped
        return rules_text.rule_links(escaped, rules_text.paragraphs(self.game))


PACES = ("off", "normal", "fast")  # how the computer players' moves are shown: at once, or one at a time
PACE_SECONDS = {"normal": 0.9, "fast": 0.3}  # the pause before each computer move
SKIP = -1  # what the status line's "Skip to the end" sends (rule_text.js sends a clicked element's data-step)

Timer = Callable[[float, Callable[[], None]], Any]  # call_later(delay, callback) -> a handle with cancel()


class PacePreference:
    """The pace of the boards given none of their own, in this kernel (the page's player): the pace last chosen in a
    pace control (the app's), else "off" where the browser prefers reduced motion, else "normal"."""

    def __init__(self) -> None:
        self.chosen: str | None = None
        self.reduced_motion = False  # the page said: prefers-reduced-motion (see MotionQuery)

    @property
    def pace(self) -> str:
        return self.chosen or ("off" if self.reduced_motion else "normal")


PREFERENCE = PacePreference()


def checked_pace(pace: Any) -> str:
    """``pace`` if it is one of PACES; else ValueError naming them."""
    if not isinstance(pace, str) or pace not in PACES:
        raise ValueError(f"pace: one of {', '.join(PACES)}, not {pace!r}"[:200])
    return pace


def default_pace() -> str:
    """The pace of a board that was given none (see PacePreference)."""
    return PREFERENCE.pace


def choose_pace(pace: str) -> None:
    """A person chose ``pace`` in a control: the boards without a pace of their own take it, now and later."""
    PREFERENCE.chosen = checked_pace(pace)


def event_loop_timer() -> Timer | None:
    """``call_later`` of the event loop this kernel runs (ipykernel and Voila run asyncio's; JupyterLite's Pyodide
    its web loop, over the browser's setTimeout); None where none runs (a script, a test): moves then land at once."""
    try:
        return asyncio.get_running_loop().call_later
    except RuntimeError:
        pass
    if sys.platform == "emscripten":  # Pyodide: the web loop schedules even when it does not count as running
        return asyncio.get_event_loop().call_later
    return None


class MotionQuery(anywidget.AnyWidget):
    """Whether the page's user prefers reduced motion (CSS ``prefers-reduced-motion``): the page sets ``reduced``
    as soon as the widget's model is made there (anywidget's ``initialize``), shown or not, and when it changes."""

    _esm = Path(__file__).with_name("motion_query.js")
    reduced = traitlets.Bool(False).tag(sync=True)


def _widgets_in(value: Any, depth: int = 0) -> Iterator[widgets.Widget]:
    """The widgets held in ``value``: the value itself, or those in its lists, tuples, sets and dicts (three levels
    down at most: a widget's traits, a list of its controls; a figure's JSON is deeper and holds none)."""
    if isinstance(value, widgets.Widget):
        yield value
    elif depth < 3 and isinstance(value, (list, tuple, set, frozenset, dict)):
        for item in value.values() if isinstance(value, dict) else value:
            if isinstance(item, (widgets.Widget, list, tuple, set, frozenset, dict)):
                yield from _widgets_in(item, depth + 1)


def _forget_code_files(widget: widgets.Widget) -> int:
    """Disconnect ``widget`` from the signals of its code files. anywidget (0.11, its issue 929) connects every
    widget whose ``_esm`` or ``_css`` is a file to that file's ``changed`` signal (to reload the code when the file is
    edited) with a function holding the widget, and never disconnects it: a closed board stayed alive through its
    figure and status line, with everything it held (a page's kernel grew about 0.5 MiB a New game). Returns how
    many connections were undone."""
    undone = 0
    for key in ("_esm", "_css"):
        # the class anywidget made for the instance holds the trait; the file is on the class that named it
        contents = next(
            (
                vars(klass)[key]
                for klass in type(widget).__mro__
                if key in vars(klass) and hasattr(vars(klass)[key], "changed")
            ),
            None,
        )
        signal = getattr(contents, "changed", None)
        if signal is None:
            continue
        for slot in list(getattr(signal, "_slots", ())):  # psygnal keeps no public list of a signal's functions
            function = slot.dereference()
            cells = getattr(function, "__closure__", None) or ()
            if any(cell.cell_contents is widget for cell in cells):
                signal.disconnect(function)
                undone += 1
    return undone


def close_widgets(*roots: Any) -> int:
    """Close every widget reachable from ``roots``: the widgets in their trees (children, layouts, styles) and those
    their attributes hold outside the tree (a control not shown, a board an explorer follows, a figure). A closed
    widget leaves the kernel and the page, and nothing of the libraries' keeps it alive (see
    :func:`_forget_code_files`); returns how many were closed.

    Callables (handlers, listeners) are not followed: a board's listener is a method of the app that shows it."""
    closed = 0
    seen: set[int] = set()
    stack = [widget for root in roots for widget in _widgets_in(root)]
    while stack:
        widget = stack.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        stack.extend(_widgets_in(list(vars(widget).values())))  # the traits (in _trait_values) and the attributes
        if isinstance(widget, anywidget.AnyWidget):
            _forget_code_files(widget)
        if widget.comm is not None:
            widgets.Widget.close(widget)  # the base close: a Table's own close() would walk its tree again
            closed += 1
    return closed


def _open_widgets() -> dict[str, widgets.Widget]:
    """The widgets open in this kernel, by model id (ipywidgets keeps them until they are closed)."""
    from ipywidgets.widgets import widget as module

    instances = getattr(module, "_instances", None)
    return dict(instances if instances is not None else widgets.Widget.widgets)


def live_widgets() -> int:
    """How many widgets are open in this kernel (a board that was replaced and not closed stays counted)."""
    return len(_open_widgets())


def send_again(root: widgets.Widget, *, leave: Iterable[widgets.Widget] = ()) -> int:
    """Every open widget of ``root``'s tree (``root``, the widgets its traits hold, theirs...) sends its synced state
    to the page again, but not the modules' code (anywidget's ``_esm``, ``_css``); the widgets of ``leave`` do not.
    Returns how many sent. The page takes each state as a change: a value it has already changes nothing there."""
    left = {id(widget) for widget in leave}
    seen: set[int] = set()
    waiting = [root]
    sent = 0
    while waiting:
        widget = waiting.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        for key in widget.keys:
            waiting.extend(_widgets_in(getattr(widget, key, None)))
        if widget.comm is None or id(widget) in left:
            continue
        keys = [key for key in widget.keys if not key.startswith(("_model_", "_view_", "_esm", "_css", "_anywidget"))]
        widget.send_state(keys)
        sent += 1
    return sent


W = TypeVar("W", bound=widgets.Widget)


def build(make: Callable[[], W]) -> W:
    """``make()`` (a board, an explorer), holding in its ``built`` every widget opened while it was made, so that
    :func:`close_widgets` closes them with it: a layout a board replaced while building it (``button.layout =
    ...``) is no longer in any tree, and would stay open. If ``make`` fails, what it opened is closed."""
    before = set(_open_widgets())
    try:
        made = make()
    except BaseException:
        close_widgets(*[widget for key, widget in _open_widgets().items() if key not in before])
        raise
    made.built = tuple(widget for key, widget in _open_widgets().items() if key not in before)
    return made


class _Shared:
    """An attribute of a board that belongs to its session: read from (and written to) ``board.session``."""

    def __init__(self, name: str = "") -> None:
        self.name = name

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = self.name or name

    def __get__(self, board: Any, owner: type | None = None) -> Any:
        return self if board is None else getattr(board.session, self.name)

    def __set__(self, board: Any, value: Any) -> None:
        setattr(board.session, self.name, value)


class Table(widgets.VBox, Names):
    """A game in play on the page: a view of a :class:`~rulebook.session.Session` (the states so far, undo, replay,
    computer players, hint), with the status line, the history bar, the log and the controls around a board.

    Every game's board takes the same arguments: ``Board(state, seed=..., computer={seat: "greedy", ...})``. A game's
    board draws itself in :meth:`draw` and words the messages (``describe_player``, ``move_text``, ``prompt``, ...):
    the session is given the board as its names."""

    # what the game is lives in the session (see there); the board reads it, and writes what code assigns
    states = _Shared()
    view = _Shared()
    state = _Shared()
    live = _Shared()
    finished = _Shared()
    game = _Shared()
    seed = _Shared()
    rng = _Shared()
    undo_chance = _Shared()  # True lets Undo take back dice and cards already shown (for teaching; see Session)
    bots = _Shared()
    message = _Shared()
    message_kind = _Shared()
    hinted = _Shared()
    step = _Shared()
    steps_shown = _Shared()
    step_text = _Shared()
    replies = _Shared()
    you_text = _Shared()
    result_text = _Shared()

    def __init__(
        self,
        state: Any,
        *,
        seed: int = 0,
        computer: Mapping[int, str | Bot] | Iterable[int] = (),
        pace: str | None = None,
        **kwargs: Any,
    ) -> None:
        self.session = Session(state, seed=seed, computer=computer, names=self)
        self._pace = None if pace is None else checked_pace(pace)  # None: the kernel's (default_pace)
        self.clock: Timer | None = None  # what times the computer's moves; None: the kernel's event loop
        self._timer: Any = None  # the handle of the next computer move's timer
        self._ticket = 0  # which timer is the live one: a callback of a cancelled one does nothing
        self.motion = MotionQuery()  # the page's prefers-reduced-motion: the default pace is "off" there
        self.motion.observe(self._motion_changed, "reduced")
        self.listeners: list[Callable[[Table], None]] = []
        # while set, the board shows its position and plays nothing (an exercise before its answer is checked): no
        # legal targets, no hint, every move control off, and this text in the status line (see show_only)
        self.shown_only = ""
        # panels a game's board fills with what an exercise may ask (scores, odds): hidden while shown_only is set
        self.answer_panels: tuple[widgets.Widget, ...] = ()
        self._frozen: list[Any] = []
        # the page's tree the board is in (an App's), if not its own: a callable, which close_widgets does not follow
        self.page_root: Callable[[], widgets.Widget] | None = None
        name = self.session.game_name
        self.status = RuleText(name, layout=widgets.Layout(min_height="2.6em"))
        self.move_log = RuleText(
            name, layout=widgets.Layout(max_height="14em", overflow="auto", border="1px solid #ccc", padding="2px 6px")
        )
        self.status.add_class("rulebook-status")
        self.move_log.add_class("rulebook-log")
        self.move_log.step_handlers.append(self.show_move)
        self.status.step_handlers.append(self._status_clicked)
        self.undo_button = widgets.Button(description="Undo", icon="undo", tooltip="Take back your last move")
        self.undo_button.on_click(lambda _: self.undo())
        self.history_bar = self._history_bar()
        self.view_controls: list[Any] = list(self._history_controls)  # stay on during replay and after the game
        super().__init__(**kwargs)
        self.add_class("rulebook-board")

    @property
    def replaying(self) -> bool:
        """Whether the board only shows a position: an earlier one of the history, or (``shown_only``) one to look
        at before playing. Every game's board offers no move, target or hint then, and its move controls are off."""
        return self.session.replaying or bool(self.shown_only)

    def show_only(self, text: str) -> None:
        """Show the position and play nothing, with ``text`` in the status line (an exercise before its answer);
        ``show_only("")`` lets the board play again, with its targets and hints."""
        self.shown_only = str(text)
        self.redraw()

    def close(self) -> None:
        """Close the board and every widget it built (its figure, controls, log), shown or not."""
        self._cancel()
        if self.comm is not None:  # (a board closed already, or collected, has nothing left to close)
            close_widgets(self)

    # -- what a click or a button does: the session acts, the board draws ------------------------------
    def _refused_while_shown_only(self) -> bool:
        if not self.shown_only:
            return False
        self.redraw()  # the status line says why nothing is played
        return True

    def play(self, move: Any) -> bool:
        """Try a move for the person to move (:meth:`Session.play`); a refusal is told in the status line. The
        computer's replies follow at the board's pace."""
        if self._refused_while_shown_only():
            return False
        if self.pacing:
            return self._refuse_while_pacing()
        paced = self._clock() is not None
        played = self.session.play(move, reply=not paced)
        if played and self.pacing:
            self._schedule()
        self.redraw()
        return played

    def undo(self) -> None:
        """Take back the last move of a person, with the computer's replies to it (those played out so far, while
        they are: the rest are not played). Refused (a chance outcome was shown), the computer's turn ends at once."""
        if self._refused_while_shown_only():
            return
        self._cancel()
        self.session.undo()
        if self.pacing:  # the Undo was refused: the replay of the computer's turn stops, at its end
            self.session.settle()
            self.message += " The computer's moves are played to the end of its turn."
        self.redraw()

    def hint(self) -> Any:
        """Tell and mark the move the best computer player suggests (never played); returns it, or None."""
        if self._refused_while_shown_only():
            return None
        move = self.session.hint()
        self.redraw()
        return move

    def show_move(self, index: int) -> None:
        """Replay: show the position after move ``index`` (0 is the start); the newest returns to the game."""
        if self._refused_while_shown_only():
            return
        if self.pacing:
            self.skip()  # a replay shows the game's moves: the computer's turn is finished first
        self.session.show_move(index)
        self.redraw()

    def start(self) -> Table:
        """Let computer players move if one of them begins (at the board's pace), then draw."""
        self._hold_clicks()
        view = getattr(self, "figure", None)
        if isinstance(view, BoardView) and self._page_shown not in view._shown_handlers:
            view.on_shown(self._page_shown)
        paced = self._clock() is not None
        self.session.start(reply=not paced)
        if self.pacing:
            self._schedule()
        self.redraw()
        return self

    # -- the computer's moves, one at a time -------------------------------------------------------
    @property
    def pace(self) -> str:
        """How the computer players' moves are shown: "off" (at once), "normal" or "fast" (one at a time)."""
        return self._pace if self._pace is not None else default_pace()

    @pace.setter
    def pace(self, pace: str) -> None:
        self._pace = checked_pace(pace)
        self._pace_changed()

    @property
    def pacing(self) -> bool:
        """Whether the computer's moves are being played out: a computer player is to move in the game."""
        return self.session.computer_to_move

    def _clock(self) -> Timer | None:
        """The timer the next computer move waits on; None when moves land at once (pace off, or no loop runs)."""
        if self.pace == "off":
            return None
        return self.clock if self.clock is not None else event_loop_timer()

    def _schedule(self) -> None:
        """Time the next computer move at the board's pace (or play the rest at once when nothing can time it)."""
        self._cancel()
        clock = self._clock()
        if clock is None:
            self.skip()
            return
        self._ticket += 1
        ticket = self._ticket
        self._timer = clock(PACE_SECONDS[self.pace], lambda: self._tick(ticket))

    def _cancel(self) -> None:
        """Stop the timer of the next computer move, if one runs."""
        timer, self._timer = self._timer, None
        self._ticket += 1
        if timer is not None and callable(getattr(timer, "cancel", None)):
            timer.cancel()

    def _tick(self, ticket: int) -> None:
        """The timer's call: the next computer move, then the timer of the one after it."""
        if ticket != self._ticket or self.comm is None:
            return  # a timer stopped after it fired, or a board closed (a New game or Load replaced it)
        self._timer = None
        try:
            self.advance()
        except Exception as error:  # noqa: BLE001 - told on the board, never raised into the kernel's loop unseen
            self.message, self.message_kind = f"The computer's move could not be played: {error}", "error"
            self.redraw()
            return
        if self.pacing:
            self._schedule()

    def advance(self) -> LogLine | None:
        """Play the next computer move now (what the pace's timer does), told in the status line and marked on the
        board: the move and its narration, or None when no computer player is to move."""
        line = self.session.computer_step()
        if line is not None:
            self.message, self.message_kind = f"{self.describe_player(line.step.player)}: {line.text}", "info"
            self.redraw()
        return line

    def skip(self) -> list[Step]:
        """ "Skip to the end": the computer players' moves left are played at once (the same moves and dice as with
        the pace off), counted in the status line; returns them."""
        self._cancel()
        if not self.pacing:
            return []
        played = self.session.settle()
        told = self.replies(played)
        self.message = "Skipped to the end" + (": " + told[len("; then ") :] if told.startswith("; then ") else told)
        self.message_kind = "info"
        self.redraw()
        return played

    def _settle(self) -> list[Step]:
        """Let the computer players answer: at once (their moves are returned), or at the board's pace (a timer
        plays them; none is returned)."""
        if self._clock() is None:
            return self.session.settle()
        self._schedule()
        return []

    def _pace_changed(self) -> None:
        """The pace changed while the computer moves: the next move at the new pace, or the rest at once."""
        if self.pacing:
            self._schedule()

    def _motion_changed(self, change: dict[str, Any]) -> None:
        """The page told whether its user prefers reduced motion: the default pace follows."""
        PREFERENCE.reduced_motion = bool(change["new"])
        if self._pace is None:
            self._pace_changed()
            self.redraw()  # the app's pace menu follows the board

    def _status_clicked(self, step: int) -> None:
        if step == SKIP:
            self.skip()

    def _refuse_while_pacing(self) -> bool:
        """A person's move while the computer's are played out: refused with a message; returns False."""
        name = self.describe_player(self.current_player(self.live))
        self.message = f"It is {name}'s turn, and the computer plays {name}: wait for its moves, or Skip to the end."
        self.message_kind = "error"
        self.redraw()
        return False

    def _page_shown(self, revision: int) -> None:
        """A page made a view of the board. A page that loads the widgets from the kernel (Voila; JupyterLab after a
        reload) takes all their states at once and makes their models after: a change sent in between (a computer's
        move played by the pace's timer while a Voila page loads) is lost there, and the page would keep the board
        before it, its controls off, for good. So the page's tree (the app, or the board) sends its state again; the
        figure only if the page holds an older revision of it."""
        view = getattr(self, "figure", None)
        current = isinstance(view, BoardView) and revision == view.revision
        send_again(self.page_root() if self.page_root is not None else self, leave=[view] if current else [])

    def _hold_clicks(self) -> None:
        """Clicks on the board's figure (``self.figure``, a BoardView) while the computer moves are refused with a
        message before they reach the game's handlers (which would choose a piece or a territory)."""
        view = getattr(self, "figure", None)
        if not isinstance(view, BoardView) or getattr(view, "held_by", None) is self:
            return
        click = view.click

        def held(trace_name: str, point_id: Any, revision: int | None = None) -> bool:
            if self.pacing:
                return self._refuse_while_pacing()
            return click(trace_name, point_id, revision)

        view.click = held  # type: ignore[method-assign]
        view.held_by = self

    # -- history -----------------------------------------------------------------------------------
    def _history_bar(self) -> widgets.HBox:
        def button(icon: str, tooltip: str, target: Callable[[], int]) -> widgets.Button:
            control = widgets.Button(icon=icon, tooltip=tooltip, layout=widgets.Layout(width="36px"))
            control.on_click(lambda _: self.show_move(target()))
            return control

        first = button("fast-backward", "The start of the game", lambda: 0)
        back = button("step-backward", "One move back", lambda: self.session.shown - 1)
        forward = button("step-forward", "One move on", lambda: self.session.shown + 1)
        latest = button("fast-forward", "Back to the game as it stands", lambda: len(self.states) - 1)
        self._slider = widgets.IntSlider(
            min=0,
            max=0,
            value=0,
            readout=False,
            continuous_update=False,
            layout=widgets.Layout(flex="1 1 120px", min_width="80px", max_width="260px"),
        )
        self._slider.observe(self._slid, "value")
        self._history_label = widgets.HTML(layout=widgets.Layout(flex="0 0 auto"))
        self._history_controls = (first, back, self._slider, forward, latest)
        bar = widgets.HBox(
            [first, back, self._slider, forward, latest, self._history_label],
            layout=widgets.Layout(align_items="center", width="100%"),
        )
        bar.add_class("rulebook-history")
        return bar

    def _slid(self, change: dict[str, Any]) -> None:
        if not self._drawing_history:
            self.show_move(change["new"])

    _drawing_history = False

    def _draw_history_bar(self) -> None:
        last, shown = len(self.states) - 1, self.session.shown
        self._drawing_history = True
        try:
            self._slider.max = max(last, 0)
            self._slider.value = shown
        finally:
            self._drawing_history = False
        self._slider.disabled = last == 0
        first, back, _, forward, latest = self._history_controls
        first.disabled = back.disabled = shown == 0
        forward.disabled = latest.disabled = shown == last
        self._history_label.value = markup.render(
            "history_label.html", replay=self.view is not None, shown=shown, last=last
        )

    def history_html(self, limit: int = 60) -> str:
        """The session's log (:meth:`Session.log`) as HTML: a line is a link that replays the position after it."""
        groups = [
            {
                "name": group.name,
                "computer": group.computer,
                "lines": [(line.step.index, self.move_log.linked(line.text)) for line in group.lines],
            }
            for group in self.session.log(limit)
        ]
        return markup.render("log.html", groups=groups, view=self.view)

    def seat_label(self, player: int, name: str) -> str:
        """A seat this screen does not play, named in the status line: "Blue (computer)", or at a class table a
        seat another student plays, "Blue (another screen)" (the session's ``elsewhere``)."""
        if player in getattr(self.session, "elsewhere", ()):
            return f"{name} (another screen)"
        return f"{name} (computer)"

    # -- to override ---------------------------------------------------------------------------
    # (with current_player, describe_player and move_text from Names, and you_text, result_text and replies, which
    # read the session's unless a board words them its own way)
    def prompt(self) -> str:
        """Whose turn it is and what they can do now (one line)."""
        return ""

    def draw(self) -> None:
        """Bring the game's own board and controls up to date with ``self.state``."""

    # -- drawing -------------------------------------------------------------------------------
    def redraw(self) -> None:
        """Draw the position; while replaying, and once the game is over, every move control is switched off.

        A refusal is told once: a redraw for an action that says nothing new (a selection on the board, a choice in
        a menu) clears it. The refusal drawn is kept as a copy of its own, so a refusal set again (the same text)
        is told again, while one nobody set since the last drawing is the old one."""
        told = self.session.message
        if self.message_kind == "error" and told and told is getattr(self, "_refusal_drawn", None):
            self.session.message, self.session.message_kind = "", "info"
        elif self.message_kind == "error" and told:
            self._refusal_drawn = self.session.message = (told + " ")[:-1]  # equal text, another object
        for control in self._frozen:
            control.disabled = False
        self._frozen = []
        self.status.value = self.status_html()
        for panel in self.answer_panels:
            panel.layout.display = "none" if self.shown_only else None
        self.draw()
        self._draw_history_bar()
        if self.finished or self.replaying or self.pacing:
            # Undo too while replaying, and once the game is over: a finished game is finished (issue 48.9)
            frozen = self.move_controls() + ([self.undo_button] if self.replaying or self.finished else [])
            for control in frozen:
                if not control.disabled:
                    control.disabled = True
                    self._frozen.append(control)
        for listener in list(self.listeners):
            listener(self)

    def move_controls(self) -> list[Any]:
        """Every control on the board that makes a move (all controls but Undo and the view-only ones)."""
        found: list[Any] = []
        stack = list(self.children)
        while stack:
            child = stack.pop()
            if child is self.undo_button or any(child is view for view in self.view_controls):
                continue
            if isinstance(child, widgets.Box):
                stack.extend(child.children)
            elif isinstance(child, (widgets.Accordion, widgets.Tab)):
                stack.extend(child.children)
            elif hasattr(child, "disabled") and isinstance(child, widgets.DOMWidget):
                found.append(child)
        return found

    # -- shared rendering ----------------------------------------------------------------------
    def status_html(self) -> str:
        """The status line: whose turn and what to do (or the replayed position), then the last action's message.
        A message telling more than three moves tells the first and the last, and counts the others (the log tells
        each): the line keeps its fixed height, and what it cannot show is said to be elsewhere, never cut."""
        told = self.message.split("; then ") if self.message else []
        if len(told) > 3:
            hidden = len(told) - 2
            said = f"{told[0]}; then {hidden} more moves (the log tells each); the last: {told[-1]}"
        else:
            said = self.message
        if self.shown_only:  # nothing of the position's moves (the prompt may name them) and no refusal
            return markup.render("status.html", shown_only=self.shown_only, message="")
        if self.pacing and not self.replaying:
            name = self.describe_player(self.current_player(self.live))
            message = self.status.linked(said) if said else Markup("")
            return markup.render(
                "status.html",
                shown_only="",
                replay=False,
                view=None,
                last=len(self.states) - 1,
                you=self.you_text(),
                prompt=f"The computer plays {name}: its moves are told here one by one and marked on the board.",
                message=message + markup.render("skip_button.html", step=SKIP),
                kind="error" if self.message_kind == "error" else "info",
            )
        return markup.render(
            "status.html",
            shown_only="",
            replay=self.replaying,
            view=self.view,
            last=len(self.states) - 1,
            you="" if self.replaying else self.you_text(),
            prompt="" if self.replaying else self.prompt(),
            message=self.status.linked(said) if said else "",
            kind="error" if self.message_kind == "error" else "info",
        )
