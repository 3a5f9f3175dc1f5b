"""Reading the opponents: what their public actions say about the cards they hide.

The exact belief (:mod:`cambio.bots.cards.belief`) treats every arrangement of the unseen
cards as equally likely; a player's choices say more. A player who draws a card and throws
it away keeps the cards it knows because they are no worse; a player who draws a 2 and swaps
it into a slot it had looked at replaced something higher. Both come down to one reading of
every ordinary discard ``X`` by an opponent ``t`` at its turn:

    each card of ``t``'s grid that ``t`` knew before the turn, still holds, and we have not
    seen, is probably worth no more than ``X``.

It holds whether ``t`` discarded the card it drew (it did not want ``X`` in place of any card
it knew) or swapped the drawn card into one of those slots (a sensible player replaces the
highest card it knows, so the others are no higher than ``X``, and the new card is lower) --
which matters, because the two look the same from outside when the replaced slot was one
only ``t`` had seen. When the replaced slot is visible from outside (its seen mask changes to
only ``t``), the new card is bounded by ``X`` if ``t`` had known the old one. A discard that
fires a power is weaker evidence (a player may throw a high card away for its power), so its
bound is looser.

Each bound is soft: a card of value ``v`` under the bound ``b`` has likelihood
``sigmoid(sharpness * (b - v))``, so an opponent that plays against the reading (a slip, a
different style) lowers a world's weight but never rules it out. The bounds of one slot keep
the tightest; a slot whose seen mask changes otherwise (a peek, a blind swap, a snap, a give)
loses its bound, since the card there may have moved.

The reading is built from the seat's successive views only -- the public course of the round,
never the state -- so two rounds that look the same to the seat read the same
(``tests/cards/test_reading.py``). A discard is read only when it is the one change between
two views of the seat (a snap poll after every discard gives that on turn-based tables);
anything else (two turns between views, a reshuffle, a snap) is skipped, not guessed.

:func:`weighted_worlds` turns the reading into worlds for a search: it deals candidate
worlds from the exact belief and keeps those the reading (and the usual tilts: opponents keep
low cards, a caller is low) makes likely -- sampling importance resampling, without
replacement so the worlds stay distinct.
"""

from __future__ import annotations

import math
from random import Random

import numpy as np
import numpy.typing as npt

from cambio.cards import EMPTY, HIDDEN, CardView, Phase, Power, State
from cambio.cards.rules import tables

from .belief import Belief
from .expert import opponent_lambda
from .search import caller_tilt, determinize, is_final_turn

SHARPNESS = 1.0
"""How sharply a bound cuts (per point of card value) in the soft likelihood."""
MARGIN = 0.5
"""Slack of a bound after a discard that fires no power."""
POWER_MARGIN = 3.0
"""Slack after a discard that fires a power (it may have been thrown away for the power)."""
TRUST_PRIOR = (1.0, 0.8)
"""Before an opponent's bounds are checked the reading is trusted 0.8, with the weight of one
check's worth of chance (:meth:`OpponentReading.trust`; the rest of the likelihood is flat,
so a style the reading does not fit costs less)."""
OVERSAMPLE = 4
"""Candidate worlds dealt per world kept by :func:`weighted_worlds`."""


