"""HTML from templates (issue 22.4, issue 24.2): what a user or a file supplies reaches the page escaped, the looks
come from the one stylesheet, and the shared widgets' JavaScript and styles are files.

The hostile strings go in where the page takes text from outside: an uploaded file's name, the seed typed in the
set-up, an exercise file's id, question, reason and choices, and every text field of a save. After each, every
widget of the app is walked: nothing the page renders as HTML (an HTML widget's value, a RuleText's value and detail,
the rules panel, a description marked as HTML) holds an ``<img`` tag, and what holds the text as typed (a choice's
label, a description, a text box) is a widget that the page shows as text.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path

import ipywidgets as widgets
import pytest

from rulebook import app as app_module
from rulebook import registry
from rulebook.app import App
from rulebook.teach import exercises, rules_text
from rulebook.view import FILES as VIEW
from rulebook.view import markup
from rulebook.view import table as ui

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rulebook"
IMG = "<img src=x onerror=alert(1)>"
HOSTILE = [IMG, "x' onmouseover='alert(1)", 'y" onclick="alert(2)', "{{ 7*7 }}{% if true %}z{% endif %}"]
GAMES = list(registry.games())


def every_widget(root: widgets.Widget) -> Iterator[widgets.Widget]:
    """The widget and every widget inside it (boxes, tabs, accordions), each once."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        widget = stack.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        yield widget
        stack.extend(child for child in getattr(widget, "children", ()) if isinstance(child, widgets.Widget))


def as_html(widget: widgets.Widget) -> list[str]:
    """The texts of a widget that the page puts in as HTML."""
    found = []
    if isinstance(widget, (widgets.HTML, widgets.HTMLMath, ui.RuleText, app_module.RulesPanel)):
        found.append(widget.value)
    if isinstance(widget, ui.RuleText):
        found.append(widget.detail)
    if getattr(widget, "description_allow_html", False):
        found.append(widget.description)
    return [str(text) for text in found]


def as_text(widget: widgets.Widget) -> list[str]:
    """The texts of a widget that the page shows as text (ipywidgets sets them as textContent)."""
    found = [str(label) for label in getattr(widget, "_options_labels", ())]
    if not getattr(widget, "description_allow_html", False):
        found.append(str(getattr(widget, "description", "")))
    if isinstance(widget, (widgets.Text, widgets.Textarea, widgets.Label)):
        found.append(str(widget.value))
    return found


def assert_nothing_unescaped(root: widgets.Widget) -> None:
    for widget in every_widget(root):
        for text in as_html(widget):
            assert "<img" not in text, (type(widget).__name__, text[:300])
            assert "' onmouseover" not in text and '" onclick' not in text, (type(widget).__name__, text[:300])
            assert ">49<" not in text and "49z" not in text, "a template evaluated text it was given"
        if isinstance(widget, (widgets.HTML, widgets.HTMLMath, ui.RuleText, app_module.RulesPanel)):
            continue
        for text in as_text(widget):
            if "<img" in text:  # shown as typed: only where the page shows text, never HTML
                assert not getattr(widget, "description_allow_html", False), type(widget).__name__


def page_html(app: App) -> str:
    return "\n".join(text for widget in every_widget(app) for text in as_html(widget))


@pytest.fixture(scope="module")
def apps() -> dict[str, App]:
    return {game: App(game, seed=4) for game in GAMES}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("hostile", HOSTILE)
def test_an_uploaded_file_s_name_is_escaped_in_the_notices_and_the_about_line(apps, game, hostile):
    app = apps[game]
    name, text = app.saved()
    assert app.load(f"{hostile}.json", text.encode()), app.notice.value
    assert markup.escape(hostile) in app.notice.value and markup.escape(hostile) in app.about.value
    assert_nothing_unescaped(app)
    assert not app.load(f"{hostile}.json", b"{not json")
    assert f"Could not load {markup.escape(hostile)}.json" in app.notice.value
    assert_nothing_unescaped(app)


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_seed_is_escaped_in_the_refusal(apps, hostile):
    app = apps["claim"]
    app.seed_text.value = hostile
    try:
        assert not app.new_game()
        assert "Seed" in app.notice.value and app.setup_message.value == app.notice.value
        assert_nothing_unescaped(app)
    finally:
        app.seed_text.value = ""


