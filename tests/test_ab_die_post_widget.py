"""The Ab die Post! board without a browser: click buttons, set the dropdown, assert on state and status;
plus the charts (titles, axes, exact hover values), the computer players and ``bench``."""

from __future__ import annotations

import dataclasses
import html
import random
import re
from fractions import Fraction
from pathlib import Path

import ipywidgets as widgets
import plotly.graph_objects as go
import pytest

from rulebook.ab_die_post import (
    CardDrawn,
    DrawCard,
    Fly,
    KeepCard,
    MarbleShaken,
    Move,
    Repair,
    apply,
    bots,
    chance_outcomes,
    charts,
    hand_points,
    legal_moves,
    new_game,
    odds,
    outcome,
    widget,
)
from rulebook.ab_die_post import explorer as explorer_module
from rulebook.markup import STYLESHEET
from rulebook.ui import RuleText


def board_at(state, computer=()):
    return widget.Board(state, seed=3, computer=computer)


def test_refused_fly_names_its_rule_and_changes_nothing():
    board = board_at(new_game(players=3, seed=0), computer=(1, 2))
    before = board.state
    board.fly_button.click()
    assert "Refused by ADP-5.1" in board.status.text and board.state is before
    board.stop_button.click()
    assert "Refused by ADP-C4" in board.status.text


def test_drawing_resolves_the_card_and_computers_take_their_turns():
    board = board_at(new_game(players=3, seed=0), computer=(1, 2))
    board.draw_button.click()
    assert board.state.drawn == 1 and board.state.player == 0 and sum(board.state.hands[0]) == 1
    assert "last card" in board.info.value and "third red 3 (bust)" in board.odds_panel.value
    board.stop_button.click()
    state = board.state
    assert state.player == 0 and state.turn_player == 0 and len(state.history) > 3  # computers drew in between
    assert all(sum(hand) for hand in state.hands[1:])
    board.undo_chance = True  # Undo past the cards drawn: the teaching option (by default it stops there, issue 24.11)
    board.undo()
    assert board.state.drawn == 1 and board.state.player == 0
    board.undo()
    board.undo()
    assert "Nothing to undo" in board.status.text and board.state.history == ()


def test_live_bust_odds_with_two_red_threes_held():
    state = dataclasses.replace(new_game(players=2, seed=0), hands=((0, 0, 2), (0, 0, 0)), pile=(16, 23, 14))
    board = board_at(state)
    assert f"{float(Fraction(14, 53)):.1%}" == "26.4%"
    assert "The next card is a third red 3 (bust): <b>26.4%</b>" in board.odds_panel.value
    assert "Reaching 4 points (to fly) before a bust: <b>100% (certain)</b>" in board.odds_panel.value
    advice = odds.best_stopping_rule("points", 6, 2, (16, 23, 14))
    assert not advice.draw and advice.value_if_stop == 6
    assert (
        "For the most points in hand: <b>stop</b>: stopping keeps 6 points; drawing on ends the turn with "
        f"{float(advice.value_if_draw):.1f} points on average." in board.odds_panel.value
    )


def test_flying_by_click_and_by_dropdown():
    state = dataclasses.replace(new_game(players=2, seed=0), hands=((0, 4, 0), (0, 0, 0)), pile=(16, 19, 16))
    state = apply(apply(state, Fly()), MarbleShaken("blue"))
    board = board_at(state, computer=(1,))
    assert set(board.target_trace.customdata) == {"inner-1-3", "central-1-3", "inner-1-2", "outer-1-3", "central-1-2"}
    assert not board.click_field("outer-1-9") and "No route" in board.status.text
    assert board.click_field("central-1-3")
    assert board.states[1].positions[0] == "central-1-3"
    assert board.states[1].history[-1] == Move(("start", "central-1-1", "central-1-2", "central-1-3"))
    assert board.state.player == 0 and board.state.positions[0] == "central-1-3"  # P2 could only draw
    board.undo_chance = True  # Undo past P2's card: the teaching option (by default it stops there, issue 24.11)
    board.undo()
    assert board.state.phase == "move"
    options = [move for _, move in board.choice.options]
    board.choice.value = next(move for move in options if move.path[-1] == "inner-1-2")
    board.play_button.click()
    assert board.states[1].positions[0] == "inner-1-2"


