"""The printed rulebook and the player aid of each game, as PDF files typeset with fpdf2 at ``make site``.

The rulebook holds the whole translated text from the notebooks' markdown (:mod:`rulebook.teach.rules_text`), every
paragraph under its id, clarifications marked by a bar in the margin, the board's figure (the SVG the rules pages
show), then the game's FAQ and glossary (:mod:`rulebook.teach.reference`), with a contents list, bookmarks and page
numbers. The player aid is one or two
pages of the game's ``aid.json``: the turn, key numbers and tables, each line with the rule id it summarises.

The text holds French accents, arrows and ×, so the fonts are TrueType: Debian's fonts-dejavu-core, which a build
takes from the system (``RULEBOOK_FONTS`` names another folder holding the same files).
"""

from __future__ import annotations

import io
import logging
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from fpdf import FPDF
from fpdf.fonts import FontFace
from fpdf.outline import OutlineSection

from rulebook import registry
from rulebook.teach import reference, rules_text

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONT_FILES = {
    ("DejaVu", ""): "DejaVuSans.ttf",
    ("DejaVu", "B"): "DejaVuSans-Bold.ttf",
    ("DejaVu", "I"): "DejaVuSans-Oblique.ttf",
    ("DejaVu", "BI"): "DejaVuSans-BoldOblique.ttf",
    ("DejaVuMono", ""): "DejaVuSansMono.ttf",
}
FONT = "DejaVu"
INK = (20, 20, 20)
GREY = (95, 95, 95)
RULE_BAR = (120, 120, 120)  # the clarifications' bar: a mid grey that prints on any printer
SHADE = (236, 236, 236)
MAX_AID_PAGES = 2
LINE_HEIGHT = 1.3  # of the font size, for running text (fpdf2's default of 1 sets the lines too close)
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_UP = re.compile(r"^(?:\.\./)+")  # a link from notebooks/ into the repository: its path from the repository's root


def font_dir() -> Path:
    """The folder of the DejaVu fonts; a SystemExit saying what to install when they are missing."""
    folder = Path(os.environ.get("RULEBOOK_FONTS") or FONT_DIR)
    missing = [name for name in FONT_FILES.values() if not (folder / name).is_file()]
    if missing:
        raise SystemExit(
            f"printed rulebook: the font {folder / missing[0]} is missing ({len(missing)} DejaVu files in all): "
            "install Debian's fonts-dejavu-core (apt-get install fonts-dejavu-core), or set RULEBOOK_FONTS to a "
            "folder holding them"
        )
    return folder


def _plain_links(markdown: str) -> str:
    """Links as words: a link into the repository (the research notes) becomes its text and its path, so a reader
    of the paper can find it; a web address stays a link."""

    def replace(found: re.Match[str]) -> str:
        text, target = found.group(1), found.group(2)
        if re.match(r"https?://", target):
            return found.group(0)
        return f"{text} ({_UP.sub('', target)})"

    return _LINK.sub(replace, markdown)


