"""The pipeline of ``make site``: the rulebook as a static website, built from the checkout and the package registries.

1. the project's own wheel, built from the checkout (``pip wheel``);
2. every other Python package of the browser as a pinned pure-Python wheel from PyPI (``browser.txt``), the kernel's
   own wheels from the pinned ``jupyterlite-pyodide-kernel``, and the requirements of all of them checked against the
   pins, evaluated as Pyodide evaluates them (``sys_platform == "emscripten"``);
3. Pyodide's runtime from its npm package (``npm pack``, checked against a pinned digest), with a ``pyodide-lock.json``
   of our own that lists exactly those wheels, each beside it: nothing refers to a CDN; each wheel gets the bytecode
   of the modules the pages import, compiled by Pyodide's own Python under Node (``bytecode.py``), which also builds
   every game's first screen there;
4. ``jupyter lite build`` (lab and repl) with the lab extensions taken from the pinned wheels, not from whatever the
   build's environment has installed; the notebooks as its contents;
5. the front page, one page per game and a minimal page (:mod:`rulebook.site.pages`).

Downloads are kept in the cache folder (``.site-cache/``), so a second build reaches no registry. A build whose
inputs (the project's wheel, the notebooks, the pins, the tools' versions) have not changed since the last one leaves
``site/`` as it is.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from dataclasses import dataclass, field
from email.parser import Parser
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import Version

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent  # the checkout the site is built from
PINS = HERE / "browser.txt"

# Pyodide from npm: the kernel release fixes the version (checked against its constant); the digest is npm's
PYODIDE = "314.0.6"
PYODIDE_INTEGRITY = "sha512-BKDTJyIqFxC4BExLqeRS3f5xvXZIjOt8C3zGLN/Cc7tFxSwvKVhVkchQQ2AGLOtR4YrVOIFxbV8poyDOOmWwxQ=="
PYODIDE_RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
KERNEL_DISTRIBUTION = "jupyterlite-pyodide-kernel"
KERNEL_EXTENSION = "@jupyterlite/pyodide-kernel-extension"
PROJECT = "rulebook"

# what the kernel loads before it starts (listed, it installs nothing at start: jupyterlite-pyodide-kernel's worker)
KERNEL_PACKAGES = ("micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython")
# what JupyterLab (the notebooks) loads besides: plotly shows a figure in a notebook only where nbformat imports
LAB_PACKAGES = ("nbformat",)
# pinned wheels that also carry a JupyterLab extension the site needs (ipywidgets' manager, anywidget, plotly)
EXTENSION_WHEELS = ("jupyterlab-widgets", "anywidget", "plotly")
# required by a package of the site, but not loaded into the browser's Python
NOT_LOADED = {"jupyterlab-widgets": "the JupyterLab side of ipywidgets, shipped as a lab extension"}
# required, and not to be had for the browser: left out, with a warning naming what needs it
UNAVAILABLE = {"numpy": "no build for the browser on PyPI or npm"}
APPS = ("lab", "repl")
# files of the pinned wheels the browser's Python never reads, left out of its copies: a package's tests, the lab
# extensions a wheel carries as data (the site has them as lab extensions, plotly's twice) and plotly's sample data
# sets (plotly.express reads them with pandas, which the browser has not)
LEFT_OUT_PARTS = ("tests",)
LEFT_OUT_PREFIXES = ("plotly/labextension/", "plotly/package_data/datasets/")
LEFT_OUT_DATA = "/data/share/jupyter/"  # under a wheel's <name>.data/ folder
# the apps' pages (the REPL) have a lock of their own: the same packages, some of them in a copy that leaves out what
# the notebooks may use and an app never does: jedi's typeshed stubs (an app has no code to complete), plotly's
# JavaScript (plotly.js is a file of the site, which an app's chart loads) and pygments' lexers but those the kernel
# imports (they have bytecode: bytecode.py imports them), which IPython's tracebacks use
APPS_LOCK = "pyodide-lock-apps.json"
APPS_LEFT_OUT = (
    "jedi/third_party/typeshed/",
    "plotly/package_data/plotly.min.js",  # the apps' charts load the site's own copy (JupyterLab's ask the kernel)
    "plotly/package_data/widgetbundle.js",  # go.FigureWidget's, which no app shows
)
APPS_IMPORTED_ONLY = "pygments/lexers/"
# ... and a module with bytecode comes as its bytecode alone (``mod.pyc`` where ``mod.py`` was, which Python imports
# as it is), but in the rulebook, whose source lines an app's traceback shows (3.4 MB of the 20 MB goal were sources
# of compiled modules; a traceback through a library shows its file and line without the text)
APPS_WITH_SOURCES = ("rulebook",)
# ... and of these packages (by their top-level import names) only the modules an app's first screen imports (with
# bytecode) and the packages' __init__ modules: the rest is a zip the apps fetch when an import first misses a module
# of them (rulebook.site.deferred), which a chart does (plotly's other traces and layout classes: 3 of its 3.8 MB)
DEFERRED = {"plotly": ("plotly", "_plotly_utils")}
# lab extensions JupyterLab (the notebooks) needs and the apps' pages (the REPL) do not: JupyterLite loads every
# listed extension's code at start, and plotly's is 4.8 MB (the apps draw their charts with plotly.js, on demand)
LAB_ONLY_EXTENSIONS = ("jupyterlab-plotly",)
# what a static host can send compressed: these files get a .gz sibling (gzip_static, precompressed), the wheels and
# the standard library's zip are compressed already
COMPRESSED_SUFFIXES = (".js", ".mjs", ".wasm", ".json", ".css", ".html", ".svg", ".txt", ".ipynb", ".map")
STATIC = "static/rulebook"  # the site's own scripts: plotly.js for the charts, board.js for the first position
LOCK_URL = "./static/pyodide/pyodide-lock.json"  # relative to the site's root, where the kernel resolves it


@dataclass
class Wheel:
    """One wheel file and what Pyodide's lock needs to know of it."""

    path: Path
    name: str
    version: Version
    requires: list[Requirement] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path) -> Wheel:
        """Name, version, requirements and top-level import names, read from the wheel's metadata."""
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            info = next(n for n in names if n.count("/") == 1 and n.endswith(".dist-info/METADATA"))
            metadata = Parser().parsestr(archive.read(info).decode("utf-8"))
            top_level = info.replace("METADATA", "top_level.txt")
            if top_level in names:
                imports = [line.strip() for line in archive.read(top_level).decode().splitlines() if line.strip()]
            else:
                imports = sorted(
                    {
                        first.removesuffix(".py")
                        for first in (n.split("/")[0] for n in names if "/" in n or n.endswith(".py"))
                        if not first.endswith((".dist-info", ".data")) and first != "__pycache__"
                    }
                )
        return cls(
            path=path,
            name=canonicalize_name(metadata["Name"]),
            version=Version(metadata["Version"]),
            requires=[Requirement(line) for line in metadata.get_all("Requires-Dist") or []],
            imports=[name for name in imports if name.isidentifier()],
        )


