"""How the suite runs in parallel: `make test` hands the tests to pytest-xdist workers (``-n auto --dist loadgroup``).

A test goes to whichever worker is free, except where tests share something that must not be split: a notebook's
cells (nbval runs them in order in one kernel) are one unit, and so are the tests of a module that defines a
fixture living longer than one test (a built wheel and a fresh venv, played games, apps, a built site), which is
then built once rather than on every worker. The units are made here, from the test ids, by a scheduler that
extends xdist's loadgroup one (whose ``xdist_group`` marks it still honours): with pytest 9.2 xdist's own grouping
of marks into test ids no longer takes effect (pytest-xdist issue 1386), and nbval cells split over two workers
each run without the cells before them. Run without ``-n``, nothing here changes anything."""

from __future__ import annotations

import re
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


def unit_of(nodeid: str) -> str:
    """The unit of work a test id belongs to: its notebook, its module if the module shares a fixture, else itself."""
    path = nodeid.split("::", 1)[0]
    if path.endswith(".ipynb") or path in shared_modules():
        return path
    return nodeid


def pytest_xdist_make_scheduler(config: pytest.Config, log):  # noqa: ANN001, ANN201 (xdist's types)
    """With ``--dist loadgroup``: xdist's loadgroup scheduling over :func:`unit_of`'s units."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class Units(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            grouped = super()._split_scope(nodeid)  # an xdist_group mark, where pytest lets xdist put it in the id
            return grouped if grouped != nodeid else unit_of(nodeid)

    return Units(config, log)
