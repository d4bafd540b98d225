"""Ab die Post! as the shell sees it: its set-up, seats, computer players and parts (see rulebook.registry)."""

from __future__ import annotations

from typing import Any

from ..registry import Bench, Game, Level, Option
from . import rules
from .narrate import PLAYER_NAME


def build(players: int, seed: int, options: dict[str, Any]) -> rules.State:
    """A game from the set-up's choices; the first player is numbered from 1 as players count."""
    first = options["first_player"] - 1
    if first >= players:
        raise ValueError(f"First player: there are only {players} players")
    config = rules.Config(target=options["target"], first_player=first)
    return rules.new_game(players=players, seed=seed, config=config)


def seat_names(players: int) -> list[str]:
    return [f"P{seat + 1} ({PLAYER_NAME[seat]})" for seat in range(players)]


GAME = Game(
    name="ab_die_post",
    title="Ab die Post!",
    prefix="ADP",
    module="rulebook.ab_die_post",
    seats="rulebook.ab_die_post.seats:SEATS",
    players=(2, 3, 4, 5, 6),
    default_players=3,
    default_computer={1: "greedy", 2: "greedy"},
    seat_names=seat_names,
    build=build,
    options=(
        Option("target", "Points to win", 15, minimum=1, maximum=60, help="ADP-10.1 (ADP-C18: some play to 21)"),
        Option("first_player", "First player (number)", 1, minimum=1, maximum=6, help="ADP-C3"),
    ),
    # weakest first; the strengths are the players' docstrings' (rulebook/ab_die_post/bots.py)
    levels=(
        Level("random", "beginner", "The weakest: any legal move, at random."),
        Level(
            "greedy",
            "intermediate",
            "Draws until its hand holds 6 points, then flies as far as it can. Won 20 of 20 games against a beginner.",
        ),
        Level(
            "strong",
            "strong",
            "The strongest: draws while the exact odds say one more card pays, and flies once its hand pays the "
            "lane's repairs. Won 19 of 20 games against an intermediate.",
        ),
    ),
    bots_module="rulebook.ab_die_post.bots",
    explain="rulebook.ab_die_post.bots:explain",
    board="rulebook.ab_die_post.widget:Board",
    explorer="rulebook.ab_die_post.explorer:Explorer",
    moves="rulebook.ab_die_post.rules:MOVE_CLASSES",
    rules="ab_die_post.ipynb",
    exercises="ab_die_post.json",
    values="rulebook.ab_die_post.answers:VALUES",
    blurb="Draw spare parts, push your luck, and fly your biplane round the track.",
    bench=Bench(
        click=(4, 1), players=4, studies=((("greedy", "random"), 60),), section="rulebook.ab_die_post.bench:bench"
    ),
    order=3,
)