def browser_environment(python: str) -> dict[str, str]:
    """The environment markers as Pyodide's Python evaluates them (``python`` is its full version)."""
    return {
        "implementation_name": "cpython",
        "implementation_version": python,
        "os_name": "posix",
        "platform_machine": "wasm32",
        "platform_release": "",
        "platform_system": "Emscripten",
        "platform_version": "",
        "python_full_version": python,
        "platform_python_implementation": "CPython",
        "python_version": ".".join(python.split(".")[:2]),
        "sys_platform": "emscripten",
        "extra": "",
    }


def read_pins(path: Path = PINS) -> dict[str, str]:
    """The pins of ``browser.txt``: canonical name -> exact version; anything but ``name==version`` is an error."""
    pins: dict[str, str] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            requirement = Requirement(line)
        except InvalidRequirement as error:
            raise ValueError(f"{path.name}:{number}: a pin is name==version, not {line!r} ({error})") from None
        (spec,) = requirement.specifier if len(requirement.specifier) == 1 else (None,)
        wildcard = spec is not None and "*" in spec.version  # ==1.* is a range, not one version
        if spec is None or spec.operator != "==" or wildcard or requirement.marker or requirement.extras:
            raise ValueError(f"{path.name}:{number}: a pin is name==version, not {line!r}")
        name = canonicalize_name(requirement.name)
        if name in pins:
            raise ValueError(f"{path.name}:{number}: {name} is pinned twice")
        pins[name] = spec.version
    return pins


def run(command: list[str], what: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> None:
    """Run a build step; its output is shown only when it fails, with what it was doing."""
    result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd)
    if result.returncode != 0:
        output = "\n".join(
            line for line in (result.stdout + result.stderr).splitlines() if "is ignored: it is neither" not in line
        )
        raise SystemExit(f"site: {what} failed ({' '.join(command[:6])} ...):\n{output[-4000:]}")


def _pure(path: Path) -> bool:
    _, _, _, tags = parse_wheel_filename(path.name)
    return all(tag.platform == "any" and tag.abi == "none" for tag in tags)


def _cached(folder: Path, name: str, version: str) -> Path | None:
    for path in folder.glob("*.whl"):
        wheel_name, wheel_version, _, _ = parse_wheel_filename(path.name)
        if wheel_name == name and wheel_version == Version(version) and _pure(path):
            return path
    return None


