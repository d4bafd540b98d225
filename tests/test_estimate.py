"""Who is winning (issue 29.1): the estimate's interval holds the answer where the answer is known, the budget is kept
(counted in playouts), the same seed gives the same estimate and bad input is refused."""

from __future__ import annotations

import random

import pytest

from rulebook import claim, registry
from rulebook import estimate as est
from rulebook import meetjesland as mj
from rulebook.core import advance, pick
from rulebook.meetjesland import odds
from rulebook.meetjesland.rules import Battle


def finished(game: str, players: int, seed: int) -> object:
    """A game of random players played to its end."""
    declared = registry.game(game)
    engine, bot = declared.engine, declared.bots()["random"]
    state, rng = declared.new_state(players, seed), random.Random(seed)
    while engine.outcome(state) is None:
        outcomes = engine.chance_outcomes(state)
        state = engine.apply(state, pick(outcomes, rng) if outcomes else bot(state, rng))
    return state


def one_battle() -> mj.State:
    """Meetjesland, three players, White attacking Kaprijke (1 point) with a stake of 1: one roll of one die against
    one decides the game. Conquered, White holds 24 territories (its mission); beaten, White has only 1-point
    territories (no attack, nothing to move) and Black, next, starts its turn holding 18 territories with 2 points
    each (its mission)."""
    board = mj.load_board()
    others = [t for t in board.territories if t not in ("eeklo", "kaprijke")]
    white, black, pink = ["eeklo", *others[:22]], others[22:40], others[40:]
    territories = {
        **dict.fromkeys(white, (0, 1)),
        **dict.fromkeys(black, (1, 2)),
        "kaprijke": (1, 1),
        **dict.fromkeys(pink, (2, 1)),
    }
    hold_24, hold_18_with_2, red_and_blue = 6, 7, 0
    return mj.arrange(
        mj.new_game(players=3, seed=0),
        territories,
        missions=(hold_24, hold_18_with_2, red_and_blue),
        hands=((), (), ()),
        turn=0,
        stage="conquer",
        to_place=0,
        battle=Battle("eeklo", "kaprijke", 1, rolling=True),
    )


def test_a_finished_game_gives_its_result_exactly():
    state = finished("claim", 2, seed=3)
    winner = claim.outcome(state).winners[0]
    result = est.estimate(state)
    assert result.exact and result.playouts == 0 and result.stopped == "over"
    assert (result.chance(winner).chance, result.chance(winner).low, result.chance(winner).high) == (1.0, 1.0, 1.0)
    assert result.chance(1 - winner).chance == 0.0
    assert "game is over" in result.text()


def test_a_shared_win_counts_for_each_winner_and_is_said():
    state = finished("claim", 4, seed=1)  # four players play in teams of two: a win is shared
    winners = claim.outcome(state).winners
    assert len(winners) == 2
    result = est.estimate(state)
    assert [seat.chance for seat in result.seats] == [float(seat in winners) for seat in range(4)]
    assert result.shared == 1


def test_a_position_one_battle_decides_holds_the_exact_odds():
    position = one_battle()
    exact = odds.win_probability(1, 1, exact=True)  # one die against one: the defender wins ties
    result = est.estimate(position, seed=0, playouts=400, cpu=None)
    assert result.playouts == 400 and result.unfinished == 0
    white, black, pink = result.seats
    assert white.low <= exact <= white.high
    assert black.low <= 1 - exact <= black.high
    assert pink.wins == 0
    assert white.wins + black.wins == 400  # every playout ends at once: White's mission or Black's


def test_the_symmetric_start_of_claim_holds_one_half_for_each_player():
    result = est.estimate(claim.new_game(players=2, seed=0), seed=0, playouts=24, cpu=None, policy="quick")
    for seat in result.seats:
        assert seat.low <= 0.5 <= seat.high
    assert result.playouts + result.unfinished == 24
    assert "strong player for the next" in result.policy


def test_the_budget_is_counted_in_playouts():
    position = one_battle()
    result = est.estimate(position, seed=2, playouts=7, cpu=None)
    assert result.playouts + result.unfinished == 7 and result.stopped == "playouts"
    assert sum(seat.wins for seat in result.seats) == 7
    cut = est.estimate(advance(mj.new_game(players=3, seed=1), random.Random(1)), playouts=50, cpu=1e-9)
    assert cut.stopped == "cpu" and cut.playouts < 50  # a playout the budget interrupts is not counted
    assert "CPU budget" in cut.text()


def test_a_playout_that_reaches_the_move_cap_is_unfinished_and_left_out():
    start = advance(mj.new_game(players=3, seed=1), random.Random(1))
    result = est.estimate(start, playouts=5, cpu=None, max_moves=3)
    assert result.unfinished == 5 and result.playouts == 0
    assert all(seat.playouts == 0 and (seat.low, seat.high) == (0.0, 1.0) for seat in result.seats)
    assert "move cap unfinished" in result.text() and "no estimate" in result.text()


