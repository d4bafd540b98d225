"""Issue 48.9, the games' and the Lab's polish: a Claim hint plays a whole multi-jump and continues one in progress,
Meetjesland's refusals in the controls carry their rule, its map labels keep off the pieces, its chain planner sits
beside the map, and ``rulebook lab`` starts without JupyterLab's news toast over the notebook."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import time
import urllib.request
from pathlib import Path

from rulebook import serve, working_copy
from tests.helpers import free_port

NOTIFICATION = "@jupyterlab/apputils-extension:notification"


def test_the_lab_settings_turn_off_the_news_toast_and_keep_the_installed_ones(tmp_path):
    installed = tmp_path / "share/jupyter/lab/settings"
    installed.mkdir(parents=True)
    (installed / "page_config.json").write_text('{"disabledExtensions": ["x"]}')
    (installed / "overrides.json").write_text(json.dumps({NOTIFICATION: {"doNotDisturbMode": True}, "other": {"a": 1}}))
    (installed.parent / "static").mkdir()
    settings = serve.lab_settings(tmp_path / "server", installed)
    overrides = json.loads((settings / "overrides.json").read_text())
    assert overrides[NOTIFICATION] == {"doNotDisturbMode": True, "fetchNews": "false", "checkForUpdates": False}
    assert overrides["other"] == {"a": 1}
    assert (settings / "page_config.json").read_text() == '{"disabledExtensions": ["x"]}'
    assert (settings.parent / "static").resolve() == (installed.parent / "static").resolve()
    assert json.loads((installed / "overrides.json").read_text())[NOTIFICATION] == {"doNotDisturbMode": True}
    # an installed Lab without a settings folder at all
    bare = serve.lab_settings(tmp_path / "bare", tmp_path / "nowhere")
    assert json.loads((bare / "overrides.json").read_text()) == serve.QUIET_LAB


def test_rulebook_lab_serves_the_notification_settings_with_news_off(tmp_path):
    """The real server ``rulebook lab`` starts: the settings the page loads say never fetch news (so no toast asks)
    and never check for updates, while the person's own Lab settings folder holds nothing of the kind."""
    copy = working_copy.prepare(tmp_path / "notebooks").folder
    port, token = free_port(), "t" * 48
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "home-jupyter"), JUPYTER_RUNTIME_DIR=str(tmp_path / "rt"))
    process = subprocess.Popen(
        serve.lab_command(port, token=token, root_dir=copy),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/lab/api/settings/{NOTIFICATION}?token={token}"
    try:
        deadline, answer = time.monotonic() + 120, None
        while answer is None:
            assert process.poll() is None and time.monotonic() < deadline, "the Lab server did not answer"
            try:
                with urllib.request.urlopen(url, timeout=5) as response:
                    answer = json.load(response)
            except OSError:
                time.sleep(0.5)
    finally:
        process.terminate()
        process.wait(timeout=30)
    defaults = {name: value.get("default") for name, value in answer["schema"]["properties"].items()}
    assert defaults["fetchNews"] == "false" and defaults["checkForUpdates"] is False  # JupyterLab's own: "none", true
    assert "fetchNews" not in answer["settings"]  # the person's own settings: nothing chosen for them
    assert not Path(tmp_path / "home-jupyter").exists() or not any(Path(tmp_path / "home-jupyter").rglob("*.json"))


# --- Claim: a hint's series of captures is played whole, and a hint in the middle of a jump goes on from there ----

CLAIM_LAND = "\n".join(["aaaabbb"] * 5)
# red A5 jumps over B5 (red), D5 and F5 (blue): landing on E5 takes the blue E4 (red E3 beyond), on G5 the blue G4
# (red G3 beyond); from either it may jump on to the other and take the second (CL-7.4): two captures in the turn
TWO_CAPTURES = "rr.b.b.\n....b.b\n....r.r\n.......\nb......"
# only E4 to take: landing on E5 takes it, and the piece there could still jump on over F5 to G5 (taking nothing)
ONE_CAPTURE = "rr.b.b.\n....b..\n....r..\n.......\nb.....b"


def claim_board(pieces: str):
    from rulebook import claim
    from rulebook.claim.widget import Board

    text = f"players: red blue\nto-move: red\nphase: battle\n\n{CLAIM_LAND}\n\n{pieces}\n"
    return Board(claim.from_diagram(text), computer={1: "greedy"})


def claim_xy(table, name: str) -> list[tuple[float, float]]:
    from rulebook.views import trace

    drawn = trace(table.figure.plot, name)
    return [(x, y) for x, y in zip(drawn.x or (), drawn.y or ()) if x is not None]


def test_following_a_hinted_jump_plays_it_whole_without_a_stop():
    from rulebook import claim

    table = claim_board(ONE_CAPTURE)
    move = table.hint()
    assert move == claim.Jump((0, 0), ((0, 2), (0, 4)))
    table.click_point((0, 0))
    table.click_point((0, 4))  # the hint's star: E5, from where the piece could still jump on to G5
    assert not table.jumping and table.selected is None
    red, blue_reply = table.live.history[-2:]
    assert red == move and table.states[-2].turn == 1  # played, and the turn went to blue (no Stop asked for)
    assert table.states[-2].at((1, 4)) == "."  # E4 taken
    # without a hint the same clicks keep the piece in hand on E5, as before (it may jump on)
    table = claim_board(ONE_CAPTURE)
    table.click_point((0, 0))
    table.click_point((0, 4))
    assert table.jumping and table.landings == ((0, 2), (0, 4)) and table.live.history == ()


def test_a_hint_plays_its_whole_series_of_captures():
    from rulebook import claim

    table = claim_board(TWO_CAPTURES)
    first = table.hint()
    assert isinstance(first, claim.Jump) and first.origin == (0, 0)
    assert "; then jump from" in table.status.text  # the second capture is said, not only the first
    path = claim_xy(table, "suggested move")
    assert {(4.0, 0.0), (6.0, 0.0)} <= set(path) and path[0] == (0.0, 0.0)  # x = column, y = -row
    table.click_point((0, 0))
    table.click_point(first.destination)
    after_red = next(state for state in table.states if state.turn == 1)
    assert after_red.at((1, 4)) == "." and after_red.at((1, 6)) == "."  # both blue pieces taken (E4, G4)
    assert after_red.follow_up is None and len(after_red.history) == 2  # two jumps, the turn passed: no Stop left
    assert all(isinstance(move, claim.Jump) for move in after_red.history)


def test_a_hint_in_the_middle_of_a_jump_goes_on_from_where_the_piece_stands():
    from rulebook import claim

    table = claim_board(ONE_CAPTURE)
    table.click_point((0, 0))
    table.click_point((0, 2))  # landed on C5, the piece in hand
    assert table.jumping and table.landings == ((0, 2),)
    move = table.hint()
    assert move == claim.Jump((0, 0), ((0, 2), (0, 4)))
    assert "the piece on C5 jumps on" in table.status.text
    assert claim_xy(table, "suggested move") == [(2.0, 0.0), (4.0, 0.0)]  # from C5, where it stands, to E5
    assert claim_xy(table, "suggested points") == [(2.0, 0.0), (4.0, 0.0)]
    table.click_point((0, 4))
    assert not table.jumping and table.live.history[0] == move


def test_a_hint_after_a_capture_goes_on_with_the_piece_that_must_move():
    from rulebook import claim

    table = claim_board(TWO_CAPTURES)
    table.click_point((0, 0))
    table.click_point((0, 2))
    table.click_point((0, 4))
    table.stop()  # the jump ends on E5, taking E4; the piece may capture again (CL-7.4)
    assert table.live.follow_up == (0, 4) and table.live.turn == 0
    move = table.hint()
    assert move == claim.Jump((0, 4), ((0, 6),))  # on over F5 to G5, taking G4
    assert claim_xy(table, "suggested points") == [(4.0, 0.0), (6.0, 0.0)]


def test_a_hint_chain_ends_at_the_stop_its_player_makes():
    from rulebook import claim
    from rulebook.claim.widget import hint_chain

    state = claim_board(TWO_CAPTURES).live
    first = claim.Jump((0, 0), ((0, 2), (0, 4)))
    chain = hint_chain(state, first, lambda _state, _rng: claim.Stop(), random.Random(1))
    assert chain == (first, claim.Stop())
    quiet = claim.Step((0, 1), (1, 1))  # captures nothing: the turn passes, no bot is asked
    assert hint_chain(state, quiet, lambda *_: claim.Stop(), random.Random(1)) == (quiet,)


# --- Meetjesland: the refusal of a target that does not border, in the controls, links its rule ------------------


def meetjesland_after_setup():
    from rulebook import meetjesland as mj
    from rulebook.meetjesland.widget import Board

    table = Board(mj.new_game(players=4, seed=1), seed=1, computer=(1, 2, 3))
    table.auto_button.click()
    assert table.state.phase == "play" and table.state.turn == 0
    return table


def test_the_controls_refusal_of_a_target_that_does_not_border_is_a_rule_link():
    table = meetjesland_after_setup()
    state = table.state
    origin = next(t for t in state.territories_of(0) if state.points_on(t) >= 2)
    far = next(t for t in state.board.territories if state.owner_of(t) != 0 and t not in state.board.graph[origin])
    table.origin_menu.value, table.target_menu.value = origin, far
    words = f"{state.board.name(far)} does not border {state.board.name(origin)}"
    assert words in re.sub(r"<[^>]*>", "", table.odds.value)
    link = "<a href='#' data-rule='MJ-5.2' title='Read MJ-5.2' class='rb-rule-link'>MJ-5.2</a>"
    assert link in table.odds.value  # the same link the status line gives a refusal
    table.attack_button.click()
    assert link in table.status.value and words in table.status.text
    # a click on it opens the rule where the status line's links open it: under the status line, or the app's panel
    table.odds._message(table.odds, {"rule": "MJ-5.2"}, [])
    assert "MJ-5.2" in table.status.detail
    opened: list[str] = []
    table.status.handlers.append(opened.append)
    table.odds._message(table.odds, {"rule": "MJ-5.2"}, [])
    assert opened == ["MJ-5.2"]


# --- Meetjesland: the chain planner at the top of its panel, beside the map -------------------------------------


def test_the_chain_planner_is_shown_at_the_top_of_the_explorer_not_under_the_calculator():
    from rulebook.meetjesland.explorer import Explorer
    from rulebook.meetjesland.widget import Board
    from tests.helpers import mj_playing

    board = Board(mj_playing({"eeklo": (0, 12), "kaprijke": (1, 3), "bassevelde": (2, 2), "boekhoute": (3, 4)}))
    explorer = Explorer(board)
    switch, calculator, planner = explorer.children
    assert [label for label, _ in switch.options] == ["Attack calculator", "Chain planner"]
    assert explorer.plan_button in planner.children[2].children and explorer.attackers in calculator.children
    assert calculator.layout.display is None and planner.layout.display == "none"  # one at a time, at the top
    switch.value = "chain"
    assert calculator.layout.display == "none" and planner.layout.display is None
    switch.value = "attack"
    explorer.plan_button.value = True  # planning on the map shows the planner, whatever pressed the button
    assert switch.value == "chain" and planner.layout.display is None
    explorer.click("eeklo")
    explorer.click("kaprijke")
    assert explorer.path == ["kaprijke"]
    switch.value = "attack"  # the planner put away: clicks on the map reach the board again
    assert not explorer.plan_button.value and not explorer.click("bassevelde")
