"""Hostile clients against a real server process: seat lockout, a long-round
flood, Unicode digits, NaN refs, connection floods, origins, proxies, expiry.

Two servers serve the whole module (started once per test worker): ``capped`` has a small
spectator cap and no connection-rate limits, so tests there may open many connections;
``strict`` has tight per-address limits, a REST limit and a short life for waiting tables.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

from cambio.records.cards import replay
from cambio.records.jsonl import parse_record

from ..support.databases import NewDatabase
from .harness import (
    ServerProcess,
    create_table,
    join,
    recv_json,
    recv_until,
    start,
    two_seat_table,
    ws_url,
)

SPECTATORS = 4


@pytest.fixture(scope="module")
def capped(databases: NewDatabase) -> Iterator[ServerProcess]:
    proc = ServerProcess(databases("capped"), extra=[
        "--max-spectators", str(SPECTATORS), "--ws-connect-rate", "0",
        "--max-conns-per-address", "0", "--allow-origin", "https://friends.example",
        "--forwarded-allow-ips", "127.0.0.1", "--rest-rate", "20"]).start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def strict(databases: NewDatabase) -> Iterator[ServerProcess]:
    proc = ServerProcess(databases("strict"), extra=[
        "--max-conns-per-address", "6", "--ws-connect-rate", "2", "--rest-rate", "5"]).start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def expiring(databases: NewDatabase) -> Iterator[ServerProcess]:
    """Waiting tables live 1 s here. (On ``strict`` they did too, and a flood test's table,
    still waiting between its creation and its start, expired whenever a loaded machine
    took over a second between the two calls: "no such table".)"""
    proc = ServerProcess(databases("expiring"), extra=["--waiting-ttl", "1"]).start()
    try:
        yield proc
    finally:
        proc.stop()


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def opening(ws: Any) -> dict[str, Any]:
    await recv_until(ws, "welcome")
    state: dict[str, Any] = await recv_until(ws, "state")
    return state


async def refused(url: str, **kw: Any) -> dict[str, Any]:
    """Connect, expect an error as the first message and a close; return both."""
    async with websockets.connect(url, **kw) as ws:
        msg = await recv_json(ws)
        assert msg["type"] == "error", msg
        with pytest.raises(ConnectionClosed) as closed:
            await recv_json(ws)
        assert closed.value.rcvd is not None
        return {**msg, "close": closed.value.rcvd.code}


# ====================================================================== lockout
def test_spectators_cannot_lock_a_seated_player_out(capped: ServerProcess) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=capped.base, timeout=30) as http:
            table, t0, t1 = await two_seat_table(http)
        watchers = [await websockets.connect(ws_url(capped, table))
                    for _ in range(SPECTATORS)]
        try:
            for ws in watchers:
                assert (await recv_json(ws))["type"] == "welcome"
            busy = await refused(ws_url(capped, table))
            assert busy["code"] == "busy" and busy["close"] == 1013
            # Both players still get in, with the spectators' cap full.
            for seat, token in enumerate((t0, t1)):
                async with websockets.connect(ws_url(capped, table, token)) as ws:
                    welcome = await recv_until(ws, "welcome")
                    assert welcome["seat"] == seat
            # A seat has its own cap (tabs of one player): past it, "busy", never a verdict
            # on the token.
            tabs = [await websockets.connect(ws_url(capped, table, t0)) for _ in range(8)]
            try:
                for ws in tabs:
                    assert (await recv_json(ws))["seat"] == 0
                busy = await refused(ws_url(capped, table, t0))
                assert busy["code"] == "busy" and busy["close"] == 1013
            finally:
                for ws in tabs:
                    await ws.close()
            # A token that is not a seat: the one answer that says so.
            bad = await refused(ws_url(capped, table, "x" + t0))
            assert bad["code"] == "invalid_token" and bad["close"] == 1008
        finally:
            for ws in watchers:
                await ws.close()

    run(main())


# ====================================================================== long rounds
def test_a_long_round_flood_ends_at_the_turn_cap(capped: ServerProcess) -> None:
    """One client holds both seats and draws and discards as fast as it may: the round
    ends at the rules' turn cap, scored, and its record replays."""
    cap = 30

    async def main() -> str:
        async with httpx.AsyncClient(base_url=capped.base, timeout=30) as http:
            host = await create_table(http, {"game": "cards", "players": 2, "rules": {
                "preset": "rulebook", "overrides": {"max_turns": cap}}})
            table = host["table"]
            other = await join(http, table, "Bo")
            await start(http, table, host["token"], fill=None)
        tokens = [host["token"], other["token"]]
        latest: list[dict[str, Any]] = [{}, {}]
        moved = asyncio.Event()

        async def reader(i: int, ws: Any) -> None:
            async for raw in ws:
                msg = json.loads(raw)
                if msg["type"] == "error":
                    raise AssertionError(msg)
                if msg["type"] in ("state", "update"):
                    latest[i] = msg
                    moved.set()

        async with websockets.connect(ws_url(capped, table, tokens[0])) as a, \
                websockets.connect(ws_url(capped, table, tokens[1])) as b:
            socks = [a, b]
            readers = [asyncio.create_task(reader(i, ws)) for i, ws in enumerate(socks)]
            end = None
            while end is None:
                try:
                    await asyncio.wait_for(moved.wait(), 20)
                except TimeoutError:
                    raise AssertionError(json.dumps(latest)[:3000]) from None
                moved.clear()
                if not all(latest) or latest[0]["version"] != latest[1]["version"]:
                    continue
                end = latest[0].get("event", {}).get("end")
                actor = latest[0]["view"]["actor"]
                if end is not None or actor is None:
                    break
                legal = latest[actor]["view"]["legal"]
                calm = [x for x in legal if x.split()[0] not in ("snap", "cambio", "take")]
                pick = next((x for x in ("discard", "draw", "keep", "skip") if x in calm),
                            calm[0])
                await asyncio.sleep(0.06)  # under the 20-messages-a-second limit
                await socks[actor].send(json.dumps({"type": "act", "action": pick,
                                                    "version": latest[actor]["version"]}))
            for task in readers:
                task.cancel()
            assert end is not None and end["reason"] == "turn_cap"
            assert latest[0]["version"] < 6 * cap
        return str(table)

    table = run(main())
    with httpx.Client(base_url=capped.base, timeout=30) as http:
        summary = http.get(f"/api/tables/{table}").json()
        assert summary["status"] == "finished"
        text = http.get(f"/api/tables/{table}/record").text
    result = replay(parse_record(text))
    assert result.state.end_reason.name == "TURN_CAP"
    assert result.state.turn_number == cap


