"""How a person plays one real move on each game's rendered board (clicks on the page only), and reads and sets the
app's status line and set-up controls.

Where a click needs to know the position (which territory is whose), the driver rebuilds the notebook's game in
Python from the same seed: the notebook shows the same game on every run."""

from __future__ import annotations

import time


def click_point(board, trace: int, point: int) -> None:
    """Click the centre of one marker of a scatter trace of the board's figure."""
    marker = board.locator(f".rulebook-figure g.trace[data-trace='{trace}'] path.point[data-point='{point}']").first
    box, deadline = None, time.monotonic() + 30
    while box is None and time.monotonic() < deadline:  # a board redrawn meanwhile (a move taken back) draws it anew
        marker.wait_for(state="attached", timeout=30_000)
        # centre the marker in the window: near the top of a tall board, JupyterLab's toolbar would take the click
        marker.evaluate("element => element.scrollIntoView({block: 'center', inline: 'center'})")
        time.sleep(0.3)
        box = marker.bounding_box()
    assert box is not None, f"marker {point} of trace {trace} is not drawn"
    board.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    time.sleep(0.8)


# Every board of the app marked as old before New game; the new game's board is the one not marked, once it is drawn
# (a set-up the game refuses builds none: its message ends the wait). A fixed wait of 2 s was too short under load.
MARK_BOARDS = """() => document.querySelectorAll('.rulebook-app .rulebook-board')
  .forEach((b) => { b.dataset.e2eOld = 1; })"""
NEW_BOARD = """() => [...document.querySelectorAll('.rulebook-app .rulebook-board:not([data-e2e-old])')]
  .some((b) => b.querySelector('.rulebook-figure svg .trace .point') && b.querySelector('.rulebook-status'))
  || document.querySelector('.rulebook-app').innerText.includes('Set-up:')"""


def new_game(page) -> None:
    """Press New game (on a page or the site's app frame) and wait until the new game's board is drawn."""
    page.evaluate(MARK_BOARDS)
    page.locator(".rulebook-new-game").first.click()
    page.wait_for_function(NEW_BOARD, timeout=60_000, polling=250)  # not each frame: it reads the app's text
    text = page.locator(".rulebook-app").first.inner_text()
    assert "Set-up:" not in text, text[:500]


def button(board, label: str):
    return board.locator(f"button:has-text('{label}')").first


# Skip to the end clicked inside the page at the first animation frame that shows it (no round trip per try): the
# button lives only while the computer's moves are still to come, which on a loaded machine may be a second or less.
CLICK_SKIP = """() => { const skip = [...document.querySelectorAll('.rulebook-status button')]
  .find((b) => b.textContent.includes('Skip to the end')); if (skip) skip.click(); return Boolean(skip); }"""


