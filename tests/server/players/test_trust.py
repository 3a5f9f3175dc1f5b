"""Play now and ratings against people who game them, on a real server, on both stores:
clients that queue and leave in a loop from many addresses (the loopback's 127.0.0.x),
a player matched who never comes to the table, and one person farming a rating with a
throwaway identity per game -- whose seat never connects, or who plays a move and goes."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from ...support.databases import Database
from ..harness import Client, ServerProcess, ws_url
from .helpers import SLOW, browser, matched, new_player, play_now_game, play_to_end, queue

HEADS_UP = {"game": "cards", "players": 2, "preset": "house", "rated": True}


def opponent_moves(client: Client) -> list[dict[str, Any]]:
    """The updates of moves made at other seats than the client's (by a person or a bot)."""
    return [m for m in client.of_type("update") if m["event"]["seat"] != client.seat]


async def profile_of(http: httpx.AsyncClient) -> dict[str, Any]:
    me = (await http.get("/api/me")).json()["player"]
    found: dict[str, Any] = (await http.get(f"/api/players/{me['id']}")).json()
    return found


# ---------------------------------------------------------------------- Play now
def test_play_now_seats_only_players_who_are_there(database: Database) -> None:
    """The away timeout is ten minutes here, so only the seat grace (3 s) can bring a
    no-show's bot in: a player who got an opponent who never comes would wait for ever."""
    with ServerProcess(database, away_after=600.0, round_pause=0.2,
                       extra=["--queue-wait", "5", "--seat-grace", "3"]) as server:
        asyncio.run(_no_show(server))
        asyncio.run(_churn(server))


async def _no_show(server: ServerProcess) -> None:
    async with browser(server, "127.0.0.2") as bo, browser(server, "127.0.0.3") as ann:
        await new_player(bo, "Bo")
        await new_player(ann, "Ann")
        b = await queue(bo, HEADS_UP)
        a = await queue(ann, HEADS_UP)
        # Bo's page polls until he is matched, then he never comes to the table
        match = (await asyncio.gather(matched(ann, a["ticket"]), matched(bo, b["ticket"])))[0]
        summary = (await ann.get(f"/api/tables/{match['table']}")).json()
        assert [s["name"] for s in summary["seats"]] == ["Bo", "Ann"]
        client = await play_to_end(server, match["table"], a["token"])
        assert opponent_moves(client)  # Bo's bot played his seat
        # Bo's ticket was dropped: his page hears so, not "matched"
        r = await bo.get("/api/queue", params={"ticket": b["ticket"]})
        assert r.status_code == 409 and "did not come" in r.json()["error"]["message"]
        summary = (await ann.get(f"/api/tables/{match['table']}")).json()
        assert summary["seats"][0]["away"] is True
        # a game whose opponent never made a move is not rated, for either
        for http in (ann, bo):
            profile = await profile_of(http)
            game = profile["games"][0]
            assert game["table"] == match["table"] and game["rated"] is False
            assert game["void"] == "a player never made a move"
            assert game["void_code"] == "noMove"  # the page says it in its reader's words
            assert profile["ratings"] == {}


CHURNERS = 20
REAL = 3


async def _churn(server: ServerProcess) -> None:
    """20 addresses queue, poll once and leave, in a loop; meanwhile 3 real players press
    Play now. Each gets an opponent who moves (another real player, a bot, or a churner's
    seat given to its bot at once), and no game against a churner is rated."""
    stop = asyncio.Event()
    loops = [0]
    churners = [asyncio.create_task(_join_and_leave(server, f"127.0.0.{10 + i}", stop, loops))
                for i in range(CHURNERS)]
    try:
        while loops[0] < 2 * CHURNERS:  # the churn is under way
            await asyncio.sleep(0.05)
        games = await asyncio.gather(*(_real(server, f"127.0.0.{100 + i}", i)
                                       for i in range(REAL)))
    finally:
        stop.set()
        await asyncio.gather(*churners)
    assert loops[0] > 2 * CHURNERS
    for client, seats, game in games:
        assert client.status == "finished" and opponent_moves(client)
        people = [s["name"] for s in seats if s["kind"] == "human"]
        if "Churner" in people:
            assert game["rated"] is False and game["void"] == "a player never made a move"


async def _join_and_leave(server: ServerProcess, address: str, stop: asyncio.Event,
                          loops: list[int]) -> None:
    async with browser(server, address) as http:
        await new_player(http, "Churner")
        while not stop.is_set():
            r = await http.post("/api/queue", json=HEADS_UP)
            assert r.status_code == 201, r.text
            ticket = r.json()["ticket"]
            await http.get("/api/queue", params={"ticket": ticket})
            await asyncio.sleep(0.05)
            await http.request("DELETE", "/api/queue", params={"ticket": ticket})
            loops[0] += 1


async def _real(server: ServerProcess, address: str, n: int
                ) -> tuple[Client, list[dict[str, Any]], dict[str, Any]]:
    async with browser(server, address) as http:
        await new_player(http, f"Real {n}")
        joined = await queue(http, HEADS_UP)
        match = await matched(http, joined["ticket"])
        client = Client(ws_url(server, match["table"], joined["token"]), seed=n, play=True)
        await client.run(timeout=SLOW)
        seats = (await http.get(f"/api/tables/{match['table']}")).json()["seats"]
        game = (await profile_of(http))["games"][0]
        return client, seats, game


# ---------------------------------------------------------------------- ratings
FARMS = 5


def test_throwaway_identities_lift_no_rating(database: Database) -> None:
    """One person, one address; a new identity per game on a second address whose seat
    never connects (its player is away after 1 s and forfeits). Then two identities made
    from one address, queueing from two, who both play."""
    with ServerProcess(database, away_after=1.0, round_pause=0.2,
                       extra=["--queue-wait", "30", "--leaderboard-games", "1"]) as server:
        asyncio.run(_farm(server))
        asyncio.run(_same_origin(server))


