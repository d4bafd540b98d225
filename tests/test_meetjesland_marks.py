"""What the Meetjesland board shows after a move: the last move marked on the map, the news of attacks on the
person's territories, the status line's prompt, refusals in place names, rings by shape and colour-safe palettes."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from rulebook import meetjesland as mj
from rulebook.meetjesland import Attack, Dice, EndTurn, Place, widget
from rulebook.meetjesland.widget import INK, PALETTES, PLAYER_SYMBOL, RINGS, Board
from rulebook.views import trace
from tests.helpers import mj_playing as playing

DEAL = mj.new_game(4, seed=0)  # White: Oosteeklo, Lovendegem, Nevele, ...; Black: Zelzate-Oost, Assenede, ...
INTERNAL_ID = re.compile(r"\b[a-z]+_[a-z_]+\b")


def at(territory: str) -> tuple[float, float]:
    node = DEAL.board.graph.nodes[territory]
    return node["x"], node["y"]


def beside(territory: str, x: float, y: float) -> bool:
    """Whether a mark drawn at (x, y) km is next to ``territory``'s point: nearer it than any other, within 4 km."""
    distance = {t: math.dist((x, y), at(t)) for t in DEAL.board.territories}
    return min(distance, key=distance.get) == territory and distance[territory] < 4


def test_a_conquest_is_marked_with_an_arrow_a_ring_and_the_ghosts_of_the_points_lost():
    before = playing({"kaprijke": (0, 5), "eeklo": (1, 2)})
    after = mj.apply(mj.apply(before, Attack("kaprijke", "eeklo", 3)), Dice((6, 5, 2), (4, 3)))
    table = Board(before)
    table.states.append(after)
    table.redraw()
    arrows, ghosts, taken, gains = (
        trace(table.figure.plot, f"last move {layer}") for layer in ("arrows", "losses", "taken", "gains")
    )
    (x0, _), (x1, y1) = at("kaprijke"), at("eeklo")
    start, end = (arrows.x[0], arrows.y[0]), (arrows.x[1], arrows.y[1])
    # the arrow runs from Kaprijke towards Eeklo, stopped short of both points, its head at the Eeklo end
    assert abs(start[0] - x0) < abs(start[0] - x1) and abs(end[0] - x1) < abs(end[0] - x0)
    assert arrows.marker.symbol[1] == "arrow"
    assert (taken.x, taken.y) == ((x1,), (y1,))
    # Kaprijke sent 3 into Eeklo (5 -> 2, White's circle); Eeklo lost Black's 2 points (Black's square)
    lost = dict(zip(ghosts.text, ghosts.marker.symbol))
    assert lost == {"−3": "circle", "−2": "square"}
    eeklo_ghost = list(ghosts.text).index("−2")
    assert beside("eeklo", ghosts.x[eeklo_ghost], ghosts.y[eeklo_ghost])
    assert beside("kaprijke", ghosts.x[1 - eeklo_ghost], ghosts.y[1 - eeklo_ghost])
    assert list(gains.x) == []


def test_points_placed_are_marked_and_the_marks_go_with_the_next_move():
    table = Board(playing({"kaprijke": (0, 5)}, to_place=4, stage="reinforce"))
    assert table.play(Place("kaprijke", 3))
    gains = trace(table.figure.plot, "last move gains")
    assert list(gains.text) == ["+3"] and beside("kaprijke", gains.x[0], gains.y[0])
    assert table.play(Place("kaprijke", 1))
    assert list(trace(table.figure.plot, "last move gains").text) == ["+1"]  # only the newest move is marked