def _pip_download(folder: Path, specs: list[str], python: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:"]
    command += ["--platform", "any", "--implementation", "py", "--abi", "none", "--python-version", python, "-d"]
    return subprocess.run([*command, str(folder), *specs], capture_output=True, text=True)


def fetch_wheels(pins: dict[str, str], folder: Path, python: str) -> dict[str, Path]:
    """A pure-Python wheel per pin, from the cache or from PyPI; a package that has none on PyPI is built from its
    source with its C speedups left out (no compiler: ``CC=false``), and refused if that still is not pure.
    ``python`` is the browser's Python version (``3.14``), which the wheels must allow."""
    folder.mkdir(parents=True, exist_ok=True)
    missing = [f"{name}=={version}" for name, version in pins.items() if _cached(folder, name, version) is None]
    if missing and _pip_download(folder, missing, python).returncode != 0:
        for spec in missing:  # one by one: which of them has no pure-Python wheel
            if _cached(folder, *spec.split("==")) is None and _pip_download(folder, [spec], python).returncode != 0:
                env = dict(os.environ, CC="false", CXX="false")
                command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
                command += ["--no-binary", spec.split("==")[0], "-w", str(folder), spec]
                run(command, f"building {spec} from its source", env=env)
    wheels = {}
    for name, version in pins.items():
        found = _cached(folder, name, version)
        if found is None:
            raise SystemExit(f"site: {name}=={version} has no pure-Python wheel and its source needs a compiler")
        wheels[name] = found
    return wheels


def project_wheel(folder: Path) -> Path:
    """The rulebook's own wheel, built from the checkout as ``pip install .`` would build it."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(folder), str(ROOT)], "the wheel")
    (wheel,) = folder.glob(f"{PROJECT}-*.whl")
    return wheel


def check_project_wheel(wheel: Path, rules_files: list[str]) -> None:
    """The app reads each game's rules text from the package's own ``notebooks/`` folder: a wheel without them
    would build a site whose every page fails."""
    names = set(zipfile.ZipFile(wheel).namelist())
    absent = [name for name in rules_files if f"{PROJECT}/notebooks/{name}" not in names]
    if absent:
        raise SystemExit(
            f"site: the wheel has no {PROJECT}/notebooks/{absent[0]} (nor {len(absent) - 1} more): the app reads its "
            "rules text there, so every page would fail (issue 23.1 ships notebooks/ in the wheel)"
        )


def kernel_wheels(kernel: Path, folder: Path) -> list[Path]:
    """The wheels jupyterlite-pyodide-kernel ships for the kernel (pyodide-kernel, piplite, the mocked ipykernel
    and widgetsnbextension), taken out of its own wheel."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    marker = f"labextensions/{KERNEL_EXTENSION}/static/pypi/"
    with zipfile.ZipFile(kernel) as archive:
        for name in archive.namelist():
            if marker in name and name.endswith(".whl"):
                (folder / Path(name).name).write_bytes(archive.read(name))
    return sorted(folder.glob("*.whl"))


@dataclass
class Solution:
    """The wheels the browser loads, each with the packages it depends on there, and what was left out."""

    wheels: dict[str, Wheel]
    depends: dict[str, list[str]]
    warnings: list[str]


def solve(roots: list[str], available: dict[str, Wheel], pinned: set[str], env: dict[str, str]) -> Solution:
    """Follow the requirements from ``roots`` through ``available``: every requirement met by a wheel whose version
    it allows, every pin used; else SystemExit listing what to change in ``browser.txt``."""
    chosen: dict[str, Wheel] = {}
    depends: dict[str, list[str]] = {}
    problems: list[str] = []
    warnings: list[str] = []
    needed: set[str] = set()
    queue = list(roots)
    while queue:
        name = queue.pop()
        if name in chosen:
            continue
        wheel = available.get(name)
        if wheel is None:
            problems.append(f"{name} is needed and not pinned")
            continue
        chosen[name] = wheel
        own: list[str] = []
        for requirement in wheel.requires:
            if requirement.marker is not None and not requirement.marker.evaluate(env):
                continue
            dependency = canonicalize_name(requirement.name)
            needed.add(dependency)
            if dependency in UNAVAILABLE:
                warnings.append(f"{name} requires {requirement}, left out: {UNAVAILABLE[dependency]}")
                continue
            target = available.get(dependency)
            if target is None:
                problems.append(f"{name} requires {requirement}: pin it")
            elif not requirement.specifier.contains(target.version, prereleases=True):
                problems.append(f"{name} requires {requirement}, and {dependency} {target.version} is pinned")
            elif dependency not in NOT_LOADED:
                own.append(dependency)
                queue.append(dependency)
        depends[name] = sorted(set(own))
    unused = sorted(pinned - needed - set(chosen) - set(EXTENSION_WHEELS))
    problems += [f"{name} is pinned and nothing needs it" for name in unused]
    if problems:
        raise SystemExit(f"site: {PINS.name} does not fit the site's packages:\n  " + "\n  ".join(problems))
    return Solution(chosen, depends, warnings)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch_pyodide(cache: Path) -> Path:
    """Pyodide's npm package, from the cache or the npm registry, checked against its pinned digest."""
    tarball = cache / f"pyodide-{PYODIDE}.tgz"
    if not tarball.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        if shutil.which("npm") is None:
            raise SystemExit("site: npm is needed once, to fetch Pyodide's package (apt-get install npm)")
        run(["npm", "pack", f"pyodide@{PYODIDE}", "--silent", "--pack-destination", str(cache)], "npm pack pyodide")
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
    if digest != PYODIDE_INTEGRITY:
        tarball.unlink()
        raise SystemExit(f"site: {tarball.name} is not npm's pyodide@{PYODIDE} (its digest differs); run again")
    return tarball


def unpack_pyodide(tarball: Path, folder: Path) -> dict[str, Any]:
    """Pyodide's runtime files and its npm lock into ``folder`` (once: the tarball's digest is pinned); returns the
    lock's ``info`` (platform, Python version)."""
    if not (folder / "pyodide-lock.json").is_file():
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        with tarfile.open(tarball) as archive:
            for name in (*PYODIDE_RUNTIME, "pyodide-lock.json"):
                member = archive.extractfile(f"package/{name}")
                assert member is not None, name
                (folder / name).write_bytes(member.read())
    info: dict[str, Any] = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]
    return info


