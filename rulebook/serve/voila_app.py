"""Voila as ``rulebook app`` serves a game (``python -m rulebook.serve voila``): Voila with what a class on one
server needs.

- No configuration but the command line's (:mod:`rulebook.serve` drops the user's): a token is required, nothing in
  ``tornado_settings`` can turn off the XSRF check or allow other origins, and on 127.0.0.1 the Host is checked.
- A closed page frees its kernel: the page's ``beforeunload`` beacon (POST ``voila/api/shutdown/<kernel>``) carries
  the ``_xsrf`` cookie, which Voila never set for a preheated page, so it was refused and every kernel stayed. A
  kernel whose page went without a word is stopped within a minute of losing its connection; one that no page
  ever claimed, after two; an open page left idle, after ``cull_idle_timeout`` (an hour). The preheated pool is
  never culled and stays at its size.
- Nothing from another host: Voila's pages link Font Awesome from cdn.jsdelivr.net (which ipywidgets' icons need,
  and which Voila's own voila-style.js holds already). ``rulebook/voila_templates`` comes first in the template
  paths: the app's page without those links, and the frame of Voila's other pages (errors) without its own.
- Many pages at once: at most ``max_kernels`` games (default: as the memory allows) and ``max_starting`` pages
  started together (default: one per core). A page that must wait, or cannot be served, gets a short page that says
  so in words and tries again by itself (:class:`rulebook.serve.Door`), never a blank one.
- A run that fails is never a blank page: on a busy machine a kernel's output can come later than nbclient waits for
  it after the cell's reply ("Timeout waiting for IOPub output"); nbclient then dropped the rest of the output, the
  board's widget with it, and the page stayed empty. The executor (:class:`RulebookExecutor`) waits longer, and a run
  that still times out, or whose kernel died or did not start, ends its page with the words that the server is busy
  and that the page tries again by itself; its kernel is stopped, which frees its place.
"""

from __future__ import annotations

import html
import json
import os
import time
from collections.abc import Iterable
from contextvars import ContextVar
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import tornado.web
from jupyter_core.utils import ensure_async
from jupyter_server.auth.authorizer import AllowAllAuthorizer
from jupyter_server.auth.identity import PasswordIdentityProvider
from nbclient.exceptions import CellExecutionError
from traitlets import Bool, Integer, default
from voila import notebook_renderer
from voila.app import Voila
from voila.execute import VoilaExecutor
from voila.tornado.handler import TornadoVoilaHandler

from rulebook.serve import Door, default_places, is_loopback
from rulebook.serve.kernel_manager import KernelManager

TEMPLATES = Path(__file__).with_name("voila_templates")  # before Voila's own: its pages without a CDN's files
# seconds before a waiting page, a page told the server is full, and a page whose run failed, try again
WAIT_REFRESH, FULL_REFRESH, FAILED_REFRESH = 2, 30, 3
BUSY = "The server is busy: this page tries again by itself in {seconds} s."
# kernels whose run failed (timed out, or the kernel died): the page given one is told to try again, and it is stopped
FAILED: set[str] = set()
# the kernel of the page this request is serving, once it has one (None outside a page's request, and in the
# preheated pool's refill, which Voila starts from inside a page's request)
SERVING: ContextVar[list[str] | None] = ContextVar("rulebook_serving", default=None)

NOTICE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="{refresh};url={again}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{heading}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 36em; margin: 4em auto; padding: 0 1em; line-height: 1.5;
       color: #222; }}
h1 {{ font-size: 1.4em; }}
</style>
</head>
<body class="rulebook-notice" data-notice="{kind}">
<h1>{heading}</h1>
<p>{text}</p>
<p><a href="{again}">Try again now</a></p>
</body>
</html>
"""


# what ends a page whose run failed, after what Voila has sent of it: the notice over the page, and its retry
RETRY = """
<div class="rulebook-notice rulebook-retry" role="alert" style="position: fixed; inset: 0; z-index: 2147483647;
 background: #fff; color: #222; font-family: system-ui, sans-serif; line-height: 1.5; padding: 4em 1em;">
