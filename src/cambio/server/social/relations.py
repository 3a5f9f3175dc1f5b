"""Follows, blocks, mutes, invites and reports: one player's choices about another, kept in
the database (so they hold on every device and every process of a cluster).

- **follow** a player (not one who blocked you; up to :data:`MAX_RELATIONS`); the friends
  list says which of them are online and what they play;
- **invite** someone you follow to a waiting table you sit at (not one who blocked you);
  the invite is listed for them until the table starts or an hour passes (an invite to a
  correspondence table: as long as the table waits, as its players come over days);
- **mute**: their chat lines never reach you (:mod:`.hush`);
- **block**: a mute that also ends following both ways and the invites between you, keeps
  them from following or inviting you, and Play now never seats you together;
- **report** with a reason: the server attaches the table's last chat lines itself (what a
  client says the lines were is never taken), and marks the line reported from.

**What a friend plays.** A table in play is named (its id, to watch) only if it is public
or the asker holds a seat there: a private table's id is its only lock, so a follower
learns that a friend plays a private game, never which. Nothing else of a game is told.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable
from typing import Any

from ..clock import correspondence
from ..errors import FORBIDDEN, NOT_FOUND, RATE_LIMITED, ProtocolError, Words
from ..limits import AddressLimiter
from ..store import Store
from ..store import social_sql as sql

MAX_RELATIONS = 500
"""Players one may follow (and, separately, block or mute)."""
MAX_LISTED = 200
INVITE_HOURS = 1.0
"""An invite is listed for this long (or until its table starts); one to a correspondence
table for as long as the table waits."""
ONLINE = 120.0
"""Seconds since a player's last call within which they count as online (the lobby polls
its invites more often than that)."""
SEEN_EVERY = 60.0
"""A player's ``seen`` stamp is written at most this often per process."""
REASONS = ("abuse", "cheating", "spam", "name", "other")
"""Why one reports a player: insulting chat, cheating, flooding, an offensive name, other."""
MAX_NOTE = 500
CHAT_EVIDENCE = 50
"""The table's last chat lines a report carries."""
REPORT_AGAIN = 600.0
"""Seconds before one player may report the same player again."""