def test_hurricane_payment_and_keep_through_the_dropdown():
    state = dataclasses.replace(
        new_game(players=2, seed=0),
        hands=((0, 1, 1), (0, 0, 0)),
        pile=(16, 22, 15),
        positions=("central-1-2", "start"),
        phase="marble",
        player=None,
    )
    state = apply(state, MarbleShaken("black"))
    board = board_at(state, computer=(1,))
    assert "hurricane" in board.status.text.lower()
    assert [move for _, move in board.choice.options] == [Repair(0, 1, 1)]  # a 2 or a red 3 alone is less than 4
    board.play_button.click()
    assert board.states[1].hands[0] == (0, 0, 0)
    assert (
        "P1 (red)pays 1 x 2, 1 x red 3 (5 points) for the repairs on the central lane (cost 4); keeps no cards"
        in board.move_log.text
    )
    keep = dataclasses.replace(
        new_game(players=2, seed=0),
        hands=((1, 1, 0), (0, 0, 0)),
        pile=(15, 22, 16),
        phase="keep",
        player=0,
        pending=(0,),
        positions=("outer-1-3", "airport"),
        turn_player=1,
    )
    board = board_at(keep)
    assert [move for _, move in board.choice.options] == [KeepCard(1), KeepCard(2), KeepCard(0)]
    board.choice.value = KeepCard(2)
    board.play_button.click()
    assert board.state.hands[0] == (0, 1, 0) and board.state.flight == 2


def test_a_person_plays_a_whole_game_against_the_computer():
    board = board_at(new_game(players=4, seed=11), computer=(1, 2, 3))
    for _ in range(5000):
        state = board.state
        if outcome(state) is not None:
            break
        points = hand_points(state.hands[0])
        if state.phase == "turn":
            button = (
                board.fly_button
                if (not state.drawn and points >= 8)
                else (board.draw_button if points < 8 else board.stop_button)
            )
            button.click()
        else:
            board.play_button.click()
        assert "Refused" not in board.status.text
    assert outcome(board.state) is not None and "Game over" in board.status.text
    assert len(board.plane_trace.x) == 4 and board.move_log.value.count("<li") == 60


# What must never reach a player: Python reprs and names, code, raw field ids, bare fractions, engine numbering.
PYTHON_TEXT = re.compile(
    r"Fraction\(|[{}]|\bNone\b|computer=|seed=|Config\.|object at 0x|Traceback|\bdef \w"
    r"|\b(?:inner|central|outer)-\d+-\d+\b|\bPlayer \d\b|\b\d+/\d+\b"
)


def shown_texts(board):
    """Every text the board shows: status, the choice list and its label, panels, log, figure hovers and labels,
    button captions and tooltips."""

    def read(text):
        return html.unescape(re.sub(r"<[^>]+>", " ", text))

    texts = [board.status.text, board.move_log.text, read(board.info.value), read(board.odds_panel.value)]
    texts.append(read(board.players_panel.value))
    texts += [read(board.choice_label.value), *board.log_box.titles, board.figure.plot.layout.title.text]
    texts += [label for label, _ in board.choice.options]
    for trace in board.figure.plot.data:
        for values in (trace.hovertext, trace.text):
            texts += [values] if isinstance(values, str) else [str(value) for value in values or ()]
        texts.append(trace.name or "")
    buttons = (board.draw_button, board.stop_button, board.fly_button, board.stay_button, board.play_button)
    texts += [f"{button.description} {button.tooltip}" for button in (*buttons, board.undo_button)]
    return texts


def play_on(board, rng):
    """One person's action, mixing every way to play: buttons, field clicks (good and bad), the list, Stay."""
    state = board.state
    if state.phase == "turn":
        points = hand_points(state.hands[0])
        if rng.random() < 0.1:
            board.fly_button.click() if points < 4 else board.stop_button.click()  # refused now and then
        if not state.drawn and points >= 6:
            board.fly_button.click()
        else:
            (board.draw_button if points < 6 else board.stop_button).click()
    elif state.phase == "move":
        choice = rng.random()
        if choice < 0.2:
            board.click_field("outer-3-16")  # rarely a target: explained, not played
        if choice < 0.6 and board.target_trace.customdata:
            board.click_field(rng.choice(board.target_trace.customdata))
        elif choice < 0.75:
            board.stay_button.click()
        else:
            board.play_button.click()
    else:
        board.play_button.click()


