"""``make bench``: one report of the rulebook's speed, printed and written to ``.bench/report.md``.

Timings are measured here and never asserted in tests (the machine is shared; figures vary by a few percent).
"""

from __future__ import annotations

import importlib
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("meetjesland", "kingdom_builder", "ab_die_post", "claim")
TARGETS = {
    "win_table N=100 (ms)": "≈ 10",
    "win_table N=1000 (ms)": "≤ 150",
    "battle_outcomes 100 v 100 (ms)": "≤ 10",
    "import rulebook (s)": "≤ 0.5",
    "ratio boards / libraries": "≤ 1.30",
    "all notebooks (s)": "≤ 60",
    **{f"widget click (ms), {game}": "≤ 50" for game in ("meetjesland", "kingdom_builder", "ab_die_post", "claim")},
}


def meetjesland_games() -> dict[str, object]:
    """Greedy 4-player games per second, random moves per second, and greedy against three random players."""
    from rulebook.meetjesland import bots, rules  # legal-move time: see legal_move_times

    rates = {}
    for name, players in (("random", [bots.random_player] * 4), ("greedy", None)):
        start = time.perf_counter()
        games = 0
        while time.perf_counter() - start < 5:
            bots.play_game(4, games, players)
            games += 1
        rates[name] = games / (time.perf_counter() - start)

    wins, played = 0, 40
    for seed in range(played):
        final = bots.play_game(4, seed, [bots.greedy_player] + [bots.random_player] * 3)
        result = rules.outcome(final)
        wins += result is not None and result.winners == (0,)
    return {
        "random 4-player games per second": round(rates["random"], 1),
        "greedy 4-player games per second": round(rates["greedy"], 1),
        f"greedy vs 3 random: greedy wins (of {played})": f"{wins} ({wins / played:.0%})",
    }


