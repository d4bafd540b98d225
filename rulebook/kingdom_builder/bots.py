"""Computer players: a random one, a greedy one that takes the move with the best immediate gain in gold, and a
strong one that looks to the end of its turn with the exact score plus a positional evaluation (tiles held, tiles
within reach); ``quick`` is the strong one following only its best move. Each is a function
``<key>_player(state, rng) -> move`` for a key of :data:`BOTS`; :func:`make_strong_player` makes other levels.

``explain(state, move)`` says in players' words why a move is good: the gold it earns now, card by card, the tiles
it takes, and what the rest of the turn adds in the strong player's evaluation. The app's Hint shows it.

Each player's docstring ends with a line on its strength: games won, two players a game unless it says
otherwise, in ``rulebook.play.study.run(game, seats, games, seed=1000)`` (seats rotated; a shared win counts).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .. import core
from .rules import (
    MOVE_TILES,
    AnyMove,
    Build,
    EndTurn,
    State,
    UseTile,
    apply,
    legal_moves,
    new_game,
    outcome,
    score,
)

Bot = Callable[[State, random.Random], AnyMove]

# Move tiles can offer thousands of (origin, target) pairs; the greedy player looks at a random sample of them.
MOVE_SAMPLE = 40


def random_player(state: State, rng: random.Random) -> AnyMove:
    """Any legal move, uniformly at random.

    Strength: the weakest, a baseline: the greedy player beat it in 19 of 20 games."""
    return rng.choice(legal_moves(state))


def _gain(state: State, move: AnyMove, player: int) -> int:
    return score(apply(state, move))[player]["total"]


def greedy_player(state: State, rng: random.Random) -> AnyMove:
    """The move that raises the player's running score (3 cards + castles) most; ties broken at random.

    Building is preferred to ending the turn when it does not cost gold, because every settlement can score later.

    Strength: beats random play (19 of 20 games); quick beat it in 14 of 20, strong in 17 of 20."""
    player = state.player
    assert player is not None
    moves = legal_moves(state)
    builds = [m for m in moves if isinstance(m, Build) or (isinstance(m, UseTile) and m.origin is None)]
    shifts = [m for m in moves if isinstance(m, UseTile) and m.origin is not None]
    if len(shifts) > MOVE_SAMPLE:
        shifts = rng.sample(shifts, MOVE_SAMPLE)
    now = score(state)[player]["total"]
    best: list[AnyMove] = []
    best_value = None
    for move in builds + shifts:
        value = _gain(state, move, player) - now
        # A move tile must earn something to be worth it; a new settlement is worth trying even at no gain.
        if isinstance(move, UseTile) and move.origin is not None and value <= 0:
            continue
        if best_value is None or value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    if best and (best_value is not None and best_value >= 0 or EndTurn() not in moves):
        return rng.choice(best)
    if EndTurn() in moves:
        return EndTurn()
    return rng.choice(moves)


# --- the strong player -------------------------------------------------------------------------------------------

# Weights of the positional evaluation, in gold; tuned by balance studies against the greedy player.
TILE_VALUE = 4.0  # a location tile that builds: one more settlement a turn for the rest of the game
MOVE_TILE_VALUE = 4.0  # a Barn, Harbor or Paddock: no new settlement, but a step towards more tiles and gold
TILE_TURNS = 4  # ... worth its full value while at least this many turns are left
LOCATION_REACH = 0.5  # a free hex next to the player's settlements that touches a location with a tile for them
LOOKAHEAD = 16  # the strong player follows this many of its best moves to the end of the turn
ROLLOUT_SAMPLE = 20  # moving-tile moves tried at each step of that rest of the turn


@dataclass(frozen=True)
class Evaluation:
    """The strong player's view of a position for one player, in gold: the exact score and the positional terms."""

    score: int
    tiles: float
    locations: float

    @property
    def total(self) -> float:
        return self.score + self.tiles + self.locations


