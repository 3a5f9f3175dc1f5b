"""The native bots of the batch engine against the Python bots, decision by decision.

``cambio.bots.cards.native`` ports the ``memory`` bot to numba so whole rounds run without
Python; these tests make any difference between the two a failure -- including a change to
``bots/cards/memory.py`` that is not made in the port too.
"""

from __future__ import annotations

from random import Random

import pytest

from cambio.bots.cards import ExpectedPointsBot, MemoryParams, RandomBot, make_bot, play_round
from cambio.bots.cards.native import bot_kinds, memory_actions, play_native
from cambio.bots.cards.rollouts import load_states
from cambio.cards import Rules, State, observe
from cambio.cards import batch_kernels as k
from cambio.cards.batch import Batch, state_snapshot
from cambio.sim.cards import TIMING_KEYS, SimConfig, choose_engine, simulate

from .knowledge import permute_unseen
from .test_batch import HOUSE, PRESETS


def memory_lockstep(rules: Rules, players: int, games: int, seed: int,
                    params: MemoryParams | None = None) -> int:
    """Play ``games`` seeded rounds of memory bots in both engines: at every decision the
    native bot must choose what ``ExpectedPointsBot.act`` chooses from the seat's view. Returns the
    number of decisions compared."""
    b = Batch(rules, players, games)
    seeds = [seed + 7919 * i for i in range(games)]
    dealers = [i % players for i in range(games)]
    states = [State(rules, players, seed=s, dealer=d)
              for s, d in zip(seeds, dealers, strict=True)]
    b.reset(seeds, dealers)
    bot = ExpectedPointsBot(0, params)
    compared = 0
    while True:
        native = memory_actions(b, params)
        if (native < 0).all():
            break
        for i, s in enumerate(states):
            if s.is_over():
                assert native[i] == -1
                continue
            action = bot.act(observe(s, s.current_player()))
            assert native[i] == action, (i, s.history)
            s.apply(action)
            compared += 1
        b.step(native)
    for i, s in enumerate(states):
        assert b.snapshot(i) == state_snapshot(s)
    return compared


def _seatable(preset: str, players: int) -> bool:
    most = Rules.preset(preset).max_players
    return most is None or players <= most


@pytest.mark.parametrize(("preset", "players"), [
    (preset, players) for preset in PRESETS for players in (2, 3, 4, 6, 8)
    if _seatable(preset, players)])
def test_native_memory_makes_every_decision_of_the_memory_bot(preset, players):
    """Every table size each preset seats (cabo up to 4, cambia up to 6)."""
    rules = Rules.preset(preset)
    assert memory_lockstep(rules, players, 60, seed=players * 31 + len(preset)) > 1000


@pytest.mark.parametrize("preset", PRESETS)
def test_native_memory_decides_from_its_seats_view_only(preset):
    """The kernel reads the whole record (every card); its decision must not depend on the
    cards the deciding seat has not seen. At decisions of whole rounds, the state and a
    twin with those cards shuffled (face-down slots, deck, a hidden held card) are loaded
    side by side: the native bot chooses the same in both."""
    rules = Rules.preset(preset)
    rng = Random(preset)
    checked = moved = 0
    for players in (2, 3, 4):
        b = Batch(rules, players, 2)
        bot = ExpectedPointsBot(0)
        for seed in range(6):
            s = State(rules, players, seed=seed)
            while not s.is_over():
                seat = s.current_player()
                if len(s.legal_actions()) > 1:
                    twin = permute_unseen(s, seat, rng)
                    moved += (twin.grids, twin.deck) != (s.grids, s.deck)
                    load_states(b, 0, [s, twin])
                    native = memory_actions(b)
                    assert native[0] == native[1], (seat, s.history)
                    checked += 1
                s.apply(bot.act(observe(s, seat)), seat)
    assert checked > 300 and moved > checked // 2


@pytest.mark.parametrize("overrides", HOUSE)
def test_native_memory_follows_every_house_rule(overrides):
    for preset in PRESETS:
        for players in (2, 3, 5):
            if players > (Rules.preset(preset).max_players or players):
                continue
            memory_lockstep(Rules.preset(preset, **overrides), players, 25, seed=players * 13)


