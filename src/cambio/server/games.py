"""The games a table can hold, behind one small interface (what the lobby and tables need).

Each :class:`GameKind` reads a "create table" body into a stored config, makes the session of
one game, lists its bots, and turns stored rounds into record text. Every game is a
:class:`TurnKind` over its :class:`cambio.games.TableGame`: what the card game does beyond
taking turns (real-time snaps, matches of rounds, a richer create-table body) it declares
through the game interface's abilities, so adding a game changes nothing here: ``cambio
serve --game MODULE:ATTRIBUTE`` (or ``Settings.games``) serves it.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, Protocol

from cambio.bots.resolve import served_bots
from cambio.cards import PRESETS, Rules
from cambio.cards.rules import AS_JACK
from cambio.cards.rules_text import CHOICE_TEXT, NONE_CHOICE_TEXT, RULE_TEXT
from cambio.games import Configured, TableGame, get_game, load, register

from .errors import ProtocolError
from .i18n import translations
from .session import Session
from .turn_session import TurnSession, frames_body, turn_record


def served_entries(game: str) -> list[dict[str, Any]]:
    """The outside bots ``cambio serve --bot``/``--board-bot`` offers, after the registry's:
    nothing is measured about them, so they carry no stars."""
    return [{"name": n, "label": n, "method": "an outside bot (cambio serve --bot)",
             "measured": "not measured", "strength": 0, "level": None, "aliases": [],
             "alias_of": None} for n in served_bots(game)]


def bad(message: str) -> ProtocolError:
    return ProtocolError("bad_request", message)


def int_field(body: dict[str, Any], key: str, low: int, high: int, default: int | None = None
              ) -> int:
    value = body.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise bad(f"{key!r} must be a whole number from {low} to {high}")
    return value


class GameKind(Protocol):
    """What the server knows about one game (a protocol: each kind is a plain class)."""

    name: str
    seats: tuple[int, int]
    """The fewest and the most players a table of this game may seat."""
    away_bot: str
    """The bot that plays a seat whose player is away (the registry's medium level or
    thereabouts: a stand-in, not a threat)."""
    quick_play: bool
    """Quick play may seat a caller at a waiting table of this game."""

    def config(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """``(players, config)`` from a create-table body; raises ``bad_request``."""

    def listing(self, config: dict[str, Any]) -> dict[str, Any]:
        """What a table's summary shows of its config (the lobby lists it)."""

    def options(self) -> dict[str, list[str]]:
        """Each option a table is created with and its choices, the default first."""

    def session(self, players: int, config: dict[str, Any], table_id: str, seed: int,
                game_no: int) -> Session:
        """A table's next game. It takes the table's fields, not the table, so that this
        module does not depend on :mod:`cambio.server.table` (which depends on it)."""

    def bots(self) -> list[dict[str, Any]]:
        """The game's bot registry as the lobby lists it (every accepted name)."""

    def record(self, header: dict[str, Any], actions: list[tuple[int, str]],
               seat: int | None) -> str:
        """Stored actions as record text, in full (``seat=None``) or for one seat."""

    def frames(self, header: dict[str, Any], actions: list[tuple[int, str]],
               seat: int | None, rounds: int) -> dict[str, Any]:
        """A stored round's replay as the viewer is sent it, ``rounds`` the rounds stored
        (:func:`~.turn_session.frames_body`)."""


