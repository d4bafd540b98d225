"""A Python client of the class server, for scripts, tests and notebooks (issue 45.4)::

    from rulebook.tables import Client
    client = Client(teacher_address)             # the address `rulebook class` prints for the teacher
    code = client.create("claim", players=2)     # also computer={seat: level}, options={...}, seed=
    seat = client.join(code, seat=0)             # a free seat (the first one when seat is not given)
    seat.view()                                  # what that seat sees (a dict; "moves": the number of moves played)
    seat.legal_moves()                           # the engine's moves; () when it is not that seat's turn
    seat.play(move)                              # raises rulebook.core.IllegalMove with .rule when refused
    seat.token                                   # keep it: client.rejoin(code, token) returns to the same seat
    client.watch(code)                           # what a spectator sees

It speaks the server's JSON over HTTP with the standard library only; a refusal comes back as the engine's
IllegalMove, any other problem as ValueError in the server's words.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any

from rulebook import registry
from rulebook.core import IllegalMove, decode_move, encode_move, parse_json

TIMEOUT = 60.0  # seconds for one request: a table whose computer seats think long answers after their moves


class Client:
    """The teacher's side (with the address's token) and the door to seats."""

    def __init__(self, address: str, timeout: float = TIMEOUT) -> None:
        if not isinstance(address, str):
            raise ValueError(f"a class server's address is text, not {type(address).__name__}")
        parts = urllib.parse.urlsplit(address.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"not a class server's address: {address[:80]!r} (it starts with http://)")
        self.base = f"{parts.scheme}://{parts.netloc}"
        self.token = dict(urllib.parse.parse_qsl(parts.query)).get("token", "")
        self.timeout = timeout

    def request(self, method: str, path: str, data: Any = None, headers: Mapping[str, str] | None = None) -> Any:
        """One JSON request; ValueError (or IllegalMove for a refusal) with the server's words when it says no."""
        body = None if data is None else json.dumps(data).encode("utf-8")
        sent = {"Content-Type": "application/json", **(headers or {})}
        if self.token:
            sent["Authorization"] = f"token {self.token}"
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                text = response.read()
        except urllib.error.HTTPError as error:
            text = error.read()
            try:
                answer = parse_json(text, "the server's answer")
            except ValueError:
                answer = {}
            if error.code == 409 and isinstance(answer, dict) and "rule" in answer:
                raise IllegalMove(str(answer["rule"]), str(answer.get("message", ""))) from None
            said = answer.get("error") if isinstance(answer, dict) else None
            raise ValueError(said or f"the class server said {error.code} {error.reason}") from None
        except urllib.error.URLError as error:
            raise ValueError(f"no class server answers at {self.base}: {error.reason}") from None
        return parse_json(text, "the server's answer") if text else None

    # -- the teacher ---------------------------------------------------------------------------------------------
    def create(
        self,
        game: str,
        players: int | None = None,
        *,
        computer: Mapping[int, str] | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        away_level: str | None = None,
        away_after: float | None = None,
    ) -> str:
        """A new table; its code."""
        data: dict[str, Any] = {"game": game}
        for key, value in (
            ("players", players),
            ("options", options),
            ("seed", seed),
            ("away_level", away_level),
            ("away_after", away_after),
        ):
            if value is not None:
                data[key] = dict(value) if isinstance(value, Mapping) else value
        if computer:
            data["computer"] = {str(seat): level for seat, level in dict(computer).items()}
        return str(self.request("POST", "/api/tables", data)["code"])

    def tables(self) -> list[dict[str, Any]]:
        """Every table as the teacher's page lists it."""
        return list(self.request("GET", "/api/tables"))

    def stumbles(self) -> list[dict[str, Any]]:
        """The class's refusals by rule id, most first."""
        return list(self.request("GET", "/api/stumbles"))

    def estimate(self, code: str) -> list[str]:
        """Winning? at a table: each seat's chance in words, as an onlooker knows the game (no hidden card used)."""
        return [str(line) for line in self.request("POST", f"/api/tables/{_code(code)}/estimate", {})["lines"]]

    def save(self, code: str) -> str:
        """A table's game as a save file (the app's Load opens it)."""
        with self._opened(f"/api/tables/{_code(code)}/save") as response:
            return response.read().decode("utf-8")

    def _opened(self, path: str) -> Any:
        request = urllib.request.Request(self.base + path, headers={"Authorization": f"token {self.token}"})
        try:
            return urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as error:
            raise ValueError(f"the class server said {error.code} {error.reason}") from None

    # -- seats -----------------------------------------------------------------------------------------------------
    def join(self, code: str, seat: int | None = None, name: str | None = None) -> Seat:
        """Take a free seat at a table (``seat``, or the first free one)."""
        data: dict[str, Any] = {}
        if seat is not None:
            data["seat"] = seat
        if name is not None:
            data["name"] = name
        answer = self.request("POST", f"/api/tables/{_code(code)}/seats", data)
        return Seat(self, _code(code), int(answer["seat"]), str(answer["token"]))

    def rejoin(self, code: str, token: str) -> Seat:
        """The seat a token holds, as it was left."""
        answer = self.request("POST", f"/api/tables/{_code(code)}/rejoin", {"token": token})
        return Seat(self, _code(code), int(answer["seat"]), token)

    def watch(self, code: str) -> dict[str, Any]:
        """What a spectator (a projector) sees at a table: no seat's secret."""
        return dict(self.request("GET", f"/api/tables/{_code(code)}/watch"))


class Seat:
    """One seat at a table, held by its token."""

    def __init__(self, client: Client, code: str, seat: int, token: str) -> None:
        self.client, self.code, self.seat, self.token = client, code, seat, token
        self._game: registry.Game | None = None

    def __repr__(self) -> str:
        return f"<Seat {self.seat} at table {self.code}>"

    def _headers(self) -> dict[str, str]:
        return {"X-Seat-Token": self.token}

    @property
    def game(self) -> registry.Game:
        if self._game is None:
            self._game = registry.game(self.view()["game"])
        return self._game

    def view(self) -> dict[str, Any]:
        """What this seat sees now."""
        return dict(self.client.request("GET", f"/api/tables/{self.code}/view", headers=self._headers()))

    def legal_moves(self) -> tuple[Any, ...]:
        """This seat's legal moves as the engine's move objects; () when it is not this seat's turn."""
        lines = self.client.request("GET", f"/api/tables/{self.code}/legal", headers=self._headers())["moves"]
        classes = self.game.move_classes()
        return tuple(decode_move(line["move"], classes) for line in lines)

    def play(self, move: Any, moves: int | None = None) -> dict[str, Any]:
        """Play a move (an engine move object); returns what this seat sees after it. ``moves``, if given, is the
        number of moves the seat saw: the server refuses the move if the table has moved on since."""
        data: dict[str, Any] = {"move": encode_move(move)}
        if moves is not None:
            data["moves"] = moves
        return dict(self.client.request("POST", f"/api/tables/{self.code}/moves", data, headers=self._headers()))


def _code(code: Any) -> str:
    if not isinstance(code, str) or not code.strip() or not code.strip().isalnum() or len(code) > 20:
        raise ValueError(f"not a table's code: {str(code)[:40]!r}")
    return urllib.parse.quote(code.strip().upper())
