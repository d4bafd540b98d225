"""Run everything a student can reach, in a process where numpy cannot be imported (the browser's Python, Pyodide,
has no numpy), and print what it showed as JSON: tests/test_numpy_optional.py runs this with and without numpy and
compares the two records.

``python -c "from tests import numpy_free; numpy_free.refuse_numpy(); numpy_free.main()"`` from the checkout. This
module imports only the standard library at the top, so the refusal is in place before anything asks for numpy.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.abc
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MAX_MOVES = 40  # moves per computer-player game: enough to reach every phase's decisions without a long run


class RefuseNumpy(importlib.abc.MetaPathFinder):
    """A meta path finder that refuses ``numpy`` and its submodules, as an interpreter without numpy would, and
    counts the refusals (libraries such as plotly try numpy and go on without it)."""

    refused: list[str] = []

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "numpy" or name.startswith("numpy."):
            self.refused.append(name)
            raise ModuleNotFoundError(f"No module named {name!r} (refused for this run)", name=name)
        return None


def refuse_numpy() -> None:
    """Make numpy unimportable in this process from now on (it must not have been imported already)."""
    if "numpy" in sys.modules:
        raise RuntimeError("numpy was imported before the refusal was installed")
    sys.meta_path.insert(0, RefuseNumpy())


def _shown(value: Any) -> dict[str, Any]:
    """What a notebook shows of a cell's value: a figure's JSON, a widget's kind, else its repr (no addresses)."""
    import ipywidgets
    import plotly.graph_objects as go

    from rulebook import views

    if isinstance(value, go.Figure):
        return {"figure": views.plotly_json(value)}
    if isinstance(value, ipywidgets.Widget):
        return {"widget": type(value).__name__}
    return {"repr": re.sub(r" at 0x[0-9a-f]+", "", repr(value))}


def run_notebook(path: Path) -> list[dict[str, Any]]:
    """Every code cell of a notebook in one namespace, as the kernel runs them: what each printed and its value."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    outputs = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "code":
            continue
        tree = ast.parse("".join(cell["source"]))
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(tree, path.name, "exec"), namespace)  # the repository's own notebooks, nothing else
            value = eval(compile(ast.Expression(last.value), path.name, "eval"), namespace) if last else None
        outputs.append({"printed": printed.getvalue(), **({} if value is None else _shown(value))})
    return outputs


def play_every_game() -> dict[str, Any]:
    """Each game of the registry: every computer player plays every seat for a few moves, and the game's board, its
    explorer and its app are built."""
    from rulebook import registry, study
    from rulebook.app import App

    games: dict[str, Any] = {}
    for name, game in registry.games().items():
        played = {}
        for bot in sorted(game.bots()):
            result = study.play_game(name, [bot] * game.default_players, seed=3, max_moves=MAX_MOVES)
            played[bot] = [result.moves, list(result.winners), result.finished]
        state = game.new_state(game.default_players, 5)
        board = game.board_class()(state, seed=5, computer=dict(game.default_computer))
        explorer = game.explorer_class()
        games[name] = {
            "bots": played,
            "board": type(board).__name__,
            "explorer": type(explorer(board)).__name__ if explorer else None,
            "app": type(App(name)).__name__,
        }
    return games


def main(notebooks: list[str] | None = None) -> None:
    """Print the record: every notebook's cells (or those named in ``notebooks``), every game played and built, and
    which path the odds took."""
    from rulebook.meetjesland import odds

    paths = sorted((ROOT / "notebooks").glob("*.ipynb"))
    record = {
        "notebooks": {path.name: run_notebook(path) for path in paths if notebooks is None or path.name in notebooks},
        "games": play_every_game(),
    }
    seen = {"numpy_imported": "numpy" in sys.modules, "use_numpy": odds.USE_NUMPY, "refused": RefuseNumpy.refused}
    print(json.dumps({"record": record, **seen}))