def skip_a_computer_turn(frame, play_turn, tries: int = 3) -> None:
    """Play the person's turn (``play_turn()``, which returns once the page has its answer) and skip the computer's
    answer as soon as Skip to the end shows, until the status says it was skipped. A page kept busy may draw the
    button only after the kernel has played the whole answer (it is the person's turn again, or the click finds
    nothing to skip): up to ``tries`` turns, and a failure names what the status said."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    status = frame.locator(".rulebook-status").first
    said = []
    for _ in range(tries):
        play_turn()
        deadline = time.monotonic() + 60
        clicked = False
        while not clicked and time.monotonic() < deadline:
            try:
                frame.wait_for_function(CLICK_SKIP, timeout=2_000)
                clicked = True
            except PlaywrightTimeoutError:
                if "Your turn" in status.inner_text():
                    break  # the answer was played out before the page showed Skip
        deadline = time.monotonic() + 15
        while clicked and time.monotonic() < deadline:
            text = status.inner_text()
            if "Skipped to the end" in text:
                return
            if "Skip to the end" not in text and "Your turn" in text:
                break  # the click reached the kernel after the answer's last move
            time.sleep(0.1)
        said.append(status.inner_text())
    raise AssertionError(f"Skip to the end never skipped a computer's turn in {tries} turns: {said}")


def meetjesland(page, board) -> None:
    """Auto-place the starting points, click an own territory and an enemy neighbour, attack, and see the dice."""
    from rulebook import meetjesland as mj
    from rulebook.meetjesland.widget import Board
    from rulebook.views import trace

    table = Board(mj.new_game(players=4, seed=1), seed=1, computer=(1, 2, 3))  # the notebook's game
    table.auto_button.click()
    state = table.state
    origin, target = next(
        (o, t)
        for o in state.territories_of(0)
        if state.points_on(o) >= 2
        for t in state.board.neighbours[o]
        if state.owner_of(t) != 0
    )
    button(board, "Auto-place").click()
    board.locator(".widget-html, .rulebook-status", has_text="White's turn").first.wait_for(timeout=30_000)
    # the territories are the trace named "territories", each point's id (its customdata) its territory
    plot = table.figure.plot
    layer = [drawn.name for drawn in plot.data].index("territories")  # its place in the page's drawing
    points = list(trace(plot, "territories").customdata)
    click_point(board, layer, points.index(origin))
    click_point(board, layer, points.index(target))
    board.locator(".widget-html, .rulebook-status", has_text="Chance to take").first.wait_for(timeout=30_000)
    button(board, "Attack").click()
    board.locator(".widget-html, .rulebook-status", has_text="Dice").first.wait_for(timeout=30_000)


DRIVERS = {"meetjesland": meetjesland}
# which board of the notebook the driver plays on (default: the first): Meetjesland's and Ab die Post's play
# section comes after their odds explorer's board; Claim's battle board is its fourth
BOARD_INDEX = {"meetjesland": 1, "ab_die_post": 1, "claim": 3}


def kingdom_builder(page, board) -> None:
    """Click the first ringed hex (a legal build): the first settlement of the turn is built there, and the status
    tells that build."""
    from rulebook import kingdom_builder as game
    from rulebook.kingdom_builder import widget
    from rulebook.views import trace

    table = widget.Board(game.new_game(players=2, seed=7, first_game=True), seed=7, computer=(1,))  # the notebook's
    plot = table.figure.plot
    rings = trace(plot, widget.LEGAL).customdata  # each ring's hex index, row * 20 + column
    move = game.Build(divmod(int(rings[0]), 20))
    click_point(board, [t.name for t in plot.data].index(widget.LEGAL), 0)
    told = game.narrate(table.live, move, game.apply(table.live, move))  # "builds on desert at (0,1) ..."
    board.locator(".widget-html, .rulebook-status", has_text=told).first.wait_for(timeout=30_000)


def ab_die_post(page, board) -> None:
    """Draw a card and stop, turn after turn, until the plane may fly; fly; then click an orange ring on the track
    (the same game replayed in Python tells how many turns that takes, the marble and the rings it gives)."""
    from rulebook import ab_die_post as adp
    from rulebook.ab_die_post import widget

    table = widget.Board(adp.new_game(players=4, seed=1), seed=1, computer=(1, 2, 3))  # the notebook's game
    rounds: list[bool] = []  # per turn: whether the person still had to stop after drawing (no bust)
    while adp.check(table.state, adp.Fly()) is not None:
        assert table.play(adp.DrawCard())
        stops = table.state.player == 0 and adp.check(table.state, adp.Stop()) is None
        if stops:
            assert table.play(adp.Stop())
        rounds.append(stops)
        assert len(rounds) < 12, "the notebook's game never lets the person fly"
    for stops in rounds:
        button(board, "Draw a card").click()
        time.sleep(1.2)
        if stops:
            button(board, "Stop drawing").click()
            time.sleep(1.5)
    button(board, "Fly").click()
    assert table.play(adp.Fly()) and table.state.phase == "move", "the notebook's marble gives the plane no move"
    board.locator(".widget-html, .rulebook-status", has_text="click an orange ring").first.wait_for(timeout=30_000)
    # the rings are the trace named "legal targets", each point's id its field: the first ring is clicked
    rings = list(table.target_trace.customdata)
    names = [drawn.name for drawn in table.figure.plot.data]
    arrival = f"to {widget.field_name(table.track, rings[0])}"
    click_point(board, names.index("legal targets"), 0)
    board.locator(".widget-html, .rulebook-status", has_text=arrival).first.wait_for(timeout=30_000)


def claim(page, board) -> None:
    """On the battle board: click a piece of the person, then a highlighted point it may step or jump to."""
    import random

    from rulebook import claim as game
    from rulebook.claim import bots, widget

    start = bots.play_until_battle(game.new_game(players=2, seed=7), random.Random(7))
    table = widget.Board(start, seed=7, computer={1: "greedy"})  # the notebook's battle board
    move = next(m for m in game.legal_moves(table.state) if isinstance(m, game.Step))  # a step: one click plays it
    cells = table.figure.plot.data[0]  # the territories, one cell per point, each with its [row, column]
    where = {tuple(point): i for i, point in enumerate(cells.customdata)}
    click_point(board, 0, where[tuple(move.origin)])
    board.locator(".widget-html, .rulebook-status", has_text="for the piece on").first.wait_for(timeout=30_000)
    click_point(board, 0, where[tuple(move.destination)])
    told = game.narrate(table.live, move, game.apply(table.live, move)).split(";")[0]  # the status tells the move
    board.locator(".widget-html, .rulebook-status", has_text=told).first.wait_for(timeout=30_000)


def claim_jump(page, board, state, move, shots=None) -> None:
    """Play a jump over several pieces as a person does: click the piece, then each landing point in turn, on the
    Claim board showing ``state``; after each landing but the last the status says the piece is jumping, and at the
    end it tells the jump. ``shots`` (a path prefix) keeps a screenshot after each click."""
    from rulebook import claim as game
    from rulebook.claim import widget

    where = {point: i for i, point in enumerate(state.island.points)}  # the territories' cells, in the trace's order
    height = state.island.height

    def shot(name: str) -> None:
        if shots is not None:
            page.screenshot(path=f"{shots}-{name}.png")

    click_point(board, 0, where[move.origin])
    board.locator(".rulebook-status", has_text="for the piece on").first.wait_for(timeout=30_000)
    shot("1-piece")
    for number, landing in enumerate(move.path[:-1], start=1):
        click_point(board, 0, where[landing])
        here = widget.point_name(landing, height)
        board.locator(".rulebook-status", has_text=f"on {here} now").first.wait_for(timeout=30_000)
        shot(f"{number + 1}-landed-{here}")
    click_point(board, 0, where[move.path[-1]])
    told = game.narrate(state, move, game.apply(state, move)).split(";")[0]
    board.locator(".rulebook-status", has_text=told).first.wait_for(timeout=30_000)
    shot(f"{len(move.path) + 1}-played")


DRIVERS.update({"kingdom_builder": kingdom_builder, "ab_die_post": ab_die_post, "claim": claim})


# --- the app's status line and set-up controls, on a page or the site's app frame (the same locators) ------------


def status(page) -> str:
    """The app's status line as the page shows it."""
    return page.locator(".rulebook-status").first.inner_text()


def changed(page, before: str, seconds: float = 30) -> str:
    """The status line once it differs from ``before`` (the kernel answers a click asynchronously)."""
    deadline = time.monotonic() + seconds
    now = status(page)
    while now == before and time.monotonic() < deadline:
        time.sleep(0.3)
        now = status(page)
    return now


def show_setup(page) -> None:
    page.locator(".rulebook-app .lm-TabBar-tab", has_text="Set-up").first.click()
    time.sleep(0.3)


def choose(page, label: str, value: str) -> None:
    """Pick an option of a set-up dropdown as a person does (the select labelled ``label``)."""
    show_setup(page)
    control = page.locator(".rulebook-app .widget-dropdown", has=page.locator(f"label:text-is('{label}')")).first
    control.locator("select").select_option(label=value)
    time.sleep(0.5)


def type_seed(page, seed: str) -> None:
    show_setup(page)
    field = page.locator(".rulebook-app .widget-text", has=page.locator("label:text-is('Seed')")).first
    field.locator("input").fill(seed)
    field.locator("input").press("Enter")
    time.sleep(0.5)