@pytest.mark.parametrize("players", [2, 4, 6])
def test_nothing_of_python_shows_in_a_played_game(players):
    board = board_at(new_game(players=players, seed=players), computer=range(1, players))
    rng = random.Random(players)
    seen = set()
    for _ in range(3000):
        for text in shown_texts(board):
            found = PYTHON_TEXT.search(text)
            assert found is None, f"{found.group(0)!r} shown in: {text}"
            seen.update(word for word in ("Refused by", "lane, section", "%", "Hurricane!") if word in text)
        if outcome(board.state) is not None:
            break
        play_on(board, rng)
    assert outcome(board.state) is not None
    assert {"Refused by", "lane, section", "%"} <= seen  # the texts that used to show ids and fractions were seen


def test_the_engine_text_is_said_in_players_words():
    track = new_game(players=2, seed=0).track
    assert (
        widget.say(track, "P1 (red): fly 3 fields to inner-1-2 via central-1-1 > inner-1-1; then P2")
        == "P1 (red): fly 3 fields to the inner lane, section 1, field 2 via the central lane; then P2"
    )
    assert widget.say(track, "Player 2 stays on start.") == "P2 (blue) stays on the start field."
    assert widget.say(track, "Player 1 flies 4 fields to airport.") == "P1 (red) flies 4 fields to the airport."
    assert widget.say(track, "the route must start at player 1's plane on outer-1-10") == (
        "the route must start at P1 (red)'s plane on the outer lane, section 1, field 10"
    )
    assert widget.percent(Fraction(14, 53)) == "26.4%" and widget.percent(Fraction(0)) == "0% (no chance)"
    # two routes to one field differ by the passenger card (ADP-8.1): the list says which one picks it up
    state = dataclasses.replace(new_game(players=2, seed=0), positions=("central-2-3", "start"), phase="marble")
    board = board_at(apply(dataclasses.replace(state, player=None), MarbleShaken("yellow")), computer=(1,))
    labels = [label for label, _ in board.choice.options]
    assert len(set(labels)) == len(labels)
    passenger = "fly 5 fields to the outer lane, section 2, field 11 via the central lane, picking up the passenger"
    assert passenger in labels
    assert "fly 5 fields to the outer lane, section 2, field 11 via the central lane" in labels
    assert "fly here: the outer lane, section 2, field 11" in board.target_trace.hovertext
    assert board.click_field("outer-2-11") and board.states[1].passenger == 0  # a click takes the passenger route
    assert (
        "flies 5 fields from the central lane, section 2, field 3 to the outer lane, section 2, field 11 "
        "and picks up the passenger" in board.move_log.text
    )


def test_a_finished_game_switches_off_the_move_controls_and_states_the_scores():
    board = board_at(new_game(players=3, seed=5), computer=(1, 2))
    greedy = bots.BOTS["greedy"]
    while outcome(board.state) is None:
        assert board.play(greedy(board.state, board.rng))
    result = outcome(board.state)
    moves = [board.draw_button, board.stop_button, board.fly_button, board.stay_button, board.choice, board.play_button]
    assert all(control.disabled for control in moves) and board.undo_button.disabled  # finished (issue 48.9)
    controls = {id(control) for control in board.move_controls()}
    assert {id(control) for control in moves} <= controls <= {id(control) for control in [*moves, board.undo_button]}
    scores = ", ".join(f"{widget.player_label(p)} {score}" for p, score in enumerate(result.scores))
    winner = widget.player_label(result.winners[0])
    assert f"Game over: {winner} wins with {max(result.scores)} points" in board.status.text
    assert f"Scores: {scores}." in board.status.text
    finished = board.state
    assert board.figure.click("fields", board.field_trace.customdata[0])  # a click on the track
    assert board.state is finished and "The game is over" in board.status.text
    board.draw_button.click()
    board.play_choice()
    assert board.state is finished and len(board.states) > 1
    board.undo()  # a finished game is finished: Undo is refused too (issue 48.9)
    assert board.state is finished and "The game is over" in board.status.text


