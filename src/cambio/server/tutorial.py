"""The first-game tutorials (``POST /api/tutorial``): a private table against a bot, dealt
from a fixed seed, so that every newcomer gets the same cards (or dice) and the web client's
guidance (``web/static/tutorial_cards.js``, ``tutorial_dice.js``) can count on what comes up.

The fixed deal is the server's choice, never a caller's (``/api/tables`` takes no seed), and
it changes nothing about what a client is told: the tutorial's seat gets its normal view.
The guidance says only what that view shows; what it knows in advance ("a power card comes
up on your first draw") comes from this deal being fixed, which
``tests/server/test_tutorial.py`` checks against the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .errors import ProtocolError
from .lobby import display_name, endpoint, read_body, server_of


@dataclass(frozen=True)
class Tutorial:
    """One game's tutorial table: what it is created with, its bot and its seed."""

    body: dict[str, Any]
    bot: str
    seed: int
    """The table's seed: game 1 is dealt from ``derive_seed(seed, "game", 1)``."""


TUTORIALS: dict[str, Tutorial] = {
    # Two players, house rules, one round against Easy. You: 2♠ A♦ / 3♦ 4♣ (you see the
    # 3♦ and the 4♣ at the deal). The deck, while nobody takes from the pile or draws a
    # penalty card: 8♥ for you (a power: peek at one of your cards), 4♠ for the bot, 4♦
    # for you (a snap of your card 4 either way), the J♦ for the bot (a power it uses). A
    # low hand: calling Cambio early is right, and the newcomer can win.
    "cards": Tutorial({"game": "cards", "players": 2, "rounds": 1,
                       "rules": {"preset": "house", "overrides": {}}}, "easy", 2796872),
    # Two players, the quick setup, against the Random bot (a newcomer can beat it).
    "board": Tutorial({"game": "board", "players": 2, "setup": "quick"}, "random", 7),
}


@endpoint
async def start_tutorial(request: Request) -> Response:
    """``{"game": "cards" | "board", "name": ...}``: a new private, clockless tutorial table
    with the caller in seat 1 against the tutorial's bot, dealt at once."""
    body = await read_body(request)
    game = body.get("game", "cards")
    tutorial = TUTORIALS.get(game) if isinstance(game, str) else None
    if tutorial is None:
        raise ProtocolError("bad_request", f"\"game\" must be one of {sorted(TUTORIALS)}")
    name = display_name(body, "Player")
    create = {**tutorial.body, "table_name": "Tutorial", "private": True, "clock": None}
    table, token = await server_of(request).create(
        game, create, name, seed=tutorial.seed, extra={"tutorial": True})
    await table.call(table.start, tutorial.bot)
    return JSONResponse({"table": table.id, "seat": 0, "token": token, "started": True},
                        status_code=201)
