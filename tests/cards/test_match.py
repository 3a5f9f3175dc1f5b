"""Matches: the defaults a table relies on, and who starts the next round when winners tie
(SPEC 1.2: "the winner of the last round" starts; a ruling picks the first of tied winners
clockwise from the round's first player)."""

from __future__ import annotations

import pytest

from cambio.cards import Match, Rules, RulesError, Standing, State
from cambio.cards.actions import DISCARD, DRAW, KEEP, PASS, SKIP, kind_of


def _finish(state: State) -> None:
    """Play the round out quietly (draw and discard, pass every poll)."""
    while not state.is_over():
        acts = state.legal_actions()
        pick = [a for a in acts if kind_of(a) in (DRAW, DISCARD, PASS, SKIP, KEEP)]
        state.apply(pick[0] if pick else acts[0])


def test_a_match_is_one_polled_round_by_default():
    m = Match(Rules.preset("rulebook", max_turns=2), 2, seed=4)
    s = m.new_round()
    assert s.polled is True and m.polled is True
    _finish(s)
    m.finish_round(s)
    assert m.is_over()


def test_a_real_time_match_deals_real_time_rounds():
    m = Match(Rules.preset("rulebook"), 3, rounds=2, polled=False)
    assert m.new_round().polled is False


def test_a_match_of_exactly_one_round_is_allowed():
    m = Match(Rules.preset("rulebook"), 2, rounds=1)
    assert m.rounds == 1 and not m.is_over()
    with pytest.raises(RulesError):
        Match(Rules.preset("rulebook"), 2, rounds=0)


# (seed, first dealer, the round's tied winners, who starts the next round). The deal
# depends on the seed only, so the same round is won by the same seats whoever dealt.
TIES = [
    (72, 1, [1, 3], 3),  # first player 2: seat 3 is next clockwise, seat 1 the farthest
    (72, 2, [1, 3], 3),  # first player 3 is a winner: they start again
    (72, 0, [1, 3], 1),  # first player 1 is a winner
    (35, 2, [0, 1], 0),  # first player 3: seat 0 comes before seat 1
    (48, 3, [2, 3], 2),  # first player 0: seat 2 before seat 3
]


@pytest.mark.parametrize("seed,first_dealer,winners,starter", TIES)
def test_the_first_tied_winner_clockwise_from_the_first_player_starts_next(
        seed, first_dealer, winners, starter):
    m = Match(Rules.preset("wikipedia", max_turns=1), 4, seed=seed, rounds=3,
              first_dealer=first_dealer)
    s = m.new_round()
    _finish(s)
    assert s.winners() == winners
    m.finish_round(s)
    assert m.next_first_player() == starter and m.dealer == (starter - 1) % 4
    assert m.new_round().current_player() == starter


def test_a_match_without_a_seed_is_seed_zero():
    rules = Rules.preset("rulebook")
    assert Match(rules, 2).new_round().seed == Match(rules, 2, seed=0).new_round().seed
    assert Match(rules, 2).round_seed(1) != Match(rules, 2, seed=1).round_seed(1)


# A Cabo match to 100, played by two memory bots (seed 4, bot seeds 40 and 41): seat 1
# reaches exactly 100 after round 23 and is reset to 50 (its one reset); seat 0 passes 100
# in round 24, which ends the match, and seat 1 wins on the lower total. Round 16 is a
# failed call (seat 0's 8 points and the 10-point penalty; seat 1, lowest, scores its 5).
CABO_MATCH = [
    ([0, 12], [0, 12]), ([6, 0], [6, 12]), ([0, 9], [6, 21]), ([9, 0], [15, 21]),
    ([0, 6], [15, 27]), ([7, 0], [22, 27]), ([0, 11], [22, 38]), ([0, 7], [22, 45]),
    ([9, 0], [31, 45]), ([9, 0], [40, 45]), ([4, 0], [44, 45]), ([0, 5], [44, 50]),
    ([8, 0], [52, 50]), ([0, 5], [52, 55]), ([0, 11], [52, 66]), ([18, 5], [70, 71]),
    ([10, 0], [80, 71]), ([7, 0], [87, 71]), ([0, 7], [87, 78]), ([0, 7], [87, 85]),
    ([0, 7], [87, 92]), ([6, 0], [93, 92]), ([0, 8], [93, 50]), ([16, 4], [109, 54]),
]


def test_golden_cabo_match_to_100_with_a_reset_at_exactly_100():
    from cambio.bots.cards.base import play_round
    from cambio.bots.cards.memory import ExpectedPointsBot

    m = Match(Rules.preset("cabo"), 2, seed=4, rounds=None)
    bots = [ExpectedPointsBot(40), ExpectedPointsBot(41)]
    played = []
    while not m.is_over():
        s = m.new_round()
        play_round(s, bots)
        m.finish_round(s)
        played.append((s.scores(), list(m.totals)))
    assert played == CABO_MATCH
    assert m.resets == [0, 1] and m.winners() == [1]


def test_a_standing_is_what_the_match_does_next():
    """``Match.standing()`` is the public standing a bot plays a match by, and its
    ``after(scores)`` the totals and end that ``finish_round`` then gives (fed scores here,
    as ``tests/cards/test_presets.py`` feeds them: the arithmetic, not a round's play)."""
    m = Match(Rules.preset("cabo"), 2, rounds=None)
    assert m.standing() == Standing((0, 0), 100, True, None, 100, 50, (1, 1))
    for scores in ([60, 10], [40, 10], [50, 10], [1, 0]):
        expected = m.standing().after(scores)
        m.round_scores.append(scores)
        m.round_winners.append([1])
        m.totals = [t + s for t, s in zip(m.totals, scores, strict=True)]
        m._reset_exact_hits()
        assert expected == (m.totals, m.is_over())
    assert m.standing().resets_left == (0, 1)  # the one reset was spent at 100
    at95 = Standing((95, 60), 100, True, None, 100, 50, (1, 1))
    assert at95.after([5, 3]) == ([50, 63], False)
    assert at95.after([10, 0]) == ([105, 60], True)
    assert at95.after([0, 40]) == ([95, 50], False)  # 100 exactly: reset, not over
    spent = Standing((95, 60), 100, True, None, 100, 50, (0, None))
    assert spent.after([5, 40]) == ([100, 50], False)
    reached = Standing((95, 60), 100, False, None, None, None, (None, None))
    assert reached.after([5, 0]) == ([100, 60], True)
    with pytest.raises(ValueError):  # a score per seat, no fewer
        at95.after([5])


def test_a_standing_counts_the_rounds_left():
    m = Match(Rules.preset("rulebook"), 2, rounds=3)
    m.new_round()
    first = m.standing()
    assert first.rounds_left == 2 and first.target is None and not first.single_round()
    assert first.after([4, 9]) == ([4, 9], False)
    last = Standing((10, 12), None, False, 0, None, None, (None, None))
    assert last.after([1, 1]) == ([11, 13], True) and not last.single_round()
    assert Standing((0, 0), None, False, 0, None, None, (None, None)).single_round()
    assert not Standing((0, 0), 100, True, 0, None, None, (None, None)).single_round()
