"""A match: several rounds with cumulative totals (SPEC 1.2, "Match", a ruling).

The match decides who deals and who plays first in each round (``Rules.next_round``) and
when the match ends: after a number of rounds, or once someone's total reaches a target.
Lowest cumulative total wins; tied players all win.

Rules with a ``match_target`` (Cabo's 100) play to it when no other end is given: the match
ends once someone's total passes the target, and a total of exactly the target is set to
``match_reset_to`` (at most ``match_resets`` times for each player).
"""

from __future__ import annotations

from .errors import RulesError
from .rules import NextRound, Rules
from .state import State, mix64


class Match:
    """Rounds of one table. Call :meth:`new_round`, play it, then :meth:`finish_round`."""

    def __init__(
        self,
        rules: Rules,
        players: int,
        *,
        seed: int = 0,
        rounds: int | None = 1,
        target: int | None = None,
        polled: bool = True,
        first_dealer: int | None = None,
    ) -> None:
        rules.check_players(players)
        self.passes = target is None and rounds is None and rules.match_target is not None
        """Whether the match ends once a total passes the rules' target (not reaches it)."""
        if self.passes:
            target = rules.match_target
        if rounds is None and target is None:
            raise RulesError("a match needs a number of rounds, a target total, or both")
        if rounds is not None and rounds < 1:
            raise RulesError("a match has at least one round")
        self.rules = rules
        self.n = players
        self.seed = seed
        self.rounds = rounds
        self.target = target
        self.polled = polled
        self.totals = [0] * players
        self.round_scores: list[list[int]] = []
        self.round_winners: list[list[int]] = []
        self.resets = [0] * players
        """How often each player's total has been reset (``match_reset_to``)."""
        self.dealer = (players - 1) if first_dealer is None else first_dealer % players
        self._playing: State | None = None

    @property
    def round_number(self) -> int:
        """1-based number of the round being played (or about to be)."""
        return len(self.round_scores) + 1

    def round_seed(self, k: int) -> int:
        return mix64(self.seed * 0x9E3779B1 + k)

    def new_round(self) -> State:
        if self.is_over():
            raise RulesError("the match is over")
        if self._playing is not None and not self._playing.is_over():
            raise RulesError("finish the current round first")
        state = State(self.rules, self.n, seed=self.round_seed(self.round_number),
                      dealer=self.dealer, polled=self.polled)
        self._playing = state
        return state

    def finish_round(self, state: State) -> None:
        """Add the round's scores and pick the next dealer by the rules."""
        if state is not self._playing or not state.is_over():
            raise RulesError("only the current round, once over, can be finished")
        scores = state.scores()
        winners = state.winners()
        self.round_scores.append(scores)
        self.round_winners.append(winners)
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        self._reset_exact_hits()
        first = (self.dealer + 1) % self.n
        if self.rules.next_round == NextRound.WINNER_STARTS:
            # Several winners: the first of them clockwise from this round's first player.
            starter = min(winners, key=lambda s: (s - first) % self.n)
            self.dealer = (starter - 1) % self.n
        else:
            self.dealer = first
        self._playing = None

    def _reset_exact_hits(self) -> None:
        rules = self.rules
        if rules.match_reset_to is None or rules.match_target is None:
            return
        for s, total in enumerate(self.totals):
            if total == rules.match_target and (
                    rules.match_resets is None or self.resets[s] < rules.match_resets):
                self.totals[s] = rules.match_reset_to
                self.resets[s] += 1

    def next_first_player(self) -> int:
        return (self.dealer + 1) % self.n

    def is_over(self) -> bool:
        played = len(self.round_scores)
        if self.target is not None and played:
            top = max(self.totals)
            if top > self.target or (top == self.target and not self.passes):
                return True
        return self.rounds is not None and played >= self.rounds

    def winners(self) -> list[int]:
        low = min(self.totals)
        return [s for s in range(self.n) if self.totals[s] == low]
