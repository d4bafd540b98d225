"""Every exercise has exactly one right answer under the rules as the notebooks state them, and names the paragraphs
that decide it (issue 25.1-2).

For every exercise: each paragraph it cites or names exists; a "legal" question's right choices are allowed and each
wrong one is refused by the engine under a paragraph the exercise names; a "most" question's right choice gains
strictly more than every other; a "value" question has exactly one choice equal to the computed value (and a refused
move asked about is refused under a paragraph it names). Where a wrong choice can be checked rule by rule (a Kingdom
Builder build, an Ab die Post route), it breaks exactly one rule, so the choice teaches the rule it names. Where the
notebook offers another reading (a Config option, a paragraph a clarification corrects, a bonus already placed, the
cards a question says were drawn), the answer does not hang on it.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections import Counter

import pytest

from rulebook import exercises as ex
from rulebook import registry, rules_text
from rulebook.core import IllegalMove, decode_move

GAMES = [name for name, game in registry.games().items() if game.exercises]
ALL = [(game, item.id) for game in GAMES for item in ex.exercises(game)]
KIND = {(game, item.id): item.kind for game in GAMES for item in ex.exercises(game)}


def _of_kind(*kinds: str) -> list[tuple[str, str]]:
    return [key for key in ALL if KIND[key] in kinds]


def _named(item: ex.Exercise) -> set[str]:
    """The paragraphs an exercise cites (its "rules") or names in its feedback (its "why")."""
    return set(item.rules) | set(rules_text.RULE_ID.findall(item.why))


def _raw(game: str) -> dict:
    """A game's exercise file as decoded JSON (to change a position and parse it again)."""
    return json.loads(ex.data_path(game).read_text(encoding="utf-8"))


def _engine(game: str):
    return registry.game(game).engine


# --- what is cited exists ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "identifier"), ALL)
def test_every_paragraph_cited_or_named_exists(game, identifier):
    item = ex.exercise(game, identifier)
    known = rules_text.paragraphs(game)
    missing = sorted(rule for rule in _named(item) if rule not in known)
    assert not missing, f"{identifier} names {missing}, which the {game} rules text does not have"


# Paragraphs a clarification says are wrong, with that clarification: an exercise naming one must cite the other.
CORRECTED = {("kingdom_builder", "KB-5.1"): "KB-C10"}


def test_the_corrections_are_still_in_the_rules_text():
    for (game, wrong), clarification in CORRECTED.items():
        text = rules_text.paragraph(game, clarification).markdown
        assert wrong in text and "is wrong" in text, f"{clarification} no longer says that {wrong} is wrong"


@pytest.mark.parametrize(("game", "identifier"), ALL)
def test_a_paragraph_a_clarification_corrects_comes_with_the_clarification(game, identifier):
    item = ex.exercise(game, identifier)
    for (where, wrong), clarification in CORRECTED.items():
        if where == game and wrong in _named(item):
            assert clarification in item.rules, f"{identifier} names {wrong}, which {clarification} corrects"


# --- "legal" questions -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "identifier"), _of_kind("legal"))
def test_a_legal_question_refuses_each_wrong_choice_under_a_named_paragraph(game, identifier):
    item = ex.exercise(game, identifier)
    state, named = item.state(), _named(item)
    for index, choice in enumerate(item.choices):
        refusal = _engine(game).check(state, choice.move)
        if index in item.answer:
            assert refusal is None, f"{identifier}: the right choice {choice.label!r} is refused ({refusal})"
        else:
            assert isinstance(refusal, IllegalMove), f"{identifier}: the wrong choice {choice.label!r} is allowed"
            assert refusal.rule in named, (
                f"{identifier}: {choice.label!r} is refused under {refusal.rule} ({refusal.message}), "
                f"which the exercise does not name (it names {sorted(named)})"
            )


