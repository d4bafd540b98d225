"""The guided first game, polished (issue 48.8): the one place a step wants is marked on the board among the legal
ones (as Hint marks its move), and Kingdom Builder's running-out step tells the story the status line tells."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from rulebook import registry, tutorial
from rulebook.app import App
from rulebook.learn import LearnPanel
from rulebook.view.figures import trace

GAMES = tutorial.games()


# --- where a move is, from the move alone, and where the board's mark is, from the figure alone -------------------


def _claim_places(state: Any, move: Any) -> tuple[Any, ...]:
    name = type(move).__name__
    if name in ("Place", "Remove", "PlaceTower"):
        return (tuple(move.point),)
    return (tuple(move.origin), tuple(move.destination)) if name in ("Step", "Jump") else ()


def _kingdom_builder_places(state: Any, move: Any) -> tuple[Any, ...]:
    name = type(move).__name__
    if name == "Build":
        return (tuple(move.hex),)
    if name == "UseTile":
        return (tuple(move.target),) if move.origin is None else (tuple(move.target), tuple(move.origin))
    return ()


def _meetjesland_places(state: Any, move: Any) -> tuple[Any, ...]:
    name = type(move).__name__
    if name == "Place":
        return (move.territory,)
    if name in ("Attack", "Fortify"):
        return move.origin, getattr(move, "target", None) or move.destination
    if name in ("Roll", "Retreat") and state.battle is not None:
        return state.battle.origin, state.battle.target
    return ()


def _ab_die_post_places(state: Any, move: Any) -> tuple[Any, ...]:
    # a flight's mark ends on the field it lands on; any other move is marked round the plane, on its field
    return (move.path[-1],) if type(move).__name__ == "Move" else (state.positions[state.player],)


WANTED_PLACES = {
    "claim": _claim_places,
    "kingdom_builder": _kingdom_builder_places,
    "meetjesland": _meetjesland_places,
    "ab_die_post": _ab_die_post_places,
}


def _wanted_place(game: str, state: Any, move: Any) -> tuple[Any, ...]:
    """The places a move names, read from its own fields: what a mark of it must point at (empty: no place)."""
    return WANTED_PLACES[game](state, move)


def _nearest(points: dict[Any, tuple[float, float]], x: float, y: float) -> Any:
    return min(points, key=lambda key: math.hypot(points[key][0] - x, points[key][1] - y))


def _marked_place(game: str, board: Any) -> tuple[Any, ...]:
    """The places the board's suggested-move mark points at, read back from the drawn figure."""
    plot = board.figure.plot
    if game == "claim":
        drawn = trace(plot, "suggested points")
        # the board draws point (row, column) at x = column, y = -row
        return tuple((round(-y), round(x)) for x, y in zip(drawn.x or (), drawn.y or ()))
    if game == "kingdom_builder":
        from rulebook.kingdom_builder.widget import hex_centre

        drawn = trace(plot, "hint")
        xs, ys = list(drawn.x or ()), list(drawn.y or ())
        if not xs:
            return ()
        centres = {(r, c): hex_centre(r, c) for r in range(20) for c in range(20)}
        outline = _nearest(centres, sum(xs[:6]) / 6, sum(ys[:6]) / 6)  # the hexagon round the target
        return (outline,) if len(xs) <= 7 else (outline, _nearest(centres, xs[8], ys[8]))  # then the line's start
    if game == "meetjesland":
        from rulebook.meetjesland.widget import HINT_STAR_SIZE, map_labels, mark_size

        state = board.state
        layout = map_labels(state)
        at = {t: layout.geometry.km(*layout.points[i]) for i, t in enumerate(state.board.territories)}
        arrow = trace(plot, "hint")
        xs, ys = list(arrow.x or ()), list(arrow.y or ())
        if xs:  # tail, tip, gap per arrow
            return _nearest(at, xs[0], ys[0]), _nearest(at, xs[1], ys[1])
        # a placement's star and words stand beside the territory, clear of its piece: the middle of that mark
        star, scale = trace(plot, "hint words"), layout.geometry.scale
        middles = [
            (x + (mark_size(text, HINT_STAR_SIZE)[0] / 2 - HINT_STAR_SIZE / 2 - 0.5) / scale, y)
            for x, y, text in zip(star.x or (), star.y or (), star.text or ())
        ]
        return tuple(_nearest(at, x, y) for x, y in middles)
    if game == "ab_die_post":
        drawn = board.hint_trace
        ids = list(drawn.customdata or ())
        return (ids[-1],) if ids else ()
    raise AssertionError(f"no mark read for {game}")


@pytest.mark.parametrize("game", GAMES)
def test_the_app_s_guided_game_marks_the_place_each_step_wants(game: str) -> None:
    """Every step of the guided game, opened from the app's Learn tab: the board's mark names the step's move's
    places (the learner is not left to find C7 among the ringed points), and it moves on with the lesson."""
    app = App(game, seed=1)
    app.learn_button.click()
    lesson = app.learn.lesson
    checked = 0
    while not lesson.finished:
        if lesson.waiting:
            assert _marked_place(game, app.board) == () or game == "ab_die_post", "nothing is wanted while waiting"
            app.learn.skip_button.click()
            continue
        step, board = lesson.step, app.board
        assert step is not None and board is app.learn.board
        if step.accept == "move":
            want = _wanted_place(game, board.live, step.move)
            assert _marked_place(game, board) == want, (step.number, step.move)
            checked += bool(want)
        assert board.play(step.move) is True, (step.number, board.status.text)
    assert checked >= lesson.total // 2  # most steps name a place


