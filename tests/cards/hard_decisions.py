"""Pinned decisions of the ``hard`` bot: seeded positions, its move and every candidate's
rollout estimates.

The rollout kernels (:mod:`cambio.bots.cards.rollouts`, the batch engine and the native
``memory`` bot they run) are tuned for speed; a faster kernel must play the same rollouts,
so that ``hard`` makes the same decisions from the same seeds. This file pins, at positions
of seeded ``memory`` rounds, the move ``hard`` chose and each candidate's mean win share and
final score over its rollouts, as the kernels played them when the file was written: any
playout that changes moves an estimate. Regenerate (after a deliberate change of the bots'
play only) with::

    .venv/bin/python -m tests.cards.hard_decisions
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cambio.bots.cards import make_bot
from cambio.bots.cards.deep import BatchRolloutSearchBot
from cambio.cards import CardView, Rules, State, action_text, observe

PATH = Path(__file__).with_name("hard_decisions.jsonl")
ROWS = 256
"""Rollouts a decision (``hard`` plays 1,024; fewer keep the test fast)."""
PRESETS = ("rulebook", "house", "wikipedia", "cambia", "evan", "cabo")
"""Every preset (the other groups' pinned since the kernels play them; cabo last, so the
earlier presets' lines stay as they were)."""
SPECS = [(preset, players, seed) for preset in PRESETS for players in (2, 3, 4)
         for seed in range(2)]
"""Rounds: preset, players, seed."""
EVERY = 7
"""One decision in this many (with a choice) is pinned."""


def positions(preset: str, players: int, seed: int) -> Iterator[tuple[int, CardView]]:
    """Every ``EVERY``-th view with a choice in a seeded round of ``memory`` bots, with the
    number of actions played before it."""
    state = State(Rules.preset(preset), players, seed=seed, polled=True)
    bots = [make_bot("memory", seed + s) for s in range(players)]
    step = 0
    choices = 0
    while not state.is_over():
        seat = state.current_player()
        view = observe(state, seat)
        if len(view.legal) > 1:
            choices += 1
            if choices % EVERY == 0:
                yield step, view
        state.apply(bots[seat].act(view), seat)
        step += 1


def decide(view: CardView, seed: int) -> dict[str, Any]:
    """``hard``'s move at ``view`` and its candidates' estimates (shares, scores)."""
    bot = BatchRolloutSearchBot(seed, rows=ROWS)
    action = bot.act(view)
    return {"action": action_text(action),
            "estimates": [[action_text(a), e.win_share, e.score]
                          for a, e in bot.last_estimates.items()]}


def records() -> Iterator[dict[str, Any]]:
    for preset, players, seed in SPECS:
        for step, view in positions(preset, players, seed):
            yield {"preset": preset, "players": players, "seed": seed, "step": step,
                   **decide(view, seed * 31 + step)}


def main() -> None:
    with PATH.open("w") as f:
        for record in records():
            f.write(json.dumps(record, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
