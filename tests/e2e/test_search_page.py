"""The website's rules search (issue 46.2) in a real browser: ``site/search/`` as `make site` writes it (index.json,
npm's lunr.min.js, search.js) beside a tiny page that includes the box as a rules page does, served by a plain static
server; a learner's question typed into the box brings the paragraph that answers it first."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulebook.search import site as search_site
from tests.helpers import free_port

from .conftest import SHOTS, stop, wait_for

ROOT = Path(__file__).resolve().parents[2]
PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Rules</title></head><body>
<h1>Rules</h1>
<div class="rulebook-search" data-game="{game}"></div><script src="../../search/search.js" defer></script>
</body></html>"""


@pytest.fixture()
def served(tmp_path):
    """The search folder and two pages (one game's, every game's), served on 127.0.0.1; the site's address."""
    try:
        search_site.write(tmp_path, cache=ROOT / ".site-cache" / "lunr")
    except SystemExit as error:
        pytest.skip(str(error))
    for folder, game in (("meetjesland", "meetjesland"), ("all", "")):
        (tmp_path / folder / "rules").mkdir(parents=True)
        (tmp_path / folder / "rules" / "index.html").write_text(PAGE.format(game=game), encoding="utf-8")
    port = free_port()
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(tmp_path)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for(f"{base}/search/search.js", server, seconds=30)
        yield base
    finally:
        stop(server)


def test_a_question_typed_in_the_box_shows_its_paragraph_first(served, browser):
    page = browser.new_page()
    try:
        page.goto(f"{served}/meetjesland/rules/")
        page.fill(".rulebook-search input", "can I attack across the water?")
        first = page.locator(".rulebook-search li").first
        first.wait_for(timeout=15_000)
        assert first.get_attribute("data-id") == "MJ-C2"
        assert "canal" in [word.lower() for word in first.locator("mark").all_inner_texts()]
        assert first.locator("a").first.get_attribute("href").endswith("/meetjesland/rules/#MJ-C2")
        assert "MJ-5.2" in first.locator(".rs-related").inner_text()  # related paragraphs beside the top hit
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "search_page.png"))
        page.fill(".rulebook-search input", "how many dice does the attacker roll")
        page.wait_for_function("document.querySelector('.rulebook-search li')?.dataset.id !== 'MJ-C2'", timeout=15_000)
        top = page.locator(".rulebook-search li").evaluate_all("items => items.slice(0, 3).map(i => i.dataset.id)")
        assert {"MJ-5.4", "MJ-5.3"} & set(top)
    finally:
        page.close()


def test_a_box_without_a_game_searches_every_game_and_takes_a_question_from_the_address(served, browser):
    page = browser.new_page()
    try:
        page.goto(f"{served}/all/rules/?q=can+a+tower+be+captured")
        page.locator(".rulebook-search li").first.wait_for(timeout=15_000)
        top = page.locator(".rulebook-search li").evaluate_all("items => items.slice(0, 3).map(i => i.dataset.id)")
        assert "CL-9.1" in top
        answer = page.locator(".rulebook-search li[data-id='CL-9.1']")
        assert "(claim)" in answer.inner_text()  # a box of every game says each result's game
        assert answer.locator("a").first.get_attribute("href").endswith("/claim/rules/#CL-9.1")
    finally:
        page.close()


def test_the_app_s_rules_tab_searches_and_a_result_opens_its_paragraph(browser, apps):
    from .test_app import open_app

    page, _ = open_app(browser, apps, "meetjesland")
    try:
        page.locator(".rulebook-app .lm-TabBar-tab", has_text="Rules").first.click()
        box = page.get_by_placeholder("Ask: can I attack across the water?")
        box.wait_for(timeout=30_000)
        box.fill("can I attack across the water?")
        box.press("Enter")
        result = page.locator(".rulebook-search-results a[data-rule='MJ-C2']").first
        result.wait_for(timeout=30_000)
        assert "canal" in page.locator(".rulebook-search-results mark").all_inner_texts()
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "app-search.png"))
        result.click()
        focus = page.locator(".rulebook-rules .rulebook-focus").first
        focus.wait_for(timeout=30_000)
        assert "MJ-C2" in focus.inner_text()
    finally:
        page.close()
