"""The ``adaptive`` bot (the ``master`` level): ``deep``'s search, with thought where it matters.

``deep`` (``hard``) spends the same 1,024 rollouts on every decision with more than one
candidate, whether one move is plainly best, all moves are worth the same, or two good moves
are a hair apart. This bot starts as ``deep`` does, then reads its own figures and spends
more only where they say the decision is both *close* and *worth something*:

* **decided** -- the best candidate's paired gain over the prior is ``decided`` standard
  errors clear of zero, or every challenger is that far below: more rollouts would not
  change the move;
* **nothing at stake** -- no challenger's upper bound (gain plus two standard errors) reaches
  ``stake`` of a win: even if the search is wrong, the move costs less than that;
* otherwise the decision is close and matters: another stage of worlds, twice the last, for
  the prior and the challengers still in the race (those whose upper bound reaches the best
  one's lower bound), until ``cap`` rollouts or ``seconds`` of wall time.

The move is then chosen as ``deep`` chooses it (the best paired gain more than ``z``
standard errors above the prior's; 2 in wikipedia heads-up, :data:`MASTER_Z`), over every
world the candidate met. Most decisions stop after the first stage, so the bot is about
``hard``'s speed on them; the close, costly ones (the last turn after a call, a Cambio
call, a swap into an unknown slot) get up to ``cap``.

Like ``deep`` it sees only its view: the worlds come from the view and its seeded generator.
"""

from __future__ import annotations

import math
import time
from collections.abc import Collection, Mapping

import numpy as np
import numpy.typing as npt

from cambio.cards import Action, CardView

from .balanced import BALANCED, OWN_SEAT_ONLY
from .deep import DEEP_ROWS, BatchRolloutSearchBot, significant_best
from .memory import TUNED, MemoryParams
from .search import Estimate

ADAPTIVE_CAP = 12 * DEEP_ROWS
"""Rollouts a decision may use at most (``hard``'s 1,024 times twelve)."""
MASTER_SELF = TUNED
"""The ``memory`` weights our own later turns play in the rollouts at tables of
:data:`MASTER_SELF_FROM` players or more: the rollouts value playing on by how our next
turns would go, and ``master`` plays them better than ``memory`` does. At 4 players
against three ``memory`` it won 43.1% of 2,364 rounds with them and 41.9% without, paired
+1.2 points (-0.5 to +3.0); heads-up it is not shown to help (docs/cards-strength.md)."""
MASTER_SELF_FROM = 4
"""The smallest table :data:`MASTER_SELF` is played at (heads-up keeps ``memory``'s)."""
MASTER_Z: Mapping[tuple[str, int], float] = {("wikipedia", 2): 2.0}
"""The tables, by (preset, players), where ``master`` leaves its prior only for a challenger
this many standard errors better, in place of ``z``. In wikipedia heads-up ``hard`` plays
the same rollout weights as ``master`` (the call gate), and with ``z`` 1 ``master`` was
level with it (49.1% over 846 games): twelve times the rollouts shrink a close decision's
standard errors until a small gain of a rollout policy that predicts wikipedia's rounds
poorly passes. With 2 it beat ``hard`` by SPRT twice (51.9% over 3,906 games, then 54.0%
over 694 on other deals); holding the first stage's margin at every stage did not (48.9%
over 712; docs/cards-strength.md)."""


