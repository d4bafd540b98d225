"""JSON nested deeper than the rulebook's files need is refused in words before it is parsed (issue 48.1): a save of
3,000 nested brackets killed the browser's Python (Pyodide's stack ran out inside the parser). The depth is counted
by ``core.json_depth`` without parsing and without recursion; every reader calls it first: Load, every game's
``from_json``, the exercise files and the tutorials. The browser itself: tests/e2e/test_deep_json.py."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook import core, registry
from rulebook.app import App
from rulebook.app.files import read_save
from rulebook.teach import exercises, tutorial

GAMES = list(registry.names())
LIMIT = core.MAX_DEPTH
HOSTILE = (3_000, 100_000)  # the saves: the browser's Python died on both


def nested(depth: int, opening: str = "[", closing: str = "]") -> str:
    return opening * depth + closing * depth


def depth_of(value: object) -> int:
    """How deep a decoded JSON value nests (lists and objects), walked without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            stack.extend((each, level + 1) for each in (item.values() if isinstance(item, dict) else item))
    return deepest


def refuse_parsing(monkeypatch) -> None:
    """Any call of the parser fails the test: a refusal must come before it."""

    def parse(*_args, **_kwargs):
        raise AssertionError("json.loads was called on a text nested too deeply")

    monkeypatch.setattr(json, "loads", parse)


# --- the scanner ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("5", 0),
        ('"[[[{{{"', 0),  # brackets inside a string are text
        ('["]]]", "[[[", {"{": "}"}]', 2),
        (r'["\"[[[", [1]]', 2),  # an escaped quote does not end the string
        (r'["\\", [[1]]]', 3),  # an escaped backslash does not escape the quote after it
        (r'["\\\"[[[", 1]', 1),  # an escaped backslash, then an escaped quote
        (r'{"a\\": [[]], "b": "\u005b"}', 3),
        ('"an unclosed string [[[[', 0),  # runs to the end, as the parser reads it
        ('"\\', 0),
        ("[" * 7, 7),  # unclosed brackets count
        ("[]" * 1000, 1),
        ('[1, [2, [3]], {"k": [[4]]}]', 4),
        ("\u00e9[\u4e2d[\U0001f600]]", 2),  # characters of more than one byte in UTF-8
    ],
)
def test_the_depth_counts_brackets_outside_strings(text: str, depth: int) -> None:
    assert core.json_depth(text) == depth


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab\n\u00e9'),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(alphabet='[]{}"\\ab'), inner, max_size=4),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(value=json_values, ascii_only=st.booleans(), indent=st.sampled_from([None, 0, 2]))
def test_the_depth_of_any_json_text_is_how_deep_its_value_nests(value, ascii_only, indent) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent)
    assert core.json_depth(text) == depth_of(value)


def test_exactly_at_the_limit_is_read_and_one_more_level_is_refused() -> None:
    assert core.parse_json(nested(LIMIT), "a test") == json.loads(nested(LIMIT))
    objects = '{"a": ' * LIMIT + "1" + "}" * LIMIT
    assert core.parse_json(objects, "a test") and core.json_depth(objects) == LIMIT
    with pytest.raises(ValueError) as refused:
        core.parse_json(nested(LIMIT + 1), "not a saved game", "a saved game")
    assert str(refused.value) == (
        f"not a saved game: the JSON is nested too deeply ({LIMIT + 1} levels; a saved game needs at most {LIMIT})"
    )


@pytest.mark.parametrize("depth", HOSTILE)
@pytest.mark.parametrize("as_bytes", [False, True])
def test_a_text_nested_100_000_deep_is_refused_before_it_is_parsed(monkeypatch, depth: int, as_bytes: bool) -> None:
    """Refused in words, the parser never called, no RecursionError (a million characters take milliseconds)."""
    text = nested(depth)
    refuse_parsing(monkeypatch)
    with pytest.raises(ValueError, match=f"nested too deeply \\({depth:,} levels; a saved game needs at most"):
        core.parse_json(text.encode() if as_bytes else text, "not a saved game", "a saved game")
    with pytest.raises(ValueError, match=f"{depth:,} levels"):
        core.check_depth("[" * depth, "a test")  # unclosed: refused as well


def test_the_rulebook_s_own_files_nest_well_below_the_limit() -> None:
    """The measurement behind MAX_DEPTH: the tutorials, the exercise files and long saves of every game."""
    texts = [exercises.data_path(game).read_text(encoding="utf-8") for game in GAMES]
    texts += [path.read_text(encoding="utf-8") for game in tutorial.games() if (path := tutorial.path(game))]
    for game in GAMES:
        declared, rng = registry.game(game), random.Random(5)
        state = declared.new_state(max(declared.players), 5)
        for _ in range(300):
            if declared.engine.outcome(state) is not None:
                break
            outcomes = declared.engine.chance_outcomes(state)
            legal = declared.engine.legal_moves(state)
            state = declared.engine.apply(state, core.pick(outcomes, rng) if outcomes else rng.choice(legal))
        texts.append(declared.engine.to_json(state))
    deepest = max(core.json_depth(text) for text in texts)
    assert 4 <= deepest <= LIMIT // 2, deepest


# --- every reader ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", HOSTILE)
def test_read_save_refuses_a_deep_file_in_words(monkeypatch, depth: int) -> None:
    refuse_parsing(monkeypatch)
    with pytest.raises(ValueError) as refused:
        read_save(nested(depth).encode())
    assert str(refused.value) == (
        f"this file is not a saved game: the JSON is nested too deeply ({depth:,} levels; a saved game needs at "
        f"most {LIMIT})"
    )


