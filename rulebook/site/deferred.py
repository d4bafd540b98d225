"""The part of a package the website's apps fetch only when a module of it is first imported (issue 47.4).

The apps' copy of plotly holds the modules a game's first screen imports (a board is a plotly figure of scatter
traces); the rest of it (the other traces' and the layout's classes, which a chart and its template need) is a zip
beside the wheels, fetched and unpacked into site-packages the first time an import finds a module missing. The
browser's Python runs in a web worker, where a synchronous request is allowed, so ``import`` stays what it is.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import io
import sys
import sysconfig
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urljoin

# the kernel's worker script, relative to the site's root: JupyterLite's layout, fixed by its version
WORKER_DEPTH = "../../../../"


def fetch_bytes(address: str) -> bytes:
    """The bytes at ``address``, fetched synchronously by the browser (a web worker's XMLHttpRequest)."""
    from js import XMLHttpRequest  # type: ignore[import-not-found]  # Pyodide's bridge to the page's JavaScript

    request = XMLHttpRequest.new()
    request.open("GET", address, False)
    request.responseType = "arraybuffer"
    request.send(None)
    if request.status != 200:
        raise ImportError(f"could not fetch {address} (HTTP {request.status})")
    return bytes(request.response.to_py())


def site_address(relative: str) -> str:
    """``relative`` (a path from the site's root) as a full address, seen from the kernel's worker."""
    from js import location  # type: ignore[import-not-found]

    return urljoin(urljoin(str(location.href), WORKER_DEPTH), relative)


class Deferred(importlib.abc.MetaPathFinder):
    """After every other finder: the first import of a missing module of ``packages`` unpacks the zip at
    ``address`` into ``folder`` (once), then finds the module there as Python would have."""

    def __init__(
        self,
        address: str,
        packages: Sequence[str],
        folder: Path | None = None,
        fetch: Callable[[str], bytes] = fetch_bytes,
    ) -> None:
        self.address = address
        self.packages = tuple(packages)
        self.folder = Path(folder or sysconfig.get_paths()["purelib"])
        self.fetch = fetch
        self.unpacked = False

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if self.unpacked or fullname.split(".")[0] not in self.packages:
            return None
        with zipfile.ZipFile(io.BytesIO(self.fetch(self.address))) as archive:
            archive.extractall(self.folder)
        self.unpacked = True
        importlib.invalidate_caches()
        return importlib.machinery.PathFinder.find_spec(fullname, path, target)


def install(address: str, packages: Sequence[str], **options: Any) -> Deferred:
    """Put a :class:`Deferred` for ``packages`` at the end of ``sys.meta_path``; ``address`` is relative to the
    site's root unless it is a full address. Installing the same address twice keeps the first."""
    for finder in sys.meta_path:
        if isinstance(finder, Deferred) and finder.address.endswith(address):
            return finder
    full = address if "://" in address else site_address(address)
    finder = Deferred(full, packages, **options)
    sys.meta_path.append(finder)
    return finder
