"""The ``rulebook`` command: ``rulebook lab`` opens JupyterLab on the notebooks; ``rulebook app GAME`` serves one
game as an app."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path


def notebooks_dir() -> Path:
    folder = Path(__file__).resolve().parent.parent / "notebooks"
    if not folder.is_dir():
        raise SystemExit("rulebook: the notebooks/ folder was not found next to the package (use a checkout)")
    return folder


def lab(port: int | None) -> int:
    """JupyterLab on notebooks/, token authentication on (Jupyter prints the address with its token)."""
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--ServerApp.root_dir={notebooks_dir()}"]
    if port:
        command.append(f"--port={port}")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    print("Starting JupyterLab; open the http://127.0.0.1:... address with its token printed below.", flush=True)
    return subprocess.call(command)


GAMES = ("meetjesland", "kingdom_builder", "ab_die_post", "claim")


def app(game: str, port: int | None, token: str | None = None) -> int:
    """One game's notebook served by Voila: code hidden, board and charts live, token authentication on."""
    notebook = notebooks_dir() / f"{game}.ipynb"
    if not notebook.is_file():
        raise SystemExit(f"rulebook: no notebook for {game!r} (games: {', '.join(GAMES)})")
    command = [
        sys.executable,
        "-m",
        "voila",
        str(notebook),
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--Voila.root_dir={notebooks_dir()}",
    ]
    command.append(f"--token={token}" if token else "--token")
    if port:
        command.append(f"--port={port}")
    print(f"Serving {game} with Voila; open the http://127.0.0.1:... address with its token printed below.", flush=True)
    return subprocess.call(command)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rulebook", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    lab_parser = commands.add_parser("lab", help="open JupyterLab on the rulebook notebooks")
    lab_parser.add_argument("--port", type=int, default=None)
    app_parser = commands.add_parser("app", help="serve one game's notebook as an app (Voila, code hidden)")
    app_parser.add_argument("game", choices=GAMES)
    app_parser.add_argument("--port", type=int, default=None)
    args = parser.parse_args(argv)
    if args.command == "lab":
        return lab(args.port)
    return app(args.game, args.port)


if __name__ == "__main__":
    raise SystemExit(main())
