"""Phones and tablets (issue 47), without a browser: the app and the boards name the parts style.css reflows; the side
tabs open their panel when the kernel chooses one (the page closes it); the toolbar's Menu; the stylesheet's narrow
page leaves no text under 12 px; the page's zoom stays allowed; Meetjesland's names give way to its pieces.
tests/e2e/test_mobile.py plays every game by taps at a phone's and a tablet's size."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulebook.app import App
from rulebook.view import FILES as VIEW
from rulebook.view.table import close_widgets

STYLE = (VIEW / "style.css").read_text()
GAMES = ("meetjesland", "kingdom_builder", "ab_die_post", "claim")


def media_block(query: str) -> str:
    """The text of the stylesheet's ``@media`` blocks whose query is ``query``, one after another."""
    found, at = [], STYLE.find(f"@media {query}")
    while at >= 0:
        start = STYLE.index("{", at)
        depth, end = 0, start
        for end in range(start, len(STYLE)):
            depth += {"{": 1, "}": -1}.get(STYLE[end], 0)
            if depth == 0:
                break
        found.append(STYLE[start + 1 : end])
        at = STYLE.find(f"@media {query}", end)
    assert found, query
    return "\n".join(found)


def rules(css: str) -> list[tuple[str, str]]:
    """(selectors, declarations) of each plain rule of ``css`` (the @media blocks' own rules excluded)."""
    plain = re.sub(r"@media[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", "", re.sub(r"/\*.*?\*/", "", css, flags=re.S))
    return [(selectors.strip(), body) for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", plain)]


@pytest.fixture(params=GAMES)
def app(request):
    made = App(request.param, seed=3)
    yield made
    close_widgets(made)


def classes(widget) -> set[str]:
    return set(widget._dom_classes)


def descendants(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from descendants(child)


def test_the_app_names_its_toolbar_body_and_side_panel(app):
    body = next(child for child in app.children if "rulebook-body" in classes(child))
    assert list(body.children) == [app.board_box, app.tabs]
    assert "rulebook-side" in classes(app.tabs)
    toolbar = next(child for child in app.children if "rulebook-toolbar" in classes(child))
    assert app.menu_button in toolbar.children and app.panel_bar in toolbar.children
    assert "rulebook-title" in classes(toolbar.children[0])


def test_menu_opens_and_closes_the_toolbar(app):
    toolbar = next(child for child in app.children if "rulebook-toolbar" in classes(child))
    assert "rb-menu-open" not in classes(toolbar)
    app.menu_button.value = True
    assert "rb-menu-open" in classes(toolbar)
    app.menu_button.value = False
    assert "rb-menu-open" not in classes(toolbar)


def test_a_tab_the_kernel_chooses_opens_its_panel_even_the_one_chosen_and_a_tap_in_the_page_does_not(app):
    opened = app.panel_bar.opened
    app.tabs.selected_index = app.RULES_TAB
    assert app.panel_bar.opened == opened + 1
    app.tabs.selected_index = app.RULES_TAB  # the same tab again (a second rule link): its panel opens again
    assert app.panel_bar.opened == opened + 2
    app.tabs.set_state({"selected_index": app.SETUP_TAB})  # a tap in the page: the page opened it already
    assert app.tabs.selected_index == app.SETUP_TAB and app.panel_bar.opened == opened + 2
    with pytest.raises(Exception, match="out of bounds"):
        app.tabs.selected_index = len(app.tabs.children)  # ipywidgets' own check still holds


def test_every_board_names_its_figure_controls_and_main_row(app):
    board = app.board
    named = {name: [w for w in descendants(board) if name in classes(w)] for name in ("rulebook-main",)}
    (main,) = named["rulebook-main"]
    controls = [w for w in main.children if "rulebook-controls" in classes(w)]
    assert len(controls) == 1
    # the figure is in the main row: directly, or at the head of its column with the legend
    column = [w for w in main.children if "rulebook-figure-column" in classes(w)]
    holder = column[0].children if column else main.children
    assert board.figure in holder
    # the status line is the board's own line above the row, or the first of the controls (Claim)
    assert board.status in board.children or board.status is controls[0].children[0]


def test_no_text_under_12_px_on_a_narrow_page():
    """Every rule outside the @media blocks that sets a font under 12 px is raised to 12 px or more in the narrow
    page's block, and that block sets no font under 12 px itself."""
    narrow = media_block("(max-width: 700px) {")
    raised: dict[str, float] = {}
    for selectors, body in rules(narrow):
        size = re.search(r"font-size:\s*([\d.]+)px", body)
        if size:
            assert float(size.group(1)) >= 12, (selectors, body)
            for selector in selectors.split(","):
                raised[" ".join(selector.split())] = float(size.group(1))
    small = []
    for selectors, body in rules(STYLE):
        size = re.search(r"font-size:\s*([\d.]+)px", body)
        if size and float(size.group(1)) < 12:
            small += [" ".join(selector.split()) for selector in selectors.split(",")]
    assert small, "the stylesheet was expected to hold the desktop's 11 px legends and tables"
    assert [selector for selector in small if selector not in raised] == []


def test_the_narrow_page_and_the_stacked_panel_are_in_the_stylesheet():
    stacked = media_block("(max-width: 1023px) {")
    assert ".rulebook-body { flex-direction: column" in stacked
    assert ".rulebook-side:not(.rb-panel-open) > .widget-tab-contents { display: none" in stacked
    narrow = media_block("(max-width: 700px) {")
    assert ".rulebook-toolbar:not(.rb-menu-open)" in narrow
    touch = media_block("(max-width: 700px), (pointer: coarse) {")
    assert "min-height: 44px" in touch and "min-width: 44px" in touch


def test_the_page_s_zoom_stays_allowed():
    """Voila's pages (the app's template extends nbconvert's, which sets the viewport) never forbid a pinch."""
    from rulebook.serve import voila_app

    folder = Path(voila_app.__file__).with_name("voila_templates")
    for template in folder.iterdir():
        text = template.read_text()
        assert "user-scalable" not in text and "maximum-scale" not in text, template
    assert 'name="viewport" content="width=device-width, initial-scale=1.0"' in (folder / "page.html").read_text()


def test_meetjesland_s_names_give_way_to_its_pieces():
    from rulebook.meetjesland import widget

    layers = {name: style for name, _mode, style in widget.LAYERS}
    assert layers["names"]["meta"] == {"declutter": ["territories"]}
    assert layers["leaders"]["meta"] == {"declutter": ["territories"]}
    assert "territories" in layers  # the pieces the names must not cover
