"""The four engines and their computer players have one shape (issue 22, item 4).

Over seeded random games of every game: ``state.player`` is the seat that decides now and ``None`` exactly at chance
nodes and once the game is over; ``legal_moves`` is empty exactly when ``player`` is None; ``outcome`` is a
``core.Outcome`` exactly at the end; and the seat that made each move, as the position shows it (whose piece
stands on the target, whose hand paid, whose turn the game's own fields say it is), is the ``player`` of the state
it was played in. Save files are defined in each game's ``rules.py``, and the computer players of ``bots.BOTS``
are the functions ``<key>_player`` of the game's ``bots`` module.
"""

from __future__ import annotations

import importlib
import inspect
import random
from collections.abc import Callable
from typing import Any

import pytest

from rulebook import ab_die_post as adp
from rulebook import claim as cl
from rulebook import core
from rulebook import kingdom_builder as kb
from rulebook import meetjesland as mj

SEEDS = range(8)
MAX_PLIES = 20_000  # every seeded random game below ends well within this (the longest takes about 5 000)


# --- the seat a move came from, read from the position (never from ``player``) ------------------------------------


def _meetjesland_mover(before: mj.State, move: Any, after: mj.State) -> int:
    if isinstance(move, (mj.Place, mj.Attack, mj.Fortify)):
        territory = move.territory if isinstance(move, mj.Place) else move.origin
        return before.owner_of(territory)
    if isinstance(move, mj.TradeCards):
        (seat,) = [seat for seat in range(before.players) if after.hands[seat] != before.hands[seat]]
        return seat
    return before.turn  # Reinforce, Roll, Retreat, EndTurn: the turn's own player


def _kingdom_builder_mover(before: kb.State, move: Any, after: kb.State) -> int:
    if isinstance(move, kb.EndTurn):
        (seat,) = [seat for seat in range(before.players) if after.turns[seat] != before.turns[seat]]
        return seat
    target = move.hex if isinstance(move, kb.Build) else move.target
    return after.board[target[0] * 20 + target[1]]  # the settlement now standing on the target


def _ab_die_post_mover(before: adp.State, move: Any, after: adp.State) -> int:
    if isinstance(move, (adp.Repair, adp.KeepCard)):
        seat = before.pending[0]  # repairs and kept cards go round the seats in ``pending``
        if isinstance(move, adp.Repair):
            paid = tuple(held - cards for held, cards in zip(before.hands[seat], (move.ones, move.twos, move.reds)))
            assert after.hands[seat] == paid, "the repairs were not paid from the mover's hand"
        return seat
    if isinstance(move, adp.Move):
        assert move.path[0] == before.positions[before.turn_player], "the route starts at another plane"
        assert after.positions[before.turn_player] == move.path[-1], "another plane flew the route"
    return before.turn_player  # DrawCard, Stop, Fly, Move, Stay: the player whose turn it is


def _claim_mover(before: cl.State, move: Any, after: cl.State) -> int:
    if isinstance(move, (cl.Place, cl.PlaceTower)):
        return after.owner(move.point)
    if isinstance(move, (cl.Step, cl.Jump)):
        return after.owner(move.destination)
    if isinstance(move, cl.Remove):
        (seat,) = [seat for seat in range(before.players) if after.removals_left[seat] != before.removals_left[seat]]
        return seat
    return before.turn  # Stop, Pass


GAMES: dict[str, tuple[Any, tuple[int, ...], Callable[[Any, Any, Any], int]]] = {
    "meetjesland": (mj, (3, 4, 6), _meetjesland_mover),
    "kingdom_builder": (kb, (2, 3, 4), _kingdom_builder_mover),
    "ab_die_post": (adp, (2, 4, 6), _ab_die_post_mover),
    "claim": (cl, (2, 4), _claim_mover),
}


def _check_position(game: Any, state: Any) -> None:
    """``player``, ``legal_moves``, ``chance_outcomes`` and ``outcome`` agree on what the position is."""
    moves, outcomes, result = game.legal_moves(state), game.chance_outcomes(state), game.outcome(state)
    assert result is None or isinstance(result, core.Outcome)
    at_chance, over = bool(outcomes), result is not None
    assert not (at_chance and over), "a finished game has no chance node"
    if at_chance or over:
        assert state.player is None, f"player is {state.player} at a {'chance node' if at_chance else 'finished game'}"
    else:
        assert isinstance(state.player, int) and 0 <= state.player < state.players, f"player is {state.player!r}"
    assert (moves == ()) == (state.player is None), f"player {state.player} with {len(moves)} legal moves"


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_player_is_none_exactly_at_chance_nodes_and_at_the_end_and_makes_every_move(name: str, seed: int) -> None:
    game, counts, mover_of = GAMES[name]
    rng = random.Random(seed)
    state = game.new_game(players=counts[seed % len(counts)], seed=seed)
    for _ in range(MAX_PLIES):
        _check_position(game, state)
        if game.outcome(state) is not None:
            break
        outcomes = game.chance_outcomes(state)
        if outcomes:
            state = game.apply(state, core.pick(outcomes, rng))
            continue
        move = rng.choice(game.legal_moves(state))
        after = game.apply(state, move)
        assert mover_of(state, move, after) == state.player, f"{move} was not made by player {state.player}"
        state = after
    assert game.outcome(state) is not None, f"{name} seed {seed} did not end within {MAX_PLIES} plies"


