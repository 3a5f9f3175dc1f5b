"""CHEATING reference bot: it reads the whole state, every face-down card included.

Not a player: it exists to measure how far a fair bot is from perfect information (the
strength benchmark ``benchmarks/cards_strength.py`` plays ``hard`` against it). It is not in
:data:`cambio.bots.cards.BOTS`, so no command, lobby or table can seat it.

It plays the ``memory`` bot's policy on an omniscient view: a clone of the state in which
every card is marked as seen by everyone. Its legal actions are the real ones.
"""

from __future__ import annotations

from collections.abc import Callable

from cambio.cards import Action, CardView, State, observe

from .memory import MemoryBot


class OracleBot:
    """Sees every card (cheats); decides as ``memory`` would with that knowledge."""

    name = "oracle (cheating)"

    def __init__(self, state: Callable[[], State], seed: int = 0) -> None:
        self.state = state
        self.memory = MemoryBot(seed)

    def act(self, view: CardView) -> Action:
        if len(view.legal) == 1 or view.seat is None:
            return view.legal[0]
        full = self.state().clone()
        everyone = (full.public << 1) - 1
        full.known = [[everyone] * len(k) for k in full.known]
        seen = observe(full, view.seat)
        return self.memory.act(seen)


__all__ = ["OracleBot"]
