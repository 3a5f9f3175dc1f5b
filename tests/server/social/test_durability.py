"""Follows, blocks, mutes, invites, reports, an operator's role and sanctions survive
``kill -9``: every call answered before the kill is there after the restart, on SQLite and
PostgreSQL, and the mute still hides chat at the table that came back. (Correspondence
tables: tests/server/test_restart.py.)"""

from __future__ import annotations

import asyncio

import websockets

from ...support.databases import Database
from ..harness import ServerProcess, create_table, ws_url
from ..harness import recv_until as until
from .helpers import admin, close_all, people, queued, say, table_of_two, texts


def test_social_choices_survive_kill_9(database: Database) -> None:
    srv = ServerProcess(database, away_after=600.0)
    with srv:
        asyncio.run(_scenario(srv))


async def _scenario(srv: ServerProcess) -> None:
    (ann, bo, cy, dee), (a, b, c, d) = await people(srv, "Ann", "Bo", "Cy", "Dee")
    try:
        table, ann_token, bo_token = await table_of_two(ann, bo)
        waiting = await create_table(ann, {"game": "cards", "players": 3, "name": "Ann"})
        calls = [ann.post(f"/api/players/{b['id']}/mute", json={}),
                 ann.post(f"/api/players/{c['id']}/follow", json={}),
                 cy.post(f"/api/players/{a['id']}/block", json={}),
                 ann.post(f"/api/players/{b['id']}/report",
                          json={"reason": "spam", "table": table})]
        for call in calls:
            r = await call
            assert r.status_code in (200, 201), r.text
        await ann.post(f"/api/players/{b['id']}/follow", json={})
        r = await ann.post(f"/api/players/{b['id']}/invite", json={"table": waiting["table"]})
        assert r.status_code == 201, r.text
        # Cy is an operator (given from the command line) and mutes Dee for an hour.
        await asyncio.to_thread(admin, srv.database, "grant", c["id"])
        r = await cy.post(f"/api/admin/players/{d['id']}/mute",
                          json={"reason": "flooding", "for": "1h"})
        assert r.status_code == 200, r.text
        srv.kill()  # right after the last answer: acknowledged means stored
        srv.start()
        assert [p["id"] for p in (await ann.get("/api/players/me/mutes")).json()["players"]
                ] == [b["id"]]
        assert [p["id"] for p in (await cy.get("/api/players/me/blocks")).json()["players"]
                ] == [a["id"]]
        # Cy's block ended Ann's follow of her, and that stayed so.
        assert [p["id"] for p in (await ann.get("/api/players/me/follows")
                                  ).json()["players"]] == [b["id"]]
        [invite] = (await bo.get("/api/players/me/invites")).json()["invites"]
        assert invite["table"] == waiting["table"]
        assert srv.database.rows("SELECT reason, table_id FROM reports") == [("spam", table)]
        assert (await ann.post(f"/api/players/{c['id']}/follow", json={})).status_code == 403
        [held] = (await dee.get("/api/players/me/standing")).json()["sanctions"]
        assert (held["kind"], held["reason"]) == ("mute", "flooding")
        log = (await cy.get("/api/admin/log")).json()["log"]  # newest first
        assert [(x["action"], x["player"]) for x in log] == [("mute", d["id"]),
                                                              ("grant", c["id"])]
        assert log[0]["actor"] == c["id"]
        # The table came back, and Bo's lines still never reach Ann.
        async with websockets.connect(ws_url(srv, table, ann_token)) as ann_ws, \
                websockets.connect(ws_url(srv, table, bo_token)) as bo_ws:
            await until(ann_ws, "chat_log")
            await until(bo_ws, "chat_log")
            await say(bo_ws, text="after the restart")
            assert (await until(bo_ws, "chat"))["text"] == "after the restart"
            await say(ann_ws, text="hello")
            assert (await until(bo_ws, "chat"))["text"] == "hello"
            assert texts(await queued(ann_ws)) == ["hello"]
    finally:
        await close_all([ann, bo, cy, dee])
