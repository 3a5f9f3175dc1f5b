"""One interface for every game: what the simulator, the tournaments, the parallel runner,
the record commands and the server's game kinds need from a game, so none asks which game
it is.

A :class:`Game` is a plain object (boardgame.io's game, OpenSpiel's ``Game``): its rules
check, a seeded play of one game by bots to the end, its bots by name, its records written,
replayed and exported, and the terminal's rendering of a replay. The two built-in games are
:mod:`cambio.games.cards` and :mod:`cambio.games.board`, loaded on first use; another game
is one :func:`register` call (the tests' three-in-a-row toy game is one).

A :class:`TableGame` is a game a server table can hold, one :class:`Position` at a time;
what it does beyond one seat deciding at a time it declares by having it, and the server
asks for that, never for a game by name: :class:`Snaps`, :class:`Hints` and
:class:`Reveals` on its positions, :class:`Rounds`, :class:`Configured` and
:class:`QuickBots` on the game. Both built-in games are table games; the card game has
every ability.

This module imports nothing from the rest of cambio, so every layer may depend on it.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, runtime_checkable


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


EVERYONE = -1
"""The audience of a fact every seat and spectator may see (:class:`Step`)."""


def shows(audience: int, seat: int | None) -> bool:
    """Whether a fact with this ``audience`` (a bitmask of seats, or :data:`EVERYONE`) is
    shown to ``seat`` (``None``: a spectator, who sees only what everyone sees)."""
    if seat is None:
        return audience == EVERYONE
    return bool(audience >> seat & 1)


class Step(NamedTuple):
    """An accepted action as a table announces it: its text, which everyone sees, and what
    else it showed and to whom (the card game's cards turned up; most games show nothing
    more than the text, and their :meth:`Position.play` returns the text alone). A named
    tuple: one is made per action on the server's hot path."""

    text: str
    facts: Sequence[tuple[str, Any, int]] = ()
    """``(key, value, audience)``: ``audience`` as :func:`shows` reads it."""


