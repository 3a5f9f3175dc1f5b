"""The bots' timers on their own, with a real card session and a clock the test moves: a
bot moves when its delay is up (never sooner), a whole round plays out by timers alone, the
delays repeat with the seed, nothing moves once the timers are called off, and a bot that
raises does not stall the table."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest

from cambio.bots.cards import RandomBot, SlippingBot
from cambio.cards import CardView, Rules
from cambio.cards.actions import Action
from cambio.server.session import DrivenBot, Session
from cambio.server.table.bot_timers import THINK, BotTimers
from tests.support.cards_table import card_session

from .manual import ManualTimers

SPEED = 1.0


class Harness:
    """A session, the bots' timers, and the callbacks a table would give them."""

    def __init__(self, seed: int, bots: set[int], names: tuple[str, str] = ("random", "random"),
                 pick: Callable[[str, str], str] = lambda game, bot: bot) -> None:
        self.timers = ManualTimers()
        self.session = card_session(Rules.preset("rulebook"), 2, seed, 1, "m")
        self.session.deal(self.session.next_header([{"name": "a"}, {"name": "b"}], "now"))
        self.bots_at = bots
        self.played: list[tuple[float, int, str]] = []
        self.bots = BotTimers(self.timers.later, SPEED, self.live, self.bots_at.__contains__,
                              self.reschedule, self.play, sleep=self.timers.sleep,
                              now=self.timers.clock, pick=pick)
        self.bots.seat(self.session, list(names), seed)

    def live(self) -> Session | None:
        return None if self.session.round_over() else self.session

    def reschedule(self) -> None:
        s = self.live()
        if s is None:
            self.bots.cancel()
        else:
            self.bots.follow(s)

    async def play(self, seat: int, text: str) -> None:
        self.session.play(seat, text, self.session.version)
        self.played.append((self.timers.now, seat, text))
        self.reschedule()


def test_a_bot_moves_when_its_delay_is_up_and_not_before() -> None:
    h = Harness(seed=3, bots={0, 1})
    h.reschedule()
    decider = h.session.decider()
    assert decider is not None and h.bots.turn_timer is not None
    # The delay is 0.6-1.6 s; a searching bot's reply is padded to THINK within it.
    asyncio.run(h.timers.advance(0.6 - THINK - 0.01))
    assert h.played == []
    asyncio.run(h.timers.advance(1.0 + 0.02))
    turns = [p for p in h.played if p[1] == decider and not p[2].startswith("snap")]
    assert turns and 0.6 <= turns[0][0] <= 1.6 + 1e-9


def test_a_whole_round_plays_out_by_timers_alone() -> None:
    h = Harness(seed=5, bots={0, 1})
    h.reschedule()
    for _ in range(10_000):
        if h.session.round_over():
            break
        assert asyncio.run(h.timers.advance(1.0)) >= 0
    assert h.session.round_over()
    assert len(h.played) == h.session.version
    assert h.timers.pending() == []  # the round over: every timer is called off


def test_the_delays_repeat_with_the_seed() -> None:
    def moves(seed: int) -> list[tuple[float, int, str]]:
        h = Harness(seed=seed, bots={0, 1})
        h.reschedule()
        asyncio.run(h.timers.advance(30.0))
        return h.played

    assert moves(7) == moves(7)
    assert moves(7) != moves(8)


def test_a_players_seat_gets_no_bot_and_cancel_calls_everything_off() -> None:
    h = Harness(seed=3, bots=set())
    h.reschedule()
    assert h.bots.handles() == []
    h.bots_at.update({0, 1})
    h.reschedule()
    assert h.bots.handles()
    h.bots.cancel()
    asyncio.run(h.timers.advance(60.0))
    assert h.played == [] and h.bots.handles() == []


def test_a_stand_in_plays_until_the_bot_can_and_then_the_bot_itself() -> None:
    ready = False

    def pick(game: str, bot: str) -> str:  # "easy" stands for a bot whose kernels load
        return bot if ready or bot != "easy" else "random"

    h = Harness(seed=3, bots={0, 1}, names=("easy", "easy"), pick=pick)

    def kinds() -> list[type]:
        return [type(b.bot) for b in h.bots.bots.values() if isinstance(b, DrivenBot)]

    assert kinds() == [RandomBot, RandomBot] and h.bots.standing_in == {0, 1}
    h.reschedule()
    asyncio.run(h.timers.advance(2.0))
    assert h.played  # the stand-ins played
    ready = True
    decider = h.session.decider()
    assert decider is not None
    asyncio.run(h.timers.advance(2.0))
    assert type(h.bots.bots[decider].bot) is SlippingBot  # type: ignore[attr-defined]
    assert decider not in h.bots.standing_in


class FaultyBot:
    """A card bot with a fault: it raises at every decision."""

    def act(self, view: CardView) -> Action:
        raise IndexError("a fault in the bot")


def test_a_bot_that_raises_is_logged_and_a_random_move_stands_in(
        caplog: pytest.LogCaptureFixture) -> None:
    h = Harness(seed=5, bots={0, 1})
    given = h.bots.bots[0]
    assert isinstance(given, DrivenBot)
    h.bots.bots[0] = DrivenBot(given.driver, FaultyBot())
    h.reschedule()
    with caplog.at_level(logging.ERROR, logger="cambio.server.table.bot_timers"):
        for _ in range(10_000):
            if h.session.round_over():
                break
            asyncio.run(h.timers.advance(1.0))
    assert h.session.round_over()  # seat 0's turns were played all the same
    assert any(seat == 0 for _, seat, _ in h.played)
    assert "seat 0's bot 'random' failed; a random move stands in" in caplog.text
    assert "a fault in the bot" in caplog.text