class Relations:
    """Every relation call of one process; ``tables`` gives what this process knows of a
    table's connections (``None``: another process holds it)."""

    def __init__(self, store: Store,
                 connected: Callable[[str], set[str]] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.connected = connected or (lambda table_id: set())
        """The players with an open connection at a table of this process."""
        self.clock = clock
        self.reports = AddressLimiter(1 / 60, 5)
        """Reports per player: 5 at once, then one a minute (per process)."""
        self.invites = AddressLimiter(1 / 6, 20)
        """Invites per player: 20 at once, then one every 6 seconds (per process)."""
        self._seen: dict[str, float] = {}

    async def _read(self, text: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        return await asyncio.to_thread(self.store.read, text, params)

    async def _related(self, relation: str, a: str, b: str) -> bool:
        return bool(await self._read(sql.RELATED.format(relation=relation), (a, b)))

    async def blocked_either(self, a: str, b: str) -> bool:
        return bool(await self._read(sql.BLOCKED_EITHER, (a, b, b, a)))

    async def touch(self, player_id: str) -> None:
        """Stamp the player as seen now (at most every :data:`SEEN_EVERY` seconds)."""
        now = self.clock()
        if now - self._seen.get(player_id, 0.0) < SEEN_EVERY:
            return
        if len(self._seen) > 100_000:
            self._seen.clear()
        self._seen[player_id] = now
        await self.store.write([sql.set_seen(player_id, now)])

    # ------------------------------------------------------------------ choices
    async def add(self, relation: str, me: str, other: str) -> None:
        """Follow, block or mute ``other``."""
        if me == other:
            raise ProtocolError("bad_request", Words("refusal.thatIsYou", "that is you"))
        count = await self._read(sql.COUNT.format(relation=relation), (me,))
        if int(count[0][0]) >= MAX_RELATIONS and not await self._related(relation, me, other):
            raise ProtocolError("conflict", Words(
                "refusal.listFull", f"you may keep up to {MAX_RELATIONS} in a list",
                {"max": MAX_RELATIONS}))
        now = self.clock()
        if relation == "follows":
            if await self._related("blocks", other, me):
                raise ProtocolError(FORBIDDEN, Words(
                    "refusal.noFollows", "this player does not take follows from you"))
            await self.store.write([sql.relate("follows", me, other, now)])
        elif relation == "blocks":
            await self.store.write([sql.relate("blocks", me, other, now),
                                    sql.unfollow_both(me, other),
                                    sql.drop_invites_between(me, other)])
        else:
            await self.store.write([sql.relate(relation, me, other, now)])

    async def remove(self, relation: str, me: str, other: str) -> None:
        await self.store.write([sql.unrelate(relation, me, other)])

    async def listed(self, relation: str, me: str) -> list[dict[str, Any]]:
        rows = await self._read(sql.LIST.format(relation=relation), (me, MAX_LISTED))
        return [_person(pid, name, shown) for pid, name, shown, _ in rows]

    # ------------------------------------------------------------------ friends
    async def friends(self, me: str) -> list[dict[str, Any]]:
        """Whom ``me`` follows (not those who blocked them): online or not, and their
        tables in play (private ones named only to a player seated there)."""
        rows = await self._read(sql.FOLLOWED, (me, MAX_RELATIONS))
        ids = [str(r[0]) for r in rows]
        playing: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
        mine: set[str] = set()
        if ids:
            for pid, table_id, game, config in await self._read(
                    *sql.among(sql.PLAYING_AMONG, [*ids, me])):
                if pid == me:
                    mine.add(str(table_id))
                elif pid in playing:
                    playing[str(pid)].append({"table": str(table_id), "game": game,
                                              "private": bool(json.loads(config)
                                                              .get("private"))})
        now = self.clock()
        out = []
        for pid, name, shown, seen in rows:
            games = [{"game": g["game"], "private": g["private"],
                      "table": g["table"] if not g["private"] or g["table"] in mine else None}
                     for g in playing[str(pid)]]
            here = any(str(pid) in self.connected(g["table"]) for g in playing[str(pid)])
            online = here or (seen is not None and now - float(seen) <= ONLINE)
            out.append({**_person(pid, name, shown), "online": online, "playing": games})
        out.sort(key=lambda f: (not f["online"], f["name"].casefold()))
        return out

    # ------------------------------------------------------------------ invites
    async def invite(self, me: str, other: str, table_id: Any) -> None:
        if not isinstance(table_id, str) or not table_id or len(table_id) > 64:
            raise ProtocolError("bad_request", "name the \"table\" to invite to")
        if not self.invites.take(me):
            raise ProtocolError(RATE_LIMITED, Words("refusal.waitMinute",
                                                     "too many invites; wait a minute"))
        if not await self._related("follows", me, other):
            raise ProtocolError(FORBIDDEN, Words("refusal.inviteFollowed",
                                                  "you can invite players you follow"))
        if await self._related("blocks", other, me):
            raise ProtocolError(FORBIDDEN, Words(
                "refusal.noInvites", "this player does not take invites from you"))
        status = await self._read(sql.TABLE_STATUS, (table_id,))
        seated = {str(p) for _, p in await self._read(sql.SEATED_AT, (table_id,))}
        if not status or me not in seated:
            raise ProtocolError(NOT_FOUND, Words("refusal.noSeatThere",
                                                  "you hold no seat at that table"))
        if status[0][0] != "waiting":
            raise ProtocolError("conflict", Words("refusal.started", "that table has started"))
        if other in seated:
            raise ProtocolError("conflict", Words("refusal.alreadySeated",
                                                  "they sit at that table already"))
        await self.store.write([sql.insert_invite(other, me, table_id, self.clock())])

    async def invites_of(self, me: str) -> list[dict[str, Any]]:
        since = self.clock() - INVITE_HOURS * 3600
        rows = await self._read(sql.INVITES_OF, (me, MAX_LISTED))
        return [{"from": _person(pid, name, shown), "table": table_id, "game": game,
                 "link": f"/t/{table_id}"}
                for pid, name, shown, table_id, game, config, created in rows
                if created >= since or correspondence(json.loads(config))]

    async def dismiss(self, me: str, table_id: str) -> None:
        await self.store.write([sql.delete_invite(me, table_id)])

    # ------------------------------------------------------------------ reports
    async def report(self, me: str, other: str, body: dict[str, Any]) -> str:
        """File a report; its evidence (the table's last chat lines) is read here. Returns
        the report's id."""
        if me == other:
            raise ProtocolError("bad_request", Words("refusal.thatIsYou", "that is you"))
        reason, note, table_id = _report_body(body)
        if not self.reports.take(me):
            raise ProtocolError(RATE_LIMITED, Words("refusal.waitMinute",
                                                     "too many reports; wait a minute"))
        now = self.clock()
        if await self._read(sql.RECENT_REPORT, (me, other, now - REPORT_AGAIN)):
            raise ProtocolError(RATE_LIMITED, Words(
                "refusal.reportedLately", "you reported this player lately; the operators "
                                          "have it"))
        evidence: dict[str, Any] = {}
        if table_id is not None:
            seats = {int(s): str(p) for s, p in await self._read(sql.SEATED_AT, (table_id,))}
            if me not in seats.values() or other not in seats.values():
                raise ProtocolError(FORBIDDEN, Words(
                    "refusal.reportSeated", "you both sit at a table you report from"))
            chat = await asyncio.to_thread(self.store.chat, table_id, CHAT_EVIDENCE)
            evidence = {"seats": {str(s): p for s, p in sorted(seats.items())}, "chat": chat}
            line = body.get("line")  # the line reported from, if it is theirs and kept
            if any(x["n"] == line and seats.get(x["seat"]) == other for x in chat):
                evidence["line"] = line
        report_id = "r_" + secrets.token_urlsafe(8)
        await self.store.write([sql.insert_report(report_id, me, other, reason, note,
                                                  table_id, evidence, now)])
        return report_id


def _report_body(body: dict[str, Any]) -> tuple[str, str, str | None]:
    reason = body.get("reason")
    if reason not in REASONS:
        raise ProtocolError("bad_request", f"\"reason\" is one of {', '.join(REASONS)}")
    note = body.get("note", "")
    if not isinstance(note, str) or len(note) > MAX_NOTE:
        raise ProtocolError("bad_request", f"\"note\" is text of up to {MAX_NOTE} characters")
    table_id = body.get("table")
    if table_id is not None and (not isinstance(table_id, str) or not table_id
                                 or len(table_id) > 64):
        raise ProtocolError("bad_request", "\"table\" is a table's id")
    return str(reason), " ".join(note.split()), table_id


def _person(pid: Any, name: Any, shown: Any) -> dict[str, Any]:
    return {"id": str(pid), "name": str(name), "username": shown,
            "profile": f"/p/{shown or pid}"}