@pytest.mark.parametrize("params", [
    MemoryParams(cambio_total=6.0, cambio_hidden=2, relax_after=2, risk=2.0, snap_odds=0.3),
    MemoryParams(info_own=2.0, info_other=3.0, min_snap_gain=0.2, swap_power=1.5,
                 cambio_relax=2.0),
    MemoryParams(cambio_total=12.0, cambio_hidden=3, relax_after=1, call_lead=0.0),
    MemoryParams(cambio_total=20.0, cambio_hidden=4, call_lead=-3.5),
])
def test_native_memory_takes_the_same_parameters(params):
    """Other weights move the decisions into other regimes (more calls, more peeks at
    opponents, more snaps of theirs, calls held back by the lead over every opponent);
    the port must follow there too."""
    for preset, players in (("house", 2), ("rulebook", 4), ("wikipedia", 3)):
        memory_lockstep(Rules.preset(preset), players, 40, seed=players, params=params)


@pytest.mark.parametrize("players", [2, 4, 7])
def test_native_rounds_are_the_python_bots_rounds(players):
    """``play_native`` runs whole rounds natively, any mix of random and memory seats; the
    Python bots with the same seeds play the same rounds."""
    rules = Rules.preset("wikipedia")
    names = [("random", "memory", "medium")[s % 3] for s in range(players)]
    seeds = [11 + 3 * i for i in range(60)]
    dealers = [i % players for i in range(60)]
    bot_seeds = [[1000 * i + s for s in range(players)] for i in range(60)]
    res = play_native(rules, players, names, seeds, dealers, bot_seeds)
    for i in range(60):
        state = State(rules, players, seed=seeds[i], dealer=dealers[i])
        play_round(state, [make_bot(name, x) for name, x in zip(names, bot_seeds[i],
                                                                 strict=True)])
        assert res.scores[i].tolist() == state.scores()
        assert res.turns[i] == state.turn_number
        assert res.actions[i] == state.history_length()
        assert res.end_reasons[i] == state.end_reason.name.lower()
        assert res.callers[i] == state.caller
        assert [s for s in range(players) if res.winners[i, s]] == sorted(state.winners())


def test_native_random_bots_are_the_random_bot():
    rules = Rules.preset("house")
    res = play_native(rules, 3, ["random"] * 3, [5, 6, 7], [0, 1, 2], [[1, 2, 3]] * 3)
    for i, seed in enumerate((5, 6, 7)):
        state = State(rules, 3, seed=seed, dealer=i)
        play_round(state, [RandomBot(x) for x in (1, 2, 3)])
        assert res.actions[i] == state.history_length()
        assert res.scores[i].tolist() == state.scores()


def test_sim_with_memory_bots_gives_the_same_summary_on_both_engines():
    """A small version of the native bots' acceptance run (4 memory bots, rulebook)."""
    config = SimConfig(Rules.preset("rulebook"), 4, ("memory",) * 4, 400, seed=1)
    assert choose_engine(config, "auto") == "batch"
    fast, slow = simulate(config, engine="batch"), simulate(config, engine="python")
    for key in TIMING_KEYS:
        del fast[key], slow[key]
    assert fast == slow


def test_bots_without_a_native_version_are_named():
    assert bot_kinds(["random", "Memory", "medium"]).tolist() == [0, 1, 1]
    with pytest.raises(ValueError, match="no native version of bot 'expert'"):
        bot_kinds(["memory", "expert"])
    with pytest.raises(ValueError, match="2 bots for 3 seats"):
        play_native(Rules.preset("house"), 3, ["memory"] * 2, [1], [0], [[1, 2, 3]])
    b = Batch(Rules.preset("house"), 2, 2)
    b.reset([1, 2])
    b.sc[1, k.PHASE] = k.PH_ROUND_OVER
    assert memory_actions(b)[1] == -1
    assert memory_actions(b)[0] >= 0
