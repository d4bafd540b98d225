"""Computer players for Claim: a random one, a greedy one (towers, captures and safety first), a strong one that
searches its own turn and the enemy's reply, and a quick one searching its own turn only; ``explain(state, move)``
gives the reason behind a move in players' words, for the board's Hint.

Each player of :data:`BOTS` is a function ``<key>_player(state, rng) -> move``, as in every game, and
``make_strong_player(turns, node_limit)`` makes other levels; ties are broken with the ``random.Random`` it is given,
so a seeded game is the same every time.
Each player's docstring ends with a line on its strength: games won, two players a game unless it says
otherwise, in ``rulebook.play.study.run(game, seats, games, seed=1000)`` (seats rotated; a shared win counts).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from .diagram import start_from_setup
from .narrate import captures_text, name
from .rules import (
    DIRECTIONS,
    EMPTY,
    Jump,
    Pass,
    Place,
    PlaceTower,
    Point,
    Remove,
    State,
    Step,
    Stop,
    _play,
    apply,
    captures_of,
    conquerable,
    legal_moves,
    new_game,
    outcome,
    teams_of,
)

Bot = Callable[[State, random.Random], Any]


def random_player(state: State, rng: random.Random) -> Any:
    """Any legal move, uniformly at random.

    Strength: the weakest, a baseline: the greedy player beat it in 20 of 20 games."""
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


def greedy_player(state: State, rng: random.Random) -> Any:
    """Best-scoring legal move by :func:`score`, ties broken at random: towers, captures, then safety.

    Strength: beats random play (20 of 20 games); quick beat it in 16 of 20, strong in 19 of 20."""
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
    finished = []
    for index in range(count):
        rng = random.Random(seed + index)
        chosen = list(seat_bots) if seat_bots is not None else [greedy_player] * players
        finished.append(play_game(new_game(players=players, seed=seed + index), chosen, rng))
    return finished


def greedy_vs_random(count: int, seed: int, players: int = 2) -> tuple[int, int]:
    """Games won by the greedy side against random players: game ``i`` uses seed ``seed + i`` and the greedy
    side alternates between the two sides (seats 0/2 and 1/3 with four players). Returns (wins, games)."""
    wins = 0
    for index in range(count):
        greedy_side = index % 2
        seats = [greedy_player if seat % 2 == greedy_side else random_player for seat in range(players)]
        final = play_game(new_game(players=players, seed=seed + index), seats, random.Random(seed + index))
        wins += bool(final.result.winners) and final.result.winners[0] % 2 == greedy_side
    return wins, count


def play_until_battle(state: State, rng: random.Random, bot: Bot | None = None) -> State:
    """Play the placement and removal phases with one bot for everybody (greedy by default)."""
    bot = greedy_player if bot is None else bot
    while state.phase != "battle" and outcome(state) is None:
        state = apply(state, bot(state, rng))
    return state


def game_record(final: State) -> list[dict[str, Any]]:
    """Replay a finished game: one row per battle turn with the mover, captures made and towers per side after it."""
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


# --- the strong player: a short search ahead ----------------------------------------------------------------------

WIN = 1_000_000.0
PIECE, TOWER = 100.0, 700.0  # a tower is most of the way to a win (3 towers), a piece is material
# a territory held alone: the side about to move puts a tower there next; the other side may yet lose it
CONQUEST_NOW, CONQUEST_LATER = 380.0, 140.0
THREAT_NOW, THREAT_LATER = 45.0, 12.0  # an enemy piece one step from capture, for the mover and for the other side


def _tally(state: State) -> tuple[list[int], list[int], dict[str, list[int]], dict[str, int | None]]:
    """Pieces and towers per seat, pieces per territory per seat, and the tower holder of each territory."""
    seats = state._seat_of_letter()
    grid = state.grid
    territory_of = state.island.territory
    pieces = [0] * state.players
    towers = [0] * state.players
    inside: dict[str, list[int]] = {letter: [0] * state.players for letter in state.island.letters}
    holder: dict[str, int | None] = dict.fromkeys(state.island.letters)
    for point in state.island.points:
        char = grid[point[0]][point[1]]
        if char == EMPTY:
            continue
        seat = seats[char.lower()]
        if char.isupper():
            towers[seat] += 1
            holder[territory_of[point]] = seat
        else:
            pieces[seat] += 1
            inside[territory_of[point]][seat] += 1
    return pieces, towers, inside, holder


def evaluate(state: State, player: int) -> float:
    """The strong player's value of a position for ``player``'s side (higher is better): towers and pieces, territories
    held alone (worth most to the side about to move, who puts the tower down), presence in territories still to take,
    and enemy pieces one step from capture."""
    result = state.result
    if result is not None:
        if not result.winners:
            return 0.0
        return WIN if player in result.winners else -WIN
    side = state.team(player)
    pieces, towers, inside, holder = _tally(state)
    value = 0.0
    for seat in range(state.players):
        sign = 1.0 if seat in side else -1.0
        value += sign * (PIECE * pieces[seat] + TOWER * towers[seat])
    for letter, counts in inside.items():
        friendly = sum(counts[seat] for seat in side)
        hostile = sum(counts) - friendly
        owner = holder[letter]
        if owner is not None and owner in side:
            value += 15.0 * min(friendly, 2) - 30.0 * min(hostile, 2)  # guard the own tower, fear intruders
        elif owner is not None:
            value -= 15.0 * min(hostile, 2) - 30.0 * min(friendly, 2)
        else:
            # an open territory: being there with few enemies is halfway to a conquest
            value += (20.0 if friendly else 0.0) / (1 + hostile) - (20.0 if hostile else 0.0) / (1 + friendly)
    mover = state.turn
    for seat in range(state.players):
        sign = 1.0 if seat in side else -1.0
        if conquerable(state, seat):
            value += sign * (CONQUEST_NOW if seat == mover else CONQUEST_LATER)
    grid = state.grid
    seats = state._seat_of_letter()
    for point in state.island.points:
        char = grid[point[0]][point[1]]
        if char == EMPTY:
            continue
        seat = seats[char.lower()]
        if exposure(state, point, seat, grid):
            # a threat against a piece (a tower counts three times) of ``seat``: sharper when its enemy moves next
            weight = THREAT_NOW if state.enemies(seat, mover) else THREAT_LATER
            value += (-1.0 if seat in side else 1.0) * weight * (3 if char.isupper() else 1)
    return value


def _candidates(state: State) -> list[Any]:
    """The moves worth searching, best-looking first: every movement and Stop/Pass, and for each territory where a
    tower may go only its two best points (the others differ only in how exposed the tower stands)."""
    moves = legal_moves(state)
    towers: dict[str, list[PlaceTower]] = {}
    others: list[Any] = []
    for move in moves:
        if isinstance(move, PlaceTower):
            towers.setdefault(move.territory, []).append(move)
        else:
            others.append(move)
    kept: list[Any] = []
    for options in towers.values():
        kept.extend(sorted(options, key=lambda m: -score(state, m))[:2])
    rest = sorted(others, key=lambda m: -score(state, m)) if len(others) > 1 else others
    return kept + rest


class _Search:
    """Alpha-beta over whole turns: a turn's captures and towers are followed to the turn's end at no cost in depth;
    ``turns`` counts the changes of player. Side partners maximise together; every other side minimises."""

    def __init__(self, player: int, node_limit: int) -> None:
        self.player = player
        self.node_limit = node_limit
        self.nodes = 0

    def value(self, state: State, turns: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if state.result is not None or turns == 0 or self.nodes > self.node_limit:
            return evaluate(state, self.player)
        maximise = state.turn in state.team(self.player)
        best = -WIN * 2 if maximise else WIN * 2
        for move in _candidates(state):
            child = _play(state, move)
            left = turns - (child.turn != state.turn or child.result is not None)
            found = self.value(child, left, alpha, beta)
            if maximise:
                best = max(best, found)
                alpha = max(alpha, found)
            else:
                best = min(best, found)
                beta = min(beta, found)
            if alpha >= beta:
                break
        return best


def search(state: State, turns: int = 2, node_limit: int = 6000) -> list[tuple[float, Any]]:
    """Every candidate move of the player to move with its value after ``turns`` turns of best play (theirs, the next
    player's, ...), best first; a node budget keeps a crowded position fast (the search is the same each time)."""
    player = state.turn
    searcher = _Search(player, node_limit)
    scored = []
    alpha = -WIN * 2
    for move in _candidates(state):
        child = _play(state, move)
        left = turns - (child.turn != state.turn or child.result is not None)
        value = searcher.value(child, left, alpha - 1, WIN * 2)  # a window just below the best keeps ties exact
        scored.append((value, move))
        alpha = max(alpha, value)
    scored.sort(key=lambda pair: -pair[0])
    return scored


def strong_player(state: State, rng: random.Random, turns: int = 2, node_limit: int = 6000) -> Any:
    """Looks ``turns`` turns ahead in the battle (its own turn and the reply); plays the placement and the removals as
    the greedy player does. Ties are broken with ``rng``.

    Strength: the strongest: 19 of 20 games against the greedy player, 18 of 20 against the quick one."""
    if state.phase in ("placement", "removal"):
        return greedy_player(state, rng)
    moves = legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    scored = search(state, turns, node_limit)
    best = scored[0][0]
    return rng.choice([move for value, move in scored if value >= best - 1e-9])


def make_strong_player(turns: int = 2, node_limit: int = 6000) -> Bot:
    """A strong player with a smaller (or larger) search: ``turns`` turns ahead, at most ``node_limit`` positions per
    move (the levels a set-up can offer; ``make_strong_player()`` plays as :func:`strong_player`)."""
    for setting, value in (("turns", turns), ("node_limit", node_limit)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{setting}: a whole number from 1, not {value!r}")

    def player(state: State, rng: random.Random) -> Any:
        return strong_player(state, rng, turns=turns, node_limit=node_limit)

    player.__name__ = player.__qualname__ = f"strong_player_{turns}_{node_limit}"
    return player


QUICK_TURNS, QUICK_NODES = 1, 1500  # the quick level: its own turn only, a smaller search


def quick_player(state: State, rng: random.Random) -> Any:
    """The strong player searching its own turn only, with a smaller budget (``make_strong_player(1, 1500)``): faster.

    Strength: between greedy and strong: 16 of 20 games against the greedy player; strong beat it in 18 of 20."""
    return strong_player(state, rng, turns=QUICK_TURNS, node_limit=QUICK_NODES)


BOTS: dict[str, Bot] = {
    "random": random_player,
    "greedy": greedy_player,
    "strong": strong_player,
    "quick": quick_player,  # weaker than strong, but listed after it as it always was (the keys' order is public)
}

# The names these had before every game named its players one way; the same functions, kept for outside callers.
# (``strong_player`` was the factory's name then; the factory is ``make_strong_player`` now.)
random_bot = random_player
greedy_bot = greedy_player
strong_bot = strong_player


# --- the reason behind a move, for the Hint button --------------------------------------------------------------------


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}" if number == 1 else f"{number} {thing}s"


def _presence(state: State, territory: str, player: int, grid: Sequence[str] | None = None) -> str:
    """ "3 of yours against 1 enemy piece" in a territory."""
    counts = _pieces_in(state, territory, state.grid if grid is None else grid)
    own = sum(n for seat, n in counts.items() if seat in state.team(player))
    hostile = sum(n for seat, n in counts.items() if state.enemies(player, seat))
    if hostile == 0:
        return f"{own} of yours and no enemy piece"
    return f"{own} of yours against {_count(hostile, 'enemy piece')}"


def _safety(after: State, point: Point, player: int, what: str) -> str:
    danger = exposure(after, point, player)
    if danger:
        return f"the {what} on {name(after, point)} could be captured next turn"
    return f"the {what} on {name(after, point)} cannot be captured by a single step next turn"


def _reply_line(after: State, player: int) -> str:
    """The position once this turn is over and the enemy has made their most likely reply (the strong player's
    one-turn search for each move until the turn comes back), told as pieces and towers of both sides."""
    state = after
    handover: State | None = None  # the position when the turn passes to the enemy
    for _ in range(24):  # the rest of this turn and the reply: a capture series and a tower each, at most a few moves
        if handover is None and state.turn != player:
            handover = state
        if state.result is not None or (handover is not None and state.turn == player):
            break
        if state.phase in ("placement", "removal"):
            return ""
        moves = legal_moves(state)
        reply = moves[0] if len(moves) == 1 else search(state, turns=1, node_limit=1500)[0][1]
        state = _play(state, reply)
    if state.result is not None:
        won = player in state.result.winners
        return "; the enemy's best reply would not stop you" if won else "; but the enemy could then win"
    pieces, towers, _, _ = _tally(state)
    side = state.team(player)
    own = sum(pieces[seat] for seat in side), sum(towers[seat] for seat in side)
    other = sum(pieces) - own[0], sum(towers) - own[1]
    before = _tally(handover or state)
    lost_pieces = sum(before[0][seat] for seat in side) - own[0]
    lost_towers = sum(before[1][seat] for seat in side) - own[1]
    taken = [_count(lost_towers, "tower")] if lost_towers else []
    taken += [_count(lost_pieces, "piece")] if lost_pieces else []
    reply = "the enemy's best reply takes " + (" and ".join(taken) if taken else "nothing")
    return (
        f"; looking one reply ahead, {reply}: you would have {_count(own[0], 'piece')} and {_count(own[1], 'tower')} "
        f"against {other[0]} and {other[1]}"
    )


def explain(state: State, move: Any) -> str:
    """Why a move is good, in players' words: what it captures, conquers or builds, whether the piece stands safe,
    and (in the battle) what is left after the enemy's best reply, as the strong player sees it."""
    player = state.turn
    if isinstance(move, Place):
        territory = state.island.territory[move.point]
        own = sum(1 for near in state.island.neighbours[move.point] if state.owner(near) == player)
        after = _play(state, move)
        text = f"Build up territory {territory} ({_presence(after, territory, player)} there after this piece)"
        text += f", next to {_count(own, 'piece')} of yours" if own else ", a new foothold"
        if state.island.on_edge[move.point]:
            text += "; on the edge, where a single enemy piece can capture it"
        return text + "."
    if isinstance(move, Remove):
        territory = state.island.territory[move.point]
        after = _play(state, move)
        left = _presence(after, territory, player, after.grid)
        return f"Weaken the enemy in territory {territory}: {left} left there."
    if isinstance(move, PlaceTower):
        after = _play(state, move)
        towers = sum(len(after.towers(seat)) for seat in state.team(player))
        target = 5 if state.players == 4 else 3
        text = f"A tower in territory {move.territory}: your side's tower {towers} of {target}"
        holder = state.tower_owner(move.territory)
        if holder is not None:
            text += f", and the {state.colours[holder]} tower there goes back"
        if after.result is not None:
            return text + ": this wins the game."
        text += "; " + _safety(after, move.point, player, "tower")
        return text + _reply_line(after, player) + "."
    if isinstance(move, (Step, Jump)):
        captured = captures_of(state, move)
        after = _play(state, move)
        if captured:
            text = "Captures " + captures_text(state, captured)
        elif any(isinstance(m, (Step, Jump)) and captures_of(state, m) for m in legal_moves(state)):
            text = "A quiet move, worth more here than the captures within reach; it moves a piece"
        else:
            text = "No capture within reach; this moves a piece"
        new = [t for t in conquerable(after, player) if t not in conquerable(state, player)]
        if new:
            text += (
                f" and conquers territory {new[0]}, where a tower can go"
                if len(new) == 1
                else (f" and conquers territories {', '.join(new)}")
            )
        elif not captured:
            territory = state.island.territory[move.destination]
            where = "within" if territory == state.island.territory[move.origin] else "into"
            text += f" {where} territory {territory} ({_presence(after, territory, player)} there)"
        if after.result is not None:
            return text + ": this wins the game."
        if exposure(state, move.origin, player) and not exposure(after, move.destination, player):
            text += f"; it takes the piece on {name(state, move.origin)} out of danger"
        else:
            text += "; " + _safety(after, move.destination, player, "piece")
        shielded = [
            point
            for point in state.island.points
            if point != move.origin
            and state.owner(point) in state.team(player)
            and after.at(point) == state.at(point)
            and exposure(state, point, player)
            and not exposure(after, point, player)
        ]
        if shielded:
            named = [f"the {'tower' if state.is_tower(p) else 'piece'} on {name(state, p)}" for p in shielded]
            text += f"; it shields {' and '.join(named)} from capture"
        return text + _reply_line(after, player) + "."
    if isinstance(move, Stop):
        if state.phase == "towers":
            return "Keep your towers for later: no tower here is worth placing now."
        return "End the turn: no further capture or tower is worth more than keeping the piece where it is."
    if isinstance(move, Pass):
        return "None of your pieces can move, so passing is the only move."
    return ""
