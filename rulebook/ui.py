"""What every game's ipywidgets board shares: a state stack with undo, moves sent through ``check``
and ``apply``, chance resolved with a seeded generator, computer players, a status line and a move log
(``move_log``; the name ``log`` is taken by traitlets).

A game's widget subclasses :class:`Table` and draws its own board in :meth:`Table.redraw`.  Refused
moves are shown in the status line with the rule id; a widget never lets a traceback reach the page.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import html
import importlib
import importlib.util
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

# -- legacy figures: plotly.py's FigureWidget protocol (BoardFigure, ChartFigure, settle_figure), for the games not yet
# drawn on rulebook.views (issue 22: deleted once none uses them; tests/test_views.py keeps other code off it) --------


class _Deferred:
    """Stands for a module until something reads from it, then imports it."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        return getattr(importlib.import_module(self._name), attribute)

    def __bool__(self) -> bool:
        return importlib.util.find_spec(self._name) is not None


def _plotly_renderers_without_nbformat() -> None:
    """Import plotly's renderers with nbformat put off until a figure is shown as a mime bundle.

    plotly's FigureWidget imports ``plotly.io._renderers``, which imports nbformat at once only to check its version
    when a figure is rendered as a mime bundle; nbformat pulls in jsonschema's format checkers, whose IRI grammar
    takes about 1.5 s of CPU to build. Boards never need it; charts shown in a notebook still get it, on first use."""
    if "plotly.io._renderers" in sys.modules or "nbformat" in sys.modules:
        return
    try:
        from _plotly_utils import optional_imports
    except ImportError:
        return
    skipped = getattr(optional_imports, "_not_importable", None)
    if not isinstance(skipped, set):
        return
    skipped.add("nbformat")
    try:
        import plotly.io._renderers as renderers
    finally:
        skipped.discard("nbformat")
    if getattr(renderers, "nbformat", "missing") is None:
        renderers.nbformat = _Deferred("nbformat")


import anywidget  # noqa: E402
import ipywidgets as widgets  # noqa: E402
import traitlets  # noqa: E402

from . import markup, rules_text  # noqa: E402
from .markup import Markup  # noqa: E402
from .session import Bot, Names, Session, Step, computer_players, game_name  # noqa: E402, F401 (importable here too)
from .views import BoardView, ChartView, FigureView  # noqa: E402, F401 (the figures drawn from their own state)

# The charts of the odds explorers (ChartFigure) are drawn by plotly.js; the boards (BoardFigure) by board.js.
#
# anywidget (0.11) gives a model 2 s to load its JavaScript; a model that takes longer never receives another message
# from the kernel, so its figure stops following the game.  Plotly ships its whole 5 MB bundle as each FigureWidget's
# module, evaluated anew for every figure (about 1 s each here, several under load): on a page with three figures the
# third one missed the 2 s and froze.  This loader evaluates the bundle once per page and shares it.
#
# Where the bundle comes from: the app (``rulebook app``) serves it as a file at an address (``_bundle_url``), so the
# 5 MB never crosses the kernel's websocket, and as a classic script (see classic_script), whose compiled code the
# browser keeps: from the third opening in the same browser, the bundle costs the page about 0.15 s instead of
# 1.2 s.  Elsewhere (JupyterLab) the text travels in ``_bundle``.  There is no falling back to the kernel when the
# address fails: anywidget holds every message to a model until its initialize returns, so the text could only
# arrive after the 2 s; the chart says in the page that plotly did not load.
_LOADER = """
const bundles = (globalThis.__rulebookPlotlyBundles ??= new Map());

function fromText(text) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
  const loading = import(url);
  loading.finally(() => URL.revokeObjectURL(url)).catch(() => {});
  return loading;
}

function fromScript(address, key) {
  const name = "__rulebookPlotly_" + key;
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = address;
    script.onload = () => (globalThis[name] ? resolve(globalThis[name]) : reject(new Error("no plotly in " + address)));
    script.onerror = () => reject(new Error("could not load " + address));
    document.head.appendChild(script);
  });
}

function fromAddress(address, key) {
  const url = new URL(address, document.baseURI).href;
  return new URL(url).pathname.endsWith("-script.js") ? fromScript(url, key) : import(url);
}

function plotlyBundle(model) {
  const key = model.get("_bundle_key");
  if (!bundles.has(key)) {
    const address = model.get("_bundle_url");
    let loading;
    if (model.get("_bundle")) loading = fromText(model.get("_bundle"));
    else loading = fromAddress(address, key);
    loading.catch(() => bundles.delete(key));
    bundles.set(key, loading);
  }
  return bundles.get(key);
}

export default () => {
  let figure = null;
  let failure = null;
  return {
    async initialize(context) {
      try {
        const plotly = await plotlyBundle(context.model);
        figure = await plotly.default();
      } catch (error) {
        failure = error;  // told in the page by render, not only in the console
        return;
      }
      return figure.initialize(context);
    },
    render(context) {
      if (failure) {
        context.el.textContent =
          "This chart cannot be drawn: its drawing library (plotly) did not load. Reload the page; if that does " +
          "not help, restart the app. (" + failure.message + ")";
        return;
      }
      return figure.render(context);
    },
  };
};
"""

