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

from rulebook import core, registry

ROOT = Path(__file__).resolve().parent.parent
GAMES = list(registry.games())
PLAYED_AT_MOST = 300  # moves (chance outcomes included) of the random game a save is taken from: at its middle
CONTINUED_FOR = 60

CHILD = """
import json, sys
from rulebook import core, registry
game = registry.game({game!r})
request = json.loads(sys.stdin.read())
state = game.engine.from_json(request["save"])
legal = [str(move) for move in game.engine.legal_moves(state)]
chance = [[str(outcome), str(probability)] for outcome, probability in game.engine.chance_outcomes(state)]
for index, data in enumerate(request["moves"]):
    state = game.engine.apply(state, core.decode_move(data, game.move_classes(), where=f"moves[{{index}}]"))
print(json.dumps({{"legal": legal, "chance": chance, "save": game.engine.to_json(state)}}))
"""


def module(game: str):
    return registry.game(game).engine


def random_moves(game: str, state, count: int, rng: random.Random):
    """``count`` moves (or until the end) chosen with ``rng``: the last state and the moves."""
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
    """A position halfway through a seeded random game of the most players (or through its first moves)."""
    declared = registry.game(game)
    start = declared.new_state(max(declared.players), seed, {})
    _, moves = random_moves(game, start, PLAYED_AT_MOST, random.Random(seed))
    state, _ = random_moves(game, start, len(moves) // 2, random.Random(seed))
    assert declared.engine.outcome(state) is None, "the save must be taken in the middle of the game"
    assert len(moves) // 2 >= 20, "a game too short to save in its middle"
    return state


def rules_version(state) -> int:
    """The rules version of the module that defines the game's state (its rules.py)."""
    return importlib.import_module(type(state).__module__).RULES_VERSION


@pytest.mark.parametrize("game", GAMES)
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


@pytest.mark.parametrize("game", GAMES)
def test_every_save_file_carries_its_rules_version(game: str) -> None:
    version = rules_version(middle_of_a_game(game))
    assert isinstance(version, int) and not isinstance(version, bool)
    data = json.loads(module(game).to_json(middle_of_a_game(game)))
    assert data["version"] == version
    assert data["game"] == game


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("version", ["other", "missing", "text", "older"])
def test_a_save_from_another_rules_version_is_refused(game: str, version: str) -> None:
    engine = module(game)
    current = rules_version(middle_of_a_game(game))
    data = json.loads(engine.to_json(middle_of_a_game(game)))
    if version == "missing":
        del data["version"]
    else:
        data["version"] = {"other": current + 1, "text": str(current), "older": current - 1}[version]
    with pytest.raises(ValueError, match="version") as refused:
        engine.from_json(json.dumps(data))
    assert str(current) in str(refused.value)  # the message says which version this rulebook plays
    assert not isinstance(refused.value, core.IllegalMove)


@pytest.mark.parametrize("game", GAMES)
def test_a_save_of_another_game_is_refused(game: str) -> None:
    data = json.loads(module(game).to_json(middle_of_a_game(game)))
    other = next(name for name in GAMES if name != game)
    with pytest.raises(ValueError, match=other):
        module(other).from_json(json.dumps(data))
