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
    session.undo_chance = True  # past cards drawn too: by default Undo stops at chance (issue 24.11, tests below)
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
    session.undo_chance = True  # the first move may draw a card, which Undo keeps by default (issue 24.11)
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


# -- issue 24.11: Undo never takes back a chance outcome that has been shown ---------------------------------------
DICE_ROLLED = "The dice have been rolled: a move that led to chance cannot be taken back."
CARD_DRAWN = "A card has been drawn: a move that led to chance cannot be taken back."


def meetjesland_at_an_attack(**options) -> Session:
    """Meetjesland for three, the person (White) to move in their first turn of play, with an attack open."""
    session = Session(meetjesland.new_game(players=3, seed=1), seed=1, computer=(1, 2), **options).start()
    while not any(isinstance(move, meetjesland.Attack) for move in meetjesland.legal_moves(session.live)):
        assert session.play(meetjesland.legal_moves(session.live)[0]), session.message  # the starting points
    assert session.live.phase == "play" and session.current_player(session.live) == 0
    return session


def attack(session: Session) -> meetjesland.Attack:
    move = next(move for move in meetjesland.legal_moves(session.live) if isinstance(move, meetjesland.Attack))
    assert session.play(move), session.message
    assert isinstance(session.live.history[-1], meetjesland.Dice), "the attack's dice are rolled at once"
    return move


def place_reinforcements(session: Session) -> list:
    """Place the points of a reinforcement one by one (no chance); returns the states."""
    while True:
        places = [move for move in meetjesland.legal_moves(session.live) if isinstance(move, meetjesland.Place)]
        if not places:
            return list(session.states)
        assert session.play(places[0]), session.message


def refused_undo(session: Session, message: str) -> None:
    states, dice = list(session.states), session.rng.getstate()
    session.undo()
    assert (session.message, session.message_kind) == (message, "error")
    assert session.states == states and session.rng.getstate() == dice, "a refused Undo changes nothing"


def test_undo_keeps_an_attack_s_dice_and_takes_back_the_moves_after_them():
    session = meetjesland_at_an_attack()
    start = list(session.states)
    assert session.play(meetjesland.Reinforce())  # a reinforcement (MJ-4.4) instead of an attack: no chance
    reinforced = place_reinforcements(session)
    assert len(reinforced) > len(start) + 1
    session.undo()  # before the dice, Undo takes back as it always did
    assert session.message == "Took back your last move." and session.states == reinforced[:-1]
    while len(session.states) > len(start):
        session.undo()
        assert session.message == "Took back your last move."
    assert session.states == start and session.live.stage == "start"
    attack(session)
    rolled = list(session.states)
    if session.live.battle is not None:  # the battle goes on: a retreat, no chance, can be taken back
        assert session.play(meetjesland.Retreat())
        session.undo()
        assert session.message == "Took back your last move." and session.states == rolled
    refused_undo(session, DICE_ROLLED)
    refused_undo(session, DICE_ROLLED)  # and again: Undo never reaches the attack
    assert session.chance_settled(len(rolled) - 1) == (rolled[-1].history[-1],)
    assert session.chance_settled(len(rolled) - 2) == ()
    for wrong in (0, len(session.states), "1"):
        with pytest.raises(ValueError, match="a move is numbered 1 to"):
            session.chance_settled(wrong)


def test_undo_keeps_a_drawn_card_in_ab_die_post():
    session = against_the_computer("ab_die_post")
    assert session.play(ab_die_post.DrawCard())
    refused_undo(session, CARD_DRAWN)
    drawn = session.step(len(session.states) - 1)
    assert isinstance(drawn.after.history[-1], ab_die_post.CardDrawn)
    assert session.chance_settled(drawn.index) == (drawn.after.history[-1],), "the card, not the move that drew it"


