"""The app shell, driven from Python as the page drives it: set-up -> New game, Restart, Save/Load, rule links and
the game-over banner, for every game."""

from __future__ import annotations

import ast
import json
import re

import pytest
from plotly.offline import get_plotlyjs

from rulebook import claim, registry, rules_text, ui, views
from rulebook.app import App, rules_html
from rulebook.ui import Table
from tests.soak import count

GAMES = list(registry.games())


def visible_text(app: App) -> str:
    """Every text the app shows a person (status, log, banner, toolbar, set-up labels and options)."""
    board = app.board
    parts = [board.status.text, board.move_log.text, app.about.value, app.notice.value, app.banner_text.value]
    for control in board.move_controls() + list(app.option_controls.values()) + app.seats:
        parts.append(str(getattr(control, "description", "")))
        parts.extend(str(label) for label in getattr(control, "_options_labels", ()))
    return "\n".join(parts)


@pytest.fixture(params=GAMES)
def app(request) -> App:
    return App(request.param, seed=5)


def test_the_app_opens_on_a_game_of_the_default_set_up(app):
    setup = app.setup
    assert isinstance(app.board, Table) and app.board_box.children == (app.board,)
    assert app.board.state.players == setup.default_players
    assert app.current.seed == 5 and app.current.computer == dict(setup.default_computer)
    assert set(app.board.bots) == set(setup.default_computer)
    assert app.banner.layout.display == "none" and app.notice.value == ""


def test_new_game_reads_every_choice_of_the_set_up(app):
    setup = app.setup
    players = setup.players[-1]
    app.players.value = players
    app.seed_text.value = "42"
    for seat, control in enumerate(app.seats[:players]):
        control.value = "random" if seat % 2 else ""
    assert app.new_game(), app.notice.value
    assert app.board.state.players == players and app.current.seed == 42
    assert set(app.board.bots) == {seat for seat in range(players) if seat % 2}
    assert all(app.board.bots[seat] is setup.bots()["random"] for seat in app.board.bots)
    # the same set-up gives the same game; another seed another one
    first = app.module.to_json(app.board.state)
    assert app.new_game() and app.module.to_json(app.board.state) == first
    app.seed_text.value = "43"
    assert app.new_game() and app.current.seed == 43


def test_a_blank_seed_draws_a_new_game_and_restart_replays_it(app):
    app.seed_text.value = ""
    app.new_game()
    seed, start = app.current.seed, app.module.to_json(app.board.state)
    board = app.board
    move = board.game.legal_moves(board.state)[0]
    assert board.play(move)
    app.players.value = app.setup.players[-1]  # a changed panel does not change what Restart replays
    app.restart()
    assert app.board is not board and app.current.seed == seed
    assert app.module.to_json(app.board.state) == start
    assert "Restarted" in app.notice.value


@pytest.mark.parametrize(
    ("game", "option", "value", "check"),
    [
        ("meetjesland", "move_limit", 3, lambda state: state.config.move_limit == 3),
        ("meetjesland", "hand_limit", 6, lambda state: state.config.hand_limit == 6),
        ("meetjesland", "brewery_value", 7, lambda state: state.config.brewery_value == 7),
        ("meetjesland", "set_three_alike", 9, lambda state: state.config.set_values[2] == 9),
        ("meetjesland", "starting_points", "random", lambda state: state.phase != "setup"),
        ("kingdom_builder", "first_game", True, lambda state: state.cards == ("fishermen", "knights", "merchants")),
        ("kingdom_builder", "section_1", "barn:turned", lambda state: state.sections[0] == ("barn", True)),
        ("kingdom_builder", "card_3", "lords", lambda state: "lords" in state.cards),
        ("kingdom_builder", "tile_loss", "end_of_turn", lambda state: state.config.tile_loss == "end_of_turn"),
        ("kingdom_builder", "lords_zero_scores", True, lambda state: state.config.lords_zero_scores),
        ("kingdom_builder", "move_in_place", True, lambda state: state.config.move_in_place),
        ("ab_die_post", "target", 21, lambda state: state.config.target == 21),
        ("ab_die_post", "first_player", 2, lambda state: state.config.first_player == 1),
        ("claim", "assembly", "random", lambda state: '"assembly":"random"' in claim.to_json(state)),
        ("claim", "quiet_turn_limit", 10, lambda state: state.config.quiet_turn_limit == 10),
        ("claim", "stalled_result", "draw", lambda state: state.config.stalled_result == "draw"),
        ("claim", "partners_share_territories", False, lambda state: not state.config.partners_share_territories),
    ],
)
def test_each_game_option_reaches_the_new_game(game, option, value, check):
    app = App(game, seed=3, computer=())
    app.option_controls[option].value = value
    assert app.new_game(), app.notice.value
    assert check(app.board.states[0])