# ====================================================================== digits
def test_unicode_digits_are_illegal_actions_not_crashes(capped: ServerProcess) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=capped.base, timeout=30) as http:
            table, t0, _ = await two_seat_table(http)
            board = await create_table(http, {"game": "board", "players": 2, "setup": "full"})
            bo = await join(http, board["table"], "Bo")
            await start(http, board["table"], board["token"], fill=None)
        async with websockets.connect(ws_url(capped, table, t0)) as ws:
            state = await opening(ws)
            await ws.send(json.dumps({"type": "act", "action": "draw", "version": 0}))
            drawn = await recv_until(ws, "update")
            for text in ("swap \u00b2", "snap 0.\u00b2", "give \u2462", "swap \u0663",
                         "peek \u00b9.0"):
                await ws.send(json.dumps({"type": "act", "action": text,
                                          "version": drawn["version"], "ref": text}))
                err = await recv_until(ws, "error")
                assert err["code"] == "illegal" and err["ref"] == text
            # Nothing moved, and the connection is alive.
            await ws.send(json.dumps({"type": "ping"}))
            await recv_until(ws, "pong")
            assert state["version"] == 0 and drawn["version"] == 1
        async with websockets.connect(ws_url(capped, board["table"], board["token"])) as ws:
            state = await opening(ws)
            seat = state["view"]["actor"]
        chooser = board["token"] if seat == 0 else bo["token"]
        async with websockets.connect(ws_url(capped, board["table"], chooser)) as ws:
            state = await opening(ws)
            assert state["view"]["phase"] == "setup"
            for text in ("own b\u00b2", "neutral c\u2462", "a\u00b2>"):
                await ws.send(json.dumps({"type": "act", "action": text,
                                          "version": state["version"]}))
                assert (await recv_until(ws, "error"))["code"] == "illegal"

    run(main())


# ====================================================================== NaN refs
def not_json(constant: str) -> Any:
    raise AssertionError(f"the server sent {constant}, which is not JSON")


@pytest.mark.parametrize("raw", [
    '{"type": "ping", "ref": NaN}',
    '{"type": "act", "action": "draw", "version": 0, "ref": Infinity}',
    '{"type": "sync", "since": 0, "ref": -Infinity}',
    '{"type": "ping", "ref": 1e400}',
])
def test_non_finite_refs_are_refused_with_valid_json(capped: ServerProcess, raw: str) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=capped.base, timeout=30) as http:
            table, t0, _ = await two_seat_table(http)
        async with websockets.connect(ws_url(capped, table, t0)) as ws:
            await opening(ws)
            await ws.send(raw)
            msg: dict[str, Any] = {}
            while msg.get("type") != "error":
                text = await asyncio.wait_for(ws.recv(), 10)
                msg = json.loads(text, parse_constant=not_json)
            assert msg["code"] == "bad_message"

    run(main())


