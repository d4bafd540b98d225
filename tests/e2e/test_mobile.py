"""Phones and tablets (issue 47), in Chromium's mobile emulation (touch, a phone's viewport and pixel ratio): each
game's app, as `rulebook app` serves it, played ten moves by taps at 390x844 (a phone) and at 820x1180 (a tablet in
portrait). After each move the board is inside the screen and uncovered where the finger went (the element under
the tap is the board's figure), the status line is on screen, and nothing scrolls sideways; the board and the move's
controls share the first screen; the controls are at least 44 CSS px high; a long press on a place shows what the
keyboard hears there and plays nothing; axe-core finds nothing serious or critical in the rulebook's elements.
Screenshots: .e2e/mobile-<game>-phone.png and -tablet.png, and beside each (.md) the figure's scale, its smallest
place's target and its smallest text, measured.

The website's variant plays the same taps on each game's page of the built site (the same app in the browser's own
Python, in the REPL's frame): conftest's ``server`` builds the site once a run (`make site`), as tests/e2e/test_site.py
does, or serves RULEBOOK_SITE=<folder>. The helpers below take the app's page, or the site's app frame."""

from __future__ import annotations

import json
import math
import time

import pytest

from .conftest import CHROMIUM, FLAGS, SHOTS
from .test_access import PLACES, after_key, axe_findings, person_to_move, status

GAMES = ("meetjesland", "kingdom_builder", "ab_die_post", "claim")
SIZES = {"phone": (390, 844, 3), "tablet": (820, 1180, 2)}  # CSS px wide, high; device pixels per CSS px
BOARD = ".rulebook-app .rulebook-board .rulebook-figure svg .trace .point"
FIGURE = ".rulebook-app .rulebook-board .rulebook-figure"
PANEL = ".rulebook-app .rulebook-side > .widget-tab-contents"
TARGET = 44  # CSS px: the least size of a target for a finger (WCAG 2.5.5)

# where a place is drawn on the page (CSS px of the viewport), from board.js's figure pixels and the figure's scale
WHERE = """(place) => { const svg = document.querySelector('.rulebook-app .rulebook-board .rulebook-figure svg');
  const box = svg.getBoundingClientRect(); const scale = box.width / svg.viewBox.baseVal.width;
  return {x: box.left + place.x * scale, y: box.top + place.y * scale, scale}; }"""
UNDER = (
    "([x, y]) => Boolean(document.elementFromPoint(x, y)?.closest('.rulebook-app .rulebook-board .rulebook-figure'))"
)
# the viewport's sideways overflow: the page, Voila's scrolling cells, and any element of the app past its right edge
SIDEWAYS = """() => { const out = []; const width = document.documentElement.clientWidth;
  for (const e of [document.documentElement, document.body, document.getElementById('rendered_cells')]) {
    if (e && e.scrollWidth > e.clientWidth + 1) out.push(`${e.tagName}#${e.id}: ${e.scrollWidth} > ${e.clientWidth}`); }
  for (const e of document.querySelectorAll('.rulebook-app *')) {
    const box = e.getBoundingClientRect();
    if (!box.width || !box.height || e.closest('.rulebook-figure-keys, .rulebook-figure-legend-keys, .lm-mod-hidden'))
      continue;
    const style = getComputedStyle(e);
    if (style.visibility === 'hidden' || style.position === 'fixed') continue;
    if (box.right > width + 1) out.push(`${e.tagName}.${String(e.className).slice(0, 60)}: right ${box.right}`); }
  return out.slice(0, 5); }"""
SMALL_CONTROLS = """(least) => [...document.querySelectorAll(
    '.rulebook-app .rulebook-board button:not(.rulebook-figure-place), .rulebook-app .rulebook-board select,'
    + ' .rulebook-app .rulebook-board input[type=range], .rulebook-app .rulebook-toolbar button,'
    + ' .rulebook-app .rulebook-side .lm-TabBar-tab')]
  .filter((e) => e.getClientRects().length && !e.closest('.lm-mod-hidden, .rulebook-figure-legend-keys'))
  .map((e) => [e.getAttribute('aria-label') || e.innerText.trim() || e.tagName, e.getBoundingClientRect()])
  .filter(([, box]) => box.width && (box.height < least || box.width < least))
  .map(([name, box]) => `${name}: ${Math.round(box.width)}x${Math.round(box.height)}`)"""
