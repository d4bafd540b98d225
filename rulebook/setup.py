"""What each game lets a player choose before a game: players, seats, seed and the game's own options.

The app builds its set-up panel from these descriptions and starts games with ``GameSetup.new_state``; nothing
here imports ipywidgets, so the choices can be checked and used without Jupyter.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Option:
    """One choice of a game's set-up: a list of labelled values, a whole number in a range, or yes/no."""

    name: str
    label: str
    default: Any
    choices: tuple[tuple[str, Any], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""
    players: tuple[int, ...] = ()  # the player counts the option applies to (all when empty)

    def check(self, value: Any) -> Any:
        """The value if it is one this option allows, else ValueError naming the option."""
        if self.choices:
            if not any(value == allowed for _, allowed in self.choices):
                raise ValueError(f"{self.label}: {value!r} is not one of the choices")
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"{self.label}: yes or no")
            return value
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{self.label}: a whole number")
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise ValueError(f"{self.label}: a number from {self.minimum} to {self.maximum}, not {value}")
        return value


@dataclass(frozen=True)
class GameSetup:
    """Everything the set-up panel offers for one game, and how a game is started from it."""

    game: str
    title: str
    players: tuple[int, ...]
    default_players: int
    default_computer: Mapping[int, str]
    seat_names: Callable[[int], list[str]]
    build: Callable[[int, int, dict[str, Any]], Any]
    options: tuple[Option, ...] = ()
    blurb: str = ""
    bot_names: Mapping[str, str] = field(default_factory=dict)

    @property
    def bots(self) -> dict[str, Any]:
        return importlib.import_module(f"rulebook.{self.game}.bots").BOTS

    def defaults(self) -> dict[str, Any]:
        return {option.name: option.default for option in self.options}

    def new_state(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> Any:
        """A new game from the set-up; ValueError names a choice the game does not allow."""
        if players not in self.players:
            raise ValueError(f"{self.title} is for {self.players[0]} to {self.players[-1]} players, not {players}")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"Seed: a whole number from 0, not {seed!r}")
        chosen = self.defaults()
        for name, value in (options or {}).items():
            option = next((o for o in self.options if o.name == name), None)
            if option is None:
                raise ValueError(f"{self.title} has no set-up option {name!r}")
            chosen[name] = option.check(value)
        return self.build(players, seed, chosen)

    def bot_label(self, name: str) -> str:
        return f"Computer: {self.bot_names.get(name, name)}"


# --- Verover het Meetjesland ----------------------------------------------------------------------


def _meetjesland(players: int, seed: int, options: dict[str, Any]) -> Any:
    from . import meetjesland as mj

    config = mj.Config(
        move_limit=options["move_limit"],
        hand_limit=options["hand_limit"],
        brewery_value=options["brewery_value"],
        set_values=(options["set_three_different"], options["set_two_alike"], options["set_three_alike"]),
        trade_down=options["trade_down"],
    )
    state = mj.new_game(players=players, seed=seed, config=config)
    if options["starting_points"] == "random":
        rng = random.Random(seed)
        while state.phase == "setup":
            state = mj.auto_setup(state, rng)
    return state


def _meetjesland_seats(players: int) -> list[str]:
    from .meetjesland.rules import PLAYER_COLOURS

    return [colour.capitalize() for colour in PLAYER_COLOURS[:players]]


MEETJESLAND = GameSetup(
    game="meetjesland",
    title="Verover het Meetjesland",
    players=(3, 4, 5, 6),
    default_players=4,
    default_computer={1: "greedy", 2: "greedy", 3: "greedy"},
    seat_names=_meetjesland_seats,
    build=_meetjesland,
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
        Option("brewery_value", "Brewery card worth", 5, minimum=0, maximum=100, help="MJ-4.7"),
        Option("set_three_different", "Three colours worth", 4, minimum=0, maximum=100, help="MJ-4.7"),
        Option("set_two_alike", "Two alike and one worth", 6, minimum=0, maximum=100, help="MJ-4.7"),
        Option("set_three_alike", "Three alike worth", 8, minimum=0, maximum=100, help="MJ-4.7"),
    ),
    blurb="Conquer villages with dice and fulfil your secret mission first.",
    bot_names={"strong": "attacks at 80 % by exact odds, plays for its mission"},
)


# --- Kingdom Builder ----------------------------------------------------------------------------------

_RANDOM = "random"


def _kingdom_builder(players: int, seed: int, options: dict[str, Any]) -> Any:
    from . import kingdom_builder as kb
    from .kingdom_builder.rules import KINGDOM_BUILDER_CARDS, SECTIONS

    config = kb.Config(
        lords_zero_scores=options["lords_zero_scores"],
        tile_loss=options["tile_loss"],
        move_in_place=options["move_in_place"],
    )
    if options["first_game"]:
        return kb.new_game(players=players, seed=seed, first_game=True, config=config)
    slots = [options[f"section_{i}"] for i in range(1, 5)]
    cards = [options[f"card_{i}"] for i in range(1, 4)]
    if all(slot == _RANDOM for slot in slots) and all(card == _RANDOM for card in cards):
        return kb.new_game(players=players, seed=seed, config=config)
    rng = random.Random(seed)
    named = [slot.split(":")[0] for slot in slots if slot != _RANDOM]
    spare = [name for name in SECTIONS if name not in named]
    rng.shuffle(spare)
    sections = []
    for slot in slots:
        if slot == _RANDOM:
            sections.append((spare.pop(), rng.random() < 0.5))
        else:
            name, _, turned = slot.partition(":")
            sections.append((name, turned == "turned"))
    spare_cards = [card for card in KINGDOM_BUILDER_CARDS if card not in cards]
    rng.shuffle(spare_cards)
    chosen_cards = [spare_cards.pop() if card == _RANDOM else card for card in cards]
    return kb.new_game(players=players, seed=seed, sections=sections, cards=chosen_cards, config=config)


