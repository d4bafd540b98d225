"""Claim as the shell sees it: its set-up, seats, computer players and parts (see rulebook.registry)."""

from __future__ import annotations

from typing import Any

from ..registry import Bench, Game, Level, Option
from . import rules

TEAMS = (  # the set-up's label of each seating of four, and the colours in seat order (partners sit opposite)
    ("Red + Green against Blue + Yellow", ("red", "blue", "green", "yellow")),
    ("Red + Blue against Green + Yellow", ("red", "green", "blue", "yellow")),
    ("Red + Yellow against Blue + Green", ("red", "blue", "yellow", "green")),
)


def build(players: int, seed: int, options: dict[str, Any]) -> rules.State:
    """A game from the set-up's choices; the teams apply to four players only."""
    config = rules.Config(
        quiet_turn_limit=options["quiet_turn_limit"],
        stalled_result=options["stalled_result"],
        partners_share_territories=options["partners_share_territories"],
        removal_towers=options["removal_towers"],
    )
    colours = dict(TEAMS)[options["teams"]] if players == 4 else None
    return rules.new_game(players=players, seed=seed, assembly=options["assembly"], config=config, colours=colours)


def seat_names(players: int) -> list[str]:
    return [colour.capitalize() for colour in rules.SEATS[players]]


GAME = Game(
    name="claim",
    title="Claim",
    prefix="CL",
    module="rulebook.claim",
    seats="rulebook.claim.seats:SEATS",
    players=(2, 3, 4),
    default_players=2,
    default_computer={1: "greedy"},
    seat_names=seat_names,
    build=build,
    options=(
        Option(
            "teams",
            "Teams (4 players)",
            TEAMS[0][0],
            choices=tuple((label, label) for label, _ in TEAMS),
            help="CL-2.2: with four players, partners sit opposite",
            players=(4,),
        ),
        Option(
            "assembly",
            "Island",
            "fixed",
            choices=(("the usual island", "fixed"), ("sections laid at random", "random")),
            help="CL-C1",
        ),
        Option("quiet_turn_limit", "Quiet turns before a stop", 60, minimum=1, maximum=1000, help="CL-C11"),
        Option(
            "stalled_result",
            "A stopped game goes to",
            "most towers",
            choices=(("the side with most towers", "most towers"), ("nobody (a draw)", "draw")),
            help="CL-C11",
        ),
        Option("partners_share_territories", "Partners' pieces never block a conquest", True, help="CL-C9"),
        Option(
            "removal_towers",
            "Towers after the removals",
            "at once",
            choices=(
                ("at once, before the battle", "at once"),
                ("on the holder's first battle turn", "first battle turn"),
            ),
            help="CL-C3",
        ),
    ),
    # weakest first (bots.BOTS lists quick last, a public order): the strengths are the players' docstrings'
    # (rulebook/claim/bots.py) and `rulebook study claim --seats quick,greedy --games 100 --seed 2000` (73 to 25)
    levels=(
        Level("random", "beginner", "The weakest: any legal move, at random."),
        Level(
            "greedy",
            "intermediate",
            "Towers first, then captures, then safety. Won 20 of 20 games against a beginner.",
        ),
        Level(
            "quick",
            "advanced",
            "The strong player's search over its own turn only, with a smaller budget (faster). Won 73 of 100 "
            "games against an intermediate.",
        ),
        Level(
            "strong",
            "strong",
            "The strongest: searches two turns ahead, its own and the reply. Won 19 of 20 games against an "
            "intermediate, 18 of 20 against an advanced.",
        ),
    ),
    bots_module="rulebook.claim.bots",
    explain="rulebook.claim.bots:explain",
    board="rulebook.claim.widget:Board",
    explorer="rulebook.claim.explorer:Explorer",
    moves="rulebook.claim.rules:MOVE_CLASSES",
    rules="claim.ipynb",
    exercises="claim.json",
    values="rulebook.claim.answers:VALUES",
    measure="rulebook.claim.answers:claim_pieces_removed",
    diagram="rulebook.claim:from_diagram",
    blurb="Jump, capture and build three towers before the others.",
    bench=Bench(click=(2, 7), players=2, studies=((("greedy", "random"), 40),), section="rulebook.claim.bench:bench"),
    order=4,
)
