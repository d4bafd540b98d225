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
import random
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any


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


_plotly_renderers_without_nbformat()

import anywidget  # noqa: E402 - after the deferred import above, which must come before plotly's
import ipywidgets as widgets  # noqa: E402
import plotly.graph_objects as go  # noqa: E402
import traitlets  # noqa: E402

from . import rules_text  # noqa: E402
from .core import IllegalMove, game_module, pick  # noqa: E402

Bot = Callable[[Any, random.Random], Any]


# anywidget (0.11) gives a model 2 s to load its JavaScript; a model that takes longer never receives another message
# from the kernel, so its figure stops following the game.  Plotly ships its whole 5 MB bundle as each FigureWidget's
# module, evaluated anew for every figure (about 1 s each here, several under load): on a page with three boards the
# third one missed the 2 s and froze.  This loader evaluates the bundle once per page and shares it.
_LOADER = """
const bundles = (globalThis.__rulebookPlotlyBundles ??= new Map());

function plotlyBundle(model) {
  const key = model.get("_bundle_key");
  if (!bundles.has(key)) {
    const url = URL.createObjectURL(new Blob([model.get("_bundle")], { type: "text/javascript" }));
    const loading = import(url);
    loading.finally(() => URL.revokeObjectURL(url)).catch(() => bundles.delete(key));
    bundles.set(key, loading);
  }
  return bundles.get(key);
}

export default () => {
  let figure = null;
  return {
    async initialize(context) {
      const plotly = await plotlyBundle(context.model);
      figure = await plotly.default();
      return figure.initialize(context);
    },
    render(context) {
      return figure.render(context);
    },
  };
};
"""


@functools.cache
def _plotly_bundle() -> tuple[str, str]:
    """Plotly's widget bundle and a key naming its exact contents (read once per process)."""
    from plotly.basewidget import BaseFigureWidget

    text = str(BaseFigureWidget._esm)  # anywidget's FileContents: str() is the file's text
    return text, hashlib.sha256(text.encode()).hexdigest()[:16]


class BoardFigure(go.FigureWidget):
    """A plotly FigureWidget whose bundle is evaluated once per page, however many boards the page shows."""

    _esm = _LOADER
    _bundle = traitlets.Unicode().tag(sync=True)
    _bundle_key = traitlets.Unicode().tag(sync=True)

    @traitlets.default("_bundle")
    def _default_bundle(self) -> str:
        return _plotly_bundle()[0]

    @traitlets.default("_bundle_key")
    def _default_bundle_key(self) -> str:
        return _plotly_bundle()[1]


def settle_figure(figure: Any) -> None:
    """Make a FigureWidget's initial state what Python holds now.

    Updates made to a FigureWidget before any browser view exists travel as one-off messages and do not change
    the widget's synced state; JupyterLab replays them, Voila (which renders after the kernel ran) does not, and
    its boards came up without their colours and highlights. Copying the current data and layout into the synced
    state fixes both."""
    figure._widget_data = copy.deepcopy(figure._data)
    figure._widget_layout = copy.deepcopy(figure._layout)


_RULE_TEXT_ESM = """
export default {
  render({ model, el }) {
    const body = document.createElement("div");
    const detail = document.createElement("div");
    el.append(body, detail);
    const show = () => {
      body.innerHTML = model.get("value");
      detail.innerHTML = model.get("detail");
      detail.style.display = model.get("detail") ? "block" : "none";
    };
    show();
    model.on("change:value", show);
    model.on("change:detail", show);
    el.addEventListener("click", (event) => {
      const link = event.target.closest("[data-rule]");
      if (link) {
        event.preventDefault();
        model.send({ rule: link.dataset.rule });
      } else if (event.target.closest("[data-close]")) {
        model.set("detail", "");
        model.save_changes();
      }
    });
  },
};
"""