def test_the_board_fits_beside_the_app_side_panel():
    board = board_at(new_game(players=6, seed=1), computer=range(1, 6))
    row = board.children[1]
    track, column = row.children
    figure, legend = track.children
    drawn = figure.plot.layout
    assert figure is board.figure and drawn.width <= 500 and drawn.height <= 500
    assert legend is board.legend and "orange rings" in legend.value and "P1 (red)" in legend.value
    assert drawn.width + int(column.layout.width.removesuffix("px")) <= 880
    inside = [board.draw_button, board.stop_button, board.fly_button, board.stay_button, board.choice]
    inside += [board.play_button, board.undo_button, board.players_panel, board.info, board.odds_panel]
    boxes = [child for child in column.children if isinstance(child, widgets.HBox)]
    flat = [child for child in column.children if not isinstance(child, widgets.HBox)]
    assert {id(c) for c in inside} <= {id(c) for c in flat + [b for box in boxes for b in box.children]}
    # the log folds away under the board, and it is still the board's RuleText (rule ids stay links)
    assert board.children == (board.status, row, board.log_box) and board.log_box.selected_index is None
    assert isinstance(board.move_log, RuleText)
    assert board.log_box.children[0].children == (board.history_bar, board.move_log)
    assert board.status.layout.max_width == "880px" and board.layout.max_width == "880px"


def test_track_figure_and_charts_have_titles_axes_and_exact_hover():
    track_figure = widget.track_figure(new_game(players=2, seed=0).track)
    assert isinstance(track_figure, go.Figure) and track_figure.layout.title.text
    bust = charts.bust_chart(max_draws=5)
    assert bust.layout.xaxis.title.text and bust.layout.yaxis.title.text and bust.layout.width <= 900
    assert bust.data[2].hovertext[1] == "1 more card with 2 red 3s held: a bust with chance 16/55 (29.1 %)"
    assert odds.reach_probability(10) == Fraction(605, 689)
    assert charts.reach_chart(10).data[0].hovertext[9].endswith("with chance 605/689 (87.8 %)")
    for figure in (
        charts.reach_chart(10),
        charts.expected_points_chart(5),
        charts.stopping_chart(max_reds=4),
        charts.hurricane_chart(),
        charts.distance_chart(),
        charts.survival_chart(4),
        charts.track_graph_chart(),
        charts.threshold_chart({6: Fraction(1, 4)}, games=4),
    ):
        assert figure.layout.title.text and figure.layout.width <= 900 and len(figure.data) >= 1
    hurricane = charts.hurricane_chart()
    assert hurricane.data[0].y[2] == pytest.approx(float(odds.hurricane_probability(4)))


def test_threshold_bot_draws_to_its_target_and_bots_finish_games():
    rng = random.Random(0)
    bot = bots.make_threshold_player(7)
    state = dataclasses.replace(new_game(players=2, seed=0), hands=((0, 3, 0), (0, 0, 0)), pile=(16, 20, 16))
    assert bot(state, rng) == DrawCard()  # 6 points, target 7
    assert bot(dataclasses.replace(state, hands=((0, 4, 0), (0, 0, 0)), pile=(16, 19, 16)), rng) == Fly()
    final = bots.play_game([bots.make_threshold_player(6), bots.random_player], seed=4)
    assert outcome(final) is not None and max(final.scores) >= 15
    rates = bots.threshold_study(thresholds=(5, 9), games=2, players=3, seed=1)
    assert set(rates) == {5, 9} and all(0 <= rate <= 1 for rate in rates.values())


def test_bench_reports_the_figures():
    from rulebook import study
    from rulebook.ab_die_post import bench
    from tests.soak import SOAK

    # the strong player's study only in `make soak` (seconds for 4 games; its strength: test_ab_die_post_explorer.py)
    figures = bench.bench(games_per_threshold=1, seconds=0.05, strong_games=4, study=study.run if SOAK else None)
    # Odds values: 56 draw counts and, per hand of 0-20 points, 30 targets and one stopping rule, for 0, 1, 2 red 3s.
    assert figures["exact odds values computed"] == 3 * 56 + sum(31 * (21 - 3 * reds) for reds in (0, 1, 2))
    assert figures["threshold study games"] == 9 and 4 <= figures["best threshold (points before flying)"] <= 12
    assert figures["random 4-player games per second"] > 0
    if SOAK:
        assert figures["strong against greedy, 2 players, 4 games: win rate"].startswith("100.0% (")
        assert 0 <= figures["strong move CPU, median (ms)"] <= figures["strong move CPU, slowest (ms)"]
    else:
        assert not [name for name in figures if name.startswith("strong")]


# --- clicks on the board's picture, its HTML and its stylesheet ---------------------------------------------------


