"""The ``rulebook`` command: ``rulebook lab`` opens JupyterLab on a working copy of the notebooks; ``rulebook app
GAME`` serves one game as an app."""

from __future__ import annotations

import argparse
import json
import re
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any, NoReturn

from rulebook import registry, serve
from rulebook.serve import working_copy


def notebooks_dir() -> Path:
    """The notebooks the rulebook ships (inside the installed package, or a checkout's notebooks/): what ``rulebook
    lab`` copies, never what it opens."""
    try:
        return working_copy.shipped_folder()
    except ValueError as error:
        raise SystemExit(f"rulebook: {error}") from None


def lab_command(port: int | None, folder: Path, ip: str = serve.LOOPBACK, token: str | None = None) -> list[str]:
    """JupyterLab on ``folder`` (the working copy), on ``ip`` (this machine only unless asked otherwise) with a token,
    whatever the user's Jupyter config says (:func:`rulebook.serve.lab_command`)."""
    return serve.lab_command(port, ip, token, root_dir=folder)


def _where(ip: str) -> str:
    if serve.is_loopback(ip):
        return "this machine only"
    return f"the address {ip}, so other machines may reach it (the token is still required)"


def lab(port: int | None, ip: str = serve.LOOPBACK, folder: str | None = None, fresh: bool = False) -> int:
    """JupyterLab on a working copy of the notebooks in ``folder`` (default ``~/rulebook-notebooks``), made or
    brought up to date first without losing an edit (:mod:`rulebook.working_copy`), with a fresh token; the folder is
    printed at once, the address with its token once JupyterLab answers."""
    try:
        ip = serve.check_ip(ip)
        port = serve.choose_port(ip, port, serve.LAB_PORT)
        copy = working_copy.prepare(Path(folder) if folder else working_copy.default_folder(), fresh=fresh)
    except ValueError as error:
        fail("lab", str(error))
    for line in copy.lines():
        print(line, flush=True)
    token = serve.fresh_token()
    host = serve.local_host(ip)
    print(f"Starting JupyterLab on {_where(ip)}; Ctrl-C stops it.", flush=True)
    return serve.supervise(
        lab_command(port, copy.folder, ip, token),
        ready=lambda: serve.answers(f"http://{host}:{port}/api/status", token),
        announce=f"JupyterLab is ready: open {serve.address(ip, port, '/lab', token)}",
        out=lambda line: print(line, flush=True),
    )


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
    from rulebook.view import figures

    # plotly.js beside the notebook for the charts, served by Voila as a file the browser keeps (figures.ChartView)
    name = figures.plotly_file(folder)
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


APP_FILES = ["plotly-[0-9a-f]{16}-script[.]js"]  # what the app's page may fetch: plotly.js (figures.plotly_file)


def voila_command(notebook: Path, port: int | None, token: str | None, **options: Any) -> list[str]:
    """Voila on 127.0.0.1 with a token, whatever the user's config says; a kernel is started and the page run
    before anyone asks for it, so the page opens on a ready board (:func:`rulebook.serve.voila_command`: ``ip``,
    ``max_kernels``, ``idle_timeout``)."""
    return serve.voila_command(notebook, port, token, files=APP_FILES, **options)


def app(
    game: str,
    port: int | None,
    token: str | None = None,
    *,
    ip: str = serve.LOOPBACK,
    max_kernels: int | None = None,
) -> int:
    """One game as an app: the board, its set-up and its rules, served by Voila with a fresh token; its address,
    token included, is printed once it answers."""
    try:
        ip = serve.check_ip(ip)
        port = serve.choose_port(ip, port, serve.APP_PORT)
    except ValueError as error:
        fail("app", str(error))
    if max_kernels is not None and not 1 <= max_kernels <= 1000:
        fail("app", f"--max-kernels: a whole number from 1 to 1000, not {max_kernels}")
    token = token or serve.fresh_token()
    host = serve.local_host(ip)
    places = max_kernels or serve.default_places()
    with tempfile.TemporaryDirectory(prefix="rulebook-app-") as folder:
        notebook = app_notebook(game, Path(folder))
        print(
            f"Serving {app_file(game)} as an app on {_where(ip)}, up to {places} games at once; Ctrl-C stops it.",
            flush=True,
        )
        return serve.supervise(
            voila_command(notebook, port, token, ip=ip, max_kernels=places),
            ready=lambda: serve.listens(host, port),
            announce=f"The app is ready: open {serve.address(ip, port, '/', token)}",
            out=lambda line: print(line, flush=True),
        )


CLASS_DB = "rulebook-class.db"
CLASS_PORT = 8870


