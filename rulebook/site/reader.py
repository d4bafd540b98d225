"""The rules as plain web pages in the built site: ``<game>/rules/`` per game, ``rules/`` listing them, and
``<game>/faq/`` for a game with a FAQ. No Python and no JupyterLite in the browser: the text is on the page at once.

The text is the notebooks' markdown read by :mod:`rulebook.teach.rules_text` (the one source), each paragraph under its
id as an anchor (``claim/rules/#CL-4.2``) with a button copying its address; the rule ids in the text link to their
paragraphs, the glossary's words to their definitions (:mod:`rulebook.teach.reference`), and the research notes the
clarifications cite become pages beside them. Each game's board is drawn at build time as an SVG file by
:mod:`rulebook.site.svg`, from the figure its app's board shows at the start of a game. A small service worker
(``rules-sw.js``), registered with the folder of each page as its scope, keeps the pages for offline reading; those
scopes hold no page of JupyterLite's, whose own service worker they leave alone.
"""

from __future__ import annotations

import hashlib
import html
import importlib.util
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulebook import registry
from rulebook.site import pages, svg
from rulebook.teach import rules_text
from rulebook.view.markup import Markup

TEMPLATES = Path(__file__).with_name("templates")
WORKER = "rules-sw.js"  # at the site's root: its scopes are the rules pages' folders only
# the search box's files (rulebook/search/site.py writes them), kept for offline reading with the pages
SEARCH = ("../../search/search.js", "../../search/lunr.min.js", "../../search/index.json")
STYLESHEET = "rules/rules.css"  # relative to the site's root
FIGURE = "board.svg"  # in each game's rules folder
RESEARCH = "RESEARCH.md"  # a game package's research note, which the clarifications rest on
FIGURE_SEED = 0


@dataclass(frozen=True)
class Section:
    """A heading of the rules and the paragraphs under it: (id, HTML body, is a clarification)."""

    id: str
    title: str
    paragraphs: tuple[tuple[str, Markup, bool], ...]


def slug(text: str) -> str:
    """Lower-case words joined by ``-``, for an element id made of a heading or a term."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def _split(text_html: str) -> list[str]:
    return re.split(r"(<[^>]*>)", text_html)


def _tag_name(part: str) -> str:
    return part[1:].lstrip("/").split(None, 1)[0].rstrip(">").rstrip("/").lower() if len(part) > 2 else ""


def _in_text(text_html: str, replace: Any) -> str:
    """``replace(text, parts_so_far)`` applied to the text between tags, outside links (never in attributes)."""
    parts = _split(text_html)
    inside_link = 0
    for index, part in enumerate(parts):
        if part.startswith("<"):
            if _tag_name(part) == "a":
                inside_link += -1 if part.startswith("</") else 1
            continue
        if not inside_link and part:
            parts[index] = replace(part)
    return "".join(parts)


def link_rules(text_html: str, known: Iterable[str], page: str = "") -> str:
    """Every known rule id in escaped HTML text as a link to its paragraph (``#ID`` on the rules page ``page``, the
    same page when empty)."""
    ids = set(known)

    def link(found: re.Match[str]) -> str:
        rule = found.group(0)
        return f'<a class="rule-ref" href="{page}#{rule}">{rule}</a>' if rule in ids else rule

    return _in_text(text_html, lambda text: rules_text.RULE_ID.sub(link, text))


def link_terms(text_html: str, terms: Mapping[str, tuple[str, str]], done: set[str] | None = None) -> str:
    """The first use of each glossary word (a term or an alias; ``terms``: word -> (anchor, definition)) in escaped
    HTML text as a link to its entry, its definition as the link's title; ``done`` holds the anchors linked already
    (in an earlier paragraph of the section), which stay plain words, and gets the new ones."""
    done = set() if done is None else done
    if not terms:
        return text_html
    words = sorted(terms, key=len, reverse=True)
    pattern = re.compile(
        r"\b(" + "|".join(re.escape(html.escape(word, quote=False)) for word in words) + r")\b", re.IGNORECASE
    )
    lower = {html.escape(word, quote=False).lower(): word for word in words}

    def link(found: re.Match[str]) -> str:
        word = lower[found.group(0).lower()]
        anchor, definition = terms[word]
        if anchor in done:
            return found.group(0)
        done.add(anchor)
        title = html.escape(definition, quote=True)
        return f'<a class="term" href="#{anchor}" title="{title}">{found.group(0)}</a>'

    return _in_text(text_html, lambda text: pattern.sub(link, text))


def plain(text_html: str) -> str:
    """The words of an HTML text, tags dropped and entities read, white space made single: what a reader sees."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]*>", "", str(text_html)))).strip()


