"""A plain ``pip install .`` ships the board data inside the package, not only an editable checkout, and declares
every game of the registry as an entry point (how an installed rulebook finds its games)."""

from __future__ import annotations

import configparser
import subprocess
import sys
import zipfile
from pathlib import Path

from rulebook import registry

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_contains_the_package_and_every_board_file(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    (wheel,) = tmp_path.glob("rulebook-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for board in (ROOT / "graphs").rglob("*.json"):
        assert f"rulebook/graphs/{board.relative_to(ROOT / 'graphs').as_posix()}" in names
    assert "rulebook/meetjesland/rules.py" in names and "rulebook/core.py" in names
    (entry_points,) = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
    declared = configparser.ConfigParser(delimiters=("=",))
    declared.optionxform = str  # entry-point names keep their case
    declared.read_string(zipfile.ZipFile(wheel).read(entry_points).decode())
    games = dict(declared[registry.GROUP])
    assert games == {name: f"{game.module}.game:GAME" for name, game in registry.games().items()}
    for reference in games.values():
        assert f"{reference.partition(':')[0].replace('.', '/')}.py" in names