class OpponentReading:
    """Soft upper bounds on opponents' hidden cards, read from one seat's views in order.

    Feed it every view the seat is shown (:meth:`update`), in order; :attr:`bounds` maps
    ``(seat, slot)`` to the bound on the value of the card there.
    """

    def __init__(self, *, margin: float = MARGIN, power_margin: float = POWER_MARGIN) -> None:
        self.margin = margin
        self.power_margin = power_margin
        self.bounds: dict[tuple[int, int], float] = {}
        self.checks: dict[int, list[float]] = {}
        """Per opponent, bounds checked when the card came to light: ``[checked, held,
        expected]`` (``expected``: how many would have held by chance, by the exact
        belief). Kept from round to round (a player's style outlives a deal)."""
        self.discards_read = 0
        """Discards read since the round began (for tests and benchmarks)."""
        self._prev: CardView | None = None

    def update(self, view: CardView) -> None:
        """Read what changed since the previous view (a new round starts afresh)."""
        prev, self._prev = self._prev, view
        if prev is None or _new_round(prev, view):
            self.bounds = {}
            self.discards_read = 0
            return
        self._forget_moved(prev, view)
        if _one_discard_by_opponent(prev, view):
            self._read_discard(prev, view)

    def _forget_moved(self, prev: CardView, view: CardView) -> None:
        """Drop the bounds of slots whose card may have changed, or that we now see --
        checking the bound when the same card shows where it was (we looked at it)."""
        assert view.seat is not None
        mine = 1 << view.seat
        for key in list(self.bounds):
            seat, slot = key
            before, now = prev.seen[seat][slot], view.seen[seat][slot]
            card = view.grids[seat][slot]
            if before == now and card == HIDDEN:
                continue
            if card >= 0 and now & ~before == mine and now & mine:
                self._check(prev, seat, card, self.bounds[key])
            del self.bounds[key]

    def _check(self, prev: CardView, seat: int, card: int, bound: float) -> None:
        """Tally one bound against the card it bounded, and what chance alone would give."""
        values = tables(prev.rules).values
        belief = Belief(prev)
        chance = sum(n for c, n in enumerate(belief.pool) if values[c] <= bound) / belief.total
        tally = self.checks.setdefault(seat, [0.0, 0.0, 0.0])
        tally[0] += 1
        tally[1] += values[card] <= bound
        tally[2] += chance

    def trust(self, seat: int) -> float:
        """How far the reading fits ``seat``, in [0, 1]: the share of the bounds that chance
        would break which held when checked (1: every one held; 0: no better than chance),
        starting from :data:`TRUST_PRIOR` pseudo-checks."""
        checked, held, expected = self.checks.get(seat, (0.0, 0.0, 0.0))
        weight, prior = TRUST_PRIOR
        room = checked - expected  # bounds chance alone would have broken
        return min(1.0, max(0.0, (held - expected + weight * prior) / (room + weight)))

    def _read_discard(self, prev: CardView, view: CardView) -> None:
        t = view.turn
        card = view.discard[-1]
        tab = tables(view.rules)
        slack = self.margin if tab.powers[card] == Power.NONE else self.power_margin
        bound = tab.values[card] + slack
        bit = 1 << t
        self.discards_read += 1
        if not all(m & bit for m, c in zip(prev.seen[t], prev.grids[t], strict=True)
                   if c != EMPTY):
            # While a player has cards it has never seen, a drawn card goes there for what
            # it teaches (every bot here values that above any card it knows): a discard
            # then says nothing about the cards it knows.
            return
        for slot, c in enumerate(view.grids[t]):
            if c != HIDDEN:
                continue
            before, now = prev.seen[t][slot], view.seen[t][slot]
            if before == now and before & bit:
                pass  # known to t when it chose, and kept (or replaced by a lower card)
            elif now == bit and before != now and before & bit:
                pass  # the drawn card went in here, over a card t knew: lower than it
            else:
                continue
            key = (t, slot)
            self.bounds[key] = min(bound, self.bounds.get(key, math.inf))

    def log_likelihood(self, view: CardView, sharpness: float = SHARPNESS
                       ) -> dict[tuple[int, int], npt.NDArray[np.float64]]:
        """Per bounded slot still hidden in ``view``: the log-likelihood of each card code,
        ``trust * sigmoid(sharpness * (bound - value)) + 1 - trust`` with the seat's
        :meth:`trust` (an opponent the reading does not fit is read less)."""
        values = np.asarray(tables(view.rules).values, dtype=np.float64)
        out: dict[tuple[int, int], npt.NDArray[np.float64]] = {}
        for (seat, slot), b in self.bounds.items():
            if view.grids[seat][slot] == HIDDEN:
                fits = 1.0 / (1.0 + np.exp(-sharpness * (b - values)))
                trust = self.trust(seat)
                out[(seat, slot)] = np.log(trust * fits + (1.0 - trust))
        return out