def test_claim_teams_choose_the_partners_of_a_four_player_game():
    app = App("claim", seed=3, players=4, computer=())
    app.option_controls["teams"].value = "Red + Blue against Green + Yellow"
    assert app.new_game()
    colours = app.board.state.colours
    assert {colours[0], colours[2]} == {"red", "blue"} and {colours[1], colours[3]} == {"green", "yellow"}


def test_kingdom_builder_sections_chosen_twice_are_refused_and_the_game_stays():
    app = App("kingdom_builder", seed=3)
    board = app.board
    app.option_controls["section_1"].value = "barn:upright"
    app.option_controls["section_2"].value = "barn:turned"
    assert not app.new_game()
    assert app.board is board and "only once" in app.notice.value and "barn" in app.notice.value
    assert app.tabs.selected_index == App.SETUP_TAB


def test_a_bad_seed_is_explained_and_changes_nothing(app):
    board = app.board
    app.seed_text.value = "twelve"
    assert not app.new_game()
    assert app.board is board and "Seed" in app.notice.value and "whole number" in app.notice.value


def test_save_and_load_continue_the_same_game(app):
    board = app.board
    for _ in range(3):
        moves = board.game.legal_moves(board.state)
        if not moves:
            break
        board.play(moves[-1])
    name, text = app.saved()
    assert name.endswith(".json") and json.loads(text)
    saved_state = board.state
    other = App(app.game, seed=99)
    assert other.load(name, text.encode())
    assert other.module.to_json(other.board.state) == app.module.to_json(saved_state)
    assert f"Loaded {name}" in other.notice.value and "loaded from" in other.about.value


def test_the_save_button_sends_the_game_to_the_browser(app, monkeypatch):
    sent = []
    monkeypatch.setattr(app.save_button, "send", lambda content, buffers=None: sent.append(content))
    app.save_button._message(app.save_button, {"save": True}, [])
    assert sent and sent[0]["file"].endswith(".json")
    assert app.module.to_json(app.module.from_json(sent[0]["text"])) == sent[0]["text"]


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"{not json", "Could not load"),
        (b"\xff\xfe\x00", "not a text file"),
        (b'{"game": "nothing"}', "Could not load"),
        (b"[" * 5000 + b"]" * 5000, "Could not load"),
        (b"x" * 5_000_001, "much smaller"),
    ],
)
def test_a_bad_file_is_explained_and_the_game_stays_as_it_was(app, data, reason):
    board, state = app.board, app.board.state
    assert not app.load("bad.json", data)
    assert app.board is board and board.state is state
    assert reason in app.notice.value and "unchanged" in app.notice.value
    assert "Traceback" not in app.notice.value


def test_a_save_of_another_game_is_refused(app):
    other = next(game for game in GAMES if game != app.game)
    text = App(other, seed=1).saved()[1]
    board = app.board
    assert not app.load("other.json", text.encode())
    assert app.board is board


def test_an_upload_goes_through_load(app):
    """What the Load button's page sends (load_button.js: the file's name and size, its bytes as a buffer)."""
    name, text = app.saved()
    data = text.encode()
    app.upload._message(app.upload, {"load": name, "size": len(data)}, [memoryview(data)])
    assert f"Loaded {name}" in app.notice.value
    board = app.board
    app.upload._message(app.upload, {"load": "big.json", "size": app.upload.limit + 1}, [])  # not sent: too large
    assert "Could not load big.json" in app.notice.value and "much smaller" in app.notice.value
    app.upload._message(app.upload, {"load": "gone.json", "size": 10, "unreadable": True}, [])
    assert "the browser could not read the file" in app.notice.value and app.board is board


def test_a_rule_id_in_a_refusal_opens_its_paragraph_beside_the_board(app):
    board = app.board
    error = next(
        (err for move in _crafted_moves(board) if (err := board.game.check(board.state, move)) is not None), None
    )
    assert error is not None
    board.message, board.message_kind = f"Refused by {error.rule}: {error.message}", "error"
    board.redraw()
    assert f"data-rule='{error.rule}'" in board.status.value
    board.status._message(board.status, {"rule": error.rule}, [])  # what a click on the link sends
    assert app.tabs.selected_index == App.RULES_TAB and app.rules.focus == error.rule
    assert f"data-id='{error.rule}'" in app.rules.value
    app.rule_picker.value = next(iter(rules_text.paragraphs(app.game)))
    assert app.rules.focus == app.rule_picker.value