def test_every_computer_reply_is_marked_until_the_person_moves_again():
    table = Board(mj.new_game(players=4, seed=1), seed=1, computer=(1, 2, 3))
    table.auto_button.click()
    table.reinforce_button.click()
    table.select(table.state.territories_of(0)[0])
    table.amount.value = table.state.to_place
    table.place_button.click()
    before = table.state
    table.end_button.click()
    after = table.state
    assert after.turn == 0 and len(after.history) > len(before.history) + 5
    changed = [t for t in after.board.territories if before.owner_of(t) != after.owner_of(t)]
    assert changed  # the three computer players took territories in this round (seed 1)
    taken = trace(table.figure.plot, "last move taken")
    assert sorted(zip(taken.x, taken.y)) == sorted(at(t) for t in changed)
    attacks = {(m.origin, m.target) for m in after.history[len(before.history) :] if isinstance(m, Attack)}
    assert len(trace(table.figure.plot, "last move arrows").x) == 3 * len(attacks)  # start, head, gap per arrow


def test_the_person_reads_what_the_computers_did_to_their_territories():
    start = playing({"eeklo": (0, 2), "kaprijke": (3, 5)}, turn=3)  # Teal plays, then White
    attacked = mj.apply(mj.apply(start, Attack("kaprijke", "eeklo", 4)), Dice((6, 5, 3), (2, 1)))
    ended = mj.apply(attacked, EndTurn())
    ended = mj.apply(ended, mj.CardDrawn(ended.pile[0]))
    table = Board(playing(), computer=(1, 2, 3))
    table.states = [start, attacked, ended]
    table.redraw()
    assert "Since your last move: Teal took Eeklo from you (you lost 2 points)." in re.sub(
        r"<[^>]*>", "", table.news.value
    )


def test_a_click_on_an_own_neighbour_then_on_an_enemy_attacks_from_the_last_own_click():
    # White: Lovendegem and Zomergem are neighbours; Waarschoot (Pink) borders Zomergem
    table = Board(playing({"lovendegem": (0, 4), "zomergem": (0, 4), "waarschoot": (2, 2)}))
    table.select("lovendegem")
    table.select("zomergem")  # a move's destination for now
    assert (table.origin, table.target) == ("lovendegem", "zomergem")
    assert "press Move points" in table.status.text
    table.select("ursel")  # Ursel is White's too (seed 0): a new origin
    assert (table.origin, table.target) == ("ursel", None)
    table.select("lovendegem")
    table.select("zomergem")
    table.select("waarschoot")
    assert (table.origin, table.target) == ("zomergem", "waarschoot")


def test_no_chance_is_shown_for_an_attack_the_rules_forbid():
    # Nevele and Vosselare are separated by the Schipdonk canal (a thick line): no access (MJ-5.2)
    table = Board(playing({"nevele": (0, 6), "vosselare": (1, 2)}))
    table.select("nevele")
    table.select("vosselare")
    odds = re.sub(r"<[^>]*>", "", table.odds.value)
    assert "%" not in odds and "canal" in odds and "Nevele" in odds and "MJ-5.2" in odds
    assert not INTERNAL_ID.search(odds)


def test_refusals_name_places_as_the_map_does():
    table = Board(playing({"nevele": (0, 6), "vosselare": (1, 2), "sint_laureins": (1, 2)}))
    before = table.state
    assert not table.play(Attack("nevele", "vosselare", 3))
    assert "Refused by MJ-5.2: a thick line (canal) separates Nevele and Vosselare" in table.status.text
    assert not table.play(Place("sint_laureins", 1))
    assert "Sint-Laureins belongs to black" in table.status.text
    assert table.state is before
    assert not INTERNAL_ID.search(table.status.text)


def test_the_prompt_names_the_button_when_it_is_the_only_thing_to_do():
    # every territory of White carries 1 point: nothing can move, attack is over; End turn is all that is left
    ones = {t: (0, 1) for t in DEAL.territories_of(0)}
    table = Board(playing(ones, stage="reinforce"))
    assert table.prompt() == "White: nothing else can be done this turn; press End turn."
    assert "White: nothing else can be done this turn; press End turn." in table.status.text
    battle = mj.apply(playing({"kaprijke": (0, 5), "eeklo": (1, 4)}), Attack("kaprijke", "eeklo", 4))
    battle = mj.apply(battle, Dice((6, 2, 1), (5, 4)))
    assert Board(battle).prompt() == (
        "White attacks Eeklo from Kaprijke: 3 staked against 3. Press Roll again, Roll to the end or Break off."
    )


