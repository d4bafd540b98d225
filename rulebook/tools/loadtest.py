"""``make bench``'s load test: a class opening the same app at once, on this machine only.

For 1, 4, 8 and 16 pages, a fresh ``rulebook app`` server (rulebook.serve, a preheated kernel) on 127.0.0.1 and a
free port; Debian's Chromium (Playwright, never a downloaded browser) opens every page at the same moment. Measured:
the time from opening to a usable board (its pieces drawn) for each page, the pages told to wait, what a page that
never got its board shows, then the kernels and the memory of Voila and its kernels while the pages are open and
after they close. Bounded: at most 16 pages, ``deadline`` seconds for the boards, 90 s for the kernels to go.

``python -m rulebook.tools.loadtest --pages 30 [--max-kernels 4]`` is a class opening one app at once (at most
:data:`CLASS_PAGES` pages): each page ends usable, told in words that the server is busy and that it tries again by
itself, or blank (neither), and the table says how many of each and how long the pages took.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulebook import registry

# Debian's chromium-headless-shell, as the e2e tests run pages (RULEBOOK_CHROMIUM=/usr/bin/chromium: the full browser)
CHROMIUM = os.environ.get("RULEBOOK_CHROMIUM", "/usr/bin/chromium-headless-shell")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BOARD = ".rulebook-app .rulebook-board .rulebook-figure svg .trace .point"
SIZES = (1, 4, 8, 16)
MAX_PAGES = 16
CLASS_PAGES = 30  # a class: the most pages ``crowd`` opens together
# in every document of every page: when the board first appears (ms since the epoch), and each notice page seen
WATCH = """
(() => {
  const notice = () => {
    const kind = document.body && document.body.dataset.notice;
    if (kind) sessionStorage.setItem('rulebook-' + kind, 'seen');
    if (kind && !sessionStorage.getItem('rulebook-notice-at')) sessionStorage.setItem('rulebook-notice-at', Date.now());
  };
  document.addEventListener('DOMContentLoaded', notice);
  const look = () => {
    if (window.__rulebookBoardAt === undefined && document.querySelector(BOARD)) window.__rulebookBoardAt = Date.now();
  };
  new MutationObserver(look).observe(document, {childList: true, subtree: true});
})();
""".replace("BOARD", repr(BOARD))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _tree(pid: int) -> list[Any]:
    import psutil

    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.Error:
        return []


def _kernels(pid: int) -> int:
    import psutil

    count = 0
    for process in _tree(pid)[1:]:
        with contextlib.suppress(psutil.Error):
            count += any("ipykernel" in part for part in process.cmdline())
    return count


def _mebibytes(pid: int) -> int:
    import psutil

    total = 0
    for process in _tree(pid):
        with contextlib.suppress(psutil.Error):
            total += process.memory_info().rss
    return round(total / (1 << 20))


def _wait(check: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.25)
    return check()


def unavailable() -> str:
    """Why the load test cannot run here ("" when it can)."""
    if not os.path.exists(CHROMIUM):
        return f"{CHROMIUM} is missing (make e2e installs Debian's chromium)"
    for module in ("playwright", "voila", "psutil"):
        if importlib.util.find_spec(module) is None:
            return f"the Python package {module} is missing (pip install -e '.[browser]')"
    return ""


def one_size(game: str, pages: int, deadline: float = 180.0, options: Sequence[str] = ()) -> dict[str, Any]:
    """Open ``pages`` pages of ``game``'s app together on a fresh server (with more ``options`` on its command line);
    what each page got, and the kernels and memory while open and after closing."""
    from playwright.sync_api import sync_playwright  # noqa: F401 - `make test` has no browser: fail before the check

    if not 1 <= pages <= MAX_PAGES:
        raise ValueError(f"pages: 1 to {MAX_PAGES}, not {pages}")
    return _open_together(game, pages, deadline, options, MAX_PAGES)


def _open_together(game: str, pages: int, deadline: float, options: Sequence[str], max_kernels: int) -> dict[str, Any]:
    """:func:`one_size` without its bound: ``pages`` pages opened together on a server of ``max_kernels`` games."""
    from playwright.sync_api import sync_playwright

    from rulebook import cli

    folder = Path(tempfile.mkdtemp(prefix="rulebook-load-"))
    port, token = _free_port(), "load-test-" + os.urandom(16).hex()
    command = cli.voila_command(cli.app_notebook(game, folder), port, token, max_kernels=max_kernels) + list(options)
    log = open(folder / "voila.log", "w")
    server = subprocess.Popen(command, stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True)
    result: dict[str, Any] = {"pages": pages}
    try:
        if not _wait(lambda: server.poll() is None and _kernels(server.pid) >= 1, 90):
            raise RuntimeError(f"the app's server did not start (see {folder / 'voila.log'})")
        time.sleep(5)  # the preheated kernel runs the app's notebook before anyone comes
        url = f"http://127.0.0.1:{port}/?token={token}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch_persistent_context(
                str(folder / "profile"), executable_path=CHROMIUM, headless=True, args=FLAGS
            )
            try:
                browser.add_init_script(WATCH)
                tabs = [browser.new_page() for _ in range(pages)]
                started = time.time()
                for tab in tabs:
                    tab.goto(url, wait_until="commit", timeout=60_000)
                ends = time.monotonic() + deadline
                boards: list[float | None] = [None] * pages
                peak_kernels = peak_memory = 0
                while time.monotonic() < ends and None in boards:
                    for index, tab in enumerate(tabs):
                        if boards[index] is None:
                            with contextlib.suppress(Exception):
                                at = tab.evaluate("window.__rulebookBoardAt")
                                if at:
                                    boards[index] = at / 1000 - started
                    peak_kernels = max(peak_kernels, _kernels(server.pid))
                    peak_memory = max(peak_memory, _mebibytes(server.pid))
                    time.sleep(0.5)
                result["boards"] = boards
                # per page: when it first showed a notice (s from opening), and what it shows at the end
                notices = [tab.evaluate("sessionStorage.getItem('rulebook-notice-at')") for tab in tabs]
                result["notices"] = [int(at) / 1000 - started if at else None for at in notices]
                result["ends"] = [_ending(tab, board) for tab, board in zip(tabs, boards)]
                result["told to wait"] = sum(
                    1 for tab in tabs if tab.evaluate("sessionStorage.getItem('rulebook-wait')") is not None
                )
                result["told full"] = sum(
                    1 for tab in tabs if tab.evaluate("sessionStorage.getItem('rulebook-full')") is not None
                )
                result["without a board show"] = [
                    tab.evaluate("document.body ? document.body.innerText.trim().slice(0, 80) : ''") or "a blank page"
                    for tab, board in zip(tabs, boards)
                    if board is None
                ]
                time.sleep(1)
                result["kernels open"] = max(peak_kernels, _kernels(server.pid))
                result["memory open"] = max(peak_memory, _mebibytes(server.pid))
                closed = time.monotonic()
                for tab in tabs:
                    tab.close(run_before_unload=True)  # as a person closes the tab: the page's beacon runs
                # the browser stays open a moment, as a person's does, so that the beacons leave
                _wait(lambda: _kernels(server.pid) <= 1, 10)
            finally:
                browser.close()
        _wait(lambda: _kernels(server.pid) <= 1, 80)
        result["seconds to free"] = round(time.monotonic() - closed, 1)
        time.sleep(2)
        result["kernels closed"] = _kernels(server.pid)
        result["memory closed"] = _mebibytes(server.pid)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)
        log.close()
        said = (folder / "voila.log").read_text(errors="replace")
        result["iopub timeouts"] = said.count("Timeout waiting for IOPub output")
        shutil.rmtree(folder, ignore_errors=True)
    return result


def _ending(tab: Any, board: float | None) -> str:
    """What a page shows at the end: "usable" (its board), "retry" (words saying it tries again by itself), or
    "blank" (neither: an empty page, Voila's spinner, an error)."""
    if board is not None:
        return "usable"
    with contextlib.suppress(Exception):
        if tab.evaluate("document.body && document.body.dataset.notice ? 1 : 0"):
            return "retry"
        text = tab.evaluate("document.body ? document.body.innerText : ''") or ""
        if "tries again by itself" in text:
            return "retry"
    return "blank"


def crowd(game: str, pages: int, max_kernels: int | None = None, deadline: float = 240.0) -> dict[str, object]:
    """A class opening ``game``'s app at once: ``pages`` pages (1 to :data:`CLASS_PAGES`) on a server of
    ``max_kernels`` games (default: as the memory allows); how many ended usable, retrying or blank, and when."""
    if not 1 <= pages <= CLASS_PAGES:
        raise ValueError(f"pages: 1 to {CLASS_PAGES}, not {pages}")
    if max_kernels is not None and max_kernels < 1:
        raise ValueError(f"max_kernels: a whole number from 1, not {max_kernels}")
    from rulebook.serve import default_places

    got = _open_together(game, pages, deadline, (), max_kernels or default_places())
    ends = got["ends"]
    times = sorted(t for t in got["boards"] if t is not None)
    # a page's first answer: its board, or the first notice that it tries again by itself
    answers = [
        min(t for t in (board, notice) if t is not None) if board is not None or notice is not None else None
        for board, notice in zip(got["boards"], got["notices"])
    ]
    late = sum(1 for at in answers if at is None or at > 60)
    return {
        "pages": pages,
        "max kernels": max_kernels or "as the memory allows",
        "usable": ends.count("usable"),
        "told to retry (at the end)": ends.count("retry"),
        "blank": ends.count("blank"),
        "told to wait or full on the way": f"{got['told to wait']}, {got['told full']}",
        "to usable: median / max (s)": (
            f"{statistics.median(times):.1f} / {times[-1]:.1f}" if times else "none usable"
        ),
        "without a board or retry words after 60 s": late,
        "'Timeout waiting for IOPub output' in the log": got["iopub timeouts"],
        "what the blank pages show": "; ".join(
            shown
            for shown, end in zip(got["without a board show"], [e for e in ends if e != "usable"])
            if end == "blank"
        )[:400],
    }


def figures(game: str | None = None, sizes: Sequence[int] = SIZES, deadline: float = 180.0) -> dict[str, object]:
    """The load test as ``make bench`` reports it: one line per number of pages."""
    why = unavailable()
    if why:
        return {"load test": f"not run: {why}"}
    if game is None:  # the rulebook's first game (the largest app page)
        game = next(iter(registry.games()))
    report: dict[str, object] = {}
    for pages in sizes:
        got = one_size(game, pages, deadline)
        times = sorted(t for t in got["boards"] if t is not None)
        usable = f"{len(times)} of {pages}"
        spread = f"{times[0]:.1f} / {statistics.median(times):.1f} / {times[-1]:.1f}" if times else "none"
        report[f"{pages} pages of {game}: usable boards; first / median / last (s)"] = f"{usable}; {spread}"
        report[f"{pages} pages: told to wait, told the server is full"] = f"{got['told to wait']}, {got['told full']}"
        if got["without a board show"]:
            report[f"{pages} pages: what the pages without a board show"] = "; ".join(got["without a board show"])
        report[f"{pages} pages: kernels open / after closing (s to free)"] = (
            f"{got['kernels open']} / {got['kernels closed']} ({got['seconds to free']})"
        )
        report[f"{pages} pages: memory of Voila and kernels, open / after closing (MiB)"] = (
            f"{got['memory open']} / {got['memory closed']}"
        )
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m rulebook.tools.loadtest``: the bench's sizes, or with ``--pages`` one class's table."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m rulebook.tools.loadtest", description=main.__doc__)
    parser.add_argument("--game", default=None, help="the game's app (default: the rulebook's first game)")
    parser.add_argument("--pages", type=int, default=None, help=f"one class of 1 to {CLASS_PAGES} pages at once")
    parser.add_argument("--max-kernels", type=int, default=None, help="the server's --max-kernels")
    parser.add_argument("--deadline", type=float, default=240.0, help="seconds the pages are watched")
    args = parser.parse_args(argv)
    if args.pages is None:
        rows = figures(args.game)
    else:
        why = unavailable()
        if why:
            print(f"not run: {why}")
            return 1
        rows = crowd(args.game or next(iter(registry.games())), args.pages, args.max_kernels, args.deadline)
    for name, value in rows.items():
        print(f"| {name} | {value} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
