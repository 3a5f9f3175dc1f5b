"""The ``expert`` bot: ``memory``'s card sense plus a model of the opponents and of the race.

Measured on self-play (``benchmarks/cards_belief.py``), two facts drive it:

* **Opponents keep low cards.** A card an opponent holds that we have not seen is not an
  average unseen card: by the fourth round of turns it is worth about half the mean of the
  unseen cards, because every turn the opponent replaced something high. ``memory`` values
  it at the plain mean, so it overrates opponents' totals and the blind swaps that take
  their cards. Here an opponent's unseen card follows the unseen-card distribution *tilted*
  towards low values (``p(v) ∝ pool(v)·exp(-λv)``, λ set so the mean matches
  :data:`OPPONENT_HIDDEN_RATIO` for the round).
* **The round is a race.** Heads-up, whoever calls Cambio wins about four rounds in five,
  and ``memory`` only calls at an estimated 3 or less. This bot computes the chance of
  winning if it calls now -- its own total against each opponent's, both as exact
  distributions over the unseen cards, each opponent given its final turn -- and calls
  when that chance reaches ``call_at``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cambio.cards import EMPTY, HIDDEN, Action, CardView, Phase, TieRule
from cambio.cards.actions import CAMBIO, addr, addr_seat

from ..renamed import renamed
from .belief import Belief
from .memory import ExpectedPointsBot, MemoryParams, _Knowledge

OPPONENT_HIDDEN_RATIO = (1.0, 0.92, 0.80, 0.62, 0.50, 0.42, 0.36, 0.33, 0.30)
"""Mean of an opponent's card we have not seen, as a share of the unseen-card mean, by round
of turns (``turn_number // players``; the last entry holds from then on). Measured on
``memory`` self-play, 2 players, rulebook and house (``benchmarks/cards_belief.py``)."""

Dist = dict[int, float]

EXPERT_MEMORY = MemoryParams(info_own=16.0)
"""``memory``'s weights, but learning an own card is worth twice as much (self-play tuned:
+2 to 3 points of win share against ``memory``; ``benchmarks/cards_strength.py``)."""


@dataclass(frozen=True, slots=True)
class ExpertParams:
    call_at: tuple[float, ...] = (0.9,)
    """Call Cambio when P(win | call now) reaches this; by players 2, 3, 4+ (the last
    entry holds for larger tables)."""
    final_turn: float = 1.0
    """Share of an opponent's expected improvement on its final turn that we count."""
    or_memory: bool = True
    """Also call whenever ``memory`` would."""
    swap_weight: float = 1.0
    """Weight of the own-total change in a blind swap."""
    veto: tuple[float, ...] = (0.6, 0.3)
    """Never call below this P(win | call), even when ``memory`` would; by players 2, 3+."""
    veto_until: int = 20
    """After this many rounds of turns the veto no longer holds: calling whenever
    ``memory`` would (whose threshold keeps rising) ends the round. Without it two bots
    that each see the call as a likely loss can play to the turn cap."""
    doubt_call: tuple[float, float] = (0.35, 0.95)
    """P(win | call) band in which the call is in doubt (a search then checks it)."""
    doubt_points: float = 1.5
    """Moves with the card in hand scored within this of the best are in doubt."""


