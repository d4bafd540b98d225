"""The app's Voila (rulebook.voila_app) on a free port, driven over HTTP as a class's pages would: a page that must
wait and a page the full server cannot take are told so in words; a page's closing beacon frees its kernel; a kernel
no page connects to is stopped; the preheated pool stays at its size."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import threading
import time
from urllib.parse import urlencode

import pytest

from rulebook import cli

psutil = pytest.importorskip("psutil")
pytest.importorskip("voila")
TOKEN = "t0ken-for-the-voila-test-" + "0" * 23


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(port: int, path: str, headers: dict | None = None, method: str = "GET", body: bytes | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, answer.headers, answer.read().decode("utf-8", "replace")
    finally:
        connection.close()


def _kernels(server: subprocess.Popen) -> int:
    count = 0
    for process in psutil.Process(server.pid).children(recursive=True):
        try:
            count += any("ipykernel" in part for part in process.cmdline())
        except psutil.Error:
            pass
    return count


def _until(check, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.25)


def _kernel_of(page: str) -> str:
    return re.search(r'"kernelId": "([0-9a-f-]{36})"', page).group(1)


def _alive(port: int, kernel: str) -> bool:
    return _get(port, f"/api/kernels/{kernel}?token={TOKEN}")[0] == 200


def test_a_class_is_let_in_told_to_wait_or_told_the_server_is_full_and_closed_pages_free_their_kernels(tmp_path):
    port = _free_port()
    command = cli.voila_command(cli.app_notebook("claim", tmp_path), port, TOKEN, max_kernels=2)
    command = [part for part in command if not part.startswith("--RulebookKernelManager.cull_interval=")]
    command += [
        "--RulebookVoila.max_starting=1",
        "--RulebookKernelManager.cull_unclaimed=4",
        "--RulebookKernelManager.cull_interval=1",
    ]
    log = open(tmp_path / "voila.log", "w")
    server = subprocess.Popen(command, stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        _until(lambda: server.poll() is not None or _kernels(server) == 1, 90, "the preheated kernel")
        assert server.poll() is None, (tmp_path / "voila.log").read_text()[-3000:]
        for process in psutil.Process(server.pid).children(recursive=True):
            env = process.environ()
            # a kernel reads the server's empty config folder, and makes no temporary one of its own at each start
            assert "JUPYTER_NO_CONFIG" not in env and os.path.isdir(env["JUPYTER_CONFIG_DIR"])
            assert os.path.basename(env["JUPYTER_CONFIG_DIR"]).startswith("rulebook-voila-")  # the server's own
        status, headers, page = _get(port, f"/?token={TOKEN}")
        assert status == 200 and "<title>Claim" in page
        first = _kernel_of(page)
        cookies = dict(value.split(";", 1)[0].split("=", 1) for value in headers.get_all("Set-Cookie"))
        assert "_xsrf" in cookies  # Voila set none for a preheated page, so the page's close beacon was refused

        second: dict = {}
        starting = threading.Thread(target=lambda: second.update(answer=_get(port, f"/?token={TOKEN}")))
        starting.start()
        time.sleep(0.5)  # the second page is starting (no preheated kernel left): the third must wait
        status, headers, notice = _get(port, f"/?token={TOKEN}")
        assert status == 503 and 'data-notice="wait"' in notice and "1 page is starting before yours" in notice
        assert headers["Retry-After"] == "2" and "opens your game by itself" in notice
        again = re.search(r'http-equiv="refresh" content="2;url=([^"]+)"', notice).group(1).replace("&amp;", "&")
        assert again.startswith("/?") and f"token={TOKEN}" in again and "ticket=" in again
        starting.join(timeout=120)
        assert second["answer"][0] == 200

        status, headers, notice = _get(port, again)  # two games are being played: the most this server takes
        assert status == 503 and 'data-notice="full"' in notice and "The server is full" in notice
        assert "All 2 places on this server are taken" in notice and headers["Retry-After"] == "30"
        assert "<script" not in notice

        # the first page closes: its beacon, as Voila's page sends it (the _xsrf cookie in the form, no token)
        cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
        beacon = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
        body = urlencode({"_xsrf": cookies["_xsrf"]}).encode()
        assert _get(port, f"/voila/api/shutdown/{first}", beacon, "POST", body)[0] == 204
        assert not _alive(port, first)

        status, _, page = _get(port, again)  # a place is free again: the page told to retry gets its game
        assert status == 200
        unclaimed = [_kernel_of(page), _kernel_of(second["answer"][2])]
        # neither page ever connected (no browser here): both kernels are stopped after cull_unclaimed
        _until(lambda: not any(_alive(port, kernel) for kernel in unclaimed), 30, "kernels no page connected to")
        _until(lambda: _kernels(server) == 1, 30, "the pool back at its size")
        time.sleep(2)
        assert _kernels(server) == 1
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)
        log.close()
