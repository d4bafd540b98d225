"""The live Kingdom Builder board and its charts, without a browser: menus, buttons and clicks reach the engine."""

from __future__ import annotations

from types import SimpleNamespace

import plotly.graph_objects as go

from rulebook import kingdom_builder as kb
from rulebook.kingdom_builder import bots, charts
from rulebook.kingdom_builder.widget import Board

FIRST = "sections: tavern paddock oasis farm\ncards: fishermen knights merchants\nplayers: {players}\n"


def diagram(settlements: dict, header: str = FIRST, players: int = 2) -> str:
    """A written position: the header, then 20 rows of 20 hexes with the given settlements."""
    rows = [["."] * 20 for _ in range(20)]
    for (row, column), player in settlements.items():
        rows[row][column] = str(player)
    return header.format(players=players) + "\n".join("".join(row) for row in rows) + "\n"


def table_at(settlements: dict, hands=("grass", "grass"), computer=()) -> Board:
    return Board(kb.from_diagram(diagram(settlements), hands=hands), seed=3, computer=computer)


def choose(table: Board, hex_) -> None:
    table.target_menu.value = hex_
    table.play_button.click()


def test_build_with_the_menus_highlights_legal_hexes_and_refuses_with_the_rule():
    table = table_at({(7, 6): 0})
    assert table.action_menu.value == "build"
    offered = {value for _, value in table.target_menu.options if value is not None}
    assert offered == {(7, 7), (8, 7)}
    assert len(table.figure.data[2].x) == 2  # the two legal hexes are ringed
    table.select((9, 9))  # a click on a grass hex away from the settlement
    assert "Refused by KB-6.3" in table.status.text and table.state.supply[0] == 39
    choose(table, (7, 7))
    assert table.state.board[7 * 20 + 7] == 0 and "build 2 more" in table.status.text
    assert [o for _, o in table.action_menu.options] == ["build"]  # no tile in the middle of the action (KB-7.1)


def test_click_callback_and_tiles_shown_as_pending_then_usable():
    table = table_at({(8, 8): 0})
    table._clicked(0, SimpleNamespace(point_inds=[7 * 20 + 7]))  # click the hex (7,7), next to the tavern (6,7)
    assert table.state.board[7 * 20 + 7] == 0
    assert "usable from next turn" in table.tiles.value


def test_move_tile_choose_origin_then_target_and_undo():
    table = table_at({(5, 10): 0})
    table.action_menu.value = "paddock"
    assert not table.origin_menu.disabled
    table._clicked(4, SimpleNamespace(point_inds=[0]))  # a click on the settlement marker at (5,10) chooses it
    assert table.origin == (5, 10) and table.origin_menu.value == (5, 10)
    offered = {value for _, value in table.target_menu.options if value is not None}
    assert offered == {(5, 12), (5, 8), (3, 11), (7, 11), (7, 9)}
    assert (7, 11) in table.shown[2]  # ringed
    table._clicked(2, SimpleNamespace(point_inds=[table.shown[2].index((7, 11))]))  # a click on the ring
    assert table.state.board[7 * 20 + 11] == 0 and table.state.board[5 * 20 + 10] == -1
    assert "used this turn" in table.tiles.value
    table.undo_button.click()
    assert table.state.board[5 * 20 + 10] == 0


def test_whole_game_against_the_greedy_computer_with_buttons_only():
    table = Board(kb.new_game(players=2, seed=4, first_game=True), seed=4, computer=(1,))
    for _ in range(400):
        if kb.outcome(table.state) is not None:
            break
        if len(table.target_menu.options) > 1:
            choose(table, table.target_menu.options[1][1])
        elif table.action_menu.value in ("barn", "harbor", "paddock") and len(table.origin_menu.options) > 1:
            table.origin_menu.value = table.origin_menu.options[1][1]
        else:
            table.end_button.click()
    result = kb.outcome(table.state)
    assert result is not None and "Game over" in table.status.text
    assert table.state.turns[0] == table.state.turns[1]
    assert "total" in table.scores.value


def test_scoring_highlight_and_charts():
    table = table_at({(0, 8): 0, (0, 9): 0, (5, 5): 0})
    table.scoring_card.value = "knights"
    table.scoring_player.value = 0
    assert len(table.figure.data[3].x) == 2  # the two settlements of row 0
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
    assert list(legal.data[0].x) == ["grass", "canyon", "desert", "flower", "forest"]
    assert [legal.data[0].y[i] for i in (0, 1, 4)] == [3, 5, 3]
    assert [legal.data[0].y[i] for i in (2, 3)] == [53, 57]
    knights = charts.score_figure(state).data[1]
    assert knights.name == "knights" and list(knights.y) == [4, 0]
