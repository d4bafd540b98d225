"""The live board without a browser: clicks and buttons reach the engine, refusals show the rule id."""

from __future__ import annotations

import dataclasses
import html
import itertools
import re
from pathlib import Path

import ipywidgets as widgets
import pytest

from rulebook import meetjesland as mj
from rulebook.meetjesland.widget import Board
from rulebook.views import trace


def after_setup(computer=(1, 2, 3)) -> Board:
    table = Board(mj.new_game(players=4, seed=1), seed=1, computer=computer)
    table.auto_button.click()
    assert table.state.phase == "play" and table.state.turn == 0
    return table


def test_setup_by_clicks_and_place_button():
    table = Board(mj.new_game(players=4, seed=2), seed=2)
    own = table.state.territories_of(0)[0]
    left = table.state.to_place
    table.select(own)
    assert table.origin_menu.value == own
    table.amount.value = 2
    table.place_button.click()
    assert table.state.points_on(own) == 4 and table.state.to_place == left - 2
    assert f"White: places 2 points on {table.state.board.name(own)}" in table.status.text


def test_refused_move_shows_the_rule_not_a_traceback():
    table = after_setup()
    foreign = next(t for t in table.state.board.territories if table.state.owner_of(t) != 0)
    before = table.state
    table.origin_menu.value = foreign
    table.place_button.click()
    assert table.state == before
    assert "Refused by MJ-4.5" in table.status.text  # extra points go on territories already held


def test_attack_with_clicks_and_roll_to_the_end():
    table = after_setup()
    state = table.state
    origin, target = next(
        (o, t)
        for o in state.territories_of(0)
        for t in state.board.neighbours[o]
        if state.owner_of(t) != 0 and state.points_on(o) >= 2
    )
    table.select(origin)
    table.select(target)
    assert (table.origin, table.target) == (origin, target)
    rings = list(trace(table.figure.plot, "highlight").marker.size)
    assert rings[state.board.index[origin]] > 0 and rings[state.board.index[target]] > 0  # highlighted
    assert table.stake.value == table.stake.max == state.points_on(origin) - 1  # the most it may stake, unasked
    assert f"Chance to take {state.board.name(target)}" in table.odds.value
    table.attack_button.click()
    assert table.state.last_dice is not None or table.state.battle is None
    assert "Dice" in table.dice.value
    table.blitz_button.click()
    assert table.state.battle is None
    assert any(isinstance(m, mj.Attack) for m in table.state.history)


def test_undo_reinforce_and_end_turn_lets_computers_play():
    table = after_setup()
    history = len(table.state.history)
    table.reinforce_button.click()
    assert table.state.stage == "reinforce" and table.state.to_place >= 3
    table.undo_button.click()
    assert len(table.state.history) == history and table.state.stage == "start"
    table.reinforce_button.click()
    own = table.state.territories_of(0)[0]
    table.select(own)
    table.amount.value = table.state.to_place
    table.place_button.click()
    table.end_button.click()
    assert table.state.turn == 0 or mj.outcome(table.state) is not None  # three computer turns were played
    assert len(table.state.history) > history + 3
    assert "move log" not in table.move_log.value and "<li" in table.move_log.value


def test_map_shows_owner_and_points():
    table = after_setup()
    points = trace(table.figure.plot, "territories")
    assert list(points.text) == [str(p) for p in table.state.points]
    assert len(set(points.marker.symbol)) == 4


def test_a_person_plays_a_whole_game_through_the_board():
    """Seat 0 is driven through the widget (moves chosen like the greedy player would); the rest are computers."""
    import random

    from rulebook.meetjesland.bots import greedy_player

    table = Board(mj.new_game(players=4, seed=5), seed=5, computer=(1, 2, 3))
    table.auto_button.click()
    chooser = random.Random(0)
    for _ in range(3000):
        if mj.outcome(table.state) is not None:
            break
        assert table.state.player == 0
        assert table.play(greedy_player(table.state, chooser)), table.status.text
    result = mj.outcome(table.state)
    assert result is not None
    assert "Game over" in table.status.text and all(b.disabled for b in (table.attack_button, table.end_button))


