"""Bytecode for the browser's Python, made by that very Python: ``build.py`` runs this file inside Pyodide (in Node,
``bytecode.mjs``), so that the modules a page imports come with their ``__pycache__/<module>.cpython-314.pyc``.

Pyodide never writes bytecode, so without it every import compiles its module again on every visit: in a browser on
two busy cores, compiling was half of the time the app took to build its first screen. Which modules: every module of
the rulebook, and of the other wheels those that the kernel's start, each game's first screen (``App(name)``) and a
search in its Rules tab import, found by doing just that here; the rest (plotly's figure classes, a package's tests)
would only make the download bigger. The bytecode is hash-based and unchecked (a site's files never change under it);
the sources stay, for tracebacks.

``main(source, target, project)``: each wheel of the folder ``source`` is written to ``target``; ``project`` names the
wheel whose modules are all compiled. What it found goes to ``target/report.json``.
"""

from __future__ import annotations

import base64
import compileall
import hashlib
import importlib
import importlib.util
import json
import py_compile
import sys
import sysconfig
import traceback
import zipfile
from pathlib import Path

STAMP = (2020, 2, 2, 0, 0, 0)  # every entry's date, so the same wheel gives the same bytes
# what the Pyodide kernel imports when it starts (jupyterlite-pyodide-kernel's worker), but the kernel's own wheels
# (WHOLE): they set up a kernel that needs the page, so they are compiled whole, as the rulebook is, and left out here
KERNEL = ("micropip", "comm", "jedi", "IPython", "ipython_pygments_lexers")  # the last: the lexers IPython may use
WHOLE = ("pyodide_kernel-", "ipykernel-", "piplite-", "widgetsnbextension-")
# the project's parts that run on a computer, never in a page (the site's build, the class server, the tools): their
# bytecode only where a page imports them, as for the other wheels
SERVER_SIDE = ("site/", "tables/", "serve/", "tools/", "cli.py")


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, STAMP)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def install(wheels: list[Path], site: Path) -> None:
    """Unpack the wheels into site-packages, as Pyodide's loadPackage does in the browser."""
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(site)
    importlib.invalidate_caches()


def first_screens(games: list[str] | None) -> dict[str, str]:
    """Import what the kernel imports and build each game's app; returns what failed, by name, with the error's
    last line (a game that fails here fails in the browser too)."""
    failed = {}
    for name in KERNEL:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - the kernel's start needs the page; what it imported still counts
            failed[name] = traceback.format_exc().strip().splitlines()[-1]
    from rulebook import registry
    from rulebook.app import App
    from rulebook.view import figures

    figures.serve_plotly_from("plotly.js", "the-site-file")  # as the pages do: the site's plotly.py has no plotly.js

    for game in games if games is not None else list(registry.names()):
        try:
            # the first screen, and a question in the Rules tab: the search (lunr) is imported at the first one
            App(game).search_rules("how does the game end")
        except Exception:  # noqa: BLE001 - reported by the build, which goes on
            failed[game] = traceback.format_exc().strip().splitlines()[-1]
    return failed


def imported(site: Path) -> set[str]:
    """The site-packages files (relative paths) of every module imported so far."""
    found = set()
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if file and file.endswith(".py") and Path(file).is_relative_to(site):
            found.add(Path(file).relative_to(site).as_posix())
    return found


def repack(
    wheel: Path,
    target: Path,
    site: Path,
    chosen: set[str] | None,
    skip: tuple[str, ...] = (),
    imported: frozenset[str] = frozenset(),
) -> int:
    """Write ``wheel`` to ``target`` with the bytecode of its modules in ``chosen`` (all of them when None, but those
    whose path under the package starts with one of ``skip`` and that are not ``imported``) added and listed in its
    RECORD; returns how many modules were compiled."""
    with zipfile.ZipFile(wheel) as archive:
        names = [name for name in archive.namelist() if not name.endswith("/")]
        contents = {name: archive.read(name) for name in names}
    modules = [name for name in names if name.endswith(".py")]
    if chosen is None:
        modules = [name for name in modules if "/tests/" not in name]  # a package's tests are never imported
        modules = [name for name in modules if not name.split("/", 1)[-1].startswith(skip) or name in imported]
    else:
        modules = [name for name in modules if name in chosen]
    added = {}
    for name in modules:
        path = site / name
        if compileall.compile_file(str(path), quiet=2, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH):
            cached = Path(importlib.util.cache_from_source(str(path)))
            added[cached.relative_to(site).as_posix()] = cached.read_bytes()
    record = next(name for name in names if name.count("/") == 1 and name.endswith(".dist-info/RECORD"))
    lines = contents[record].decode("utf-8").splitlines() + [_record_line(n, data) for n, data in added.items()]
    with zipfile.ZipFile(target, "w") as out:
        for name, data in [*contents.items(), *added.items()]:
            if name != record:  # the best deflate: the site sends the wheels as they are
                out.writestr(_entry(name), data, compresslevel=9)
        out.writestr(_entry(record), "\n".join(lines) + "\n", compresslevel=9)
    return len(added)


def main(source: str, target: str, project: str) -> int:
    site = Path("/", *Path(sysconfig.get_paths()["purelib"]).parts[1:])  # Pyodide's reads "//lib/..."
    wheels = sorted(Path(source).glob("*.whl"))
    install([wheel for wheel in wheels if not wheel.name.startswith(WHOLE)], site)
    failed = first_screens(None)
    chosen = imported(site)
    install([wheel for wheel in wheels if wheel.name.startswith(WHOLE)], site)  # to be compiled
    kernel = {name: failed.pop(name) for name in KERNEL if name in failed}  # the kernel's start needs a page
    compiled = {}
    for wheel in wheels:
        everything = wheel.name.startswith((f"{project}-", *WHOLE))
        skip = SERVER_SIDE if wheel.name.startswith(f"{project}-") else ()
        compiled[wheel.name] = repack(
            wheel, Path(target) / wheel.name, site, None if everything else chosen, skip, chosen
        )
    report = {"compiled": compiled, "failed": failed, "kernel": kernel, "imported": len(chosen)}
    (Path(target) / "report.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0
