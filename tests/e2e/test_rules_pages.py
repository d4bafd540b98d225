"""The rules pages (rulebook/site/reader.py) in Chromium: written into a temporary folder as ``make site`` writes them,
served by Python's static server on 127.0.0.1, every other host unreachable. Each page is opened in an empty browser
(a cold context): its first paragraph must be on the screen within a second of the navigation. An anchor opens its
paragraph, the copy button copies the paragraph's address (or selects it where there is no clipboard), a phone shows
the whole width without sideways scrolling, and a page visited once opens again offline. Screenshots go to
.e2e/rules-<game>.png and .e2e/rules-phone.png, the times to .e2e/rules_timings.md."""

from __future__ import annotations

import functools
import http.server
import threading
import time

import pytest

from rulebook import registry
from rulebook.app.rules import rules_html
from rulebook.site import reader
from rulebook.teach import rules_text
from rulebook.view import FILES as VIEW

from .conftest import SHOTS

GAMES = [game.name for game in registry.games().values()]
PHONE = {"width": 390, "height": 844}
NARROWEST = {"width": 360, "height": 740}
PARAGRAPH = "article.rule"


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # the test's output stays the test's
        pass


@pytest.fixture(scope="module")
def rules_site(tmp_path_factory):
    """The rules pages in a folder of their own, served on 127.0.0.1 (a thread of this process, stopped after)."""
    folder = tmp_path_factory.mktemp("rules-site")
    reader.write(folder, registry.games().values())
    # a JupyterLite app's page (the REPL the game pages frame), which names the site's root, and a page that does not
    (folder / "repl").mkdir()
    config = '<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root="..">{}</script>'
    (folder / "repl" / "index.html").write_text(f"<!doctype html><html><head>{config}</head><body></body></html>")
    # a stand-in for JupyterLite's service worker, which JupyterLite registers at the site's root (scope: all of it)
    (folder / "service-worker.js").write_text("self.addEventListener('fetch', () => {});\n")
    (folder / "plain").mkdir()
    (folder / "plain" / "index.html").write_text("<!doctype html><html><head></head><body></body></html>")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def timings():
    rows: list[str] = []
    yield rows
    SHOTS.mkdir(exist_ok=True)
    header = "| page | first paint (ms) | paragraph visible, from before the navigation (ms) |\n| --- | --- | --- |\n"
    (SHOTS / "rules_timings.md").write_text(header + "\n".join(rows) + "\n")


def failures(page) -> list[str]:
    """Every request of the page that failed (a missing file but the search's, which another part of the build
    writes: the page must read without it)."""
    failed: list[str] = []
    page.on(
        "requestfailed",
        lambda request: failed.append(f"{request.url}: {request.failure}") if "/search/" not in request.url else None,
    )
    page.on(
        "response",
        lambda response: (
            failed.append(f"{response.url}: {response.status}")
            if response.status >= 400 and "/search/" not in response.url
            else None
        ),
    )
    return failed


@pytest.mark.parametrize("game", GAMES)
def test_a_cold_browser_reads_the_rules_within_a_second(chromium, rules_site, timings, game):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        failed = failures(page)
        started = time.perf_counter()
        page.goto(f"{rules_site}/{game}/rules/", wait_until="commit")
        page.locator(PARAGRAPH).first.wait_for(state="visible")
        visible = time.perf_counter() - started
        paint = page.evaluate(
            "() => new Promise((done) => new PerformanceObserver((list, observer) => {"
            "  const entry = list.getEntriesByName('first-contentful-paint')[0];"
            "  if (entry) { observer.disconnect(); done(entry.startTime); }"
            "}).observe({type: 'paint', buffered: true}))"
        )
        timings.append(f"| {game} | {paint:.0f} | {visible * 1000:.0f} |")
        assert paint < 1000, f"{game}: first paint {paint:.0f} ms after the navigation"
        assert visible < 1.0, f"{game}: the first paragraph was visible {visible:.2f} s after the navigation"
        assert page.locator(PARAGRAPH).count() == len(rules_text.paragraphs(game))
        image = page.locator("figure.board img")
        image.scroll_into_view_if_needed()
        assert page.evaluate("(img) => img.complete && img.naturalWidth > 0", image.element_handle())
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(SHOTS / f"rules-{game}.png"))
        assert not failed, failed
    finally:
        context.close()


