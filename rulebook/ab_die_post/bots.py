"""Computer players for Ab die Post!: a random player, threshold players (draw until a target, then fly; the greedy
player draws to 6) and a strong player that draws by the exact odds, plus a seeded game runner and the studies used
by ``bench``.

Each player of :data:`BOTS` is a function ``<key>_player(state, rng) -> move``, as in every game; a player with
parameters is made by ``make_threshold_player(target)`` or ``make_route_player(target, detour)``.

Each player's docstring ends with a line on its strength: games won, two players a game unless it says
otherwise, in ``rulebook.play.study.run(game, seats, games, seed=1000)`` (seats rotated; a shared win counts).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from ..core import pick
from .rules import (
    LANES,
    Config,
    DrawCard,
    Fly,
    KeepCard,
    Move,
    Repair,
    State,
    Stay,
    Stop,
    apply,
    chance_outcomes,
    describe_cards,
    hand_points,
    legal_moves,
    new_game,
    outcome,
    picks_up_passenger,
    steps_left,
)

Bot = Callable[[State, random.Random], Any]


def random_player(state: State, rng: random.Random) -> Any:
    """Any legal move, uniformly at random.

    Strength: the weakest, a baseline: the greedy player beat it in 20 of 20 games."""
    return rng.choice(legal_moves(state))


GREEDY_TARGET = 6  # the points the greedy player draws to before it flies


def _threshold_move(state: State, target: int) -> Any:
    """The threshold player's move: draw until the hand holds ``target`` points, then fly as far as its cards cover
    the repairs of the lane (passenger first on ties), pay the cheapest repairs, keep the best card."""
    moves = legal_moves(state)
    points = hand_points(state.hands[state.player])
    if state.phase == "turn":
        if Fly() in moves and points >= target:
            return Fly()
        if points < target and DrawCard() in moves:
            return DrawCard()
        if Stop() in moves:
            return Stop()
        return moves[0]
    if state.phase == "move":
        # Routes come farthest first; prefer a lane whose hurricane repairs the hand can pay.
        routes = [move for move in moves if isinstance(move, Move)]
        affordable = [move for move in routes if _repair_cost_at(state, move.path[-1]) <= points]
        return (affordable or routes or [moves[-1]])[0]
    if state.phase == "keep":
        return max(moves, key=lambda move: move.value if isinstance(move, KeepCard) else 0)
    return moves[0]  # repairs: the cheapest payment is listed first


def _check_target(target: Any) -> int:
    if not isinstance(target, int) or isinstance(target, bool) or target < 1:
        raise ValueError(f"target: the points to draw to, a whole number from 1, not {target!r}")
    return target


def greedy_player(state: State, rng: random.Random) -> Any:
    """The threshold player drawing to 6 points (``make_threshold_player(6)``): it flies whenever its hand holds 6.

    Strength: beats random play (20 of 20 games); the strong player beat it in 19 of 20."""
    return _threshold_move(state, GREEDY_TARGET)


def make_threshold_player(target: int) -> Bot:
    """A player who draws until the hand holds ``target`` points and flies whenever it does: as far as it can on a
    lane whose repairs its cards cover (passenger first on ties), paying the cheapest repairs, keeping its best card."""
    _check_target(target)

    def play(state: State, rng: random.Random) -> Any:
        return _threshold_move(state, target)

    play.__name__ = f"threshold_{target}"
    play.__qualname__ = play.__name__
    return play


def make_route_player(target: int = 6, detour: bool = False) -> Bot:
    """A threshold player that flies to the field nearest the arrival (fewest steps left) on a lane whose repairs its
    cards cover; with ``detour``, while the passenger card is free it heads for the passenger fields instead."""
    _check_target(target)

    def play(state: State, rng: random.Random) -> Any:
        if state.phase != "move":
            return _threshold_move(state, target)
        moves = legal_moves(state)
        points = hand_points(state.hands[state.player])
        routes = [move for move in moves if isinstance(move, Move)]
        routes = [move for move in routes if _repair_cost_at(state, move.path[-1]) <= points] or routes
        if not routes:
            return moves[-1]
        direct = steps_left(state.track, state.direction)
        via = steps_left(state.track, state.direction, via_passenger=True) if detour else {}

        def left(move: Move) -> int:
            end = move.path[-1]
            if detour and state.passenger is None and not picks_up_passenger(state, move.path) and end in via:
                return via[end]
            return direct.get(end, 0)

        return min(routes, key=left)  # ties keep the engine's order: farthest first, the passenger first

    play.__name__ = f"route_{target}_{'detour' if detour else 'direct'}"
    play.__qualname__ = play.__name__
    return play


def passenger_study(games: int = 40, players: int = 4, seed: int = 0) -> dict[str, Fraction]:
    """Is the passenger worth a detour? Half the seats fly straight for the arrival, half head for the passenger
    while it is free (seats swap every game); both draw to 6. Returns, per kind of player, the mean points per game,
    the share of wins (shared wins as fractions) and the share of scored flights in which it held the passenger."""
    rng = random.Random(seed)
    points = {"detour": Fraction(0), "direct": Fraction(0)}
    wins = {"detour": Fraction(0), "direct": Fraction(0)}
    carried = {"detour": 0, "direct": 0}
    flights = 0
    for game in range(games):
        kinds = ["detour" if (seat + game) % 2 == 0 else "direct" for seat in range(players)]
        bots = [make_route_player(6, detour=kind == "detour") for kind in kinds]
        state = new_game(players=players, seed=rng.randrange(2**31))
        chance = random.Random(state.seed)
        while outcome(state) is None:
            outcomes = chance_outcomes(state)
            move = pick(outcomes, chance) if outcomes else bots[state.player](state, chance)
            after = apply(state, move)
            if after.scores != state.scores:  # a flight ended: who held the passenger when it was scored
                flights += 1
                holder = state.passenger
                if holder is None and isinstance(move, Move) and picks_up_passenger(state, tuple(move.path)):
                    holder = state.player
                if holder is not None:
                    carried[kinds[holder]] += 1
            state = after
        result = outcome(state)
        for seat, kind in enumerate(kinds):
            points[kind] += state.scores[seat]
            if seat in result.winners:
                wins[kind] += Fraction(1, len(result.winners))
    seats = Fraction(games * players, 2)
    summary: dict[str, Fraction] = {}
    for kind in ("detour", "direct"):
        summary[f"{kind}: mean points per game"] = points[kind] / seats
        summary[f"{kind}: share of wins"] = wins[kind] / games
        summary[f"{kind}: share of flights with the passenger"] = Fraction(carried[kind], max(flights, 1))
    return summary


def _repair_cost_at(state: State, field: str) -> int:
    lane = state.track.lane[field]
    return 0 if lane is None else state.config.repair[LANES.index(lane)]


def play_game(bots: Sequence[Bot], seed: int, config: Config | None = None, max_plies: int = 200_000) -> State:
    """Play a whole game between computer players, one per seat, with chance and bots driven by ``seed``."""
    rng = random.Random(seed)
    state = new_game(players=len(bots), seed=seed, config=config)
    for _ in range(max_plies):
        if outcome(state) is not None:
            return state
        outcomes = chance_outcomes(state)
        move = pick(outcomes, rng) if outcomes else bots[state.player](state, rng)
        state = apply(state, move)
    raise RuntimeError(f"game with seed {seed} did not end within {max_plies} plies")


def threshold_study(
    thresholds: Sequence[int] = tuple(range(4, 13)), games: int = 20, players: int = 4, seed: int = 0
) -> dict[int, Fraction]:
    """Win rate of a threshold player for each target, against opponents with targets drawn from the same range.

    Every game seats the tested player in a rotating seat; shared wins count as fractions."""
    rng = random.Random(seed)
    rates: dict[int, Fraction] = {}
    for target in thresholds:
        wins = Fraction(0)
        for game in range(games):
            seat = game % players
            bots = [make_threshold_player(rng.choice(thresholds)) for _ in range(players)]
            bots[seat] = make_threshold_player(target)
            result = outcome(play_game(bots, seed=rng.randrange(2**31)))
            if seat in result.winners:
                wins += Fraction(1, len(result.winners))
        rates[target] = wins / games
    return rates


# --- the strong player: the exact draw policy (issue 16.1) -------------------------------------------------


def _lane_cost(state: State, lane: str | None) -> int:
    return 0 if lane is None else state.config.repair[LANES.index(lane)]


def _fly_reserve(state: State) -> int:
    """Points a hand should hold before it flies: one repair on the dearest lane the plane may end on (the inner
    lane's 8), or, once the plane is out on a lane, that lane's repair and a little more for a second hurricane."""
    lane = state.track.lane[state.positions[state.player]]
    if lane is None:
        return max(state.config.fly_minimum, state.config.repair[0])
    return max(state.config.fly_minimum, _lane_cost(state, lane) + state.config.repair[-1])


def _best_route(state: State, moves: Sequence[Any]) -> Any:
    """Nearest the arrival (fewest steps left) on a lane whose repairs the hand pays; the passenger breaks ties. With
    no such route, the one that ends on the cheapest lane, as far as it goes; staying when that is dearer than now."""
    points = hand_points(state.hands[state.player])
    routes = [move for move in moves if isinstance(move, Move)]
    if not routes:
        return Stay()
    direct = steps_left(state.track, state.direction)

    def cost(move: Move) -> int:
        return _repair_cost_at(state, move.path[-1])

    affordable = [move for move in routes if cost(move) <= points]
    if affordable:
        return min(
            affordable, key=lambda move: (direct.get(move.path[-1], 0), not picks_up_passenger(state, move.path))
        )
    here = _repair_cost_at(state, state.positions[state.player])
    cheapest = min(routes, key=lambda move: (cost(move), direct.get(move.path[-1], 0)))
    if state.track.lane[state.positions[state.player]] is not None and cost(cheapest) > here:
        return Stay()
    return cheapest


def _best_payment(state: State, moves: Sequence[Any]) -> Any:
    """The payment that leaves the most repairs on this lane still affordable, then the most points, then the fewest
    red 3s (they are what busts a later draw)."""
    from .odds import repairs_affordable

    hand = state.hands[state.player]
    cost = _repair_cost_at(state, state.positions[state.player])

    def left(move: Any) -> tuple[int, int, int]:
        rest = (hand[0] - move.ones, hand[1] - move.twos, hand[2] - move.reds)
        return (repairs_affordable(rest, cost) if cost else 0, hand_points(rest), -rest[2])

    return max(moves, key=left)


def strong_player(state: State, rng: random.Random) -> Any:
    """The exact draw policy: a drawing turn goes on while drawing one more card, then stopping at the best moment,
    ends it with more points on average (``advisor.choose``, exact over the pile and the discard behind it); it flies
    once the hand pays the repairs of the lane it will fly on, to the field nearest the arrival on a lane it can pay
    for; pays repairs keeping the most repairs affordable; keeps its best card. No chance is drawn from ``rng``.

    Strength: the strongest: 19 of 20 games against the greedy player (60 of 60 in RESEARCH.md, section 7)."""
    from . import advisor

    moves = legal_moves(state)
    if state.phase == "turn":
        hand = state.hands[state.player]
        if not state.drawn:
            if Fly() in moves and hand_points(hand) >= _fly_reserve(state):
                return Fly()
            return DrawCard()
        pile, reserve = advisor.cards_left(state)
        choice = advisor.choose("points", hand_points(hand), hand[2], pile, reserve)
        return DrawCard() if choice.draw else Stop()
    if state.phase == "move":
        return _best_route(state, moves)
    if state.phase == "repair":
        return _best_payment(state, moves)
    if state.phase == "keep":
        return max(moves, key=lambda move: move.value)
    return moves[0]


BOTS: dict[str, Bot] = {"random": random_player, "greedy": greedy_player, "strong": strong_player}

# The names these had before every game named its players one way; the same functions, kept for outside callers.
random_bot = random_player
threshold_bot = make_threshold_player
route_bot = make_route_player
strong_bot = strong_player


def explain(state: State, move: Any) -> str:
    """Why a move is good, in players' words: the exact odds behind a draw or a stop, the repairs a flight must be
    able to pay, the lane a route ends on (the Hint button shows it beside the move)."""
    from . import advisor

    player = state.player
    if player is None:
        return ""
    hand = state.hands[player]
    points = hand_points(hand)
    if state.phase == "turn" and isinstance(move, (DrawCard, Stop)):
        if isinstance(move, DrawCard) and not state.drawn:
            if Fly() not in legal_moves(state):
                return f"Flying needs {state.config.fly_minimum} points; you hold {points}."
            return (
                f"You hold {points} points; the strong player flies once its hand pays {_fly_reserve(state)} "
                "(the repairs of the lane it will fly on), so it draws first."
            )
        pile, reserve = advisor.cards_left(state)
        choice = advisor.choose("points", points, hand[2], pile, reserve)
        bust = advisor.next_bust(hand[2], pile, reserve)
        risk = (
            f"the next card busts (a third red 3) with chance {advisor.chance_text(bust)}"
            if hand[2] == 2
            else "the next card cannot bust (fewer than two red 3s held)"
        )
        if choice.value_if_draw is None:
            return "No card is left to draw."
        return (
            f"Exact odds: {risk}; drawing on, then stopping at the best moment, ends the turn with "
            f"{advisor.points_text(choice.value_if_draw)} on average, against {points} if you stop now."
        )
    if isinstance(move, Fly):
        cost = _repair_cost_at(state, state.positions[player])
        if cost == 0:  # still on the departure field: the flight may end on the dearest lane
            cost, where = state.config.repair[0], "the inner lane's repairs (the dearest)"
        else:
            where = f"the repairs of your lane ({cost})"
        if points >= cost:
            return f"Your {points} points cover {where}: a hurricane there would not send you back."
        return f"Your {points} points do not cover {where}: a hurricane there would send you back."
    if isinstance(move, Move):
        lane = state.track.lane.get(move.path[-1])
        cost = _repair_cost_at(state, move.path[-1])
        left = steps_left(state.track, state.direction).get(move.path[-1], 0)
        afford = "your cards pay them" if cost <= points else "no route ends on a lane your cards pay for"
        where = "the arrival" if lane is None else f"the {lane} lane, {left} steps from the arrival"
        return f"It ends on {where}; repairs there cost {cost} and {afford}."
    if isinstance(move, Stay):
        return "No route ends on a lane whose repairs your cards pay, and staying keeps your lane."
    if isinstance(move, Repair):
        rest = (hand[0] - move.ones, hand[1] - move.twos, hand[2] - move.reds)
        return f"This payment keeps {describe_cards(rest)} ({hand_points(rest)} points) for the next hurricane."
    if isinstance(move, KeepCard):
        return "The highest card gives the next flight the best start."
    return ""
