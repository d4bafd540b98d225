"""Issue 48.1 in the browser: saves of 3,000 and 100,000 nested brackets, uploaded with the Load button of the website
(the app in the browser's own Python, Pyodide), are refused in words and leave the game as it was; a good save loaded
after them continues. Before the fix the first of them killed the page's Python ("Maximum call stack size exceeded"):
the page answered nothing more. The site is served and opened as tests/e2e/test_site.py does."""

from __future__ import annotations

import random
from pathlib import Path

from rulebook import core, registry
from rulebook.app import moves_played

from .conftest import SHOTS
from .test_site import BOARD, ERROR, HEIGHT, WIDTH, Traffic, load, open_page

GAME = "claim"
DEPTHS = (3_000, 100_000)


def good_save(folder: Path) -> tuple[Path, int]:
    """A save of a few moves of the game, written as the Save button writes it, and the moves its log counts."""
    declared = registry.game(GAME)
    engine, rng = declared.engine, random.Random(3)
    state = declared.new_state(declared.default_players, 3)
    for _ in range(6):
        outcomes = engine.chance_outcomes(state)
        state = engine.apply(state, core.pick(outcomes, rng) if outcomes else rng.choice(engine.legal_moves(state)))
    path = folder / f"{GAME}-good.json"
    path.write_text(engine.to_json(state), encoding="utf-8")
    return path, moves_played(engine, state)


def test_deep_saves_are_refused_in_words_and_a_good_save_then_loads(chromium, server, tmp_path):
    context = chromium.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    traffic = Traffic(server)
    traffic.watch(context)
    try:
        page, frame, _seconds = open_page(context, f"{server}/{GAME}/", BOARD)
        app = frame.locator(".rulebook-app").first
        try:
            for depth in DEPTHS:
                deep = tmp_path / f"deep-{depth}.json"
                deep.write_text("[" * depth + "]" * depth, encoding="utf-8")
                load(page, frame, deep)
                frame.locator(".rulebook-app", has_text=f"Could not load {deep.name}").first.wait_for(timeout=60_000)
                text = app.inner_text()
                assert f"nested too deeply ({depth:,} levels; a saved game needs at most {core.MAX_DEPTH})" in text
                assert "The game on the board is unchanged" in text
                assert frame.locator(ERROR).count() == 0, frame.locator(ERROR).first.inner_text()[-2000:]
            page.screenshot(path=SHOTS / "site-deep-json-refused.png")
            saved, moves = good_save(tmp_path)
            load(page, frame, saved)
            notice = frame.locator(".rulebook-app", has_text=f"Loaded {saved.name}").first
            notice.wait_for(timeout=60_000)
            assert f"the game continues after move {moves}" in notice.inner_text()
            assert f"loaded from {saved.name}" in app.inner_text()
            frame.locator(BOARD).first.wait_for(timeout=60_000)
            assert frame.locator(ERROR).count() == 0
            page.screenshot(path=SHOTS / "site-deep-json-then-loaded.png")
        except BaseException:
            page.screenshot(path=SHOTS / "site-deep-json-failed.png")
            raise
        traffic.check("deep saves, then a good one")
    finally:
        context.close()
