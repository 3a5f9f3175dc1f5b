"""The first-game tutorials: ``POST /api/tutorial`` deals a fixed game
against a bot, the same for every newcomer, and tells the seat only its normal view."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
import websockets

from cambio.cards import card_code
from cambio.seeds import derive_seed
from cambio.server.games import game_kinds
from cambio.server.turn_session import TurnSession
from cambio.server.tutorial import TUTORIALS
from tests.support.cards_table import card_state

from .harness import ServerProcess, recv_until, ws_url


def test_the_card_deal_is_the_one_the_guidance_counts_on() -> None:
    """``tutorial_cards.js`` says what comes up (a power on the first draw, a snap of your
    card 4, then another power) because the deal is fixed: pin those facts."""
    tutorial = TUTORIALS["cards"]
    kind = game_kinds()["cards"]
    config = {**kind.config(tutorial.body)[1]}
    session = kind.session(2, config, "t", derive_seed(tutorial.seed, "game", 1), 1)
    assert isinstance(session, TurnSession)
    session.deal(session.next_header([{"name": "a"}, {"name": "b"}], "t"))
    st = card_state(session)
    assert st.current_player() == 0
    assert [card_code(c) for c in st.grids[0]] == ["2S", "AD", "3D", "4C"]
    draws = [card_code(c) for c in reversed(st.deck[-4:])]
    assert draws == ["8H", "4S", "4D", "JD"]     # you, the bot, you, the bot
    assert [card_code(c) for c in st.grids[1]] == ["AH", "3C", "2C", "QD"]


async def _tutorial(http: httpx.AsyncClient, game: str) -> dict[str, Any]:
    made = await http.post("/api/tutorial", json={"game": game, "name": "Ann"})
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    assert body["seat"] == 0 and body["started"] is True
    return body


def test_tutorial_tables_are_private_fixed_and_tell_only_the_normal_view(
        server: ServerProcess) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            views = []
            tutorials = []
            for _ in range(2):
                made = await _tutorial(http, "cards")
                tutorials.append(made["table"])
                summary = (await http.get(f"/api/tables/{made['table']}")).json()
                assert summary["tutorial"] is True and summary["private"] is True
                assert summary["clock"] is None and summary["status"] == "playing"
                assert [(s["kind"], s["bot"]) for s in summary["seats"]] \
                    == [("human", None), ("bot", "easy")]
                async with websockets.connect(ws_url(server, made["table"], made["token"])) \
                        as ws:
                    views.append((await recv_until(ws, "state"))["view"])
            # Every newcomer: the same two cards seen at the deal, nothing more.
            for view in views:
                assert view["grids"][0][2:] == ["3D", "4C"]
                assert not any(isinstance(c, str) and c[0] in "A23456789TJQK" and len(c) == 2
                               for c in view["grids"][0][:2] + view["grids"][1])
                assert "deck_order" not in view and view["actor"] == 0
            assert views[0]["grids"] == views[1]["grids"]
            # Private: never in the lobby (the server is shared with other tests' tables).
            listed = {t["id"] for t in (await http.get("/api/tables")).json()["tables"]}
            assert not listed & set(tutorials)
            # The dice tutorial: the same start every time, against Random.
            dice = [await _tutorial(http, "board") for _ in range(2)]
            starts = []
            for made in dice:
                summary = (await http.get(f"/api/tables/{made['table']}")).json()
                assert summary["tutorial"] is True and summary["game"] == "board"
                assert [s["bot"] for s in summary["seats"]] == [None, "random"]
                async with websockets.connect(ws_url(server, made["table"], made["token"])) \
                        as ws:
                    starts.append((await recv_until(ws, "state"))["view"]["position"])
            assert starts[0] == starts[1]
            # A plain table is no tutorial and gets its own deal.
            plain = await http.post("/api/tables", json={
                "game": "cards", "name": "Bo", "players": 2, "seed": TUTORIALS["cards"].seed})
            assert plain.status_code == 201, plain.text
            assert (await http.get(f"/api/tables/{plain.json()['table']}")).json()[
                "tutorial"] is False

    asyncio.run(scenario())


@pytest.mark.parametrize("game", ["chess", 3, None])
def test_a_tutorial_of_no_game_is_refused(server: ServerProcess, game: object) -> None:
    with httpx.Client(base_url=server.base, timeout=30) as http:
        before = http.get("/api/tables").json()
        r = http.post("/api/tutorial", json={"game": game, "name": "Ann"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
        assert http.get("/api/tables").json() == before
