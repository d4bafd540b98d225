"""Ab die Post! in players' words (issue 12): the narration of every kind of move checked against sentences written
by hand from the position, the last moves marked on the track, the prompt naming the one button to click, refusals
without field ids, stale clicks ignored, and colour-vision-safe palettes."""

from __future__ import annotations

import dataclasses
import itertools
import re

from rulebook.ab_die_post import (
    CardDrawn,
    DrawCard,
    Fly,
    KeepCard,
    MarbleShaken,
    Move,
    Repair,
    Stay,
    Stop,
    apply,
    charts,
    check,
    legal_moves,
    narrate,
    widget,
)
from tests.helpers import adp_position as position

FIELD_ID = re.compile(r"\b(?:inner|central|outer)-\d+-\d+\b")


def told(state, *moves):
    """The narration of the first move, with the later entries (chance outcomes) played after it."""
    after = state
    for move in moves:
        after = apply(after, move)
    text = narrate(state, moves[0], after)
    assert not FIELD_ID.search(text), text
    return text


# --- drawing spare parts --------------------------------------------------------------------------------------


def test_a_drawn_card_and_the_hand_it_makes():
    state = position()
    assert told(state, DrawCard(), CardDrawn(2)) == "draws a 2, holds 1 x 2: 2 points"
    state = position(hands=((1, 0, 0), (0, 0, 0), (0, 0, 0)), pile=(15, 23, 16), drawn=1)
    assert told(state, DrawCard(), CardDrawn(3)) == "draws a red 3, holds 1 x 1, 1 x red 3: 4 points"


def test_the_third_red_three_is_told_as_a_loss_that_ends_the_turn():
    state = position(hands=((0, 1, 2), (0, 0, 0), (0, 0, 0)), pile=(16, 22, 14), drawn=2)
    assert told(state, DrawCard(), CardDrawn(3)) == (
        "draws a third red 3 and loses all three red 3s; the turn ends, holding 1 x 2: 2 points"
    )


def test_an_empty_pile_is_reshuffled_before_the_draw():
    state = position(pile=(0, 0, 0), discard=(16, 23, 16))
    assert (
        told(state, DrawCard(), CardDrawn(1))
        == "shuffles the discard into a new pile and draws a 1, holds 1 x 1: 1 point"
    )


def test_stopping_says_what_the_hand_holds():
    state = position(hands=((1, 2, 0), (0, 0, 0), (0, 0, 0)), pile=(15, 21, 16), drawn=3)
    assert told(state, Stop()) == "stops drawing, holding 1 x 1, 2 x 2: 5 points"


# --- flying --------------------------------------------------------------------------------------------------


def test_a_coloured_marble_says_how_far_the_plane_flies():
    state = position(hands=((0, 2, 0), (0, 0, 0), (0, 0, 0)), pile=(16, 21, 16))
    assert told(state, Fly(), MarbleShaken("blue")) == "flies: the indicator shows a blue marble: fly 3 fields"
    assert told(state, Fly(), MarbleShaken("yellow")) == "flies: the indicator shows a yellow marble: fly 5 fields"


def test_a_hurricane_names_who_pays_and_who_goes_back():
    # P1 on the central lane holds 5 (pays 4); P2 on the inner lane holds 1 (cannot pay 8); P3 has not left.
    state = position(
        hands=((0, 1, 1), (1, 0, 0), (0, 0, 0)),
        pile=(15, 22, 15),
        positions=("central-1-2", "inner-1-3", "start"),
    )
    assert told(state, Fly(), MarbleShaken("black")) == (
        "flies: the indicator shows the black marble: a hurricane! P1 (red) must pay 4 for the central lane; "
        "P2 (blue) cannot pay 8 on the inner lane with 1 x 1: 1 point, discards them and goes back to the start field"
    )
    nobody = position(hands=((0, 2, 0), (0, 0, 0), (0, 0, 0)), pile=(16, 21, 16))
    assert told(nobody, Fly(), MarbleShaken("black")) == (
        "flies: the indicator shows the black marble: a hurricane, but no plane is in the air"
    )


def flying(marble, **changes):
    state = position(**changes)
    return apply(apply(state, Fly()), MarbleShaken(marble))


def test_a_route_from_field_to_field_and_the_lane_it_crosses():
    state = flying("blue", hands=((0, 2, 0), (0, 0, 0), (0, 0, 0)), pile=(16, 21, 16))
    straight = Move(("start", "central-1-1", "central-1-2", "central-1-3"))
    assert told(state, straight) == "flies 3 fields from the start field to the central lane, section 1, field 3"
    across = next(move for move in legal_moves(state) if isinstance(move, Move) and move.path[-1] == "inner-1-2")
    assert across.path == ("start", "central-1-1", "inner-1-1", "inner-1-2")
    assert told(state, across) == (
        "flies 3 fields from the start field to the inner lane, section 1, field 2 (via the central lane)"
    )