def test_undo_keeps_the_terrain_card_drawn_at_a_person_s_turn_end_in_kingdom_builder():
    session = Session(kingdom_builder.new_game(players=2, seed=1, first_game=True), seed=1).start()  # two people
    for _ in range(3):
        assert session.play(kingdom_builder.legal_moves(session.live)[0]), session.message
    session.undo()  # a settlement, no chance: taken back
    assert session.message == "Took back your last move." and len(session.states) == 3
    assert session.play(kingdom_builder.legal_moves(session.live)[0])
    assert session.play(kingdom_builder.EndTurn())
    assert isinstance(session.live.history[-1], kingdom_builder.CardDrawn) and session.live.player == 1
    refused_undo(session, CARD_DRAWN)
    assert session.play(kingdom_builder.legal_moves(session.live)[0])  # Blue's first settlement
    session.undo()
    assert session.message == "Took back your last move." and session.live.player == 1
    refused_undo(session, CARD_DRAWN)


def test_undo_in_claim_which_has_no_chance_takes_every_move_back_with_the_same_computer_replies():
    session = against_the_computer("claim")
    start, dice = session.live, session.rng.getstate()
    played = []
    for _ in range(3):
        played.append(claim.legal_moves(session.live)[0])
        assert session.play(played[-1])
    assert session.rng.getstate() != dice, "the computer's replies used the generator"
    game = list(session.states)
    for _ in range(3):
        session.undo()
        assert session.message == "Took back your last move." and session.current_player(session.live) == 0
    assert session.states == [start] and session.rng.getstate() == dice, "the generator goes back with the moves"
    session.undo()
    assert (session.message, session.message_kind) == ("Nothing to undo.", "info")
    for move in played:
        assert session.play(move)
    assert session.states == game, "the same moves again: the same replies"


def chance_games(options: dict) -> dict:
    """For each game with chance: a session with the person to move, and the move of theirs that leads to chance."""

    def at_attack():
        session = meetjesland_at_an_attack(**options)
        move = next(move for move in meetjesland.legal_moves(session.live) if isinstance(move, meetjesland.Attack))
        return session, move

    def at_draw():
        return Session(GAMES["ab_die_post"](), seed=1, computer=(1,), **options).start(), ab_die_post.DrawCard()

    def at_turn_end():
        session = Session(GAMES["kingdom_builder"](), seed=1, computer=(1,), **options).start()
        for _ in range(3):
            assert session.play(kingdom_builder.legal_moves(session.live)[0]), session.message
        return session, kingdom_builder.EndTurn()

    return {"meetjesland": at_attack, "ab_die_post": at_draw, "kingdom_builder": at_turn_end}


@pytest.mark.parametrize("game", ["meetjesland", "ab_die_post", "kingdom_builder"])
def test_undo_chance_takes_chance_back_for_teaching_and_playing_again_gives_the_same_outcome(game):
    session, move = chance_games({"undo_chance": True})[game]()
    states, dice = list(session.states), session.rng.getstate()
    assert session.play(move)
    after = list(session.states)
    assert any(session.chance_settled(index) for index in range(len(states), len(after)))
    session.undo()
    assert (session.message, session.message_kind) == ("Took back your last move.", "info")
    assert session.states == states and session.rng.getstate() == dice
    assert session.play(move)
    assert session.states == after, "taking back a move does not re-roll: the same dice, the same cards"
    # by default the same move stays: chance shown is never taken back
    session, move = chance_games({})[game]()
    assert not session.undo_chance
    states = list(session.states)
    assert session.play(move)
    assert len(session.states) > len(states)
    refused_undo(session, DICE_ROLLED if game == "meetjesland" else CARD_DRAWN)


def test_a_refused_undo_names_the_dice_or_the_card_else_chance():
    from rulebook.session import chance_words

    assert chance_words(meetjesland.Dice((6,), (2, 1))) == "The dice have been rolled"
    assert chance_words(meetjesland.CardDrawn("infantry")) == "A card has been drawn"
    assert chance_words(kingdom_builder.CardDrawn("canyon")) == "A card has been drawn"
    assert chance_words(ab_die_post.MarbleShaken("black")) == "The hurricane indicator has shown its marble"
    assert chance_words(("a coin", "heads")) == "Chance has been settled"
