"""What a review says of one decision, and of a seat's whole game, for either game.

A decision is valued by the chance of winning each legal alternative leaves the seat (and,
in the card game, its expected final score). The chosen move's *loss* is the best
alternative's win chance minus the chosen one's, in percentage points; the label and the
accuracy follow from it alone, so both games read the same way:

============  ===========================
label         win-chance loss (points)
============  ===========================
best          below 0.5 (the best, within the search's noise)
good          0.5 to 3
inaccuracy    3 to 7
mistake       7 to 15
blunder       15 or more
============  ===========================

Accuracy per decision is lichess's curve of the loss (100 for no loss, about 88 for a loss
of 3 points, 50 for 16), and a seat's accuracy is the mean over its decisions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

LABELS: tuple[tuple[str, float], ...] = (
    ("best", 0.5), ("good", 3.0), ("inaccuracy", 7.0), ("mistake", 15.0),
    ("blunder", math.inf))
"""Each label and the win-chance loss (percentage points) it stays below."""


def label_of(loss_points: float) -> str:
    """The label of a decision that lost ``loss_points`` of win chance."""
    for name, below in LABELS:
        if loss_points < below:
            return name
    return LABELS[-1][0]


def accuracy_of(loss_points: float) -> float:
    """Accuracy (0..100) of one decision: lichess's curve of the win-chance loss."""
    raw = 103.1668 * math.exp(-0.04354 * max(0.0, loss_points)) - 3.1669
    return min(100.0, max(0.0, raw))


@dataclass(frozen=True)
class Option:
    """One legal alternative at a decision, as the search valued it."""

    action: str
    win: float
    """The seat's chance of winning after it (0..1; a tie counts its share)."""
    score: float | None = None
    """The seat's expected final score after it (card game; lower is better)."""

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "win": round(self.win, 4),
                "score": None if self.score is None else round(self.score, 3)}


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat: every alternative valued, best first."""

    step: int
    """Index of the move in the record (0: the first recorded move)."""
    chosen: Option
    options: tuple[Option, ...]
    exact: bool = False
    """Whether the values are exact (a solved table) rather than a search's estimate."""
    slips: tuple[str, ...] = ()
    """Memory slips: what the choice contradicts of a card the seat had seen."""

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def loss(self) -> float:
        """Win chance lost against the best alternative, in percentage points."""
        return max(0.0, 100.0 * (self.best.win - self.chosen.win))

    @property
    def points(self) -> float | None:
        """Expected final score lost against the best alternative (card game)."""
        if self.chosen.score is None or self.best.score is None:
            return None
        return self.chosen.score - self.best.score

    @property
    def label(self) -> str:
        return label_of(self.loss)

    def to_json(self) -> dict[str, Any]:
        points = self.points
        return {"step": self.step, "chosen": self.chosen.to_json(),
                "best": self.best.to_json(), "loss": round(self.loss, 2),
                "points": None if points is None else round(points, 3),
                "label": self.label, "exact": self.exact, "slips": list(self.slips),
                "options": [o.to_json() for o in self.options]}


@dataclass(frozen=True)
class Review:
    """A seat's reviewed game: its decisions and what they add up to."""

    game: str
    seat: int
    budget: str
    seed: int
    decisions: tuple[Decision, ...] = field(default_factory=tuple)

    @property
    def accuracy(self) -> float | None:
        """Mean accuracy over the decisions (``None`` when the seat had none to make)."""
        if not self.decisions:
            return None
        return sum(accuracy_of(d.loss) for d in self.decisions) / len(self.decisions)

    @property
    def series(self) -> list[float]:
        """The seat's chance of winning after each of its decisions (the chosen move's)."""
        return [d.chosen.win for d in self.decisions]

    def costliest(self, count: int = 3) -> list[Decision]:
        """The decisions that lost the most win chance (none that lost nothing)."""
        costly = sorted((d for d in self.decisions if d.loss > 0),
                        key=lambda d: (-d.loss, d.step))
        return costly[:count]

    def counts(self) -> dict[str, int]:
        out = {name: 0 for name, _ in LABELS}
        for d in self.decisions:
            out[d.label] += 1
        return out

    def to_json(self) -> dict[str, Any]:
        """The review as ``cambio review --json`` prints it (docs/review.md)."""
        acc = self.accuracy
        return {"game": self.game, "seat": self.seat, "budget": self.budget,
                "seed": self.seed,
                "accuracy": None if acc is None else round(acc, 2),
                "labels": self.counts(),
                "series": [round(w, 4) for w in self.series],
                "costliest": [d.step for d in self.costliest()],
                "slips": sum(len(d.slips) for d in self.decisions),
                "decisions": [d.to_json() for d in self.decisions]}


__all__ = ["LABELS", "Decision", "Option", "Review", "accuracy_of", "label_of"]
