"""The live Kingdom Builder board and its charts, without a browser: menus, buttons and clicks reach the engine."""

from __future__ import annotations

import json
import re

import ipywidgets as widgets
import plotly.graph_objects as go

from rulebook import kingdom_builder as kb
from rulebook.kingdom_builder import bots, charts, widget
from rulebook.kingdom_builder.rules import COLOURS
from rulebook.kingdom_builder.widget import LEGAL, SCORING, Board
from rulebook.view import FILES as VIEW
from rulebook.views import BoardView, plotly_json, trace
from tests.helpers import kb_diagram as diagram


def table_at(settlements: dict, hands=("grass", "grass"), computer=()) -> Board:
    return Board(kb.from_diagram(diagram(settlements), hands=hands), seed=3, computer=computer)


def drawn(table: Board, name: str):
    """The trace named ``name`` as the board's figure holds it (and as it last sent it to the page)."""
    assert table.figure.figure == plotly_json(table.figure.plot)  # nothing left undrawn
    return trace(table.figure.plot, name)


def choose(table: Board, hex_) -> None:
    table.target_menu.value = hex_
    table.play_button.click()


def test_build_with_the_menus_highlights_legal_hexes_and_refuses_with_the_rule():
    table = table_at({(7, 6): 0})
    assert table.action_menu.value == "build"
    offered = {value for _, value in table.target_menu.options if value is not None}
    assert offered == {(7, 7), (8, 7)}
    assert len(drawn(table, LEGAL).x) == 2  # the two legal hexes are ringed
    table.select((9, 9))  # a click on a grass hex away from the settlement
    assert "Refused by KB-6.3" in table.status.text and table.state.supply[0] == 39
    choose(table, (7, 7))
    assert table.state.board[7 * 20 + 7] == 0 and "build 2 more" in table.status.text
    assert [o for _, o in table.action_menu.options] == ["build"]  # no tile in the middle of the action (KB-7.1)


def test_a_hex_chosen_in_the_menu_clears_the_refusal_and_keeps_the_choice():
    table = table_at({(7, 6): 0})
    table.select((9, 9))
    assert "Refused by KB-6.3" in table.status.text
    table.target_menu.value = (7, 7)
    assert "Refused" not in table.status.text and table.target_menu.value == (7, 7)
    table.play_button.click()
    assert table.state.board[7 * 20 + 7] == 0


def test_click_callback_and_tiles_shown_as_pending_then_usable():
    table = table_at({(8, 8): 0})
    assert table.figure.click("hexes", 7 * 20 + 7)  # click the hex (7,7), next to the tavern (6,7)
    assert table.state.board[7 * 20 + 7] == 0
    assert "usable from next turn" in table.players_panel.value


def test_move_tile_choose_origin_then_target_and_undo():
    table = table_at({(5, 10): 0})
    table.action_menu.value = "paddock"
    assert not table.origin_menu.disabled
    assert table.figure.click("settlements", 5 * 20 + 10)  # a click on the settlement at (5,10) chooses it
    assert table.origin == (5, 10) and table.origin_menu.value == (5, 10)
    offered = {value for _, value in table.target_menu.options if value is not None}
    assert offered == {(5, 12), (5, 8), (3, 11), (7, 11), (7, 9)}
    ringed = list(drawn(table, LEGAL).customdata)  # hex indices row*20+column of the rings
    assert 7 * 20 + 11 in ringed
    assert table.figure.click(LEGAL, 7 * 20 + 11)  # a click on the ring
    assert table.state.board[7 * 20 + 11] == 0 and table.state.board[5 * 20 + 10] == -1
    assert "used this turn" in table.players_panel.value
    table.undo_button.click()
    assert table.state.board[5 * 20 + 10] == 0


