"""The chat room's hook (:attr:`cambio.server.table.chat_room.ChatRoom.hush`): at one
table, who may not say what, and whose lines each reader does not get.

Read from the database when a line is said (after the chat rate, so a flood costs no
reads) and when a seated connection arrives with lines to read, so a mute made on any
device, through any process of a cluster, holds at the next line:

- a player **muted or blocked** by a reader: their lines never reach that reader's
  connections (every device the reader is seated from), nor the lines a connection gets
  on arrival;
- a player **muted or banned by the operators**: every line refused, with the reason and
  the end;
- at a **Play now** table (strangers, the server seated them), a player with **no claimed
  account** says quick phrases (emotes) only: a throwaway identity cannot be held to
  account, and a ban of it is undone by clearing a cookie.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field

from ..errors import Words
from ..store import Store
from ..store import social_sql as sql
from ..table import Table
from .moderation import sanctions

log = logging.getLogger("cambio.server")

STRANGERS = "strangers"
"""The table config field Play now sets: the players were seated by the server."""
UNCLAIMED_TEXT = Words("refusal.chatUnclaimed", "at Play now tables free text needs a claimed "
                       "account (a username and a password); quick phrases are open to "
                       "everyone")


@dataclass(frozen=True)
class Hush:
    players: dict[int, str] = field(default_factory=dict)
    """Seat to player id, for the seats a player's browser took."""
    hidden: frozenset[tuple[str, str]] = frozenset()
    """``(reader, speaker)`` player ids: the reader muted or blocked the speaker."""
    refused: dict[str, str] = field(default_factory=dict)
    """Player id to why they may not chat (an operator's mute or ban)."""
    unclaimed: frozenset[str] = frozenset()
    strangers: bool = False

    def refusal(self, seat: int, emote: bool) -> str | None:
        """Why the seat may not say this line (``None``: it may)."""
        player = self.players.get(seat)
        if player is not None and player in self.refused:
            return self.refused[player]
        if self.strangers and not emote and (player is None or player in self.unclaimed):
            return UNCLAIMED_TEXT
        return None

    def hides(self, reader: int | None, speaker: int) -> bool:
        """Whether the reader seat's player does not want the speaker seat's lines."""
        if reader is None:
            return False
        r, s = self.players.get(reader), self.players.get(speaker)
        return r is not None and s is not None and (r, s) in self.hidden


def read_hush(store: Store, players: dict[int, str], strangers: bool,
              now: float | None = None) -> Hush:
    """The hush of seats ``players`` (a worker thread runs it: four short reads)."""
    ids = sorted(set(players.values()))
    if not ids:
        return Hush(strangers=strangers)
    hidden = {(str(a), str(b)) for text in (sql.HUSH_MUTES, sql.HUSH_BLOCKS)
              for a, b in store.read(*sql.among(text, ids))}
    unclaimed = {str(i) for i, username, _ in store.read(*sql.among(sql.PEOPLE, ids))
                 if username is None}
    rows: dict[str, list[tuple[str, float | None, str]]] = {}
    for pid, kind, until, reason in store.read(*sql.among(sql.SANCTIONS_AMONG, ids)):
        rows.setdefault(str(pid), []).append((kind, until, reason))
    refused = {}
    for pid, held in rows.items():
        active = sanctions(held, now or time.time())
        stop = active.get("ban") or active.get("mute")
        if stop is not None:
            refused[pid] = stop.refusal()
    return Hush(dict(players), frozenset(hidden), refused, frozenset(unclaimed), strangers)


def hook(store: Store, table: Table) -> None:
    """Give ``table``'s chat room its hush."""

    async def hush() -> Hush:
        players = {x.seat: x.player for x in table.seats if x.player}
        strangers = bool(table.config.get(STRANGERS))
        try:
            return await asyncio.to_thread(read_hush, store, players, strangers)
        except Exception as exc:  # the database away: the line is not kept either
            log.warning("table %s: chat hush not read (%s)", table.id, type(exc).__name__)
            return Hush(players, strangers=strangers)

    table.chat_room.hush = hush
