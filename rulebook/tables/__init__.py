"""The class server (``rulebook class``, issue 45): tables across devices, the game kept by the server.

``store`` keeps tables, seats, moves and refusals (SQLite or PostgreSQL); ``views`` says what each seat may see;
``room`` is the tables' logic (join, play, chance, computer and away seats); ``server`` its web side; ``client`` the
Python client: ``from rulebook.tables import Client``.
"""

from .client import Client, Seat

__all__ = ["Client", "Seat"]
