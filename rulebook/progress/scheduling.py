"""Spaced review of the rules with FSRS (the ``fsrs`` package: pure Python, so it runs in the website's Pyodide too).

Each paragraph a learner has answered on has one FSRS card. A right answer is rated Good, a wrong one (or a move the
engine refused by that paragraph, once practised) Again: the card's stability grows with each right answer after a
wait, so the intervals expand, and falls after a wrong one, which brings the paragraph back sooner. No learning steps
of minutes: a rule is reviewed on later days, the first time a day or two after it was practised.
"""

from __future__ import annotations

import functools
import math
from datetime import datetime, timezone
from typing import Any

from fsrs import Card, Rating, Scheduler, State

RETENTION = 0.9  # the chance of remembering a rule when it comes up for review (FSRS's own default)
KNOWN_DAYS = 7.0  # a paragraph is "known" once its next review is at least a week after the last one


@functools.cache
def scheduler() -> Scheduler:
    """The one scheduler: reviews in days (no steps of minutes), no random fuzz (the same answers give the same
    dates, on every machine)."""
    return Scheduler(desired_retention=RETENTION, learning_steps=(), relearning_steps=(), enable_fuzzing=False)


def review(card: Card | None, right: bool, when: datetime) -> Card:
    """The card after an answer at ``when`` (a new card for a paragraph answered for the first time)."""
    if card is None:
        card = Card(card_id=1, due=when)  # the id is FSRS's; a record keys its cards by paragraph id instead
    reviewed, _log = scheduler().review_card(card, Rating.Good if right else Rating.Again, when)
    return reviewed


def interval_days(card: Card) -> float:
    """Days from the card's last review to its next one."""
    if card.last_review is None:
        return 0.0
    return (card.due - card.last_review).total_seconds() / 86400


def card_to_dict(card: Card) -> dict[str, Any]:
    """The few numbers a record keeps of a card (its FSRS memory state and dates)."""
    return {
        "stability": round(float(card.stability or 0.0), 4),
        "difficulty": round(float(card.difficulty or 0.0), 4),
        "due": card.due.isoformat(),
        "last_review": card.last_review.isoformat() if card.last_review else None,
    }


def card_from_dict(data: Any, where: str) -> Card:
    """A card from what :func:`card_to_dict` wrote; ValueError naming ``where`` and the problem otherwise."""
    if not isinstance(data, dict) or set(data) != {"stability", "difficulty", "due", "last_review"}:
        raise ValueError(f"{where}: a card has exactly stability, difficulty, due and last_review")
    stability, difficulty = data["stability"], data["difficulty"]
    for name, value, low, high in (("stability", stability, 0.001, 100_000), ("difficulty", difficulty, 1, 10)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"{where}: the card's {name} is not a number")
        if not low <= value <= high:
            raise ValueError(f"{where}: the card's {name} {value} is outside {low} to {high}")
    due = parse_time(data["due"], f"{where}: the card's due date")
    last = None if data["last_review"] is None else parse_time(data["last_review"], f"{where}: its last review")
    return Card(
        card_id=1,
        state=State.Review,
        step=None,
        stability=float(stability),
        difficulty=float(difficulty),
        due=due,
        last_review=last,
    )


def parse_time(text: Any, where: str) -> datetime:
    """An ISO time with its zone, between the years 2000 and 2300; ValueError naming ``where`` otherwise."""
    if not isinstance(text, str) or len(text) > 40:
        raise ValueError(f"{where} is not a time")
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{where} is not a time ({text[:40]!r})") from None
    if when.tzinfo is None:
        raise ValueError(f"{where} has no time zone")
    if not 2000 <= when.year <= 2300:
        raise ValueError(f"{where} is in the year {when.year}")
    return when.astimezone(timezone.utc)
