"""A notebook (or the Voila app's kernel) plays a class table through the Python client (issue 45.4): in a real
kernel, ``App(game, table=Client(address).join(code))`` hears the table over its WebSocket between cells (the kernel's
event loop runs it) and sends its moves there."""

from __future__ import annotations

import time

import pytest
from jupyter_client.manager import start_new_kernel

from rulebook import registry
from rulebook.tables import Client
from tests.test_class_server import Server, free_port

pytestmark = pytest.mark.xdist_group("class_server")


def _run(client, code: str) -> str:
    """Run ``code`` in the kernel; its printed output (an error fails with the kernel's traceback)."""
    reply_id = client.execute(code)
    out: list[str] = []
    while True:
        message = client.get_iopub_msg(timeout=60)
        if message["parent_header"].get("msg_id") != reply_id:
            continue
        kind, content = message["msg_type"], message["content"]
        if kind == "stream":
            out.append(content["text"])
        elif kind == "error":
            raise AssertionError("\n".join(content["traceback"]))
        elif kind == "status" and content["execution_state"] == "idle":
            return "".join(out)


def test_a_kernel_plays_a_table_and_hears_the_others(tmp_path):
    server = Server(str(tmp_path / "class.db"), free_port(), "--no-site")
    manager, kernel = start_new_kernel(kernel_name="python3")
    try:
        teacher = Client(server.teacher)
        code = teacher.create("claim", players=2, seed=3)
        bob = teacher.join(code, seat=1, name="Bob")
        _run(
            kernel,
            "from rulebook.app import App\nfrom rulebook.tables import Client\n"
            f"app = App('claim', table=Client({server.teacher!r}).join({code!r}, seat=0, name='Ann'))\n"
            "board = app.board\n",
        )
        # the kernel's board plays Ann's move once its socket is open (between cells, on the kernel's loop)
        deadline = time.monotonic() + 30
        while _run(kernel, "print(app.table_seat.connection._socket is not None)").strip() != "True":
            assert time.monotonic() < deadline, "the seat's socket did not open in the kernel"
            time.sleep(0.3)
        # Ann plays from the kernel until it is Bob's turn (the table's server checks each move again)
        for _ in range(12):
            if bob.legal_moves():
                break
            played = teacher.watch(code)["moves"]
            said = _run(kernel, "print(board.play(board.game.legal_moves(board.session.live)[0]), board.message)")
            assert said.startswith("True"), said
            deadline = time.monotonic() + 30
            while (
                teacher.watch(code)["moves"] <= played
                or _run(kernel, "print(board.session.waiting)").strip() != "False"
            ):
                assert time.monotonic() < deadline, "Ann's move did not reach the table and come back"
                time.sleep(0.2)
        assert teacher.watch(code)["moves"] >= 1
        # Bob plays from elsewhere: the kernel's board shows it without any cell asking
        bob.play(bob.legal_moves()[0])
        deadline = time.monotonic() + 30
        while True:
            told = _run(kernel, "print(app.table_seat.seen['moves'], board.message)")
            if (
                told.split()[0] == str(teacher.watch(code)["moves"])
                and f"{registry.game('claim').seat_names(2)[1]}:" in told
            ):
                break
            assert time.monotonic() < deadline, told
            time.sleep(0.3)
    finally:
        kernel.stop_channels()
        manager.shutdown_kernel(now=True)
        server.stop()