class TurnKind:
    """Any game (:class:`cambio.games.TableGame`) at a table, played by the one
    :class:`TurnSession`: the card game, the dice board game, or a game the server was
    started with (``cambio serve --game``)."""

    def __init__(self, game: TableGame) -> None:
        self.game = game
        self.name = game.name
        self.seats = game.seats
        self.away_bot = game.away_bot
        self.quick_play = isinstance(game, Configured) and game.quick_play

    def _options(self, source: dict[str, Any]) -> dict[str, Any]:
        game = self.game
        if isinstance(game, Configured):
            return {name: source[name] for name in game.config_fields if name in source}
        return {name: str(source.get(name, choices[0]))
                for name, choices in game.table_options.items()}

    def listing(self, config: dict[str, Any]) -> dict[str, Any]:
        if isinstance(self.game, Configured):
            return {"rounds": 1, **self.game.table_listing(config)}
        return {"rounds": 1, **self._options(config)}

    def options(self) -> dict[str, list[str]]:
        return {name: list(choices) for name, choices in self.game.table_options.items()}

    def config(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        low, high = self.game.seats
        players = int_field(body, "players", low, high)
        if isinstance(self.game, Configured):
            try:
                return players, self.game.table_config(players, body)
            except ValueError as exc:
                raise bad(str(exc)) from None
        for name, choices in self.game.table_options.items():
            if body.get(name, choices[0]) not in choices:
                raise bad(f"\"{name}\" must be " + " or ".join(f"\"{c}\"" for c in choices))
        options = self._options(body)
        try:
            self.game.table_rules(players, options)
        except ValueError as exc:
            raise bad(str(exc)) from None
        return players, dict(options)

    def session(self, players: int, config: dict[str, Any], table_id: str, seed: int,
                game_no: int) -> Session:
        return TurnSession(self.game, players, self._options(config), seed,
                           f"{table_id}/{game_no}")

    def bots(self) -> list[dict[str, Any]]:
        return [*self.game.bot_list(), *served_entries(self.name)]

    def record(self, header: dict[str, Any], actions: list[tuple[int, str]],
               seat: int | None) -> str:
        return turn_record(self.game, header, actions, seat)

    def frames(self, header: dict[str, Any], actions: list[tuple[int, str]],
               seat: int | None, rounds: int) -> dict[str, Any]:
        return frames_body(self.game, header, actions, seat, rounds)


def rules_catalogue(lang: str = "en") -> dict[str, Any]:
    """``GET /api/rules``: every preset's values and every field's type, human name and
    description, for the form, the table and the rules page; the words in ``lang``
    (:mod:`cambio.server.i18n`)."""
    tr = translations(lang).gettext
    hints = typing.get_type_hints(Rules)
    fields: list[dict[str, Any]] = []
    for f in dataclasses.fields(Rules):
        if f.name == "preset_name":
            continue
        kind = hints[f.name]
        label, text = RULE_TEXT[f.name]
        entry: dict[str, Any] = {"name": f.name, "label": tr(label), "help": tr(text)}
        optional = _optional_choice(kind)
        if isinstance(kind, type) and issubclass(kind, StrEnum):
            entry.update(type="choice", choices=[str(v) for v in kind],
                         choice_labels={str(v): tr(CHOICE_TEXT[v]) for v in kind})
        elif optional is not None:  # AS_JACK stands for the field's fallback (none)
            entry.update(type="choice", choices=[AS_JACK, *(str(v) for v in optional)],
                         choice_labels={AS_JACK: tr(NONE_CHOICE_TEXT[f.name]),
                                        **{str(v): tr(CHOICE_TEXT[v]) for v in optional}})
        elif kind is bool:
            entry["type"] = "bool"
        elif kind is int:
            entry["type"] = "int"
        else:
            entry["type"] = "int_or_none"
        fields.append(entry)
    choices = {f["name"] for f in fields if f["type"] == "choice"}
    presets = {
        name: {f.name: _plain(getattr(rules, f.name), f.name in choices)
               for f in dataclasses.fields(Rules) if f.name != "preset_name"}
        for name, rules in PRESETS.items()
    }
    return {"presets": presets, "fields": fields}


def _optional_choice(kind: Any) -> type[StrEnum] | None:
    """The choice type of an optional choice field (``Power | None``), else ``None``."""
    args = [a for a in typing.get_args(kind) if a is not type(None)]
    if len(args) == 1 and isinstance(args[0], type) and issubclass(args[0], StrEnum):
        return args[0]
    return None


def _plain(value: Any, choice: bool = False) -> Any:
    if value is None and choice:
        return AS_JACK
    return str(value) if isinstance(value, StrEnum) else value


def game_kinds(extra: Sequence[str] = ()) -> dict[str, GameKind]:
    """The game kinds a server offers: the two built in, and one for each game ``extra``
    names (``"module:attribute"``, a :class:`~cambio.games.TableGame`; ``cambio serve
    --game``), registered with :mod:`cambio.games` so that sim and records know it too."""
    kinds: dict[str, GameKind] = {name: TurnKind(table_game(name)) for name in ("cards", "board")}
    for target in extra:
        game = load_table_game(target)
        register(game)
        kinds[game.name] = TurnKind(game)
    return kinds


def table_game(name: str) -> TableGame:
    game = get_game(name)
    if not isinstance(game, TableGame):
        raise ValueError(f"game {name!r} cannot be played at a table (it has no start())")
    return game


def load_table_game(target: str) -> TableGame:
    """The turn-based game ``"module:attribute"`` names; ``ValueError`` saying why not."""
    module, colon, attr = target.partition(":")
    if not colon or not module or not attr:
        raise ValueError(f"--game {target!r}: name a game as MODULE:ATTRIBUTE")
    try:
        game = load(target)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"--game {target!r}: cannot load it ({exc})") from None
    if not isinstance(game, TableGame):
        raise ValueError(f"--game {target!r}: not a turn-based game (cambio.games.TableGame)")
    if game.name in ("cards", "board"):
        raise ValueError(f"--game {target!r}: the name {game.name!r} is taken")
    return game
