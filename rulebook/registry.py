"""The game registry: every game the rulebook serves, each declared once as a :class:`Game`.

A game package declares ``GAME = Game(...)`` (in its ``game.py``) and names it under the entry-point group
``rulebook.games`` of its distribution, so a game installed from outside this repository registers itself; code and
tests may also call :func:`register`. The shared shell (app, set-up, exercises, study, bench, cli, rules text) asks
the registry for what it needs and names no game itself.

Importing this module imports no game, no ipywidgets and no plotly. A game's parts (engine, bots, board, explorer,
exercise answers) are named by module paths and ``"module:attribute"`` strings, imported when first asked for; a
game's declaration is loaded when that game is first asked for, and all of them only when the whole list is.
"""

from __future__ import annotations

import functools
import importlib
import os
import pkgutil
import re
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from rulebook.engine import Engine

GROUP = "rulebook.games"  # the entry-point group a game distribution declares its GAME under
DISTRIBUTION = "rulebook"  # the distribution of this package, whose entry points are read first
_PACKAGE = __name__.rpartition(".")[0]  # this package, whose subpackages are scanned for a game module


@dataclass(frozen=True)
class Option:
    """One choice of a game's set-up: a list of labelled values, a whole number in a range, or yes/no."""

    name: str
    label: str
    default: Any
    choices: tuple[tuple[str, Any], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""
    players: tuple[int, ...] = ()  # the player counts the option applies to (all when empty)

    def check(self, value: Any) -> Any:
        """The value if it is one this option allows, else ValueError naming the option."""
        if self.choices:
            if not any(value == allowed for _, allowed in self.choices):
                raise ValueError(f"{self.label}: {value!r} is not one of the choices")
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"{self.label}: yes or no")
            return value
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{self.label}: a whole number")
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise ValueError(f"{self.label}: a number from {self.minimum} to {self.maximum}, not {value}")
        return value


@dataclass(frozen=True)
class Level:
    """A computer player of a game: ``name`` is its key in the game's ``bots.BOTS``, ``label`` what the set-up shows
    after "Computer:", ``description`` one line on how it plays."""

    name: str
    label: str
    description: str = ""


@dataclass(frozen=True)
class Bench:
    """What ``make bench`` measures of a game besides what it measures of every game.

    ``click`` is the (players, seed) of the board whose clicks are timed; ``players`` the player count of the seeded
    random play whose ``legal_moves`` are timed; ``studies`` the balance studies, (seats, games) each; ``section`` a
    ``"module:function"`` called with ``study=`` (:func:`rulebook.study.run`) that returns the game's own figures."""

    click: tuple[int, int] = (2, 0)
    players: int = 2
    studies: tuple[tuple[tuple[str, ...], int], ...] = ()
    section: str = ""


def resolve(reference: str) -> Any:
    """The object a ``"module:attribute"`` reference names, imported now; ValueError when it names nothing."""
    module_name, colon, attribute = reference.partition(":")
    if not colon or not module_name or not attribute:
        raise ValueError(f"{reference!r} is not a 'module:attribute' reference")
    module = importlib.import_module(module_name)
    found: Any = module
    for part in attribute.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise ValueError(f"{reference!r}: the module {module_name} has no {attribute}") from None
    return found


