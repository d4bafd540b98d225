"""The game registry (issue 22.1): every game is declared once and found through the ``rulebook.games`` entry points;
the shared modules name no game; a game from outside the repository (Nim, in tests/nim) is served by the set-up, the
rules text, the exercises, ``rulebook study`` and the app with no edit to shared code; docs/architecture.md's
walk-through names the files and fields that Nim really has."""

from __future__ import annotations

import ast
import dataclasses
import re
import subprocess
import sys
import warnings
from importlib import metadata
from pathlib import Path

import pytest

from rulebook import cli, registry, rules_text, setup, study
from rulebook import exercises as ex
from rulebook.registry import Game, Level, Option

ROOT = Path(__file__).resolve().parent.parent
NIM = ROOT / "tests" / "nim"
SHELL = ("rulebook.app", "rulebook.setup", "rulebook.study", "rulebook.exercises")  # old paths (façades)
SHELL += ("rulebook.teach", "rulebook.serve", "rulebook.tools", "rulebook.site")  # the layers above the games
SHELL_PACKAGES = tuple(f"{module}." for module in SHELL)
GAMES = list(registry.games())


def _distribution(folder: Path, name: str, entry_points: str) -> None:
    """A distribution's metadata as pip leaves it in site-packages: enough for importlib.metadata to find it."""
    info = folder / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)


