"""Card counting: the belief over unseen cards against brute-force enumeration."""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from random import Random

import pytest

from cambio.bots.cards import make_bot
from cambio.bots.cards.belief import Belief, full_counts, unseen_pool, visible_cards
from cambio.cards import HIDDEN, Rules, State, observe
from cambio.cards.cards import NUM_CARD_CODES, parse_cards

from .knowledge import permute_unseen


def brute_force(deck: list[int], seen: dict[int, int]) -> dict[int, Counter[int]]:
    """P(position i holds card c | the cards at ``seen`` positions), by enumerating every
    distinct ordering of ``deck`` (each ordering of the physical cards equally likely)."""
    counts: dict[int, Counter[int]] = {i: Counter() for i in range(len(deck))
                                       if i not in seen}
    for order in permutations(range(len(deck))):
        cards = [deck[j] for j in order]
        if all(cards[i] == c for i, c in seen.items()):
            for i in counts:
                counts[i][cards[i]] += 1
    return counts


@pytest.mark.parametrize("seen_positions", [(), (0,), (1, 4), (0, 2, 5), (0, 1, 2, 3, 4)])
def test_unseen_pool_matches_enumeration_on_a_reduced_deck(seen_positions):
    # Copies share a code, as with several decks: two red kings, two aces, a 7, a joker.
    deck = parse_cards(["KD", "KD", "AC", "AC", "7S", "XB", "QH"])
    rng = Random(len(seen_positions))
    for _ in range(4):
        deal = deck[:]
        rng.shuffle(deal)
        seen = {i: deal[i] for i in seen_positions}
        exact = brute_force(deck, seen)
        full = [0] * NUM_CARD_CODES
        for c in deck:
            full[c] += 1
        pool = unseen_pool(full, seen.values())
        total = sum(pool)
        for counter in exact.values():
            n = sum(counter.values())
            for c in set(deck):
                assert counter[c] / n == pytest.approx(pool[c] / total)


def test_an_impossible_view_is_refused():
    full = [0] * NUM_CARD_CODES
    ace = parse_cards(["AC"])[0]
    full[ace] = 1
    with pytest.raises(ValueError):
        unseen_pool(full, [ace, ace])


@pytest.mark.parametrize("preset", ["rulebook", "house", "wikipedia"])
def test_belief_counts_every_unseen_place_through_whole_rounds(preset):
    """Swaps, gives, snaps (right and wrong), reshuffles: the pool always matches the
    unseen places exactly (the constructor checks it) and the true hidden cards."""
    for k in range(12):
        players = 2 + k % 3
        state = State(Rules.preset(preset), players, seed=k)
        bots = [make_bot("random" if (k + s) % 2 else "memory", k) for s in range(players)]
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            belief = Belief(view)
            truth = Counter(state.deck)
            for s, g in enumerate(view.grids):
                truth.update(state.grids[s][i] for i, c in enumerate(g) if c == HIDDEN)
            if view.held == HIDDEN:
                truth[state.held] += 1
            assert {c: n for c, n in enumerate(belief.pool) if n} == dict(+truth)
            state.apply(bots[seat].act(view), seat)


def test_belief_marginals_match_sampling_of_consistent_states():
    """Empirical frequency of a hidden slot's rank over states the seat cannot tell apart."""
    state = State(Rules.preset("rulebook"), 2, seed=3)
    view = observe(state, 0)
    belief = Belief(view)
    rng = Random(0)
    hits = sum(permute_unseen(state, 0, rng).grids[1][0] >> 2 == 13 for _ in range(4000))
    assert hits / 4000 == pytest.approx(belief.rank_prob(13), abs=0.02)
    assert sum(full_counts(Rules.preset("rulebook"), 2)) == 54
    assert len(visible_cards(view)) == 2


def test_batched_samples_are_shuffles_of_the_unseen_cards() -> None:
    from random import Random

    from cambio.bots.cards.belief import Belief
    from cambio.cards import Rules, State, observe

    view = observe(State(Rules.preset("rulebook"), 2, seed=5), 0)
    belief = Belief(view)
    rows = belief.samples(Random(1), 400)
    single = sorted(belief.sample(Random(1)))
    assert all(sorted(r) == single for r in rows)
    # Every unseen card reaches the first place about equally often (52 cards, 400 rows).
    firsts = {r[0] for r in rows}
    assert len(firsts) > len(set(single)) * 0.8
    assert belief.samples(Random(1), 3) == belief.samples(Random(1), 3)