SMALL_TEXT = """(least) => { const out = new Set();
  for (const e of document.querySelectorAll('.rulebook-app .rulebook-board *, .rulebook-app .rulebook-toolbar *')) {
    if (!e.getClientRects().length || e.closest('.rulebook-figure-keys, .rulebook-figure-legend-keys, .lm-mod-hidden'))
      continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const size = e.tagName === 'text' ? e.getBoundingClientRect().height / 1.2
      : parseFloat(getComputedStyle(e).fontSize);
    if (e.tagName !== 'text' && size < least) out.add(`${e.tagName}.${String(e.className).slice(0, 30)} ${size}px`); }
  return [...out].slice(0, 5); }"""
SVG_TEXT = """() => { const svg = document.querySelector('.rulebook-app .rulebook-board .rulebook-figure svg');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return Math.min(...[...svg.querySelectorAll('text')].map((t) => Number(t.getAttribute('font-size')) * scale)); }"""


@pytest.fixture(scope="module")
def mobile(playwright):
    """Chromium's mobile emulation: a context of its own for each size (touch, a phone's pixel ratio)."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
    contexts = {}

    def context(size: str):
        if size not in contexts:
            width, height, ratio = SIZES[size]
            contexts[size] = browser.new_context(
                viewport={"width": width, "height": height},
                device_scale_factor=ratio,
                is_mobile=True,
                has_touch=True,
                reduced_motion="reduce",  # the computer's replies at once, as in the other tests
            )
        return contexts[size]

    try:
        yield context
    finally:
        for each in contexts.values():
            each.close()
        browser.close()


def places(page) -> list[dict]:
    return page.evaluate(PLACES)


def finger(app) -> tuple[object, float, float]:
    """The page whose touchscreen taps the app, and where the app's frame sits in it (0, 0 but on the website)."""
    if getattr(app, "parent_frame", None) is None:
        return getattr(app, "page", app), 0.0, 0.0
    box = app.frame_element().bounding_box()
    return app.page, box["x"], box["y"]


def in_view(page, box: dict) -> bool:
    """``box`` (Playwright's: the screen's CSS px) is on the screen of the page that holds the app."""
    width, height = finger(page)[0].evaluate("() => [document.documentElement.clientWidth, innerHeight]")
    return box["x"] >= -1 and box["x"] + box["width"] <= width + 1 and box["y"] >= -1 and box["y"] < height


def check_screen(page, where: str) -> None:
    """Nothing scrolls sideways (the page, nor the website's app frame in it); the status line is on screen and
    inside its width."""
    sideways = page.evaluate(SIDEWAYS)
    assert not sideways, f"{where}: wider than the screen: {sideways}"
    outer, _, _ = finger(page)
    if outer is not page:
        wide = outer.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert wide[0] <= wide[1] + 1, f"{where}: the website's page scrolls sideways: {wide}"
        frame = page.frame_element().bounding_box()
        assert frame["x"] >= -1 and frame["x"] + frame["width"] <= wide[1] + 1, f"{where}: the app's frame: {frame}"
    line = page.locator(".rulebook-app .rulebook-board .rulebook-status").first
    line.scroll_into_view_if_needed()
    box = line.bounding_box()
    assert box and in_view(page, box), f"{where}: the status line is off screen: {box}"


def tap_place(page, wanted) -> str:
    """Tap the first place whose keyboard label ``wanted`` accepts, where the board draws it; the status after. The
    element under the finger must be the board's figure (nothing covers it) and the figure inside the screen."""
    goal = next((place for place in places(page) if wanted(place["label"])), None)
    assert goal is not None, [place["label"] for place in places(page)][:20]
    page.locator(FIGURE).first.scroll_into_view_if_needed()
    figure = page.locator(FIGURE).first.bounding_box()
    width = finger(page)[0].evaluate("() => document.documentElement.clientWidth")
    assert figure["x"] >= -1 and figure["x"] + figure["width"] <= width + 1, f"the board is cut off: {figure}"
    point = page.evaluate(WHERE, goal)
    if not 0 <= point["y"] < page.evaluate("() => innerHeight") and getattr(page, "parent_frame", None) is None:
        page.evaluate("(y) => document.getElementById('rendered_cells')?.scrollBy(0, y - innerHeight / 2)", point["y"])
        page.evaluate("(y) => window.scrollBy(0, y - innerHeight / 2)", point["y"])
        point = page.evaluate(WHERE, goal)
    assert page.evaluate(UNDER, [point["x"], point["y"]]), f"something covers the board at {point}"
    before, drawn = status(page), places(page)
    screen, left, top = finger(page)
    screen.touchscreen.tap(left + point["x"], top + point["y"])
    return after_key(page, before, drawn)


