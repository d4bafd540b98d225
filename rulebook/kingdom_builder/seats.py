"""Kingdom Builder at a class-server table (rulebook.tables.views): what each seat may see.

The terrain card of a player not on turn is hidden (KB-C5, rules.view), and so is which cards the pile holds (its
counts together with the hidden cards would tell them); the set-up is never sent (a written position's set-up
holds the hands it started with). The summary reads only public fields.
"""

from __future__ import annotations

from typing import Any

from rulebook.core import count


def _hidden(state: Any, seat: int | None) -> list[int]:
    from .hidden import hidden_seats

    return hidden_seats(state, seat)


def mask(state: Any, position: dict[str, Any], seat: int | None) -> None:
    for index in _hidden(state, seat):
        position["hands"][index] = {"cards": 1}
    position["pile"] = {"cards": sum(state.pile)}


def secret(state: Any, seat: int) -> dict[str, Any]:
    from .rules import terrain_word

    card = state.hands[seat]
    return {} if card is None else {"card": card, "terrain": terrain_word(card)}


def drawn(before: Any, entry: Any, seat: int | None) -> str | None:
    from .rules import CardDrawn, terrain_word

    if not isinstance(entry, CardDrawn):
        return None
    if before is not None and seat is not None and seat == before.drawing:
        return f"draws a {terrain_word(entry.terrain)} card"
    return "draws a terrain card"


def summary(state: Any) -> list[str]:
    """Kingdom Builder: the player to move with the card they show and the settlements still to build, the three
    Kingdom Builder cards, and per colour the settlements built and left, the gold if the game ended now and the
    location tiles held."""
    from . import rules
    from .narrate import colour
    from .words import join, tiles_text

    if state.finished:
        lines = ["The game is over."]
    elif state.player is None:
        drawing = "" if state.drawing is None else f" for {colour(state.drawing)}"
        lines = [f"A terrain card is being drawn{drawing}"]
    else:
        card = state.hands[state.player]  # the card of the player to move is shown to all (KB-4.1)
        shown = "" if card is None else f", card shown: {rules.terrain_word(card)}"
        if state.mandatory_done:
            left = "; the settlements of this turn are built"
        else:
            more = min(3 - state.built, state.supply[state.player])
            left = f"; {count(more, 'settlement')} still to build this turn"
        lines = [f"{colour(state.player)} to play{shown}{left}"]
    lines.append(f"Kingdom Builder cards: {join([card.title() for card in state.cards])} (and the castles)")
    gold = rules.score(state)
    for player in range(state.players):
        built = sum(1 for owner in state.board if owner == player)
        lines.append(
            f"{colour(player)}: {count(built, 'settlement')} on the board, {state.supply[player]} left in supply, "
            f"{gold[player]['total']} gold if the game ended now; {tiles_text(state, player)}"
        )
    lines.append(f"Terrain cards: {sum(state.pile)} in the pile, {sum(state.discard)} discarded")
    return lines


def _move_words(move: Any) -> str:
    from .narrate import move_words

    return str(move_words(move))


# what rulebook.tables.views asks of this game (registry: Game.seats)
SEATS: dict[str, Any] = {
    "mask": mask,
    "secret": secret,
    "drawn": drawn,
    "actor": lambda state: state.drawing,
    "start_key": lambda state: state.setup,
    "summary": summary,
    "dropped": ("setup",),
    "words": lambda _state, move: _move_words(move),
}