@pytest.mark.parametrize("game", GAMES)
def test_load_refuses_deep_uploads_and_then_loads_a_good_save(game: str) -> None:
    """What the Load button's page sends (load_button.js): a deep file leaves the game as it was; a save after it
    loads and continues."""
    app = App(game, seed=1)
    name, text = app.saved()
    board, state = app.board, app.board.state
    for depth in HOSTILE:
        data = nested(depth).encode()
        app.upload._message(app.upload, {"load": f"deep-{depth}.json", "size": len(data)}, [memoryview(data)])
        notice = app.notice.value
        assert f"Could not load deep-{depth}.json" in notice and f"nested too deeply ({depth:,} levels" in notice
        assert "unchanged" in notice and app.board is board and board.state is state
    data = text.encode()
    app.upload._message(app.upload, {"load": name, "size": len(data)}, [memoryview(data)])
    assert f"Loaded {name}" in app.notice.value and "continues" in app.notice.value


@pytest.mark.parametrize("game", GAMES)
def test_every_game_s_from_json_refuses_a_deep_save_before_parsing_it(monkeypatch, game: str) -> None:
    engine = registry.game(game).engine
    save = json.loads(engine.to_json(registry.game(game).new_state(registry.game(game).default_players, 1)))
    save["setup"]["deep"] = json.loads(nested(LIMIT))  # a valid save's envelope, one value too deep
    texts = {LIMIT + 2: json.dumps(save), **{depth: nested(depth) for depth in HOSTILE}}
    refuse_parsing(monkeypatch)
    for depth, text in texts.items():
        with pytest.raises(ValueError) as refused:
            engine.from_json(text)
        assert str(refused.value) == (
            f"not a saved game: the JSON is nested too deeply ({depth:,} levels; a saved game needs at most {LIMIT})"
        )


@pytest.mark.parametrize("game", GAMES)
def test_an_exercise_file_nested_too_deep_is_refused_when_read(monkeypatch, game: str) -> None:
    real = exercises.data_path(game).read_text(encoding="utf-8")
    assert exercises.read(game, real, f"{game}.json") == exercises.exercises(game)
    refuse_parsing(monkeypatch)
    for depth in HOSTILE:
        with pytest.raises(ValueError) as refused:
            exercises.read(game, nested(depth), f"{game}.json")
        assert str(refused.value) == (
            f"{game}.json: cannot read the exercises: the JSON is nested too deeply ({depth:,} levels; an exercise "
            f"file needs at most {LIMIT})"
        )


@pytest.mark.parametrize("game", GAMES)
def test_an_exercise_position_nested_too_deep_does_not_load(game: str) -> None:
    declared = registry.game(game)
    data = json.loads(exercises.data_path(game).read_text(encoding="utf-8"))
    item = copy.deepcopy(data["exercises"][0])
    item["position"] = json.loads(declared.engine.to_json(declared.new_state(declared.default_players, 1)))
    item["position"]["setup"]["deep"] = json.loads(nested(LIMIT))  # a save, one value too deep
    with pytest.raises(ValueError) as refused:
        exercises.parse(game, {"game": game, "exercises": [item]}, f"{game}.json")
    assert f"exercise {item['id']}: the position does not load" in str(refused.value)
    assert "nested too deeply" in str(refused.value)
    if declared.diagram:  # a text position beginning with "{" is read as a save
        item["position"] = nested(HOSTILE[-1], "{", "}")
        with pytest.raises(ValueError, match=f"nested too deeply \\({HOSTILE[-1]:,} levels"):
            exercises.parse(game, {"game": game, "exercises": [item]}, f"{game}.json")


@pytest.mark.parametrize("game", tutorial.games())
def test_a_tutorial_nested_too_deep_is_refused_when_read(monkeypatch, game: str) -> None:
    found = tutorial.path(game)
    assert found is not None
    assert tutorial.read(game, found.read_text(encoding="utf-8")).steps == tutorial.load(game).steps
    refuse_parsing(monkeypatch)
    for depth in HOSTILE:
        with pytest.raises(ValueError) as refused:
            tutorial.read(game, nested(depth), f"{game}/tutorial.json")
        assert str(refused.value) == (
            f"{game}/tutorial.json: cannot be read as JSON: the JSON is nested too deeply ({depth:,} levels; a "
            f"tutorial file needs at most {LIMIT})"
        )


# --- issue 48.6: exercises.parse quotes a short prefix of a hostile value ------------------------------------------


HUGE = "x" * 100_000


@pytest.mark.parametrize(
    "change",
    [
        lambda data, item: data.update(game=HUGE),
        lambda data, item: item.update(id=HUGE, kind=HUGE),
        lambda data, item: item.update(id=HUGE, rules=[HUGE]),
        lambda data, item: item.update({HUGE: 1}),
        lambda data, item: item.update(kind=HUGE),
        lambda data, item: item.update(rules=[HUGE]),
        lambda data, item: item.update(kind="value", value=HUGE),
        lambda data, item: item.update(position="{" + HUGE),
        lambda data, item: item["choices"][0].update(move={"move": HUGE}),
    ],
    ids=["game", "id", "id-and-rule", "field", "kind", "rule", "value", "position", "move"],
)
def test_exercises_parse_quotes_a_short_prefix_of_a_hostile_value(change) -> None:
    data = json.loads(exercises.data_path("claim").read_text(encoding="utf-8"))
    data["exercises"] = data["exercises"][:1]
    change(data, data["exercises"][0])
    with pytest.raises(ValueError) as refused:
        exercises.parse("claim", data, "claim.json")
    assert len(str(refused.value)) < 400, len(str(refused.value))


def test_an_exercise_not_found_is_named_by_a_short_prefix() -> None:
    with pytest.raises(ValueError) as refused:
        exercises.exercise("claim", HUGE)
    assert len(str(refused.value)) < 120
