"""The games a table can hold, behind one small interface (what the lobby and tables need).

Each :class:`GameKind` reads a "create table" body into a stored config, makes the session of
one game, lists its bots, and turns stored rounds into record text. Adding a game means one
more kind here; the actor and the lobby do not change.
"""

from __future__ import annotations

import dataclasses
import typing
from enum import StrEnum
from typing import Any, Protocol

from cambio.board import BoardError
from cambio.board import Rules as BoardRules
from cambio.bots.resolve import served_bots
from cambio.cards import MAX_PLAYERS, PRESETS, CambioError, Rules
from cambio.cards.rules_text import CHOICE_TEXT, RULE_TEXT
from cambio.games import get_game

from .board_session import BoardSession, board_record
from .cards_session import CardSession, card_record
from .errors import ProtocolError
from .session import Session


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
    away_bot: str
    """The bot that plays a seat whose player is away (the registry's medium level or
    thereabouts: a stand-in, not a threat)."""
    quick_play: bool
    """Quick play may seat a caller at a waiting table of this game."""

    def config(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """``(players, config)`` from a create-table body; raises ``bad_request``."""

    def listing(self, config: dict[str, Any]) -> dict[str, Any]:
        """What a table's summary shows of its config (the lobby lists it)."""

    def session(self, players: int, config: dict[str, Any], table_id: str, seed: int,
                game_no: int) -> Session:
        """A table's next game. It takes the table's fields, not the table, so that this
        module does not depend on :mod:`cambio.server.table` (which depends on it)."""

    def bots(self) -> list[dict[str, Any]]:
        """The game's bot registry as the lobby lists it (every accepted name)."""

    def record(self, header: dict[str, Any], actions: list[tuple[int, str]],
               seat: int | None) -> str:
        """Stored actions as record text, in full (``seat=None``) or for one seat."""


class CardsKind:
    name = "cards"
    away_bot = "memory"
    quick_play = True

    def listing(self, config: dict[str, Any]) -> dict[str, Any]:
        return {"rules": config["rules"], "rounds": config["rounds"]}

    def config(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        players = int_field(body, "players", 2, MAX_PLAYERS)  # the engine's limit
        rules_json = body.get("rules", {"preset": "house"})
        try:
            rules = Rules.from_json(rules_json)
            rules.check_players(players)
        except CambioError as exc:
            raise bad(str(exc)) from None
        rounds = int_field(body, "rounds", 1, 20, default=1)
        return players, {"rules": rules.to_json(), "rounds": rounds}

    def session(self, players: int, config: dict[str, Any], table_id: str, seed: int,
                game_no: int) -> Session:
        rules = Rules.from_json(config["rules"])
        return CardSession(rules, players, seed, int(config["rounds"]), f"{table_id}/{game_no}")

    def bots(self) -> list[dict[str, Any]]:
        return [*get_game(self.name).bot_list(), *served_entries(self.name)]

    def record(self, header: dict[str, Any], actions: list[tuple[int, str]],
               seat: int | None) -> str:
        return card_record(header, actions, seat)


class BoardKind:
    name = "board"
    away_bot = "greedy"
    quick_play = False

    def listing(self, config: dict[str, Any]) -> dict[str, Any]:
        return {"setup": config["setup"], "rounds": 1}

    def config(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        players = int_field(body, "players", 2, 3)
        setup = body.get("setup", "quick")
        if setup not in ("quick", "full"):
            raise bad("\"setup\" must be \"quick\" or \"full\"")
        try:
            BoardRules(players=players)
        except BoardError as exc:
            raise bad(str(exc)) from None
        return players, {"setup": setup}

    def session(self, players: int, config: dict[str, Any], table_id: str, seed: int,
                game_no: int) -> Session:
        return BoardSession(BoardRules(players=players), str(config["setup"]),
                            seed, f"{table_id}/{game_no}")

    def bots(self) -> list[dict[str, Any]]:
        return [*get_game(self.name).bot_list(), *served_entries(self.name)]

    def record(self, header: dict[str, Any], actions: list[tuple[int, str]],
               seat: int | None) -> str:
        return board_record(header, actions, seat)


def rules_catalogue() -> dict[str, Any]:
    """``GET /api/rules``: every preset's values and every field's type, human name and
    description, for the form, the table and the rules page."""
    hints = typing.get_type_hints(Rules)
    fields: list[dict[str, Any]] = []
    for f in dataclasses.fields(Rules):
        if f.name == "preset_name":
            continue
        kind = hints[f.name]
        label, text = RULE_TEXT[f.name]
        entry: dict[str, Any] = {"name": f.name, "label": label, "help": text}
        if isinstance(kind, type) and issubclass(kind, StrEnum):
            entry.update(type="choice", choices=[str(v) for v in kind],
                         choice_labels={str(v): CHOICE_TEXT[v] for v in kind})
        elif kind is bool:
            entry["type"] = "bool"
        elif kind is int:
            entry["type"] = "int"
        else:
            entry["type"] = "int_or_none"
        fields.append(entry)
    presets = {
        name: {f.name: _plain(getattr(rules, f.name)) for f in dataclasses.fields(Rules)
               if f.name != "preset_name"}
        for name, rules in PRESETS.items()
    }
    return {"presets": presets, "fields": fields}


def _plain(value: Any) -> Any:
    return str(value) if isinstance(value, StrEnum) else value


def game_kinds() -> dict[str, GameKind]:
    kinds: dict[str, GameKind] = {"cards": CardsKind(), "board": BoardKind()}
    return kinds
