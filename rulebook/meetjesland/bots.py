"""Computer players for Meetjesland: a random one, a greedy one that attacks where the exact odds are good, and a
strong one that weighs those odds by its mission and the regions.

Each is a function ``<key>_player(state, rng) -> move`` for a key of :data:`BOTS` (weakest first), as in every game.
Each player's docstring ends with a line on its strength: games won in three-player games of
``rulebook.play.study.run("meetjesland", seats, 30, seed=1000)`` (seats rotated).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..core import pick
from . import rules
from .odds import battle_outcomes, win_probability
from .rules import Attack, EndTurn, Fortify, Place, Reinforce, Retreat, Roll, State, TradeCards


def random_player(state: State, rng: random.Random):
    """Any legal move, uniformly.

    Strength: the weakest, a baseline: one greedy player against two random ones won 27 of 30 games."""
    return rng.choice(rules.legal_moves(state))


def _wanted(state: State, target: str) -> bool:
    """Whether taking ``target`` serves the mover's mission."""
    mission = state.mission(state.turn)
    if mission.destroy is not None and mission.destroy < state.players:
        return state.owner_of(target) == mission.destroy
    return state.board.region(target) in mission.regions


def _best_attack(state: State) -> tuple[float, Attack | None]:
    best: tuple[float, Attack | None] = (0.0, None)
    for origin in state.territories_of(state.turn):
        stake = state.points_on(origin) - 1
        if stake < 1:
            continue
        for target in state.board.neighbours[origin]:
            if state.owner_of(target) == state.turn:
                continue
            chance = win_probability(stake, state.points_on(target))
            score = chance + (0.1 if _wanted(state, target) else 0.0)
            if score > best[0]:
                best = (score, Attack(origin, target, stake))
    return best


def _frontier(state: State) -> str:
    """The own territory where extra points help most: the best attack after placing, mission first."""
    best, choice = None, None
    for territory in state.territories_of(state.turn):
        enemies = [n for n in state.board.neighbours[territory] if state.owner_of(n) != state.turn]
        if not enemies:
            continue
        weakest = min(enemies, key=lambda n: (not _wanted(state, n), state.points_on(n)))
        key = (_wanted(state, weakest), state.points_on(territory) - state.points_on(weakest))
        if best is None or key > best:
            best, choice = key, territory
    return choice or state.territories_of(state.turn)[0]


def greedy_player(state: State, rng: random.Random):
    """Trade the best set, pile new points on one front, attack while the win chance is good, else reinforce.

    Strength: beats random play: 27 of 30 games against two random players (a fair seat wins 10)."""
    if state.battle is not None:
        defenders = state.points_on(state.battle.target)
        return Roll() if win_probability(state.battle.stake, defenders) >= 0.3 else Retreat()
    if state.phase == "setup":
        return Place(_frontier(state), state.to_place)
    trades = [m for m in rules.legal_moves(state) if isinstance(m, TradeCards)]
    if trades:
        return max(trades, key=lambda m: rules.set_value(m.cards, state.config, state.board))
    if state.to_place:
        return Place(_frontier(state), state.to_place)
    if state.stage != "reinforce":
        score, attack = _best_attack(state)
        if attack is not None and score >= 0.6:
            return attack
        if state.stage == "start":
            return Reinforce()
    return EndTurn()


# --- the strong player -------------------------------------------------------------------------------------------
#
# It plays by the exact odds (odds.win_probability) and its mission. Tuned against the greedy player in balance
# studies (3 players, one strong, seats rotated; see the notebook and `make bench`), it differs from the greedy player
# in four ways, each of which won games there: it attacks only at 80 % or better, counting a territory that serves
# its mission or completes a region (MJ-4.9's colour bonus) as worth more; it places its points where they give the
# best such attack; and it brings idle points from territories with no enemy neighbour towards the front (MJ-5.9).
# Issue 29.2 added two more: whole chains of attacks that end its mission (below, _finish), and a bonus for a
# territory that holds back its owner as the board shows it (a whole region they hold, or 20 territories or more):
# 60 % to 65 % of 200 games.

STRONG_THRESHOLD = 0.8  # the least score (chance to conquer plus bonuses) for an attack
MISSION_BONUS = 0.2  # added for a territory that serves the mission
REGION_BONUS = 0.5  # added for the last territory of a region the mover lacks (half for the second last)
ROLL_ON = 0.3  # roll on while the battle as it stands is won this often
THREAT_BONUS = 0.15  # added for a territory whose taking holds its owner back (see _threat)
THREAT_TERRITORIES = 20  # ... an owner holding this many territories (4 short of a 24-territory mission)


