"""``make bench``: one report of the rulebook's speed, printed and written to ``.bench/report.md``.

Timings are measured here and never asserted in tests (the machine is shared; figures vary by a few percent).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from rulebook import registry
from rulebook.play import study
from rulebook.tools import class_load, loadtest

ROOT = Path(__file__).resolve().parents[2]  # the checkout
TARGETS = {
    "win_table N=100 (ms)": "≈ 10",
    "win_table N=1000 (ms)": "≤ 150",
    "battle_outcomes 100 v 100 (ms)": "≤ 10",
    "import rulebook and find its games (s)": "≤ 0.5",
    "ratio boards / libraries": "≤ 1.30",
    "all notebooks (s)": "≤ 60",
    class_load.LATENCY: "< 100 / < 300",  # issue 45.6, on loopback
    "moves lost, duplicated, counts gone back": "0, 0, 0",
}
CLICK_TARGET = "≤ 50"  # ms, for the click of every game's board


def widget_clicks() -> dict[str, object]:
    """Python time of one click per game: a move sent through the board (checked, applied) and the board redrawn.

    Boards without computer players, so that a click does not include their turns (each game's ``Bench.click``
    gives the players and seed); median of 15 clicks."""
    figures: dict[str, object] = {}
    for name, game in registry.games().items():
        players, seed = game.bench.click
        table = game.board_class()(game.engine.new_game(players=players, seed=seed), seed=seed)
        times = []
        for _ in range(15):
            moves = game.engine.legal_moves(table.state)
            if not moves:
                break
            start = time.perf_counter()
            table.play(moves[len(moves) // 2])
            times.append(time.perf_counter() - start)
        figures[f"widget click (ms), {name}"] = round(sorted(times)[len(times) // 2] * 1000, 1)
    return figures


def legal_move_times(moves: int = 1500) -> dict[str, object]:
    """Mean time of ``legal_moves`` per game, over the positions of seeded random play (``Bench.players`` each)."""
    from rulebook.core import pick

    figures: dict[str, object] = {}
    for name, declared in registry.games().items():
        game, players = declared.engine, declared.bench.players
        rng = random.Random(0)
        state, played, spent, games = game.new_game(players=players, seed=0), 0, 0.0, 0
        began = time.perf_counter()
        while played < moves:
            if game.outcome(state) is not None:
                games += 1
                state = game.new_game(players=players, seed=games)
            outcomes = game.chance_outcomes(state)
            if outcomes:
                state = game.apply(state, pick(outcomes, rng))
                continue
            start = time.perf_counter()
            legal = game.legal_moves(state)
            spent += time.perf_counter() - start
            state = game.apply(state, rng.choice(legal))
            played += 1
        figures[f"legal_moves mean (ms), {name}"] = round(spent / played * 1000, 3)
        figures[f"random moves per second, {name}"] = round(played / (time.perf_counter() - began))
    return figures


_RANDOM_PLAY = (
    "import json, random, sys, time\n"
    "t = time.process_time()\n"
    "from rulebook import registry\n"
    "from rulebook.core import pick\n"
    "engine = registry.game(sys.argv[1]).engine\n"
    "players, games, seed, warm = (int(v) for v in sys.argv[2:])\n"
    "imported = time.process_time() - t\n"
    "def play(seed):\n"
    "    rng, state, moves = random.Random(seed), engine.new_game(players=players, seed=seed), 0\n"
    "    while engine.outcome(state) is None and moves < 5000:\n"
    "        outcomes = engine.chance_outcomes(state)\n"
    "        if outcomes:\n"
    "            state = engine.apply(state, pick(outcomes, rng))\n"
    "            continue\n"
    "        state = engine.apply(state, rng.choice(engine.legal_moves(state)))\n"
    "        moves += 1\n"
    "    return moves\n"
    "for number in range(warm):\n"
    "    play(10**6 + number)\n"
    "t = time.process_time()\n"
    "moves = sum(play(seed + number) for number in range(games))\n"
    "print(json.dumps([moves, time.process_time() - t, imported]))"
)


def cold_random_play(processes: int = 6, games: int = 3) -> dict[str, object]:
    """Random play in moves per CPU second as a page's first games meet it (issue 29.3): ``processes`` fresh
    interpreters of ``games`` seeded games each (set-up included, imports not), and beside it the same engine warmed
    by 15 games in one interpreter; at the smallest player count and at ``Bench.players`` (or the largest)."""
    import json

    figures: dict[str, object] = {}

    def run(name: str, players: int, count: int, seed: int, warm: int) -> tuple[int, float, float]:
        command = [sys.executable, "-c", _RANDOM_PLAY, name, str(players), str(count), str(seed), str(warm)]
        out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT).stdout
        moves, cpu, imported = json.loads(out)
        return moves, cpu, imported

    for name, declared in registry.games().items():
        least = min(declared.players)
        counts = sorted({least, declared.bench.players if declared.bench.players != least else max(declared.players)})
        for players in counts:
            runs = [run(name, players, games, 100 * number, 0) for number in range(processes)]
            moves, cpu = sum(r[0] for r in runs), sum(r[1] for r in runs)
            figures[f"random moves per CPU second, cold ({games} games a fresh process), {name}, {players} players"] = (
                round(moves / cpu)
            )
            warm_moves, warm_cpu, _ = run(name, players, 2 * games * processes // 3 or 1, 0, 15)
            figures[f"random moves per CPU second, warmed by 15 games, {name}, {players} players"] = round(
                warm_moves / warm_cpu
            )
        figures[f"engine import CPU in a fresh process (s), {name}"] = round(min(r[2] for r in runs), 3)
    return figures


def import_time() -> float:
    """Seconds to import rulebook and load every game's declaration (which imports each game's engine)."""
    command = [
        sys.executable,
        "-c",
        "import time; t = time.perf_counter(); import rulebook.registry as r; r.games()\n"
        "print(time.perf_counter() - t)",
    ]
    return min(float(subprocess.run(command, capture_output=True, text=True, check=True).stdout) for _ in range(3))


BASELINE = ("ipywidgets", "anywidget", "plotly.graph_objects", "networkx", "numpy")


def board_modules() -> tuple[str, ...]:
    """The modules of every game's board (``Game.board``), as the app's kernel imports them."""
    return tuple(game.board.partition(":")[0] for game in registry.games().values())


def _import_steps() -> str:
    """The program :func:`_import_cpu` runs: the libraries, the boards, the first board figure, the app, each timed."""
    return (
        "import time\n"
        "t = time.process_time()\n"
        f"for name in {list(BASELINE)!r}: __import__(name)\n"
        "libraries = time.process_time() - t\n"
        "t = time.process_time()\n"
        f"for name in {list(board_modules())!r}: __import__(name)\n"
        "boards = time.process_time() - t\n"
        "t = time.process_time()\n"
        "import plotly.graph_objects as go; from rulebook.view.figures import BoardView\n"
        "BoardView(go.Figure(go.Scatter(x=[0], y=[0])))\n"
        "figure = time.process_time() - t\n"
        "t = time.process_time()\n"
        "import rulebook.app\n"
        "app = time.process_time() - t\n"
        "print(libraries, boards, figure, app)"
    )


def _import_cpu(runs: int = 9) -> tuple[float, ...]:
    """CPU seconds of each step of :func:`_import_steps` in fresh interpreters, the best of ``runs`` for each: the
    libraries, then every game's board module on top of them, then the first BoardView, then the app."""
    # as on a user's machine after the first start: bytecode written and reused (a shell with
    # PYTHONDONTWRITEBYTECODE set would otherwise count compiling our sources, but not the libraries', every time)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    command = [sys.executable, "-c", _import_steps()]
    subprocess.run(command, capture_output=True, text=True, check=True, env=env)  # warm-up: bytecode, page cache
    runs_seen = [
        tuple(
            float(v)
            for v in subprocess.run(command, capture_output=True, text=True, check=True, env=env).stdout.split()
        )
        for _ in range(runs)
    ]
    return tuple(min(step) for step in zip(*runs_seen))


