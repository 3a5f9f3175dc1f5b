"""An engine's reason for refusing a move, as :class:`~.errors.Words` the page can translate.

The rules engines explain an illegal move in English built from public facts
(``cambio.cards.state``'s ``_why_illegal``, ``cambio.board``'s ``IllegalMoveError``, the
games' ``play``); they are the reference for terminals and records and are not touched here.
Each reason the page can meet is matched below and given its catalog key (``refusal.*`` in
``web/static/locales``), with the numbers it names as params. A reason not listed keeps its
English ``message`` and the page shows the ``illegal`` code's own words instead (never the
English text).
"""

from __future__ import annotations

import re

from .errors import Words

_REASONS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (key, re.compile(pattern)) for key, pattern in (
        # Either engine, and the table's own (a move between rounds).
        ("refusal.roundOver", r"the round is over|no round is being played"),
        ("refusal.gameOver", r"the game is over(: .*)?"),
        ("refusal.notYourTurn", r"it is seat \d+'s (move|setup choice)( \(\w+\))?"),
        # The card game.
        ("refusal.cambioCalled", r"Cambio has already been called this round"),
        ("refusal.cambioFromTurn", r"Cambio may be called from turn (?P<turn>\d+)"),
        ("refusal.cambioAtStart",
         r"Cambio can only be called at the start of your turn, before drawing"),
        ("refusal.noTake", r"these rules do not allow drawing from the discard pile"),
        ("refusal.mustSwap", r"a card taken from the discard pile must be swapped into your grid"),
        ("refusal.notNow", r"'.*' is not one of the moves allowed now \(\w+\)"),
        ("refusal.snapPollOnly", r"snaps are only offered in a snap poll .*"),
        ("refusal.snapBusy", r"no snapping while a power or a give is being resolved"),
        ("refusal.snapPollOther", r"the snap poll is asking seat \d+"),
        ("refusal.pileEmpty", r"the discard pile is empty"),
        ("refusal.snapClosed", r"the snap window is closed until the next discard"),
        ("refusal.snapOnlyLast", r"only seat \d+, who snapped last, may snap this card"),
        ("refusal.callerNoSnap", r"the caller may not snap"),
        ("refusal.snapNoCard", r"slot [\d.]+ holds no card that may be snapped"),
        # The dice game.
        ("refusal.passNotLegal", r"a pass is only legal when no push is"),
        ("refusal.pushOff", r"it would push seat \d+'s die off the board .*"),
    ))
"""Each reason's key and the whole text it matches; named groups are the key's params."""

KEYS = tuple(key for key, _ in _REASONS)
"""Every key :func:`illegal` may give (the catalogs must have them all)."""


def illegal(reason: str) -> str:
    """``reason`` as :class:`~.errors.Words` when it is one the page can say in its own
    words; else ``reason`` as it is."""
    for key, pattern in _REASONS:
        found = pattern.fullmatch(reason)
        if found:
            return Words(key, reason, {k: int(v) for k, v in found.groupdict().items()})
    return reason
