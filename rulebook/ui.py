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
import random
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go
import traitlets

from .core import IllegalMove, game_module, pick

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


class Table(widgets.VBox):
    """A game in play: the current state, earlier states for Undo, a log, and the controls around a board."""

    def __init__(self, state: Any, *, seed: int = 0, bots: Mapping[int, Bot] | None = None, **kwargs: Any) -> None:
        self.game = game_module(state)
        self.rng = random.Random(seed)
        self.bots: dict[int, Bot] = dict(bots or {})
        self.states: list[Any] = [state]
        self.message = ""
        self.message_kind = "info"
        self.status = widgets.HTML(layout=widgets.Layout(min_height="2.6em"))
        self.move_log = widgets.HTML(
            layout=widgets.Layout(max_height="14em", overflow="auto", border="1px solid #ccc", padding="2px 6px")
        )
        self.undo_button = widgets.Button(description="Undo", icon="undo", tooltip="Take back the last move")
        self.undo_button.on_click(lambda _: self.undo())
        super().__init__(**kwargs)

    # -- state -------------------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.states[-1]

    def play(self, move: Any) -> bool:
        """Try a move for the player to move; refused moves leave the state unchanged and explain why."""
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
        self.message, self.message_kind = f"{self.describe_player(self._mover(self.states[-2]))}: {move}", "info"
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
            return "".join(f"; then {self.describe_player(player)}: {move}" for player, move in played)
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

    def prompt(self) -> str:
        """What the player to move should do next (one line)."""
        return ""

    def redraw(self) -> None:
        self.status.value = self.status_html()

    # -- shared rendering ----------------------------------------------------------------------
    def status_html(self) -> str:
        colour = {"error": "#b00020", "info": "#1b5e20"}[self.message_kind]
        lines = [f"<b>{html.escape(self.prompt())}</b>"]
        if self.message:
            lines.append(f"<span style='color:{colour}'>{html.escape(self.message)}</span>")
        return "<div style='font-size:14px;line-height:1.4'>" + "<br>".join(lines) + "</div>"

    def log_html(self, history: list[Any], limit: int = 40) -> str:
        """The last moves, numbered, newest first: the move just played is the one a player looks for."""
        rows = [html.escape(str(move)) for move in history[-limit:]]
        first = len(history) - len(rows) + 1
        items = "".join(f"<li value='{first + i}'>{row}</li>" for i, row in reversed(list(enumerate(rows))))
        return f"<ol reversed style='margin:0;padding-left:2.5em;font-size:12px'>{items}</ol>"