def app_imports() -> dict[str, object]:
    """What the games' boards cost to import on top of the libraries they stand on (the app's kernel imports them),
    measured step by step in one interpreter, and what the first board's figure adds (a BoardView)."""
    libraries, boards, figure, app = _import_cpu()
    return {
        "ipywidgets + anywidget + plotly.graph_objects + networkx + numpy, CPU (s)": round(libraries, 3),
        "then every game's board module, CPU (s)": round(boards, 3),
        "ratio boards / libraries": f"{(libraries + boards) / libraries:.2f}",
        "then the first board's figure (a BoardView of plotly's JSON), CPU (s)": round(figure, 3),
        "then rulebook.app, CPU (s)": round(app, 3),
    }


def balance_studies() -> dict[str, object]:
    """Computer players against each other on every core (seats rotated), as each game's ``Bench.studies`` asks:
    win rates with 95 % intervals, and time."""
    figures: dict[str, object] = {}
    for game, declared in registry.games().items():
        for number, (seats, games) in enumerate(declared.bench.studies):
            name = game if number == 0 else f"{game}, {seats[0]}"
            start = time.perf_counter()
            result = study.run(game, seats, games)
            spent = time.perf_counter() - start
            for row in result.rows():
                if row["who"] == seats[0] or row["who"] == "first player":
                    figures[f"{game}, {row['who']} win rate ({', '.join(seats)}; {games} games)"] = (
                        f"{row['rate']:.1%} ({row['low']:.1%} to {row['high']:.1%})"
                    )
            figures[f"{name}, study wall time (s, {os.cpu_count()} cores)"] = round(spent, 1)
    return figures


