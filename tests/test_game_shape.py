"""The four game packages have one shape (issue 44.3): the same file names for the same roles, and imports that point
one way inside each package (issue 44.2): no module imports, at module level or inside a function, a module that
imports it back, directly or through others. Read from the source with ``ast``: nothing is imported."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "rulebook"
GAMES = ("meetjesland", "kingdom_builder", "ab_die_post", "claim")
# each role under one name in every game: the declaration, the engine, the computer players, the board, the odds tab,
# the charts, the moves in words, the things in words for the notebook, the exercises' answers, the benchmark, the
# research behind the clarifications, the guided first game and what each seat of a class table may see
ROLES = {
    "__init__.py",
    "game.py",
    "rules.py",
    "bots.py",
    "widget.py",
    "explorer.py",
    "charts.py",
    "narrate.py",
    "words.py",
    "answers.py",
    "bench.py",
    "RESEARCH.md",
    "tutorial.json",
    "seats.py",
    # issue 46: the reader's glossary, the FAQ, the player aid's lines and the search's words, as data
    "glossary.json",
    "faq.json",
    "aid.json",
    "search_terms.json",
}


def _files(game: str) -> set[str]:
    return {path.name for path in (PACKAGE / game).iterdir() if path.is_file()}


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_each_role_under_the_same_name(game):
    assert ROLES <= _files(game), sorted(ROLES - _files(game))


def test_the_roles_are_all_the_games_share():
    """A file every game has is a role: named here, so a new common file is a decision, not an accident."""
    common = set.intersection(*(_files(game) for game in GAMES))
    assert common == ROLES, sorted(common ^ ROLES)


def _imports(game: str, module: str, tree: ast.Module) -> set[str]:
    """The modules of the game's package that ``module`` imports anywhere in its source (functions included)."""
    found = set()
    package = f"rulebook.{game}"
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:  # from .x import y, from . import x
                base = node.module or ""
                names = [base] if base else [alias.name for alias in node.names]
            elif node.level == 0 and node.module and node.module.startswith(package):
                rest = node.module[len(package) :].lstrip(".")
                names = [rest] if rest else [alias.name for alias in node.names]
            else:
                continue
            found.update(name.split(".")[0] for name in names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(package + "."):
                    found.add(alias.name[len(package) + 1 :].split(".")[0])
    return found - {module}


def _graph(game: str) -> dict[str, set[str]]:
    modules = {path.stem: path for path in (PACKAGE / game).glob("*.py") if path.stem != "__init__"}
    return {
        name: _imports(game, name, ast.parse(path.read_text(encoding="utf-8"))) & set(modules)
        for name, path in modules.items()
    }


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (its modules in order, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for near in sorted(graph[node]):
            if state.get(near) == 1:
                return path[path.index(near) :] + [near]
            if near not in state and (found := walk(near)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := walk(node)):
            return found
    return None


@pytest.mark.parametrize("game", GAMES)
def test_no_module_of_a_game_imports_one_that_imports_it_back(game):
    assert _cycle(_graph(game)) is None, " -> ".join(_cycle(_graph(game)) or [])


def test_the_cycle_check_finds_a_cycle_through_a_function():
    tree = ast.parse("def f():\n    from .widget import Board\n")
    assert _imports("claim", "explorer", tree) == {"widget"}
    assert _cycle({"explorer": {"widget"}, "widget": {"explorer"}}) == ["explorer", "widget", "explorer"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