def add_bytecode(solution: Solution, pyodide: Path, cache: Path) -> dict[str, Any]:
    """Replace each wheel of the solution by one with the bytecode of the modules the pages import, compiled by
    Pyodide's own Python under Node (``bytecode.py``); cached by the wheels' digests. Returns its report: how many
    modules each wheel got, and which games failed to build their first screen there."""
    digest = hashlib.sha256()
    for path in sorted(w.path for w in solution.wheels.values()) + [HERE / "bytecode.py", HERE / "bytecode.mjs"]:
        digest.update(path.name.encode() + b"\0" + sha256(path).encode())
    folder = cache / digest.hexdigest()[:16]
    report = folder / "out" / "report.json"
    if not report.is_file():
        if shutil.which("node") is None:
            raise SystemExit("site: node is needed to compile the browser's bytecode (apt-get install nodejs)")
        shutil.rmtree(cache, ignore_errors=True)  # one compiled set is kept: the latest
        (folder / "in").mkdir(parents=True)
        (folder / "out").mkdir()
        for wheel in solution.wheels.values():
            shutil.copyfile(wheel.path, folder / "in" / wheel.path.name)
        script = [str(HERE / "bytecode.mjs"), str(pyodide), str(folder), str(HERE / "bytecode.py"), PROJECT]
        run(["node", *script], "compiling the bytecode in Pyodide")
    for wheel in solution.wheels.values():
        wheel.path = folder / "out" / wheel.path.name
    result: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    return result


def left_out(name: str) -> bool:
    """Whether the browser's copy of a wheel leaves the file ``name`` out (see ``LEFT_OUT_PARTS`` and the others)."""
    parts = name.split("/")
    if any(part in LEFT_OUT_PARTS for part in parts[1:-1]):
        return True
    if parts[0].endswith(".data") and LEFT_OUT_DATA in name:
        return True
    return name.startswith(LEFT_OUT_PREFIXES)


def slim_wheel(wheel: Path, target: Path) -> int:
    """Write ``wheel`` to ``target`` without the files the browser never reads (its RECORD too); the entries kept
    are copied as they were, so the same wheel gives the same bytes. Returns how many bytes of the file it saved."""
    with zipfile.ZipFile(wheel) as archive, zipfile.ZipFile(target, "w") as out:
        gone = {info.filename for info in archive.infolist() if left_out(info.filename)}
        for info in archive.infolist():
            if info.filename in gone:
                continue
            data = archive.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                lines = data.decode("utf-8").splitlines()
                data = ("\n".join(line for line in lines if line.split(",")[0] not in gone) + "\n").encode()
            out.writestr(info, data, compresslevel=9)
    return wheel.stat().st_size - target.stat().st_size


