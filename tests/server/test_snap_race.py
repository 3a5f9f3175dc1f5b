"""How a snap race is judged, on numbers (server/snap_race.py): a reported reaction is
bounded by what the server measured, a snap without one keys on its arrival, and a race is
held only while someone could still win it by reaction."""

from __future__ import annotations

import pytest

from cambio.server.snap_race import (
    MIN_REACTION_MS,
    RTT_CAP_MS,
    SLACK_MS,
    Latency,
    Race,
    Referee,
    reaction_key,
)


def test_without_a_report_the_key_is_the_arrival() -> None:
    arrivals = [120.0, 480.0, 90.0, 1300.0]
    keys = [reaction_key(e, 300.0, None) for e in arrivals]
    assert keys == arrivals  # arrival order, whatever the round trip


def test_a_faster_reaction_on_a_slower_link_gets_the_lower_key() -> None:
    # Ann: a quick link, reacted in 500 ms, arrived 510 ms after the card was sent.
    ann = reaction_key(510.0, 10.0, 500)
    # Bo: 600 ms of round trip, reacted in 150 ms, arrived 760 ms after.
    bo = reaction_key(760.0, 600.0, 150)
    assert (ann, bo) == (500.0, 150.0)


def test_a_report_is_never_faster_than_a_person() -> None:
    assert reaction_key(900.0, 100.0, 3) == MIN_REACTION_MS


def test_a_report_is_never_slower_than_the_estimate_allows() -> None:
    # estimate = 2000 - 500 = 1500: a claim of 1950 counts as 1500 + SLACK_MS
    assert reaction_key(2000.0, 500.0, 1950) == 1500.0 + SLACK_MS
    assert reaction_key(2000.0, 500.0, 1800) == 1800.0


def test_nobody_reacted_before_the_card_was_sent() -> None:
    # A claim of 300 ms for a snap that arrived 200 ms after the card left the server.
    assert reaction_key(200.0, 0.0, 300) == 200.0
    assert reaction_key(-5.0, 0.0, None) == 0.0


def test_a_huge_round_trip_counts_as_the_cap() -> None:
    # rtt 5000 counts as RTT_CAP_MS: estimate 3000 - 600, so a claim of 2900 stays 2800.
    assert reaction_key(3000.0, 5000.0, 2900) == 3000.0 - RTT_CAP_MS + SLACK_MS
    assert reaction_key(3000.0, None, 2900) == 2900.0


def test_the_round_trip_estimate_moves_toward_samples() -> None:
    lat = Latency()
    assert lat.rtt_ms is None and not lat.reports
    lat.sample(100)
    assert lat.rtt_ms == 100.0 and lat.reports
    lat.sample(200)
    assert lat.rtt_ms == pytest.approx(140.0)  # 0.6 * 100 + 0.4 * 200
    lat.sample(60_000)
    assert lat.rtt_ms == pytest.approx(0.6 * 140.0 + 0.4 * RTT_CAP_MS)


def test_a_race_orders_by_key_then_arrival() -> None:
    race: Race[str] = Race(window=7)
    for key, name in ((500.0, "ann"), (150.0, "bo"), (500.0, "cy"), (149.0, "di")):
        race.add(key, name)
    assert race.order() == ["di", "bo", "ann", "cy"]


def test_nothing_is_held_unless_a_rival_reports() -> None:
    ref: Referee[str] = Referee(0.15)
    ref.shown(3, now=10.0)
    assert not ref.take(3, "ann", 400.0, rivals=False)
    assert ref.race is None
    assert ref.take(3, "ann", 400.0, rivals=True)       # opens a race
    assert ref.take(3, "bot", 900.0, rivals=False)      # joins it, rivals or not
    assert ref.take(3, "bo", 150.0, rivals=True)
    assert ref.close() == ["bo", "ann", "bot"]
    assert ref.race is None and ref.close() == []


def test_held_snaps_apply_at_once_while_judged_and_without_a_window() -> None:
    ref: Referee[str] = Referee(0.15)
    ref.judging = True
    assert not ref.take(3, "ann", 1.0, rivals=True)
    ref.judging = False
    assert not ref.take(None, "ann", 1.0, rivals=True)
    assert not Referee[str](0.0).take(3, "ann", 1.0, rivals=True)  # races turned off


def test_elapsed_counts_from_when_the_window_was_first_shown() -> None:
    ref: Referee[str] = Referee(0.15)
    ref.shown(4, now=10.0)
    ref.shown(4, now=11.0)  # a later update of the same window does not restart it
    assert ref.elapsed_ms(4, 10.5) == pytest.approx(500.0)
    assert ref.elapsed_ms(5, 10.5) == 0.0
    ref.shown(5, now=12.0)
    assert ref.elapsed_ms(5, 12.25) == pytest.approx(250.0)


def test_the_wait_covers_the_slowest_rivals_round_trip() -> None:
    ref: Referee[str] = Referee(0.15)
    assert ref.wait([]) == pytest.approx(0.15)
    assert ref.wait([None, 80.0, 300.0]) == pytest.approx(0.45)
    assert ref.wait([5000.0]) == pytest.approx(0.15 + RTT_CAP_MS / 1000)
