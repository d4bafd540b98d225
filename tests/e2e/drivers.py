"""How a person plays one real move on each game's rendered board (clicks on the page only).

Where a click needs to know the position (which territory is whose), the driver rebuilds the notebook's game in
Python from the same seed: the notebook shows the same game on every run."""

from __future__ import annotations

import time


def click_point(board, trace: int, point: int) -> None:
    """Click the centre of one marker of a scatter trace of the board's figure."""
    marker = board.locator(".js-plotly-plot .scatterlayer .trace").nth(trace).locator("path.point").nth(point)
    box = marker.bounding_box()
    assert box is not None, f"marker {point} of trace {trace} is not drawn"
    board.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    time.sleep(0.8)


def button(board, label: str):
    return board.locator(f"button:has-text('{label}')").first


def meetjesland(page, board) -> None:
    """Auto-place the starting points, click an own territory and an enemy neighbour, attack, and see the dice."""
    from rulebook import meetjesland as mj
    from rulebook.meetjesland.widget import Board

    table = Board(mj.new_game(players=4, seed=1), seed=1, computer=(1, 2, 3))  # the notebook's game
    table.auto_button.click()
    state = table.state
    origin, target = next(
        (o, t) for o in state.territories_of(0) if state.points_on(o) >= 2
        for t in state.board.neighbours[o] if state.owner_of(t) != 0
    )
    button(board, "Auto-place").click()
    board.locator(".widget-html", has_text="White's turn").first.wait_for(timeout=30_000)
    index = state.board.index
    click_point(board, 5, index[origin])
    click_point(board, 5, index[target])
    board.locator(".widget-html", has_text="Chance to conquer").first.wait_for(timeout=30_000)
    button(board, "Attack").click()
    board.locator(".widget-html", has_text="🎲").first.wait_for(timeout=30_000)


DRIVERS = {"meetjesland": meetjesland}
