"""The first-game tutorials: ``POST /api/tutorial`` deals a fixed game
against a bot, the same for every newcomer, and tells the seat only its normal view."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
import websockets

from cambio.bots.cards.tutor import TutorBot
from cambio.cards import EMPTY, card_code, observe, parse_action
from cambio.seeds import derive_seed
from cambio.server.games import game_kinds
from cambio.server.turn_session import SHOWN_HEADER, TurnSession
from cambio.server.tutorial import CARD_DECK, TUTORIALS
from tests.support.cards_table import card_state

from .harness import ServerProcess, recv_until, ws_url

TAUGHT = [  # the newcomer as the guidance leads; None: the tutor bot's turn
    "draw", "swap 2", None,                      # the 2C in for the QC; the bot's 3C
    "snap 0.3", "draw", "discard", "peek 0.0", None,   # your own 3D; the 8H: a peek of yours
    "draw", "discard", "peek 1.0", None,         # the TH: a peek at the bot's 4D; its 4C
    "snap 1.0", "give 1", "draw", "discard", "switch 1.1 1.2", None,  # snap, give; the JH
    "snap 1.1", "draw", "discard", "look 1.2 1.3", "switch 1.2 1.3", None,  # a guess; the KS
    "cambio", None,
]


def test_the_scripted_deal_teaches_every_move_through_the_engine() -> None:
    """``tutorial_cards.js`` teaches each move when the table shows its chance, and the deck
    is scripted so that each comes up in the order the tutorial says: the engine plays it
    here, against the tutor bot, move by move."""
    tutorial = TUTORIALS["cards"]
    kind = game_kinds()["cards"]
    config = {**kind.config(tutorial.body)[1], **tutorial.extra}
    session = kind.session(2, config, "t", derive_seed(tutorial.seed, "game", 1), 1)
    assert isinstance(session, TurnSession)
    header = session.next_header([{"name": "a"}, {"name": "b"}], "t")
    session.deal(header)
    st = card_state(session)
    assert st.current_player() == 0
    assert [card_code(c) for c in st.grids[0]] == ["AC", "6D", "QC", "3D"]
    bot = TutorBot()
    happened: list[tuple[str, object]] = []
    for move in TAUGHT:
        if move is None:
            while st.current_player() == 1 and not st.is_over():
                st.apply(bot.act(observe(st, 1)), 1)
            continue
        action = parse_action(move)
        assert action in st.legal_actions(0), (move, happened)
        pile = card_code(st.pile[-1]) if st.pile else None
        st.apply(action, 0)
        happened.append((move, pile))
        if move.startswith("snap"):
            assert st.last_snap is not None
            assert st.last_snap[3] is (move != "snap 1.1"), move   # right, right, wrong
    assert ("snap 0.3", "3C") in happened and ("snap 1.0", "4C") in happened
    assert ("snap 1.1", "5H") in happened
    assert st.is_over() and st.winners() == [0], st.scores()
    assert [card_code(c) for c in st.grids[0] if c != EMPTY] == ["AC", "2C", "2D"]
    # The stored header carries the deck, so a replay or a restarted server deals it again,
    # and the replay viewer is never sent it.
    assert header["deck"] == list(CARD_DECK)
    assert "deck" not in SHOWN_HEADER and "deck" not in kind.listing(config)


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
                assert "deck" not in str(summary)          # the script is the server's
                assert [(s["kind"], s["bot"]) for s in summary["seats"]] \
                    == [("human", None), ("bot", "tutor")]
                async with websockets.connect(ws_url(server, made["table"], made["token"])) \
                        as ws:
                    views.append((await recv_until(ws, "state"))["view"])
            # Every newcomer: the same two cards seen at the deal, nothing more.
            for view in views:
                assert view["grids"][0][2:] == ["QC", "3D"]
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