def test_a_step_that_accepts_any_move_of_a_kind_marks_none() -> None:
    """Claim's step 3 accepts any placement: no single place is wanted, so none is marked."""
    panel = LearnPanel("claim")
    kinds = [step for step in panel.lesson.tutorial.steps if step.accept == "kind"]
    assert kinds, "Claim's lesson has a step of a kind"
    panel.lesson.go(kinds[0].number - 1)
    assert _marked_place("claim", panel.board) == () and panel.board.hinted is None


def test_a_refused_move_keeps_the_mark_and_back_moves_it() -> None:
    panel = LearnPanel("claim")
    first = panel.lesson.step
    assert panel.board.play(panel.lesson.tutorial.steps[5].move) is False  # not this step's, or not legal
    assert _marked_place("claim", panel.board) == (tuple(first.move.point),)
    panel.skip_button.click()
    second = panel.lesson.step
    assert _marked_place("claim", panel.board) == (tuple(second.move.point),)
    panel.back_button.click()
    assert _marked_place("claim", panel.board) == (tuple(first.move.point),)


# --- Kingdom Builder's running-out step: the step's text and the status line tell one story (KB-C6) ----------------

WORDS = {"one": 1, "two": 2, "three": 3}


def _numbers_before(text: str, noun: str) -> list[int]:
    """The counts a text gives of ``noun``: "2 settlements", "three settlements", "those 2", "your last 3"."""
    found = [int(n) for n in re.findall(rf"\b(\d+) (?:more )?{noun}", text)]
    found += [WORDS[w] for w in re.findall(rf"\b(one|two|three) (?:more )?{noun}", text)]
    found += [int(n) for n in re.findall(r"\b(?:those|all|last) (\d+)\b", text)]
    return found


def test_kingdom_builder_s_running_out_step_and_status_tell_one_story() -> None:
    """Replayed to the step where the learner's supply runs out: the settlements its text says are left and to be
    built are the state's (min of 3 and the supply, KB-4.1 and KB-C6), and so are the status line's before and
    after each build ("build 3 settlements", "settlement 1 of 3", "build 2 more")."""
    from rulebook.kingdom_builder import rules

    panel = LearnPanel("kingdom_builder")
    lesson = panel.lesson
    step = next(s for s in lesson.tutorial.steps if s.title == "The end of the game")
    lesson.go(step.number - 1)
    state = panel.board.live
    player = state.player
    to_build = min(3 - state.built, state.supply[player])
    counted = _numbers_before(step.say, "settlement") + _numbers_before(step.say, "build")
    assert counted, step.say
    assert all(n in (state.supply[player], to_build) for n in counted), (counted, state.supply[player], to_build)
    assert f"{state.supply[player]} settlement" in step.say  # the supply the text names is the state's
    assert f"build {to_build} settlement" in panel.board.status.text, panel.board.status.text
    # build on through the turn's mandatory action: each narration counts out of the same total
    built = 0
    while not lesson.finished and isinstance(lesson.step.move, rules.Build):
        built += 1
        assert panel.board.play(lesson.step.move) is True
        assert f"(settlement {built} of {to_build})" in panel.board.status.text, panel.board.status.text
        if built < to_build:
            assert f"build {to_build - built} more" in panel.board.status.text, panel.board.status.text
    assert built == to_build and panel.board.live.mandatory_done
    assert registry.game("kingdom_builder").engine.check(panel.board.live, lesson.step.move) is None


# --- the step's text beside the board: the app's Learn tab holds it while the lesson is in the board's place ----------


def test_the_app_shows_the_step_s_text_in_the_learn_tab_beside_the_board() -> None:
    app = App("claim", seed=3)
    game = app.board
    app.learn_button.click()
    panel = app.learn
    assert app.tabs.selected_index == app.learn_tab
    assert panel.guide in app.learn_box.children and panel.guide not in panel.children  # beside, not above
    assert panel.guide.layout.display != "none" and app.learn_offer_box.layout.display == "none"
    assert panel.board in panel.board_box.children and "Step 1 of" in panel.text.text
    app.back_button.click()  # the game again: the tab offers the lesson, the step's text is put away
    assert app.board is game and app.learn_offer_box.layout.display != "none"
    assert panel.guide.layout.display == "none"
    app.learn_button.click()
    assert panel.guide.layout.display != "none" and app.learn_offer_box.layout.display == "none"
    app.new_game()  # a new game takes the board's place: the lesson's text goes with it
    assert panel.guide.layout.display == "none" and app.learn_offer_box.layout.display != "none"


def test_the_notebook_panel_keeps_the_step_s_text_over_its_board() -> None:
    panel = LearnPanel("claim")
    assert panel.children[0] is panel.guide and panel.board_box in panel.children
