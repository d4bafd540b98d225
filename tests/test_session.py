"""A game in play without widgets (``rulebook.session.Session``): whole games of the four games played by computer
players and by people's moves, undo, replay, refusals with their rule ids, hints and the log as data; and a check
that none of it imports ipywidgets, plotly or anywidget."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook import ab_die_post, claim, kingdom_builder, meetjesland
from rulebook.core import replay
from rulebook.session import LogGroup, Names, Session, Step

# short games: Ab die Post to 5 points, Kingdom Builder's first game, Claim for two
GAMES = {
    "meetjesland": lambda: meetjesland.new_game(players=3, seed=1),
    "kingdom_builder": lambda: kingdom_builder.new_game(players=2, seed=1, first_game=True),
    "ab_die_post": lambda: ab_die_post.new_game(players=2, seed=1, config=ab_die_post.Config(target=5)),
    "claim": lambda: claim.new_game(players=2, seed=1),
}

# for each game: moves played first, then a move the rules forbid and the id of the paragraph that forbids it
REFUSALS = {
    "meetjesland": ((), meetjesland.Place("zelzate_west", 1), "MJ-4.1"),  # Pink's territory, placed on by White
    "kingdom_builder": ((), kingdom_builder.Build((0, 0)), "KB-4.1"),  # a flower field; the card is canyon
    "ab_die_post": ((), ab_die_post.Fly(), "ADP-5.1"),  # no cards in hand; flying needs 4 points
    "claim": ((claim.Place((0, 0)),), claim.Place((0, 0)), "CL-4.2"),  # the point is taken
}


def computer_everywhere(game: str, bot: str = "greedy", seed: int = 1) -> Session:
    state = GAMES[game]()
    return Session(state, seed=seed, computer={seat: bot for seat in range(state.players)})


def against_the_computer(game: str) -> Session:
    """Seat 0 is a person; the computer's greedy player has the other seats."""
    state = GAMES[game]()
    return Session(state, seed=1, computer=range(1, state.players)).start()


def assert_log_tells_every_move(session: Session) -> None:
    groups = session.log(limit=10_000)
    assert all(isinstance(group, LogGroup) for group in groups)
    indices = [line.step.index for group in groups for line in group.lines]
    assert indices == list(range(len(session.states) - 1, 0, -1)), "newest first, every move once"
    for earlier, later in zip(groups[1:], groups):
        assert earlier.player != later.player, "consecutive moves of one player share a group"
    for group in groups:
        assert group.name == session.describe_player(group.player)
        assert group.computer == (group.player in session.bots)
        for line in group.lines:
            assert line.step == session.step(line.step.index) and line.step.player == group.player
            assert line.text == session.step_text(line.step) and line.text.strip()
    assert sum(len(group.lines) for group in session.log(limit=5)) == min(5, len(session.states) - 1)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_computer_players_in_every_seat_play_a_whole_game(game):
    session = computer_everywhere(game)
    assert session.start() is session and session.finished
    module = session.game
    result = module.outcome(session.live)
    assert result is not None and session.result_text().startswith(
        ("Nobody wins", *(session.describe_player(p) for p in result.winners))
    )
    assert session.you_text() == "The computer plays every seat"
    for index in range(1, len(session.states)):  # each state follows from the one before by its own log
        step = session.step(index)
        assert isinstance(step, Step) and step.before is session.states[index - 1]
        assert step.after.history[: len(step.before.history)] == step.before.history
        assert replay(step.before, step.after.history[len(step.before.history) :], module.apply) == step.after
        assert step.player in session.bots
    assert_log_tells_every_move(session)
    shown = session.steps_shown()  # a finished computer game marks its last round, not the whole game
    assert 1 <= len(shown) < len(session.states) - 1 and shown[-1].index == len(session.states) - 1
    # the same seed plays the same game
    again = computer_everywhere(game).start()
    assert again.live.history == session.live.history
    assert not session.play(session.step(1).move)
    assert (session.message, session.message_kind) == ("The game is over: start a new game to play again.", "error")
    assert session.hint() is None and session.message == "No hint now: it is not your turn to move."


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_person_plays_a_whole_game_against_the_computer(game):
    session = against_the_computer(game)
    chooser = random.Random(2)
    for _ in range(3_000):
        if session.finished:
            break
        assert session.current_player(session.live) == 0
        move = chooser.choice(session.game.legal_moves(session.live))
        count = len(session.states)
        assert session.play(move), session.message
        assert session.message_kind == "info" and session.message.startswith("Player 1: ")
        assert session.step(count).move == move and session.step(count).player == 0
        assert session.finished or session.current_player(session.live) == 0
    assert session.finished and session.result_text()
    assert session.you_text() == "You play Player 1"
    assert_log_tells_every_move(session)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_undo_takes_back_a_person_s_move_with_the_computer_s_replies(game):
    session = against_the_computer(game)
    session.undo()
    assert session.message == "Nothing to undo." and len(session.states) == 1
    for _ in range(20):  # a turn may be several moves: play on until the computer answers
        before = list(session.states)
        assert session.play(session.game.legal_moves(session.live)[0])
        if len(session.states) > len(before) + 1:
            break
    else:
        pytest.fail("the computer never answered")
    session.undo()
    assert (session.message, session.message_kind) == ("Took back your last move.", "info")
    assert session.states == before and session.current_player(session.live) == 0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_replay_shows_earlier_positions_and_a_move_returns_to_the_game(game):
    session = against_the_computer(game)
    for _ in range(4):
        assert session.play(session.game.legal_moves(session.live)[0])
    last = len(session.states) - 1
    assert last >= 4
    session.show_move(3)
    step = session.step(3)
    assert session.replaying and session.view == 3 and session.shown == 3
    assert session.state is session.states[3] and session.live is session.states[-1]
    assert session.steps_shown() == [step]
    assert (
        session.message
        == f"Replay, move 3 of {last}: {session.describe_player(step.player)}: {session.step_text(step)}"
    )
    session.show_move(-5)
    assert session.view == 0 and session.message == "Replay: the position at the start." and session.steps_shown() == []
    before = list(session.states)
    assert not session.play(session.game.legal_moves(session.live)[0])  # a move on the replayed position
    assert (
        session.message == "Back to the game: you were looking at an earlier move." and session.message_kind == "error"
    )
    assert session.view is None and session.states == before
    session.show_move(1)
    session.show_move(10**6)
    assert session.view is None and session.message == "Back to the game." and session.shown == last


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_move_the_rules_forbid_is_refused_with_its_rule_id(game):
    session = against_the_computer(game)
    first, forbidden, rule = REFUSALS[game]
    for move in first:
        assert session.play(move), session.message
    error = session.game.check(session.live, forbidden)
    assert error is not None and error.rule == rule
    before = list(session.states)
    assert not session.play(forbidden)
    assert (session.message, session.message_kind) == (f"Refused by {rule}: {error.message}", "error")
    assert session.states == before


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_hint_names_the_strong_player_s_move_and_plays_nothing(game):
    session = against_the_computer(game)
    before, dice = list(session.states), session.rng.getstate()
    move = session.hint()
    assert move in session.game.legal_moves(session.live) and session.hinted == move
    assert session.message.startswith(f"Hint (strong computer player): {session.move_text(move)}")
    assert session.message_kind == "info"
    assert session.states == before and session.rng.getstate() == dice, "a hint plays nothing and rolls no die"
    assert session.hint() == move, "the same position gets the same hint"
    assert session.play(move) and session.hinted is None


