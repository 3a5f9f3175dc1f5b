"""A table's rounds and games without I/O (:mod:`cambio.server.rounds`) on a clock the test
moves: a round's end finishes the game or sets the pause before the match's next round, the
pause's timer deals only the round it was set for, a reload between rounds waits a whole
pause, a halt stops it; a rematch is refused before the game is over and keeps the result."""

from __future__ import annotations

import pytest

from cambio.cards import Rules
from cambio.server.errors import ProtocolError
from cambio.server.rounds import RoundEnd, RoundPause, rematch, require_waiting
from cambio.server.turn_session import TurnSession
from tests.support.cards_table import card_session

PAUSE = 6.0
NAMES = [{"name": "a"}, {"name": "b"}]


class Now:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def played_round(s: TurnSession) -> TurnSession:
    """Deal the session's next round and play it out with random bots."""
    s.deal(s.next_header(NAMES, "now"))
    bots = {seat: s.seat_bot("random", seat) for seat in range(2)}
    while not s.round_over():
        seat = s.decider()
        assert seat is not None
        s.play(seat, bots[seat].move(seat), s.version)
    return s


def test_a_rounds_end_sets_the_pause_and_the_last_one_finishes_the_game() -> None:
    now = Now()
    pause = RoundPause(PAUSE, now)
    s = played_round(card_session(Rules.preset("rulebook"), 2, 5, rounds=2))
    assert pause.ended(s, 1) == RoundEnd(arm=(1, PAUSE))
    assert s.totals() is not None and not s.game_over()  # the round's scores are booked
    now.t += 2
    assert pause.left() == PAUSE - 2  # what the summary's `next_round` shows
    now.t += PAUSE - 2
    assert pause.due(s, 1, 1) and pause.left() is None  # due: the driver deals it
    played_round(s)
    assert pause.ended(s, 1) == RoundEnd(finished=True) and s.game_over()
    assert pause.left() is None


def test_the_pauses_timer_deals_only_the_round_it_was_set_for() -> None:
    pause = RoundPause(PAUSE, Now())
    s = played_round(card_session(Rules.preset("rulebook"), 2, 6, rounds=2))
    pause.ended(s, 1)
    assert not pause.due(s, 2, 3)      # another game began meanwhile
    assert not pause.due(None, 1, 1)   # no game (a table being rebuilt)
    s.deal(s.next_header(NAMES, "now"))
    assert not pause.due(s, 1, 1)      # dealt already: not due again


def test_a_reload_between_rounds_waits_a_whole_pause_and_a_halt_stops_it() -> None:
    pause = RoundPause(PAUSE, Now())
    s = played_round(card_session(Rules.preset("rulebook"), 2, 7, rounds=2))
    s.finish_round()
    assert pause.loaded(s, 1, playing=False) == RoundEnd()  # halted or finished: no round
    assert pause.loaded(s, 1, playing=True) == RoundEnd(arm=(1, PAUSE))
    assert pause.stop() and pause.left() is None
    assert not pause.stop()  # nothing running any more
    fresh = card_session(Rules.preset("rulebook"), 2, 7, rounds=2)
    fresh.deal(fresh.next_header(NAMES, "now"))
    assert pause.loaded(fresh, 1, playing=True) == RoundEnd()  # a round in play


def test_a_rematch_is_the_next_game_and_keeps_the_last_result() -> None:
    s = played_round(card_session(Rules.preset("rulebook"), 2, 8))
    with pytest.raises(ProtocolError, match="not over yet") as refused:
        rematch("playing", 1, s)
    assert refused.value.code == "conflict"
    s.finish_round()
    again = rematch("finished", 1, s)
    assert again.game_no == 2 and again.done == {"game_no": 1, **s.result()}
    # A table finished without a game over (none recorded) rematches with nothing to keep.
    assert rematch("finished", 3, None).done is None
    require_waiting("waiting")
    with pytest.raises(ProtocolError, match="already started"):
        require_waiting("playing")
