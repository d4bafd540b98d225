"""Claim: random play over many seeds, move generation against an independent enumeration, save files, diagrams."""

from __future__ import annotations

import json
import random

import pytest

from rulebook import claim, core
from rulebook.claim import Jump, Pass, Place, PlaceTower, Remove, Step, Stop
from rulebook.claim.diagram import FIGURE_NUMBERS, figure
from rulebook.core import IllegalMove

DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def reachable(state, origin):
    """Independent enumeration: every point a piece on ``origin`` can reach by a step or a jump chain."""
    points = set(state.island.points)
    free = {p for p in points if state.at(p) == "."}
    steps = {(origin[0] + dr, origin[1] + dc) for dr, dc in DIRECTIONS} & free
    jumps, todo = set(), [origin]
    while todo:
        here = todo.pop()
        for dr, dc in DIRECTIONS:
            over, land = (here[0] + dr, here[1] + dc), (here[0] + 2 * dr, here[1] + 2 * dc)
            if over in points and over not in free and over != origin and land in free and land not in jumps:
                jumps.add(land)
                todo.append(land)
    return steps | jumps


def crafted_illegal(state, rng):
    """Moves that break a rule in the current state."""
    moves = []
    taken = [p for p in state.island.points if state.at(p) != "."]
    if taken:
        point = rng.choice(taken)
        moves.append(Place(point))
        moves.append(Step(point, point))
    moves.append(Place((-5, -5)))
    moves.append(Jump((0, 0), ((0, 3),)))
    if state.phase == "battle":
        moves.append(Remove(state.island.points[0]))
        if state.follow_up is None:
            moves.append(Stop())
    else:
        moves.append(Pass())
        moves.append(PlaceTower("a", state.island.points[0]))
    legal = set(claim.legal_moves(state))
    return [m for m in moves if m not in legal and claim.check(state, m) is not None]


def invariants(state):
    towers_per_territory = {}
    for player in range(state.players):
        assert len(state.pieces(player)) <= 18
        assert len(state.towers(player)) <= 3
        for point in state.towers(player):
            territory = state.island.territory[point]
            assert territory not in towers_per_territory
            towers_per_territory[territory] = player
    if state.phase == "removal":
        for player in range(state.players):
            assert len(state.pieces(player)) >= 14


@pytest.mark.parametrize("players, seed", [(2, 0), (2, 1), (2, 2), (3, 3), (3, 4), (4, 5), (4, 6)])
def test_random_play(players, seed):
    rng = random.Random(seed)
    state = claim.new_game(players=players, seed=seed)
    start = state
    steps = 0
    while claim.outcome(state) is None:
        moves = claim.legal_moves(state)
        assert moves and len(set(moves)) == len(moves)
        assert claim.chance_outcomes(state) == ()
        assert state.player == state.turn
        if steps % 7 == 0:
            for move in moves:
                assert claim.check(state, move) is None, move
            for bad in crafted_illegal(state, rng):
                before = claim.to_diagram(state)
                with pytest.raises(IllegalMove):
                    claim.apply(state, bad)
                assert claim.to_diagram(state) == before
            text = claim.to_diagram(state)
            again = claim.from_diagram(text)
            assert claim.to_diagram(again) == text
            assert claim.legal_moves(again) == moves
        if state.phase == "battle" and state.follow_up is None and steps % 3 == 0:
            for piece in state.pieces(state.turn):
                mine = {m.destination for m in claim.moves_from(state, piece)}
                assert mine == reachable(state, piece)
        move = rng.choice(moves)
        state = claim.apply(state, move)
        invariants(state)
        steps += 1
        assert steps < 3000
    assert claim.legal_moves(state) == ()
    assert state.player is None
    assert claim.from_json(claim.to_json(state)) == state
    assert core.replay(start, state.history, claim.apply) == state
    text = claim.to_diagram(state)
    assert "to-move: none" in text
    assert claim.outcome(claim.from_diagram(text)) is not None


def test_json_round_trip_from_a_diagram_start():
    fig = figure(4)
    state = claim.from_diagram(fig.before)
    for move in fig.moves:
        state = claim.apply(state, move)
    saved = claim.to_json(state)
    assert claim.from_json(saved) == state
    data = json.loads(saved)
    assert data["game"] == "claim" and data["version"] == claim.RULES_VERSION
    assert data["history"][0] == {"move": "Step", "origin": [4, 3], "destination": [3, 3]}


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "not a saved game"),
        ('{"game": "chess", "version": 1, "setup": {}, "history": []}', "not 'claim'"),
        ('{"game": "claim", "version": 9, "setup": {}, "history": []}', "rules version"),
        ('{"game": "claim", "version": 1, "setup": {}, "history": []}', "version 1; this rulebook plays version 2"),
        ('{"game": "claim", "version": 2, "setup": {"players": 2}, "history": []}', "setup needs exactly"),
    ],
)
def test_from_json_refuses_bad_text(text, message):
    with pytest.raises(ValueError, match=message):
        claim.from_json(text)


