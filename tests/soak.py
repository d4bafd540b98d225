"""Case counts for the fuzzers, random play and other long runs: `make test` runs the quick counts, `make soak`
(RULEBOOK_SOAK=1) the long ones, so a run of minutes still finds what the long run finds, given time."""

from __future__ import annotations

import os

SOAK = os.environ.get("RULEBOOK_SOAK", "") not in ("", "0")


def count(quick: int, soak: int) -> int:
    """``soak`` in a soak run (RULEBOOK_SOAK=1, `make soak`), else ``quick`` (`make test`)."""
    return soak if SOAK else quick
