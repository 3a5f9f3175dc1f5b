"""Friends, invites, mute, block and report over REST and WebSockets, against a real server
process on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import websockets

from ..harness import ServerProcess, create_table, ws_url
from ..harness import recv_until as until
from ..players.helpers import matched, queue
from .helpers import STRONG, close_all, gather, people, queued, say, table_of_two, texts


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_follow_and_the_friends_list_never_names_a_private_table(
        server: ServerProcess) -> None:
    async def main() -> None:
        (ann, bo, cy, dee), (_, b, _c, d) = await people(server, "Ann", "Bo", "Cy", "Dee")
        try:
            assert (await ann.get("/api/players/me/follows")).json()["players"] == []
            for who in (b, d):
                r = await ann.post(f"/api/players/{who['id']}/follow", json={})
                assert r.status_code == 200, r.text
            r = await cy.post(f"/api/players/{b['id']}/follow", json={})
            assert r.status_code == 200
            private, _, _ = await table_of_two(bo, cy, private=True)
            public = await create_table(dee, {"game": "cards", "players": 2, "name": "Dee"})
            r = await dee.post(f"/api/tables/{public['table']}/start", json={"fill": "easy"},
                               headers={"Authorization": f"Bearer {public['token']}"})
            assert r.status_code == 200, r.text
            friends = {f["id"]: f for f in (await ann.get("/api/players/me/follows")
                                            ).json()["players"]}
            assert set(friends) == {b["id"], d["id"]}
            assert friends[b["id"]]["playing"] == [{"game": "cards", "private": True,
                                                    "table": None}]
            assert friends[d["id"]]["playing"] == [{"game": "cards", "private": False,
                                                    "table": public["table"]}]
            assert not friends[b["id"]]["online"] and not friends[d["id"]]["online"]
            # Online: the lobby polled lately (Bo), or connected at a table (Dee).
            assert (await bo.get("/api/players/me/invites")).status_code == 200
            async with websockets.connect(ws_url(server, public["table"], public["token"])
                                          ) as ws:
                await until(ws, "welcome")
                friends = {f["id"]: f for f in (await ann.get("/api/players/me/follows")
                                                ).json()["players"]}
            assert friends[b["id"]]["online"] and friends[d["id"]]["online"]
            # Cy sits at Bo's private table: she may see which one it is.
            [bo_for_cy] = (await cy.get("/api/players/me/follows")).json()["players"]
            assert bo_for_cy["playing"][0]["table"] == private
            r = await ann.delete(f"/api/players/{b['id']}/follow")
            assert r.status_code == 200
            listed = (await ann.get("/api/players/me/follows")).json()["players"]
            assert [f["id"] for f in listed] == [d["id"]]
            # Bad calls change nothing.
            assert (await ann.post("/api/players/nobody-here/follow", json={})
                    ).status_code == 404
            me = (await ann.get("/api/me")).json()["player"]
            assert (await ann.post(f"/api/players/{me['id']}/follow", json={})
                    ).status_code == 400
            async with httpx.AsyncClient(base_url=server.base) as stranger:
                r = await stranger.get("/api/players/me/follows")
                assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
        finally:
            await close_all([ann, bo, cy, dee])

    run(main())


def test_invites_go_to_players_one_follows_and_stop_at_a_block(server: ServerProcess) -> None:
    async def main() -> None:
        (ann, bo, cy), (a, b, _c) = await people(server, "Ann", "Bo", "Cy")
        try:
            made = await create_table(ann, {"game": "cards", "players": 3, "name": "Ann",
                                            "private": True})
            table = made["table"]
            r = await ann.post(f"/api/players/{b['id']}/invite", json={"table": table})
            assert r.status_code == 403  # she does not follow him yet
            await ann.post(f"/api/players/{b['id']}/follow", json={})
            r = await ann.post(f"/api/players/{b['id']}/invite", json={"table": table})
            assert r.status_code == 201, r.text
            [invite] = (await bo.get("/api/players/me/invites")).json()["invites"]
            assert invite["table"] == table and invite["from"]["id"] == a["id"]
            assert invite["link"] == f"/t/{table}"
            # Cy cannot invite to a table she does not sit at, nor with a bad body.
            await cy.post(f"/api/players/{b['id']}/follow", json={})
            r = await cy.post(f"/api/players/{b['id']}/invite", json={"table": table})
            assert r.status_code == 404
            r = await cy.post(f"/api/players/{b['id']}/invite", json={"table": 7})
            assert r.status_code == 400
            # Bo dismisses it, then blocks Ann: she can neither invite nor follow him.
            assert (await bo.delete(f"/api/players/me/invites/{table}")).status_code == 200
            assert (await bo.get("/api/players/me/invites")).json()["invites"] == []
            assert (await bo.post(f"/api/players/{a['id']}/block", json={})).status_code == 200
            assert (await ann.get("/api/players/me/follows")).json()["players"] == []
            r = await ann.post(f"/api/players/{b['id']}/invite", json={"table": table})
            assert r.status_code == 403
            r = await ann.post(f"/api/players/{b['id']}/follow", json={})
            assert r.status_code == 403
            assert [p["id"] for p in (await bo.get("/api/players/me/blocks")
                                      ).json()["players"]] == [a["id"]]
            # Invites are rate limited per player.
            codes = [(await cy.post(f"/api/players/{a['id']}/invite", json={"table": table})
                      ).status_code for _ in range(25)]
            assert 429 in codes
        finally:
            await close_all([ann, bo, cy])

    run(main())


def test_an_invite_to_a_correspondence_table_lasts_while_it_waits(
        server: ServerProcess) -> None:
    """An invite is listed for an hour, but friends come to a correspondence table over
    days: an invite to one is listed as long as the table waits."""

    async def main() -> None:
        (ann, bo), (_, b) = await people(server, "Ann", "Bo")
        try:
            await ann.post(f"/api/players/{b['id']}/follow", json={})
            tables = []
            for extra in ({}, {"clock": 86400}):
                made = await create_table(ann, {"game": "cards", "players": 3, "name": "Ann",
                                                **extra})
                r = await ann.post(f"/api/players/{b['id']}/invite",
                                   json={"table": made["table"]})
                assert r.status_code == 201, r.text
                tables.append(made["table"])
            listed = (await bo.get("/api/players/me/invites")).json()["invites"]
            assert {i["table"] for i in listed} == set(tables)
            # Both sent two hours ago (the stored rows made older: no waiting).
            await asyncio.to_thread(server.database.execute,
                                    "UPDATE invites SET created = created - 7200 "
                                    "WHERE player_id = ?", (b["id"],))
            listed = (await bo.get("/api/players/me/invites")).json()["invites"]
            assert [i["table"] for i in listed] == [tables[1]]
        finally:
            await close_all([ann, bo])

    run(main())


def test_a_mute_hides_chat_on_every_connection_until_lifted(server: ServerProcess) -> None:
    async def main() -> None:
        (ann, bo), (_, b) = await people(server, "Ann", "Bo")
        try:
            table, ann_token, bo_token = await table_of_two(ann, bo)
            url = ws_url(server, table, ann_token)
            async with websockets.connect(url) as tab1, websockets.connect(url) as tab2, \
                    websockets.connect(ws_url(server, table, bo_token)) as bo_ws:
                for ws in (tab1, tab2, bo_ws):
                    await until(ws, "chat_log")
                await say(bo_ws, text="before")
                assert (await until(tab1, "chat"))["text"] == "before"
                assert (await until(tab2, "chat"))["text"] == "before"
                r = await ann.post(f"/api/players/{b['id']}/mute", json={})
                assert r.status_code == 200, r.text
                await say(bo_ws, text="muted line")
                assert (await until(bo_ws, "chat"))["text"] == "before"
                assert (await until(bo_ws, "chat"))["text"] == "muted line"  # his own, back
                await say(tab1, text="from Ann")
                assert (await until(bo_ws, "chat"))["text"] == "from Ann"
                assert texts(await queued(tab1)) == ["from Ann"]
                assert texts(await queued(tab2)) == ["from Ann"]
            async with websockets.connect(url) as again:  # a connection that arrives
                log = await until(again, "chat_log")
                assert [x["text"] for x in log["lines"]] == ["from Ann"]
                assert (await ann.delete(f"/api/players/{b['id']}/mute")).status_code == 200
                async with websockets.connect(ws_url(server, table, bo_token)) as bo_ws:
                    await until(bo_ws, "chat_log")
                    await say(bo_ws, text="heard again")
                    assert (await until(again, "chat"))["text"] == "heard again"
            assert (await ann.get("/api/players/me/mutes")).json()["players"] == []
        finally:
            await close_all([ann, bo])

    run(main())


def test_play_now_never_seats_a_blocked_pair(server: ServerProcess) -> None:
    """Two pairs queue the same way and both ask for bots at once: the open pair is seated
    together, the blocked pair at two tables."""

    async def both(a: Any, b: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        body = {"game": "cards", "players": 2, "preset": "wikipedia", "rated": False}
        ja, jb = await queue(a, body), await queue(b, body)
        # Both pages are there (polled) before either asks for bots: from then on every tick
        # sees both, so only a block can keep the two apart (without the polls, a loaded
        # server could fill the first with bots before the second had polled).
        for http, ticket in ((a, ja["ticket"]), (b, jb["ticket"])):
            assert (await http.get("/api/queue", params={"ticket": ticket})).status_code == 200
        ma, mb = await gather(matched(a, ja["ticket"], now=True),
                              matched(b, jb["ticket"], now=True))
        return ma, mb

    async def main() -> None:
        (ann, bo, cy, dee), (a, _b, _, _) = await people(server, "Ann", "Bo", "Cy", "Dee")
        try:
            ma, mb = await both(cy, dee)
            assert ma["table"] == mb["table"]  # the queue does pair these two
            r = await bo.post(f"/api/players/{a['id']}/block", json={})
            assert r.status_code == 200
            ma, mb = await both(ann, bo)
            assert ma["table"] != mb["table"]
        finally:
            await close_all([ann, bo, cy, dee])

    run(main())


def test_a_report_carries_the_tables_chat_read_by_the_server(server: ServerProcess) -> None:
    async def main() -> None:
        (ann, bo, cy), (a, b, _) = await people(server, "Ann", "Bo", "Cy")
        try:
            table, _, bo_token = await table_of_two(ann, bo)
            async with websockets.connect(ws_url(server, table, bo_token)) as bo_ws:
                await until(bo_ws, "chat_log")
                await say(bo_ws, text="you are terrible")
                said = await until(bo_ws, "chat")
            body = {"reason": "abuse", "note": "  insults ", "table": table, "line": said["n"],
                    "chat": [{"seat": 0, "text": "forged"}]}  # never taken from a client
            r = await ann.post(f"/api/players/{b['id']}/report", json=body)
            assert r.status_code == 201, r.text
            [(reporter, reported, reason, note, evidence)] = server.database.rows(
                "SELECT reporter_id, player_id, reason, note, evidence FROM reports "
                "WHERE id = ?", (r.json()["report"],))
            assert (reporter, reported, reason, note) == (a["id"], b["id"], "abuse", "insults")
            assert "forged" not in evidence and "you are terrible" in evidence
            assert json.loads(evidence)["line"] == said["n"]
            again = await ann.post(f"/api/players/{b['id']}/report", json=body)
            assert again.status_code == 429  # once is enough for a while
            # Cy never sat there: no report from that table; bad reasons are refused.
            r = await cy.post(f"/api/players/{b['id']}/report", json=body)
            assert r.status_code == 403
            r = await cy.post(f"/api/players/{b['id']}/report", json={"reason": "meh"})
            assert r.status_code == 400
            r = await cy.post(f"/api/players/{b['id']}/report", json={"reason": "name"})
            assert r.status_code == 201  # from a profile, with no table
        finally:
            await close_all([ann, bo, cy])

    run(main())


def test_unclaimed_players_at_play_now_say_quick_phrases_only(server: ServerProcess) -> None:
    async def main() -> None:
        (ann,), _ = await people(server, "Ann")
        try:
            joined = await queue(ann, {"game": "cards", "players": 2, "preset": "house"})
            match = await matched(ann, joined["ticket"], now=True)
            async with websockets.connect(ws_url(server, match["table"], joined["token"])
                                          ) as ws:
                await until(ws, "chat_log")
                await say(ws, text="hello", ref="t")
                refused = await until(ws, "error")
                assert refused["code"] == "forbidden" and "claimed" in refused["message"]
                await say(ws, emote="gg")
                assert (await until(ws, "chat"))["text"] == "Good game!"
                r = await ann.post("/api/me/claim", json={"username": "ann_claims",
                                                          "password": STRONG})
                assert r.status_code == 200, r.text
                await say(ws, text="hello")
                assert (await until(ws, "chat"))["text"] == "hello"
        finally:
            await close_all([ann])

    run(main())
