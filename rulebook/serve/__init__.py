"""The servers behind ``rulebook lab`` and ``rulebook app``, started so that nobody's Jupyter settings weaken them.

Each server runs as ``python -m rulebook.serve lab|voila ARGS`` and, before Jupyter reads anything, drops the
user's Jupyter configuration: no config file from ``~/.jupyter``, ``$JUPYTER_CONFIG_DIR``, ``$JUPYTER_CONFIG_PATH``,
the working folder or the system folders, no ``JUPYTER_TOKEN`` or ``JUPYTER_PORT`` from the environment. The
security settings (address, token, XSRF checks, allowed origins, identity provider) are then given on the command
line, which is what the server obeys: a fresh token is always required, and the address is 127.0.0.1 unless
``--ip`` names another on purpose. The parent side (:func:`supervise`) prints the address with its token once the
server answers and stops the server, and with it every kernel, on SIGTERM, SIGHUP and Ctrl-C.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path

LOOPBACK = "127.0.0.1"
LAB_PORT, APP_PORT = 8888, 8866
PORT_TRIES = 50
# the environment a server keeps: where data, kernels and runtime files live; nothing that sets a token, a port or
# a config folder (JUPYTER_TOKEN, JUPYTER_TOKEN_FILE, JUPYTER_PORT, JUPYTER_CONFIG_DIR, JUPYTER_CONFIG_PATH, ...)
KEPT = ("JUPYTER_PATH", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTER_PLATFORM_DIRS")
MEBIBYTE = 1 << 20
PLACE = 300 * MEBIBYTE  # memory set aside per game served at once (a page's kernel takes about 120 MiB)
MAX_PLACES = 64


def is_loopback(ip: str) -> bool:
    """Whether ``ip`` is this machine only (127.0.0.0/8, ::1 or localhost)."""
    if ip == "localhost":
        return True
    try:
        return ipaddress.ip_address(ip).is_loopback
    except ValueError:
        return False


def check_ip(ip: str) -> str:
    """``ip`` if it is an IP address or ``localhost``; ValueError otherwise (a host name could resolve anywhere)."""
    if ip != "localhost":
        try:
            ipaddress.ip_address(ip)
        except ValueError:
            raise ValueError(f"--ip: an IP address such as 127.0.0.1 or 0.0.0.0, not {ip[:80]!r}") from None
    return ip


def _bindable(ip: str, port: int) -> bool:
    """Whether a server could listen on ``port`` now. Bound as the server binds (tornado sets SO_REUSEADDR): a port
    whose last connections wait out TIME_WAIT, as after a server killed with a browser connected, is free."""
    family = socket.AF_INET6 if ":" in ip else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        if os.name != "nt":  # on Windows SO_REUSEADDR would let two servers share a port
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((ip, port))
        except OSError:
            return False
    return True


def _holder(port: int) -> str:
    """Which process listens on ``port``, in words (" by process 123, python3"), or "" when the system does not say."""
    with contextlib.suppress(ImportError, OSError, AttributeError, RuntimeError):
        import psutil

        for connection in psutil.net_connections(kind="inet"):
            if connection.status == psutil.CONN_LISTEN and connection.laddr and connection.laddr.port == port:
                if connection.pid is None:
                    return " by another user's process"
                return f" by process {connection.pid}, {psutil.Process(connection.pid).name()}"
    return ""


def choose_port(ip: str, port: int | None, default: int) -> int:
    """``port`` if it is free on ``ip`` (ValueError if not), else the first free port from ``default`` on (as
    Jupyter would pick, but known before the server starts, so that its address can be printed)."""
    if port is not None:
        if not 1 <= port <= 65535:
            raise ValueError(f"--port: a number from 1 to 65535, not {port}")
        if not _bindable(ip, port):
            raise ValueError(f"--port {port}: that port is in use on {ip}{_holder(port)}; choose another")
        return port
    for candidate in range(default, default + PORT_TRIES):
        if _bindable(ip, candidate):
            return candidate
    raise ValueError(f"no free port from {default} to {default + PORT_TRIES - 1} on {ip}; choose one with --port")


def local_host(ip: str) -> str:
    """The host to reach a server listening on ``ip`` from this machine."""
    if ip in ("0.0.0.0", ""):
        return LOOPBACK
    if ip == "::":
        return "[::1]"
    return f"[{ip}]" if ":" in ip else ip


def address(ip: str, port: int, path: str, token: str) -> str:
    """The address a person opens: with the token, and the machine's name when the server listens everywhere."""
    host = socket.gethostname() if ip in ("0.0.0.0", "", "::") else local_host(ip)
    return f"http://{host}:{port}{path}?token={token}"


def fresh_token() -> str:
    return secrets.token_hex(24)


