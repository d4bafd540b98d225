"""The app's server with a class in a real browser: pages beyond --max-kernels are told the server is full (never a
blank page) and get their game by themselves once a place is free; a closed page frees its kernel within a minute,
and the preheated pool stays at its size."""

from __future__ import annotations

import subprocess
import time

import psutil

from rulebook.cli import app_notebook, voila_command

from .conftest import SHOTS, TOKEN, free_port, stop

BOARD = ".rulebook-app .rulebook-board .rulebook-figure svg .trace .point"


def _kernels(process: subprocess.Popen) -> int:
    count = 0
    for child in psutil.Process(process.pid).children(recursive=True):
        try:
            count += any("ipykernel" in part for part in child.cmdline())
        except psutil.Error:
            pass
    return count


def _until(check, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.5)


def test_a_full_server_says_so_and_closed_pages_free_their_kernels(browser, jupyter_env, tmp_path):
    port = free_port()
    process = subprocess.Popen(
        voila_command(app_notebook("claim", tmp_path), port, TOKEN, max_kernels=2),
        env=jupyter_env,
        stdout=subprocess.DEVNULL,
        stderr=open(SHOTS / "voila-serve.log", "w"),
    )
    pages = []
    try:
        _until(lambda: _kernels(process) == 1, 90, "the preheated kernel")
        url = f"http://127.0.0.1:{port}/?token={TOKEN}"
        for _ in range(2):
            page = browser.new_page()
            page.goto(url, wait_until="commit", timeout=60_000)
            page.wait_for_selector(BOARD, timeout=120_000)
            pages.append(page)
        third = browser.new_page()
        pages.append(third)
        third.goto(url, wait_until="commit", timeout=60_000)
        third.wait_for_selector("body[data-notice='full']", timeout=30_000)
        assert "The server is full" in third.inner_text("body") and "try again" in third.inner_text("body")
        third.screenshot(path=str(SHOTS / "app-server-full.png"))

        pages.pop(0).close(run_before_unload=True)  # as a person closes the tab: the page's beacon
        _until(lambda: _kernels(process) <= 2, 60, "the closed page's kernel stopped")
        third.wait_for_selector(BOARD, timeout=90_000)  # it tried again by itself and got the free place

        for page in pages:
            page.close(run_before_unload=True)
        pages = []
        _until(lambda: _kernels(process) == 1, 60, "every page's kernel stopped, the preheated one kept")
        time.sleep(3)
        assert _kernels(process) == 1
    finally:
        for page in pages:
            page.close()
        stop(process)
