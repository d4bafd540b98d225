"""Issue 48.9, the games' and the Lab's polish: a Claim hint plays a whole multi-jump and continues one in progress,
Meetjesland's refusals in the controls carry their rule, its map labels keep off the pieces, its chain planner sits
beside the map, and ``rulebook lab`` starts without JupyterLab's news toast over the notebook."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.request
from pathlib import Path

from rulebook import serve, working_copy
from tests.helpers import free_port

NOTIFICATION = "@jupyterlab/apputils-extension:notification"


def test_the_lab_settings_turn_off_the_news_toast_and_keep_the_installed_ones(tmp_path):
    installed = tmp_path / "share/jupyter/lab/settings"
    installed.mkdir(parents=True)
    (installed / "page_config.json").write_text('{"disabledExtensions": ["x"]}')
    (installed / "overrides.json").write_text(json.dumps({NOTIFICATION: {"doNotDisturbMode": True}, "other": {"a": 1}}))
    (installed.parent / "static").mkdir()
    settings = serve.lab_settings(tmp_path / "server", installed)
    overrides = json.loads((settings / "overrides.json").read_text())
    assert overrides[NOTIFICATION] == {"doNotDisturbMode": True, "fetchNews": "false", "checkForUpdates": False}
    assert overrides["other"] == {"a": 1}
    assert (settings / "page_config.json").read_text() == '{"disabledExtensions": ["x"]}'
    assert (settings.parent / "static").resolve() == (installed.parent / "static").resolve()
    assert json.loads((installed / "overrides.json").read_text())[NOTIFICATION] == {"doNotDisturbMode": True}
    # an installed Lab without a settings folder at all
    bare = serve.lab_settings(tmp_path / "bare", tmp_path / "nowhere")
    assert json.loads((bare / "overrides.json").read_text()) == serve.QUIET_LAB


def test_rulebook_lab_serves_the_notification_settings_with_news_off(tmp_path):
    """The real server ``rulebook lab`` starts: the settings the page loads say never fetch news (so no toast asks)
    and never check for updates, while the person's own Lab settings folder holds nothing of the kind."""
    copy = working_copy.prepare(tmp_path / "notebooks").folder
    port, token = free_port(), "t" * 48
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "home-jupyter"), JUPYTER_RUNTIME_DIR=str(tmp_path / "rt"))
    process = subprocess.Popen(
        serve.lab_command(port, token=token, root_dir=copy),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/lab/api/settings/{NOTIFICATION}?token={token}"
    try:
        deadline, answer = time.monotonic() + 120, None
        while answer is None:
            assert process.poll() is None and time.monotonic() < deadline, "the Lab server did not answer"
            try:
                with urllib.request.urlopen(url, timeout=5) as response:
                    answer = json.load(response)
            except OSError:
                time.sleep(0.5)
    finally:
        process.terminate()
        process.wait(timeout=30)
    defaults = {name: value.get("default") for name, value in answer["schema"]["properties"].items()}
    assert defaults["fetchNews"] == "false" and defaults["checkForUpdates"] is False  # JupyterLab's own: "none", true
    assert "fetchNews" not in answer["settings"]  # the person's own settings: nothing chosen for them
    assert not Path(tmp_path / "home-jupyter").exists() or not any(Path(tmp_path / "home-jupyter").rglob("*.json"))
