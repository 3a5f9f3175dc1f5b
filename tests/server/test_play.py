"""Bot games over real WebSockets, to the end, with every message checked for leaks.

Each table mixes server bots with seats played by test clients (a seeded random policy that
also snaps now and then, racing the bots), plus a spectator. Afterwards the full records are
fetched and replayed through the engine, and every view and event each client received is
checked against what the engine says that seat had seen (:mod:`tests.server.leaks`).
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from .harness import Client, ServerProcess, create_table, join, start, ws_url
from .leaks import Round, check_messages, replay_round


async def fetch_rounds(http: httpx.AsyncClient, table: str) -> dict[tuple[int, int], Round]:
    summary = (await http.get(f"/api/tables/{table}")).json()
    out: dict[tuple[int, int], Round] = {}
    for game_no in range(1, summary["game_no"] + 1):
        r = await http.get(f"/api/tables/{table}/record", params={"game": game_no})
        assert r.status_code == 200, r.text
        for k in range(1, int(r.headers["x-cambio-rounds"]) + 1):
            text = (await http.get(f"/api/tables/{table}/record",
                                   params={"game": game_no, "round": k})).text
            out[(game_no, k)] = replay_round(text)
    return out


async def play_table(server: ServerProcess, http: httpx.AsyncClient, *, preset: str,
                     players: int, humans: int, rounds: int, bot: str, seed: int,
                     overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    host = await create_table(http, {
        "game": "cards", "players": players, "rounds": rounds, "name": "host",
        "rules": {"preset": preset, "overrides": overrides or {}}})
    table = host["table"]
    tokens = {0: host["token"]} if humans else {}
    for i in range(1, humans):
        j = await join(http, table, f"p{i}")
        tokens[j["seat"]] = j["token"]
    if not humans:  # the host's seat goes to a bot too: free it is not allowed, so play it
        tokens = {}
    await start(http, table, host["token"], fill=bot)
    clients = [Client(ws_url(server, table, tok), seed=seed * 10 + seat, play=True)
               for seat, tok in tokens.items()]
    if not humans:  # the host seat is a human seat nobody plays: a client plays it
        clients = [Client(ws_url(server, table, host["token"]), seed=seed, play=True)]
    watchers = [Client(ws_url(server, table))]
    await asyncio.gather(*(c.run(timeout=120) for c in clients + watchers))
    for c in clients + watchers:
        assert c.status == "finished", f"table {table} did not finish"
    rounds_by_key = await fetch_rounds(http, table)
    assert len(rounds_by_key) == rounds
    checked = 0
    for c in clients + watchers:
        checked += check_messages(c.messages, c.seat, rounds_by_key)
        assert not [e for e in c.errors if e["code"] not in ("stale", "illegal")], c.errors
    summary = (await http.get(f"/api/tables/{table}")).json()
    return {"table": table, "checked": checked, "summary": summary}


CASES = [
    # preset, players, human seats, rounds, bot
    ("rulebook", 4, 2, 1, "memory"),
    ("house", 3, 1, 2, "memory"),
    ("wikipedia", 5, 2, 1, "memory"),
    ("rulebook", 2, 1, 1, "random"),
    ("house", 6, 3, 1, "random"),
    ("wikipedia", 2, 2, 2, "memory"),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[1]}p-{c[2]}h" for c in CASES])
def test_mixed_tables_never_leak(server: ServerProcess, case: tuple[str, int, int, int, str]
                                 ) -> None:
    preset, players, humans, rounds, bot = case

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            out = await play_table(server, http, preset=preset, players=players,
                                   humans=humans, rounds=rounds, bot=bot,
                                   seed=sum(map(ord, preset)) + players)
            assert out["checked"] > 10
            assert out["summary"]["status"] == "finished"
            assert len(out["summary"]["totals"]) == players

    asyncio.run(main())


def test_many_bot_tables_at_once(server: ServerProcess) -> None:
    """Twelve tables in every preset, 2 to 7 players, all seats but one played by bots,
    with spectators, all at once."""
    specs = [(preset, players) for preset in ("rulebook", "house", "wikipedia")
             for players in (2, 3, 5, 7)]

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            results = await asyncio.gather(*(
                play_table(server, http, preset=preset, players=players, humans=0, rounds=1,
                           bot="memory" if i % 2 else "random", seed=100 + i)
                for i, (preset, players) in enumerate(specs)))
        assert all(r["checked"] > 5 for r in results)

    asyncio.run(main())
