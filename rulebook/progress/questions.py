"""Review questions the engine makes for a paragraph no exercise practises: "is this move legal here?" on a position
from a seeded game where that paragraph decides (the engine's ``check`` refuses the move by it), marked by the
engine like every exercise (a ``"value"`` exercise asking the shared ``allowed`` function).

How positions are found knows no game: a seeded game is played at random, and at each position the moves that were
legal a few positions before are tried again; every refusal names its paragraph (``IllegalMove.rule``). A
paragraph that never decides such a move (scoring, set-up, the end) gets no question: the review shows its text.
"""

from __future__ import annotations

import functools
import json
import random
import time
from dataclasses import dataclass
from typing import Any

from rulebook import registry
from rulebook.core import IllegalMove, encode_move, sample
from rulebook.teach.exercises import Choice, Exercise

SEEDS = tuple(range(1, 9))  # the games played to find positions: the same questions on every machine
MAX_POSITIONS = 300  # positions visited per seed
WINDOW = 8  # how many earlier positions' legal moves are tried again in each position
TRIED = 25  # moves tried per position (a sample of those, seeded)
BUDGET = 6.0  # seconds at most per game for the whole search (run once, cached)


@dataclass(frozen=True)
class Found:
    """A position where paragraph ``rule`` decides: ``refused`` is a move it refuses there, ``allowed`` a legal move
    of the same kind in the same position (if there is one)."""

    rule: str
    state: Any
    refused: Any
    allowed: Any


@functools.cache
def positions(game: str) -> dict[str, Found]:
    """For each paragraph of ``game`` that decides some move in a seeded game's positions: one such position."""
    declared = registry.game(game)
    engine = declared.engine
    found: dict[str, Found] = {}
    started = time.monotonic()
    for seed in SEEDS:
        rng = random.Random(f"review {game} {seed}")
        state = declared.new_state(declared.default_players, seed, {})
        recent: list[tuple[Any, ...]] = []
        for _ in range(MAX_POSITIONS):
            if engine.outcome(state) is not None or time.monotonic() - started > BUDGET:
                break
            if engine.chance_outcomes(state):
                state = engine.apply(state, sample(state, rng))
                continue
            legal = engine.legal_moves(state)
            if not legal:
                break
            candidates = [move for moves in recent[-WINDOW:] for move in moves]
            for move in rng.sample(candidates, min(TRIED, len(candidates))):
                _try(engine, state, move, legal, found)
            recent.append(tuple(legal[:60]))
            state = engine.apply(state, rng.choice(legal))
    return found


def _try(engine: Any, state: Any, move: Any, legal: tuple[Any, ...], found: dict[str, Found]) -> None:
    try:
        error = engine.check(state, move)
    except (ValueError, TypeError, LookupError):  # a move of another phase the engine cannot even read
        return
    if isinstance(error, IllegalMove) and error.rule and error.rule not in found:
        same_kind = next((other for other in legal if type(other) is type(move)), None)
        found[error.rule] = Found(error.rule, state, move, same_kind)


def question(game: str, rule: str) -> Exercise | None:
    """An "is this move legal here?" question on a position where ``rule`` decides, or None where the search found
    none. Which of the two moves is asked (the refused one or a legal one of its kind) alternates by paragraph, so
    the answer is not always "no"."""
    place = positions(game).get(rule)
    if place is None:
        return None
    declared = registry.game(game)
    ask_legal = place.allowed is not None and sum(map(ord, rule)) % 2 == 1
    move = place.allowed if ask_legal else place.refused
    position = json.loads(declared.engine.to_json(place.state))
    refusal = declared.engine.check(place.state, move)
    why = (
        f"The engine allows {move} here: nothing in {rule} or elsewhere forbids it."
        if refusal is None
        else f"The engine refuses {move} here, by {refusal.rule}: {refusal.message}."
    )
    return Exercise(
        game=game,
        id=f"review-{rule}",
        rules=(rule,),
        position=position,
        question=f"Is this move legal in this position: {move}?",
        kind="value",
        choices=(Choice("Yes, it is legal", value="yes"), Choice("No, the rules refuse it", value="no")),
        answer=(0,) if ask_legal else (1,),
        why=why,
        value="allowed",
        args=(("move", encode_move(move)),),
    )
