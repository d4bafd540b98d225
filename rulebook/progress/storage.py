"""Where a learner's record is kept: the ``Store`` interface and its kinds.

- :class:`BrowserStore`: the browser's localStorage, on the website and in the app. The website's Python runs in a
  web worker, which has no localStorage, so the page's side of a small widget reads and writes it and syncs the
  JSON text with Python both ways (``browser_store.js``). Nothing leaves the machine.
- :class:`FileStore`: a file, in JupyterLab the working copy's ``.rulebook-progress.json`` (:func:`default_store`).
- :class:`MemoryStore`: kept while Python runs (tests, and a page whose browser refuses storage).

Export and import are the record's JSON text as a file (:mod:`rulebook.app.progress_panel` has the buttons).
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import anywidget
import traitlets

from rulebook.progress.record import MAX_BYTES

FILE_NAME = ".rulebook-progress.json"
BROWSER_KEY = "rulebook-progress"


class Store(Protocol):
    """A place for one learner's record as JSON text. ``read`` gives the text kept (None: nothing yet), ``write``
    keeps a new one; ``where`` says in words where, for the panel. ``when_ready(callback)`` calls back once the
    kept text can be read (a browser's storage answers after the page has drawn the widget; the others at once)."""

    where: str

    def read(self) -> str | None: ...

    def write(self, text: str) -> None: ...

    def when_ready(self, callback: Callable[[], None]) -> None: ...


class MemoryStore:
    """A record kept in memory only, for as long as Python runs."""

    where = "in this session only (not kept after it ends)"

    def __init__(self, text: str | None = None) -> None:
        self.text = text

    def read(self) -> str | None:
        return self.text

    def write(self, text: str) -> None:
        self.text = text

    def when_ready(self, callback: Callable[[], None]) -> None:
        callback()


class FileStore:
    """A record kept in a file; written whole to a temporary file, then moved over the old one (a crash leaves the
    old record or the new one, never half a file)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.where = f"in the file {self.path}"

    def read(self) -> str | None:
        try:
            if self.path.stat().st_size > MAX_BYTES:
                raise ValueError(f"{self.path.name} is larger than a progress file can be ({MAX_BYTES:,} bytes)")
            return self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"{self.path.name} cannot be read ({error})") from None

    def write(self, text: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".progress-", dir=self.path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def when_ready(self, callback: Callable[[], None]) -> None:
        callback()


class BrowserStore(anywidget.AnyWidget):
    """The browser's localStorage under ``key``, reached from the page: ``text`` is synced both ways (the page sets
    it from storage once, then stores every text Python sets); ``ready`` turns true once the page has answered,
    and ``problem`` says why the page could not keep it (storage switched off, full)."""

    _esm = Path(__file__).with_name("browser_store.js")
    key = traitlets.Unicode(BROWSER_KEY).tag(sync=True)
    text = traitlets.Unicode("").tag(sync=True)
    ready = traitlets.Bool(False).tag(sync=True)
    problem = traitlets.Unicode("").tag(sync=True)
    where = "in this browser (nothing leaves this computer)"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.layout.display = "none"  # nothing to see: it only carries the text
        self._waiting: list[Callable[[], None]] = []
        self.observe(self._answered, "ready")

    def _answered(self, change: dict[str, Any]) -> None:
        if change["new"]:
            waiting, self._waiting = self._waiting, []
            for callback in waiting:
                callback()

    def read(self) -> str | None:
        if len(self.text) > MAX_BYTES:
            raise ValueError(f"the browser holds more than a progress record can be ({MAX_BYTES:,} bytes)")
        return self.text or None

    def write(self, text: str) -> None:
        self.text = text

    def when_ready(self, callback: Callable[[], None]) -> None:
        if self.ready:
            callback()
        else:
            self._waiting.append(callback)


def working_copy_folder(start: Path | None = None) -> Path | None:
    """The working copy ``rulebook lab`` opened (a folder holding its record file) that holds ``start`` (the
    current folder), or None when Python does not run in one."""
    from rulebook.serve.working_copy import RECORD

    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / RECORD).is_file():
            return folder
    return None


def default_store() -> Store:
    """Where this Python keeps the learner's record: the file ``RULEBOOK_PROGRESS`` names if set; in JupyterLab's
    working copy its ``.rulebook-progress.json``; otherwise (the app in Voila, the website) the browser's storage."""
    named = os.environ.get("RULEBOOK_PROGRESS")
    if named:
        return FileStore(named)
    if sys.platform != "emscripten":  # the website's Python has no working copy: its files live in the browser
        folder = working_copy_folder()
        if folder is not None:
            return FileStore(folder / FILE_NAME)
    return BrowserStore()
