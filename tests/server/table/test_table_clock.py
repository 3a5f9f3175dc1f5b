"""The turn clock without I/O (:class:`cambio.server.clock.TableClock`) on a time the test
sets: told the table's state, a stored decision or its timer firing, it says what to store,
what to send, which timer to set and whose bot plays -- one timer per decision, a new
decision re-arms it, timeouts in a row mark a seat away (not at a correspondence table),
a correspondence decision's deadline is stored once and kept across a reload, and a table
that forfeits says so."""

from __future__ import annotations

from typing import Any

from cambio.server.clock import Deadline, Decision, Forfeit, TableClock


class Now:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def clock(now: Now, **config: Any) -> TableClock:
    return TableClock(config, strikes=2, now=now)


def test_a_decision_arms_one_timer_and_a_new_one_rearms_it() -> None:
    now = Now()
    c = clock(now, clock=10)
    fx = c.follow((1, 1, 1, 0, None))
    assert fx.arm == (Decision(1, 1, 1, 0), 10) and fx.cancel and fx.store == []
    assert fx.send is not None and (fx.send["seat"], fx.send["left"]) == (1, 10)
    assert fx.send["deadline"] == 1010
    now.t += 4
    assert c.follow((1, 1, 1, 1, 0)) == type(fx)()  # another seat's snap: nothing to do
    fx = c.follow((0, 1, 1, 2, 1))                   # seat 0 decides: its own ten seconds
    assert fx.arm == (Decision(0, 1, 1, 2), 10)
    stop = c.stop((None, 1, 1, 3, 0))
    assert stop.cancel and stop.send is not None and stop.send["seat"] is None
    assert c.on_clock() is None


def test_a_live_clock_runs_out_the_bot_plays_and_two_in_a_row_mark_away() -> None:
    now = Now()
    c = clock(now, clock=10)
    c.follow((0, 1, 1, 0, None))
    first = Decision(0, 1, 1, 0)
    assert c.fired(first, (1, 1, 1, 0, None)).bot is None  # no longer seat 0's decision
    fx = c.fired(first, (0, 1, 1, 0, None))
    assert (fx.bot, fx.away, fx.store) == (0, None, [])
    assert c.fired(first, (0, 1, 1, 0, None)).bot is None  # counted once
    c.follow((0, 1, 1, 1, 0))
    fx = c.fired(Decision(0, 1, 1, 1), (0, 1, 1, 1, 0))
    assert (fx.bot, fx.away) == (0, 0)
    c.acted(0)  # the player is back: the count starts again
    c.follow((0, 1, 1, 2, 0))
    assert c.fired(Decision(0, 1, 1, 2), (0, 1, 1, 2, 0)).away is None


def test_a_correspondence_deadline_is_stored_once_with_its_move_or_on_its_own() -> None:
    now = Now()
    c = clock(now, clock=3600)
    assert c.correspondence
    # The deal's first decision: no action carries it, so following it stores it.
    fx = c.follow((0, 1, 1, 0, None))
    assert fx.store == [Deadline(Decision(0, 1, 1, 0), 4600)]
    c.kept(fx.store)
    # An action that starts a decision: planned first (stored with the action), then
    # followed with the same deadline and nothing more to store.
    now.t += 100
    planned = c.planned((0, 1, 1, 1, 0))
    assert planned == Deadline(Decision(0, 1, 1, 1), 4700)
    now.t += 0.5  # the write took a while: the deadline stays the stored one
    c.kept([planned])
    fx = c.follow((0, 1, 1, 1, 0))
    assert fx.store == [] and fx.arm == (planned.decision, 3599.5)
    # No strikes at a correspondence table: every timeout is one move for the bot.
    for _ in range(3):
        cur = c.decisions.current
        assert cur is not None
        fx = c.fired(cur, (0, 1, 1, cur.since, 0))
        assert (fx.bot, fx.away, fx.store) == (0, None, [])
        c.follow((0, 1, 1, cur.since + 1, 0))


def test_a_reload_keeps_the_stored_deadline_only_if_that_decision_is_still_waited_for(
        ) -> None:
    now = Now()
    stored = (1, 2, 3, 1, 5000.0)  # game 1, round 2, since version 3, seat 1
    c = clock(now, clock=86400)
    fx = c.resume(stored, (1, 1, 2, 5, 0), movers=[0, 1, 1, 0, 0])
    assert fx.arm == (Decision(1, 1, 2, 3), 4000) and c.on_clock() == (1, 5000.0)
    assert c.follow((1, 1, 2, 5, 0)).arm is None  # the same decision goes on
    # Not kept: seat 1 acted since, another seat decides, another round.
    for target, movers in (((1, 1, 2, 5, 1), [0, 1, 1, 0, 1]), ((0, 1, 2, 5, 0), [0] * 5),
                           ((1, 1, 3, 0, None), [])):
        assert clock(now, clock=86400).resume(stored, target, movers).arm is None
    # Past its deadline: it runs out at once.
    now.t = 9000
    assert clock(now, clock=86400).resume(stored, (1, 1, 2, 5, 0), [0] * 5).arm == \
        (Decision(1, 1, 2, 3), 0.0)


def test_a_table_that_forfeits_stores_the_forfeit_before_the_bot_plays() -> None:
    c = clock(Now(), clock=3600, on_timeout="forfeit")
    c.follow((1, 1, 1, 0, None))
    fx = c.fired(Decision(1, 1, 1, 0), (1, 1, 1, 0, None))
    assert fx.store == [Forfeit(1)] and fx.bot == 1


def test_no_clock_never_runs() -> None:
    c = clock(Now(), clock=None)
    assert c.follow((0, 1, 1, 0, None)).arm is None and c.on_clock() is None
    assert c.planned((0, 1, 1, 1, 0)) is None
