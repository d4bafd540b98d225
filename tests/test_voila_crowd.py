"""Issue 48.3: a page of `rulebook app` whose run fails on a busy machine is never left blank. Its kernel's output
comes later than the server waits for it ("Timeout waiting for IOPub output"), as on a machine shared by a class:
the page ends with the words that the server is busy and tries again by itself, its kernel is stopped, and the page
asked again is served its board. The slow output is made, not hoped for: in the first runs the kernel sends every
output (and its "idle") later than the server waits, while its replies go at once."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import time

import psutil

from rulebook import cli
from tests.helpers import free_port

TOKEN = "t0ken-for-the-crowd-test-" + "0" * 23
WIDGET = "application/vnd.jupyter.widget-view+json"  # a cell's board: what a blank page lacks
BUSY = "The server is busy: this page tries again by itself in 3 s."
# the first SLOW runs (of any kernel) hold their kernel's output back for HOLD seconds: the server waits 2
SLOW, HOLD = 2, 15
SLOW_CELL = f"""def _hold_output_back(hold):
    import os, queue, threading, time
    from IPython import get_ipython

    kernel = get_ipython().kernel
    session, send, held = kernel.session, kernel.session.send, queue.Queue()

    def later(stream, msg_or_type, content=None, parent=None, ident=None, buffers=None, track=False, header=None,
              metadata=None):
        if stream is not kernel.iopub_socket and stream is not kernel.iopub_thread:  # a reply: at once
            return send(stream, msg_or_type, content, parent, ident, buffers, track, header, metadata)
        msg = msg_or_type
        if not isinstance(msg, dict):
            msg = session.msg(msg_or_type, content=content, parent=parent, header=header, metadata=metadata)
        held.put((time.monotonic() + hold, stream, msg, ident, buffers))
        return msg

    def sender():
        while True:
            due, stream, msg, ident, buffers = held.get()
            time.sleep(max(0, due - time.monotonic()))
            send(stream, msg, ident=ident, buffers=buffers)

    for slot in range({SLOW}):
        try:
            os.close(os.open(os.path.join(os.environ["RULEBOOK_TEST_SLOW_RUNS"], str(slot)), os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            continue
        threading.Thread(target=sender, daemon=True).start()
        session.send = later
        return


_hold_output_back({HOLD})"""


def _get(port: int, path: str):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)  # ends only a hung run
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, answer.read().decode("utf-8", "replace")
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
    """Wait for ``check()`` (a state of the server, never a time); ``seconds`` only ends a hung run."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.25)


def _slow_notebook(folder) -> object:
    """The claim app's notebook with a first cell that holds back the output of the first SLOW runs."""
    path = cli.app_notebook("claim", folder)
    notebook = json.loads(path.read_text())
    cell = {"cell_type": "code", "execution_count": None, "id": "slow", "metadata": {}, "outputs": []}
    notebook["cells"].insert(0, {**cell, "source": SLOW_CELL})
    path.write_text(json.dumps(notebook))
    return path


def _kernel_of(page: str) -> str:
    return re.search(r'"kernelId": "([0-9a-f-]{36})"', page).group(1)


def test_a_page_whose_run_timed_out_says_it_retries_and_is_served_when_asked_again(tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    port = free_port()
    command = cli.voila_command(_slow_notebook(tmp_path), port, TOKEN, max_kernels=2)
    command.append("--VoilaExecutor.iopub_timeout=2")
    log_path = tmp_path / "voila.log"
    log = open(log_path, "w")
    env = dict(os.environ, RULEBOOK_TEST_SLOW_RUNS=str(runs))
    server = subprocess.Popen(
        command, stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True, env=env
    )
    try:
        _until(lambda: server.poll() is not None or _kernels(server) == 1, 600, "the preheated kernel")
        assert server.poll() is None, log_path.read_text()[-3000:]
        seen = []
        for _ in range(SLOW):  # the preheated kernel's run, then its refill's: both held their output back
            status, page = _get(port, f"/?token={TOKEN}")
            assert status == 200
            assert BUSY in page and 'document.body.dataset.notice = "busy"' in page, page[-2000:]
            assert 'window.location.replace("/?token=' in page  # it tries again by itself, with its token
            kernel = _kernel_of(page)
            assert _get(port, f"/api/kernels/{kernel}?token={TOKEN}")[0] == 404  # stopped: its place is free
            seen.append(kernel)
        assert sorted(os.listdir(runs)) == ["0", "1"]
        said = log_path.read_text(errors="replace")
        assert said.count("Timeout waiting for IOPub output") >= SLOW and "whose run failed" in said

        status, page = _get(port, f"/?token={TOKEN}")  # asked again: served, its board in the page
        assert status == 200 and WIDGET in page and BUSY not in page
        served = _kernel_of(page)
        assert served not in seen and _get(port, f"/api/kernels/{served}?token={TOKEN}")[0] == 200
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)
        log.close()
        print(log_path.read_text(errors="replace")[-6000:])
