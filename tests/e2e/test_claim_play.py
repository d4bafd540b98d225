"""Claim played in the app in Chromium as a person plays it (issue 26.1, 26.6, 26.7): a saved battle is loaded, the Hint
is shown, and with its stars on the board a jump over two pieces is made by clicking the piece, then its first
landing, then the next one; then nine more moves. The board's figure, its players panel and its controls stay where
they were through the ten moves, no text of the board is smaller than 11 px, and no label lies over another label or
over a piece. Screenshots go to .e2e/claim-play-*.png."""

from __future__ import annotations

import random
import time

from rulebook import claim
from rulebook.claim import bots

from .conftest import SHOTS
from .drivers import button, claim_jump

WIDTH, HEIGHT = 1280, 800
BOARD = ".rulebook-app .rulebook-board .rulebook-figure svg .trace .point"
FIGURE = ".rulebook-app .rulebook-board .rulebook-figure"
PLAYERS = ".rulebook-app .rulebook-board .rulebook-players"
PLAY = ".rulebook-app .rulebook-board button:has-text('Play move')"
# seed 1's battle, after the greedy player's placement and removals: red to move, with a jump over two blue pieces
SEED = 1
JUMP = claim.Jump((2, 1), ((4, 1), (4, 3)))

# every text of the board with its rendered font size (SVG text scaled as drawn), leaf elements only
FONT_SIZES = """board => {
  const found = [];
  for (const element of board.querySelectorAll('*')) {
    const own = [...element.childNodes].some(node => node.nodeType === 3 && node.textContent.trim());
    if (!own || element.closest('.lm-mod-hidden, [hidden]')) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === 'hidden') continue;
    let size = parseFloat(getComputedStyle(element).fontSize);
    if (element instanceof SVGElement && element.getScreenCTM()) size *= element.getScreenCTM().a;
    found.push([element.textContent.trim().slice(0, 40), Math.round(size * 10) / 10]);
  }
  return found;
}"""

# the figure's labels (SVG text) and its pieces (the markers of the trace named "pieces"), as screen boxes
LABELS_AND_PIECES = """figure => {
  const box = element => { const r = element.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const labels = [...figure.querySelectorAll('svg text')].filter(t => t.textContent.trim())
    .map(t => [t.textContent.trim(), ...box(t)]);
  const layer = [...figure.querySelectorAll('svg g.trace')].find(g => g.dataset.name === 'pieces');
  const pieces = layer ? [...layer.querySelectorAll('path.point')].map(box) : [];
  return {labels, pieces};
}"""


def status(page) -> str:
    return page.locator(".rulebook-status").first.inner_text()


def places(page) -> dict[str, tuple[float, float, float, float]]:
    """Where the board's figure, its players panel and its Play move button are on the screen."""
    found = {}
    for name, selector in (("figure", FIGURE), ("players", PLAYERS), ("Play move", PLAY)):
        box = page.locator(selector).first.bounding_box()
        assert box is not None, f"the board's {name} is not drawn"
        found[name] = (round(box["x"], 1), round(box["y"], 1), round(box["width"], 1), round(box["height"], 1))
    return found


def overlapping(first, second, slack: float = 0.5) -> bool:
    """Whether two screen boxes (left, top, right, bottom) share more than ``slack`` pixels both ways."""
    return (
        min(first[2], second[2]) - max(first[0], second[0]) > slack
        and min(first[3], second[3]) - max(first[1], second[1]) > slack
    )


def on_piece(box, piece, slack: float = 0.5) -> bool:
    """Whether a label's screen box reaches into a piece, taken as the disc its marker's box holds."""
    centre_x, centre_y = (piece[0] + piece[2]) / 2, (piece[1] + piece[3]) / 2
    radius = max(piece[2] - piece[0], piece[3] - piece[1]) / 2
    nearest_x = min(max(centre_x, box[0]), box[2])
    nearest_y = min(max(centre_y, box[1]), box[3])
    return ((nearest_x - centre_x) ** 2 + (nearest_y - centre_y) ** 2) ** 0.5 < radius - slack


