"""The ``rulebook`` command: ``rulebook lab`` opens JupyterLab on the notebooks; ``rulebook app GAME`` serves one
game as an app."""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

from . import registry


def notebooks_dir() -> Path:
    folder = Path(__file__).resolve().parent.parent / "notebooks"
    if not folder.is_dir():
        raise SystemExit("rulebook: the notebooks/ folder was not found next to the package (use a checkout)")
    return folder


def lab_command(port: int | None, ip: str = "127.0.0.1", token: str | None = None) -> list[str]:
    """JupyterLab on notebooks/, bound to ``ip`` (this machine only unless asked otherwise) with a token, whatever the
    user's Jupyter config says: both are given on the command line, which overrides config files."""
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        f"--ServerApp.root_dir={notebooks_dir()}",
        f"--ServerApp.ip={ip}",
        f"--IdentityProvider.token={token or secrets.token_hex(24)}",
    ]
    if port:
        command.append(f"--port={port}")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    return command


def lab(port: int | None, ip: str = "127.0.0.1") -> int:
    """JupyterLab on notebooks/, token authentication on (Jupyter prints the address with its token)."""
    where = "this machine only" if ip == "127.0.0.1" else f"the address {ip}, so other machines may reach it"
    print(f"Starting JupyterLab on {where}; open the address with its token printed below.", flush=True)
    return subprocess.call(lab_command(port, ip))


def app_file(game: str) -> str:
    """The name of a game's app notebook, without ``.ipynb``: its title, kept to what a file name may hold (Voila
    names the page after the file)."""
    try:
        title = registry.game(game).title
    except ValueError as error:
        raise SystemExit(f"rulebook: {error}") from None
    return re.sub(r"[^\w .,+-]", "", title).strip() or game


def app_notebook(game: str, folder: Path) -> Path:
    """The app's notebook: one cell that opens the game (Voila names the page after the file)."""
    title = app_file(game)
    from . import views

    # plotly.js beside the notebook for the charts, served by Voila as a file the browser keeps (views.ChartView)
    name = views.plotly_file(folder)
    bundle_url = f"voila/files/{name}?v={name.split('-')[1]}"
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "id": "app",
                "metadata": {},
                "outputs": [],
                "source": f"from rulebook.app import App\n\nApp({game!r}, plotly_url={bundle_url!r})",
            }
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = folder / f"{title}.ipynb"
    path.write_text(json.dumps(notebook, indent=1), encoding="utf-8")
    return path


def voila_command(notebook: Path, port: int | None, token: str | None) -> list[str]:
    """Voila on 127.0.0.1 with a token; a kernel is started and the page run before anyone asks for it, so the
    page opens on a ready board."""
    command = [
        sys.executable,
        "-m",
        "voila",
        str(notebook),
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--Voila.root_dir={notebook.parent}",
        "--preheat_kernel=True",
        "--pool_size=1",
        # the one file the page may fetch: plotly.js beside the notebook (views.plotly_file)
        "--VoilaConfiguration.file_allowlist=['plotly-[0-9a-f]{16}-script[.]js']",
    ]
    command.append(f"--token={token}" if token else "--token")
    if port:
        command.append(f"--port={port}")
    return command


def app(game: str, port: int | None, token: str | None = None) -> int:
    """One game as an app: the board, its set-up and its rules, served by Voila with token authentication."""
    with tempfile.TemporaryDirectory(prefix="rulebook-app-") as folder:
        notebook = app_notebook(game, Path(folder))
        print(
            f"Serving {app_file(game)} as an app; open the http://127.0.0.1:... address with its token printed below.",
            flush=True,
        )
        return subprocess.call(voila_command(notebook, port, token))


def main(argv: list[str] | None = None) -> int:
    games = list(registry.games())  # the games found now, as the choices of `app` and `study`
    parser = argparse.ArgumentParser(prog="rulebook", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    lab_parser = commands.add_parser("lab", help="open JupyterLab on the rulebook notebooks")
    lab_parser.add_argument("--port", type=int, default=None)
    lab_parser.add_argument(
        "--ip",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only); a token is required whatever it is",
    )
    app_parser = commands.add_parser("app", help="serve one game's notebook as an app (Voila, code hidden)")
    app_parser.add_argument("game", choices=games)
    app_parser.add_argument("--port", type=int, default=None)
    study_parser = commands.add_parser("study", help="play many games between computer players: who wins how often")
    study_parser.add_argument("game", choices=games)
    study_parser.add_argument("--games", type=int, default=40, help="how many games (default 40)")
    study_parser.add_argument(
        "--seats", required=True, help="one computer player per seat, comma-separated, e.g. greedy,random"
    )
    study_parser.add_argument("--seed", type=int, default=0, help="seed of the first game (game i uses seed + i)")
    study_parser.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    study_parser.add_argument(
        "--scheduler", default=None, help="a Dask scheduler's address, to play the games on its cluster"
    )
    study_parser.add_argument("--chart", default=None, help="write the chart to this HTML file")
    args = parser.parse_args(argv)
    if args.command == "lab":
        return lab(args.port, args.ip)
    if args.command == "study":
        return study(args)
    return app(args.game, args.port)


def study(args: argparse.Namespace) -> int:
    """``rulebook study``: a balance study, printed as a table (and written as a chart when asked)."""
    from . import study as studies

    seats = [name.strip() for name in args.seats.split(",") if name.strip()]
    executor = client = None
    if args.scheduler:
        try:
            from distributed import Client
        except ImportError:
            raise SystemExit("rulebook study --scheduler needs Dask: pip install 'rulebook[study]'") from None
        client = Client(args.scheduler)
        executor = client.get_executor()
    try:
        result = studies.run(
            args.game,
            seats,
            args.games,
            seed=args.seed,
            workers=args.workers,
            executor=executor,
            progress=studies.progress_bar(sys.stderr),
        )
    except ValueError as error:
        raise SystemExit(f"rulebook study: {error}") from None
    finally:
        if client is not None:
            client.close()
    print(result.table())
    if args.chart:
        result.figure().write_html(args.chart, include_plotlyjs=True)
        print(f"chart written to {args.chart}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
