"""rulebook: executable, interactive rulebooks for four board games.

``from rulebook import meetjesland`` gives a game's engine; every game shares the verbs of
:mod:`rulebook.core` (``new_game``, ``legal_moves``, ``chance_outcomes``, ``apply``, ``outcome``, ...).
"""

from .core import IllegalMove, Outcome, advance, sample

__all__ = ["IllegalMove", "Outcome", "advance", "sample"]
__version__ = "0.1.0"
