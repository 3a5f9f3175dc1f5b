"""The ``deep`` bot: determinized rollouts at every decision, hundreds of worlds, natively.

``search`` compares moves with tens of Python rollouts; ``deep`` does the same with the
rollouts on the batch engine (:mod:`cambio.bots.cards.rollouts`), so it affords ``rows``
rollouts per decision (1,024 by default):

1. ``expert``'s choice is the prior; the candidates are every legal move worth comparing
   (all of them at the start of a turn, with a card in hand, when giving, after a king's
   look and for a power's targets -- a blind swap only between one of ours and one of
   theirs; in a snap poll, the prior's snap against passing).
2. ``rows // candidates`` worlds are sampled from the view
   (:func:`~cambio.bots.cards.search.determinize`: the unseen cards dealt by the exact
   belief, opponents' cards tilted low, the caller's low on our last turn; each card known by
   exactly the seats the view's public ``seen`` masks name). Each world is
   copied once per candidate, the candidate applied, and every copy played to the end of
   the round by ``memory`` in every seat (common random numbers: the candidates meet the
   same worlds and the same chance); heads-up in wikipedia, where the caller loses a tie,
   ``memory`` calls only when it thinks itself lowest
   (:data:`~cambio.bots.cards.balanced.HARD_BALANCED`).
3. The candidate with the best mean win share is played if it beats the prior by more than
   ``z`` standard errors of the paired difference; otherwise the prior. With ``per_test``
   the margin grows with the number of candidates compared (Bonferroni: each of the ``k - 1``
   comparisons gets ``1 / (k - 1)`` of the chance a candidate no better than the prior has
   of passing ``z`` alone), so that a decision with dozens of candidates does not overrule
   the prior by luck; ``hard`` does not use it (docs/reports/cards-strength.md).

It sees only its view: the worlds come from the view and the bot's own seeded generator.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from random import Random
from statistics import NormalDist
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from cambio.cards import Action, CardView, Phase, Rules, Standing, State
from cambio.cards.actions import CAMBIO, PASS, SNAP, SWITCH, addr_seat, arg_a, arg_b, kind_of
from cambio.cards.batch import Batch, kernels_can_play

from ..renamed import renamed
from .balanced import HARD_BALANCED, balanced_params
from .base import CardBot
from .belief import Belief
from .expert import OpponentModelBot, by_players, opponent_lambda
from .match_value import applies, match_shares
from .memory import TUNED, MemoryParams
from .reading import OpponentReading, read_worlds
from .rollouts import Rollouts, load_states
from .search import Estimate, RolloutSearchBot, caller_tilt, determinize, is_final_turn
from .worlds import load_worlds

FALLBACK_ROLLOUTS = 64
"""Rollouts per decision on the compiled engine, for rules the kernels cannot play."""
DEEP_ROWS = 1024
"""Rollouts per decision (split between the candidates)."""

EARLY_CALLER = MemoryParams(cambio_total=6.0, cambio_hidden=1, relax_after=3)
"""``memory`` weights of an opponent that calls Cambio early (as the ``rusher`` style)."""
SNAP_EAGER = MemoryParams(min_snap_gain=0.0, snap_odds=1.0)
"""``memory`` weights of an opponent that snaps whatever it knows matches."""
POPULATION: tuple[tuple[MemoryParams | None, float], ...] = (
    (None, 0.4), (TUNED, 0.2), (EARLY_CALLER, 0.2), (SNAP_EAGER, 0.2))
"""Opponent policies a population search draws from, with their prior weights (``None``:
``memory``'s defaults)."""


class BatchRolloutSearchBot:
    """``expert``'s choice, overruled where hundreds of native rollouts say otherwise."""

    name = "deep"

    def __init__(self, seed: int = 0, *, rows: int = DEEP_ROWS, z: float = 1.0,
                 knows: float | None = None, min_worlds: int = 16, per_test: bool = False,
                 self_params: MemoryParams | None = None, self_from: int = 2,
                 population: tuple[tuple[MemoryParams | None, float], ...] | None = None,
                 infer: bool = False, read: bool = False,
                 call_margin: tuple[float, ...] = (0.0,),
                 others_params: MemoryParams | None = None,
                 hidden_scale: float = 1.0,
                 balanced: Mapping[tuple[str, int], MemoryParams] | None = HARD_BALANCED,
                 own_seat_only: Collection[tuple[str, int]] = frozenset()
                 ) -> None:
        self.seed = seed
        self.balanced = balanced
        """By (preset, players): weights every seat of the rollouts plays at that table,
        over ``self_params`` and ``others_params`` (:mod:`~cambio.bots.cards.balanced`)."""
        self.own_seat_only = frozenset(own_seat_only)
        """The (preset, players) of :attr:`balanced` whose weights only our own seat plays;
        the others keep ``others_params`` there."""
        self.hidden_scale = hidden_scale
        """Opponents' unseen cards in the worlds are tilted to this times the mean
        ``memory`` keeps (:func:`~cambio.bots.cards.expert.opponent_lambda`)."""
        self.others_params = others_params
        """``memory`` weights the other seats play in the rollouts (``None``: the
        defaults)."""
        self.call_margin = call_margin
        """By players 2, 3, 4+ (the last entry holds for larger tables): the share of a win
        a Cambio call must beat playing on by, beyond what the rollouts say. They play our
        own later turns by ``memory``, which plays on worse than this bot, so they
        undervalue playing on (and the more so the more opponents may call first)."""
        self.reading = OpponentReading() if read else None
        """With ``read``: what the opponents' discards say of their cards, weighing the
        worlds (:mod:`cambio.bots.cards.reading`)."""
        self.population = population
        self.infer = infer
        self._model_rng = Random(seed * 7919 + 1)  # apart from the worlds' draws
        self._wrong_snaps: dict[int, int] = {}
        self._last_snap: tuple[int, int, int, bool] | None = None
        self._turn_seen = -1
        self.rows = rows
        self.z = z
        self.per_test = per_test
        self.knows = knows
        self.min_worlds = min_worlds
        self.self_params = self_params
        """``memory`` weights our own seat plays in the rollouts (``None``: the defaults),
        at tables of ``self_from`` players or more."""
        self.self_from = self_from
        self._pool_seat = -1
        self.rng = Random(seed)
        self.prior: CardBot = OpponentModelBot(seed)
        """The move kept unless a challenger is clearly better (``expert``'s)."""
        self._pool: Rollouts | None = None
        self._python_search: RolloutSearchBot | None = None
        self.last_estimates: dict[Action, Estimate] = {}
        """Each candidate's mean win share and final score at the last searched decision
        (what a hint shows)."""
        self.standing: Standing | None = None
        """The match being played (set by the table or terminal; ``None``: one round):
        rollouts are then valued by the share of the match they leave us
        (:mod:`~cambio.bots.cards.match_value`)."""
        self._match_rng: np.random.Generator | None = None

    def act(self, view: CardView) -> Action:
        if self.reading is not None:
            self.reading.update(view)
        if not kernels_can_play(view.rules):
            fallback = self._fallback()
            fallback.standing = self.standing
            return fallback.act(view)
        if self.infer:
            self._observe(view)
        legal = view.legal
        prior = self.prior.act(view)
        self.last_estimates = {}
        if len(legal) == 1:
            return prior
        cands = candidates(view, prior)
        if len(cands) == 1:
            return prior
        return self.search(view, cands)

    def _fallback(self) -> RolloutSearchBot:
        """Rules the native rollouts cannot play (:func:`kernels_can_play`): the same
        search on the compiled engine (``search``, fewer rollouts, each scored by the
        engine's own rules), so every rule the engine knows is in the evaluation."""
        bot = self._python_search
        if bot is None:
            bot = self._python_search = RolloutSearchBot(self.seed, iterations=FALLBACK_ROLLOUTS,
                                                         prior=self.prior)
        return bot

    def _rollouts(self, view: CardView, rows: int) -> Rollouts:
        pool = self._pool
        if pool is None or pool.rules is not view.rules or pool.players != view.players \
                or pool.rows < rows:
            pool = self._pool = Rollouts(view.rules, view.players, max(rows, self.rows))
            self._pool_seat = -1
        seat = view.seat
        assert seat is not None
        own, others = self.rollout_params(view.rules, view.players)
        if (own is not None or others is not None) and seat != self._pool_seat:
            for s in range(view.players):
                pool.seat_params(s, own if s == seat else others)
            self._pool_seat = seat
        return pool

    def own_params(self, players: int) -> MemoryParams | None:
        """The ``memory`` weights our own later turns play in the rollouts at this table."""
        return self.self_params if players >= self.self_from else None

    def rollout_params(self, rules: Rules, players: int
                       ) -> tuple[MemoryParams | None, MemoryParams | None]:
        """The ``memory`` weights of our own seat and of the others in the rollouts at a
        table (``None``: the defaults): the balanced weights where they were fitted, else
        ``self_params`` (from ``self_from`` players) and ``others_params``."""
        fitted = balanced_params(rules, players, self.balanced) if self.balanced else None
        if fitted is not None:
            if (rules.preset_name, players) in self.own_seat_only:
                return fitted, self.others_params
            return fitted, fitted
        return self.own_params(players), self.others_params

    def search(self, view: CardView, cands: list[Action]) -> Action:
        """The best of ``cands`` (the prior first) by paired rollouts."""
        k = len(cands)
        worlds = max(self.min_worlds, self.rows // k)
        share, scores = self.play_out(view, cands, worlds)
        self.last_estimates = {a: Estimate(float(m), float(sc)) for a, m, sc
                               in zip(cands, share.mean(axis=1), scores.mean(axis=1),
                                      strict=True)}
        z = self.z
        if self.per_test and k > 2:
            z = NormalDist().inv_cdf(1.0 - (1.0 - NormalDist().cdf(z)) / (k - 1))
        return cands[significant_best(share + self.margins(view, cands)[:, None], z)]

    def margins(self, view: CardView, cands: list[Action]) -> npt.NDArray[np.float64]:
        """What each candidate's win share is shifted by before the choice: the call
        margin taken off a Cambio call (0 elsewhere)."""
        out = np.zeros(len(cands))
        if CAMBIO in cands:
            out[cands.index(CAMBIO)] = -by_players(self.call_margin, view.players)
        return out

    def play_out(self, view: CardView, cands: list[Action], worlds: int
                 ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Each candidate's win share and final score (``k x worlds``) in ``worlds`` fresh
        worlds sampled from the view, every candidate in the same worlds (paired)."""
        me = view.seat
        assert me is not None
        k = len(cands)
        rows = worlds * k
        pool = self._rollouts(view, rows)
        b = pool.batch
        self.load_worlds(b, view, worlds)
        for c in range(1, k):
            b.st[c * worlds:(c + 1) * worlds] = b.st[:worlds]
        actions = np.full(b.games, -1, dtype=np.int64)
        for c, a in enumerate(cands):
            actions[c * worlds:(c + 1) * worlds] = a
        b.step(actions)
        if self.population is None:
            pool.finish(rows)
        else:
            pool.finish_with(rows, self._row_params(pool, view, worlds, k))
        shares, scores = pool.outcomes(rows, me)
        if applies(self.standing):
            assert self.standing is not None
            if self._match_rng is None:
                self._match_rng = np.random.default_rng(self.seed)
            shares = match_shares(self.standing, pool.scores(rows), me, self._match_rng,
                                  pairs=k)
        return shares.reshape(k, worlds), scores.reshape(k, worlds)

    def deal(self, view: CardView, worlds: int) -> list[State]:
        """``worlds`` worlds sampled from the view: the exact belief, opponents' unseen
        cards tilted low, the caller's low on our last turn; with a reading, weighed by it."""
        if self.reading is not None:
            return read_worlds(view, self.rng, worlds, self.reading, knows=self.knows)
        belief, lam, seat_tilt = self._tilts(view)
        return [determinize(view, belief, self.rng, tilt=lam, knows=self.knows,
                            seat_tilt=seat_tilt, cards=cards)
                for cards in belief.samples(self.rng, worlds)]

    def load_worlds(self, b: Batch, view: CardView, worlds: int) -> None:
        """Rows ``0 .. worlds - 1`` of ``b``: the worlds :meth:`deal` deals, the same
        rows and the same draws, but dealt straight into the records where no reading
        weighs them (:mod:`~cambio.bots.cards.worlds`: a quarter of the time). A subclass
        that deals its own worlds overrides this too (``pimc``)."""
        if self.reading is not None:
            load_states(b, 0, self.deal(view, worlds))
            return
        belief, lam, seat_tilt = self._tilts(view)
        load_worlds(b, 0, view, belief, self.rng, worlds, tilt=lam, knows=self.knows,
                    seat_tilt=seat_tilt)

    def _tilts(self, view: CardView) -> tuple[Belief, float, dict[int, float] | None]:
        """The belief, the opponents' tilt and, on our last turn, the caller's."""
        belief = Belief(view)
        lam = opponent_lambda(view, belief, self.hidden_scale)
        return belief, lam, caller_tilt(view, belief) if is_final_turn(view) else None

    def _observe(self, view: CardView) -> None:
        """What each seat did this round that tells its style: its wrong (blind) snaps."""
        if view.turn_number < self._turn_seen:
            self._wrong_snaps = {}
            self._last_snap = None
        self._turn_seen = view.turn_number
        snap = view.last_snap
        if snap is not None and snap != self._last_snap and not snap[3] \
                and snap[0] != view.seat:
            self._wrong_snaps[snap[0]] = self._wrong_snaps.get(snap[0], 0) + 1
        self._last_snap = snap

    def _weights(self, seat: int) -> list[float]:
        """The population's weights for ``seat``: the prior, each wrong snap it made this
        round making the snap-eager model four times likelier."""
        assert self.population is not None
        weights = [w for _, w in self.population]
        n = self._wrong_snaps.get(seat, 0)
        if n:
            for i, (params, _) in enumerate(self.population):
                if params is SNAP_EAGER:
                    weights[i] *= 4.0 ** n
        return weights

    def _row_params(self, pool: Rollouts, view: CardView, worlds: int,
                    k: int) -> npt.NDArray[np.float64]:
        """Each row's weights per seat: world ``w`` draws one policy per opponent from the
        population, and every candidate's copy of the world gets the same (paired)."""
        assert self.population is not None and view.seat is not None
        models = [pool.params_row(p) for p, _ in self.population]
        own = pool.params_row(self.own_params(view.players))
        prm = np.empty((worlds, view.players, len(own)))
        rng = self._model_rng
        for seat in range(view.players):
            if seat == view.seat:
                prm[:, seat] = own
                continue
            picks = rng.choices(range(len(models)), self._weights(seat), k=worlds)
            prm[:, seat] = np.array([models[i] for i in picks])
        return np.tile(prm, (k, 1, 1))


def significant_best(share: npt.NDArray[np.float64], z: float) -> int:
    """The row of ``share`` (candidates x paired worlds, the prior in row 0) whose mean
    paired gain over the prior is the largest of those more than ``z`` standard errors above
    zero; 0 (the prior) if none is."""
    best = 0
    best_gain = 0.0
    worlds = share.shape[1]
    for c in range(1, share.shape[0]):
        d = share[c] - share[0]
        gain = float(d.mean())
        margin = z * float(d.std()) / math.sqrt(worlds)
        if gain > margin and gain > best_gain:
            best, best_gain = c, gain
    return best


def candidates(view: CardView, prior: Action) -> list[Action]:
    """The moves compared with ``prior`` (first)."""
    legal = view.legal
    ph = view.phase
    me = view.seat
    if ph == Phase.POLL:
        out = [PASS] if kind_of(prior) == SNAP else []
    elif ph == Phase.POWER:
        out = [a for a in legal if kind_of(a) != SWITCH
               or (addr_seat(arg_a(a)) == me) != (addr_seat(arg_b(a)) == me)]
    else:
        out = [a for a in legal if kind_of(a) != SNAP]
    return [prior, *[a for a in out if a != prior]]


__all__ = ["DEEP_ROWS", "EARLY_CALLER", "POPULATION", "SNAP_EAGER", "BatchRolloutSearchBot",
           "candidates", "significant_best"]

if not TYPE_CHECKING:  # the old name, for one release (mypy sees only the new one)
    __getattr__ = renamed(__name__, {"DeepBot": "BatchRolloutSearchBot"})