def shown_texts(table: Board) -> list[str]:
    """Every text the board shows a player: labels, options, tooltips, HTML panels (tags dropped), hover texts."""
    texts: list[str] = [table.status.text, table.move_log.text]
    stack = list(table.children)
    while stack:
        child = stack.pop()
        stack.extend(getattr(child, "children", ()))
        texts += [str(title) for title in getattr(child, "titles", ())]
        for name in ("description", "tooltip", "label"):
            if getattr(child, name, None):
                texts.append(str(getattr(child, name)))
        texts += [str(label) for label in getattr(child, "_options_labels", ())]
        if isinstance(child, widgets.HTML):
            texts.append(re.sub(r"<[^>]*>", " ", child.value))
    for shown in table.figure.plot.data:
        texts += [str(text) for text in (*(shown.hovertext or ()), *(shown.text or ()))]
    return texts


PYTHON = re.compile(
    r"Fraction\(|[{}]|\bNone\b|computer=|seed=|Traceback|<class|\bplayer \d|Config\.|\w+\(\)|\b[a-z]+_[a-z]+"
)


def python_in(texts: list[str]) -> list[str]:
    return [text for text in texts if PYTHON.search(text)]


def test_python_pattern_catches_what_it_should():
    assert python_in(["Fraction(1, 6)", "{'a': 1}", "None", "Board(computer={1: 'greedy'})", "player 0 has"]) == [
        "Fraction(1, 6)",
        "{'a': 1}",
        "None",
        "Board(computer={1: 'greedy'})",
        "player 0 has",
    ]
    assert python_in(["first_game", "legal_moves()"]) == ["first_game", "legal_moves()"]
    assert python_in(["Orange: build at (7,7)", "1 in 6", "16.7%", "no card", "top-left quarter"]) == []


def test_whole_game_against_the_greedy_computer_with_buttons_only():
    table = Board(kb.new_game(players=2, seed=4, first_game=True), seed=4, computer=(1,))
    seen: set[str] = set(shown_texts(table))
    table.select((9, 9))  # refusals are shown too
    seen |= set(shown_texts(table))
    for _ in range(400):
        if kb.outcome(table.state) is not None:
            break
        if len(table.target_menu.options) > 1:
            choose(table, table.target_menu.options[1][1])
        elif table.action_menu.value in ("barn", "harbor", "paddock") and len(table.origin_menu.options) > 1:
            table.origin_menu.value = table.origin_menu.options[1][1]
        else:
            table.end_button.click()
        seen |= set(shown_texts(table))
    result = kb.outcome(table.state)
    assert result is not None and table.state.turns[0] == table.state.turns[1]
    # KB-2.1: the prompt line states the result, with every score.
    winner = COLOURS[result.winners[0]].capitalize()
    assert table.status.text.startswith(f"You play Orange. Game over: {winner} wins")
    assert all(f"{COLOURS[p].capitalize()} {result.scores[p]}" in table.status.text for p in range(2))
    assert "Total" in table.scores.value and "Settlements left" in table.scores.value
    # The game is over: every move control is off, and Undo (issue 48.9); the view controls stay on.
    for control in (table.action_menu, table.origin_menu, table.target_menu, table.play_button, table.end_button):
        assert control.disabled
    assert table.undo_button.disabled
    assert not table.scoring_card.disabled and not table.scoring_player.disabled
    table.scoring_card.value = "knights"  # a view control still works after the end
    assert len(drawn(table, SCORING).x) > 0 and table.scoring_card.label == "Knights"
    before = table.state
    table.figure.click("hexes", 9 * 20 + 9)  # a click on the board is refused, in words
    assert table.state is before and "The game is over" in table.status.text
    seen |= set(shown_texts(table))
    assert python_in(sorted(seen)) == []
    table.undo_chance = True  # even with the teaching option (Undo past a terrain card drawn, issue 24.11)
    table.undo()  # a finished game is finished: Undo is refused (issue 48.9)
    assert table.state is before and kb.outcome(table.state) is not None and table.action_menu.disabled


