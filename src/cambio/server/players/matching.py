"""Play now's pairing rule, on plain values (no clock, no store, no Redis): who sits with
whom, at a table of what size.

Entries wait by **kind**: the game, the preset (cards) or setup (board), and rated or casual.
Each accepts one or more table sizes (cards "any": 2 to 4). The oldest waiting entry goes
first: a full table forms as soon as enough entries that accept one size wait together (the
largest size the oldest accepts first); once the oldest has waited its time (``fill_at``),
it sits with whoever is compatible, at the size that seats the most of them (the smallest
such size), and bots take the empty seats. A player is never seated with themselves, nor
with a player of a pair kept ``apart`` (one blocked the other).
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Entry:
    ticket: str
    player: str
    name: str
    token_hash: str
    """The seat token's hash: the token itself went to the player's browser only."""
    address: str
    """A hash of the client's address: two people of one address are never rated together."""
    game: str
    variant: str
    """The preset (cards) or the setup (board)."""
    sizes: tuple[int, ...]
    rated: bool
    joined: float
    fill_at: float
    mu: float
    """The player's rating μ in the class of the smallest size (bots are chosen near it)."""

    @property
    def kind(self) -> tuple[str, str, bool]:
        return (self.game, self.variant, self.rated)


@dataclass
class Group:
    entries: list[Entry]
    size: int
    rated: bool = field(default=True)


def form(entries: list[Entry], now: float,
         apart: Set[frozenset[str]] = frozenset()) -> list[Group]:
    """The tables to start now, from the entries waiting (each entry in at most one);
    ``apart``: pairs of players never seated together."""
    groups: list[Group] = []
    kinds: dict[tuple[str, str, bool], list[Entry]] = {}
    for e in sorted(entries, key=lambda e: (e.joined, e.ticket)):
        kinds.setdefault(e.kind, []).append(e)
    for waiting in kinds.values():
        taken: set[str] = set()
        for first in waiting:
            if first.ticket in taken:
                continue
            others = [x for x in waiting if x.ticket not in taken and x.ticket != first.ticket
                      and x.player != first.player]
            chosen = _full(first, others, apart) or (_filled(first, others, apart)
                                                     if now >= first.fill_at else None)
            if chosen is None:
                continue
            seated, size = chosen
            players = [x.player for x in seated]
            if len(set(players)) != len(players):  # one player's two tickets: not together
                continue
            taken.update(x.ticket for x in seated)
            addresses = [x.address for x in seated]
            groups.append(Group(seated, size, first.rated
                                and len(set(addresses)) == len(addresses)))
    return groups


def _fits(first: Entry, others: list[Entry], size: int, apart: Set[frozenset[str]]
          ) -> list[Entry]:
    seated = [first]
    players = {first.player}
    for x in others:
        if len(seated) == size:
            break
        if size in x.sizes and x.player not in players \
                and not any(frozenset((x.player, p)) in apart for p in players):
            seated.append(x)
            players.add(x.player)
    return seated


def _full(first: Entry, others: list[Entry], apart: Set[frozenset[str]]
          ) -> tuple[list[Entry], int] | None:
    for size in sorted(first.sizes, reverse=True):
        seated = _fits(first, others, size, apart)
        if len(seated) == size:
            return seated, size
    return None


def _filled(first: Entry, others: list[Entry], apart: Set[frozenset[str]]
            ) -> tuple[list[Entry], int]:
    best: tuple[list[Entry], int] | None = None
    for size in sorted(first.sizes):
        seated = _fits(first, others, size, apart)
        if best is None or len(seated) > len(best[0]):
            best = (seated, size)
    assert best is not None
    return best
