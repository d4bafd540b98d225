"""The class server's load test with real pages (issue 45.6, ``make e2e``'s shorter run): 12 scripted seats on four
tables and 2 Chromium pages, each joining a table of its own through the students' page and playing by clicks. What
is asserted is what the run finds (nothing lost or played twice, every seat and page at its table's last move, every
page showing its table's status within 10 s), never its timings."""

from __future__ import annotations

import concurrent.futures

import pytest

from rulebook.tools import class_load

pytestmark = pytest.mark.xdist_group("class_server")


def test_two_pages_and_twelve_scripted_seats_lose_nothing():
    if not class_load.chromium():
        pytest.fail("Debian's chromium-headless-shell is missing: `make e2e` installs it")
    # its own thread and event loop: the session's Playwright (the other browser tests' fixtures) keeps its own
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        report = worker.submit(class_load.run, tables=4, seats_per_table=3, browsers=2, moves=8, seed=11).result()
    assert (report.tables, report.seats, report.browsers) == (4, 12, 2)
    assert report.moves_played == 4 * 8
    assert (report.lost, report.duplicated, report.backwards) == (0, 0, 0)
    assert report.seats_at_final == 14  # 12 scripted seats and the 2 pages
    assert report.pages_with_status == 2 and report.page_status_seconds <= class_load.STATUS_SECONDS
    assert report.page_moves >= 2  # each page played by clicking
    assert report.problems == [] and report.correct
    assert report.latency_samples == 4 * 8 * 2
