"""A plain ``pip install .`` ships the board data inside the package, not only an editable checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

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
    assert any(name.endswith("entry_points.txt") for name in names)
