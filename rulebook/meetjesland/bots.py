"""Computer players for Meetjesland: a random one and a greedy one that attacks where the exact odds are good."""

from __future__ import annotations

import random

from ..core import pick
from . import rules
from .odds import win_probability
from .rules import Attack, EndTurn, Place, Reinforce, Retreat, Roll, State, TradeCards


def random_player(state: State, rng: random.Random):
    """Any legal move, uniformly."""
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
    """Trade the best set, pile new points on one front, attack while the win chance is good, else reinforce."""
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


BOTS = {"random": random_player, "greedy": greedy_player}


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