def _region_bonus(state: State, target: str) -> float:
    """1 when ``target`` is the last territory of its region the mover lacks, 0.5 for the second last, 0 else."""
    members = state.board.regions[state.board.region(target)]
    missing = sum(1 for t in members if state.owner_of(t) != state.turn)
    return {1: 1.0, 2: 0.5}.get(missing, 0.0)


def _serves(state: State, target: str) -> bool:
    """Whether taking ``target`` brings the mover's mission (as it counts, MJ-C5) nearer: a territory of a region it
    needs (the cheapest extra region included) or of the player it must destroy."""
    if rules.effective_mission(state, state.turn).territories:
        return False  # counting every territory as serving (a 60 % attack anywhere) lost games in the studies
    return target in _mission_needs(state)[0]


def _threat(state: State, target: str) -> bool:
    """Whether taking ``target`` holds back the player who owns it, as far as the board shows: it breaks a whole
    region they hold (their colour bonus, MJ-4.9, and maybe their mission) or they hold THREAT_TERRITORIES or more."""
    owner = state.owner_of(target)
    if len(state.territories_of(owner)) >= THREAT_TERRITORIES:
        return True
    return all(state.owner_of(t) == owner for t in state.board.regions[state.board.region(target)])


def _strong_score(state: State, target: str, stake: int) -> tuple[float, float]:
    """``(score, chance)`` of attacking ``target`` with ``stake``: the exact chance to conquer plus the bonuses."""
    chance = win_probability(stake, state.points_on(target))
    score = chance + (MISSION_BONUS if _serves(state, target) else 0.0) + REGION_BONUS * _region_bonus(state, target)
    score += THREAT_BONUS * _threat(state, target)
    return score, chance


def _strong_attack(state: State, extra: int = 0) -> tuple[float, float, Attack | None]:
    """The best attack with the whole stake (plus ``extra`` points not placed yet): ``(score, chance, attack)``."""
    best: tuple[float, float, Attack | None] = (-1.0, 0.0, None)
    for origin in state.territories_of(state.turn):
        stake = state.points_on(origin) - 1 + extra
        if stake < 1:
            continue
        for target in state.board.neighbours[origin]:
            if state.owner_of(target) == state.turn:
                continue
            score, chance = _strong_score(state, target, stake)
            if score > best[0]:
                best = (score, chance, Attack(origin, target, stake))
    return best


def _finishing_place(state: State) -> Place | None:
    """All the points to place where they make the mission's end this turn likeliest, when that is FINISH or more
    (in a turn of reinforcements, for the next turn)."""
    best: tuple[float, str | None] = (FINISH, None)
    for territory in state.territories_of(state.turn):
        if any(state.owner_of(n) != state.turn for n in state.board.neighbours[territory]):
            chance, attack = _finish(state, extra={territory: state.to_place})
            if attack is not None and attack.origin == territory and chance > best[0]:
                best = (chance, territory)
    return Place(best[1], state.to_place) if best[1] is not None else None


def _strong_place(state: State) -> Place:
    """All the points to place on the own territory whose best attack they make best."""
    _, _, attack = _strong_attack(state, extra=state.to_place)
    return Place(attack.origin if attack else state.territories_of(state.turn)[0], state.to_place)


def _front_distance(state: State) -> dict[str, int]:
    """Steps from each own territory to the nearest own territory with an enemy neighbour (breadth-first)."""
    player, board = state.turn, state.board
    held = state.territories_of(player)
    own = set(held)
    # in the map's order, not the set's: ties in _strong_fortify go to the first found, and a set of names is ordered
    # by string hashes, which change from one Python process to the next
    frontier = [t for t in held if any(state.owner_of(n) != player for n in board.neighbours[t])]
    distance = dict.fromkeys(frontier, 0)
    queue = list(frontier)
    for territory in queue:
        for neighbour in board.neighbours[territory]:
            if neighbour in own and neighbour not in distance:
                distance[neighbour] = distance[territory] + 1
                queue.append(neighbour)
    return distance


