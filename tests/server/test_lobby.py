"""The REST lobby against a real server: create, join, bots, start, again, list, records."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from cambio.cards import MAX_PLAYERS
from cambio.records.cards import replay
from cambio.records.jsonl import parse_record
from cambio.server.lobby import MAX_NAME

from ..support.databases import Database
from .harness import Client, ServerProcess, auth, recv_until, ws_url


@pytest.fixture()
def http(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=30) as client:
        yield client


def create(http: httpx.Client, **body: object) -> dict[str, object]:
    payload = {"game": "cards", "players": 3, "name": "Ann",
               "rules": {"preset": "house", "overrides": {}}, **body}
    r = http.post("/api/tables", json=payload)
    assert r.status_code == 201, r.text
    data: dict[str, object] = r.json()
    return data


def test_catalogues(http: httpx.Client) -> None:
    bots = http.get("/api/bots").json()
    assert {b["name"] for b in bots["cards"]} >= {"random", "memory"}
    assert all({"name", "label", "strength"} <= set(b) for b in bots["cards"])
    rules = http.get("/api/rules").json()
    assert set(rules["presets"]) == {"rulebook", "house", "wikipedia", "cabo", "cambia", "evan"}
    assert rules["presets"]["house"]["value_queen"] == 12
    assert rules["presets"]["cabo"]["match_target"] == 100
    fields = {f["name"]: f for f in rules["fields"]}
    assert fields["lock_caller"]["type"] == "bool"
    assert fields["resnap"]["type"] == "choice" and "snapper_only" in fields["resnap"]["choices"]
    # An optional choice: "as_jack" (none: the jack's power) is one of its choices, in words,
    # apart from the power "none" (no power).
    queen = fields["power_queen"]
    assert queen["type"] == "choice" and queen["choices"][0] == "as_jack"
    assert queen["choice_labels"]["as_jack"] == "As the jack"
    assert queen["choice_labels"]["none"] == "No power"
    assert rules["presets"]["rulebook"]["power_queen"] == "as_jack"
    assert rules["presets"]["evan"]["power_queen"] == "look_any_one_swap_any_two"


def test_create_join_bots_start_flow(http: httpx.Client, server: ServerProcess) -> None:
    host = create(http, rounds=2, rules={"preset": "house", "overrides": {"lock_caller": True}})
    tid, token = str(host["table"]), str(host["token"])
    assert host["seat"] == 0 and str(host["invite"]).endswith(f"/t/{tid}")
    summary = http.get(f"/api/tables/{tid}").json()
    assert summary["status"] == "waiting" and summary["host"] == 0
    assert summary["rules"] == {"preset": "house", "overrides": {"lock_caller": True}}
    assert [s["kind"] for s in summary["seats"]] == ["human", "empty", "empty"]
    assert tid in [t["id"] for t in http.get("/api/tables").json()["tables"]]
    # Join takes the first free seat; a named seat that is taken is a conflict.
    bo = http.post(f"/api/tables/{tid}/join", json={"name": "  Bo  "}).json()
    assert bo["seat"] == 1
    assert http.post(f"/api/tables/{tid}/join", json={"name": "X", "seat": 1}).status_code == 409
    # Only the host seats bots; unknown bots are refused.
    assert http.put(f"/api/tables/{tid}/seats/2/bot", json={"bot": "memory"}).status_code == 401
    assert http.put(f"/api/tables/{tid}/seats/2/bot", json={"bot": "memory"},
                    headers=auth(bo["token"])).status_code == 403
    assert http.put(f"/api/tables/{tid}/seats/2/bot", json={"bot": "genius"},
                    headers=auth(token)).status_code == 400
    assert http.put(f"/api/tables/{tid}/seats/1/bot", json={"bot": "memory"},
                    headers=auth(token)).status_code == 409
    r = http.put(f"/api/tables/{tid}/seats/2/bot", json={"bot": "memory"}, headers=auth(token))
    assert r.status_code == 200 and r.json()["seats"][2]["kind"] == "bot"
    # A seat may leave; then the table is full again by a new join.
    assert http.delete(f"/api/tables/{tid}/seats/1", headers=auth(bo["token"])).status_code == 200
    assert http.get(f"/api/tables/{tid}").json()["seats"][1]["kind"] == "empty"
    cy = http.post(f"/api/tables/{tid}/join", json={"name": "Cy"}).json()
    assert cy["seat"] == 1
    assert http.post(f"/api/tables/{tid}/join", json={"name": "Dee"}).status_code == 409
    assert http.delete(f"/api/tables/{tid}/seats/0", headers=auth(token)).status_code == 409
    # Only the host starts; then the table leaves the open list and seats are fixed.
    assert http.post(f"/api/tables/{tid}/start", json={}, headers=auth(cy["token"])
                     ).status_code == 403
    r = http.post(f"/api/tables/{tid}/start", json={}, headers=auth(token))
    assert r.status_code == 200 and r.json()["status"] == "playing" and r.json()["round"] == 1
    assert tid not in [t["id"] for t in http.get("/api/tables").json()["tables"]]
    assert http.post(f"/api/tables/{tid}/start", json={}, headers=auth(token)).status_code == 409
    assert http.post(f"/api/tables/{tid}/join", json={"name": "Late"}).status_code == 409
    assert http.post(f"/api/tables/{tid}/again", headers=auth(token)).status_code == 409


def test_start_needs_every_seat_filled(http: httpx.Client) -> None:
    host = create(http, players=4)
    tid, token = host["table"], str(host["token"])
    r = http.post(f"/api/tables/{tid}/start", json={}, headers=auth(token))
    assert r.status_code == 409 and r.json()["error"]["code"] == "conflict"
    r = http.post(f"/api/tables/{tid}/start", json={"fill": "random"}, headers=auth(token))
    assert r.status_code == 200
    assert [s["kind"] for s in r.json()["seats"]] == ["human", "bot", "bot", "bot"]


def test_bad_requests(http: httpx.Client) -> None:
    def error(r: httpx.Response, status: int) -> str:
        assert r.status_code == status, r.text
        code: str = r.json()["error"]["code"]
        return code

    assert error(http.post("/api/tables", content=b"{nope"), 400) == "bad_request"
    assert error(http.post("/api/tables", json=[1]), 400) == "bad_request"
    assert error(http.post("/api/tables", json={"game": "chess"}), 400) == "bad_request"
    assert error(http.post("/api/tables", json={"game": "cards", "players": MAX_PLAYERS + 1}),
                 400)
    assert error(http.post("/api/tables", json={"game": "cards", "players": 3,
                                                "rules": {"preset": "nope"}}), 400)
    assert error(http.post("/api/tables", json={"game": "cards", "players": 3,
                                                "rules": {"preset": "house",
                                                          "overrides": {"bogus": 1}}}), 400)
    assert error(http.post("/api/tables", json={"game": "cards", "players": 3,
                                                "rounds": 0}), 400)
    assert error(http.post("/api/tables", json={"game": "cards", "players": 3,
                                                "name": "x" * 100}), 400)
    assert error(http.post("/api/tables", content=b"{" + b" " * 20000 + b"}"),
                 413) == "too_large"
    assert error(http.get("/api/tables/nosuchtable"), 404) == "not_found"
    assert error(http.post("/api/tables/nosuchtable/join", json={"name": "x"}), 404)
    host = create(http)
    assert error(http.post(f"/api/tables/{host['table']}/start", json={},
                           headers={"Authorization": "Bearer wrong"}), 403) == "forbidden"


def test_pages_are_served(http: httpx.Client) -> None:
    for path in ("/", "/t/abc", "/r/abc", "/rules"):
        r = http.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]


def test_record_access_rules_and_again(http: httpx.Client, server: ServerProcess) -> None:
    """Before the end: only a seat's own record; after: the full one; then play again."""
    host = create(http, players=2, rules={"preset": "rulebook", "overrides": {}})
    tid, token = str(host["table"]), str(host["token"])
    assert http.post(f"/api/tables/{tid}/start", json={"fill": "memory"},
                     headers=auth(token)).status_code == 200
    r = http.get(f"/api/tables/{tid}/record")
    assert r.status_code == 403
    mine = http.get(f"/api/tables/{tid}/record", headers=auth(token))
    assert mine.status_code == 200 and mine.headers["content-type"].startswith(
        "application/x-ndjson")
    header = parse_record(mine.text).header
    assert header["view"] == 0 and "seed" not in header and "deck" not in header
    # The replay frames follow the record's rules: a seat's own views, nobody else's cards.
    assert http.get(f"/api/tables/{tid}/frames").status_code == 403
    seen = http.get(f"/api/tables/{tid}/frames", headers=auth(token)).json()
    assert all(f["view"]["seat"] == 0 for f in seen["frames"])
    assert set(seen["frames"][0]["view"]["grids"][1]) == {"?"}
    assert "seed" not in seen["header"] and "deck" not in seen["header"]
    # The host's seat is played by a test client until the game is over.
    client = Client(ws_url(server, tid, token), seed=5, play=True)
    asyncio.run(client.run(timeout=60))
    assert client.status == "finished"
    full = http.get(f"/api/tables/{tid}/record")
    assert full.status_code == 200
    rec = parse_record(full.text)
    assert "seed" in rec.header and "view" not in rec.header and "end" in rec.events[-1]
    frames = http.get(f"/api/tables/{tid}/frames").json()
    assert "?" not in str([f["view"]["grids"] for f in frames["frames"]])  # all face up
    assert frames["frames"][-1]["event"]["end"]["scores"] == rec.events[-1]["end"]["scores"]
    # Play again with the same seats: a new game, and game 1's record stays available.
    r = http.post(f"/api/tables/{tid}/again", headers=auth(token))
    assert r.status_code == 200 and r.json()["game_no"] == 2 and r.json()["status"] == "playing"
    assert http.get(f"/api/tables/{tid}/record", params={"game": 1}).status_code == 200
    assert http.get(f"/api/tables/{tid}/record", params={"game": 2}).status_code == 403
    assert http.get(f"/api/tables/{tid}/record", params={"game": 3}).status_code == 404
    assert http.get(f"/api/tables/{tid}/frames", params={"game": 2}).status_code == 403
    assert http.get(f"/api/tables/{tid}/frames", params={"game": 3}).status_code == 404


