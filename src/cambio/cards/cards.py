"""Cards as small ints, and their short text codes.

A card is ``rank * 4 + suit``: rank 0 is the joker, 1 the ace, 2-10 the numbers, 11-13 jack,
queen, king; suits are clubs, diamonds, hearts, spades. The two jokers of a deck use suit 0
(black, ``XB``) and suit 1 (red, ``XR``). Copies from several decks share a code: copies are
indistinguishable in play, so the engine never needs to tell them apart.

>>> card_code(parse_card("kd"))
'KD'
>>> [card_code(c) for c in deck_cards(decks=1, jokers_per_deck=2)[-3:]]
['KS', 'XB', 'XR']
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import CardError

Card = int

RANKS = "XA23456789TJQK"
SUITS = "CDHS"
JOKER_SUITS = "BR"

JOKER = 0
ACE = 1
JACK = 11
QUEEN = 12
KING = 13

NUM_CARD_CODES = 14 * 4

HIDDEN = -2
"""A face-down card the viewer has not seen (``EMPTY`` (-1) marks an empty slot)."""


def make_card(rank: int, suit: int) -> Card:
    return rank * 4 + suit


def rank_of(card: Card) -> int:
    return card >> 2


def suit_of(card: Card) -> int:
    return card & 3


def is_red(card: Card) -> bool:
    """Diamonds and hearts are red; for jokers suit 1 is the red joker."""
    if card >> 2 == JOKER:
        return card & 3 == 1
    return card & 3 in (1, 2)


def card_code(card: Card) -> str:
    rank, suit = card >> 2, card & 3
    if rank == JOKER:
        return "X" + JOKER_SUITS[suit]
    return RANKS[rank] + SUITS[suit]


def parse_card(text: str) -> Card:
    """Read a card code: ``KD``, ``TH`` (or ``10H``), ``7S``, ``AC``, jokers ``XB`` / ``XR``."""
    if not isinstance(text, str):
        raise CardError(f"a card code must be a string, not {type(text).__name__}")
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2:
        raise CardError(f"{text!r} is not a card code (expected e.g. KD, TH, 7S, XR)")
    rank = RANKS.find(t[0])
    if rank < 0:
        raise CardError(f"{text!r}: unknown rank {t[0]!r} (ranks are {RANKS[1:]}, X for joker)")
    suits = JOKER_SUITS if rank == JOKER else SUITS
    suit = suits.find(t[1])
    if suit < 0:
        raise CardError(f"{text!r}: unknown suit {t[1]!r} (expected one of {suits})")
    return make_card(rank, suit)


def parse_cards(codes: Iterable[str]) -> list[Card]:
    return [parse_card(c) for c in codes]


def deck_cards(decks: int, jokers_per_deck: int, *, red_kings: bool = True) -> list[Card]:
    """Every card of ``decks`` decks, in a fixed unshuffled order (clubs, diamonds, ... jokers).

    ``red_kings=False`` leaves the kings of diamonds and hearts out (Cabo's deck, whose two
    13s are the black kings)."""
    one = [make_card(rank, suit) for suit in range(4) for rank in range(1, 14)
           if red_kings or rank != KING or not is_red(make_card(rank, suit))]
    one.sort()
    jokers = [make_card(JOKER, i % 2) for i in range(jokers_per_deck)]
    return (one + jokers) * decks
