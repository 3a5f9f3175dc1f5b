"""The ``search`` bot: determinized rollouts over the belief, on ``clone()`` / ``apply()``.

Each decision:

1. The ``expert`` bot's choice is the *prior*; the candidates are the legal moves worth
   comparing with it (every move at the start of a turn and when holding a card; snap or
   pass in a snap poll; each card to give; switch or keep after a king's look; a power or
   skipping it).
2. A *determinization* deals the unseen cards (:class:`~cambio.bots.cards.belief.Belief`,
   an exact posterior sample) into a full :class:`~cambio.cards.State` consistent with the
   view. Every candidate is applied to a clone of the same determinization and the round is
   played out by ``memory`` bots in every seat, with the same chance seed (common random
   numbers: candidates are compared on identical futures, which removes most of the noise).
3. The result is the seat's win share (1 alone, ``1/k`` tied) plus a small tie-breaker on the
   score margin. After the budget, the candidate with the best mean wins -- but it replaces
   the prior only when its paired advantage is clear (``z`` standard errors), so the bot
   never does worse than ``memory`` on noise.

The bot sees only its view: a determinization is built from the view and the bot's own
seeded generator, so the same view and seed give the same decision whatever the unseen
cards really are (``tests/cards/test_search.py`` checks it). What opponents know of their
own cards is not in the view; determinizations assume each opponent knows its own grid.

**The last turn.** When another seat has called Cambio, the seat's final turn decides the
round, and every legal move there (snaps of unseen cards aside) is compared by ``final``
rollouts, which are short (the round ends with the turn, or after the other seats' final
turns) and so cheap. The caller's cards we have not seen are dealt low
(:func:`caller_tilt`: a player calls when low), and the move with the best mean wins, prior
or not: here the heuristic is weakest, since it minimises an expected total when only
beating the caller counts (+2.6 points of win share against ``memory``;
docs/reports/cards-strength.md).

Budgets: ``search:300ms`` (wall time per decision) or ``search:4000it`` (rollouts per
decision; reproducible, and what the difficulty ``hard`` uses).
"""

from __future__ import annotations

import math
import time
from functools import lru_cache, reduce
from itertools import accumulate, compress, count
from operator import add, sub
from random import Random
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from cambio.cards import (
    EMPTY,
    HIDDEN,
    Action,
    CardView,
    Phase,
    Power,
    Rules,
    Standing,
    State,
    observe,
)
from cambio.cards.actions import PASS, SKIP, SNAP, kind_of
from cambio.cards.state import PH_POLL, POWER_NAMES, WINDOW_ANYONE, WINDOW_CLOSED
from cambio.shares import tie_share

from ..renamed import renamed
from .base import CardBot
from .belief import Belief
from .expert import OpponentModelBot, opponent_lambda, tilt_lambda
from .match_value import applies, match_shares
from .memory import ExpectedPointsBot

_POWER_CODES = {str(p): code for code, p in POWER_NAMES.items() if p != Power.NONE}


def determinize(view: CardView, belief: Belief, rng: Random, *, tilt: float = 0.0,
                knows: float | None = 1.0, seat_tilt: dict[int, float] | None = None,
                cards: list[int] | None = None) -> State:
    """A full state consistent with ``view``, its unseen cards dealt by ``belief``.

    With ``tilt`` λ > 0 an opponent's unseen card is drawn with weight ``exp(-λ·value)``
    (opponents keep low cards); each opponent knows each of its own unseen-to-us cards with
    probability ``knows``, and every card we know too. With ``knows=None`` every card is
    known by exactly the seats the view's public ``seen`` masks name (who looked at what is
    public). ``cards``: the unseen cards already in a uniformly random order (default:
    ``belief.sample(rng)``).
    """
    assert view.seat is not None
    if cards is None:
        cards = belief.sample(rng)
    values = belief.values
    weights = tilt_weights(tilt, values) if tilt else None
    special = {seat: tilt_weights(lam, values) for seat, lam in (seat_tilt or {}).items()}
    seed = rng.getrandbits(62)
    grids, known = _deal_grids(view, cards, weights, special, knows, rng)
    held = view.held
    if held == HIDDEN:
        held = cards.pop()
    return world(view, seed, grids, known, held, cards)  # what is left: deck_size cards


def world(view: CardView, seed: int, grids: list[list[int]], known: list[list[int]],
          held: int, deck: list[int]) -> State:
    """The state of ``view``'s public facts with these cards, knowledge masks and chance
    seed (what :func:`determinize` deals; :mod:`~cambio.bots.cards.worlds` fills a batch
    record from one)."""
    s = _dealt(view.rules, view.players, view.dealer).clone()
    s.seed = seed
    s.grids, s.known = grids, known
    s.held = held
    s.deck = deck
    _copy_public(view, s)
    return s.clone()  # a clone drops the constructor's caches