def test_territory_names_are_placed_next_to_their_point_without_covering_each_other():
    """At 11 px every name touches the room round its own point (at most 44 px from it), covers no piece's square
    and no other name, and lies inside the map."""
    from rulebook.meetjesland import labels
    from rulebook.meetjesland.widget import MAP_HEIGHT, MAP_WIDTH

    layout = labels.map_labels("meetjesland", MAP_WIDTH, MAP_HEIGHT)
    names, points = layout.names, layout.points
    assert [name.territory for name in names] == list(mj.load_board().territories)
    for i, name in enumerate(names):
        assert labels.gap(points[i], name.box) <= 44.5, name.territory
        assert layout.geometry.inside(name.box), name.territory
        squares = [(x - labels.PIECE, y - labels.PIECE, x + labels.PIECE, y + labels.PIECE) for x, y in points]
        assert all(labels.overlap(name.box, square) == 0 for square in squares), name.territory
        for text, x, y in name.lines:  # each line fits its box at the width Arial gives it
            half = labels.text_width(text) / 2
            assert name.box[0] - 0.01 <= x - half and x + half <= name.box[2] + 0.01, text
    clashes = [(a.territory, b.territory) for a, b in itertools.combinations(names, 2) if labels.overlap(a.box, b.box)]
    assert clashes == []


def test_a_lone_name_goes_below_its_point():
    from rulebook.meetjesland import labels

    layout = labels.MapLabels(labels.Geometry(500, 500, 10.0, (0.0, 0.0)), ((250.0, 250.0),))
    best = labels._places(layout, 0, labels.name_forms("Eeklo"))[0]
    assert best.lines == ("Eeklo",) and best.box[1] > 250 + labels.PIECE  # below (y grows downwards)
    assert (best.box[0] + best.box[2]) / 2 == pytest.approx(250)  # and centred under it


@pytest.mark.parametrize(
    "attacker, defender, says",
    [  # counted by hand: highest against highest, then second against second; a tie goes to the defender
        ((2,), (4, 3), "The attacker loses 1."),
        ((6, 5, 1), (5, 2), "The defender loses 2."),
        ((6, 2), (5, 2), "The attacker loses 1 and the defender loses 1 (a tie goes to the defender)."),
        ((3,), (3,), "The attacker loses 1 (a tie goes to the defender)."),
    ],
)
def test_the_dice_line_says_what_the_roll_cost(attacker, defender, says):
    from rulebook.meetjesland.widget import dice_html

    assert dice_html(mj.Dice(attacker, defender)).endswith(f"{says}</span>")


# -- what a player sees: the board fits the app's box, shows no Python, and stops at the end of the game ----------

PYTHON_LOOKS = re.compile(
    r"Fraction\(|[{}\[\]]|\bNone\b|\bTrue\b|\bFalse\b|computer=|seed=|Config\.|Traceback|\(\)|self\.|rulebook"
    r"|\b[A-Z][A-Za-z]*\(|\b[a-z]+_[a-z_]+\b|\d\.\d{3,}"  # reprs, ids like zelzate_west, unrounded numbers
)


def visible_texts(table: Board) -> list[str]:
    """Every text of the board a player can read: status, panels, legend, log, options, labels, tooltips, map."""

    def plain(text: str) -> str:
        return html.unescape(re.sub(r"<[^>]*>", " ", text))

    texts = [table.status.text, plain(table.move_log.value), plain(table.status.detail)]
    stack = list(table.children)
    while stack:
        child = stack.pop()
        if isinstance(child, (widgets.Box, widgets.Accordion)):
            stack.extend(child.children)
            texts += [str(title) for title in getattr(child, "titles", ())]
        if isinstance(child, widgets.HTML):
            texts.append(plain(child.value))
        texts += [str(getattr(child, name, "") or "") for name in ("description", "tooltip", "placeholder")]
        if isinstance(child, (widgets.Dropdown, widgets.SelectMultiple)):
            texts += [str(label) for label, _ in child.options]
    figure = table.figure
    texts += [plain(text) for text in trace(figure.plot, "territories").hovertext]
    texts += [str(name) for name in trace(figure.plot, "names").text]
    return [text for text in texts if text]


