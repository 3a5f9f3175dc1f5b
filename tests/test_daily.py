"""The daily deal's calendar and ``cambio daily``: one deal a day (UTC), the same on every
machine, another the next day."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone

import pytest

from cambio.daily import parse_day, terminal_seed, utc_day

CAMBIO = [sys.executable, "-m", "cambio.cli.main", "daily"]


def test_a_day_is_a_utc_date():
    late = datetime(2026, 12, 5, 23, 59, 59, tzinfo=UTC)
    assert utc_day(late) == "2026-12-05"
    assert utc_day(late + timedelta(seconds=1)) == "2026-12-06"
    assert utc_day(datetime(2026, 12, 6, 1, 0, tzinfo=timezone(timedelta(hours=2)))) \
        == "2026-12-05"
    assert parse_day("2026-12-05") == "2026-12-05"
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        parse_day("tomorrow")


def test_one_seed_a_day_and_game():
    assert terminal_seed("cards", "2026-12-05") == terminal_seed("cards", "2026-12-05")
    assert terminal_seed("cards", "2026-12-05") != terminal_seed("cards", "2026-12-06")
    assert terminal_seed("cards", "2026-12-05") != terminal_seed("board", "2026-12-05")


def opening(day: str, game: str = "cards") -> list[str]:
    """What ``cambio daily`` shows before its first question (the input ends there)."""
    done = subprocess.run([*CAMBIO, "--game", game, "--day", day], input="",
                          capture_output=True, text=True, timeout=120, check=False)
    assert "Traceback" not in done.stderr
    return [line for line in done.stdout.splitlines() if "seed" in line or "peek" in line]


def test_the_same_deal_all_day_and_another_the_next():
    today = opening("2026-12-05")
    assert len(today) == 2 and "seed" in today[0] and "peek" in today[1]
    assert opening("2026-12-05") == today
    assert opening("2026-12-06") != today


def test_a_bad_day_is_refused():
    done = subprocess.run([*CAMBIO, "--day", "someday"], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 2 and "YYYY-MM-DD" in done.stderr
