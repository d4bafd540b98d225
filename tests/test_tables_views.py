"""What each seat of a class-server table sees (issue 45.1): its own secrets, the others' as counts, never the seed.

The known answers come from outside :mod:`rulebook.tables.views`: the games' own ``redeal`` (what a seat cannot see,
dealt again) for invariance, and the states' own fields (missions, hands, the cards drawn in the log) for leaks.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rulebook import registry
from rulebook.core import sample
from rulebook.tables.views import view

PLAYERS = {"meetjesland": (3, 4), "kingdom_builder": (2, 3, 4), "ab_die_post": (2, 3, 4), "claim": (2, 3, 4)}
POSITIONS = 300  # per game, over its player counts


def play(name: str, players: int, seed: int, cap: int) -> list[Any]:
    """The positions of a seeded game of the game's first computer players, chance by ``sample``, at most ``cap``."""
    game = registry.game(name)
    bots = list(game.bots().values())
    rng = random.Random(seed)
    state = game.new_state(players, seed)
    states = [state]
    while game.engine.outcome(state) is None and len(states) < cap:
        move = sample(state, rng) if state.player is None else bots[0](state, rng)
        state = game.engine.apply(state, move)
        states.append(state)
    return states


def keys(value: Any) -> set[str]:
    """Every key of every dict inside ``value``."""
    found: set[str] = set()
    if isinstance(value, dict):
        found |= set(value)
        for item in value.values():
            found |= keys(item)
    elif isinstance(value, list):
        for item in value:
            found |= keys(item)
    return found


# --- 1. nothing a seat sees changes when what it cannot see is dealt again ------------------------------------


@pytest.mark.parametrize(("name", "players"), [("meetjesland", 3), ("meetjesland", 4), ("kingdom_builder", 3)])
def test_a_seat_sees_the_same_whatever_the_hidden_deal(name, players):
    game = registry.game(name)
    redeal = registry.resolve(game.redeal)
    states = play(name, players, seed=players, cap=160)[::12]
    changed = 0
    for state in states:
        for seat in [*range(players), None]:
            seen = view(state, seat)
            for deal in range(3):
                other = redeal(state, seat, random.Random(deal))
                changed += other != state
                again = view(other, seat)
                assert again["position"] == seen["position"], (len(state.history), seat, deal)
                assert again["secret"] == seen["secret"], (len(state.history), seat, deal)
                assert again["summary"] == seen["summary"], (len(state.history), seat, deal)
    assert changed > len(states)  # the redeals did deal something else: the test can see a leak


# --- 2. whole games: JSON, no seed, no other seat's secret ---------------------------------------------------