def test_a_move_for_a_computer_seat_is_refused():
    session = Session(claim.new_game(players=2, seed=1), seed=1, computer={0: "greedy"})  # not started: Red to move
    assert not session.play(claim.legal_moves(session.live)[0])
    assert session.message == "It is Player 1's turn, and the computer plays Player 1: wait for its move."
    assert len(session.states) == 1
    assert session.hint() is None and session.message_kind == "error"


def test_computer_seats_are_checked():
    state = claim.new_game(players=2, seed=1)
    with pytest.raises(ValueError, match="computer: seats are 0 to 1 in a game of 2"):
        Session(state, computer={2: "greedy"})
    with pytest.raises(ValueError, match="no computer player named 'clever'"):
        Session(state, computer={1: "clever"})
    with pytest.raises(ValueError, match="a seat is a number from 0"):
        Session(state, computer={-1: "greedy"})
    assert Session(state).you_text() == "People play Player 1 and Player 2"


def test_the_messages_use_the_names_given_to_the_session():
    class Colours(Names):
        def describe_player(self, player):
            return "Chance" if player is None else ("Red", "Blue")[player]

        def move_text(self, move):
            return str(move).upper()

    class Told(Colours):
        def replies(self, played, shown=2):
            return f"; and {len(played)} from the computer"

    session = Session(claim.new_game(players=2, seed=1), seed=1, computer={1: "greedy"}, names=Colours())
    session.hint()
    assert session.message.startswith("Hint (strong computer player): PLACE A PIECE ON")
    while len(session.states) < 3:
        assert session.play(claim.legal_moves(session.live)[0])
    assert session.message.startswith("Red: ") and "; then Blue: " in session.message
    assert session.log()[0].name == "Blue" and session.result_text() == ""
    session = Session(claim.new_game(players=2, seed=1), seed=1, computer={1: "greedy"}, names=Told())
    while len(session.states) < 3:
        assert session.play(claim.legal_moves(session.live)[0])
    assert session.message.endswith("; and 2 from the computer")


PLAY_EVERY_GAME = """
import json, random, sys
sys.path.insert(0, {root!r})
from tests.test_session import GAMES, against_the_computer, computer_everywhere
told = {{}}
for game in GAMES:
    finished = computer_everywhere(game).start()
    session = against_the_computer(game)
    session.hint()
    session.play(random.Random(0).choice(session.game.legal_moves(session.live)))
    session.show_move(0)
    replay = session.message
    session.undo()
    told[game] = [finished.finished, len(finished.log()), replay, session.message]
print(json.dumps([told, [name for name in ("ipywidgets", "plotly", "anywidget", "traitlets") if name in sys.modules]]))
"""


def test_sessions_never_import_a_widget_or_plotly():
    root = str(Path(__file__).resolve().parents[1])
    run = subprocess.run(
        [sys.executable, "-c", PLAY_EVERY_GAME.format(root=root)], capture_output=True, text=True, check=True, cwd=root
    )
    told, imported = json.loads(run.stdout)
    assert imported == []
    assert sorted(told) == sorted(GAMES)
    for finished, groups, replayed, undone in told.values():
        assert finished and groups >= 2
        assert (replayed, undone) == ("Replay: the position at the start.", "Took back your last move.")