def slim(solution: Solution, folder: Path) -> dict[str, int]:
    """Each wheel of the solution replaced by its browser's copy (:func:`slim_wheel`) in ``folder``; returns the bytes
    saved, by package, where there were any."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    saved = {}
    for name, wheel in solution.wheels.items():
        target = folder / wheel.path.name
        saved[name] = slim_wheel(wheel.path, target)
        wheel.path = target
    return {name: size for name, size in sorted(saved.items()) if size}


def _source_of(pyc: str) -> str:
    """``pkg/__pycache__/mod.cpython-314.pyc`` -> ``pkg/mod.py``."""
    folder, file = pyc.rsplit("/__pycache__/", 1)
    return f"{folder}/{file.split('.')[0]}.py"


def apps_wheel(wheel: Path, target: Path, sources: bool = True) -> int:
    """Write the apps' copy of ``wheel`` (with its bytecode) to ``target``, leaving out ``APPS_LEFT_OUT`` and the
    modules under ``APPS_IMPORTED_ONLY`` that have no bytecode (none of the apps' start imports them), and, unless
    ``sources``, the source of every module that has bytecode (which moves to where the source was); returns the
    bytes saved, 0 (and nothing written) when it leaves nothing out."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        bytecode = {_source_of(name): name for name in names if "/__pycache__/" in name and name.endswith(".pyc")}
        moved = {} if sources else {pyc: source + "c" for source, pyc in bytecode.items() if source in names}
        compiled = {source for source in bytecode if source.startswith(APPS_IMPORTED_ONLY)}
        gone = {
            name
            for name in names
            if name.startswith(APPS_LEFT_OUT)
            or (name.startswith(APPS_IMPORTED_ONLY) and name.endswith(".py") and name not in compiled)
        }
        gone |= {_source_of(pyc) for pyc in moved}
        if not gone:
            return 0
        target.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(target, "w") as out:
            for info in archive.infolist():
                if info.filename in gone:
                    continue
                data = archive.read(info)
                if info.filename.endswith(".dist-info/RECORD"):
                    lines = data.decode("utf-8").splitlines()
                    kept = [line for line in lines if line.split(",")[0] not in gone]
                    data = ("\n".join(_moved(line, moved) for line in kept) + "\n").encode()
                if info.filename in moved:
                    info = zipfile.ZipInfo(moved[info.filename], info.date_time)
                    info.external_attr = 0o644 << 16
                out.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return wheel.stat().st_size - target.stat().st_size


def defer(wheel: Path, target: Path, rest: Path, packages: tuple[str, ...]) -> tuple[int, int]:
    """Split the apps' copy ``wheel`` of a package: ``target`` keeps all but the source modules of ``packages`` that
    are no package's ``__init__`` (those that have bytecode came as ``.pyc``: they stay), which go to the zip
    ``rest`` with their paths in site-packages. Returns the sizes of ``target`` and ``rest``."""
    with zipfile.ZipFile(wheel) as archive:
        later = {
            name
            for name in archive.namelist()
            if name.split("/")[0] in packages and name.endswith(".py") and not name.endswith("/__init__.py")
        }
        with zipfile.ZipFile(target, "w") as out, zipfile.ZipFile(rest, "w") as deferred:
            for info in archive.infolist():
                data = archive.read(info)
                if info.filename.endswith(".dist-info/RECORD"):
                    lines = data.decode("utf-8").splitlines()
                    data = ("\n".join(line for line in lines if line.split(",")[0] not in later) + "\n").encode()
                place = deferred if info.filename in later else out
                place.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return target.stat().st_size, rest.stat().st_size


def _moved(line: str, moved: dict[str, str]) -> str:
    name, rest = line.split(",", 1) if "," in line else (line, "")
    return f"{moved.get(name, name)},{rest}" if rest else moved.get(name, name)


def write_apps_lock(folder: Path, solution: Solution) -> tuple[dict[str, int], dict[str, Any]]:
    """``APPS_LOCK`` beside ``pyodide-lock.json``: the same packages, each in its apps' copy (``apps/``) where
    :func:`apps_wheel` leaves something out, the ``DEFERRED`` ones split by :func:`defer`; returns the bytes saved by
    package, and each deferred zip (its file under ``folder``, the import names it serves, its size)."""
    lock = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))
    saved = {}
    deferred = {}
    for name, wheel in sorted(solution.wheels.items()):
        relative = f"apps/{wheel.path.name}"
        size = apps_wheel(wheel.path, folder / relative, sources=name in APPS_WITH_SOURCES)
        if name in DEFERRED:
            whole = folder / (relative if size else wheel.path.name)
            staged = folder / "apps" / f"{wheel.path.name}.part"
            rest = folder / "apps" / f"{name}-rest.zip"
            defer(whole, staged, rest, DEFERRED[name])
            staged.replace(folder / relative)
            named = rest.with_name(f"{name}-rest-{sha256(rest)[:12]}.zip")
            rest.replace(named)
            deferred[name] = {
                "file": f"apps/{named.name}",
                "packages": list(DEFERRED[name]),
                "bytes": named.stat().st_size,
            }
            size = wheel.path.stat().st_size - (folder / relative).stat().st_size
        if size:
            saved[name] = size
            lock["packages"][name].update(file_name=relative, sha256=sha256(folder / relative))
    (folder / APPS_LOCK).write_text(json.dumps(lock, indent=1, sort_keys=True), encoding="utf-8")
    return saved, deferred