def test_rings_differ_by_shape_and_never_take_a_region_colour():
    table = Board(playing({"lovendegem": (0, 4), "waarschoot": (2, 2)}))
    table.select("lovendegem")
    table.select("waarschoot")
    rings = trace(table.figure.plot, "highlight")
    index = DEAL.board.index
    assert rings.marker.symbol[index["lovendegem"]] == RINGS["chosen"][0]
    assert rings.marker.symbol[index["waarschoot"]] == RINGS["target"][0]
    assert rings.marker.symbol[index["zomergem"]] == RINGS["legal"][0]  # a neighbour it may move to
    assert len({symbol for symbol, _, _ in RINGS.values()}) == len(RINGS)
    assert rings.marker.line.color == INK and INK not in PALETTES["regions"]
    assert len(set(PLAYER_SYMBOL)) == 6


def test_a_click_names_its_territory_and_one_the_map_does_not_hold_is_ignored_with_a_message():
    table = Board(playing())
    before = table.state
    view = table.figure
    drawn = view.revision
    assert not view.click("territories", "atlantis")  # no such territory on the map (a forged or mangled click)
    assert table.state is before and table.origin is None and "older drawing" in table.status.text
    assert not view.click("territories", 0)  # an index is not a territory's id
    assert table.origin is None
    assert view.click("territories", "ursel") and table.origin == "ursel"  # White's: chosen, and ringed
    table.origin_menu.value = ""  # chosen again: nothing
    assert table.origin is None and view.revision == drawn + 2
    # the click names its territory, so a click on an older drawing still means that territory
    assert view.click("territories", "nevele", revision=drawn) and table.origin == "nevele"
    assert not view.click("names", "ursel")  # the names are not clickable: nothing happens
    assert table.origin == "nevele"


@pytest.mark.parametrize("name", sorted(PALETTES))
def test_palettes_stay_apart_under_colour_vision_deficiencies(name):
    import colorspacious
    import numpy as np

    def rgb(colour: str) -> list[float]:
        return [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]

    for deficiency in ("deuteranomaly", "protanomaly", "tritanomaly"):
        space = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
        seen = [np.clip(colorspacious.cspace_convert(rgb(c), space, "sRGB1"), 0, 1) for c in PALETTES[name]]
        for a, b in itertools.combinations(seen, 2):
            assert colorspacious.deltaE(a, b, input_space="sRGB1") >= 15, (name, deficiency)


def test_the_region_palette_is_the_board_files():
    assert PALETTES["regions"] == list(mj.load_board().graph.graph["region_colours"].values())
    assert widget.PLAYER_FILL == tuple(PALETTES["players"])


def css_rules(prefix: str) -> dict[str, dict[str, str]]:
    """The stylesheet's rules for the classes starting with ``prefix``: class -> {property: value}."""
    from rulebook.markup import STYLESHEET

    found = {}
    for name, body in re.findall(r"\.(" + re.escape(prefix) + r"[\w-]+)\s*\{([^}]*)\}", STYLESHEET.read_text()):
        found[name] = dict(
            (part.split(":")[0].strip(), part.split(":")[1].strip()) for part in body.split(";") if ":" in part
        )
    return found


def test_the_stylesheet_s_player_and_region_colours_are_the_board_s():
    """The chips, the legend and the hand's swatches take their colours from style.css: the same as the map's."""
    rules = css_rules("rb-mj-")
    for player, (fill, text) in enumerate(zip(widget.PLAYER_FILL, widget.PLAYER_TEXT)):
        assert rules[f"rb-mj-player-{player}"] == {"background": fill, "color": text}
    for region, colour in mj.load_board().graph.graph["region_colours"].items():
        assert rules[f"rb-mj-region-{region}"] == {"background": colour, "color": widget.ink_on(colour)}
    for card in DEAL.pile:  # every card's colour has a swatch, the Brewery card too
        assert f"rb-mj-region-{mj.rules.card_colour(card)}" in rules