def evaluate(state: State, player: int) -> Evaluation:
    """The exact running score of ``player`` plus what the position promises: tiles held (while turns remain),
    and location tiles they can still take within one step."""
    geometry, board = state.geometry, state.board
    turns_left = state.supply[player] / 3
    worth = min(1.0, turns_left / TILE_TURNS)
    tiles = worth * sum(MOVE_TILE_VALUE if tile.kind in MOVE_TILES else TILE_VALUE for tile in state.tiles[player])
    near_tiles: set[int] = set()
    left = dict(state.tiles_left)
    taken = state.taken
    for i, owner in enumerate(board):
        if owner != player:
            continue
        for n in geometry.neighbours[i]:
            if board[n] >= 0 or n not in geometry.buildable:
                continue
            for m in geometry.neighbours[n]:
                if geometry.location[m] and left.get(m, 0) > 0 and (player, m) not in taken:
                    near_tiles.add(m)
    return Evaluation(
        score=score(state)[player]["total"],
        tiles=tiles,
        locations=LOCATION_REACH * len(near_tiles) * worth,
    )


def _ranked(state: State, player: int, rng: random.Random, sample: int = MOVE_SAMPLE) -> list[tuple[float, AnyMove]]:
    """Every candidate move with the evaluation of the position after it, best first (ties in the rng's order)."""
    moves = list(legal_moves(state))
    shifts = [m for m in moves if isinstance(m, UseTile) and m.origin is not None]
    if len(shifts) > sample:
        keep = set(rng.sample(shifts, sample))
        moves = [m for m in moves if not (isinstance(m, UseTile) and m.origin is not None) or m in keep]
    rng.shuffle(moves)
    scored = []
    for move in moves:
        after = state if isinstance(move, EndTurn) else apply(state, move)
        # at equal value, stop rather than shuffle settlements around
        scored.append((evaluate(after, player).total + (1e-6 if isinstance(move, EndTurn) else 0.0), move))
    scored.sort(key=lambda pair: -pair[0])
    return scored


def _turn_end(state: State, player: int, rng: random.Random) -> State:
    """The position at the end of ``player``'s turn when the rest of it is played one move ahead (the evaluation's
    best move each time, moving tiles sampled), before the card is discarded."""
    for _ in range(20):
        if state.player != player or state.finished:
            return state
        ranked = _ranked(state, player, rng, sample=ROLLOUT_SAMPLE)
        if not ranked or isinstance(ranked[0][1], EndTurn):
            return state
        state = apply(state, ranked[0][1])
    return state


def strong_player(state: State, rng: random.Random, lookahead: int | None = None) -> AnyMove:
    """Looks to the end of its turn: the best few moves by the evaluation (exact score + positional terms) are each
    followed by the rest of the turn played one move ahead, and the move whose turn ends best is chosen.

    Ending the turn is chosen when nothing else ends the turn better. ``lookahead`` (default ``LOOKAHEAD``) is its
    budget: how many moves it follows to the end of the turn (1 plays like a one-move-ahead player).

    Strength: the strongest: 89 of 100 games against the greedy player, 13 of 20 against the quick one (study seed
    0, seats rotated); the quick one won 64 of 100 against the greedy player."""
    player = state.player
    assert player is not None
    ranked = _ranked(state, player, rng)
    if len(ranked) == 1:
        return ranked[0][1]
    best_move, best_value = ranked[0][1], float("-inf")
    for _, move in ranked[: LOOKAHEAD if lookahead is None else lookahead]:
        end = state if isinstance(move, EndTurn) else _turn_end(apply(state, move), player, rng)
        value = evaluate(end, player).total + (1e-6 if isinstance(move, EndTurn) else 0.0)
        if value > best_value + 1e-9:
            best_move, best_value = move, value
    return best_move


