"""Computer players for Claim: a random one and a greedy one (towers, captures and safety first).

A bot is a function ``(state, rng) -> move``; ties are broken with the ``random.Random`` it is given,
so a seeded game is the same every time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .rules import (
    DIRECTIONS,
    EMPTY,
    Jump,
    Place,
    PlaceTower,
    Point,
    Remove,
    State,
    Step,
    apply,
    captures_of,
    legal_moves,
    outcome,
)

Bot = Callable[[State, random.Random], Any]


def random_bot(state: State, rng: random.Random) -> Any:
    """Any legal move, uniformly at random."""
    return rng.choice(legal_moves(state))


def exposure(state: State, point: Point, player: int, grid: Sequence[str] | None = None) -> int:
    """How many ways an enemy could capture the thing on ``point`` with one step next turn (a cheap danger count)."""
    grid = state.grid if grid is None else grid
    seats = state._seat_of_letter()

    def enemy_at(spot: Point) -> bool:
        row, column = spot
        if not (0 <= row < len(grid) and 0 <= column < len(grid[0])):
            return False
        char = grid[row][column]
        return char not in (EMPTY, "#") and state.enemies(player, seats[char.lower()])

    danger = 0
    row, column = point
    for dr, dc in DIRECTIONS:
        holder, gap = (row + dr, column + dc), (row - dr, column - dc)
        if gap not in state.island or grid[gap[0]][gap[1]] != EMPTY:
            continue
        if holder in state.island and not enemy_at(holder):
            continue
        # the far side is an enemy or the edge; an enemy next to the gap could step in and capture
        if any(enemy_at(near) for near in state.island.neighbours[gap] if near != point):
            danger += 1
    return danger


def _pieces_in(state: State, territory: str, grid: Sequence[str]) -> dict[int, int]:
    seats = state._seat_of_letter()
    counts: dict[int, int] = {}
    for row, column in state.island.territories[territory]:
        char = grid[row][column]
        if char not in (EMPTY, "#") and char.islower():
            counts[seats[char]] = counts.get(seats[char], 0) + 1
    return counts


def score(state: State, move: Any) -> float:
    """The greedy player's value of a move for the player to move (higher is better)."""
    player = state.turn
    if isinstance(move, PlaceTower):
        grid = state.grid
        guards = sum(1 for near in state.island.neighbours[move.point] if state.owner(near) in state.team(player))
        return 1000 - 60 * exposure(state, move.point, player) + 5 * guards - 3 * state.island.on_edge[move.point]
    if isinstance(move, Place):
        point = move.point
        own = sum(1 for near in state.island.neighbours[point] if state.owner(near) == player)
        territory = state.island.territory[point]
        here = _pieces_in(state, territory, state.grid).get(player, 0)
        return 3 * own + (8 if here < 4 else 0) - 4 * state.island.on_edge[point] - 5 * exposure(state, point, player)
    if isinstance(move, Remove):
        point = move.point
        territory = state.island.territory[point]
        counts = _pieces_in(state, territory, state.grid)
        victim = state.owner(point)
        others = sum(n for seat, n in counts.items() if seat != player)
        near_own = sum(1 for near in state.island.neighbours[point] if state.owner(near) in state.team(player))
        alone_next = counts.get(player, 0) > 0 and others == 1 and victim is not None
        return 50 * alone_next + 6 * near_own + 2 * (counts.get(player, 0) - others)
    if isinstance(move, (Step, Jump)):
        captured = captures_of(state, move)
        value = 0.0
        for point in captured:
            value += 300 if state.is_tower(point) else 100
        changes = {move.origin: EMPTY, move.destination: state.letter(player)}
        changes.update(dict.fromkeys(captured, EMPTY))
        grid = list(state.grid)
        for (row, column), char in changes.items():
            grid[row] = grid[row][:column] + char + grid[row][column + 1 :]
        value -= 40 * exposure(state, move.destination, player, grid)
        before = exposure(state, move.origin, player)
        value += 10 * before
        territory = state.island.territory[move.destination]
        counts = _pieces_in(state, territory, grid)
        enemies = sum(n for seat, n in counts.items() if state.enemies(player, seat))
        holder = state.tower_owner(territory)
        own_tower = holder is not None and holder in state.team(player)
        if enemies == 0 and not own_tower:
            value += 60  # this move conquers a territory
        elif holder is not None and not own_tower:
            value += 8  # attack a territory with an enemy tower
        source = state.island.territory[move.origin]
        source_holder = state.tower_owner(source)
        if source != territory and source_holder in state.team(player):
            left = _pieces_in(state, source, grid).get(player, 0)
            if left == 0:
                value -= 25  # do not leave an own tower without a guard
        return value
    return 0.0


