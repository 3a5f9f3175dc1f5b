"""The ``memory`` bot: plays on every card its seat has seen, and on averages for the rest.

It keeps no state of its own: the view already carries each card the seat has seen and where
that card is now, so every decision is a pure function of the view. That makes the bot
deterministic, cheap to clone into search, and provably blind to what it has not seen.

An unseen card is valued by the distribution of the cards the seat has not seen: the full deck
for these rules and this table, minus every card visible in the view (known grid cards, the
discard pile, a known held card). Each decision scores the legal actions in "points off my
total" and picks the best; see ``docs/cards-bots.md`` for the reasoning behind each score.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cambio.cards import EMPTY, HIDDEN, Action, CardView, Phase, Power, PowerTrigger, Rules
from cambio.cards.actions import (
    CAMBIO,
    DISCARD,
    DRAW,
    EXCHANGE,
    LOOK,
    PASS,
    PEEK,
    SNAP,
    SWAP,
    SWITCH,
    TAKE,
    addr_seat,
    addr_slot,
    arg_a,
    arg_b,
    exchange_slots,
    kind_of,
    snap,
)
from cambio.cards.rules import tables

from ..renamed import renamed


@dataclass(frozen=True, slots=True)
class MemoryParams:
    """The bot's tunable weights (points of score unless said otherwise)."""

    cambio_total: float = 3.0
    """Call Cambio when the estimated own total is at most this..."""
    cambio_hidden: int = 1
    """...and at most this many own cards are unseen."""
    cambio_relax: float = 0.5
    """Raise the threshold by this much per round of turns after ``relax_after`` rounds."""
    relax_after: int = 6
    info_own: float = 8.0
    """What learning one of our own unseen cards is worth."""
    info_other: float = 0.4
    """What learning an opponent's unseen card is worth."""
    risk: float = 0.3
    """Cost of swapping a known own card for an unseen one (same mean, more doubt)."""
    snap_odds: float = 0.8
    """Chance a planned snap of a known own card is not beaten by someone else."""
    min_snap_gain: float = 1.0
    """Snap an opponent's card only if the card we give them is worth at least this."""
    swap_power: float = 0.7
    """Share of a blind swap's estimated gain credited when choosing to fire that power."""
    call_lead: float = -math.inf
    """Call only when the estimated own total plus this is below every opponent's
    estimated total. The default never binds; 0 calls only when we think we are strictly
    lowest, which is what a call needs in wikipedia, where the caller loses a tie."""


TUNED = MemoryParams(cambio_total=4.26, cambio_hidden=2, cambio_relax=1.996, relax_after=11,
                     info_own=22.162, info_other=5.004, risk=-1.691, snap_odds=1.5,
                     min_snap_gain=0.005, swap_power=0.141)
"""Weights tuned by CMA-ES for win share against ``memory`` (2 players, rulebook;
``benchmarks/cards_tune.py``, docs/reports/cards-strength.md)."""


class _Knowledge:
    """What the seat can infer from one view: card values and the unseen-card distribution."""

    __slots__ = ("dist", "grids", "info_other", "info_own", "me", "mean", "values")

    def __init__(self, view: CardView, values: tuple[int, ...], full: Counter[int],
                 params: MemoryParams) -> None:
        self.values = values
        self.grids = view.grids
        assert view.seat is not None
        self.me = view.seat
        # Knowing a card pays off in later decisions; once Cambio is called there are none.
        final = view.caller is not None
        self.info_own = 0.0 if final else params.info_own
        self.info_other = 0.0 if final else params.info_other
        unseen = full.copy()
        for g in view.grids:
            for c in g:
                if c >= 0:
                    unseen[values[c]] -= 1
        for c in view.discard:
            unseen[values[c]] -= 1
        if view.held >= 0:
            unseen[values[view.held]] -= 1
        total = sum(n for n in unseen.values() if n > 0)
        self.dist = [(v, n / total) for v, n in sorted(unseen.items()) if n > 0] if total else []
        self.mean = sum(v * p for v, p in self.dist) if total else _mean_value(full)

    def est(self, card: int) -> float:
        """A card's value if seen, else the mean of unseen cards (callers skip ``EMPTY``)."""
        return self.values[card] if card >= 0 else self.mean

    def own(self) -> tuple[int, ...]:
        return self.grids[self.me]

    def own_total(self) -> float:
        return sum(self.est(c) for c in self.own() if c != EMPTY)

    def total(self, seat: int) -> float:
        return sum(self.est(c) for c in self.grids[seat] if c != EMPTY)

    def at(self, a: int) -> int:
        return self.grids[addr_seat(a)][addr_slot(a)]

    def target_bias(self, seat: int) -> float:
        """A tiny preference among otherwise equal opponents: the one with the lowest
        estimated total (hurting the leader), then clockwise from us. Without it every bot
        would break ties towards the lowest seat number and gang up on seat 0."""
        return -0.001 * self.total(seat) - 1e-6 * ((seat - self.me) % len(self.grids))

    def gain_below(self, value: float) -> float:
        """E[max(0, value - X)] for an unseen card X: what replacing ``value`` blind gains."""
        return sum(p * (value - v) for v, p in self.dist if v < value)

    def gain_above(self, value: float) -> float:
        """E[max(0, X - value)] for an unseen card X."""
        return sum(p * (v - value) for v, p in self.dist if v > value)

    def spread(self) -> float:
        """E[max(0, X1 - X2)] for two unseen cards: what looking at both and keeping the
        better one gains."""
        return sum(p * self.gain_below(v) for v, p in self.dist)


def _mean_value(full: Counter[int]) -> float:
    n = sum(full.values())
    return sum(v * k for v, k in full.items()) / n if n else 0.0