def test_replaying_a_computer_move_marks_that_move_and_keeps_the_computers_mission_hidden():
    table = Board(mj.new_game(players=4, seed=1), seed=1, computer=(1, 2, 3))
    table.auto_button.click()
    table.reinforce_button.click()
    table.select(table.state.territories_of(0)[0])
    table.amount.value = table.state.to_place
    table.place_button.click()
    table.end_button.click()
    index = next(
        i for i in range(1, len(table.states)) if isinstance(table.step(i).move, Attack) and table.step(i).player == 2
    )
    attack = table.step(index).move
    table.show_move(index)
    assert table.replaying and table.state is table.states[index]
    arrows = trace(table.figure.plot, "last move arrows")
    start = (arrows.x[0], arrows.y[0])
    (ox, oy), (tx, ty) = at(attack.origin), at(attack.target)
    assert len(arrows.x) == 3 and abs(start[0] - ox) <= abs(start[0] - tx) and abs(start[1] - oy) <= abs(start[1] - ty)
    assert "Mission of white" in re.sub(r"<[^>]*>", "", table.mission.value)  # Pink's mission stays secret
    assert list(trace(table.figure.plot, "highlight").marker.size) == [0] * 44  # no rings while replaying


def test_every_name_is_nearer_its_own_point_than_any_other():
    """Crowded villages (Landegem and Merendree among them) once had their names beside a neighbour's point. Now
    each name stands where no other point is as near its edge and nearer its middle; where the map leaves no such
    place (one or two names at most), a leader line joins the name to its own piece, crossing no other piece."""
    from rulebook.meetjesland import labels
    from rulebook.meetjesland.widget import MAP_HEIGHT, MAP_WIDTH

    layout = labels.map_labels("meetjesland", MAP_WIDTH, MAP_HEIGHT)
    points = layout.points
    misread, led = [], []
    for i, name in enumerate(layout.names):
        if name.leader is not None:
            led.append(name.territory)
            start, end = name.leader
            assert labels.gap(start, name.box) < 0.01 and math.dist(end, points[i]) == pytest.approx(labels.LEADER_STOP)
            others = [p for j, p in enumerate(points) if j != i]
            assert labels._clear(name.leader, others), name.territory
            continue
        misread += [
            (name.territory, j) for j, p in enumerate(points) if j != i and labels.misread(name.box, points[i], p)
        ]
    assert misread == [] and len(led) <= 2, (misread, led)


def test_the_fast_scorer_weighs_each_box_as_the_rules_of_placement_say():
    """labels._Scorer inlines the cost of a text's place for speed; here the same cost, from its definition: 100 per
    px² over a piece's box (and COVERS_PIECE), 2 per px from its own point, and otherwise each other point the text
    could be read as (labels.misread). Boxes of every size round every point, seeded."""
    import random

    from rulebook.meetjesland import labels
    from rulebook.meetjesland.widget import MAP_HEIGHT, MAP_WIDTH

    layout = labels.map_labels("meetjesland", MAP_WIDTH, MAP_HEIGHT)
    points, pieces = layout.points, labels.piece_boxes(layout.points)
    rng = random.Random(7)
    covered_seen = misread_seen = 0
    for own, (x, y) in enumerate(points):
        nearby = layout.near(own, 90)
        scorer = labels._Scorer(own, points, nearby, [pieces[j] for j in nearby])
        for _ in range(40):
            width, height = rng.uniform(10, 90), rng.uniform(11, 26)
            box = labels.centred(x + rng.uniform(-60, 60), y + rng.uniform(-50, 50), width, height)
            covered = sum(labels.overlap(box, pieces[j]) for j in nearby)
            expected = 2 * labels.gap((x, y), box)
            if covered:
                expected, misreads = expected + labels.COVERS_PIECE + 100 * covered, 0
                covered_seen += 1
            else:
                misreads = sum(1 for j in nearby if j != own and labels.misread(box, (x, y), points[j]))
                misread_seen += misreads > 0
            cost, count = scorer.cost(box)
            assert count == misreads and cost == pytest.approx(expected, abs=1e-9), (own, box)
    assert covered_seen > 100 and misread_seen > 100  # both kinds of place were weighed


