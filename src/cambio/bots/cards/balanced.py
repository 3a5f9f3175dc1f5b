"""Rollout weights balanced to predict: ``memory``'s weights whose rollouts say best how a
round between strong players ends.

A search's rollouts give each candidate a value, the share it is worth. ``memory``'s
default weights were set to play well and :data:`~cambio.bots.cards.memory.TUNED` to win
against ``memory``; neither was asked to *predict*. Simulation balancing (Silver and
Tesauro, "Monte-Carlo simulation balancing", 2009) fits the rollout policy to that job:
``benchmarks/cards_balance.py`` records the positions ``hard`` decides in self-play with the
share each seat got at the end of its round, deals each into the worlds ``hard``'s search
would deal, and fits the weights every seat of the rollouts plays (CMA-ES) to minimise the
squared error between the rollouts' mean share and the share got.

The weights are fitted for one preset and table size and played only there: the rulebook
weights lost heavily in house (docs/cards-strength.md), and wikipedia's fitted ones were no
better than ``memory``'s there (it plays ``memory``'s with a call gate; ``cabo``, whose
rounds ``master`` already won, has none). A house-rule variant of a preset plays its
preset's weights, as ``learned`` does. ``hard`` plays only wikipedia's
(:data:`HARD_BALANCED`).
"""

from __future__ import annotations

from collections.abc import Mapping

from cambio.cards import Rules

from .memory import MemoryParams

BALANCED: Mapping[tuple[str, int], MemoryParams] = {
    ("rulebook", 2): MemoryParams(cambio_total=-1.287, cambio_hidden=0, cambio_relax=0.002,
                                  relax_after=7, info_own=10.964, info_other=2.875,
                                  risk=-0.109, snap_odds=0.243, min_snap_gain=0.03,
                                  swap_power=1.929),
    ("house", 2): MemoryParams(cambio_total=0.773, cambio_hidden=1, cambio_relax=0.002,
                               relax_after=4, info_own=0.474, info_other=0.641, risk=0.816,
                               snap_odds=1.078, min_snap_gain=2.063, swap_power=0.758),
    ("evan", 2): MemoryParams(cambio_total=2.0, cambio_hidden=1, cambio_relax=0.154,
                              relax_after=10, info_own=0.265, info_other=0.08, risk=0.903,
                              snap_odds=0.426, min_snap_gain=0.19, swap_power=0.336),
    ("cambia", 2): MemoryParams(cambio_total=4.286, cambio_hidden=0, cambio_relax=0.704,
                                relax_after=12, info_own=5.247, info_other=3.989, risk=0.283,
                                snap_odds=1.185, min_snap_gain=4.662, swap_power=0.765),
    ("wikipedia", 2): MemoryParams(call_lead=0.0),
}
"""By (preset, players): the balanced weights, each from ``cards_balance.py --target hard
--rules PRESET --deals 300 --worlds 16 --seed 2``. Rulebook: Brier score 0.2196 on 5,469
held-out positions, ``memory``'s defaults 0.2253; they call Cambio late, with no card unseen.
House (``--per-deal 64``: every deal weighing the same): 0.2315 on 3,628, the defaults
0.2333; they call with at most one card unseen and an estimated total of 0.8 or less.
Evan (likewise): 0.2313 on 3,113, the defaults 0.2342; they value looking at cards little
(``info_own`` 0.27 where the defaults say 8). Cambia: 0.2132 on 2,429, the defaults 0.2157;
they call only with every own card seen. Wikipedia: ``memory``'s defaults with the call gate
at 0, a call only when the own estimate is below every opponent's (the caller loses a tie
there); not fitted: the gate's best fit, Brier 0.2289 (the defaults 0.2418), called almost
never and lost to ``hard``."""


HARD_BALANCED: Mapping[tuple[str, int], MemoryParams] = {
    ("wikipedia", 2): BALANCED[("wikipedia", 2)],
}
"""The part of :data:`BALANCED` ``hard`` plays, by (preset, players): wikipedia's call gate,
with which ``hard`` beat itself by SPRT twice (59.0% over 216 games, then 53.4% over 986 on
other deals). Under ``hard``'s single stage of rollouts rulebook's weights lost (48.6% over
600 games) and house's were undecided after 4,000 (51.6%), then no better on other deals
(H0, 50.4% over 1,898); ``master``, which spends up to
twelve times the rollouts, gains from each (docs/cards-strength.md)."""


OWN_SEAT_ONLY: frozenset[tuple[str, int]] = frozenset({("rulebook", 2)})
"""The tables where ``master`` plays its balanced weights in its own rollout seat only, the
other seats keeping ``memory``'s defaults. Played at every seat, rulebook's weights (fitted
to ``hard``'s rounds, which call late) made ``master`` plan on opponents who wait, and it
lost points to the panel members that do not (`search`: 60.5% where ``hard`` won 64.2% of
the same 1,000 rounds). In its own seat only they won those back (64.8%, +4.2 points
paired) and beat ``hard`` by SPRT twice (55.8% over 434 games, then 53.3% over 1,036 on
other deals; docs/cards-strength.md)."""


def balanced_params(rules: Rules, players: int,
                    table: Mapping[tuple[str, int], MemoryParams] = BALANCED
                    ) -> MemoryParams | None:
    """The balanced weights for a table of ``rules`` and ``players``, if any were fitted."""
    return table.get((rules.preset_name, players))


__all__ = ["BALANCED", "HARD_BALANCED", "OWN_SEAT_ONLY", "balanced_params"]
