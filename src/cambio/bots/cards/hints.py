"""Hints: what the hard bot would do from a player's own view, and what it expects of it.

A hint is computed from the asking seat's view only -- the same view the player sees -- so
it can never reveal a card the player has not seen. The hard bot (:mod:`.deep`) plays
thousands of sampled worlds to the end of the round on the batch engine; they give, for each
move it compared, the player's chance of winning the round and mean final score; the hint
reports the suggested move's expected final score and how much better it is than the
next best move it compared (``None`` when the decision had a single sensible move).

In a match to a target the hint is told the match's standing, as the hard bot at the table
is: near the target the move that wins the round can be the one that loses the match (one
big round past 100, or missing the exact-hit reset), so the chance it reports is then the
chance of winning the *match*, and :attr:`Hint.match` says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from cambio.cards import CardView, Standing, action_text

from .base import tell_standing
from .deep import DEEP_ROWS, BatchRolloutSearchBot
from .match_value import applies

HINT_ROWS = 4 * DEEP_ROWS
"""Rollouts per hint: more than ``hard`` spends per move (a person waits anyway, and the
estimates shown are steadier)."""


@dataclass(frozen=True)
class Hint:
    action: int
    text: str
    win_share: float | None
    score: float | None
    """Expected final round score after the suggested move (lower is better)."""
    runner_up: str | None
    """The next best move by win chance."""
    runner_up_score: float | None
    runner_up_win: float | None
    match: bool = False
    """The chances are of winning the match (the hint knew its standing), not the round."""

    def describe(self) -> str:
        if self.score is None or self.win_share is None:
            return f"hint: {self.text}"
        chance = "match win chance" if self.match else "win chance"
        line = (f"hint: {self.text} (expected final score {self.score:.1f}, "
                f"{chance} {self.win_share:.0%}")
        if self.runner_up is not None and self.runner_up_score is not None \
                and self.runner_up_win is not None:
            line += (f"; next best {self.runner_up}: score {self.runner_up_score:.1f}, "
                     f"{chance} {self.runner_up_win:.0%}")
        return line + ")"


def suggest(view: CardView, seed: int = 0, rows: int = HINT_ROWS,
            standing: Standing | None = None) -> Hint:
    """The hard bot's move for ``view``, with its estimated effect on the round score and
    on the chance to win (the match's, when ``standing`` is a match's that can end)."""
    bot = BatchRolloutSearchBot(seed, rows=rows)
    tell_standing(bot, standing)
    match = applies(standing)
    action = bot.act(view)
    est = bot.last_estimates
    if action not in est:
        return Hint(action, action_text(action), None, None, None, None, None, match)
    best = est[action]
    others = sorted((e.win_share, a) for a, e in est.items() if a != action)
    runner = others[-1][1] if others else None
    return Hint(action, action_text(action), best.win_share, best.score,
                None if runner is None else action_text(runner),
                None if runner is None else est[runner].score,
                None if runner is None else est[runner].win_share, match)


__all__ = ["HINT_ROWS", "Hint", "suggest"]
