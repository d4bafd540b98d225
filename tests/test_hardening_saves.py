"""Save files across interpreters and rules versions (issue 7, item 3).

A game saved in the middle is loaded in a fresh Python process (``subprocess`` running ``sys.executable``), which
applies the same next moves as this process; both must show the same legal moves on loading and end in the same save
file.  A save file written under another rules version, or without a version, is refused with a ``ValueError`` that
names the versions, rather than being misread.
"""

from __future__ import annotations

import functools
import importlib
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook import core

ROOT = Path(__file__).resolve().parent.parent
# game -> (players, moves played before saving, chance outcomes included): the save falls in the middle of the game
GAMES = {"meetjesland": (4, 150), "kingdom_builder": (3, 150), "ab_die_post": (4, 150), "claim": (2, 60)}
CONTINUED_FOR = 60

CHILD = """
import json, sys
from rulebook import core
import rulebook.{game} as game
from rulebook.{game}.rules import MOVE_CLASSES
request = json.loads(sys.stdin.read())
state = game.from_json(request["save"])
legal = [str(move) for move in game.legal_moves(state)]
chance = [[str(outcome), str(probability)] for outcome, probability in game.chance_outcomes(state)]
for index, data in enumerate(request["moves"]):
    state = game.apply(state, core.decode_move(data, MOVE_CLASSES, where=f"moves[{{index}}]"))
print(json.dumps({{"legal": legal, "chance": chance, "save": game.to_json(state)}}))
"""


def module(game: str):
    return importlib.import_module(f"rulebook.{game}")


def random_moves(game: str, state, count: int, rng: random.Random):
    """``count`` moves (or until the end) chosen with ``rng``: the states passed through and the moves."""
    engine = module(game)
    moves = []
    for _ in range(count):
        outcomes = engine.chance_outcomes(state)
        if outcomes:
            move = core.pick(outcomes, rng)
        elif engine.outcome(state) is None:
            move = rng.choice(engine.legal_moves(state))
        else:
            break
        moves.append(move)
        state = engine.apply(state, move)
    return state, moves


@functools.cache
def middle_of_a_game(game: str, seed: int = 5):
    engine = module(game)
    players, moves = GAMES[game]
    state, _ = random_moves(game, engine.new_game(players, seed), moves, random.Random(seed))
    assert engine.outcome(state) is None, "the save must be taken in the middle of the game"
    return state


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_saved_game_continues_identically_in_a_fresh_interpreter(game: str) -> None:
    engine = module(game)
    state = middle_of_a_game(game)
    saved = engine.to_json(state)
    finished, moves = random_moves(game, state, CONTINUED_FOR, random.Random(11))
    assert len(moves) > 10
    request = json.dumps({"save": saved, "moves": [core.encode_move(move) for move in moves]})
    result = subprocess.run(
        [sys.executable, "-c", CHILD.format(game=game)],
        input=request,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    child = json.loads(result.stdout)
    assert child["legal"] == [str(move) for move in engine.legal_moves(state)]
    assert child["chance"] == [[str(o), str(p)] for o, p in engine.chance_outcomes(state)]
    assert child["save"] == engine.to_json(finished)
    assert engine.from_json(child["save"]) == finished


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_save_file_carries_its_rules_version(game: str) -> None:
    rules = importlib.import_module(f"rulebook.{game}.rules")
    assert isinstance(rules.RULES_VERSION, int) and not isinstance(rules.RULES_VERSION, bool)
    data = json.loads(module(game).to_json(middle_of_a_game(game)))
    assert data["version"] == rules.RULES_VERSION
    assert data["game"] == game


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("version", ["other", "missing", "text", "older"])
def test_a_save_from_another_rules_version_is_refused(game: str, version: str) -> None:
    engine = module(game)
    current = importlib.import_module(f"rulebook.{game}.rules").RULES_VERSION
    data = json.loads(engine.to_json(middle_of_a_game(game)))
    if version == "missing":
        del data["version"]
    else:
        data["version"] = {"other": current + 1, "text": str(current), "older": current - 1}[version]
    with pytest.raises(ValueError, match="version") as refused:
        engine.from_json(json.dumps(data))
    assert str(current) in str(refused.value)  # the message says which version this rulebook plays
    assert not isinstance(refused.value, core.IllegalMove)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_save_of_another_game_is_refused(game: str) -> None:
    data = json.loads(module(game).to_json(middle_of_a_game(game)))
    other = next(name for name in sorted(GAMES) if name != game)
    with pytest.raises(ValueError, match=other):
        module(other).from_json(json.dumps(data))
