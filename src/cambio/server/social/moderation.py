"""Moderation: what an operator may do to a player, and what the server checks.

Everything here reads and writes the database only, never a server process's memory, so
``cambio admin`` (a process of its own) acts on every server process of a cluster at once:
the servers read a player's sanctions when the player does something they can forbid (a
chat line, Play now, a sign-in), and a ban ends the player's sessions by deleting every
browser key of theirs.

Every action is one transaction: its effect, the log entry saying who did it, and (for a
sanction) the player's open reports closed.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..errors import FORBIDDEN, ProtocolError, Words
from ..store import Statement, Store
from ..store import social_sql as sql

MUTE = "mute"
BAN = "ban"
OPERATOR = "operator"
ACTIONS = ("warn", "mute", "unmute", "ban", "unban", "grant", "revoke", "dismiss")
"""What the log's ``action`` holds."""
MAX_REASON = 500


def iso(t: float | None) -> str | None:
    return None if t is None else datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Sanction:
    kind: str
    """:data:`MUTE` (no chat) or :data:`BAN`."""
    until: float | None
    """When it ends by itself (``None``: when an operator lifts it)."""
    reason: str

    def active(self, now: float) -> bool:
        return self.until is None or self.until > now

    def public(self) -> dict[str, Any]:
        return {"kind": self.kind, "until": iso(self.until), "reason": self.reason}

    def refusal(self) -> str:
        """What the player is told when the sanction stops them."""
        what = "banned" if self.kind == BAN else "muted"
        when = f" until {iso(self.until)}" if self.until is not None else ""
        params: dict[str, Any] = {"reason": self.reason}
        if self.until is not None:
            params["until"] = iso(self.until)
        return Words(f"refusal.{what}{'Until' if self.until is not None else ''}",
                     f"you are {what}{when} by this server's operators: {self.reason}", params)


def sanctions(rows: list[tuple[Any, ...]], now: float) -> dict[str, Sanction]:
    """The active sanctions of ``(kind, until, reason)`` rows, by kind."""
    found = (Sanction(str(k), None if u is None else float(u), str(r)) for k, u, r in rows)
    return {s.kind: s for s in found if s.active(now)}


def standing(store: Store, player_id: str, now: float | None = None) -> dict[str, Sanction]:
    """The player's active sanctions (a worker thread or the CLI runs it)."""
    return sanctions(store.read(sql.SANCTIONS_OF, (player_id,)), now or time.time())


def refuse_banned(store: Store, player_id: str) -> None:
    """``forbidden`` if the player is banned now (Play now, sign-in)."""
    ban = standing(store, player_id).get(BAN)
    if ban is not None:
        raise ProtocolError(FORBIDDEN, ban.refusal())


def warnings(store: Store, player_id: str, limit: int = 20) -> list[dict[str, Any]]:
    return [{"at": iso(float(at)), "reason": json.loads(detail).get("reason", "")}
            for at, detail in store.read(sql.WARNINGS_OF, (player_id, limit))]


DURATION = re.compile(r"^(\d{1,6})([mhdw])$")
UNIT = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def duration(raw: Any) -> float | None:
    """``30m``, ``12h``, ``7d``, ``2w`` in seconds (``None``: none given, until lifted)."""
    if raw is None:
        return None
    found = DURATION.match(raw.strip()) if isinstance(raw, str) else None
    if found is None or int(found.group(1)) == 0:
        raise ValueError("a duration is a number and m, h, d or w: 30m, 12h, 7d")
    return float(int(found.group(1)) * UNIT[found.group(2)])


def reason_text(raw: Any) -> str:
    if not isinstance(raw, str) or not raw.strip() or len(raw) > MAX_REASON:
        raise ValueError(f"a reason is 1 to {MAX_REASON} characters")
    return " ".join(raw.split())


class Moderator:
    """The operators' actions on one store, each logged with ``actor`` (who did it: an
    operator's player id, or ``cli:USER`` for the command line)."""

    def __init__(self, store: Store, actor: str, clock: Any = time.time) -> None:
        self.store = store
        self.actor = actor
        self.clock = clock

    def _entry(self, now: float, action: str, player_id: str, detail: dict[str, Any]
               ) -> Statement:
        return sql.log_action(secrets.token_urlsafe(8), now, self.actor, action, player_id,
                              detail)

    async def _act(self, action: str, player_id: str, detail: dict[str, Any],
                   effect: list[Statement], close: bool = False) -> float:
        now = float(self.clock())
        closing = [sql.close_reports(player_id, now)] if close else []
        await self.store.write([*effect, *closing,
                                self._entry(now, action, player_id, detail)])
        return now

    async def warn(self, player_id: str, reason: str) -> None:
        """A warning the player sees (``GET /api/players/me/standing``); closes their
        reports."""
        await self._act("warn", player_id, {"reason": reason_text(reason)}, [], close=True)

    async def sanction(self, player_id: str, kind: str, seconds: float | None,
                       reason: str) -> float | None:
        """A timed or lasting mute or ban; a ban also ends every session of the player.
        Returns when it ends (``None``: until lifted)."""
        assert kind in (MUTE, BAN)
        if seconds is not None and seconds <= 0:
            raise ValueError("a duration is more than zero")
        now = float(self.clock())
        until = now + seconds if seconds is not None else None
        why = reason_text(reason)
        effect = [sql.put_sanction(player_id, kind, until, why, now)]
        if kind == BAN:
            effect.append(sql.end_sessions(player_id))
        await self._act(kind, player_id, {"reason": why, "until": iso(until)}, effect,
                        close=True)
        return until

    async def lift(self, player_id: str, kind: str, reason: str = "lifted") -> None:
        await self._act("un" + kind, player_id, {"reason": reason_text(reason)},
                        [sql.lift_sanction(player_id, kind)])

    async def set_operator(self, player_id: str, operator: bool) -> None:
        await self._act("grant" if operator else "revoke", player_id, {"role": OPERATOR},
                        [sql.set_role(player_id, OPERATOR if operator else None)])

    async def dismiss(self, player_id: str, reason: str) -> None:
        """Close a player's open reports with no action against them."""
        await self._act("dismiss", player_id, {"reason": reason_text(reason)}, [],
                        close=True)


def reports(store: Store, *, open_only: bool = True, player_id: str | None = None,
            limit: int = 50) -> list[dict[str, Any]]:
    """Reports, newest first, with their evidence (the CLI reads them)."""
    where = []
    params: list[Any] = []
    if open_only:
        where.append("r.closed IS NULL")
    if player_id is not None:
        where.append("r.player_id = ?")
        params.append(player_id)
    text = sql.REPORTS + (" WHERE " + " AND ".join(where) if where else "") \
        + " ORDER BY r.created DESC LIMIT ?"
    out = []
    for (rid, reporter, pid, name, reason, note, table_id, evidence, created,
         closed) in store.read(text, (*params, limit)):
        out.append({"id": rid, "reporter": reporter, "player": pid, "name": name,
                    "reason": reason, "note": note, "table": table_id,
                    "evidence": json.loads(evidence), "created": iso(float(created)),
                    "closed": iso(None if closed is None else float(closed))})
    return out


def log(store: Store, player_id: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
    text = sql.LOG + (" WHERE player_id = ?" if player_id else "") + " ORDER BY at DESC LIMIT ?"
    params: tuple[Any, ...] = (player_id, limit) if player_id else (limit,)
    return [{"id": i, "at": iso(float(at)), "actor": actor, "action": action, "player": pid,
             **json.loads(detail)} for i, at, actor, action, pid, detail
            in store.read(text, params)]
