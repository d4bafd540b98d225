"""Who is winning (issue 29.1): the estimate's interval holds the answer where the answer is known, the budget is kept
(counted in playouts), the same seed gives the same estimate and bad input is refused."""

from __future__ import annotations

import dataclasses
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
    result = est.estimate(position, seed=0, playouts=400, cpu=None, viewer=est.EVERYONE)  # the missions as dealt
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
    result = est.estimate(position, seed=2, playouts=7, cpu=None, viewer=est.EVERYONE)
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


def test_bad_viewers_are_refused():
    start = claim.new_game(players=2, seed=0)
    for bad in (2, -1, True, "white", 0.5):
        with pytest.raises(ValueError, match="viewer"):
            est.estimate(start, playouts=1, viewer=bad)


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


def test_the_tab_tells_each_seat_in_words_and_a_bar_on_request(monkeypatch):
    from rulebook import estimate_panel
    from rulebook.estimate_panel import EstimatePanel
    from rulebook.play import estimate as estimates

    # the fewest playouts worth a number (issue 48.7), counted in playouts: an ample budget ends at the count
    monkeypatch.setattr(estimates, "PLAYOUTS", estimates.MIN_PLAYOUTS)
    monkeypatch.setattr(estimate_panel, "CHART_PLAYOUTS", estimates.MIN_PLAYOUTS)
    monkeypatch.setattr(estimate_panel, "CHART_CPU", 120.0)
    board = meetjesland_board()
    panel = EstimatePanel(lambda: board, cpu=120.0)
    assert panel.chart is None and "Press the button" in panel.text.value  # nothing computed before it is asked
    panel.button.click()
    text = panel.text.value
    for name in registry.game("meetjesland").seat_names(3):
        assert name in text
    assert text.count("<meter") == 3 and "95 % interval" in text and "an estimate" in text
    assert "know only what White sees" in text and not panel.button.disabled  # White, a person, is to move
    assert panel.chart is not None and panel.chart in panel.children
    assert panel.wait(60) and 0 in panel.points  # the chart's first point: the position on the board
    empty = EstimatePanel(lambda: None)
    assert empty.estimate_now() is None and "no game" in empty.text.value


def test_the_chart_follows_the_game_in_the_background_and_drops_stale_positions(monkeypatch):
    from rulebook import estimate_panel
    from rulebook.estimate_panel import EstimatePanel
    from rulebook.play import estimate as estimates

    # each point: the fewest playouts worth a number (issue 48.7); what is tested is the bookkeeping
    monkeypatch.setattr(estimate_panel, "CHART_PLAYOUTS", estimates.MIN_PLAYOUTS)
    monkeypatch.setattr(estimate_panel, "CHART_CPU", 120.0)
    monkeypatch.setattr(estimate_panel, "QUIET", 0.05)
    monkeypatch.setattr(estimates, "PLAYOUTS", estimates.MIN_PLAYOUTS)

    board = meetjesland_board()
    panel = EstimatePanel(lambda: board, cpu=120.0)
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


# -- hidden information: what the viewer cannot see is dealt again for each playout --------------------------------


def played(game: str, players: int, seed: int, moves: int) -> object:
    """A game of greedy players ``moves`` decisions in (chance drawn from ``Random(seed)``), waiting on a decision."""
    declared = registry.game(game)
    engine, bot = declared.engine, declared.bots()["greedy"]
    state, rng = declared.new_state(players, seed), random.Random(seed)
    for _ in range(moves):
        state = advance(state, rng)
        following = engine.apply(state, bot(state, rng))
        if engine.outcome(advance(following, random.Random(0))) is not None:
            break
        state = following
    return advance(state, rng)


def test_meetjesland_redeals_the_hidden_missions_and_hands_and_keeps_what_is_public():
    from rulebook.meetjesland import hidden

    state = played("meetjesland", 3, seed=1, moves=400)
    assert state.phase == "play" and sum(len(hand) for hand in state.hands) >= 2  # there are hands to deal again
    refused = hidden.refused_missions(state)
    cards = len(state.config.missions)
    for viewer in (0, 1, None):
        deals = [hidden.redeal(state, viewer, random.Random(seed)) for seed in range(40)]
        for deal in deals:
            assert (deal.owner, deal.points, deal.turn, deal.phase, deal.alive) == (
                state.owner,
                state.points,
                state.turn,
                state.phase,
                state.alive,
            )
            assert [len(hand) for hand in deal.hands] == [len(hand) for hand in state.hands]
            assert sorted(deal.pile + sum(deal.hands, ())) == sorted(state.pile + sum(state.hands, ()))
            assert len(set(deal.missions)) == state.players and all(0 <= m < cards for m in deal.missions)
            assert all(deal.missions[seat] not in refused[seat] for seat in range(state.players))  # MJ-C6
            if viewer is not None:
                assert deal.missions[viewer] == state.missions[viewer] and deal.hands[viewer] == state.hands[viewer]
                others = [m for seat, m in enumerate(deal.missions) if seat != viewer]
                assert state.missions[viewer] not in others  # the viewer holds that card: nobody else does
            assert mj.outcome(deal) is None and mj.legal_moves(deal)
        others = [seat for seat in range(state.players) if seat != viewer]
        assert any(deal.missions[seat] != state.missions[seat] for deal in deals for seat in others)
        held = [seat for seat in others if state.hands[seat]]
        assert any(deal.hands[seat] != state.hands[seat] for deal in deals for seat in held)
    again = [hidden.redeal(state, None, random.Random(seed)) for seed in range(5)]
    assert again == [hidden.redeal(state, None, random.Random(seed)) for seed in range(5)]  # seeded


