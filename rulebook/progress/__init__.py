"""A learner's progress by rule id (issue 49): events, the record and its states, spaced review (FSRS), storage.

``from rulebook.progress import Record, class_map`` is the API a class server uses; :mod:`.events` is imported by
the play layer on every move, so this package imports nothing heavy until a name is asked for.
"""

from __future__ import annotations

import importlib
from typing import Any

_NAMES = {
    "Event": "events",
    "Record": "record",
    "Entry": "record",
    "STATES": "record",
    "RETIRED": "record",
    "class_map": "record",
    "Store": "storage",
    "MemoryStore": "storage",
    "FileStore": "storage",
    "BrowserStore": "storage",
    "default_store": "storage",
    "Learner": "learner",
    "learner": "learner",
    "Review": "learner",
    "practice": "learner",
    "review_queue": "learner",
}

__all__ = sorted(_NAMES)


def __getattr__(name: str) -> Any:
    if name in _NAMES:
        return getattr(importlib.import_module(f"{__name__}.{_NAMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