def test_a_freed_seat_loses_its_connection(http: httpx.Client, server: ServerProcess) -> None:
    host = create(http, players=3)
    tid, token = str(host["table"]), str(host["token"])
    bo = http.post(f"/api/tables/{tid}/join", json={"name": "Bo"}).json()

    async def main() -> None:
        async with websockets.connect(ws_url(server, tid, bo["token"])) as ws:
            welcome = await recv_until(ws, "welcome")
            assert welcome["seat"] == 1 and welcome["table"]["seats"][1]["connected"]
            r = await asyncio.to_thread(http.delete, f"/api/tables/{tid}/seats/1",
                                        headers=auth(token))
            assert r.status_code == 200
            err = await recv_until(ws, "error")
            assert err["code"] == "invalid_token"
            with pytest.raises(ConnectionClosed):
                await recv_until(ws, "never")
        # The old token no longer opens the seat.
        async with websockets.connect(ws_url(server, tid, bo["token"])) as ws:
            assert (await recv_until(ws, "error"))["code"] == "invalid_token"

    asyncio.run(main())
    assert http.get(f"/api/tables/{tid}").json()["seats"][1]["kind"] == "empty"


def test_names_lose_bidi_controls_and_may_have_forty_characters(http: httpx.Client) -> None:
    # A right-to-left override would reverse the text shown around the name.
    tid = create(http, name="\u202eAnn\u2066 Lee\u2069\u200f")["table"]
    bo = http.post(f"/api/tables/{tid}/join", json={"name": "B" * MAX_NAME})
    assert bo.status_code == 200, bo.text
    names = [s["name"] for s in http.get(f"/api/tables/{tid}").json()["seats"]]
    assert names[:2] == ["Ann Lee", "B" * MAX_NAME]
    too_long = http.post(f"/api/tables/{tid}/join", json={"name": "C" * (MAX_NAME + 1)})
    assert too_long.status_code == 400
    assert http.post(f"/api/tables/{tid}/join",
                     json={"name": "\u202e\u2066"}).json()["seat"] == 2   # "Player"
    assert http.get(f"/api/tables/{tid}").json()["seats"][2]["name"] == "Player"


