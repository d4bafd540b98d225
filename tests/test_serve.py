"""The pieces of rulebook.serve and rulebook.voila_app that need no server: the door that lets a class in, the
environment that drops the user's Jupyter settings, ports, the supervisor that passes SIGTERM, SIGHUP and Ctrl-C on,
and which kernels are stopped when."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
import types
from datetime import datetime, timedelta, timezone

import pytest

from rulebook import serve, voila_app


def test_the_door_lets_pages_in_first_come_first_served_a_few_at_a_time():
    door = serve.Door(places=4, starting=2)
    first = door.arrive("", taken=0, now=0)
    second = door.arrive("", taken=0, now=0)
    assert first[0] == second[0] == "go" and door.in_flight == 2
    third = door.arrive("", taken=2, now=0)
    fourth = door.arrive("", taken=2, now=0)
    assert third[0] == fourth[0] == "wait" and third[1] != fourth[1]
    assert third[2] == 2 and fourth[2] == 3  # pages ahead: the two starting, then the third
    door.leave()
    assert door.arrive(fourth[1], taken=2, now=1)[0] == "wait"  # the third came first: it keeps its place
    assert door.arrive(third[1], taken=2, now=1)[0] == "go"
    door.leave()
    door.leave()
    assert door.arrive(fourth[1], taken=3, now=2)[0] == "go"


def test_the_door_says_the_server_is_full_and_forgets_people_who_left():
    door = serve.Door(places=2, starting=2, patience=10)
    assert door.arrive("", taken=2, now=0) == ("full", "", 2)
    assert door.arrive("", taken=1, now=0)[0] == "go"
    verdict, waiting, _ = door.arrive("", taken=1, now=0)  # one place left, one page starting: wait, not full
    assert verdict == "wait"
    assert door.arrive(waiting, taken=1, now=5)[0] == "wait" and list(door.queue) == [waiting]
    door.leave()
    verdict, newcomer, _ = door.arrive("", taken=1, now=20)
    assert verdict == "go" and newcomer != waiting  # the waiting page was not seen for 15 s: it left
    assert door.queue == {}


def test_the_door_refuses_a_forged_ticket_its_place_and_odd_sizes():
    door = serve.Door(places=3, starting=1)
    assert door.arrive("", taken=0, now=0)[0] == "go"
    verdict, ticket, _ = door.arrive("<script>", taken=1, now=0)
    assert verdict == "wait" and ticket != "<script>" and serve.TICKET.fullmatch(ticket)
    with pytest.raises(ValueError, match="whole numbers from 1"):
        serve.Door(places=0, starting=1)


def test_a_server_keeps_no_jupyter_setting_of_the_user(tmp_path):
    environ = {
        "HOME": "/home/someone",
        "PATH": "/usr/bin",
        "JUPYTER_TOKEN": "known",
        "JUPYTER_TOKEN_FILE": "/tmp/token",
        "JUPYTER_PORT": "80",
        "JUPYTER_CONFIG_DIR": "/home/someone/.jupyter",
        "JUPYTER_CONFIG_PATH": "/etc/hostile",
        "JUPYTER_PREFER_ENV_PATH": "1",
        "JUPYTER_SERVER_ALLOW_UNAUTHENTICATED_ACCESS": "1",
        "JUPYTER_DATA_DIR": "/data",
        "JUPYTER_RUNTIME_DIR": "/run/jupyter",
    }
    env = serve.isolated(environ, str(tmp_path))
    assert env["JUPYTER_NO_CONFIG"] == "1" and env["JUPYTER_CONFIG_DIR"] == str(tmp_path)
    assert {key for key in env if key.startswith("JUPYTER_")} == {
        "JUPYTER_NO_CONFIG",
        "JUPYTER_CONFIG_DIR",
        "JUPYTER_DATA_DIR",
        "JUPYTER_RUNTIME_DIR",
    }
    assert env["HOME"] == "/home/someone" and env["PATH"] == "/usr/bin"
    probe = "from jupyter_core.paths import jupyter_config_path; import json; print(json.dumps(jupyter_config_path()))"
    paths = json.loads(subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True).stdout)
    assert len(paths) == 1 and not os.listdir(paths[0])  # one empty folder of its own: not even /etc/jupyter


def test_only_the_installed_server_extensions_are_read_from_the_environment(tmp_path):
    folder = tmp_path / "etc/jupyter/jupyter_server_config.d"
    folder.mkdir(parents=True)
    (folder / "good.json").write_text(json.dumps({"ServerApp": {"jpserver_extensions": {"jupyterlab": True}}}))
    (folder / "hostile.json").write_text(
        json.dumps({"ServerApp": {"disable_check_xsrf": True, "jpserver_extensions": {"x; rm": True, "y": "yes"}}})
    )
    (folder / "broken.json").write_text("{")
    assert serve.installed_extensions(str(tmp_path)) == {"jupyterlab": True}
    assert serve.installed_extensions(str(tmp_path / "nowhere")) == {}


def test_ports_and_addresses():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ValueError, match=f"--port {port}: that port is in use"):
            serve.choose_port("127.0.0.1", port, 8888)
        assert serve.choose_port("127.0.0.1", None, port) != port
    with pytest.raises(ValueError, match="from 1 to 65535"):
        serve.choose_port("127.0.0.1", 70000, 8888)
    with pytest.raises(ValueError, match="an IP address"):
        serve.check_ip("evil.example")
    assert serve.check_ip("0.0.0.0") == "0.0.0.0" and serve.is_loopback("127.0.0.1")
    assert not serve.is_loopback("0.0.0.0") and serve.is_loopback("::1")
    assert serve.address("127.0.0.1", 8888, "/lab", "abc") == "http://127.0.0.1:8888/lab?token=abc"
    assert serve.address("0.0.0.0", 8866, "/", "abc") == f"http://{socket.gethostname()}:8866/?token=abc"
    assert 1 <= serve.default_places() <= serve.MAX_PLACES


def test_the_commands_give_every_security_setting_on_the_command_line(tmp_path):
    lab = serve.lab_command(8888, token="t" * 48, root_dir=tmp_path)
    assert lab[:4] == [sys.executable, "-m", "rulebook.serve", "lab"]
    for flag in (
        "--ServerApp.ip=127.0.0.1",
        "--IdentityProvider.token=" + "t" * 48,
        "--PasswordIdentityProvider.hashed_password=",
        "--ServerApp.disable_check_xsrf=False",
        "--ServerApp.allow_origin=",
        "--ServerApp.allow_origin_pat=",
        "--ServerApp.allow_credentials=False",
        "--ServerApp.allow_remote_access=False",
        "--ServerApp.port_retries=0",
        "--ServerApp.kernel_manager_class=rulebook.serve.kernel_manager.KernelManager",
        "--port=8888",
    ):
        assert flag in lab, flag
    assert ("--allow-root" in lab) == (os.geteuid() == 0)
    assert "--ServerApp.allow_remote_access=False" not in serve.lab_command(8888, ip="0.0.0.0")
    voila = serve.voila_command(tmp_path / "a.ipynb", 8866, None, files=["x[.]js"], max_kernels=3)
    token = next(part for part in voila if part.startswith("--token="))
    assert len(token) == len("--token=") + 48
    assert "--RulebookVoila.max_kernels=3" in voila and "--VoilaConfiguration.file_allowlist=['x[.]js']" in voila
    assert "--VoilaConfiguration.multi_kernel_manager_class=rulebook.serve.voila_app.RulebookKernelManager" in voila


CHILD = textwrap.dedent(
    """
    import signal, sys, time
    def stop(signum, frame):
        print("stopped by", signum, flush=True)
        sys.exit(0)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, lambda *a: print("SIGINT reached the child", flush=True))
    print("up", flush=True)
    while True:
        time.sleep(0.1)
    """
)

SUPERVISOR = textwrap.dedent(
    """
    import sys
    from rulebook import serve
    code = serve.supervise([sys.executable, "-c", sys.argv[1]], ready=lambda: True, announce="ready")
    print("supervisor exits", code, flush=True)
    """
)


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_the_supervisor_passes_a_stop_on_as_sigterm(name):
    supervisor = subprocess.Popen(
        [sys.executable, "-c", SUPERVISOR, CHILD], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        lines = [supervisor.stdout.readline().strip() for _ in range(2)]
        assert sorted(lines) == ["ready", "up"]
        supervisor.send_signal(getattr(signal, name))
        out, _ = supervisor.communicate(timeout=20)
    finally:
        if supervisor.poll() is None:
            os.killpg(supervisor.pid, signal.SIGKILL)
    assert out.split("\n")[:2] == [f"stopped by {signal.SIGTERM.value}", "supervisor exits 0"]


def test_the_supervisor_kills_a_server_that_does_not_stop():
    stubborn = "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nprint('up', flush=True)\n"
    stubborn += "time.sleep(60)"
    script = SUPERVISOR.replace('announce="ready")', 'announce="ready", grace=1)')
    supervisor = subprocess.Popen([sys.executable, "-c", script, stubborn], stdout=subprocess.PIPE, text=True)
    try:
        assert supervisor.stdout.readline()
        time.sleep(0.5)
        started = time.monotonic()
        supervisor.send_signal(signal.SIGTERM)
        out, _ = supervisor.communicate(timeout=20)
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
    assert "supervisor exits 0" in out and time.monotonic() - started < 10


def _manager_with(kernel_id: str, idle: float, connections: int, state: str = "idle"):
    manager = voila_app.RulebookKernelManager(root_dir="/tmp", cull_idle_timeout=3600, cull_connected=True)
    manager._kernels[kernel_id] = types.SimpleNamespace(
        last_activity=datetime.now(timezone.utc) - timedelta(seconds=idle),
        execution_state=state,
        kernel_spec=types.SimpleNamespace(metadata={}),
        kernel_name="python3",
    )
    manager._kernel_connections[kernel_id] = connections
    stopped: list[str] = []

    async def shutdown_kernel(kernel_id, now=False, restart=False):
        stopped.append(kernel_id)

    manager.shutdown_kernel = shutdown_kernel
    return manager, stopped


def test_a_kernel_whose_page_has_gone_is_stopped_after_a_minute():
    manager, stopped = _manager_with("k", idle=500, connections=1)
    asyncio.run(manager.cull_kernel_if_idle("k"))
    assert stopped == []  # its page is open (and an hour has not passed)
    manager._kernel_connections["k"] = 1
    manager.notify_disconnect("k")
    manager._left["k"] = datetime.now(timezone.utc) - timedelta(seconds=30)
    asyncio.run(manager.cull_kernel_if_idle("k"))
    assert stopped == []  # gone for 30 s: it may come back
    manager._left["k"] = datetime.now(timezone.utc) - timedelta(seconds=61)
    asyncio.run(manager.cull_kernel_if_idle("k"))
    assert stopped == ["k"]


def test_a_kernel_no_page_connected_to_is_stopped_two_minutes_after_it_was_handed_out():
    manager, stopped = _manager_with("k", idle=600, connections=0)
    manager.claimed("k")  # a preheated kernel run ten minutes ago, given to a page now
    asyncio.run(manager.cull_kernel_if_idle("k"))
    assert stopped == []
    manager, stopped = _manager_with("k", idle=121, connections=0)
    asyncio.run(manager.cull_kernel_if_idle("k"))
    assert stopped == ["k"]
    manager, stopped = _manager_with("k", idle=600, connections=0, state="busy")
    asyncio.run(manager.cull_kernel_if_idle("k"))
    assert stopped == []  # still running its notebook


def test_an_open_page_left_idle_is_stopped_after_the_idle_timeout():
    manager, stopped = _manager_with("k", idle=3601, connections=1)  # as rulebook app sets it: an hour
    asyncio.run(manager.cull_kernel_if_idle("k"))
    assert stopped == ["k"]


def test_pool_kernels_are_not_counted_as_pages():
    manager, _ = _manager_with("a", idle=0, connections=0)
    manager._kernels["b"] = manager._kernels["a"]  # the preheated pool's, or a page's still starting
    manager._pools = {"App.ipynb": [object()]}
    manager.served(["a", "gone"])  # a page served with "a"; a kernel stopped before its page was served
    assert manager.page_kernels() == 1
    manager.served(["b"])  # the page that took "b" from the pool has been served
    assert manager.page_kernels() == 2
    del manager._kernels["a"]  # a kernel stopped frees its place
    assert manager.page_kernels() == 1
