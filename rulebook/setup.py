"""What each game lets a player choose before a game: players, seats, seed and the game's own options.

Each game declares its set-up in its :class:`rulebook.registry.Game` (in ``rulebook/<game>/game.py``); this module
keeps the older names as views of the registry: ``SETUPS`` (every game by name), ``setup_of(name)``, ``GameSetup``
and ``Option``. Nothing here imports ipywidgets, so the choices can be checked and used without Jupyter.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from . import registry
from .registry import Game, Option

GameSetup = Game  # what a set-up offers is part of the game's declaration
__all__ = ["SETUPS", "GameSetup", "Option", "setup_of"]


class _Setups(Mapping[str, Game]):
    """Every registered game by name, in the registry's order; looked up when read, so importing costs nothing."""

    def __getitem__(self, name: str) -> Game:
        if name not in registry.names():
            raise KeyError(name)
        return registry.game(name)

    def __iter__(self) -> Iterator[str]:
        return iter(registry.games())

    def __len__(self) -> int:
        return len(registry.games())


SETUPS: Mapping[str, Game] = _Setups()


def setup_of(game: str) -> Game:
    """The set-up of the game called ``game``; ValueError naming the known games."""
    return registry.game(game)
