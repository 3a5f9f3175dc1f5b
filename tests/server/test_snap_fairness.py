"""Snap races on a slow link, over real WebSockets: Bo plays through a proxy that holds
every byte DELAY seconds each way, Ann plays direct. Both snap the same matching card; Ann's
snap reaches the server first, Bo's faster reaction arrives later.

With reaction reports Bo wins (the race is judged by reaction, server/snap_race.py);
without his report Ann wins (arrival order, the rule for clients that do not report). The
loser's snap is refused as a lost race, and nothing anyone is sent holds a reported time or a
card they had not seen (the whole game's messages go through the leak oracle).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import websockets

from ..support.databases import NewDatabase
from ..support.delay_proxy import DelayProxy
from .harness import ServerProcess, two_seat_table, ws_url
from .leaks import check_messages
from .test_play import fetch_rounds

DELAY = 0.3
"""Seconds Bo's proxy holds each chunk, each way."""
ANN_WAIT = 0.5
"""Ann snaps this long after she got the card: she reacts slower, on a quick link."""
NO_POWER = "A23456"
"""Ranks whose discard fires no power (a race on them needs no power resolved first)."""


@pytest.fixture(scope="module")
def fair_server(databases: NewDatabase) -> Iterator[ServerProcess]:
    # A long collection time: however loaded the machine, Bo's snap arrives inside it.
    proc = ServerProcess(databases("fair"), extra=["--snap-race", "3"]).start()
    try:
        yield proc
    finally:
        proc.stop()


class Player:
    """A raw WebSocket client: keeps every message, its latest view, and when it got each."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.version = -1
        self.seat: int | None = None
        self.got: dict[int, float] = {}
        self.pongs = 0
        self.changed = asyncio.Event()
        self.refs = 0

    async def read(self) -> None:
        async for raw in self.ws:
            msg = json.loads(raw)
            self.messages.append(msg)
            if msg["type"] == "welcome":
                self.seat = msg["seat"]
            elif msg["type"] in ("state", "update"):
                self.version, self.view = msg["version"], msg["view"]
                self.got[self.version] = time.monotonic()
            elif msg["type"] == "pong":
                self.pongs += 1
            self.changed.set()

    async def until(self, holds: Callable[[], bool]) -> None:
        while not holds():
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 30)

    async def past(self, version: int) -> None:
        while self.version <= version:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 30)

    async def ping(self, **extra: Any) -> None:
        seen = self.pongs
        await self.ws.send(json.dumps({"type": "ping", **extra}))
        while self.pongs == seen:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 30)

    async def measure(self) -> None:
        """Ping as the page does, then report the round trip it measured."""
        for _ in range(3):
            start = time.monotonic()
            await self.ping()
            await self.ping(rtt_ms=round((time.monotonic() - start) * 1000))

    async def act(self, action: str, **extra: Any) -> int:
        self.refs += 1
        await self.ws.send(json.dumps({"type": "act", "action": action,
                                       "version": self.version, "ref": self.refs, **extra}))
        return self.refs

    def turn(self) -> list[str]:
        return [a for a in self.view.get("legal", []) if not a.startswith("snap")]


def rank(code: str) -> str:
    return code[:-1]


def matching_slot(players: list[Player]) -> str | None:
    """A slot some player has seen holding the rank on top of the pile (a power-free one)."""
    view = players[0].view
    if view.get("window") != "anyone" or not view["discard"]:
        return None
    top = rank(view["discard"][-1])
    if top not in NO_POWER:
        return None
    for p in players:
        for seat, grid in enumerate(p.view["grids"]):
            for slot, code in enumerate(grid):
                if code not in ("?", "", None) and rank(code) == top:
                    return f"{seat}.{slot}"
    return None


async def in_step(players: list[Player]) -> None:
    version = max(p.version for p in players)
    for p in players:
        await p.past(version - 1)


def move(p: Player, end: bool) -> str:
    """A turn's action: draw, put the card where nothing known is lost, give, or call."""
    legal = p.turn()
    if end and "cambio" in legal:
        return "cambio"
    if "draw" in legal:
        return "draw"
    if "discard" in legal and rank(p.view["held"]) in NO_POWER:
        return "discard"
    own = p.view["grids"][p.seat]
    swaps = [a for a in legal if a.startswith("swap")]
    unseen = [a for a in swaps if own[int(a.split()[1])] == "?"]
    return (unseen or swaps or legal)[0]


