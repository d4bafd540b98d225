"""The app's Voila (rulebook.voila_app) on a free port, driven over HTTP as a class's pages would: a page that must
wait and a page the full server cannot take are told so in words; a page's closing beacon frees its kernel; a kernel
no page connects to is stopped; the preheated pool stays at its size."""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import threading
import time
from urllib.parse import urlencode

import psutil
import websocket  # websocket-client, which jupyter_server requires

from rulebook import cli
from tests.helpers import free_port

TOKEN = "t0ken-for-the-voila-test-" + "0" * 23


def _get(port: int, path: str, headers: dict | None = None, method: str = "GET", body: bytes | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)  # ends only a hung run
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, answer.headers, answer.read().decode("utf-8", "replace")
    finally:
        connection.close()


def _kernel_processes(server: subprocess.Popen) -> list:
    found = []
    for process in psutil.Process(server.pid).children(recursive=True):
        try:
            if any("ipykernel" in part for part in process.cmdline()):
                found.append(process)
        except psutil.Error:
            pass
    return found


def _kernels(server: subprocess.Popen) -> int:
    return len(_kernel_processes(server))


def _until(check, seconds: float, what: str, every: float = 0.05) -> None:
    """Wait for ``check()`` (a state of the server or its pages, never a time); ``seconds`` only ends a hung run."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(every)


def _kernel_of(page: str) -> str:
    return re.search(r'"kernelId": "([0-9a-f-]{36})"', page).group(1)


def _alive(port: int, kernel: str) -> bool:
    return _get(port, f"/api/kernels/{kernel}?token={TOKEN}")[0] == 200


def _connect(port: int, kernel: str):
    """What a page's browser does once the page is there: open the kernel's channels (the page is connected)."""
    return websocket.create_connection(f"ws://127.0.0.1:{port}/api/kernels/{kernel}/channels?token={TOKEN}", timeout=60)


def _let_in(log_path) -> int:
    """How many pages the server's door has let in so far (its log line for each)."""
    return log_path.read_text(errors="replace").count("rulebook: a page is let in")


def test_a_class_is_let_in_told_to_wait_or_told_the_server_is_full_and_closed_pages_free_their_kernels(tmp_path):
    port = free_port()
    command = cli.voila_command(cli.app_notebook("claim", tmp_path), port, TOKEN, max_kernels=2)
    command = [part for part in command if not part.startswith("--RulebookKernelManager.cull_interval=")]
    command += [
        "--RulebookVoila.max_starting=1",
        "--RulebookKernelManager.cull_unclaimed=6",
        "--RulebookKernelManager.cull_disconnected=2",
        "--RulebookKernelManager.cull_interval=1",
    ]
    log_path = tmp_path / "voila.log"
    log = open(log_path, "w")
    server = subprocess.Popen(command, stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True)
    held = None
    channels = []
    try:
        _until(lambda: server.poll() is not None or _kernels(server) == 1, 600, "the preheated kernel", 0.25)
        assert server.poll() is None, log_path.read_text()[-3000:]
        for process in psutil.Process(server.pid).children(recursive=True):
            env = process.environ()
            # a kernel reads the server's empty config folder, and makes no temporary one of its own at each start
            assert "JUPYTER_NO_CONFIG" not in env and os.path.isdir(env["JUPYTER_CONFIG_DIR"])
            assert os.path.basename(env["JUPYTER_CONFIG_DIR"]).startswith("rulebook-voila-")  # the server's own
        status, headers, page = _get(port, f"/?token={TOKEN}")
        assert status == 200 and "<title>Claim" in page
        first = _kernel_of(page)
        channels.append(_connect(port, first))  # the first page is open in its browser
        cookies = dict(value.split(";", 1)[0].split("=", 1) for value in headers.get_all("Set-Cookie"))
        assert "_xsrf" in cookies  # Voila set none for a preheated page, so the page's close beacon was refused

        # the pool refills with a kernel of its own; while it boots, it is held (stopped), so the second page, which
        # is given that kernel, is certainly still starting when the third page asks (whatever the machine's load)
        def refill():
            return [process for process in _kernel_processes(server) if first not in " ".join(process.cmdline())]

        _until(lambda: refill(), 600, "the pool's next kernel")
        held = refill()[0]
        held.suspend()
        second: dict = {}
        starting = threading.Thread(target=lambda: second.update(answer=_get(port, f"/?token={TOKEN}")))
        starting.start()
        _until(lambda: _let_in(log_path) == 2, 600, "the second page let in")
        # the second page is starting (it holds the pool's kernel, so the server runs 2): the third must wait
        status, headers, notice = _get(port, f"/?token={TOKEN}")
        assert status == 503 and 'data-notice="wait"' in notice and "1 page is starting before yours" in notice
        assert headers["Retry-After"] == "2" and "opens your game by itself" in notice
        again = re.search(r'http-equiv="refresh" content="2;url=([^"]+)"', notice).group(1).replace("&amp;", "&")
        assert again.startswith("/?") and f"token={TOKEN}" in again and "ticket=" in again
        assert starting.is_alive()  # the second page was still starting: its kernel is held
        held.resume()
        held = None
        starting.join()
        assert second["answer"][0] == 200
        channels.append(_connect(port, _kernel_of(second["answer"][2])))  # the second page is open too

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
        third = _kernel_of(page)
        # the second page goes without a word (its browser closed): its kernel is stopped after cull_disconnected;
        # the third page never connected (no browser here): its kernel is stopped after cull_unclaimed
        channels.pop().close()
        gone = [_kernel_of(second["answer"][2]), third]
        _until(lambda: not any(_alive(port, kernel) for kernel in gone), 600, "kernels no page is connected to", 0.25)
        _until(lambda: _kernels(server) == 1, 600, "the pool back at its size", 0.25)
        pool = _kernel_processes(server)[0]
        assert not any(kernel in " ".join(pool.cmdline()) for kernel in [first, *gone])  # the pool's own kernel
        time.sleep(2)  # the culler runs every second: the pool's kernel is never culled and the pool does not grow
        assert _kernel_processes(server) == [pool]
    finally:
        if held is not None:
            held.resume()
        for channel in channels:
            channel.close()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)
        log.close()