_BUNDLE_URL: str = ""


_EXPORT = re.compile(r"export\{([^}]*)\};?")
_LICENCE_TAIL = re.compile(r"\s*(?:/\*[\s\S]*?\*/\s*)*")
_STATIC_IMPORT = re.compile(r"(?:^|[;}])\s*import\s*(?:[\w$]+\s*(?:,|from\b)|\{|\*|[\"'])")


def classic_script(text: str, key: str) -> str | None:
    """plotly's widget bundle (an ES module) as a classic script that leaves its exports in
    ``globalThis.__rulebookPlotly_<key>``, or None if the bundle is not the single self-contained module this expects.

    Why: browsers keep the compiled code of a classic script they load again (Chromium does from the third visit),
    not of a module loaded with ``import()``; compiling plotly is most of the 1.2 s its bundle costs a page.  The
    module's body runs unchanged inside a strict function, as a module's would; only its final export statement
    becomes the assignment."""
    found = list(_EXPORT.finditer(text))
    if not found or "import.meta" in text or _STATIC_IMPORT.search(text):
        return None
    last = found[-1]
    tail = text[last.end() :]
    if not _LICENCE_TAIL.fullmatch(tail):
        return None
    names: dict[str, str] = {}
    for part in last.group(1).split(","):
        local, _, exported = part.strip().partition(" as ")
        exported = exported.strip() or local
        if not re.fullmatch(r"[\w$]+", local) or not re.fullmatch(r"[\w$]+", exported):
            return None
        names[exported] = local
    if "default" not in names:
        return None
    exports = ", ".join(f"{exported}: {local}" for exported, local in names.items())
    return (
        f'(function () {{"use strict";\n{text[: last.start()]}\n'
        f"globalThis.__rulebookPlotly_{key} = {{{exports}}};\n}})();\n{tail}"
    )


def plotly_file(folder: Path) -> str:
    """Write plotly's widget bundle into ``folder`` under a name that names its contents; returns the name.

    ``plotly-<key>-script.js`` is the bundle as a classic script (:func:`classic_script`); ``plotly-<key>.js`` the
    module as plotly ships it, when it cannot be turned into one."""
    from . import views

    views.plotly_file(folder)  # and plotly.min.js beside it, for the ChartViews
    text, key = _plotly_bundle()
    script = classic_script(text, key)
    name, content = (f"plotly-{key}-script.js", script) if script is not None else (f"plotly-{key}.js", text)
    target = folder / name
    if not target.exists() or target.read_text(encoding="utf-8") != content:
        target.write_text(content, encoding="utf-8")
    return name


def serve_plotly_from(address: str) -> None:
    """Boards built from now on load plotly's bundle from ``address`` (relative to the page) instead of receiving its
    text from the kernel; ``""`` goes back to sending the text."""
    from urllib.parse import urljoin

    from . import views

    global _BUNDLE_URL
    _BUNDLE_URL = address
    views.serve_plotly_from(urljoin(address, views.plotly_file_name()) if address else "")  # the file beside it


@functools.cache
def _plotly_bundle() -> tuple[str, str]:
    """Plotly's widget bundle and a key naming its exact contents (read once per process)."""
    _plotly_renderers_without_nbformat()
    from plotly.basewidget import BaseFigureWidget

    text = str(BaseFigureWidget._esm)  # anywidget's FileContents: str() is the file's text
    return text, hashlib.sha256(text.encode()).hexdigest()[:16]


_BOARD_ESM = Path(__file__).with_name("board.js")


