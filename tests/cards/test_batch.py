"""The batch engine (``cambio.cards.batch``) against the compiled engine, game for game.

For the same seed and the same actions both engines must hold the same state after every
action (cards, knowledge masks, deck, pile, every counter, the chance counter), offer the
same legal actions in the same order, and end with the same scores and winners.
"""

from __future__ import annotations

import random
from itertools import pairwise

import numpy as np
import pytest

from cambio.cards import HIDDEN, Rules, State, batch_c, batch_fixed, observe, parse_action
from cambio.cards import batch_kernels as k
from cambio.cards.actions import CAMBIO, EXCHANGE, PEEK, SNAP, SWITCH, addr_seat, arg_a, kind_of
from cambio.cards.batch import Batch, play_uniform, state_snapshot
from cambio.cards.batch_fixed import uniform_kernel
from cambio.cards.state import mix64

from .golden import load

PRESETS = ["rulebook", "house", "wikipedia", "cabo", "cambia", "evan"]
SIZES = [(2, 400), (3, 300), (4, 250), (5, 150), (6, 150), (7, 120), (8, 120)]
"""(players, games) per preset: 1,490 games per preset at 2-8 players."""

C_KERNEL, C_WHY = batch_c.load()
needs_c = pytest.mark.skipif(C_KERNEL is None, reason=f"no C kernel here: {C_WHY}")
"""The C kernel of uniform play where it is built (a pure install has none)."""

HOUSE = [
    {"lock_caller": True, "caller_may_snap": False},
    {"max_grid": 5, "snap_penalty": 2},
    {"empty_grid_calls_cambio": True, "one_snap_per_discard": True},
    {"earliest_cambio_turn": 4, "powers_optional": True, "resnap": "snapper_only"},
    {"max_turns": 6, "opening_peek": 0, "snap_penalty": 0},
    {"max_grid": 4, "snap_penalty": 4, "jokers_per_deck": 8, "value_red_king": -3},
    {"power_trigger": "end_of_turn_discard", "power_nine_ten": "swap_any",
     "power_seven_eight": "look_any_two_swap_any_two"},
]


def lockstep(rules: Rules, players: int, games: int, seed: int,
             keep: list[State] | None = None) -> int:
    """Play ``games`` seeded rounds in both engines with the same random actions (snaps now
    and then); compare after every action. Returns the number of actions compared; ``keep``
    receives the finished rounds (the compiled engine's)."""
    b = Batch(rules, players, games)
    seeds = [seed + 7919 * i for i in range(games)]
    dealers = [i % players for i in range(games)]
    states = [State(rules, players, seed=s, dealer=d) for s, d in zip(seeds, dealers,
                                                                         strict=True)]
    b.reset(seeds, dealers)
    rng = random.Random(seed)
    compared = 0
    while True:
        acts, counts = b.legal_actions()
        chosen = np.full(games, -1, dtype=np.int64)
        for i, s in enumerate(states):
            legal = s.legal_actions()
            assert acts[i, :counts[i]].tolist() == legal, (i, s.history)
            if s.is_over():
                continue
            calm = [a for a in legal if kind_of(a) != SNAP]
            a = rng.choice(calm if calm and rng.random() < 0.9 else legal)
            s.apply(a)
            chosen[i] = a
        if (chosen < 0).all():
            break
        b.step(chosen)
        for i, s in enumerate(states):
            if chosen[i] >= 0:
                assert b.snapshot(i) == state_snapshot(s), (i, s.history)
                compared += 1
    assert b.scores().tolist() == [s.scores() for s in states]
    win = b.winners()
    assert [[p for p in range(players) if win[i, p]] for i in range(games)] == \
        [sorted(s.winners()) for s in states]
    assert b.returns().tolist() == [s.returns() for s in states]
    if keep is not None:
        keep += states
    return compared