# -- issue 26.7: no label over another, over a piece or over an arrowhead, at every redraw of a whole game ---------


def drawn_texts_problems(layout, arrows, marks, shapes, names, boxes) -> list[str]:
    """What is wrong with the texts ``labels.arrange`` placed: a text over another, over a piece (a name: over the
    square any piece fits in; a mark: over the shape drawn now) or an arrow's dot or head, outside the map, or (a
    name without a leader, a mark) beside another territory's point."""
    from rulebook.meetjesland import labels

    points = layout.points
    squares, drawn = labels.piece_boxes(points), labels.piece_boxes(points, shapes)
    texts = [(name.territory, i, name.box, name.leader, squares) for i, name in enumerate(names)]
    texts += [(f"mark at {mark.territory}", mark.territory, m.box, m.leader, drawn) for mark, m in zip(marks, boxes)]
    found = []
    for (a, _, box_a, _, _), (b, _, box_b, _, _) in itertools.combinations(texts, 2):
        if labels.overlap(box_a, box_b) > 0.25:
            found.append(f"{a} over {b}")
    for what, own, box, leader, pieces in texts:
        if not layout.geometry.inside(box):
            found.append(f"{what} outside the map")
        found += [f"{what} over a piece" for piece in pieces if labels.overlap(box, piece) > 0.25]
        found += [f"{what} over an arrow" for arrow in arrows if labels.overlap(box, arrow) > 0.25]
        if leader is None:
            found += [
                f"{what} read as {j}" for j, p in enumerate(points) if j != own and labels.misread(box, points[own], p)
            ]
    return found


def test_every_redraw_of_a_whole_game_keeps_its_texts_clear(monkeypatch):
    """Seat 0 plays a whole game through the board with the computer's hints shown; at every redraw the names and
    the marks (points lost and gained, the hint's words) are where nothing covers them and nothing misreads."""
    import random

    from rulebook.meetjesland import labels
    from rulebook.meetjesland.bots import greedy_player

    arrange = labels.arrange
    seen: list[tuple[int, list[str]]] = []

    def checked(layout, arrows=(), marks=(), shapes=None):
        names, boxes = arrange(layout, arrows, marks, shapes)
        seen.append((len(marks), drawn_texts_problems(layout, arrows, marks, shapes, names, boxes)))
        return names, boxes

    monkeypatch.setattr(labels, "arrange", checked)
    table = Board(mj.new_game(players=4, seed=3), seed=3, computer={1: "greedy", 2: "greedy", 3: "greedy"})
    table.auto_button.click()
    chooser = random.Random(3)
    for step in range(400):
        if mj.outcome(table.state) is not None:
            break
        if step % 7 == 0:
            table.session.hinted = greedy_player(table.state, random.Random(step))  # a hint's arrow or star
        move = greedy_player(table.state, chooser)
        if isinstance(move, mj.Attack):
            table.select(move.origin)
            table.select(move.target)
        assert table.play(move), table.status.text
    marked = sum(count for count, _ in seen)
    assert len(seen) > 100 and marked > 200  # many redraws, many marks placed
    problems = [found for _, found in seen if found]
    kinds = sorted(
        {
            problem.split(" ", 2)[-1] if problem.startswith("mark") else problem
            for found in problems
            for problem in found
        }
    )
    assert problems == [], f"{len(problems)} of {len(seen)} redraws: {kinds}"
