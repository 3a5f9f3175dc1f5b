"""The lobby's listing: table names, private tables, quick play, and
waiting tables that expire."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from cambio.server.listing import MAX_TABLE_NAME

from ..support.databases import Database
from .harness import ServerProcess, auth


@pytest.fixture()
def http(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=30) as client:
        yield client


def create(http: httpx.Client, **body: object) -> dict[str, object]:
    payload = {"game": "cards", "players": 2, "name": "Ann",
               "rules": {"preset": "house", "overrides": {}}, **body}
    r = http.post("/api/tables", json=payload)
    assert r.status_code == 201, r.text
    data: dict[str, object] = r.json()
    return data


def listed(http: httpx.Client) -> dict[str, dict[str, object]]:
    return {t["id"]: t for t in http.get("/api/tables").json()["tables"]}


def test_a_table_name_is_kept_cleaned_and_bounded(http: httpx.Client) -> None:
    tid = str(create(http, table_name="  Friday\u202e  night  ")["table"])
    summary = http.get(f"/api/tables/{tid}").json()
    assert summary["table_name"] == "Friday night" and summary["private"] is False
    assert listed(http)[tid]["table_name"] == "Friday night"
    unnamed = str(create(http)["table"])
    assert http.get(f"/api/tables/{unnamed}").json()["table_name"] == ""
    for bad in ("x" * (MAX_TABLE_NAME + 1), 7):
        r = http.post("/api/tables", json={"game": "cards", "players": 2, "table_name": bad})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
    r = http.post("/api/tables", json={"game": "cards", "players": 2, "private": "yes"})
    assert r.status_code == 400


def test_a_private_table_is_not_listed_but_joins_by_its_link(http: httpx.Client) -> None:
    made = create(http, private=True, table_name="Family")
    tid = str(made["table"])
    assert tid not in listed(http)
    assert http.get(f"/api/tables/{tid}").json()["private"] is True
    bo = http.post(f"/api/tables/{tid}/join", json={"name": "Bo"})
    assert bo.status_code == 200 and bo.json()["seat"] == 1
    assert http.post(f"/api/tables/{tid}/start", json={},
                     headers=auth(str(made["token"]))).status_code == 200


def test_quick_play_joins_a_waiting_table_else_starts_one_against_a_bot(database: Database
                                                                        ) -> None:
    with ServerProcess(database) as srv, \
            httpx.Client(base_url=srv.base, timeout=30) as http:
        # Nothing waiting: a new table, started, you against a bot.
        first = http.post("/api/quickplay", json={"name": "Cy"})
        assert first.status_code == 201, first.text
        got = first.json()
        summary = http.get(f"/api/tables/{got['table']}").json()
        assert got["started"] is True and got["seat"] == 0
        assert summary["status"] == "playing"
        assert [s["kind"] for s in summary["seats"]] == ["human", "bot"]
        assert summary["seats"][0]["name"] == "Cy"
        # The token is the seat's: the host may call host-only endpoints with it.
        assert http.post(f"/api/tables/{got['table']}/again", json={},
                         headers=auth(got["token"])).status_code == 409  # not over yet
        # A private table and a board table waiting are never picked; a public card table is.
        create(http, private=True)
        http.post("/api/tables", json={"game": "board", "players": 2, "name": "Di"})
        public = str(create(http, name="Eve")["table"])
        second = http.post("/api/quickplay", json={"name": "Fay"}).json()
        assert second == {**second, "table": public, "seat": 1, "started": False}
        assert http.get(f"/api/tables/{public}").json()["seats"][1]["name"] == "Fay"
        # That table is full now: the next quick play makes a table of its own.
        third = http.post("/api/quickplay", json={"name": "Gus"}).json()
        assert third["table"] not in (public, got["table"]) and third["started"] is True


def test_an_expired_waiting_table_leaves_the_lobby(database: Database) -> None:
    with ServerProcess(database, extra=["--waiting-ttl", "1"]) as srv, \
            httpx.Client(base_url=srv.base, timeout=30) as http:
        tid = str(create(http)["table"])
        assert tid in listed(http)
        deadline = time.monotonic() + 30
        while tid in listed(http):
            assert time.monotonic() < deadline, "the waiting table never expired"
            time.sleep(0.1)
        assert http.get(f"/api/tables/{tid}").status_code == 404
