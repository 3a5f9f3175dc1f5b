"""The table core on its own: no store, no socket, no event loop. What it decides -- a seat's
action accepted or refused, the bots' timers to set and call off, whose move a fired timer
is, the summary -- is what both the served table and the solo table then carry out."""

from __future__ import annotations

import json

from cambio.cards import Rules
from cambio.server.session import SNAP_DELAY, TURN_DELAY, Applied
from cambio.server.solo import SoloTable
from cambio.server.store import SeatRow
from cambio.server.table.seats import Seats
from cambio.server.table_core import (
    BotPlan,
    Refusal,
    arrival,
    catch_up,
    judge_act,
    judge_hint,
    table_summary,
)
from cambio.server.turn_session import TurnSession
from tests.support.cards_table import card_session


def dealt(seed: int = 3) -> TurnSession:
    s = card_session(Rules.preset("rulebook"), 2, seed)
    s.deal(s.next_header([{"name": "a"}, {"name": "b"}], "now"))
    return s


def test_an_act_is_applied_or_refused_with_the_protocols_codes() -> None:
    s = dealt()
    seat = s.decider()
    assert seat is not None
    assert judge_act(s, "playing", None, None, "draw", 0) == Refusal(
        "forbidden", "spectators cannot act; join a seat first")
    halted = judge_act(s, "playing", "disk full", seat, "draw", 0)
    assert isinstance(halted, Refusal) and halted.code == "server_error"
    assert judge_act(None, "waiting", None, seat, "draw", 0) == Refusal(
        "not_playing", "the table is waiting")
    stale = judge_act(s, "playing", None, seat, "draw", 3)
    assert isinstance(stale, Refusal) and stale.code == "stale" and stale.counts
    wrong = judge_act(s, "playing", None, 1 - seat, "draw", 0)
    assert isinstance(wrong, Refusal) and wrong.code == "illegal" and wrong.counts
    lost_race = judge_act(s, "playing", None, seat, "snap 0.9", 0)
    assert isinstance(lost_race, Refusal) and lost_race.code == "illegal"
    assert not lost_race.counts  # a snap refused is play, not abuse
    assert s.version == 0  # nothing refused changed anything
    applied = judge_act(s, "playing", None, seat, "draw", 0)
    assert isinstance(applied, Applied) and applied.version == 1 and s.version == 1


def test_the_bot_plan_times_the_deciding_bot_and_calls_off_what_is_no_longer_due() -> None:
    s = dealt()
    seat = s.decider()
    assert seat is not None
    plan = BotPlan(speed=2.0)
    plan.seat(99)
    arm, cancel = plan.follow(s, lambda x: x == seat, think=0.1)
    assert cancel == [] and len(arm) == 1
    low, high = TURN_DELAY
    assert low / 2 - 0.1 <= arm[0].delay <= high / 2 - 0.1
    assert plan.follow(s, lambda x: x == seat) == ([], [])  # already timed
    # The seat is a person's again: its timer is called off, and firing it does nothing.
    arm2, cancel2 = plan.follow(s, lambda x: False)
    assert arm2 == [] and cancel2 == [arm[0].id]
    assert plan.ready(arm[0].id, s, lambda x: True) is None


def test_a_fired_timer_says_whose_move_it_is_and_the_delays_repeat_with_the_seed() -> None:
    def delays(game_seed: int) -> list[float]:
        s = dealt()
        plan = BotPlan(speed=1.0)
        plan.seat(game_seed)
        out: list[float] = []
        while not s.round_over() and len(out) < 30:
            arm, _ = plan.follow(s, lambda x: True)
            out += [a.delay for a in arm]
            timer = plan.turn[1] if plan.turn else next(iter(plan.polls.values()))
            due = plan.ready(timer, s, lambda x: True)
            assert due is not None  # each fired in the state that timed it
            if due.snap:
                # A bot looks once per window: no second look is timed for this one.
                again, _ = plan.follow(s, lambda x: True)
                assert again == []
            else:
                legal = [a for a in s.view(due.seat)["legal"] if not a.startswith("snap")]
                s.play(due.seat, legal[0], s.version)
                plan.moved(due.seat)
        return out

    assert delays(5) == delays(5)
    assert delays(5) != delays(6)
    assert all(min(TURN_DELAY[0], SNAP_DELAY[0]) <= d <= max(TURN_DELAY[1], SNAP_DELAY[1])
               for d in delays(5))