@pytest.mark.parametrize("preset", PRESETS)
def test_thousands_of_seeded_games_per_preset_match_the_compiled_engine(preset):
    rules = Rules.preset(preset)
    total = 0
    rounds: list[State] = []
    for players, games in SIZES:
        if rules.max_players is not None and players > rules.max_players:
            continue
        total += lockstep(rules, players, games, players * 1000 + len(preset), rounds)
    # Actions compared state by state (cambia seats 2-6 players, cabo 2-4 and has no
    # snap polls: its random rounds are short).
    assert total > (5_000 if preset == "cabo" else 20_000)
    # The other groups' rules were played, not only offered: cabo's exchanges and no
    # snapping, cambia's snaps of one's own cards only, evan's queen (a look at one card,
    # then a switch of any two).
    snaps = [(seat, arg_a(a)) for s in rounds for seat, a in s.history if kind_of(a) == SNAP]
    assert bool(snaps) == rules.snapping
    exchanges = sum(kind_of(a) == EXCHANGE for s in rounds for _, a in s.history)
    assert (exchanges > 100) == rules.multi_exchange
    if not rules.snap_others:
        assert all(addr_seat(addr) == seat for seat, addr in snaps)
    looked_then_switched = sum(kind_of(a) == PEEK and kind_of(b) == SWITCH and s == t
                               for r in rounds for (s, a), (t, b) in pairwise(r.history))
    assert (looked_then_switched > 50) == (preset == "evan")


@pytest.mark.parametrize("overrides", HOUSE)
def test_house_rules_match_the_compiled_engine(overrides):
    for preset in PRESETS:
        for players in (2, 3, 5):
            if players > (Rules.preset(preset).max_players or players):
                continue
            lockstep(Rules.preset(preset, **overrides), players, 40, seed=players * 17)


def test_a_deck_too_big_for_side_by_side_shuffles_deals_the_same():
    """Decks of more than ``k.SWAP_DECK`` cards draw their deals' shuffles one generator at
    a time (``deal_swaps``'s other path)."""
    rules = Rules.preset("rulebook", jokers_per_deck=8)
    assert Batch(rules, 8, 1).slots > k.SWAP_DECK
    lockstep(rules, 8, 12, seed=8)


def test_the_golden_games_replay_identically():
    """The pinned games (bots of every kind) replayed action by action in the batch."""
    for game in load():
        rules = Rules.preset(game["preset"], **game["overrides"])
        b = Batch(rules, game["players"], 1)
        b.reset([game["seed"]], [game["dealer"]])
        for line in game["actions"]:
            seat, text = line.split(" ", 1)
            assert b.current_players()[0] == int(seat)
            b.step([parse_action(text)])
        assert b.is_over()[0]
        assert b.scores()[0].tolist() == game["scores"]
        assert int(b.sc[0, k.RESHUFFLES]) == game["reshuffles"]


def test_uniform_play_is_seeded_and_ends_every_round():
    rules = Rules.preset("house")
    a = play_uniform(rules, 3, list(range(200)), policy_seed=5)
    b = play_uniform(rules, 3, list(range(200)), policy_seed=5)
    assert (a.scores == b.scores).all() and (a.actions == b.actions).all()
    assert set(a.end_reasons) <= {"cambio", "deck_exhausted", "turn_cap"}


def uniform_rounds(rules: Rules, players: int, seeds: list[int], policy_seed: int,
                   no_call_before: int = 8) -> list[State]:
    """``play_uniform``'s policy in Python on the compiled engine: one splitmix64 stream
    across the rounds, an index drawn as ``(high 32 bits * count) >> 32``."""
    ctr = policy_seed
    states = []
    for seed in seeds:
        s = State(rules, players, seed=seed, dealer=players - 1)
        while not s.is_over():
            legal = s.legal_actions()
            lo = int(legal[0] == CAMBIO and s.turn_number < no_call_before)
            ctr += 1
            r = ((mix64(ctr) >> 32) * (len(legal) - lo)) >> 32
            s.apply(legal[lo + r])
        states.append(s)
    return states


