"""The C kernel of uniform play (``cambio.cards._uniform``) against the numba loop it mirrors.

Both kernels play the same seeds under the same policy stream; every result row (scores,
winners, turns, actions, end, caller) must be equal, and so must the whole record each
round ends in (every counter, hand, knowledge mask, the deck and the pile, even the slots a
round left behind). Then the choice between them (``cambio.cards.batch_c``): the fields the
C kernel refuses, ``CAMBIO_BATCH_KERNEL``, a missing, stale or mismatched build.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

import cambio.cards
from cambio.cards import Rules, batch_c
from cambio.cards import batch_kernels as k
from cambio.cards.actions import CAMBIO
from cambio.cards.batch import Batch, CKernelError, kernels_can_play, play_uniform, uint64_seeds
from cambio.cards.batch_c import c_blockers, kernel_for
from cambio.cards.rules import PRESETS as ALL_PRESETS
from cambio.cards.state import mix64

from .test_batch import C_KERNEL as C
from .test_batch import C_WHY as WHY
from .test_batch import HOUSE, PRESETS, needs_c, uniform_rounds

C_PRESETS = [p for p in PRESETS if not c_blockers(Rules.preset(p))]
"""test_batch's presets that the C kernel plays (the others: numba, see
``test_presets_the_c_kernel_does_not_play_are_numbas``)."""

I64 = npt.NDArray[np.int64]


def play_both(rules: Rules, players: int, seeds: list[int],
              policy_seed: int) -> tuple[tuple[I64, I64], tuple[I64, I64]]:
    """(results, last record) of each kernel over ``seeds`` in one call."""
    out = []
    for kernel in ("c", "numba"):
        b = Batch(rules, players, 1)
        res = np.zeros((len(seeds), players + k.N_RES), dtype=np.int64)
        if kernel == "c":
            assert C is not None
            C.play_uniform(uint64_seeds(seeds), b.full, b.st[0], b.rf, policy_seed, 8, res)
        else:
            k.play_uniform_all(uint64_seeds(seeds), b.full, b.st[0], b.rf, b.mt, b._acts[0],
                               b._scratch, policy_seed, 8, b.lanes, b.keys, b.kw, b.swaps, res)
        out.append((res, b.st[0].copy()))
    return out[0], out[1]


def assert_same_rounds(rules: Rules, players: int, seeds: list[int], policy_seed: int) -> I64:
    (c_res, c_last), (n_res, n_last) = play_both(rules, players, seeds, policy_seed)
    bad = np.flatnonzero((c_res != n_res).any(axis=1))
    assert bad.size == 0, (rules.preset_name, players, [seeds[i] for i in bad[:5]])
    assert c_last.tolist() == n_last.tolist()
    return c_res


def assert_same_records(rules: Rules, players: int, seeds: list[int], policy_seed: int) -> int:
    """A round per call, the policy's stream carried on (as one call carries it): every
    round's final record equal. Returns the actions played."""
    actions = 0
    for seed in seeds:
        (c_res, c_rec), (n_res, n_rec) = play_both(rules, players, [seed], policy_seed)
        assert c_res.tolist() == n_res.tolist(), (rules.preset_name, players, seed)
        assert c_rec.tolist() == n_rec.tolist(), (rules.preset_name, players, seed)
        played = int(c_res[0, players + k.RES_ACTIONS])
        policy_seed += played
        actions += played
    return actions