def test_the_lobby_allows_the_servers_name_length() -> None:
    web = Path(__file__).parents[2] / "src" / "cambio" / "web" / "static"
    for script, field in (("lobby.js", '"name"'), ("waiting.js", '"join-name"')):
        text = (web / script).read_text()
        assert f"id: {field}" in text
        assert re.search(rf'id: {field}[^}}]*maxlength: {MAX_NAME},', text), script


def test_switch_and_look_arrive_in_either_address_order(http: httpx.Client,
                                                        server: ServerProcess) -> None:
    """The network takes ``switch 1.0 0.3`` for the offered ``switch 0.3 1.0``;
    the record keeps the offered spelling and replays.

    Whether a deal brings a switch or a look at all depends on the table's seed, which on
    this shared server counts the tables made before it (so the test order): a deal without
    one is played again (``again``, a new deal), up to five games."""
    host = create(http, players=2, rounds=2, rules={"preset": "house", "overrides": {}})
    tid, token = str(host["table"]), str(host["token"])
    other = http.post(f"/api/tables/{tid}/join", json={"name": "Bo"}).json()
    assert http.post(f"/api/tables/{tid}/start", json={},
                     headers=auth(token)).status_code == 200
    flipped = 0
    played: list[str] = []
    for game_no in range(1, 6):
        if game_no > 1:
            r = http.post(f"/api/tables/{tid}/again", headers=auth(token))
            assert r.status_code == 200 and r.json()["game_no"] == game_no
        clients = [Client(ws_url(server, tid, t), seed=i, play=True, snap_rate=0.0,
                          flip_pairs=True) for i, t in enumerate([token, other["token"]])]

        async def both(clients: list[Client] = clients) -> None:
            await asyncio.gather(*(c.run(timeout=120) for c in clients))

        asyncio.run(both())
        assert all(c.status == "finished" for c in clients), (
            game_no, [(c.status, c.errors[-3:]) for c in clients])
        assert not [e for c in clients for e in c.errors], "a flipped pair was refused"
        flipped += sum(c.flipped for c in clients)
        for game_round in range(1, 3):
            rec = parse_record(http.get(f"/api/tables/{tid}/record",
                                        params={"game": game_no, "round": game_round}).text)
            replay(rec)
            played += [ev["action"] for ev in rec.events
                       if str(ev.get("action", "")).startswith(("switch", "look"))]
        if flipped:
            break
    assert flipped > 0, "no switch or look was played in five games"
    # The house preset offers every pair in ascending order; the clients sent them all the
    # other way round, and the records hold the offered spelling.
    pairs = [[tuple(map(int, a.split("."))) for a in p.split()[1:]] for p in played]
    assert pairs and all(a < b for a, b in pairs), played


