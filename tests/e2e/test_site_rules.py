"""The rules as the built website serves them (issue 46), on the plain static server the other site tests use: each
game's rules page answers a learner's question in its search box (lunr.js on the index `make site` wrote, the one
`rulebook.search.find` reads), links its FAQ page, its printed rulebook and its player aid (real PDF files), and the
game's page links its rules. The pages' own behaviour (anchors, copy, phones, offline) is tests/e2e/test_rules_pages.py
on pages written alone; this test is the build's."""

from __future__ import annotations

import urllib.request

import pytest

from rulebook import registry

from .conftest import SHOTS

# a question per game, as a player asks it, and the paragraphs that answer it (read in the rules by hand)
QUESTIONS = {
    "meetjesland": ("how many dice does the attacker roll", {"MJ-5.4", "MJ-5.3"}),
    "kingdom_builder": ("can I build next to a castle", {"KB-5.4", "KB-9.3", "KB-6.2"}),
    "ab_die_post": ("what if two planes want the same field", {"ADP-6.2"}),
    "claim": ("can a tower be captured", {"CL-9.1"}),
}


@pytest.mark.parametrize("game", registry.names())
def test_a_rules_page_of_the_built_site_searches_and_links_its_faq_and_pdfs(chromium, server, game):
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(f"{server}/{game}/rules/")
        question, expected = QUESTIONS[game]
        box = page.locator(".rulebook-search input").first
        box.wait_for(timeout=30_000)
        box.fill(question)
        hits = page.locator(".rulebook-search .rs-results > li")  # each hit a paragraph, best first
        hits.first.wait_for(timeout=30_000)
        shown = [hits.nth(n).get_attribute("data-id") for n in range(min(3, hits.count()))]
        assert set(shown) & expected, (question, shown, expected)
        page.screenshot(path=str(SHOTS / f"site-rules-search-{game}.png"))
        for kind in ("rules", "player-aid"):
            link = page.locator(f"a[href$='{game}-{kind}.pdf']").first
            assert link.count(), f"no link to {game}-{kind}.pdf"
            with urllib.request.urlopen(f"{server}/{game}/rules/{game}-{kind}.pdf", timeout=30) as response:
                assert response.read(5) == b"%PDF-"
        assert page.locator("a[href*='faq']").count()
        page.goto(f"{server}/{game}/")  # the game's page links its rules
        assert page.locator("a", has_text="Read the rules").count()
    finally:
        page.close()
