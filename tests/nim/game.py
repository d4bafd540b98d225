"""Nim as the shell sees it: the one declaration the registry reads (named in an entry point, or registered)."""

from __future__ import annotations

from pathlib import Path

from rulebook.registry import Game, Level, Option

HERE = Path(__file__).resolve().parent

GAME = Game(
    name="nim",
    title="Nim",
    prefix="NIM",
    module="tests.nim",
    players=(2,),
    default_players=2,
    default_computer={1: "greedy"},
    options=(
        Option(
            "heaps",
            "Heaps",
            (3, 4, 5),
            choices=(("3, 4 and 5 stones", (3, 4, 5)), ("1, 3, 5 and 7 stones", (1, 3, 5, 7))),
            help="NIM-1",
        ),
        Option("limit", "Most stones a turn", 3, minimum=1, maximum=9, help="NIM-2"),
    ),
    levels=(
        Level("random", "random", "any legal move, uniformly at random"),
        Level("greedy", "greedy", "takes a winning move when there is one"),
    ),
    bots_module="tests.nim.bots",
    explain="tests.nim.bots:explain",
    board="tests.nim.widget:Board",
    moves="tests.nim.rules:MOVE_CLASSES",
    rules=str(HERE / "rules.md"),
    exercises=str(HERE / "exercises.json"),
    values="tests.nim.answers:VALUES",
    measure="tests.nim.answers:stones_taken",
    blurb="Take stones from the heaps; whoever takes the last stone wins.",
)