def default_places() -> int:
    """How many games ``rulebook app`` serves at once unless told: one per 300 MB of memory available now, 1 to 64."""
    available = None
    with contextlib.suppress(ImportError, OSError, AttributeError):
        import psutil

        available = psutil.virtual_memory().available
    if available is None:
        with contextlib.suppress(ValueError, OSError, AttributeError):
            available = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    if available is None:
        return 8
    return max(1, min(MAX_PLACES, available // PLACE))


TICKET = re.compile(r"[A-Za-z0-9_-]{8,32}")


class Door:
    """Who may open a game now, when a class opens the same address at once: at most ``places`` pages' kernels,
    at most ``starting`` pages started together (a page's kernel start and first run take the CPU), first come
    first served. A page that must wait is told so and comes back with its ticket; a page that cannot be served
    is told the server is full. Tickets not seen for ``patience`` seconds are forgotten (the person left)."""

    def __init__(self, places: int, starting: int, patience: float = 10.0) -> None:
        if places < 1 or starting < 1:
            raise ValueError(f"places and starting: whole numbers from 1, not {places} and {starting}")
        self.places, self.starting, self.patience = places, starting, patience
        self.in_flight = 0
        self.queue: dict[str, float] = {}  # ticket -> last seen, in order of arrival

    def arrive(self, ticket: str, taken: int, now: float) -> tuple[str, str, int]:
        """The verdict for a page asked for with ``ticket`` ("" the first time) while ``taken`` pages' kernels run:
        ("go", ticket, 0) then :meth:`leave` once the page is served, ("wait", ticket, pages ahead) or
        ("full", "", places)."""
        for old, seen in list(self.queue.items()):
            if now - seen > self.patience:
                del self.queue[old]
        if taken >= self.places:
            self.queue.pop(ticket, None)
            return "full", "", self.places
        if not TICKET.fullmatch(ticket):
            ticket = secrets.token_urlsafe(12)
        self.queue[ticket] = now  # a ticket seen again keeps its place
        ahead = list(self.queue).index(ticket)
        if ahead < self.starting - self.in_flight and taken + self.in_flight < self.places:
            del self.queue[ticket]
            self.in_flight += 1
            return "go", ticket, 0
        return "wait", ticket, ahead + self.in_flight

    def leave(self) -> None:
        """A page let in has been served (or its request ended)."""
        self.in_flight = max(0, self.in_flight - 1)


# the commands


def _as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def lab_command(
    port: int | None, ip: str = LOOPBACK, token: str | None = None, root_dir: Path | None = None
) -> list[str]:
    """JupyterLab on ``root_dir``, on ``ip`` with ``token`` (fresh if not given), whatever the user's config says:
    the launcher reads none, and every security setting is given here."""
    command = [sys.executable, "-m", "rulebook.serve", "lab", "--no-browser"]
    if root_dir is not None:
        command.append(f"--ServerApp.root_dir={root_dir}")
    command += [
        f"--ServerApp.ip={ip}",
        f"--IdentityProvider.token={token or fresh_token()}",
        "--PasswordIdentityProvider.hashed_password=",
        "--PasswordIdentityProvider.allow_password_change=False",
        "--ServerApp.identity_provider_class=jupyter_server.auth.identity.PasswordIdentityProvider",
        "--ServerApp.authorizer_class=jupyter_server.auth.authorizer.AllowAllAuthorizer",
        "--ServerApp.disable_check_xsrf=False",
        "--ServerApp.allow_origin=",
        "--ServerApp.allow_origin_pat=",
        "--ServerApp.allow_credentials=False",
        "--ServerApp.port_retries=0",
        "--ServerApp.kernel_manager_class=rulebook.serve.kernel_manager.KernelManager",
    ]
    if is_loopback(ip):
        command.append("--ServerApp.allow_remote_access=False")
    if port:
        command.append(f"--port={port}")
    if _as_root():
        command.append("--allow-root")  # JupyterLab refuses to start as root without it
    return command


def voila_command(
    notebook: Path,
    port: int | None,
    token: str | None,
    *,
    files: Sequence[str] = (),
    ip: str = LOOPBACK,
    max_kernels: int | None = None,
    idle_timeout: int = 3600,
) -> list[str]:
    """Voila on ``notebook`` (see :mod:`rulebook.voila_app`), on ``ip`` with ``token`` (fresh if not given), a
    kernel preheated before anyone asks; the page may fetch the files beside the notebook whose names match a
    pattern of ``files``; at most ``max_kernels`` pages at once (default: as the memory allows), closed pages'
    kernels stopped, idle ones after ``idle_timeout`` seconds."""
    command = [
        sys.executable,
        "-m",
        "rulebook.serve",
        "voila",
        str(notebook),
        "--no-browser",
        f"--Voila.ip={ip}",
        f"--Voila.root_dir={notebook.parent}",
        "--Voila.port_retries=0",
        "--preheat_kernel=True",
        "--pool_size=1",
        f"--VoilaConfiguration.file_allowlist={list(files)!r}",
        "--VoilaConfiguration.multi_kernel_manager_class=rulebook.serve.voila_app.RulebookKernelManager",
        f"--RulebookKernelManager.cull_idle_timeout={idle_timeout}",
        "--RulebookKernelManager.cull_interval=15",
        "--RulebookKernelManager.cull_connected=True",
        f"--token={token or fresh_token()}",
    ]
    if max_kernels is not None:
        command.append(f"--RulebookVoila.max_kernels={max_kernels}")
    if port:
        command.append(f"--port={port}")
    return command


# the parent side


def answers(url: str, token: str = "", timeout: float = 2) -> bool:
    """Whether an HTTP server answers ``url`` at all (any status)."""
    request = urllib.request.Request(url, headers={"Authorization": f"token {token}"} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout):
            return True
    except urllib.error.HTTPError:
        return True
    except (OSError, ValueError):
        return False


def listens(host: str, port: int, timeout: float = 1) -> bool:
    """Whether something accepts connections on ``host``:``port``."""
    try:
        socket.create_connection((host.strip("[]"), port), timeout=timeout).close()
        return True
    except OSError:
        return False


STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name))


