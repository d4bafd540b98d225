"""Who is winning: each seat's chance to win from a live position, estimated by playing the position out many times.

A playout plays the position to its end with the game's computer players (the strongest level, ``bots.BOTS``) in
every seat and chance drawn with its exact ``Fraction`` probabilities from a seeded ``random.Random``; a seat's
estimate is the share of playouts it won, with a 95 % Wilson score interval. It is called an estimate everywhere:
it is what these computer players would make of the position, not an exact chance.

- **Ties and shared wins**: a playout won by several seats (a tie, a team) counts as a win for each of them, so the
  estimates may add up to more than 1; ``Estimate.shared`` says how many playouts ended so.
- **Cut-off**: a playout still running after ``max_moves`` decisions is counted as unfinished: it is left out of
  every seat's share (no heuristic guesses its winner) and ``Estimate.unfinished`` says how many there were.
- **Budget**: at most ``cpu`` seconds of CPU of the calling thread (2 s by default; ``time.thread_time``, so a
  worker thread counts only its own work) and at most ``playouts`` playouts; a playout the budget interrupts is
  dropped, never counted half-played. ``Estimate.stopped`` says which limit ended the estimate. Fewer than
  ``MIN_PLAYOUTS`` finished playouts (a busy machine) give no number: their interval is too wide to say anything, so
  the estimate says "not enough time" in words (``SeatEstimate.enough``).
- **Seeded**: playout ``i`` draws from ``Random(f"{seed}:{i}")``, so the same position, seed and number of
  playouts give the same estimate; stopped by the CPU budget, a slower machine plays fewer of the same playouts.
- **Hidden information** (``viewer``): a game with hidden information declares ``Game.redeal``, a function
  ``(state, viewer, rng)`` that deals again what ``viewer`` cannot see (the other players' missions, hands), at
  random and consistently with what is public (determinization). Each playout starts from its own re-deal, drawn
  from the playout's generator, so its players play as if that deal were the real one and the estimate is what the
  viewer may know: ``viewer`` is a seat, None (an onlooker: only what is public, the default) or :data:`EVERYONE`
  (no re-deal: the playouts see the whole position, as for a position whose answer is known only so).
- **Policy** (:class:`Policy`): by default the strongest level plays every decision of a playout (Ab die Post's
  strongest player is its exact draw policy, so its playouts push their luck by the exact odds). Where that level
  is too slow to give many playouts within the budget (once its first playout has run a twentieth of the budget, it
  averages more than ``SLOW_DECISION`` seconds a decision), the estimate starts again with ``Policy.quick``: the
  strongest level plays the next ``HORIZON`` decisions, computed once per position and shared by the playouts that
  reach it (its tie-breaks drawn from ``Random(f"{seed}:strong:{depth}")``), and the game's quickest level above the
  first plays on to the end. ``Estimate.policy`` says which was used; pass ``policy=`` to choose.

Plain Python: no widgets, no plotly (``rulebook.estimate_panel`` shows an estimate in the app).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rulebook import registry
from rulebook.core import Outcome, pick
from rulebook.engine import Engine
from rulebook.play.study import wilson

CPU = 2.0  # seconds of CPU an estimate may use by default
PLAYOUTS = 400  # the most playouts an estimate plays by default
MAX_MOVES = 3000  # decisions a playout may take before it is cut off and counted as unfinished
HORIZON = 6  # decisions the strongest level plays in a quick playout before the quicker level takes over
PROBE = 20  # the first playout is timed once it has run 1 / PROBE of the budget, to the playout's end
EVERYONE = "everyone"  # the viewer who sees the whole position: the playouts use the hidden information as it is
SLOW_DECISION = 0.005  # seconds of CPU a decision: a strongest level slower than this switches to Policy.quick
MAX_REMEMBERED = 20_000  # strong decisions a quick estimate remembers (positions shared by its playouts)
WIDEST = 0.5  # the widest 95 % interval worth a number: wider, "from 0 % to 60 %" tells a reader nothing


def enough_playouts(widest: float = WIDEST) -> int:
    """The fewest finished playouts whose 95 % Wilson interval is at most ``widest`` wide whatever the share (12 for
    one half): fewer, and the estimate is told in words ("not enough time"), never as a number."""
    trials = 1
    while max(high - low for low, high in (wilson(wins, trials) for wins in range(trials + 1))) > widest:
        trials += 1
    return trials


MIN_PLAYOUTS = enough_playouts()

Bot = Callable[[Any, random.Random], Any]


@dataclass(frozen=True)
class Policy:
    """Who plays a playout: ``level`` for its first ``horizon`` decisions (all of them when None), ``finish`` after."""

    level: str
    horizon: int | None = None
    finish: str = ""

    @staticmethod
    def strong(game: registry.Game) -> Policy:
        """The strongest level for every decision."""
        return Policy(game.strongest())

    @staticmethod
    def quick(game: registry.Game) -> Policy:
        """The strongest level for the next ``HORIZON`` decisions, then the quickest level above the first (the
        first is the random player in every game of the rulebook)."""
        names = [level.name for level in game.levels] or list(game.bots())
        finish = names[1] if len(names) > 2 else names[-1]
        return Policy(game.strongest(), HORIZON, finish)

    def describe(self, game: registry.Game) -> str:
        """The policy in words: "the strong player for every move", or with its horizon and the player after."""
        strong = _label(game, self.level)
        if self.horizon is None:
            return f"{strong} for every move"
        return f"{strong} for the next {self.horizon} moves, then {_label(game, self.finish)}"


def _label(game: registry.Game, name: str) -> str:
    level = game.level(name)
    return f"the {level.name} player" if level is not None else f"the {name} player"


@dataclass(frozen=True)
class SeatEstimate:
    """One seat's estimate: playouts won of those finished, the share and its 95 % Wilson interval."""

    seat: int
    name: str
    wins: int
    playouts: int
    chance: float
    low: float
    high: float

    @property
    def enough(self) -> bool:
        """Whether the estimate is worth a number: the game is over, or at least ``MIN_PLAYOUTS`` playouts finished."""
        return self.low == self.high or self.playouts >= MIN_PLAYOUTS

    def words(self) -> str:
        """The estimate as a reader says it: "Red: 62 % (95 % interval 48 % to 74 %, 31 of 50 playouts)"."""
        if self.playouts == 0:
            return f"{self.name}: no estimate (no playout finished)"
        if self.low == self.high:
            return f"{self.name}: {_percent(self.chance)} (the game is over)"
        if not self.enough:
            return (
                f"{self.name}: not enough time for an estimate (only {self.playouts} playouts finished; "
                f"its 95 % interval needs at least {MIN_PLAYOUTS})"
            )
        return (
            f"{self.name}: {_percent(self.chance)} (95 % interval {_percent(self.low)} to {_percent(self.high)}, "
            f"won {self.wins} of {self.playouts} playouts)"
        )


