"""The locks in requirements/ (issue 44.5): what make installs is what pyproject.toml asks for, pinned and hashed.

The Makefile installs them in hash-checking mode and make lock compiles them; these tests catch a pyproject.toml
changed without `make lock`, and a lock edited by hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tomllib
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ROOT / "requirements"
# each lock, and the extras of pyproject.toml (with the files of requirements/) it is compiled from (Makefile: lock)
SOURCES = {
    "app": ((), ()),
    "test": (("test",), ()),
    "e2e": (("test", "browser"), ()),
    "lint": (("test",), ("lint.in",)),
    "site": (("site",), ()),
    "uv": (None, ("uv.in",)),
}
PIN = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)")


def _pins(lock: str) -> dict[str, tuple[str, list[str]]]:
    """The lock's packages: name -> (version, its hashes)."""
    text = (LOCKS / f"{lock}.txt").read_text().replace("\\\n", " ")
    pins = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        match = PIN.match(line)
        assert match, f"{lock}.txt: not an exact pin: {line!r}"
        pins[canonicalize_name(match.group(1))] = (match.group(2), re.findall(r"--hash=sha256:([0-9a-f]{64})", line))
    return pins


def _wanted(lock: str) -> list[Requirement]:
    """What the lock was compiled from: the project's dependencies and the extras', and the files' requirements."""
    extras, files = SOURCES[lock]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    texts = [] if extras is None else list(project["dependencies"])
    todo = list(extras or ())
    while todo:
        extra = todo.pop()
        for text in project["optional-dependencies"][extra]:
            requirement = Requirement(text)
            if requirement.name == project["name"]:
                todo.extend(requirement.extras)
            else:
                texts.append(text)
    for name in files:
        texts += [line for line in (LOCKS / name).read_text().splitlines() if line and not line.startswith("#")]
    return [Requirement(text) for text in texts]


@pytest.mark.parametrize("lock", SOURCES)
def test_every_package_in_the_lock_is_pinned_with_its_hashes(lock):
    pins = _pins(lock)
    assert pins, f"{lock}.txt pins nothing"
    unhashed = sorted(name for name, (_, hashes) in pins.items() if not hashes)
    assert not unhashed, f"{lock}.txt: no hash for {unhashed}"


@pytest.mark.parametrize("lock", SOURCES)
def test_the_lock_satisfies_what_pyproject_asks_for(lock):
    pins = _pins(lock)
    wrong = []
    for requirement in _wanted(lock):
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        version = pins.get(canonicalize_name(requirement.name), (None,))[0]
        if version is None or not requirement.specifier.contains(version, prereleases=True):
            wrong.append(f"{requirement} (locked: {version})")
    assert not wrong, f"{lock}.txt does not satisfy pyproject.toml (run make lock): {wrong}"


def test_the_locks_pin_a_package_they_share_to_one_version():
    """Installing one lock into .venv after another never changes the other's packages (make lock: -c e2e.txt)."""
    seen: dict[str, tuple[str, str]] = {}
    differ = []
    for lock in SOURCES:
        for name, (version, _) in _pins(lock).items():
            first = seen.setdefault(name, (lock, version))
            if first[1] != version:
                differ.append(f"{name}: {first[1]} in {first[0]}.txt, {version} in {lock}.txt")
    assert not differ, differ


def test_the_app_lock_has_no_test_or_browser_packages():
    """make app and make lab install the rulebook's dependencies only."""
    pins = _pins("app")
    assert not {"pytest", "playwright", "hypothesis", "nbval", "axe-playwright-python"} & set(pins)
    assert {"voila", "jupyterlab", "jupyter-server", "ipywidgets"} <= set(pins)
