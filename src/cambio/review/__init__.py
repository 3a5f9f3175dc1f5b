"""Game reviews: every decision a seat made, valued against its alternatives.

A review sits above the bots and the records: it replays a record to each of the seat's
decisions and asks the strongest search of that game what every legal alternative was worth
from the seat's view there (:mod:`.cards` for the card game, :mod:`.board` for the dice
game); :mod:`.labels` turns the values into losses, labels and an accuracy. See
``docs/review.md``.
"""

from __future__ import annotations

from .labels import LABELS, Decision, Option, Review, accuracy_of, label_of

__all__ = ["LABELS", "Decision", "Option", "Review", "accuracy_of", "label_of"]