def python_in(table: Board) -> list[str]:
    return [text for text in visible_texts(table) if PYTHON_LOOKS.search(text)]


def test_the_python_detector_finds_what_it_is_for():
    """The checks below are only as good as this pattern: it must catch the leaks it names."""
    for leak in (
        "Fraction(1, 6)",
        "{'a': 1}",
        "None",
        "computer=(1, 2)",
        "Config.move_limit",
        "Attack(origin=",
        "zelzate_west",
        "0.10648",
        "()",
    ):
        assert PYTHON_LOOKS.search(leak), leak
    for fine in (
        "Chance to take Eeklo with 3 against 2: 65.6 %",
        "Zelzate-West",
        "Refused by MJ-5.2: Eeklo is not yours",
        "Hand: no cards",
        "Game over: White wins (white holds the whole Meetjesland).",
    ):
        assert not PYTHON_LOOKS.search(fine), fine


@pytest.fixture(scope="module")
def played() -> tuple[Board, list[tuple[str, str]]]:
    """A whole game with seat 0 played through the board's own controls; every text shown on the way that looks
    like Python is kept with the moment it was seen."""
    import random

    from rulebook.meetjesland.bots import greedy_player

    table = Board(mj.new_game(players=4, seed=5), seed=5, computer={1: "greedy", 2: "greedy", 3: "greedy"})
    seen = [("start", text) for text in python_in(table)]
    aimed: list[str] = []
    table.auto_button.click()
    chooser = random.Random(0)
    for step in range(3000):
        if mj.outcome(table.state) is not None:
            break
        if step % 25 == 0:  # a few refusals on the way: buttons pressed with nothing chosen
            table._set(None, None)
            before = table.state
            for button in (table.trade_button, table.place_button, table.move_button, table.attack_button):
                button.click()
                seen += [(f"{button.description} with nothing chosen", text) for text in python_in(table)]
            assert table.state is before
        move = greedy_player(table.state, chooser)
        if isinstance(move, mj.Attack):  # aim with clicks, as a person does, so the odds line shows
            table.select(move.origin)
            table.select(move.target)
            table.stake.value = move.stake
            seen += [(f"aiming {move}", text) for text in python_in(table)]
            aimed.append(table.odds.value)
        assert table.play(move), table.status.text
        seen += [(f"after {move}", text) for text in python_in(table)]
    assert mj.outcome(table.state) is not None
    seen += [("game over", text) for text in python_in(table)]
    assert any("Chance to take" in odds and "%" in odds for odds in aimed)  # the odds were read on the way
    assert len(visible_texts(table)) > 100  # the map's hover texts among them
    return table, seen


def test_no_text_of_a_played_game_shows_python(played):
    _, seen = played
    assert seen == []


def test_a_finished_game_says_who_won_and_switches_off_every_move_control(played):
    table, _ = played
    result = mj.outcome(table.state)
    winner = mj.PLAYER_COLOURS[result.winners[0]].capitalize()
    assert table.prompt().startswith(f"Game over: {winner} wins (")
    assert f"Game over: {winner} wins (" in table.status.text
    controls = table.move_controls()
    assert {table.attack_button, table.end_button, table.cards, table.origin_menu, table.stake} <= set(controls)
    assert all(control.disabled for control in controls)
    assert table.undo_button.disabled  # a finished game is finished (issue 48.9)
    before = table.state
    territory = table.state.board.territories[0]
    assert table.figure.click("territories", territory)  # a click on the map
    assert table.state is before and table.origin != territory or table.origin is None
    assert "The game is over" in table.status.text
    assert not table.play(mj.EndTurn()) and table.state is before


