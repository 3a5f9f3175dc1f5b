"""What one player (or a spectator) may know of a round: the observer.

A :class:`CardView` is derived from the state's knowledge masks and public facts only, so
everything built on views -- bots, the terminal, the server's messages, player's-eye records
-- inherits the guarantee that nothing unseen leaks. Bots receive a view, never the state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Action, action_text, addr_seat, addr_slot, addr_text
from .cards import HIDDEN, Card, card_code
from .rules import Rules
from .state import (
    EMPTY,
    P_NONE,
    POWER_NAMES,
    TERMINAL,
    WINDOW_ANYONE,
    WINDOW_CLOSED,
    EndReason,
    Phase,
    State,
)


@dataclass(frozen=True, slots=True)
class CardView:
    """One seat's view of a round (``seat`` is ``None`` for a spectator: public facts only)."""

    seat: int | None
    players: int
    rules: Rules
    phase: Phase
    actor: int | None
    turn: int
    turn_number: int
    dealer: int
    deck_size: int
    discard: tuple[Card, ...]
    """The discard pile, bottom to top; every card on it was seen by everyone."""
    grids: tuple[tuple[Card, ...], ...]
    """Per seat, per slot: a card the viewer knows, ``HIDDEN``, or ``EMPTY``."""
    held: Card
    """The card in the turn player's hand: known, ``HIDDEN``, or ``EMPTY`` if none."""
    held_from_pile: bool
    power: str | None
    looked: tuple[int, int] | None
    caller: int | None
    final_turns_left: int
    window: str
    """``"anyone"``, ``"closed"`` or ``"seat N"`` (only seat N may snap)."""
    poll: tuple[int, ...]
    give_seat: int | None
    last_snap: tuple[int, int, Card, bool] | None
    reshuffles: int
    legal: tuple[Action, ...]
    scores: tuple[int, ...] | None
    winners: tuple[int, ...] | None
    end_reason: str | None
    seen: tuple[tuple[int, ...], ...]
    """Per seat, per slot: the seats who have seen that card, as a bitmask (bit ``players``:
    shown to everyone). Public, since every look and every move is made in public: a bot
    reads what its opponents know from it."""

    @property
    def over(self) -> bool:
        return self.phase == Phase.ROUND_OVER

    def own_grid(self) -> tuple[Card, ...]:
        return self.grids[self.seat] if self.seat is not None else ()

    def at(self, address: int) -> Card:
        """The card at a slot address (``seat << 8 | slot``) as this seat sees it."""
        return self.grids[addr_seat(address)][addr_slot(address)]

    def top(self) -> Card:
        return self.discard[-1] if self.discard else EMPTY

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: cards as codes, ``"?"`` for unseen, ``None`` for empty."""

        def code(c: Card) -> str | None:
            return None if c == EMPTY else "?" if c == HIDDEN else card_code(c)

        return {
            "game": "cards",
            "seat": self.seat,
            "players": self.players,
            "rules": self.rules.to_json(),
            "phase": self.phase.name.lower(),
            "actor": self.actor,
            "turn": self.turn,
            "turn_number": self.turn_number,
            "dealer": self.dealer,
            "deck": self.deck_size,
            "discard": [card_code(c) for c in self.discard],
            "grids": [[code(c) for c in g] for g in self.grids],
            "held": code(self.held),
            "held_from_pile": self.held_from_pile,
            "power": self.power,
            "looked": [addr_text(a) for a in self.looked] if self.looked else None,
            "caller": self.caller,
            "final_turns_left": self.final_turns_left,
            "window": self.window,
            "poll": list(self.poll),
            "give_seat": self.give_seat,
            "last_snap": None if self.last_snap is None else {
                "seat": self.last_snap[0],
                "slot": addr_text(self.last_snap[1]),
                "card": card_code(self.last_snap[2]),
                "right": self.last_snap[3],
            },
            "reshuffles": self.reshuffles,
            "legal": [action_text(a) for a in self.legal],
            "scores": list(self.scores) if self.scores is not None else None,
            "winners": list(self.winners) if self.winners is not None else None,
            "end_reason": self.end_reason,
        }


def observe(state: State, seat: int | None) -> CardView:
    """The view of ``seat`` (``None``: a spectator, who sees only what was shown to all)."""
    grids = _grids(state, state.public if seat is None else (1 << seat) | state.public)
    held = state.held
    if held >= 0 and not (state.held_from_pile or seat == state.turn):
        held = HIDDEN
    over = state.is_over()
    actor = state.current_player()
    looked = (state.look_a, state.look_b) if state.look_a >= 0 else None
    return CardView(
        seat=seat,
        players=state.n,
        rules=state.rules,
        phase=Phase(state.phase),
        actor=None if actor == TERMINAL else actor,
        turn=state.turn,
        turn_number=state.turn_number,
        dealer=state.dealer,
        deck_size=len(state.deck),
        discard=tuple(state.pile),
        grids=grids,
        held=held,
        held_from_pile=state.held_from_pile,
        power=str(POWER_NAMES[state.power]) if state.power != P_NONE else None,
        looked=looked,
        caller=state.caller if state.caller >= 0 else None,
        final_turns_left=state.final_left if state.caller >= 0 else 0,
        window=_window_name(state.window),
        poll=tuple(state.poll[state.poll_i:]) if state.phase == Phase.POLL else (),
        give_seat=state.give_seat if state.phase == Phase.GIVE else None,
        last_snap=state.last_snap,
        reshuffles=state.reshuffles,
        legal=tuple(state.legal_actions(seat)) if seat is not None else (),
        scores=tuple(state.scores()) if over else None,
        winners=tuple(state.winners()) if over else None,
        end_reason=EndReason(state.end_reason).name.lower() if over else None,
        seen=tuple(tuple(k) for k in state.known),
    )


def _grids(state: State, bit: int) -> tuple[tuple[int, ...], ...]:
    """The cards the seats whose bit is in ``bit`` know; the others hidden."""
    return tuple(
        tuple(EMPTY if c < 0 else c if k & bit else HIDDEN for c, k in zip(g, kk, strict=True))
        for g, kk in zip(state.grids, state.known, strict=True)
    )


def _window_name(w: int) -> str:
    return "closed" if w == WINDOW_CLOSED else "anyone" if w == WINDOW_ANYONE else f"seat {w}"