def test_a_template_does_not_evaluate_the_text_it_is_given():
    html = markup.render("notice.html", kind="info", text="{{ 7*7 }} {% for x in y %}")
    assert html == "<div class='rb-notice rb-info'>{{ 7*7 }} {% for x in y %}</div>"
    with pytest.raises(Exception, match="kind"):  # a value a template needs and is not given is an error
        markup.render("notice.html", text="x")


def _hostile_exercises(tmp_path: Path, game: str, hostile: str) -> Path:
    data = json.loads(exercises.data_path(game).read_text(encoding="utf-8"))
    item = copy.deepcopy(data["exercises"][0])
    item.update(id=f"{hostile} 1", question=f"{hostile} which?", why=f"{hostile} because")
    item["choices"][item["answer"][0]]["label"] = f"{hostile} right"
    path = tmp_path / f"{game}.json"
    path.write_text(json.dumps({"game": game, "exercises": [item]}), encoding="utf-8")
    return path


@pytest.mark.parametrize("hostile", HOSTILE)
def test_an_exercise_file_s_texts_are_escaped_in_the_panel_and_on_the_board(apps, tmp_path, monkeypatch, hostile):
    game = next(name for name in GAMES if registry.game(name).exercises)
    path = _hostile_exercises(tmp_path, game, hostile)
    monkeypatch.setattr(exercises, "data_path", lambda _: path)
    exercises.exercises.cache_clear()
    try:
        app = App(game, seed=4)
        panel = app.exercises
        assert panel.current.id == f"{hostile} 1"
        assert markup.escape(hostile) in panel.question.value
        wrong = [i for i in range(len(panel.current.choices)) if i not in panel.current.answer]
        panel.choose(wrong[:1])
        assert not panel.check()
        assert markup.escape(f"{hostile} because") in panel.feedback.value
        assert markup.escape(f"{hostile} right") in panel.feedback.value  # the answer, told after a wrong one
        panel.choose(exercises.computed_answer(panel.current))
        assert panel.check() and markup.escape(f"{hostile} right") in panel.feedback.value
        assert_nothing_unescaped(panel)
        panel.show_button.click()
        assert f"exercise {markup.escape(hostile)} 1" in app.about.value
        assert markup.escape(hostile) in app.notice.value
        app.tabs.selected_index = App.EXERCISES_TAB
        assert_nothing_unescaped(app)
    finally:
        exercises.exercises.cache_clear()