def _percent(value: float) -> str:
    return f"{value * 100:.0f} %"


@dataclass(frozen=True)
class Estimate:
    """Each seat's chance to win from one position, estimated by playouts (see the module's docstring).

    ``exact`` is True for a finished game (its winners 1, the others 0, no playout); ``stopped`` is "playouts" or
    "cpu" (the limit that ended it) or "over" (the game was over); ``cpu`` the seconds of CPU spent."""

    game: str
    seats: tuple[SeatEstimate, ...]
    playouts: int
    unfinished: int
    shared: int
    nobody: int
    stopped: str
    cpu: float
    policy: str
    seed: int
    moves: int  # decisions played over all playouts (finished or not)
    exact: bool = False
    assumes: str = ""  # what the playouts know of the position, in words (see :func:`assumption`)

    def chance(self, seat: int) -> SeatEstimate:
        """The estimate of ``seat`` (0 to players - 1); ValueError for a seat the game does not have."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise ValueError(f"no seat {seat!r}: seats are 0 to {len(self.seats) - 1}")
        return self.seats[seat]

    def leader(self) -> SeatEstimate | None:
        """The seat with the highest estimate (None when no playout finished or the best are level)."""
        ranked = sorted(self.seats, key=lambda s: s.chance, reverse=True)
        if not ranked or not ranked[0].enough or ranked[0].playouts == 0:
            return None
        if len(ranked) > 1 and ranked[0].chance == ranked[1].chance:
            return None
        return ranked[0]

    def notes(self) -> list[str]:
        """What a reader should know of how the estimate was made, in words."""
        if self.exact:
            return ["The game is over: this is its result, not an estimate."]
        # the CPU spent is said only where it set the count: a count asked for reads the same on every run
        ended = (
            f"as many as its CPU budget allowed ({self.cpu:.1f} s)"
            if self.stopped == "cpu"
            else "the number of playouts asked for"
        )
        notes = [f"An estimate from {self.playouts} playouts ({self.policy}, seed {self.seed}): {ended}."]
        if self.shared:
            notes.append(f"{self.shared} playouts ended in a shared win: it counts as a win for each winner.")
        if self.nobody:
            notes.append(f"{self.nobody} playouts ended with no winner: they count for nobody.")
        if self.unfinished:
            notes.append(f"{self.unfinished} playouts reached the move cap unfinished and are left out.")
        if self.assumes:
            notes.append(self.assumes)
        return notes

    def text(self) -> str:
        """Every seat's estimate and the notes, one per line."""
        return "\n".join([seat.words() for seat in self.seats] + self.notes())


