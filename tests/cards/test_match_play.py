"""The hard bot plays toward a match's end: a match's :class:`Standing` says what the next
totals and the end will be exactly as :class:`Match` plays them, the valuation of a rolled-out
round by the share of the match it leaves seeks the exact-hit reset and fears the target,
and a single round is searched exactly as before."""

from __future__ import annotations

from random import Random

import numpy as np

from cambio.bots.cards import BatchRolloutSearchBot, RolloutSearchBot, make_bot, play_round
from cambio.bots.cards.deep import candidates
from cambio.bots.cards.hints import suggest
from cambio.bots.cards.match_value import _over, _reset, applies, match_shares
from cambio.cards import CardView, Match, Rules, Standing, observe
from cambio.cards.match import over, reset_totals

CABO_AT = Standing(totals=(95, 60), target=100, passes=True, rounds_left=None, reset_at=100,
                   reset_to=50, resets_left=(1, 1))
"""Cabo heads-up, us at 95: a round over 5 loses the match, exactly 5 resets us to 50."""


def test_a_standing_says_what_the_match_does_next() -> None:
    """Through whole seeded Cabo matches (to 100, exact 100 reset) and matches of set
    rounds: before each round is finished, ``standing().after(scores)`` gives the totals
    and the end the match then has."""
    checked = resets = 0
    # Seed 4's Cabo match has an exact 100 (reset to 50) in it.
    for k, (preset, rounds) in enumerate([("cabo", None), ("rulebook", 3), ("cabo", None),
                                          ("cabo", None), ("cabo", None)]):
        m = Match(Rules.preset(preset), 2, seed=k, rounds=rounds)
        while not m.is_over():
            state = m.new_round()
            standing = m.standing()
            assert standing.totals == tuple(m.totals)
            play_round(state, [make_bot("memory", k), make_bot("memory", k + 1)])
            totals, ends = standing.after(state.scores())
            before = list(m.resets)
            m.finish_round(state)
            assert (totals, ends) == (m.totals, m.is_over())
            resets += m.resets != before
            checked += 1
    assert checked > 40 and resets == 1


def test_resets_and_ends_agree_with_the_match_on_random_totals() -> None:
    """The valuation's vectorised reset and end are the match's own, total for total."""
    rng = Random(5)
    for _ in range(300):
        n = rng.randint(2, 4)
        totals = [rng.choice([rng.randint(80, 110), 100]) for _ in range(n)]
        left: list[int | None] = [rng.choice([0, 1, None]) for _ in range(n)]
        passes = rng.random() < 0.5
        st = Standing(tuple(totals), 100, passes, None, 100, 50, tuple(left))
        arr = np.array([[totals]], dtype=np.int64)
        arr_left = np.array([[[1 << 30 if x is None else x for x in left]]], dtype=np.int64)
        _reset(st, arr, arr_left)
        reset_totals(totals, left, 100, 50)
        assert arr[0, 0].tolist() == totals
        assert bool(_over(st, arr)[0, 0]) == over(totals, 100, passes)


def test_near_the_target_the_reset_is_worth_more_than_a_low_round() -> None:
    rows = np.array([[5, 3], [0, 0], [10, 0], [0, 45], [30, 30]], dtype=np.int64)
    v = match_shares(CABO_AT, rows, 0, np.random.default_rng(1))
    hit, low, bust, they_bust, both = v.tolist()
    assert bust == 0.0 and both == 0.0  # past 100: the match is lost, at once
    assert they_bust == 1.0               # they pass 100 and we are lower: won
    assert hit > low                      # exactly 100 resets us to 50: better than 95
    assert 0.0 < low < 1.0


def test_the_same_world_meets_the_same_futures_for_every_candidate() -> None:
    rows = np.array([[2, 4], [3, 3], [2, 4], [3, 3]], dtype=np.int64)  # 2 candidates
    v = match_shares(CABO_AT, rows, 0, np.random.default_rng(2), pairs=2)
    assert v[0] == v[2] and v[1] == v[3]


def test_a_single_round_is_not_a_match() -> None:
    one = Match(Rules.preset("rulebook"), 3, rounds=1)
    one.new_round()
    assert not applies(one.standing()) and not applies(None)
    cabo = Match(Rules.preset("cabo"), 2, rounds=None)
    cabo.new_round()
    assert applies(cabo.standing())  # to 100, from the first round
    last = Match(Rules.preset("rulebook"), 2, rounds=2)
    state = last.new_round()
    play_round(state, [make_bot("memory", 0), make_bot("memory", 1)])
    last.finish_round(state)
    last.new_round()
    assert applies(last.standing()) == (len(set(last.totals)) > 1)