def test_picking_up_the_passenger_is_told():
    state = flying(
        "yellow",
        hands=((0, 2, 0), (0, 0, 0), (0, 0, 0)),
        pile=(16, 21, 16),
        positions=("central-2-3", "start", "start"),
    )
    route = next(
        move
        for move in legal_moves(state)
        if isinstance(move, Move) and move.path[-1] == "outer-2-11" and "outer-2-8" in move.path
    )
    assert told(state, route) == (
        "flies 5 fields from the central lane, section 2, field 3 to the outer lane, section 2, field 11 "
        "and picks up the passenger"
    )


def test_reaching_the_airport_scores_the_flight():
    # P1 two fields from the airport; P2 holds the passenger on the central lane of section 3; P3 never left.
    # By hand: P1 7 (first), P2 5 (second) + 2 for the passenger = 7; P2 keeps a card (its plane is out).
    state = flying(
        "green",
        hands=((0, 2, 0), (1, 0, 0), (0, 0, 0)),
        pile=(15, 21, 16),
        positions=("inner-3-3", "central-3-1", "start"),
        passenger=1,
    )
    route = Move(("inner-3-3", "inner-3-4", "airport"))
    assert told(state, route) == (
        "flies 2 fields from the inner lane, section 3, field 3 to the airport; flight 1 is over; "
        "points: P1 (red) 7, P2 (blue) 7 (with the passenger's 2); P2 (blue) chooses a card to keep"
    )
    ending = dataclasses.replace(state, scores=(10, 0, 0))
    assert told(ending, route) == (
        "flies 2 fields from the inner lane, section 3, field 3 to the airport; flight 1 is over; "
        "points: P1 (red) 7, P2 (blue) 7 (with the passenger's 2); the game is over: P1 (red) wins with 17 points"
    )


def test_staying_put_says_where_and_after_which_marble():
    state = flying("green", hands=((0, 2, 0), (0, 0, 0), (0, 0, 0)), pile=(16, 21, 16))
    assert told(state, Stay()) == "stays on the start field after the green marble"


def test_repairs_paid_and_the_next_payer():
    state = position(
        hands=((0, 1, 1), (0, 3, 0), (0, 0, 0)),
        pile=(16, 19, 15),
        positions=("central-1-2", "central-1-4", "start"),
    )
    state = apply(apply(state, Fly()), MarbleShaken("black"))
    assert state.phase == "repair" and state.pending == (0, 1)
    assert told(state, Repair(0, 1, 1)) == (
        "pays 1 x 2, 1 x red 3 (5 points) for the repairs on the central lane (cost 4); keeps no cards; "
        "P2 (blue) pays next"
    )
    state = apply(state, Repair(0, 1, 1))
    assert told(state, Repair(0, 2, 0)) == (
        "pays 2 x 2 (4 points) for the repairs on the central lane (cost 4); keeps 1 x 2: 2 points"
    )


def test_the_card_kept_and_the_next_flight():
    # Equal scores and equal points in the last flight: the next flight begins clockwise from the player whose
    # plane reached the airport (P2), ADP-C16.
    state = position(
        players=2,
        hands=((1, 1, 0), (0, 0, 0)),
        pile=(15, 22, 16),
        phase="keep",
        player=0,
        pending=(0,),
        positions=("outer-1-3", "airport"),
        turn_player=1,
    )
    assert (
        told(state, KeepCard(2)) == "keeps a 2 for the next flight; flight 2 starts from the airport, P2 (blue) begins"
    )
    assert told(state, KeepCard(0)).startswith("keeps no card for the next flight; flight 2")


# --- the board -----------------------------------------------------------------------------------------------


def board_at(state, computer=(1,)):
    return widget.Board(state, seed=3, computer=computer)


def point(board, field):
    node = board.track.graph.nodes[field]
    return node["x"], node["y"]