def greedy_bot(state: State, rng: random.Random) -> Any:
    """Best-scoring legal move by :func:`score`, ties broken at random: towers, captures, then safety."""
    moves = legal_moves(state)
    best = None
    best_moves: list[Any] = []
    for move in moves:
        value = score(state, move)
        if best is None or value > best:
            best, best_moves = value, [move]
        elif value == best:
            best_moves.append(move)
    return rng.choice(best_moves)


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot}


def play_game(state: State, bots: Sequence[Bot], rng: random.Random, max_moves: int = 5000) -> State:
    """Play a game out with one bot per seat; returns the final state (history included)."""
    for _ in range(max_moves):
        if outcome(state) is not None:
            return state
        state = apply(state, bots[state.turn](state, rng))
    raise RuntimeError(f"the game did not end within {max_moves} moves")


# --- games for the charts and the bench -------------------------------------------------------------------------


def play_games(players: int, count: int, seed: int, seat_bots: Sequence[Bot] | None = None) -> list[State]:
    """``count`` finished games on the fixed island, game ``i`` seeded with ``seed + i`` (bots default to greedy)."""
    from .rules import new_game

    finished = []
    for index in range(count):
        rng = random.Random(seed + index)
        chosen = list(seat_bots) if seat_bots is not None else [greedy_bot] * players
        finished.append(play_game(new_game(players=players, seed=seed + index), chosen, rng))
    return finished


def greedy_vs_random(count: int, seed: int, players: int = 2) -> tuple[int, int]:
    """Games won by the greedy side against random players: game ``i`` uses seed ``seed + i`` and the greedy
    side alternates between the two sides (seats 0/2 and 1/3 with four players). Returns (wins, games)."""
    from .rules import new_game

    wins = 0
    for index in range(count):
        greedy_side = index % 2
        seats = [greedy_bot if seat % 2 == greedy_side else random_bot for seat in range(players)]
        final = play_game(new_game(players=players, seed=seed + index), seats, random.Random(seed + index))
        wins += bool(final.result.winners) and final.result.winners[0] % 2 == greedy_side
    return wins, count


def play_until_battle(state: State, rng: random.Random, bot: Bot | None = None) -> State:
    """Play the placement and removal phases with one bot for everybody (greedy by default)."""
    bot = greedy_bot if bot is None else bot
    while state.phase != "battle" and outcome(state) is None:
        state = apply(state, bot(state, rng))
    return state


def game_record(final: State) -> list[dict[str, Any]]:
    """Replay a finished game: one row per battle turn with the mover, captures made and towers per side after it."""
    import json

    from .rules import start_from_setup, teams_of

    state = start_from_setup(json.loads(final.setup))
    sides = teams_of(state.players)
    rows: list[dict[str, Any]] = []
    captured = 0
    for move in final.history:
        mover = state.turn
        if isinstance(move, (Step, Jump)):
            captured += len(captures_of(state, move))
        battle = state.phase == "battle"
        state = apply(state, move)
        if battle and (state.turn != mover or state.result is not None):
            towers = tuple(sum(len(state.towers(p)) for p in side) for side in sides)
            holders = {t: state.tower_owner(t) for t in state.island.letters}
            rows.append(
                {"turn": len(rows) + 1, "mover": mover, "captured": captured, "towers": towers, "holders": holders}
            )
            captured = 0
    return rows


def conquests(final: State) -> dict[str, int]:
    """How many times each territory changed hands (towers placed in it) in a finished game."""
    counts = dict.fromkeys(final.island.letters, 0)
    for move in final.history:
        if isinstance(move, PlaceTower):
            counts[move.territory] += 1
    return counts