def test_refusals_name_players_by_colour_and_menus_show_a_first_line():
    table = table_at({(7, 6): 0})
    assert table.target_menu.label == "choose one of 2 hexes" and table.target_menu.value is None
    assert table.origin_menu.label == "only for Barn, Harbor, Paddock" and table.origin_menu.disabled
    assert table.scoring_card.label == "no card"
    table.select((9, 9))
    assert "Refused by KB-6.3" in table.status.text
    assert "orange has free grassland hexes" in table.status.text and "player 0" not in table.status.text
    table = table_at({(5, 10): 0})
    table.action_menu.value = "paddock"
    assert table.origin_menu.label == "choose a settlement" and not table.origin_menu.disabled
    assert python_in(shown_texts(table)) == []


def test_board_and_controls_fit_beside_the_app_panel():
    """Figure, status line and controls fit 880 x 680 px; the move log waits in a closed accordion below."""
    table = table_at({(7, 6): 0})
    status, row, log_box = table.children
    assert status is table.status and isinstance(log_box, widgets.Accordion) and log_box.selected_index is None
    assert log_box.children[0].children == (table.history_bar, table.move_log)
    board, controls = row.children
    assert board.children[0] is table.figure
    width = int(board.layout.width.removesuffix("px")) + int(controls.layout.width.removesuffix("px"))
    assert width <= 880 and table.figure.plot.layout.width <= int(board.layout.width.removesuffix("px"))
    assert table.figure.plot.layout.height <= 480  # with the status line, legend and log header: under 680 px
    menus = [c for c in controls.children if isinstance(c, widgets.Dropdown)]
    assert menus and all(int(m.layout.width.removesuffix("px")) <= int(controls.layout.width[:-2]) for m in menus)
    assert any(table.scoring_card in getattr(c, "children", ()) for c in controls.children)


def test_scoring_highlight_and_charts():
    table = table_at({(0, 8): 0, (0, 9): 0, (5, 5): 0})
    table.scoring_card.value = "knights"
    table.scoring_player.value = 0
    assert len(drawn(table, SCORING).x) == 2  # the two settlements of row 0
    state = table.state
    for figure in (
        charts.draw_odds_figure(state, 0, 3),
        charts.legal_hexes_figure(state, 0),
        charts.score_figure(state),
        charts.bot_games_figure(bots.tournament(("greedy", "random"), games=2, seed=5)),
    ):
        assert isinstance(figure, go.Figure) and figure.layout.title.text
        assert figure.layout.xaxis.title.text and figure.layout.yaxis.title.text and figure.layout.width <= 900
    legal = charts.legal_hexes_figure(state, 0)
    # By hand: next to (5,5) grass (5,4) (4,5) (4,6), forest (5,6) (6,5) (6,6); next to (0,8)/(0,9) canyon
    # (0,7) (1,7) (1,8) (0,10) (1,9); no desert or flower next to any, so every free hex of those counts.
    assert list(legal.data[0].x) == ["grassland", "canyon", "desert", "flower field", "forest"]
    assert [legal.data[0].y[i] for i in (0, 1, 4)] == [3, 5, 3]
    assert [legal.data[0].y[i] for i in (2, 3)] == [53, 57]
    knights = charts.score_figure(state).data[1]
    assert knights.name == "Knights" and list(knights.y) == [4, 0]


def test_the_board_is_a_board_view_whose_traces_have_names_and_whose_redraws_stay_small():
    """Each trace named once, each clickable point carrying its hex index; the JSON sent at a redraw (the whole
    figure) stays small: no theme, coordinates rounded, the only per-hex texts the hexes' own."""
    table = Board(kb.new_game(players=4, seed=2), seed=2, computer=(1, 2, 3))
    view = table.figure
    assert isinstance(view, BoardView) and view.figure == plotly_json(view.plot)
    names = [t["name"] for t in view.figure["data"]]
    assert len(set(names)) == len(names) == 14 and names[0] == widget.HEXES
    assert view.figure["data"][0]["customdata"] == list(range(400)) and len(json.dumps(view.figure["layout"])) < 1000
    assert all(len(repr(x)) <= 7 for x in view.figure["data"][0]["x"])  # 25.981, not 25.98076211353316
    while sum(owner >= 0 for owner in table.state.board) < 100:  # a board two-thirds into a 4-player game
        assert table.play(kb.legal_moves(table.state)[0])
    revision = view.revision
    table.scoring_card.value = table.state.cards[0]  # the rings of a card's scoring hexes: one more redraw
    assert view.revision == revision + 1 and sum(s >= 0 for s in table.state.board) > 100
    assert len(json.dumps(view.figure)) < 60_000
    hover = [text for t in view.figure["data"] for text in t.get("hovertext") or ()]
    assert len(hover) == len(set(hover))  # no hover text sent twice
    table.redraw()
    assert view.revision == revision + 1  # the same position: nothing sent