def tap_button(page, text: str) -> str:
    """Tap the enabled button of the board or the app reading ``text``; the status after."""
    button = page.locator(
        f".rulebook-app button:not(.rulebook-figure-place):not([disabled]):text-is('{text}'):visible"
    ).first
    button.scroll_into_view_if_needed()
    before, drawn = status(page), places(page)
    button.tap()
    return after_key(page, before, drawn)


def meetjesland_move(page) -> str:
    person_to_move(page)
    if "place" in status(page).lower() and any("you may place here" in p["label"] for p in places(page)):
        tap_place(page, lambda label: "you may place here" in label)
        more = page.locator(".rulebook-app .rb-mj-amount-step[aria-label='one more: Points']").first
        if more.is_enabled():  # the + and − buttons beside Points (amount.js): one more, then one less
            more.tap()
            page.locator(".rulebook-app .rb-mj-amount-step[aria-label='one less: Points']").first.tap()
        return tap_button(page, "Place")
    if "press Reinforce" in status(page):
        return tap_button(page, "Reinforce")
    return tap_button(page, "End turn")


def kingdom_builder_move(page) -> str:
    person_to_move(page)

    def build(label: str) -> bool:  # a ringed hex that is no location (a tile's ring chooses the tile)
        return "; legal" in label and "location" not in label.lower()

    if any(build(place["label"]) for place in places(page)):
        return tap_place(page, build)
    return tap_button(page, "End turn")


def ab_die_post_move(page) -> str:
    person_to_move(page)
    now = status(page)
    if "click an orange ring" in now:
        return tap_place(page, lambda label: "fly here" in label)
    for cue, button in (("click Stay put", "Stay put"), ("or Fly (", "Fly"), ("or Stop drawing", "Stop drawing")):
        if cue in now:
            return tap_button(page, button)
    if "Play choice" in now:
        return tap_button(page, "Play choice")
    return tap_button(page, "Draw a card")


def claim_move(page) -> str:
    person_to_move(page)
    if "place" in status(page) and "tower" not in status(page):
        return tap_place(page, lambda label: "piece" not in label)
    if "remove" in status(page):
        return tap_place(page, lambda label: "piece on" in label and "red piece" not in label)
    return tap_button(page, "Stop")


TAPS = {
    "meetjesland": meetjesland_move,
    "kingdom_builder": kingdom_builder_move,
    "ab_die_post": ab_die_post_move,
    "claim": claim_move,
}


def long_press(page, x: float, y: float, seconds: float = 0.8) -> None:
    """A finger held on (x, y) of the app's page or frame: touch events through the DevTools protocol (Playwright
    taps only)."""
    screen, left, top = finger(page)
    session = screen.context.new_cdp_session(screen)
    point = [{"x": left + x, "y": top + y}]
    session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
    time.sleep(seconds)
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    session.detach()


def target_sizes(page) -> tuple[float, float]:
    """The smallest place's target (CSS px): twice the reach of a tap (22 px, or half the way to the nearest other
    place where that is nearer), and the figure's scale."""
    drawn = places(page)
    scale = page.evaluate(WHERE, drawn[0])["scale"]
    nearest = min(min(math.hypot(a["x"] - b["x"], a["y"] - b["y"]) for b in drawn if b is not a) * scale for a in drawn)
    return min(TARGET, nearest), scale