<div style="max-width: 36em; margin: 0 auto;">
<h1 style="font-size: 1.4em;">{heading}</h1>
<p>{text}</p>
<p><a href="{again}">Try again now</a></p>
</div>
</div>
<script>
document.body.dataset.notice = "busy";
setTimeout(function () {{ window.location.replace({again_js}); }}, {refresh} * 1000);
</script>
"""


class RulebookExecutor(VoilaExecutor):
    """Voila's executor, waiting longer for a cell's output on a busy machine and, where the run still fails (no
    output in time, a dead kernel), noting its kernel in :data:`FAILED` so that its page is told to try again."""

    iopub_timeout = Integer(20, config=True, help="seconds to wait for a cell's output once its reply has come")
    raise_on_iopub_timeout = Bool(True, config=True, help="a cell whose output did not come in time fails the run")
    timeout = Integer(45, allow_none=True, config=True, help="seconds a cell may run before the run fails")

    async def execute_cell(self, cell: Any, resources: Any, cell_index: int, store_history: bool = True) -> Any:
        try:
            return await super().execute_cell(cell, resources, cell_index, store_history)
        except CellExecutionError:
            raise  # the notebook's own error: running it again would fail again
        except Exception:
            kernel_id = getattr(self.km, "kernel_id", None)
            if kernel_id:
                FAILED.add(kernel_id)
            raise


class RulebookKernelManager(KernelManager):
    """Kernels that end with their page: stopped 45 s after their last connection closed (within a minute, with the
    culler's 15 s interval), two minutes after they were handed out if no page ever connected, and (jupyter_server's
    own culling, ``cull_connected``) after ``cull_idle_timeout`` seconds without a message even with a page open."""

    cull_disconnected = Integer(45, config=True, help="seconds a kernel is kept once its page has gone")
    cull_unclaimed = Integer(120, config=True, help="seconds a kernel is kept for a page that never connected")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._left: dict[str, datetime] = {}  # kernel -> when its last connection closed
        self._claimed: dict[str, datetime] = {}  # kernel -> when a page was given it (a preheated kernel)
        self._served: set[str] = set()  # kernels whose page has been served: the places taken

    def notify_connect(self, kernel_id: str) -> None:
        super().notify_connect(kernel_id)
        self._left.pop(kernel_id, None)

    def notify_disconnect(self, kernel_id: str) -> None:
        super().notify_disconnect(kernel_id)
        if self._kernel_connections.get(kernel_id, 0) <= 0:
            self._left[kernel_id] = datetime.now(timezone.utc)

    def claimed(self, kernel_id: str) -> None:
        """A page was given this (preheated) kernel now: its wait for the page counts from here."""
        self._claimed[kernel_id] = datetime.now(timezone.utc)

    def served(self, kernel_ids: Iterable[str]) -> None:
        """These kernels' page has been served: each takes one of the server's places until it stops."""
        self._served.update(kernel_id for kernel_id in kernel_ids if kernel_id in self._kernels)

    def page_kernels(self) -> int:
        """Running kernels of pages that have been served: the places taken. Not the preheated pool's, and not a
        page's that is still starting (the door counts that page itself): kernels minus the pool's entries counted
        such a page twice once it took the pool's kernel, and counted too few while a pool entry had no kernel yet."""
        return len(self._served.intersection(self.list_kernel_ids()))

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        kernel = self._kernels.get(kernel_id)
        if kernel is None:
            return
        last = getattr(kernel, "last_activity", None)
        if (
            last is not None
            and self._kernel_connections.get(kernel_id, 0) <= 0
            and getattr(kernel, "execution_state", None) != "busy"
        ):
            if kernel_id in self._left:
                since, limit = max(self._left[kernel_id], last), self.cull_disconnected
            else:
                since, limit = max(self._claimed.get(kernel_id, last), last), self.cull_unclaimed
            if datetime.now(timezone.utc) - since > timedelta(seconds=limit):
                self.log.info("Stopping kernel %s: no page has been connected to it for %s s", kernel_id, limit)
                await self.shutdown_kernel(kernel_id)
                return
        await super().cull_kernel_if_idle(kernel_id)

    # the base is typed as jupyter_client's synchronous wrapper; the async manager's is a coroutine (see KernelManager)
    async def shutdown_kernel(  # type: ignore[override]
        self, kernel_id: str, now: bool = False, restart: bool = False
    ) -> None:
        try:
            await super().shutdown_kernel(kernel_id, now=now, restart=restart)
        finally:
            if not restart:
                self._left.pop(kernel_id, None)
                self._claimed.pop(kernel_id, None)
                self._served.discard(kernel_id)


