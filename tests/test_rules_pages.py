"""The rules pages of the website (rulebook/site/reader.py), written into a temporary folder and read back as HTML:
every paragraph once under its id with the notebook's own words, the clarifications marked, the outline, the board
figures as SVG, the glossary and FAQ linked, and a game without a rules text refused by name."""

from __future__ import annotations

import dataclasses
import html
import json
import re
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rulebook import registry
from rulebook.site import reader, svg
from rulebook.teach import reference, rules_text

GAMES = list(registry.games().values())


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    first = GAMES[0].name
    (folder / first / "rules").mkdir(parents=True)
    (folder / first / "rules" / f"{first}-rules.pdf").write_bytes(b"%PDF-1.4\n")  # the printed rulebook, as if built
    reader.write(folder, GAMES)
    return folder


VOID = {"br", "img", "input", "hr", "meta", "link", "path"}


class Page(HTMLParser):
    """An HTML page's element ids, links, images and the words inside each <article> (its buttons, badge and sources
    left out: the paragraph's own text)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.links: list[str] = []
        self.images: list[dict[str, str]] = []
        self.articles: dict[str, dict] = {}
        self._article: str | None = None
        self._depth = 0  # elements open inside the article
        self._skipping_from: int | None = None  # the depth of the element whose words are left out
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attributes = {key: value or "" for key, value in attrs}
        if "id" in attributes:
            self.ids.append(attributes["id"])
        if tag == "a" and "href" in attributes:
            self.links.append(attributes["href"])
        if tag == "img":
            self.images.append(attributes)
        if tag == "article":
            self._article, self._depth = attributes["id"], 0
            self.articles[self._article] = {"classes": attributes.get("class", "").split(), "words": [], "badge": False}
            return
        if self._article is None or tag in VOID:
            return
        self._depth += 1
        classes = set(attributes.get("class", "").split())
        if "badge" in classes:
            self.articles[self._article]["badge"] = True
        if self._skipping_from is None and (tag == "button" or {"badge", "sources"} & classes):
            self._skipping_from = self._depth

    def handle_endtag(self, tag):
        if tag == "article":
            self._article = None
        elif self._article is not None and tag not in VOID:
            if self._skipping_from == self._depth:
                self._skipping_from = None
            self._depth -= 1

    def handle_data(self, data):
        if self._article is not None and self._skipping_from is None:
            self.articles[self._article]["words"].append(data)


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def notebook_words(markdown: str) -> str:
    """What a reader sees of a paragraph as the notebook renders it: the markdown as HTML, tags gone."""
    return words(html.unescape(re.sub(r"<[^>]*>", "", str(rules_text.to_html(markdown)))))


def page_of(site: Path, game: str) -> Page:
    return Page((site / game / "rules" / "index.html").read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", [game.name for game in GAMES])
def test_every_paragraph_once_under_its_id_with_the_notebooks_words(site, game):
    page = page_of(site, game)
    known = rules_text.paragraphs(game)
    for rule, paragraph in known.items():
        assert page.ids.count(rule) == 1, rule
        assert words("".join(page.articles[rule]["words"])) == notebook_words(paragraph.markdown), rule
    assert list(page.articles) == list(known)  # the notebook's order, and nothing else


@pytest.mark.parametrize("game", [game.name for game in GAMES])
def test_clarifications_are_marked_and_cite_their_sources(site, game):
    page = page_of(site, game)
    text = (site / game / "rules" / "index.html").read_text(encoding="utf-8")
    for rule, article in page.articles.items():
        clarification = re.fullmatch(r"[A-Z]+-C[\d.]+", rule) is not None
        assert ("clarification" in article["classes"]) == clarification, rule
        assert article["badge"] == clarification, rule
    assert text.count('<p class="sources">') == sum("-C" in rule for rule in page.articles)
    assert (site / game / "rules" / "research.html").is_file()  # every game here keeps a research note
    assert 'href="research.html"' in text


def test_known_clarifications_by_hand(site):
    page = page_of(site, "meetjesland")
    assert "clarification" in page.articles["MJ-C7"]["classes"]
    assert "clarification" not in page.articles["MJ-4.3"]["classes"]
    assert "clarification" in page_of(site, "claim").articles["CL-C4"]["classes"]


@pytest.mark.parametrize("game", [game.name for game in GAMES])
def test_outline_names_every_section_and_paragraph(site, game):
    text = (site / game / "rules" / "index.html").read_text(encoding="utf-8")
    outline = text[text.index('<nav class="outline"') : text.index("</nav>", text.index('<nav class="outline"'))]
    headings = [name for kind, name in rules_text.outline(game) if kind == "heading"]
    for rule in rules_text.paragraphs(game):
        assert f'href="#{rule}"' in outline, rule
    sections = re.findall(r'<section id="([^"]+)"', text)
    assert sections and all(f'href="#{section}"' in outline for section in sections)
    shown = re.findall(r'<h2 id="section-[^"]+">([^<]+)</h2>', text)
    assert [html.unescape(name) for name in shown] == [name for name in headings if name in map(html.unescape, shown)]


@pytest.mark.parametrize("game", [game.name for game in GAMES])
def test_every_link_within_the_page_lands(site, game):
    page = page_of(site, game)
    ids = set(page.ids)
    inside = [link[1:] for link in page.links if link.startswith("#")]
    assert inside and all(target in ids for target in inside), [t for t in inside if t not in ids][:5]
    # a rule id in the text is a link to its paragraph: MJ-C7 cites MJ-4.6, and so on (counted by hand below)
    assert '<a class="rule-ref" href="#' in (site / game / "rules" / "index.html").read_text(encoding="utf-8")


def test_rule_ids_in_the_text_link_to_their_paragraphs(site):
    text = (site / "meetjesland" / "rules" / "index.html").read_text(encoding="utf-8")
    article = text[text.index('<article id="MJ-C7"') : text.index("</article>", text.index('<article id="MJ-C7"'))]
    assert '<a class="rule-ref" href="#MJ-4.6">MJ-4.6</a>' in article
    assert reader.link_rules('<a data-id="MJ-4.6">MJ-4.6</a> and MJ-4.6 or XX-1.1', {"MJ-4.6"}) == (
        '<a data-id="MJ-4.6">MJ-4.6</a> and <a class="rule-ref" href="#MJ-4.6">MJ-4.6</a> or XX-1.1'
    )


@pytest.mark.parametrize("game", [game.name for game in GAMES])
def test_board_figure_is_an_svg_with_a_title_and_alt_text(site, game):
    path = site / game / "rules" / reader.FIGURE
    tree = ElementTree.parse(path)  # well-formed XML, or this raises
    root = tree.getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and registry.game(game).title in title.text
    assert len(root.findall(".//{http://www.w3.org/2000/svg}path")) > 20  # a board, not an empty frame
    images = [image for image in page_of(site, game).images if image["src"] == reader.FIGURE]
    assert len(images) == 1 and len(images[0]["alt"]) > 40


def test_svg_refuses_a_figure_it_cannot_draw():
    with pytest.raises(ValueError, match="scatter traces only, not bar"):
        svg.render({"data": [{"type": "bar", "x": [1], "y": [2]}], "layout": {}}, "a chart")
    with pytest.raises(ValueError, match="list of traces"):
        svg.render({"layout": {}}, "nothing")


def test_svg_places_points_as_board_js_does():
    # 100 x 100 px, no margins, ranges 0..10 both ways: (5, 5) is the middle, y grows upwards (hand computed)
    figure = {
        "data": [
            {
                "type": "scatter",
                "mode": "markers+text",
                "x": [5],
                "y": [2],
                "text": ["R&D <i>x</i><br>y"],
                "marker": {"size": 10, "symbol": "square"},
            }
        ],
        "layout": {
            "width": 100,
            "height": 100,
            "margin": {"l": 0, "r": 0, "t": 0, "b": 0},
            "xaxis": {"range": [0, 10]},
            "yaxis": {"range": [0, 10]},
        },
    }
    drawn = svg.render(figure, "t")
    assert 'transform="translate(50.0,80.0)"' in drawn
    assert ">R&amp;D x y</text>" in drawn  # as board.js: tags dropped (<br> a space), the rest escaped
    ElementTree.fromstring(drawn)


@pytest.mark.parametrize("game", [game.name for game in GAMES])
def test_glossary_terms_are_linked_to_their_entries(site, game):
    terms = reference.glossary(game)
    text = (site / game / "rules" / "index.html").read_text(encoding="utf-8")
    ids = set(page_of(site, game).ids)
    for term in terms:
        assert f"term-{reader.slug(term.term)}" in ids, term.term
    used = set(re.findall(r'<a class="term" href="#([^"]+)"', text))
    assert used <= ids
    if terms:
        assert used, "no glossary word is linked in the text"
    else:
        assert 'id="glossary"' not in text


@pytest.mark.parametrize("game", [game.name for game in GAMES])
def test_faq_page_when_the_game_has_one(site, game):
    questions = reference.faq(game)
    path = site / game / "faq" / "index.html"
    assert path.is_file() == bool(questions)
    if questions:
        page = Page(path.read_text(encoding="utf-8"))
        assert [question.id for question in questions] == [i for i in page.ids if i in {q.id for q in questions}]
        cited = {rule for question in questions for rule in question.rules}
        assert {f"../rules/#{rule}" for rule in cited} <= set(page.links)
        # and under the rules themselves, each question once, its paragraphs linked on the page (issue 46.3)
        rules = Page((site / game / "rules" / "index.html").read_text(encoding="utf-8"))
        asked = [i for i in rules.ids if i in {q.id for q in questions}]
        assert asked == [question.id for question in questions]
        assert {f"#{rule}" for rule in cited} <= set(rules.links)


def test_index_lists_every_game_and_its_ids(site):
    text = (site / "rules" / "index.html").read_text(encoding="utf-8")
    for game in GAMES:
        assert f'href="../{game.name}/rules/"' in text
    prefixes = json.loads(re.search(r"const PREFIXES = (\{[^}]*\});", text).group(1))
    assert prefixes == {game.prefix: game.name for game in GAMES}


def test_print_and_player_aid_linked_only_when_built(site):
    first, second = GAMES[0].name, GAMES[1].name
    assert f'href="{first}-rules.pdf"' in (site / first / "rules" / "index.html").read_text(encoding="utf-8")
    assert f"{first}-player-aid.pdf" not in (site / first / "rules" / "index.html").read_text(encoding="utf-8")
    assert ".pdf" not in (site / second / "rules" / "index.html").read_text(encoding="utf-8")


def test_search_box_on_every_rules_page(site):
    for game in GAMES:
        text = (site / game.name / "rules" / "index.html").read_text(encoding="utf-8")
        assert f'<div class="rulebook-search" data-game="{game.name}"></div>' in text
        assert '<script src="../../search/search.js" defer></script>' in text


def test_service_worker_keeps_to_the_rules_folders(site):
    text = (site / reader.WORKER).read_text(encoding="utf-8")
    files = json.loads(text[text.index("const FILES = ") + len("const FILES = ") : text.index(";\nconst ROOT")])
    scopes = set(files)
    assert scopes >= {f"{game.name}/rules/" for game in GAMES} | {"rules/"}
    assert all(scope.endswith(("/rules/", "/faq/")) or scope == "rules/" for scope in scopes)  # never lab/, repl/, /
    for game in GAMES:
        assert reader.FIGURE in files[f"{game.name}/rules/"]
    for path in site.rglob("*.html"):  # every page registers it with its own folder as the scope
        page = path.read_text(encoding="utf-8")
        if "serviceWorker.register" in page:
            assert '{ scope: "./" }' in page


def test_a_game_without_its_rules_text_is_refused_by_name(tmp_path, monkeypatch):
    broken = dataclasses.replace(registry.game(GAMES[0].name), name="unwritten", rules="no-such-notebook.ipynb")
    monkeypatch.setitem(registry._registered, "unwritten", broken)
    with pytest.raises(ValueError, match="unwritten"):
        reader.write(tmp_path, [broken])
