"""Which passwords are refused: any a guesser would try early.

zxcvbn (Dropbox's estimator, maintained as the ``zxcvbn`` package) ships the 30,000 most
common passwords of leaked password sets, with dictionaries of words and names, and matches
them through capitals, l33t spellings, reversals, keyboard walks, repeats, sequences and
dates. A password it expects to fall within a million guesses (its score 0 or 1:
``Password123``, ``P@ssw0rd``, ``qwertyuiop``, ``aaaaaaaa``, the username with a year) is
refused with its reason, as NIST SP 800-63B asks of a service that takes passwords. The
estimate costs up to about 80 ms for a long password, so callers run it in a worker thread.
"""

from __future__ import annotations

from collections.abc import Iterable

from zxcvbn import zxcvbn

LONGEST_CHECKED = 72
"""zxcvbn's own limit: a longer password is judged by its first 72 characters."""
LEAST_SCORE = 2
"""zxcvbn's score 2: about a hundred million guesses or more."""


def weakness(password: str, hints: Iterable[str | None] = ()) -> str | None:
    """Why ``password`` is too easy to guess, in words for its owner; ``None`` if it is not.
    ``hints``: what a guesser would try first for this player (their username, name)."""
    found = zxcvbn(password[:LONGEST_CHECKED], user_inputs=[h for h in hints if h])
    if found["score"] >= LEAST_SCORE:
        return None
    warning = str(found["feedback"].get("warning") or "").strip()
    why = warning or "It is one of the most common passwords, or close to one."
    return (f"this password is too easy to guess: {why} Choose another; a few unrelated "
            "words make a strong one")
