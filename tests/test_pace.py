"""Computer turns played out on the board one move at a time (issue 26.2): each step plays one move, is told in the
status line and marked on the board; Skip to the end gives what the pace "off" gives (same seed, same dice); a
person's click meanwhile is refused with a message; Undo, New game and Load stop the replay cleanly. A test clock
stands in for the kernel's event loop (none runs here)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from rulebook import registry, ui
from rulebook.app import App
from rulebook.session import Session

GAMES = {"meetjesland": 3, "kingdom_builder": 2, "ab_die_post": 2, "claim": 2}


class Handle:
    def __init__(self, delay: float, callback: Any) -> None:
        self.delay, self.callback, self.cancelled = delay, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class Clock:
    """call_later as a test drives it: ``fire()`` runs the oldest timer not cancelled."""

    def __init__(self) -> None:
        self.timers: list[Handle] = []

    def __call__(self, delay: float, callback: Any) -> Handle:
        handle = Handle(delay, callback)
        self.timers.append(handle)
        return handle

    @property
    def live(self) -> list[Handle]:
        return [timer for timer in self.timers if not timer.cancelled]

    def fire(self) -> float:
        timer = self.live[0]
        self.timers.remove(timer)
        timer.callback()
        return timer.delay

    def fire_all_stale(self) -> None:
        """What a loop does with timers cancelled too late: it calls them anyway."""
        for timer in list(self.timers):
            self.timers.remove(timer)
            timer.callback()


@pytest.fixture(autouse=True)
def preference():
    """Each test starts from the kernel's defaults (no pace chosen, no reduced motion) and leaves them so."""
    ui.PREFERENCE.chosen, ui.PREFERENCE.reduced_motion = None, False
    yield ui.PREFERENCE
    ui.PREFERENCE.chosen, ui.PREFERENCE.reduced_motion = None, False


def board_of(game: str, clock: Clock | None = None, pace: str | None = None) -> ui.Table:
    entry = registry.game(game)
    players = GAMES[game]
    state = entry.new_state(players, 1, {})
    board = entry.board_class()(state, seed=1, computer={seat: "greedy" for seat in range(1, players)})
    board.clock = clock
    if pace is not None:
        board.pace = pace
    return board


def play_until_the_computer_moves(board: ui.Table, picks: random.Random, limit: int = 40) -> int:
    """The person plays random legal moves (from ``picks``, not the game's dice) until a move of theirs is answered
    by the computer; returns the number of states before that move."""
    for _ in range(limit):
        before = len(board.states)
        move = picks.choice(board.game.legal_moves(board.live))
        assert board.play(move), board.message
        if len(board.states) > before + 1 or board.pacing:
            return before
    raise AssertionError("the computer never answered")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_computer_turn_is_played_one_move_at_a_time_and_ends_as_with_the_pace_off(game):
    clock = Clock()
    paced, at_once = board_of(game, clock), board_of(game, pace="off")
    assert paced.pace == "normal"
    person = play_until_the_computer_moves(paced, random.Random(0))
    play_until_the_computer_moves(at_once, random.Random(0))
    assert paced.pacing and len(paced.states) == person + 1  # the person's move only, so far
    assert "; then" not in paced.message and "Skip to the end" in paced.status.value
    steps = 0
    while paced.pacing:
        count = len(paced.states)
        assert len(clock.live) == 1 and clock.fire() == ui.PACE_SECONDS["normal"]
        assert len(paced.states) == count + 1  # one move a step
        step = paced.step(count)
        assert step.player in paced.bots
        told = f"{paced.describe_player(step.player)}: {paced.step_text(step)}"
        assert paced.message == told and paced.message_kind == "info"
        assert paced.step_text(step) in paced.status.text
        if paced.pacing:
            assert paced.steps_shown() == [step]  # the move just played is the one marked
        steps += 1
    assert steps >= 2 and not clock.live
    assert paced.states == at_once.states  # the same moves and dice as at once
    assert "Skip to the end" not in paced.status.value
    assert paced.steps_shown() == at_once.steps_shown()  # at the end the whole answer is marked, as today


