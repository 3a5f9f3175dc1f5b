"""CHEATING reference bot: it reads the whole state, every face-down card included.

Not a player: it exists to measure how far a fair bot is from perfect information (the
strength benchmark ``benchmarks/cards_strength.py`` plays ``hard`` against it). It is not in
:data:`cambio.bots.cards.BOTS`, so no command, lobby or table can seat it.

It plays a fair bot's policy on an omniscient view: a clone of the state in which every
card on the table is marked as seen by everyone (the deck stays face down). By default that
policy is ``memory``'s heuristic with ``hard``'s search of its last turn after another seat
calls (:attr:`~cambio.bots.cards.search.RolloutSearchBot.final`). With every card known,
``memory``'s cautious calling beats ``expert``'s odds-based calling (76% against 68% of
rounds won against ``memory``; docs/reports/cards-strength.md), so the oracle uses it.
"""

from __future__ import annotations

from collections.abc import Callable

from cambio.cards import Action, CardView, State, observe

from .base import CardBot
from .memory import ExpectedPointsBot
from .search import FINAL_ROLLOUTS, RolloutSearchBot


class OracleBot:
    """Sees every card on the table (cheats); decides as the policy ``bot`` would."""

    name = "oracle (cheating)"

    def __init__(self, state: Callable[[], State], seed: int = 0,
                 bot: CardBot | None = None) -> None:
        self.state = state
        self.bot = bot if bot is not None else RolloutSearchBot(
            seed, iterations=0, final=FINAL_ROLLOUTS, prior=ExpectedPointsBot(seed))

    def act(self, view: CardView) -> Action:
        if len(view.legal) == 1 or view.seat is None:
            return view.legal[0]
        full = self.state().clone()
        everyone = (full.public << 1) - 1
        full.known = [[everyone] * len(k) for k in full.known]
        seen = observe(full, view.seat)
        return self.bot.act(seen)


__all__ = ["OracleBot"]