def _kingdom_builder_faults(state, move) -> list[str] | None:
    """Every building rule a Build breaks, judged one by one from the board (None for another move)."""
    from rulebook.kingdom_builder import rules as kb

    if not isinstance(move, kb.Build) or state.player is None or state.hands[state.player] is None:
        return None
    geometry, player, card = state.geometry, state.player, state.hands[state.player]
    row, column = move.hex
    target = row * kb.COLUMNS + column
    own = {index for index, owner in enumerate(state.board) if owner == player}
    free = [index for index in geometry.by_terrain.get(card, ()) if state.board[index] < 0]
    near = {index for index in free if own.intersection(geometry.neighbours[index])}
    faults = []
    if state.board[target] >= 0:
        faults.append("KB-6.1")  # only one settlement per hex
    if geometry.terrain[target] not in kb.TERRAINS:
        faults.append("KB-6.2")  # not a building terrain (so not the card's terrain either)
    elif geometry.terrain[target] != card:
        faults.append("KB-4.1")  # not the terrain of the card played
    if near and not own.intersection(geometry.neighbours[target]):
        faults.append("KB-6.3")  # away from the player's settlements while a hex next to them is free
    return faults


def _ab_die_post_faults(state, move) -> list[str] | None:
    """Every flying rule a route breaks, judged step by step from the track (None for another move)."""
    from rulebook.ab_die_post import rules as adp

    if not isinstance(move, adp.Move) or state.phase != "move":
        return None
    track, direction, player = state.track, state.direction, state.player
    path = tuple(move.path)
    steps = list(itertools.pairwise(path))
    arrival = track.arrival(direction)
    faults = []
    if not path or path[0] != state.positions[player]:
        faults.append("ADP-6.1")  # the route starts where the plane is
    for number, (here, there) in enumerate(steps, start=1):
        if there not in dict(track.ahead.get((here, direction), ())):
            faults.append("ADP-6.1")  # no lane and no cross-link leads there (ADP-C9)
        lanes = track.lane.get(here), track.lane.get(there)
        if number in (1, len(steps)) and None not in lanes and lanes[0] != lanes[1]:
            faults.append("ADP-6.3")  # taking off or landing with a change of lane
        if there == arrival and number < len(steps):
            faults.append("ADP-9.1")  # a move that reaches the airport ends there
    distance = adp.wind_distance(state.config, state.marble)
    if len(steps) != distance and not (path and path[-1] == arrival and len(steps) < distance):
        faults.append("ADP-6.1")  # exactly the wind's distance
    if path and path[-1] in adp.occupied(state, player):
        faults.append("ADP-6.2")  # landing on an occupied field
    return faults


FAULTS = {"kingdom_builder": _kingdom_builder_faults, "ab_die_post": _ab_die_post_faults}


@pytest.mark.parametrize(("game", "identifier"), [key for key in _of_kind("legal") if key[0] in FAULTS])
def test_a_wrong_choice_breaks_exactly_one_rule_and_the_exercise_names_it(game, identifier):
    item = ex.exercise(game, identifier)
    state, named = item.state(), _named(item)
    for index, choice in enumerate(item.choices):
        faults = FAULTS[game](state, choice.move)
        if faults is None:
            continue  # a tile or a repair: the engine's refusal (above) is the check
        refusal = _engine(game).check(state, choice.move)
        if index in item.answer:
            assert faults == [], f"{identifier}: the right choice {choice.label!r} breaks {faults}"
            continue
        assert refusal is not None and refusal.rule in faults, (
            f"{identifier}: the rule-by-rule check ({faults}) disagrees with the engine ({refusal})"
        )
        assert len(faults) == 1, f"{identifier}: {choice.label!r} breaks {faults}: a wrong choice should show one"
        assert faults[0] in named, f"{identifier}: {choice.label!r} breaks {faults[0]}, not named"


# --- "most" questions --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "identifier"), _of_kind("most"))
def test_a_most_question_s_answer_gains_strictly_more_than_every_other_choice(game, identifier):
    item = ex.exercise(game, identifier)
    state, engine = item.state(), _engine(game)
    measure = registry.game(game).measure_function()
    gains = []
    for choice in item.choices:
        refusal = engine.check(state, choice.move)
        assert refusal is None, f"{identifier}: {choice.label!r} cannot be played ({refusal}): nothing to compare"
        gains.append(measure(state, engine.apply(state, choice.move)))
    (right,) = item.answer
    others = [gain for index, gain in enumerate(gains) if index != right]
    assert gains[right] > max(others), f"{identifier}: the gains are {gains}; the answer must gain strictly most"