def test_an_anchor_opens_its_paragraph_and_the_index_finds_any_id(chromium, rules_site):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{rules_site}/meetjesland/rules/#MJ-5.3")
        top = page.evaluate("document.getElementById('MJ-5.3').getBoundingClientRect().top")
        assert 0 <= top < 60, top  # scrolled to it (its scroll margin above)
        assert page.evaluate("document.querySelector(':target').id") == "MJ-5.3"
        # an id alone is an address: rules/#CL-C4 goes to Claim's page, at that paragraph
        page.goto(f"{rules_site}/rules/#CL-C4")
        page.wait_for_url(f"{rules_site}/claim/rules/#CL-C4")
        page.locator("#CL-C4").wait_for(state="visible")
        assert page.evaluate("document.querySelector(':target').id") == "CL-C4"
        # a rule id in the text is a link to its paragraph
        page.locator("#CL-C4 a.rule-ref").filter(has_not_text="CL-C4").first.click()
        target = page.evaluate("document.querySelector(':target').id")
        assert target != "CL-C4" and target.startswith("CL-")
    finally:
        context.close()


def test_the_copy_button_copies_the_paragraph_s_address(chromium, rules_site):
    context = chromium.new_context(permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        page.goto(f"{rules_site}/claim/rules/")
        button = page.get_by_role("button", name="Copy the link to CL-4.2")
        button.click()
        page.get_by_role("status").filter(has_text="Copied the link to CL-4.2").wait_for()
        assert page.evaluate("navigator.clipboard.readText()") == f"{rules_site}/claim/rules/#CL-4.2"
        assert page.url.endswith("#CL-4.2")
    finally:
        context.close()
    # no clipboard (an old browser, an http address that is not this computer): the address is selected instead
    context = chromium.new_context()
    try:
        context.add_init_script("Object.defineProperty(navigator, 'clipboard', { value: undefined })")
        page = context.new_page()
        page.goto(f"{rules_site}/claim/rules/")
        page.get_by_role("button", name="Copy the link to CL-4.2").click()
        field = page.locator("#CL-4\\.2 input.address")
        assert field.input_value() == f"{rules_site}/claim/rules/#CL-4.2"
        assert page.evaluate("window.getSelection().toString() || document.activeElement.value") == field.input_value()
    finally:
        context.close()


@pytest.mark.parametrize("size", [PHONE, NARROWEST], ids=["390", "360"])
def test_a_phone_reads_every_page_without_sideways_scrolling(chromium, rules_site, size):
    context = chromium.new_context(viewport=size, is_mobile=True, has_touch=True, device_scale_factor=2)
    try:
        page = context.new_page()
        for path in [f"{game}/rules/" for game in GAMES] + ["rules/", f"{GAMES[0]}/rules/research.html"]:
            page.goto(f"{rules_site}/{path}")
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= size["width"], f"{path}: {wide} px wide on a {size['width']} px screen"
            smallest = page.evaluate(
                "Math.min(...[...document.querySelectorAll('main p, main li, main a, main dd, main td, summary, "
                "figcaption')].filter((e) => e.offsetParent && e.textContent.trim())"
                ".map((e) => parseFloat(getComputedStyle(e).fontSize)))"
            )
            assert smallest >= 12, f"{path}: text of {smallest} px"
        page.goto(f"{rules_site}/meetjesland/rules/")
        outline = page.locator("details#outline")
        assert not outline.evaluate("(details) => details.open")  # folded at the top of the page on a phone
        if size is PHONE:
            page.screenshot(path=str(SHOTS / "rules-phone.png"))
        page.locator("details#outline summary").click()
        page.locator("details#outline a[href='#MJ-C7']").click()
        assert not outline.evaluate("(details) => details.open")  # a choice folds it again
        top = page.evaluate("document.getElementById('MJ-C7').getBoundingClientRect().top")
        assert 0 <= top < 60, top
    finally:
        context.close()


def test_a_page_visited_once_opens_offline_and_its_worker_keeps_to_the_rules(chromium, rules_site):
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(f"{rules_site}/plain/")  # JupyterLite's worker first, as after a visit to a game's page
        page.evaluate("navigator.serviceWorker.register('../service-worker.js', { scope: '../' })")
        page.evaluate("navigator.serviceWorker.ready")
        page.goto(f"{rules_site}/kingdom_builder/rules/")
        page.wait_for_function(
            "navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL.endsWith('rules-sw.js')"
        )  # the rules' worker took its page (the most specific scope wins)
        workers = page.evaluate(
            "navigator.serviceWorker.getRegistrations().then((all) => all.map((r) => [r.scope, r.active.scriptURL]))"
        )
        assert sorted(workers) == [  # JupyterLite's keeps the root; the rules' own has the rules folder only
            [f"{rules_site}/", f"{rules_site}/service-worker.js"],
            [f"{rules_site}/kingdom_builder/rules/", f"{rules_site}/rules-sw.js"],
        ]
        context.set_offline(True)
        again = context.new_page()
        again.goto(f"{rules_site}/kingdom_builder/rules/#KB-C12.4")
        again.locator("#KB-C12\\.4").wait_for(state="visible")
        assert again.evaluate("getComputedStyle(document.body).fontFamily").startswith("system-ui")  # the stylesheet
        image = again.locator("figure.board img")
        image.scroll_into_view_if_needed()
        assert again.evaluate("(img) => img.complete && img.naturalWidth > 0", image.element_handle())
        # another game's page, never visited, is not there offline: the worker keeps what was read
        with pytest.raises(Exception):
            again.goto(f"{rules_site}/claim/rules/")
    finally:
        context.close()


# the app's rule texts (rule_text.js: the status line, the log, the Learn steps, the exercises) and its Rules tab
# (rules_panel.js), rendered on a page with a model holding the synced values
HARNESS = """
async ([source, values]) => {
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  const widget = (await import(url)).default;
  const model = { get: (key) => values[key], on() {}, set() {}, save_changes() {}, send() {} };
  widget.initialize?.({ model });
  const el = document.createElement("div");
  document.body.append(el);
  widget.render({ model, el });
}
"""


def test_the_app_s_rule_ids_open_their_paragraph_on_the_rules_page(chromium, rules_site):
    text = str(rules_text.rule_links("Refused by CL-4.2.", rules_text.paragraphs("claim")))
    rule_text = (VIEW / "rule_text.js").read_text()
    panel = (VIEW / "rules_panel.js").read_text()
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(f"{rules_site}/plain/")  # outside the site's JupyterLite: the links stay the app's own
        page.evaluate(HARNESS, [rule_text, {"value": text, "detail": "", "_dom_classes": []}])
        assert page.locator("a[data-rule='CL-4.2']").count() == 1
        assert page.locator("a.rb-rule-page").count() == 0
        page.goto(f"{rules_site}/repl/index.html")  # in the site's REPL, where the game pages run the app
        page.evaluate(HARNESS, [rule_text, {"value": text, "detail": "", "_dom_classes": []}])
        out = page.get_by_role("link", name="Open CL-4.2 on the rules page")
        assert out.get_attribute("href") == f"{rules_site}/rules/#CL-4.2"
        with context.expect_page() as opened:
            out.click()
        tab = opened.value
        tab.wait_for_url(f"{rules_site}/claim/rules/#CL-4.2")
        tab.locator("#CL-4\\.2").wait_for(state="visible")
        assert tab.evaluate("document.querySelector(':target').id") == "CL-4.2"
        # the Rules tab: each paragraph's own id gets the link, not every id it cites
        page.goto(f"{rules_site}/repl/index.html")
        page.evaluate(HARNESS, [panel, {"value": str(rules_html("claim")), "focus": ""}])
        links = page.locator(".rulebook-rules a.rb-rule-page")
        assert links.count() == len(rules_text.paragraphs("claim"))
        assert links.first.get_attribute("href") == f"{rules_site}/rules/#{next(iter(rules_text.paragraphs('claim')))}"
    finally:
        context.close()