def _package_folder(game: registry.Game) -> Path | None:
    spec = importlib.util.find_spec(game.module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def research_note(game: registry.Game) -> Path | None:
    """The game's research note (``RESEARCH.md`` in its package), which its clarifications rest on, or None."""
    folder = _package_folder(game)
    note = folder / RESEARCH if folder is not None else None
    return note if note is not None and note.is_file() else None


def _sources(text_html: str, notes: dict[Path, str], base: Path, add: bool = True) -> str:
    """A text's links made to work on the site: a link to a markdown file of the checkout (a research note) goes to
    that file's page (``notes``: the files' pages by path, a new one added when ``add``), a relative link to anything
    else loses its address (its words stay), links to other sites and within the page stay."""

    def fix(found: re.Match[str]) -> str:
        address = html.unescape(found.group(2))
        rest = found.group(1) + found.group(3)
        if address.startswith("#"):
            return found.group(0)
        if re.match(r"^(https?:|mailto:)", address):
            return f'<a href="{html.escape(address)}" rel="noopener"{rest}>'
        path, _, fragment = address.partition("#")
        target = (base / path).resolve()
        if target.suffix == ".md" and target.is_file() and (add or target in notes):
            page = notes.setdefault(target, f"{slug(target.stem)}.html")
            return f'<a class="source" href="{page}{"#" + fragment if fragment else ""}"{rest}>'
        return f"<a{rest}>"  # a file the site does not hold: the words stay, the broken address goes

    return re.sub(r'<a([^>]*?)\shref="([^"]*)"([^>]*)>', fix, text_html)


def board_figure(game: registry.Game) -> dict[str, Any] | None:
    """The figure the game's board shows at the start of a game (default players, seed 0), as plotly's plain JSON:
    the first board view the board holds, or None for a board drawn without one."""
    from rulebook.view.figures import BoardView

    state = game.new_state(game.default_players, FIGURE_SEED)
    board = game.board_class()(state, seed=FIGURE_SEED, computer={})
    views = [value for value in vars(board).values() if isinstance(value, BoardView)]
    try:
        return dict(views[0].figure) if views else None
    finally:
        close = getattr(board, "close", None)
        if callable(close):
            close()


def figure_text(game: registry.Game) -> tuple[str, str]:
    """The title and description of a game's board figure (its SVG's title and the image's alternative text)."""
    count = game.default_players
    title = f"The board of {game.title} at the start of a game of {count} player{'s' if count != 1 else ''}"
    description = (
        f"{title}, as the app draws it (seed {FIGURE_SEED}): the places on the board, their names, the pieces already "
        "set up and what the app highlights for the first move. The paragraphs below describe the same board in words."
    )
    return title, description


def sections(game: str, terms: Mapping[str, tuple[str, str, str]], notes: dict[Path, str]) -> list[Section]:
    """The rules of a game as sections of paragraphs, each paragraph's HTML with its rule ids, glossary words
    (``terms``: word -> (anchor, defining paragraph, definition); not linked in the paragraph defining it) and research
    notes linked (the notes found are added to ``notes``)."""
    known = rules_text.paragraphs(game)
    base = rules_text.notebook_path(game).parent
    found: list[Section] = []
    title, paragraphs = "", []
    linked: set[str] = set()  # the glossary's words are linked at their first use in a section
    for kind, text in rules_text.outline(game):
        if kind == "heading":
            if paragraphs:  # a heading of the notebook's own (its board, its exercises) holds no paragraph
                found.append(Section(f"section-{len(found) + 1}-{slug(title)}", title, tuple(paragraphs)))
            title, paragraphs, linked = text, [], set()
            continue
        paragraph = known[text]
        body = str(rules_text.to_html(paragraph.markdown))
        body = _sources(body, notes, base)
        others = {word: (anchor, meaning) for word, (anchor, rule, meaning) in terms.items() if rule != text}
        body = link_terms(link_rules(body, known), others, linked)
        paragraphs.append((text, Markup(body), paragraph.is_clarification))
    if paragraphs:
        found.append(Section(f"section-{len(found) + 1}-{slug(title)}", title, tuple(paragraphs)))
    return found


def _reference(game: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The game's glossary and FAQ (:mod:`rulebook.teach.reference`), empty where the game has none."""
    try:
        from rulebook.teach import reference
    except ImportError:
        return (), ()
    return tuple(reference.glossary(game)), tuple(reference.faq(game))


def _glossary_words(glossary: Iterable[Any]) -> dict[str, tuple[str, str, str]]:
    """word -> (the entry's anchor, the paragraph defining it, its definition), for every term and alias."""
    words: dict[str, tuple[str, str, str]] = {}
    for entry in glossary:
        anchor = f"term-{slug(entry.term)}"
        for word in (entry.term, *entry.aliases):
            words.setdefault(word, (anchor, entry.rule, entry.definition))
    return words


def _link_ids(text: str, known: Iterable[str], page: str) -> Markup:
    """Escaped text with its rule ids linked to their paragraphs on the rules page ``page``."""
    return Markup(link_rules(html.escape(text, quote=False), known, page))


def _worker_script(files: Mapping[str, list[str]], version: str) -> str:
    template = (TEMPLATES / "rules-sw.js").read_text(encoding="utf-8")
    return template.replace("__VERSION__", json.dumps(version)).replace("__FILES__", json.dumps(files, indent=1))


def write(site: Path, games: Iterable[registry.Game]) -> list[Path]:
    """Write the rules pages (index, one page per game, its FAQ, its board's SVG, its research notes) and their
    service worker into the built site ``site``; returns the files written. ValueError names a game whose rules text
    cannot be read."""
    site = Path(site)
    listed = list(games)
    environment = pages.templates()  # the site's templates, as the game pages read them
    written: list[Path] = []
    worker_files: dict[str, list[str]] = {}
    entries = []
    (site / "rules").mkdir(parents=True, exist_ok=True)

    def put(path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)

    put(site / STYLESHEET, (TEMPLATES / "rules.css").read_text(encoding="utf-8"))
    for game in listed:
        try:
            known = rules_text.paragraphs(game.name)
        except (ValueError, FileNotFoundError) as error:
            raise ValueError(f"the rules page of {game.name!r}: its rules text cannot be read ({error})") from None
        if not known:
            raise ValueError(f"the rules page of {game.name!r}: its rules text ({game.rules}) holds no paragraph")
        folder = site / game.name / "rules"
        glossary, faq = _reference(game.name)
        words = _glossary_words(glossary)
        notes: dict[Path, str] = {}
        note = research_note(game)
        if note is not None:
            notes[note.resolve()] = f"{slug(note.stem)}.html"
        parts = sections(game.name, words, notes)
        figure = board_figure(game)
        title, description = figure_text(game)
        if figure is not None:
            put(folder / FIGURE, svg.render(figure, title, description))
        pdfs = [
            (name, label)
            for name, label in ((f"{game.name}-rules.pdf", "Print"), (f"{game.name}-player-aid.pdf", "Player aid"))
            if (folder / name).is_file()
        ]
        terms = [(f"term-{slug(entry.term)}", entry, _link_ids(entry.definition, known, "")) for entry in glossary]
        # the FAQ under the rules too (issue 46.3), its answers' ids linked on this page; its own page links back
        asked = [(question, _link_ids(question.answer, known, ""), question.rules) for question in faq]
        page = environment.get_template("rules.html").render(
            game=game,
            sections=parts,
            count=len(known),
            figure=FIGURE if figure is not None else "",
            figure_title=title,
            figure_description=description,
            research=notes.get(note.resolve(), "") if note is not None else "",
            terms=terms,
            faq=bool(faq),
            asked=asked,
            pdfs=pdfs,
        )
        put(folder / "index.html", page)
        for path, name in notes.items():
            text = str(rules_text.to_html(path.read_text(encoding="utf-8")))
            # the ids link to the rules page beside the note ("./" is the folder's index.html)
            text = Markup(link_rules(_sources(text, notes, path.parent, add=False), known, "./"))
            put(
                folder / name,
                environment.get_template("note.html").render(game=game, title=_note_title(path), body=text),
            )
        files = ["./", "../../" + STYLESHEET, *SEARCH, *notes.values()]
        if figure is not None:
            files.append(FIGURE)
        files += [name for name, _ in pdfs]
        worker_files[f"{game.name}/rules/"] = files
        if faq:
            questions = [
                (
                    question,
                    _link_ids(question.answer, known, "../rules/"),
                    [(rule, rule in known) for rule in question.rules],
                )
                for question in faq
            ]
            put(
                site / game.name / "faq" / "index.html",
                environment.get_template("faq.html").render(game=game, questions=questions),
            )
            worker_files[f"{game.name}/faq/"] = ["./", "../../" + STYLESHEET, *SEARCH]
        entries.append(
            {
                "name": game.name,
                "title": game.title,
                "prefix": game.prefix,
                "blurb": game.blurb,
                "count": len(known),
                "clarifications": sum(p.is_clarification for p in known.values()),
                "sections": [part.title for part in parts if part.title],
                "faq": bool(faq),
            }
        )
    prefixes = {entry["prefix"]: entry["name"] for entry in entries}
    put(
        site / "rules" / "index.html",
        environment.get_template("rules_index.html").render(games=entries, prefixes=prefixes),
    )
    worker_files["rules/"] = ["./", "rules.css"]
    version = hashlib.sha256(b"".join(path.read_bytes() for path in written)).hexdigest()[:16]
    put(site / WORKER, _worker_script(worker_files, version))
    return written


def _note_title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem
