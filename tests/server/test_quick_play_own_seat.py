"""Quick play never seats a player twice at one table: a caller whose
browser holds a seat at a waiting table is sent back to that seat."""

from __future__ import annotations

import httpx

from ..support.databases import Database
from .harness import ServerProcess


def test_quick_play_sends_a_seated_host_back_to_her_seat(database: Database) -> None:
    with ServerProcess(database) as srv, \
            httpx.Client(base_url=srv.base, timeout=30) as http:
        made = http.post("/api/tables", json={"game": "cards", "players": 3, "name": "Ann",
                                              "rules": {"preset": "house", "overrides": {}}})
        assert made.status_code == 201, made.text
        tid, token = made.json()["table"], made.json()["token"]
        again = http.post("/api/quickplay", json={"name": "Ann", "held": {tid: token}})
        assert again.status_code == 200, again.text
        assert again.json() == {"table": tid, "seat": 0, "token": token, "started": False,
                                "again": True}
        seats = http.get(f"/api/tables/{tid}").json()["seats"]
        assert [s["kind"] for s in seats] == ["human", "empty", "empty"]
        # A token that is not a seat of the table proves nothing: she is not sent there,
        # and that table is not joined a second time either; a new game starts.
        other = http.post("/api/quickplay", json={"name": "Ann", "held": {tid: "forged"}})
        assert other.json()["table"] != tid and other.json()["started"] is True
        assert [s["kind"] for s in http.get(f"/api/tables/{tid}").json()["seats"]] \
            == ["human", "empty", "empty"]
        # Somebody else still gets a seat at it.
        bo = http.post("/api/quickplay", json={"name": "Bo"}).json()
        assert bo["table"] == tid and bo["seat"] == 1


def test_quick_play_refuses_a_malformed_held_list(database: Database) -> None:
    with ServerProcess(database) as srv, \
            httpx.Client(base_url=srv.base, timeout=30) as http:
        for bad in ([1, 2], {"t": 3}, "x", {str(i): "t" for i in range(201)}):
            r = http.post("/api/quickplay", json={"name": "Ann", "held": bad})
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
        assert http.get("/api/tables").json()["tables"] == []