_REFERENCE = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")
_MODULE = re.compile(r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*")


def _default_seats(players: int) -> list[str]:
    return [f"Player {seat + 1}" for seat in range(players)]


@dataclass(frozen=True)
class Game:
    """Everything the shell needs of one game, most of it named rather than imported (see the module's docstring).

    ``build(players, seed, options)`` starts a game from the set-up (the options checked and completed with their
    defaults); without one, the engine's ``new_game(players=, seed=, **options)``. ``rules`` is the notebook (or
    markdown file) holding the rules text and ``exercises`` the exercises' JSON file: a relative path is looked up in
    the rulebook's own folder for them (``notebooks/``, ``rulebook/teach/exercises/``). ``values`` names the mapping of
    the exercises' value functions by name, ``measure`` the function of "most" questions, ``diagram`` a function reading
    a position from text (exercise positions may be written so), ``explain`` a function ``(state, move)`` giving the
    reason behind a computer player's move (shown with a hint), ``redeal`` a function ``(state, viewer, rng)`` dealing
    again what the seat ``viewer`` (None: an onlooker) cannot see (a game with hidden information; the estimate's
    playouts use it), ``seats`` a mapping of what the class server asks of the game to show each seat only what it
    may see (:mod:`rulebook.tables.views`: mask, secret, drawn, summary, ...; none: nothing hidden but the seed).
    ``order`` places the game in lists."""

    name: str
    title: str
    prefix: str
    module: str
    players: tuple[int, ...]
    default_players: int
    bots_module: str
    board: str
    rules: str
    moves: str
    levels: tuple[Level, ...] = ()
    default_computer: Mapping[int, str] = field(default_factory=dict, hash=False)
    seat_names: Callable[[int], list[str]] = _default_seats
    options: tuple[Option, ...] = ()
    build: Callable[[int, int, dict[str, Any]], Any] | None = None
    explorer: str = ""
    exercises: str = ""
    values: str = ""
    measure: str = ""
    diagram: str = ""
    explain: str = ""
    redeal: str = ""
    seats: str = ""
    blurb: str = ""
    bench: Bench = Bench()
    order: int = 1000

    def __post_init__(self) -> None:
        problems = list(self._problems())
        if problems:
            raise ValueError(f"game {self.name!r}: {'; '.join(problems)}")

    def _problems(self) -> Iterator[str]:
        if not isinstance(self.name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", self.name):
            yield "the name is lower-case letters, digits and _ (it names files, saves and the command line)"
        if not isinstance(self.prefix, str) or not re.fullmatch(r"[A-Z]{2,3}", self.prefix):
            yield f"the rule-id prefix is 2 or 3 capital letters, not {self.prefix!r}"
        players = self.players
        if not players or not all(isinstance(n, int) and n > 0 for n in players) or list(players) != sorted(players):
            yield f"players is a rising tuple of player counts, not {players!r}"
        elif self.default_players not in players:
            yield f"the default of {self.default_players} players is not one of {players}"
        if not isinstance(self.module, str) or not _MODULE.fullmatch(self.module):
            yield f"module is a module path, not {self.module!r}"
        if not isinstance(self.bots_module, str) or not _MODULE.fullmatch(self.bots_module):
            yield f"bots_module is a module path, not {self.bots_module!r}"
        for name in ("board", "moves", "explorer", "values", "measure", "diagram", "explain", "redeal", "seats"):
            reference = getattr(self, name)
            if (reference or name in ("board", "moves")) and not _REFERENCE.fullmatch(str(reference)):
                yield f"{name} is a 'module:attribute' reference, not {reference!r}"
        if self.bench.section and not _REFERENCE.fullmatch(self.bench.section):
            yield f"bench.section is a 'module:function' reference, not {self.bench.section!r}"
        if not isinstance(self.rules, str) or not self.rules:
            yield "rules names the file that holds the rules text"
        names = [level.name for level in self.levels]
        if len(set(names)) != len(names):
            yield "a computer player is listed twice in levels"
        for seat, bot in dict(self.default_computer).items():
            if not isinstance(seat, int) or not 0 <= seat < (max(players) if players else 0):
                yield f"default_computer: no seat {seat!r}"
            if names and bot not in names:
                yield f"default_computer: {bot!r} is not one of the levels"
        options = [option.name for option in self.options]
        if len(set(options)) != len(options):
            yield "an option name is used twice"

    # -- the parts, imported when asked for ------------------------------------------------------------------
    @property
    def engine(self) -> Engine:
        """The module of the game's verbs (new_game, legal_moves, chance_outcomes, check, apply, outcome, ...)."""
        return cast(Engine, importlib.import_module(self.module))  # checked against Engine by a test, not by mypy

    def bots(self) -> dict[str, Any]:
        """The game's computer players by name (its ``bots.BOTS``)."""
        return cast("dict[str, Any]", importlib.import_module(self.bots_module).BOTS)

    def explanation(self, state: Any, move: Any) -> str:
        """Why a computer player would make ``move`` here, in players' words ("" for a game that does not say)."""
        return str(resolve(self.explain)(state, move)) if self.explain else ""

    def board_class(self) -> type:
        """The board widget: ``Board(state, seed=..., computer={seat: name})``."""
        return cast(type, resolve(self.board))

    def explorer_class(self) -> type | None:
        """The odds (or threats) explorer shown beside the board, or None for a game without one."""
        return resolve(self.explorer) if self.explorer else None

    def seat_rules(self) -> dict[str, Any]:
        """What the class server asks of the game (its ``seats`` mapping), or {} for a game that hides nothing."""
        return dict(resolve(self.seats)) if self.seats else {}

    def move_classes(self) -> Mapping[str, type]:
        """The move classes by name, as save files and exercises write them."""
        return cast("Mapping[str, type]", resolve(self.moves))

    def value_functions(self) -> dict[str, Callable[..., Any]]:
        """The functions an exercise's "value" question may name, by name (none when the game has no exercises)."""
        return dict(resolve(self.values)) if self.values else {}

    def measure_function(self) -> Callable[[Any, Any], Any] | None:
        """``measure(before, after)``: how much a move gains, for "most" questions; None when the game has none."""
        return resolve(self.measure) if self.measure else None

    def diagram_reader(self) -> Callable[[str], Any] | None:
        """A function reading a position from a text diagram, or None."""
        return resolve(self.diagram) if self.diagram else None

    # -- the set-up -----------------------------------------------------------------------------------------------
    def defaults(self) -> dict[str, Any]:
        return {option.name: option.default for option in self.options}

    def new_state(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> Any:
        """A new game from the set-up; ValueError names a choice the game does not allow."""
        if players not in self.players:
            raise ValueError(f"{self.title} is for {self.players[0]} to {self.players[-1]} players, not {players}")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"Seed: a whole number from 0, not {seed!r}")
        chosen = self.defaults()
        for name, value in (options or {}).items():
            option = next((o for o in self.options if o.name == name), None)
            if option is None:
                raise ValueError(f"{self.title} has no set-up option {name!r}")
            chosen[name] = option.check(value)
        if self.build is None:
            return self.engine.new_game(players=players, seed=seed, **chosen)
        return self.build(players, seed, chosen)

    def level(self, name: str) -> Level | None:
        return next((level for level in self.levels if level.name == name), None)

    def bot_label(self, name: str) -> str:
        """How the set-up names a computer player: "Computer: " and its level's label."""
        level = self.level(name)
        return f"Computer: {level.label if level is not None else name}"

    def strongest(self) -> str:
        """The name of the strongest computer player (the last level; the last of ``BOTS`` without levels)."""
        return self.levels[-1].name if self.levels else list(self.bots())[-1]


# --- discovery --------------------------------------------------------------------------------------------------

_registered: dict[str, Game] = {}  # by register(): tried before anything discovered
_loaded: dict[str, Game] = {}  # discovered games already imported
_broken: dict[str, str] = {}  # discovered games that failed to load: why


@functools.cache
def _own_entries() -> dict[str, str]:
    """Name -> "module:attribute" of this package's games: its distribution's entry points (one distribution's
    metadata; about 2 ms in a fresh process, the package scan included), then any subpackage with a ``game`` module
    the metadata does not list (a checkout that was never pip-installed, or whose metadata is older than a game)."""
    from importlib import metadata

    found: dict[str, str] = {}
    try:
        distribution = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        distribution = None
    if distribution is not None:
        for entry in distribution.entry_points:
            if entry.group == GROUP:
                found.setdefault(entry.name, entry.value)
    listed = set(found.values())
    package = sys.modules[_PACKAGE]
    for info in pkgutil.iter_modules(package.__path__):
        folder = os.path.join(getattr(info.module_finder, "path", ""), info.name)
        if not info.ispkg or not any(sub.name == "game" for sub in pkgutil.iter_modules([folder])):
            continue
        reference = f"{_PACKAGE}.{info.name}.game:GAME"
        if reference not in listed:
            found.setdefault(info.name, reference)
    return found


@functools.cache
def _all_entries() -> dict[str, str]:
    """:func:`_own_entries`, then the ``rulebook.games`` entry points of every installed distribution (a scan of all
    their metadata: 3 to 4 ms more with 136 distributions installed, once per process)."""
    from importlib import metadata

    found = dict(_own_entries())
    for entry in metadata.entry_points(group=GROUP):
        found.setdefault(entry.name, entry.value)
    return found


def _load(name: str, reference: str) -> Game:
    if name in _loaded:
        return _loaded[name]
    try:
        found = resolve(reference)
    except (ImportError, ValueError) as error:
        raise ValueError(f"the game {name!r} ({reference}) does not load: {error}") from error
    if not isinstance(found, Game):
        raise ValueError(f"the game {name!r} ({reference}) is a {type(found).__name__}, not a registry.Game")
    if found.name != name:
        raise ValueError(f"the entry point {name!r} ({reference}) declares the game {found.name!r}")
    _loaded[name] = found
    return found


def names() -> list[str]:
    """The names of every game known, without loading any (in no particular order: :func:`games` has the order)."""
    return sorted(set(_registered) | set(_all_entries()))


def game(name: str) -> Game:
    """The game called ``name`` (loading only that one); ValueError naming the known games."""
    if not isinstance(name, str):
        raise ValueError(f"a game is named by text, not {name!r}")
    if name in _registered:
        return _registered[name]
    if name in _loaded:
        return _loaded[name]
    reference = _own_entries().get(name) or _all_entries().get(name)
    if reference is None:
        raise ValueError(f"unknown game {name!r} (games: {', '.join(names())})")
    return _load(name, reference)


def games() -> dict[str, Game]:
    """Every game by name, in the rulebook's order (``Game.order``, then by name). A discovered game that fails to
    load is left out with a warning, so that one broken game package does not stop the others."""
    found = dict(_registered)
    for name, reference in _all_entries().items():
        if name in found:
            continue
        try:
            found[name] = _load(name, reference)
        except ValueError as error:
            if name not in _broken:
                warnings.warn(str(error), RuntimeWarning, stacklevel=2)
            _broken[name] = str(error)
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


def _owner(module: str, candidates: Any) -> Game | None:
    holding = [g for g in candidates if module == g.module or module.startswith(g.module + ".")]
    return max(holding, key=lambda g: len(g.module), default=None)


def game_of(state: Any) -> Game:
    """The registered game whose engine defines the class of ``state``; ValueError when no game does.

    The games already loaded are asked first, then the one whose declaration sits in the state's package, and only
    then every game."""
    module = type(state).__module__
    found = _owner(module, [*_registered.values(), *_loaded.values()])
    if found is not None:
        return found
    for name, reference in _all_entries().items():
        package = reference.partition(":")[0].rpartition(".")[0]
        if package and (module == package or module.startswith(package + ".")) and name not in _broken:
            try:
                found = _owner(module, [game(name)])
            except ValueError:
                continue
            if found is not None:
                return found
    found = _owner(module, games().values())
    if found is None:
        raise ValueError(f"a {type(state).__name__} is no state of a registered game (games: {', '.join(names())})")
    return found


def register(declared: Game) -> Game:
    """Add a game from code (a test, a notebook); ValueError when another game already has its name."""
    if not isinstance(declared, Game):
        raise ValueError(f"register takes a registry.Game, not {type(declared).__name__}")
    known = _registered.get(declared.name) or _loaded.get(declared.name)
    if known is not None and known is not declared:
        raise ValueError(f"a game named {declared.name!r} is registered already")
    _registered[declared.name] = declared
    return declared


def unregister(name: str) -> None:
    """Forget a game added with :func:`register` (tests clean up with it)."""
    _registered.pop(name, None)


def refresh() -> None:
    """Look for installed games again on the next call (after a game distribution was installed or put on
    ``sys.path``); games added with :func:`register` stay."""
    _own_entries.cache_clear()
    _all_entries.cache_clear()
    _loaded.clear()
    _broken.clear()
