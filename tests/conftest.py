"""How the suite runs in parallel: `make test` hands the tests to pytest-xdist workers (``-n auto --dist loadgroup``).

A test goes to whichever worker is free, except where tests share something that must not be split: a notebook's
cells (nbval runs them in order in one kernel) are one unit, and so are the tests of a module that defines a
fixture living longer than one test (a built wheel and a fresh venv, played games, apps, a built site), which is
then built once rather than on every worker. The units are made here, from the test ids, by a scheduler that
extends xdist's loadgroup one (whose ``xdist_group`` marks it still honours): with pytest 9.2 xdist's own grouping
of marks into test ids no longer takes effect (pytest-xdist issue 1386), and nbval cells split over two workers
each run without the cells before them. Run without ``-n``, nothing here changes anything.

The units go out longest first (:data:`LONGEST`, measured, then the notebooks and shared modules by their number of
tests, then the single tests in collection order): a long unit handed out last leaves the other worker idle while it
runs, which on two cores was most of a run's tail."""

from __future__ import annotations

import gc
import re
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# a fixture defined in a test module with a scope longer than one test; the conftest fixtures are per worker anyway
SHARED_FIXTURE = re.compile(r"""@pytest\.fixture\([^)]*scope\s*=\s*["'](class|module|package|session)["']""")


@cache
def shared_modules() -> frozenset[str]:
    """The test modules (ids relative to the checkout) that define a fixture shared between their tests."""
    return frozenset(
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests").rglob("test_*.py")
        if SHARED_FIXTURE.search(path.read_text(encoding="utf-8"))
    )


# CPU-heavy units (a test id or a module, as in the test ids), the longest first: measured with --durations on two
# workers (issue 29.4); a new slow test that is not listed still runs, only perhaps later than it could
LONGEST = (
    "tests/test_numpy_optional.py::test_without_numpy_every_notebook_game_board_and_app_shows_the_same",
    "tests/test_install.py",
    "tests/test_kingdom_builder_strong.py::test_strong_beats_greedy_in_a_small_study",
    "tests/test_meetjesland_marks.py::test_every_redraw_of_a_whole_game_keeps_its_texts_clear",
    "tests/test_meetjesland_strong.py::test_it_is_stronger_than_the_greedy_player_over_thirty_fixed_games",
    "tests/test_voila_app.py::test_a_class_is_let_in_told_to_wait_or_told_the_server_is_full_and_closed_pages_free_their_kernels",
    "notebooks/meetjesland.ipynb",
    "notebooks/claim.ipynb",
    "tests/test_registry.py::test_no_game_package_imports_the_shell",
    "notebooks/ab_die_post.ipynb",
    "notebooks/kingdom_builder.ipynb",
    "tests/test_meetjesland_widget.py",
    "tests/test_markup.py",
)


def unit_order(units: dict[str, dict[str, bool]]) -> list[str]:
    """The units (scope: its test ids) in the order they are handed out: :data:`LONGEST` first, in its order, then the
    units of several tests (notebooks, shared modules) by size, then the rest as collected."""
    rank = {unit: place for place, unit in enumerate(LONGEST)}
    listed = sorted((unit for unit in units if unit in rank), key=rank.__getitem__)
    rest = [unit for unit in units if unit not in rank]
    grouped = sorted((unit for unit in rest if len(units[unit]) > 1), key=lambda unit: -len(units[unit]))
    single = [unit for unit in rest if len(units[unit]) == 1]
    return listed + grouped + single


def unit_of(nodeid: str) -> str:
    """The unit of work a test id belongs to: its notebook, its module if the module shares a fixture, else itself."""
    path = nodeid.split("::", 1)[0]
    if path.endswith(".ipynb") or path in shared_modules():
        return path
    return nodeid


@pytest.hookimpl(optionalhook=True)  # a hook of xdist: pytest -p no:xdist runs without it
def pytest_xdist_make_scheduler(config: pytest.Config, log):  # noqa: ANN001, ANN201 (xdist's types)
    """With ``--dist loadgroup``: xdist's loadgroup scheduling over :func:`unit_of`'s units."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class Units(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            grouped = super()._split_scope(nodeid)  # an xdist_group mark, where pytest lets xdist put it in the id
            return grouped if grouped != nodeid else unit_of(nodeid)

        def _assign_work_unit(self, node) -> None:  # noqa: ANN001 (xdist's type)
            if not getattr(self, "_ordered", False):  # the first assignment: the queue is whole, put it in order
                units = dict(self.workqueue)
                self.workqueue.clear()
                for unit in unit_order(units):
                    self.workqueue[unit] = units[unit]
                self._ordered = True
            super()._assign_work_unit(node)

    return Units(config, log)


# The garbage collector in the test processes (the notebooks' kernels are processes of their own and keep Python's
# defaults): a young collection every 50,000 allocations rather than 700, and fewer of the full ones. A test process
# builds hundreds of boards and apps, each of tens of thousands of objects, and with the defaults walked them again
# and again. Measured side by side (one process each, at once): test_app, test_exercises and test_ab_die_post_widget
# took 49.6-49.9 s of CPU with these against 53.8-55.2 s with the defaults (0.91x); the whole of make test 140 s of
# tests against 156 s, run one after the other (issue 29.4). Cycles are still collected; those three modules' peak
# memory was 558 MB, not 551.
GC_THRESHOLDS = (50_000, 20, 100)


def pytest_configure(config: pytest.Config) -> None:
    """Set :data:`GC_THRESHOLDS` in this process (the controller and each xdist worker run this hook)."""
    gc.set_threshold(*GC_THRESHOLDS)


@pytest.fixture(autouse=True)
def _close_the_widgets_a_test_opened():
    """After each test, close the widgets it opened (its boards, apps and explorers), as a page closing does: a
    worker kept them all open otherwise (45,676 after the 350 tests of test_app, test_exercises and
    test_ab_die_post_widget), and every board built later paid for them (ui.build's look at the open widgets, the
    garbage collector's walks): those three modules took 0.90x the CPU with them closed, measured side by side.

    Widgets of a fixture living longer than the test are made before this fixture starts and stay open; a test that
    counts open widgets counts within itself. Nothing is imported here for a test that opened no widget."""
    before = set(_open_widgets()) if "ipywidgets" in sys.modules else set()
    yield
    if "ipywidgets" in sys.modules:
        from rulebook.ui import close_widgets

        close_widgets(*[widget for key, widget in _open_widgets().items() if key not in before])


def _open_widgets() -> dict:
    """ipywidgets' open widgets by model id (rulebook.ui's reading of them)."""
    from rulebook.ui import _open_widgets as open_widgets

    return open_widgets()