class OpponentModelBot(ExpectedPointsBot):
    """``memory`` with opponent-aware estimates and a probabilistic Cambio call."""

    name = "expert"

    def __init__(self, seed: int = 0, params: ExpertParams | None = None,
                 memory: MemoryParams | None = None) -> None:
        super().__init__(seed, memory or EXPERT_MEMORY)
        self.expert = params or ExpertParams()
        self._opp = 0.0
        self.close: tuple[Action, ...] = ()
        """After a decision: the moves the heuristic found close to its choice (the choice
        first), or empty if it was clear-cut. A search checks only these."""

    def act(self, view: CardView) -> Action:
        legal = view.legal
        self.close = ()
        if view.phase == Phase.TURN_START and CAMBIO in legal and len(legal) > 1:
            p = self.win_if_call(view)
            if p >= self._call_at(view.players):
                choice = CAMBIO
            else:
                self._setup(view)
                k = _Knowledge(view, self._values, self._full, self.params)
                veto = by_players(self.expert.veto, view.players)
                if view.turn_number // view.players >= self.expert.veto_until:
                    veto = 0.0
                if self.expert.or_memory and p >= veto and self._should_call(view, k):
                    choice = CAMBIO
                else:
                    choice = self._turn_start_no_call(view, k)
            lo, hi = self.expert.doubt_call
            if lo <= p < hi:
                self.close = tuple(dict.fromkeys((choice, *legal)))
            return choice
        return super().act(view)

    def _drawn(self, view: CardView, k: _Knowledge) -> Action:
        self._opp = self._opp_mean(view, k)
        scores = self._drawn_scores(view, k)
        best = max(g for g, _ in scores)
        choice = next(a for g, a in scores if g == best)
        margin = self.expert.doubt_points
        self.close = (choice, *[a for g, a in scores if a != choice and g >= best - margin])
        return choice

    # ------------------------------------------------------------------ opponents' cards
    def _opp_mean(self, view: CardView, k: _Knowledge) -> float:
        rounds = view.turn_number // view.players
        ratio = OPPONENT_HIDDEN_RATIO[min(rounds, len(OPPONENT_HIDDEN_RATIO) - 1)]
        return k.mean * ratio

    def _power(self, view: CardView, k: _Knowledge) -> Action:
        self._opp = self._opp_mean(view, k)
        return super()._power(view, k)

    def _est_at(self, k: _Knowledge, a: int) -> float:
        c = k.at(a)
        if c == HIDDEN and addr_seat(a) != k.me:
            return self._opp
        return k.est(c)

    def _swap_weight(self) -> float:
        return self.expert.swap_weight

    def _blind_gain(self, k: _Knowledge) -> float:
        own = [k.est(c) for c in k.own() if c != EMPTY]
        others = [self._est_at(k, addr(s, i)) for s, g in enumerate(k.grids) if s != k.me
                  for i, c in enumerate(g) if c != EMPTY]
        if not own or not others:
            return 0.0
        return max(own) - min(others)

    def _call_at(self, players: int) -> float:
        return by_players(self.expert.call_at, players)

    def _turn_start_no_call(self, view: CardView, k: _Knowledge) -> Action:
        snap = self._best_snap(view, k)
        if snap is not None:
            return snap
        legal = tuple(a for a in view.legal if a != CAMBIO)
        return super()._turn_start(_without(view, legal), k)

    # ------------------------------------------------------------------ the race
    def win_if_call(self, view: CardView) -> float:
        """P(we win | we call Cambio now): our total against each opponent's after its final
        turn, as distributions over the unseen cards (opponents taken as independent)."""
        assert view.seat is not None
        belief = Belief(view)
        values = belief.values
        pool = belief.value_dist()
        if not pool:
            return 0.0
        me = view.seat
        rounds = view.turn_number // view.players
        ratio = OPPONENT_HIDDEN_RATIO[min(rounds, len(OPPONENT_HIDDEN_RATIO) - 1)]
        mean = sum(v * p for v, p in pool)
        theirs = tilt(pool, mean * ratio)
        mine = total_dist(view.grids[me], values, pool)
        ties_split = view.rules.tie_rule != TieRule.MOST_CARDS_THEN_NOT_CALLER
        p = 1.0
        for seat, grid in enumerate(view.grids):
            if seat == me:
                continue
            if all(c == EMPTY for c in grid):
                p *= _beat_empty(mine, view)
                continue
            other = total_dist(grid, values, theirs)
            worst = max((values[c] if c >= 0 else mean * ratio) for c in grid if c != EMPTY)
            gain = self.expert.final_turn * sum(q * (worst - v) for v, q in pool if v < worst)
            p *= beat(mine, other, gain, ties_split)
        return p