def test_meetjesland_rules_out_only_missions_the_game_has_shown_a_player_does_not_hold():
    from rulebook.meetjesland import hidden
    from rulebook.meetjesland.rules import mission_done

    for seed in (1, 2, 3):
        state = played("meetjesland", 3, seed=seed, moves=150 * seed)
        refused = hidden.refused_missions(state)
        assert all(state.missions[seat] not in refused[seat] for seat in range(state.players))  # the real deal agrees
        turn = state.turn  # MJ-C6 checked the player on turn here: a mission fulfilled now is one they do not hold
        for mission in range(len(state.config.missions)):
            trial = dataclasses.replace(state, missions=state.missions[:turn] + (mission,) + state.missions[turn + 1 :])
            if mission_done(trial, turn):
                assert mission in refused[turn]
    assert hidden.refused_missions(one_battle()) == (frozenset(),) * 3  # a written position has no log to rule out


def unseen(state, seats: list[int]) -> list[str]:
    """Kingdom Builder: the cards of the pile and of the hands of ``seats``, as one sorted list."""
    from rulebook.kingdom_builder.rules import TERRAINS

    return sorted(
        [terrain for terrain, n in zip(TERRAINS, state.pile) for _ in range(n)] + [state.hands[s] for s in seats]
    )


def test_kingdom_builder_redeals_the_cards_of_the_players_not_on_turn():
    from rulebook import kingdom_builder as kb
    from rulebook.kingdom_builder import hidden

    state = played("kingdom_builder", 3, seed=2, moves=20)
    assert state.player is not None and all(card is not None for card in state.hands)
    for viewer in (0, 1, 2, None):
        deals = [hidden.redeal(state, viewer, random.Random(seed)) for seed in range(30)]
        hidden_seats = [s for s in range(3) if s != viewer and s != state.player]
        for deal in deals:
            assert (deal.board, deal.supply, deal.discard, deal.removed, deal.tiles, deal.player) == (
                state.board,
                state.supply,
                state.discard,
                state.removed,
                state.tiles,
                state.player,
            )
            assert deal.hands[state.player] == state.hands[state.player]  # shown on its turn
            if viewer is not None:
                assert deal.hands[viewer] == state.hands[viewer]
            assert unseen(deal, hidden_seats) == unseen(state, hidden_seats)
            assert kb.legal_moves(deal)
        assert any(deal.hands[seat] != state.hands[seat] for deal in deals for seat in hidden_seats)


def test_an_onlookers_estimate_of_meetjesland_seed_1_plays_other_missions_than_whites(monkeypatch):
    from rulebook.meetjesland import hidden

    start = registry.game("meetjesland").new_state(3, 1)
    dealt: list[tuple[int, ...]] = []
    real = hidden.redeal

    def recording(state, viewer, rng):
        deal = real(state, viewer, rng)
        dealt.append(deal.missions)
        return deal

    monkeypatch.setattr(hidden, "redeal", recording)
    greedy = est.Policy("greedy")
    onlooker = est.estimate(start, seed=3, playouts=6, cpu=None, policy=greedy)
    assert len(dealt) == 6 and any(missions[0] != start.missions[0] for missions in dealt)
    assert "what an onlooker sees" in onlooker.text()
    dealt.clear()
    white = est.estimate(start, seed=3, playouts=6, cpu=None, policy=greedy, viewer=0)
    assert len(dealt) == 6 and all(missions[0] == start.missions[0] for missions in dealt)
    assert any(missions[1:] != start.missions[1:] for missions in dealt) and "what White sees" in white.text()
    dealt.clear()
    everything = est.estimate(start, seed=3, playouts=6, cpu=None, policy=greedy, viewer=est.EVERYONE)
    assert dealt == [] and "see the whole position" in everything.text()


def test_the_same_seed_and_viewer_give_the_same_estimate_with_hidden_information():
    start = played("meetjesland", 3, seed=4, moves=120)
    greedy = est.Policy("greedy")
    for viewer in (None, 1):
        first = est.estimate(start, seed=5, playouts=6, cpu=None, policy=greedy, viewer=viewer)
        again = est.estimate(start, seed=5, playouts=6, cpu=None, policy=greedy, viewer=viewer)
        assert first.seats == again.seats and first.moves == again.moves


def test_a_game_without_hidden_information_says_so_and_the_registry_checks_the_reference():
    result = est.estimate(claim.new_game(players=2, seed=0), playouts=2, cpu=None, policy="quick")
    assert "Nothing in this game is hidden" in result.text()
    assert registry.game("claim").redeal == "" and registry.game("meetjesland").redeal
    declared = registry.game("claim")
    with pytest.raises(ValueError, match="redeal"):
        registry.Game(**{**declared.__dict__, "redeal": "not a reference"})
