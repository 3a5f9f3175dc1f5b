"""A client that announces a body and hangs up before sending it all (a dropped network, a
closed tab, a prober) costs one debug line in the log: no traceback, no error.

Raw sockets against a real server process, on every kind of endpoint that reads a body: the
lobby's, the players', and a table's.
"""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any

import httpx

from ..support.databases import Database
from .harness import ServerProcess, create_table

HUNG_UP = "the client hung up before sending its whole body"


def hang_up(server: ServerProcess, path: str) -> None:
    """POST ``path`` announcing 100 bytes of JSON, send 5, and close the connection."""
    with socket.create_connection(("127.0.0.1", server.port)) as raw:
        raw.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                    f"Origin: {server.base}\r\nContent-Type: application/json\r\n"
                    "Content-Length: 100\r\n\r\n{\"nam".encode())


async def a_table(server: ServerProcess) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.base) as http:
        return await create_table(http, {"game": "cards", "players": 2, "name": "Ann"})


def test_a_client_hanging_up_mid_body_is_one_debug_line(database: Database) -> None:
    with ServerProcess(database, extra=["--log-level", "debug"]) as server:
        made = asyncio.run(a_table(server))
        paths = ["/api/tables", "/api/me", "/api/login", "/api/queue",
                 f"/api/tables/{made['table']}/join"]
        for path in paths:
            hang_up(server, path)
        deadline = time.monotonic() + 60  # a guard against a hang, not a timing
        while server.log.read_text().count(HUNG_UP) < len(paths):
            assert time.monotonic() < deadline, server.log.read_text()[-3000:]
            time.sleep(0.05)
        log = server.log.read_text()
        assert "Traceback" not in log and "Exception in ASGI" not in log
        lines = [line for line in log.splitlines() if HUNG_UP in line]
        assert len(lines) == len(paths)
        # ... and the server goes on answering.
        assert httpx.get(server.base + "/api/tables").status_code == 200
