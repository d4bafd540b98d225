"""The load test of ``make bench`` (rulebook.loadtest) is bounded and says why it did not run (make bench runs it)."""

from __future__ import annotations

import sys
import types

import pytest

from rulebook import loadtest


def test_the_load_test_is_bounded_in_pages(monkeypatch):
    # `make test` has no playwright (the browser extra): one_size imports it before it checks the number of pages
    monkeypatch.setitem(sys.modules, "playwright.sync_api", types.SimpleNamespace(sync_playwright=None))
    with pytest.raises(ValueError, match="pages: 1 to 16, not 17"):
        loadtest.one_size("claim", 17)
    assert max(loadtest.SIZES) <= loadtest.MAX_PAGES


def test_without_a_browser_the_load_test_says_why_it_did_not_run(monkeypatch):
    monkeypatch.setattr(loadtest, "CHROMIUM", "/nonexistent/chromium")
    why = "not run: /nonexistent/chromium is missing (make e2e installs Debian's chromium)"
    assert loadtest.figures() == {"load test": why}
