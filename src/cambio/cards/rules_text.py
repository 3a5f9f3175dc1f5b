"""The rules in words: a human name and a description for every field of :class:`Rules` and
every value of its choices, for players (the lobby's house rules, the table, the rules page).

Pages build their rule lists from these and from :class:`Rules` itself, so a rule added to
the engine without words here fails ``tests/cards/test_rules_text.py`` instead of reaching a
player as a field identifier.
"""

from __future__ import annotations

from enum import StrEnum

from .rules import (
    DeckKind,
    ExchangeMismatch,
    Kamikaze,
    NextRound,
    Power,
    PowerTrigger,
    Resnap,
    RoundZero,
    TieRule,
)

RULE_TEXT: dict[str, tuple[str, str]] = {
    "min_players": ("Fewest players", "The fewest players a table of these rules may start with."),
    "max_players": ("Most players", "The most players a table may seat (none: no limit)."),
    "players_per_extra_deck": (
        "Players per extra deck",
        "One more deck is shuffled in for every this many players (decks = 1 + players / this)."),
    "jokers_per_deck": ("Jokers per deck", "How many jokers each deck holds."),
    "value_ace": ("Ace is worth", "The points an ace scores at the end of a round."),
    "value_jack": ("Jack is worth", "The points a jack scores."),
    "value_queen": ("Queen is worth", "The points a queen scores."),
    "value_black_king": ("Black king is worth", "The points a king of clubs or spades scores."),
    "value_red_king": ("Red king is worth",
                       "The points a king of diamonds or hearts scores (often below zero)."),
    "value_joker": ("Joker is worth", "The points a joker scores."),
    "opening_peek": ("Cards seen at the deal",
                     "How many of your bottom cards you see once, at the deal."),
    "draw_from_discard": (
        "Take from the pile",
        "A turn may take the top card of the discard pile instead of drawing; a card taken "
        "must be swapped into your grid."),
    "power_trigger": ("When powers fire", "Which discarded cards use their power."),
    "powers_optional": ("Powers are optional",
                        "A player may skip the power of the card they discarded."),
    "power_seven_eight": ("Power of 7 and 8", "What discarding a 7 or an 8 lets you do."),
    "power_nine_ten": ("Power of 9 and 10", "What discarding a 9 or a 10 lets you do."),
    "power_jack_queen": ("Power of jack and queen",
                         "What discarding a jack or a queen lets you do."),
    "power_black_king": ("Power of a black king", "What discarding a black king lets you do."),
    "power_red_king": ("Power of a red king", "What discarding a red king lets you do."),
    "power_queen": ("Power of a queen", "What discarding a queen lets you do, when it differs "
                    "from the jack's."),
    "resnap": ("Who may snap again", "Who may snap once a card has been snapped onto the pile."),
    "snap_penalty": ("Wrong snap penalty", "How many cards a wrong snap costs the snapper."),
    "tie_rule": ("Ties", "Who wins when the lowest totals are equal."),
    "next_round": ("Next round", "Who plays first in the next round of a match."),
    "lock_caller": ("Caller's cards are locked",
                    "Once Cambio is called, the caller's cards cannot be snapped, switched or "
                    "peeked at."),
    "caller_may_snap": ("Caller may snap", "The player who called Cambio may still snap."),
    "max_grid": ("Most cards in a grid",
                 "A grid may hold at most this many cards (penalty cards included; none: no "
                 "limit)."),
    "empty_grid_calls_cambio": (
        "An empty grid calls Cambio",
        "A player left with no cards calls Cambio at once."),
    "earliest_cambio_turn": ("Earliest Cambio", "The first turn on which Cambio may be called."),
    "one_snap_per_discard": ("One snap per discard",
                             "Only the first snap after each discard counts."),
    "max_turns": ("Turn cap", "The round ends, scored as usual, after this many turns."),
    "deck": ("Deck", "Which cards a deck holds."),
    "decks": ("Decks", "Exactly this many decks, whatever the number of players (none: one "
              "more deck for every 'players per extra deck')."),
    "snapping": ("Snapping", "A card matching the top of the pile may be snapped onto it."),
    "snap_others": ("Snap others' cards",
                    "A player may snap another player's card (off: only their own)."),
    "reshuffle_pile": ("Reshuffle the pile",
                       "An empty deck is refilled from the pile (off: the round ends when the "
                       "deck runs out)."),
    "multi_exchange": ("Exchange several cards",
                       "The drawn card may replace two to four of your cards at once, if they "
                       "are all of one value."),
    "exchange_mismatch": ("Exchange of unequal cards",
                          "What happens when the cards of such an exchange are not all of one "
                          "value."),
    "round_zero": ("Who scores zero", "Who scores 0 for the round instead of their cards."),
    "failed_call_penalty": ("Failed call penalty",
                            "Points added to the caller's score when someone else is lower."),
    "kamikaze": ("Kamikaze hand", "A hand that scores differently from its cards."),
    "kamikaze_holder": ("Kamikaze holder scores", "What the kamikaze hand's holder scores."),
    "kamikaze_others": ("Kamikaze others score",
                        "What everyone else scores when someone holds the kamikaze hand."),
    "match_target": ("Match target",
                     "A match ends once someone's total passes this (none: set rounds)."),
    "match_reset_to": ("Reset at the target",
                       "A total of exactly the target is set to this (none: no reset)."),
    "match_resets": ("Resets per player",
                     "How often one player's total may be reset in a match (none: no limit)."),
}
"""Field -> (human name, what it means)."""