def test_undo_after_the_end_is_refused_and_the_controls_stay_off(played):
    table, _ = played
    finished = table.state
    table.undo()  # a finished game is finished (issue 48.9)
    assert table.state is finished and mj.outcome(table.state) is not None
    assert "The game is over" in table.status.text and table.end_button.disabled and table.undo_button.disabled


def test_the_board_fits_the_app_box_with_its_controls_beside_the_map():
    """The app gives a board 880 x 680 px: the map and the controls column side by side, the log folded below."""
    from rulebook.meetjesland.widget import COLUMN_WIDTH, MAP_HEIGHT, MAP_WIDTH

    table = after_setup()
    status, row, log_box = table.children
    assert status is table.status
    map_column, controls = row.children
    assert table.figure in map_column.children and table.undo_button in {
        button for child in controls.children for button in getattr(child, "children", (child,))
    }
    px = lambda value: int(str(value).removesuffix("px"))  # noqa: E731
    assert (table.figure.plot.layout.width, table.figure.plot.layout.height) == (MAP_WIDTH, MAP_HEIGHT)
    assert px(map_column.layout.width) + px(controls.layout.width) + 8 <= 880
    assert MAP_HEIGHT + 60 + 90 <= 680  # status (three lines) and legend (five lines at 11 px) around the map
    for child in controls.children:
        for control in getattr(child, "children", (child,)):
            width = control.layout.width
            assert width is None or px(width) <= COLUMN_WIDTH // (len(getattr(child, "children", ())) or 1)
    assert isinstance(log_box, widgets.Accordion) and log_box.selected_index is None  # folded


def test_odds_say_when_the_chosen_territory_cannot_attack():
    import dataclasses

    table = after_setup()
    state = table.state
    origin, target = next(
        (o, t) for o in state.territories_of(0) for t in state.board.neighbours[o] if state.owner_of(t) != 0
    )
    points = list(state.points)
    points[state.board.index[origin]] = 1
    table.states.append(dataclasses.replace(state, points=tuple(points)))
    table.select(origin)
    table.select(target)
    assert "cannot attack" in table.odds.value and "%" not in table.odds.value


def test_chance_to_conquer_is_a_percentage_with_one_decimal():
    table = after_setup()
    state = table.state
    origin, target = next(
        (o, t)
        for o in state.territories_of(0)
        for t in state.board.neighbours[o]
        if state.owner_of(t) != 0 and state.points_on(o) >= 2
    )
    table.select(origin)
    table.select(target)
    assert re.search(r": \d{1,3}\.\d %$", re.sub(r"<[^>]*>", "", table.odds.value)), table.odds.value


def test_trading_with_no_card_chosen_asks_for_cards_without_reaching_the_engine():
    table = after_setup()
    before = table.state
    table.trade_button.click()
    assert table.state is before
    assert "Choose the cards to trade" in table.status.text


# -- the map on a BoardView, the texts through templates --------------------------------------------------------


def test_the_board_sends_the_map_its_plot_holds_after_every_move():
    import plotly.graph_objects as go

    from rulebook.views import BoardView, plotly_json

    table = Board(mj.new_game(players=4, seed=1), seed=1, computer=(1, 2, 3))
    view = table.figure
    assert isinstance(view, BoardView) and isinstance(view.plot, go.Figure)
    before = view.revision
    table.auto_button.click()  # the person's starting points, and three computer turns
    assert view.revision > before and view.figure == plotly_json(view.plot)
    sent = {drawn["name"]: drawn for drawn in view.figure["data"]}
    assert len(sent) == len(view.figure["data"]) == 15  # every layer of the map has its own name
    assert sent["territories"]["text"] == [str(p) for p in table.state.points]
    assert sent["territories"]["customdata"] == list(table.state.board.territories)  # each point's id
    drawn = view.revision
    table.redraw()  # the same position: nothing is sent
    assert view.revision == drawn