def _seat_names(game: registry.Game, players: int) -> list[str]:
    names = list(game.seat_names(players))
    return names if len(names) == players else [f"Player {seat + 1}" for seat in range(players)]


def _players_of(state: Any, game: registry.Game) -> int:
    players = getattr(state, "players", None)
    if isinstance(players, int) and not isinstance(players, bool) and players > 0:
        return players
    raise ValueError(f"{game.title}: the position does not say how many players it has")


def _exact(game: registry.Game, result: Outcome, players: int, seed: int) -> Estimate:
    winners = set(result.winners)
    names = _seat_names(game, players)
    seats = tuple(
        SeatEstimate(seat, names[seat], int(seat in winners), 1, float(seat in winners), *(float(seat in winners),) * 2)
        for seat in range(players)
    )
    return Estimate(
        game.name, seats, 0, 0, int(len(winners) > 1), int(not winners), "over", 0.0, "none", seed, 0, exact=True
    )


def _viewer(game: registry.Game, viewer: Any, players: int) -> int | str | None:
    if viewer is None or viewer == EVERYONE:
        return viewer
    if not isinstance(viewer, int) or isinstance(viewer, bool) or not 0 <= viewer < players:
        raise ValueError(
            f"viewer: a seat 0 to {players - 1}, None (an onlooker) or {EVERYONE!r}, not {viewer!r} ({game.title})"
        )
    return viewer


def assumption(game: registry.Game, viewer: int | str | None, players: int) -> str:
    """What the playouts of an estimate for ``viewer`` know of the position, in words (the app's tab says it)."""
    if not game.redeal:
        return "Nothing in this game is hidden: the playouts know what every player sees."
    if viewer == EVERYONE:
        return "The playouts see the whole position, what the players keep hidden too."
    if viewer is None:
        who, whose = "an onlooker", "the players keep"
    else:
        who, whose = _seat_names(game, players)[int(viewer)], "the others keep"
    return (
        f"The playouts know only what {who} sees: what {whose} hidden is dealt again at random for each playout, "
        "consistently with the game so far, and played as if it were the real deal."
    )


