"""Ab die Post! as written (issue 14): the return-flight reading of "back to the start" (ADP-C11), the example route
of ADP-C9 drawn in the notebook, a notebook that stands alone (no links out of the repository), and the checks the
notebook used to carry as asserts, now kept here while the notebook shows the values."""

from __future__ import annotations

import dataclasses
import json
import re
from fractions import Fraction
from pathlib import Path

from rulebook import ab_die_post
from rulebook.ab_die_post import Fly, MarbleShaken, Move, apply, bots, charts, check, narrate, new_game, odds, widget
from rulebook.ab_die_post.rules import card_count_invariant

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "ab_die_post.ipynb"


def cells(kind):
    return ["".join(cell["source"]) for cell in json.loads(NOTEBOOK.read_text())["cells"] if cell["cell_type"] == kind]


# --- ADP-C11: "back to the start" on a return flight is the airport ------------------------------------------


def test_adp_c11_a_plane_that_cannot_pay_on_a_return_flight_goes_back_to_the_airport():
    # Flight 2 flies from the airport to the start field. P2 (blue) holds 1 point on the inner lane (repairs 8) and the
    # passenger card: it cannot pay, so its cards go to the discard, its plane to the airport, the passenger card back.
    state = dataclasses.replace(
        new_game(players=3, seed=0),
        flight=2,
        hands=((0, 2, 0), (1, 0, 0), (0, 0, 0)),
        pile=(15, 21, 16),
        positions=("airport", "inner-3-2", "airport"),
        passenger=1,
    )
    assert card_count_invariant(state)
    after = apply(apply(state, Fly()), MarbleShaken("black"))
    assert after.positions == ("airport", "airport", "airport")
    assert after.hands[1] == (0, 0, 0) and after.discard == (1, 0, 0) and after.passenger is None
    assert narrate(state, Fly(), after) == (
        "flies: the indicator shows the black marble: a hurricane! P2 (blue) cannot pay 8 on the inner lane with "
        "1 x 1: 1 point, discards them, gives back the passenger card and goes back to the airport"
    )
    text = "\n".join(cells("markdown"))
    assert (
        "**ADP-C11 (clarification:" in text
        and "(On a return flight that plane goes back to the airport:\nADP-C11.)" in (text)
    )


# --- the example route of ADP-C9 ------------------------------------------------------------------------------


def test_the_example_route_is_legal_and_its_neighbour_is_refused_by_adp_6_3():
    example = charts.example_routes()
    legal, refused = example["legal"], example["refused"]
    # by hand: off straight along the central lane, three lane changes, landing straight along the inner lane
    assert legal == ("central-1-2", "central-1-3", "inner-1-2", "central-1-4", "inner-1-3", "inner-1-4")
    assert example["changes"] == 3
    state = dataclasses.replace(
        new_game(players=2, seed=0), hands=((0, 2, 0), (0, 0, 0)), pile=(16, 21, 16), positions=("central-1-2", "start")
    )
    state = apply(apply(state, Fly()), MarbleShaken("yellow"))
    assert apply(state, Move(legal)).positions[0] == "inner-1-4"
    assert refused[:2] == ("central-1-2", "inner-1-2") and len(refused) == 6
    assert check(state, Move(refused)).rule == "ADP-6.3"
    figure = charts.example_route_chart()
    drawn = next(trace for trace in figure.data if (trace.name or "").startswith("legal"))
    assert list(drawn.text) == ["from", "step 1", "step 2", "step 3", "step 4", "step 5"]
    assert "charts.example_route_chart()" in cells("code")


# --- the notebook stands alone --------------------------------------------------------------------------------


def test_the_notebook_links_only_to_files_in_the_repository():
    text = "\n".join(cells("markdown"))
    assert "../shared" not in text and "shared/" not in text
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if not link.startswith("http")]
    assert "../rulebook/ab_die_post/RESEARCH.md" in local
    for link in local:
        assert (NOTEBOOK.parent / link).resolve().is_file(), link
    research = (ROOT / "rulebook" / "ab_die_post" / "RESEARCH.md").read_text()
    for source in ("gamecabinet.com", "doczz.fr", "ludorium.at", "luding.org", "keirat", "boardgame.de"):
        assert source in research


def test_code_cells_are_commands_not_checks():
    imports, *commands = cells("code")
    assert "import" in imports and "assert" not in imports
    for source in commands:
        assert "assert" not in source and len(source.splitlines()) <= 3, source


# --- what the notebook's cells show, checked against hand counts ----------------------------------------------