@pytest.mark.parametrize(("preset", "kernel"), [
    *((preset, "numba") for preset in PRESETS),
    *(pytest.param(preset, "c", marks=needs_c)
      for preset in PRESETS if not batch_c.c_blockers(Rules.preset(preset)))])
@pytest.mark.parametrize("players", [2, 4])
def test_whole_rounds_of_uniform_play_are_the_compiled_engines(preset, players, kernel):
    """The native whole-round loop (the benchmark's), in numba and in C (for the presets
    it plays; the others it refuses, tests/cards/test_batch_c.py), plays the rounds the
    compiled engine plays under the same policy: same actions, turns, scores, winners,
    ends and callers."""
    rules = Rules.preset(preset)
    seeds = list(range(300, 600))
    got = play_uniform(rules, players, seeds, policy_seed=11, kernel=kernel)
    want = uniform_rounds(rules, players, seeds, policy_seed=11)
    assert got.actions.tolist() == [s.history_length() for s in want]
    assert got.turns.tolist() == [s.turn_number for s in want]
    assert got.scores.tolist() == [s.scores() for s in want]
    assert [sorted(np.flatnonzero(w).tolist()) for w in got.winners] == \
        [sorted(s.winners()) for s in want]
    assert got.end_reasons == [s.end_reason.name.lower() for s in want]
    assert got.callers.tolist() == [s.caller for s in want]


@pytest.mark.parametrize(("preset", "players"), [("rulebook", 2), ("cambia", 3), ("evan", 3)])
def test_the_loop_compiled_for_a_rule_set_plays_the_same_rounds(preset, players):
    """``fixed=True`` (the rules as constants, :mod:`cambio.cards.batch_fixed`) changes
    nothing but the speed: the rounds of the generic loop, action for action. A few rule
    sets only: each compiles its own loop (``scripts/warm_numba.py`` warms rulebook's at 2
    players); cambia and evan have the flags the other presets leave off."""
    rules = Rules.preset(preset)
    assert uniform_kernel(Batch(rules, players, 1).rf) is not k.play_uniform_all
    seeds = range(1, 1500)
    got = play_uniform(rules, players, seeds, policy_seed=9, fixed=True, kernel="numba")
    want = play_uniform(rules, players, seeds, policy_seed=9, kernel="numba")
    assert got.actions.tolist() == want.actions.tolist()
    assert got.scores.tolist() == want.scores.tolist()
    assert (got.winners == want.winners).all()
    assert got.end_reasons == want.end_reasons and got.callers.tolist() == want.callers.tolist()


@pytest.mark.parametrize("preset", ["cambia", "evan"])
def test_a_caller_tied_for_the_lowest_total_fares_by_the_tie_rule(preset):
    """cambia's caller wins a tie alone, evan's loses it; whole rounds of uniform play with
    early calls (so that many end in a caller's tie) score as the compiled engine does."""
    rules = Rules.preset(preset)
    for players in (2, 3):
        seeds = list(range(2000))
        got = play_uniform(rules, players, seeds, policy_seed=3, no_call_before=2)
        want = uniform_rounds(rules, players, seeds, policy_seed=3, no_call_before=2)
        ties = 0
        for i, s in enumerate(want):
            winners = sorted(s.winners())
            assert sorted(np.flatnonzero(got.winners[i]).tolist()) == winners
            scores = s.scores()
            tied = [p for p in range(players) if scores[p] == min(scores)]
            if s.caller in tied and len(tied) > 1:
                ties += 1
                expect = [s.caller] if preset == "cambia" \
                    else [p for p in tied if p != s.caller]
                assert winners == expect
        assert ties > 10


