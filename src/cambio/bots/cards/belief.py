"""Exact card counting over the cards one seat has not seen, for every bot to share.

What a seat knows is all in its view: the deck composition follows from the rules and the
table size, and every card it has seen *and where that card is now* is in the view (swaps and
gives move knowledge with the card; a wrong snap shows the card to all; a right snap puts it
on the pile; a reshuffle moves pile cards back into the unseen deck, where the view no longer
shows them). So the unseen cards are exactly ``full deck - visible cards``, and -- since
every arrangement of them over the unseen places (face-down slots the seat has not seen, the
deck, a held card it cannot see) is equally likely given the view -- each unseen place holds
card ``c`` with probability ``pool[c] / unseen``, and a random permutation of the pool over
those places is an exact sample of the posterior. ``tests/cards/test_belief.py`` checks this
against brute-force enumeration of every deal of a reduced deck.

Behaviour (an opponent keeps low cards) is *not* evidence here: that is a model of the
opponent, which bots add on top (see :mod:`cambio.bots.cards.search`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from random import Random
from typing import TYPE_CHECKING

from cambio.cards import EMPTY, HIDDEN, Card, CardView, Rules
from cambio.cards.cards import NUM_CARD_CODES
from cambio.cards.rules import tables

if TYPE_CHECKING:  # numpy only where a search deals many worlds (sample_rows)
    import numpy as np
    import numpy.typing as npt


@lru_cache(maxsize=256)
def full_counts(rules: Rules, players: int) -> tuple[int, ...]:
    """How many copies of each card code the table's deck holds."""
    counts = [0] * NUM_CARD_CODES
    for c in rules.deck_cards(players):
        counts[c] += 1
    return tuple(counts)


def unseen_pool(full: Sequence[int], visible: Iterable[Card]) -> list[int]:
    """Counts per card code of the cards not in ``visible`` (a ``ValueError`` if ``visible``
    holds a card more often than the deck does: the view would be impossible)."""
    pool = list(full)
    for c in visible:
        pool[c] -= 1
        if pool[c] < 0:
            raise ValueError(f"card {c} seen more often than the deck holds it")
    return pool


def visible_cards(view: CardView) -> list[Card]:
    """Every card the view shows: known grid cards, the whole pile, a known held card."""
    out = [c for g in view.grids for c in g if c >= 0]
    out += view.discard
    if view.held >= 0:
        out.append(view.held)
    return out


class Belief:
    """The posterior over unseen cards for one seat's view."""

    __slots__ = ("_cards", "held_hidden", "hidden", "pool", "rules", "total", "values")

    def __init__(self, view: CardView) -> None:
        self.rules = view.rules
        self.values: tuple[int, ...] = tables(view.rules).values
        self.pool = unseen_pool(full_counts(view.rules, view.players), visible_cards(view))
        self.total = sum(self.pool)
        self.hidden: list[tuple[int, int]] = [(s, i) for s, g in enumerate(view.grids)
                                              for i, c in enumerate(g) if c == HIDDEN]
        self.held_hidden = view.held == HIDDEN
        places = len(self.hidden) + view.deck_size + self.held_hidden
        if places != self.total:
            raise ValueError(f"{self.total} unseen cards for {places} unseen places")
        self._cards = [c for c, n in enumerate(self.pool) for _ in range(n)]

    def card_probs(self) -> list[float]:
        """P(an unseen place holds card code c), for every code."""
        t = self.total
        return [n / t if t else 0.0 for n in self.pool]

    def rank_prob(self, rank: int) -> float:
        """P(an unseen place holds a card of ``rank``) -- the odds of a blind snap."""
        if not self.total:
            return 0.0
        return sum(self.pool[rank * 4: rank * 4 + 4]) / self.total

    def value_dist(self) -> list[tuple[int, float]]:
        """The distribution of an unseen card's value, as sorted ``(value, p)`` pairs."""
        acc: dict[int, int] = {}
        for c, n in enumerate(self.pool):
            if n:
                v = self.values[c]
                acc[v] = acc.get(v, 0) + n
        t = self.total
        return [(v, n / t) for v, n in sorted(acc.items())]

    def mean(self) -> float:
        """Expected value of an unseen card (the deck's mean if nothing is unseen)."""
        if self.total:
            return sum(self.values[c] * n for c, n in enumerate(self.pool)) / self.total
        full = full_counts(self.rules, 2)
        return sum(self.values[c] * n for c, n in enumerate(full)) / sum(full)

    def slot(self, view: CardView, seat: int, slot: int) -> list[tuple[Card, float]]:
        """The distribution of the card in one slot: a point mass if seen, else the pool."""
        c = view.grids[seat][slot]
        if c == EMPTY:
            return []
        if c >= 0:
            return [(c, 1.0)]
        t = self.total
        return [(card, n / t) for card, n in enumerate(self.pool) if n]

    def samples(self, rng: Random, count: int) -> list[list[Card]]:
        """``count`` independent :meth:`sample` s at once (numpy, seeded from ``rng``): a
        search that deals hundreds of worlds would spend most of its time shuffling."""
        out: list[list[Card]] = self.sample_rows(rng, count).tolist()
        return out

    def sample_rows(self, rng: Random, count: int) -> npt.NDArray[np.int64]:
        """:meth:`samples` as the rows of a new ``count x unseen`` array.
        numpy is imported here, not above: the browser's bots (``expert``) count cards
        with this class and have no numpy (``server/solo.py``)."""
        import numpy as np

        gen = np.random.default_rng(rng.getrandbits(64))
        rows: npt.NDArray[np.int64] = gen.permuted(
            np.tile(np.array(self._cards, dtype=np.int64), (count, 1)), axis=1)
        return rows

    def sample(self, rng: Random) -> list[Card]:
        """The unseen cards in a uniformly random order: an exact posterior sample when dealt
        to the unseen places in any fixed order."""
        cards = self._cards.copy()
        rng.shuffle(cards)
        return cards


__all__ = ["Belief", "full_counts", "unseen_pool", "visible_cards"]