class AdaptiveRolloutSearchBot(BatchRolloutSearchBot):
    """``deep``'s first stage, then more worlds for the close decisions that matter."""

    name = "adaptive"

    def __init__(self, seed: int = 0, *, rows: int = DEEP_ROWS, cap: int = ADAPTIVE_CAP,
                 seconds: float | None = None, decided: float = 3.0, stake: float = 0.01,
                 z: float = 1.0, z_at: Mapping[tuple[str, int], float] = MASTER_Z,
                 hold_margin: bool = False, read: bool = False,
                 call_margin: tuple[float, ...] = (0.0,),
                 self_params: MemoryParams | None = MASTER_SELF,
                 self_from: int = MASTER_SELF_FROM,
                 others_params: MemoryParams | None = None,
                 balanced: Mapping[tuple[str, int], MemoryParams] | None = BALANCED,
                 own_seat_only: Collection[tuple[str, int]] = OWN_SEAT_ONLY) -> None:
        super().__init__(seed, rows=rows, z=z, read=read, call_margin=call_margin,
                         self_params=self_params, self_from=self_from,
                         others_params=others_params, balanced=balanced,
                         own_seat_only=own_seat_only)
        if cap < rows:
            raise ValueError(f"cap {cap} is below the first stage's {rows} rollouts")
        self.cap = cap
        self.seconds = seconds
        """Wall time after which no new stage starts (``None``: only ``cap`` bounds it)."""
        self.decided = decided
        self.stake = stake
        self.z_at = z_at
        """``z`` for the tables it names, by (preset, players)."""
        self.hold_margin = hold_margin
        """Whether a challenger must beat the prior by the margin the first stage asked
        for, ``z`` of *its* standard errors, however many more worlds it met: the later
        stages then only confirm or refute the first stage's gains, and never let a gain
        smaller than ``hard`` would take pass because the standard errors shrank."""
        self.last_rollouts = 0
        """Rollouts spent on the last decision (for benchmarks)."""

    def act(self, view: CardView) -> Action:
        self.last_rollouts = 0
        return super().act(view)

    def search(self, view: CardView, cands: list[Action]) -> Action:
        """The best of ``cands`` (the prior first), by stages of paired rollouts."""
        start = time.perf_counter()
        k = len(cands)
        shift = self.margins(view, cands)
        worlds = first = max(self.min_worlds, self.rows // k)
        share, scores = self.play_out(view, cands, worlds)
        shares = [list(row) for row in share]
        totals = [list(row) for row in scores]
        alive = list(range(k))
        spent = worlds * k
        while True:
            alive = _still_in(shares, shift, alive, self.decided, self.stake)
            worlds *= 2
            if len(alive) < 2 or spent + worlds * len(alive) > self.cap or (
                    self.seconds is not None and time.perf_counter() - start > self.seconds):
                break
            share, scores = self.play_out(view, [cands[c] for c in alive], worlds)
            for row, c in enumerate(alive):
                shares[c].extend(share[row])
                totals[c].extend(scores[row])
            spent += worlds * len(alive)
        self.last_rollouts = spent
        self.last_estimates = {a: Estimate(float(np.mean(shares[c])), float(np.mean(totals[c])))
                               for c, a in enumerate(cands)}
        z = self.z_at.get((view.rules.preset_name, view.players), self.z)
        return cands[_best(shares, shift, z, first if self.hold_margin else None)]


Shift = npt.NDArray[np.float64]
"""Per candidate, what its win share is shifted by before the choice
(:meth:`~cambio.bots.cards.deep.BatchRolloutSearchBot.margins`)."""


def _gain(shares: list[list[float]], shift: Shift, c: int) -> tuple[float, float]:
    """Candidate ``c``'s mean paired gain over the prior (shifted) and its standard error,
    over the worlds both met (the first ``len(shares[c])``: the prior meets every world)."""
    n = len(shares[c])
    d = np.asarray(shares[c]) - np.asarray(shares[0][:n])
    return float(d.mean() + shift[c] - shift[0]), float(d.std()) / math.sqrt(n)


def _still_in(shares: list[list[float]], shift: Shift, alive: list[int], decided: float,
              stake: float) -> list[int]:
    """The prior and the challengers worth more worlds; only the prior when the decision
    is decided or nothing is at stake."""
    stats = {c: _gain(shares, shift, c) for c in alive if c != 0}
    if not stats:
        return [0]
    best = max(stats, key=lambda c: stats[c][0])
    gain, se = stats[best]
    if gain > decided * se:  # a challenger is clearly better than the prior
        return [0]
    if all(m + decided * s < 0 for m, s in stats.values()):  # all clearly worse
        return [0]
    if all(m + 2 * s < stake for m, s in stats.values()):  # none can gain much
        return [0]
    floor = max(0.0, gain - 2 * se)
    return [0, *(c for c, (m, s) in stats.items() if m + 2 * s >= floor)]


def _best(shares: list[list[float]], shift: Shift, z: float, first: int | None = None) -> int:
    """``deep``'s choice (:func:`~cambio.bots.cards.deep.significant_best`) over the worlds
    each candidate met: a challenger dropped early is judged on its own worlds. With
    ``first`` (the first stage's worlds), the margin a challenger must clear stays what it
    was after ``first`` worlds: ``z`` grows with the square root of the worlds it met."""
    best, best_gain = 0, 0.0
    for c in range(1, len(shares)):
        n = len(shares[c])
        pair = np.array([shares[0][:n], shares[c]]) + shift[[0, c], None]
        z_here = z if first is None else z * math.sqrt(max(n, first) / first)
        if significant_best(pair, z_here) == 1:
            gain = _gain(shares, shift, c)[0]
            if gain > best_gain:
                best, best_gain = c, gain
    return best


__all__ = ["ADAPTIVE_CAP", "MASTER_SELF", "MASTER_SELF_FROM", "MASTER_Z",
           "AdaptiveRolloutSearchBot"]