def _whole(value: Any, what: str, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ValueError(f"{what}: a whole number from {low}, not {value!r}")
    return value


def estimate(
    state: Any,
    *,
    seed: int = 0,
    playouts: int = PLAYOUTS,
    cpu: float | None = CPU,
    policy: Policy | str | None = None,
    max_moves: int = MAX_MOVES,
    viewer: int | str | None = None,
) -> Estimate:
    """Each seat's chance to win from ``state``, estimated by at most ``playouts`` playouts within ``cpu`` seconds of
    CPU (None: no time limit, the number of playouts alone). ``policy`` is a :class:`Policy`, "strong" or "quick"
    (see there), or None: the strongest level, switching to "quick" where it is slow (see the module's docstring).
    ``viewer`` is whose knowledge the playouts have: a seat, None (an onlooker) or :data:`EVERYONE`.
    A finished game gives its result (``exact``); a position of no registered game, or a bad argument, ValueError."""
    try:
        game = registry.game_of(state)
    except (ValueError, KeyError, TypeError, AttributeError):
        raise ValueError(f"{type(state).__name__} is not a position of a registered game") from None
    _whole(seed, "seed", 0)
    _whole(playouts, "playouts", 1)
    _whole(max_moves, "max_moves", 1)
    if cpu is not None and (isinstance(cpu, bool) or not isinstance(cpu, (int, float)) or not cpu > 0):
        raise ValueError(f"cpu: seconds of CPU above 0 (or None for no limit), not {cpu!r}")
    players = _players_of(state, game)
    viewer = _viewer(game, viewer, players)
    engine = game.engine
    result = engine.outcome(state)
    if result is not None:
        return _exact(game, result, players, seed)
    if not engine.chance_outcomes(state) and not engine.legal_moves(state):
        raise ValueError(f"{game.title}: the position has no legal move and no chance to settle")
    chosen = _policy(game, policy)
    start = time.thread_time()
    deadline = None if cpu is None else start + cpu
    redeal = None if not game.redeal or viewer == EVERYONE else registry.resolve(game.redeal)
    run = _Run(
        game, chosen, seed, max_moves, deadline, probe=None if policy is not None or cpu is None else cpu / PROBE
    )
    try:
        run.play(state, playouts, redeal, viewer)
    except _TooSlow:
        chosen = Policy.quick(game)
        run = _Run(game, chosen, seed, max_moves, deadline, probe=None)
        run.play(state, playouts, redeal, viewer)
    spent = time.thread_time() - start
    names = _seat_names(game, players)
    seats = []
    for seat in range(players):
        low, high = wilson(run.wins[seat], run.finished)
        share = run.wins[seat] / run.finished if run.finished else 0.0
        seats.append(SeatEstimate(seat, names[seat], run.wins[seat], run.finished, share, low, high))
    return Estimate(
        game.name,
        tuple(seats),
        run.finished,
        run.unfinished,
        run.shared,
        run.nobody,
        run.stopped,
        spent,
        chosen.describe(game),
        seed,
        run.moves,
        assumes=assumption(game, viewer, players),
    )


def _policy(game: registry.Game, policy: Policy | str | None) -> Policy:
    if policy is None or policy == "strong":
        return Policy.strong(game)
    if policy == "quick":
        return Policy.quick(game)
    if not isinstance(policy, Policy):
        raise ValueError(f"policy: a Policy, 'strong' or 'quick', not {policy!r}")
    known = game.bots()
    for name in (policy.level, policy.finish if policy.horizon is not None else policy.level):
        if name not in known:
            raise ValueError(f"{game.title} has no computer player {name!r} (players: {', '.join(known)})")
    if policy.horizon is not None:
        _whole(policy.horizon, "horizon", 0)
    return policy


class _TooSlow(Exception):
    """The strongest level's first playout is too slow for the budget: start again with Policy.quick."""


class _OutOfTime(Exception):
    """The CPU budget ran out in the middle of a playout (which is dropped)."""


class _Run:
    """The playouts of one estimate, counted as they finish."""

    def __init__(
        self,
        game: registry.Game,
        policy: Policy,
        seed: int,
        max_moves: int,
        deadline: float | None,
        probe: float | None,
    ) -> None:
        self.engine: Engine = game.engine
        bots = game.bots()
        self.strong: Bot = bots[policy.level]
        self.finish: Bot = bots[policy.finish] if policy.horizon is not None else self.strong
        self.horizon = policy.horizon
        self.seed = seed
        self.max_moves = max_moves
        self.deadline = deadline
        self.probe = probe  # seconds after which a slow first playout switches the policy (None: never)
        self.remembered: dict[Any, Any] = {}  # position -> the strong move there (quick policy only)
        self.wins: list[int] = []
        self.finished = self.unfinished = self.shared = self.nobody = self.moves = 0
        self.stopped = "playouts"

    def play(self, state: Any, playouts: int, redeal: Callable[..., Any] | None = None, viewer: Any = None) -> None:
        """Play up to ``playouts`` playouts from ``state``, each from its own ``redeal(state, viewer, rng)`` when
        given (drawn from the playout's generator first, so a seed gives the same deals)."""
        players = state.players
        self.wins = [0] * players
        for index in range(playouts):
            rng = random.Random(f"{self.seed}:{index}")
            start = redeal(state, viewer, rng) if redeal is not None else state
            try:
                result = self._playout(start, rng, index == 0)
            except _OutOfTime:
                self.stopped = "cpu"
                return
            if result is None:
                self.unfinished += 1
                continue
            self.finished += 1
            self.shared += len(result) > 1
            self.nobody += not result
            for seat in result:
                self.wins[seat] += 1
        self.stopped = "playouts"

    def _playout(self, state: Any, rng: random.Random, first: bool) -> tuple[int, ...] | None:
        engine, deadline = self.engine, self.deadline
        started = time.thread_time()
        decisions = 0
        while True:
            result = engine.outcome(state)
            if result is not None:
                return tuple(seat for seat in result.winners if 0 <= seat < len(self.wins))
            outcomes = engine.chance_outcomes(state)
            if outcomes:
                state = engine.apply(state, pick(outcomes, rng))
                continue
            if decisions >= self.max_moves:
                return None
            now = time.thread_time()
            if deadline is not None and now > deadline:
                raise _OutOfTime
            if first and self.probe is not None and now - started > self.probe:
                if (now - started) / max(decisions, 1) > SLOW_DECISION:  # checked to the first playout's end
                    raise _TooSlow
            state = engine.apply(state, self._decide(state, decisions, rng))
            decisions += 1
            self.moves += 1

    def _decide(self, state: Any, depth: int, rng: random.Random) -> Any:
        if self.horizon is None:
            return self.strong(state, rng)
        if depth >= self.horizon:
            return self.finish(state, rng)
        try:
            move = self.remembered.get(state)
        except TypeError:  # a position that cannot be remembered is decided afresh
            return self.strong(state, random.Random(f"{self.seed}:strong:{depth}"))
        if move is None:
            move = self.strong(state, random.Random(f"{self.seed}:strong:{depth}"))
            if len(self.remembered) < MAX_REMEMBERED:
                self.remembered[state] = move
        return move


def history(
    states: list[Any] | tuple[Any, ...],
    *,
    seed: int = 0,
    playouts: int = 40,
    cpu: float | None = 0.25,
    policy: Policy | str | None = None,
    viewer: int | str | None = None,
) -> list[tuple[int, Estimate]]:
    """Estimates along a game: ``(index, estimate)`` for each position of ``states`` (a session's ``states``) with a
    small budget each, for the chart of how the estimate changed over the game."""
    return [
        (index, estimate(state, seed=seed, playouts=playouts, cpu=cpu, policy=policy, viewer=viewer))
        for index, state in enumerate(states)
    ]