def _new_round(prev: CardView, view: CardView) -> bool:
    return (view.players != prev.players or view.dealer != prev.dealer
            or view.turn_number < prev.turn_number or view.reshuffles < prev.reshuffles
            or (len(view.discard) < len(prev.discard) and view.reshuffles == prev.reshuffles))


def _one_discard_by_opponent(prev: CardView, view: CardView) -> bool:
    """Whether exactly one thing happened between the views: an opponent's turn discard."""
    t = view.turn
    return (view.phase == Phase.POLL and t != view.seat and prev.turn != t
            and view.reshuffles == prev.reshuffles and view.last_snap == prev.last_snap
            and len(view.discard) == len(prev.discard) + 1
            and view.discard[:-1] == prev.discard and view.caller == prev.caller
            and len(view.grids[t]) == len(prev.grids[t])
            and view.grids[t].count(EMPTY) == prev.grids[t].count(EMPTY))


def weighted_worlds(view: CardView, belief: Belief, rng: Random, count: int,
                    reading: OpponentReading | None, *, tilt: float = 0.0,
                    seat_tilt: dict[int, float] | None = None,
                    oversample: int = OVERSAMPLE) -> list[list[int]]:
    """``count`` orders of the unseen cards, weighted by the reading and the tilts.

    Each order deals the hidden slots in the order of ``belief.hidden`` from its end (then
    a hidden held card, then the deck), as :func:`~cambio.bots.cards.search.determinize`
    does with no tilt of its own: pass the orders there with ``tilt=0``. An opponent's
    hidden card ``c`` weighs ``exp(-tilt * value(c))`` (``seat_tilt``'s value for its seat
    instead, if any) times the reading's likelihood of ``c`` in that slot.
    """
    me = view.seat
    pool = belief.samples(rng, count * oversample)
    cards = np.asarray(pool, dtype=np.int64)
    if cards.size == 0:
        return pool[:count]
    values = np.asarray(belief.values, dtype=np.float64)
    lik = reading.log_likelihood(view) if reading is not None else {}
    special = seat_tilt or {}
    total = cards.shape[1]
    logw = np.zeros(cards.shape[0])
    for k, (seat, slot) in enumerate(belief.hidden):
        if seat == me:
            continue
        table = -special.get(seat, tilt) * values
        extra = lik.get((seat, slot))
        if extra is not None:
            table = table + extra
        logw += table[cards[:, total - 1 - k]]
    p = np.exp(np.maximum(logw - logw.max(), -600.0))  # every world stays possible
    p /= p.sum()
    gen = np.random.default_rng(rng.getrandbits(64))
    keep = gen.choice(len(pool), size=count, replace=False, p=p)
    return [pool[i] for i in keep]


def read_worlds(view: CardView, rng: Random, worlds: int, reading: OpponentReading, *,
                knows: float | None = None) -> list[State]:
    """``worlds`` worlds for a search from ``view``: :func:`weighted_worlds` with the tilts
    ``deep`` deals with (opponents keep low cards; the caller is low on our last turn),
    dealt by :func:`~cambio.bots.cards.search.determinize`."""
    belief = Belief(view)
    lam = opponent_lambda(view, belief)
    seat_tilt = caller_tilt(view, belief) if is_final_turn(view) else None
    orders = weighted_worlds(view, belief, rng, worlds, reading, tilt=lam, seat_tilt=seat_tilt)
    return [determinize(view, belief, rng, knows=knows, cards=cards) for cards in orders]


__all__ = ["OpponentReading", "read_worlds", "weighted_worlds"]
