"""Balance studies: many games between computer players, to see whether a game is fair and which player is stronger.

A study plays ``games`` games of one game with the computer players named in ``seats`` (names from the game's
``bots.BOTS``), rotating the seats from game to game so that each player sits in each seat equally often; chance is
sampled with its exact probabilities from a generator seeded per game, so a study is the same on every run. It
reports the first player's advantage and each computer player's win rate, each with a 95 % Wilson interval.

Games run in parallel through any ``concurrent.futures`` executor: a process pool using every core by default, or a
Dask cluster's executor (``distributed.Client(address).get_executor()``) for studies larger than one machine.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import math
import os
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rulebook import registry
from rulebook.core import pick
from rulebook.engine import Engine

Z95 = 1.959963984540054  # the standard normal's 97.5 % quantile: two-sided 95 %


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (Wilson 1927); (0, 1) when nothing was tried."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


@dataclass(frozen=True)
class GameResult:
    """One game of a study: who sat where, who moved first, who won (several winners: a team or a shared win)."""

    seed: int
    seats: tuple[str, ...]
    first: int | None
    winners: tuple[int, ...]
    moves: int
    finished: bool


def play_game(game: str, seats: Sequence[str], seed: int, max_moves: int = 50_000) -> GameResult:
    """Play one game between the computer players ``seats`` (one name per seat); deterministic for the seed."""
    declared = registry.game(game)
    bots = declared.bots()
    module: Engine = declared.engine
    players = [bots[name] for name in seats]
    state = declared.new_state(len(seats), seed)
    rng = random.Random(seed)
    first: int | None = None
    moves = 0
    while module.outcome(state) is None and moves < max_moves:
        outcomes = module.chance_outcomes(state)
        if outcomes:
            state = module.apply(state, pick(outcomes, rng))
            continue
        player = state.player
        if first is None:
            first = player
        state = module.apply(state, players[player](state, rng))
        moves += 1
    result = module.outcome(state)
    winners = tuple(result.winners) if result is not None else ()
    return GameResult(seed, tuple(seats), first, winners, moves, result is not None)


MAX_GAMES = 1_000_000  # one study's results stay in memory (a few hundred bytes a game)


def check(game: str, seats: Sequence[str], games: int, seed: int = 0) -> None:
    """Refuse a study that cannot be played, before any game: the game, the seats, the number of games and the seed
    (game ``i`` uses ``seed + i``); ValueError says what was wrong."""
    if game not in registry.names():
        raise ValueError(f"no game {game!r} (games: {', '.join(registry.games())})")
    declared = registry.game(game)
    if len(seats) not in declared.players:
        raise ValueError(
            f"{declared.title} is for {declared.players[0]} to {declared.players[-1]} players, not {len(seats)}"
        )
    known = declared.bots()
    for name in seats:
        if name not in known:
            raise ValueError(f"no computer player {name!r} in {declared.title} (players: {', '.join(known)})")
    if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games: a whole number from 1 to {MAX_GAMES:,}, not {games!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed: a whole number from 0 (game i uses seed + i), not {seed!r}")
    declared.new_state(len(seats), seed)  # the first game's set-up, so that a refusal comes before any game


def plan(seats: Sequence[str], games: int, seed: int = 0) -> Iterator[tuple[tuple[str, ...], int]]:
    """The games of a study, one at a time: game ``i`` has the seats rotated by ``i`` places and the seed
    ``seed + i`` (a generator, so that a long study starts at once)."""
    n = len(seats)
    for i in range(games):
        yield tuple(seats[(seat + i) % n] for seat in range(n)), seed + i


def schedule(seats: Sequence[str], games: int, seed: int = 0) -> list[tuple[tuple[str, ...], int]]:
    """The games of a study as a list (see :func:`plan`)."""
    return list(plan(seats, games, seed))


@dataclass(frozen=True)
class Study:
    game: str
    seats: tuple[str, ...]
    results: tuple[GameResult, ...]

    def rows(self) -> list[dict[str, Any]]:
        """One row per computer player (its seats over all games), then the first player's row."""
        rows = []
        for name in dict.fromkeys(self.seats):
            played = sum(result.seats.count(name) for result in self.results)
            wins = sum(1 for r in self.results for seat in r.winners if r.seats[seat] == name)
            rows.append(self._row(name, wins, played))
        started = [r for r in self.results if r.first is not None]
        rows.append(self._row("first player", sum(1 for r in started if r.first in r.winners), len(started)))
        return rows

    @staticmethod
    def _row(name: str, wins: int, played: int) -> dict[str, Any]:
        low, high = wilson(wins, played)
        return {
            "who": name,
            "seats played": played,
            "wins": wins,
            "rate": wins / played if played else 0.0,
            "low": low,
            "high": high,
        }

    def expected_rate(self) -> float:
        """A seat's share of wins if the game were fair and the players equal (1 / players; teams win together)."""
        sizes = [len(r.winners) for r in self.results if r.winners]
        average = sum(sizes) / len(sizes) if sizes else 1
        return average / len(self.seats)

    def table(self) -> str:
        title = registry.game(self.game).title
        lines = [
            f"{title}: {len(self.results)} games, seats {', '.join(self.seats)} (rotated each game)",
            f"{'who':<14} {'seats':>6} {'wins':>6} {'win rate':>9}   95 % interval",
        ]
        for row in self.rows():
            lines.append(
                f"{row['who']:<14} {row['seats played']:>6} {row['wins']:>6} {row['rate']:>9.1%}   "
                f"{row['low']:.1%} to {row['high']:.1%}"
            )
        unfinished = sum(1 for r in self.results if not r.finished)
        lines.append(
            f"a fair seat wins {self.expected_rate():.1%}" + (f"; {unfinished} games cut off" if unfinished else "")
        )
        return "\n".join(lines)

    def figure(self) -> Any:
        """Win rates with their 95 % intervals, beside the rate of a fair seat."""
        import plotly.graph_objects as go

        rows = self.rows()
        figure = go.Figure(
            go.Bar(
                x=[row["who"] for row in rows],
                y=[row["rate"] * 100 for row in rows],
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": [(row["high"] - row["rate"]) * 100 for row in rows],
                    "arrayminus": [(row["rate"] - row["low"]) * 100 for row in rows],
                },
                marker_color=["#0072b2"] * (len(rows) - 1) + ["#e69f00"],
                hovertemplate="%{x}: wins %{y:.1f} % of its games<extra></extra>",
            )
        )
        fair = self.expected_rate() * 100
        figure.add_hline(y=fair, line_dash="dash", annotation_text=f"a fair seat: {fair:.1f} %")
        figure.update_layout(
            title=f"{registry.game(self.game).title}: win rates over {len(self.results)} games, with 95 % intervals",
            yaxis_title="games won (%)",
            xaxis_title="computer player (all its seats) and the first player",
            yaxis_range=[0, 100],
            template="plotly_white",
            height=420,
        )
        return figure


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it, else every core)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # a system without affinity (macOS, Windows)
        return max(1, os.cpu_count() or 1)