class Position(Protocol):
    """One game in progress (one round of a match), step by step, as a server table plays
    it: one seat decides at a time; a game whose seats may also act out of turn says so by
    being :class:`Snaps` too.

    What a seat may know is what :meth:`view` gives it; the text :meth:`play` returns is
    announced to every seat and spectator, so it must hide nothing either."""

    def decider(self) -> int | None:
        """The seat whose decision the game waits for (``None``: the game is over)."""

    def legal(self, seat: int) -> list[str]:
        """The actions ``seat`` may play now, as text (empty unless it decides)."""

    def play(self, seat: int, text: str) -> str | Step:
        """Check and apply ``seat``'s action; the action as everyone sees it, or a
        :class:`Step` when it showed some seats more. Raises ``ValueError`` (its message
        naming public facts only) and changes nothing if the action is refused."""

    def outcome(self) -> dict[str, Any] | None:
        """The public end facts (``winners``: a list of seats, empty for a draw, and the
        game's own, e.g. ``termination``), or ``None`` while the game goes on."""

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may know, as JSON for the client. A view
        that has its own ``legal`` key is complete (the card game's, which lists snaps for
        every seat); any other gets the table's ``game``, ``seat``, ``players``, ``actor``
        and, for the decider only, ``legal`` added."""

    def bot_move(self, bot: Any, seat: int) -> str:
        """The action ``bot`` (one of :meth:`Game.make_bot`'s) chooses for ``seat``, given
        only what that seat may know."""

    def record(self, names: Sequence[str], seat: int | None) -> str:
        """The record so far (``names``: the player in each seat): in full (``seat=None``),
        or as ``seat`` may have it."""


@runtime_checkable
class Snaps(Protocol):
    """Ability of a :class:`Position` whose seats may act out of turn, racing each other
    (the card game's snaps): a *window* opens when such actions become possible, and the
    table's bots look at each window once, at a random moment."""

    def snap_window(self) -> int | None:
        """An id of the open window (a new id for each new one); ``None``: none is open."""

    def can_snap(self, seat: int) -> bool:
        """``seat`` may act in the open window."""

    def bot_snap(self, bot: Any, seat: int) -> str | None:
        """What ``bot`` does for ``seat`` in the open window (``None``: nothing)."""

    def is_snap(self, text: str) -> bool:
        """``text`` is an out-of-turn action: it is judged against the state it finds, so
        it may be aimed at an earlier version, and a refusal is a lost race, not abuse."""


@runtime_checkable
class Reveals(Protocol):
    """Ability of a :class:`Position` that hides something from some seats: what someone
    who sees everything sees (a finished game's replay, as its full record shows it)."""

    def open_view(self) -> dict[str, Any]:
        """The view with nothing hidden, shaped as :meth:`Position.view`'s."""


@runtime_checkable
class Hints(Protocol):
    """Ability of a :class:`Position` that can suggest a move (assist mode)."""

    def hint(self, seat: int, version: int) -> dict[str, Any] | None:
        """A suggestion for ``seat`` from its own view (``action`` and ``text``, and what
        else the game says of it); ``None`` if the seat has no decision to make now. May
        search for a while: the table runs it off its loop."""


class TableMatch(Protocol):
    """One table game as rounds (most games: one round, :class:`OneGame`): deals each
    round's :class:`Position` from a header the table stores first, books its result."""

    def header(self, names: list[dict[str, Any]], extra: dict[str, Any]) -> dict[str, Any]:
        """The next round's record header (``names``: each seat's ``name`` and, for a
        bot, ``bot``; ``extra`` goes in as it is). Nothing changes until :meth:`deal`."""

    def deal(self, header: dict[str, Any]) -> Position:
        """The round ``header`` describes (from :meth:`header`, or read back from storage:
        ``RuntimeError`` if it is not this match's next round)."""

    def finish_round(self, position: Position) -> None:
        """Book the finished round's result."""

    def over(self) -> bool:
        """The whole match is over."""

    def totals(self) -> list[int] | None:
        """Each seat's running total (``None``: the game keeps none)."""

    def result(self) -> dict[str, Any]:
        """``{"scores", "totals", "winners"}``: each booked round's scores, the totals and
        the match's winners (``None`` until it is over)."""


@runtime_checkable
class TableGame(Game, Protocol):
    """A game a server table can hold (the server's one session plays every such game):
    a :class:`Game` that can also be started and played one action at a time.

    A game declares more by having more: :class:`Snaps` and :class:`Hints` on its
    positions, :class:`Rounds` (a match of rounds), :class:`Configured` (a create-table
    body richer than a choice per option), :class:`QuickBots` (bots cheap enough to run on
    the server's loop)."""

    seats: tuple[int, int]
    """The fewest and the most players a table may seat."""
    table_options: Mapping[str, tuple[str, ...]]
    """Each option a table is created with (the board game's ``setup``) and its choices,
    the default first."""
    away_bot: str
    """The bot that plays a seat whose player is away: a stand-in, not a threat."""

    def table_rules(self, players: int, options: Mapping[str, Any]) -> Any:
        """The rules a table of ``players`` plays with these options; ``ValueError`` if
        they cannot be played."""

    def start(self, rules: Any, players: int, seed: int,
              options: Mapping[str, Any]) -> Position:
        """A new game seeded by ``seed`` (its chance steps drawn now)."""


@runtime_checkable
class Rounds(Protocol):
    """Ability of a :class:`TableGame` played at a table as a match of rounds."""

    def match(self, rules: Any, players: int, seed: int,
              options: Mapping[str, Any]) -> TableMatch:
        """A new match seeded by ``seed`` (``options`` say how many rounds)."""

    def replay_round(self, header: dict[str, Any]) -> Position:
        """The round a stored header describes, dealt alone (for its record and replay
        frames); its :meth:`Position.record` writes that header."""


@runtime_checkable
class Configured(Protocol):
    """Ability of a :class:`TableGame` whose tables are created with more than a choice
    per option (the card game's rules and rounds)."""

    config_fields: tuple[str, ...]
    """The keys of a table's stored config that are the game's own."""
    quick_play: bool
    """Quick play may seat a caller at a waiting table of this game."""

    def table_config(self, players: int, body: Mapping[str, Any]) -> dict[str, Any]:
        """The game's own config (``config_fields``) read from a create-table body;
        ``ValueError`` saying what is wrong."""

    def table_listing(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """What the lobby's listing of a table says of the game's own config (the card
        game: its rules, its rounds, and the target of rules played to a score)."""


@runtime_checkable
class QuickBots(Protocol):
    """Ability of a :class:`TableGame` some of whose bots decide in microseconds."""

    def quick_bot(self, bot: Any) -> bool:
        """``bot`` needs no search: a table plays its moves at once, on its loop."""


class OneGame:
    """A :class:`TableMatch` of one round: any :class:`TableGame` that is not
    :class:`Rounds`. The header names the game, its rules, players, seed and options."""

    def __init__(self, game: TableGame, rules: Any, players: int, seed: int,
                 options: Mapping[str, Any]) -> None:
        self.game, self.rules, self.players = game, rules, players
        self.seed, self.options = seed, dict(options)
        self.position: Position | None = None

    def header(self, names: list[dict[str, Any]], extra: dict[str, Any]) -> dict[str, Any]:
        return {"game": self.game.name, "rules": self.game.rules_json(self.rules),
                "players": [str(p["name"]) for p in names], "seed": self.seed,
                **self.options, **extra}

    def deal(self, header: dict[str, Any]) -> Position:
        self.position = self.game.start(self.rules, self.players, self.seed, self.options)
        return self.position

    def finish_round(self, position: Position) -> None:
        pass

    def over(self) -> bool:
        return self.position is not None and self.position.outcome() is not None

    def totals(self) -> list[int] | None:
        return None

    def result(self) -> dict[str, Any]:
        outcome = self.position.outcome() if self.position is not None else None
        return {"scores": [], "totals": None,
                "winners": list(outcome["winners"]) if outcome is not None else None}


def table_match(game: TableGame, rules: Any, players: int, seed: int,
                options: Mapping[str, Any]) -> TableMatch:
    """A new match of ``game``: its own if it plays rounds, else one game."""
    if isinstance(game, Rounds):
        return game.match(rules, players, seed, options)
    return OneGame(game, rules, players, seed, options)


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


__all__ = ["EVERYONE", "Configured", "Game", "Hints", "OneGame", "Played", "Position",
           "QuickBots", "Reveals", "Rounds", "Snaps", "Step", "TableGame", "TableMatch",
           "game_names", "get_game", "load", "register", "shows", "table_match"]