@pytest.fixture
def nim(tmp_path, monkeypatch):
    """Nim installed as a game package outside the repository: a distribution on sys.path whose entry point names
    tests.nim.game:GAME, as ``pip install`` of such a package would leave it."""
    _distribution(tmp_path, "rulebook_nim", "[rulebook.games]\nnim = tests.nim.game:GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.refresh()
    yield registry.game("nim")
    registry.refresh()  # the distribution leaves sys.path after this (monkeypatch): the next look-up forgets Nim


# --- the four games' declarations ---------------------------------------------------------------------------------


def test_the_games_come_in_the_rulebook_s_order():
    assert GAMES[:4] == ["meetjesland", "kingdom_builder", "ab_die_post", "claim"]
    assert registry.names() == sorted(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_every_part_a_game_names_exists(name):
    game = registry.game(name)
    assert game.engine.__name__ == game.module
    for verb in ("new_game", "legal_moves", "chance_outcomes", "check", "apply", "outcome", "to_json", "from_json"):
        assert callable(getattr(game.engine, verb)), verb
    assert callable(game.engine.narrate)
    assert isinstance(game.board_class(), type)
    assert game.explorer_class() is None or isinstance(game.explorer_class(), type)
    assert all(isinstance(cls, type) for cls in game.move_classes().values())
    assert all(callable(function) for function in game.value_functions().values())
    assert rules_text.notebook_path(name).is_file() and ex.data_path(name).is_file()
    if game.bench.section:
        assert callable(registry.resolve(game.bench.section))


@pytest.mark.parametrize("name", GAMES)
def test_levels_are_the_computer_players_weakest_first(name):
    game = registry.game(name)
    levels = [level.name for level in game.levels]
    assert set(levels) == set(game.bots()), "every computer player is offered, and only those"
    assert levels[0] == "random" and game.strongest() == levels[-1]
    assert set(game.default_computer.values()) <= set(levels)
    assert all(game.bot_label(level) == f"Computer: {game.level(level).label}" for level in levels)


@pytest.mark.parametrize("name", GAMES)
def test_a_new_state_is_the_game_s_own_and_game_of_finds_it(name):
    game = registry.game(name)
    state = game.new_state(game.default_players, 3)
    assert registry.game_of(state) is game
    assert game.engine.to_json(game.new_state(game.default_players, 3, game.defaults())) == game.engine.to_json(state)
    assert len(game.seat_names(game.players[-1])) == game.players[-1]


def test_the_old_set_up_names_are_views_of_the_registry():
    assert setup.setup_of("claim") is registry.game("claim") is setup.SETUPS["claim"]
    assert list(setup.SETUPS) == GAMES and len(setup.SETUPS) == len(GAMES)
    assert setup.Option is Option and setup.GameSetup is Game
    with pytest.raises(KeyError):
        setup.SETUPS["chess"]
    assert rules_text.GAMES == tuple(GAMES) and ex.GAMES == tuple(GAMES)
    assert rules_text.PREFIX == {name: registry.game(name).prefix for name in GAMES}


def test_an_unknown_game_is_refused_with_the_known_ones_named():
    with pytest.raises(ValueError, match=r"unknown game 'chess' \(games: .*claim.*meetjesland"):
        registry.game("chess")
    with pytest.raises(ValueError, match="named by text"):
        registry.game(None)
    with pytest.raises(ValueError, match="no state of a registered game"):
        registry.game_of(object())


def test_a_bad_declaration_is_refused_saying_what_is_wrong():
    good = dict(
        name="x", title="X", prefix="XX", module="x", players=(2,), default_players=2, bots_module="x.bots",
        board="x.widget:Board", rules="x.md", moves="x:MOVES",
    )  # fmt: skip
    Game(**good)
    for change, words in (
        ({"name": "Two Words"}, "lower-case"),
        ({"prefix": "xx"}, "prefix"),
        ({"players": (3, 2)}, "rising"),
        ({"default_players": 5}, "default of 5"),
        ({"board": "x.widget.Board"}, "board is a 'module:attribute'"),
        ({"levels": (Level("a", "a"), Level("a", "b"))}, "twice"),
        ({"default_computer": {1: "strong"}, "levels": (Level("random", "random"),)}, "not one of the levels"),
        ({"default_computer": {4: "random"}}, "no seat 4"),
        ({"options": (Option("o", "O", 1), Option("o", "P", 2))}, "option name"),
    ):
        with pytest.raises(ValueError, match=words):
            Game(**{**good, **change})
    with pytest.raises(ValueError, match="'module:attribute'"):
        registry.resolve("rulebook.registry")
    with pytest.raises(ValueError, match="has no Nothing"):
        registry.resolve("rulebook.registry:Nothing")


# --- discovery ----------------------------------------------------------------------------------------------------


def test_a_checkout_that_was_never_installed_still_finds_its_games(monkeypatch):
    """No metadata at all (no dist-info of rulebook, no entry points anywhere): the package's subpackages that hold a
    ``game`` module are the games."""

    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", missing)
    monkeypatch.setattr(metadata, "entry_points", lambda **_: ())
    registry.refresh()
    try:
        assert list(registry.games()) == GAMES
        assert registry._own_entries() == {name: f"rulebook.{name}.game:GAME" for name in GAMES}
    finally:
        monkeypatch.undo()
        registry.refresh()


def test_a_game_that_does_not_load_is_left_out_and_told(tmp_path, monkeypatch):
    _distribution(tmp_path, "broken_game", "[rulebook.games]\nbroken = no_such_module.game:GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.refresh()
    try:
        with pytest.warns(RuntimeWarning, match="'broken'.*does not load"):
            assert list(registry.games()) == GAMES
        with pytest.raises(ValueError, match="no_such_module"):
            registry.game("broken")
    finally:
        monkeypatch.undo()
        registry.refresh()


def test_importing_the_registry_and_finding_a_game_loads_no_widget_and_no_other_game():
    code = (
        "import sys\n"
        "from rulebook import registry\n"
        "before = set(sys.modules)\n"
        "game = registry.game('claim')\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('rulebook.'))\n"
        "print(sorted(m for m in before if m.split('.')[0] in ('ipywidgets', 'plotly', 'anywidget')))\n"
        "print([m for m in loaded if not m.startswith(('rulebook.claim', 'rulebook.core', 'rulebook.registry',"
        " 'rulebook.boards', 'rulebook.engine'))])\n"
        "print(any(m.endswith('.widget') for m in sys.modules if m.startswith('rulebook')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert result.stdout.split("\n")[:3] == ["[]", "[]", "False"], result.stdout


def test_register_adds_a_game_from_code_and_refuses_a_second_of_the_same_name():
    from tests.nim.game import GAME

    registry.register(GAME)
    try:
        assert registry.game("nim") is GAME and list(registry.games())[-1] == "nim"
        assert registry.register(GAME) is GAME  # the same game again: nothing changes
        with pytest.raises(ValueError, match="registered already"):
            registry.register(dataclasses.replace(GAME, title="Another Nim"))
        with pytest.raises(ValueError, match="registered already"):
            registry.register(dataclasses.replace(registry.game("claim"), title="Another Claim"))
    finally:
        registry.unregister("nim")
    with pytest.raises(ValueError, match="unknown game 'nim'"):
        registry.game("nim")


# --- a game from outside: Nim -----------------------------------------------------------------------------------


def test_an_installed_game_registers_itself_through_its_entry_point(nim):
    from tests.nim.game import GAME

    assert nim is GAME and list(registry.games()) == [*GAMES, "nim"]
    state = nim.new_state(2, 0)
    assert registry.game_of(state) is nim and nim.engine.legal_moves(state)


def test_the_set_up_serves_nim(nim):
    assert setup.setup_of("nim") is nim and "nim" in setup.SETUPS
    assert nim.defaults() == {"heaps": (3, 4, 5), "limit": 3}
    state = nim.new_state(2, 5, {"heaps": (1, 3, 5, 7), "limit": 2})
    assert state.heaps == (1, 3, 5, 7) and state.limit == 2
    with pytest.raises(ValueError, match="Most stones a turn: a number from 1 to 9, not 12"):
        nim.new_state(2, 5, {"limit": 12})
    with pytest.raises(ValueError, match="Nim is for 2 to 2 players, not 3"):
        nim.new_state(3, 5)
    assert nim.seat_names(2) == ["Player 1", "Player 2"] and nim.bot_label("greedy") == "Computer: greedy"


def test_the_rules_text_serves_nim_and_every_refusal_cites_a_paragraph(nim):
    assert list(rules_text.paragraphs("nim")) == ["NIM-1", "NIM-2", "NIM-3", "NIM-C1"]
    assert rules_text.PREFIX["nim"] == "NIM" and "nim" in rules_text.GAMES
    assert rules_text.paragraph("nim", "NIM-3").markdown.startswith("**NIM-3** Whoever takes the last stone")
    raised = set()
    for path in NIM.glob("*.py"):
        raised |= set(re.findall(r'IllegalMove\(\s*"([A-Z]+-C?\d+(?:\.\d+)*)"', path.read_text()))
    assert raised and raised <= set(rules_text.paragraphs("nim"))
    state = nim.new_state(2, 0)
    error = nim.engine.check(state, nim.engine.Take(1, 4))
    assert error.rule == "NIM-2" and "1 to 3 stones" in error.message


def test_the_exercises_serve_nim(nim):
    items = ex.exercises("nim")
    assert [item.id for item in items] == ["NIM-X1", "NIM-X2", "NIM-X3"]
    assert {item.kind for item in items} == {"legal", "most", "value"}
    for item in items:
        assert ex.computed_answer(item) == item.answer
        right, text = ex.mark(item, item.answer)
        assert right and item.why in text
    assert set(ex.value_functions("nim")) == {"allowed", "nim_sum"}
    with pytest.raises(ValueError, match="value function 'claim_conquerable' is not one of allowed, nim_sum"):
        data = {"game": "nim", "exercises": [{**_raw_nim()[2], "value": "claim_conquerable"}]}
        ex.parse("nim", data)


def _raw_nim() -> list[dict]:
    import json

    return json.loads((NIM / "exercises.json").read_text())["exercises"]


def test_rulebook_study_plays_nim(nim, capsys):
    assert cli.main(["study", "nim", "--games", "6", "--seats", "greedy,random", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "Nim: 6 games, seats greedy, random" in out
    result = study.run("nim", ("greedy", "random"), 6, workers=1)
    greedy, random_row = result.rows()[:2]
    assert greedy["wins"] > random_row["wins"] and greedy["wins"] + random_row["wins"] == 6
    with pytest.raises(SystemExit):
        cli.main(["study", "nim", "--seats", "strong,random", "--workers", "1"])


def test_the_app_serves_nim(nim):
    from rulebook.app import App

    app = App("nim", seed=1, computer={})
    board = app.board
    assert type(board).__module__ == "tests.nim.widget" and app.setup is nim
    assert [control.description for control in app.option_controls.values()] == ["Heaps", "Most stones a turn"]
    board.buttons[(1, 3)].click()
    assert board.state.heaps == (0, 4, 5) and "take 3 stones from heap 1" in board.status.text
    board.buttons[(1, 1)].click()
    assert board.state.heaps == (0, 4, 5) and "NIM-2" in board.status.text
    name, text = app.saved()
    assert name == "nim-move1.json" and App("nim", seed=2).load(name, text.encode())
    app.tabs.selected_index = app.RULES_TAB
    assert "data-id='NIM-3'" in app.rules.value
    assert app.exercises.items == ex.exercises("nim")
    for seat in (0, 1):
        app.seats[seat].value = "greedy"
    assert app.new_game() and app.board.finished and "Game over." in app.banner_text.value


# --- the shared modules name no game; the games import no shell module -------------------------------------------


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def words(source: str) -> list[tuple[int, str]]:
    """Every string constant (docstrings left out) and every identifier of a module, with its line."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            found.append((line, node.value))
        elif isinstance(node, ast.Name):
            found.append((line, node.id))
        elif isinstance(node, ast.Attribute):
            found.append((line, node.attr))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append((line, node.name))
        elif isinstance(node, ast.arg):
            found.append((line, node.arg))
        elif isinstance(node, ast.keyword) and node.arg:
            found.append((line, node.arg))
        elif isinstance(node, ast.alias):
            found.extend((line, name) for name in (node.name, node.asname) if name)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((line, node.module))
    return found


def naming(game: Game) -> re.Pattern[str]:
    """What names a game in code: its name or title as a word (``claim``, ``kingdom_builder``, ``Ab die Post``,
    also inside an identifier such as ``claim_count``), or one of its rule ids (``CL-4.2``)."""
    title = re.sub(r"[^\w ]", "", game.title)
    spelled = "|".join(re.escape(word) for word in {game.name, game.title, title})
    return re.compile(rf"(?i:(?<![a-z])(?:{spelled})(?![a-z]))|\b{game.prefix}-C?\d")


def names_a_game(source: str, games: list[Game]) -> list[str]:
    return [
        f"line {line}: {text!r} names {game.name}"
        for line, text in words(source)
        for game in games
        if naming(game).search(text)
    ]


GAME_FOLDERS = {Path(game.engine.__file__).parent for game in registry.games().values()}
# every module of the shell: the top of rulebook/ and its layer subpackages (play, teach, view, app, serve, tools)
SHARED = sorted(p for p in (ROOT / "rulebook").rglob("*.py") if not GAME_FOLDERS & set(p.parents))


@pytest.mark.parametrize("path", SHARED, ids=lambda path: str(path.relative_to(ROOT / "rulebook")))
def test_no_shared_module_names_a_game(path, nim):
    found = names_a_game(path.read_text(), list(registry.games().values()))
    assert not found, f"{path.relative_to(ROOT)} names a game (ask the registry instead):\n" + "\n".join(found)


def test_the_check_finds_a_game_named_or_branched_on():
    games = [registry.game("claim"), registry.game("kingdom_builder"), registry.game("ab_die_post")]
    assert names_a_game('if game == "claim":\n    pass\n', games)
    assert names_a_game("from . import kingdom_builder\n", games)
    assert names_a_game("def _claim_count(state):\n    return 0\n", games)
    assert names_a_game('raise ValueError("refused by CL-4.2")\n', games)
    assert names_a_game('TITLE = "Ab die Post"\n', games)
    assert names_a_game('module = importlib.import_module("rulebook.claim.bots")\n', games)
    assert not names_a_game('def f():\n    """Claim and Kingdom Builder, in a docstring."""\n', games)
    assert not names_a_game('text = "reclaimed; a claimant; CLX-1"\n', games)


def lookups_by_module_name(source: str) -> list[str]:
    """Where a module finds a game's parts by the naming convention the registry replaces: an f-string
    ``f"rulebook.{game}..."``, ``type(state).__module__``, or a module's ``__name__`` split into its parts."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.JoinedStr):
            parts = node.values
            for before, after in zip(parts, parts[1:]):
                if isinstance(before, ast.Constant) and str(before.value).endswith("rulebook."):
                    if isinstance(after, ast.FormattedValue):
                        found.append(f"line {line}: f-string 'rulebook.{{...}}'")
        elif isinstance(node, ast.Attribute) and node.attr == "__module__":
            value = node.value
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "type":
                found.append(f"line {line}: type(...).__module__")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "split":
            target = node.func.value
            if isinstance(target, ast.Attribute) and target.attr == "__name__":
                found.append(f"line {line}: a module's __name__ split")
    return found


# Shared modules still looking games up by module name, to be wired to the registry by their owners: strict, so a
# module leaves this list as soon as it no longer does.
PENDING: dict[str, str] = {}


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(path, marks=pytest.mark.xfail(strict=True, reason=PENDING[path.name]))
        if path.name in PENDING
        else path
        for path in SHARED
        if path.name != "registry.py"  # the one place a state's module is matched, against the declared ones
    ],
    ids=lambda path: path.name,
)
def test_no_shared_module_finds_a_game_by_its_module_name(path):
    found = lookups_by_module_name(path.read_text())
    assert not found, f"{path.name} finds a game by module name (ask the registry):\n" + "\n".join(found)


def test_the_look_up_check_finds_the_conventions():
    source = (
        'bots = importlib.import_module(f"rulebook.{game}.bots")\n'
        "package = type(state).__module__\n"
        'name = module.__name__.split(".")[1]\n'
        "cls.__module__ = __name__\n"
    )
    assert len(lookups_by_module_name(source)) == 3


def imports(path: Path, package: str) -> set[str]:
    """The modules a file imports (relative imports resolved against ``package``), and module paths in its strings
    (docstrings left out: they may point a reader to the shell)."""
    tree = ast.parse(path.read_text())
    skip = _docstrings(tree)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            found |= set(re.findall(r"[\w.]+", node.value))
    return found


def test_no_game_package_imports_the_shell(nim):
    checked = 0
    for game in registry.games().values():
        folder = Path(game.engine.__file__).parent
        for path in folder.glob("*.py"):
            used = imports(path, game.module)
            wrong = sorted(module for module in used if module in SHELL or module.startswith(SHELL_PACKAGES))
            assert not wrong, f"{path.relative_to(ROOT)} imports {wrong}: a game may use core and the registry only"
            checked += 1
    assert checked > 40


def test_the_import_check_finds_a_relative_import_of_the_shell(tmp_path):
    path = tmp_path / "bench.py"
    source = [
        '"""Uses rulebook.app."""',
        "from .. import core, study",
        "from ..setup import SETUPS",
        'x = "rulebook.exercises"',
    ]
    path.write_text("\n".join(source) + "\n")
    used = imports(path, "rulebook.claim")
    assert {"rulebook.study", "rulebook.setup", "rulebook.core", "rulebook.exercises"} <= used
    assert "rulebook.app" not in used


# --- the walk-through in docs/architecture.md follows Nim --------------------------------------------------------

ARCHITECTURE = ROOT / "docs" / "architecture.md"


def walk_through() -> str:
    text = ARCHITECTURE.read_text()
    return text[text.index("## How to add a game") :]


def test_the_walk_through_names_every_file_of_nim_and_only_files_it_has():
    text = walk_through()
    named = set(re.findall(r"tests/nim/([\w.]+)", text))
    have = {path.name for path in NIM.iterdir() if path.is_file()}
    assert named == have, f"named but missing: {named - have}; there but not told: {have - named}"


def test_the_walk_through_tells_every_field_nim_declares_and_they_are_fields():
    from tests.nim.game import GAME

    text = walk_through()
    told = set(re.findall(r"`(\w+)=", text))
    fields = {field.name: field for field in dataclasses.fields(Game)}
    assert told <= set(fields), f"not fields of Game: {told - set(fields)}"

    def default(field: dataclasses.Field) -> object:
        if field.default is not dataclasses.MISSING:
            return field.default
        if field.default_factory is not dataclasses.MISSING:
            return field.default_factory()
        return dataclasses.MISSING  # a required field: always declared

    declared = {name for name, field in fields.items() if getattr(GAME, name) != default(field)}
    assert declared <= told, f"Nim declares {sorted(declared - told)}, which the walk-through does not tell"


def test_the_walk_through_tells_the_entry_point_nim_uses():
    text = walk_through()
    assert '[project.entry-points."rulebook.games"]' in text and 'nim = "tests.nim.game:GAME"' in text
    assert "registry.register(" in text


def test_no_warning_is_left_by_discovery():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        registry.refresh()
        assert list(registry.games()) == GAMES
