"""The daily deal on a real server, on both stores: the same deal for two players on one day
(an injected day: ``--daily-date``), another the next; one table per player and day; the
day's results; others' replays and reviews only once one's own game of the deal is over."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import httpx

from cambio.server.daily import day_of
from cambio.server.settings import Settings

from ..support.databases import Database
from .harness import ServerProcess
from .players.helpers import browser, new_player, play_to_end

DAY = "2026-12-05"
NEXT = "2026-12-06"


def served(database: Database, day: str) -> ServerProcess:
    return ServerProcess(database, bot_speed=40.0, round_pause=0.2,
                         extra=["--daily-date", day, "--review-workers", "0"])


def test_the_day_is_the_utc_date() -> None:
    late = datetime(2026, 12, 5, 23, 59, 59, tzinfo=UTC)
    assert day_of(Settings(), late) == DAY
    assert day_of(Settings(), late + timedelta(seconds=1)) == NEXT
    # 01:00 in UTC+2 is still the day before in UTC
    east = datetime(2026, 12, 6, 1, 0, tzinfo=timezone(timedelta(hours=2)))
    assert day_of(Settings(), east) == DAY
    assert day_of(Settings(daily_date=NEXT), late) == NEXT


def test_one_deal_a_day_for_everyone(database: Database) -> None:
    with served(database, DAY) as server:
        first = asyncio.run(_same_day(server))
    with served(database, NEXT) as server:
        asyncio.run(_next_day(server, database, first))


async def _start(http: httpx.AsyncClient, status: int = 201) -> dict[str, Any]:
    r = await http.post("/api/daily", json={"game": "cards"})
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert body["day"] in (DAY, NEXT) and body["seat"] == 0 and body["token"]
    return body


def header(record: str) -> dict[str, Any]:
    first: dict[str, Any] = json.loads(record.splitlines()[0])
    return first


async def _same_day(server: ServerProcess) -> dict[str, str]:
    async with browser(server) as ann, browser(server) as bo, browser(server) as cy:
        r = await ann.post("/api/daily", json={"game": "cards"})
        assert r.status_code == 401  # a player first
        for http, name in ((ann, "Ann"), (bo, "Bo"), (cy, "Cy")):
            await new_player(http, name)
        r = await ann.post("/api/daily", json={"game": "chess"})
        assert r.status_code == 400
        a = await _start(ann)
        b = await _start(bo)
        assert a["table"] != b["table"] and a["day"] == DAY
        again = await _start(ann, 200)  # the same table, a new token for the seat
        assert again["table"] == a["table"] and again["token"] != a["token"]
        board = (await cy.get("/api/daily", params={"game": "cards"})).json()
        assert board == {"day": DAY, "game": "cards", "played": False, "mine": None,
                         "playing": 2, "results": []}
        await play_to_end(server, a["table"], again["token"], seed=1)
        mine = (await ann.get("/api/daily")).json()
        assert mine["played"] is True and mine["playing"] == 1
        (ann_row,) = mine["results"]
        assert ann_row["name"] == "Ann" and ann_row["table"] == a["table"]
        assert isinstance(ann_row["score"], int) and ann_row["accuracy"] is None
        assert mine["mine"] == ann_row
        # who has not played it yet sees the results, not the games
        theirs = (await bo.get("/api/daily")).json()
        (seen,) = theirs["results"]
        assert theirs["played"] is False and "table" not in seen and "replay" not in seen
        assert seen["score"] == ann_row["score"]
        r = await bo.get(f"/api/tables/{a['table']}/seats/0/review")
        assert r.status_code == 403
        await play_to_end(server, b["table"], b["token"], seed=2)
        # Bo has played it now: Ann's review is his to see; Cy, who has not, is refused
        r = await bo.get(f"/api/tables/{a['table']}/seats/0/review")
        assert r.status_code == 202, r.text
        r = await cy.get(f"/api/tables/{a['table']}/seats/0/review")
        assert r.status_code == 403
        both = (await bo.get("/api/daily")).json()
        assert {e["table"] for e in both["results"]} == {a["table"], b["table"]}
        # the same deal: the two games' records have one seed and one deal
        ha = header((await bo.get(f"/api/tables/{a['table']}/record")).text)
        hb = header((await bo.get(f"/api/tables/{b['table']}/record")).text)
        for h in (ha, hb):
            assert h.pop("match")["round"] == 1
            del h["players"], h["started"]
        assert ha == hb and "seed" in ha
        return {"ann": a["table"], "bo": b["table"]}


async def _next_day(server: ServerProcess, database: Database, first: dict[str, str]) -> None:
    async with browser(server) as cy:
        await new_player(cy, "Cy")
        c = await _start(cy)
        assert c["day"] == NEXT
        seeds = dict(database.rows("SELECT id, seed FROM tables"))
        assert seeds[first["ann"]] == seeds[first["bo"]] != seeds[c["table"]]
        days = database.rows("SELECT day FROM daily_seeds ORDER BY day")
        assert days == [(DAY,), (NEXT,)]
        # yesterday's results are still listed, by day
        old = (await cy.get("/api/daily", params={"day": DAY})).json()
        assert len(old["results"]) == 2 and old["played"] is False
        r = await cy.get("/api/daily", params={"day": "yesterday"})
        assert r.status_code == 400
