"""Kingdom Builder as the shell sees it: its set-up, seats, computer players and parts (see rulebook.registry)."""

from __future__ import annotations

import random
from typing import Any

from ..registry import Bench, Game, Level, Option
from . import rules

RANDOM = "random"  # a section or card slot of the set-up left to the seed


def build(players: int, seed: int, options: dict[str, Any]) -> rules.State:
    """A game from the set-up's choices: the first game's layout, or the sections and cards chosen (the seed fills
    the slots left at random)."""
    config = rules.Config(
        lords_zero_scores=options["lords_zero_scores"],
        tile_loss=options["tile_loss"],
        move_in_place=options["move_in_place"],
    )
    if options["first_game"]:
        return rules.new_game(players=players, seed=seed, first_game=True, config=config)
    slots = [options[f"section_{i}"] for i in range(1, 5)]
    cards = [options[f"card_{i}"] for i in range(1, 4)]
    if all(slot == RANDOM for slot in slots) and all(card == RANDOM for card in cards):
        return rules.new_game(players=players, seed=seed, config=config)
    rng = random.Random(seed)
    named = [slot.split(":")[0] for slot in slots if slot != RANDOM]
    spare = [name for name in rules.SECTIONS if name not in named]
    rng.shuffle(spare)
    sections = []
    for slot in slots:
        if slot == RANDOM:
            sections.append((spare.pop(), rng.random() < 0.5))
        else:
            name, _, turned = slot.partition(":")
            sections.append((name, turned == "turned"))
    spare_cards = [card for card in rules.KINGDOM_BUILDER_CARDS if card not in cards]
    rng.shuffle(spare_cards)
    chosen_cards = [spare_cards.pop() if card == RANDOM else card for card in cards]
    return rules.new_game(players=players, seed=seed, sections=sections, cards=chosen_cards, config=config)


def _options() -> tuple[Option, ...]:
    section_choices = (("random", RANDOM),) + tuple(
        (f"{name.capitalize()}{' (turned)' if turned else ''}", f"{name}:{'turned' if turned else 'upright'}")
        for name in rules.SECTIONS
        for turned in (False, True)
    )
    card_choices = (("random", RANDOM),) + tuple((card.capitalize(), card) for card in rules.KINGDOM_BUILDER_CARDS)
    return (
        Option(
            "first_game",
            "The rulebook's first game",
            False,
            help="KB-3.1: the sections and cards the rulebook suggests for a first game",
        ),
        *(
            Option(f"section_{i}", f"Section {rules.SLOT_NAMES[i - 1]}", RANDOM, choices=section_choices, help="KB-3.1")
            for i in range(1, 5)
        ),
        *(Option(f"card_{i}", f"Card {i}", RANDOM, choices=card_choices, help="KB-3.4") for i in range(1, 4)),
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


def seat_names(players: int) -> list[str]:
    return [colour.capitalize() for colour in rules.COLOURS[:players]]


GAME = Game(
    name="kingdom_builder",
    title="Kingdom Builder",
    prefix="KB",
    module="rulebook.kingdom_builder",
    seats="rulebook.kingdom_builder.seats:SEATS",
    players=(2, 3, 4),
    default_players=2,
    default_computer={1: "greedy"},
    seat_names=seat_names,
    build=build,
    options=_options(),
    # weakest first (bots.BOTS lists quick last, a public order): the strengths are the players' docstrings'
    # (rulebook/kingdom_builder/bots.py) and `rulebook study kingdom_builder --seats quick,greedy --games 100
    # --seed 2000` (58 to 43)
    levels=(
        Level("random", "beginner", "The weakest: any legal move, at random."),
        Level(
            "greedy",
            "intermediate",
            "Plays the move that raises its running score (three cards and castles) most. Won 19 of 20 games "
            "against a beginner.",
        ),
        Level(
            "quick",
            "advanced",
            "The strong player following only its best move to the end of its turn (faster). Stronger than an "
            "intermediate: won 64 of 100 games against one.",
        ),
        Level(
            "strong",
            "strong",
            "The strongest: the best few moves by score and position, each followed to the end of its turn. Won "
            "89 of 100 games against an intermediate, 13 of 20 against an advanced.",
        ),
    ),
    bots_module="rulebook.kingdom_builder.bots",
    explain="rulebook.kingdom_builder.bots:explain",
    redeal="rulebook.kingdom_builder.hidden:redeal",
    board="rulebook.kingdom_builder.widget:Board",
    explorer="rulebook.kingdom_builder.explorer:Explorer",
    moves="rulebook.kingdom_builder.rules:MOVE_CLASSES",
    rules="kingdom_builder.ipynb",
    exercises="kingdom_builder.json",
    values="rulebook.kingdom_builder.answers:VALUES",
    measure="rulebook.kingdom_builder.answers:kingdom_builder_gold_gained",
    # positions as text, for exercises and tutorial steps; without hands it waits for the deal of terrain cards
    diagram="rulebook.kingdom_builder:from_diagram",
    blurb="Build settlements on the terrain your card shows; score the three cards.",
    bench=Bench(
        click=(2, 7), players=4, studies=((("greedy", "random"), 40),), section="rulebook.kingdom_builder.bench:bench"
    ),
    order=2,
)
