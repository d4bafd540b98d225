"""The progress panel's two small front ends: the map of paragraphs (links that open a paragraph or practise it)
and the Export/Import buttons (a download of the record, a chosen file read into it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from rulebook.progress.record import MAX_BYTES

HERE = Path(__file__).parent


class ProgressMap(anywidget.AnyWidget):
    """HTML whose ``data-rule`` links call ``on_rule(id)`` and ``data-practise`` links call ``on_practise(n)``."""

    _esm = HERE / "progress_map.js"
    _css = HERE / "progress.css"
    value = traitlets.Unicode("").tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_rule: list[Callable[[str], None]] = []
        self.on_practise: list[Callable[[int], None]] = []
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        if isinstance(content.get("rule"), str):
            for opener in list(self.on_rule):
                opener(content["rule"][:40])
        number = content.get("practise")
        if isinstance(number, int) and not isinstance(number, bool):
            for practiser in list(self.on_practise):
                practiser(number)


class ProgressFiles(anywidget.AnyWidget):
    """Export (the browser downloads ``provider()``'s (name, text)) and Import (a chosen file's bytes go to each of
    ``handlers(name, data)``; a file over the limit sends its size only, and the handlers get None)."""

    _esm = HERE / "progress_files.js"
    _css = HERE / "progress.css"
    limit = traitlets.Int(MAX_BYTES).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.provider: Callable[[], tuple[str, str]] | None = None
        self.handlers: list[Callable[[str, bytes | None], object]] = []
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        if content.get("export") and self.provider is not None:
            name, text = self.provider()
            self.send({"file": name, "text": text})
        elif "import" in content:
            name = str(content.get("import") or "the file")[:200]
            data = bytes(buffers[0]) if buffers else (None if content.get("size") else b"")
            for handler in list(self.handlers):
                handler(name, data)
