"""Slow and half-sent requests: one address cannot take the server offline.

The server runs with the common limit of 1,024 open files (soft and hard, so it cannot raise
it): 1,100 requests that never finish, from 127.0.0.2, each sending a header line every
second, used to hold every descriptor. Now the connections past the per-address cap are
refused at once, and the others are closed when the request timeout runs out, while a
player on 127.0.0.1 loads the lobby and plays a table through.
"""

from __future__ import annotations

import asyncio
import resource
import sys
from pathlib import Path

import httpx

from ..support.databases import Database
from .harness import Client, ServerProcess, create_table, start, ws_url

HALF_OPEN = 1100
REQUEST_TIMEOUT = 5.0
"""The documented default (``--request-timeout``)."""
MARGIN = 30.0
"""A generous bound on top of it for a loaded machine: only a hang exceeds it."""

LIMITED = ("import os, resource, sys; resource.setrlimit(resource.RLIMIT_NOFILE, "
           "(int(sys.argv[1]), int(sys.argv[2]))); os.execv(sys.argv[3], sys.argv[3:])")


def limited(proc: ServerProcess, soft: int, hard: int) -> ServerProcess:
    """``proc`` started with this open-files limit (as a shell's ``ulimit -n`` would)."""
    proc.args = [sys.executable, "-c", LIMITED, str(soft), str(hard), *proc.args]
    return proc


def own_fd_room(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4 * needed), hard))


async def half_open(port: int, closed: list[bool], index: int, sent: asyncio.Queue[int]
                    ) -> None:
    """One request that never ends: a header line a second until the server hangs up."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                       local_addr=("127.0.0.2", 0))
    finally:
        sent.put_nowait(index)
    try:
        writer.write(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        eof = asyncio.ensure_future(reader.read())
        for n in range(int(REQUEST_TIMEOUT + MARGIN)):
            done, _ = await asyncio.wait([eof], timeout=1.0)
            if done:
                break
            try:
                writer.write(b"X-Slow-%d: %d\r\n" % (n, index))
            except (ConnectionError, RuntimeError):
                break
        await asyncio.wait_for(eof, timeout=MARGIN)  # the server's close: EOF (or a reset)
        closed[index] = True
    except ConnectionError:
        closed[index] = True
    finally:
        writer.close()


async def player(server: ServerProcess) -> list[int]:
    """The lobby and a whole table, as a browser would: every answer's status."""
    statuses: list[int] = []
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        for path in ("/", "/api/tables", "/api/bots"):
            statuses.append((await http.get(path)).status_code)
        host = await create_table(http, {"game": "cards", "players": 2, "rounds": 1})
        await start(http, host["table"], host["token"], fill="random")
        client = Client(ws_url(server, host["table"], host["token"]), play=True)
        await client.run(timeout=120)
        assert client.status == "finished", client.messages[-3:]
        statuses.append((await http.get(f"/api/tables/{host['table']}")).status_code)
    return statuses


def test_half_open_requests_from_one_address_do_not_take_the_server_down(
        database: Database) -> None:
    own_fd_room(HALF_OPEN + 200)
    server = limited(ServerProcess(database, bot_speed=40.0, round_pause=0.1), 1024, 1024)
    with server:
        async def main() -> tuple[list[int], list[bool]]:
            closed = [False] * HALF_OPEN
            sent: asyncio.Queue[int] = asyncio.Queue()
            attack = [asyncio.ensure_future(half_open(server.port, closed, i, sent))
                      for i in range(HALF_OPEN)]
            for _ in range(HALF_OPEN):  # every attacking connection is open first
                await sent.get()
            statuses = await player(server)
            await asyncio.gather(*attack, return_exceptions=True)
            return statuses, closed

        statuses, closed = asyncio.run(main())
        assert statuses == [200, 200, 200, 200]
        assert all(closed), f"{closed.count(False)} half-open requests were not closed"
        assert httpx.get(f"{server.base}/api/bots", timeout=30).status_code == 200
    log = Path(server.log).read_text()
    assert "Traceback" not in log


def test_the_server_raises_its_open_files_limit_to_the_hard_limit(database: Database) -> None:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    target = min(hard, 4096)
    with limited(ServerProcess(database), 256, target) as server:
        assert server.proc is not None
        limits = Path(f"/proc/{server.proc.pid}/limits").read_text()
    row = next(line for line in limits.splitlines() if line.startswith("Max open files"))
    assert row.split()[3:5] == [str(target), str(target)], row