@pytest.mark.parametrize("name", GAMES)
def test_save_files_are_defined_in_each_games_rules(name: str) -> None:
    game = GAMES[name][0]
    rules = importlib.import_module(f"rulebook.{name}.rules")
    # a game whose saves may start from a written diagram keeps its save files beside the diagram reader, which
    # builds on rules.py (so rules.py never imports it back); every other verb is rules.py's own
    saves = (rules.__name__, f"rulebook.{name}.diagram")
    for verb in ("to_json", "from_json", "outcome", "legal_moves", "chance_outcomes", "apply", "check", "new_game"):
        where = saves if verb in ("to_json", "from_json") else (rules.__name__,)
        assert getattr(game, verb).__module__ in where, f"{name}.{verb} is defined outside {' or '.join(where)}"


def test_kingdom_builders_diagram_module_still_exports_the_save_files() -> None:
    from rulebook.kingdom_builder import diagram

    assert diagram.to_json is kb.to_json and diagram.from_json is kb.from_json


# --- computer players ------------------------------------------------------------------------------------------

BOT_KEYS = {
    "meetjesland": ("random", "greedy", "strong"),
    "kingdom_builder": ("random", "greedy", "strong", "quick"),
    "ab_die_post": ("random", "greedy", "strong"),
    "claim": ("random", "greedy", "strong", "quick"),
}


@pytest.mark.parametrize("name", GAMES)
def test_every_computer_player_is_a_function_named_after_its_key_and_says_how_strong_it_is(name: str) -> None:
    bots = importlib.import_module(f"rulebook.{name}.bots")
    assert tuple(bots.BOTS) == BOT_KEYS[name]
    for key, bot in bots.BOTS.items():
        assert getattr(bots, f"{key}_player") is bot, f"{name}: BOTS[{key!r}] is not bots.{key}_player"
        assert bot.__name__ == f"{key}_player" and bot.__module__ == bots.__name__
        assert list(inspect.signature(bot).parameters)[:2] == ["state", "rng"]
        lines = [line.strip() for line in (bot.__doc__ or "").splitlines()]
        assert any(line.startswith("Strength: ") for line in lines), f"{name}.{key}_player: no 'Strength:' line"


@pytest.mark.parametrize("name", GAMES)
def test_every_computer_player_plays_a_legal_move(name: str) -> None:
    game = GAMES[name][0]
    bots = importlib.import_module(f"rulebook.{name}.bots")
    state = core.advance(game.new_game(players=GAMES[name][1][0], seed=5), random.Random(5))
    for key, bot in bots.BOTS.items():
        assert bot(state, random.Random(1)) in game.legal_moves(state), f"{name}: {key} plays an illegal move"


def test_the_factories_are_named_make_kind_player_and_the_old_names_stay_as_aliases() -> None:
    from rulebook.ab_die_post import bots as adp_bots
    from rulebook.claim import bots as cl_bots
    from rulebook.kingdom_builder import bots as kb_bots

    state = core.advance(adp.new_game(players=3, seed=2), random.Random(2))
    assert adp_bots.make_threshold_player(6)(state, random.Random(0)) == adp_bots.greedy_player(state, random.Random(0))
    assert adp_bots.make_route_player(6, detour=True)(state, random.Random(0)) in adp.legal_moves(state)
    assert adp_bots.threshold_bot is adp_bots.make_threshold_player and adp_bots.route_bot is adp_bots.make_route_player
    assert adp_bots.random_bot is adp_bots.random_player and adp_bots.strong_bot is adp_bots.strong_player

    assert kb_bots.strong_bot is kb_bots.make_strong_player
    state = core.advance(kb.new_game(players=2, seed=3), random.Random(3))
    assert kb_bots.make_strong_player(1)(state, random.Random(4)) == kb_bots.quick_player(state, random.Random(4))

    assert cl_bots.random_bot is cl_bots.random_player and cl_bots.greedy_bot is cl_bots.greedy_player
    assert cl_bots.strong_bot is cl_bots.strong_player
    state = cl.new_game(players=2, seed=1)
    assert cl_bots.strong_player(state, random.Random(0)) in cl.legal_moves(state)  # the player itself, not a factory
    quick = cl_bots.make_strong_player(turns=1, node_limit=1500)
    assert quick(state, random.Random(0)) == cl_bots.quick_player(state, random.Random(0))
    for factory in (adp_bots.make_threshold_player, kb_bots.make_strong_player):
        with pytest.raises(ValueError):
            factory(0)
    with pytest.raises(ValueError):
        cl_bots.make_strong_player(turns=0)
