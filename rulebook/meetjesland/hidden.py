"""What a player of Meetjesland cannot see, dealt again for the estimate's playouts (determinization, issue 29.1).

Hidden are the mission cards (MJ-2.2: each player draws one and keeps it to themselves) and the Meetjesland cards in
hand (MJ-4.6: the game master gives them). Public are the map, the points, whose turn it is, how many cards each
player holds, the cards traded (MJ-4.7) and that nobody has won yet. :func:`redeal` keeps all that and deals again:

- **Missions**: the viewer keeps their own; every other player's is drawn, without two alike, from the cards the
  viewer has not seen, as MJ-2.2 deals them (any card to any player: a "destroy" card of a player not in the game or
  of the holder counts as mission 7, MJ-C5). A deal is kept only if it agrees with the game so far: MJ-C6 checks the
  mission of the player on turn after each of their moves and at the start of their turn, so a mission that would
  have been fulfilled at one of those checks (replayed from the move log) is one that player does not hold. Deals
  are drawn uniformly and refused until one agrees (the real deal always does).
- **Hands**: the viewer keeps their hand; every other hand is drawn again, with its number of cards, from the cards
  the viewer cannot see (the pile and those hands). This ignores finer reasoning a table could do (a card traded
  back into the pile after a player's last draw is not in that player's hand).
- **The pile** has no order to shuffle: a draw is a chance node over every card in it (``chance_outcomes``).
"""

from __future__ import annotations

import random
import threading

from . import rules
from .rules import State

TRIES = 2000  # uniform deals tried before the missions are dealt one by one from what agrees with the game
_CACHE_SIZE = 8  # games whose checks are remembered (the estimate's chart asks for positions of one game)
_lock = threading.Lock()
_checked: dict[tuple, tuple[tuple, list[tuple[frozenset[int], ...]], State]] = {}  # game -> (log, refusals, last)


def _done_with(state: State, player: int, mission: int) -> bool:
    """Whether ``player`` would have fulfilled mission number ``mission`` in ``state``."""
    missions = rules._replace(state.missions, player, mission)
    return rules.mission_done(rules._evolve(state, missions=missions), player)


def _refusals_after(state: State, refused: tuple[frozenset[int], ...]) -> tuple[frozenset[int], ...]:
    """``refused`` (per seat, the missions the game so far rules out) with the check MJ-C6 made in ``state``."""
    if state.phase == "over":
        return refused
    player = state.turn
    cards = range(len(state.config.missions))
    newly = frozenset(m for m in cards if m not in refused[player] and _done_with(state, player, m))
    if not newly:
        return refused
    return rules._replace(refused, player, refused[player] | newly)


def refused_missions(state: State) -> tuple[frozenset[int], ...]:
    """Per seat, the mission numbers that the game so far rules out (fulfilled at a check that did not end the game),
    found by replaying the move log; nothing for a written position (``arrange``), which has no log."""
    empty = (frozenset(),) * state.players
    if state.arranged or not state.history:
        return empty
    key = (state.players, state.seed, state.config)
    log = state.history
    with _lock:
        known = _checked.get(key)
    if known is not None:
        old_log, steps, last = known
        shared = 0
        limit = min(len(old_log), len(log))
        while shared < limit and old_log[shared] == log[shared]:
            shared += 1
        if shared == len(log):  # an earlier position of the game already checked
            return steps[shared]
        if shared == len(old_log):  # the game went on: check the moves since
            return _extend(key, log, steps, last, shared)
    return _extend(key, log, [empty], rules.new_game(state.players, state.seed, state.config), 0)


def _extend(
    key: tuple, log: tuple, steps: list[tuple[frozenset[int], ...]], position: State, done: int
) -> tuple[frozenset[int], ...]:
    steps = steps[: done + 1]
    for move in log[done:]:
        position = rules.apply(position, move)
        steps.append(_refusals_after(position, steps[-1]))
    with _lock:
        if key not in _checked and len(_checked) >= _CACHE_SIZE:
            _checked.pop(next(iter(_checked)))
        _checked[key] = (log, steps, position)
    return steps[-1]


def _deal_missions(state: State, viewer: int | None, rng: random.Random) -> tuple[int, ...]:
    seats = [seat for seat in range(state.players) if seat != viewer]
    unseen = [m for m in range(len(state.config.missions)) if viewer is None or m != state.missions[viewer]]
    refused = refused_missions(state)
    for _ in range(TRIES):
        drawn = rng.sample(unseen, len(seats))
        if all(m not in refused[seat] for seat, m in zip(seats, drawn)):
            break
    else:  # the game rules out so much that uniform deals rarely agree: deal seat by seat from what agrees
        drawn = _one_by_one(seats, unseen, refused, rng)
    missions = list(state.missions)
    for seat, mission in zip(seats, drawn):
        missions[seat] = mission
    return tuple(missions)


def _one_by_one(
    seats: list[int], unseen: list[int], refused: tuple[frozenset[int], ...], rng: random.Random
) -> list[int]:
    """A deal that agrees with the game, seat by seat (the most constrained first), backtracking when stuck."""
    order = sorted(seats, key=lambda seat: -len(refused[seat]))

    def deal(index: int, left: list[int]) -> dict[int, int] | None:
        if index == len(order):
            return {}
        seat = order[index]
        choices = [m for m in left if m not in refused[seat]]
        rng.shuffle(choices)
        for mission in choices:
            rest = deal(index + 1, [m for m in left if m != mission])
            if rest is not None:
                return {seat: mission, **rest}
        return None

    found = deal(0, list(unseen))
    if found is None:
        raise ValueError("Meetjesland: no deal of the missions agrees with the game so far")
    return [found[seat] for seat in seats]


def _deal_hands(state: State, viewer: int | None, rng: random.Random) -> tuple[tuple[tuple[str, ...], ...], tuple]:
    seats = [seat for seat in range(state.players) if seat != viewer]
    # sorted first: the deal then depends on which cards are unseen, never on who truly holds them (a seat's copy of
    # the position at a class table is dealt so: rulebook.tables.positions)
    unseen = sorted([*state.pile, *(card for seat in seats for card in state.hands[seat])])
    rng.shuffle(unseen)
    hands = list(state.hands)
    for seat in seats:
        count = len(state.hands[seat])
        hands[seat], unseen = tuple(sorted(unseen[:count])), unseen[count:]
    return tuple(hands), tuple(sorted(unseen))


def redeal(state: State, viewer: int | None, rng: random.Random) -> State:
    """``state`` with what ``viewer`` (a seat, or None: an onlooker) cannot see dealt again at random, consistently
    with what is public (see the module's docstring): the missions and hands of the other players."""
    if not isinstance(state, State):
        raise ValueError(f"a Meetjesland position, not {type(state).__name__}")
    if viewer is not None and (
        not isinstance(viewer, int) or isinstance(viewer, bool) or not 0 <= viewer < state.players
    ):
        raise ValueError(f"no seat {viewer!r}: seats are 0 to {state.players - 1} (or None for an onlooker)")
    missions = _deal_missions(state, viewer, rng)
    hands, pile = _deal_hands(state, viewer, rng)
    return rules._evolve(state, missions=missions, hands=hands, pile=pile)
