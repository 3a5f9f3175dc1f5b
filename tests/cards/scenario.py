"""Hand-written card records for rule tests, in a compact form.

A scenario is turned into a real JSON Lines record (header with an explicit deck, one line per
action with the observations the author expects) and validated by the public
``cambio.records.cards.replay`` -- the same path ``cambio replay`` takes. So every rule test
is also a record test, and a wrong expectation fails with the record's line and reason.

Moves are written one per line: ``SEAT ACTION [key=value ...]``, e.g.::

    0 draw card=9S
    0 discard discarded=9S
    0 peek 1.0 card=2D
    1 snap 0.2 card=7C right=true

Values: ``true``/``false``; ``a,b`` is a list of card codes; anything else is a card code.
"""

from __future__ import annotations

from typing import Any

from cambio.cards import Rules, State
from cambio.records.cards import Result, make_header, replay
from cambio.records.jsonl import RecordError, dump_record, parse_record


def deck(grids: list[str], draws: str = "") -> list[str]:
    """Deck order, top first: seat 0's four cards, seat 1's, ..., then the draw pile."""
    out: list[str] = []
    for g in grids:
        cards = g.split()
        assert len(cards) == 4, g
        out += cards
    return out + draws.split()


LIST_KEYS = {"cards", "penalty"}


def _value(key: str, text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    if text.isdigit():
        return int(text)
    if "," in text or key in LIST_KEYS:
        return text.split(",")
    return text


def events(moves: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for raw in moves.strip().splitlines():
        line = raw.split("#")[0].strip()
        if not line:
            continue
        parts = line.split()
        seat = int(parts[0])
        words = [p for p in parts[1:] if "=" not in p]
        ev: dict[str, Any] = {"seat": seat, "action": " ".join(words)}
        for p in parts[1:]:
            if "=" in p:
                k, v = p.split("=", 1)
                ev[k] = _value(k, v)
        out.append(ev)
    return out


def record(preset: str, grids: list[str], draws: str = "", moves: str = "", *,
           polled: bool = False, seed: int = 0, dealer: int | None = None,
           end: dict[str, Any] | None = None, **overrides: Any) -> str:
    rules = Rules.preset(preset, **overrides)
    header = make_header(rules, len(grids), seed=seed, deck=deck(grids, draws), dealer=dealer,
                         polled=polled)
    evs = events(moves)
    if end is not None:
        evs.append({"end": end})
    return dump_record(header, evs)


def play(preset: str, grids: list[str], draws: str = "", moves: str = "", **kw: Any) -> State:
    """Replay a scenario and return the resulting state (raises on any mismatch)."""
    result: Result = replay(parse_record(record(preset, grids, draws, moves, **kw)))
    return result.state


def fails(preset: str, grids: list[str], draws: str = "", moves: str = "",
          **kw: Any) -> RecordError:
    """Replay a scenario that must be rejected; return the error (line and reason)."""
    text = record(preset, grids, draws, moves, **kw)
    try:
        replay(parse_record(text))
    except RecordError as exc:
        return exc
    raise AssertionError("the record was accepted:\n" + text)
