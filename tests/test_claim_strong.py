"""Claim's strong computer player (a search over its turn and the enemy's reply) and the reasons Hint gives.

The positions are written as diagrams; what each move captures, shields or leaves open is counted by hand from
them (the comments give the count), not taken from the engine."""

from __future__ import annotations

import random
import textwrap

from rulebook import claim
from rulebook.claim import Pass, PlaceTower, Step, Stop, bots

LAND = "\n".join(["aaaabbb"] * 5)  # 5 rows: row 0 of the diagram is row 5 on the board; columns A-G
THREE = "\n".join(["aaabbbccc"] * 5)  # three territories of 15 points


def position(pieces: str, land: str = LAND, header: str = "players: red blue\nto-move: red\nphase: battle"):
    return claim.from_diagram(f"{header}\n\n{land}\n\n{textwrap.dedent(pieces).strip()}\n")


# Red D2 steps up to D3: the blue piece on C3 is then between two red pieces and is captured, and red is alone in
# territory a (columns A-D).  The two blue pieces on G5 and G1 hold territory b alone; none of them is next to a red
# piece, so blue's reply captures nothing and puts a tower in b.
CAPTURE = """
......b
.......
.rb....
...r...
......b
"""

# The red tower on B5 stands on the top edge: a blue piece stepping from B3 to B4 would capture it (between blue and
# the edge) and the red piece on A4 too (between blue and the left edge), and blue would conquer territory a.  Red
# can instead step E1 to F1, capturing the blue piece on F2 against the red piece on F3 (and conquering b, where
# blue then has no piece), or block B4 by stepping A4 to B4.
BAIT = """
.R.....
r......
.b...r.
.....b.
....r..
"""


def test_strong_is_listed_and_takes_the_only_capture():
    assert {"random", "greedy", "strong"} <= set(bots.BOTS)
    state = position(CAPTURE)
    move = bots.BOTS["strong"](state, random.Random(0))
    assert move == Step((3, 3), (2, 3))
    assert claim.captures_of(state, move) == ((2, 2),)
    assert bots.explain(state, move) == (
        "Captures a blue piece on C3 and conquers territory a, where a tower can go; the piece on D3 cannot be "
        "captured by a single step next turn; looking one reply ahead, the enemy's best reply takes nothing: you would "
        "have 2 pieces and 1 tower against 2 and 1."
    )


def test_strong_shields_its_tower_where_greedy_grabs_a_piece():
    state = position(BAIT)
    greedy = bots.greedy_player(state, random.Random(0))
    strong = bots.strong_player(state, random.Random(0))
    assert greedy == Step((4, 4), (4, 5)) and claim.captures_of(state, greedy) == ((3, 5),)
    assert strong == Step((1, 0), (1, 1))
    # the threat greedy overlooks: after its capture (and a red tower in b), blue steps B3 -> B4 and takes two
    after = claim.apply(state, greedy)
    after = claim.apply(after, next(m for m in claim.legal_moves(after) if isinstance(m, PlaceTower)))
    assert after.turn == 1
    assert set(claim.captures_of(after, Step((2, 1), (1, 1)))) == {(0, 1), (1, 0)}
    # after strong's block, the blue piece on B3 captures nothing by stepping
    blocked = claim.apply(state, strong)
    assert not any(claim.captures_of(blocked, m) for m in claim.moves_from(blocked, (2, 1)))
    why = bots.explain(state, strong)
    assert why.startswith("A quiet move, worth more here than the captures within reach; it moves a piece within")
    assert "it shields the tower on B5 from capture" in why and "out of danger" in why
    # greedy's capture, explained the same way, shows the cost: the tower and a piece lost to the reply
    assert "the enemy's best reply takes 1 tower and 1 piece" in bots.explain(state, greedy)


def test_strong_puts_down_the_winning_tower():
    # red has towers in a and b and stands alone in c (columns G-I): the third tower wins
    state = position(
        """
        R..b.....
        .........
        ......r..
        ....R....
        .b.....r.
        """,
        land=THREE,
    )
    move = bots.strong_player(state, random.Random(0))
    assert isinstance(move, PlaceTower) and move.territory == "c"
    assert claim.apply(state, move).result.winners == (0,)
    assert bots.explain(state, move) == "A tower in territory c: your side's tower 3 of 3: this wins the game."


def test_strong_passes_when_nothing_moves_and_says_why():
    # the red piece in the corner A5 is walled in: B5 and A4 are blue, and the jumps land on C5 and A3, also blue
    state = position("rbb....\nb......\nb......\n.......\n.......")
    assert claim.legal_moves(state) == (Pass(),)
    assert bots.strong_player(state, random.Random(0)) == Pass()
    assert bots.explain(state, Pass()) == "None of your pieces can move, so passing is the only move."


def test_explain_placement_removal_and_stop():
    start = claim.new_game(players=2, seed=1)  # red begins on an empty island
    place = claim.Place((5, 5))
    territory = start.island.territory[(5, 5)]
    assert bots.explain(start, place) == (
        f"Build up territory {territory} (1 of yours and no enemy piece there after this piece), a new foothold."
    )
    removal = position(
        "rrrbbbb\nrrrrbbb\nrrrrbbb\nrrr.bbb\n....bbb",
        header="players: red blue\nto-move: red\nphase: removal\nremovals-left: red 4 blue 4",
    )
    # 14 red pieces fill territory a (columns A-D) but for the blue piece on D5: taking it off leaves red alone there
    assert bots.explain(removal, claim.Remove((0, 3))) == (
        "Weaken the enemy in territory a: 14 of yours and no enemy piece left there."
    )
    follow = claim.apply(position(CAPTURE), Step((3, 3), (2, 3)))
    assert Stop() in claim.legal_moves(follow)
    assert bots.explain(follow, Stop()).startswith("End the turn")


def test_strong_is_deterministic_and_legal_with_two_and_four_players():
    for players in (2, 4):
        games = []
        for _ in range(2):
            state = claim.new_game(players=players, seed=21)
            rng = random.Random(21)
            for _ in range(110):
                if state.result is not None:
                    break
                bot = bots.strong_player if state.turn == 0 else bots.greedy_player
                move = bot(state, rng)
                assert claim.check(state, move) is None, move
                state = claim.apply(state, move)
            games.append(state.history)
        assert games[0] == games[1], players


def test_the_quick_level_plays_whole_games_legally_and_the_same_way_twice():
    from rulebook import study

    first = study.play_game("claim", ("quick", "greedy"), seed=3)
    assert first.finished and first == study.play_game("claim", ("quick", "greedy"), seed=3)
    assert bots.BOTS["quick"] is not bots.BOTS["strong"]
    state = bots.play_until_battle(claim.new_game(players=2, seed=5), random.Random(5))
    move = bots.BOTS["quick"](state, random.Random(0))
    assert move in claim.legal_moves(state)