@lru_cache(maxsize=64)
def _dealt(rules: Rules, players: int, dealer: int) -> State:
    """A fresh round to copy a world from: what ``State(rules, players, seed=x,
    dealer=dealer)`` makes but the cards, which a world deals itself, and the seed, which
    it sets (half a world's cost was the constructor's shuffle and deal). Copies share its
    history list, append-only and copied on a clone's first write."""
    return State(rules, players, seed=0, dealer=dealer, polled=True)


@lru_cache(maxsize=64)
def tilt_weights(lam: float, values: tuple[int, ...]) -> list[float]:
    """``exp(-λ·value)`` for every card (cached: a search deals hundreds of worlds with the
    same tilt; callers must not change the list)."""
    return [math.exp(-lam * v) for v in values]


def _deal_grids(view: CardView, cards: list[int], weights: list[float] | None,
                special: dict[int, list[float]], knows: float | None, rng: Random
                ) -> tuple[list[list[int]], list[list[int]]]:
    """The grids with their unseen cards dealt from ``cards`` (popped), and who knows what."""
    me = view.seat
    assert me is not None
    grids: list[list[int]] = []
    known: list[list[int]] = []
    for seat, g in enumerate(view.grids):
        row: list[int] = []
        kk: list[int] = []
        for i, c in enumerate(g):
            if c == EMPTY:
                row.append(EMPTY)
                kk.append(0)
                continue
            if c == HIDDEN:
                w_seat = special.get(seat, weights)
                if w_seat is not None and seat != me:
                    j = _weighted_index(cards, w_seat, rng)
                    cards[j], cards[-1] = cards[-1], cards[j]
                row.append(cards.pop())
            else:
                row.append(c)
            if knows is None:
                kk.append(view.seen[seat][i])
            elif c == HIDDEN:
                kk.append(1 << seat if seat != me and rng.random() < knows else 0)
            else:
                kk.append((1 << me) | (1 << seat))
        grids.append(row)
        known.append(kk)
    return grids, known


def _copy_public(view: CardView, s: State) -> None:
    """Set ``s``'s public facts (turn, pile, power, snap window, poll...) from ``view``."""
    me = view.seat
    assert me is not None
    s.held_from_pile = view.held_from_pile
    s.pile = list(view.discard)
    s.turn = view.turn
    s.turn_number = view.turn_number
    s.caller = -1 if view.caller is None else view.caller
    s.final_left = view.final_turns_left
    s.turn_final = view.caller is not None and view.turn != view.caller
    s.power = _POWER_CODES.get(view.power or "", 0)
    s.look_a, s.look_b = view.looked if view.looked else (-1, -1)
    w = view.window
    s.window = WINDOW_CLOSED if w == "closed" else WINDOW_ANYONE if w == "anyone" \
        else int(w.split()[1])
    # A real-time table asks a seat to snap with a poll-shaped view and no poll order.
    s.poll = list(view.poll) if view.poll or view.phase != Phase.POLL else [me]
    s.poll_i = 0
    s.give_seat = -1 if view.give_seat is None else view.give_seat
    s.give_addr = view.last_snap[1] if view.give_seat is not None and view.last_snap else -1
    s.last_snap = view.last_snap
    s.reshuffles = view.reshuffles
    s.phase = int(view.phase)


def _weighted_index(cards: list[int], weights: list[float], rng: Random) -> int:
    """The index of a card of ``cards`` drawn with weight ``weights[card]``: the first at
    which ``x``, drawn below the total, falls to zero or less as the weights are taken from
    it in order. The loops run in C (``map``, ``accumulate``, ``compress``), as ``hard``
    deals hundreds of worlds a decision, each with a draw per opponent's unseen card; the
    floats are the same as a Python loop's, summed and subtracted in the same order
    (``reduce``, not ``sum``: from Python 3.12 ``sum`` compensates its rounding, and
    :mod:`~cambio.bots.cards.worlds` sums as a loop does)."""
    w = list(map(weights.__getitem__, cards))
    left = accumulate(w, sub, initial=rng.random() * reduce(add, w, 0.0))
    next(left)  # x itself
    return next(compress(count(), map(_NOT_ABOVE_ZERO, left)), len(cards) - 1)


_NOT_ABOVE_ZERO = (0.0).__ge__
"""``x <= 0`` for a float ``x``, callable from C."""