def supervise(
    command: Sequence[str],
    *,
    ready: Callable[[], bool],
    announce: str,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    grace: float = 20.0,
    out: Callable[[str], None] = print,
) -> int:
    """Run a server until it ends or this process is told to stop. ``announce`` is printed once ``ready()`` says the
    server answers. SIGTERM, SIGHUP and SIGINT (Ctrl-C) are passed on as SIGTERM, upon which the server stops its
    kernels and exits; after ``grace`` seconds it is killed. The server runs in its own session, so a Ctrl-C reaches
    it once, through here."""
    child = subprocess.Popen(list(command), stdin=subprocess.DEVNULL, start_new_session=True, env=env, cwd=cwd)
    stopping: list[int] = []

    def stop(signum: int, _frame: object) -> None:
        stopping.append(signum)
        with contextlib.suppress(ProcessLookupError):
            child.send_signal(signal.SIGTERM)

    previous = {sig: signal.signal(sig, stop) for sig in STOP_SIGNALS}
    try:
        announced = False
        deadline = None
        while True:
            try:
                code = child.wait(timeout=0.25)
                break
            except subprocess.TimeoutExpired:
                pass
            if stopping:
                deadline = deadline or time.monotonic() + grace
                if time.monotonic() > deadline:
                    _kill(child)
            elif not announced and ready():
                out(announce)
                announced = True
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if child.poll() is None:
            _kill(child)
    return 0 if stopping else code


def _kill(child: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        child.wait(timeout=5)


# the server side: ``python -m rulebook.serve lab|voila ARGS``


def isolated(environ: dict[str, str], folder: str) -> dict[str, str]:
    """The environment of a server that reads no user configuration: every ``JUPYTER_*`` variable dropped but
    those that say where data lives (:data:`KEPT`), and Jupyter told to read no config folder at all."""
    env = {key: value for key, value in environ.items() if not key.startswith("JUPYTER_") or key in KEPT}
    env["JUPYTER_NO_CONFIG"] = "1"  # jupyter_core: the config path is one empty folder of its own
    env["JUPYTER_CONFIG_DIR"] = folder
    return env


def installed_extensions(prefix: str = sys.prefix) -> dict[str, bool]:
    """The server extensions this environment's packages enable (``jpserver_extensions`` in
    ``<prefix>/etc/jupyter/jupyter_server_config.d``): only that key is read from those files."""
    found: dict[str, bool] = {}
    folder = Path(prefix, "etc", "jupyter", "jupyter_server_config.d")
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        with contextlib.suppress(OSError, ValueError, AttributeError):
            extensions = json.loads(path.read_text(encoding="utf-8")).get("ServerApp", {}).get("jpserver_extensions")
            for name, enabled in (extensions or {}).items():
                if isinstance(name, str) and re.fullmatch(r"[\w.]+", name) and isinstance(enabled, bool):
                    found[name] = enabled
    return found


def _watch_parent() -> None:
    """Stop this server (SIGTERM to itself) when the process that started it is gone, even if it was killed."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="rulebook-parent-watch", daemon=True).start()


def _hang_up_stops() -> None:
    """SIGHUP stops the server as SIGTERM does (Jupyter handles SIGTERM: it stops its kernels first)."""
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, lambda *_: os.kill(os.getpid(), signal.SIGTERM))


def _clean(folder: str) -> None:
    """Remove the server's own folder, and the empty config folder jupyter_core made for JUPYTER_NO_CONFIG."""
    shutil.rmtree(folder, ignore_errors=True)
    with contextlib.suppress(ImportError, OSError):
        from jupyter_core.paths import jupyter_config_dir

        made = Path(jupyter_config_dir())
        if os.environ.get("JUPYTER_NO_CONFIG") and made.name.startswith("jupyter-clean-cfg-"):
            shutil.rmtree(made, ignore_errors=True)


# the defaults a person's own Lab settings may still change: no toast asking about Jupyter's news feed over the
# notebook at the first start, no news fetched and no check for newer versions (a class has no use for them)
QUIET_LAB = {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False}}