def _beat_empty(mine: Dist, view: CardView) -> float:
    """P(we win against an opponent with no cards left): its total is 0 and stays 0 (no
    slot to swap into). A tie goes to us if we hold more cards and the rules break ties by
    cards, is shared otherwise. (Counting such an opponent as a sure loss kept a bot on -1
    with one card from ever calling against an empty grid: a round to the turn cap.)"""
    below = sum(p for t, p in mine.items() if t < 0)
    tie = mine.get(0, 0.0)
    assert view.seat is not None
    by_cards = view.rules.tie_rule == TieRule.MOST_CARDS_THEN_NOT_CALLER
    if all(c == EMPTY for c in view.grids[view.seat]):
        return 0.0 if by_cards else 0.5  # same cards: the caller loses, or a shared win
    return below + tie if by_cards else below + 0.5 * tie


def by_players(table: tuple[float, ...], players: int) -> float:
    """The entry of ``table`` (by players 2, 3, 4 ...) for ``players``; the last entry holds
    for larger tables."""
    return table[min(players - 2, len(table) - 1)]


def _without(view: CardView, legal: tuple[Action, ...]) -> CardView:
    from dataclasses import replace

    return replace(view, legal=legal)


def tilt_lambda(dist: list[tuple[int, float]], target: float) -> float:
    """The λ ≥ 0 for which ``dist`` reweighted by ``exp(-λ v)`` has mean ``target``."""
    mean = sum(v * p for v, p in dist)
    if target >= mean or len(dist) < 2:
        return 0.0
    lo, hi = 0.0, 5.0
    for _ in range(40):
        lam = (lo + hi) / 2
        w = [p * math.exp(-lam * v) for v, p in dist]
        m = sum(v * x for (v, _), x in zip(dist, w, strict=True)) / sum(w)
        if m > target:
            lo = lam
        else:
            hi = lam
    return hi


def tilt(dist: list[tuple[int, float]], target: float) -> list[tuple[int, float]]:
    """``dist`` reweighted by ``exp(-λ v)`` so that its mean is ``target`` (clamped to the
    reachable range): the least-informative way to say "lower than average"."""
    lam = tilt_lambda(dist, target)
    if lam == 0.0:
        return dist
    w = [p * math.exp(-lam * v) for v, p in dist]
    t = sum(w)
    return [(v, x / t) for (v, _), x in zip(dist, w, strict=True)]


def opponent_lambda(view: CardView, belief: Belief, scale: float = 1.0) -> float:
    """The tilt of an opponent's unseen card at this point of the round; ``scale`` times
    :data:`OPPONENT_HIDDEN_RATIO` is the share of the unseen mean it is tilted to (below 1:
    an opponent that keeps lower cards than ``memory``)."""
    dist = belief.value_dist()
    if not dist:
        return 0.0
    rounds = view.turn_number // view.players
    ratio = scale * OPPONENT_HIDDEN_RATIO[min(rounds, len(OPPONENT_HIDDEN_RATIO) - 1)]
    return tilt_lambda(dist, ratio * sum(v * p for v, p in dist))


def total_dist(grid: tuple[int, ...], values: tuple[int, ...],
               hidden: list[tuple[int, float]]) -> Dist:
    """The distribution of a grid's total: known cards exact, each unseen card from
    ``hidden`` (independently -- exact up to drawing without replacement)."""
    base = sum(values[c] for c in grid if c >= 0)
    out: Dist = {base: 1.0}
    for c in grid:
        if c == HIDDEN:
            nxt: Dist = {}
            for t, p in out.items():
                for v, q in hidden:
                    nxt[t + v] = nxt.get(t + v, 0.0) + p * q
            out = nxt
    return out


def beat(mine: Dist, other: Dist, shift: float, ties_split: bool) -> float:
    """P(mine < other - shift), a tie counting half when ties are shared."""
    p = 0.0
    for a, pa in mine.items():
        for b, pb in other.items():
            d = (b - shift) - a
            if d > 0.5:
                p += pa * pb
            elif d > -0.5 and ties_split:
                p += 0.5 * pa * pb
    return p


__all__ = [
    "OPPONENT_HIDDEN_RATIO",
    "ExpertParams",
    "OpponentModelBot",
    "beat",
    "by_players",
    "opponent_lambda",
    "tilt",
    "tilt_lambda",
    "total_dist",
]

if not TYPE_CHECKING:  # the old name, for one release (mypy sees only the new one)
    __getattr__ = renamed(__name__, {"ExpertBot": "OpponentModelBot"})
