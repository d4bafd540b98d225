"""The site's own pages, written into a built JupyterLite folder: the front page (the games of the registry), one page
per game that opens its app in the browser's Python, and a minimal page (one button) to compare load times with.

A game's page is a thin header (the games, the game's notebook in JupyterLab) over JupyterLite's REPL, which runs the
app cell of ``rulebook app`` (``App(name)``) with its code and prompt hidden.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2

TEMPLATES = Path(__file__).with_name("templates")
MINIMAL = "minimal"  # the folder of the minimal page (no game may take the name: entries() refuses it)
MINIMAL_CODE = 'import ipywidgets as widgets\n\nwidgets.Button(description="Ready")'
# what the page waits for before it takes its "starting" note away: a rendered widget, or an error in the output
READY = ".jupyter-widgets"
FAILED = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"


@dataclass(frozen=True)
class Entry:
    """A game as the front page lists it."""

    name: str
    title: str
    blurb: str
    players: str
    notebook: str  # the game's notebook in the site's JupyterLab, "" when it has none there


def app_code(name: str) -> str:
    """The cell a game's page runs: the app notebook's cell of ``rulebook app``."""
    return f"from rulebook.app import App\n\nApp({name!r})"


def repl_address(code: str) -> str:
    """JupyterLite's REPL, relative to a page one folder down, running ``code`` at once with its input hidden."""
    options = {
        "kernel": "python",  # and no "toolbar": given any value, the REPL shows its tool bar
        "showBanner": "0",
        "hideCodeInput": "1",
        "promptCellPosition": "bottom",
        "code": code,
    }
    return f"../repl/index.html?{urlencode(options)}"


def players_text(counts: Iterable[int]) -> str:
    """``(2, 3, 4)`` -> ``2-4 players``; counts with a gap are listed."""
    counts = sorted(set(counts))
    if len(counts) == 1:
        return f"{counts[0]} {'player' if counts[0] == 1 else 'players'}"
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]} players"
    return f"{', '.join(map(str, counts[:-1]))} or {counts[-1]} players"


def entries(games: Iterable[Any], notebooks: Path) -> list[Entry]:
    """The registry's games (``registry.Game``) as the front page lists them, in the registry's order."""
    found = []
    for game in games:
        if game.name == MINIMAL:
            raise ValueError(f"a game named {MINIMAL!r} would take the minimal page's folder")
        notebook = game.rules if game.rules.endswith(".ipynb") and (notebooks / game.rules).is_file() else ""
        found.append(Entry(game.name, game.title, game.blurb, players_text(game.players), notebook))
    return found


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )


def first_download(site: Path) -> int:
    """Bytes a first visit to a game's page fetches at least: Pyodide's runtime and the preloaded wheels (the lock's
    packages), without the JupyterLite application itself."""
    pyodide = site / "static" / "pyodide"
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    runtime = sum((pyodide / name).stat().st_size for name in ("pyodide.asm.wasm", "python_stdlib.zip"))
    return runtime + sum((pyodide / package["file_name"]).stat().st_size for package in lock["packages"].values())


def write(site: Path, games: Iterable[Any], notebooks: Path) -> list[Path]:
    """Write the front page, every game's page and the minimal page into ``site``; returns the files written."""
    environment = _environment()
    listed = entries(games, notebooks)
    # a game's folder must be new: one named like JupyterLite's own (lab, repl, static, ...) would replace its page
    taken = [entry.name for entry in listed if (site / entry.name).exists()]
    if taken:
        raise ValueError(f"a game named {taken[0]!r} would take the folder {taken[0]}/ of the built site")
    megabytes = round(first_download(site) / 1e6)
    written = [site / "index.html", site / "rulebook-site.css", site / ".nojekyll"]
    index = environment.get_template("index.html").render(games=listed, megabytes=megabytes)
    written[0].write_text(index, encoding="utf-8")
    written[1].write_text((TEMPLATES / "site.css").read_text(encoding="utf-8"), encoding="utf-8")
    written[2].write_text("", encoding="utf-8")  # GitHub Pages: serve the folders whose names start with _ too
    page = environment.get_template("app.html")
    for entry in listed:
        folder = site / entry.name
        folder.mkdir(exist_ok=True)
        text = page.render(
            title=entry.title,
            players=entry.players,
            notebook=entry.notebook,
            address=repl_address(app_code(entry.name)),
            ready=READY,
            failed=FAILED,
            megabytes=megabytes,
        )
        (folder / "index.html").write_text(text, encoding="utf-8")
        written.append(folder / "index.html")
    folder = site / MINIMAL
    folder.mkdir(exist_ok=True)
    text = page.render(
        title="A minimal page",
        players="one button, for comparison",
        notebook="",
        address=repl_address(MINIMAL_CODE),
        ready=READY,
        failed=FAILED,
        megabytes=megabytes,
    )
    (folder / "index.html").write_text(text, encoding="utf-8")
    written.append(folder / "index.html")
    return written