def test_the_last_route_and_the_plane_it_left_are_marked_on_the_track():
    state = flying("blue", players=2, hands=((0, 2, 0), (0, 0, 0)), pile=(16, 21, 16))
    board = board_at(state)
    assert board.route_trace.x == () and board.ghost_trace.x == ()
    assert board.click_field("central-1-3")
    route = board.route_trace
    xs, ys = list(route.x), list(route.y)
    for field in ("central-1-1", "central-1-2", "central-1-3"):
        assert point(board, field) in set(zip(xs, ys))
    assert "P1 (red): flies 3 fields from the start field to the central lane, section 1, field 3" in route.hovertext
    # the ghost of P1's plane stands at its place by the start field, in its shape, open
    assert (board.ghost_trace.x[0], board.ghost_trace.y[0]) == board.plane_point(state, 0)
    assert board.ghost_trace.marker.symbol[0] == "triangle-up-open" and board.ghost_trace.text[0] == "1"
    # the log tells it under the player's name, and so does the status line
    assert "P1 (red)flies 3 fields from the start field" in board.move_log.text
    assert "P1 (red): flies 3 fields from the start field" in board.status.text


def test_a_plane_sent_back_by_a_hurricane_leaves_a_ghost():
    before = position(
        hands=((0, 1, 1), (1, 0, 0), (0, 0, 0)),
        pile=(15, 22, 15),
        positions=("central-1-2", "inner-1-3", "start"),
    )
    board = board_at(before, computer=())
    board.states.append(apply(apply(before, Fly()), MarbleShaken("black")))
    board.redraw()
    ghosts = list(zip(board.ghost_trace.x, board.ghost_trace.y))
    assert ghosts == [point(board, "inner-1-3")] and board.ghost_trace.text == ("2",)
    assert "sent it back" in board.ghost_trace.hovertext[0]
    assert board.route_trace.x == ()


def test_the_prompt_names_the_only_button():
    board = board_at(position(players=2), computer=())
    assert board.status.text.startswith("People play P1 (red) and P2 (blue). ")
    assert "P1 (red): click Draw a card (0 points in hand; flying needs 4)." in board.status.text
    # a green marble (2 fields) with both fields ahead on every lane taken: only Stay put
    blocked = flying(
        "green",
        players=6,
        hands=((0, 2, 0),) + ((0, 0, 0),) * 5,
        pile=(16, 21, 16),
        positions=("start", "inner-1-2", "central-1-2", "outer-1-2", "start", "start"),
    )
    assert legal_moves(blocked) == (Stay(),)
    board = board_at(blocked, computer=(1, 2, 3, 4, 5))
    assert "P1 (red): green marble, fly 2 fields - no free field within reach: click Stay put." in board.status.text
    assert "orange ring" not in board.status.text
    one_way = position(players=2, hands=((0, 1, 1), (0, 0, 0)), pile=(16, 22, 15), positions=("central-1-2", "start"))
    board = board_at(apply(apply(one_way, Fly()), MarbleShaken("black")))
    assert (
        "hurricane! Repairs on the central lane cost 4; the only way to pay is 1 x 2, 1 x red 3: click Play choice."
        in board.status.text
    )


def test_refusals_name_fields_as_the_board_does():
    state = flying(
        "blue", players=2, hands=((0, 2, 0), (0, 0, 0)), pile=(16, 21, 16), positions=("start", "central-1-3")
    )
    error = check(state, Move(("start", "central-1-1", "central-1-2", "central-1-3")))
    assert error.rule == "ADP-6.2"
    assert error.message.startswith("the central lane, section 1, field 3 is occupied by player 2's plane")
    board = board_at(state)
    assert not board.play(Move(("start", "central-1-1", "central-1-2", "central-1-3")))
    assert "Refused by ADP-6.2: the central lane, section 1, field 3 is occupied by P2 (blue)'s plane" in (
        board.status.text
    )
    assert not board.click_field("outer-3-16")
    assert "No route of this marble ends on the outer lane, section 3, field 16: pick one of the orange rings." in (
        board.status.text
    )
    assert not FIELD_ID.search(board.status.text)


def test_a_click_names_its_field_and_a_stale_one_is_ignored_with_a_message():
    state = flying("blue", players=2, hands=((0, 2, 0), (0, 0, 0)), pile=(16, 21, 16))
    board = board_at(state)
    view, before = board.figure, board.figure.revision
    rings = list(board.target_trace.customdata)
    # a ring not drawn now (a forged click, or a field that was never a target): nothing is played
    assert "outer-3-16" not in rings and not view.click("legal targets", "outer-3-16")
    assert board.state is state and "earlier drawing" in board.status.text
    # a click on a field of the track that no route ends on is explained, not played
    assert view.click("fields", "outer-3-16") and board.state is state and "No route" in board.status.text
    # a click on a ring, by its field (not by an index into the trace): P1 flies there
    assert view.click("legal targets", "central-1-3")
    assert board.states[1].positions[0] == "central-1-3"
    # the rings of the drawing before that move are gone: a click on one of them plays nothing
    played = board.state
    assert not view.click("legal targets", rings[0], revision=before)
    assert board.state is played and "earlier drawing" in board.status.text