def worker_count(asked: int | None) -> int:
    """The processes a study starts for ``asked`` workers: at most one per core (more only wait for each other and
    each holds a whole Python; 100,000 asked started 2,134 processes in 8 s before this bound), every core when
    none is asked."""
    return cores() if asked is None else max(1, min(asked, cores()))


def run(
    game: str,
    seats: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    workers: int | None = None,
    executor: concurrent.futures.Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    window: int | None = None,
) -> Study:
    """Play a study. Without ``executor``, a process pool of ``workers`` processes (default and most: every core this
    process may use, :func:`worker_count`); with
    ``workers=1``, in this process. ``progress(done, total)`` is called as games finish. At most ``window`` games
    are handed to the executor at a time (default: four per worker; 1000 on a given executor), so a long study
    neither builds its whole plan nor queues every game before the first one ends."""
    seats = tuple(seats)
    check(game, seats, games, seed)
    results: list[GameResult | None] = [None] * games
    done = 0

    def record(index: int, result: GameResult) -> None:
        nonlocal done
        results[index] = result
        done += 1
        if progress is not None:
            progress(done, games)

    games_left = enumerate(plan(seats, games, seed))
    processes = worker_count(workers)
    if executor is None and processes == 1:
        for index, (order, game_seed) in games_left:
            record(index, play_game(game, order, game_seed))
    else:
        own = executor is None
        pool = executor or concurrent.futures.ProcessPoolExecutor(max_workers=processes)
        limit = window or (4 * processes if own else 1000)
        pending: dict[concurrent.futures.Future[GameResult], int] = {}
        try:
            for index, (order, game_seed) in itertools.islice(games_left, limit):
                pending[pool.submit(play_game, game, order, game_seed)] = index
            while pending:
                finished, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in finished:
                    record(pending.pop(future), future.result())
                for index, (order, game_seed) in itertools.islice(games_left, len(finished)):
                    pending[pool.submit(play_game, game, order, game_seed)] = index
        finally:
            for future in pending:
                future.cancel()
            if own:
                pool.shutdown(cancel_futures=True)
    return Study(game, seats, tuple(result for result in results if result is not None))


def progress_bar(stream: Any, width: int = 30) -> Callable[[int, int], None]:
    """A text progress bar on ``stream`` (a terminal's stderr)."""

    def show(done: int, total: int) -> None:
        filled = width * done // total
        stream.write(f"\r[{'#' * filled}{' ' * (width - filled)}] {done}/{total} games")
        if done == total:
            stream.write("\n")
        stream.flush()

    return show
