"""The guided first games in a real browser (issue 27.4): each of the four lessons (Claim, Ab die Post, Meetjesland,
Kingdom Builder) opened from the app's Learn tab and completed by clicks on the board, with one deliberate wrong move
on the way (a legal move that is not the step's: its explanation and the paragraph allowing it shown, nothing played),
then Back to your game. The time a scripted learner needs goes to .e2e/timings.md and
.e2e/tutorial_timings.md; screenshots to .e2e/app-GAME-tutorial-*.png."""

from __future__ import annotations

import time

import pytest

from .conftest import SHOTS
from .drivers import click_point, status
from .test_app import open_app, record

LESSON = ".rulebook-app .rulebook-learn"
LESSON_BOARD = f"{LESSON} .rulebook-board"
TEXT = f"{LESSON} .rulebook-tutorial"


def lesson_text(page) -> str:
    return page.locator(TEXT).first.inner_text()


def wait_for_text(page, words: str, seconds: float = 30) -> None:
    page.locator(TEXT, has_text=words).first.wait_for(timeout=seconds * 1000)


def claim_clicks(step) -> list[tuple[int, int]]:
    """The points a person clicks to make the step's move on Claim's board: a piece that has just captured stays in
    hand (CL-7.4), and a jump that could go on is ended with a click on its last landing point."""
    from rulebook.claim import widget

    move = step.move
    name = type(move).__name__
    if name in ("Place", "Remove", "PlaceTower"):
        return [move.point]
    held = step.state.follow_up == move.origin
    points = [] if held else [move.origin]
    if name == "Step":
        return [*points, move.destination]
    points.extend(move.path)
    if widget.jump_ends(step.state, move.origin, move.path):
        points.append(move.path[-1])
    return points


CLAIM_BUTTONS = {"Stop": "Stop", "Pass": "Pass"}  # a series ended, a turn with no piece that can move (CL-C10)


def claim_move(page, board, step) -> None:
    name = type(step.move).__name__
    if name in CLAIM_BUTTONS:
        press(board, CLAIM_BUTTONS[name])
        return
    where = {point: index for index, point in enumerate(step.state.island.points)}  # the territories' cells
    for point in claim_clicks(step):
        click_point(board, 0, where[point])


ADP_BUTTONS = {"DrawCard": "Draw a card", "Stop": "Stop drawing", "Fly": "Fly", "Stay": "Stay put"}


def ab_die_post_move(page, board, step) -> None:
    """Ab die Post's moves as a person makes them: a button, a click on the orange ring the route ends on, or the
    payment or the card to keep chosen in the list and Play choice (the same position on a board in Python says which
    ring, which label)."""
    from rulebook.ab_die_post import widget

    name = type(step.move).__name__
    if name in ADP_BUTTONS:
        board.locator(f"button:text-is('{ADP_BUTTONS[name]}')").first.click()
        return
    table = widget.Board(step.state, seed=0, computer={})
    try:
        if name == "Move":
            rings = list(table.target_trace.customdata)
            layer = [drawn.name for drawn in table.figure.plot.data].index("legal targets")
            click_point(board, layer, rings.index(step.move.path[-1]))
            return
        label = next(text for text, move in table.choice.options if move == step.move)
    finally:
        table.close()
    board.locator("select").first.select_option(label=label)
    time.sleep(0.5)
    board.locator("button", has_text="Play choice").first.click()


def board_state(game: str):
    """The position of the lesson's first step (the points' order of its board's cells)."""
    from rulebook import tutorial

    return tutorial.load(game).steps[0].state


def press(board, label: str) -> None:
    """Click the board's button that says exactly ``label`` (has-text would take Auto-place for Place)."""
    board.locator(f"button:text-is('{label}')").first.click()
    time.sleep(0.5)


def wait_for_status(board, words: str, seconds: float = 30) -> None:
    board.locator(".rulebook-status", has_text=words).first.wait_for(timeout=seconds * 1000)


def territory(board, state, name: str) -> None:
    """Click a territory's piece on Meetjesland's map (the trace named "territories", one point per territory)."""
    from rulebook.meetjesland import widget
    from rulebook.views import trace

    plot = widget.map_figure(state)
    layer = [drawn.name for drawn in plot.data].index("territories")
    click_point(board, layer, list(trace(plot, "territories").customdata).index(name))


def mj_amount(board, name: str):
    """The range input of the board's Points or Stake, and its readout."""
    control = board.locator(".rb-mj-amount", has=board.page.locator(f"text={name}")).first
    return control.locator("input").first, control.locator("output").first