def play_ten_moves_by_taps(page, game: str, size: str, suffix: str = "") -> None:
    """The checks of a phone's or a tablet's first screen, a long press, and ten moves played by taps, each followed
    by the screen's checks; ``page``: the app's page, or the website's app frame."""
    where = f"{game} {size}{' (website)' if finger(page)[0] is not page else ''}"

    # the first screen: the whole board and the first of the move's controls, no scrolling
    figure = page.locator(FIGURE).first.bounding_box()
    assert in_view(page, figure) and figure["y"] + figure["height"] <= SIZES[size][1] + 1, (where, figure)
    control = page.locator(".rulebook-app .rulebook-board .rulebook-controls button:visible").first.bounding_box()
    assert control and control["y"] < SIZES[size][1], f"{where}: the move's controls are below the first screen"
    check_screen(page, where)
    assert not page.evaluate(SMALL_CONTROLS, TARGET), f"{where}: {page.evaluate(SMALL_CONTROLS, TARGET)}"
    if size == "phone":
        assert not page.evaluate(SMALL_TEXT, 12), f"{where}: text under 12 px: {page.evaluate(SMALL_TEXT, 12)}"
        assert page.evaluate(SVG_TEXT) >= 11.9, f"{where}: the board's text is {page.evaluate(SVG_TEXT)} px"
        # the toolbar is one row: the title (on two lines if long), Menu and Hint side by side
        menu = page.locator(".rulebook-app .rulebook-menu-button").first.bounding_box()
        hint = page.locator(".rulebook-app .rulebook-hint").first.bounding_box()
        assert menu and hint and abs(menu["y"] - hint["y"]) < 2, f"{where}: Hint on a row of its own ({menu}, {hint})"

    # a long press shows what the keyboard hears at the place, and plays nothing
    person_to_move(page)
    first = places(page)[len(places(page)) // 2]
    point = page.evaluate(WHERE, first)
    before = status(page)
    long_press(page, point["x"], point["y"])
    label = page.locator(f"{FIGURE} .rulebook-figure-label").first
    assert label.is_visible(), f"{where}: a long press showed nothing"
    said = " ".join(label.inner_text().split())
    assert said and said.split(",")[0] in first["label"], (said, first["label"])
    time.sleep(1)
    assert status(page) == before, f"{where}: the long press played a move"

    smallest, scale = target_sizes(page)
    (SHOTS / f"mobile-{game}-{size}{suffix}.md").write_text(
        f"{where}: the board drawn at {scale:.2f} of its size; its smallest place's target {smallest:.0f} CSS px"
        f" (a tap within 22 px of a place, or half the way to a nearer one); its smallest text"
        f" {page.evaluate(SVG_TEXT):.1f} CSS px\n"
    )

    moves = 0
    for _ in range(40):
        if "Game over" in person_to_move(page):  # the app's game has a new seed each visit: a computer may win
            assert "Game over" not in tap_button(page, "New game")
            continue
        told = TAPS[game](page)
        assert "Refused" not in told and "Traceback" not in told, (where, told)
        moves += 1
        check_screen(page, f"{where}, move {moves}")
        if moves >= 10:
            break
    assert moves >= 10


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", GAMES)
def test_ten_moves_by_taps(game, size, mobile, apps):
    page = mobile(size).new_page()
    try:
        page.goto(apps(game), wait_until="commit", timeout=120_000)
        page.wait_for_selector(BOARD, timeout=180_000)
        page.locator(".rulebook-app .rulebook-status").first.wait_for(timeout=60_000)
        page.locator(".rulebook-app .rulebook-figure-place").first.wait_for(state="attached", timeout=60_000)
        time.sleep(1)  # the figure drawn again at the width the page gives it (board.js's ResizeObserver)
        play_ten_moves_by_taps(page, game, size)
        where = f"{game} {size}"
        page.evaluate("() => { document.getElementById('rendered_cells')?.scrollTo(0, 0); window.scrollTo(0, 0); }")
        page.screenshot(path=SHOTS / f"mobile-{game}-{size}.png")
        ours, _ = axe_findings(page, f"app {game} ({size}, touch)")
        assert not ours, ours
        # the narrowest phone, and the widths between a phone and a desk: nothing scrolls sideways
        for width in (360,) if size == "phone" else (701, 1023):
            page.set_viewport_size({"width": width, "height": SIZES[size][1]})
            time.sleep(0.5)
            check_screen(page, f"{game} at {width} px wide")
        page.set_viewport_size({"width": SIZES[size][0], "height": SIZES[size][1]})
        # the side panels: a tap on a tab opens its panel under the board, a second tap closes it again (the first
        # tab, Set-up, is the one chosen when the page opens, its panel closed)
        if size == "phone":
            tab = page.locator(".rulebook-app .rulebook-side .lm-TabBar-tab").first
            tab.scroll_into_view_if_needed()
            tab.tap()
            page.wait_for_function(f"() => getComputedStyle(document.querySelector({PANEL!r})).display !== 'none'")
            page.locator(".rulebook-app .rulebook-side .widget-tab-contents select:visible").first.wait_for()
            check_screen(page, f"{where}, {tab.inner_text()} open")
            ours, _ = axe_findings(page, f"app {game} ({size}, touch, the set-up open)")
            assert not ours, ours
            tab.tap()
            page.wait_for_function(f"() => getComputedStyle(document.querySelector({PANEL!r})).display === 'none'")
    finally:
        page.close()


def test_a_rule_link_tapped_on_a_phone_shows_its_paragraph_under_the_board(mobile, apps):
    """A refusal's rule id, tapped in the status line under the board, opens the Rules panel under it and brings
    the paragraph on screen (the panel is below the first screen on a phone)."""
    page = mobile("phone").new_page()
    try:
        page.goto(apps("claim"), wait_until="commit", timeout=120_000)
        page.wait_for_selector(BOARD, timeout=180_000)
        page.locator(".rulebook-app .rulebook-figure-place").first.wait_for(state="attached", timeout=60_000)
        person_to_move(page)
        tap_place(page, lambda label: "piece" not in label)
        person_to_move(page)
        told = tap_place(page, lambda label: "piece on" in label)  # a point taken: refused, with its rule
        assert "Refused by CL-" in told, told
        link = page.locator(".rulebook-app .rulebook-status a[data-rule]").first
        rule = link.get_attribute("data-rule")
        link.scroll_into_view_if_needed()
        link.tap()
        shown = page.locator(".rulebook-app .rulebook-side .rulebook-rules .rulebook-focus").first
        shown.wait_for(timeout=30_000)
        time.sleep(0.5)
        box = shown.bounding_box()
        assert box and in_view(page, box), f"the paragraph of {rule} is off screen: {box}"
        assert rule in shown.inner_text()
        check_screen(page, "claim phone, the Rules panel open")
    finally:
        page.close()


# -- board.js on a phone, in a page of its own (no kernel: test_board_js's stand-in records what the page sends) ----


def small_board():
    """A 600 x 400 figure: three places (a, b, c) on a 10 x 10 grid, and names, one over place b (covered)."""
    import plotly.graph_objects as go

    from rulebook.views import BoardView

    return BoardView(
        go.Figure(
            [
                go.Scatter(
                    x=[2, 8, 5],
                    y=[5, 5, 8],
                    ids=["a", "b", "c"],
                    mode="markers+text",
                    name="pieces",
                    text=["1", "2", "3"],
                    hovertext=["Aalst, 1 piece", "Brugge, 2 pieces", "Commines, 3 pieces"],
                    hoverinfo="text",
                    textfont={"size": 10},
                    marker={"size": 20},
                ),
                go.Scatter(
                    x=[2, 8],
                    y=[2, 5],
                    mode="text",
                    name="names",
                    text=["Aalst", "Brugge"],
                    hoverinfo="skip",
                    textfont={"size": 11},
                    meta={"declutter": ["pieces"]},
                ),
            ],
            layout={
                "width": 600,
                "height": 400,
                "margin": {"l": 0, "r": 0, "t": 0, "b": 0},
                "xaxis": {"range": [0, 10], "visible": False},
                "yaxis": {"range": [0, 10], "visible": False},
            },
        )
    )


@pytest.fixture()
def phone_page(mobile):
    """An empty page at 390 x 844 with touch, a 300 px wide box for the board (the BoardView's el is put in it)."""
    from .test_board_js import BOARD_JS, HARNESS, SITE, synced

    page = mobile("phone").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    body = '<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1"><body style="margin:0">'
    page.route(f"{SITE}/", lambda route: route.fulfill(body=body, content_type="text/html"))
    page.goto(f"{SITE}/")

    def show(view) -> None:
        state = json.loads(json.dumps({"board": synced(view)}, default=list))
        page.evaluate(HARNESS, [BOARD_JS, state])
        page.evaluate("() => { const el = document.getElementById('board'); el.style.width = '300px'; }")
        page.wait_for_timeout(300)  # drawn again at the width given (its ResizeObserver, then a frame)

    page.show = show
    yield page
    page.close()
    assert not errors, errors


def clicks(page) -> list:
    return [value for _, key, value in page.evaluate("window.sent") if key == "send" and value.get("event") == "click"]


def at(page, x: float, y: float) -> tuple[float, float]:
    """Where the figure's point (x, y) of the 10 x 10 grid is on the page, in the layout's CSS px."""
    box = page.evaluate("() => document.querySelector('#board .rulebook-figure svg').getBoundingClientRect().toJSON()")
    return box["x"] + x / 10 * box["width"], box["y"] + (1 - y / 10) * box["height"]


def test_a_board_wider_than_its_box_is_scaled_whole_and_its_text_is_12_px(phone_page):
    phone_page.show(small_board())
    box = phone_page.locator("#board .rulebook-figure svg").first.bounding_box()
    assert box["width"] == pytest.approx(300, abs=1) and box["height"] == pytest.approx(200, abs=1)  # 600 x 400 / 2
    sizes = phone_page.eval_on_selector_all("#board svg text", "els => els.map(e => +e.getAttribute('font-size'))")
    assert sizes and min(sizes) * 0.5 == pytest.approx(12)  # drawn at half size: 24 figure px are 12 CSS px
    # the name over Brugge's piece is left out (a long press tells it); Aalst's, clear of every piece, stays
    names = phone_page.eval_on_selector_all(
        "#board g.trace[data-name='names'] text", "els => els.map(e => e.textContent)"
    )
    assert names == ["Aalst"]


def test_a_tap_plays_the_place_under_the_finger_and_reaches_22_px_around_it(phone_page):
    phone_page.show(small_board())
    x, y = at(phone_page, 2, 5)
    phone_page.touchscreen.tap(x, y)
    phone_page.touchscreen.tap(x + 20, y)  # the piece is 10 CSS px across: 20 px off still plays it (a 44 px target)
    phone_page.touchscreen.tap(x, y - 40)  # 40 px off, and nothing nearer: nothing
    phone_page.wait_for_timeout(200)
    assert [(c["trace"], c["point"]) for c in clicks(phone_page)] == [("pieces", "a"), ("pieces", "a")]


def test_a_long_press_shows_what_the_keyboard_hears_and_plays_nothing(phone_page):
    phone_page.show(small_board())
    x, y = at(phone_page, 5, 8)
    long_press(phone_page, x, y)
    label = phone_page.locator("#board .rulebook-figure-label")
    assert label.is_visible() and label.inner_text() == "Commines, 3 pieces"
    assert phone_page.locator("#board .rulebook-figure-place[aria-label='Commines, 3 pieces']").count() == 1
    phone_page.wait_for_timeout(300)
    assert clicks(phone_page) == []


def test_a_tap_after_pinch_zoom_lands_where_the_finger_is(phone_page):
    phone_page.show(small_board())
    session = phone_page.context.new_cdp_session(phone_page)
    session.send("Input.synthesizePinchGesture", {"x": 200, "y": 100, "scaleFactor": 2, "relativeSpeed": 1500})
    session.detach()
    phone_page.wait_for_timeout(300)
    scale, left, top = phone_page.evaluate(
        "() => [visualViewport.scale, visualViewport.offsetLeft, visualViewport.offsetTop]"
    )
    assert scale > 1.5 and left > 0, (scale, left)  # zoomed in, Aalst (x 60) out of sight to the left
    x, y = at(phone_page, 8, 5)  # Brugge, in sight
    assert left < x < left + 390 / scale and top < y < top + 844 / scale
    # the finger on the zoomed screen: DevTools' touch points are the layout's CSS px from the corner in sight
    phone_page.touchscreen.tap(x - left, y - top)
    phone_page.touchscreen.tap(x - left - 15, y - top + 10)  # beside the piece, still Brugge's
    phone_page.wait_for_timeout(200)
    assert [c["point"] for c in clicks(phone_page)] == ["b", "b"]


# -- the website: the same app in the browser's own Python, in the REPL's frame of each game's page --------------


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", GAMES)
def test_ten_moves_by_taps_on_the_website(game, size, mobile, server):
    """The website's game page (conftest's ``server``: the site `make site` built once a run, or RULEBOOK_SITE)."""
    page = mobile(size).new_page()
    try:
        page.goto(f"{server}/{game}/", wait_until="commit", timeout=120_000)
        page.frame_locator("iframe[name=app]").locator(BOARD).first.wait_for(timeout=300_000)
        frame = page.frame(name="app")
        frame.locator(".rulebook-app .rulebook-figure-place").first.wait_for(state="attached", timeout=60_000)
        time.sleep(1)  # the figure drawn again at the width the frame gives it
        play_ten_moves_by_taps(frame, game, size, "-website")
        page.screenshot(path=SHOTS / f"mobile-{game}-{size}-website.png")
    finally:
        page.close()


# -- the explorer and the guided first game on a phone; the website's header -----------------------------------------

# what of the explorer is past its edges, or scrolls sideways in it (its charts are whole: plotly's svg is inside)
EXPLORER_OUT = """() => { const e = document.querySelector('.rulebook-app .rulebook-side .rulebook-explorer');
  const box = e.getBoundingClientRect(); const width = document.documentElement.clientWidth; const out = [];
  if (e.scrollWidth > e.clientWidth + 1) out.push(`the explorer scrolls sideways: ${e.scrollWidth} > ${e.clientWidth}`);
  if (box.right > width + 1) out.push(`the explorer ends at ${box.right}, the screen at ${width}`);
  for (const x of e.querySelectorAll('*')) {
    const b = x.getBoundingClientRect();
    if (!b.width || !b.height || x.closest('.lm-mod-hidden') || getComputedStyle(x).visibility === 'hidden') continue;
    if (x.closest('.rulebook-chart') && !x.matches('.rulebook-chart, .main-svg')) continue;  // plotly's layers
    if (b.right > box.right + 1 || b.left < box.left - 1)
      out.push(`${x.tagName}.${String(x.className).slice(0, 50)}: ${Math.round(b.left)}-${Math.round(b.right)}`
               + ` in ${Math.round(box.left)}-${Math.round(box.right)}`); }
  return out.slice(0, 5); }"""
EXPLORER_SIZES = """() => { const e = document.querySelector('.rulebook-app .rulebook-side .rulebook-explorer');
  const charts = [...e.querySelectorAll('.rulebook-chart')].filter((c) => c.getClientRects().length).map((c) => {
    const scale = new DOMMatrix(getComputedStyle(c).transform).a.toFixed(3);
    const drawn = (c.querySelector('.main-svg') || c).getBoundingClientRect().width;
    return `${Math.round(drawn)} px (drawn at ${scale} of its size)`; });
  return `the explorer ${e.clientWidth} px wide, its content ${e.scrollWidth} px;`
    + ` its chart ${charts.join(', ') || 'none'}`; }"""
NEAR = ".rulebook-app .rulebook-learn-near"  # the step's text with Back and Next, under the lesson's board on a phone
# the step the lesson's text under the board is at (its title line, hidden there, says it)
STEP = f"(step) => document.querySelector('{NEAR} .rb-tutorial')?.textContent.includes(`Step ${{step}} of`)"
TOP = "() => { document.getElementById('rendered_cells')?.scrollTo(0, 0); window.scrollTo(0, 0); }"


def open_phone_app(mobile, apps, game: str):
    page = mobile("phone").new_page()
    page.goto(apps(game), wait_until="commit", timeout=120_000)
    page.wait_for_selector(BOARD, timeout=180_000)
    page.locator(".rulebook-app .rulebook-figure-place").first.wait_for(state="attached", timeout=60_000)
    time.sleep(1)  # the figure drawn again at the width the page gives it
    return page


@pytest.mark.parametrize("game", GAMES)
def test_a_phone_shows_the_explorer_whole_and_the_lesson_s_step_under_the_board(game, mobile, apps):
    """The explorer's tab (the last) opened on a phone: the explorer, its controls and its charts (scaled) inside the
    screen at 390 and 360 px, nothing scrolling sideways. Then the guided first game: the step's text and its Skip are
    right under the lesson's board's figure, over its status line, and in the first screen; the copy in the Learn
    panel far below is hidden, and Skip under the board goes on to the next step."""
    page = open_phone_app(mobile, apps, game)
    try:
        tab = page.locator(".rulebook-app .rulebook-side .lm-TabBar-tab").last
        tab.scroll_into_view_if_needed()
        tab.tap()
        explorer = page.locator(".rulebook-app .rulebook-side .rulebook-explorer").first
        explorer.wait_for(timeout=60_000)
        if page.locator(".rulebook-app .rulebook-explorer .rulebook-chart").count():
            page.locator(".rulebook-app .rulebook-explorer .rulebook-chart .main-svg").first.wait_for(timeout=60_000)
        time.sleep(0.5)
        notes = []
        for width in (390, 360):
            page.set_viewport_size({"width": width, "height": SIZES["phone"][1]})
            time.sleep(0.5)
            assert not page.evaluate(EXPLORER_OUT), f"{game} at {width} px: {page.evaluate(EXPLORER_OUT)}"
            check_screen(page, f"{game} at {width} px, the explorer open")
            notes.append(f"at {width} px: " + page.evaluate(EXPLORER_SIZES))
        page.set_viewport_size({"width": SIZES["phone"][0], "height": SIZES["phone"][1]})
        time.sleep(0.5)
        explorer.scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"mobile-{game}-odds-phone.png")
        (SHOTS / f"mobile-{game}-odds-phone.md").write_text(f"{game}'s explorer on a phone, " + "; ".join(notes) + "\n")

        learn = page.locator(".rulebook-app .rulebook-side .lm-TabBar-tab", has_text="Learn").first
        learn.scroll_into_view_if_needed()
        learn.tap()
        start = page.locator(".rulebook-app .rulebook-learn-start").first
        start.scroll_into_view_if_needed()
        start.tap()
        page.wait_for_function(STEP, arg=1, timeout=60_000)
        text = page.locator(f"{NEAR} .rb-tutorial").first
        page.locator(".rulebook-app .rulebook-learn .rulebook-figure svg .trace .point").first.wait_for(timeout=60_000)
        time.sleep(1)
        # Start was tapped in the Learn panel, under the board: the panel closed and the lesson's board came into sight
        shown = page.locator(".rulebook-app .rulebook-learn .rulebook-figure").first.bounding_box()
        assert shown and -2 <= shown["y"] < SIZES["phone"][1] / 2, f"{game}: after Start the board is at {shown}"
        assert page.evaluate(f"() => getComputedStyle(document.querySelector({PANEL!r})).display") == "none"
        page.evaluate(TOP)
        height = SIZES["phone"][1]
        said, skip = text.bounding_box(), page.locator(f"{NEAR} button", has_text="Skip").first.bounding_box()
        figure = page.locator(".rulebook-app .rulebook-learn .rulebook-figure").first.bounding_box()
        line = page.locator(".rulebook-app .rulebook-learn .rulebook-status").first.bounding_box()
        assert said["y"] >= 0 and said["y"] < height and skip["y"] + skip["height"] <= height + 1, (
            f"{game}: the step is not in the first screen: its text {said}, its Skip {skip}"
        )
        assert figure["y"] + figure["height"] - 1 <= said["y"] <= figure["y"] + figure["height"] + 12, (
            game,
            said,
            figure,
        )
        assert line["y"] >= said["y"] + said["height"], f"{game}: the status line {line} is not under the step {said}"
        assert not page.locator(".rulebook-app .rulebook-side .rulebook-tutorial").first.is_visible()
        check_screen(page, f"{game}, the lesson")
        (SHOTS / f"mobile-{game}-learn-phone.md").write_text(
            f"{game}'s lesson on a phone (390 x 844, the page at its top): the figure ends at y"
            f" {figure['y'] + figure['height']:.0f}, the step's text {said['y']:.0f}-{said['y'] + said['height']:.0f},"
            f" its Skip ends at {skip['y'] + skip['height']:.0f}, the status line begins at {line['y']:.0f}\n"
        )
        page.screenshot(path=SHOTS / f"mobile-{game}-learn-phone.png")
        page.locator(f"{NEAR} button", has_text="Skip").first.tap()
        page.wait_for_function(STEP, arg=2, timeout=30_000)
        assert "Step 2 of" in page.locator(".rulebook-app .rulebook-side .rulebook-tutorial").first.text_content()
    finally:
        page.close()


