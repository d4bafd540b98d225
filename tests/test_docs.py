"""The README stays a two-minute read, and every relative link in it and in docs/ leads somewhere that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
MOST_WORDS = 1500

# [text](target) and ![alt](target), the alt text or link text possibly over several lines; not inside code
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
CODE = re.compile(r"`[^`\n]*`")


def prose(text: str) -> str:
    """The markdown without its code blocks and code spans, where a bracket is no link."""
    return CODE.sub("", FENCE.sub("", text))


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, code marks and punctuation dropped, spaces made hyphens."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    headings = re.findall(r"^#{1,6} +(.+?) *#*$", FENCE.sub("", page.read_text()), re.MULTILINE)
    return {anchor(heading) for heading in headings}


def test_the_readme_is_a_two_minute_read():
    words = len(README.read_text().split())
    assert words <= MOST_WORDS, f"README.md has {words} words; move detail to docs/ (at most {MOST_WORDS})"


def test_the_readme_tells_the_two_commands():
    text = README.read_text()
    assert "Two commands do all set-up on a fresh machine" in text
    assert "make lab" in text and "make test" in text


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_a_heading_there(page):
    broken = []
    for target in LINK.findall(prose(page.read_text())):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not ours to check
            continue
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no file {file.relative_to(ROOT) if file.is_relative_to(ROOT) else file}")
        elif fragment and file.suffix == ".md" and fragment not in anchors(file):
            broken.append(f"{target}: no heading #{fragment} in {file.name}")
    assert not broken, f"{page.name}: " + "; ".join(broken)


def test_every_docs_page_is_linked_from_the_readme():
    linked = {Path(target.partition("#")[0]).name for target in LINK.findall(prose(README.read_text()))}
    pages = {page.name for page in PAGES[1:]}
    assert pages <= linked, f"docs pages the README does not link: {sorted(pages - linked)}"


def test_the_anchor_rule_matches_githubs():
    assert anchor("Browser tests (`make e2e`)") == "browser-tests-make-e2e"
    assert anchor("Your own copy of the notebooks") == "your-own-copy-of-the-notebooks"
    assert anchor("Tutorials (guided first games)") == "tutorials-guided-first-games"