def rollout(state: State, bots: list[ExpectedPointsBot], max_actions: int = 2000) -> State:
    """Play ``state`` to the end with one policy bot per seat (``memory``)."""
    for _ in range(max_actions):
        if state.is_over():
            break
        seat = state.current_player()
        if state.phase == PH_POLL and not _knows_match(state, seat):
            state.apply(PASS, seat)  # what memory answers, without building a view
            continue
        state.apply(bots[seat].act(observe(state, seat)), seat)
    return state


def _knows_match(state: State, seat: int) -> bool:
    """Whether ``seat`` knows a card of the top card's rank anywhere on the table."""
    if not state.pile:
        return False
    rank = state.pile[-1] >> 2
    bit = (1 << seat) | state.public
    for g, kk in zip(state.grids, state.known, strict=True):
        for c, k in zip(g, kk, strict=True):
            if c >= 0 and k & bit and c >> 2 == rank:
                return True
    return False


def outcome(state: State, seat: int) -> float:
    """Win share of ``seat`` plus a small score-margin tie-breaker (within ±0.05)."""
    if not state.is_over():
        return 0.0
    share = tie_share(seat, state.winners(), state.n)
    scores = state.scores()
    best_other = min(v for s, v in enumerate(scores) if s != seat) if len(scores) > 1 else 0
    return share + 0.05 * math.tanh((best_other - scores[seat]) / 10.0)


class Estimate(NamedTuple):
    """What the rollouts say of one candidate move."""

    win_share: float
    score: float
    """The seat's mean final score (lower is better)."""


class RolloutSearchBot:
    """Determinized rollouts that improve on ``memory`` decision by decision."""

    name = "search"

    def __init__(self, seed: int = 0, *, iterations: int | None = 64,
                 seconds: float | None = None, z: float = 1.0,
                 prior: CardBot | None = None, tilt: bool = True,
                 knows: float = 0.6, focused: bool = True, final: int = 0) -> None:
        if iterations is None and seconds is None:
            raise ValueError("a search needs a budget: iterations or seconds")
        self.seed = seed
        self.iterations = iterations
        self.seconds = seconds
        self.z = z
        self.tilt = tilt
        self.focused = focused
        self.knows = knows
        self.final = final
        """Rollouts for each decision of the last turn after another seat calls (0: none)."""
        self.rng = Random(seed)
        self.prior = prior if prior is not None else OpponentModelBot(seed)
        self.policy: list[ExpectedPointsBot] = []
        self.last_estimates: dict[Action, Estimate] = {}
        """Mean outcome of each candidate at the last searched decision (for hints)."""
        self.standing: Standing | None = None
        """The match being played (``None``: one round): each rollout is then valued by
        the share of the match it leaves (:mod:`~cambio.bots.cards.match_value`)."""

    def act(self, view: CardView) -> Action:
        legal = view.legal
        prior = self.prior.act(view)
        self.last_estimates = {}
        if len(legal) == 1:
            return prior
        if self.final and is_final_turn(view):
            cands = [prior, *[a for a in legal if a != prior and kind_of(a) != SNAP]]
            if len(cands) > 1:
                return self.search(view, prior, cands, iterations=self.final, z=0.0,
                                   caller=True)
            return prior
        cands = self.candidates(view, prior)
        if len(cands) == 1 or self.iterations == 0:
            return prior
        return self.search(view, prior, cands)

    def candidates(self, view: CardView, prior: Action) -> list[Action]:
        """The moves compared with the prior (the prior first)."""
        legal = view.legal
        ph = view.phase
        if self.focused and isinstance(self.prior, OpponentModelBot):
            # Only the decisions the heuristic itself finds close are searched.
            if ph == Phase.KING_DECIDE and len(legal) == 2:
                return [prior, *[a for a in legal if a != prior]]
            return list(self.prior.close) or [prior]
        if ph in (Phase.TURN_START, Phase.DRAWN, Phase.GIVE):
            out = [a for a in legal if kind_of(a) != SNAP]
        elif ph == Phase.POLL:
            out = [PASS] if kind_of(prior) == SNAP else []
        elif ph == Phase.KING_DECIDE:
            out = list(legal) if len(legal) == 2 else []
        else:  # POWER: the prior's target, or skipping it
            out = [SKIP] if SKIP in legal else []
        return [prior, *[a for a in out if a != prior]]

    def search(self, view: CardView, prior: Action, cands: list[Action], *,
               iterations: int | None = None, z: float | None = None,
               caller: bool = False) -> Action:
        assert view.seat is not None
        me = view.seat
        if len(self.policy) != view.players:
            self.policy = [ExpectedPointsBot(self.seed + s) for s in range(view.players)]
        belief = Belief(view)
        lam = opponent_lambda(view, belief) if self.tilt else 0.0
        seat_tilt = caller_tilt(view, belief) if caller else None
        k = len(cands)
        sums = [0.0] * k
        scores = [0.0] * k
        diffs = [0.0] * k  # paired: candidate minus prior
        diffs_sq = [0.0] * k
        done = 0
        deadline = None if self.seconds is None or iterations is not None \
            else time.perf_counter() + self.seconds
        limit = self.iterations if iterations is None else iterations
        zz = self.z if z is None else z
        standing = self.standing if applies(self.standing) else None
        while not _spent(done, k, limit, deadline):
            det = determinize(view, belief, self.rng, tilt=lam, knows=self.knows,
                              seat_tilt=seat_tilt)
            # The match's futures: the same for every candidate in this world (paired).
            futures = self.rng.getrandbits(63) if standing is not None else 0
            base = 0.0
            for i, a in enumerate(cands):
                s = det.clone()
                s.apply(a, me)
                end = rollout(s, self.policy)
                v = outcome(end, me) if standing is None else float(match_shares(
                    standing, np.array([end.scores()], dtype=np.int64), me,
                    np.random.default_rng(futures))[0])
                sums[i] += v
                scores[i] += end.scores()[me]
                if i == 0:
                    base = v
                else:
                    d = v - base
                    diffs[i] += d
                    diffs_sq[i] += d * d
            done += 1
        self.last_estimates = {a: Estimate(min(1.0, max(0.0, sums[i] / done)), scores[i] / done)
                               for i, a in enumerate(cands)}
        return _significant_best(prior, cands, diffs, diffs_sq, done, zz)