def _crafted_moves(board):
    """A few moves that are refused in the opening position (the game's own move classes with odd values)."""
    import dataclasses

    legal = board.game.legal_moves(board.state)
    moves = []
    for move in legal[:5]:
        for field in dataclasses.fields(move):
            value = getattr(move, field.name)
            if isinstance(value, int) and not isinstance(value, bool):
                moves.append(dataclasses.replace(move, **{field.name: value + 999}))
    # a turn-ending move out of its place is refused in every game
    for name in ("EndTurn", "Stop", "Pass", "Retreat", "Roll", "Fly", "KeepCard"):
        kind = getattr(board.game, name, None)
        if kind is not None:
            try:
                moves.append(kind())
            except TypeError:
                continue
    return moves


def test_a_stale_or_forged_rule_id_is_ignored(app):
    app.tabs.selected_index = App.SETUP_TAB
    app.board.status._message(app.board.status, {"rule": "XX-9.9"}, [])
    app.board.status._message(app.board.status, {"rule": ["MJ-5.2"]}, [])
    assert app.tabs.selected_index == App.SETUP_TAB and app.rules.focus == ""


def test_game_over_shows_the_banner_and_switches_the_move_controls_off(app):
    for seat in range(app.setup.default_players):
        app.seats[seat].value = "greedy"
    if "starting_points" in app.option_controls:
        app.option_controls["starting_points"].value = "random"
    assert app.new_game(), app.notice.value
    board = app.board
    assert board.finished, "computer players in every seat play the game to its end"
    assert app.banner.layout.display == "flex"
    banner = re.sub("<[^>]+>", "", app.banner_text.value)
    assert "Game over." in banner and " win" in banner
    controls = board.move_controls()
    assert controls and all(control.disabled for control in controls)
    assert board.undo_button.disabled  # a finished game is finished (issue 48.9)
    before = board.state
    assert not board.play(board.game.legal_moves(board.states[0])[0])
    assert board.state is before and "game is over" in board.status.text
    app.seats[0].value = ""
    assert app.new_game() and app.banner.layout.display == "none"
    assert any(not control.disabled for control in app.board.move_controls())


