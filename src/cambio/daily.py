"""The daily deal's calendar: which day it is (UTC), and the terminal's deal of a day.

A day is a UTC date, ``YYYY-MM-DD``: everyone's deal changes at the same moment wherever
they are. The server's daily deal (``cambio.server.daily``) draws each day's seed at random
and keeps it secret; the terminal's (``cambio daily``) has a public seed derived from the
day, the same on every machine -- a deal to play along with friends, not one whose results
anyone keeps.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from .seeds import derive_seed

TERMINAL_SEED = 20261205
"""The root of the terminal's daily seeds (public: changing it changes every day's deal)."""


def utc_day(now: datetime | None = None) -> str:
    """The day ``now`` falls on in UTC (default: today)."""
    return (now or datetime.now(UTC)).astimezone(UTC).date().isoformat()


def parse_day(text: str) -> str:
    """A day as ``YYYY-MM-DD``; ``ValueError`` for anything else."""
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise ValueError(f"{text!r} is not a day (YYYY-MM-DD)") from None


def terminal_seed(game: str, day: str) -> int:
    """The seed of ``day``'s terminal deal of ``game``."""
    return derive_seed(TERMINAL_SEED, "daily", game, parse_day(day))


__all__ = ["TERMINAL_SEED", "parse_day", "terminal_seed", "utc_day"]