def widget_clicks() -> dict[str, object]:
    """Python time of one click per game: a move sent through the board (checked, applied) and the board redrawn.

    Boards without computer players, so that a click does not include their turns; median of 15 clicks."""
    from rulebook import ab_die_post, claim, kingdom_builder, meetjesland
    from rulebook.ab_die_post.widget import Board as PostBoard
    from rulebook.claim.widget import Board as ClaimBoard
    from rulebook.kingdom_builder.widget import Board as BuilderBoard
    from rulebook.meetjesland.widget import Board as MapBoard

    tables = {
        "meetjesland": (meetjesland, lambda: MapBoard(meetjesland.new_game(4, seed=1), seed=1)),
        "kingdom_builder": (kingdom_builder, lambda: BuilderBoard(kingdom_builder.new_game(2, seed=7), seed=7)),
        "ab_die_post": (ab_die_post, lambda: PostBoard(ab_die_post.new_game(4, seed=1), seed=1)),
        "claim": (claim, lambda: ClaimBoard(claim.new_game(2, seed=7), seed=7)),
    }
    figures: dict[str, object] = {}
    for name, (game, make) in tables.items():
        table = make()
        times = []
        for _ in range(15):
            moves = game.legal_moves(table.state)
            if not moves:
                break
            start = time.perf_counter()
            table.play(moves[len(moves) // 2])
            times.append(time.perf_counter() - start)
        figures[f"widget click (ms), {name}"] = round(sorted(times)[len(times) // 2] * 1000, 1)
    return figures


def legal_move_times(moves: int = 1500) -> dict[str, object]:
    """Mean time of ``legal_moves`` per game, over the positions of seeded random play (4 players; Claim 2)."""
    from rulebook import ab_die_post, claim, kingdom_builder, meetjesland
    from rulebook.core import pick

    figures: dict[str, object] = {}
    for name, game, players in (
        ("meetjesland", meetjesland, 4),
        ("kingdom_builder", kingdom_builder, 4),
        ("ab_die_post", ab_die_post, 4),
        ("claim", claim, 2),
    ):
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


def import_time() -> float:
    command = [
        sys.executable,
        "-c",
        "import time; t = time.perf_counter(); import rulebook, rulebook.meetjesland; print(time.perf_counter() - t)",
    ]
    return min(float(subprocess.run(command, capture_output=True, text=True, check=True).stdout) for _ in range(3))


BASELINE = ("ipywidgets", "anywidget", "plotly.graph_objects", "networkx", "numpy")
WIDGETS = tuple(f"rulebook.{game}.widget" for game in GAMES)


_IMPORT_STEPS = (
    "import time\n"
    "t = time.process_time()\n"
    f"for name in {list(BASELINE)!r}: __import__(name)\n"
    "libraries = time.process_time() - t\n"
    "t = time.process_time()\n"
    f"for name in {list(WIDGETS)!r}: __import__(name)\n"
    "boards = time.process_time() - t\n"
    "t = time.process_time()\n"
    "import rulebook.ui; rulebook.ui.BoardFigure\n"
    "figure = time.process_time() - t\n"
    "t = time.process_time()\n"
    "import rulebook.app\n"
    "app = time.process_time() - t\n"
    "print(libraries, boards, figure, app)"
)


def _import_cpu(runs: int = 9) -> tuple[float, ...]:
    """CPU seconds of each step of :data:`_IMPORT_STEPS` in fresh interpreters, the best of ``runs`` for each: the
    libraries, then the four boards' modules on top of them, then plotly's FigureWidget, then the app."""
    # as on a user's machine after the first start: bytecode written and reused (a shell with
    # PYTHONDONTWRITEBYTECODE set would otherwise count compiling our sources, but not the libraries', every time)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    command = [sys.executable, "-c", _IMPORT_STEPS]
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
    """What the four boards cost to import on top of the libraries they stand on (the app's kernel imports them),
    measured step by step in one interpreter, and what the first board adds: plotly's FigureWidget."""
    libraries, boards, figure, app = _import_cpu()
    return {
        "ipywidgets + anywidget + plotly.graph_objects + networkx + numpy, CPU (s)": round(libraries, 3),
        "then the four rulebook.<game>.widget modules, CPU (s)": round(boards, 3),
        "ratio boards / libraries": f"{(libraries + boards) / libraries:.2f}",
        "then plotly's FigureWidget (defined when the first board is built), CPU (s)": round(figure, 3),
        "then rulebook.app, CPU (s)": round(app, 3),
    }


STUDIES = {  # game: (seats, games) - greedy against random, every seat rotated
    "meetjesland": (("greedy", "random", "random"), 30),
    "meetjesland, strong": (("strong", "greedy", "greedy"), 30),
    "kingdom_builder": (("greedy", "random"), 40),
    "ab_die_post": (("greedy", "random"), 60),
    "claim": (("greedy", "random"), 40),
}


def balance_studies() -> dict[str, object]:
    """Computer players against each other on every core (seats rotated): win rates with 95 % intervals, and time."""
    from . import study

    figures: dict[str, object] = {}
    for name, (seats, games) in STUDIES.items():
        game = name.split(",")[0]
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


def main() -> int:
    sections: list[tuple[str, dict[str, object]]] = []
    from rulebook.meetjesland import odds_bench

    sections.append(("Meetjesland odds", {k: round(v, 3) for k, v in odds_bench.bench().items()}))
    sections.append(("Meetjesland games", meetjesland_games()))
    sections.append(("Widget clicks", widget_clicks()))
    sections.append(("Legal moves", legal_move_times()))
    for game in GAMES[1:]:
        try:
            module = importlib.import_module(f"rulebook.{game}.bench")
        except ModuleNotFoundError:
            continue
        sections.append((game.replace("_", " ").title(), module.bench()))
    sections.append(("Balance studies (seats rotated)", balance_studies()))
    sections.append(("Start-up", {"import rulebook (s)": round(import_time(), 3)}))
    sections.append(("App imports", app_imports()))
    notebooks = notebook_times()
    notebooks["all notebooks (s)"] = round(sum(notebooks.values()), 2)
    sections.append(("Notebook execution (s, kernel start included)", notebooks))
    lines = ["# rulebook benchmark", "", f"{time.strftime('%Y-%m-%d %H:%M')}, Python {sys.version.split()[0]}", ""]
    for title, figures in sections:
        lines += [f"## {title}", "", "| measure | value | target |", "| --- | --- | --- |"]
        lines += [f"| {name} | {value} | {TARGETS.get(name, '')} |" for name, value in figures.items()]
        lines.append("")
    report = "\n".join(lines)
    print(report)
    out = ROOT / ".bench"
    out.mkdir(exist_ok=True)
    (out / "report.md").write_text(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
