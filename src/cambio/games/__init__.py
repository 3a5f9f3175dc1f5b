"""One interface for every game: what the simulator, the tournaments, the parallel runner,
the record commands and the server's game kinds need from a game, so none asks which game
it is.

A :class:`Game` is a plain object (boardgame.io's game, OpenSpiel's ``Game``): its rules
check, a seeded play of one game by bots to the end, its bots by name, its records written,
replayed and exported, and the terminal's rendering of a replay. The two built-in games are
:mod:`cambio.games.cards` and :mod:`cambio.games.board`, loaded on first use; another game
is one :func:`register` call (the tests' three-in-a-row toy game is one).

This module imports nothing from the rest of cambio, so every layer may depend on it.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class Played:
    """One game played to the end, all a summary or a record needs."""

    scores: tuple[int, ...]
    """Per seat, lower is better (the card game's points; 0 for a winner elsewhere)."""
    winners: tuple[int, ...]
    """The seats that won; empty for a draw (a draw is shared by every seat)."""
    plies: int
    """Actions taken."""
    end: str
    """Why it ended (``cambio``, ``line``, ``max_plies``...)."""
    history: Any = None
    """What :meth:`Game.record` needs to write the game (the game's own)."""
    stats: tuple[tuple[str, int], ...] = ()
    """Game-specific counts a game's own summary reads (the card game's caller, turns)."""


class Game(Protocol):
    """One game, as every generic layer sees it.

    ``rules`` is the game's own rules value (frozen, picklable); ``options`` its own extra
    settings (the board game's ``full_setup``) as a tuple of ``(name, value)`` pairs.
    """

    name: str

    def check(self, rules: Any, players: int) -> None:
        """Raise ``ValueError`` if ``rules`` cannot seat ``players``."""

    def rules_json(self, rules: Any) -> dict[str, Any]:
        """The rules as stored in summaries and records (has a ``preset`` key)."""

    def make_bot(self, spec: str, rules: Any, seed: int) -> Any:
        """A bot by name (the game's registry); ``ValueError`` naming the known bots."""

    def bot_list(self) -> list[dict[str, Any]]:
        """The bots as a lobby lists them (name, label, method, measured, strength, level,
        alias_of): every name :meth:`make_bot` accepts without an argument."""

    def play(self, rules: Any, players: int, seed: int, bots: Sequence[Any],
             first: int | None, options: tuple[tuple[str, Any], ...] = ()) -> Played:
        """Play one game seeded by ``seed`` to the end; ``first`` is the seat that deals or
        starts when the game rotates it (``None``: the game's default, seat 0 playing
        first)."""

    def record(self, rules: Any, players: int, seed: int, first: int | None,
               names: Sequence[str], played: Played,
               options: tuple[tuple[str, Any], ...] = ()) -> str:
        """The full record text of a played game (``names``: the bot in each seat)."""

    def replay(self, record: Any) -> Any:
        """Check a parsed record (:class:`cambio.records.jsonl.Record`) by replaying it;
        the result has ``summary() -> dict``. Raises ``RecordError``."""

    def export(self, result: Any, seat: int | None) -> str:
        """A replayed record again, in full or as ``seat`` saw it."""

    show_record: str
    """``"module:callable"`` that prints a replay result on a rich console (the terminal's;
    named, not imported, so that this layer never depends on the terminal)."""


class Position(Protocol):
    """One game in progress, step by step, as a server table plays it (a turn-based game:
    one seat decides at a time, nothing happens out of turn).

    What a seat may know is what :meth:`view` gives it; the text :meth:`play` returns is
    announced to every seat and spectator, so it must hide nothing either."""

    def decider(self) -> int | None:
        """The seat whose decision the game waits for (``None``: the game is over)."""

    def legal(self, seat: int) -> list[str]:
        """The actions ``seat`` may play now, as text (empty unless it decides)."""

    def play(self, seat: int, text: str) -> str:
        """Check and apply ``seat``'s action; the action as everyone sees it. Raises
        ``ValueError`` (its message naming public facts only) and changes nothing if the
        action is refused."""

    def outcome(self) -> dict[str, Any] | None:
        """The public end facts (``winners``: a list of seats, empty for a draw, and the
        game's own, e.g. ``termination``), or ``None`` while the game goes on."""

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may know, as JSON for the client."""

    def bot_move(self, bot: Any, seat: int) -> str:
        """The action ``bot`` (one of :meth:`Game.make_bot`'s) chooses for ``seat``, given
        only what that seat may know."""

    def record(self, names: Sequence[str], seat: int | None) -> str:
        """The record so far (``names``: the player in each seat): in full (``seat=None``),
        or as ``seat`` may have it."""


@runtime_checkable
class TableGame(Game, Protocol):
    """A turn-based game a server table can hold (the server's generic session plays it):
    a :class:`Game` that can also be started and played one action at a time."""

    seats: tuple[int, int]
    """The fewest and the most players a table may seat."""
    table_options: Mapping[str, tuple[str, ...]]
    """Each option a table is created with (the board game's ``setup``) and its choices,
    the default first."""
    away_bot: str
    """The bot that plays a seat whose player is away: a stand-in, not a threat."""

    def table_rules(self, players: int, options: Mapping[str, str]) -> Any:
        """The rules a table of ``players`` plays with these options; ``ValueError`` if
        they cannot be played."""

    def start(self, rules: Any, players: int, seed: int,
              options: Mapping[str, str]) -> Position:
        """A new game seeded by ``seed`` (its chance steps drawn now)."""


_BUILT_IN = {"cards": "cambio.games.cards:GAME", "board": "cambio.games.board:GAME"}
_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Make ``game`` known by its name to every layer (here and, forked, in workers)."""
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The game called ``name``; ``ValueError`` naming the known games."""
    if name not in _GAMES and name in _BUILT_IN:
        module, _, attr = _BUILT_IN[name].partition(":")
        register(getattr(importlib.import_module(module), attr))
    try:
        return _GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(game_names())}") from None


def game_names() -> list[str]:
    return list(dict.fromkeys([*_BUILT_IN, *_GAMES]))


def load(target: str) -> Any:
    """The object a ``"module:callable"`` hook names."""
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


__all__ = ["Game", "Played", "Position", "TableGame", "game_names", "get_game", "load",
           "register"]
