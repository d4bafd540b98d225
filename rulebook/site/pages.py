"""The site's own pages, written into a built JupyterLite folder: the front page (the games of the registry), one page
per game that opens its app in the browser's Python, and a minimal page (one button) to compare load times with.

A game's page is a thin header (the games, the game's notebook in JupyterLab) over JupyterLite's REPL, which runs the
app cell of ``rulebook app`` (``App(name, seed=FIRST_SEED)``) with its code and prompt hidden. Until the app's board
is there, the page shows the board's first position, made at build time (:func:`first_position`) and drawn by the
board's own ``board.js``, under a progress bar that says what is loading.
"""

from __future__ import annotations

import hashlib
import json
import shutil
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
BOARD = ".rulebook-board .rulebook-figure svg"  # a game page's live board: the first position gives way to it
FIRST_SEED = 1  # every page's first game: the one whose first position the page shows while Python starts
STATIC = "static/rulebook"  # the site's own scripts (build.STATIC)
RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")  # what Pyodide's start fetches
KERNEL_SETTINGS = "@jupyterlite/pyodide-kernel-extension:kernel"
FAILED = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"


@dataclass(frozen=True)
class Entry:
    """A game as the front page lists it."""

    name: str
    title: str
    blurb: str
    players: str
    notebook: str  # the game's notebook in the site's JupyterLab, "" when it has none there


def app_code(
    name: str, plotly: tuple[str, str] | None = None, deferred: Iterable[tuple[str, tuple[str, ...]]] = ()
) -> str:
    """The cell a game's page runs: the app notebook's cell of ``rulebook app``, on the game of :data:`FIRST_SEED`;
    ``plotly`` (file name, key) is the site's plotly.js, which the charts load (the browser's plotly.py has none);
    ``deferred``: (zip, import names) of the packages' parts fetched at their first import (rulebook.site.deferred)."""
    lines = [f"from rulebook.site import deferred\n\ndeferred.install({file!r}, {names!r})" for file, names in deferred]
    if plotly is not None:
        file, key = plotly
        address = f"../{STATIC}/{file}"  # relative to the REPL's page
        lines.append(f"from rulebook.view import figures\n\nfigures.serve_plotly_from({address!r}, {key!r})")
    # the first game is the one the page drew while Python started; the seed box is then left blank, so that New game
    # deals a new game, as everywhere else
    lines.append(
        f"from rulebook.app import App\n\napp = App({name!r}, seed={FIRST_SEED})\napp.seed_text.value = ''\napp"
    )
    return "\n".join(lines)


def _views(widget: Any) -> Iterable[Any]:
    yield widget
    for child in getattr(widget, "children", None) or ():
        yield from _views(child)


def first_position(name: str, seed: int = FIRST_SEED) -> dict[str, Any]:
    """What the app's board (``App(name, seed=seed)``) sends to the page first: its figure (plotly's JSON), revision
    and clickable traces, which ``board.js`` draws; made by the build's own Python, without a browser."""
    from rulebook.app import App
    from rulebook.view.figures import BoardView

    app = App(name, seed=seed)
    found = [view for view in _views(app.board) if isinstance(view, BoardView)]
    if not found:
        raise ValueError(f"{name}: the app's board holds no BoardView to draw its first position from")
    view = found[0]
    position = {"figure": view.figure, "revision": view.revision, "clickable": list(view.clickable)}
    for widget in _views(app):
        widget.close()
    return position


def board_script(site: Path) -> str:
    """board.js beside the site's own scripts, named by its contents (a browser may keep it for good); returns its
    address relative to a game's page."""
    from rulebook.view import figures

    source = Path(figures.__file__).with_name("board.js")
    key = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    target = site / STATIC / f"board-{key}.js"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return f"../{STATIC}/{target.name}"


def _sent(path: Path) -> int:
    """Bytes a host that sends the .gz siblings sends for ``path``."""
    packed = path.with_name(path.name + ".gz")
    return (packed if packed.is_file() else path).stat().st_size


def first_visit(site: Path) -> dict[str, Any]:
    """What a first visit to an app page fetches for its Python, by part: Pyodide's runtime and every preloaded wheel
    (the apps' preload list and what the lock says they depend on), each as ``{"bytes": size, "sent": size sent by
    a host that sends the .gz siblings}``, with the totals; JupyterLite's own JavaScript is not counted here."""
    pyodide = site / "static" / "pyodide"
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))["jupyter-config-data"]
    options = config["litePluginSettings"][KERNEL_SETTINGS]["loadPyodideOptions"]
    preload = options["packages"]
    lock = json.loads((site / options["lockFileURL"]).read_text(encoding="utf-8"))["packages"]  # the apps' lock
    wanted, queue = set(), list(preload)
    while queue:
        name = queue.pop()
        if name not in wanted:
            wanted.add(name)
            queue += lock[name]["depends"]
    files = {name: pyodide / name for name in RUNTIME}
    wheels = {name: pyodide / lock[name]["file_name"] for name in sorted(wanted)}
    runtime = {name: {"bytes": path.stat().st_size, "sent": _sent(path)} for name, path in files.items()}
    packages = {name: {"bytes": path.stat().st_size, "sent": _sent(path)} for name, path in wheels.items()}
    every = [*runtime.values(), *packages.values()]
    return {
        "preload": preload,
        "runtime": runtime,
        "wheels": packages,
        "bytes": sum(part["bytes"] for part in every),
        "sent": sum(part["sent"] for part in every),
    }


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


def templates() -> jinja2.Environment:
    """The site's templates (autoescaped; an undefined name is an error): the game pages' and the rules pages'."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )


def first_download(site: Path) -> int:
    """Bytes a first visit to a game's page fetches at least: Pyodide's runtime and the preloaded wheels, as a host
    that sends the .gz siblings sends them, without the JupyterLite application itself."""
    sent: int = first_visit(site)["sent"]
    return sent


def write(
    site: Path,
    games: Iterable[Any],
    notebooks: Path,
    *,
    plotly: tuple[str, str] | None = None,
    deferred: Iterable[tuple[str, tuple[str, ...]]] = (),
) -> list[Path]:
    """Write the front page, every game's page and the minimal page into ``site``; returns the files written.
    ``plotly`` is the site's plotly.js (file name under ``static/rulebook/``, key), which the apps' charts load;
    ``deferred`` the parts of packages the apps fetch at their first import (see :func:`app_code`)."""
    deferred = list(deferred)
    environment = templates()
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
    board = board_script(site)
    for entry in listed:
        folder = site / entry.name
        folder.mkdir(exist_ok=True)
        text = page.render(
            title=entry.title,
            players=entry.players,
            notebook=entry.notebook,
            address=repl_address(app_code(entry.name, plotly, deferred)),
            ready=BOARD,
            failed=FAILED,
            megabytes=megabytes,
            position=first_position(entry.name),
            board=board,
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
        position=None,
        board="",
    )
    (folder / "index.html").write_text(text, encoding="utf-8")
    written.append(folder / "index.html")
    return written