def _strong_fortify(state: State) -> Fortify | None:
    """Idle points one step nearer the front: from the own territory with most points to spare behind the front,
    to a neighbour nearer it (MJ-5.9, within the turn's move limit)."""
    limit = state.config.move_limit - state.moved
    if limit < 1:
        return None
    distance = _front_distance(state)
    best: tuple[int, int] | None = None
    move = None
    for origin, steps in distance.items():
        spare = state.points_on(origin) - 1
        if steps == 0 or spare < 1:
            continue
        for destination in state.board.neighbours[origin]:
            if distance.get(destination, steps) < steps and (best is None or (spare, steps) > best):
                best, move = (spare, steps), Fortify(origin, destination, min(spare, limit))
    return move


# --- whole chains of attacks and the mission (issue 29.2) ----------------------------------------------------------
#
# The strong player also looks at chains: after a conquest the survivors move in, one stays and the rest attack on
# (MJ-5.7). The exact chance of every link comes from the battles' terminal distributions (odds.battle_outcomes),
# composed as odds.chain_outcomes does. With it the player goes for the end of its mission (MJ-3.1) whenever a chain
# (or two, from different territories) takes every territory the mission still needs at FINISH or better, rolls on
# in such a chain while it still finishes at FINISH_ROLL or better, and places its points where they finish best.

FINISH = 0.35  # the least chance to fulfil the mission this turn for the strong player to go for it
FINISH_ROLL = 0.2  # ... and to roll on in a battle of that chain
CHAIN_DEPTH = 4  # territories a chain takes at most


@lru_cache(maxsize=16384)
def _conquests(stake: int, defenders: int) -> tuple[tuple[int, float], ...]:
    """The points left after taking ``defenders`` with ``stake`` (conquests only): ``((left, probability), ...)``."""
    return tuple((left, p) for (left, held), p in battle_outcomes(stake, defenders).items() if held == 0 and p > 0)


def _next_link(stakes: dict[int, float], defenders: int) -> tuple[float, dict[int, float]]:
    """One link of a chain: from the stakes (with their chances) that reach a territory to the chance of taking it
    and the stakes that go on from it (one point stays behind)."""
    taken, onward = 0.0, {}
    for stake, p in stakes.items():
        for left, q in _conquests(stake, defenders):
            taken += p * q
            if left > 1:
                onward[left - 1] = onward.get(left - 1, 0.0) + p * q
    return taken, onward


def _mission_needs(state: State) -> tuple[frozenset[str], int]:
    """What the mover's mission (as it counts, MJ-C5) still needs: the territories to take (regions, a player to
    destroy) or, for a number of territories to hold, how many more; ``(frozenset(), 0)`` when a chain cannot do it."""
    player, board = state.turn, state.board
    mission = rules.effective_mission(state, player)
    if mission.destroy is not None:
        return frozenset(state.territories_of(mission.destroy)), 0
    if mission.territories:
        if mission.min_points > 1:  # a chain leaves 1 point on what it takes: it does not hold them with 2
            return frozenset(), 0
        return frozenset(), max(0, mission.territories - len(state.territories_of(player)))
    missing = {region: [t for t in members if state.owner_of(t) != player] for region, members in board.regions.items()}
    needed = {t for region in mission.regions for t in missing[region]}
    others = [region for region in board.regions if region not in mission.regions]
    if mission.extra_region and others and all(missing[region] for region in others):
        needed |= set(min((missing[region] for region in others), key=len))
    return frozenset(needed), 0


def _chains(state: State, origin: str, stake: int, wanted: frozenset[str], floor: float, first: str | None = None):
    """Chains of attacks from ``origin`` with ``stake`` (through any enemy territories, ``first`` first when given):
    ``(path, territories of wanted taken, chance to take the whole path)``, each at least ``floor`` likely."""
    player, points = state.turn, state.points_on
    found = []

    def extend(path: tuple[str, ...], stakes: dict[int, float], chance: float, hits: int) -> None:
        if path:
            found.append((path, hits, chance))
        if len(path) == CHAIN_DEPTH or not stakes:
            return
        here = path[-1] if path else origin
        options = [first] if first is not None and not path else state.board.neighbours[here]
        for target in options:
            if state.owner_of(target) == player or target in path:
                continue
            taken, onward = _next_link(stakes, points(target))
            if taken >= floor:
                extend(path + (target,), onward, taken, hits + (target in wanted))

    extend((), {stake: 1.0}, 1.0, 0)
    return found


