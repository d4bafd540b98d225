"""Issue 48.9 in Chromium at 1280x800: Meetjesland's chain planner stands beside the map in the app's Odds tab (its
"Plan a path" button within the map's height, right of it), not a screen below it; a path clicked on the map while
planning is drawn and numbered."""

from __future__ import annotations

import time

from .conftest import SHOTS
from .test_app import open_app

MAP = ".rulebook-app .rulebook-board .rulebook-figure svg"


def test_the_chain_planner_stands_beside_the_map(browser, apps):
    page, _ = open_app(browser, apps, "meetjesland")
    try:
        page.locator(".rulebook-app .lm-TabBar-tab", has_text="Odds").first.click()
        explorer = page.locator(".rulebook-app .rulebook-explorer").first
        explorer.wait_for(state="visible", timeout=60_000)
        explorer.locator(".widget-toggle-button", has_text="Chain planner").first.click()
        plan = explorer.locator("button", has_text="Plan a path on the map").first
        plan.wait_for(state="visible", timeout=30_000)
        time.sleep(0.5)
        drawn, button = page.locator(MAP).first.bounding_box(), plan.bounding_box()
        assert drawn is not None and button is not None
        assert button["x"] >= drawn["x"] + drawn["width"] - 1, (button, drawn)  # beside the map, right of it
        assert drawn["y"] <= button["y"] and button["y"] + button["height"] <= drawn["y"] + drawn["height"], (
            button,
            drawn,
        )
        assert button["y"] + button["height"] <= 800  # in the first screen: no scrolling to reach it
        page.screenshot(path=SHOTS / "meetjesland-planner-beside-the-map.png")
    finally:
        page.close()