def class_server(ip: str, port: int | None, db: str, token: str | None = None, site: str | None = None) -> int:
    """The class server (:mod:`rulebook.tables`) in this process until Ctrl-C or SIGTERM: prints the teacher's
    address (with a fresh token) and the students' once it listens; the built website (``make site``, or ``site``)
    is served under /site/."""
    import asyncio
    import signal

    from rulebook.tables import room, server, store

    try:
        ip = serve.check_ip(ip)
        port = serve.choose_port(ip, port, CLASS_PORT)
        website = Path(site) if site else None if site == "" else server.built_site()  # "": no website
        if website is not None and not (website / "index.html").is_file():
            raise ValueError(f"--site: {website} holds no built website (make site builds one in site/)")
        kept = store.open_store(db)
        classroom = room.Room(kept)
    except ValueError as error:
        fail("class", str(error))
    token = token or serve.fresh_token()
    host = ip if not serve.is_loopback(ip) else serve.local_host(ip)

    def ready() -> None:
        print(
            f"The class server keeps its games in {db if kept.kind == 'sqlite' else 'PostgreSQL'} "
            f"({len(classroom.tables)} tables); Ctrl-C stops it.",
            flush=True,
        )
        print(f"Teacher: open {serve.address(ip, port, '/teacher', token)}", flush=True)
        if website is not None:
            print(f"The rulebook's website: http://{host}:{port}/site/", flush=True)
        print(f"Students: open http://{host}:{port}/ and type their table's code", flush=True)  # the last line

    async def main() -> None:
        task = asyncio.ensure_future(server.serve(classroom, token, ip, port, ready, website))
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(sig, task.cancel)
        try:
            await task
        except asyncio.CancelledError:
            pass

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    finally:
        kept.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    games = list(registry.games())  # the games found now, as the choices of `app` and `study`
    parser = argparse.ArgumentParser(prog="rulebook", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    lab_parser = commands.add_parser(
        "lab",
        help="open JupyterLab on your working copy of the rulebook notebooks",
        description="Open JupyterLab on a working copy of the rulebook's notebooks, in a folder of yours. The first "
        "run copies them there; later runs copy what is missing, update notebooks you have not edited and keep every "
        "notebook you edited.",
    )
    lab_parser.add_argument(
        "--dir",
        default=None,
        metavar="FOLDER",
        help=f"the working copy's folder, made if needed (default: ~/{working_copy.FOLDER_NAME})",
    )
    lab_parser.add_argument(
        "--fresh",
        action="store_true",
        help="replace the notebooks you edited with the rulebook's; your edited ones are kept beside them, renamed "
        "NAME-edited-DATE-TIME.ipynb",
    )
    lab_parser.add_argument("--port", type=int, default=None, help="port to listen on (default: 8888 or the next free)")
    lab_parser.add_argument(
        "--ip",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only); a token is required whatever it is",
    )
    app_parser = commands.add_parser("app", help="serve one game's notebook as an app (Voila, code hidden)")
    app_parser.add_argument("game", choices=games)
    app_parser.add_argument("--port", type=int, default=None, help="port to listen on (default: 8866 or the next free)")
    app_parser.add_argument(
        "--ip",
        default=serve.LOOPBACK,
        help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every network); a token is "
        "required whatever it is",
    )
    app_parser.add_argument(
        "--max-kernels",
        type=int,
        default=None,
        metavar="N",
        help="most games served at once (each page has its own kernel, about 120 MB); a page beyond them is told "
        "the server is full (default: one per 300 MB of free memory, at most 64)",
    )
    study_parser = commands.add_parser("study", help="play many games between computer players: who wins how often")
    study_parser.add_argument("game", choices=games)
    study_parser.add_argument("--games", type=int, default=40, help="how many games (default 40)")
    study_parser.add_argument(
        "--seats", required=True, help="one computer player per seat, comma-separated, e.g. greedy,random"
    )
    study_parser.add_argument("--seed", type=int, default=0, help="seed of the first game (game i uses seed + i)")
    study_parser.add_argument(
        "--workers", type=int, default=None, help="processes (default and most: one per core of this machine)"
    )
    study_parser.add_argument(
        "--scheduler", default=None, help="a Dask scheduler's address, to play the games on its cluster"
    )
    study_parser.add_argument("--chart", default=None, help="write the chart to this HTML file")
    class_parser = commands.add_parser(
        "class",
        help="serve a class: tables across devices, the games kept by this server, a teacher's page",
        description="A class server: the teacher's page (its address, with a fresh token, is printed) creates tables; "
        "students open the students' address, type a table's code and their name, and play from their own screens. "
        "Every move is kept in the database, so a restarted server goes on where it was.",
    )
    class_parser.add_argument(
        "--ip",
        default=serve.LOOPBACK,
        help="address to listen on (default 127.0.0.1: this machine only; for a classroom, this machine's address "
        "on the school network, or 0.0.0.0 for every network)",
    )
    class_parser.add_argument("--port", type=int, default=None, help="port (default: 8870 or the next free)")
    class_parser.add_argument(
        "--db",
        default=CLASS_DB,
        help=f"the class's database: an SQLite file, made if needed (default ./{CLASS_DB}), or a "
        "postgresql://user:password@host/database address",
    )
    class_parser.add_argument(
        "--site",
        default=None,
        metavar="FOLDER",
        help="a website built by make site, served under /site/ (default: this checkout's site/ when built); "
        "students then play on its game pages",
    )
    class_parser.add_argument(
        "--no-site",
        action="store_true",
        help="serve no website: students play on the tables' own text pages (lighter for old phones)",
    )
    args = parser.parse_args(argv)
    if args.command == "class":
        return class_server(args.ip, args.port, args.db, site="" if args.no_site else args.site)
    if args.command == "lab":
        return lab(args.port, args.ip, args.dir, args.fresh)
    if args.command == "study":
        return study(args)
    return app(args.game, args.port, ip=args.ip, max_kernels=args.max_kernels)