def test_the_board_texts_come_from_templates_with_classes_not_inline_styles():
    table = after_setup()
    table.select(table.state.territories_of(0)[0])
    table.attack_button.click()  # refused or played: either way the panels are drawn
    for shown in (table.legend.value, table.mission.value, table.hand.value, table.news.value, table.odds.value):
        assert "style=" not in shown
    assert 'class="rb-mj-chip rb-mj-player-0">white</span>' in table.mission.value
    assert 'class="rb-mj-region rb-mj-region-mauve">mauve</span>' in table.legend.value


def test_what_the_widget_shows_is_escaped():
    from rulebook.meetjesland import explorer
    from rulebook.meetjesland.widget import player_chip

    assert explorer.note("<b>bold</b> & more") == '<div class="rb-small">&lt;b&gt;bold&lt;/b&gt; &amp; more</div>'
    table = after_setup()
    view = explorer.Explorer(table)
    view.typed.value = "3, <script>"
    assert "&lt;script&gt;" in view.chain_result.value and "<script>" not in view.chain_result.value
    assert player_chip(1) == '<span class="rb-mj-chip rb-mj-player-1">black</span>'


def test_no_html_is_built_in_python_and_no_figure_widget_remains():
    """The board's and the explorer's HTML comes from templates; the figures from rulebook.views (issue 22.3-22.4)."""
    from pathlib import Path

    import rulebook.meetjesland as package

    folder = Path(package.__file__).parent
    for name in ("widget.py", "explorer.py", "charts.py"):
        source = (folder / name).read_text(encoding="utf-8")
        found = re.findall(r"<(?:div|span|ol|li|b|br|i|small)\b|\bstyle=['\"]|html\.escape", source)
        assert [tag for tag in found if tag != "<br"] == [], (name, found)  # a <br> in hover text is plotly's own
        for legacy in ("BoardFigure", "ChartFigure", "settle_figure", "FigureWidget", ".data[", "_js2py", "_py2js"):
            assert legacy not in source, (name, legacy)


# -- issue 26: the stake's default and its chance, the players panel, the hover text, the status line's height ----


def arranged(territories: dict[str, tuple[int, int]], **changes) -> mj.State:
    fields = {"to_place": 0, "stage": "start", "turn": 0} | changes
    return mj.arrange(mj.new_game(4, seed=0), territories, **fields)


def test_the_stake_starts_at_the_most_the_origin_may_stake_and_a_choice_stays_for_its_target():
    from fractions import Fraction

    from rulebook.meetjesland import odds

    # Kaprijke (White, 6) borders Eeklo and Bassevelde (Black); Lembeke (White, 4) borders Eeklo too
    state = arranged({"kaprijke": (0, 6), "eeklo": (1, 2), "bassevelde": (1, 3), "lembeke": (0, 4)})
    table = Board(state)
    table.select("kaprijke")
    table.select("eeklo")
    assert (table.stake.value, table.stake.max) == (5, 5)
    exact = odds.win_probability(5, 2, exact=True)
    assert isinstance(exact, Fraction)
    told = re.sub(r"<[^>]*>", "", table.odds.value)
    assert told == f"Chance to take Eeklo with 5 against 2: {float(exact) * 100:.1f} %"
    table.stake.value = 2  # the player's own choice: the odds follow at once
    assert re.sub(r"<[^>]*>", "", table.odds.value).startswith("Chance to take Eeklo with 2 against 2: ")
    table.select("bassevelde")  # another target from the same origin: the stake chosen stays
    assert table.stake.value == 2 and "Bassevelde with 2 against 3" in table.odds.value
    table.select("lembeke")
    table.select("eeklo")  # another origin: its most again
    assert table.stake.value == 3 and "Eeklo with 3 against 2" in table.odds.value


def test_the_chance_during_an_attack_is_for_rolling_on():
    from rulebook.meetjesland import odds
    from rulebook.meetjesland.widget import percent

    # an attack under way after a first roll: Kaprijke's 5 staked, Eeklo down to 3 of its 4 points
    state = arranged({"kaprijke": (0, 1), "eeklo": (1, 3)}, stage="conquer")
    state = dataclasses.replace(state, battle=mj.rules.Battle("kaprijke", "eeklo", 5, rolling=False))
    table = Board(state)
    told = re.sub(r"<[^>]*>", "", table.odds.value)
    assert told == f"Chance to take Eeklo if you roll on: {percent(odds.win_probability(5, 3, exact=True))}"