# ====================================================================== errors
def test_stale_actions_and_lost_snaps_do_not_close_the_connection(
        capped: ServerProcess) -> None:
    """Races are play: 60 of them (more than the 50-error limit) leave the connection
    open; 50 bad messages do not."""
    async def main() -> None:
        async with httpx.AsyncClient(base_url=capped.base, timeout=30) as http:
            table, t0, _ = await two_seat_table(http)
        async with websockets.connect(ws_url(capped, table, t0)) as ws:
            await opening(ws)
            for i in range(60):  # paced under the 20-a-second message limit
                if i % 2:
                    msg = {"type": "act", "action": "draw", "version": 7, "ref": i}
                else:  # nothing on the pile yet: a snap that finds nothing to snap
                    msg = {"type": "act", "action": "snap 1.0", "version": 0, "ref": i}
                await ws.send(json.dumps(msg))
                err = await recv_until(ws, "error")
                assert err["code"] == ("stale" if i % 2 else "illegal")
                await asyncio.sleep(0.06)
            await ws.send(json.dumps({"type": "ping"}))
            await recv_until(ws, "pong")
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(60):
                    await ws.send("not json")
                    await recv_until(ws, "error")
                    await asyncio.sleep(0.06)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

    run(main())


# ====================================================================== origins
def test_websockets_from_other_sites_are_refused(capped: ServerProcess) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=capped.base, timeout=30) as http:
            table, t0, _ = await two_seat_table(http)
        url = ws_url(capped, table, t0)
        with pytest.raises(InvalidStatus) as bad:
            async with websockets.connect(url, origin=Origin("https://evil.example")):
                pass
        assert bad.value.response.status_code == 403
        for origin in (f"http://127.0.0.1:{capped.port}", "https://friends.example"):
            async with websockets.connect(url, origin=Origin(origin)) as ws:
                assert (await recv_until(ws, "welcome"))["seat"] == 0

    run(main())


# ====================================================================== floods
def test_connection_floods_are_capped_per_address(strict: ServerProcess) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=strict.base, timeout=30) as http:
            table, _, _ = await two_seat_table(http)
        url = ws_url(strict, table)
        held = [await websockets.connect(url) for _ in range(6)]
        try:
            for ws in held:
                assert (await recv_json(ws))["type"] == "welcome"
            busy = await refused(url)
            assert busy["code"] == "busy" and "open connections" in busy["message"]
        finally:
            for ws in held:
                await ws.close()
        # Attempts themselves are rate-limited per address (2 a second, bursts of 12).
        answers = []
        for _ in range(20):
            async with websockets.connect(url) as ws:
                msg = await recv_json(ws)
                answers.append(msg.get("code", msg["type"]))
        assert "busy" in answers

    run(main())


@pytest.fixture(scope="module")
def proxied(databases: NewDatabase) -> Iterator[ServerProcess]:
    """Trusts 127.0.0.1 as its proxy, with a REST limit of 1 call a second (burst 4): 150
    calls from one address are refused unless they take over two minutes, so the check does
    not depend on how fast a loaded machine sends them."""
    proc = ServerProcess(databases("proxied"), extra=[
        "--forwarded-allow-ips", "127.0.0.1", "--rest-rate", "1"]).start()
    try:
        yield proc
    finally:
        proc.stop()


def test_forwarded_for_is_trusted_only_from_configured_proxies(
        proxied: ServerProcess, strict: ServerProcess) -> None:
    """``strict`` trusts no proxy: a client varying X-Forwarded-For is still one client and
    hits the REST limit. ``proxied`` trusts 127.0.0.1 as its proxy: each forwarded address
    has its own bucket, and one forwarded address is limited like any client."""
    def statuses(base: str, count: int, vary: bool) -> list[int]:
        with httpx.Client(base_url=base, timeout=30) as http:
            return [http.get("/api/bots", headers={
                "X-Forwarded-For": f"10.0.{i // 200}.{i % 200}" if vary else "10.9.9.9",
            }).status_code for i in range(count)]

    assert 429 in statuses(strict.base, 60, vary=True)
    # Leave ``strict`` as we found it: other tests on it run in a random order.
    with httpx.Client(base_url=strict.base, timeout=30) as http:
        deadline = time.monotonic() + 30
        while http.get("/api/bots").status_code == 429 and time.monotonic() < deadline:
            time.sleep(0.5)
    assert set(statuses(proxied.base, 150, vary=True)) == {200}
    assert 429 in statuses(proxied.base, 150, vary=False)


# ====================================================================== expiry
def test_waiting_tables_expire(expiring: ServerProcess) -> None:
    with httpx.Client(base_url=expiring.base, timeout=30) as http:
        r = http.post("/api/tables", json={"game": "cards", "players": 2})
        assert r.status_code == 201
        table = r.json()["table"]
        deadline = time.monotonic() + 30
        status = 200
        while status == 200 and time.monotonic() < deadline:
            time.sleep(0.1)
            status = http.get(f"/api/tables/{table}").status_code
        assert status == 404
        r = http.post(f"/api/tables/{table}/join", json={"name": "late"})
        assert r.status_code == 404


# ====================================================================== --seed
def test_a_seeded_server_says_its_deals_are_predictable(capped: ServerProcess) -> None:
    log = capped.log.read_text()
    assert "--seed is set: every deal on this server is predictable" in log