def test_a_click_on_the_ring_at_the_airport_flies_there():
    # two fields to go on the inner lane, a blue marble (3 fields): the only route ends at the airport
    state = dataclasses.replace(
        new_game(players=2, seed=0), hands=((0, 4, 0), (0, 0, 0)), pile=(16, 19, 16), positions=("inner-3-3", "start")
    )
    board = board_at(apply(apply(state, Fly()), MarbleShaken("blue")), computer=(1,))
    assert list(board.target_trace.customdata) == ["airport"]
    assert board.figure.click("legal targets", "airport")
    assert board.states[1].positions[0] == "airport" and "to the airport" in board.move_log.text


def test_a_click_on_the_hint_s_star_flies_the_suggested_route():
    state = dataclasses.replace(new_game(players=2, seed=0), hands=((0, 4, 0), (0, 0, 0)), pile=(16, 19, 16))
    board = board_at(apply(apply(state, Fly()), MarbleShaken("yellow")), computer=(1,))
    move = board.hint()
    assert isinstance(move, Move) and list(board.hint_trace.customdata) == ["start", *move.path[1:]]
    # the star stands on the ring of its field, drawn above it: a click there is a click on that field
    assert board.figure.click("suggested move (Hint)", move.path[-1])
    assert board.states[1].history[-1] == move


def test_the_board_s_html_comes_from_templates_and_escapes_what_it_shows():
    board = board_at(new_game(players=3, seed=0), computer=(1, 2))
    board.draw_button.click()
    explorer = widget.Explorer(board)
    shown = [board.players_panel.value, board.info.value, board.odds_panel.value, board.choice_label.value]
    shown += [explorer.heading.value, explorer.result.value]
    assert all(text and "style=" not in text for text in shown)
    assert '<td title="0 of 15 points">0</td>' in board.players_panel.value
    assert '<span class="rb-adp-glyph rb-adp-seat-1">\u25a0</span> P2 (blue)' in board.players_panel.value
    # what the engine says reaches the page escaped: an event with markup in it is text, not HTML
    board.states[-1] = dataclasses.replace(board.state, events=("<b>a hurricane</b> & more",))
    board.redraw()
    assert "<li>&lt;b&gt;a hurricane&lt;/b&gt; &amp; more</li>" in board.info.value
    assert widget.Explorer is explorer_module.Explorer


def css_rules(prefix: str) -> dict[str, dict[str, str]]:
    """The stylesheet's rules for the classes starting with ``prefix``: class -> {property: value}."""
    text = re.sub(r"/\*.*?\*/", "", STYLESHEET.read_text(encoding="utf-8"), flags=re.S)
    rules: dict[str, dict[str, str]] = {}
    for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", text):
        for name in re.findall(rf"\.({re.escape(prefix)}[\w-]+)(?![\w-])", selector):
            declarations = (part.split(":", 1) for part in body.split(";") if ":" in part)
            rules.setdefault(name, {}).update({key.strip(): value.strip() for key, value in declarations})
    return rules


def test_the_stylesheet_s_colours_are_the_board_s_and_every_class_used_is_styled():
    rules = css_rules("rb-adp-")
    assert [rules[f"rb-adp-seat-{seat}"]["color"] for seat in range(6)] == list(widget.PLAYER_FILL)
    assert {name: rules[f"rb-adp-marble-{name}"]["color"] for name in widget.MARBLE_FILL} == widget.MARBLE_FILL
    used = set()  # every class a template names; "rb-adp-seat-*" where the template fills the end in
    for template in (Path(widget.__file__).parent / "templates").glob("*.html"):
        for classes in re.findall(r'class="([^"]*)"', template.read_text(encoding="utf-8")):
            used.update(re.sub(r"\{\{.*?\}\}", "*", classes).split())
    shared = set(css_rules("rb-"))
    styled = {name for name in used if name in shared or any(s.startswith(name.rstrip("*")) for s in shared)}
    assert {"rb-adp-seat-*", "rb-adp-marble-*", "rb-mj-players"} <= used and used == styled, used - styled