class _Document(FPDF):
    """An A4 document in the DejaVu fonts whose footer says what it is and the page number."""

    def __init__(self, title: str, footer: str) -> None:
        super().__init__(orientation="portrait", unit="mm", format="A4")
        folder = font_dir()
        for (family, style), name in FONT_FILES.items():
            self.add_font(family, style, str(folder / name))
        self.footer_text = footer
        self.set_title(title)
        self.set_author("rulebook")
        self.set_creator("rulebook (fpdf2)")
        self.set_lang("en")
        self.set_margins(18, 16, 18)
        self.set_auto_page_break(True, margin=18)
        self.set_text_color(*INK)
        self.set_font(FONT, size=10)

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font(FONT, size=8)
        self.set_text_color(*GREY)
        self.cell(0, 5, self.footer_text, align="L")
        self.set_x(self.l_margin)
        self.cell(0, 5, f"page {self.page_no()} of {{nb}}", align="R")
        self.set_text_color(*INK)

    def html(self, markdown: str, size: float = 10) -> None:
        """One paragraph of the rules' markdown (bold, italics, lists, tables) in the document's fonts."""
        text: list[str] = []
        for block in re.split(r"\n\s*\n", markdown):
            if block.lstrip().startswith("|"):
                self._text("\n\n".join(text), size)
                text = []
                self.table_block(block, size - 1)
            else:
                text.append(block)
        self._text("\n\n".join(text), size)

    def _text(self, markdown: str, size: float) -> None:
        if not markdown.strip():
            return
        self.set_font(FONT, size=size)
        html = str(rules_text.to_html(_plain_links(markdown)))
        html = re.sub(r"<(p|ol|ul)>", rf'<\1 line-height="{LINE_HEIGHT}">', html)
        self.write_html(
            html,
            font_family=FONT,
            li_prefix_color=INK,
            tag_styles={
                "a": FontFace(color=INK, emphasis="UNDERLINE"),
                "code": FontFace(family="DejaVuMono"),
                "p": FontFace(size_pt=size),
                "li": FontFace(size_pt=size),
            },
        )

    def table_block(self, block: str, size: float) -> None:
        """A markdown table: a bold shaded first row, then plain rows, lines between them."""
        rows = []
        for line in block.strip().splitlines():
            cells = [_plain(cell) for cell in line.strip().strip("|").split("|")]
            if all(re.fullmatch(r":?-+:?", cell.replace(" ", "")) for cell in cells):
                continue  # the line under the headings
            rows.append(cells)
        width = max(len(row) for row in rows)
        self.set_font(FONT, size=size)
        self.set_fill_color(255)
        self.ln(1)
        with self.table(
            line_height=size * 0.5,
            align="LEFT",
            width=self.epw,
            text_align="LEFT",
            first_row_as_headings=True,
            headings_style=FontFace(emphasis="BOLD", fill_color=SHADE),
            borders_layout="HORIZONTAL_LINES",
            col_widths=_widths(rows),
        ) as table:
            for cells in rows:
                row = table.row()
                for cell in cells + [""] * (width - len(cells)):
                    row.cell(cell)
        self.ln(2)

    def heading(self, text: str, size: float, above: float = 3) -> None:
        self.ln(above)
        self.set_font(FONT, "B", size)
        self.multi_cell(0, size * 0.5, text, new_x="LMARGIN", new_y="NEXT")
        self.ln(1.5)
        self.set_font(FONT, size=10)

    def keep_word(self, word: str, height: float) -> None:
        """Start a new line unless ``word`` fits on this one: fpdf2's write() would cut a rule id in two."""
        if self.get_x() + self.get_string_width(word) > self.w - self.r_margin:
            self.ln(height)

    def bar(self, start: tuple[int, float], end: tuple[int, float], x: float) -> None:
        """A grey bar in the margin from ``start`` to ``end`` (page, y), over the page breaks between them."""
        here = self.page
        for page in range(start[0], end[0] + 1):
            top = start[1] if page == start[0] else self.t_margin
            bottom = end[1] if page == end[0] else self.h - self.b_margin
            if bottom > top:
                self.page = page
                self.set_fill_color(*RULE_BAR)
                self.rect(x, top, 1.2, bottom - top, style="F")
        self.page = here
        self.set_fill_color(255)


def _contents(pdf: FPDF, outline: list[OutlineSection]) -> None:
    """The contents list of the rulebook's first page: each section, its page, a link to it."""
    pdf.set_x(pdf.l_margin)
    pdf.set_font(FONT, "B", 13)
    pdf.cell(0, 8, "Contents", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1)
    for section in outline:
        size = 10 if section.level == 0 else 9
        pdf.set_font(FONT, "B" if section.level == 0 else "", size)
        link = pdf.add_link(page=section.page_number)
        indent = 6 * section.level
        pdf.set_x(pdf.l_margin + indent)
        width = pdf.epw - indent - 14
        pdf.cell(width, 6, section.name, link=link)
        pdf.cell(14, 6, str(section.page_number), align="R", link=link, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, size=10)


def _title(game: str) -> str:
    return registry.game(game).title