def set_points(board, points: int) -> None:
    """Points set as a person sets it with the keyboard: once the slider reaches that far, Home, then the right
    arrow until the readout shows ``points``."""
    slider, readout = mj_amount(board, "Points")
    deadline = time.monotonic() + 20
    while int(slider.get_attribute("max") or 1) < points and time.monotonic() < deadline:
        time.sleep(0.2)
    slider.press("Home")
    for _ in range(points - 1):
        slider.press("ArrowRight")
    while readout.inner_text() != str(points) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert readout.inner_text() == str(points), (readout.inner_text(), points)
    time.sleep(0.5)  # the value reaches the kernel before the button's click


def aim(board, state, origin: str, target: str, stake: int) -> None:
    """Click an attack's own territory and then the enemy one; the odds line tells its chance, the Stake its most."""
    name = state.board.name
    territory(board, state, origin)
    territory(board, state, target)
    board.locator(".widget-html", has_text=f"Chance to take {name(target)} with {stake}").first.wait_for(timeout=30_000)
    assert mj_amount(board, "Stake")[1].inner_text() == str(stake)


MJ_BUTTONS = {"Reinforce": "Reinforce", "Roll": "Roll again", "Retreat": "Break off", "EndTurn": "End turn"}


def meetjesland_move(page, board, step) -> None:
    """Meetjesland's moves as a person makes them: territories clicked on the map, Points or Stake set on their
    sliders, cards chosen in the Cards list, and the button."""
    from rulebook.meetjesland.widget import card_label

    move, state = step.move, step.state
    name = type(move).__name__
    if name in MJ_BUTTONS:
        press(board, MJ_BUTTONS[name])
    elif name == "Place":
        territory(board, state, move.territory)
        set_points(board, move.points)
        press(board, "Place")
    elif name == "Attack":
        aim(board, state, move.origin, move.target, move.stake)
        press(board, "Attack")
    elif name == "Fortify":
        territory(board, state, move.origin)
        territory(board, state, move.destination)
        words = state.board.name
        wait_for_status(board, f"Moving from {words(move.origin)} to {words(move.destination)}")
        set_points(board, move.points)
        press(board, "Move points")
    elif name == "TradeCards":
        board.locator("select[multiple]").first.select_option(label=[card_label(card) for card in move.cards])
        time.sleep(0.5)
        press(board, "Trade cards")
    else:
        raise AssertionError(f"no click for {move}")


def hex_(board, state, where: tuple[int, int]) -> None:
    """Click a hex of Kingdom Builder's board (the trace of hexes, one point per hex: row * 20 + column); a ring or a
    settlement drawn over it names the same hex."""
    from rulebook.kingdom_builder import widget

    layer = [drawn.name for drawn in widget.board_figure(state).data].index(widget.HEXES)
    click_point(board, layer, where[0] * 20 + where[1])


def kingdom_builder_move(page, board, step) -> None:
    """Kingdom Builder's moves as a person makes them: a hex clicked to build; a tile's location hex, then the
    settlement it moves (for a moving tile), then its target; End turn."""
    move, state = step.move, step.state
    name = type(move).__name__
    if name == "EndTurn":
        press(board, "End turn")
    elif name == "Build":
        hex_(board, state, move.hex)
    elif name == "UseTile":
        tile = next(t for t in state.tiles[state.player] if t.kind == move.tile)
        hex_(board, state, divmod(tile.location, 20))
        wait_for_status(board, f"{move.tile.title()} tile chosen")
        if move.origin is not None:
            hex_(board, state, move.origin)
            time.sleep(0.5)  # the settlement chosen, its targets ringed
        hex_(board, state, move.target)
    else:
        raise AssertionError(f"no click for {move}")


def mj_wrong(page, board) -> None:
    """Step 3 asks for Reinforce: an attack on Vinderhoute from Lovendegem instead (legal, by MJ-5.2)."""
    from rulebook import tutorial

    state = tutorial.load("meetjesland").steps[2].state
    aim(board, state, "lovendegem", "vinderhoute", state.points_on("lovendegem") - 1)
    press(board, "Attack")


