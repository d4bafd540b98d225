"""The app's "Who is winning?" tab: each seat's estimated chance to win from the live position on request (in words
and as a bar), and a small chart of how the estimate changed over the game, computed in the background.

The estimates are :func:`rulebook.estimate.estimate`'s. The chart's points are computed after moves in one worker
thread with a small CPU budget each (``CHART_CPU``, the worker's own CPU), the newest position first, so a move never
waits for them; a result for a position that is no longer in the game (a new game, an undo followed by another move)
is dropped. The panel reads the board's session through its public API only (``states``, ``live``,
``current_player``, ``bots``).

Whose knowledge the playouts have (:func:`viewer_of`): the seat of the person whose turn it is, when a person plays it,
so the tab tells a player no more than they may know; else an onlooker's (what is public).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from rulebook.play import estimate as estimates
from rulebook.view import figures, markup

CHART_CPU = 0.5  # seconds of CPU for each point of the chart
CHART_PLAYOUTS = 60  # the most playouts for each point of the chart
CHART_POSITIONS = 40  # the chart follows at most this many of the newest positions
QUIET = 0.4  # seconds after the last redraw before the worker starts: a click and its replies run alone
PAUSE = 0.1  # seconds the worker rests between two points, leaving the kernel to the page
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")  # seats told apart in grey-scale too
SEED = 0


def viewer_of(session: Any, state: Any) -> int | None:
    """The estimate's viewer for ``state`` of ``session``: the seat to move if a person plays it, else None (an
    onlooker, who knows only what is public)."""
    try:
        seat = session.current_player(state)
    except (AttributeError, TypeError, ValueError):
        return None
    if isinstance(seat, int) and not isinstance(seat, bool) and seat not in getattr(session, "bots", {}):
        return seat
    return None


def _rows(result: estimates.Estimate) -> list[dict[str, Any]]:
    return [
        {
            "name": seat.name,
            "value": f"{seat.chance:.3f}",
            "percent": f"{seat.chance * 100:.0f} %" if seat.playouts and seat.enough else "-",
            "words": seat.words().partition(": ")[2],
        }
        for seat in result.seats
    ]


def estimate_html(result: estimates.Estimate | None, waiting: str = "") -> str:
    """The tab's text: the estimate's rows (words and a bar per seat) and its notes, or ``waiting``."""
    if result is None:
        return markup.render("estimate.html", waiting=waiting or "Press the button to estimate.", rows=[], notes=[])
    if not result.exact and not all(seat.enough for seat in result.seats):
        return markup.render(
            "estimate.html",
            waiting=f"Not enough time for an estimate: {result.playouts} playouts finished "
            f"in {result.cpu:.1f} s of CPU, and a number needs at least {estimates.MIN_PLAYOUTS} "
            "(fewer give a 95 % interval wider than half the scale). Press again when the computer is less busy.",
            rows=[],
            notes=[],
        )
    heading = "The game is over" if result.exact else "Each player's chance to win (an estimate)"
    notes = [note for note in result.notes() if note != result.assumes]
    return markup.render(
        "estimate.html",
        waiting="",
        heading=heading,
        rows=_rows(result),
        notes=notes,
        over=result.exact,
        assumes=result.assumes,
    )


def whole_step(moves: list[int]) -> int:
    """A whole number of moves between two ticks of the chart's axis (1, 2, 5, 10, 20, ...), at most 8 ticks: a
    move number is whole, never 2.5."""
    span = max(moves) - min(moves) if moves else 0
    step = 1
    while span / step > 8:
        step = step * 5 // 2 if str(step)[0] == "2" else step * 2
    return step


def moves_before(session: Any) -> int:
    """The moves played before the session's first position, as the log counts them (a loaded game starts after
    them); 0 when they cannot be told."""
    from rulebook.app.files import moves_played

    try:
        return moves_played(session.game, session.states[0])
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):
        return 0


def history_figure(points: dict[int, estimates.Estimate], names: list[str], first: int = 0) -> Any:
    """How the estimate changed over the game: one line per seat, the move number across (``first`` is the move
    number of the position of index 0: a loaded game's chart starts where the game does), the chance up (%), the
    95 % interval in the hover."""
    import plotly.graph_objects as go

    figure = go.Figure()
    shown = sorted(points)
    for seat, name in enumerate(names):
        rows = [points[index].seats[seat] for index in shown]
        figure.add_trace(
            go.Scatter(
                x=[first + index for index in shown],
                y=[round(row.chance * 100, 1) for row in rows],
                customdata=[[round(row.low * 100), round(row.high * 100), row.playouts] for row in rows],
                name=name,
                mode="lines+markers",
                line={"dash": DASHES[seat % len(DASHES)]},
                hovertemplate=f"{name}: %{{y:.0f}} % after move %{{x}}"
                "<br>95 % interval %{customdata[0]} to %{customdata[1]} % (%{customdata[2]} playouts)<extra></extra>",
            )
        )
    figure.update_layout(
        title={"text": "Chance to win over the game (estimates)", "x": 0.5, "font": {"size": 12}},
        height=230,
        width=340,
        template="plotly_white",
        xaxis_title="move",
        xaxis={"tickmode": "linear", "tick0": 0, "dtick": whole_step([first + i for i in shown]), "tickformat": "d"},
        yaxis_title="chance to win (%)",
        yaxis_range=[0, 100],
        legend={"orientation": "h", "y": -0.35, "font": {"size": 10}},
        margin={"l": 45, "r": 8, "t": 30, "b": 40},
        font={"size": 10},
    )
    return figure


class EstimatePanel(widgets.VBox):
    """The tab: a "Who is winning?" button over the estimate of the live position, and, from the first request on,
    the chart over the game.

    ``board()`` gives the board the app shows (or None); the app calls :meth:`board_changed` after every redraw of
    it, which asks the worker for the chart's new points."""

    title = "Winning?"

    def __init__(self, board: Callable[[], Any], *, seed: int = SEED, cpu: float = estimates.CPU) -> None:
        self.board = board
        self.seed = seed
        self.cpu = cpu
        self.button = widgets.Button(
            description="Who is winning?",
            icon="balance-scale",
            tooltip=f"Plays the position out many times with the strongest computer players (at most {cpu:g} s)",
            layout=widgets.Layout(width="160px"),
        )
        self.button.add_class("rulebook-who-is-winning")
        self.button.on_click(lambda _: self.estimate_now())
        self.text = widgets.HTML(estimate_html(None))
        self.chart: figures.ChartView | None = None  # made at the first request: a page nobody asks costs nothing
        self.chart_note = widgets.HTML()
        self.points: dict[int, estimates.Estimate] = {}  # the chart's estimates, by position index
        self._skipped: set[int] = set()  # positions with no estimate to draw (refused): not asked again
        self._changed_at = 0.0  # time.monotonic() of the last redraw
        self._followed: Any = None  # the board whose positions ``points`` belong to
        self._first = 0  # the move number of that board's first position (a loaded game's)
        self._states: list[Any] = []  # that board's positions when last seen (to tell a stale result)
        self._lock = threading.Lock()
        self._drawing = threading.Lock()  # the chart is drawn from the page's thread and the worker's
        self._wanted = threading.Condition(self._lock)
        self._worker: threading.Thread | None = None
        self._idle = threading.Event()
        self._idle.set()
        super().__init__([self.button, self.text])
        self.add_class("rulebook-estimate")

    # -- on request ------------------------------------------------------------------------------------------
    def estimate_now(self) -> estimates.Estimate | None:
        """Estimate the live position now (at most ``cpu`` seconds) and show it; a message instead of a traceback."""
        board = self.board()
        if board is None:
            self.text.value = estimate_html(None, "There is no game on the board.")
            return None
        self.button.disabled = True  # the page says at once that the estimate is under way
        self.text.value = estimate_html(None, f"Playing the position out (at most {self.cpu:g} s) ...")
        try:
            session = board.session
            live = session.live
            result = estimates.estimate(
                live, seed=self.seed, playouts=estimates.PLAYOUTS, cpu=self.cpu, viewer=viewer_of(session, live)
            )
        except ValueError as error:
            self.text.value = estimate_html(None, f"No estimate: {error}")
            return None
        finally:
            self.button.disabled = False
        self.text.value = estimate_html(result)
        if self.chart is None:  # from now on the chart follows the game
            self.chart = figures.ChartView(history_figure({}, []))
            self.chart.layout.width = "100%"
            self.chart_note.value = markup.render(
                "estimate.html", waiting="The chart fills in after each move.", rows=[], notes=[]
            )
            self.children = (self.button, self.text, self.chart, self.chart_note)
            self.board_changed(board)
        return result

    # -- in the background -------------------------------------------------------------------------------
    def board_changed(self, board: Any) -> None:
        """After a redraw: note the board's positions and wake the worker for the ones the chart lacks (once the
        chart has been asked for)."""
        if self.chart is None:
            return
        states = list(board.session.states)
        with self._lock:
            if board is not self._followed:
                self._followed, self.points, self._skipped = board, {}, set()
                self._first = moves_before(board.session)
            else:  # positions replaced (an undo, then other moves) lose their points
                keep = min(len(states), len(self._states))
                first_changed = next((i for i in range(keep) if states[i] is not self._states[i]), keep)
                self.points = {i: e for i, e in self.points.items() if i < first_changed}
                self._skipped = {i for i in self._skipped if i < first_changed}
            self._states = states
            self._changed_at = time.monotonic()
            self._idle.clear()
            self._wanted.notify()
        self._redraw_chart()
        if self._worker is None:
            self._worker = threading.Thread(target=self._work, name="rulebook-estimate", daemon=True)
            self._worker.start()

    def _next(self) -> tuple[Any, int, Any] | None:
        """The newest position of the followed board the chart lacks (under the lock), or None."""
        states = self._states
        for index in range(len(states) - 1, max(-1, len(states) - 1 - CHART_POSITIONS), -1):
            if index not in self.points and index not in self._skipped:
                return self._followed, index, states[index]
        return None

    def _work(self) -> None:
        while True:
            with self._lock:
                job = self._next()
                while job is None:
                    self._idle.set()
                    self._wanted.wait()
                    job = self._next()
            board, index, state = job
            quiet = self._changed_at + QUIET - time.monotonic()
            if quiet > 0:  # moves are being played: wait for the board to be still, then look again
                time.sleep(quiet)
                continue
            try:
                result = estimates.estimate(
                    state,
                    seed=self.seed,
                    playouts=CHART_PLAYOUTS,
                    cpu=CHART_CPU,
                    viewer=viewer_of(board.session, state),
                )
            except ValueError:
                result = None
            with self._lock:
                stale = board is not self._followed or index >= len(self._states) or self._states[index] is not state
                if not stale and result is not None and all(seat.enough for seat in result.seats):
                    self.points[index] = result
                elif not stale:
                    self._skipped.add(index)
            if not stale:
                self._redraw_chart()
            time.sleep(PAUSE)

    def wait(self, timeout: float = 30.0) -> bool:
        """Wait until the worker has every point it was asked for (for tests and scripts); False on timeout."""
        return self._idle.wait(timeout)

    def _redraw_chart(self) -> None:
        with self._lock:
            points = dict(self.points)
        if not points or self.chart is None:
            return
        with self._drawing:
            self._draw(points)

    def _draw(self, points: dict[int, estimates.Estimate]) -> None:
        assert self.chart is not None  # _redraw_chart draws only a chart that was made
        names = [seat.name for seat in next(iter(points.values())).seats]
        self.chart.plot = history_figure(points, names, self._first)
        newest = points[max(points)]
        move = self._first + max(points)
        self.chart.description = f"Chance to win after move {move} (estimates): " + "; ".join(
            seat.words() for seat in newest.seats
        )
        self.chart.draw()
        self.chart_note.value = markup.render(
            "estimate.html",
            waiting=f"Each point: {CHART_PLAYOUTS} playouts at most, {CHART_CPU:g} s of CPU at most; "
            f"the newest, after move {move}: {newest.policy}.",
            rows=[],
            notes=[],
        )
