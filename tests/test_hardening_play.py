"""Random play at scale over all four engines (issue 7, item 1): the same checks for every game, at every step.

Each case plays a fixed number of moves (player moves and chance outcomes, starting a new game whenever one ends)
with a seeded ``random.Random``; the cases of one game add up to at least 2 500 moves in `make test` and 10 000 in
`make soak` (RULEBOOK_SOAK=1, tests/soak.py), every player count and seed in both.  At every step:
the legal moves (a random sample of a few when there are many) pass ``check`` and apply; a chance node has positive
``Fraction`` probabilities summing to exactly 1; moves crafted to be wrong for the position raise ``IllegalMove``
whose rule id is in that game's notebook, and leave the state unchanged; the game's invariants hold.  Saving and
replaying are O(length of the log), so the JSON round trip and the replay from the set-up are checked every
``ROUND_TRIP_EVERY`` steps and at the end of every game, not at every step.  A finished game has no legal moves,
no chance outcomes, an outcome, and refuses any further move.  A hypothesis test adds short games over drawn
seeds and player counts.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulebook import ab_die_post as adp
from rulebook import claim as cl
from rulebook import core, registry
from rulebook import kingdom_builder as kb
from rulebook import meetjesland as mj
from rulebook.core import IllegalMove, check_distribution
from tests.soak import count

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
ROUND_TRIP_EVERY = 50
LEGAL_SAMPLE = 3  # legal moves checked and applied per step besides the one played
MOVES_PER_GAME = count(2_500, 10_000)  # `make test`, `make soak`


def notebook_rule_ids(game: str) -> frozenset[str]:
    """Every ``**XX-n.m**`` paragraph id in the markdown cells of ``notebooks/<game>.ipynb``."""
    notebook = json.loads((NOTEBOOKS / f"{game}.ipynb").read_text(encoding="utf-8"))
    text = "".join("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown")
    return frozenset(re.findall(r"\*\*([A-Z]+-C?\d+(?:\.\d+)*)(?!\.?\d)", text))


# --- Meetjesland ----------------------------------------------------------------------------------------------


def mj_invariants(state: mj.State, memory: dict) -> None:
    # no territory is ever empty outside a battle; points are never negative
    if state.battle is None:
        assert min(state.points) >= 1, "a territory is empty outside a battle"
    assert min(state.points) >= 0
    # the 44 cards (one per territory, the Brewery card standing for its village) are all in the pile or a hand
    cards = state.pile + sum(state.hands, ())
    assert sorted(cards) == sorted(mj.deck(state.board))
    if state.config.board == "meetjesland":
        assert len(cards) == 44 and len(state.board.territories) == 44
    for player in range(state.players):
        assert state.alive[player] == bool(state.territories_of(player)) or state.phase == "setup"
        if not state.alive[player]:
            assert state.hands[player] == ()


def _mj_points(state: mj.State) -> int:
    """Points on the map plus the stake fighting in a battle."""
    return sum(state.points) + (state.battle.stake if state.battle is not None else 0)


def mj_transition(before: mj.State, move: Any, after: mj.State, memory: dict) -> None:
    """Points are only lost in battle, one per pair of dice compared; placing adds exactly what is placed."""
    change = _mj_points(after) - _mj_points(before)
    if isinstance(move, mj.Dice):
        assert change == -min(len(move.attacker), len(move.defender))
    elif isinstance(move, mj.Place):
        assert change == move.points
    else:
        assert change == 0, f"{move} changed the points in play by {change}"


def mj_crafted(state: mj.State, rng: random.Random) -> list:
    board = state.board
    territories = board.territories
    if state.player is None:
        if state.phase == "over":
            return [mj.EndTurn(), mj.Place(territories[0], 1)]
        moves = [mj.EndTurn(), mj.Reinforce(), mj.Place(rng.choice(territories), 1)]
        if state.battle is not None:
            moves.append(mj.Dice((7,), (1,)))  # no such die
            moves.append(mj.Dice((6, 6, 6, 6), (1,)))  # four attacker dice never roll
        else:
            held = [card for hand in state.hands for card in hand]
            if held:
                moves.append(mj.CardDrawn(rng.choice(held)))  # a card in a hand is not in the pile
        return moves
    player = state.turn
    own = state.territories_of(player)
    foreign = [t for t in territories if state.owner_of(t) != player]
    moves = [mj.Place("atlantis", 1), mj.Dice((6,), (1,)), mj.Roll() if state.battle is None else mj.EndTurn()]
    if state.pile:
        moves.append(mj.CardDrawn(state.pile[0]))
    if foreign:
        other = rng.choice(foreign)
        moves += [mj.Place(other, 1), mj.Attack(other, rng.choice(own), 1), mj.Fortify(rng.choice(own), other, 1)]
    moves.append(mj.Attack(own[0], own[0], 1))
    not_held = [card for card in mj.deck() if card not in state.hands[player]]
    moves.append(mj.TradeCards((rng.choice(not_held),)))
    if state.phase == "setup":
        moves.append(mj.EndTurn())
    return moves


# --- Kingdom Builder ------------------------------------------------------------------------------------------


def kb_invariants(state: kb.State, memory: dict) -> None:
    terrain = state.geometry.terrain
    for index, owner in enumerate(state.board):
        if owner >= 0:
            # buildable: the five building terrains, or water for a settlement the Harbor moved there
            assert terrain[index] in kb.TERRAINS or terrain[index] == "water", f"settlement on {terrain[index]}"
    for player in range(state.players):
        assert state.supply[player] >= 0
        assert state.supply[player] + state.board.count(player) == 40
    # 25 terrain cards, 5 of each: in the pile, the discard, the hands or removed (KB-C14)
    for index, name in enumerate(kb.TERRAINS):
        in_hands = sum(card == name for card in state.hands)
        counts = (state.pile[index], state.discard[index], state.removed[index])
        assert min(counts) >= 0 and sum(counts) + in_hands == 5, f"{name} cards: {counts} + {in_hands} in hands"
    assert sum(state.pile) + sum(state.discard) + sum(state.removed) + sum(c is not None for c in state.hands) == 25


def kb_transition(before: kb.State, move: Any, after: kb.State, memory: dict) -> None:
    built = sum(o >= 0 for o in after.board) - sum(o >= 0 for o in before.board)
    if isinstance(move, kb.Build) or (isinstance(move, kb.UseTile) and move.origin is None):
        assert built == 1
    else:
        assert built == 0


def kb_crafted(state: kb.State, rng: random.Random) -> list:
    geometry = state.geometry
    blocked = [i for i in range(400) if geometry.terrain[i] in ("mountain", "castle", "location")]
    taken = [i for i, owner in enumerate(state.board) if owner >= 0]
    moves: list = [kb.Build(divmod(rng.choice(blocked), 20))]
    if taken:
        moves.append(kb.Build(divmod(rng.choice(taken), 20)))
    if state.player is None:
        counts = state.pile if sum(state.pile) else state.discard
        moves += [kb.EndTurn(), kb.UseTile("farm", (0, 0))]
        moves += [kb.CardDrawn(t) for t, n in zip(kb.TERRAINS, counts) if n == 0]
        return moves
    moves.append(kb.CardDrawn(rng.choice(kb.TERRAINS)))
    held = {tile.kind for tile in state.tiles[state.player]}
    for kind in ("oracle", "farm", "oasis", "tower", "tavern"):
        if kind not in held:
            moves.append(kb.UseTile(kind, divmod(rng.randrange(400), 20)))
            break
    return moves


def kb_new(players: int, seed: int) -> kb.State:
    return kb.new_game(players, seed, first_game=seed % 3 == 0)


# --- Ab die Post ----------------------------------------------------------------------------------------------


def adp_invariants(state: adp.State, memory: dict) -> None:
    # ADP-1.2: 16 ones, 23 twos, 16 red threes; lost cards (ADP-4.2, ADP-7.3) go to the discard, none to the box
    totals = [state.pile[i] + state.discard[i] + sum(hand[i] for hand in state.hands) for i in range(3)]
    assert totals == [16, 23, 16] and sum(totals) == 55
    assert min(state.pile + state.discard) >= 0
    for hand in state.hands:
        assert min(hand) >= 0 and hand[2] <= 2, f"hand {hand}: a third red 3 is always lost"
    assert all(position in state.track.graph for position in state.positions)


def adp_crafted(state: adp.State, rng: random.Random) -> list:
    if state.phase == "card":
        return [adp.DrawCard(), adp.Fly(), adp.MarbleShaken("green")] + [
            adp.CardDrawn(v) for v, n in zip((1, 2, 3), state.pile if sum(state.pile) else state.discard) if n == 0
        ]
    if state.phase == "marble":
        return [adp.Stop(), adp.CardDrawn(1), adp.MarbleShaken("purple")]
    if state.phase == "over":
        return [adp.DrawCard(), adp.CardDrawn(1)]
    player = state.player
    hand = state.hands[player]
    moves: list = [adp.CardDrawn(rng.choice((1, 2, 3))), adp.MarbleShaken("black")]
    if state.phase == "turn":
        moves += [adp.Stay(), adp.KeepCard(0), adp.Repair(0, 0, 0)]
        moves.append(adp.Fly() if state.drawn else adp.Stop())
    elif state.phase == "move":
        moves += [adp.DrawCard(), adp.Move((state.positions[player], "nowhere")), adp.Move(("nowhere",))]
    elif state.phase == "repair":
        moves += [adp.KeepCard(0), adp.Repair(hand[0] + 1, hand[1], hand[2]), adp.Repair(0, 0, 0)]
    elif state.phase == "keep":
        moves += [adp.DrawCard(), adp.KeepCard(4)] + [adp.KeepCard(v) for v, n in zip((1, 2, 3), hand) if n == 0]
    return moves


# --- Claim ----------------------------------------------------------------------------------------------------


def cl_invariants(state: cl.State, memory: dict) -> None:
    # a written position (diagram) may start after pieces were lost: what is missing then counts as lost
    lost = memory.setdefault(
        "lost", [0 if state.phase == "placement" else 18 - len(state.pieces(p)) for p in range(state.players)]
    )
    letters_per_territory: dict[str, int] = {}
    for player in range(state.players):
        pieces, towers = len(state.pieces(player)), len(state.towers(player))
        assert towers <= 3, f"{state.colours[player]} has {towers} towers"
        if state.phase == "placement":
            assert pieces <= 18 and lost[player] == 0
        else:
            assert pieces + lost[player] == 18, f"{state.colours[player]}: {pieces} on the board, {lost[player]} lost"
        for point in state.towers(player):
            territory = state.island.territory[point]
            letters_per_territory[territory] = letters_per_territory.get(territory, 0) + 1
    assert all(count == 1 for count in letters_per_territory.values()), "two towers in one territory"


def cl_transition(before: cl.State, move: Any, after: cl.State, memory: dict) -> None:
    """Counts the pieces each player loses (removals and captures) independently of the engine."""
    lost = memory.setdefault("lost", [0] * before.players)
    removed = memory.setdefault("removed", [0] * before.players)
    mover = before.turn
    for player in range(before.players):
        change = len(after.pieces(player)) - len(before.pieces(player))
        if isinstance(move, cl.Place):
            assert change == (1 if player == mover else 0)
        elif player == mover or isinstance(move, (cl.PlaceTower, cl.Stop, cl.Pass)):
            assert change == 0
        else:
            assert change <= 0
            lost[player] -= change
            if isinstance(move, cl.Remove):
                removed[player] -= change
    if isinstance(move, cl.Remove):
        assert (
            sum(len(after.pieces(p)) for p in range(before.players))
            == sum(len(before.pieces(p)) for p in range(before.players)) - 1
        )
        if before.players > 2:
            assert max(removed) <= 4  # CL-5.1: nobody loses more than 4 pieces in the removal phase


def cl_crafted(state: cl.State, rng: random.Random) -> list:
    board = state.island
    occupied = [p for p in board.points if state.at(p) != "."]
    moves: list = [cl.Place((-3, -3))]
    player = state.turn
    if state.phase == "placement":
        moves.append(cl.Remove(board.points[0]))
        if occupied:
            moves.append(cl.Place(rng.choice(occupied)))
        return moves
    own = state.pieces(player)
    enemy = [p for p in occupied if state.enemies(player, state.owner(p))]
    if state.phase == "removal":
        moves.append(cl.Remove(rng.choice(own)))
        empty = [p for p in board.points if state.at(p) == "."]
        if empty:
            moves.append(cl.Remove(rng.choice(empty)))
        return moves
    moves.append(cl.Remove(rng.choice(occupied)))
    if enemy:
        origin = rng.choice(enemy)
        moves.append(cl.Step(origin, board.neighbours[origin][0]))
    for origin in own:
        full = [n for n in board.neighbours[origin] if state.at(n) != "."]
        if full:
            moves.append(cl.Step(origin, full[0]))
            break
    if state.follow_up is None and state.phase != "towers":  # Stop is legal in the tower round
        moves.append(cl.Stop())
    if state.result is None and not cl.conquerable(state, player):
        territory = rng.choice(board.letters)
        moves.append(cl.PlaceTower(territory, board.territories[territory][0]))
    return moves


# --- one driver for the four games ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Game:
    name: str
    module: Any
    new: Callable[[int, int], Any]
    invariants: Callable[[Any, dict], None]
    transition: Callable[[Any, Any, Any, dict], None]
    crafted: Callable[[Any, random.Random], list]
    players: tuple[int, ...]


# Each game's own checks; the engine and the player counts are the registry's (a game is played as it is served).
CHECKS = {
    "meetjesland": (mj.new_game, mj_invariants, mj_transition, mj_crafted),
    "kingdom_builder": (kb_new, kb_invariants, kb_transition, kb_crafted),
    "ab_die_post": (adp.new_game, adp_invariants, lambda *_: None, adp_crafted),
    "claim": (cl.new_game, cl_invariants, cl_transition, cl_crafted),
}
GAMES = {
    name: Game(name, declared.engine, *CHECKS[name], declared.players)
    for name, declared in registry.games().items()
    if name in CHECKS
}
RULE_IDS = {name: notebook_rule_ids(name) for name in GAMES}

# (game, players, seed, moves): the moves of one game's cases add up to at least MOVES_PER_GAME
CASES = [
    *(("meetjesland", players, seed, count(625, 2_500)) for players, seed in ((3, 1), (4, 2), (5, 3), (6, 4))),
    *(("kingdom_builder", players, seed, count(625, 2_500)) for players, seed in ((2, 1), (3, 2), (4, 3), (2, 4))),
    *(("ab_die_post", players, seed, count(500, 2_000)) for players, seed in ((2, 1), (3, 2), (4, 3), (5, 4), (6, 5))),
    *(("claim", players, seed, count(625, 2_500)) for players, seed in ((2, 1), (3, 2), (4, 3), (2, 4))),
]


def snapshot(state: Any) -> tuple:
    """Every field by identity and the structural hash of the whole state (log excluded): the hash also proves
    that nothing mutable hides inside the frozen state, so an unchanged snapshot means an unchanged state."""
    fields = tuple(getattr(state, field.name) for field in dataclasses.fields(state))
    return tuple(map(id, fields)), hash(dataclasses.replace(state, history=())), len(state.history)


def assert_refused(game: Game, state: Any, move: Any) -> None:
    before = snapshot(state)
    with pytest.raises(IllegalMove) as caught:
        game.module.apply(state, move)
    rule = caught.value.rule
    assert rule in RULE_IDS[game.name], f"{move} refused by {rule}, which is not in notebooks/{game.name}.ipynb"
    assert caught.value.message, f"{move}: refusal without a message"
    checked = game.module.check(state, move)
    assert isinstance(checked, IllegalMove) and checked.rule == rule
    assert snapshot(state) == before, f"refusing {move} changed the state"


def assert_round_trip(game: Game, start: Any, state: Any) -> None:
    module = game.module
    assert module.from_json(module.to_json(state)) == state
    assert core.replay(start, state.history, module.apply) == state


def assert_finished(game: Game, state: Any, rng: random.Random) -> None:
    module = game.module
    assert module.legal_moves(state) == ()
    assert module.chance_outcomes(state) == ()
    result = module.outcome(state)
    assert isinstance(result, core.Outcome)
    assert all(0 <= winner < state.players for winner in result.winners)
    for bad in game.crafted(state, rng):
        assert_refused(game, state, bad)


def play(game: Game, players: int, seed: int, moves: int) -> dict[str, int]:
    """Play ``moves`` moves (chance outcomes included) from seeded games; returns counts of what was seen."""
    module = game.module
    rng = random.Random(seed)
    seen = {"moves": 0, "games": 0, "finished": 0, "chance": 0, "refused": 0}
    while seen["moves"] < moves:
        start = state = game.new(players, seed * 1000 + seen["games"])
        seen["games"] += 1
        memory: dict = {}
        step = 0
        while seen["moves"] < moves:
            game.invariants(state, memory)
            if step % ROUND_TRIP_EVERY == 0:
                assert_round_trip(game, start, state)
            outcomes = module.chance_outcomes(state)
            if outcomes:
                check_distribution(outcomes)
                assert state.player is None and module.legal_moves(state) == ()
                move = core.pick(outcomes, rng)
                seen["chance"] += 1
            else:
                if module.outcome(state) is not None:
                    assert_finished(game, state, rng)
                    seen["finished"] += 1
                    break
                legal = module.legal_moves(state)
                assert legal, f"{game.name}: no legal move and no outcome in {state}"
                assert state.player is not None
                for other in rng.sample(legal, min(LEGAL_SAMPLE, len(legal))):
                    assert module.check(state, other) is None
                    module.apply(state, other)
                move = rng.choice(legal)
                assert module.check(state, move) is None
            legal_set = set(module.legal_moves(state)) | {outcome for outcome, _ in outcomes}
            for bad in game.crafted(state, rng):
                assert bad not in legal_set, f"crafted move {bad} is legal here"
                assert_refused(game, state, bad)
                seen["refused"] += 1
            after = module.apply(state, move)
            assert after.history == state.history + (move,)
            game.transition(state, move, after, memory)
            state = after
            seen["moves"] += 1
            step += 1
        game.invariants(state, memory)
        assert_round_trip(game, start, state)
    return seen


@pytest.mark.parametrize(("name", "players", "seed", "moves"), CASES)
def test_random_play(name: str, players: int, seed: int, moves: int) -> None:
    seen = play(GAMES[name], players, seed, moves)
    assert seen["moves"] == moves
    assert seen["refused"] > moves  # the crafted moves were really tried, several per step
    if name != "claim":
        assert seen["chance"] > 0


def test_every_registered_game_is_played_here() -> None:
    """A game the rulebook serves is hardened here too: each has its invariants and crafted moves."""
    assert set(GAMES) == set(registry.games()) == set(CHECKS)
    for name, game in GAMES.items():
        assert game.module is registry.game(name).engine


def test_every_game_plays_its_moves_per_run_at_every_player_count() -> None:
    for name, game in GAMES.items():
        cases = [case for case in CASES if case[0] == name]
        assert sum(case[3] for case in cases) >= MOVES_PER_GAME
        assert {case[1] for case in cases} == set(game.players)  # every player count is played


def test_random_play_finishes_games() -> None:
    """Random play reaches the end of games, so the finished-game checks above really run."""
    for name in ("kingdom_builder", "claim"):
        assert play(GAMES[name], 2, 99, 600)["finished"] >= 1


@settings(max_examples=count(8, 80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_play_hypothesis(data: st.DataObject) -> None:
    """Short games over drawn games, player counts and seeds (hypothesis shrinks a failure to a small seed)."""
    name = data.draw(st.sampled_from(sorted(GAMES)), label="game")
    players = data.draw(st.sampled_from(GAMES[name].players), label="players")
    seed = data.draw(st.integers(min_value=0, max_value=2**31), label="seed")
    assert play(GAMES[name], players, seed, 120)["moves"] == 120
