"""Exact odds for Kingdom Builder's chance events: which terrain cards a player will draw, and what they allow now.

The card flow (KB-8.1, KB-C4): at the end of a turn a player discards the terrain card and draws the next one; when
the pile is empty, the discards are shuffled into a new pile. Replacing a useless card (KB-C14) is left out, since it
depends on the board to come.

Whose knowledge (``viewer``, issue 48.7): by default the odds are the player's own, seen from their seat. The cards of
the other players that the viewer cannot see (:func:`.hidden.hidden_seats`) are unknown to them: the odds average over
every way those hands could have been dealt from the unseen cards (the pile and the hidden hands), each way with its
exact chance, taking the hidden cards as exchangeable with the pile's as :mod:`.hidden` does. ``viewer=None`` is a
referee, who sees every card.

How it stays exact and fast: a question about one terrain only needs two kinds of card, that terrain and the rest.
The pile is shuffled, so the cards at any fixed positions of it are a uniform draw without replacement. Between two
reshuffles only a few positions matter: the player's own draws and the cards the players hold when the pile runs
out (every other card goes back through the discards into the next pile). The odds are a sum over those positions'
cards, pile after pile, instead of over every order of the deck.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb

from .hidden import hidden_seats
from .rules import TERRAINS, State, _adjacent_choice, short

KINDS = 2  # a card is the terrain asked about (1) or another one (0)
MAX_DRAWS = 12  # the explorer and the charts look at most this many own cards ahead
Phase = tuple[tuple[int, ...], tuple[int, ...]]  # (the new pile's counts of each kind, each player's card or -1)


class Own:
    """The default viewer: the seat whose odds they are (for the next card, the player to move)."""

    def __repr__(self) -> str:
        return "OWN"


OWN = Own()
Viewer = int | None | Own  # a seat, None for a referee (every card seen), or OWN


def _viewer(state: State, viewer: Viewer, own: int | None) -> int | None:
    """The seat the odds are seen from (``own`` for OWN), or None for a referee; a bad viewer raises ValueError."""
    if isinstance(viewer, Own):
        return own
    if viewer is not None and (
        not isinstance(viewer, int) or isinstance(viewer, bool) or not 0 <= viewer < state.players
    ):
        raise ValueError(f"viewer must be a seat 0..{state.players - 1} or None (a referee), not {short(viewer)}")
    return viewer


def unseen_seats(state: State, viewer: Viewer = OWN) -> list[int]:
    """The seats whose terrain card ``viewer`` cannot see (none for a referee; OWN: the player to move's view)."""
    seat = _viewer(state, viewer, state.player)
    return [] if seat is None else hidden_seats(state, seat)


def _drawers(state: State, events: int) -> list[tuple[int, bool]]:
    """The next ``events`` card draws as ``(player, discards first)``, in table order from this state."""
    n = state.players
    order: list[tuple[int, bool]] = []
    if state.drawing is not None:
        order.append((state.drawing, False))
        if state.after_draw == "deal":
            order.extend((p, False) for p in range(state.drawing + 1, n))
            following = 0
        elif state.after_draw == "replace":
            following = state.drawing
        else:
            following = (state.drawing + 1) % n
    else:
        following = state.player if state.player is not None else 0
    while len(order) < events:
        order.append((following, True))
        following = (following + 1) % n
    return order[:events]


def _check(state: State, player: int, draws: int, viewer: Viewer = None) -> list[int]:
    """Refuse bad input in words; the seats whose cards ``viewer`` (OWN: ``player``) cannot see."""
    if not isinstance(state, State):
        raise ValueError(f"expected a Kingdom Builder State, not {short(state)}")  # noqa: TRY004
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < state.players:
        raise ValueError(f"player must be 0..{state.players - 1}, not {short(player)}")
    if not isinstance(draws, int) or isinstance(draws, bool) or not 0 <= draws <= MAX_DRAWS:
        raise ValueError(f"draws must be a whole number from 0 to {MAX_DRAWS}, not {short(draws)}")
    seat = _viewer(state, viewer, player)
    return [] if seat is None else hidden_seats(state, seat)


class _Flow:
    """The card flow from one state, seen for one player and one terrain: the order of the draws and the cards in
    play, each card either of that terrain (kind 1) or not (kind 0)."""

    def __init__(self, state: State, player: int, draws: int, terrain: str) -> None:
        self.player = player
        self.order = _drawers(state, draws * state.players + state.players)
        target = TERRAINS.index(terrain)

        def split(counts: tuple[int, ...]) -> tuple[int, int]:
            return (sum(counts) - counts[target], counts[target])

        self.hands = tuple(-1 if card is None else int(card == terrain) for card in state.hands)
        held = (sum(h == 0 for h in self.hands), sum(h == 1 for h in self.hands))
        self.pile = split(state.pile)
        # every card still in the game: in the pile, the discards or a hand
        self.live = tuple(p + d + h for p, d, h in zip(self.pile, split(state.discard), held))

    def deals(self, hidden: list[int]) -> dict[Phase, Fraction]:
        """Every way the ``hidden`` seats' cards could have been dealt from the unseen cards (the pile and those
        hands), as (pile, hands) in kinds with its exact chance; one way, certain, when nothing is hidden."""
        if not hidden:
            return {(self.pile, self.hands): Fraction(1)}
        unseen = list(self.pile)
        for seat in hidden:
            unseen[self.hands[seat]] += 1
        ways: dict[Phase, Fraction] = {(tuple(unseen), self.hands): Fraction(1)}
        for seat in hidden:  # deal the hidden hands one by one, each card from those still unseen
            following: dict[Phase, Fraction] = {}
            for (rest, hands), mass in ways.items():
                total = sum(rest)
                for kind, count in enumerate(rest):
                    if count:
                        dealt = hands[:seat] + (kind,) + hands[seat + 1 :]
                        key = (rest[:kind] + (count - 1,) + rest[kind + 1 :], dealt)
                        following[key] = following.get(key, Fraction(0)) + mass * Fraction(count, total)
            ways = following
        return ways

    def reach(self, event: int, nth: int) -> int:
        """Draws from ``event`` up to and including the player's ``nth`` one (past the order if it never comes)."""
        for count, (drawer, _) in enumerate(self.order[event:], start=1):
            nth -= drawer == self.player
            if nth == 0:
                return count
        return len(self.order) + 1

    def own(self, event: int, count: int) -> int:
        """How many of the draws ``event .. event+count-1`` are the player's."""
        return sum(drawer == self.player for drawer, _ in self.order[event : event + count])

    def phases(
        self, event: int, pile: tuple[int, ...], hands: tuple[int, ...], discarded: bool, avoid: int = -1
    ) -> dict[Phase, Fraction]:
        """The draws ``event ..`` use up ``pile``; the next draw reshuffles the discards. The chance of each
        (new pile, hands at the reshuffle), counting only the cases where none of the player's own draws before it
        is the terrain ``avoid`` (-1: every case). ``discarded``: the drawer at ``event`` has discarded already."""
        size = sum(pile)
        reshuffle = event + size
        hands_now = list(hands)
        if not discarded and self.order[event][1]:
            hands_now[self.order[event][0]] = -1
        last: dict[int, int] = {}  # each player's last draw from this pile: the card held when it runs out
        for position in range(event, reshuffle):
            drawer = self.order[position][0]
            last[drawer] = position
            hands_now[drawer] = -1  # they discard their card before drawing (it returns in the next pile)
        watched = set(last.values())
        if avoid >= 0:
            watched |= {e for e in range(event, reshuffle) if self.order[e][0] == self.player}
        # forward over the positions that matter: {(cards left in the pile, hands): chance}
        states: dict[Phase, Fraction] = {(pile, tuple(hands_now)): Fraction(1)}
        for position in sorted(watched):
            drawer = self.order[position][0]
            keeps = last.get(drawer) == position
            following: dict[Phase, Fraction] = {}
            for (rest, held), mass in states.items():
                total = sum(rest)
                for kind, count in enumerate(rest):
                    if count == 0 or (drawer == self.player and kind == avoid):
                        continue
                    after = rest[:kind] + (count - 1,) + rest[kind + 1 :]
                    now = held[:drawer] + (kind,) + held[drawer + 1 :] if keeps else held
                    key = (after, now)
                    following[key] = following.get(key, Fraction(0)) + mass * Fraction(count, total)
            states = following
        drawer_at, discards_at = self.order[reshuffle]
        results: dict[Phase, Fraction] = {}
        for (_, held), mass in states.items():
            final = list(held)
            if discards_at and not (reshuffle == event and discarded):
                final[drawer_at] = -1
            counts = list(self.live)
            for card in final:
                if card >= 0:
                    counts[card] -= 1
            key = (tuple(counts), tuple(final))
            results[key] = results.get(key, Fraction(0)) + mass
        return results


def terrain_within(state: State, player: int, terrain: str, draws: int, *, viewer: Viewer = OWN) -> Fraction:
    """Exact chance that at least one of ``player``'s next ``draws`` terrain cards is ``terrain`` (KB-C4 flow), as
    ``viewer`` knows the table (OWN: ``player`` themselves; None: a referee, who sees every card)."""
    if not isinstance(terrain, str) or terrain not in TERRAINS:
        raise ValueError(f"unknown terrain {short(terrain)} (terrains: {', '.join(TERRAINS)})")
    hidden = _check(state, player, draws, viewer)
    if draws == 0 or state.finished:
        return Fraction(0)
    flow = _Flow(state, player, draws, terrain)
    target = 1

    @cache
    def miss(event: int, left: int, pile: tuple[int, ...], hands: tuple[int, ...], discarded: bool) -> Fraction:
        """The chance that none of the player's next ``left`` draws from ``event`` on is the target."""
        if left <= 0 or event >= len(flow.order):
            return Fraction(1)
        size = sum(pile)
        if flow.reach(event, left) <= size:
            # every one of those draws comes from this pile: a uniform sample of it
            return Fraction(comb(size - pile[target], left), comb(size, left))
        total = Fraction(0)
        own = flow.own(event, size)
        for (new_pile, held), mass in flow.phases(event, pile, hands, discarded, target).items():
            if sum(new_pile) == 0:  # nothing to reshuffle: this drawer gets no card
                drawer = flow.order[event + size][0]
                total += mass * miss(event + size + 1, left - own - (drawer == player), new_pile, held, False)
            else:
                total += mass * miss(event + size, left - own, new_pile, held, True)
        return total

    return 1 - sum(mass * miss(0, draws, pile, hands, False) for (pile, hands), mass in flow.deals(hidden).items())


def own_card_odds(state: State, player: int, draws: int, *, viewer: Viewer = OWN) -> list[dict[str, Fraction]]:
    """For each of ``player``'s next ``draws`` terrain cards (the cards of their coming turns), the exact chance of
    each terrain as ``viewer`` knows the table (OWN: ``player``; None: a referee). Before a reshuffle every card of
    the pile is as likely as any other; after one, the new pile depends on the cards held when the old one ran out."""
    hidden = _check(state, player, draws, viewer)
    if draws == 0 or state.finished:
        return []
    chances = {terrain: _own_card_chances(state, player, draws, terrain, hidden) for terrain in TERRAINS}
    return [{terrain: chances[terrain][nth] for terrain in TERRAINS} for nth in range(draws)]


def _own_card_chances(state: State, player: int, draws: int, terrain: str, hidden: list[int]) -> list[Fraction]:
    flow = _Flow(state, player, draws, terrain)

    @cache
    def card(event: int, nth: int, pile: tuple[int, ...], hands: tuple[int, ...], discarded: bool) -> Fraction:
        """The chance that the player's ``nth`` draw from ``event`` on is the terrain."""
        if event >= len(flow.order):
            return Fraction(0)
        size = sum(pile)
        if flow.reach(event, nth) <= size:
            return Fraction(pile[1], size)
        total = Fraction(0)
        own = flow.own(event, size)
        for (new_pile, held), mass in flow.phases(event, pile, hands, discarded).items():
            if sum(new_pile) == 0:
                drawer = flow.order[event + size][0]
                if own + (drawer == player) >= nth:
                    continue  # the player's card would be drawn from an empty table: no card
                total += mass * card(event + size + 1, nth - own - (drawer == player), new_pile, held, False)
            else:
                total += mass * card(event + size, nth - own, new_pile, held, True)
        return total

    deals = flow.deals(hidden).items()
    return [
        sum((mass * card(0, nth, pile, hands, False) for (pile, hands), mass in deals), Fraction(0))
        for nth in range(1, draws + 1)
    ]


def next_card_odds(state: State, *, viewer: Viewer = OWN) -> dict[str, Fraction]:
    """The chance of each terrain for the next card drawn from the pile (the discards if the pile is empty), as
    ``viewer`` knows the table (OWN: the player to move; None: a referee, who counts the pile only).

    For a player the hidden hands could hold any of the unseen cards: averaged over every deal of them, each unseen
    card is as likely as any other to be the next one, so the chance is its count among the unseen cards."""
    if not isinstance(state, State):
        raise ValueError(f"expected a Kingdom Builder State, not {short(state)}")  # noqa: TRY004
    hidden = unseen_seats(state, viewer)
    counts = list(state.pile if sum(state.pile) else state.discard)
    if sum(state.pile):  # a reshuffle draws from the discards, which everyone saw: nothing hidden is among them
        for seat in hidden:
            counts[TERRAINS.index(state.hands[seat])] += 1
    total = sum(counts)
    return {t: Fraction(n, total) if total else Fraction(0) for t, n in zip(TERRAINS, counts)}


def legal_hexes_by_terrain(state: State, player: int) -> dict[str, int]:
    """How many hexes ``player`` could build the first settlement on now, for a card of each terrain (KB-6.3)."""
    return {t: len(legal_hexes(state, player, t)) for t in TERRAINS}


def legal_hexes(state: State, player: int, terrain: str) -> tuple[tuple[int, int], ...]:
    """The hexes where ``player`` could build the first settlement now with a ``terrain`` card (KB-6.1 to KB-6.3)."""
    if not isinstance(terrain, str) or terrain not in TERRAINS:
        raise ValueError(f"unknown terrain {short(terrain)} (terrains: {', '.join(TERRAINS)})")
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < state.players:
        raise ValueError(f"player must be 0..{state.players - 1}, not {short(player)}")
    if state.supply[player] == 0:
        return ()
    geometry = state.geometry
    return tuple(divmod(i, 20) for i in _adjacent_choice(state, player, geometry.by_terrain[terrain]))