def rulebook_pdf(game: str, path: Path) -> Path:
    """The whole translated rules of ``game`` as a PDF at ``path``: a contents list, every paragraph under its id
    (clarifications with a bar in the margin), then the FAQ and the glossary; returns ``path``."""
    title = _title(game)
    pdf = _Document(f"{title}: the rules", f"{title} · the rules")
    pdf.alias_nb_pages()
    pdf.add_page()
    pdf.set_font(FONT, "B", 22)
    pdf.multi_cell(0, 10, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, "", 10.5)
    pdf.set_text_color(*GREY)
    pdf.multi_cell(
        0,
        5.5,
        "The rules, translated from the French rule sheet paragraph by paragraph. Every paragraph starts with its id "
        "(the same ids the game's refusals, exercises and website give). A paragraph with a grey bar in the margin "
        "is a clarification: what the text leaves open, decided by this rulebook, with where the decision came from.",
        align="L",
        new_x="LMARGIN",
        new_y="NEXT",
    )
    pdf.set_text_color(*INK)
    pdf.ln(4)
    pdf.insert_toc_placeholder(_contents, pages=1)  # the rest of this page; the text begins on a new one
    _board(pdf, game)
    links = _rules(pdf, game)
    _questions(pdf, reference.faq(game), links)
    _glossary(pdf, reference.glossary(game), links)
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))
    return path


def board_figure(game: str) -> tuple[str, str, str] | None:
    """The board as the rules pages draw it (:func:`rulebook.site.reader.board_figure`, an SVG drawn at build time),
    made printable by fpdf2, with its title and description; None for a game whose board has no figure."""
    from rulebook.site import reader, svg  # the rules pages' own drawing: imported when a rulebook is printed

    declared = registry.game(game)
    figure = reader.board_figure(declared)
    if figure is None:
        return None
    title, description = reader.figure_text(declared)
    return printable_svg(svg.render(figure, title, description)), title, description


def printable_svg(text: str) -> str:
    """An SVG of :mod:`rulebook.site.svg` as fpdf2 draws it: its texts in the document's font (the pieces' signs,
    ♜ and the like, are not in the core fonts), no title or description (words of the caption), and the plot's
    inner viewport, which fpdf2 leaves out with all it holds, as a plain group when it maps its box onto itself."""
    text = re.sub(r"<title[^>]*>.*?</title>|<desc>.*?</desc>", "", text, flags=re.DOTALL)
    text = re.sub(r'font-family="[^"]*"', f'font-family="{FONT}"', text)
    text = _HALO.sub(_halo_first, text)
    inner = re.search(
        r'<svg x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" viewBox="([\d. ]+)"[^>]*>', text
    )
    if inner and [float(n) for n in inner.group(5).split()] == [float(n) for n in inner.groups()[:4]]:
        close = text.index("</svg>", inner.end())
        text = f"{text[: inner.start()]}<g>{text[inner.end() : close]}</g>{text[close + len('</svg>') :]}"
    return text


_HALO = re.compile(r'<text([^>]*?) paint-order="stroke"([^>]*)>(.*?)</text>', re.DOTALL)
_STROKE = re.compile(r'\s(stroke|stroke-width|stroke-opacity)="[^"]*"')


def _halo_first(found: re.Match[str]) -> str:
    """A label with a halo (``paint-order="stroke"``, which fpdf2 ignores, painting the halo over the letters) as
    two texts: the halo alone, then the letters without it."""
    attributes, words = found.group(1) + found.group(2), found.group(3)
    stroke = re.search(r'\sstroke="([^"]*)"', attributes)
    letters = _STROKE.sub("", attributes)
    if stroke is None:
        return f"<text{letters}>{words}</text>"
    halo = re.sub(r'\sfill="[^"]*"', f' fill="{stroke.group(1)}"', attributes)
    return f"<text{halo}>{words}</text><text{letters}>{words}</text>"