async def play(players: list[Player], end: bool) -> str | None:
    """Play turns until a race is possible (its slot), or until the round is over."""
    for _ in range(400):
        await in_step(players)
        if players[0].view["phase"] in ("round_over", "over"):
            return None
        if not end and (slot := matching_slot(players)) is not None:
            return slot
        decider = next((p for p in players if p.turn()), None)
        assert decider is not None, players[0].view
        version = decider.version
        await decider.act(move(decider, end))
        await decider.past(version)
    raise AssertionError("no race came up")


async def race(server: ServerProcess, bo_reports: bool) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.base) as http, \
            DelayProxy(server.port, DELAY) as proxy:
        table, ann_token, bo_token = await two_seat_table(http, preset="wikipedia")
        bo_url = ws_url(server, table, bo_token).replace(f":{server.port}/", f":{proxy.port}/")
        async with websockets.connect(ws_url(server, table, ann_token)) as ann_ws, \
                websockets.connect(bo_url) as bo_ws:
            ann, bo = Player(ann_ws), Player(bo_ws)
            readers = [asyncio.create_task(p.read()) for p in (ann, bo)]
            players = [ann, bo]
            await ann.measure()
            await bo.measure()
            slot = await play(players, end=False)
            assert slot is not None
            version = ann.version
            # Ann reacts in ANN_WAIT on her quick link and sends first.
            await asyncio.sleep(max(0.0, ann.got[version] + ANN_WAIT - time.monotonic()))
            ann_ms = round((time.monotonic() - ann.got[version]) * 1000)
            ann_ref = await ann.act(f"snap {slot}", reaction_ms=ann_ms)
            # Bo got the card DELAY later and snapped as soon as he could: after Ann did,
            # so his snap reaches the server at least DELAY after hers.
            bo_ms = round((time.monotonic() - bo.got[version]) * 1000)
            assert bo_ms < ann_ms
            extra = {"reaction_ms": bo_ms} if bo_reports else {}
            bo_ref = await bo.act(f"snap {slot}", **extra)
            await ann.until(lambda: ann.view.get("last_snap") is not None)
            winner = ann.view["last_snap"]["seat"]
            loser = bo if winner == ann.seat else ann
            lost_ref = bo_ref if loser is bo else ann_ref
            await loser.until(lambda: any(m["type"] == "error" and m["ref"] == lost_ref
                                          for m in loser.messages))
            await play(players, end=True)  # to the reveal: the record replays in full
            rounds = await fetch_rounds(http, table)
            for task in readers:
                task.cancel()
        for p in players:
            check_messages(p.messages, p.seat, rounds)
            for m in p.messages:
                text = json.dumps(m)
                assert "reaction" not in text and "rtt" not in text, m
        lost = [m for m in loser.messages if m["type"] == "error" and m["ref"] == lost_ref]
        return {"winner": winner, "ann": ann.seat, "bo": bo.seat, "lost": lost,
                "ann_ms": ann_ms, "bo_ms": bo_ms}


def test_the_faster_reaction_wins_though_it_arrives_later(fair_server: ServerProcess
                                                          ) -> None:
    out = asyncio.run(race(fair_server, bo_reports=True))
    assert out["winner"] == out["bo"], out
    assert out["lost"][0]["code"] == "illegal"  # a lost race: refused, not a penalty


def test_without_a_report_arrival_order_decides(fair_server: ServerProcess) -> None:
    out = asyncio.run(race(fair_server, bo_reports=False))
    assert out["winner"] == out["ann"], out


def test_bad_reports_are_refused_and_change_nothing(fair_server: ServerProcess) -> None:
    async def run() -> list[dict[str, Any]]:
        async with httpx.AsyncClient(base_url=fair_server.base) as http:
            table, token, _ = await two_seat_table(http, preset="wikipedia")
            async with websockets.connect(ws_url(fair_server, table, token)) as ws:
                p = Player(ws)
                reader = asyncio.create_task(p.read())
                await p.until(lambda: p.version >= 0)
                for bad in ("fast", -1, 1 << 31, 1.5, True):
                    await ws.send(json.dumps({"type": "act", "action": "draw", "version": 0,
                                              "ref": 1, "reaction_ms": bad}))
                    await ws.send(json.dumps({"type": "ping", "rtt_ms": bad, "ref": 2}))
                await p.ping()
                reader.cancel()
                return p.messages

    messages = asyncio.run(run())
    errors = [m for m in messages if m["type"] == "error"]
    assert [m["code"] for m in errors] == ["bad_message"] * 10
    assert [m["ref"] for m in errors] == [1, 2] * 5
    assert not [m for m in messages if m["type"] == "update"]  # nothing was played
