"""``cambio admin``: every command on a real SQLite file and a real PostgreSQL database
(in-process through typer's runner), and a ban given from the command line while a real
server runs (as an operator would): the player's sessions end, they cannot sign in, queue
for Play now or chat; unbanned, they sign in again."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from typing import Any

import websockets

from cambio.server.admin import admin_app
from cambio.server.store import open_store
from cambio.server.store import players_sql as sql
from cambio.server.store import social_sql as social

from ...support.databases import Database
from ..harness import ServerProcess, ws_url
from ..harness import recv_until as until
from .helpers import STRONG, admin, close_all, people, runner, say, table_of_two


def seed(database: Database) -> None:
    store = open_store(database.url, exclusive=False)
    evidence = {"seats": {"0": "_ann", "1": "_bo"},
                "chat": [{"n": 1, "seat": 1, "name": "Bo", "text": "you are awful",
                          "emote": None, "at": "2026-01-01T00:00:00+00:00"}]}
    try:
        asyncio.run(store.write([
            sql.insert_player("_ann", "Ann", 1.0), sql.insert_player("_bo", "Bo", 1.0),
            sql.claim_player("_bo", "bo", "Bo", "$argon2id$x"),
            sql.insert_key("kbo", "_bo", "browser", None),
            social.insert_report("r_1", "_ann", "_bo", "abuse", "mean", "t1", evidence, 5.0)]))
    finally:
        store.close()


def test_every_admin_command_acts_and_is_logged(database: Database) -> None:
    seed(database)
    out = admin(database, "reports")
    assert "r_1" in out and "you are awful" in out and "abuse" in out
    [listed] = json.loads(admin(database, "reports", "--json", "--player", "bo"))
    assert listed["evidence"]["seats"] == {"0": "_ann", "1": "_bo"}
    admin(database, "warn", "bo", "-r", "mind your words", "--as", "cli:tester")
    assert admin(database, "reports") == "no reports\n"  # the warning dealt with it
    assert "r_1" in admin(database, "reports", "--all")
    admin(database, "mute", "BO", "-r", "insults", "--for", "12h")  # usernames fold case
    [(kind, until)] = database.rows("SELECT kind, until FROM sanctions")
    assert kind == "mute" and until is not None
    admin(database, "unmute", "_bo")
    assert database.rows("SELECT * FROM sanctions") == []
    admin(database, "ban", "bo", "-r", "cheating")
    assert database.rows("SELECT kind, until FROM sanctions") == [("ban", None)]
    assert database.rows("SELECT * FROM player_keys WHERE player_id = '_bo'") == []
    admin(database, "unban", "bo", "-r", "appeal granted")
    admin(database, "dismiss", "_ann", "-r", "nothing there")
    admin(database, "grant", "_ann")
    assert "_ann" in admin(database, "operators")
    admin(database, "revoke", "_ann")
    assert "_ann" not in admin(database, "operators")
    log = admin(database, "log")
    for action in ("warn", "mute", "unmute", "ban", "unban", "dismiss", "grant", "revoke"):
        assert f"  {action}  " in log, action
    assert "cli:tester  warn  _bo" in log
    assert database.rows("SELECT actor FROM moderation WHERE action = 'ban'")[0][0] \
        .startswith("cli:")
    # Bad input: a clear message, exit 2, nothing changed.
    before = database.rows("SELECT COUNT(*) FROM moderation")
    assert "no player" in admin(database, "ban", "nobody", "-r", "x", ok=False)
    assert "duration" in admin(database, "mute", "bo", "-r", "x", "--for", "soon", ok=False)
    assert "reason" in admin(database, "warn", "bo", "-r", " ", ok=False)
    assert database.rows("SELECT COUNT(*) FROM moderation") == before


def test_a_missing_sqlite_file_is_refused_not_made(tmp_path: Any) -> None:
    result = runner.invoke(admin_app, ["reports", "--db", str(tmp_path / "none.sqlite3")])
    assert result.exit_code == 2 and "no database" in result.output
    assert not (tmp_path / "none.sqlite3").exists()


def cli(database: Database, *args: str) -> None:
    """``cambio admin`` as an operator runs it: a process of its own."""
    done = subprocess.run([sys.executable, "-m", "cambio.cli.main", "admin", *args,
                           "--db", database.url], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr


def test_a_ban_from_the_command_line_reaches_a_running_server(database: Database) -> None:
    async def main(srv: ServerProcess) -> None:
        (ann, bo), (_, b) = await people(srv, "Ann", "Bo")
        try:
            r = await bo.post("/api/me/claim", json={"username": "bo_banned",
                                                     "password": STRONG})
            assert r.status_code == 200, r.text
            table, _, bo_token = await table_of_two(ann, bo)
            async with websockets.connect(ws_url(srv, table, bo_token)) as ws:
                await until(ws, "chat_log")
                await say(ws, text="before")
                assert (await until(ws, "chat"))["text"] == "before"
                cli(database, "mute", "bo_banned", "-r", "insults", "--for", "1h")
                await say(ws, text="muted", ref="x")
                refused = await until(ws, "error")
                assert refused["code"] == "forbidden" and "muted until" in refused["message"]
                await say(ws, emote="gg")  # not even a quick phrase
                assert (await until(ws, "error"))["code"] == "forbidden"
                cli(database, "ban", "bo_banned", "-r", "cheating", "--for", "7d")
                # The server finds the ban: the seat's connections close, its token dies.
                shut = await until(ws, "error", 30)
                assert shut["code"] == "forbidden" and "banned" in shut["message"]
                await ws.wait_closed()
                assert ws.close_code == 1008
            async with websockets.connect(ws_url(srv, table, bo_token)) as ws:
                assert (await until(ws, "error"))["code"] == "invalid_token"
            assert (await bo.get("/api/me")).json()["player"] is None  # session ended
            login = {"username": "bo_banned", "password": STRONG}
            r = await bo.post("/api/login", json=login)
            assert r.status_code == 403 and "cheating" in r.json()["error"]["message"]
            cli(database, "unban", "bo_banned")
            r = await bo.post("/api/login", json=login)
            assert r.status_code == 200 and r.json()["player"]["id"] == b["id"]
            r = await bo.post("/api/queue", json={"game": "cards", "players": 2})
            assert r.status_code == 201, r.text
            await bo.delete("/api/queue", params={"ticket": r.json()["ticket"]})
            # Play now asks the store too: a sanction row alone (a ban that raced a
            # sign-in, its key written after the ban's) keeps a player off rated tables.
            database.execute("INSERT INTO sanctions (player_id, kind, until, reason, "
                             "created) VALUES (?, 'ban', NULL, 'raced', 1)", (b["id"],))
            r = await bo.post("/api/queue", json={"game": "cards", "players": 2})
            assert r.status_code == 403 and "raced" in r.json()["error"]["message"]
        finally:
            await close_all([ann, bo])

    with ServerProcess(database) as srv:
        asyncio.run(main(srv))


def test_an_operator_moderates_through_the_api(server: ServerProcess) -> None:
    async def main() -> None:
        (op, bo), (o, b) = await people(server, "Olga", "Bo")
        try:
            assert (await op.get("/api/admin/reports")).status_code == 403
            await asyncio.to_thread(admin, server.database, "grant", o["id"])
            r = await bo.post(f"/api/players/{o['id']}/report", json={"reason": "other"})
            assert r.status_code == 201
            found = (await op.get("/api/admin/reports")).json()["reports"]
            assert r.json()["report"] in [x["id"] for x in found]
            r = await op.post(f"/api/admin/players/{b['id']}/mute",
                              json={"reason": "flooding", "for": "1h"})
            assert r.status_code == 200 and r.json()["until"] is not None, r.text
            [held] = (await bo.get("/api/players/me/standing")).json()["sanctions"]
            assert (held["kind"], held["reason"]) == ("mute", "flooding")
            r = await op.post(f"/api/admin/players/{b['id']}/unmute", json={})
            assert r.status_code == 200
            assert (await bo.get("/api/players/me/standing")).json()["sanctions"] == []
            [entry, _] = (await op.get("/api/admin/log")).json()["log"][:2]
            assert (entry["actor"], entry["action"], entry["player"]) == (
                o["id"], "unmute", b["id"])
            # Bad calls change nothing; an operator is moderated from the command line.
            for action, body, code in (("explode", {"reason": "x"}, 404),
                                       ("mute", {"reason": "x", "for": "soon"}, 400),
                                       ("warn", {"reason": ""}, 400)):
                r = await op.post(f"/api/admin/players/{b['id']}/{action}", json=body)
                assert r.status_code == code, (action, r.text)
            r = await op.post(f"/api/admin/players/{o['id']}/ban", json={"reason": "x"})
            assert r.status_code == 403
            assert (await bo.post(f"/api/admin/players/{o['id']}/ban", json={"reason": "x"})
                    ).status_code == 403  # not an operator
        finally:
            await close_all([op, bo])

    asyncio.run(main())
