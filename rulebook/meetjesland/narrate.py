"""What a Meetjesland move did, told as players tell it: village names, dice, losses, conquests, cards.

Pure functions over states (no ipywidgets): the shared log and status line of :class:`rulebook.view.table.Table` call
:func:`narrate` for every move, the board calls :func:`news_for` for what others did to a player's territories.
A ``before``/``after`` pair may span the chance outcomes that followed the move (the dice of an attack, the card
drawn at the end of a turn): they are the later entries of ``after.history`` and are told with the move.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .rules import (
    BREWERY,
    PLAYER_COLOURS,
    Attack,
    CardDrawn,
    Dice,
    EndTurn,
    Fortify,
    Place,
    Reinforce,
    Retreat,
    Roll,
    State,
    TradeCards,
    card_colour,
    card_name,
    resolve_roll,
)


def player_name(player: int) -> str:
    """``White``: the colour a player plays, as the board writes it."""
    return PLAYER_COLOURS[player].capitalize()


def points(count: int) -> str:
    """``1 point``, ``3 points``."""
    return f"{count} point" if count == 1 else f"{count} points"


def dice_text(dice: Dice) -> str:
    """``6-5-2 against 4-3``: the attacker's dice, then the defender's, each high to low."""
    return f"{'-'.join(map(str, dice.attacker))} against {'-'.join(map(str, dice.defender))}"


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _following(before: State, after: State) -> tuple:
    """The chance outcomes told with the move: entries of ``after.history`` after the move itself."""
    return tuple(after.history[len(before.history) + 1 :])


def _roll(dice: Dice, target: str) -> str:
    """``6-5-2 against 4-3, Eeklo loses 2``: the dice and what they cost each side (MJ-5.6, MJ-5.7)."""
    attacker, defender = resolve_roll(dice.attacker, dice.defender)
    if attacker and defender:
        cost = (
            f"each side loses {attacker}"
            if attacker == defender
            else (f"the attack loses {attacker} and {target} loses {defender}")
        )
    elif defender:
        cost = f"{target} loses {defender}"
    else:
        cost = f"the attack loses {attacker}"
    return f"{dice_text(dice)}, {cost}"


def _battle_end(before: State, after: State, origin: str, target: str, mover: int) -> str:
    """How the fighting stands after the dice: fallen, beaten off, or still on."""
    board = after.board
    name = board.name(target)
    if after.battle is not None:
        return f" ({after.battle.stake} against {after.points_on(target)} now)"
    if after.owner_of(target) == mover and before.owner_of(target) != mover:
        return f" and falls ({points(after.points_on(target))} move in)"
    return f"; the attack on {name} is beaten off"


def _attack_story(before: State, after: State, origin: str, target: str, opening: str) -> str:
    board = before.board
    name = board.name(target)
    mover = before.turn
    rolls = [move for move in _following(before, after) if isinstance(move, Dice)]
    if not rolls:
        return opening
    text = opening + ": " + "; ".join(_roll(dice, name) for dice in rolls)
    return text + _battle_end(before, after, origin, target, mover)


def _consequences(before: State, after: State) -> str:
    """Players knocked out and the end of the game, added to any move that brings them."""
    text = ""
    for player in range(before.players):
        if before.alive[player] and not after.alive[player]:
            text += f"; {player_name(player)} is out of the game"
    if after.phase == "over" and before.phase != "over":
        text += f"; game over: {after.reason[:1].upper()}{after.reason[1:]}"
    return text


def _trade_kind(cards: tuple[str, ...], state: State) -> str:
    kinds = len({card_colour(card, state.board) for card in cards})
    return {3: "three colours", 2: "two alike and one", 1: "three alike"}[kinds]


def narrate(before: State, move: Any, after: State) -> str:
    """The move and its consequence in players' words, without the mover's name (the log puts it in front).

    ``after`` is the state after the move, and after any dice or card that followed it; the text never names
    the card a player draws (a hidden card), only that one was drawn."""
    board = before.board
    mover = before.turn
    placed = [entry for entry in after.history[len(before.history) :] if isinstance(entry, Place)]
    if isinstance(move, Place) and len(placed) > 1:  # several placements in one step (Auto-place)
        totals: dict[str, int] = {}
        for entry in placed:
            totals[entry.territory] = totals.get(entry.territory, 0) + entry.points
        spread = _join([f"{count} on {board.name(territory)}" for territory, count in totals.items()])
        text = f"places {points(sum(totals.values()))}: {spread}"
        if before.phase == "setup" and after.phase == "play":
            text += "; every player has set up"
    elif isinstance(move, Place):
        text = f"places {points(move.points)} on {board.name(move.territory)}"
        if before.phase == "play" and after.turn == mover and after.to_place and after.phase == "play":
            text += f" ({points(after.to_place)} left to place)"
        elif before.phase == "setup" and after.phase == "play":
            text += "; every player has set up"
    elif isinstance(move, Reinforce):
        count = after.to_place - before.to_place
        held = len(before.territories_of(mover))
        text = f"takes {count} reinforcements for {held} territories"
    elif isinstance(move, TradeCards):
        value = after.to_place - before.to_place
        if move.cards == (BREWERY,):
            text = f"trades the {card_name(BREWERY)} card for {points(value)}"
        else:
            names = _join([card_name(card) for card in move.cards])
            text = f"trades {names} ({_trade_kind(move.cards, before)}) for {points(value)}"
    elif isinstance(move, Attack):
        target = board.name(move.target)
        defender = player_name(before.owner_of(move.target))
        opening = (
            f"attacks {target} ({defender}, {points(before.points_on(move.target))}) "
            f"from {board.name(move.origin)} with {move.stake}"
        )
        text = _attack_story(before, after, move.origin, move.target, opening)
    elif isinstance(move, Roll) and before.battle is not None:
        battle = before.battle
        text = _attack_story(before, after, battle.origin, battle.target, f"rolls again at {board.name(battle.target)}")
    elif isinstance(move, Retreat) and before.battle is not None:
        battle = before.battle
        text = (
            f"breaks off the attack on {board.name(battle.target)}: "
            f"{points(battle.stake)} go back to {board.name(battle.origin)}"
        )
        if battle.stake == 1:
            text = text.replace(" go back ", " goes back ")
    elif isinstance(move, Fortify):
        text = f"moves {points(move.points)} from {board.name(move.origin)} to {board.name(move.destination)}"
        text += f" ({after.moved} of {before.config.move_limit} moved this turn)" if after.turn == mover else ""
    elif isinstance(move, EndTurn):
        drawn = any(isinstance(entry, CardDrawn) for entry in _following(before, after))
        text = "ends the turn and draws a card for the conquest" if drawn or after.drawing else "ends the turn"
        if after.phase == "play" and after.turn != mover:
            text += f"; {player_name(after.turn)} to play"
            if after.to_place:
                text += f" (receives {points(after.to_place)} for whole colours)"
    elif isinstance(move, Dice) and before.battle is not None:
        battle = before.battle
        text = _roll(move, board.name(battle.target))
        text += _battle_end(before, after, battle.origin, battle.target, mover)
    elif isinstance(move, CardDrawn):
        text = "draws a card"
    else:
        text = str(move)
    return text + _consequences(before, after)


def _mover_of(step: Any) -> int:
    return step.before.turn


def news_for(player: int, steps: Iterable[Any]) -> list[str]:
    """What other players did to ``player``'s territories in these steps: attacks, losses, territories taken.

    One sentence per attack, e.g. ``Black took Eeklo from you (you lost 4 points)``: the notice a player needs
    after the computer players' turns, without reading the whole log."""
    lines = []
    for step in steps:
        before, after, move = step.before, step.after, step.move
        mover = _mover_of(step)
        if mover == player:
            continue
        if isinstance(move, Attack):
            target = move.target
        elif isinstance(move, Roll) and before.battle is not None:
            target = before.battle.target
        else:
            continue
        if before.owner_of(target) != player:
            continue
        name = before.board.name(target)
        lost = before.points_on(target) - (after.points_on(target) if after.owner_of(target) == player else 0)
        if after.owner_of(target) != player:
            lines.append(f"{player_name(mover)} took {name} from you (you lost {points(lost)})")
        elif lost:
            lines.append(f"{player_name(mover)} attacked {name}: you lost {points(lost)} and held it")
        else:
            lines.append(f"{player_name(mover)} attacked {name}: you lost nothing")
    return lines