def check_legibility(page, when: str) -> None:
    """No text of the board under 11 px; no label of the figure over another, nor over a piece (a tower's own rook
    is inside its tower: that one is its mark, not a label)."""
    board = page.locator(".rulebook-app .rulebook-board").first
    small = [(text, size) for text, size in board.evaluate(FONT_SIZES) if size < 11]
    assert not small, f"{when}: text under 11 px: {small[:5]}"
    drawn = page.locator(FIGURE).first.evaluate(LABELS_AND_PIECES)
    labels = [(text, tuple(rest)) for text, *rest in drawn["labels"] if text != "\u265c"]
    pieces = [tuple(box) for box in drawn["pieces"]]
    assert len(labels) > 20 and pieces, (when, len(labels), len(pieces))
    over = [(a[0], b[0]) for i, a in enumerate(labels) for b in labels[i + 1 :] if overlapping(a[1], b[1])]
    assert not over, f"{when}: labels over each other: {over[:5]}"
    on_pieces = [text for text, box in labels if any(on_piece(box, piece) for piece in pieces)]
    assert not on_pieces, f"{when}: labels over pieces: {on_pieces[:5]}"


def test_claim_multi_jump_by_clicks_and_a_board_that_stays_put(browser, apps, tmp_path):
    start = bots.play_until_battle(claim.new_game(players=2, seed=SEED), random.Random(SEED))
    assert start.turn == 0 and JUMP in claim.legal_moves(start)
    saved = tmp_path / "claim-battle.json"
    saved.write_text(claim.to_json(start), encoding="utf-8")
    page = browser.new_page()
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    try:
        page.goto(apps("claim"), wait_until="commit", timeout=120_000)
        page.wait_for_selector(BOARD, timeout=180_000)
        with page.expect_file_chooser(timeout=30_000) as choosing:
            page.locator(".rulebook-app .rulebook-load").first.click()  # the Load button (load_button.js)
        choosing.value.set_files(str(saved))
        page.locator(".rulebook-app", has_text="Loaded claim-battle.json").first.wait_for(timeout=60_000)
        page.locator(".rulebook-status", has_text="click one of your pieces").first.wait_for(timeout=60_000)
        page.evaluate("() => window.scrollTo(0, 0)")
        time.sleep(1)
        page.screenshot(path=SHOTS / "claim-play-loaded.png")
        check_legibility(page, "the loaded battle")
        board = page.locator(".rulebook-app .rulebook-board").first
        first = places(page)
        seen = [first]
        # issue 26.1: the jump's clicks are made with the Hint shown: its stars lie on the points it names, B9 (the
        # piece that jumps) among them, and a click there must go through the star to the point
        page.locator(".rulebook-app .rulebook-hint").first.click()
        page.locator(".rulebook-status", has_text="Hint (").first.wait_for(timeout=60_000)
        stars = page.locator(f"{FIGURE} svg g.trace[data-name='suggested points'] path.point")
        stars.first.wait_for(timeout=30_000)
        page.mouse.move(2, 2)
        page.screenshot(path=SHOTS / "claim-play-hint.png")
        assert stars.count() == 2, stars.count()  # from and to
        claim_jump(page, board, start, JUMP, shots=SHOTS / "claim-play-jump")
        assert "Refused" not in status(page) and "is empty" not in status(page), status(page)
        page.evaluate("() => window.scrollTo(0, 0)")
        seen.append(places(page))
        check_legibility(page, "after the jump")
        computer = button(board, "Computer move")
        for number in range(2, 11):  # nine more moves of red's, each answered by blue
            if not computer.is_enabled():
                break
            before = status(page)
            computer.click()
            deadline = time.monotonic() + 30
            while status(page) == before and time.monotonic() < deadline:
                time.sleep(0.3)
            time.sleep(0.5)
            page.evaluate("() => window.scrollTo(0, 0)")
            seen.append(places(page))
            if number in (5, 10):
                page.screenshot(path=SHOTS / f"claim-play-move-{number}.png")
                check_legibility(page, f"after move {number}")
        assert len(seen) == 11, "the game ended before ten moves"
        for name in first:  # the figure never moves; the status line's room keeps the panel and controls put too
            moved = [(number, boxes[name]) for number, boxes in enumerate(seen) if boxes[name] != first[name]]
            assert not moved, f"the board's {name} moved (before the first move at {first[name]}): {moved}"
    finally:
        page.close()