def test_the_terrain_chips_take_the_board_s_fills_from_the_one_stylesheet():
    css = (VIEW / "style.css").read_text()
    found = re.findall(r"\.rb-kb-terrain-(\w+) \{ background: (#[0-9a-f]{6}); color: (#[0-9a-f]{3}); \}", css)
    chips = {name: (fill, text) for name, fill, text in found}
    terrains = [t for t in widget.TERRAIN_FILL if t not in ("castle", "location")]
    assert chips == {t: (widget.TERRAIN_FILL[t], "#fff" if t in widget.DARK_TERRAIN else "#000") for t in terrains}
    assert f".rb-kb-place {{ background: {widget.TERRAIN_FILL['location']};" in css
    for name, ring in (("legal", widget.LEGAL_RING), ("last", widget.LAST_MOVE), ("asked", widget.ASKED_RING)):
        assert f".rb-kb-{name} {{ color: {ring}; }}" in css
    table = table_at({(7, 6): 0})
    html = table.card.value + widget.legend_html(table.state) + table.scores.value + table.goals.value
    assert "style=" not in html and 'class="rb-kb-chip rb-kb-terrain-grass">grassland</span>' in html
    used = set(re.findall(r'class="([^"]+)"', html))
    for classes in used:
        for name in classes.split():
            assert f".{name} " in css or f".{name}," in css, name


HARBOR = "sections: harbor paddock oasis farm\ncards: fishermen knights merchants\nplayers: {players}\n"