class ExpectedPointsBot:
    """Swaps low cards in, discards high ones, uses powers, snaps known matches, calls low."""

    name = "memory"

    def __init__(self, seed: int = 0, params: MemoryParams | None = None) -> None:
        self.seed = seed
        self.params = params or MemoryParams()
        self._rules: Rules | None = None
        self._players = 0
        self._values: tuple[int, ...] = ()
        self._powers: tuple[Power, ...] = ()
        self._full: Counter[int] = Counter()

    # ------------------------------------------------------------------ entry point
    def act(self, view: CardView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        self._setup(view)
        ph = view.phase
        if ph == Phase.POLL:
            return self._poll(view)
        k = _Knowledge(view, self._values, self._full, self.params)
        if ph == Phase.GIVE:
            return self._give(k, legal)
        if ph == Phase.TURN_START:
            snap = self._best_snap(view, k)
            if snap is not None:
                return snap
            return self._turn_start(view, k)
        if ph == Phase.DRAWN:
            snap = self._best_snap(view, k)
            if snap is not None:
                return snap
            return self._drawn(view, k)
        return self._power(view, k)

    def _setup(self, view: CardView) -> None:
        if view.rules is self._rules and view.players == self._players:
            return
        rules = view.rules
        t = tables(rules)
        self._rules, self._players = rules, view.players
        self._values, self._powers = t.values, t.powers
        cards = rules.deck_cards(view.players)
        self._full = Counter(t.values[c] for c in cards)

    # ------------------------------------------------------------------ snapping
    def _poll(self, view: CardView) -> Action:
        if not view.discard:
            return PASS
        rank = view.discard[-1] >> 2
        if not any(c >= 0 and c >> 2 == rank for g in view.grids for c in g):
            return PASS  # the common case: no known match anywhere
        k = _Knowledge(view, self._values, self._full, self.params)
        return self._best_snap(view, k) or PASS

    def _best_snap(self, view: CardView, k: _Knowledge) -> Action | None:
        """A snap of a known match that lowers our total, or ``None``.

        Our own card: we shed its value. An opponent's: we shed the card we give them (our
        worst), so it is only worth it when that card is worth something.
        """
        legal = view.legal
        if not view.discard or not any(kind_of(a) == SNAP for a in legal):
            return None
        rank = view.discard[-1] >> 2
        values = self._values
        me = k.me
        worst = max((k.est(c) for c in k.own() if c != EMPTY), default=0.0)
        best: tuple[float, Action] | None = None
        for seat, grid in enumerate(view.grids):
            for slot, c in enumerate(grid):
                if c < 0 or c >> 2 != rank:
                    continue
                if seat == me:
                    gain = float(values[c])
                elif worst >= self.params.min_snap_gain:
                    gain = worst + k.target_bias(seat)
                else:
                    continue
                action = snap(seat, slot)
                if gain > 0 and action in legal and (best is None or gain > best[0]):
                    best = (gain, action)
        return None if best is None else best[1]

    def _give(self, k: _Knowledge, legal: tuple[Action, ...]) -> Action:
        """Give away our worst card (the highest estimate; first such slot on ties)."""
        own = k.own()
        return max(legal, key=lambda a: k.est(own[arg_a(a)]))

    def _snap_bonus(self, rank: int, k: _Knowledge, skip: int = -1) -> float:
        """Points we expect to shed by snapping our own known cards of ``rank`` next."""
        values = self._values
        total = sum(values[c] for i, c in enumerate(k.own())
                    if i != skip and c >= 0 and c >> 2 == rank and values[c] > 0)
        return total * self.params.snap_odds

    # ------------------------------------------------------------------ the turn
    def _turn_start(self, view: CardView, k: _Knowledge) -> Action:
        legal = view.legal
        if CAMBIO in legal and self._should_call(view, k):
            return CAMBIO
        if TAKE in legal:
            top = view.discard[-1]
            own = k.own()
            slots = [i for i, c in enumerate(own) if c != EMPTY]
            take = max(self._swap_benefit(k, i, self._values[top], fires=False)
                       for i in slots)
            ceiling = max(k.est(own[i]) + (k.info_own if own[i] == HIDDEN else 0)
                          for i in slots)
            draw = k.gain_below(ceiling)
            if take > draw + 0.5:
                return TAKE
        return DRAW

    def _should_call(self, view: CardView, k: _Knowledge) -> bool:
        p = self.params
        own = k.own()
        hidden = sum(1 for c in own if c == HIDDEN)
        if all(c == EMPTY for c in own):
            return True
        rounds = view.turn_number // max(1, view.players)
        limit = p.cambio_total + p.cambio_relax * max(0, rounds - p.relax_after)
        if hidden > p.cambio_hidden + max(0, rounds - p.relax_after) // 2:
            return False
        total = k.own_total()
        return total <= limit and all(total + p.call_lead < k.total(s)
                                      for s in range(view.players) if s != k.me)

    def _swap_benefit(self, k: _Knowledge, slot: int, value: int, *, fires: bool) -> float:
        """Points gained by putting a card of ``value`` into own ``slot`` (old card discarded)."""
        old = k.own()[slot]
        gain = k.est(old) - value
        if old == HIDDEN:
            gain += k.info_own
        else:
            gain += self._snap_bonus(old >> 2, k, skip=slot)
            if fires:
                gain += self._power_value(old, k)
        return gain

    def _drawn(self, view: CardView, k: _Knowledge) -> Action:
        best: tuple[float, Action] = (-1e9, view.legal[0])
        for gain, a in self._drawn_scores(view, k):
            if gain > best[0]:
                best = (gain, a)
        return best[1]

    def _drawn_scores(self, view: CardView, k: _Knowledge) -> list[tuple[float, Action]]:
        """Each choice with the card in hand, scored: discard first, then the swaps."""
        legal = view.legal
        held = view.held
        value = self._values[held]
        trigger_end = view.rules.power_trigger == PowerTrigger.END_OF_TURN_DISCARD
        out: list[tuple[float, Action]] = []
        if DISCARD in legal:
            gain = self._snap_bonus(held >> 2, k)
            if trigger_end or not view.held_from_pile:
                gain += self._power_value(held, k)
            out.append((gain, DISCARD))
        own = k.own()
        for a in legal:
            kind = kind_of(a)
            if kind == SWAP:
                out.append((self._swap_benefit(k, arg_a(a), value, fires=trigger_end), a))
            elif kind == EXCHANGE:  # only cards seen to be equal: a mismatch costs a card
                cards = [own[i] for i in exchange_slots(a)]
                if HIDDEN not in cards and len({self._values[c] for c in cards}) == 1:
                    out.append((sum(self._values[c] for c in cards) - value, a))
        return out

    # ------------------------------------------------------------------ powers
    def _power_value(self, card: int, k: _Knowledge) -> float:
        """What discarding ``card`` is worth through its power, roughly, in points."""
        p = self._powers[card]
        if p == Power.NONE:
            return 0.0
        own = k.own()
        hidden_own = any(c == HIDDEN for c in own)
        if p == Power.PEEK_OWN:
            return k.info_own if hidden_own else 0.0
        if p == Power.PEEK_OTHER:
            return k.info_other
        blind = self._blind_gain(k)
        if p in (Power.SWAP_OWN_OTHER, Power.SWAP_ANY):
            return self.params.swap_power * max(0.0, blind)
        return (k.info_own if hidden_own else 0.0) + 0.5 * max(0.0, blind)

    def _blind_gain(self, k: _Knowledge) -> float:
        own = [k.est(c) for c in k.own() if c != EMPTY]
        others = [k.est(c) for s, g in enumerate(k.grids) if s != k.me for c in g if c != EMPTY]
        if not own or not others:
            return 0.0
        return max(own) - min(others)

    def _power(self, view: CardView, k: _Knowledge) -> Action:
        best: tuple[float, Action] | None = None
        for a in view.legal:
            score = self._score_power_action(a, view, k)
            if best is None or score > best[0]:
                best = (score, a)
        assert best is not None
        return best[1]

    def _score_power_action(self, action: Action, view: CardView, k: _Knowledge) -> float:
        kind = kind_of(action)
        if kind == PEEK:
            a = arg_a(action)
            if k.at(a) != HIDDEN:
                return -1.0
            seat = addr_seat(a)
            if seat == k.me:
                return k.info_own
            # Prefer the opponent who looks closest to winning (lowest estimated total).
            return k.info_other + k.target_bias(seat)
        if kind == SWITCH:
            return self._switch_gain(action, k)
        if kind == LOOK:
            return self._look_value(action, k)
        return 0.0  # KEEP, SKIP

    def _switch_gain(self, action: Action, k: _Knowledge) -> float:
        a, b = arg_a(action), arg_b(action)
        me = k.me
        if (addr_seat(a) == me) == (addr_seat(b) == me):
            # Two of ours or two of theirs: no change to our total. Slightly prefer the
            # latter (it leaves our grid as we know it).
            return -0.01 if addr_seat(a) == me else 0.0
        mine, theirs = (a, b) if addr_seat(a) == me else (b, a)
        cm, ct = k.at(mine), k.at(theirs)
        gain = k.est(cm) - self._est_at(k, theirs)
        if ct == HIDDEN and cm != HIDDEN:
            gain -= self.params.risk
        return gain * self._swap_weight() + k.target_bias(addr_seat(theirs))

    def _est_at(self, k: _Knowledge, a: int) -> float:
        """The estimated value of the card at address ``a`` (``expert`` prices an
        opponent's unseen card by its opponent model instead)."""
        return k.est(k.at(a))

    def _swap_weight(self) -> float:
        """How much a switch's gain counts (1 here; ``expert`` tunes it)."""
        return 1.0

    def _look_value(self, action: Action, k: _Knowledge) -> float:
        a, b = arg_a(action), arg_b(action)
        me = k.me
        ca, cb = k.at(a), k.at(b)
        info = sum((k.info_own if addr_seat(x) == me else k.info_other)
                   for x, c in ((a, ca), (b, cb)) if c == HIDDEN)
        if (addr_seat(a) == me) == (addr_seat(b) == me):
            return info
        info += k.target_bias(addr_seat(b) if addr_seat(a) == me else addr_seat(a))
        mine, theirs = (ca, cb) if addr_seat(a) == me else (cb, ca)
        if mine != HIDDEN and theirs != HIDDEN:
            chance = max(0.0, self._values[mine] - self._values[theirs])
        elif mine != HIDDEN:
            chance = k.gain_below(self._values[mine])
        elif theirs != HIDDEN:
            chance = k.gain_above(self._values[theirs])
        else:
            chance = k.spread()
        return info + chance


__all__ = ["TUNED", "ExpectedPointsBot", "MemoryParams"]

if not TYPE_CHECKING:  # the old name, for one release (mypy sees only the new one)
    __getattr__ = renamed(__name__, {"MemoryBot": "ExpectedPointsBot"})
