"""Meetjesland's exercise answers: the value functions their "value" questions name (rulebook.teach.exercises).

Each takes the exercise's position first, then the exercise's ``args``; the names are those the JSON data uses."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from . import odds, rules


def _mover(state: rules.State) -> int:
    """The player to move, or whose turn it is while dice or a card are due."""
    return state.player if state.player is not None else state.turn


def meetjesland_reinforcements(state: rules.State) -> int:
    """The points the player to move gets by choosing reinforcements now (MJ-4.4, MJ-4.9, MJ-4.10)."""
    return rules.apply(state, rules.Reinforce()).to_place


def meetjesland_attack_chance(state: rules.State, origin: str, target: str, stake: int) -> int:
    """The exact chance that attacking ``target`` from ``origin`` with ``stake`` points takes it, fought to the end,
    as the nearest of 25, 50 and 75 %."""
    refused = rules.check(state, rules.Attack(origin, target, stake))
    if refused is not None:
        raise ValueError(f"the attack is not allowed here ({refused})")
    chance = Fraction(odds.attack_odds(stake, state.points_on(target), exact=True).conquest)  # exact: a Fraction
    return min((25, 50, 75), key=lambda bucket: abs(Fraction(bucket, 100) - chance))


def meetjesland_colour_bonus(state: rules.State) -> int:
    """The extra points the player to move gets for holding a whole colour (MJ-4.9)."""
    return rules.colour_bonus(state, _mover(state))


def meetjesland_roll_losses(state: rules.State, attacker: list[int], defender: list[int]) -> str:
    """The points each side loses to one roll, as "attacker-defender" (MJ-5.6, MJ-5.7)."""
    attacker_losses, defender_losses = rules.resolve_roll(attacker, defender)
    return f"{attacker_losses}-{defender_losses}"


VALUES: dict[str, Callable[..., Any]] = {
    "meetjesland_reinforcements": meetjesland_reinforcements,
    "meetjesland_attack_chance": meetjesland_attack_chance,
    "meetjesland_colour_bonus": meetjesland_colour_bonus,
    "meetjesland_roll_losses": meetjesland_roll_losses,
}
