"""The website's first visit (issue 47.4) in Chromium, each page in an empty browser context: what a game's page
downloads from a host that sends the .gz siblings (as nginx's gzip_static or Caddy's precompressed do), counted by
the server, by part; the board's first position (made at build time) on the page at once, under a progress bar whose
text follows the start; the app's live board in its place once Python is ready. The minimal page and each game's page
are opened one after the other, so their times meet the same machine; times go to .e2e/first_visit.md, beside the
ratio to the minimal page, and are never asserted. Screenshots: .e2e/first-visit-<game>-loading.png and -ready.png.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from rulebook import registry

from .conftest import SHOTS

GOAL = 20_000_000  # bytes a first visit to a game's page may download
BOARD = ".rulebook-app .rulebook-board .rulebook-figure svg .trace .point"  # the live board, with its places
MINIMAL = "button:has-text('Ready')"
FIRST = "#first-board svg"  # the first position drawn from the page's build-time data
GAMES = list(registry.names())
REPORT = SHOTS / "first_visit.md"


class Sent:
    """Bytes the server sent, by path, since the last :meth:`reset` (the handlers run on the server's threads)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.paths: dict[str, int] = {}

    def add(self, path: str, size: int) -> None:
        with self.lock:
            self.paths[path] = self.paths.get(path, 0) + size

    def reset(self) -> None:
        with self.lock:
            self.paths = {}

    def by_part(self) -> dict[str, int]:
        """Pyodide's runtime, the wheels, and JupyterLite (its JavaScript, styles, settings) with the site's pages."""
        parts = {"Pyodide runtime": 0, "wheels": 0, "JupyterLite and the pages": 0}
        with self.lock:
            for path, size in self.paths.items():
                if path.endswith(".whl"):
                    parts["wheels"] += size
                elif path.startswith("/static/pyodide/"):
                    parts["Pyodide runtime"] += size
                else:
                    parts["JupyterLite and the pages"] += size
        return parts


def handler(site: Path, sent: Sent) -> type[SimpleHTTPRequestHandler]:
    """A static server that sends a file's .gz sibling, compressed, to a browser that accepts gzip."""

    class Handler(SimpleHTTPRequestHandler):
        extensions_map = {
            **SimpleHTTPRequestHandler.extensions_map,
            ".wasm": "application/wasm",
            ".mjs": "text/javascript",
            ".js": "text/javascript",
        }

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(site), **kwargs)

        def log_message(self, *args: Any) -> None:
            pass

        def send_head(self):  # type: ignore[no-untyped-def]
            path = self.translate_path(self.path)
            if os.path.isdir(path):
                path = os.path.join(path, "index.html")
            packed = path + ".gz"
            if "gzip" in self.headers.get("Accept-Encoding", "") and os.path.isfile(packed):
                file = open(packed, "rb")  # noqa: SIM115 - closed by the base class after copyfile
                self.send_response(200)
                self.send_header("Content-Type", self.guess_type(path))
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(os.fstat(file.fileno()).st_size))
                self.end_headers()
                return file
            return super().send_head()

        def copyfile(self, source, outputfile) -> None:  # type: ignore[no-untyped-def]
            data = source.read()
            outputfile.write(data)
            sent.add(urlsplit(self.path).path, len(data))

    return Handler


@pytest.fixture(scope="module")
def gzip_server(site: Path):
    sent = Sent()
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler(site, sent)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", sent
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def report():
    rows: list[str] = []
    yield rows
    SHOTS.mkdir(exist_ok=True)
    head = [
        "# First visit (tests/e2e/test_first_visit.py)",
        "",
        "Each page in an empty browser context, served with the .gz siblings (gzip_static); bytes counted by the",
        "server. The minimal page and the game's page are opened one after the other; the ratio is game / minimal.",
        "",
        "| page | MB sent | runtime | wheels | JupyterLite, pages | first position (s) | usable (s) | minimal (s) "
        "| ratio |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    REPORT.write_text("\n".join(head + rows) + "\n")


def visit(chromium, address: str, ready: str, *, first: bool, shots: str = "") -> dict[str, Any]:
    """Open ``address`` in an empty context; the seconds to the first position (if ``first``) and to ``ready`` in
    the app's frame, the progress texts in order, and what was shown once ready."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        started = time.monotonic()
        page.goto(address, wait_until="commit", timeout=120_000)
        result: dict[str, Any] = {"first": None, "texts": []}
        if first:
            page.locator(FIRST).first.wait_for(timeout=60_000)
            result["first"] = time.monotonic() - started
            if shots:
                page.screenshot(path=SHOTS / f"first-visit-{shots}-loading.png")
        target = page.frame_locator("iframe[name=app]").locator(ready).first
        while True:
            text = page.locator("#starting").inner_text() if page.locator("#starting").is_visible() else ""
            if text and (not result["texts"] or result["texts"][-1] != text):
                result["texts"].append(text)
            try:
                target.wait_for(timeout=250)
                break
            except Exception:  # noqa: BLE001 - playwright's timeout: not ready yet
                if time.monotonic() - started > 240:
                    raise
        result["usable"] = time.monotonic() - started
        result["loading_hidden"] = page.locator("#loading").is_hidden()
        if shots:
            page.wait_for_timeout(300)
            page.screenshot(path=SHOTS / f"first-visit-{shots}-ready.png")
        return result
    finally:
        context.close()


@pytest.mark.parametrize("game", GAMES)
def test_first_visit(game, chromium, gzip_server, report):
    address, sent = gzip_server
    minimal = visit(chromium, f"{address}/minimal/", MINIMAL, first=False)
    sent.reset()
    shown = visit(chromium, f"{address}/{game}/", BOARD, first=True, shots=game)
    parts = sent.by_part()
    total = sum(parts.values())
    ratio = shown["usable"] / minimal["usable"]
    megabytes = [f"{value / 1e6:.1f}" for value in (total, *parts.values())]
    report.append(
        f"| {game} | {' | '.join(megabytes)} | {shown['first']:.2f} | {shown['usable']:.1f} | "
        f"{minimal['usable']:.1f} | {ratio:.2f} |"
    )
    assert shown["first"] is not None  # the first position was drawn before Python was ready
    assert len(shown["texts"]) >= 2, f"the progress text never changed: {shown['texts']}"
    assert shown["loading_hidden"], "the first position is still over the live board"
    assert total < GOAL, f"{game}: the first visit sent {total / 1e6:.1f} MB ({parts})"