def fail(command: str, message: str) -> NoReturn:
    """Stop a command with one line on stderr saying what was wrong, and exit code 2 (as argparse does)."""
    print(f"rulebook {command}: {message}", file=sys.stderr, flush=True)
    raise SystemExit(2)


def chart_target(path: str) -> Path:
    """The chart's file, checked before any game is played: its folder exists and the file can be written there (a
    file that did not exist is not left behind)."""
    target = Path(path)
    if not target.parent.is_dir():
        fail("study", f"--chart {path}: there is no folder {str(target.parent)!r}")
    if target.is_dir():
        fail("study", f"--chart {path}: that is a folder, not a file")
    existed = target.exists()
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as error:
        fail("study", f"--chart {path}: cannot write there ({error.strerror or error})")
    if not existed:
        target.unlink(missing_ok=True)
    return target


def scheduler_client(address: str, timeout: float = 10) -> Any:
    """A Dask client of the scheduler at ``address``, or one line saying why not: a malformed address at once, a
    closed port within a few seconds, a scheduler that does not answer within ``timeout`` seconds."""
    try:
        from distributed import Client
        from distributed.comm.addressing import parse_address, parse_host_port
    except ImportError:
        fail("study", "--scheduler needs Dask: pip install 'rulebook[study]'")
    try:
        scheme, location = parse_address(address)
        if scheme in ("tcp", "tls"):
            host, port = parse_host_port(location, 8786)
            socket.create_connection((host, port), timeout=min(timeout, 5)).close()
    except ValueError as error:
        fail("study", f"--scheduler {address!r}: not a scheduler address ({error})")
    except OSError as error:
        fail("study", f"--scheduler {address!r}: nothing answers there ({error.strerror or error})")
    try:
        return Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as error:
        fail("study", f"--scheduler {address!r}: no Dask scheduler answered within {timeout:g} s ({error})")


def study(args: argparse.Namespace) -> int:
    """``rulebook study``: a balance study, printed as a table (and written as a chart when asked). Every argument
    is checked before the first game; what was wrong is said in one line (exit code 2)."""
    from rulebook.play import study as studies

    seats = [name.strip() for name in args.seats.split(",") if name.strip()]
    try:
        studies.check(args.game, seats, args.games, args.seed)
    except ValueError as error:
        fail("study", str(error))
    if args.workers is not None and args.workers < 1:
        fail("study", f"--workers: a whole number from 1, not {args.workers}")
    if args.workers is not None and not args.scheduler and studies.worker_count(args.workers) < args.workers:
        used = studies.worker_count(args.workers)
        print(
            f"study: --workers {args.workers}: using {used}, one per core of this machine (more processes than cores "
            "only wait for each other)",
            file=sys.stderr,
        )
    chart = chart_target(args.chart) if args.chart else None
    executor = client = None
    if args.scheduler:
        client = scheduler_client(args.scheduler)
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
        fail("study", str(error))
    finally:
        if client is not None:
            client.close()
    print(result.table())
    if chart is not None:
        try:
            result.figure().write_html(chart, include_plotlyjs=True)
        except OSError as error:
            fail("study", f"--chart {args.chart}: cannot write there ({error.strerror or error}); the table is above")
        print(f"chart written to {chart}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
