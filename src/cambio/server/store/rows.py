"""What the store hands back, checked on the way out: a row that cannot be read back raises
:class:`DamagedRow` (its table is set aside) instead of reaching the engine."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..server_messages import ChatLine


class DamagedRow(Exception):
    """A stored row that cannot be read back; its table is set aside (quarantined)."""


@dataclass
class TableRow:
    id: str
    game: str
    players: int
    config: dict[str, Any]
    seed: int
    status: str
    game_no: int
    created: float


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str
    bot: str | None
    token_hash: str | None
    player: str | None = None
    """The player who took the seat from their browser (``players.id``), if known."""


MAX_SEATS = 64
"""A sane bound on a stored table's players (and its seat numbers); each game's own limits
are checked when a table of it is loaded (``Table``) or created (its ``GameKind``)."""


def _json(text: object) -> Any:
    if not isinstance(text, str):
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def table_row(r: tuple[Any, ...]) -> TableRow:
    """A ``tables`` row (the columns of :data:`~.statements.TABLE_COLUMNS`), checked."""
    config = _json(r[3])
    ok = (isinstance(r[0], str) and isinstance(r[1], str) and 0 < len(r[1]) <= 64
          and isinstance(r[2], int)
          and 1 <= r[2] <= MAX_SEATS and isinstance(config, dict) and isinstance(r[4], int)
          and r[5] in ("waiting", "playing", "finished") and isinstance(r[6], int)
          and r[6] >= 0 and isinstance(r[7], int | float))
    if not ok or not isinstance(config, dict):
        raise DamagedRow(f"table {r[0]!r:.40}: its row is damaged")
    return TableRow(id=r[0], game=r[1], players=r[2], config=config, seed=r[4], status=r[5],
                    game_no=r[6], created=float(r[7]))


def seat_rows(table_id: str, rows: list[tuple[Any, ...]]) -> list[SeatRow]:
    out: list[SeatRow] = []
    for r in rows:
        seat, kind, name, bot, th, player = r
        if not (isinstance(seat, int) and 0 <= seat < MAX_SEATS
                and kind in ("human", "bot", "empty")
                and isinstance(name, str) and (bot is None or isinstance(bot, str))
                and (th is None or isinstance(th, str))
                and (player is None or isinstance(player, str))):
            raise DamagedRow(f"table {table_id}: seat row {r!r:.80} is damaged")
        out.append(SeatRow(seat, kind, name, bot, th, player))
    return out


def game_row(table_id: str, game_no: int, r: tuple[Any, ...]) -> tuple[int, str]:
    """A ``games`` row's seed and start time."""
    seed, started = r
    if not isinstance(seed, int) or isinstance(seed, bool) \
            or not isinstance(started, str | int | float):
        raise DamagedRow(f"table {table_id}: game {game_no}'s row is damaged")
    return seed, str(started)


def round_rows(table_id: str, game_no: int, rows: list[tuple[Any, ...]]
               ) -> list[tuple[int, dict[str, Any]]]:
    out: list[tuple[int, dict[str, Any]]] = []
    for round_no, header in rows:
        parsed = _json(header)
        if not isinstance(round_no, int) or not isinstance(parsed, dict):
            raise DamagedRow(f"table {table_id}: round {round_no!r:.20} of game {game_no} "
                             "is damaged")
        out.append((round_no, parsed))
    return out


def action_rows(table_id: str, rows: list[tuple[Any, ...]]) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for i, (version, seat, action) in enumerate(rows, start=1):
        if version != i:
            raise DamagedRow(f"table {table_id}: action versions have a gap at {i}")
        if not isinstance(seat, int) or not isinstance(action, str):
            raise DamagedRow(f"table {table_id}: action {i} is damaged")
        out.append((seat, action))
    return out


def deadline_row(table_id: str, r: tuple[Any, ...]) -> tuple[int, int, int, int, float]:
    """A ``deadlines`` row: ``(game_no, round_no, since, seat, deadline)``."""
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in r[:4]) \
            or not isinstance(r[4], int | float):
        raise DamagedRow(f"table {table_id}: its clock's deadline is damaged")
    return int(r[0]), int(r[1]), int(r[2]), int(r[3]), float(r[4])


def chat_rows(table_id: str, rows: list[tuple[Any, ...]]) -> list[ChatLine]:
    """Chat lines as the table sends them (``chat`` messages, docs/protocol.md)."""
    out: list[ChatLine] = []
    for n, seat, name, text, emote, at in rows:
        if not isinstance(n, int) or not isinstance(seat, int) or not isinstance(text, str) \
                or not isinstance(name, str) or not (emote is None or isinstance(emote, str)):
            raise DamagedRow(f"table {table_id}: chat line {n!r} is damaged")
        out.append({"n": n, "seat": seat, "name": name, "text": text, "emote": emote,
                    "at": str(at)})
    return out