class RuleText(anywidget.AnyWidget):
    """HTML text whose rule ids are links: a click on one calls the ``on_rule`` handlers with the id.

    With no handler the paragraph opens under the text itself (a board used on its own in a notebook); the app
    registers a handler that opens it in the rules panel beside the board."""

    _esm = _RULE_TEXT_ESM
    value = traitlets.Unicode("").tag(sync=True)
    detail = traitlets.Unicode("").tag(sync=True)

    def __init__(self, game: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.handlers: list[Callable[[str], None]] = []
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and isinstance(content.get("rule"), str):
            self.open_rule(content["rule"])

    def open_rule(self, rule: str) -> None:
        """What a click on a rule id does."""
        if self.game is None or rule not in rules_text.paragraphs(self.game):
            return  # a stale or forged id: nothing to open
        if self.handlers:
            for handler in self.handlers:
                handler(rule)
            return
        text = rules_text.to_html(rules_text.paragraph(self.game, rule).markdown)
        self.detail = (
            "<div style='border-left:4px solid #0b57d0;background:#f3f6fc;padding:4px 10px;margin:4px 0;"
            "font-size:13px;line-height:1.45'><a href='#' data-close='1' style='float:right;color:#555' "
            f"title='Close'>close</a>{text}</div>"
        )

    @property
    def text(self) -> str:
        """The text as a reader sees it: tags dropped, entities read."""
        return html.unescape(re.sub(r"<br\s*/?>", "\n", re.sub(r"<(?!br)[^>]*>", "", self.value)))

    def linked(self, text: str) -> str:
        """Escape plain text and link the rule ids in it."""
        escaped = html.escape(text)
        if self.game is None:
            return escaped
        return rules_text.rule_links(escaped, rules_text.paragraphs(self.game))


def game_name(module: Any) -> str:
    """``rulebook.claim`` -> ``claim``."""
    return module.__name__.split(".")[1]


def computer_players(game: str, computer: Mapping[int, str | Bot] | Iterable[int]) -> dict[int, Bot]:
    """Seats the computer plays, as {seat: bot}: a mapping of seats to names from the game's ``bots.BOTS`` (or bot
    functions), or just the seats, which then get the game's greedy player."""
    table = importlib.import_module(f"rulebook.{game}.bots").BOTS
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


class Table(widgets.VBox):
    """A game in play: the current state, earlier states for Undo, a log, and the controls around a board.

    Every game's board takes the same arguments: ``Board(state, seed=..., computer={seat: "greedy", ...})``."""

    def __init__(
        self, state: Any, *, seed: int = 0, computer: Mapping[int, str | Bot] | Iterable[int] = (), **kwargs: Any
    ) -> None:
        self.game = game_module(state)
        self.game_name = game_name(self.game)
        self.rng = random.Random(seed)
        self.seed = seed
        self.bots: dict[int, Bot] = computer_players(self.game_name, computer)
        players = getattr(state, "players", None)
        if isinstance(players, int) and any(seat >= players for seat in self.bots):
            raise ValueError(f"computer: seats are 0 to {players - 1} in a game of {players}")
        self.states: list[Any] = [state]
        self.message = ""
        self.message_kind = "info"
        self.listeners: list[Callable[[Table], None]] = []
        self.view_controls: list[Any] = []  # controls that only change the view: they stay on after the game
        self._frozen: list[Any] = []
        self.status = RuleText(self.game_name, layout=widgets.Layout(min_height="2.6em"))
        self.move_log = RuleText(
            self.game_name,
            layout=widgets.Layout(max_height="14em", overflow="auto", border="1px solid #ccc", padding="2px 6px"),
        )
        self.status.add_class("rulebook-status")
        self.move_log.add_class("rulebook-log")
        self.undo_button = widgets.Button(description="Undo", icon="undo", tooltip="Take back the last move")
        self.undo_button.on_click(lambda _: self.undo())
        super().__init__(**kwargs)
        self.add_class("rulebook-board")

    # -- state -------------------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def finished(self) -> bool:
        return self.game.outcome(self.state) is not None

    def play(self, move: Any) -> bool:
        """Try a move for the player to move; refused moves leave the state unchanged and explain why."""
        if self.finished:
            self.message, self.message_kind = "The game is over: start a new game to play again.", "error"
            self.redraw()
            return False
        try:
            error = self.game.check(self.state, move)
            if error is not None:
                return self._refuse(error)
            state = self.game.apply(self.state, move)
        except IllegalMove as error:
            return self._refuse(error)
        except ValueError as error:  # malformed input from a control: shown, never raised
            self.message, self.message_kind = str(error), "error"
            self.redraw()
            return False
        self.states.append(state)
        mover = self.describe_player(self._mover(self.states[-2]))
        self.message, self.message_kind = f"{mover}: {self.move_text(move)}", "info"
        self.message += self.replies(self._settle())
        self.redraw()
        return True

    def _refuse(self, error: IllegalMove) -> bool:
        self.message, self.message_kind = f"Refused by {error.rule}: {error.message}", "error"
        self.redraw()
        return False

    def _settle(self) -> list[tuple[int | None, Any]]:
        """Resolve chance nodes with the seeded generator, then let computer players take their turns; returns
        the computer players' moves as (player, move)."""
        played: list[tuple[int | None, Any]] = []
        for _ in range(100_000):
            state = self.state
            if self.game.outcome(state) is not None:
                return played
            outcomes = self.game.chance_outcomes(state)
            if outcomes:
                self.states[-1] = self.game.apply(state, pick(outcomes, self.rng))
                continue
            player = self.current_player(state)
            bot = self.bots.get(player)
            if bot is None:
                return played
            move = bot(state, self.rng)
            self.states.append(self.game.apply(state, move))
            played.append((self._mover(state), move))
        raise RuntimeError("computer players did not finish their turns")

    def replies(self, played: list[tuple[int | None, Any]], shown: int = 2) -> str:
        """What the computer players did after a person's move, for the status line (a long series is counted)."""
        if not played:
            return ""
        if len(played) <= shown:
            return "".join(f"; then {self.describe_player(player)}: {self.move_text(move)}" for player, move in played)
        return f"; then the computer players made {len(played)} moves (the log lists them, newest first)"

    def undo(self) -> None:
        """Go back to the state before the last move of a person (computer moves are undone with it)."""
        if len(self.states) == 1:
            self.message, self.message_kind = "Nothing to undo.", "info"
        else:
            self.states.pop()
            while len(self.states) > 1 and self.current_player(self.state) in self.bots:
                self.states.pop()
            self.message, self.message_kind = "Took back the last move.", "info"
        self.redraw()

    def start(self) -> Table:
        """Let computer players move if one of them begins, then draw."""
        self._settle()
        self.redraw()
        figure = getattr(self, "figure", None)
        if figure is not None:
            settle_figure(figure)
        return self

    # -- to override ---------------------------------------------------------------------------
    def current_player(self, state: Any) -> int | None:
        return getattr(state, "player", None)

    def _mover(self, state: Any) -> int | None:
        return self.current_player(state)

    def describe_player(self, player: int | None) -> str:
        return "Chance" if player is None else f"Player {player + 1}"

    def move_text(self, move: Any) -> str:
        """A move in the words the board uses (the engine's own words unless the board names places otherwise)."""
        return str(move)

    def prompt(self) -> str:
        """What the player to move should do next (one line)."""
        return ""

    def draw(self) -> None:
        """Bring the game's own board and controls up to date with ``self.state``."""

    def result_text(self) -> str:
        """The result of a finished game in words, with the scores when the game keeps them."""
        result = self.game.outcome(self.state)
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

    # -- drawing -------------------------------------------------------------------------------
    def redraw(self) -> None:
        """Draw the position; once the game is over every move control is switched off."""
        for control in self._frozen:
            control.disabled = False
        self._frozen = []
        self.status.value = self.status_html()
        self.draw()
        if self.finished:
            for control in self.move_controls():
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
        colour = {"error": "#b00020", "info": "#1b5e20"}[self.message_kind]
        lines = [f"<b>{html.escape(self.prompt())}</b>"]
        if self.message:
            lines.append(f"<span style='color:{colour}'>{self.status.linked(self.message)}</span>")
        return "<div style='font-size:14px;line-height:1.4'>" + "<br>".join(lines) + "</div>"

    def log_html(self, history: list[Any], limit: int = 40) -> str:
        """The last moves, numbered, newest first: the move just played is the one a player looks for."""
        rows = [self.status.linked(self.move_text(move)) for move in history[-limit:]]
        first = len(history) - len(rows) + 1
        items = "".join(f"<li value='{first + i}'>{row}</li>" for i, row in reversed(list(enumerate(rows))))
        return f"<ol reversed style='margin:0;padding-left:2.5em;font-size:12px'>{items}</ol>"
