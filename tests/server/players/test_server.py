"""Players on a real server, on both stores, with restarts in the middle: identity,
claims and sign-in on another browser, Play now against bots, history and ratings that
survive a restart (and a SIGKILL mid-game), the leaderboard."""

from __future__ import annotations

import asyncio

from ...support.databases import Database
from ..harness import Client, ServerProcess, ws_url
from .helpers import (
    SLOW,
    browser,
    matched,
    new_player,
    play_now_game,
    play_to_end,
    queue,
)

FAST = ["--queue-wait", "30", "--leaderboard-games", "1", "--leaderboard-opponents", "1"]


def test_history_and_ratings_survive_restarts(database: Database) -> None:
    server = ServerProcess(database, bot_speed=40.0, away_after=60.0, round_pause=0.2,
                           extra=FAST)
    with server:
        asyncio.run(_first_half(server))
    server.start()
    try:
        asyncio.run(_second_half(server))
    finally:
        server.stop()


CREDENTIALS = {"username": "AnnLee", "password": "correct horse battery"}


async def _first_half(server: ServerProcess) -> None:
    async with browser(server) as ann:
        me = await new_player(ann, "Ann")
        assert me["claimed"] is False and me["profile"] == f"/p/{me['id']}"
        first = await play_now_game(server, ann)
        assert first["rated"] is True and first["seat"] == 0
        r = await ann.post("/api/me/claim", json=CREDENTIALS)
        assert r.status_code == 200, r.text
        assert r.json()["player"]["profile"] == "/p/AnnLee"
        # a second game, the server killed in its middle
        joined = await queue(ann, {"game": "cards", "players": 2, "preset": "house"})
        match = await matched(ann, joined["ticket"], now=True)
        summary = (await ann.get(f"/api/tables/{match['table']}")).json()
        assert summary["status"] == "playing" and summary["rated"] is True
        server.kill()
        server.start()
        await play_to_end(server, match["table"], joined["token"], seed=2)


async def _second_half(server: ServerProcess) -> None:
    async with browser(server) as other:
        # another device: sign in with the password, see the same history
        assert (await other.get("/api/me")).json() == {"player": None}
        r = await other.post("/api/login", json={"username": "annlee",
                                                 "password": CREDENTIALS["password"]})
        assert r.status_code == 200, r.text
        me = (await other.get("/api/me")).json()["player"]
        assert me["username"] == "AnnLee" and me["name"] == "Ann"
        profile = (await other.get("/api/players/annlee")).json()
        games = profile["games"]
        assert len(games) == 2
        assert all(g["rated"] and g["class"] == "cards-2" and g["rules"] == "house"
                   for g in games)
        # the first game's bot is the level nearest a new player (memory, μ 25); the next
        # one the level nearest Ann's rating then
        assert [p["name"] for p in games[-1]["players"]] == ["Ann", "Medium bot"]
        assert games[0]["players"][1]["player"].startswith("bot:")
        assert games[0]["replay"].startswith(f"/r/{games[0]['table']}")
        rating = profile["ratings"]["cards-2"]
        assert rating["games"] == 2 and rating["uncertainty"] < 25 / 3
        assert rating["rating"] == games[0]["rating"]
        assert len(profile["history"]["cards-2"]) == 2
        assert profile["totals"]["cards"]["games"] == 2
        # each finished game's replay is the full record
        r = await other.get(f"/api/tables/{games[0]['table']}/record")
        assert r.status_code == 200 and '"seed"' in r.text
        # the bot has a profile with the same games
        bot = (await other.get("/api/players/bot:memory")).json()
        assert bot["bot"] is True and len(bot["games"]) >= 1
        assert bot["ratings"]["cards-2"]["fixed"] is True
        # its strength in stars for the page to word (the registry's, never set by hand)
        listed = {b["name"]: b for b in (await other.get("/api/bots")).json()["cards"]}
        assert bot["strength"] == listed["memory"]["strength"] >= 1
        # the leaderboard (1 rated game is enough on this server)
        board = (await other.get("/api/leaderboard", params={"class": "cards-2"})).json()
        assert [p["name"] for p in board["players"]] == ["Ann"]
        entry = board["players"][0]
        assert entry["rating"] == rating["rating"] and entry["games"] == 2
        assert entry["uncertainty"] == rating["uncertainty"]
        # signing out forgets this browser only
        r = await other.post("/api/logout", json={})
        assert r.status_code == 200
        assert (await other.get("/api/me")).json() == {"player": None}


def test_two_players_are_paired_and_both_rated(database: Database) -> None:
    with ServerProcess(database, bot_speed=40.0, round_pause=0.2, extra=FAST) as server:
        asyncio.run(_pair(server))


async def _pair(server: ServerProcess) -> None:
    async with browser(server) as ann, browser(server) as bo:
        await new_player(ann, "Ann")
        await new_player(bo, "Bo")
        a = await queue(ann, {"game": "cards", "players": 2, "preset": "house"})
        b = await queue(bo, {"game": "cards", "players": 2, "preset": "house"})
        ma, mb = await asyncio.gather(matched(ann, a["ticket"]), matched(bo, b["ticket"]))
        assert ma["table"] == mb["table"] and {ma["seat"], mb["seat"]} == {0, 1}
        # "Play with bots now" pressed just after people were found: too late, no error
        r = await bo.post("/api/queue/now", json={"ticket": b["ticket"]})
        assert r.status_code == 200 and r.json() == {k: mb[k] for k in r.json()}
        assert r.json()["state"] == "matched" and r.json()["table"] == mb["table"]
        # both from 127.0.0.1: seated together, but casual (never rated against each other)
        assert ma["rated"] is False
        summary = (await ann.get(f"/api/tables/{ma['table']}")).json()
        assert [s["kind"] for s in summary["seats"]] == ["human", "human"]
        await asyncio.gather(play_to_end(server, ma["table"], a["token"], seed=3),
                             play_to_end(server, mb["table"], b["token"], seed=4))
        for http in (ann, bo):
            me = (await http.get("/api/me")).json()["player"]
            profile = (await http.get(f"/api/players/{me['id']}")).json()
            assert len(profile["games"]) == 1 and profile["games"][0]["rated"] is False
            assert profile["ratings"] == {}


def test_leaving_a_rated_game_is_a_loss(database: Database) -> None:
    with ServerProcess(database, bot_speed=40.0, away_after=1.0, round_pause=0.2,
                       extra=FAST) as server:
        asyncio.run(_leave(server))


async def _leave(server: ServerProcess) -> None:
    async with browser(server) as ann:
        await new_player(ann, "Ann")
        joined = await queue(ann, {"game": "cards", "players": 3, "preset": "house"})
        match = await matched(ann, joined["ticket"], now=True)
        # plays a move of her own, then goes: away after 1 s, the bot plays the seat to the
        # end (a seat that never played would make the game void instead)
        client = Client(ws_url(server, match["table"], joined["token"]), play=True)
        await client.run(until=lambda c: any(m["event"]["seat"] == c.seat
                                             for m in c.of_type("update")), timeout=SLOW)
        for _ in range(600):
            summary = (await ann.get(f"/api/tables/{match['table']}")).json()
            if summary["status"] == "finished":
                break
            await asyncio.sleep(0.2)
        me = (await ann.get("/api/me")).json()["player"]
        game = (await ann.get(f"/api/players/{me['id']}")).json()["games"][0]
        assert game["forfeit"] is True and game["place"] == 3 and game["rated"] is True
        assert game["class"] == "cards-multi"