def panel_rows(board) -> list[list[str]]:
    """The players panel as a player reads it: each player's cells, tags dropped, spaces joined."""
    rows = re.findall(r"<tr(?: class=\"rb-mj-to-move\")?>\s*(<td.*?)</tr>", board.players_panel.value, re.S)
    return [
        [
            " ".join(html.unescape(re.sub(r"<[^>]*>", " ", cell)).split())
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        for row in rows
    ]


def test_the_players_panel_tells_scores_places_open_hands_and_the_passenger():
    start = new_game(players=3, seed=0)
    field = next(f for f in start.track.graph if start.track.lane.get(f) == "central")
    data = start.track.graph.nodes[field]
    state = dataclasses.replace(
        start,
        hands=((2, 1, 1), (0, 0, 0), (0, 3, 2)),
        positions=("start", field, "start"),
        scores=(4, 7, 0),
        passenger=1,
    )
    board = board_at(state, computer=(1, 2))
    first, second, third = panel_rows(board)
    assert first == ["▶ ▲ P1 (red)", "4", "start field", "4: 1 1 2 3", "7", ""]
    assert second == ["■ P2 (blue)", "7", f"central {data['section']}·{data['step']}", "0", "0", "✉"]
    assert third == ["◆ P3 (yellow)", "0", "start field", "5: 2 2 2 3 3", "12", ""]
    assert board.players_panel.value.count('class="rb-mj-to-move"') == 1
    assert '3: 1 1 2 <span class="rb-adp-marble-red">3</span>' not in board.players_panel.value
    assert '4: 1 1 2 <span class="rb-adp-marble-red">3</span>' in board.players_panel.value
    assert "played by the computer" in board.players_panel.value and "of 15 points" in board.players_panel.value


def test_no_text_of_the_board_is_under_11_px_and_field_numbers_give_way_to_planes():
    board = board_at(new_game(players=4, seed=1), computer=(1, 2, 3))
    sizes = [t.textfont.size for t in board.figure.plot.data if t.textfont and t.textfont.size is not None]
    sizes += [a.font.size for a in board.figure.plot.layout.annotations]
    sizes += [board.figure.plot.layout.legend.font.size, board.figure.plot.layout.title.font.size]
    assert sizes and min(sizes) >= 11, sizes
    fields = board.field_trace
    assert all(text for field, text in zip(fields.customdata, fields.text) if field not in board.state.positions)
    moved = dataclasses.replace(board.state, positions=(fields.customdata[0],) + board.state.positions[1:])
    board.states[-1] = moved
    board.redraw()
    assert board.field_trace.text[0] == "" and all(board.field_trace.text[1:])


def test_a_click_on_the_hint_s_star_round_the_plane_plays_the_suggested_move():
    board = board_at(new_game(players=3, seed=0), computer=(1, 2))
    move = board.hint()
    assert move == DrawCard()  # nothing in hand: draw
    here = board.state.positions[0]
    assert list(board.hint_trace.customdata) == [here]
    assert board.figure.click("suggested move (Hint)", here)
    assert board.states[1].history[-2] == move and isinstance(board.states[1].history[-1], CardDrawn)


def test_a_click_on_the_airport_s_square_a_ghost_or_a_plane_is_a_click_on_that_field():
    """The page gives a click to the nearest mark that answers hover: each such trace is a field's click."""
    rng = random.Random(1)
    state = new_game(players=3, seed=1)
    while not (
        state.player == 0
        and state.phase == "move"
        and state.direction == 1
        and any(isinstance(m, Move) and m.path[-1] == "airport" for m in legal_moves(state))
    ):
        outcomes = chance_outcomes(state)
        if outcomes:
            moves, weights = zip(*outcomes)
            state = apply(state, rng.choices(moves, [float(w) for w in weights])[0])
        else:
            state = apply(state, bots.BOTS["greedy"](state, rng))
    board = board_at(state, computer=(1, 2))
    clickable = set(board.figure.clickable) if hasattr(board.figure, "clickable") else set(widget.CLICKABLE)
    assert set(widget.CLICKABLE) <= clickable
    assert board.figure.click("start / airport", "airport")
    flown = board.state.history[len(state.history)]
    assert isinstance(flown, Move) and flown.path[-1] == "airport"
    board.undo()
    assert board.state.history == state.history
    here = board.state.positions[0]
    assert board.figure.click("planes", here)  # the person's own plane: no route ends there, said in words
    assert "No route of this marble ends" in board.status.text


def test_the_track_s_legend_keeps_its_entries_between_moves():
    """The figure's legend lists the track's parts only: an entry that came and went with a move's marks would make
    the legend a row taller and shrink the track (the HTML legend under it tells the marks)."""
    board = board_at(new_game(players=3, seed=0), computer=(1, 2))

    def entries():
        return [t.name for t in board.figure.plot.data if t.showlegend is not False and t.name and t.x]

    first = entries()
    assert "inner lane" in first and "start / airport" in first
    for _ in range(12):
        board.hint()
        if board.hinted is None:
            break
        board.play(board.hinted)
        assert entries() == first