def test_a_rule_set_whose_loop_cannot_be_written_plays_the_generic_one(tmp_path, monkeypatch,
                                                                      fresh_kernels):
    """No writable place for the generated module: the generic loop, not an error."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocker / "below"))
    rf = Batch(Rules.preset("house"), 5, 1).rf
    assert uniform_kernel(rf) is k.play_uniform_all
    assert not (blocker / "below").exists()


@pytest.fixture
def fresh_kernels():
    """No generated loop remembered by this process, before the test and after it (a loop
    left pointing at the test's temporary directory would compile into a deleted one)."""
    batch_fixed._uniform_kernel.cache_clear()
    yield
    batch_fixed._uniform_kernel.cache_clear()


def test_a_changed_generated_loop_is_written_again(tmp_path, monkeypatch, fresh_kernels):
    """The generated module runs only the rules it is named for: a file changed since (a
    crash, a hand) is replaced before it is imported. (Importing compiles nothing.)"""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    rf = Batch(Rules.preset("rulebook"), 2, 1).rf
    uniform_kernel(rf)
    (path,) = (tmp_path / "cambio-fixed").glob("cambio_fixed_*.py")
    good = path.read_text()
    assert repr(rf.tolist()) in good
    path.write_text(good.replace("RF = np.array(", "RF = -np.array("))
    batch_fixed._uniform_kernel.cache_clear()
    uniform_kernel(rf)
    assert path.read_text() == good


def test_observe_shows_what_the_seat_may_see():
    rules = Rules.preset("rulebook")
    b = Batch(rules, 3, 20)
    b.reset(list(range(20)))
    states = [State(rules, 3, seed=i) for i in range(20)]
    rng = random.Random(3)
    for _ in range(12):
        acts, counts = b.legal_actions()
        chosen = [int(acts[i, rng.randrange(counts[i])]) if counts[i] else -1
                  for i in range(20)]
        for s, a in zip(states, chosen, strict=True):
            if a >= 0:
                s.apply(a)
        b.step(chosen)
    for seat in range(3):
        obs = b.observe(seat)
        for i, s in enumerate(states):
            view = observe(s, seat)
            for p in range(3):
                width = len(view.grids[p])
                assert obs["grids"][i, p, :width].tolist() == list(view.grids[p])
            assert obs["top"][i] == view.top()
            assert obs["deck_size"][i] == view.deck_size
            held = view.held
            assert obs["held"][i] == (held if held != HIDDEN else HIDDEN)


def observations_agree(b: Batch, states: list[State], seat: int) -> None:
    obs = b.observe(seat)
    for i, s in enumerate(states):
        view = observe(s, seat)
        for p in range(s.n):
            width = len(view.grids[p])
            assert obs["grids"][i, p, :width].tolist() == list(view.grids[p]), (i, p)
        assert obs["top"][i] == view.top() and obs["deck_size"][i] == view.deck_size
        assert obs["held"][i] == view.held and obs["turn_number"][i] == view.turn_number
        if not s.is_over():
            assert obs["actor"][i] == s.current_player()


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 4])
def test_every_seats_observation_matches_at_every_step(preset, players):
    """The batch engine's observations are the engine's ``observe`` for every seat after
    every action of whole rounds (what the vector environments and native bots see):
    1,200 seeded rounds, every frame."""
    rules = Rules.preset(preset)
    games = 200
    b = Batch(rules, players, games)
    seeds = [players * 31 + 7 * i for i in range(games)]
    b.reset(seeds)
    states = [State(rules, players, seed=s) for s in seeds]
    rng = random.Random(players)
    steps = 0
    while True:
        for seat in range(players):
            observations_agree(b, states, seat)
        acts, counts = b.legal_actions()
        chosen = [int(acts[i, rng.randrange(counts[i])]) if counts[i] else -1
                  for i in range(games)]
        if all(a < 0 for a in chosen):
            break
        for s, a in zip(states, chosen, strict=True):
            if a >= 0:
                s.apply(a)
                steps += 1
        b.step(chosen)
    assert all(s.is_over() for s in states) and steps > 5 * games