class PageHandler(TornadoVoilaHandler):
    """The app's page: let in through the door, with the ``_xsrf`` cookie that its closing beacon needs."""

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        if path:  # not the page: Voila redirects it to a file
            await super().get(path)
            return
        self.xsrf_token  # noqa: B018 - reading it sets the _xsrf cookie (tornado), sent by the page's close beacon
        door: Door = self.settings["rulebook_door"]
        taken = self.kernel_manager.page_kernels()
        verdict, ticket, count = door.arrive(self.get_argument("ticket", "")[:64], taken, time.monotonic())
        if verdict == "full":
            self._notice(
                "full",
                FULL_REFRESH,
                "The server is full",
                f"All {count} places on this server are taken: {count} games are being played. Please try again "
                f"in a few minutes; this page tries again by itself every {FULL_REFRESH} seconds.",
                "",
            )
            return
        if verdict == "wait":
            ahead = "1 page is" if count == 1 else f"{count} pages are"
            self._notice(
                "wait",
                WAIT_REFRESH,
                "The server is busy",
                f"{BUSY.format(seconds=WAIT_REFRESH)} Many people opened the game at once: {ahead} starting before "
                "yours. Keep this page open; it opens your game by itself.",
                ticket,
            )
            return
        self.log.info(
            "rulebook: a page is let in (%d starting, %d of %d places taken)", door.in_flight, taken, door.places
        )
        page: list[str] = []
        serving = SERVING.set(page)
        try:
            failed = await self._serve(page)
            if failed:
                await self._retry(page)
        finally:
            SERVING.reset(serving)
            self.kernel_manager.served(page)
            door.leave()

    async def _serve(self, page: list[str]) -> bool:
        """Voila's page, sent as Voila sends it (cell by cell); whether its run failed (see :data:`FAILED`)."""
        try:
            async for html_snippet in self.get_generator(path=None):
                self.write(html_snippet)
                self.flush()
        except Exception:  # a kernel that did not start, or a run that broke off (Voila would end the page there)
            self.log.exception("rulebook: a page's run failed; it is told to try again")
            return True
        return any(kernel_id in FAILED for kernel_id in page)

    async def _retry(self, page: list[str]) -> None:
        """End a page whose run failed with the words that it tries again by itself, and stop its kernels (which
        frees their places)."""
        for kernel_id in page:
            FAILED.discard(kernel_id)
            if kernel_id in self.kernel_manager:
                self.log.warning("rulebook: stopping kernel %s, whose run failed; its page tries again", kernel_id)
                try:
                    await self.kernel_manager.shutdown_kernel(kernel_id)
                except Exception:  # already gone: its place is free all the same
                    self.log.exception("rulebook: could not stop kernel %s", kernel_id)
        heading = "The server is busy"
        text = (
            f"{BUSY.format(seconds=FAILED_REFRESH)} Your game could not be started in time, because many games are "
            "starting at once. Keep this page open; it opens your game by itself."
        )
        if not self._headers_written:
            self._notice("busy", FAILED_REFRESH, heading, text, "")
            return
        again = self._again("")
        quote = html.escape
        self.finish(
            RETRY.format(
                heading=quote(heading),
                text=quote(text),
                again=quote(again),
                again_js=json.dumps(again).replace("<", "\\u003c").replace(">", "\\u003e"),  # in a script
                refresh=FAILED_REFRESH,
            )
        )

    def _again(self, ticket: str) -> str:
        """This page's address, with ``ticket`` in place of the one it came with."""
        query = [(name, value) for name, values in self.request.query_arguments.items() for value in values]
        query = [(name, value.decode("utf-8", "replace")) for name, value in query if name != "ticket"]
        if ticket:
            query.append(("ticket", ticket))
        return self.request.path + ("?" + urlencode(query) if query else "")

    def _notice(self, kind: str, refresh: int, heading: str, text: str, ticket: str) -> None:
        """A short page in words (503, Retry-After) that loads the app again after ``refresh`` seconds."""
        again = self._again(ticket)
        self.set_status(503)
        self.set_header("Retry-After", str(refresh))
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", "text/html; charset=utf-8")
        quote = html.escape
        self.finish(
            NOTICE.format(refresh=refresh, again=quote(again), heading=quote(heading), text=quote(text), kind=kind)
        )


