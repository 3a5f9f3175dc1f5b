"""What crosses processes through Redis besides the leases: the lobby, and hand-overs.

**The lobby.** Any process answers ``GET /api/tables``, so each keeps the joinable tables of
the whole cluster in memory. An owner writes a table's summary to the hash
``cambio:lobby`` when the table becomes joinable or changes while joinable, removes it
when it stops being joinable, and publishes each change on ``cambio:events``; every process
applies what it hears, and reads the whole hash again whenever it (re)subscribes, so a
change missed while Redis was away is caught up.

**Hand-overs.** A process that lets a table go publishes ``released``; the others race to
claim it (:meth:`ClusterServer._released`).

Publishing never holds up a table: changes go through one queue, sent in order by one task.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from ..mailbox import Mailbox
from .lease import PREFIX

if TYPE_CHECKING:
    from ..table import Table

log = logging.getLogger("cambio.server")

CHANNEL = f"{PREFIX}events"
LOBBY = f"{PREFIX}lobby"
RETRY = 0.5
"""Seconds between two attempts to reach Redis again."""


class Bus:
    def __init__(self, redis: Redis, me: str,
                 on_released: Callable[[str], Coroutine[Any, Any, None]]) -> None:
        self.redis = redis
        self.me = me
        self.on_released = on_released
        self.joinable: dict[str, dict[str, Any]] = {}
        """The cluster's joinable tables: id -> summary."""
        self._listed: dict[str, str] = {}
        """This process's tables as last written to the lobby hash (id -> summary JSON)."""
        self._out: Mailbox[tuple[str, str | None]] = Mailbox()
        self._sender: asyncio.Task[None] | None = None
        self._claims: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ the lobby
    def table_changed(self, table: Table) -> None:
        """A table's summary may have changed (its actor broadcasts it): list or unlist it
        (a private table is never listed: only its invitation finds it)."""
        if table.joinable() and not table.config.get("private"):
            text = json.dumps(table.summary(), separators=(",", ":"))
            if self._listed.get(table.id) == text:
                return
            self._listed[table.id] = text
            self.joinable[table.id] = json.loads(text)
            self._send(table.id, text)
        elif self._listed.pop(table.id, None) is not None or table.id in self.joinable:
            self.joinable.pop(table.id, None)
            self._send(table.id, None)

    def disown(self, table_id: str) -> None:
        """The table moved to another process: its entry is the new owner's to keep."""
        self._listed.pop(table_id, None)

    def forget(self, table_id: str) -> None:
        """The table is gone from the cluster (expired) or from memory (finished and idle,
        not joinable anyway): unlist it if it was listed."""
        if self._listed.pop(table_id, None) is not None or table_id in self.joinable:
            self.joinable.pop(table_id, None)
            self._send(table_id, None)

    def lobby(self, limit: int) -> list[dict[str, Any]]:
        tables = sorted(self.joinable.values(), key=lambda s: str(s.get("created", "")),
                        reverse=True)
        return tables[:limit]

    def _send(self, table_id: str, summary: str | None) -> None:
        self._out.put((table_id, summary))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._drain_out())

    async def _drain_out(self) -> None:
        while len(self._out):
            table_id, summary = await self._out.get()
            event = {"kind": "lobby", "table": table_id, "summary": summary}
            while True:
                try:
                    async with self.redis.pipeline(transaction=True) as pipe:
                        if summary is None:
                            pipe.hdel(LOBBY, table_id)
                        else:
                            pipe.hset(LOBBY, table_id, summary)
                        pipe.publish(CHANNEL, json.dumps(event))
                        await pipe.execute()
                    break
                except (RedisError, OSError):
                    await asyncio.sleep(RETRY)  # re-sent when Redis is back

    async def publish(self, event: dict[str, Any]) -> None:
        await self.redis.publish(CHANNEL, json.dumps({**event, "from": self.me}))

    # ------------------------------------------------------------------ listening
    async def listen(self) -> None:
        """Follow the channel for ever, resubscribing (and re-reading the lobby) after Redis
        comes back."""
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                await self._reload()
                while True:
                    message = await pubsub.get_message(timeout=5.0)
                    if message is not None:
                        await self._on(message.get("data"))
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                log.warning("cluster: the event channel dropped (%s); resubscribing", exc)
                await asyncio.sleep(RETRY)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _reload(self) -> None:
        raw = await self.redis.hgetall(LOBBY)
        joinable: dict[str, dict[str, Any]] = {}
        for key, value in raw.items():
            with contextlib.suppress(ValueError, AttributeError):
                joinable[_text(key)] = json.loads(value)
        for table_id, text in self._listed.items():  # ours, as we know them best
            joinable[table_id] = json.loads(text)
            self._send(table_id, text)  # Redis may have come back empty
        self.joinable = joinable

    async def _on(self, data: Any) -> None:
        try:
            event = json.loads(data)
        except (TypeError, ValueError):
            return
        if not isinstance(event, dict):
            return
        table_id = event.get("table")
        if not isinstance(table_id, str):
            return
        if event.get("kind") == "lobby":
            summary = event.get("summary")
            if isinstance(summary, str):
                with contextlib.suppress(ValueError):
                    self.joinable[table_id] = json.loads(summary)
            else:
                self.joinable.pop(table_id, None)
        elif event.get("kind") == "released" and event.get("from") != self.me:
            task: asyncio.Task[None] = asyncio.get_running_loop().create_task(
                self.on_released(table_id))
            self._claims.add(task)
            task.add_done_callback(self._claims.discard)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
