"""``rulebook lab`` listens on this machine only and asks for a token, whatever the user's Jupyter config says."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from rulebook.cli import lab_command


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _listening(port: int) -> list[str]:
    """Local addresses (hex, as /proc shows them) that listen on ``port``."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        with open(table) as lines:
            for line in list(lines)[1:]:
                local, state = line.split()[1], line.split()[3]
                address, hex_port = local.split(":")
                if state == "0A" and int(hex_port, 16) == port:
                    found.append(address)
    return found


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_the_command_names_the_address_and_a_token():
    command = lab_command(8888)
    assert "--ServerApp.ip=127.0.0.1" in command and "--port=8888" in command
    token = [part for part in command if part.startswith("--IdentityProvider.token=")]
    assert len(token) == 1 and len(token[0].split("=", 1)[1]) >= 32
    assert lab_command(None, token="abc")[-2 if os.geteuid() == 0 else -1].endswith("=abc")


@pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="reads listening sockets from /proc")
def test_a_hostile_user_config_neither_opens_the_address_nor_drops_the_token(tmp_path):
    config = tmp_path / "config"
    config.mkdir()
    (config / "jupyter_server_config.json").write_text(
        json.dumps({"ServerApp": {"ip": "0.0.0.0"}, "IdentityProvider": {"token": ""}})
    )
    port = _free_port()
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(config), "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}
    server = subprocess.Popen(
        lab_command(port, token="t0ken-for-the-test"), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        base = f"http://127.0.0.1:{port}/api/contents"
        for _ in range(600):
            try:
                if _status(base + "?token=t0ken-for-the-test") == 200:
                    break
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.1)
        assert _status(base + "?token=t0ken-for-the-test") == 200
        assert _status(base) == 403  # no token: refused
        assert _listening(port) == ["0100007F"]  # 127.0.0.1 only, not 0.0.0.0
    finally:
        server.terminate()
        server.wait(timeout=30)