@pytest.mark.parametrize("game", sorted(GAMES))
def test_skip_to_the_end_plays_the_rest_at_once(game):
    clock = Clock()
    paced, at_once = board_of(game, clock), board_of(game, pace="off")
    play_until_the_computer_moves(paced, random.Random(0))
    play_until_the_computer_moves(at_once, random.Random(0))
    clock.fire()
    assert paced.pacing
    paced.status._message(paced.status, {"step": ui.SKIP}, [])  # the status line's button, as the page sends it
    assert not paced.pacing and not clock.live
    assert paced.states == at_once.states
    assert paced.message.startswith("Skipped to the end: ")
    clock.fire_all_stale()  # a timer that fires after all plays nothing
    assert paced.states == at_once.states
    assert paced.skip() == []  # nothing left to skip


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_person_s_click_while_the_computer_moves_is_refused_with_a_message(game):
    clock = Clock()
    board = board_of(game, clock)
    play_until_the_computer_moves(board, random.Random(0))
    before = list(board.states)
    move = board.game.legal_moves(board.live)[0]
    assert board.play(move) is False
    assert board.states == before and board.message_kind == "error"
    name = board.describe_player(board.current_player(board.live))
    assert f"the computer plays {name}: wait for its moves, or Skip to the end" in board.status.text
    board.message = ""
    trace = next(name for name, points in board.figure._points.items() if points)
    assert board.figure.click(trace, board.figure._points[trace][0]) is False  # a click on the board's figure
    assert board.states == before and "wait for its moves" in board.message
    assert board.hint() is None and board.states == before
    controls = board.move_controls()
    assert controls and all(control.disabled for control in controls)  # every move control is off meanwhile
    assert not board.undo_button.disabled
    board.skip()
    assert not board.pacing and any(not control.disabled for control in board.move_controls())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_undo_while_the_computer_moves_stops_the_replay_in_a_consistent_state(game):
    clock = Clock()
    board, at_once = board_of(game, clock), board_of(game, pace="off")
    person = play_until_the_computer_moves(board, random.Random(0))
    play_until_the_computer_moves(at_once, random.Random(0))
    chosen = board.step(person).move
    clock.fire()
    board.undo()
    assert not board.pacing and not clock.live
    if board.message_kind == "error":  # a chance outcome was shown: never taken back, the turn ends at once
        assert "cannot be taken back" in board.message and board.states == at_once.states
    else:  # back where the person moved, the dice as they were: the same move gets the same answer
        assert board.message == "Took back your last move."
        assert len(board.states) == person and board.current_player(board.live) not in board.bots
        assert board.play(chosen)
        while board.pacing:
            clock.fire()
        assert board.states == at_once.states
    clock.fire_all_stale()
    assert not board.pacing