HEADER = """() => { const header = document.querySelector('.app-header'); const box = header.getBoundingClientRect();
  const parts = [...header.children].filter((e) => e.getClientRects().length).map((e) => {
    const b = e.getBoundingClientRect(); return {name: e.innerText.trim(), top: b.top, bottom: b.bottom, left: b.left,
      right: b.right, width: b.width, height: b.height, link: e.tagName === 'A'}; });
  const sizes = [...header.querySelectorAll('*')].filter((e) => e.getClientRects().length
    && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
    .map((e) => parseFloat(getComputedStyle(e).fontSize));
  return {height: box.height, parts, least: Math.min(...sizes),
    wide: [document.documentElement.scrollWidth, document.documentElement.clientWidth]}; }"""


def test_the_website_s_header_is_one_line_on_a_phone(mobile, server):
    """Each game page's header at 390 and 360 px: one line (44 px, its links' height: it took two or three lines),
    every part of it side by side on that line, each link a 44 x 44 px target with its whole name for a screen reader,
    no text under 12 px, nothing past the screen's right edge; the front page scrolls no more sideways either."""
    page = mobile("phone").new_page()
    try:
        for width in (390, 360):
            page.set_viewport_size({"width": width, "height": SIZES["phone"][1]})
            for game in GAMES:
                page.goto(f"{server}/{game}/", wait_until="domcontentloaded")
                seen = page.evaluate(HEADER)
                where = f"{game} at {width} px"
                assert seen["height"] <= TARGET + 6, f"{where}: the header is {seen['height']} px high: {seen}"
                for part in seen["parts"]:
                    assert part["top"] >= -1 and part["bottom"] <= seen["height"] + 1, (where, part)
                    assert part["right"] <= width + 1, (where, part)
                    if part["link"]:
                        assert part["width"] >= TARGET and part["height"] >= TARGET, (where, part)
                assert seen["least"] >= 12 and seen["wide"][0] <= seen["wide"][1], (where, seen)
                for name in ("All games", "Rules", "Notebook"):
                    assert page.get_by_role("link", name=name).first.is_visible(), (where, name)
            page.screenshot(
                path=SHOTS / f"mobile-header-{width}.png", clip={"x": 0, "y": 0, "width": width, "height": 90}
            )
            page.goto(f"{server}/", wait_until="domcontentloaded")
            wide = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            assert wide[0] <= wide[1], f"the front page at {width} px scrolls sideways: {wide}"
            small = page.evaluate(
                "(least) => [...document.querySelectorAll('.game .links a')].map((a) => a.getBoundingClientRect())"
                ".filter((b) => b.height < least).length",
                TARGET,
            )
            assert not small, f"the front page at {width} px: {small} links under {TARGET} px high"
    finally:
        page.close()