def _plans(state: State, wanted: frozenset[str], count: int, extra: dict[str, int], battle: bool) -> list[tuple]:
    """Every chain worth a look as ``(origin, stake, path, part of the need it covers, chance)``: from each own
    territory with its stake (plus ``extra``), or the battle under way with the stake still fighting."""
    plans = []
    if battle:
        fight = state.battle
        for path, hits, chance in _chains(state, fight.origin, fight.stake, wanted, FINISH_ROLL, first=fight.target):
            plans.append((fight.origin, fight.stake, path, len(path) if count else hits, chance))
        return plans
    for origin in state.territories_of(state.turn):
        stake = state.points_on(origin) - 1 + extra.get(origin, 0)
        if stake >= 1:
            for path, hits, chance in _chains(state, origin, stake, wanted, FINISH):
                plans.append((origin, stake, path, len(path) if count else hits, chance))
    return plans


def _two_chains(plans: list[tuple], wanted: frozenset[str], count: int, need: int, best: tuple[float, Attack | None]):
    """The likeliest pair of chains from different territories that together cover the need, if likelier than
    ``best``; the less likely chain goes first (a failure then keeps the other stake at home)."""
    kept: dict[tuple, tuple] = {}  # per origin, the likeliest chain for each part of the need it covers
    for plan in plans:
        origin, _, path, hits, chance = plan
        key = (origin, hits if count else frozenset(path) & wanted)
        if hits > 0 and chance > best[0] and (key not in kept or chance > kept[key][4]):
            kept[key] = plan
    useful = list(kept.values())
    for i, (origin, stake, path, _, chance) in enumerate(useful):
        for other, other_stake, other_path, _, other_chance in useful[i + 1 :]:
            if other == origin or chance * other_chance <= best[0] or set(path) & set(other_path):
                continue
            covered = len(set(path) | set(other_path)) if count else len((set(path) | set(other_path)) & wanted)
            if covered >= need:
                start = (origin, stake, path) if chance <= other_chance else (other, other_stake, other_path)
                best = (chance * other_chance, Attack(start[0], start[2][0], start[1]))
    return best


def _finish(state: State, extra: dict[str, int] | None = None, battle: bool = False) -> tuple[float, Attack | None]:
    """The best chance to fulfil the mission this turn by one chain, or two from different territories, and the
    attack that starts it; ``extra`` adds points to territories (points to place), and with ``battle`` the chain
    is the battle under way, with the stake still fighting."""
    wanted, count = _mission_needs(state)
    need = len(wanted) or count
    if need == 0 or need > 2 * CHAIN_DEPTH:
        return 0.0, None
    plans = _plans(state, wanted, count, extra or {}, battle)
    best: tuple[float, Attack | None] = (0.0, None)
    for origin, stake, path, hits, chance in plans:
        if hits >= need and chance > best[0]:
            best = (chance, Attack(origin, path[0], stake))
    return best if battle else _two_chains(plans, wanted, count, need, best)


def strong_player(state: State, rng: random.Random):
    """Exact odds weighed by the mission, the regions and the leader: goes for a chain of attacks that fulfils its
    mission this turn at 35 % or better (placing its points for it), else places for the best attack, attacks at 80 %
    or better (bonuses counted), rolls on at 30 % or better (20 % in a finishing chain), brings idle points to the
    front. Deterministic: it never draws on ``rng``.

    Strength: the strongest: 130 of 200 games against two greedy players (a fair seat wins 67; study seed 0)."""
    if state.battle is not None:
        chance = win_probability(state.battle.stake, state.points_on(state.battle.target))
        if chance >= ROLL_ON or _finish(state, battle=True)[0] >= FINISH_ROLL:
            return Roll()
        return Retreat()
    if state.phase == "setup":
        return _strong_place(state)
    trades = [m for m in rules.legal_moves(state) if isinstance(m, TradeCards)]
    if trades:
        return max(trades, key=lambda m: (rules.set_value(m.cards, state.config, state.board), m.cards))
    if state.to_place:
        return _finishing_place(state) or _strong_place(state)
    if state.stage != "reinforce":
        chance, attack = _finish(state)
        if attack is not None and chance >= FINISH:
            return attack
        score, _, attack = _strong_attack(state)
        if attack is not None and score >= STRONG_THRESHOLD:
            return attack
        if state.stage == "start":
            return Reinforce()
    if state.stage == "reinforce" and not state.config.move_and_reinforce:
        return EndTurn()  # MJ-4.4: a turn of reinforcements ends once they are placed (MJ-C11)
    fortify = _strong_fortify(state)
    return fortify if fortify is not None else EndTurn()


