"""What the Kingdom Builder and Ab die Post play tests share (issue 26.1, 26.4, 26.7): a saved position loaded into the
app as a person loads one, the same game played beside the page on a Python board (the app's computer players, the
seed a loaded game gets), clicks on a drawn mark of a named trace, and the board's legibility and stillness measured
as Meetjesland's play test measures them (tests/e2e/test_meetjesland_play.py)."""

from __future__ import annotations

import itertools
import time

from .test_meetjesland_play import MEASURE, own_marker, shared

WIDTH, HEIGHT = 1280, 800
BOARD = ".rulebook-app .rulebook-board"


def status(page) -> str:
    return " ".join(page.locator(".rulebook-status").first.inner_text().split())


def wait_for_status(page, words: str, seconds: float = 90) -> str:
    """The page's status line once it holds ``words``."""
    deadline = time.monotonic() + seconds
    now = ""
    while time.monotonic() < deadline:
        now = status(page)
        if words in now:
            return now
        time.sleep(0.3)
    raise AssertionError(f"the page's status never said {words!r}; it says {now!r}")


def load(page, path, prompt: str) -> None:
    """Load the saved game at ``path`` with the app's Load button, and wait for the board to ask ``prompt``."""
    with page.expect_file_chooser(timeout=30_000) as choosing:
        page.locator(".rulebook-app .rulebook-load").first.click()
    choosing.value.set_files(str(path))
    page.locator(".rulebook-app", has_text=f"Loaded {path.name}").first.wait_for(timeout=60_000)
    wait_for_status(page, prompt)
    page.evaluate("() => window.scrollTo(0, 0)")
    time.sleep(1)


def click_mark(page, table, name: str, point: int) -> None:
    """Click the centre of point ``point`` of the trace named ``name`` as the page draws it (no scrolling: the board
    must be in the first screen), then move the pointer off the board so no hover label stays over it."""
    layer = [drawn.name for drawn in table.figure.plot.data].index(name)
    mark = page.locator(f"{BOARD} .rulebook-figure g.trace[data-trace='{layer}'] path.point[data-point='{point}']")
    box = mark.first.bounding_box()
    assert box is not None, f"point {point} of {name!r} is not drawn"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    time.sleep(0.6)
    page.mouse.move(5, HEIGHT - 5)


def drawn_points(page, table, name: str) -> int:
    """How many marks of the trace named ``name`` the page draws."""
    layer = [drawn.name for drawn in table.figure.plot.data].index(name)
    return page.locator(f"{BOARD} .rulebook-figure g.trace[data-trace='{layer}'] path.point").count()


def problems(drawn: dict, markers: tuple[str, ...], ignore: tuple[str, ...] = ()) -> list[str]:
    """What a player could not read on the board: texts over texts, texts over the marks of ``markers`` (other
    than their own), texts under 11 px in the figure or around it (``ignore``: texts that are not labels)."""
    found = []
    texts = [text for text in drawn["texts"] if text["text"].strip() not in ignore]
    for a, b in itertools.combinations(texts, 2):
        if shared(a, b):
            found.append(f"{a['text']!r} ({a['layer']}) over {b['text']!r} ({b['layer']})")
    for text in texts:
        for marker in drawn["markers"]:
            if marker["layer"] in markers and not own_marker(text, marker) and shared(text, marker):
                found.append(f"{text['text']!r} ({text['layer']}) over a marker of {marker['layer']}")
        if text["size"] < 11:
            found.append(f"{text['text']!r} is {text['size']} px")
    for text in drawn["texts"]:
        if text["size"] < 11:
            found.append(f"{text['text']!r} is {text['size']} px")
    found += [f"{words!r} is {size} px" for words, size in drawn["small"]]
    return sorted(set(found))


def measure(page) -> dict:
    return page.locator(BOARD).first.evaluate(MEASURE)


def places(page, selectors: dict[str, str]) -> dict[str, tuple[float, ...]]:
    """Where the named parts of the board are on the screen (rounded to a tenth of a pixel)."""
    found = {}
    for name, selector in selectors.items():
        box = page.locator(selector).first.bounding_box()
        assert box is not None, f"the board's {name} is not drawn"
        found[name] = tuple(round(box[key], 1) for key in ("x", "y", "width", "height"))
    return found
