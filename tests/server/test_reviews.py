"""Reviews on a real server, on both stores: queued in the finish's transaction, computed by
the worker pool after a restart, served to the seat's player only (a bot's seat to anyone),
the same review ``cambio review`` makes of the downloaded record, cached in the store (a
server with no worker serves it), and each game's accuracy on the profile."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from cambio.review.record import review_record

from ..support.databases import Database
from ..support.processes import alive, child_pids
from .harness import ServerProcess, auth
from .players.helpers import SLOW, browser, new_player, play_to_end

BUDGET = 32
NO_WORKERS = ["--review-workers", "0", "--review-budget", str(BUDGET)]
ONE_WORKER = ["--review-workers", "1", "--review-budget", str(BUDGET)]
REVIEW_KEYS = {"game", "seat", "budget", "seed", "accuracy", "labels", "series", "costliest",
               "slips", "decisions"}


def served(database: Database, extra: list[str]) -> ServerProcess:
    return ServerProcess(database, bot_speed=40.0, round_pause=0.2, extra=extra)


def url(table: str, seat: int) -> str:
    return f"/api/tables/{table}/seats/{seat}/review"


def test_reviews_are_queued_computed_cached_and_shown_to_their_player(
        database: Database) -> None:
    with served(database, NO_WORKERS) as server:
        table, token, ann = asyncio.run(_finish_a_game(server, database))
    with served(database, ONE_WORKER) as server:
        review = asyncio.run(_computed_after_the_restart(server, table, token))
    stored = database.rows("SELECT status, accuracy, cpu FROM reviews WHERE table_id = ? "
                           "AND seat = 0", (table,))
    assert stored[0][0] == "done" and stored[0][2] > 0
    with served(database, NO_WORKERS) as server:  # nobody computes: the store answers
        asyncio.run(_cached(server, table, token, ann, review))


async def _finish_a_game(server: ServerProcess, database: Database) -> tuple[str, str, str]:
    async with browser(server) as ann, browser(server) as bo, browser(server) as nobody:
        me = await new_player(ann, "Ann")
        await new_player(bo, "Bo")
        r = await ann.post("/api/tables", json={
            "game": "cards", "players": 2, "name": "Ann",
            "rules": {"preset": "rulebook", "overrides": {}}})
        assert r.status_code == 201, r.text
        table, token = r.json()["table"], r.json()["token"]
        r = await ann.post(f"/api/tables/{table}/start", json={"fill": "random"},
                           headers=auth(token))
        assert r.status_code == 200, r.text
        r = await ann.get(url(table, 0))
        assert r.status_code == 409 and r.json()["error"]["code"] == "conflict"
        await play_to_end(server, table, token)
        # queued with the finish, before anyone asked: the human seat only
        rows = database.rows("SELECT round_no, seat, status FROM reviews WHERE table_id = ?",
                             (table,))
        assert rows == [(1, 0, "queued")]
        # as if a process had claimed it and died: the next start takes it back
        database.execute("UPDATE reviews SET status = 'running', worker = 'gone', "
                         "started = ? WHERE table_id = ?", (time.time(), table))
        # another player, and nobody at all, are refused the human seat's review
        for other in (bo, nobody):
            r = await other.get(url(table, 0))
            assert r.status_code == 403, r.text
            assert r.json()["error"]["code"] == "forbidden"
        # the seat's player (by identity, or by seat token from anywhere): being computed
        for r in (await ann.get(url(table, 0)),
                  await nobody.get(url(table, 0), headers=auth(token))):
            assert r.status_code == 202, r.text
            assert r.json() == {"table": table, "game": 1, "round": 1, "seat": 0,
                                "rounds": 1, "status": "running", "ahead": 0, "workers": 0}
            assert r.headers["retry-after"]
        # a bot's seat: anyone, once the game is over (asked for now)
        r = await bo.get(url(table, 1))
        assert r.status_code == 202
        assert r.json()["status"] == "queued" and r.json()["ahead"] == 0
        r = await ann.get(url(table, 5))
        assert r.status_code == 404
        r = await ann.get(url(table, 0), params={"round": 2})
        assert r.status_code == 404
    return table, token, str(me["id"])


async def _poll(http: httpx.AsyncClient, path: str, **kwargs: Any) -> dict[str, Any]:
    deadline = time.monotonic() + 4 * SLOW  # a guard against a hang, not a timing
    while time.monotonic() < deadline:
        r = await http.get(path, **kwargs)
        if r.status_code == 200:
            body: dict[str, Any] = r.json()
            return body
        assert r.status_code == 202, r.text
        assert r.json()["status"] in ("queued", "running")
        await asyncio.sleep(0.5)
    raise AssertionError("the review was never made")


async def _computed_after_the_restart(server: ServerProcess, table: str, token: str
                                      ) -> dict[str, Any]:
    async with browser(server) as http:
        body = await _poll(http, url(table, 0), headers=auth(token))
        assert body["status"] == "done"
        review = body["review"]
        assert set(review) == REVIEW_KEYS
        assert review["game"] == "cards" and review["seat"] == 0 and review["seed"] == 0
        assert review["budget"] == f"{BUDGET} rollouts" and review["decisions"]
        # the review cambio review makes of the record the replay downloads
        record = (await http.get(f"/api/tables/{table}/record")).text
        assert review == review_record(record, 0, BUDGET, 0).to_json()
        bot = await _poll(http, url(table, 1))
        assert bot["review"]["seat"] == 1
        review_: dict[str, Any] = review
        return review_


async def _cached(server: ServerProcess, table: str, token: str, ann: str,
                  review: dict[str, Any]) -> None:
    async with browser(server) as http:
        r = await http.get(url(table, 0), headers=auth(token))
        assert r.status_code == 200 and r.json()["review"] == review
        profile = (await http.get(f"/api/players/{ann}")).json()
        game = profile["games"][0]
        assert game["table"] == table
        assert game["accuracy"] == round(review["accuracy"], 1)
        bot = (await http.get("/api/players/bot:random")).json()
        assert any(g["table"] == table and g["accuracy"] is not None for g in bot["games"])


def test_dice_games_are_reviewed_two_players_only(database: Database) -> None:
    """... and the review process ends with its server, even one killed with kill -9."""
    with served(database, ["--review-workers", "1", "--review-depth", "1"]) as server:
        asyncio.run(_dice(server))
        assert server.proc is not None
        workers = child_pids(server.proc.pid)
        assert workers, "a review process computed the review"
        server.kill()
    deadline = time.monotonic() + SLOW
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers), "a review process outlived its server"


async def _dice(server: ServerProcess) -> None:
    async with browser(server) as http:
        tables = {}
        for players in (2, 3):
            r = await http.post("/api/tables", json={"game": "board", "players": players,
                                                     "setup": "quick", "name": "Ann"})
            assert r.status_code == 201, r.text
            table, token = r.json()["table"], r.json()["token"]
            r = await http.post(f"/api/tables/{table}/start", json={"fill": "greedy"},
                                headers=auth(token))
            assert r.status_code == 200, r.text
            await play_to_end(server, table, token, seed=players)
            tables[players] = (table, token)
        table, token = tables[3]
        r = await http.get(url(table, 0), headers=auth(token))
        assert r.status_code == 409 and "two-player" in r.json()["error"]["message"]
        table, token = tables[2]
        body = await _poll(http, url(table, 0), headers=auth(token))
        review = body["review"]
        assert review["game"] == "board" and review["budget"] == "depth 1"
        assert review["decisions"] and all(d["points"] is None for d in review["decisions"])
        record = (await http.get(f"/api/tables/{table}/record")).text
        assert review == review_record(record, 0, seed=0, depth=1).to_json()