# --- colours -------------------------------------------------------------------------------------------------


def test_palettes_stay_apart_under_colour_vision_deficiencies():
    import colorspacious

    def cam(colour, deficiency):
        rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        if deficiency:
            space = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
            rgb = [min(1, max(0, v)) for v in colorspacious.cspace_convert(rgb, space, "sRGB1")]
        return colorspacious.cspace_convert(rgb, "sRGB1", "CAM02-UCS")

    assert set(widget.PALETTES) == {"players", "marbles", "board"}
    assert widget.PALETTES["players"] == list(widget.PLAYER_FILL)
    for name, colours in widget.PALETTES.items():
        assert all(re.fullmatch(r"#[0-9a-f]{6}", colour) for colour in colours), name
        for deficiency in (None, "deuteranomaly", "protanomaly", "tritanomaly"):
            points = [cam(colour, deficiency) for colour in colours]
            for (i, first), (j, second) in itertools.combinations(enumerate(points), 2):
                distance = colorspacious.deltaE(first, second, input_space="CAM02-UCS")
                assert distance >= 15, (name, deficiency, colours[i], colours[j], distance)
    # shapes as well as colours: every seat its own marker shape and number
    assert len(set(widget.PLAYER_SYMBOL)) == 6


def test_planes_sharing_the_start_field_or_the_airport_do_not_overlap():
    # Six planes on one field used to be fanned out so tightly that their labels overlapped; now each seat has its own
    # place, at least one marker width apart (the figure draws about 27 pixels per unit, a plane is 19 pixels wide).
    for field in ("start", "airport"):
        state = position(players=6, positions=(field,) * 6)
        board = board_at(state, computer=())
        points = list(zip(board.plane_trace.x, board.plane_trace.y))
        assert len(set(points)) == 6 and board.plane_trace.text == ("1", "2", "3", "4", "5", "6")
        for (x0, y0), (x1, y1) in itertools.combinations(points, 2):
            assert ((x0 - x1) ** 2 + (y0 - y1) ** 2) ** 0.5 >= 0.8
    labels = list(charts.reach_chart(10).layout.annotations)
    assert len({round(label.y, 2) for label in labels}) == 3  # the three repair lines' labels at three heights


def test_computer_replies_are_told_in_the_log_and_marked_on_the_track():
    # P2 (computer, draws to 6 then flies) holds 6 points: after P1 draws a card and stops, P2 flies at once.
    state = position(players=2, hands=((0, 0, 0), (0, 3, 0)), pile=(16, 20, 16))
    board = board_at(state, computer=(1,))
    board.draw_button.click()
    if board.live.player == 0 and board.live.drawn:
        board.stop_button.click()
    replies = [step for step in board.steps_shown() if step.player == 1]
    assert replies and replies[0].move == Fly()
    assert board.step_text(replies[0]).startswith("flies: the indicator shows ")
    log = board.move_log.text
    assert "P2 (blue) (computer)" in log
    for step in replies:
        told = narrate(step.before, step.move, step.after)
        assert board.step_text(step) == told and told in log
        if isinstance(step.move, Move):
            end = point(board, step.move.path[-1])
            assert end in set(zip(board.route_trace.x, board.route_trace.y))
    assert "then P2 (blue): flies: the indicator shows " in board.status.text


def test_a_computer_hurricane_that_sends_a_person_back_is_told_even_when_replies_are_counted():
    # P2 (computer) shakes the black marble; P1 (person) holds 1 point on the inner lane (repairs 8): sent back.
    before = position(
        players=2,
        hands=((1, 0, 0), (0, 2, 0)),
        pile=(15, 21, 16),
        positions=("inner-1-3", "start"),
        player=1,
        turn_player=1,
    )
    after = apply(apply(before, Fly()), MarbleShaken("black"))
    board = board_at(position(players=2), computer=(1,))
    board.states = [before, after]
    step = board.step(1)
    assert step.player == 1 and step.move == Fly()
    text = board.replies([step, step, step])
    assert text.endswith(
        "; P2 (blue)'s hurricane sent P1 (red) back from the inner lane, section 1, field 3 to the start field"
    )
    assert "sent" not in board.replies([step])  # told one by one, the narration already says it
    assert "P1 (red) cannot pay 8 on the inner lane" in board.step_text(step)