def plotly_script(wheel: Path, folder: Path) -> tuple[str, str]:
    """plotly.js out of plotly's wheel into ``folder``, named by its contents as ``figures.plotly_file`` names it;
    returns (file name, key)."""
    with zipfile.ZipFile(wheel) as archive:
        data = archive.read("plotly/package_data/plotly.min.js")
    key = hashlib.sha256(data).hexdigest()[:16]
    name = f"plotly-{key}-script.js"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)
    return name, key


def lab_only(output: Path, names: tuple[str, ...] = LAB_ONLY_EXTENSIONS) -> list[str]:
    """Move the lab extensions ``names`` from the site's ``jupyter-lite.json`` (every app) to JupyterLab's own, so
    that the apps' pages never load their code; the REPL also shows its app to the page (``window.jupyterapp``), whose
    progress bar reads the kernel's status. Returns the names moved."""
    top = output / "jupyter-lite.json"
    settings = json.loads(top.read_text(encoding="utf-8"))
    data = settings["jupyter-config-data"]
    moved = [entry for entry in data.get("federated_extensions", []) if entry["name"] in names]
    data["federated_extensions"] = [entry for entry in data.get("federated_extensions", []) if entry not in moved]
    top.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    lab = output / "lab" / "jupyter-lite.json"
    settings = json.loads(lab.read_text(encoding="utf-8"))
    settings["jupyter-config-data"].setdefault("federated_extensions", []).extend(moved)
    lab.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    repl = output / "repl" / "jupyter-lite.json"
    settings = json.loads(repl.read_text(encoding="utf-8"))
    settings["jupyter-config-data"]["exposeAppInBrowser"] = True
    repl.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    return [entry["name"] for entry in moved]


def precompress(folder: Path) -> tuple[int, int]:
    """A ``.gz`` sibling beside every file a static host can send compressed (``COMPRESSED_SUFFIXES``, 1 KB or more,
    where gzip saves a tenth at least): nginx's ``gzip_static on``, Caddy's ``precompressed gzip`` and Apache's
    MultiViews send it to a browser that accepts gzip. Returns (files, bytes saved)."""
    count = saved = 0
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.suffix not in COMPRESSED_SUFFIXES or path.stat().st_size < 1024:
            continue
        if path.with_name(path.name + ".gz").is_file():  # written by an earlier pass of this build
            continue
        data = path.read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) <= 0.9 * len(data):
            path.with_name(path.name + ".gz").write_bytes(packed)
            count, saved = count + 1, saved + len(data) - len(packed)
    return count, saved


def write_lock(folder: Path, info: dict[str, Any], solution: Solution) -> dict[str, str]:
    """Each wheel beside Pyodide (the project's under a folder named by its digest, so that a browser never mixes an
    old file with a new lock) and ``pyodide-lock.json`` listing exactly them; returns name -> file in the lock."""
    packages = {}
    placed: dict[str, str] = {}
    for name, wheel in sorted(solution.wheels.items()):
        digest = sha256(wheel.path)
        relative = f"{name}-{digest[:12]}/{wheel.path.name}" if name == PROJECT else wheel.path.name
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(wheel.path, folder / relative)
        placed[name] = relative
        packages[name] = {
            "name": name,
            "version": str(wheel.version),
            "file_name": relative,
            "install_dir": "site",
            "sha256": digest,
            "package_type": "package",
            "imports": wheel.imports,
            "depends": solution.depends[name],
            "unvendored_tests": False,
        }
    lock = {"info": {**info, "version": PYODIDE}, "packages": packages}
    (folder / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True), encoding="utf-8")
    return placed


def lite_config(preload: list[str], lock: str = LOCK_URL) -> dict[str, Any]:
    """``jupyter-lite.json``: the local Pyodide, its lock (``lock``: the apps' own; JupyterLab's settings name the
    whole one), the packages loaded before the kernel starts, and no fallback to a package index."""
    kernel = {
        "pyodideUrl": "./static/pyodide/pyodide.mjs",
        "disablePyPIFallback": True,
        "loadPyodideOptions": {"packages": preload, "lockFileURL": lock},
    }
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "Rulebook",
            "enableServiceWorkerCache": True,  # the browser keeps every file: later visits work offline
            "litePluginSettings": {f"{KERNEL_EXTENSION}:kernel": kernel},
        },
    }