def test_both_tables_send_the_same_summary_fields() -> None:
    solo = SoloTable(json.dumps({"seed": 1, "bots": ["random"]})).summary()
    served = table_summary("t", "cards", 2, {"rules": {}, "rounds": 1}, "waiting", [], 0,
                           None, "now", None, {}, [], None)
    assert set(solo) == set(served) | {"solo"}
    seats = Seats(2, [SeatRow(0, "human", "Ann", None, "h0")]).public()
    assert [set(x) for x in solo["seats"]] == [set(x) for x in seats]  # one seat format
    assert solo["private"] is True and solo["table_name"] == "Solo game"
    assert served["round"] == 0 and served["result"] is None


def test_a_sync_gets_the_updates_it_missed_or_the_whole_state() -> None:
    s = dealt()
    for _ in range(3):
        seat = s.decider()
        assert seat is not None
        legal = [a for a in s.view(seat)["legal"] if not a.startswith("snap")]
        s.play(seat, "draw" if "draw" in legal else legal[0], s.version)
    missed = catch_up(s, 0, 1, 1, 1, 1, limit=64)
    assert [(m["type"], m["version"]) for m in missed] == [("update", 2), ("update", 3)]
    assert all(m["view"] == s.view(0) for m in missed)  # each with the current view
    assert catch_up(s, 0, 3, 1, 1, 1, limit=64) == []
    for since, game_no, round_no, limit in ((1, 1, 1, 1), (0, 2, 1, 64), (0, None, None, 64),
                                            (5, 1, 1, 64)):
        whole = catch_up(s, 0, since, game_no, round_no, 1, limit)
        assert [m["type"] for m in whole] == ["state"]


def test_the_solo_table_answers_a_sync_as_a_server_table() -> None:
    table = SoloTable(json.dumps({"seed": 2, "bots": ["random"]}))
    table.welcome()
    s = table.session
    while s.version < 2:
        if s.decider() == 0:
            legal = [a for a in s.view(0)["legal"] if not a.startswith("snap")]
            table.act(legal[-1], s.version)
        else:
            table.fire(table.plan.turn[1] if table.plan.turn else
                       next(iter(table.plan.polls.values())))
    answer = json.loads(table.sync(1, 1, 1))["messages"]
    assert [m["version"] for m in answer] == list(range(2, s.version + 1))
    assert [m["type"] for m in json.loads(table.sync())["messages"]] == ["state"]


def test_an_arriving_connection_gets_the_welcome_then_the_state_once_dealt() -> None:
    undealt = card_session(Rules.preset("rulebook"), 2, 1)
    before = arrival(None, {"id": "t"}, undealt, 1)
    assert [(m["type"], m["round"]) for m in before] == [("welcome", 0)]
    assert [m["type"] for m in arrival(1, {"id": "t"}, None, 0)] == ["welcome"]
    s = dealt()
    welcome, state = arrival(1, {"id": "t"}, s, 1)
    assert welcome["type"] == "welcome" and welcome["seat"] == 1 and welcome["protocol"] == 2
    assert state["type"] == "state" and state["view"] == s.view(1) and state["round"] == 1


def test_a_hint_is_for_a_seat_at_a_game_in_play_that_gives_them() -> None:
    s = dealt()
    assert judge_hint(s, "playing", None) == Refusal(
        "forbidden", "spectators get no hints; join a seat first")
    for status, session in (("waiting", None), ("finished", s)):
        refused = judge_hint(session, status, 0)
        assert refused is not None and refused.code == "not_playing"
    assert judge_hint(s, "playing", 0) is None  # the card game gives hints: search
    solo = SoloTable(json.dumps({"seed": 1, "bots": ["random"]}))
    offline = json.loads(solo.hint("h"))["messages"][0]
    assert offline["code"] == "not_playing" and "server" in offline["message"]