def _kingdom_builder_options() -> tuple[Option, ...]:
    from .kingdom_builder.rules import KINGDOM_BUILDER_CARDS, SECTIONS, SLOT_NAMES

    section_choices = (("random", _RANDOM),) + tuple(
        (f"{name.capitalize()}{' (turned)' if turned else ''}", f"{name}:{'turned' if turned else 'upright'}")
        for name in SECTIONS
        for turned in (False, True)
    )
    card_choices = (("random", _RANDOM),) + tuple((card.capitalize(), card) for card in KINGDOM_BUILDER_CARDS)
    return (
        Option(
            "first_game",
            "The rulebook's first game",
            False,
            help="KB-3.1: the sections and cards the rulebook suggests for a first game",
        ),
        *(
            Option(f"section_{i}", f"Section {SLOT_NAMES[i - 1]}", _RANDOM, choices=section_choices, help="KB-3.1")
            for i in range(1, 5)
        ),
        *(Option(f"card_{i}", f"Card {i}", _RANDOM, choices=card_choices, help="KB-3.4") for i in range(1, 4)),
        Option(
            "tile_loss",
            "A tile is lost",
            "immediate",
            choices=(("at once", "immediate"), ("at the end of the turn", "end_of_turn")),
            help="KB-C8",
        ),
        Option("lords_zero_scores", "Lords may score for 0", False, help="KB-C17"),
        Option("move_in_place", "Barn and Harbor may move in place", False, help="KB-C13"),
    )


def _kingdom_builder_seats(players: int) -> list[str]:
    from .kingdom_builder.rules import COLOURS

    return [colour.capitalize() for colour in COLOURS[:players]]


KINGDOM_BUILDER = GameSetup(
    game="kingdom_builder",
    title="Kingdom Builder",
    players=(2, 3, 4),
    default_players=2,
    default_computer={1: "greedy"},
    seat_names=_kingdom_builder_seats,
    build=_kingdom_builder,
    options=_kingdom_builder_options(),
    blurb="Build settlements on the terrain your card shows; score the three cards.",
    bot_names={
        "strong": "scores each build and looks to the end of its turn",
        "quick": "the strong player looking less far (about as strong as greedy)",
    },
)


# --- Ab die Post! ----------------------------------------------------------------------------------------


def _ab_die_post(players: int, seed: int, options: dict[str, Any]) -> Any:
    from . import ab_die_post as adp

    first = options["first_player"] - 1
    if first >= players:
        raise ValueError(f"First player: there are only {players} players")
    config = adp.Config(target=options["target"], first_player=first)
    return adp.new_game(players=players, seed=seed, config=config)


def _ab_die_post_seats(players: int) -> list[str]:
    from .ab_die_post.widget import PLAYER_NAME

    return [f"P{seat + 1} ({PLAYER_NAME[seat]})" for seat in range(players)]


AB_DIE_POST = GameSetup(
    game="ab_die_post",
    title="Ab die Post!",
    players=(2, 3, 4, 5, 6),
    default_players=3,
    default_computer={1: "greedy", 2: "greedy"},
    seat_names=_ab_die_post_seats,
    build=_ab_die_post,
    options=(
        Option("target", "Points to win", 15, minimum=1, maximum=60, help="ADP-10.1 (ADP-C18: some play to 21)"),
        Option("first_player", "First player (number)", 1, minimum=1, maximum=6, help="ADP-C3"),
    ),
    blurb="Draw spare parts, push your luck, and fly your biplane round the track.",
    bot_names={"greedy": "draws to 6, flies far", "strong": "exact draw odds, flies when repairs are paid"},
)


# --- Claim -------------------------------------------------------------------------------------------------

_TEAMS = (
    ("Red + Green against Blue + Yellow", ("red", "blue", "green", "yellow")),
    ("Red + Blue against Green + Yellow", ("red", "green", "blue", "yellow")),
    ("Red + Yellow against Blue + Green", ("red", "blue", "yellow", "green")),
)


def _claim(players: int, seed: int, options: dict[str, Any]) -> Any:
    from . import claim

    config = claim.Config(
        quiet_turn_limit=options["quiet_turn_limit"],
        stalled_result=options["stalled_result"],
        partners_share_territories=options["partners_share_territories"],
        removal_towers=options["removal_towers"],
    )
    colours = dict((label, colours) for label, colours in _TEAMS)[options["teams"]] if players == 4 else None
    return claim.new_game(players=players, seed=seed, assembly=options["assembly"], config=config, colours=colours)


def _claim_seats(players: int) -> list[str]:
    from .claim.rules import SEATS

    return [colour.capitalize() for colour in SEATS[players]]


CLAIM = GameSetup(
    game="claim",
    title="Claim",
    players=(2, 3, 4),
    default_players=2,
    default_computer={1: "greedy"},
    seat_names=_claim_seats,
    build=_claim,
    options=(
        Option(
            "teams",
            "Teams (4 players)",
            _TEAMS[0][0],
            choices=tuple((label, label) for label, _ in _TEAMS),
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
    blurb="Jump, capture and build three towers before the others.",
    bot_names={
        "strong": "looks at its whole turn and the reply",
        "quick": "the strong player, its own turn only (faster)",
    },
)

SETUPS: dict[str, GameSetup] = {s.game: s for s in (MEETJESLAND, KINGDOM_BUILDER, AB_DIE_POST, CLAIM)}


def setup_of(game: str) -> GameSetup:
    try:
        return SETUPS[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r} (games: {', '.join(SETUPS)})") from None