def _figure_classes() -> dict[str, type]:
    """Define :class:`BoardFigure` and :class:`ChartFigure` on first use.

    plotly's FigureWidget brings in its renderers, validators and narwhals: about 0.05 s of CPU, as much as all four
    games' own modules together.  Importing a game's widget module (for its charts, its narration or its board
    class) does not pay it; the first board built does."""
    _plotly_renderers_without_nbformat()
    import plotly.graph_objects as go

    class ChartFigure(go.FigureWidget):
        """A plotly FigureWidget drawn by plotly.js, whose bundle is evaluated once per page, however many charts the
        page shows: for the odds explorers' charts (bars, heat maps)."""

        _esm = _LOADER
        _bundle = traitlets.Unicode().tag(sync=True)
        _bundle_key = traitlets.Unicode().tag(sync=True)
        _bundle_url = traitlets.Unicode().tag(sync=True)

        @traitlets.default("_bundle_url")
        def _default_bundle_url(self) -> str:
            return _BUNDLE_URL

        @traitlets.default("_bundle")
        def _default_bundle(self) -> str:
            return "" if self._bundle_url else _plotly_bundle()[0]

        @traitlets.default("_bundle_key")
        def _default_bundle_key(self) -> str:
            return _plotly_bundle()[1]

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # a chart beside the board is read, not zoomed or exported: plotly's tool bar only covered its title
            self._config = {**self._config, "displayModeBar": False, "doubleClick": False}

    class BoardFigure(go.FigureWidget):
        """A board: a plotly FigureWidget of scatter traces (markers, lines, text), drawn as SVG by ``board.js``
        instead of plotly.js.

        Python builds and updates it as any FigureWidget, and its traces' ``on_click`` callbacks fire on a click;
        the page loads a few kilobytes instead of plotly's 5 MB bundle (about a second of a page's main thread)."""

        _esm = _BOARD_ESM

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            others = sorted({trace.type for trace in self.data} - {"scatter"})
            if others:
                raise ValueError(f"a board draws scatter traces only, not {', '.join(others)}: use ui.ChartFigure")

    for cls in (ChartFigure, BoardFigure):
        cls.__module__ = __name__
        cls.__qualname__ = cls.__name__
    return {"ChartFigure": ChartFigure, "BoardFigure": BoardFigure}


def __getattr__(name: str) -> Any:
    if name in ("BoardFigure", "ChartFigure"):
        classes = _figure_classes()
        globals().update(classes)
        return classes[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def settle_figure(figure: Any) -> None:
    """Make a FigureWidget's initial state what Python holds now.

    Updates made to a FigureWidget before any browser view exists travel as one-off messages and do not change
    the widget's synced state; JupyterLab replays them, Voila (which renders after the kernel ran) does not, and
    its boards came up without their colours and highlights. Copying the current data and layout into the synced
    state fixes both.  A BoardView or ChartView needs nothing: its synced state is always the figure it last drew."""
    if isinstance(figure, FigureView):
        return
    figure._widget_data = copy.deepcopy(figure._data)
    figure._widget_layout = copy.deepcopy(figure._layout)


# -- end of legacy figures ---------------------------------------------------------------------------------------


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
    replaying = _Shared()
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

    # -- what a click or a button does: the session acts, the board draws ------------------------------
    def play(self, move: Any) -> bool:
        """Try a move for the person to move (:meth:`Session.play`); a refusal is told in the status line."""
        played = self.session.play(move)
        self.redraw()
        return played

    def undo(self) -> None:
        """Take back the last move of a person, with the computer's replies to it."""
        self.session.undo()
        self.redraw()

    def hint(self) -> Any:
        """Tell and mark the move the best computer player suggests (never played); returns it, or None."""
        move = self.session.hint()
        self.redraw()
        return move

    def show_move(self, index: int) -> None:
        """Replay: show the position after move ``index`` (0 is the start); the newest returns to the game."""
        self.session.show_move(index)
        self.redraw()

    def start(self) -> Table:
        """Let computer players move if one of them begins, then draw."""
        self.session.start()
        self.redraw()
        figure = getattr(self, "figure", None)
        if figure is not None:
            settle_figure(figure)
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
        return markup.render(
            "status.html",
            replay=self.replaying,
            view=self.view,
            last=len(self.states) - 1,
            you="" if self.replaying else self.you_text(),
            prompt="" if self.replaying else self.prompt(),
            message=self.status.linked(self.message) if self.message else "",
            kind="error" if self.message_kind == "error" else "info",
        )
