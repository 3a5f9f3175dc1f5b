"""A review of a record, whichever game it is: what ``cambio review`` and the server's
review workers (``cambio.server.reviews``) both run, so that a record downloaded from the
server and reviewed in the terminal with the same seat, budget and seed gives the same
review as the server's.

The searches (numba kernels) are imported when a review runs, not with this module:
the CLI and the server start without them (``tests/test_bot_registry.py``).
"""

from __future__ import annotations

import time
from typing import Any

from cambio.games import get_game
from cambio.records import board as board_records
from cambio.records import cards as cards_records
from cambio.records.jsonl import RecordError, parse_record

from .labels import Review


def review_result(result: object, seat: int, budget: int | None = None,
                  seed: int = 0, depth: int | None = None) -> Review:
    """The review of ``seat`` in a replayed record: ``budget`` is the card search's
    rollouts per decision, ``depth`` the dice search's plies (``None``: the game's
    default). Two settings, not one number read two ways: a small card budget (a quick
    review) must not turn into a dice search many plies deep."""
    if isinstance(result, cards_records.Result):
        from .cards import REVIEW_ROWS, review_round

        return review_round(result, seat, rows=budget or REVIEW_ROWS, seed=seed)
    if isinstance(result, board_records.Result):
        from .board import REVIEW_DEPTH, review_game

        return review_game(result, seat, depth=depth or REVIEW_DEPTH)
    raise RecordError(1, "only records of the card and dice games can be reviewed")


def review_record(text: str, seat: int, budget: int | None = None, seed: int = 0,
                  depth: int | None = None) -> Review:
    """The review of ``seat`` in a full record's text (``RecordError`` if it is not one)."""
    record = parse_record(text)
    try:
        game = get_game(record.game)
    except ValueError as exc:
        raise RecordError(1, str(exc)) from None
    return review_result(game.replay(record), seat, budget, seed, depth)


def review_job(text: str, seat: int, budget: int | None, seed: int,
               depth: int | None = None) -> tuple[dict[str, Any], float]:
    """A review worker's job (a process of its own: ``cambio.server.reviews``): the
    review of ``seat`` in the record ``text`` as ``cambio review --json`` prints it, and
    the CPU seconds it took."""
    start = time.process_time()
    review = review_record(text, seat, budget, seed, depth)
    return review.to_json(), time.process_time() - start


__all__ = ["review_job", "review_record", "review_result"]