def lab_preloads(config: Path, packages: list[str]) -> None:
    """JupyterLab's own settings (``lab/jupyter-lite.json``, read after the site's): it preloads the notebooks' extra
    packages too, which the apps' pages (the REPL) do without."""
    settings = json.loads(config.read_text(encoding="utf-8"))
    plugins = settings["jupyter-config-data"].setdefault("litePluginSettings", {})
    options = {"packages": packages, "lockFileURL": LOCK_URL}
    plugins[f"{KERNEL_EXTENSION}:kernel"] = {"loadPyodideOptions": options}
    config.write_text(json.dumps(settings, indent=2), encoding="utf-8")


def build_config(extensions: list[Path], output: Path, cache: Path) -> dict[str, Any]:
    """``jupyter_lite_config.json``: the apps, the lab extensions from the pinned wheels only, and small output."""
    return {
        "LiteBuildConfig": {
            "apps": list(APPS),
            "federated_extensions": [str(path) for path in extensions],
            "ignore_sys_prefix": ["federated_extensions"],
            "no_sourcemaps": True,
            "no_unused_shared_packages": True,
            "output_dir": str(output),
            "cache_dir": str(cache),
            "contents": [str(ROOT / "notebooks")],
        }
    }


def version_of(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        raise SystemExit(f"site: {distribution} is not installed: `make site` installs the site extra") from None


def inputs_key(wheel: Path, tools: dict[str, str]) -> str:
    """A digest of everything the site is made of: the project's wheel (its files, not their dates), the notebooks,
    the pins and the tools' versions."""
    digest = hashlib.sha256(json.dumps(tools, sort_keys=True).encode())
    with zipfile.ZipFile(wheel) as archive:
        for name in sorted(archive.namelist()):
            if not name.endswith(".dist-info/RECORD"):
                digest.update(name.encode() + b"\0" + archive.read(name))
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update(PINS.read_bytes())
    return digest.hexdigest()


def folder_size(folder: Path) -> tuple[int, int]:
    files = [path for path in folder.rglob("*") if path.is_file()]
    return len(files), sum(path.stat().st_size for path in files)


def build(out: Path, cache: Path, force: bool = False, wheel: Path | None = None) -> dict[str, Any]:
    """Build the site into ``out`` (replaced whole, only once the new one is complete); returns what build.json
    records of it. A site built from the same inputs is kept as it is unless ``force``. ``wheel`` is a rulebook
    wheel to use instead of building one from the checkout."""
    from rulebook import registry  # the games to list (the build's own Python, not the browser's)
    from rulebook.search import site as search_site

    from . import pages, printed, reader

    started = time.monotonic()
    tools = {name: version_of(name) for name in ("jupyterlite-core", KERNEL_DISTRIBUTION)}
    tools["pyodide"] = PYODIDE
    kernel_constant = importlib.import_module("jupyterlite_pyodide_kernel.constants").PYODIDE_VERSION
    if kernel_constant != PYODIDE:
        raise SystemExit(f"site: {KERNEL_DISTRIBUTION} {tools[KERNEL_DISTRIBUTION]} runs Pyodide {kernel_constant}")

    if wheel is None:
        wheel = project_wheel(cache / "project")
    games = list(registry.games().values())
    check_project_wheel(wheel, [game.rules for game in games])
    key = inputs_key(wheel, tools)
    stamp = out / "build.json"
    if not force and stamp.is_file() and json.loads(stamp.read_text()).get("key") == key:
        print(f"site: {out} is up to date (built from the same checkout and pins)", flush=True)
        return dict(json.loads(stamp.read_text()), seconds=round(time.monotonic() - started, 1), reused=True)

    pins = read_pins()
    tarball = fetch_pyodide(cache / "npm")
    pyodide = cache / "npm" / f"pyodide-{PYODIDE}"
    info = unpack_pyodide(tarball, pyodide)
    python = ".".join(str(info["python"]).split(".")[:2])
    downloads = cache / "downloads"
    pinned = {name: Wheel.read(path) for name, path in fetch_wheels(pins, downloads, python).items()}
    kernel_pin = {KERNEL_DISTRIBUTION: tools[KERNEL_DISTRIBUTION]}
    kernel_file = fetch_wheels(kernel_pin, downloads, python)[KERNEL_DISTRIBUTION]
    available = dict(pinned)
    for path in kernel_wheels(kernel_file, cache / "kernel"):
        found = Wheel.read(path)
        if found.name not in available or found.version > available[found.name].version:
            available[found.name] = found
    available[PROJECT] = Wheel.read(wheel)
    roots = [*KERNEL_PACKAGES, PROJECT, *LAB_PACKAGES]
    solution = solve(roots, available, set(pins), browser_environment(info["python"]))
    downloaded = {name: wheel.path for name, wheel in pinned.items()}  # as PyPI has them: lab extensions, plotly.js
    slimmed = slim(solution, cache / "slim")
    bytecode = add_bytecode(solution, pyodide, cache / "bytecode")
    for game, error in bytecode["failed"].items():
        solution.warnings.append(f"{game}: its first screen fails in the browser's Python: {error}")
    for warning in solution.warnings:
        print(f"site: warning: {warning}", flush=True)
    lite = cache / "lite"
    shutil.rmtree(lite, ignore_errors=True)
    (lite / "static" / "pyodide").mkdir(parents=True)
    for name in PYODIDE_RUNTIME:
        shutil.copyfile(pyodide / name, lite / "static" / "pyodide" / name)
    write_lock(lite / "static" / "pyodide", info, solution)
    apps_saved, deferred = write_apps_lock(lite / "static" / "pyodide", solution)
    preload = [*KERNEL_PACKAGES, PROJECT]  # the kernel's start and the app's first screen: the rulebook and its needs
    config = lite_config(preload, LOCK_URL.replace("pyodide-lock.json", APPS_LOCK))
    (lite / "jupyter-lite.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
    extensions = [downloaded[name] for name in EXTENSION_WHEELS] + [kernel_file]
    output = cache / "output"
    shutil.rmtree(output, ignore_errors=True)
    config = build_config(extensions, output, cache / "jupyterlite")
    (lite / "jupyter_lite_config.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
    # in the staging folder, which also holds the build's task database: a fresh one each time
    run([sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(lite)], "jupyter lite build", cwd=lite)
    lab_preloads(output / "lab" / "jupyter-lite.json", [*preload, *LAB_PACKAGES])
    lab_only(output)
    plotly = plotly_script(downloaded["plotly"], output / STATIC)

    precompress(output)  # before the pages: they say how much a first visit downloads
    later = [(f"static/pyodide/{each['file']}", tuple(each["packages"])) for each in deferred.values()]
    pages.write(output, games, ROOT / "notebooks", plotly=plotly, deferred=later)
    search_site.write(output, cache / "lunr")  # the rules search: search/
    printed.write(output, games)  # the printed rulebook and player aid: <game>/rules/*.pdf, which the rules pages link
    reader.write(output, games)  # the rules as plain pages: <game>/rules/, rules/
    compressed, saved = precompress(output)
    files, size = folder_size(output)
    record = {
        "key": key,
        "built": time.strftime("%Y-%m-%d %H:%M:%S"),
        "seconds": round(time.monotonic() - started, 1),
        "files": files,
        "bytes": size,
        "tools": tools,
        "games": [game.name for game in games],
        "packages": {name: str(w.version) for name, w in sorted(solution.wheels.items())},
        "warnings": solution.warnings,
        "bytecode": {name: count for name, count in bytecode["compiled"].items() if count},
        "slimmed": slimmed,
        "apps_lock": apps_saved,
        "deferred": deferred,
        "compressed": {"files": compressed, "bytes_saved": saved},
        "first_visit": pages.first_visit(output),
    }
    (output / "build.json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    replace(out, output)
    print(f"site: built {out} in {record['seconds']} s: {files} files, {size / 1e6:.1f} MB", flush=True)
    return dict(record, reused=False)


def replace(out: Path, new: Path) -> None:
    """Put the new site in place of the old one; a folder that is not a built site is never deleted."""
    if out.exists() and not out.is_dir():
        raise SystemExit(f"site: {out} is not a folder; choose --out")
    if out.exists():
        if any(out.iterdir()) and not (out / "build.json").is_file():
            raise SystemExit(f"site: {out} holds files that are not a built site; move them or choose --out")
        shutil.rmtree(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(new), str(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rulebook.site", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "site", help="the site's folder (default: site/)")
    parser.add_argument("--cache", type=Path, default=ROOT / ".site-cache", help="downloads and build files")
    parser.add_argument("--force", action="store_true", help="build even if nothing changed since the last build")
    parser.add_argument("--wheel", type=Path, default=None, help="a rulebook wheel to use instead of the checkout's")
    args = parser.parse_args(argv)
    wheel = args.wheel.resolve() if args.wheel else None
    build(args.out.resolve(), args.cache.resolve(), force=args.force, wheel=wheel)
    return 0
