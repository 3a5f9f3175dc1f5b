"""Match flow: the summary says who won the match, each
round's scores and when the next round is dealt; a rematch keeps the earlier matches, and a
restart rebuilds them from the stored actions."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from ..support.databases import Database
from .harness import Client, ServerProcess, auth, create_table, start, ws_url


def _ends(client: Client, game_no: int) -> list[list[int]]:
    """Each round's scores, as the rounds' last events told the player."""
    return [m["event"]["end"]["scores"] for m in client.of_type("update")
            if m["game_no"] == game_no and "end" in m["event"]]


def test_match_result_history_and_restart(database: Database) -> None:
    srv = ServerProcess(database, bot_speed=40.0, round_pause=1.0)
    with srv:
        asyncio.run(_scenario(srv))


async def _scenario(srv: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=srv.base, timeout=30) as http:
        host = await create_table(http, {"game": "cards", "players": 2, "rounds": 2,
                                         "name": "Ann",
                                         "rules": {"preset": "house", "overrides": {}}})
        table, token = host["table"], host["token"]
        await start(http, table, token, fill="memory")
        first = Client(ws_url(srv, table, token), seed=2, play=True)
        await first.run(timeout=120)
        assert first.status == "finished"
        tables = [m["table"] for m in first.of_type("table")]
        # Between the two rounds: round 1's scores, no winner yet, the next deal announced.
        between = [t for t in tables if t["next_round"] is not None]
        assert between and all(0 < t["next_round"] <= 1.0 for t in between)
        assert between[0]["result"]["scores"] == _ends(first, 1)[:1]
        assert between[0]["result"]["winners"] is None
        # The end: both rounds' scores, the totals, the match winners.
        done = (await http.get(f"/api/tables/{table}")).json()
        result = done["result"]
        scores = _ends(first, 1)
        assert len(scores) == 2 and result["scores"] == scores
        totals = [a + b for a, b in zip(*scores, strict=True)]
        assert result["totals"] == totals
        assert result["winners"] == [s for s in range(2) if totals[s] == min(totals)]
        assert done["history"] == [] and done["next_round"] is None
        assert done["wins"] == [1 if s in result["winners"] else 0 for s in range(2)]
        # A rematch: a new match, and the first one is kept.
        r = await http.post(f"/api/tables/{table}/again", headers=auth(token))
        again = r.json()
        assert again["game_no"] == 2 and again["history"] == [{"game_no": 1, **result}]
        assert again["result"]["scores"] == [] and again["result"]["winners"] is None
        second = Client(ws_url(srv, table, token), seed=3, play=True)
        await second.run(timeout=120)
        after = (await http.get(f"/api/tables/{table}")).json()
        assert after["history"] == [{"game_no": 1, **result}]
        assert after["result"]["scores"] == _ends(second, 2)
        wins: list[int] = [0, 0]
        for game in (result, after["result"]):
            for s in game["winners"]:
                wins[s] += 1
        assert after["wins"] == wins
    # A restart (kill -9) rebuilds the history from the stored actions.
    srv.kill()
    srv.start()
    async with httpx.AsyncClient(base_url=srv.base, timeout=30) as http:
        reloaded: dict[str, Any] = (await http.get(f"/api/tables/{table}")).json()
    assert reloaded["history"] == after["history"] and reloaded["result"] == after["result"]


def test_a_match_to_the_rules_target_with_its_reset(database: Database) -> None:
    """Cabo's rules at a table (a low target, so a few rounds do): the table plays until a
    total passes the target whatever its rounds say, resets an exact hit, names the winner,
    and a restart rebuilds it all from the stored actions."""
    srv = ServerProcess(database, bot_speed=40.0, round_pause=0.05)
    with srv:
        result = asyncio.run(_to_target(srv))
        table = result.pop("table")
        srv.kill()
        srv.start()
        reloaded = asyncio.run(_get(srv, table))
        assert reloaded["result"] == result


async def _get(srv: ServerProcess, table: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=srv.base, timeout=30) as http:
        out: dict[str, Any] = (await http.get(f"/api/tables/{table}")).json()
    return out


async def _to_target(srv: ServerProcess) -> dict[str, Any]:
    rules = {"preset": "cabo", "overrides": {"match_target": 12, "match_reset_to": 4,
                                             "match_resets": None}}
    async with httpx.AsyncClient(base_url=srv.base, timeout=30) as http:
        host = await create_table(http, {"game": "cards", "players": 2, "rounds": 1,
                                         "name": "Ann", "rules": rules})
        table, token = host["table"], host["token"]
        await start(http, table, token, fill="memory")
        client = Client(ws_url(srv, table, token), seed=5, play=True)
        await client.run(timeout=240)
        assert client.status == "finished"
        done = (await http.get(f"/api/tables/{table}")).json()
    assert done["target"] == 12
    result: dict[str, Any] = done["result"]
    scores = _ends(client, 1)
    assert result["scores"] == scores
    totals = [0, 0]
    resets = [0, 0]
    for k, round_scores in enumerate(scores):
        assert max(totals) <= 12, "the match went on after a total passed the target"
        totals = [t + s for t, s in zip(totals, round_scores, strict=True)]
        for s in range(2):
            if totals[s] == 12:
                totals[s], resets[s] = 4, resets[s] + 1
        assert (max(totals) > 12) == (k == len(scores) - 1)
    assert result["totals"] == totals and result["resets"] == resets
    assert result["winners"] == [s for s in range(2) if totals[s] == min(totals)]
    return {**result, "table": table}
