"""Meetjesland's things in words for the rulebook's examples: a whole turn of White, step by step, as the log tells
it (issue 14), and the rule sheet's rolls as players say them, so that the notebook prints sentences, never raw
tuples or dataclasses. Pure functions, no ipywidgets."""

from __future__ import annotations

from .narrate import dice_text, narrate, player_name, points
from .rules import (
    Attack,
    CardDrawn,
    Dice,
    EndTurn,
    Fortify,
    Place,
    Roll,
    State,
    TradeCards,
    apply,
    arrange,
    deck,
    new_game,
    resolve_roll,
)

HAND = ("eeklo", "sleidinge", "waarschoot")  # yellow, green, yellow: two alike and one (MJ-4.7)

# Each step is a player's move and the chance outcome the example fixes for it (the dice thrown, the card drawn).
TURN = (
    (TradeCards(HAND), None),
    (Place("lovendegem", 6), None),
    (Attack("lovendegem", "waarschoot", 5), Dice((6, 2, 1), (5, 3))),
    (Roll(), Dice((5, 5, 2), (4, 1))),
    (Fortify("lovendegem", "waarschoot", 2), None),
    (EndTurn(), CardDrawn("aalter")),
)


def worked_turn_start() -> State:
    """The position before the turn: the deal of seed 0 (four players), White to play holding three cards, Pink's
    Waarschoot with 3 points beside White's Lovendegem with 2."""
    start = new_game(4, seed=0)
    pile = tuple(sorted(card for card in deck(start.board) if card not in HAND))
    return arrange(
        start,
        {"lovendegem": (0, 2), "waarschoot": (2, 3)},
        to_place=0,
        stage="start",
        turn=0,
        hands=(HAND, (), (), ()),
        pile=pile,
    )


def worked_turn() -> list[tuple[str, State]]:
    """The turn step by step: (what the log says, the position after it). Trade, place, attack, roll again, move
    in, move points, end the turn and draw a card."""
    state = worked_turn_start()
    story = []
    for move, chance in TURN:
        after = apply(state, move)
        if chance is not None:
            after = apply(after, chance)
        story.append((f"{player_name(state.turn)}: {narrate(state, move, after)}", after))
        state = after
    return story


# The rule sheet's four rolls (MJ-6.1 to MJ-6.4): its pictures are lost, so these dice are ones that give the result
# each sentence describes (the first example gives its own dice).
SHEET_ROLLS = (
    ("MJ-6.1", (6, 1, 1), (3,)),
    ("MJ-6.2", (5, 4, 2), (6, 3)),
    ("MJ-6.3", (4, 3, 1), (4, 3)),  # both pairs tie: the defender wins both
    ("MJ-6.4", (5,), (4, 2)),  # one attacking die meets only the highest of two
)


def sheet_rolls() -> list[str]:
    """The four rolls of the rule sheet, each as players say it: the dice and what each side loses (MJ-5.6)."""
    lines = []
    for rule, attacker, defender in SHEET_ROLLS:
        lost = resolve_roll(attacker, defender)
        lines.append(
            f"{rule}: {dice_text(Dice(attacker, defender))}: the attacker loses {_lost(lost[0])}, "
            f"the defender {_lost(lost[1])}"
        )
    return lines


def _lost(count: int) -> str:
    return "nothing" if count == 0 else points(count)
