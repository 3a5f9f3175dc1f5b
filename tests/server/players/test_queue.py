"""Play now's waiting room in one process: the matchmaker forms tables from what waits,
drops entries nobody polls, and seats at once a player who stops waiting for people."""

from __future__ import annotations

import asyncio
import time

from cambio.server.players import queue
from cambio.server.players.matching import Entry, Group
from cambio.server.players.queue import Matchmaker, MemoryBackend, Seen

from .test_rules import entry


class Tables:
    """Starts nothing: records each group it is handed and names a table for it."""

    def __init__(self, fail: bool = False) -> None:
        self.groups: list[Group] = []
        self.fail = fail

    async def start(self, group: Group) -> tuple[str, list[int]]:
        if self.fail:
            raise RuntimeError("the store is away")
        self.groups.append(group)
        return f"t{len(self.groups)}", list(range(len(group.entries)))


def run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


def test_a_pair_is_seated_once_both_pages_have_polled() -> None:
    async def main() -> None:
        backend, tables = MemoryBackend(), Tables()
        maker = Matchmaker(backend, tables.start)
        now = time.time()
        await backend.put(entry("a", joined=now, fill_at=now + 60))
        await backend.put(entry("b", joined=now + 0.1, fill_at=now + 60))
        await maker.tick()
        assert tables.groups == []  # joining proves nothing: a page that polls does
        await backend.touch("a", False)
        await maker.tick()
        assert tables.groups == []
        await backend.touch("b", False)
        await maker.tick()
        assert len(tables.groups) == 1
        assert await backend.match_of("a") == {"table": "t1", "seat": 0, "player": "_a",
                                                "rated": True}
        assert (await backend.match_of("b"))["seat"] == 1  # type: ignore[index]
        assert await backend.entry("a") is None

    run(main())


def test_the_seat_grace_starts_once_every_player_can_hear_the_match() -> None:
    """``told`` runs after each ticket of the group answers "matched": the grace a player
    has to open the table is not spent while the table is still being started."""
    async def main() -> None:
        backend, tables = MemoryBackend(), Tables()
        heard: list[object] = []

        async def told(group: Group, table: str, seats: list[int]) -> None:
            heard.append((table, seats, [await backend.match_of(e.ticket)
                                         for e in group.entries]))

        maker = Matchmaker(backend, tables.start, told=told)
        now = time.time()
        for t in ("a", "b"):
            await backend.put(entry(t, joined=now, fill_at=now + 60))
            await backend.touch(t, False)
        await maker.tick()
        assert heard == [("t1", [0, 1], [
            {"table": "t1", "seat": 0, "player": "_a", "rated": True},
            {"table": "t1", "seat": 1, "player": "_b", "rated": True}])]

    run(main())


def test_a_player_who_stops_waiting_gets_bots_and_a_silent_one_is_dropped() -> None:
    async def main() -> None:
        backend, tables = MemoryBackend(), Tables()
        maker = Matchmaker(backend, tables.start)
        now = time.time()
        await backend.put(entry("a", joined=now, fill_at=now + 60))
        await backend.put(entry("z", sizes=(3,), joined=now, fill_at=now + 60))
        await backend.touch("z", False)
        await maker.tick()
        assert tables.groups == []
        await backend.touch("a", True)               # "Play with bots now"
        backend.seen["z"] = Seen(now - queue.STALE - 1, polled=True)  # its page went away
        await maker.tick()
        assert [[e.ticket for e in g.entries] for g in tables.groups] == [["a"]]
        assert await backend.entry("z") is None and await backend.match_of("z") is None

    run(main())


def test_a_table_that_cannot_start_tells_its_players() -> None:
    async def main() -> None:
        backend = MemoryBackend()
        maker = Matchmaker(backend, Tables(fail=True).start)
        now = time.time()
        await backend.put(entry("a", fill_at=now - 1, joined=now))
        await backend.touch("a", False)
        await maker.tick()
        match = await backend.match_of("a")
        assert match is not None and "error" in match

    run(main())


def test_a_page_that_stopped_polling_is_matched_with_nobody() -> None:
    """Polled since joining, but not lately (the page went away, or queues and leaves in a
    loop): never seated, even with a partner waiting and its wait over."""
    async def main() -> None:
        backend, tables = MemoryBackend(), Tables()
        maker = Matchmaker(backend, tables.start)
        now = time.time()
        await backend.put(entry("a", joined=now, fill_at=now - 1))
        await backend.put(entry("b", joined=now, fill_at=now - 1))
        await backend.touch("a", False)
        backend.seen["b"] = Seen(now - queue.FRESH - 1, polled=True)
        await maker.tick()
        assert [[e.ticket for e in g.entries] for g in tables.groups] == [["a"]]
        assert await backend.entry("b") is not None  # still waiting: it may poll again

    run(main())


class TickBetweenReads(MemoryBackend):
    """A real backend whose matchmaker's tick lands between a poll's read of the match and
    its read of the entry, as it can when the poll and the tick run in two processes."""

    def __init__(self) -> None:
        super().__init__()
        self.maker: Matchmaker | None = None

    async def entry(self, ticket: str) -> Entry | None:
        if self.maker is not None:
            maker, self.maker = self.maker, None
            await maker.tick()
        return await super().entry(ticket)


def test_a_tick_between_a_polls_two_reads_still_tells_the_match() -> None:
    """The ticket was waiting when the poll read its match, and matched (its entry gone)
    when the poll read its entry: the poll tells the match, never "not in the queue"."""
    async def main() -> None:
        backend, tables = TickBetweenReads(), Tables()
        now = time.time()
        await backend.put(entry("a", joined=now, fill_at=now - 1))
        await backend.touch("a", True)
        backend.maker = Matchmaker(backend, tables.start)
        match, waiting = await queue.look_up(backend, "a")
        assert waiting is None
        assert match == {"table": "t1", "seat": 0, "player": "_a", "rated": True}
        assert backend.maker is None  # the tick did land between the two reads

    run(main())