def test_nothing_of_python_shows_in_the_app(app):
    board = app.board
    for _ in range(6):
        moves = board.game.legal_moves(board.state)
        if not moves:
            break
        board.play(moves[len(moves) // 2])
    text = visible_text(app)
    for fragment in ("Fraction(", "Traceback", "computer=", "seed=", "None", "{'", "<rulebook", "object at 0x"):
        assert fragment not in text, fragment


def test_the_rules_panel_holds_every_paragraph_of_the_notebook_once(app):
    panel = rules_html(app.game)
    ids = re.findall(r"data-id='([^']+)'", panel)
    assert ids == list(rules_text.paragraphs(app.game))


def test_each_set_up_option_names_paragraphs_that_exist():
    for game, setup in registry.games().items():
        for option in setup.options:
            for rule in rules_text.RULE_ID.findall(option.help):
                assert rule in rules_text.paragraphs(game), (game, option.name, rule)


def test_the_rules_text_parser_keeps_tables_and_lists_with_their_paragraph():
    cells = [
        "# Title\n\nIntro.\n\n## 1. Part\n\n**XX-1.1** First.\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n"
        "**XX-C1 (clarification: x).** Second:\n\n1. one\n2. two\n\n### Aside\n\nNot a rule.",
        "**XX-2.1** Third.",
    ]
    outline, paragraphs = rules_text.parse(cells)
    assert outline == [
        ("heading", "1. Part"),
        ("rule", "XX-1.1"),
        ("rule", "XX-C1"),
        ("heading", "Aside"),
        ("rule", "XX-2.1"),
    ]
    assert "| 1 | 2 |" in paragraphs["XX-1.1"].markdown
    assert paragraphs["XX-C1"].markdown.endswith("2. two") and paragraphs["XX-C1"].is_clarification
    assert paragraphs["XX-2.1"].section == "Aside"
    with pytest.raises(ValueError, match="twice"):
        rules_text.parse(["**XX-1.1** a", "**XX-1.1** b"])


def test_the_app_notebook_is_one_cell_that_opens_the_game(tmp_path):
    from rulebook.cli import app_notebook, voila_command

    path = app_notebook("claim", tmp_path)
    notebook = json.loads(path.read_text())
    charts = tmp_path / views.plotly_file_name()  # plotly.min.js, for the ChartViews, beside the notebook
    assert charts.read_text() == get_plotlyjs()
    assert list(tmp_path.glob("plotly-*.js")) == [charts], "plotly.js is the one file served beside the notebook"
    key = charts.stem.split("-")[1]
    assert [cell["source"] for cell in notebook["cells"]] == [
        f"from rulebook.app import App\n\nApp('claim', plotly_url='voila/files/{charts.name}?v={key}')"
    ]
    command = voila_command(path, 8899, "secret")
    assert "--Voila.ip=127.0.0.1" in command and "--token=secret" in command and "--preheat_kernel=True" in command
    allowed = next(part for part in command if part.startswith("--VoilaConfiguration.file_allowlist="))
    patterns = ast.literal_eval(allowed.partition("=")[2])
    names = ((charts.name, True), (f"plotly-{key}.js", False), ("Claim.ipynb", False), ("plotly-0-script.js", False))
    for name, served in names:
        assert any(re.fullmatch(pattern, name) for pattern in patterns) is served, name


def test_an_app_given_plotly_s_address_has_its_charts_load_it_from_there():
    try:
        App("claim", seed=1, plotly_url="voila/files/plotly-0123456789abcdef-script.js?v=1")
        assert views.ChartView().plotly_url == "voila/files/plotly-0123456789abcdef-script.js?v=1"
    finally:
        views.serve_plotly_from("")


@pytest.mark.parametrize("game", GAMES)
def test_hint_names_a_legal_move_for_the_person_and_plays_nothing(game):
    app = App(game, seed=3)
    board = app.board
    if board.current_player(board.live) in board.bots:  # a computer to move (not in these set-ups): no hint
        pytest.skip("the person is not to move")
    before = list(board.states)
    app.hint_button.click()
    move = board.hinted
    assert move is not None and move in board.game.legal_moves(board.live)
    assert board.states == before, "a hint plays nothing"
    assert "Hint (" in board.status.text and "computer player)" in board.status.text
    again = board.hint()
    assert again == move  # the same position gives the same hint; the game's dice are untouched
    board.play(move)
    assert board.hinted is None


def test_no_hint_when_it_is_not_the_person_s_turn_or_the_game_is_over(app):
    for seat in range(app.setup.default_players):
        app.seats[seat].value = "greedy"
    if "starting_points" in app.option_controls:
        app.option_controls["starting_points"].value = "random"
    assert app.new_game()
    assert app.board.finished and app.hint_button.disabled
    assert app.board.hint() is None and "No hint now" in app.board.status.text


def _explorer_parts(explorer):
    """The explorer's number inputs (with none, its menus: Claim's Threats names the players by colour) and its result
    text (the widgets the browser test clicks and reads)."""
    import ipywidgets as widgets

    numbers, menus, results, stack = [], [], [], [explorer]
    while stack:
        widget = stack.pop()
        if isinstance(widget, (widgets.IntText, widgets.BoundedIntText)):
            numbers.append(widget)
        if isinstance(widget, widgets.Dropdown):
            menus.append(widget)
        if "rulebook-explorer-result" in getattr(widget, "_dom_classes", ()):
            results.append(widget)
        stack.extend(getattr(widget, "children", ()))
    return numbers or menus, results


@pytest.mark.parametrize("game", GAMES)
def test_a_game_with_an_odds_explorer_shows_it_beside_the_board_and_it_follows_new_games(game):
    explorer_class = registry.game(game).explorer_class()
    if explorer_class is None:
        pytest.skip(f"{game} has no odds explorer")
    app = App(game, seed=2)
    assert app.tabs.titles[-1] == getattr(explorer_class, "title", "Odds")
    assert app.odds_box.children == ()  # built when its tab is first shown: the page opens without its chart
    app.tabs.selected_index = app.odds_tab
    explorer = app.odds_box.children[0]
    assert "rulebook-explorer" in explorer._dom_classes
    numbers, results = _explorer_parts(explorer)
    assert numbers and results
    before = [result.value for result in results]
    number = numbers[0]
    if hasattr(number, "options"):  # a menu: another of its choices
        number.value = next(value for _, value in number.options if value != number.value)
    else:
        low = number.min if hasattr(number, "min") else 0
        high = number.max if hasattr(number, "max") else 100
        number.value = high if number.value != high else low
    assert [result.value for result in results] != before, "changing the number changes the result"
    assert app.new_game() and app.odds_box.children[0] is not explorer  # the tab is open: rebuilt at once
    app.tabs.selected_index = app.RULES_TAB
    assert app.new_game() and app.odds_box.children == ()
    app.tabs.selected_index = app.odds_tab
    assert len(app.odds_box.children) == 1 and app.odds_box.children[0] is not explorer


def test_rule_ids_are_linked_in_text_only_never_inside_a_tag_or_a_link():
    known = rules_text.paragraphs("kingdom_builder")
    linked = rules_text.rule_links("<div data-id='KB-5.1'>see KB-5.1, <a href='#x'>KB-6.3</a></div>", known)
    # the attribute stays as it was (an exercise's feedback showed its markup as text) and no link nests in a link
    assert linked.startswith("<div data-id='KB-5.1'>see <a href='#' data-rule='KB-5.1'")
    assert linked.endswith("<a href='#x'>KB-6.3</a></div>") and linked.count("<a ") == 2


def test_side_tabs_are_filled_when_first_shown():
    """The page opens with the board and the set-up; the rules text and the exercises come when their tab is opened."""
    app = App("claim", seed=2)
    assert app.rules.value == "" and app.exercises_box.children == ()
    app.tabs.selected_index = App.RULES_TAB
    assert "data-id='CL-1.1'" in app.rules.value
    app.tabs.selected_index = App.EXERCISES_TAB
    assert app.exercises_box.children == (app.exercises,)
    panel = app.exercises
    app.tabs.selected_index = App.SETUP_TAB
    app.tabs.selected_index = App.EXERCISES_TAB
    assert app.exercises is panel  # built once: progress is kept


def test_a_rule_opened_before_the_rules_tab_was_shown_brings_its_text():
    app = App("meetjesland", seed=2)
    app.open_rule("MJ-5.9")
    assert app.tabs.selected_index == App.RULES_TAB and app.rules.focus == "MJ-5.9"
    assert "data-id='MJ-5.9'" in app.rules.value


# --- closing what is replaced (issue 24.5) ------------------------------------------------------------------------


def _widgets_of(root) -> list:
    """Every widget a board or an explorer holds (its tree and the attributes outside it), as close_widgets finds
    them."""
    found, stack, seen = [], list(ui._widgets_in(root)), set()
    while stack:
        widget = stack.pop()
        if id(widget) not in seen:
            seen.add(id(widget))
            found.append(widget)
            stack.extend(ui._widgets_in(list(vars(widget).values())))
    return found


@pytest.mark.parametrize("game", GAMES)
def test_new_game_restart_and_load_close_what_they_replace(game):
    """306 -> 4,377 live widgets in 60 cycles, 444 -> 1,824 after 20 New games in Claim: every replaced board, its
    figure and its explorer stayed open. Now the count after 5 New games (20 in `make soak`) is where it was after the
    first, and so it is after Restarts and Loads with the explorer shown (it is built anew for each board, and closed
    with it). A board leaking one widget is seen after 4; the first replaced board's widgets are checked one by one."""
    app = App(game, seed=3)
    app.new_game()
    first, old = ui.live_widgets(), app.board
    old_widgets = _widgets_of(old)
    assert len(old_widgets) > 30 and all(widget.comm is not None for widget in old_widgets)
    for _ in range(count(5, 20)):
        assert app.new_game()
    assert ui.live_widgets() - first <= 3
    assert all(widget.comm is None for widget in old_widgets), "a widget of a replaced board is still open"
    if app.odds_tab is not None:
        app.tabs.selected_index = app.odds_tab
    app.restart()
    first = ui.live_widgets()
    old_widgets = _widgets_of(app.odds_box.children[0] if app.odds_box.children else app.board)
    for _ in range(3):
        app.restart()
        name, text = app.saved()
        assert app.load(name, text.encode())
    assert ui.live_widgets() - first <= 3
    assert all(widget.comm is None for widget in old_widgets), "a widget of a replaced explorer is still open"
    assert app.board.comm is not None and app.board.figure.comm is not None


def test_a_refused_load_or_set_up_closes_nothing_of_the_board_on_it():
    app = App("claim", seed=3)
    board, count = app.board, ui.live_widgets()
    assert not app.load("bad.json", b"{}")
    app.seed_text.value = "x"
    assert not app.new_game()
    assert app.board is board and board.comm is not None and ui.live_widgets() == count


def test_the_widget_count_sees_a_board_left_open():
    """What the test above counts does grow when a board is replaced without closing it (the leak as it was)."""
    game = registry.game("claim")
    count = ui.live_widgets()
    board = game.board_class()(game.new_state(2, 1, {}), seed=1)
    assert ui.live_widgets() - count > 50
    board.close()
    built = ui.build(lambda: game.board_class()(game.new_state(2, 1, {}), seed=1))
    assert built.built and all(widget.comm is not None for widget in built.built)
    built.close()
    assert ui.live_widgets() - count <= 1  # Claim's board replaces the Undo button's first layout: not in built
