"""Verover het Meetjesland as the shell sees it: set-up, seats, computer players and parts (see rulebook.registry)."""

from __future__ import annotations

import random
from typing import Any

from ..registry import Bench, Game, Level, Option
from . import rules


def build(players: int, seed: int, options: dict[str, Any]) -> rules.State:
    """A game from the set-up's choices; with "spread at random" the starting points are placed for everyone."""
    config = rules.Config(
        move_limit=options["move_limit"],
        hand_limit=options["hand_limit"],
        brewery_value=options["brewery_value"],
        set_values=(options["set_three_different"], options["set_two_alike"], options["set_three_alike"]),
        trade_down=options["trade_down"],
        move_and_reinforce=options["move_and_reinforce"],
    )
    state = rules.new_game(players=players, seed=seed, config=config)
    if options["starting_points"] == "random":
        rng = random.Random(seed)
        while state.phase == "setup":
            state = rules.auto_setup(state, rng)
    return state


def seat_names(players: int) -> list[str]:
    return [colour.capitalize() for colour in rules.PLAYER_COLOURS[:players]]


GAME = Game(
    name="meetjesland",
    title="Verover het Meetjesland",
    prefix="MJ",
    module="rulebook.meetjesland",
    seats="rulebook.meetjesland.seats:SEATS",
    players=(3, 4, 5, 6),
    default_players=4,
    default_computer={1: "greedy", 2: "greedy", 3: "greedy"},
    seat_names=seat_names,
    build=build,
    options=(
        Option(
            "starting_points",
            "Starting points",
            "hand",
            choices=(("placed by each player", "hand"), ("spread at random", "random")),
            help="MJ-4.1: each player spreads their starting points; or let them be spread at random (MJ-C7)",
        ),
        Option("move_limit", "Points moved per turn", 7, minimum=0, maximum=100, help="MJ-5.9: at most 7"),
        Option("hand_limit", "Most cards in hand", 5, minimum=3, maximum=44, help="MJ-4.8: more than 5 must trade"),
        Option(
            "trade_down",
            "Over the limit, any trade will do",
            False,
            help="MJ-4.8 asks for a trade of 3 cards; MJ-C8: a one-card Brewery trade down to the limit is enough",
        ),
        Option(
            "move_and_reinforce",
            "Move points in a turn of reinforcements",
            False,
            help="MJ-4.4: after reinforcements you pass; MJ-C11: some tables let the same turn move points too",
        ),
        Option("brewery_value", "Brewery card worth", 5, minimum=0, maximum=100, help="MJ-4.7"),
        Option("set_three_different", "Three colours worth", 4, minimum=0, maximum=100, help="MJ-4.7"),
        Option("set_two_alike", "Two alike and one worth", 6, minimum=0, maximum=100, help="MJ-4.7"),
        Option("set_three_alike", "Three alike worth", 8, minimum=0, maximum=100, help="MJ-4.7"),
    ),
    # weakest first, each description true of its player (rulebook/meetjesland/bots.py: the thresholds are its
    # constants, tests/test_levels.py checks them) and of its measured strength (the players' docstrings)
    levels=(
        Level("random", "beginner", "The weakest: any legal move, at random."),
        Level(
            "greedy",
            "intermediate",
            "Trades its best set, piles new points on one front and attacks at 60 % or better by the exact odds "
            "(50 % for a territory its mission wants); rolls on at 30 %. Won 27 of 30 three-player games against "
            "two beginners.",
        ),
        Level(
            "strong",
            "strong",
            "The strongest: goes for a chain of attacks that fulfils its mission this turn when the exact odds of "
            "the whole chain give 35 % or better. Else attacks at 80 % or better by the exact odds, and for less "
            "where a territory is worth more: 60 % for one its mission wants, 55 % for the second-last and 30 % for "
            "the last of a region it lacks, 65 % for one that breaks a whole region of its owner or belongs to a "
            "player with 20 territories (these add up); rolls on at 30 % (20 % in a chain that fulfils its mission); "
            "places its points for its best attack and brings idle points to the front. Won 130 of 200 "
            "three-player games against two intermediates.",
        ),
    ),
    bots_module="rulebook.meetjesland.bots",
    explain="rulebook.meetjesland.bots:explain",
    redeal="rulebook.meetjesland.hidden:redeal",
    board="rulebook.meetjesland.widget:Board",
    explorer="rulebook.meetjesland.explorer:Explorer",
    moves="rulebook.meetjesland.rules:MOVE_CLASSES",
    rules="meetjesland.ipynb",
    exercises="meetjesland.json",
    values="rulebook.meetjesland.answers:VALUES",
    blurb="Conquer territories with dice and fulfil your secret mission first.",
    bench=Bench(
        click=(4, 1),
        players=4,
        studies=((("greedy", "random", "random"), 30), (("strong", "greedy", "greedy"), 30)),
        section="rulebook.meetjesland.bench:bench",
    ),
    order=1,
)
