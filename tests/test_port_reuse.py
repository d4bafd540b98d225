"""Issue 48.5: after `rulebook app` was killed with a browser connected, starting it again on the same --port was
refused ("port in use") while the old connections waited out TIME_WAIT. Such a port is free, as it is to the server
(tornado binds with SO_REUSEADDR); a port a process really listens on is refused with that process named."""

from __future__ import annotations

import os
import socket

import pytest

from rulebook import serve

IP = "127.0.0.1"


def _time_wait_port() -> int:
    """A port nobody listens on whose server side closed a connection first: it stays in TIME_WAIT (60 s on Linux)."""
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as tornado's listener (Linux keeps it on the
    server.bind((IP, 0))  # accepted connections, and lets a new bind with it reuse their port)
    server.listen()
    port = server.getsockname()[1]
    client = socket.create_connection((IP, port))
    accepted, _ = server.accept()
    accepted.close()  # the server's side closes first: it, not the client, waits in TIME_WAIT
    client.recv(1)
    client.close()
    server.close()
    return port


def test_a_port_left_in_time_wait_by_a_killed_server_is_free_again():
    port = _time_wait_port()
    with socket.socket() as plain:  # bound without SO_REUSEADDR the port is refused: the case the issue met
        with pytest.raises(OSError):
            plain.bind((IP, port))
    assert serve.choose_port(IP, port, 8888) == port


def test_a_port_a_process_listens_on_is_refused_with_the_process_named():
    with socket.socket() as listener:
        listener.bind((IP, 0))
        listener.listen()
        port = listener.getsockname()[1]
        with pytest.raises(ValueError, match=rf"--port {port}: that port is in use on {IP}") as refused:
            serve.choose_port(IP, port, 8888)
    message = str(refused.value)
    assert message.endswith("; choose another")
    if os.geteuid() == 0 or f"process {os.getpid()}" in message:  # the system tells root whose socket it is
        assert f"by process {os.getpid()}, python" in message