def games_of(name: str) -> list[list[Any]]:
    counts = PLAYERS[name]
    return [play(name, players, seed=7 + players, cap=POSITIONS // len(counts)) for players in counts]


def check_json(seen: dict[str, Any]) -> str:
    text = json.dumps(seen)
    assert json.loads(text) == seen  # only JSON's types: a tuple or a Fraction would not come back equal
    assert "seed" not in keys(seen)
    return text


@pytest.mark.parametrize("name", ["ab_die_post", "claim"])
def test_every_view_of_an_open_game_is_json_without_a_seed(name):
    for states in games_of(name):
        seed = str(states[0].seed) if hasattr(states[0], "seed") else None
        for state in states:
            for seat in [*range(state.players), None]:
                seen = view(state, seat)
                check_json(seen)
                assert seen["moves"] == len(state.history) and len(seen["log"]) == len(state.history)
                assert seen["secret"] == {}
                if name == "ab_die_post":  # ADP-C6: hands are open
                    assert seen["position"]["hands"] == [list(hand) for hand in state.hands]
        assert seed is None or f'"seed": {seed}' not in check_json(view(states[-1], 0))


def test_meetjesland_never_shows_another_seats_mission_or_drawn_card():
    from rulebook.meetjesland.rules import CardDrawn, card_name

    draws = 0
    for states in games_of("meetjesland"):
        last = states[-1]
        texts = [mission.text for mission in last.config.missions]
        for state in states:
            over = view(state, None)["over"]
            for seat in [*range(state.players), None]:
                seen = view(state, seat)
                text = check_json(seen)
                if over is not None:  # the winner's mission is told with the end: not a leak
                    reason = over["reason"]
                    text = text.replace(reason, "").replace(reason[:1].upper() + reason[1:], "")
                for other in range(state.players):
                    if other == seat:
                        assert seen["position"]["missions"][other] == state.missions[other]
                        assert seen["secret"]["mission"]["text"] == texts[state.missions[other]]
                        assert seen["position"]["hands"][other] == list(state.hands[other])
                    else:
                        assert seen["position"]["missions"][other] is None
                        assert texts[state.missions[other]] not in text
                        assert seen["position"]["hands"][other] == {"cards": len(state.hands[other])}
                assert seen["position"]["pile"] == {"cards": len(state.pile)}
        # each card drawn is named in the log to the seat that drew it and to nobody else
        for index, entry in enumerate(last.history):
            if not isinstance(entry, CardDrawn):
                continue
            draws += 1
            drawer = states[index].turn
            for seat in [*range(last.players), None]:
                told = view(last, seat)["log"][index]["text"]
                assert (card_name(entry.card) in told) == (seat == drawer), (index, seat, told)
    assert draws > 0


def test_kingdom_builder_never_shows_a_hidden_card():
    from rulebook.kingdom_builder.rules import CardDrawn

    hidden_seen = 0
    for states in games_of("kingdom_builder"):
        for state in states:
            for seat in [*range(state.players), None]:
                seen = view(state, seat)
                check_json(seen)
                position = json.dumps(seen["position"])
                visible = {card for index, card in enumerate(state.hands) if index in (seat, state.player)}
                for other, card in enumerate(state.hands):
                    if card is None or other in (seat, state.player):
                        continue
                    hidden_seen += 1
                    assert seen["position"]["hands"][other] == {"cards": 1}
                    if card not in visible:
                        assert f'"{card}"' not in position, (len(state.history), seat, other)
                assert seen["position"]["pile"] == {"cards": sum(state.pile)}
        last = states[-1]
        for index, entry in enumerate(last.history):
            if isinstance(entry, CardDrawn):
                drawer = states[index].drawing
                for seat in [*range(last.players), None]:
                    told = view(last, seat)["log"][index]["text"]
                    assert ("terrain card" in told) == (seat != drawer), (index, seat, told)
    assert hidden_seen > 0


# --- 3. hand counts, known by hand ----------------------------------------------------------------------------


def test_kingdom_builder_a_written_position_shows_the_others_card_as_a_count():
    from rulebook.kingdom_builder.diagram import from_diagram, to_diagram
    from rulebook.kingdom_builder.rules import new_game

    header = to_diagram(new_game(2, 0)).splitlines()[:3]  # sections and cards of a game; its board is empty
    text = "\n".join([*header, *["." * 20] * 20])
    state = from_diagram(text, hands=["forest", "grass"], player=0)
    assert state.player == 0
    mine, theirs, onlooker = view(state, 0), view(state, 1), view(state, None)
    assert mine["position"]["hands"] == ["forest", {"cards": 1}]
    assert "grass" not in json.dumps(mine["position"]) and "grass" not in json.dumps(mine["secret"])
    assert mine["secret"] == {"card": "forest", "terrain": "forest"}
    assert theirs["position"]["hands"] == ["forest", "grass"]  # seat 0 is on turn: its card is shown to all
    assert theirs["secret"]["card"] == "grass"
    assert onlooker["position"]["hands"] == ["forest", {"cards": 1}] and onlooker["secret"] == {}


def test_claim_shows_every_seat_the_same():
    state = registry.game("claim").new_state(3, 5)
    seen = [view(state, seat) for seat in (0, 1, 2, None)]
    for one in seen:
        assert {key: value for key, value in one.items() if key != "seat"} == {
            key: value for key, value in seen[0].items() if key != "seat"
        }
    assert [one["seat"] for one in seen] == [0, 1, 2, None]
    assert "setup" not in seen[0]["position"]  # its text holds the seed


def test_a_spectator_sees_no_mission_and_no_card():
    state = play("meetjesland", 4, seed=3, cap=60)[-1]
    seen = view(state, None)
    assert seen["seat"] is None and seen["secret"] == {}
    assert seen["position"]["missions"] == [None] * 4
    assert seen["position"]["hands"] == [{"cards": len(hand)} for hand in state.hands]
    text = json.dumps(seen)
    assert not any(mission.text in text for mission in state.config.missions)


def test_a_seat_not_at_the_table_is_refused_and_a_game_without_seats_hides_only_the_seed():
    import dataclasses

    from tests.nim.game import GAME

    state = registry.game("claim").new_state(2, 0)
    for seat in (2, -1, True, "0"):
        with pytest.raises(ValueError, match="no seat"):
            view(state, seat)
    registry.register(GAME)  # Nim declares no seats mapping: nothing of it is secret but a seed
    try:
        nim = GAME.new_state(2, 0)
        seen = view(nim, 0)
        assert seen == {**view(nim, 1), "seat": 0}
        assert seen["secret"] == {} and seen["summary"] == [] and "seed" not in seen["position"]
        assert [line["text"] for line in seen["log"]] == []
    finally:
        registry.unregister("nim")
    broken = dataclasses.replace(GAME, seats="tests.test_tables_views:NOT_SEATS")
    registry.register(broken)
    try:
        with pytest.raises(ValueError, match="seats mapping"):
            view(broken.new_state(2, 0), 0)
    finally:
        registry.unregister("nim")


NOT_SEATS = {"hides": "everything"}  # a seats mapping with a key the class server does not ask for


# --- 4. the table in words: the same for every seat, nothing secret, known answers by hand ---------------------


@pytest.mark.parametrize("name", list(PLAYERS))
def test_every_seat_reads_the_same_summary_as_a_spectator(name):
    words_seen = 0
    for states in games_of(name):
        for state in states[::5]:
            onlooker = view(state, None)
            assert onlooker["summary"] and all(isinstance(line, str) and line for line in onlooker["summary"])
            assert (onlooker["board"] is not None) == (name == "claim")
            for seat in range(state.players):
                seen = view(state, seat)
                assert seen["summary"] == onlooker["summary"], (len(state.history), seat)
                assert seen["board"] == onlooker["board"]
            words_seen += len(onlooker["summary"])
    assert words_seen > 0


def test_meetjesland_summary_tells_the_hands_as_counts_and_no_mission():
    from rulebook.meetjesland import words

    state = words.worked_turn_start()  # White holds Eeklo, Sleidinge and Waarschoot; the others hold nothing
    seen = view(state, 0)
    lines = seen["summary"]
    assert lines[0] == "White's turn: trade cards, then reinforce or conquer"
    white = next(line for line in lines if line.startswith("White: "))
    assert white.endswith("3 cards in hand")
    for colour in ("Black", "Pink", "Teal"):
        assert next(line for line in lines if line.startswith(colour + ": ")).endswith("no cards in hand")
    text = " ".join(lines)
    for village in ("Eeklo", "Sleidinge"):  # own cards are named in "secret" only
        assert village not in text
        assert village in json.dumps(seen["secret"])
    assert not any(mission.text in text for mission in state.config.missions)
    pile = 44 - 3  # MJ: 44 cards, three in White's hand
    assert f"The pile: {pile} cards" in lines


def test_kingdom_builder_summary_counts_settlements_and_shows_only_the_card_on_turn():
    from rulebook.kingdom_builder.diagram import from_diagram, to_diagram
    from rulebook.kingdom_builder.rules import new_game

    header = to_diagram(new_game(2, 0)).splitlines()[:3]  # cards: citizens miners knights
    rows = ["." * 20] * 20
    rows[0] = "000" + "." * 17
    rows[5] = "....." + "1" + "." * 14
    state = from_diagram("\n".join([*header, *rows]), hands=["forest", "grass"], player=0)
    lines = view(state, 1)["summary"]
    assert lines[0] == "Orange to play, card shown: forest; 3 settlements still to build this turn"
    assert lines[1] == "Kingdom Builder cards: Citizens, Miners and Knights (and the castles)"
    assert lines[2].startswith("Orange: 3 settlements on the board, 37 left in supply, ")
    assert lines[3].startswith("Blue: 1 settlement on the board, 39 left in supply, ")
    assert lines[2].endswith("no tile") and lines[3].endswith("no tile")
    assert "grassland" not in " ".join(view(state, 0)["summary"])  # Blue's card: not on turn, hidden
    other = from_diagram("\n".join([*header, *rows]), hands=["forest", "desert"], player=0)
    assert view(other, 0)["summary"] == lines  # whatever Blue holds
    assert lines == view(state, 0)["summary"] == view(state, None)["summary"]


def test_ab_die_post_summary_tells_planes_open_hands_scores_and_the_indicator():
    import dataclasses

    from rulebook.ab_die_post.rules import new_game

    start = new_game(2, 0)
    state = dataclasses.replace(
        start,
        positions=("inner-1-2", "start"),
        hands=((1, 1, 0), (0, 0, 0)),
        scores=(4, 7),
        passenger=1,
        marble="red",
    )
    lines = view(state, 1)["summary"]
    assert lines[0] == "P1 (red) to play: draw a card or fly (3 points in hand, flying needs 4)"
    assert lines[1] == "Flight 1 (start field to airport), first to 15 points wins"
    assert lines[2] == "P1 (red): plane on the inner lane, section 1, field 2; cards: 1 x 1, 1 x 2: 3 points; score 4"
    assert lines[3] == "P2 (blue): plane on the start field; cards: no cards; score 7, carries the passenger"
    assert lines[4] == "Last marble: red (4 fields)"  # ADP-C7: red moves 4
    assert lines[5] == (  # ADP-C2, two players: one marble of each wind colour and two black
        "Hurricane indicator: 1 green (2 fields), 1 blue (3 fields), 1 red (4 fields), 1 yellow (5 fields), "
        "2 black (hurricane)"
    )
    assert lines[6] == "Pile: 16 x 1, 23 x 2, 16 x red 3; discard: no cards"
    drawing = view(dataclasses.replace(state, drawn=1), 0)["summary"][0]
    assert drawing == "P1 (red) to play: draw another card or stop drawing (3 points in hand)"


def test_claim_summary_and_board_from_a_diagram_counted_by_hand():
    from rulebook.claim.diagram import from_diagram

    text = """players: red blue
to-move: blue
phase: battle

aabb
aabb
aabb

r.b.
.R.b
rr.b
"""
    state = from_diagram(text)
    seen = view(state, 0)
    assert seen["summary"][:4] == [
        "Battle: Blue to move",
        "Red: 3 pieces on the board, 1 tower (in territory a), 2 in reserve",
        "Blue: 3 pieces on the board, no towers, 3 in reserve",
        "3 towers win",
    ]
    assert "r red, b blue" in seen["summary"][4] and "(a to b)" in seen["summary"][4]
    assert seen["board"] == [
        "   pieces territories",
        "3  r.b.   aabb",
        "2  .R.b   aabb",
        "1  rr.b   aabb",
        "   ABCD   ABCD",
    ]
    assert view(state, None)["board"] == seen["board"]
