"""Project-wide guarantees: dependency lists agree, notebooks are stripped (every rule id is in its notebook:
tests/test_rules_text.py)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[ ;]", requirement, maxsplit=1)[0].strip().lower()


def test_environment_yml_lists_the_same_dependencies_as_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r) for r in project["dependencies"]}
    for extra in ("notebook", "test"):
        wanted |= {_name(r) for r in project["optional-dependencies"][extra] if not r.startswith("rulebook")}
    conda = set()
    text = (ROOT / "environment.yml").read_text()
    for line in text[text.index("dependencies:") :].splitlines():
        match = re.match(r"\s+- ([A-Za-z][\w.-]*)", line)
        if match and match.group(1) not in ("python", "pip"):
            conda.add(_name(match.group(1)))
    assert conda == wanted


def test_notebooks_are_committed_without_outputs():
    assert NOTEBOOKS, "no notebooks found"
    result = subprocess.run(
        [sys.executable, "-m", "nbstripout", "--verify", *map(str, NOTEBOOKS)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_define_no_functions(notebook):
    cells = json.loads(notebook.read_text())["cells"]
    for cell in cells:
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            assert not re.search(r"^\s*(def|class) ", source, re.M), f"{notebook.name}: logic belongs in the package"


def test_index_links_every_game_notebook():
    index = json.loads((ROOT / "notebooks" / "index.ipynb").read_text())
    text = "".join("".join(c["source"]) for c in index["cells"])
    for notebook in NOTEBOOKS:
        if notebook.name != "index.ipynb":
            assert f"]({notebook.name})" in text, f"index.ipynb does not link {notebook.name}"


def test_no_pickle_or_eval_in_the_package():
    for module in (ROOT / "rulebook").rglob("*.py"):
        source = module.read_text()
        assert not re.search(r"\bimport pickle\b|\bpickle\.load|\beval\(|\bexec\(", source), module


def test_ci_runs_the_readme_test_command():
    assert "make test" in (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "make lab" in readme and "make test" in readme