def test_points_and_stake_stay_inside_their_bounds_and_take_the_keyboard():
    from rulebook.meetjesland.widget import Amount

    control = Amount(value=3, min=1, max=5, description="Stake")
    control.value = 9
    assert control.value == 5
    control.max = 2
    assert control.value == 2
    control.value = -4
    assert control.value == 1
    source = Path(__file__).parents[1].joinpath("rulebook", "meetjesland", "amount.js").read_text(encoding="utf-8")
    assert 'slider.type = "range"' in source  # the browser's own slider: arrows, Home and End, given by a click


def test_a_slider_move_sent_as_a_message_is_the_value_at_once_and_is_not_sent_back(monkeypatch):
    """amount.js sends each move as {value} too: ipywidgets holds a model's next change until the kernel answered
    the one before, so Place pressed right after a second move reached the kernel first and placed the first value
    (make e2e, a busy machine: "places 2 points" where 3 were chosen). The message sets the value as a change from
    the page (not sent back); a value out of bounds is brought inside them and told; anything else changes nothing."""
    from rulebook.meetjesland.widget import Amount

    control = Amount(value=1, min=1, max=5, description="Points")
    sent: list = []
    monkeypatch.setattr(control, "send_state", lambda key=None: sent.append(key))
    control._handle_custom_msg({"value": 3}, [])
    assert control.value == 3 and sent == []
    control._handle_custom_msg({"value": 9}, [])
    assert control.value == 5 and sent
    for malformed in ({"value": "2"}, {"value": True}, {"value": 2.0}, {"other": 2}, [2], None):
        control._handle_custom_msg(malformed, [])
    assert control.value == 5
    source = Path(__file__).parents[1].joinpath("rulebook", "meetjesland", "amount.js").read_text(encoding="utf-8")
    assert "model.send({ value })" in source


def test_the_players_panel_tells_each_player_and_marks_the_one_to_move():
    from rulebook.meetjesland.widget import players_html

    board = mj.load_board()
    yellow = board.regions["yellow"]
    territories = dict.fromkeys(yellow, (2, 3))  # Pink holds the whole yellow region, 3 points on each
    territories |= {t: (1, 1) for t in board.territories if t not in yellow}  # Black the rest, White is out
    state = arranged(territories, turn=2, eliminated_by=(1, None, None, None))
    state = dataclasses.replace(state, hands=((), ("eeklo",), ("brewery", "eeklo"), ()))
    shown = players_html(state, computer=(1,))
    rows = [
        " ".join(html.unescape(re.sub(r"<[^>]*>", " ", row)).split())
        for row in re.split(r"<tr class=[^>]*>", shown)[1:]
    ]
    assert rows[0] == "● white out of the game (put out by black)"
    others = len(board.territories) - len(yellow)
    regions = " ".join(mj.rules.whole_regions(state, 1))  # every region but yellow
    assert regions and "yellow" not in regions
    assert rows[1] == f"■ black {others} {others} 1 {regions} +{mj.reinforcements(others)}"
    assert rows[2] == f"▶ ◆ pink {len(yellow)} {3 * len(yellow)} 2 yellow +3"
    assert rows[3].startswith("▲ teal out of the game")  # Teal holds nothing: arrange puts it out, by nobody
    assert players_html(state).count("rb-mj-to-move") == 1


def test_hovering_a_territory_tells_a_bonus_number_only_where_there_is_one():
    from rulebook.meetjesland.widget import territory_layer

    state = mj.new_game(4, seed=0)
    board = state.board
    for territory, hover in zip(board.territories, territory_layer(state)["hovertext"]):
        number = board.number(territory)
        assert ("bonus" in hover) == bool(number), hover
        assert "bonus number 0" not in hover
        if number:
            assert f"bonus number {number}" in hover


