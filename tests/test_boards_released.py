"""Boards replaced by New game or Load are freed (issue 48.2): a page's kernel kept every board it had shown, and grew
about 0.5 MiB a game. anywidget (0.11) connects each widget whose code is a file to that file's "changed" signal (for
hot reload), with a function holding the widget; the view kit's close_widgets undoes it."""

from __future__ import annotations

import gc
import tracemalloc
import weakref

import pytest

from rulebook import registry
from rulebook.app import App
from rulebook.view import figures
from rulebook.view.table import Table, close_widgets

NEW_GAMES = 20
LOADS = 3


def _alive_tables() -> int:
    gc.collect()
    return sum(1 for thing in gc.get_objects() if isinstance(thing, Table))


@pytest.mark.parametrize("game", registry.names())
def test_replaced_boards_are_freed(game: str) -> None:
    """After 20 New games and 3 Loads no replaced board is left alive: only the one on the board."""
    app = App(game, seed=1)
    replaced: list[weakref.ref[Table]] = []
    for _ in range(NEW_GAMES):
        assert app.board is not None
        replaced.append(weakref.ref(app.board))
        assert app.new_game()
    assert app.board is not None
    name, text = app.saved()
    for _ in range(LOADS):
        assert app.board is not None
        replaced.append(weakref.ref(app.board))
        assert app.load(name, text.encode())
    gc.collect()
    alive = [ref for ref in replaced if ref() is not None]
    assert not alive, f"{game}: {len(alive)} of {len(replaced)} replaced boards still alive"
    close_widgets(app)


def test_tables_alive_stay_constant_over_new_games() -> None:
    """The count of live boards stays the same over 30 New games (it grew by one a game); the memory they took is
    measured (not asserted) for the report."""
    app = App("claim", seed=1)
    app.new_game()
    before = _alive_tables()
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    for _ in range(30):
        app.new_game()
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    print(f"claim: {grown / 30 / 1024:.1f} KiB traced growth per New game")
    # never more boards alive than before (fewer when boards that earlier tests in this process left to the
    # collector are freed meanwhile: the count is the process's, not this app's)
    assert _alive_tables() <= before
    close_widgets(app)


def test_closed_anywidget_is_freed() -> None:
    """A closed anywidget whose code is a file (a board's figure) is freed: the file's signal no longer holds it."""
    view = figures.BoardView()
    reference = weakref.ref(view)
    close_widgets(view)
    del view
    gc.collect()
    assert reference() is None
