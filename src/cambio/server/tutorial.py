"""The first-game tutorials (``POST /api/tutorial``): a private table against a bot, dealt
from a fixed seed (the card game's from a scripted deck), so that every newcomer gets the
same cards (or dice) and the web client's guidance (``web/static/tutorial_cards.js``,
``tutorial_dice.js``) can count on what comes up. The real engine plays it: the script
chooses only the order of the deck.

The fixed deal is the server's choice, never a caller's (``/api/tables`` takes no seed), and
it changes nothing about what a client is told: the tutorial's seat gets its normal view.
The guidance says only what that view shows; what it knows in advance ("a power card comes
up on your first draw") comes from this deal being fixed, which
``tests/server/test_tutorial.py`` checks against the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
    extra: dict[str, Any] = field(default_factory=dict)
    """Server-only config: the card tutorial's scripted deck (never shown to a client)."""


CARD_DECK = ["AC", "6D", "QC", "3D", "4D", "KC", "QD", "9C",   # the deal: you, then the bot
             "2C", "3C", "8H", "6S", "TH", "4C", "JH", "5H", "2D", "KS", "6C", "4H"]
"""The card tutorial's deck top, top card first. Two players, house rules, against the tutor
bot (it draws and discards, every turn), so each card below reaches whom it is meant for
while the newcomer plays as shown (a card a wrong snap takes is counted in). Your draws,
then the bot's discards:

- the 2C: lower than your QC (12), swapped in (card values);
- the bot's 3C: a snap of your own 3D;
- the 8H: a power, peek at a card of yours;
- the TH: a power, peek at one of the bot's cards (its card 1, the 4D);
- the bot's 4C: a snap of the bot's card you saw, then you give it one of yours;
- the JH: a power, switch two cards;
- the bot's 5H: matches no card you have seen: a guess at the bot's card 2 is a wrong snap,
  and the 2D comes to you face down as its penalty;
- the KS: the king's power, look at two cards and switch two;
- then your cards are few and low: you call Cambio, the bot's last turn, and you win.

``tests/server/test_tutorial.py`` plays exactly this through the engine."""

TUTORIALS: dict[str, Tutorial] = {
    "cards": Tutorial({"game": "cards", "players": 2, "rounds": 1,
                       "rules": {"preset": "house", "overrides": {}}}, "tutor", 2796872,
                      {"deck": CARD_DECK}),
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
        game, create, name, seed=tutorial.seed, extra={"tutorial": True, **tutorial.extra})
    await table.call(table.start, tutorial.bot)
    return JSONResponse({"table": table.id, "seat": 0, "token": token, "started": True},
                        status_code=201)
