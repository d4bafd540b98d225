"""Claim's notebook carries every rule id the engine can raise, and every clarification the code cites."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "claim.ipynb"
PACKAGE = ROOT / "rulebook" / "claim"


def markdown() -> str:
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")


def source() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(PACKAGE.glob("*.py")))


def test_every_raised_rule_id_is_a_paragraph_of_the_notebook():
    raised = set(re.findall(r'IllegalMove\(\s*"(CL-[0-9C.]+)"', source()))
    assert {"CL-4.2", "CL-6.2", "CL-7.4", "CL-8.1", "CL-9.1", "CL-C2", "CL-C8"} <= raised
    text = markdown()
    for rule in sorted(raised):
        heading = f"**{rule} (clarification)**" if rule.startswith("CL-C") else f"**{rule}**"
        assert heading in text, f"{rule} is raised by the engine but not in the notebook"


def test_every_clarification_cited_in_the_code_is_explained():
    cited = set(re.findall(r"CL-C\d+", source()))
    text = markdown()
    for rule in sorted(cited):
        assert f"**{rule} (clarification)**" in text, rule


def test_the_notebook_is_committed_without_outputs():
    for cell in json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None
            assert "def " not in "".join(cell["source"]) and "class " not in "".join(cell["source"])
