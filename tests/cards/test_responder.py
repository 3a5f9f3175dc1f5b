"""The search best response: it simulates the target's policy in the other seats and sees
only its own view."""

from __future__ import annotations

import json
from random import Random

import pytest
from typer.testing import CliRunner

from cambio.bots.cards import CardBot, make_bot, play_round
from cambio.bots.cards.responder import BestResponseSearchBot, until_my_turn
from cambio.cards import Action, CardView, Phase, Rules, State, observe
from cambio.cli.main import app
from cambio.envs.exploit import exploitability

from .knowledge import memory_rounds, twin_views


class Spy:
    """The target bot, noting which seats it was asked to play."""

    def __init__(self, bot: CardBot, seats: list[int]) -> None:
        self.bot = bot
        self.seats = seats
        self.name = bot.name

    def act(self, view: CardView) -> Action:
        assert view.seat is not None
        self.seats.append(view.seat)
        return self.bot.act(view)


def test_native_responses_depend_only_on_the_view() -> None:
    checked = 0
    for t in twin_views(memory_rounds("house", 2), Random(2), rate=0.3):
        a = BestResponseSearchBot("memory", 1, rows=64, cap=256).act(t.view)
        assert a == BestResponseSearchBot("memory", 1, rows=64, cap=256).act(t.twin)
        checked += 1
    assert checked > 5


def test_python_responses_simulate_the_target_in_the_other_seats_only() -> None:
    """With ``reply=False`` the rollouts ask the target itself to the end of the round, for
    every seat but the responder's; the decision still depends on the view only, and on the
    seed."""
    played: list[int] = []
    made: list[str] = []

    def spy(name: str, seed: int) -> CardBot:
        made.append(name)
        return Spy(make_bot(name, seed), played)

    decisions = 0
    for t in twin_views(memory_rounds("rulebook", 1, first=1), Random(7), rate=0.2):
        me = t.view.seat
        played.clear()
        bot = BestResponseSearchBot("expert", 3, worlds=2, cap=1024, reply=False,
                                    make_target=spy)
        a = bot.act(t.view)
        twin = BestResponseSearchBot("expert", 3, worlds=2, cap=1024, reply=False,
                                     make_target=spy)
        assert a == twin.act(t.twin)
        if bot.last_rollouts:
            assert played and me not in played
            decisions += 1
        if decisions >= 3:
            break
    assert decisions >= 1
    assert set(made) == {"expert"}


def test_replies_ask_the_target_for_the_other_seats_from_the_view_only() -> None:
    """The reply engine (the default against a bot with no native twin): the target answers
    in the other seats only, and the decision depends on the view and the seed alone."""
    played: list[int] = []

    def spy(name: str, seed: int) -> CardBot:
        return Spy(make_bot(name, seed), played)

    replied = 0
    for t in twin_views(memory_rounds("rulebook", 2, first=3), Random(11), rate=0.5):
        played.clear()
        bot = BestResponseSearchBot("expert", 5, worlds=2, make_target=spy)
        a = bot.act(t.view)
        assert a == BestResponseSearchBot("expert", 5, worlds=2, make_target=spy).act(t.twin)
        if bot.last_rollouts:  # the exact replies were played
            assert played and t.view.seat not in played
            replied += 1
        if replied >= 2:
            break
    assert replied >= 1


def test_a_reply_stops_when_the_responders_turn_starts() -> None:
    asked: list[int] = []
    state = State(Rules.preset("rulebook"), 3, seed=4, polled=True)
    bots = [make_bot("memory", seat) for seat in range(3)]
    me = state.current_player()
    state.apply(bots[me].act(observe(state, me)), me)  # our move: the candidate
    targets = {seat: Spy(bots[seat], asked) for seat in range(3) if seat != me}
    until_my_turn(state, me, bots[me], targets.__getitem__)
    assert state.is_over() or (state.current_player() == me
                               and state.phase == Phase.TURN_START)
    assert asked and me not in asked


def test_a_response_needs_a_known_target() -> None:
    with pytest.raises(ValueError):
        BestResponseSearchBot("nobody", 0)
    with pytest.raises(ValueError, match="target"):
        make_bot("exploit", 0)
    bot = make_bot("exploit:memory", 0)
    assert isinstance(bot, BestResponseSearchBot) and bot.native


def test_a_response_plays_legal_rounds() -> None:
    state = State(Rules.preset("rulebook"), 2, seed=5)
    bots = [BestResponseSearchBot("memory", 0, rows=64, cap=256), make_bot("memory", 1)]
    assert play_round(state, bots).is_over()  # play_round raises on an illegal action


def test_exploit_reports_the_share_above_equal_with_its_interval() -> None:
    result = CliRunner().invoke(app, ["exploit", "--against", "memory", "--games", "2",
                                      "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    [summary] = json.loads(result.stdout)
    assert summary["method"] == "search" and summary["games"] == 2
    share, low, high = summary["win_share"], summary["low"], summary["high"]
    assert summary["exploitability"] == [share - 0.5, low - 0.5, high - 0.5]
    assert exploitability((0.7, 0.6, 0.8)) == pytest.approx((0.2, 0.1, 0.3))
    again = CliRunner().invoke(app, ["exploit", "--against", "memory", "--games", "2",
                                     "--seed", "3", "--json"])
    assert json.loads(again.stdout)[0]["win_share"] == share
    bad = CliRunner().invoke(app, ["exploit", "--against", "memory", "--method", "guess"])
    assert bad.exit_code != 0