def make_strong_player(lookahead: int) -> Bot:
    """The strong player with a smaller (or larger) budget: a level for the app's set-up to offer."""
    if not isinstance(lookahead, int) or isinstance(lookahead, bool) or lookahead < 1:
        raise ValueError(f"lookahead: a whole number from 1, not {lookahead!r}")

    def player(state: State, rng: random.Random) -> AnyMove:
        return strong_player(state, rng, lookahead)

    player.__name__ = player.__qualname__ = f"strong_player_{lookahead}"
    return player


strong_bot = make_strong_player  # the factory's former name, kept for callers outside the package


def quick_player(state: State, rng: random.Random) -> AnyMove:
    """The strong player following only its best move to the end of its turn (``make_strong_player(1)``): faster.

    Strength: between greedy and strong: 14 of 20 games against the greedy player; strong beat it in 17 of 20."""
    return strong_player(state, rng, 1)


def explain(state: State, move: AnyMove) -> str:
    """Why ``move`` is good for the player to move, in players' words: the gold it earns now, card by card, the
    tiles it takes or gives up, and how the strong player's evaluation of the end of this turn changes."""
    player = state.player
    if player is None or state.finished:
        return ""
    if isinstance(move, EndTurn):
        return "Nothing left to build or use this turn raises your gold or your position, so end the turn"
    after = apply(state, move)
    before_score, after_score = score(state)[player], score(after)[player]
    gains = [
        f"{part.title()} {after_score[part] - before_score[part]:+d}"
        for part in (*state.cards, "castles")
        if after_score[part] != before_score[part]
    ]
    now = after_score["total"] - before_score["total"]
    words = [f"{now:+d} gold now" + (f" ({', '.join(gains)})" if gains else "")]
    gained = len(after.tiles[player]) - len(state.tiles[player])
    if gained > 0:
        words.append(f"takes {gained} location tile{'s' if gained > 1 else ''} (an extra action every turn)")
    elif gained < 0:
        words.append(f"gives up {-gained} location tile{'s' if gained < -1 else ''}")
    if evaluate(after, player).locations > evaluate(state, player).locations:
        words.append("reaches the side of a location whose tile you can still take")
    end = _turn_end(after, player, random.Random(0))
    change = evaluate(end, player).total - evaluate(state, player).total
    return (
        f"{'; '.join(words)}. With the rest of the turn played as planned, the evaluation (gold plus tiles and "
        f"reach) rises by {change:.1f}"
    )


BOTS: dict[str, Bot] = {
    "random": random_player,
    "greedy": greedy_player,
    "strong": strong_player,
    "quick": quick_player,  # weaker than strong, but listed after it as it always was (the keys' order is public)
}


def play_game(state: State, players: Mapping[int, Bot], rng: random.Random) -> State:
    """Play ``state`` to the end with one bot per seat; chance nodes are sampled with ``rng``."""
    while outcome(state) is None:
        state = core.advance(state, rng)
        if outcome(state) is not None:
            break
        assert state.player is not None
        state = apply(state, players[state.player](state, rng))
    return state


def tournament(seats: tuple[str, ...], games: int, seed: int = 0) -> list[dict[str, object]]:
    """Play ``games`` games between the named bots (random set-ups); one record per game and seat."""
    rng = random.Random(seed)
    records: list[dict[str, object]] = []
    for game in range(games):
        # Rotate the seats so no bot always starts.
        order = seats[game % len(seats) :] + seats[: game % len(seats)]
        state = new_game(players=len(order), seed=seed * 10_000 + game)
        final = play_game(state, {p: BOTS[name] for p, name in enumerate(order)}, rng)
        result = outcome(final)
        assert result is not None
        totals = score(final)
        for p, name in enumerate(order):
            records.append(
                {
                    "game": game,
                    "seat": p,
                    "bot": name,
                    "total": totals[p]["total"],
                    "won": p in result.winners,
                    "turns": final.turns[p],
                    "settlements": 40 - final.supply[p],
                    **{card: totals[p][card] for card in (*final.cards, "castles")},
                }
            )
    return records
