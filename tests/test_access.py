"""The Python side of the keyboard and screen reader support (issue 28): a BoardView tells the page which traces
answer clicks and hears Escape as a cancel; each board lets go of its choice on Escape; Meetjesland's map labels each
territory for a screen reader; a chart carries its text alternative. The page's side is in tests/e2e/test_access.py."""

from __future__ import annotations

import plotly.graph_objects as go

from rulebook import claim
from rulebook import meetjesland as mj
from rulebook.claim.diagram import figure
from rulebook.claim.widget import Board as ClaimBoard
from rulebook.meetjesland.widget import Board as MJBoard
from rulebook.views import BoardView, ChartView


def test_a_board_view_names_its_clickable_traces_and_hears_a_cancel():
    plot = go.Figure([go.Scatter(x=[0, 1], y=[0, 1], name="pieces"), go.Scatter(x=[2], y=[2], name="rings")])
    view = BoardView(plot)
    assert view.clickable == []
    view.on_click("pieces", lambda point: None)
    view.on_click("pieces", lambda point: None)
    view.on_click("rings", lambda point: None)
    assert view.clickable == ["pieces", "rings"]  # each once, in the order they were given
    heard = []
    view.on_cancel(lambda: heard.append("cancel"))
    view._message(view, {"event": "cancel", "revision": view.revision}, [])
    view._message(view, {"event": "nothing"}, [])
    view._message(view, "cancel", [])
    assert heard == ["cancel"]


def test_a_chart_has_a_text_alternative_to_give():
    chart = ChartView(go.Figure(go.Bar(x=["a"], y=[1])))
    assert chart.description == ""  # the page then says the title, axes and values
    chart.description = "Chance to win: 40 %"
    assert chart.get_state()["description"] == "Chance to win: 40 %"


def test_meetjesland_labels_each_territory_and_escape_lets_go_of_the_choice():
    table = MJBoard(mj.new_game(players=4, seed=1), seed=1, computer=(1, 2, 3))
    table.auto_button.click()
    state = table.state
    labels = table.figure.plot.select_traces(selector={"name": "territories"}).__next__().meta["labels"]
    assert len(labels) == len(state.board.territories)
    own = state.territories_of(0)[0]
    first = labels[state.board.index[own]]
    assert first.startswith(f"{state.board.name(own)}, White, ") and "region" in first
    origin, target = next(
        (o, t)
        for o in state.territories_of(0)
        for t in state.board.neighbours[o]
        if state.owner_of(t) != 0 and state.points_on(o) >= 2
    )
    assert "you may attack or move from here" in labels[state.board.index[origin]]
    table.select(origin)
    labels = next(table.figure.plot.select_traces(selector={"name": "territories"})).meta["labels"]
    assert labels[state.board.index[origin]].endswith("chosen")
    assert labels[state.board.index[target]].endswith("you may attack this")
    table.select(target)
    assert (table.origin, table.target) == (origin, target)
    table.figure.cancel()  # Escape
    assert (table.origin, table.target) == (None, None)
    assert (table.origin_menu.value, table.target_menu.value) == ("", "")


def test_claim_escape_lets_go_of_the_selected_piece():
    board = ClaimBoard(claim.from_diagram(figure(4).before))
    board.figure.click("pieces", [4, 3])
    assert board.selected == (4, 3)
    board.figure.cancel()
    assert board.selected is None
    board.figure.click("pieces", [4, 3])
    board.figure.click("targets", [3, 3])  # a capture: the piece must capture again (CL-7.4) and stays in hand
    assert board.state.follow_up == (3, 3) and board.selected == (3, 3)
    board.figure.cancel()
    assert board.selected == (3, 3)  # Escape cannot put down a piece that must go on capturing


def test_kingdom_builder_escape_lets_go_of_the_settlement_then_of_the_tile():
    from tests.test_kingdom_builder_widget import table_at

    table = table_at({(5, 10): 0})
    paddock, supply = 6 * 20 + 11, table.state.supply[0]
    assert table.figure.click("hexes", paddock)  # the Paddock tile chosen on the board (Enter on its place)
    table.select((5, 10))
    assert (table.action_menu.value, table.origin) == ("paddock", (5, 10))
    table.figure.cancel()  # Escape: the settlement to move is let go (and the tile may go back with it)
    assert table.origin is None
    if table.action_menu.value == "paddock":
        table.figure.cancel()  # Escape again: the tile is put back
    assert table.action_menu.value == "build" and "Paddock tile put back" in table.status.text
    assert table.state.supply[0] == supply  # nothing was played
