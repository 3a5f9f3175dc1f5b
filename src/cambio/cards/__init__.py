"""The card game's rules core. Depends on nothing else in the project.

>>> from cambio.cards import Phase, Rules, State, action_text, parse_action
>>> s = State(Rules.preset("rulebook"), 3, seed=7)
>>> s.current_player()
0
>>> action_text(s.play(parse_action("draw")))   # play returns the action as offered
'draw'
>>> Phase(s.phase).name
'DRAWN'
"""

from ._build import COMPILED
from .actions import Action, Kind, action_text, addr, addr_text, parse_action
from .cards import HIDDEN, Card, card_code, deck_cards, parse_card, parse_cards
from .errors import (
    CambioError,
    CardError,
    IllegalActionError,
    InvalidActionError,
    RulesError,
)
from .match import Match, Standing
from .rules import MAX_PLAYERS, PRESETS, NextRound, Power, PowerTrigger, Resnap, Rules, TieRule
from .state import EMPTY, TERMINAL, EndReason, Phase, State
from .view import CardView, observe

__all__ = [
    "COMPILED",
    "EMPTY",
    "HIDDEN",
    "MAX_PLAYERS",
    "PRESETS",
    "TERMINAL",
    "Action",
    "CambioError",
    "Card",
    "CardError",
    "CardView",
    "EndReason",
    "IllegalActionError",
    "InvalidActionError",
    "Kind",
    "Match",
    "NextRound",
    "Phase",
    "Power",
    "PowerTrigger",
    "Resnap",
    "Rules",
    "RulesError",
    "Standing",
    "State",
    "TieRule",
    "action_text",
    "addr",
    "addr_text",
    "card_code",
    "deck_cards",
    "observe",
    "parse_action",
    "parse_card",
    "parse_cards",
]
