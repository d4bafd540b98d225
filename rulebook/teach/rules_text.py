"""The translated rules, read from the games' notebooks: one source for the notebook and the app.

A paragraph starts with its id in bold at the start of a markdown block (``**MJ-5.2** ...`` or
``**MJ-C7 (clarification: ...).** ...``) and runs on over the blocks that follow it (a table, a list) until the
next paragraph, a heading or the end of the cell. Headings are kept so the app can show the sections.

Which file holds a game's rules is the registry's word (``Game.rules``: a notebook, or a markdown file read as one
cell); ``GAMES`` and ``PREFIX`` are read from the registry when first asked for.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulebook import registry
from rulebook.view import markup
from rulebook.view.markup import Markup

_START = re.compile(r"^\*\*([A-Z]{2,3}-C?\d+(?:\.\d+)*)\b")
RULE_ID = re.compile(r"\b[A-Z]{2,3}-C?\d+(?:\.\d+)*\b")


def __getattr__(name: str) -> Any:
    """``GAMES`` (the games' names, in order) and ``PREFIX`` (each game's rule-id prefix), from the registry."""
    if name == "GAMES":
        return tuple(registry.games())
    if name == "PREFIX":
        return {game.name: game.prefix for game in registry.games().values()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Paragraph:
    """One paragraph of the rules: its id, the section it stands in and its markdown text (id included)."""

    id: str
    section: str
    markdown: str

    @property
    def is_clarification(self) -> bool:
        return "-C" in self.id


def notebooks_dir() -> Path:
    """The notebooks folder of a checkout, or the copy a wheel installs inside the package."""
    here = Path(__file__).resolve().parents[1]  # the package: rulebook/teach/ is one below it
    for folder in (here / "notebooks", here.parent / "notebooks"):  # an installed wheel's own copy first
        if folder.is_dir():
            return folder
    raise FileNotFoundError("the rulebook's notebooks/ folder was not found next to the package")


def notebook_path(game: str) -> Path:
    """The file of a game's rules text (``Game.rules``: a relative path is in :func:`notebooks_dir`)."""
    rules = Path(registry.game(game).rules)  # ValueError for an unknown game, naming the known ones
    return rules if rules.is_absolute() else notebooks_dir() / rules


def parse(cells: list[str]) -> tuple[list[tuple[str, str]], dict[str, Paragraph]]:
    """Split markdown cells into an ordered outline of ("heading", text) and ("rule", id) items and the paragraphs."""
    outline: list[tuple[str, str]] = []
    paragraphs: dict[str, Paragraph] = {}
    section = ""
    for cell in cells:
        current: list[str] | None = None
        current_id = ""

        def close() -> None:
            if current is not None:
                paragraphs[current_id] = Paragraph(current_id, section, "\n\n".join(current).strip())

        for block in re.split(r"\n\s*\n", cell):
            text = block.strip()
            if not text:
                continue
            if text.startswith("#"):
                close()
                current = None
                first = text.partition("\n")[0]
                if not first.startswith("# "):  # the notebook's title is not a section
                    section = first.lstrip("#").strip()
                    outline.append(("heading", section))
                continue
            found = _START.match(text)
            if found:
                close()
                current, current_id = [text], found.group(1)
                if current_id in paragraphs:
                    raise ValueError(f"rules text: the paragraph id {current_id} appears twice")
                outline.append(("rule", current_id))
            elif current is not None:
                current.append(text)
        close()
    return outline, paragraphs


@functools.cache
def _load(game: str) -> tuple[tuple[tuple[str, str], ...], dict[str, Paragraph]]:
    path = notebook_path(game)
    try:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".md":
            cells = [text]
        else:
            notebook = json.loads(text)
            cells = ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path.name}: cannot read the rules text ({error})") from None
    outline, paragraphs = parse(cells)
    return tuple(outline), paragraphs


def paragraphs(game: str) -> dict[str, Paragraph]:
    """Every paragraph of a game's rules by id, in the notebook's order."""
    return _load(game)[1]


def outline(game: str) -> tuple[tuple[str, str], ...]:
    """Headings and paragraph ids in reading order."""
    return _load(game)[0]


def paragraph(game: str, rule: str) -> Paragraph:
    try:
        return paragraphs(game)[rule]
    except KeyError:
        raise ValueError(f"no paragraph {rule!r} in the {game} rules") from None


@functools.cache
def _markdown() -> Callable[[str], Any]:
    import mistune  # imported on first use: only the rules panel renders markdown

    return mistune.create_markdown(plugins=["table"])


def to_html(markdown: str) -> Markup:
    """Markdown as HTML (raw HTML in the text is escaped, never passed through), safe to put in a template."""
    return Markup(str(_markdown()(markdown)))


@functools.cache
def _link(rule: str) -> str:
    return str(markup.render("rule_link.html", rule=rule))


def rule_links(text_html: str, known: Collection[str]) -> Markup:
    """Turn every known rule id in already escaped HTML text into a link the rules panel opens.

    ``known`` holds the ids that have a paragraph: a set of ids, or :func:`paragraphs` itself (a mapping by id)."""

    def link(found: re.Match[str]) -> str:
        rule = found.group(0)
        return _link(rule) if rule in known else rule

    # only in text: never inside a tag's attributes (a data-id holding an id) nor inside a link already there
    parts = re.split(r"(<[^>]*>)", text_html)
    inside_link = 0
    for index, part in enumerate(parts):
        if part.startswith("<"):
            name = part[1:].lstrip("/").split(None, 1)[0].rstrip(">").lower() if len(part) > 2 else ""
            if name == "a":
                inside_link += -1 if part.startswith("</") else 1
            continue
        if not inside_link:
            parts[index] = RULE_ID.sub(link, part)
    return Markup("".join(parts))