def _spent(done: int, k: int, limit: int | None, deadline: float | None) -> bool:
    """Whether a search that has played ``done`` worlds of ``k`` rollouts must stop."""
    if limit is not None and done * k >= limit:
        return True
    return deadline is not None and done > 0 and time.perf_counter() >= deadline


def _significant_best(prior: Action, cands: list[Action], diffs: list[float],
                      diffs_sq: list[float], done: int, z: float) -> Action:
    """The candidate whose mean paired gain over ``prior`` (``cands[0]``) is the largest of
    those more than ``z`` standard errors above zero; ``prior`` if none is."""
    best, best_score = prior, 0.0
    for i in range(1, len(cands)):
        mean = diffs[i] / done
        var = max(0.0, diffs_sq[i] / done - mean * mean)
        margin = z * math.sqrt(var / done) if done > 1 else math.inf
        if mean > margin and mean > best_score:
            best, best_score = cands[i], mean
    return best


FINAL_ROLLOUTS = 100
"""Rollouts per decision of the seat's last turn after another seat calls (``hard``'s)."""

CALLER_TOTAL = 3.0
"""What a player who calls Cambio is taken to hold in all (a caller calls when low)."""


def is_final_turn(view: CardView) -> bool:
    """Whether the seat is playing its last turn after someone else called Cambio."""
    return view.caller is not None and view.caller != view.seat and view.phase != Phase.POLL \
        and view.turn == view.seat


def caller_tilt(view: CardView, belief: Belief) -> dict[int, float]:
    """The tilt for the caller's cards we have not seen: low enough that its expected total
    is :data:`CALLER_TOTAL` (a model of callers, not evidence in the view)."""
    caller = view.caller
    dist = belief.value_dist()
    if caller is None or not dist:
        return {}
    grid = view.grids[caller]
    hidden = sum(1 for c in grid if c == HIDDEN)
    if not hidden:
        return {}
    known = sum(belief.values[c] for c in grid if c >= 0)
    mean = sum(v * p for v, p in dist)
    target = min(mean, max(dist[0][0] + 0.5, (CALLER_TOTAL - known) / hidden))
    return {caller: tilt_lambda(dist, target)}


def parse_budget(spec: str) -> dict[str, float | int | None]:
    """``300ms`` / ``2s`` -> seconds, ``4000it`` -> rollouts per decision."""
    text = spec.strip().lower()
    try:
        if text.endswith("ms"):
            return {"seconds": float(text[:-2]) / 1000, "iterations": None}
        if text.endswith("it"):
            return {"iterations": int(text[:-2]), "seconds": None}
        if text.endswith("s"):
            return {"seconds": float(text[:-1]), "iterations": None}
    except ValueError:
        pass
    raise ValueError(f"bad search budget {spec!r}: use e.g. search:300ms or search:4000it")


__all__ = ["Estimate", "RolloutSearchBot", "determinize", "outcome", "parse_budget", "rollout"]

if not TYPE_CHECKING:  # the old name, for one release (mypy sees only the new one)
    __getattr__ = renamed(__name__, {"SearchBot": "RolloutSearchBot"})
