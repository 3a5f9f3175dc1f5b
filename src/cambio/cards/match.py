"""A match: several rounds with cumulative totals (SPEC 1.2, "Match", a ruling).

The match decides who deals and who plays first in each round (``Rules.next_round``) and
when the match ends: after a number of rounds, or once someone's total reaches a target.
Lowest cumulative total wins; tied players all win.

Rules with a ``match_target`` (Cabo's 100) play to it when no other end is given: the match
ends once someone's total passes the target, and a total of exactly the target is set to
``match_reset_to`` (at most ``match_resets`` times for each player).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .errors import RulesError
from .rules import NextRound, Rules
from .state import State, mix64


@dataclass(frozen=True)
class Standing:
    """A match's standing while a round is played: public facts only (every total is
    shown after each round), what a bot needs to play toward the match's end."""

    totals: tuple[int, ...]
    """Each seat's total before the round being played."""
    target: int | None
    """The match ends once a total reaches this (or passes it, with ``passes``)."""
    passes: bool
    rounds_left: int | None
    """Rounds still to play after this one (``None``: as many as the target takes)."""
    reset_at: int | None
    """A total of exactly this is set to ``reset_to`` (the rules' ``match_target``)."""
    reset_to: int | None
    resets_left: tuple[int | None, ...]
    """Resets each seat may still get (``None``: no limit)."""

    def after(self, scores: list[int] | tuple[int, ...]) -> tuple[list[int], bool]:
        """The totals once this round scored ``scores`` (exact hits reset), and whether the
        match is then over: what :meth:`Match.finish_round` and :meth:`Match.is_over` do."""
        totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        reset_totals(totals, self.resets_left, self.reset_at, self.reset_to)
        return totals, over(totals, self.target, self.passes) or self.rounds_left == 0

    def single_round(self) -> bool:
        """Nothing but this round decides the match: no target, no round after it, and
        every total equal (its winners are the round's, by the round's own tie rule)."""
        return self.target is None and self.rounds_left == 0 and len(set(self.totals)) <= 1


def reset_totals(totals: list[int], resets_left: Sequence[int | None], reset_at: int | None,
                 reset_to: int | None) -> list[int]:
    """Set each total of exactly ``reset_at`` to ``reset_to`` (in place) if its seat has
    resets left; the seats reset (one round resets a seat at most once)."""
    if reset_at is None or reset_to is None:
        return []
    done = []
    for s, total in enumerate(totals):
        left = resets_left[s]
        if total == reset_at and (left is None or left > 0):
            totals[s] = reset_to
            done.append(s)
    return done


def over(totals: list[int], target: int | None, passes: bool) -> bool:
    """Whether ``totals`` end a match played to ``target`` (past it, with ``passes``)."""
    if target is None or not totals:
        return False
    top = max(totals)
    return top > target or (top == target and not passes)


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

    def new_round(self, deck: Sequence[Card] | None = None) -> State:
        """The next round, dealt from its seed; ``deck`` fixes the top of its deck (a
        scripted deal: :class:`State`)."""
        if self.is_over():
            raise RulesError("the match is over")
        if self._playing is not None and not self._playing.is_over():
            raise RulesError("finish the current round first")
        state = State(self.rules, self.n, seed=self.round_seed(self.round_number),
                      deck=deck, dealer=self.dealer, polled=self.polled)
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
        for s in reset_totals(self.totals, self._resets_left(), self.rules.match_target,
                              self.rules.match_reset_to):
            self.resets[s] += 1

    def _resets_left(self) -> list[int | None]:
        cap = self.rules.match_resets
        return [None if cap is None else cap - r for r in self.resets]

    def standing(self) -> Standing:
        """The standing while the current round is played (or before it is dealt)."""
        rules = self.rules
        return Standing(tuple(self.totals), self.target, self.passes,
                        None if self.rounds is None else self.rounds - self.round_number,
                        rules.match_target, rules.match_reset_to, tuple(self._resets_left()))

    def next_first_player(self) -> int:
        return (self.dealer + 1) % self.n

    def is_over(self) -> bool:
        played = len(self.round_scores)
        if played and over(self.totals, self.target, self.passes):
            return True
        return self.rounds is not None and played >= self.rounds

    def winners(self) -> list[int]:
        low = min(self.totals)
        return [s for s in range(self.n) if self.totals[s] == low]