# --- "value" questions -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "identifier"), _of_kind("value"))
def test_a_value_question_has_exactly_one_choice_equal_to_the_value(game, identifier):
    item = ex.exercise(game, identifier)
    state = item.state()
    value = ex.value_functions(game)[item.value](state, **dict(item.args))
    values = [choice.value for choice in item.choices]
    assert len(set(values)) == len(values), f"{identifier}: two choices stand for the same value ({values})"
    assert values.count(value) == 1, f"{identifier}: the value is {value!r}, the choices {values}"
    if item.value == "allowed":
        move = decode_move(dict(dict(item.args)["move"]), registry.game(game).move_classes(), where="args.move")
        refusal = _engine(game).check(state, move)
        if refusal is not None:
            assert refusal.rule in _named(item), (
                f"{identifier}: the move is refused under {refusal.rule} ({refusal.message}), "
                f"which the exercise does not name (it names {sorted(_named(item))})"
            )


# --- other readings ------------------------------------------------------------------------------------------------

# The clarifications name a Config option for each other reading they offer (KB-C8, KB-C13, KB-C17; MJ-C8, MJ-C11).
READINGS = {
    "kingdom_builder": {
        "lords_zero_scores": (False, True),
        "tile_loss": ("immediate", "end_of_turn"),
        "move_in_place": (False, True),
    },
    "meetjesland": {"trade_down": (False, True), "move_and_reinforce": (False, True)},
}


@pytest.mark.parametrize(("game", "identifier"), [key for key in ALL if key[0] in READINGS])
def test_the_answer_holds_under_every_reading_the_notebook_offers(game, identifier):
    item = ex.exercise(game, identifier)
    raw = next(entry for entry in _raw(game)["exercises"] if entry["id"] == identifier)
    assert set(READINGS[game]) <= set(raw["position"]["setup"]["config"]), (
        f"{identifier}: the position does not say which reading it is played under"
    )
    for option, readings in READINGS[game].items():
        for reading in readings:
            changed = copy.deepcopy(raw)
            changed["position"]["setup"]["config"][option] = reading
            (other,) = ex.parse(game, {"game": game, "exercises": [changed]})
            changes = f"{identifier}: with {option}={reading!r} the answer changes"
            assert ex.computed_answer(other) == item.answer, changes


def _valued(name: str) -> list[tuple[str, str]]:
    """The value questions answered by the value function ``name``."""
    return [key for key in _of_kind("value") if ex.exercise(*key).value == name]


def _colour_bonus(key: tuple[str, str]) -> int:
    """The whole-colour bonus (MJ-4.9) the player to move received at the start of this turn."""
    from rulebook.meetjesland import rules as mj

    state = ex.exercise(*key).state()
    return mj.colour_bonus(state, state.turn)


@pytest.mark.parametrize(
    ("game", "identifier"), [key for key in _valued("meetjesland_reinforcements") if _colour_bonus(key)]
)
def test_a_reinforcement_question_says_that_the_colour_bonus_was_already_given(game, identifier):
    """MJ-C9 gives the whole-colour bonus at the start of the turn: the question says it is already placed, and the
    reinforcements plus the bonus (what a reader who adds them would answer) is not a choice."""
    item = ex.exercise(game, identifier)
    state, bonus = item.state(), _colour_bonus((game, identifier))
    value = ex.value_functions(game)[item.value](state)
    assert f"{bonus} points" in item.question and "MJ-C9" in item.rules, (
        f"{identifier}: White's colour bonus of {bonus} points was given this turn; the question must say so"
    )
    assert value + bonus not in [choice.value for choice in item.choices], (
        f"{identifier}: {value + bonus} (the reinforcements and the bonus) is a choice"
    )


NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
CARDS = {"1": 1, "2": 2, "red 3": 3}
PILE = re.compile(r"[Tt]he pile holds (\d+) cards: (\d+) ones?, (\d+) twos? and (\d+) red 3s?")


def _cards_said(text: str) -> Counter:
    """The cards a phrase names ('a 1 and two red 3s'), by value."""
    found: Counter = Counter()
    for number, card in re.findall(r"\b(a|an|one|two|three|four|five)\s+(red 3|1|2)(?:s\b|\b)", text):
        found[CARDS[card]] += NUMBERS[number]
    return found