def _strings(data, path=()):
    """The paths of every text in a save's JSON but the game's name (a save of another game is refused at once)."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _strings(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _strings(value, (*path, index))
    elif isinstance(data, str) and path != ("game",):
        yield path


def _replace(data, path, value):
    data = copy.deepcopy(data)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize("game", GAMES)
def test_every_text_field_of_a_save_is_escaped_whether_the_save_loads_or_not(apps, game):
    app = apps[game]
    board = app.board
    for _ in range(4):  # a few moves, so the history holds texts too
        moves = board.game.legal_moves(board.live)
        if moves:
            board.play(moves[0])
    data = json.loads(app.saved()[1])
    paths = list(_strings(data))
    assert paths, "a save with no text to try"
    echoed = 0
    for path in paths:
        for hostile in (IMG, "x' onmouseover='alert(1)"):
            loaded = app.load(f"save-{len(path)}.json", json.dumps(_replace(data, path, hostile)).encode())
            assert loaded or "Could not load" in app.notice.value
            echoed += markup.escape(hostile) in app.notice.value  # a refusal names the value it refused
            assert_nothing_unescaped(app)
    assert echoed, "no refusal told the value: nothing here was shown on the page"
    # and a field the save does not have, named with markup
    app.load("extra.json", json.dumps({**data, IMG: IMG}).encode())
    assert_nothing_unescaped(app)


def test_the_walk_finds_markup_that_was_not_escaped(apps):
    """The check above fails on what it is meant to catch: raw HTML in an HTML widget, or HTML in a description."""
    app = apps["claim"]
    saved = app.about.value
    app.about.value = f"<span>{IMG}</span>"
    try:
        with pytest.raises(AssertionError):
            assert_nothing_unescaped(app)
    finally:
        app.about.value = saved
    app.board.status.detail = IMG
    try:
        with pytest.raises(AssertionError):
            assert_nothing_unescaped(app)
    finally:
        app.board.status.detail = ""
    checkbox = widgets.Checkbox(description=IMG, description_allow_html=True)
    with pytest.raises(AssertionError):
        assert_nothing_unescaped(widgets.VBox([checkbox]))
    assert_nothing_unescaped(widgets.VBox([widgets.Checkbox(description=IMG), widgets.Dropdown(options=[IMG])]))


def test_rule_links_stay_links_after_escaping():
    game = GAMES[0]
    rule = next(iter(rules_text.paragraphs(game)))
    text = ui.RuleText(game).linked(f"{IMG} see {rule}")
    assert text.startswith("&lt;img src=x onerror=alert(1)&gt; see <a href='#' data-rule=") and rule in text
    assert isinstance(text, markup.Markup)
    # a Markup passed to a template is not escaped again
    assert markup.render("notice.html", kind="info", text=text).count("<a ") == 1


# --- the stylesheet and the scripts ------------------------------------------------------------------------------

# the app's parts (its estimate panel draws a plotly chart, whose hover template is plotly's markup, not the page's)
APP_PARTS = sorted(p.name for p in (PACKAGE / "app").glob("*.py") if p.name != "estimate_panel.py")
SHARED_MODULES = ("view/table.py", *(f"app/{name}" for name in APP_PARTS))
SHARED_MODULES += ("teach/exercises.py", "teach/rules_text.py", "setup.py")


@pytest.mark.parametrize("name", SHARED_MODULES)
def test_the_shared_modules_hold_no_html_no_inline_style_and_no_javascript(name):
    source = (PACKAGE / name).read_text(encoding="utf-8")
    assert not re.search(r"\bstyle\s*=\s*['\"]", source), "an inline style: a class in style.css instead"
    tags = re.findall(r"""["'][^"'\n]*</?(?:div|span|b|a|li|ol|h\d|br|style|script)[\s>/][^"'\n]*["']""", source)
    assert tags == [], f"HTML in a Python string: a template in rulebook/templates instead: {tags[:3]}"
    assert "export default" not in source, "JavaScript in a Python string: a .js file instead"


def _classes_in_templates(folder: Path) -> set[str]:
    found: set[str] = set()
    for template in folder.glob("*.html"):
        text = re.sub(r"\{#.*?#\}", "", template.read_text(encoding="utf-8"), flags=re.S)
        for attribute in re.findall(r"class='([^']*)'", text):
            # a class built in the template ("rb-{{ kind }}") is checked through its possible values below
            found |= {name for name in re.sub(r"\{\{.*?\}\}", " ", attribute).split() if not name.endswith("-")}
            found |= set(re.findall(r'"\s*(rb-[\w-]+)"', attribute))
    return found


def test_every_class_the_shared_templates_use_is_in_the_stylesheet():
    stylesheet = markup.STYLESHEET.read_text(encoding="utf-8")
    defined = set(re.findall(r"\.([A-Za-z][\w-]*)", re.sub(r"/\*.*?\*/", "", stylesheet, flags=re.S)))
    used = _classes_in_templates(VIEW / "templates") | {"rb-info", "rb-error"}  # the kinds of "rb-{{ kind }}"
    assert used and used <= defined, sorted(used - defined)
    for script in ("rules_panel.js", "save_button.js"):
        for name in re.findall(r"\"(rulebook-[\w-]+)\"", (VIEW / script).read_text(encoding="utf-8")):
            assert name in defined, (script, name)
    assert "style=" not in "".join(p.read_text(encoding="utf-8") for p in (VIEW / "templates").glob("*.html"))


@pytest.mark.parametrize(
    ("widget_class", "script"),
    [
        (ui.RuleText, "rule_text.js"),
        (app_module.RulesPanel, "rules_panel.js"),
        (app_module.SaveButton, "save_button.js"),
    ],
)
def test_the_shared_anywidgets_load_their_script_and_the_stylesheet_from_files(widget_class, script):
    state = widget_class().get_state()
    assert state["_esm"] == (VIEW / script).read_text(encoding="utf-8")
    assert state["_css"] == markup.STYLESHEET.read_text(encoding="utf-8")


def test_every_board_brings_the_stylesheet_with_its_status_line():
    game = registry.game(GAMES[0])
    board = game.board_class()(game.new_state(game.default_players, 1, {}), seed=1)
    assert board.status.get_state()["_css"] == markup.STYLESHEET.read_text(encoding="utf-8")
