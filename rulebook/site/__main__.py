"""``python -m rulebook.site``: build the static website (``make site`` runs this)."""

from __future__ import annotations

from .build import main

if __name__ == "__main__":
    raise SystemExit(main())