@needs_c
@pytest.mark.parametrize("preset", C_PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_c_kernel_plays_the_numba_rounds(preset, players):
    rules = Rules.preset(preset)
    res = assert_same_rounds(rules, players, list(range(5000, 8000)), policy_seed=7)
    assert k.END_CAMBIO in res[:, players + k.RES_END]
    assert assert_same_records(rules, players, list(range(300)), policy_seed=3) > 10_000


def numba_frames(rules: Rules, players: int, seed: int, policy_seed: int) -> I64:
    """One round stepped on numba's ``Batch`` under ``play_uniform``'s policy (test_batch's
    stream: the i-th action draws ``mix64(policy_seed + 1 + i)``): the record after each
    action."""
    b = Batch(rules, players, 1)
    b.reset([seed])
    frames = []
    ctr = policy_seed
    while not b.is_over()[0]:
        acts, counts = b.legal_actions()
        lo = int(acts[0, 0] == CAMBIO and b.sc[0, k.TURN_NUMBER] < 8)
        ctr += 1
        r = ((mix64(ctr) >> 32) * (int(counts[0]) - lo)) >> 32
        b.step([acts[0, lo + r]])
        frames.append(b.st[0].copy())
    return np.array(frames)


@needs_c
@pytest.mark.parametrize("preset", C_PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_frame_is_the_stepped_numba_engines(preset, players):
    """The record after every action of 60 rounds, each against the batch engine stepped
    one action at a time (``legal`` then ``apply``, the kernels the numba loop inlines)."""
    assert C is not None
    rules = Rules.preset(preset)
    frames = 0
    for seed in range(60):
        want = numba_frames(rules, players, seed, policy_seed=seed)
        b = Batch(rules, players, 1)
        got = np.zeros((len(want) + 1, b.st.shape[1]), dtype=np.int64)
        res = np.zeros((1, players + k.N_RES), dtype=np.int64)
        written = C.play_uniform(uint64_seeds([seed]), b.full, b.st[0], b.rf, seed, 8, res,
                                 got)
        assert written == len(want) == res[0, players + k.RES_ACTIONS], seed
        for i, frame in enumerate(want):
            assert got[i].tolist() == frame.tolist(), (seed, i)
        frames += written
    assert frames > 2_000


@needs_c
@pytest.mark.parametrize("overrides", HOUSE)
def test_house_rules_play_the_same_rounds(overrides):
    for preset in C_PRESETS:
        for players in (2, 3, 5):
            rules = Rules.preset(preset, **overrides)
            assert_same_rounds(rules, players, list(range(400)), policy_seed=players)
            assert_same_records(rules, players, list(range(30)), policy_seed=1)


@needs_c
def test_big_decks_and_hands_past_64_slots_play_the_same_rounds():
    """A deck of more than ``SWAP_DECK`` cards (its deals drawn one generator at a time),
    and hands of more than 64 cards (no Cambio before turn 1,000 and two decks a player:
    wrong snaps pile cards into the hands), whose kept slot lists grow and shrink far past
    the usual four to twenty."""
    big = Rules.preset("rulebook", jokers_per_deck=8)
    assert Batch(big, 8, 1).slots > k.SWAP_DECK
    assert_same_rounds(big, 8, list(range(200)), policy_seed=5)
    huge = Rules.preset("rulebook", players_per_extra_deck=1, jokers_per_deck=8,
                        earliest_cambio_turn=1000)
    assert_same_rounds(huge, 2, list(range(60)), policy_seed=2)
    widest = 0
    for seed in range(20):
        b = Batch(huge, 2, 1)
        res = np.zeros((1, 2 + k.N_RES), dtype=np.int64)
        assert C is not None
        C.play_uniform(uint64_seeds([seed]), b.full, b.st[0], b.rf, seed, 8, res)
        widest = max(widest, int(b.glen[0].max()))
    assert widest > 64
    assert_same_records(huge, 2, list(range(20)), policy_seed=0)


@needs_c
def test_the_c_kernels_rounds_are_the_compiled_engines():
    """The same rounds as ``State`` under the same policy (test_batch's Python loop)."""
    rules = Rules.preset("house")
    seeds = list(range(40, 140))
    got = play_uniform(rules, 3, seeds, policy_seed=11, kernel="c")
    want = uniform_rounds(rules, 3, seeds, policy_seed=11)
    assert got.actions.tolist() == [s.history_length() for s in want]
    assert got.scores.tolist() == [s.scores() for s in want]
    assert got.end_reasons == [s.end_reason.name.lower() for s in want]


@needs_c
def test_play_uniform_chooses_the_c_kernel_by_default_and_numba_on_request(monkeypatch):
    rules = Rules.preset("rulebook")
    monkeypatch.delenv(batch_c.KERNEL_ENV, raising=False)
    assert kernel_for(rules) is C
    assert kernel_for(rules, "numba") is None
    monkeypatch.setenv(batch_c.KERNEL_ENV, "numba")
    assert kernel_for(rules) is None
    assert kernel_for(rules, "c") is C  # the argument wins over the variable
    seeds = list(range(500))
    by_env = play_uniform(rules, 2, seeds, policy_seed=4)
    by_c = play_uniform(rules, 2, seeds, policy_seed=4, kernel="c")
    assert by_env.actions.tolist() == by_c.actions.tolist()
    assert by_env.scores.tolist() == by_c.scores.tolist()
    monkeypatch.setenv(batch_c.KERNEL_ENV, "fortran")
    with pytest.raises(ValueError, match="fortran"):
        kernel_for(rules)


def test_rules_the_c_kernel_does_not_implement_go_to_numba(monkeypatch):
    """A field outside ``C_FIELDS`` off its rulebook value, or a value outside ``C_VALUES``:
    ``auto`` plays numba (the same rounds), ``c`` says why. ``max_grid`` stands for a rule
    the numba kernels learn before the C one."""
    cambia = Rules.preset("cambia")
    assert "snap_others" in c_blockers(cambia) and "tie_rule" in c_blockers(cambia)
    assert kernel_for(cambia, "auto") is None
    with pytest.raises(CKernelError, match="snap_others" if C is not None else "not built"):
        kernel_for(cambia, "c")
    assert c_blockers(Rules.preset("rulebook", power_queen="swap_any")) == ["power_queen"]

    monkeypatch.setattr(batch_c, "C_FIELDS", batch_c.C_FIELDS - {"max_grid"})
    rules = Rules.preset("wikipedia", max_grid=5)
    assert kernels_can_play(rules) and c_blockers(rules) == ["max_grid"]
    assert kernel_for(rules, "auto") is None
    with pytest.raises(CKernelError, match="max_grid" if C is not None else "not built"):
        play_uniform(rules, 2, [1], kernel="c")
    seeds = list(range(300))
    auto = play_uniform(rules, 2, seeds, policy_seed=8)
    numba = play_uniform(rules, 2, seeds, policy_seed=8, kernel="numba")
    assert auto.actions.tolist() == numba.actions.tolist()
    assert kernel_for(Rules.preset("wikipedia", max_grid=None), "auto") is (C or None)


@pytest.mark.parametrize("preset", sorted(ALL_PRESETS))
def test_presets_the_c_kernel_does_not_play_are_numbas(preset):
    """Every preset the C kernel refuses but the numba kernels play: ``auto`` gives numba's
    rounds (the three Cambio presets are the C kernel's, checked above)."""
    rules = Rules.preset(preset)
    if not c_blockers(rules):
        assert preset in ("rulebook", "house", "wikipedia")
        return
    assert kernel_for(rules, "auto") is None
    if not kernels_can_play(rules):
        return
    players = max(3, rules.min_players)
    seeds = list(range(200))
    auto = play_uniform(rules, players, seeds, policy_seed=2)
    numba = play_uniform(rules, players, seeds, policy_seed=2, kernel="numba")
    assert auto.actions.tolist() == numba.actions.tolist()
    assert auto.scores.tolist() == numba.scores.tolist()


def test_the_c_kernel_is_built_wherever_the_card_engine_is_compiled():
    """One build makes both (setup.py): a compiled card engine beside a missing or stale C
    kernel means its build failed or was not rerun after an edit of ``_uniform.c``."""
    if not cambio.cards.COMPILED:
        pytest.skip("the card engine runs as source here (no build, or a pure install)")
    assert C is not None, WHY


def test_without_the_extension_numba_plays(monkeypatch):
    """An install where the C kernel did not build (no compiler): ``import`` fails, ``auto``
    plays numba, ``c`` says the kernel is not built."""
    monkeypatch.setitem(sys.modules, batch_c.MODULE, None)  # what a failed import raises
    batch_c.load.cache_clear()
    try:
        rules = Rules.preset("house")
        module, why = batch_c.load()
        assert module is None and "not built" in why
        assert kernel_for(rules, "auto") is None
        with pytest.raises(CKernelError, match="not built"):
            play_uniform(rules, 2, [1, 2], kernel="c")
        seeds = list(range(200))
        got = play_uniform(rules, 2, seeds, policy_seed=6)
        want = uniform_rounds(rules, 2, seeds, policy_seed=6)
        assert got.actions.tolist() == [s.history_length() for s in want]
    finally:
        batch_c.load.cache_clear()


@needs_c
def test_a_build_from_another_source_or_layout_is_not_used(tmp_path: Path, monkeypatch):
    assert C is not None
    here = Path(batch_c.__file__).parent
    assert not batch_c.is_stale(C, str(here))  # what load() checked
    (tmp_path / batch_c.SOURCE).write_bytes((here / batch_c.SOURCE).read_bytes())
    assert not batch_c.is_stale(C, str(tmp_path))
    (tmp_path / batch_c.SOURCE).write_text("/* edited */\n")
    assert batch_c.is_stale(C, str(tmp_path))
    assert not batch_c.is_stale(C, str(tmp_path / "nowhere"))  # no source: nothing to compare

    assert batch_c.layout_mismatch(C) == []
    monkeypatch.setattr(k, "N_SC", k.N_SC + 1)
    batch_c.load.cache_clear()
    try:
        module, why = batch_c.load()
        assert module is None and "N_SC" in why
    finally:
        batch_c.load.cache_clear()


@needs_c
def test_bad_arrays_are_refused_with_a_clear_error():
    assert C is not None
    rules = Rules.preset("rulebook")
    b = Batch(rules, 2, 1)
    res = np.zeros((3, 2 + k.N_RES), dtype=np.int64)
    seeds = uint64_seeds([1, 2, 3])
    with pytest.raises(ValueError, match="layout"):
        C.play_uniform(seeds, b.full, b.st[0], b.rf, 0, 8, res[:2])
    with pytest.raises(ValueError, match="rule set"):
        C.play_uniform(seeds, b.full, b.st[0], b.rf[:k.R_WIDTH], 0, 8, res)
    with pytest.raises(TypeError, match="64-bit"):
        C.play_uniform(seeds, b.full.astype(np.int32), b.st[0], b.rf, 0, 8, res)
    with pytest.raises(TypeError, match="64-bit"):
        C.play_uniform(seeds, b.full, b.st[0].astype(np.float64), b.rf, 0, 8, res)
    with pytest.raises(ValueError, match="contiguous"):
        C.play_uniform(seeds, b.full, b.st[0], b.rf, 0, 8, res.T)
    assert (res == 0).all()
