"""The printed rulebook and player aid (rulebook.site.printed): written for every game, read back with poppler's
pdftotext and pdfinfo (a reader independent of fpdf2), they hold every paragraph id, the FAQ and the glossary, the
text's accents and signs, a contents list and page numbers; the aid stays within two pages."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rulebook import registry
from rulebook.site import printed
from rulebook.teach import reference, rules_text
from rulebook.teach.reference import AidSection

GAMES = tuple(registry.games())
POPPLER = shutil.which("pdftotext") and shutil.which("pdfinfo")
needs_poppler = pytest.mark.skipif(
    not POPPLER, reason="pdftotext/pdfinfo (Debian's poppler-utils) are not installed: the PDFs cannot be read back"
)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[Path, list[Path]]:
    folder = tmp_path_factory.mktemp("site")
    return folder, printed.write(folder, registry.games().values())


def text_of(path: Path, *pages: int) -> str:
    command = ["pdftotext", "-enc", "UTF-8"]
    if pages:
        command += ["-f", str(pages[0]), "-l", str(pages[-1])]
    return subprocess.run([*command, str(path), "-"], check=True, capture_output=True, text=True).stdout


def page_count(path: Path) -> int:
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE).group(1))


def test_write_puts_both_files_of_every_game_in_its_rules_folder(site):
    folder, written = site
    expected = [folder / game / "rules" / f"{game}-{kind}.pdf" for game in GAMES for kind in ("rules", "player-aid")]
    assert written == expected
    for path in written:
        assert path.read_bytes().startswith(b"%PDF-") and 20_000 < path.stat().st_size < 2_000_000


@needs_poppler
@pytest.mark.parametrize("game", GAMES)
def test_the_rulebook_holds_every_paragraph_id_the_faq_and_the_glossary(site, game):
    path = site[0] / game / "rules" / f"{game}-rules.pdf"
    text = text_of(path)
    words = set(re.findall(r"[\w.-]+", text))
    missing = [rule for rule in rules_text.paragraphs(game) if rule not in words]
    assert not missing, f"{path.name} lacks the paragraphs {missing}"
    assert all(question.id in words for question in reference.faq(game))
    flat = " ".join(text.split())
    assert all(" ".join(question.question.split()) in flat for question in reference.faq(game))
    assert all(term.term in text for term in reference.glossary(game))


@needs_poppler
@pytest.mark.parametrize("game", GAMES)
def test_the_rulebook_keeps_every_accent_and_sign_of_the_text(site, game):
    path = site[0] / game / "rules" / f"{game}-rules.pdf"
    signs = {char for p in rules_text.paragraphs(game).values() for char in p.markdown if ord(char) > 127}
    assert signs, "the rules text holds some non-ASCII characters (× – « é ...)"
    assert signs <= set(text_of(path)), f"lost in the PDF: {sorted(signs - set(text_of(path)))}"


@needs_poppler
@pytest.mark.parametrize("game", GAMES)
def test_the_rulebook_has_a_contents_list_and_numbered_pages(site, game):
    path = site[0] / game / "rules" / f"{game}-rules.pdf"
    pages = page_count(path)
    paragraphs = len(rules_text.paragraphs(game))
    assert paragraphs / 8 <= pages <= paragraphs / 2  # between 2 and 8 paragraphs a page, the FAQ included
    first = text_of(path, 1)
    assert registry.game(game).title in first and "Contents" in first
    sections = [
        heading
        for index, (kind, heading) in enumerate(rules_text.outline(game))
        if kind == "heading"
        and index + 1 < len(rules_text.outline(game))
        and rules_text.outline(game)[index + 1][0] == "rule"
    ]
    for heading in ["The board", *sections, "Questions players ask", "Glossary"]:
        assert re.search(rf"{re.escape(heading)}\s+\d+", first), f"contents lack {heading!r}"
    assert f"page {pages} of {pages}" in text_of(path, pages)


@needs_poppler
@pytest.mark.parametrize("game", GAMES)
def test_the_player_aid_is_at_most_two_pages_and_holds_its_lines_and_tables(site, game):
    path = site[0] / game / "rules" / f"{game}-player-aid.pdf"
    assert 1 <= page_count(path) <= 2
    text = text_of(path)
    flat = " ".join(text.split())
    for section in reference.aid(game):
        assert section.heading in flat
        for rule, line in section.lines:
            assert rule in text and " ".join(line.split()) in flat, (rule, line)
        for row in section.rows:
            assert all(cell in text for cell in row), row


@needs_poppler
@pytest.mark.parametrize("game", GAMES)
def test_the_rulebook_shows_the_board_as_the_rules_pages_draw_it(site, game):
    from rulebook.site import reader

    path = site[0] / game / "rules" / f"{game}-rules.pdf"
    title, _ = reader.figure_text(registry.game(game))
    second = text_of(path, 2)
    assert second.startswith("The board") and " ".join(title.split()) in " ".join(second.split())


def test_printable_svg_flattens_the_plot_viewport_and_puts_each_halo_under_its_letters():
    drawing = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" viewBox="0 0 20 10"><title>T</title>'
        '<desc>D</desc><svg x="4" y="4" width="12" height="2" viewBox="4 4 12 2" overflow="hidden">'
        '<path d="M4,4L16,6"/></svg><text x="1" y="2" font-family="Arial" fill="#222" stroke="#fff" '
        'stroke-width="2" paint-order="stroke">Eeklo</text></svg>'
    )
    assert printed.printable_svg(drawing) == (
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" viewBox="0 0 20 10">'
        '<g><path d="M4,4L16,6"/></g><text x="1" y="2" font-family="DejaVu" fill="#fff" stroke="#fff" '
        'stroke-width="2">Eeklo</text><text x="1" y="2" font-family="DejaVu" fill="#222">Eeklo</text></svg>'
    )
    scaled = drawing.replace('viewBox="4 4 12 2"', 'viewBox="0 0 6 1"')
    assert '<svg x="4"' in printed.printable_svg(scaled)  # a viewport that scales is left as it is


def test_a_game_from_outside_without_faq_glossary_or_aid_gets_its_rulebook_alone(tmp_path):
    from tests.nim.game import GAME

    registry.register(GAME)
    try:
        written = printed.write(tmp_path, [GAME])
        assert written == [tmp_path / "nim" / "rules" / "nim-rules.pdf"]
        if POPPLER:
            text = text_of(written[0])
            assert all(rule in text for rule in rules_text.paragraphs("nim"))
            assert "Questions players ask" not in text and "Glossary" not in text
    finally:
        registry.unregister("nim")


def test_an_aid_longer_than_two_pages_is_refused_in_words(monkeypatch, tmp_path):
    long = tuple(
        AidSection(f"Part {n}", lines=(("CL-6.1", "Step to a free neighbouring point."),) * 6) for n in range(30)
    )
    monkeypatch.setattr(reference, "aid", lambda game: long)
    with pytest.raises(ValueError, match="more than 2"):
        printed.player_aid("claim", tmp_path / "aid.pdf")
    assert not (tmp_path / "aid.pdf").exists()


def test_missing_fonts_stop_the_build_saying_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEBOOK_FONTS", str(tmp_path))
    with pytest.raises(SystemExit, match="fonts-dejavu-core"):
        printed.rulebook_pdf("claim", tmp_path / "rules.pdf")
    assert not (tmp_path / "rules.pdf").exists()


def test_links_into_the_repository_print_as_their_path():
    assert printed._plain_links("see [the note](../rulebook/claim/RESEARCH.md) §2") == (
        "see the note (rulebook/claim/RESEARCH.md) §2"
    )
    assert printed._plain_links("[BGA](https://boardgamearena.com)") == "[BGA](https://boardgamearena.com)"