def test_open_tables_lists_only_tables_someone_can_join(database: Database) -> None:
    # "Open tables" once listed full and abandoned tables.
    with ServerProcess(database, away_after=1.0) as srv, \
            httpx.Client(base_url=srv.base, timeout=30) as http:

        def listed() -> set[str]:
            return {t["id"] for t in http.get("/api/tables").json()["tables"]}

        full = create(http, players=2)
        ftid = str(full["table"])
        assert http.post(f"/api/tables/{ftid}/join", json={"name": "Bo"}).status_code == 200
        gone = str(create(http, players=2)["table"])         # the host never comes back
        open_ = create(http, players=2)
        otid, otoken = str(open_["table"]), str(open_["token"])

        async def main() -> None:
            # The host of the open table and of the full one stay on their pages.
            async with websockets.connect(ws_url(srv, otid, otoken)) as a, \
                    websockets.connect(ws_url(srv, ftid, str(full["token"]))) as b:
                await recv_until(a, "welcome")
                await recv_until(b, "welcome")
                # The abandoned table's host is marked away after the timeout: wait for it.
                async def host_away() -> None:
                    while not (await asyncio.to_thread(
                            http.get, f"/api/tables/{gone}")).json()["seats"][0]["away"]:
                        await asyncio.sleep(0.05)

                await asyncio.wait_for(host_away(), 30)
                shown = await asyncio.to_thread(listed)
                assert otid in shown
                assert ftid not in shown, "a full table is listed"
                assert gone not in shown, "an abandoned table is listed"
                # Freeing the full table's seat lists it again.
                r = await asyncio.to_thread(http.delete, f"/api/tables/{ftid}/seats/1",
                                            headers=auth(str(full["token"])))
                assert r.status_code == 200
                assert ftid in await asyncio.to_thread(listed)

        asyncio.run(main())
