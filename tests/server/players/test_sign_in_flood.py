"""A flood of wrong sign-ins from many addresses, each under every per-address and
per-username limit, against a real server process: past the process's hashing budget the
flood is refused at once (503, ``Retry-After``) instead of queueing CPU-heavy hashes, and
meanwhile the lobby answers and a person signs in with the right password."""

from __future__ import annotations

import asyncio
import contextlib

import httpx

from ...support.databases import NewDatabase
from ..harness import ServerProcess
from .helpers import browser, new_player

PASSWORD = "a passphrase nobody guesses"
FLOOD = [f"127.0.0.{10 + i}" for i in range(8)]
"""Eight loopback addresses (Linux routes all of 127/8 to this machine)."""


def from_address(server: ServerProcess, address: str) -> httpx.AsyncClient:
    """A client whose connections come from ``address``: the server sees that peer."""
    return httpx.AsyncClient(base_url=server.base, timeout=60,
                             transport=httpx.AsyncHTTPTransport(local_address=address))


def test_a_sign_in_flood_is_refused_past_the_budget_and_a_person_gets_in(
        databases: NewDatabase) -> None:
    # One hash at a time and two waiting: eight addresses fill that at once.
    with ServerProcess(databases("flood"), extra=["--hash-workers", "1",
                                                  "--hash-queue", "2"]) as server:
        asyncio.run(_flood(server))


async def _flood(server: ServerProcess) -> None:
    async with browser(server) as ann:
        await new_player(ann, "Ann")
        r = await ann.post("/api/me/claim", json={"username": "ann", "password": PASSWORD})
        assert r.status_code == 200, r.text
    answers: dict[str, list[httpx.Response]] = {a: [] for a in FLOOD}
    stop = asyncio.Event()

    async def guess(http: httpx.AsyncClient, username: str) -> list[httpx.Response]:
        try:
            return [await http.post("/api/login", json={"username": username,
                                                        "password": "wrong password"})]
        except httpx.TransportError:  # a kept-alive connection the server timed out
            return []

    async def guesser(address: str) -> None:
        """Three wrong sign-ins at a time, each at a different username (so no
        username's limit is reached), until told to stop."""
        async with from_address(server, address) as http:
            n = 0
            while not stop.is_set():
                for got in await asyncio.gather(*(guess(http, f"{address}-{n + i}")
                                                  for i in range(3))):
                    answers[address] += got
                n += 3

    flood = [asyncio.create_task(guesser(a)) for a in FLOOD]
    try:
        # Every address has been answered a few times: its next guesses count as many
        # recent attempts, a person's first sign-in as one.
        while not all(len(got) >= 3 for got in answers.values()):
            await asyncio.sleep(0.05)
        async with from_address(server, "127.0.0.200") as phone:
            lobby = await phone.get("/api/tables")
            assert lobby.status_code == 200
            r = await phone.post("/api/login", json={"username": "ann", "password": PASSWORD})
            assert r.status_code == 200, r.text
            assert r.json()["player"]["username"] == "ann"
        assert not any(task.done() for task in flood), [t.exception() for t in flood if t.done()]
    finally:
        stop.set()
        for task in flood:
            with contextlib.suppress(Exception):
                await task
    every = [r for got in answers.values() for r in got]
    codes = {r.status_code for r in every}
    assert codes <= {403, 429, 503}, codes  # wrong passwords, limits, the budget
    refused = [r for r in every if r.status_code == 503]
    assert refused, codes
    for r in refused:
        assert int(r.headers["Retry-After"]) > 0
        assert r.json()["error"]["code"] == "unavailable"
