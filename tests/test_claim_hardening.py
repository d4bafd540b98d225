"""Claim against hostile input (issue 17): Config bounds, malformed moves, long values quoted short, big diagrams,
impossible positions, unreadable board files, and diagrams that must round-trip through a save."""

from __future__ import annotations

import json

import hypothesis
import pytest

from rulebook import claim
from rulebook.claim import rules
from rulebook.core import IllegalMove

LAND = "\n".join(["aaaabbb"] * 5)


def test_config_bounds_are_checked_in_code_and_in_saves():
    assert claim.Config(quiet_turn_limit=rules.MAX_QUIET_TURNS).quiet_turn_limit == rules.MAX_QUIET_TURNS
    with pytest.raises(ValueError, match="quiet_turn_limit must be a whole number from 1 to"):
        claim.Config(quiet_turn_limit=rules.MAX_QUIET_TURNS + 1)
    save = json.loads(claim.to_json(claim.new_game(players=2, seed=1)))
    save["setup"]["config"]["quiet_turn_limit"] = 10**12
    with pytest.raises(ValueError, match="quiet_turn_limit"):
        claim.from_json(json.dumps(save))


def test_a_malformed_tower_move_is_a_value_error_and_changes_nothing():
    state = claim.from_diagram(
        f"players: red blue\nto-move: red\nphase: battle\n\n{LAND}\n\nr......\n" + ".......\n" * 4
    )
    before = claim.to_diagram(state)
    for move in (claim.PlaceTower(["a"], (0, 0)), claim.PlaceTower({"a": 1}, (0, 0)), claim.PlaceTower(None, (0, 0))):
        with pytest.raises(ValueError, match="territory"):
            claim.apply(state, move)
        assert isinstance(claim.check(state, claim.PlaceTower("a", (0, 1))), type(None))
    assert claim.to_diagram(state) == before
    assert claim.apply(state, claim.PlaceTower("a", (0, 1))).at((0, 1)) == "R"


HUGE = "x" * 100_000


@pytest.mark.parametrize(
    "attempt",
    [
        lambda: claim.apply(claim.new_game(players=2, seed=1), claim.Place((HUGE, 0))),
        lambda: claim.apply(claim.new_game(players=2, seed=1), HUGE),
        lambda: claim.Config(stalled_result=HUGE),
        lambda: claim.Config(quiet_turn_limit=HUGE),
        lambda: claim.new_game(players=2, seed=1, colours=[HUGE, "red"]),
        lambda: claim.new_game(players=HUGE),
        lambda: claim.from_diagram(
            f"players: red blue\nto-move: {HUGE}\nphase: battle\n\n{LAND}\n\n" + ".......\n" * 5
        ),
        lambda: claim.from_diagram(f"players: red blue\nto-move: red\nphase: {HUGE}\n\n{LAND}\n\n" + ".......\n" * 5),
        lambda: claim.from_diagram(f"players: red {HUGE}\nto-move: red\nphase: battle\n\n{LAND}\n\n" + ".......\n" * 5),
        lambda: claim.from_diagram(f"{HUGE}\n\n{LAND}\n\n" + ".......\n" * 5),
        lambda: claim.from_diagram(f"players: red blue\nto-move: red\nphase: battle\nfollow-up: {HUGE}\n\n{LAND}\n\n"),
    ],
)
def test_errors_quote_only_a_short_prefix_of_a_bad_value(attempt):
    with pytest.raises((ValueError, IllegalMove)) as error:
        attempt()
    text = str(error.value) if isinstance(error.value, ValueError) else error.value.message
    assert len(text) < 400, text[:200]


def test_an_island_too_large_for_the_game_is_refused_clearly():
    side = rules.MAX_SIDE + 1
    land = "\n".join(["a" * side] * side)
    with pytest.raises(ValueError, match=f"at most {rules.MAX_SIDE} rows and columns"):
        claim.from_diagram(f"players: red blue\nto-move: red\nphase: battle\n\n{land}\n\n" + ("." * side + "\n") * side)
    big = "\n".join(["a" * rules.MAX_SIDE] * rules.MAX_SIDE)  # the largest allowed loads (in linear time)
    pieces = ("." * rules.MAX_SIDE + "\n") * rules.MAX_SIDE
    assert len(
        claim.from_diagram(f"players: red blue\nto-move: red\nphase: battle\n\n{big}\n\n{pieces}").island.points
    ) == (rules.MAX_SIDE**2)