def test_from_json_refuses_an_illegal_or_malformed_history():
    state = claim.new_game(players=2, seed=0)
    state = claim.apply(state, claim.legal_moves(state)[0])
    data = json.loads(claim.to_json(state))
    data["history"].append(data["history"][0])  # the same point twice
    with pytest.raises(ValueError, match=r"history\[1\].*CL-4.2"):
        claim.from_json(json.dumps(data))
    data["history"][1] = {"move": "Fly", "to": 3}
    with pytest.raises(ValueError, match="unknown move"):
        claim.from_json(json.dumps(data))
    data["history"][1] = {"move": "Place", "point": "north"}
    with pytest.raises(ValueError, match="point must be a"):
        claim.from_json(json.dumps(data))


@pytest.mark.parametrize("number", FIGURE_NUMBERS)
def test_figure_diagrams_round_trip_exactly(number):
    text = figure(number).before
    assert claim.to_diagram(claim.from_diagram(text)) == text


GOOD = "players: red blue\nto-move: red\nphase: battle\n\naab\naab\n\nr..\n.b.\n"


@pytest.mark.parametrize(
    "change, message",
    [
        (("players: red blue", "players: red purple"), "colours"),
        (("to-move: red", "to-move: green"), "not one of the players"),
        (("phase: battle", "phase: war"), "phase"),
        (("to-move: red\n", ""), "missing header"),
        (("phase: battle", "phase: battle\nphase: battle"), "given twice"),
        (("phase: battle", "phase: battle\ncolour: red"), "unknown header"),
        (("aab\naab", "aab\naxb"), "territory letter"),
        (("aab\naab", "aab\naa"), "same length"),
        (("r..\n.b.", "r..\n.b"), "same shape"),
        (("r..\n.b.", "r..\n.z."), "player's letter"),
        (("r..\n.b.", "r..\n.y."), "player's letter"),
        (("aab\naab\n\n", "aab\naab\n"), "3 blocks"),
        (("aab\naab", "a#b\naab"), "'#' must match"),
        (("aab\naab", "aba\naab"), "not in one piece"),
        (("phase: battle", "phase: battle\nfollow-up: (1, 1)"), "follow-up"),
        (("phase: battle", "phase: battle\nquiet: lots"), "quiet"),
        (("phase: battle", "phase: battle\nclaims: red=z"), "claims"),
        (("phase: battle", "phase: battle\nteams: red+blue"), "only for 4 players"),
        (("to-move: red", "to-move: none"), "finished"),
        (("r..\n.b.", "R.R\n.bR"), "more than one tower"),
        (("phase: battle", "phase: removal"), "lost more than 4"),
    ],
)
def test_from_diagram_refuses_malformed_text(change, message):
    old, new = change
    assert old in GOOD
    with pytest.raises(ValueError, match=message):
        claim.from_diagram(GOOD.replace(old, new, 1))


def test_to_diagram_writes_the_issue_format():
    state = claim.new_game(players=2, seed=0)
    lines = claim.to_diagram(state).split("\n")
    assert lines[0] == "players: red blue"
    assert lines[1] == f"to-move: {state.colours[state.first]}"
    assert lines[2] == "phase: placement"
    assert lines[3] == ""
    assert set("".join(lines[4:15])) <= set("abcde#")


def test_moves_read_like_the_rules():
    assert str(Step((3, 4), (3, 5))) == "step (3, 4) -> (3, 5)"
    jump = Jump((4, 0), ((4, 2), (2, 2)))
    assert str(jump) == "jump (4, 0) -> (4, 2) -> (2, 2)" and jump.destination == (2, 2)
    assert str(PlaceTower("c", (1, 2))) == "place a tower on (1, 2) in territory c"
    assert str(Place((0, 1))) == "place a piece on (0, 1)" and str(Remove((0, 1))) == "remove the piece on (0, 1)"


def test_not_a_move_is_a_value_error():
    state = claim.new_game(players=2, seed=0)
    with pytest.raises(ValueError, match="not a Claim move"):
        claim.apply(state, "e2-e4")
    with pytest.raises(ValueError):
        claim.apply(state, Place(("a", 1)))


def test_new_game_refuses_bad_arguments():
    for kwargs, message in [
        ({"players": 5}, "2, 3 or 4"),
        ({"players": 2, "assembly": "square"}, "assembly"),
        ({"players": 2, "colours": ("red", "red")}, "different colours"),
        ({"players": 2, "seed": "x"}, "seed"),
    ]:
        with pytest.raises(ValueError, match=message):
            claim.new_game(**kwargs)
    with pytest.raises(ValueError, match="stalled_result"):
        claim.Config(stalled_result="coin toss")