def test_cpython_random_is_reproduced_exactly():
    mt = np.zeros(625, dtype=np.int64)
    for seed in (0, 1, 2**32 - 1, 2**32, 2**63 + 5, 2**64 - 1):
        k.mt_seed(mt, np.uint64(seed))
        r = random.Random(seed)
        assert [k.mt_random(mt) for _ in range(700)] == [r.random() for _ in range(700)]
        assert [k.mt_randbelow(mt, n) for n in range(1, 60)] == \
            [r.randrange(n) for n in range(1, 60)]


def test_sim_gives_the_same_summary_on_both_engines(tmp_path):
    from cambio.sim.cards import TIMING_KEYS, SimConfig, choose_engine, simulate

    config = SimConfig(Rules.preset("house"), 3, ("random",) * 3, 300, seed=4)
    assert choose_engine(config, "auto") == "batch"
    fast, slow = simulate(config, engine="batch"), simulate(config, engine="python")
    for key in TIMING_KEYS:
        del fast[key], slow[key]
    assert fast == slow
    mixed = SimConfig(Rules.preset("house"), 2, ("random", "expert"), 10)
    assert choose_engine(mixed, "auto") == "python"
    with pytest.raises(ValueError, match="no native version of expert"):
        choose_engine(mixed, "batch")
    recorded = SimConfig(Rules.preset("house"), 2, ("random",) * 2, 10, record_dir=tmp_path)
    assert choose_engine(recorded, "auto") == "python"


@pytest.mark.parametrize("width", [9, k.LANES])
def test_generators_seeded_side_by_side_are_cpythons(width):
    """Any number of lanes, and the batch's own (compiled with its row length known)."""
    seeds = [0, 1, 2**32 - 1, 2**32, 2**63 + 5, 2**64 - 1, 12345, 2**40 + 3, 99]
    seeds += [2**33 * g + g for g in range(width - len(seeds))]
    lanes = np.zeros((625, len(seeds)), dtype=np.uint32)
    kw = np.zeros((2, len(seeds)), dtype=np.uint32)
    k.mt_seed_lanes(lanes, np.array(seeds, dtype=np.uint64), kw)
    for g, seed in enumerate(seeds):
        r = random.Random(seed)
        mt = lanes[:, g].astype(np.int64)
        assert [k.mt_random(mt) for _ in range(700)] == [r.random() for _ in range(700)]
        r = random.Random(seed)  # the uint32 lane itself, as the native random bots use it
        assert [k.mt_random(lanes[:, g]) for _ in range(50)] == [r.random() for _ in range(50)]


def test_plain_indexing_stays_in_the_kernels_modules():
    """The kernels' modules compile indexing without wraparound; every other numba function
    in the process keeps Python's negative indices."""
    import numba

    @numba.njit
    def last(a):
        return a[-1]

    assert last(np.arange(5)) == 4
    assert "_ZN6cambio5cards13batch_kernels" in k._UNWRAPPED
    assert not any(p.startswith("_ZN5tests") for p in k._UNWRAPPED)


def test_a_kernel_built_on_the_rules_is_compiled_again_when_they_change():
    """numba's cache checks only a function's own file; the kernels compile the rules'
    functions into theirs, so their stamp holds the kernel libraries' contents too: an edit
    of ``batch_kernels.py`` recompiles the native bots and rollouts rather than leaving
    them on the old rules."""
    from numba.core.caching import InTreeCacheLocator

    from cambio.bots.cards import native, rollouts

    def stamps(module, func):
        locator = InTreeCacheLocator(func.py_func, module.__file__)
        return locator.get_source_stamp(), k._numba_stamp(locator)

    ours, numbas = stamps(k, k.legal)
    assert ours == numbas  # the rules build on no other kernel file
    rules = k._file_hash(k._LIBRARIES[0])
    ours, numbas = stamps(native, native.memory_act)
    assert ours == (numbas, rules)
    ours, numbas = stamps(rollouts, rollouts._finish_all)
    assert ours == (numbas, rules, k._file_hash(k._LIBRARIES[1]))