def placement(headers: str, pieces: str) -> claim.State:
    land = "\n".join(["aaaaaaabbbbbbb"] * 5)
    return claim.from_diagram(f"players: red blue yellow\nphase: placement\n{headers}\n\n{land}\n\n{pieces}\n")


def row_of(counts: dict[str, int]) -> str:
    cells = "".join(letter * count for letter, count in counts.items())
    cells += "." * (70 - len(cells))
    return "\n".join(cells[i : i + 14] for i in range(0, 70, 14))


def test_placement_counts_must_follow_the_turn_order():
    # red began; 3 players with 17, 18 and 10 pieces cannot come from turns of two pieces in seat order
    with pytest.raises(ValueError, match="placement"):
        placement("to-move: red\nfirst: red", row_of({"r": 17, "b": 18, "y": 10}))
    # red began and has placed 6 and one more of this turn; blue and yellow have 6 each: consistent
    state = placement("to-move: red\nfirst: red", row_of({"r": 7, "b": 6, "y": 6}))
    assert claim.apply(state, claim.Place((4, 13))).turn == 1
    # blue is to move after red's turn: red 8, blue 6 (or 7), yellow 6
    placement("to-move: blue\nfirst: red", row_of({"r": 8, "b": 7, "y": 6}))
    with pytest.raises(ValueError, match="placement"):
        placement("to-move: blue\nfirst: red", row_of({"r": 6, "b": 6, "y": 6}))  # red has not played its turn


def test_a_side_with_its_towers_has_won_already():
    pieces = "R..B...\n.......\n.......\n.......\nR....R."
    land = "aaabbbb\naaabbbb\ncccbbbb\ncccdddd\ncccdddd"
    with pytest.raises(ValueError, match="red has 3 towers"):
        claim.from_diagram(f"players: red blue\nto-move: blue\nphase: battle\n\n{land}\n\n{pieces}\n")
    done = claim.from_diagram(f"players: red blue\nto-move: none\nphase: battle\n\n{land}\n\n{pieces}\n")
    assert claim.outcome(done).winners == (0,)


@pytest.mark.parametrize("name", ["sections.json", "layout_2.json"])
def test_board_files_that_cannot_be_read_are_value_errors(tmp_path, monkeypatch, name):
    for path in rules.claim_dir().iterdir():
        (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / name).unlink()
    (tmp_path / name).mkdir()  # a directory where the file should be
    monkeypatch.setattr(rules, "claim_dir", lambda: tmp_path)
    rules.load_sections.cache_clear()
    rules.fixed_layout.cache_clear()
    try:
        with pytest.raises(ValueError, match=name):
            rules.fixed_layout(2)
    finally:
        rules.load_sections.cache_clear()
        rules.fixed_layout.cache_clear()
    (tmp_path / name).rmdir()
    (tmp_path / name).write_bytes(b"\xff\xfe{")  # not UTF-8
    rules.load_sections.cache_clear()
    rules.fixed_layout.cache_clear()
    try:
        with pytest.raises(ValueError, match=name):
            rules.fixed_layout(2)
    finally:
        rules.load_sections.cache_clear()
        rules.fixed_layout.cache_clear()


def test_removals_left_belongs_to_the_removal_phase_and_round_trips():
    pieces = "r......\n.......\n.......\n.......\n......b"
    with pytest.raises(ValueError, match="removals-left"):
        claim.from_diagram(
            f"players: red blue\nto-move: red\nphase: battle\nremovals-left: red 2 blue 1\n\n{LAND}\n\n{pieces}\n"
        )
    full = "rrrrbbb\nrrrrbbb\nrrrrbbb\nrrrrbbb\nrr..bbb\n....bbb"
    land = "\n".join(["aaaabbb"] * 6)
    state = claim.from_diagram(
        f"players: red blue\nto-move: red\nphase: removal\nremovals-left: red 3 blue 4\n\n{land}\n\n{full}\n"
    )
    assert claim.from_json(claim.to_json(state)) == state


