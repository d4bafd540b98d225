"""Verover het Meetjesland at a class-server table (rulebook.tables.views): what each seat may see.

Missions (MJ-2.2) and the cards in hand (MJ-4.6) are secret, and so is the pile's content; a drawn card is named
to its drawer alone. The summary reads only public fields, in the words of the board's side panel and status line
(the board's own panel functions need ipywidgets).
"""

from __future__ import annotations

from typing import Any

from rulebook.core import count


def mask(state: Any, position: dict[str, Any], seat: int | None) -> None:
    position["missions"] = [mission if index == seat else None for index, mission in enumerate(state.missions)]
    position["hands"] = [
        list(hand) if index == seat else {"cards": len(hand)} for index, hand in enumerate(state.hands)
    ]
    position["pile"] = {"cards": len(state.pile)}
    position["config"].pop("missions", None)  # every mission's text: a seat is told its own in "secret"


def secret(state: Any, seat: int) -> dict[str, Any]:
    from .rules import card_colour, card_name, effective_mission

    number = state.missions[seat]
    cards = [
        {"card": card, "name": card_name(card), "colour": card_colour(card, state.board)} for card in state.hands[seat]
    ]
    mission: dict[str, Any] = {"number": number, "text": state.config.missions[number].text}
    counting = effective_mission(state, seat)
    if counting.text != mission["text"]:  # MJ-C5: a destroy mission that cannot be done gives way to the fallback
        mission["instead"] = counting.text
    return {"mission": mission, "cards": cards}


def drawn(before: Any, entry: Any, seat: int | None) -> str | None:
    from .rules import CardDrawn, card_name

    if not isinstance(entry, CardDrawn):
        return None
    if before is not None and seat == before.turn:
        return f"draws the card {card_name(entry.card)}"
    return "draws a card"


def summary(state: Any) -> list[str]:
    """Meetjesland: what the turn is at (set-up, reinforce or conquer, a battle) and per colour the territories,
    the points on the board, the cards in hand (how many), the whole regions, or who put that colour out."""
    from . import rules
    from .narrate import dice_text, player_name, points

    lines = [_stage(state)]
    for player in range(state.players):
        name = player_name(player)
        if not state.alive[player]:
            beaten_by = state.eliminated_by[player] if player < len(state.eliminated_by) else None
            by = "" if beaten_by is None else f" (put out by {player_name(beaten_by)})"
            lines.append(f"{name}: out of the game{by}")
            continue
        held = state.territories_of(player)
        on_board = sum(state.points_on(territory) for territory in held)
        regions = rules.whole_regions(state, player)
        whole = f", whole regions: {', '.join(regions)}" if regions else ""
        lines.append(
            f"{name}: {count(len(held), 'territory', 'territories')}, {points(on_board)} on the board, "
            f"{count(len(state.hands[player]), 'card')} in hand{whole}"
        )
    lines.append(f"The pile: {count(len(state.pile), 'card')}")
    if state.last_dice is not None:
        lines.append(f"Last dice: {dice_text(state.last_dice)}")
    return lines


def _stage(state: Any) -> str:
    """Whose turn it is and what it is at, as the board's status line says it."""
    from .narrate import player_name, points

    if state.phase == "over":
        return "The game is over."
    who = player_name(state.turn)
    if state.phase == "setup":
        return f"Set-up: {who} places {points(state.to_place)} more on their territories"
    if state.battle is not None:
        battle = state.battle
        target, origin = state.board.name(battle.target), state.board.name(battle.origin)
        return f"{who} attacks {target} from {origin}: {battle.stake} staked against {state.points_on(battle.target)}"
    if state.drawing:
        return f"{who} draws a card"
    moved = f"; {state.moved} of {state.config.move_limit} points moved" if state.moved else ""
    place = f", {points(state.to_place)} to place" if state.to_place else ""
    if state.stage == "reinforce":
        return f"{who}'s turn, reinforce{place}{moved}"
    if state.stage == "conquer":
        return f"{who}'s turn, conquer{place}{moved}"
    return f"{who}'s turn: trade cards, then reinforce or conquer{place}"


# what rulebook.tables.views asks of this game (registry: Game.seats)
SEATS: dict[str, Any] = {
    "mask": mask,
    "secret": secret,
    "drawn": drawn,
    "actor": lambda state: state.turn,
    "start_key": lambda state: (state.players, state.seed, state.config, state.arranged),
    "summary": summary,
}
