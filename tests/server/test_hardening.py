"""Hardening, each against a real server process.

- a stored text that is not UTF-8 (a damaged ``tables.status``, a seat's name) sets its
  table aside; the server starts and serves the others.
- ``--log-level debug`` never writes a WebSocket frame (a seat's private view) to the log.
- state-changing REST calls take JSON bodies only (415) and pass the origin check (403).
- ``Transfer-Encoding`` with ``Content-Length`` is refused with 400 and the connection
  closed, nothing after it served.
- while PostgreSQL is down, REST calls answer 503 ``unavailable`` with ``Retry-After``,
  a WebSocket to a table that must be loaded closes with 1013, and no traceback is logged.
"""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from ..support.databases import Database, sqlite_database
from ..support.postgres import PostgresCluster
from .harness import (
    Client,
    ServerProcess,
    create_table,
    recv_json,
    start,
    two_seat_table,
    ws_url,
)


def played_table(base: str, ws_base: str, rounds: int = 1) -> str:
    """A card table played through by its host (random moves) against a random bot."""
    async def main() -> str:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            host = await create_table(http, {"game": "cards", "players": 2, "rounds": rounds})
            await start(http, host["table"], host["token"], fill="random")
        client = Client(f"{ws_base}/ws/{host['table']}?token={host['token']}", play=True)
        await client.run(timeout=120)
        assert client.status == "finished"
        return str(host["table"])

    return asyncio.run(main())


# ====================================================================== damaged text
def test_text_that_is_not_utf8_sets_only_its_table_aside(tmp_path: Path) -> None:
    database = sqlite_database(tmp_path)  # PostgreSQL cannot hold such bytes in a text
    server = ServerProcess(database)
    with server:
        async def tables() -> list[str]:
            async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
                return [(await two_seat_table(http))[0] for _ in range(3)]

        status, name, fine = asyncio.run(tables())
    database.execute("UPDATE tables SET status = CAST(x'ff' AS TEXT) WHERE id = ?", (status,))
    database.execute("UPDATE seats SET name = CAST(x'c328' AS TEXT) WHERE table_id = ?",
                     (name,))
    with server:  # it starts, and serves the table that is fine
        for table in (status, name):
            r = httpx.get(f"{server.base}/api/tables/{table}")
            assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
        assert httpx.get(f"{server.base}/api/tables/{fine}").status_code == 200
    log = server.log.read_text()
    assert log.count("is set aside") == 2
    assert "Traceback" not in log


# ====================================================================== no frame logged
def test_debug_logging_writes_no_frame(database: Database) -> None:
    with ServerProcess(database, extra=["--log-level", "debug"]) as server:
        played_table(server.base, server.ws_base)
    log = server.log.read_text()
    assert "DEBUG" in log or "debug" in log.lower()  # it did log at debug
    for frame in ('"view"', '"welcome"', '"state"', "TEXT", "BINARY"):
        assert frame not in log, frame


# ====================================================================== JSON, origins
def test_state_changing_calls_take_json_from_this_site_only(server: ServerProcess) -> None:
    body = json.dumps({"game": "cards", "players": 2})
    evil = {"Origin": "https://evil.example"}
    with httpx.Client(base_url=server.base, timeout=30) as http:
        for kind in ("text/plain", "application/x-www-form-urlencoded",
                     "multipart/form-data; boundary=x"):
            r = http.post("/api/tables", content=body, headers={"Content-Type": kind})
            assert r.status_code == 415, (kind, r.text)
            assert r.json()["error"]["code"] == "unsupported_media_type"
        r = http.post("/api/tables", content=body, headers={
            "Content-Type": "application/json", **evil})
        assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
        r = http.post("/api/quickplay", headers=evil)  # a bare cross-site form post
        assert r.status_code == 403
        own = {"Content-Type": "application/json; charset=utf-8",
               "Origin": f"http://127.0.0.1:{server.port}"}
        made = http.post("/api/tables", content=body, headers=own)
        assert made.status_code == 201, made.text
        table = made.json()["table"]
        assert http.get(f"/api/tables/{table}", headers=evil).status_code == 200  # reads
        r = http.post(f"/api/tables/{table}/join", content=b'{"name": "x"}', headers={
            "Content-Type": "text/plain"})
        assert r.status_code == 415
        summary = http.get(f"/api/tables/{table}").json()
        assert [s["kind"] for s in summary["seats"]].count("empty") == 1  # nothing changed


# ====================================================================== smuggling
def exchange(port: int, request: bytes) -> bytes:
    """Send ``request`` on a fresh connection; everything the server sends until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_transfer_encoding_with_content_length_is_refused(server: ServerProcess) -> None:
    body = b'{"game": "cards", "players": 2}'
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    smuggled = b"GET /api/bots HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    request = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
               b"Content-Type: application/json\r\nContent-Length: %d\r\n"
               b"Transfer-Encoding: chunked\r\n\r\n%s%s" % (len(chunked), chunked, smuggled))
    answer = exchange(server.port, request)
    assert answer.startswith(b"HTTP/1.1 400 ")
    assert answer.count(b"HTTP/1.1 ") == 1  # the connection closed: nothing else served
    # The same request without the second framing header is served as usual.
    plain = request.replace(b"Content-Length: %d\r\n" % len(chunked), b"")
    assert exchange(server.port, plain.replace(smuggled, b"")).startswith(b"HTTP/1.1 201 ")


# ====================================================================== database down
@pytest.fixture
def own_postgres() -> Any:
    postgres = PostgresCluster().start()  # its own: the session's serves other tests
    try:
        yield postgres
    finally:
        postgres.stop()


def test_a_database_outage_answers_unavailable_with_retry_after(
        own_postgres: PostgresCluster, tmp_path: Path) -> None:
    database = Database("postgres", own_postgres.create_database(), tmp_path)
    server = ServerProcess(database, bot_speed=100.0, round_pause=0.1)
    with server:
        finished = played_table(server.base, server.ws_base)
    with server:  # restarted: the finished table is loaded only when asked for
        own_postgres.halt()
        try:
            r = httpx.post(f"{server.base}/api/tables", json={"game": "cards", "players": 2},
                           timeout=60)
            assert r.status_code == 503, r.text
            assert r.json()["error"]["code"] == "unavailable"
            assert r.headers["retry-after"] == "5"
            r = httpx.get(f"{server.base}/api/tables/{finished}", timeout=60)
            assert r.status_code == 503 and r.headers["retry-after"] == "5"

            async def socket_refusal() -> tuple[dict[str, Any], int]:
                async with websockets.connect(ws_url(server, finished)) as ws:
                    msg = await recv_json(ws, timeout=60)
                    with pytest.raises(ConnectionClosed) as closed:
                        await recv_json(ws, timeout=60)
                    assert closed.value.rcvd is not None
                    return msg, closed.value.rcvd.code

            msg, code = asyncio.run(socket_refusal())
            assert msg["code"] == "unavailable" and code == 1013
        finally:
            own_postgres.resume()
        assert httpx.get(f"{server.base}/api/tables/{finished}", timeout=60).status_code == 200
        r = httpx.post(f"{server.base}/api/tables", json={"game": "cards", "players": 2},
                       timeout=60)
        assert r.status_code == 201
    log = server.log.read_text()
    assert "storage failed" in log and "Traceback" not in log