def test_the_values_the_notebook_shows():
    state = ab_die_post.new_game(players=4, seed=7)
    assert state.pile == (16, 23, 16) and state.positions == ("start",) * 4 and state.player == 0
    assert odds.marble_distribution(3) == {
        "green": Fraction(1, 8),
        "blue": Fraction(1, 4),
        "red": Fraction(1, 4),
        "yellow": Fraction(1, 8),
        "black": Fraction(1, 4),
    }
    assert odds.bust_probability(1, red_held=2) == Fraction(16, 55)
    assert odds.bust_probability(2, red_held=1) == Fraction(16 * 15, 55 * 54)
    assert all(odds.reach_probability(4, points_held=3 * reds, red_held=reds) == 1 for reds in (0, 1, 2))
    advice = odds.best_stopping_rule("points", points_held=6, red_held=2)
    assert not advice.draw and advice.value_if_stop == 6
    assert odds.stopping_threshold(ones=16, twos=23) == 10  # by hand: 62 > 6R while R <= 10
    assert odds.hurricane_probability(4) == Fraction(1, 5)
    assert odds.hurricane_per_round(4) == 1 - Fraction(4, 5) ** 4
    assert odds.repairs_affordable((0, 0, 2), cost=2) == 2 and odds.repairs_affordable((0, 0, 2), cost=4) == 1
    assert odds.flight_survival_probability((0, 2, 0), "central", shakes=3, players=3) == Fraction(54, 64)
    track = ab_die_post.load_track()
    routes = ab_die_post.rules.shortest_routes(track)
    assert {lane: len(route) - 1 for lane, route in routes.items()} == {
        "inner": 13,
        "central": 25,
        "outer": 49,
        "any": 13,
    }
    assert track.passenger_fields == ("outer-2-8", "outer-2-9")


def test_the_notebook_game_and_board():
    board = widget.Board(ab_die_post.new_game(players=4, seed=1), seed=1, computer=(1, 2, 3))
    board.fly_button.click()
    assert "Refused by ADP-5.1" in board.status.text and board.state.history == ()
    players = [bots.greedy_player, bots.make_threshold_player(9), bots.random_player, bots.make_threshold_player(5)]
    final = bots.play_game(players, seed=3)
    assert ab_die_post.from_json(ab_die_post.to_json(final)) == final
    assert ab_die_post.outcome(final) is not None


# --- is the passenger worth a detour? ----------------------------------------------------------------------------


def test_the_detour_through_a_passenger_field_is_four_steps_longer():
    track = ab_die_post.load_track()
    direct = ab_die_post.rules.steps_left(track, 1)
    via = ab_die_post.rules.steps_left(track, 1, via_passenger=True)
    # witnesses, step by step (each step one field ahead): 13 straight along the inner lane; 17 through the passenger
    # field 9 of section 2, entered straight from field 8 along the outer lane (a landing goes straight, ADP-6.3)
    straight = ["start", *(f"inner-{s}-{f}" for s in (1, 2, 3) for f in (1, 2, 3, 4)), "airport"]
    detour = ["start", "inner-1-1", "inner-1-2", "inner-1-3", "inner-1-4", "inner-2-1", "inner-2-2", "central-2-4"]
    detour += ["outer-2-8", "outer-2-9", "central-2-5", "central-2-6", "inner-2-4"]
    detour += ["inner-3-1", "inner-3-2", "inner-3-3", "inner-3-4", "airport"]
    for path in (straight, detour):
        assert all(b in dict(track.ahead[(a, 1)]) for a, b in zip(path, path[1:]))
    assert len(straight) - 1 == direct["start"] == 13
    assert len(detour) - 1 == via["start"] == 17
    assert dict(track.ahead[("outer-2-8", 1)])["outer-2-9"]  # the last step is a lane step
    # past the passenger fields no detour is left; on the way back the same holds from the airport
    assert "outer-3-1" not in via and "airport" not in via
    assert ab_die_post.rules.steps_left(track, -1, via_passenger=True)["airport"] == 17


def test_the_passenger_study_is_seeded_and_counts_every_seat():
    first = bots.passenger_study(games=6, seed=4)
    assert first == bots.passenger_study(games=6, seed=4)
    for kind in ("detour", "direct"):
        assert 0 <= first[f"{kind}: share of wins"] <= 1
        assert 0 <= first[f"{kind}: share of flights with the passenger"] <= 1
        assert first[f"{kind}: mean points per game"] > 0
    assert first["detour: share of wins"] + first["direct: share of wins"] == 1