@pytest.mark.parametrize(
    "move",
    [
        claim.Place(("x" * 100_000, 0)),
        claim.Remove([[1] * 10_000]),
        claim.PlaceTower("z" * 10_000, (0, 0)),
        claim.Step((2, 1), ("y" * 10_000, 1)),
        claim.Jump((2, 1), ("q" * 1_000,)),
        claim.Jump((2, 1), ((2, 3),) * 1_000),
        claim.Jump((2, 1), [(2, 3)]),
    ],
)
def test_malformed_fields_are_value_errors_in_any_phase_and_quoted_short(move):
    state = claim.from_diagram(figure_1())  # the battle phase: a Place or Remove is out of phase as well
    before = claim.to_diagram(state)
    with pytest.raises(ValueError) as error:
        claim.apply(state, move)
    assert len(str(error.value)) < 200
    assert claim.to_diagram(state) == before


def figure_1() -> str:
    from rulebook.claim.diagram import figure

    return figure(1).before


# --- issue 14: the rules as written -------------------------------------------------------------------------


def three_player_removal() -> claim.State:
    """Red has taken 4 blue pieces; blue and yellow still have all 4 removals to make."""
    land = "\n".join(["aaaaaaabbbbbbb"] * 5)
    cells = "r" * 18 + "b" * 14 + "y" * 18 + "." * 20
    pieces = "\n".join(cells[i : i + 14] for i in range(0, 70, 14))
    headers = (
        "players: red blue yellow\nto-move: blue\nfirst: red\nphase: removal\nremovals-left: red 0 blue 4 yellow 4"
    )
    return claim.from_diagram(f"{headers}\n\n{land}\n\n{pieces}\n")


def test_cl_c3_a_removal_that_would_starve_a_later_player_is_refused():
    state = three_player_removal()
    # yellow removes last and may only take red pieces (blue has lost 4): red must still have 4 to lose
    error = claim.check(state, claim.Remove((0, 0)))
    assert error is not None and error.rule == "CL-C3"
    assert error.message == (
        "Claim: if blue took a red piece now, a later player could not make all 4 removals; blue must take a yellow "
        "piece"
    )
    assert {claim.rules.State.owner(state, move.point) for move in claim.legal_moves(state)} == {2}
    after = claim.apply(state, claim.Remove((2, 8)))
    assert after.turn == 1 and len(after.pieces(2)) == 17


@pytest.mark.parametrize("seed", range(6))
def test_cl_c3_three_players_always_lose_four_pieces_each(seed):
    state = claim.new_game(players=3, seed=seed)
    while state.phase != "battle":
        state = claim.apply(state, claim.legal_moves(state)[0])  # the first legal move, as in the game
    assert [len(state.pieces(p)) for p in range(3)] == [14, 14, 14]


# --- fuzzing: wrong types, huge numbers and deep nesting in every move field and Config value ------------------

st = hypothesis.strategies

VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True)
    | st.text(max_size=50)
    | st.sampled_from(["a", "b", "z", "x" * 5_000]),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)
FIELDS = st.one_of(VALUES, st.tuples(st.integers(-3, 12), st.integers(-3, 12)))
MOVES = st.one_of(
    st.builds(claim.Place, FIELDS),
    st.builds(claim.Remove, FIELDS),
    st.builds(claim.Step, FIELDS, FIELDS),
    st.builds(claim.Jump, FIELDS, st.one_of(VALUES, st.lists(FIELDS, max_size=4).map(tuple))),
    st.builds(claim.PlaceTower, VALUES, FIELDS),
    VALUES,
)
POSITIONS = [
    claim.new_game(players=2, seed=1),
    three_player_removal(),
    claim.from_diagram(figure_1()),
]


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(move=MOVES, index=st.integers(0, len(POSITIONS) - 1))
def test_fuzzed_moves_are_refused_cleanly_and_change_nothing(move, index):
    state = POSITIONS[index]
    before = claim.to_diagram(state)
    try:
        claim.apply(state, move)
    except IllegalMove as error:
        assert len(error.message) < 400
    except ValueError as error:
        assert len(str(error)) < 400
    assert claim.to_diagram(state) == before


@hypothesis.settings(max_examples=200, deadline=None)
@hypothesis.given(limit=VALUES | st.integers(-(10**12), 10**12), result=VALUES, partners=VALUES, towers=VALUES)
def test_fuzzed_config_values_are_value_errors_unless_allowed(limit, result, partners, towers):
    try:
        config = claim.Config(limit, result, partners, towers)
    except ValueError as error:
        assert len(str(error)) < 300
        return
    assert 1 <= config.quiet_turn_limit <= rules.MAX_QUIET_TURNS
    assert config.stalled_result in ("most towers", "draw") and isinstance(config.partners_share_territories, bool)
    assert config.removal_towers in rules.REMOVAL_TOWERS