async def _farm(server: ServerProcess) -> None:
    async with browser(server, "127.0.0.2") as farmer:
        me = await new_player(farmer, "Farmer")
        for n in range(FARMS):
            async with browser(server, "127.0.0.3") as throwaway:
                await new_player(throwaway, f"Throwaway {n}")
                t = await queue(throwaway, HEADS_UP)
                f = await queue(farmer, HEADS_UP)
                match = (await asyncio.gather(matched(farmer, f["ticket"]),
                                              matched(throwaway, t["ticket"])))[0]
                summary = (await farmer.get(f"/api/tables/{match['table']}")).json()
                assert [s["kind"] for s in summary["seats"]] == ["human", "human"]
                await play_to_end(server, match["table"], f["token"], seed=n)
        profile = await profile_of(farmer)
        assert len(profile["games"]) == FARMS
        assert all(g["rated"] is False and g["void"] == "a player never made a move"
                   for g in profile["games"])
        assert profile["ratings"] == {}  # moved by nothing
        board = (await farmer.get("/api/leaderboard", params={"class": "cards-2"})).json()
        assert me["id"] not in [p["id"] for p in board["players"]]
        # the control: a game against a bot is rated, and one such game is not enough to
        # be listed (provisional: too few distinct opponents)
        rated = await play_now_game(server, farmer)
        assert rated["rated"] is True
        profile = await profile_of(farmer)
        assert profile["games"][0]["rated"] is True
        assert profile["ratings"]["cards-2"]["games"] == 1
        assert profile["ratings"]["cards-2"]["opponents"] == 1
        assert profile["ratings"]["cards-2"]["provisional"] is True
        board = (await farmer.get("/api/leaderboard", params={"class": "cards-2"})).json()
        assert board["min_opponents"] == 3
        assert me["id"] not in [p["id"] for p in board["players"]]


async def _same_origin(server: ServerProcess) -> None:
    """Both identities made at 127.0.0.4; each then queues from an address of its own (a
    second network) and plays every move of its own: the game counts for neither."""
    async with browser(server, "127.0.0.4") as first, browser(server, "127.0.0.4") as second:
        await new_player(first, "Eve")
        await new_player(second, "Eve's other")
        jars = [first.cookies, second.cookies]
    async with browser(server, "127.0.0.5") as first, browser(server, "127.0.0.6") as second:
        first.cookies, second.cookies = jars
        a = await queue(first, HEADS_UP)
        b = await queue(second, HEADS_UP)
        ma, mb = await asyncio.gather(matched(first, a["ticket"]), matched(second, b["ticket"]))
        assert ma["table"] == mb["table"] and ma["rated"] is True
        await asyncio.gather(play_to_end(server, ma["table"], a["token"], seed=7),
                             play_to_end(server, mb["table"], b["token"], seed=8))
        for http in (first, second):
            profile = await profile_of(http)
            game = profile["games"][0]
            assert game["rated"] is False
            assert game["void"] == "two players' identities were made on one network"
            assert profile["ratings"] == {}


def test_a_newcomer_losing_on_purpose_lifts_nobody(database: Database) -> None:
    """Past provisional after one game here (1 game, 1 opponent). Each throwaway (a new
    identity made on an address of its own) comes, plays a move and goes (a forfeit after
    the 1 s away timeout): its loss counts for itself, and moves the farmer by nothing."""
    with ServerProcess(database, away_after=1.0, round_pause=0.2,
                       extra=["--queue-wait", "30", "--leaderboard-games", "1",
                              "--leaderboard-opponents", "1"]) as server:
        asyncio.run(_throwaways_that_play(server))


def own_move(client: Client) -> bool:
    return any(m["event"]["seat"] == client.seat for m in client.of_type("update"))


async def _throwaways_that_play(server: ServerProcess) -> None:
    async with browser(server, "127.0.0.2") as farmer:
        me = await new_player(farmer, "Farmer")
        await play_now_game(server, farmer)  # against a bot: counts, and establishes
        before = (await profile_of(farmer))["ratings"]["cards-2"]
        assert before["games"] == 1 and before["provisional"] is False
        board = (await farmer.get("/api/leaderboard", params={"class": "cards-2"})).json()
        assert [p["id"] for p in board["players"]] == [me["id"]]
        for n in range(3):
            async with browser(server, f"127.0.0.{20 + n}") as throwaway:
                await new_player(throwaway, f"Throwaway {n}")
                t = await queue(throwaway, HEADS_UP)
                f = await queue(farmer, HEADS_UP)
                match = (await asyncio.gather(matched(farmer, f["ticket"]),
                                              matched(throwaway, t["ticket"])))[0]
                assert match["rated"] is True
                goes = Client(ws_url(server, match["table"], t["token"]), seed=n, play=True)
                _, played = await asyncio.gather(
                    goes.run(until=own_move, timeout=SLOW),
                    play_to_end(server, match["table"], f["token"], seed=n))
                assert own_move(goes)
                assert opponent_moves(played)
                theirs = await profile_of(throwaway)
                lost = theirs["games"][0]
                assert lost["rated"] is True and lost["forfeit"] is True
                assert theirs["ratings"]["cards-2"]["provisional"] is False  # 1 game here
        profile = await profile_of(farmer)
        assert profile["ratings"]["cards-2"] == before
        assert [g["void"] for g in profile["games"][:3]] == ["an opponent was still "
                                                             "provisional"] * 3
        assert not any(g["rated"] for g in profile["games"][:3])
