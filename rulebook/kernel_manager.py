"""Moved to :mod:`rulebook.serve.kernel_manager`. The old path stays working (saved notebooks, outside
games and teachers' cells import it)."""

import sys

from rulebook.serve import kernel_manager as _moved

sys.modules[__name__] = _moved  # the same module object: its names, and a test's monkeypatch of them, are one