def _explain_attack(state: State, move: Attack) -> str:
    """The strong player's reasons for an attack: the exact chance, the mission, the regions, the player held back."""
    board = state.board
    chance = win_probability(move.stake, state.points_on(move.target))
    wanted = " It serves your mission." if _serves(state, move.target) else ""
    if _threat(state, move.target):
        wanted += f" It holds back {rules.PLAYER_COLOURS[state.owner_of(move.target)].capitalize()}."
    finish, plan = _finish(state)
    if plan == move and finish >= FINISH:
        wanted += f" It starts a chain that fulfils your mission this turn in {percent(finish)}."
    region = board.region(move.target)
    if _region_bonus(state, move.target) == 1:
        wanted += f" It is the last of the {region} region you lack (colour bonus, MJ-4.9)."
    elif _region_bonus(state, move.target) == 0.5:  # worth a quarter more to the strong player, as the last half
        wanted += f" After it, one territory of the {region} region is left to take (colour bonus, MJ-4.9)."
    return (
        f"Attack: {percent(chance)} to take {board.name(move.target)} with {move.stake} against "
        f"{state.points_on(move.target)}.{wanted}"
    )


def explain(state: State, move) -> str:
    """Why a computer player (the strong one's reasons) would make ``move`` here, in players' words."""
    board = state.board
    if isinstance(move, Attack):
        return _explain_attack(state, move)
    if isinstance(move, (Roll, Retreat)) and state.battle is not None:
        battle = state.battle
        chance = win_probability(battle.stake, state.points_on(battle.target))
        defenders = state.points_on(battle.target)
        odds = f"{battle.stake} against {defenders} takes {board.name(battle.target)} in {percent(chance)}"
        return f"Roll on: {odds}." if isinstance(move, Roll) else f"Break off: only {odds}; keep the points at home."
    if isinstance(move, Place):
        target = _best_target(state, move.territory, move.points)
        if target is None:
            return f"Place on {board.name(move.territory)}."
        stake = state.points_on(move.territory) - 1 + move.points
        chance = win_probability(stake, state.points_on(target))
        return (
            f"Place on {board.name(move.territory)}: then {stake} against {state.points_on(target)} on "
            f"{board.name(target)} wins in {percent(chance)}."
        )
    if isinstance(move, TradeCards):
        value = rules.set_value(move.cards, state.config, board)
        return f"Trade: the best set in your hand gives {value} points."
    if isinstance(move, Reinforce):
        count = rules.reinforcements(len(state.territories_of(state.turn)))
        score, chance, attack = _strong_attack(state)
        if attack is None:
            return f"No attack is possible: take {count} points instead."
        return (
            f"No attack is sure enough (the best, on {board.name(attack.target)}, wins in {percent(chance)}): "
            f"take {count} points instead."
        )
    if isinstance(move, Fortify):
        return f"{board.name(move.origin)} has no enemy neighbour: its points help more nearer the front."
    if isinstance(move, EndTurn):
        return "No attack left with good odds, and no idle points to bring to the front."
    return ""


def _best_target(state: State, territory: str, extra: int) -> str | None:
    stake = state.points_on(territory) - 1 + extra
    targets = [n for n in state.board.neighbours[territory] if state.owner_of(n) != state.turn]
    if not targets or stake < 1:
        return None
    return max(targets, key=lambda n: (_strong_score(state, n, stake)[0], n))


def percent(probability: float) -> str:
    """A chance as players read it: one decimal."""
    return f"{float(probability) * 100:.1f} %"


BOTS: dict[str, Callable[[State, random.Random], Any]] = {
    "random": random_player,
    "greedy": greedy_player,
    "strong": strong_player,
}


def play_game(players: int = 4, seed: int = 0, bots=None, max_moves: int = 20_000) -> State:
    """A whole game between computer players (greedy by default); dice and cards drawn with ``Random(seed)``."""
    bots = list(bots or [greedy_player] * players)
    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bots, got {len(bots)}")
    rng = random.Random(seed)
    state = rules.new_game(players, seed=seed)
    for _ in range(max_moves):
        if rules.outcome(state) is not None:
            break
        outcomes = rules.chance_outcomes(state)
        state = rules.apply(state, pick(outcomes, rng) if outcomes else bots[state.turn](state, rng))
    return state