@pytest.mark.parametrize(("game", "identifier"), _valued("ab_die_post_draw_advice"))
def test_a_draw_question_says_what_was_drawn_and_what_is_left(game, identifier):
    """What the question says was drawn this turn is what the position drew; when a card can cost something (a red
    3 is held, or the question is about points) the question states the pile; and the discard, which it does not
    state, cannot change the advice."""
    from rulebook.ab_die_post import advisor

    item = ex.exercise(game, identifier)
    state = item.state()
    history = [move["value"] for move in item.position["history"] if move["move"] == "CardDrawn"]
    drawn_now = Counter(history[len(history) - state.drawn :]) if state.drawn else Counter()
    for said in re.findall(r"(?:has drawn|drew) ([^.;:()]*?) this turn", item.question):
        assert _cards_said(said) == drawn_now, (
            f"{identifier}: the question says {said!r} was drawn this turn; the position drew {dict(drawn_now)}"
        )
    hand = state.hands[state.turn_player]
    objective = dict(item.args).get("objective", "reach")
    if hand[2] or objective == "points":
        stated = PILE.search(item.question)
        assert stated, f"{identifier}: the question does not state the pile, which decides it"
        total, ones, twos, reds = (int(group) for group in stated.groups())
        assert (ones, twos, reds) == state.pile and total == sum(state.pile), (
            f"{identifier}: the question says the pile is {stated.group(0)!r}; it is {state.pile}"
        )
    advice = advisor.advise(state)
    choice = advice.for_reach if objective == "reach" else advice.for_points
    points = hand[0] + 2 * hand[1] + 3 * hand[2]
    pile, _ = advisor.cards_left(state)
    alone = advisor.choose(objective, points, hand[2], pile, (0, 0, 0), advice.goal)
    assert alone.draw == choice.draw, f"{identifier}: the advice changes with the discard, which the question omits"


def _with_history(game: str, identifier: str, history: list[dict]) -> ex.Exercise:
    """The exercise ``identifier`` with its position's move log replaced (to ask its question of another position)."""
    raw = copy.deepcopy(next(entry for entry in _raw(game)["exercises"] if entry["id"] == identifier))
    raw["position"]["history"] = history
    (item,) = ex.parse(game, {"game": game, "exercises": [raw]})
    return item


def test_a_draw_question_where_drawing_and_stopping_are_worth_the_same_is_refused():
    """ADP-X3 once asked whether 1, 2 and 2 should draw to be allowed to fly: both are certain, and the advisor's
    tie break (stop) marked 'draw' wrong."""
    draws = [{"move": "DrawCard"}, {"move": "CardDrawn", "value": 1}, {"move": "DrawCard"}]
    draws += [{"move": "CardDrawn", "value": 2}, {"move": "DrawCard"}, {"move": "CardDrawn", "value": 2}]
    item = _with_history("ab_die_post", "ADP-X5", draws)
    with pytest.raises(ValueError, match="worth the same"):
        ex.computed_answer(item)


@pytest.mark.parametrize(
    ("route", "words"),
    [  # P3's last move in ADP-X9's position, from the central lane, section 3, field 3, with a yellow marble (5)
        (["central-3-2", "inner-3-1", "inner-2-4", "inner-2-3", "inner-2-2"], "places player 3 first"),  # as it was
        (["central-3-2", "central-3-1", "central-2-8", "inner-2-4", "inner-2-3"], "tie for first"),  # 2 fields each
    ],
)
def test_a_flight_leader_that_depends_on_the_reading_of_the_river_rule_is_refused(route, words):
    """ADP-C13 measures a field's place as a fraction of its section; counting the fields to the river is the other
    reading of «plus près de la rivière». Where they differ, or counting ties, no plane is surely first."""
    position = next(entry for entry in _raw("ab_die_post")["exercises"] if entry["id"] == "ADP-X9")["position"]
    history = copy.deepcopy(position["history"])
    assert history[-1]["path"][0] == "central-3-3"
    history[-1] = {"move": "Move", "path": ["central-3-3", *route]}
    item = _with_history("ab_die_post", "ADP-X9", history)
    with pytest.raises(ValueError, match=words):
        ex.computed_answer(item)