def _board(pdf: _Document, game: str) -> None:
    """A page with the board's figure and its caption, when the game has one."""
    drawn = board_figure(game)
    if drawn is None:
        return
    picture, title, description = drawn
    if pdf.get_y() > pdf.t_margin + 1:  # after the contents fpdf2 stands on a new page already
        pdf.add_page()
    pdf.start_section("The board", level=0)
    pdf.heading("The board", 14, above=0)
    size = re.search(r'width="([\d.]+)" height="([\d.]+)"', picture)
    ratio = float(size.group(2)) / float(size.group(1)) if size else 1.0
    room = pdf.h - pdf.b_margin - pdf.get_y() - 30  # leave room for the caption
    width = min(pdf.epw, room / ratio)
    log = logging.getLogger("fpdf.svg")  # it names each SVG feature fpdf2 leaves out (the <svg> of the page, here)
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        pdf.image(io.BytesIO(picture.encode("utf-8")), x=pdf.l_margin + (pdf.epw - width) / 2, w=width)
    finally:
        log.setLevel(level)
    pdf.ln(3)
    pdf.set_font(FONT, "B", 9.5)
    pdf.multi_cell(0, 5, title, align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, "", 9)
    pdf.set_text_color(*GREY)
    pdf.multi_cell(0, 4.6, description, align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(*INK)
    pdf.add_page()


def _rules(pdf: _Document, game: str) -> dict[str, int]:
    """Every section holding paragraphs, every paragraph; returns a link to each paragraph by id."""
    paragraphs = rules_text.paragraphs(game)
    links: dict[str, int] = {}
    heading, pending = "", False
    for kind, value in rules_text.outline(game):
        if kind == "heading":
            heading, pending = value, True
            continue
        if pending:  # a heading with no paragraph under it is a code section of the notebook: not printed
            if pdf.will_page_break(30):
                pdf.add_page()
            pdf.start_section(heading, level=0)
            pdf.heading(heading, 14, above=4 if pdf.get_y() > pdf.t_margin + 1 else 0)
            pending = False
        paragraph = paragraphs[value]
        if pdf.will_page_break(12):
            pdf.add_page()
        links[value] = pdf.add_link(y=pdf.get_y(), page=pdf.page)
        start = (pdf.page, pdf.get_y())
        if paragraph.is_clarification:
            pdf.set_left_margin(pdf.l_margin + 4)
            pdf.html(paragraph.markdown, size=9.5)
            pdf.set_left_margin(pdf.l_margin - 4)
            pdf.bar(start, (pdf.page, pdf.get_y() - 1.5), pdf.l_margin)
        else:
            pdf.html(paragraph.markdown)
        pdf.ln(1)
    return links


def _questions(pdf: _Document, questions: tuple[reference.Question, ...], links: dict[str, int]) -> None:
    """The FAQ: each question, its answer and the rule ids it rests on (links to their paragraphs)."""
    if not questions:
        return
    pdf.add_page()
    pdf.start_section("Questions players ask", level=0)
    pdf.heading("Questions players ask", 14, above=0)
    for question in questions:
        if pdf.will_page_break(22):
            pdf.add_page()
        pdf.set_font(FONT, "B", 10)
        pdf.multi_cell(0, 5, f"{question.id}  {question.question}", align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(FONT, "", 10)
        pdf.multi_cell(0, 5.2, question.answer, align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(FONT, "", 8.5)
        pdf.set_text_color(*GREY)
        pdf.write(4.5, "Rules: ")
        for index, rule in enumerate(question.rules):
            pdf.keep_word(rule, 4.5)
            pdf.write(4.5, rule, link=links.get(rule, ""))
            if index < len(question.rules) - 1:
                pdf.write(4.5, ", ")
        pdf.set_text_color(*INK)
        pdf.ln(7)


def _glossary(pdf: _Document, terms: tuple[reference.Term, ...], links: dict[str, int]) -> None:
    """The glossary in alphabetical order: each term, its meaning, its paragraph and the other words for it."""
    if not terms:
        return
    pdf.add_page()
    pdf.start_section("Glossary", level=0)
    pdf.heading("Glossary", 14, above=0)
    for term in sorted(terms, key=lambda term: term.term.casefold()):
        if pdf.will_page_break(14):
            pdf.add_page()
        pdf.set_font(FONT, "B", 10)
        pdf.write(5.2, term.term)
        pdf.set_font(FONT, "", 10)
        pdf.write(5.2, f"  {term.definition} ")
        pdf.set_text_color(*GREY)
        pdf.keep_word(term.rule, 5.2)
        pdf.write(5.2, term.rule, link=links.get(term.rule, ""))
        pdf.ln(5.2)
        pdf.set_font(FONT, "I", 8.5)
        pdf.multi_cell(0, 4.2, "also: " + ", ".join(term.aliases), align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.set_text_color(*INK)
        pdf.ln(1.5)


def player_aid(game: str, path: Path) -> Path:
    """The game's player aid (its ``aid.json``) as a PDF of at most two pages at ``path``; returns ``path``.

    ValueError when the game has no aid or it takes more than two pages."""
    sections = reference.aid(game)
    if not sections:
        raise ValueError(f"{game}: no player aid (the game's package holds no {reference.AID_FILE})")
    title = _title(game)
    pdf = _Document(f"{title}: player aid", f"{title} · player aid")
    pdf.alias_nb_pages()
    pdf.set_auto_page_break(True, margin=14)
    pdf.add_page()
    pdf.set_font(FONT, "B", 16)
    pdf.cell(0, 8, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, "", 10)
    pdf.set_text_color(*GREY)
    pdf.cell(0, 5, "Player aid: each line names the paragraph of the rules it sums up.", new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(*INK)
    pdf.ln(2)
    id_width = 20
    for section in sections:
        if pdf.will_page_break(18):
            pdf.add_page()
        pdf.set_fill_color(*SHADE)
        pdf.set_font(FONT, "B", 10.5)
        label = f"{section.heading}  ({section.rule})" if section.rule else section.heading
        pdf.cell(0, 6.5, " " + label, fill=True, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(1)
        for rule, text in section.lines:
            pdf.set_font(FONT, "B", 8.5)
            pdf.set_text_color(*GREY)
            pdf.cell(id_width, 4.6, rule)
            pdf.set_text_color(*INK)
            pdf.set_font(FONT, "", 9)
            pdf.multi_cell(0, 4.6, text, align="L", new_x="LMARGIN", new_y="NEXT")
        if section.rows:
            pdf.set_font(FONT, "", 8.5)
            pdf.set_fill_color(255)
            with pdf.table(
                line_height=4.6,
                align="LEFT",
                width=pdf.epw,
                text_align=("LEFT", *["CENTER"] * (len(section.columns) - 1)),
                first_row_as_headings=True,
                headings_style=FontFace(emphasis="BOLD", fill_color=SHADE),
                borders_layout="HORIZONTAL_LINES",
                col_widths=_widths((section.columns, *section.rows)),
            ) as table:
                for cells in (section.columns, *section.rows):
                    row = table.row()
                    for cell in cells:
                        row.cell(cell)
        if section.note:
            pdf.set_font(FONT, "I", 8.5)
            pdf.set_text_color(*GREY)
            pdf.multi_cell(0, 4.4, section.note, align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.set_text_color(*INK)
        pdf.ln(2.5)
    if pdf.page > MAX_AID_PAGES:
        raise ValueError(f"{game}: the player aid takes {pdf.page} pages, more than {MAX_AID_PAGES}: shorten its aid")
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))
    return path


def _plain(cell: str) -> str:
    """A table cell's markdown as plain text (a table cell holds no bold or italics here)."""
    return re.sub(r"(\*\*|\*|`|_(?=\w)|(?<=\w)_\b)", "", cell).strip()


def _widths(rows: Iterable[Iterable[str]]) -> tuple[float, ...]:
    """Column widths in proportion to their longest text, the first (the row labels) at least a quarter."""
    table = [list(row) for row in rows]
    longest = [max(len(row[index]) if index < len(row) else 0 for row in table) + 2 for index in range(len(table[0]))]
    longest[0] = max(longest[0], sum(longest) // 4)
    return tuple(float(width) for width in longest)


def write(site: Path, games: Iterable[Any]) -> list[Path]:
    """Write ``site/<game>/rules/<game>-rules.pdf`` and ``<game>-player-aid.pdf`` (for a game with an aid) for each
    game (a name or a registry Game) and return their paths."""
    written: list[Path] = []
    for game in games:
        name = getattr(game, "name", game)
        folder = Path(site) / name / "rules"
        written.append(rulebook_pdf(name, folder / f"{name}-rules.pdf"))
        if reference.aid(name):  # a game whose package has no aid.json has no player aid
            written.append(player_aid(name, folder / f"{name}-player-aid.pdf"))
    return written