class RulebookVoila(Voila):
    """Voila reading no config file, requiring its token, and serving the app's page through :class:`PageHandler`."""

    max_kernels = Integer(0, config=True, help="games (pages' kernels) served at once; 0: as the memory allows")
    max_starting = Integer(0, config=True, help="pages started at the same time; 0: one per core")

    @default("config_file_paths")
    def _no_config_files(self) -> list[str]:
        return []  # not even voila.json in the working folder (Voila's default looks there first)

    def initialize(self, argv: Any = None) -> None:
        super().initialize(argv)
        notebook_renderer.VoilaExecutor = RulebookExecutor  # every page's run, the preheated ones' too
        if not self.token:
            self.log.critical("rulebook: refusing to serve without a token (give --token=...)")
            self.exit(2)
        # nothing but the command line decides these (no config file is read, and this holds even if one were)
        self.tornado_settings: dict[str, Any] = {}
        self.identity_provider_class = PasswordIdentityProvider
        self.authorizer_class = AllowAllAuthorizer
        self.custom_display_url = ""

    def setup_template_dirs(self) -> None:
        """Voila's template paths with the rulebook's pages first, and no template chosen by the page's address
        (``?template=``: another template is one whose files this module has not checked)."""
        super().setup_template_dirs()
        ours = str(TEMPLATES)
        self.template_paths: list[str] = [ours, *(path for path in self.template_paths if path != ours)]
        self.voila_configuration.allow_template_override = "NO"

    def init_settings(self) -> dict:
        settings = super().init_settings()
        settings["disable_check_xsrf"] = False
        if is_loopback(self.ip):
            settings["allow_remote_access"] = False  # the Host must be this machine (no DNS rebinding)
            settings["local_hostnames"] = ["localhost"]
        places = self.max_kernels if self.max_kernels > 0 else default_places()
        starting = self.max_starting if self.max_starting > 0 else os.cpu_count() or 1
        settings["rulebook_door"] = Door(places, starting)
        self.log.info("rulebook: at most %d games at once, %d started together", places, starting)
        self._note_page_kernels(self.kernel_manager)
        return settings

    @staticmethod
    def _note_page_kernels(manager: Any) -> None:
        """Note which kernel each page gets (:data:`SERVING`), from the preheated pool or started for it, and when
        a page got a preheated one (see ``cull_unclaimed``)."""
        if not hasattr(manager, "claimed"):
            return
        hand_out = getattr(manager, "get_rendered_notebook", None)
        if hand_out is not None:

            async def get_rendered_notebook(*args: Any, **kwargs: Any) -> Any:
                """Voila's hand-out of a preheated kernel; the pool's refill it starts is no page's kernel."""
                page = SERVING.get()
                outside = SERVING.set(None)
                try:
                    result = await hand_out(*args, **kwargs)
                finally:
                    SERVING.reset(outside)
                manager.claimed(result[2])
                if page is not None:
                    page.append(result[2])
                return result

            manager.get_rendered_notebook = get_rendered_notebook
        start = manager.start_kernel

        async def start_kernel(*args: Any, **kwargs: Any) -> str:
            """A kernel started for a page that found the pool empty (or for the pool, outside any page)."""
            kernel_id = await ensure_async(start(*args, **kwargs))
            page = SERVING.get()
            if page is not None:
                page.append(kernel_id)
            return kernel_id

        manager.start_kernel = start_kernel

    def init_handlers(self) -> list:
        return [
            (route[0], PageHandler, *route[2:]) if route[1] is TornadoVoilaHandler else route
            for route in super().init_handlers()
        ]