def _positions(preset: str, count: int) -> list[tuple[CardView, int]]:
    """Seeded decisions with a choice, from rounds between memory bots."""
    out: list[tuple[CardView, int]] = []
    for k in range(count):
        m = Match(Rules.preset(preset), 2, seed=k, rounds=1)
        state = m.new_round()
        bots = [make_bot("memory", k), make_bot("memory", k + 1)]
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            if len(view.legal) > 2 and len(out) < 8 * (k + 1):
                out.append((view, k))
            state.apply(bots[seat].act(view), seat)
    return out


def test_hard_decides_a_single_round_as_before() -> None:
    """At a table of one round the bot is told a standing; it decides every seeded position
    as a bot told nothing does (and as one told ``None``), draw for draw."""
    one = Match(Rules.preset("rulebook"), 2, rounds=1)
    one.new_round()
    single = one.standing()
    checked = 0
    for view, k in _positions("rulebook", 3):
        plain = BatchRolloutSearchBot(k, rows=64)
        told = BatchRolloutSearchBot(k, rows=64)
        told.standing = single
        assert told.act(view) == plain.act(view)
        assert told.rng.random() == plain.rng.random()  # the same draws were made
        checked += 1
    assert checked > 10


def test_near_the_target_the_search_values_rounds_by_the_match() -> None:
    """Us at 99 of a match to 100 (passed), them at 0: every round we score over 1 loses
    the match, so the rolled-out candidates are worth almost nothing whatever they win; told
    nothing, the same search values them by the round."""
    lost = Standing(totals=(99, 0), target=100, passes=True, rounds_left=None, reset_at=None,
                    reset_to=None, resets_left=(None, None))
    seen = 0
    for view, k in _positions("rulebook", 2):
        if view.seat != 0:
            continue
        plain = BatchRolloutSearchBot(k, rows=64, z=0.0)
        told = BatchRolloutSearchBot(k, rows=64, z=0.0)
        told.standing = lost
        cands = candidates(view, plain.prior.act(view))
        round_share, _ = plain.play_out(view, cands, 32)
        match_share, _ = told.play_out(view, cands, 32)
        assert match_share.max() < 0.2 < round_share.mean()
        seen += 1
        if seen == 3:
            break
    assert seen == 3


def test_cabos_native_search_values_rounds_by_the_match() -> None:
    """Cabo's match to 100, searched with native rollouts (the kernels score its rounds by
    its rules): at 99 against 0 no move wins the match."""
    lost = Standing(totals=(99, 0), target=100, passes=True, rounds_left=None, reset_at=None,
                    reset_to=None, resets_left=(None, None))
    for view, k in _positions("cabo", 2)[:6]:
        hard = BatchRolloutSearchBot(k, rows=256)
        hard.standing = lost
        hard.act(view)
        assert hard._python_search is None
        if hard.last_estimates:
            assert max(e.win_share for e in hard.last_estimates.values()) < 0.2
            return
    raise AssertionError("no searched decision among the positions")


def test_the_compiled_engine_search_values_rounds_by_the_match_too(monkeypatch) -> None:
    """Rules the native rollouts cannot play (none today: a field put back in
    ``KERNEL_LESS_FIELDS`` stands for a rule added before the kernels learn it) fall back to
    the compiled-engine search: it is told the standing and values its rollouts by the
    match."""
    from cambio.cards import batch

    monkeypatch.setattr(batch, "KERNEL_LESS_FIELDS", ("kamikaze",))
    lost = Standing(totals=(99, 0), target=100, passes=True, rounds_left=None, reset_at=None,
                    reset_to=None, resets_left=(None, None))
    for view, k in _positions("cabo", 2)[:6]:
        hard = BatchRolloutSearchBot(k)
        hard.standing = lost
        hard.act(view)
        fallback = hard._python_search
        assert isinstance(fallback, RolloutSearchBot) and fallback.standing is lost
        if fallback.last_estimates:
            assert max(e.win_share for e in fallback.last_estimates.values()) < 0.2
            return
    raise AssertionError("no searched decision among the positions")


def test_a_hint_in_a_match_is_told_the_standing() -> None:
    """A hint at a match table near the target reports the chance of winning the match (us
    at 99 of 100: almost none, whatever the round does), and says so; the same view with no
    standing is hinted by the round, as before."""
    lost = Standing(totals=(99, 0), target=100, passes=True, rounds_left=None, reset_at=None,
                    reset_to=None, resets_left=(None, None))
    for view, k in _positions("rulebook", 2):
        if view.seat != 0:
            continue
        told = suggest(view, seed=k, rows=64, standing=lost)
        plain = suggest(view, seed=k, rows=64)
        if told.win_share is None or plain.win_share is None:
            continue
        assert told.match and not plain.match
        assert told.win_share < 0.2 < plain.win_share
        assert "match win chance" in told.describe()
        assert "match" not in plain.describe()
        return
    raise AssertionError("no searched decision among the positions")