def lab_settings(folder: Path, installed: Path) -> Path:
    """JupyterLab's application settings folder for one server, made in ``folder``: the files of the ``installed``
    one (page config, overrides) with :data:`QUIET_LAB` added to its overrides; JupyterLab finds its built files
    beside it (``static``, linked), as it does beside the installed one."""
    settings = Path(folder, "lab", "settings")
    settings.mkdir(parents=True, exist_ok=True)
    if installed.is_dir():
        for path in installed.iterdir():
            if path.is_file() and path.name not in ("overrides.json", "overrides.json5"):
                shutil.copy2(path, settings / path.name)
        if (installed / "overrides.d").is_dir():
            shutil.copytree(installed / "overrides.d", settings / "overrides.d", dirs_exist_ok=True)
    overrides: dict = {}
    with contextlib.suppress(OSError, ValueError):
        read = json.loads((installed / "overrides.json").read_text(encoding="utf-8"))
        overrides = read if isinstance(read, dict) else {}
    for plugin, values in QUIET_LAB.items():
        kept = overrides.get(plugin)
        overrides[plugin] = {**(kept if isinstance(kept, dict) else {}), **values}
    (settings / "overrides.json").write_text(json.dumps(overrides, indent=1), encoding="utf-8")
    static = installed.parent / "static"
    if static.is_dir() and not (settings.parent / "static").exists():
        with contextlib.suppress(OSError):  # only lets source extensions disable others; Lab runs without it
            (settings.parent / "static").symlink_to(static, target_is_directory=True)
    return settings


def _lab(argv: list[str]) -> int:
    from jupyterlab.commands import get_app_dir, get_user_settings_dir, get_workspaces_dir

    # the person's own Lab settings and workspaces stay theirs (they are preferences, not server settings)
    settings, workspaces = get_user_settings_dir(), get_workspaces_dir()
    folder = tempfile.mkdtemp(prefix="rulebook-lab-")
    try:
        env = isolated(dict(os.environ), folder)
        env["JUPYTERLAB_SETTINGS_DIR"], env["JUPYTERLAB_WORKSPACES_DIR"] = settings, workspaces
        os.environ.clear()
        os.environ.update(env)
        config = Path(folder, "rulebook_lab_config.json")
        quiet = lab_settings(Path(folder), Path(get_app_dir(), "settings"))
        config.write_text(
            json.dumps(
                {
                    "ServerApp": {"jpserver_extensions": installed_extensions()},
                    "LabApp": {
                        "app_settings_dir": str(quiet),
                        "news_url": None,
                        "check_for_updates_class": "jupyterlab.handlers.announcements.NeverCheckForUpdate",
                    },
                }
            )
        )
        _watch_parent()
        _hang_up_stops()
        from jupyterlab.labapp import LabApp

        LabApp.launch_instance([*argv, f"--config={config}"])
        return 0
    finally:
        _clean(folder)


def _voila(argv: list[str]) -> int:
    folder = tempfile.mkdtemp(prefix="rulebook-voila-")
    try:
        env = isolated(dict(os.environ), folder)
        os.environ.clear()
        os.environ.update(env)
        _watch_parent()
        _hang_up_stops()
        from rulebook.serve.voila_app import RulebookVoila

        RulebookVoila.launch_instance(argv)
        return 0
    finally:
        _clean(folder)


def skip_unused_iri_grammars() -> None:
    """jsonschema, imported by every Jupyter server (its event schemas), looks for ``rfc3987_syntax`` when it loads and,
    where that is installed (jupyter_events asks for jsonschema's ``format-nongpl`` extra), builds its 38 grammars
    there and then: 1.7 s of CPU of the 2.5 s a Voila server takes to import, at every start of every server. They
    check the "iri" and "iri-reference" string formats, which no schema of Jupyter's, Voila's or nbformat's uses.
    Marked absent, jsonschema imports none of it and leaves those two formats unchecked, as it does where the package
    is not installed."""
    sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]  # None: "import fails", by Python's rule


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    skip_unused_iri_grammars()
    if not argv or argv[0] not in ("lab", "voila"):
        print("usage: python -m rulebook.serve lab|voila ARGS (started by `rulebook lab` and `rulebook app`)")
        return 2
    return _lab(argv[1:]) if argv[0] == "lab" else _voila(argv[1:])
