"""Where uvloop does not exist (Windows: pyproject.toml installs it only elsewhere), ``cambio
serve`` runs on asyncio's own event loop: nothing in cambio imports uvloop, and uvicorn's
``loop="auto"`` falls back. The server is started with uvloop made unimportable and plays a
table of bots to its end."""

from __future__ import annotations

import asyncio

import httpx

from .harness import Client, ServerProcess, create_table, start

WITHOUT_UVLOOP = ("import runpy, sys; sys.modules['uvloop'] = None; "
                  "runpy.run_module('cambio.server', run_name='__main__')")


def test_a_server_without_uvloop_plays_a_table_to_its_end(database):
    server = ServerProcess(database, bot_speed=50, round_pause=0.1)
    assert server.args[1:3] == ["-m", "cambio.server"]
    server.args[1:3] = ["-c", WITHOUT_UVLOOP]
    with server:
        asyncio.run(play(server))
    assert "Traceback" not in database.log.read_text()


async def play(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        host = await create_table(http, {"game": "cards", "players": 2, "name": "Ann",
                                         "rules": {"preset": "house", "overrides": {}}})
        await start(http, host["table"], host["token"], fill="random")
        client = Client(f"{server.ws_base}/ws/{host['table']}?token={host['token']}", seed=3,
                        play=True)
        await client.run(until_finished=True, timeout=120)
        assert client.status == "finished", client.messages[-3:]