CHOICE_TEXT: dict[str, str] = {
    Power.NONE: "No power",
    Power.PEEK_OWN: "Peek at one of your own cards",
    Power.PEEK_OTHER: "Peek at another player's card",
    Power.SWAP_OWN_OTHER: "Switch one of your cards with another player's, unseen",
    Power.SWAP_ANY: "Switch any two cards on the table, unseen",
    Power.LOOK_OWN_OTHER_MAY_SWAP:
        "Look at one of your cards and another player's, then switch them or keep them",
    Power.LOOK_ANY_SWAP_ANY: "Look at any two cards, then switch any two cards",
    Power.LOOK_ONE_SWAP_ANY: "Look at any one card, then switch any two cards",
    PowerTrigger.END_OF_TURN_DISCARD:
        "The card discarded at the end of a turn, drawn or swapped out",
    PowerTrigger.DRAWN_AND_DISCARDED: "Only a card drawn from the deck and discarded at once",
    Resnap.ANYONE: "Anyone",
    Resnap.SNAPPER_ONLY: "Only the player who snapped last",
    TieRule.ALL_TIED_WIN: "Everyone tied wins",
    TieRule.MOST_CARDS_THEN_NOT_CALLER: "The most cards wins the tie, then not the caller",
    NextRound.DEALER_MOVES_LEFT: "The deal moves one seat on",
    NextRound.WINNER_STARTS: "The winner starts",
    TieRule.CALLER_WINS_TIES: "A tied caller wins alone; otherwise everyone tied wins",
    TieRule.NOT_CALLER: "A tied caller loses the tie; the others tied win",
    DeckKind.STANDARD: "52 cards and the jokers",
    DeckKind.CABO: "Cabo's deck: two 0s, four each of 1 to 12, two 13s",
    RoundZero.NOBODY: "Nobody: everyone scores their cards",
    RoundZero.CALLER_IF_LOWEST: "The caller, when lowest or tied for lowest",
    RoundZero.LOWEST: "Whoever is lowest",
    Kamikaze.OFF: "None",
    Kamikaze.TWELVES_THIRTEENS: "Exactly two 12s and two 13s",
    ExchangeMismatch.KEEP_ALL: "They stay face up and the drawn card joins them",
    ExchangeMismatch.RETURN: "They go back face up and the drawn card is discarded",
}
"""Choice value -> words (a power's words say what discarding such a card lets you do)."""

NONE_CHOICE_TEXT: dict[str, str] = {"power_queen": "As the jack"}
"""The words for "none" in an optional choice field."""

CHOICE_TYPES: tuple[type[StrEnum], ...] = (Power, PowerTrigger, Resnap, TieRule, NextRound,
                                           DeckKind, RoundZero, Kamikaze, ExchangeMismatch)