def test_the_same_seed_gives_the_same_estimate():
    start = advance(mj.new_game(players=3, seed=4), random.Random(4))
    greedy = est.Policy("greedy")  # quicker than the strongest: the seed's work is the same
    first = est.estimate(start, seed=5, playouts=8, cpu=None, policy=greedy)
    again = est.estimate(start, seed=5, playouts=8, cpu=None, policy=greedy)
    assert first.seats == again.seats and first.moves == again.moves
    others = [est.estimate(start, seed=seed, playouts=8, cpu=None, policy=greedy).moves for seed in (6, 7)]
    assert any(moves != first.moves for moves in others)  # the seed does choose the playouts


def test_ab_die_post_plays_out_with_the_exact_draw_policy():
    declared = registry.game("ab_die_post")
    start = advance(declared.new_state(3, 2), random.Random(2))
    result = est.estimate(start, seed=1, playouts=3, cpu=None)
    assert result.policy == est.Policy.strong(declared).describe(declared)
    assert "exact draw policy" in declared.bots()[declared.strongest()].__doc__  # its playouts push their luck so
    assert result.playouts == 3 and sum(seat.wins for seat in result.seats) >= 3


def test_bad_input_is_refused_with_what_was_wrong():
    position = one_battle()
    result = est.estimate(position, playouts=3, cpu=None)
    with pytest.raises(ValueError, match="no seat 3"):
        result.chance(3)
    with pytest.raises(ValueError, match="no seat -1"):
        result.chance(-1)
    with pytest.raises(ValueError, match="not a position"):
        est.estimate("a position")
    with pytest.raises(ValueError, match="playouts"):
        est.estimate(position, playouts=0)
    with pytest.raises(ValueError, match="cpu"):
        est.estimate(position, cpu=-1)
    with pytest.raises(ValueError, match="seed"):
        est.estimate(position, seed=-2)
    with pytest.raises(ValueError, match="policy"):
        est.estimate(position, policy="best")
    with pytest.raises(ValueError, match="no computer player 'wizard'"):
        est.estimate(position, policy=est.Policy("wizard"))


def test_the_quick_policy_names_the_strongest_then_a_quicker_level():
    for name in registry.names():
        declared = registry.game(name)
        quick = est.Policy.quick(declared)
        assert quick.level == declared.strongest() and quick.horizon == est.HORIZON
        assert quick.finish in declared.bots() and quick.finish != quick.level


# -- the app's tab --------------------------------------------------------------------------------------------------


def meetjesland_board(seed: int = 1):
    declared = registry.game("meetjesland")
    return declared.board_class()(declared.new_state(3, seed), seed=seed, computer={1: "greedy", 2: "greedy"})


def test_the_tab_tells_each_seat_in_words_and_a_bar_on_request():
    from rulebook.estimate_panel import EstimatePanel

    board = meetjesland_board()
    panel = EstimatePanel(lambda: board, cpu=0.3)
    assert panel.chart is None and "Press the button" in panel.text.value  # nothing computed before it is asked
    panel.button.click()
    text = panel.text.value
    for name in registry.game("meetjesland").seat_names(3):
        assert name in text
    assert text.count("<meter") == 3 and "95 % interval" in text and "an estimate" in text
    assert "see the whole position" in text and not panel.button.disabled
    assert panel.chart is not None and panel.chart in panel.children
    assert panel.wait(60) and 0 in panel.points  # the chart's first point: the position on the board
    empty = EstimatePanel(lambda: None)
    assert empty.estimate_now() is None and "no game" in empty.text.value


def test_the_chart_follows_the_game_in_the_background_and_drops_stale_positions(monkeypatch):
    from rulebook import estimate_panel
    from rulebook.estimate_panel import EstimatePanel

    monkeypatch.setattr(estimate_panel, "CHART_CPU", 0.1)  # each point's budget: what is tested is the bookkeeping
    monkeypatch.setattr(estimate_panel, "QUIET", 0.05)

    board = meetjesland_board()
    panel = EstimatePanel(lambda: board, cpu=0.2)
    panel.estimate_now()
    assert panel.wait(60)
    board.play(board.session.game.legal_moves(board.session.live)[0])
    panel.board_changed(board)  # what the app does after every redraw
    assert panel.wait(120)
    newest = len(board.session.states) - 1
    assert newest in panel.points and 0 in panel.points
    figure = panel.chart.plot
    assert [trace.name for trace in figure.data] == registry.game("meetjesland").seat_names(3)
    assert list(figure.data[0].x) == sorted(panel.points)
    assert f"after move {newest}" in panel.chart.description
    board.undo()  # the positions after the undone move are no longer the game's: their points go
    panel.board_changed(board)
    assert all(index < len(board.session.states) for index in panel.points)
    other = meetjesland_board(seed=2)
    panel.board_changed(other)  # a new game: the old game's points go
    assert panel.wait(60) and set(panel.points) == {0}


def test_the_app_has_the_tab_before_its_explorer():
    from rulebook.app import App

    app = App("claim", seed=3)
    assert "Winning?" in app.tabs.titles
    assert app.tabs.titles.index("Winning?") < app.odds_tab == len(app.tabs.titles) - 1
    panel = app.estimate_panel
    assert panel.board() is app.board
