"""No table waits on a compile: a real server process whose hard bots' numba kernels are held
back (the warm-up subprocess waits on a file the test creates: ``CAMBIO_KERNELS_HOLD``)
answers the lobby and plays a hard card table and a dice ``native`` table with their
stand-ins, without loading numba into the server; once let go, the kernels load in the
background and the same tables play on."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from cambio.bots.kernels import HOLD

from ..support.databases import Database
from .harness import Client, ServerProcess, create_table, start, ws_url


def numba_loaded(server: ServerProcess) -> bool:
    """Whether numba's compiler (llvmlite) or its extensions are mapped into the server."""
    assert server.proc is not None
    maps = Path(f"/proc/{server.proc.pid}/maps").read_text()
    return "llvmlite" in maps or "/numba/" in maps


def moves_of(client: Client, seat: int) -> int:
    return sum(1 for m in client.of_type("update") if m["event"]["seat"] == seat)


async def hard_tables(http: httpx.AsyncClient, server: ServerProcess) -> list[Client]:
    """A card table against ``hard`` and a dice table against ``native``, each with one
    person (a client that plays its seat)."""
    clients = []
    for body, bot in (({"game": "cards", "players": 2, "rounds": 20}, "hard"),
                      ({"game": "board", "players": 2}, "native")):
        host = await create_table(http, {**body, "name": "Ann"})
        await start(http, host["table"], host["token"], fill=bot)
        clients.append(Client(ws_url(server, host["table"], host["token"]), seed=3,
                              play=True))
    return clients


async def play_until_the_bots_moved(clients: list[Client], moves: int) -> None:
    await asyncio.gather(*(c.run(timeout=120, until=lambda c: moves_of(c, 1) >= moves)
                           for c in clients))
    for c in clients:
        assert moves_of(c, 1) >= moves, c.errors[-3:]


def test_tables_play_while_the_kernels_load_and_the_lobby_answers(
        database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hold = tmp_path / "let-the-kernels-go"
    monkeypatch.setenv(HOLD, str(hold))
    # Later options win: this server warms every kernel from the start, as `cambio serve`.
    with ServerProcess(database, extra=["--warm-kernels", "--log-level", "info"]) as server:
        asyncio.run(_play(server, hold))


async def _play(server: ServerProcess, hold: Path) -> None:
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        clients = await hard_tables(http, server)
        await play_until_the_bots_moved(clients, 3)
        assert (await http.get("/api/tables")).status_code == 200
        # The bots moved (their stand-ins), and the server never loaded numba to do it.
        assert not numba_loaded(server)
        assert "kernels: rollouts ready" not in server.log.read_text()

        hold.touch()  # the warm-up goes on: compiles, or finds the cache warm
        for _ in range(3000):
            log = server.log.read_text()
            if "kernels: rollouts ready" in log and "kernels: board ready" in log:
                break
            assert (await http.get("/api/tables")).status_code == 200
            await asyncio.sleep(0.2)
        else:
            raise AssertionError("the kernels never became ready")
        assert numba_loaded(server)
        clients = [Client(c.url, seed=4, play=True) for c in clients]
        await play_until_the_bots_moved(clients, 2)  # the hard bots themselves now
