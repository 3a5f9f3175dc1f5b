"""Bad messages get a typed error and change nothing (``docs/protocol.md``, error codes).

The table has two human seats and no bots, so nothing moves unless a test client acts: after
every kind of bad message the table must still be at version 0 with the same views.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from cambio.server.limits import TokenBucket

from ..support.databases import Database
from .harness import ServerProcess, recv_json, recv_until, two_seat_table, ws_url


async def opening(ws: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    welcome = await recv_until(ws, "welcome")
    state = await recv_until(ws, "state")
    return welcome, state


async def expect_error(ws: Any, payload: str | bytes, code: str) -> dict[str, Any]:
    await ws.send(payload)
    msg = await recv_until(ws, "error")
    assert msg["code"] == code, msg
    assert msg["message"]
    return msg


def test_bad_messages_change_nothing(server: ServerProcess) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            table, t0, t1 = await two_seat_table(http)
        async with websockets.connect(ws_url(server, table, t0)) as a, \
                websockets.connect(ws_url(server, table, t1)) as b, \
                websockets.connect(ws_url(server, table)) as spectator:
            _, state_a = await opening(a)
            _, state_b = await opening(b)
            _, state_s = await opening(spectator)
            assert state_a["version"] == 0 and state_a["view"]["actor"] == 0
            # Malformed.
            await expect_error(a, "this is not json", "bad_message")
            await expect_error(a, b"\xff\xfe", "bad_message")
            await expect_error(a, "[1, 2, 3]", "bad_message")
            await expect_error(a, json.dumps({"type": "dance"}), "bad_message")
            await expect_error(a, json.dumps({"type": "act"}), "bad_message")
            await expect_error(a, json.dumps({"type": "act", "action": 1, "version": 0}),
                               "bad_message")
            await expect_error(a, json.dumps({"type": "act", "action": "draw",
                                              "version": True}), "bad_message")
            await expect_error(a, json.dumps({"type": "sync", "since": -1}), "bad_message")
            # Oversized: refused, the connection stays usable.
            await expect_error(a, json.dumps({"type": "act", "action": "x" * 5000,
                                              "version": 0}), "too_large")
            # Not possible now.
            err = await expect_error(a, json.dumps({"type": "act", "action": "draw",
                                                    "version": 7, "ref": "r1"}), "stale")
            assert err["ref"] == "r1" and "0" in err["message"]
            await expect_error(a, json.dumps({"type": "act", "action": "swap 0",
                                              "version": 0}), "illegal")
            await expect_error(a, json.dumps({"type": "act", "action": "fly away",
                                              "version": 0}), "illegal")
            await expect_error(a, json.dumps({"type": "act", "action": "snap 1.0",
                                              "version": 0}), "illegal")
            await expect_error(b, json.dumps({"type": "act", "action": "draw",
                                              "version": 0}), "illegal")
            await expect_error(spectator, json.dumps({"type": "act", "action": "draw",
                                                      "version": 0}), "forbidden")
            # Nothing changed: a fresh connection gets version 0 and the same views.
            async with websockets.connect(ws_url(server, table, t0)) as again:
                _, fresh = await opening(again)
                assert fresh["version"] == 0
                assert fresh["view"] == state_a["view"] and fresh["log"] == []
            async with websockets.connect(ws_url(server, table)) as again:
                _, fresh = await opening(again)
                assert fresh["view"] == state_s["view"]
            assert state_b["view"]["grids"][0] == ["?", "?", "?", "?"]
            # And the table still plays: a valid action goes through to everyone.
            await a.send(json.dumps({"type": "act", "action": "draw", "version": 0}))
            for ws in (a, b, spectator):
                update = await recv_until(ws, "update")
                assert update["version"] == 1 and update["event"]["action"] == "draw"
            # Only the drawer sees the card drawn.
            assert "card" not in (await asyncio.wait_for(_last_update(b), 5))["event"]

    asyncio.run(main())


async def _last_update(ws: Any) -> dict[str, Any]:
    await ws.send(json.dumps({"type": "sync", "since": 0, "game_no": 1, "round": 1}))
    return await recv_until(ws, "update")


def test_wrong_token_and_unknown_table_are_refused(server: ServerProcess) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            table, _, _ = await two_seat_table(http)
        async with websockets.connect(ws_url(server, table, "not-a-token")) as ws:
            msg = await recv_json(ws)
            assert msg["type"] == "error" and msg["code"] == "invalid_token"
            with pytest.raises(ConnectionClosed) as closed:
                await recv_json(ws)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        async with websockets.connect(ws_url(server, "nosuchtable")) as ws:
            msg = await recv_json(ws)
            assert msg["type"] == "error" and msg["code"] == "not_found"

    asyncio.run(main())


def test_flooding_is_rate_limited_then_closed(server: ServerProcess) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            table, t0, _ = await two_seat_table(http)
        async with websockets.connect(ws_url(server, table, t0)) as ws:
            await opening(ws)
            for _ in range(200):
                await ws.send(json.dumps({"type": "ping"}))
            pongs = limited = 0
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    msg = await recv_json(ws)
                    if msg["type"] == "pong":
                        pongs += 1
                    elif msg["type"] == "error":
                        assert msg["code"] == "rate_limited"
                        limited += 1
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            # The burst (40) is answered, then errors until 50 are counted and close it;
            # how many tokens refill meanwhile depends on the machine's speed, so the exact
            # counts are pinned against a moved clock in test_token_bucket_counts.
            assert pongs >= 40 and limited >= 50 and pongs + limited <= 200
        # The table is untouched and the seat can come back.
        async with websockets.connect(ws_url(server, table, t0)) as ws:
            _, state = await opening(ws)
            assert state["version"] == 0
            await ws.send(json.dumps({"type": "ping"}))
            assert (await recv_until(ws, "pong"))["type"] == "pong"

    asyncio.run(main())


def test_token_bucket_counts() -> None:
    """``rate`` tokens a second up to ``burst``: a burst, then one token per 1/rate s."""
    now = [100.0]
    bucket = TokenBucket(20.0, 40.0, clock=lambda: now[0])
    assert sum(bucket.take() for _ in range(200)) == 40
    now[0] += 0.5  # 10 tokens back
    assert sum(bucket.take() for _ in range(200)) == 10
    now[0] += 3600  # never more than the burst
    assert sum(bucket.take() for _ in range(200)) == 40
    assert all(TokenBucket(0.0, 1.0, clock=lambda: 0.0).take() for _ in range(100))


def test_seat_tokens_never_reach_the_log(database: Database) -> None:
    """Tokens travel in the WebSocket URL; the server's log (at info) must not keep them."""
    with ServerProcess(database, extra=["--log-level", "info"]) as server:

        async def main() -> tuple[str, str]:
            async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
                table, t0, t1 = await two_seat_table(http)
            async with websockets.connect(ws_url(server, table, t0)) as ws:
                await opening(ws)
            # The name percent-encoded ("%74" is "t"): still a token to the server.
            async with websockets.connect(f"{server.ws_base}/ws/{table}?%74oken={t1}") as ws:
                welcome, _ = await opening(ws)
                assert welcome["seat"] == 1
            return t0, t1

        tokens = asyncio.run(main())
    # Leaving the block stops the server and waits for it to exit: the log is complete.
    log = server.log.read_text()
    assert "WebSocket" in log and "?…" in log
    assert tokens[0] not in log and tokens[1] not in log