def test_new_game_and_load_while_the_computer_moves_leave_the_old_board_still(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(ui, "event_loop_timer", lambda: clock)
    app = App("claim", players=2, seed=1, computer={1: "greedy"})
    old = app.board
    play_until_the_computer_moves(old, random.Random(0))
    assert old.pacing and clock.live
    states = list(old.states)
    assert app.new_game()
    clock.fire_all_stale()  # the old board's timer: closed, it plays nothing
    assert old.states == states and old.comm is None
    board = app.board
    assert board is not old and not board.pacing and board.comm is not None
    saved = json.dumps(json.loads(app.saved()[1]))
    play_until_the_computer_moves(board, random.Random(1))
    assert board.pacing
    assert app.load("game.json", saved.encode())
    clock.fire_all_stale()
    assert board.comm is None and app.board is not board and not app.board.pacing


def test_the_pace_is_a_setting_of_the_board_and_of_the_app():
    clock = Clock()
    board = board_of("claim", clock, pace="fast")
    play_until_the_computer_moves(board, random.Random(0))
    assert clock.live[0].delay == ui.PACE_SECONDS["fast"]
    board.pace = "normal"  # the next move waits at the new pace
    assert len(clock.live) == 1 and clock.live[0].delay == ui.PACE_SECONDS["normal"]
    board.pace = "off"  # off: the rest lands at once
    assert not board.pacing and not clock.live
    with pytest.raises(ValueError, match="pace: one of off, normal, fast"):
        board.pace = "slow"
    app = App("claim", players=2, seed=1, computer={1: "greedy"})
    assert app.pace_menu.value == "normal" and app.board.pace == "normal"
    app.pace_menu.value = "fast"
    assert app.board.pace == "fast" and ui.default_pace() == "fast"
    app.new_game()
    assert app.board.pace == "fast"  # the choice holds for the next game


def test_a_page_that_prefers_reduced_motion_shows_the_computer_s_moves_at_once():
    clock = Clock()
    board = board_of("claim", clock)
    play_until_the_computer_moves(board, random.Random(0))
    assert board.pacing
    board.motion.reduced = True  # what the page's matchMedia check sets
    assert not board.pacing and board.pace == "off" and ui.default_pace() == "off"
    app = App("claim", players=2, seed=1, computer={1: "greedy"})
    assert app.pace_menu.value == "off"
    chosen = board_of("claim", clock, pace="fast")  # a pace set in code holds
    assert chosen.pace == "fast"


def test_without_a_running_event_loop_the_computer_s_moves_land_at_once():
    board = board_of("claim")  # no clock, no loop: a script or a test
    assert ui.event_loop_timer() is None
    play_until_the_computer_moves(board, random.Random(0))
    assert not board.pacing and "; then" in board.message


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_session_plays_the_computer_s_moves_step_by_step(game):
    entry = registry.game(game)
    players = GAMES[game]
    computer = {seat: "greedy" for seat in range(1, players)}
    stepped = Session(entry.new_state(players, 1, {}), seed=1, computer=computer).start(reply=False)
    whole = Session(entry.new_state(players, 1, {}), seed=1, computer=computer).start()
    picks_a, picks_b = random.Random(0), random.Random(0)
    for _ in range(12):
        while (line := stepped.computer_step()) is not None:
            assert line.step.index == len(stepped.states) - 1 and line.text == stepped.step_text(line.step)
        assert stepped.states == whole.states and not stepped.computer_to_move
        if whole.finished:
            break
        assert stepped.play(picks_a.choice(entry.engine.legal_moves(stepped.live)), reply=False)
        assert "; then" not in stepped.message
        assert whole.play(picks_b.choice(entry.engine.legal_moves(whole.live)))


def notebook_board() -> ui.Table:
    """Claim's 4-player board of the notebook: the computer seats place first, so its cell starts a computer turn."""
    from rulebook import claim
    from rulebook.claim import widget

    return widget.Board(claim.new_game(players=4, seed=11), seed=11, computer={1: "greedy", 2: "greedy", 3: "random"})


def test_a_board_built_in_a_running_cell_plays_the_computer_s_first_turn_on_the_kernel_s_loop(monkeypatch):
    """A notebook cell runs on the kernel's asyncio loop (ipykernel, Voila): the board it builds times the computer's
    first moves on that loop, and they are played once the cell is done, to the end of the computer's turn, the same
    moves as at once; the page's reduced-motion answer arriving meanwhile lands the rest at once."""
    monkeypatch.setitem(ui.PACE_SECONDS, "normal", 0.01)
    at_once = notebook_board()  # no loop runs here: at once

    async def cell(tell_reduced: bool) -> tuple[ui.Table, bool]:
        board = notebook_board()  # what the cell does
        started = board.pacing and len(board.states) == 1
        if tell_reduced:
            board.motion.reduced = True  # the page's MotionQuery, before the first timer fired
        for _ in range(500):  # the cell is over: the loop runs the timers
            if not board.pacing:
                break
            await asyncio.sleep(0.01)
        return board, started

    for tell_reduced in (False, True):
        ui.PREFERENCE.reduced_motion = False
        board, started = asyncio.run(cell(tell_reduced))
        assert started, "the computer's first turn was not paced on the running loop"
        assert not board.pacing and board.states == at_once.states, board.status.text
        assert "its moves are told here one by one" not in board.status.text
        assert board.current_player(board.live) not in board.bots


def test_a_page_that_shows_the_board_gets_every_state_again_that_it_may_have_lost(monkeypatch):
    """A Voila page takes the widgets' states from the kernel at once and makes their models after: a computer's
    move told meanwhile (the pace's timer) never reaches it, and its Computer move button stayed off. Once the page
    has made the board's view it says so, and the app's whole tree sends its state again: the figure too if the page
    holds an older revision, not the modules' code."""
    clock = Clock()
    monkeypatch.setattr(ui, "event_loop_timer", lambda: clock)
    app = App("claim", players=2, seed=0, computer={1: "greedy"})  # seed 0: Blue begins
    board = app.board
    assert board.pacing
    loaded = board.figure.revision  # what the page loaded, before Blue's moves
    while board.pacing:
        clock.fire()
    assert not board.computer_button.disabled and board.figure.revision > loaded
    sent: list[tuple[Any, Any]] = []
    monkeypatch.setattr(ui.widgets.Widget, "send_state", lambda self, key=None: sent.append((self, key)))
    board.figure._message(board.figure, {"event": "shown", "revision": loaded}, [])
    again = {id(widget) for widget, _ in sent}
    for widget in (board.computer_button, board.status, board.figure, board.move_log, app, app.tabs, app.hint_button):
        assert id(widget) in again, widget
    keys = {key for _, names in sent for key in names}
    assert "disabled" in keys and "figure" in keys and "value" in keys
    assert not keys & {"_esm", "_css", "_model_name", "_view_module"}
    sent.clear()
    board.figure._message(board.figure, {"event": "shown", "revision": board.figure.revision}, [])
    assert sent and id(board.figure) not in {id(widget) for widget, _ in sent}  # its figure is the page's already
    sent.clear()
    for bad in ({"event": "shown"}, {"event": "shown", "revision": True}, {"event": "shown", "revision": "1"}):
        board.figure._message(board.figure, bad, [])
    assert sent == []