def game_sections() -> list[tuple[str, dict[str, object]]]:
    """Each game's own figures (``Bench.section``, given the study runner), under the game's title."""
    sections = []
    for declared in registry.games().values():
        if declared.bench.section:
            sections.append((declared.title, registry.resolve(declared.bench.section)(study=study.run)))
    return sections


def estimate_figures() -> dict[str, object]:
    """Who is winning, cold (issue 29.1): one default estimate (:func:`rulebook.estimate.estimate`, 2 s CPU at most)
    of each game's start (default players, seed 0) in a fresh interpreter: its CPU, the playouts it played and the
    policy it chose, and the interpreter's CPU with the imports."""
    program = (
        "import json, random, sys, time\n"
        "t = time.process_time()\n"
        "from rulebook import estimate, registry\n"
        "from rulebook.core import advance\n"
        "game = registry.game(sys.argv[1])\n"
        "state = advance(game.new_state(game.default_players, 0), random.Random(0))\n"
        "e = estimate.estimate(state)\n"
        "print(json.dumps([time.process_time() - t, e.cpu, e.playouts, e.unfinished, e.moves, e.policy]))"
    )
    import json

    figures: dict[str, object] = {}
    for name, declared in registry.games().items():
        command = [sys.executable, "-c", program, name]
        total, cpu, playouts, unfinished, moves, policy = json.loads(
            subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT).stdout
        )
        figures[f"estimate CPU (s), {name}"] = round(cpu, 2)
        figures[f"playouts per estimate, {name} ({declared.default_players} players)"] = playouts + unfinished
        figures[f"decisions per playout, {name}"] = round(moves / max(playouts + unfinished, 1))
        figures[f"playout policy, {name}"] = policy
        figures[f"fresh process CPU with imports (s), {name}"] = round(total, 2)
    return figures


def notebook_times() -> dict[str, float]:
    import nbformat
    from nbclient import NotebookClient

    times = {}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        start = time.perf_counter()
        NotebookClient(
            notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
        ).execute()
        times[path.name] = round(time.perf_counter() - start, 2)
    return times


def target(measure: str) -> str:
    """The target of a measure, where it has one."""
    return CLICK_TARGET if measure.startswith("widget click (ms), ") else TARGETS.get(measure, "")


def main() -> int:
    sections: list[tuple[str, Mapping[str, object]]] = []
    sections.append(("Widget clicks", widget_clicks()))
    sections.append(("Legal moves", legal_move_times()))
    sections.append(("Random play, cold and warm (moves per CPU second)", cold_random_play()))
    sections.extend(game_sections())
    sections.append(("Balance studies (seats rotated)", balance_studies()))
    sections.append(("Who is winning: one estimate of each game's start, cold", estimate_figures()))
    sections.append(("Start-up", {"import rulebook and find its games (s)": round(import_time(), 3)}))
    sections.append(("App imports", app_imports()))
    notebooks = notebook_times()
    notebooks["all notebooks (s)"] = round(sum(notebooks.values()), 2)
    sections.append(("Notebook execution (s, kernel start included)", notebooks))
    # a class opening one app at once: 1, 4, 8 and 16 pages on 127.0.0.1, bounded in time (rulebook.loadtest)
    sections.append(("Load test: pages of one app opened together (Chromium, 127.0.0.1)", loadtest.figures()))
    # a class on one class server: 60 scripted seats on 20 tables over WebSockets and 4 pages (tools/class_load.py)
    sections.append(("Load test: a class on the class server (WebSockets, Chromium, 127.0.0.1)", class_load.figures()))
    lines = ["# rulebook benchmark", "", f"{time.strftime('%Y-%m-%d %H:%M')}, Python {sys.version.split()[0]}", ""]
    for title, figures in sections:
        lines += [f"## {title}", "", "| measure | value | target |", "| --- | --- | --- |"]
        lines += [f"| {name} | {value} | {target(name)} |" for name, value in figures.items()]
        lines.append("")
    report = "\n".join(lines)
    print(report)
    out = ROOT / ".bench"
    out.mkdir(exist_ok=True)
    (out / "report.md").write_text(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
