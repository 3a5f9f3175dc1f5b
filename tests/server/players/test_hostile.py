"""Hostile clients at the players' doors: impersonation, rate-farming with one's own
identities, guessing names and passwords faster than the limits allow, and the secrets
(browser keys, passwords, their hashes, transfer codes) in no response, log or record."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx
import pytest
import websockets

from ...support.databases import Database, NewDatabase
from ..harness import ServerProcess, recv_until, ws_url
from .helpers import browser, matched, new_player, play_now_game, play_to_end, queue, stored_text

PASSWORD = "hunter2 is not a password"


@pytest.fixture(scope="module")
def hostile(databases: NewDatabase) -> Iterator[ServerProcess]:
    proc = ServerProcess(databases("hostile"), bot_speed=40.0, round_pause=0.2,
                         extra=["--queue-wait", "30"])
    with proc:
        yield proc


def test_a_forged_or_stolen_public_id_is_nobody(hostile: ServerProcess) -> None:
    asyncio.run(_forged(hostile))


async def _forged(server: ServerProcess) -> None:
    async with browser(server) as ann:
        me = await new_player(ann, "Ann")
    for cookie in (me["id"], me["id"][1:], "x" * 32, "", "a" * 500):
        async with httpx.AsyncClient(base_url=server.base,
                                     cookies={"cambio_player": cookie}) as eve:
            assert (await eve.get("/api/me")).json() == {"player": None}
            r = await eve.post("/api/me/claim", json={"username": "evil", "password": PASSWORD})
            assert r.status_code == 401
            r = await eve.post("/api/me/transfer", json={})
            assert r.status_code == 401
            r = await eve.request("DELETE", "/api/me", json={})
            assert r.status_code == 401


def test_another_players_ticket_and_seat_are_not_yours(hostile: ServerProcess) -> None:
    asyncio.run(_tickets(hostile))


async def _tickets(server: ServerProcess) -> None:
    async with browser(server) as ann, browser(server) as eve:
        await new_player(ann, "Ann")
        await new_player(eve, "Eve")
        joined = await queue(ann, {"game": "cards", "players": 4, "preset": "house"})
        ticket = joined["ticket"]
        assert (await eve.get("/api/queue", params={"ticket": ticket})).status_code == 404
        assert (await eve.post("/api/queue/now", json={"ticket": ticket})).status_code == 404
        await eve.request("DELETE", "/api/queue", params={"ticket": ticket})
        state = (await ann.get("/api/queue", params={"ticket": ticket})).json()
        assert state["state"] == "waiting"  # Eve's DELETE did not take Ann out
        match = await matched(ann, ticket, now=True)
        # the game in play: Ann's own record by her identity; Eve gets nothing
        r = await ann.get(f"/api/tables/{match['table']}/record")
        assert r.status_code == 200 and '"seed"' not in r.text
        r = await eve.get(f"/api/tables/{match['table']}/record")
        assert r.status_code == 403
        # Ann's profile lists the game in play to Ann only
        me = (await ann.get("/api/me")).json()["player"]
        assert len((await ann.get(f"/api/players/{me['id']}")).json()["playing"]) == 1
        assert (await eve.get(f"/api/players/{me['id']}")).json()["playing"] == []
        # her seat on another device of hers (a transfer code), never on Eve's
        r = await eve.post(f"/api/tables/{match['table']}/seat", json={})
        assert r.status_code == 403
        code = (await ann.post("/api/me/transfer", json={})).json()["code"]
        async with browser(server) as phone:
            await phone.post("/api/transfer", json={"code": code})
            r = await phone.post(f"/api/tables/{match['table']}/seat", json={})
            assert r.status_code == 200, r.text
            fresh = r.json()
        assert fresh["seat"] == match["seat"] and fresh["token"] != joined["token"]
        async with websockets.connect(ws_url(server, match["table"], fresh["token"])) as ws:
            assert (await recv_until(ws, "welcome"))["seat"] == match["seat"]
        async with websockets.connect(ws_url(server, match["table"], joined["token"])) as ws:
            assert (await recv_until(ws, "error"))["code"] == "invalid_token"


def test_one_identity_never_plays_itself_and_self_made_tables_are_never_rated(
        hostile: ServerProcess) -> None:
    asyncio.run(_farming(hostile))


async def _farming(server: ServerProcess) -> None:
    async with browser(server) as eve:
        me = await new_player(eve, "Eve")
        # one identity queueing twice (two tabs): the second ticket replaces the first, so
        # she never waits twice (nor meets herself)
        a = await queue(eve, {"game": "cards", "players": 2, "preset": "rulebook"})
        b = await queue(eve, {"game": "cards", "players": 2, "preset": "rulebook"})
        await asyncio.sleep(1.0)
        assert (await eve.get("/api/queue", params={"ticket": a["ticket"]})).status_code == 404
        state = (await eve.get("/api/queue", params={"ticket": b["ticket"]})).json()
        assert state["state"] == "waiting"
        mb = await matched(eve, b["ticket"], now=True)
        summary = (await eve.get(f"/api/tables/{mb['table']}")).json()
        assert [s["kind"] for s in summary["seats"]] == ["human", "bot"]
        # a table Eve makes herself, asking for "rated", holding both seats: casual
        r = await eve.post("/api/tables", json={"game": "cards", "players": 2, "name": "Eve",
                                                "rated": True})
        host = r.json()
        r = await eve.post(f"/api/tables/{host['table']}/join", json={"name": "Eve 2"})
        other = r.json()
        summary = (await eve.get(f"/api/tables/{host['table']}")).json()
        assert summary["rated"] is False
        r = await eve.post(f"/api/tables/{host['table']}/start", json={},
                           headers={"Authorization": f"Bearer {host['token']}"})
        assert r.status_code == 200, r.text
        await asyncio.gather(play_to_end(server, host["table"], host["token"], seed=5),
                             play_to_end(server, host["table"], other["token"], seed=6))
        profile = (await eve.get(f"/api/players/{me['id']}")).json()
        mine = [g for g in profile["games"] if g["table"] == host["table"]]
        assert len(mine) == 2 and not any(g["rated"] for g in mine)
        assert "cards-2" not in profile["ratings"] or \
            profile["ratings"]["cards-2"]["games"] <= 2


def test_guessing_names_and_passwords_is_rate_limited(databases: NewDatabase) -> None:
    with ServerProcess(databases("guess"), bot_speed=40.0) as server:
        asyncio.run(_guessing(server))


async def _guessing(server: ServerProcess) -> None:
    async with browser(server) as ann, browser(server) as eve:
        await new_player(ann, "Ann")
        r = await ann.post("/api/me/claim", json={"username": "ann", "password": PASSWORD})
        assert r.status_code == 200
        # the same answer for a wrong password and for a username nobody has
        wrong = await eve.post("/api/login", json={"username": "ann", "password": "nope nope"})
        nobody = await eve.post("/api/login", json={"username": "zed", "password": "nope nope"})
        assert wrong.status_code == nobody.status_code == 403
        assert wrong.json() == nobody.json()
        # the account's own limit: 5 failures, then refused even with the right password
        codes = [(await eve.post("/api/login", json={"username": "ANN", "password": f"x{i}"})
                  ).status_code for i in range(6)]
        assert codes[:4] == [403] * 4 and codes[-1] == 429
        r = await eve.post("/api/login", json={"username": "ann", "password": PASSWORD})
        assert r.status_code == 429
        # profile look-ups: a burst of 30, then 2 a second
        t0 = time.monotonic()
        codes = [(await eve.get(f"/api/players/guess{i}")).status_code for i in range(100)]
        elapsed = time.monotonic() - t0
        assert codes[0] == 404 and 429 in codes
        assert codes.count(404) <= 30 + 2 * elapsed + 1
        # transfer codes cannot be tried in bulk either (the address's sign-in budget)
        codes = [(await eve.post("/api/transfer", json={"code": f"AAAA{i:06d}"})).status_code
                 for i in range(25)]
        assert 429 in codes and set(codes) <= {404, 429}


def test_secrets_appear_in_no_response_log_or_record(databases: NewDatabase) -> None:
    database = databases("secrets")
    with ServerProcess(database, bot_speed=40.0, round_pause=0.2,
                       extra=["--queue-wait", "30", "--log-level", "debug"]) as server:
        seen = asyncio.run(_secrets(server))
    keys, codes, bodies = seen
    log = database.log.read_text()
    stored = stored_text(database)
    for secret in [PASSWORD, *keys, *codes]:
        assert secret not in log and secret not in stored
        assert all(secret not in body for body in bodies)
    assert "$argon2" not in log and all("$argon2" not in body for body in bodies)
    assert "$argon2id$" in stored  # the hash is kept, and only there


async def _secrets(server: ServerProcess) -> tuple[list[str], list[str], list[str]]:
    bodies: list[str] = []

    async def keep(response: httpx.Response) -> None:
        await response.aread()
        bodies.append(response.text)
        bodies.append(repr({k: v for k, v in response.headers.items() if k != "set-cookie"}))

    hooks = {"response": [keep]}
    async with httpx.AsyncClient(base_url=server.base, event_hooks=hooks) as ann, \
            httpx.AsyncClient(base_url=server.base, event_hooks=hooks) as phone:
        me = await new_player(ann, "Ann")
        await ann.post("/api/me/claim", json={"username": "annie", "password": PASSWORD})
        await play_now_game(server, ann)
        code = (await ann.post("/api/me/transfer", json={})).json()["code"]
        bodies.pop(-2)  # the one answer that carries the code, to its owner
        r = await phone.post("/api/transfer", json={"code": code})
        assert r.status_code == 200 and r.json()["player"]["id"] == me["id"]
        r = await phone.post("/api/transfer", json={"code": code})
        assert r.status_code == 404  # used once
        await phone.post("/api/login", json={"username": "annie", "password": PASSWORD})
        for path in (f"/api/players/{me['id']}", "/api/players/annie", "/api/me",
                     "/api/leaderboard?class=cards-2"):
            await ann.get(path)
        keys = [c for jar in (ann.cookies, phone.cookies) for c in jar.values()]
        assert len(keys) == 2
        return keys, [code], bodies


def test_deleting_a_player_removes_them(database: Database) -> None:
    with ServerProcess(database, bot_speed=40.0, round_pause=0.2,
                       extra=["--queue-wait", "30"]) as server:
        player_id = asyncio.run(_delete(server))
    # nothing stored names her any more (her seat keeps the name she sat under)
    assert player_id not in stored_text(database)


async def _delete(server: ServerProcess) -> str:
    async with browser(server) as dora, browser(server) as other:
        me = await new_player(dora, "Dora")
        await dora.post("/api/me/claim", json={"username": "dora", "password": PASSWORD})
        r = await other.post("/api/login", json={"username": "dora", "password": PASSWORD})
        assert r.status_code == 200
        match = await play_now_game(server, dora)
        r = await dora.request("DELETE", "/api/me", json={"password": "wrong one"})
        assert r.status_code == 403
        r = await dora.request("DELETE", "/api/me", json={"password": PASSWORD})
        assert r.status_code == 200
        for http in (dora, other):  # every browser of hers is signed out
            assert (await http.get("/api/me")).json() == {"player": None}
        assert (await other.get("/api/players/dora")).status_code == 404
        assert (await other.get(f"/api/players/{me['id']}")).status_code == 404
        # the table keeps its game for its other seats; the bot's profile keeps it
        r = await other.get(f"/api/tables/{match['table']}/record")
        assert r.status_code == 200
        # the username is free again
        await new_player(other, "Someone")
        r = await other.post("/api/me/claim", json={"username": "Dora", "password": PASSWORD})
        assert r.status_code == 200
        return str(me["id"])
