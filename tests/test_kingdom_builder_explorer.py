"""The Kingdom Builder odds explorer, the Hint mark and the card-odds chart (issue 13.3-13.5), without a browser:
controls are set in Python and the shown text and marks are checked against the exact odds."""

from __future__ import annotations

import re
from fractions import Fraction

import ipywidgets as widgets

from rulebook import kingdom_builder as kb
from rulebook.kingdom_builder import charts, odds, widget
from rulebook.kingdom_builder.widget import ASKED, HINT, HINT_UNDER, Board, Explorer
from rulebook.views import ChartView, plotly_json, trace

FIRST = "sections: tavern paddock oasis farm\ncards: fishermen knights merchants\nplayers: 2\n"


def written(settlements: dict) -> str:
    rows = [["."] * 20 for _ in range(20)]
    for (row, column), player in settlements.items():
        rows[row][column] = str(player)
    return FIRST + "\n".join("".join(row) for row in rows) + "\n"


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def drawn(board: Board, name: str):
    """The trace named ``name`` as the board holds it and last sent it to the page."""
    assert board.figure.figure == plotly_json(board.figure.plot)
    return trace(board.figure.plot, name)


def live_board() -> Board:
    return Board(kb.new_game(players=2, seed=7, first_game=True), seed=7, computer=(1,))


def test_the_explorer_shows_the_exact_odds_and_follows_its_number_input():
    board = live_board()
    explorer = Explorer(board)
    assert "rulebook-explorer" in explorer._dom_classes
    assert "rulebook-explorer-result" in explorer.result._dom_classes
    assert isinstance(explorer.chart, ChartView) and explorer.chart.figure["layout"]["width"] == 340
    assert isinstance(explorer.turns, widgets.BoundedIntText)
    explorer.view.value = "referee"  # every card counted; the default, the player's own view: test_kb_odds_viewer.py
    # set-up of seed 7: Orange holds desert, Blue grassland; 23 cards in the pile, 4 of them desert
    assert board.state.hands == ("desert", "grass")
    shown = text(explorer.result.value)
    assert "23 cards in the pile, 0 discarded, 2 in hands" in shown
    assert "desert 4/23 = 17.4 %" in shown
    before = explorer.result.value
    explorer.turns.value = 2
    assert explorer.result.value != before
    # no desert in Orange's next 2 cards: (19/23)(18/22) -> 1 - 171/253 = 82/253 = 32.4 %
    assert odds.terrain_within(board.state, 0, "desert", 2, viewer=None) == Fraction(82, 253)
    assert "82/253 = 32.4 %" in text(explorer.result.value)
    assert "at least once in 2 turns" in text(explorer.result.value)
    # the chart follows: k = 2 marked with a dotted line, sent to the page
    chart = explorer.chart
    assert chart.figure == plotly_json(chart.plot, typed_arrays=True) and chart.plot.layout.shapes[0].x0 == 2


def test_the_explorer_rings_the_hexes_of_this_turns_card_on_request_and_follows_the_moves():
    board = live_board()
    explorer = Explorer(board)
    assert board.asked == ()
    explorer.ring.value = True
    expected = odds.legal_hexes(board.state, 0, "desert")
    assert board.asked == expected and len(expected) == 53
    assert len(drawn(board, ASKED).x) == 53
    assert "53 hexes" in explorer.hexes_text.value
    board.play(kb.Build((10, 11)))  # desert: the next desert hexes must touch it now
    assert board.asked == odds.legal_hexes(board.state, 0, "desert") == ((10, 10), (11, 10))
    assert "2 hexes" in explorer.hexes_text.value
    explorer.ring_terrain.value = "grass"
    assert board.asked == odds.legal_hexes(board.state, 0, "grass")
    explorer.ring.value = False
    assert board.asked == () and len(drawn(board, ASKED).x) == 0
    board.show_move(0)  # replaying the start: the explorer reads the position shown
    assert "23 cards in the pile" in text(explorer.result.value)


def test_the_hint_is_marked_with_a_dashed_outline_and_cleared_by_the_next_move():
    board = live_board()
    move = board.hint()
    assert board.hinted == move and isinstance(move, kb.Build)
    hint, under = drawn(board, HINT), drawn(board, HINT_UNDER)
    assert hint.line.dash == "dash"
    assert hint.line.color == widget.HINT_LINE
    assert under.line.color == widget.HINT_UNDER_LINE
    xs = [x for x in hint.x if x is not None]
    centre = widget.hex_centre(*move.hex)
    assert len(xs) == 7 and abs(sum(xs[:6]) / 6 - centre[0]) < 1e-9
    assert len(under.x) == 7
    assert board.message.startswith("Hint (")
    assert board.state.history == board.states[-1].history  # nothing was played
    board.play(move)
    assert board.hinted is None and len(drawn(board, HINT).x) == 0


def test_the_hint_mark_of_a_moved_settlement_draws_a_line_from_where_it_stands():
    move = kb.UseTile("paddock", (5, 12), (5, 10))
    xs, ys = widget.hint_outline(move)
    assert len(xs) == 10 and xs[7] is None
    assert (xs[8], ys[8]) == widget.hex_centre(5, 10)
    assert widget.hint_outline(kb.EndTurn()) == ([], [])


def test_chance_words_and_the_odds_chart_are_readable():
    assert charts.chance_words(Fraction(4, 23)) == "4/23 = 17.4 %"
    assert charts.chance_words(Fraction(1234, 5678)) == "21.7 %"
    assert charts.chance_words(Fraction(0)) == "0 % (impossible)"
    assert charts.chance_words(Fraction(1)) == "100 % (certain)"
    state = live_board().state
    figure = charts.draw_odds_figure(state, 0, 4, width=340, height=300, chosen=2)
    assert figure.layout.width == 340 and figure.layout.height == 300
    assert figure.layout.legend.yref == "container" and figure.layout.legend.y == 0
    assert figure.layout.yaxis.ticksuffix == " %"
    assert figure.layout.xaxis.title.text and figure.layout.yaxis.title.text
    for line in figure.data:
        for hover in line.hovertext:
            assert "at least once in your next" in hover and not re.search(r"\d\.\d{3}", hover)
    assert len(figure.layout.shapes) == 1  # the chosen k
    bars = charts.legal_hexes_figure(state, 0)
    assert "flower field" in list(bars.data[0].x)
