"""Moved to :mod:`rulebook.teach.rules_text`. The old path stays working (saved notebooks, outside
games and teachers' cells import it)."""

import sys

from rulebook.teach import rules_text as _moved

sys.modules[__name__] = _moved  # the same module object: its names, and a test's monkeypatch of them, are one