MOVES = {
    "claim": claim_move,
    "ab_die_post": ab_die_post_move,
    "meetjesland": meetjesland_move,
    "kingdom_builder": kingdom_builder_move,
}
# the deliberate wrong move of each lesson: (step number, the move's maker, its move class, words its explanation
# must hold after "That is legal too, by <the paragraph allowing that class>, but ")
WRONG = {
    "claim": (
        1,
        lambda page, board: click_point(board, 0, list(board_state("claim").island.points).index((0, 0))),
        "Place",
        "this step is about placing your first piece on C7",
    ),
    "ab_die_post": (
        3,
        lambda page, board: board.locator("button:text-is('Draw a card')").first.click(),
        "DrawCard",
        "this step is about stopping while you are ahead",
    ),
    "meetjesland": (3, mj_wrong, "Attack", "this step is about taking reinforcements for your territories"),
    "kingdom_builder": (  # the Tavern first: a desert build (the step after's) is legal now too
        5,
        lambda page, board: hex_(board, board_state("kingdom_builder"), (17, 6)),
        "Build",
        "this step is about using the Tavern at (7,10)",
    ),
}
WON = {"claim": "Red wins", "ab_die_post": "", "meetjesland": "White wins", "kingdom_builder": "Orange wins"}


@pytest.mark.parametrize("game", sorted(MOVES))
def test_a_lesson_completed_by_clicks_with_one_wrong_move(browser, apps, game):
    from rulebook import registry, tutorial

    lesson = tutorial.load(game)
    total = len(lesson.steps)
    wrong_step, wrong, kind, explained = WRONG[game]
    page, _ = open_app(browser, apps, game)
    try:
        game_status = status(page)
        page.locator(".rulebook-app .lm-TabBar-tab", has_text="Learn").first.click()
        page.locator(".rulebook-learn-start").first.click()
        started = time.monotonic()
        page.locator(f"{LESSON_BOARD} .rulebook-figure svg .trace .point").first.wait_for(timeout=60_000)
        wait_for_text(page, f"Step 1 of {total}")
        record(f"app {game}: Learn to the lesson's board drawn", time.monotonic() - started)
        for step in lesson.steps:
            wait_for_text(page, f"Step {step.number} of {total}")
            board = page.locator(LESSON_BOARD).first
            board.locator(".rulebook-figure svg .trace .point").first.wait_for(timeout=60_000)
            if step.number == wrong_step:
                allows = lesson.allows[kind]
                wrong(page, board)
                board.locator(".rulebook-status", has_text="That is legal too").first.wait_for(timeout=30_000)
                told = " ".join(board.locator(".rulebook-status").first.inner_text().split())
                assert f"That is legal too, by {allows}, but {explained}" in told and "taken back" in told, told
                assert f"Step {step.number} of {total}" in lesson_text(page)
                page.screenshot(path=SHOTS / f"app-{game}-tutorial-wrong-move.png")
            MOVES[game](page, board, step)
            following = f"Step {step.number + 1} of {total}" if step.number < total else f"All {total} steps done"
            next_button = page.locator(f"{LESSON} .rulebook-tutorial-skip", has_text="Next").first
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                text = lesson_text(page)
                if following in text:
                    break
                if "Done." in text and next_button.is_visible():
                    next_button.click()
                    wait_for_text(page, following)  # one click: a second one would skip the step after
                    break
                time.sleep(0.3)
            assert following in lesson_text(page), (step.number, lesson_text(page), status(page))
            if step.number in (total // 2, total - 1):
                page.screenshot(path=SHOTS / f"app-{game}-tutorial-step-{step.number}.png")
        seconds = time.monotonic() - started
        record(f"app {game}: the guided first game completed by clicks ({total} steps, one wrong move)", seconds)
        with open(SHOTS / "tutorial_timings.md", "a", encoding="utf-8") as report:  # beside timings.md, which
            report.write(f"| {game} | {total} steps | {seconds:.1f} s |\n")  # a parallel run may start anew
        if WON[game]:
            page.locator(".rulebook-app .rulebook-banner", has_text=WON[game]).first.wait_for(timeout=30_000)
        # the offer comes in a message of its own, after the lesson's last words (it may be drawn a moment later)
        page.locator(f"{LESSON} button", has_text="Play a full game").first.wait_for(state="visible", timeout=30_000)
        assert registry.game(game).levels  # the offer plays against its weakest level
        page.screenshot(path=SHOTS / f"app-{game}-tutorial-end.png")
        page.locator(".rulebook-back-to-game").first.click()
        page.get_by_text("Back to your game, as you left it.").first.wait_for(timeout=30_000)
        assert status(page) == game_status, (status(page), game_status)
    finally:
        page.close()