def test_the_status_line_keeps_three_lines_so_the_map_never_moves():
    from rulebook import markup

    table = Board(mj.new_game(4, seed=0))
    assert "rb-mj-board" in table._dom_classes and table.status in table.children
    css = markup.STYLESHEET.read_text(encoding="utf-8")
    rule = re.search(r"\.rb-mj-board \.rb-status \{([^}]*)\}", css)
    assert rule and "height: 4.2em" in rule.group(1) and "overflow-y: auto" in rule.group(1)
    assert "line-height: 1.4" in re.search(r"\.rb-status \{([^}]*)\}", css).group(1)  # 4.2em: three lines of 1.4


def test_the_odds_line_wraps_in_two_lines_of_its_own_height_and_keeps_the_percent_with_its_number():
    """At 1280x800 "…against 3: 85.7 %" lost its "%": the widget's 28 px line height let one line fit its 2.7em, and
    the wrap fell between the number and its sign."""
    from rulebook import markup

    table = after_setup()
    state = table.state
    origin, target = next(
        (o, t)
        for o in state.territories_of(0)
        for t in state.board.neighbours[o]
        if state.owner_of(t) != 0 and state.points_on(o) >= 2
    )
    table.select(origin)
    table.select(target)
    chance = re.search(r"<b class='rb-nowrap'>(\d{1,3}\.\d %)</b>", table.odds.value)
    assert "<div class='rb-mj-odds'>" in table.odds.value and chance, table.odds.value
    css = markup.STYLESHEET.read_text(encoding="utf-8")
    rule = re.search(r"\.rb-mj-odds \{([^}]*)\}", css).group(1)
    size = float(re.search(r"font-size: (\d+)px", rule).group(1))
    line = float(re.search(r"line-height: ([\d.]+);", rule).group(1))
    kept = float(re.fullmatch(r"([\d.]+)em", table.odds.layout.height).group(1)) * 13  # the widgets' 13 px font
    assert 2 * size * line <= kept and "white-space: normal" in rule
    assert ".rb-nowrap { white-space: nowrap; }" in css


def test_auto_place_plays_its_points_as_moves_through_the_session():
    """Auto-place goes through play like any move: one state per move (so the log, the marks and Undo see each),
    the chance after it settled, the hint cleared, and the same position the engine's auto_setup spreads."""
    import random as _random

    game = mj.new_game(players=4, seed=1)
    table = Board(game, seed=1, computer=(1, 2, 3))
    expected = mj.auto_setup(game, _random.Random(1))
    played = []
    original = table.play  # the board's play, which hands the move to the session (or to a lesson's judge)
    table.play = lambda move: played.append(move) or original(move)
    table.hint()
    table.auto_button.click()
    assert played and all(isinstance(move, mj.Place) for move in played)
    assert sum(move.points for move in played) == game.to_place
    people = [table.step(index) for index in range(1, len(table.states)) if table.step(index).player == 0]
    assert [step.move for step in people] == played  # each a state of its own, told in the log
    assert table.hinted is None
    assert all(table.state.points_on(t) == expected.points_on(t) for t in game.territories_of(0))
    assert table.message.startswith("Starting points spread at random: ") and "Black played 1 move" in table.message
    table.undo()  # takes back the last placement, with the computer's answers to it
    assert table.state.phase == "setup" and table.state.turn == 0 and len(table.states) == len(played)


def test_auto_place_in_a_lesson_is_refused_and_points_to_the_step():
    from rulebook.learn import LearnPanel

    panel = LearnPanel("meetjesland")
    board, step = panel.board, panel.lesson.step
    assert board.live.phase == "setup"
    before = len(board.states)
    board.auto_button.click()
    assert len(board.states) == before and panel.lesson.step is step and panel.lesson.done == set()
    assert "lesson" in board.status.text and "Hint" in board.status.text and board.message_kind == "error"
