"""Play now's pairing rule with pairs kept apart (one blocked the other), on plain values;
and the matchmaker asking for those pairs (tests/server/social/test_api.py does it with
the real queue of a real server)."""

from __future__ import annotations

import asyncio
import time

from cambio.server.players.matching import Group, form
from cambio.server.players.queue import Matchmaker, MemoryBackend

from ..players.test_queue import Tables
from ..players.test_rules import entry


def seated(groups: list[Group]) -> list[list[str]]:
    return [[e.ticket for e in g.entries] for g in groups]


def test_a_pair_kept_apart_is_never_seated_together_even_to_fill_a_table() -> None:
    waiting = [entry("a", sizes=(3,)), entry("b", sizes=(3,), joined=1.0),
               entry("c", sizes=(3,), joined=2.0), entry("d", sizes=(3,), joined=3.0)]
    assert seated(form(waiting, now=4.0)) == [["a", "b", "c"]]
    apart = {frozenset(("_a", "_b"))}
    assert seated(form(waiting, now=4.0, apart=apart)) == [["a", "c", "d"]]
    # Once the wait is over, each sits with bots rather than with the other.
    pair = [entry("a"), entry("b", joined=1.0)]
    assert seated(form(pair, now=100.0, apart=apart)) == [["a"], ["b"]]
    assert seated(form(pair, now=100.0)) == [["a", "b"]]


def test_the_matchmaker_asks_for_the_pairs_among_who_is_there() -> None:
    asked: list[list[str]] = []

    async def apart(players: list[str]) -> set[frozenset[str]]:
        asked.append(players)
        return {frozenset(("_a", "_b"))}

    async def main() -> list[list[str]]:
        backend, tables = MemoryBackend(), Tables()
        maker = Matchmaker(backend, tables.start, apart)
        now = time.time()
        for ticket in ("a", "b"):
            await backend.put(entry(ticket, joined=now, fill_at=now - 1))
            await backend.touch(ticket, True)
        await maker.tick()
        return seated(tables.groups)

    assert asyncio.run(main()) == [["a"], ["b"]]
    assert asked == [["_a", "_b"]]
