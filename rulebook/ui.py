"""What every game's ipywidgets board shares: a state stack with undo, moves sent through ``check``
and ``apply``, chance resolved with a seeded generator, computer players, a status line and a move log
(``move_log``; the name ``log`` is taken by traitlets).

A game's widget subclasses :class:`Table` and draws its own board in :meth:`Table.draw` (on a
:class:`~rulebook.views.BoardView`, or with plain ipywidgets).  Refused moves are shown in the status line with the
rule id; a widget never lets a traceback reach the page. Its HTML comes from templates (:mod:`rulebook.markup`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

import anywidget
import ipywidgets as widgets
import traitlets

from . import markup, rules_text
from .markup import Markup
from .session import Bot, Names, Session, Step, computer_players, game_name  # noqa: F401 (importable here too)
from .views import BoardView, ChartView, FigureView  # noqa: F401 (the figures drawn from their own state)


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


def _widgets_in(value: Any, depth: int = 0) -> Iterator[widgets.Widget]:
    """The widgets held in ``value``: the value itself, or those in its lists, tuples, sets and dicts (three levels
    down at most: a widget's traits, a list of its controls; a figure's JSON is deeper and holds none)."""
    if isinstance(value, widgets.Widget):
        yield value
    elif depth < 3 and isinstance(value, (list, tuple, set, frozenset, dict)):
        for item in value.values() if isinstance(value, dict) else value:
            if isinstance(item, (widgets.Widget, list, tuple, set, frozenset, dict)):
                yield from _widgets_in(item, depth + 1)


def close_widgets(*roots: Any) -> int:
    """Close every widget reachable from ``roots``: the widgets in their trees (children, layouts, styles) and those
    their attributes hold outside the tree (a control not shown, a board an explorer follows, a figure). A closed
    widget leaves the kernel and the page; returns how many were closed.

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
    _settle = _Shared("settle")

    def __init__(
        self, state: Any, *, seed: int = 0, computer: Mapping[int, str | Bot] | Iterable[int] = (), **kwargs: Any
    ) -> None:
        self.session = Session(state, seed=seed, computer=computer, names=self)
        self.listeners: list[Callable[[Table], None]] = []
        # while set, the board shows its position and plays nothing (an exercise before its answer is checked): no
        # legal targets, no hint, every move control off, and this text in the status line (see show_only)
        self.shown_only = ""
        # panels a game's board fills with what an exercise may ask (scores, odds): hidden while shown_only is set
        self.answer_panels: tuple[widgets.Widget, ...] = ()
        self._frozen: list[Any] = []
        name = self.session.game_name
        self.status = RuleText(name, layout=widgets.Layout(min_height="2.6em"))
        self.move_log = RuleText(
            name, layout=widgets.Layout(max_height="14em", overflow="auto", border="1px solid #ccc", padding="2px 6px")
        )
        self.status.add_class("rulebook-status")
        self.move_log.add_class("rulebook-log")
        self.move_log.step_handlers.append(self.show_move)
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
        if self.comm is not None:  # (a board closed already, or collected, has nothing left to close)
            close_widgets(self)

    # -- what a click or a button does: the session acts, the board draws ------------------------------
    def _refused_while_shown_only(self) -> bool:
        if not self.shown_only:
            return False
        self.redraw()  # the status line says why nothing is played
        return True

    def play(self, move: Any) -> bool:
        """Try a move for the person to move (:meth:`Session.play`); a refusal is told in the status line."""
        if self._refused_while_shown_only():
            return False
        played = self.session.play(move)
        self.redraw()
        return played

    def undo(self) -> None:
        """Take back the last move of a person, with the computer's replies to it."""
        if self._refused_while_shown_only():
            return
        self.session.undo()
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
        self.session.show_move(index)
        self.redraw()

    def start(self) -> Table:
        """Let computer players move if one of them begins, then draw."""
        self.session.start()
        self.redraw()
        return self

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
        """Draw the position; while replaying, and once the game is over, every move control is switched off."""
        for control in self._frozen:
            control.disabled = False
        self._frozen = []
        self.status.value = self.status_html()
        for panel in self.answer_panels:
            panel.layout.display = "none" if self.shown_only else None
        self.draw()
        self._draw_history_bar()
        if self.finished or self.replaying:
            frozen = self.move_controls() + ([self.undo_button] if self.replaying else [])
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
        """The status line: whose turn and what to do (or the replayed position), then the last action's message."""
        if self.shown_only:  # nothing of the position's moves (the prompt may name them) and no refusal
            return markup.render("status.html", shown_only=self.shown_only, message="")
        return markup.render(
            "status.html",
            shown_only="",
            replay=self.replaying,
            view=self.view,
            last=len(self.states) - 1,
            you="" if self.replaying else self.you_text(),
            prompt="" if self.replaying else self.prompt(),
            message=self.status.linked(self.message) if self.message else "",
            kind="error" if self.message_kind == "error" else "info",
        )