def panel_rows(table: Board) -> list[list[str]]:
    """The players panel as a player reads it: each row's cells, tags dropped, spaces joined."""
    rows = re.findall(r'<tr class="rb-mj-players-row[^"]*">(.*?)</tr>', table.players_panel.value, re.S)
    return [
        [" ".join(re.sub(r"<[^>]*>", " ", cell).split()) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in rows
    ]


def test_the_players_panel_tells_supplies_castles_gold_the_shown_card_and_the_tiles():
    # Orange: (5,10) beside the Paddock location (6,11), and (0,8) (0,9) on the top row; Blue: two settlements
    table = table_at(
        {(5, 10): 0, (0, 8): 0, (0, 9): 0, (12, 12): 1, (12, 13): 1}, hands=("grass", "flower"), computer=()
    )
    state = table.state
    gold = kb.score(state)
    castles = kb.castle_scores(state)
    (orange, orange_tiles, blue, blue_tiles) = panel_rows(table)
    assert orange[:5] == ["▶ ● Orange", "37", "3", str(castles[0] // 3), str(gold[0]["total"])]
    assert blue[:5] == ["■ Blue", "38", "2", str(castles[1] // 3), str(gold[1]["total"])]
    # two people at one screen: only the card of the player to move is shown (KB-4.1)
    assert orange[5] == "grassland" and blue[5] == "hidden"
    assert orange_tiles == ["Tiles: Paddock"] and blue_tiles == ["Tiles: none"]
    assert 'class="rb-mj-players-row rb-mj-to-move"' in table.players_panel.value
    # against the computer the person sees their own card, never the computer's
    against = table_at({(5, 10): 0, (12, 12): 1}, hands=("grass", "flower"), computer=(1,))
    assert [row[5] for row in panel_rows(against)[::2]] == ["grassland", "hidden"]
    assert "played by the computer" in against.players_panel.value


def test_the_panel_follows_a_tile_taken_then_used_and_the_supply():
    table = table_at({(8, 8): 0})
    assert table.figure.click("hexes", 7 * 20 + 7)  # next to the Tavern (6,7): its tile, usable from next turn
    assert panel_rows(table)[0][1:3] == ["38", "2"]
    assert (
        panel_rows(table)[1] == ["Tiles: Tavern (next turn)"] and "usable from next turn" in table.players_panel.value
    )


def test_a_click_on_an_owned_tile_starts_its_action_and_a_second_click_or_escape_puts_it_back():
    table = table_at({(5, 10): 0})
    paddock = 6 * 20 + 11
    assert paddock in list(drawn(table, LEGAL).customdata)  # the usable tile is ringed with the build targets
    assert table.figure.click("hexes", paddock)
    assert table.action_menu.value == "paddock" and "Paddock tile chosen" in table.status.text
    ringed = set(drawn(table, LEGAL).customdata)
    assert 5 * 20 + 10 in ringed and paddock in ringed  # the settlement it may move, and the tile itself
    assert table.figure.click("hexes", paddock)  # again: put back, building is the action again
    assert table.action_menu.value == "build" and "Paddock tile put back" in table.status.text
    assert table.figure.click(LEGAL, paddock)  # a click on the tile's ring chooses it too
    assert table.action_menu.value == "paddock"
    table.escape_key.press()
    assert table.action_menu.value == "build" and table.state.supply[0] == 39
    # chosen by a click, then played by clicks: the settlement, then a ringed hex
    table.select((6, 11))
    table.select((5, 10))
    assert table.origin == (5, 10)
    table.select((7, 11))
    assert table.state.board[7 * 20 + 11] == 0 and table.state.board[5 * 20 + 10] == -1
    assert "used this turn" in table.players_panel.value
    assert paddock not in list(drawn(table, LEGAL).customdata)  # used: no longer ringed
    table.select((6, 11))  # a used tile says so, with its rule
    assert "Refused by KB-7.1" in table.status.text and "already been used" in table.status.text
    table.select((6, 7))  # a tile not held: how to take one
    assert "You hold no tile from the Tavern location at (6,7)" in table.status.text and "KB-5.2" in table.status.text


def test_tiles_after_the_three_builds_wait_for_a_click_and_are_refused_in_between():
    table = table_at({(5, 10): 0})
    choose(table, table.target_menu.options[1][1])  # one of three builds: no tile in between (KB-7.1)
    assert table.state.built == 1
    table.select((6, 11))
    assert "Refused by KB-7.1" in table.status.text and table.action_menu.value == "build"
    for _ in range(2):
        choose(table, table.target_menu.options[1][1])
    assert table.state.mandatory_done and table.action_menu.value is None  # no tile chosen until one is clicked
    assert "click a ringed location tile" in table.status.text
    assert list(drawn(table, LEGAL).customdata) == [6 * 20 + 11]
    table.select((6, 11))
    assert table.action_menu.value == "paddock"
    table.escape_key.press()
    assert table.action_menu.value is None and table.play_button.disabled


def test_a_click_on_water_says_why_in_the_player_s_situation():
    def refusal(settlements: dict, **state_changes) -> str:
        state = kb.from_diagram(diagram(settlements, header=HARBOR), hands=("grass", "grass"))
        table = Board(state, seed=1)
        table.select((7, 5))  # a water hex
        return table.status.text

    far = refusal({(12, 12): 0})  # no Harbor tile
    assert "Refused by KB-6.2" in far and "it is water, and orange's card is grassland" in far
    assert "only a Harbor tile moves a settlement onto water, and orange holds none" in far
    near = refusal({(8, 7): 0})  # beside the Harbor location (7,6): the tile is held, ready
    assert "Refused by KB-6.2" in near and "choose orange's Harbor, then the settlement it moves" in near
    assert "only the Harbor moves" not in near
