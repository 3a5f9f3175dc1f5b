"""What the terminal card game prints: the table, and a public log line for each action.

Everything here is derived from the human seat's view and from the engine's events as that
seat may see them, never from the state, so the screen can only show what that seat may know.
Whether known cards stay visible is the caller's choice (``assist``); without it the human
must remember.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from cambio.cards import EMPTY, HIDDEN, CardView, Phase, Power, card_code
from cambio.cards.actions import DRAW, Action, addr, addr_seat, addr_slot, kind_of
from cambio.cards.events import (
    CambioCalled,
    Declined,
    Discarded,
    Drew,
    Event,
    Exchanged,
    Gave,
    Looked,
    Peeked,
    Penalty,
    PowerFired,
    Reshuffled,
    RoundEnded,
    Snapped,
    Switched,
)

POWER_TEXT = {
    Power.PEEK_OWN: "look at one of {own} own cards",
    Power.PEEK_OTHER: "look at one card of another player",
    Power.SWAP_OWN_OTHER: "swap one of {own} cards with another player's, unseen",
    Power.SWAP_ANY: "swap any two cards on the table, unseen",
    Power.LOOK_OWN_OTHER_MAY_SWAP: "look at one of {own} cards and one of another player's, "
                                   "then swap them or not",
    Power.LOOK_ANY_SWAP_ANY: "look at any two cards, then swap any two cards",
}
"""What each power lets the discarder do; ``{own}`` is "your" or "their"."""


def power_text(power: Power, own: str = "your") -> str:
    return POWER_TEXT.get(power, "nothing").format(own=own)


def card_text(card: int) -> str:
    return "--" if card == EMPTY else "##" if card == HIDDEN else card_code(card)


class Namer:
    """Names seats and slots from the human's point of view ("you", "your slot 2", "1.3")."""

    def __init__(self, me: int, names: list[str]) -> None:
        self.me = me
        self.names = names

    def seat(self, seat: int) -> str:
        return "you" if seat == self.me else f"seat {seat} ({self.names[seat]})"

    def who(self, seat: int) -> str:
        """Subject of a sentence."""
        return "You" if seat == self.me else f"Seat {seat}"

    def slot(self, a: int, actor: int) -> str:
        seat, slot = addr_seat(a), addr_slot(a)
        if seat == self.me:
            return f"your slot {slot}"
        if seat == actor:
            return f"their own slot {seat}.{slot}"
        return f"seat {seat}'s slot {seat}.{slot}"

    def addr(self, a: int) -> str:
        """A slot as the human types it: own slots by number, others as seat.slot."""
        seat, slot = addr_seat(a), addr_slot(a)
        return str(slot) if seat == self.me else f"{seat}.{slot}"


def render_table(view: CardView, namer: Namer, assist: bool) -> list[str]:
    """The table as plain lines: header facts, then one line per seat (slots numbered)."""
    top = card_text(view.top()) if view.discard else "empty"
    who = f"{namer.seat(view.turn)} to play" if not view.over else "round over"
    lines = [f"── turn {view.turn_number} · {who} · deck {view.deck_size} cards · "
             f"discard pile: {top} ({len(view.discard)}) ──"]
    width = max(len(namer.seat(s)) for s in range(view.players))
    for s, grid in enumerate(view.grids):
        cells = []
        for i, c in enumerate(grid):
            label = str(i) if s == namer.me else f"{s}.{i}"
            shown = c if (assist or view.over or c < 0) else HIDDEN
            cells.append(f"{label}:{card_text(shown)}")
        marks = []
        if view.caller == s:
            marks.append("called Cambio")
        if s == view.turn and not view.over:
            marks.append("◀ to play")
        tail = f"   [{', '.join(marks)}]" if marks else ""
        lines.append(f"  {namer.seat(s):<{width}}  {'  '.join(cells) or '(no cards)'}{tail}")
    return lines


class Logger:
    """Turns each action into one public sentence, merging a draw with what follows it.

    It reads the engine's events as the human's seat may see them
    (:func:`cambio.cards.events.seen_by`), so a sentence can name only cards that seat saw.
    """

    def __init__(self, namer: Namer) -> None:
        self.namer = namer
        self.pending: str | None = None
        self.penalties = 0
        """Penalty cards the action being told dealt (told with the wrong snap)."""

    def describe(self, actor: int, action: Action, events: list[Event],
                 after: CardView) -> list[str]:
        """The sentences for ``actor``'s ``action``: ``events`` are what it did, already
        filtered by ``seen_by`` for the human's seat; ``after`` is that seat's view now."""
        out: list[str] = []
        if kind_of(action) == DRAW:  # a draw is told with what becomes of the card
            self.pending = f"{self.namer.who(actor)} drew from the deck"
        self.penalties = sum(1 for e in events if isinstance(e, Penalty))
        for event in events:
            say = self._SAY.get(type(event))
            if say is not None:
                out += say(self, event, after)
        return out

    def _drew(self, e: Drew, after: CardView) -> list[str]:
        if e.from_pile:
            self.pending = f"{self.namer.who(e.seat)} took {card_text(e.card)} from the " \
                           "discard pile"
        elif e.card >= 0 and e.seat == self.namer.me:
            self.pending = f"You drew {card_code(e.card)} from the deck"
        return []

    def _discarded(self, e: Discarded, after: CardView) -> list[str]:
        start = self.pending or f"{self.namer.who(e.seat)} drew"
        self.pending = None
        if e.slot < 0:
            return [f"{start} and discarded it: {card_text(e.card)}."]
        into = f"your slot {e.slot}" if e.seat == self.namer.me else f"slot {e.seat}.{e.slot}"
        return [f"{start} and swapped it into {into}, discarding {card_text(e.card)}."]

    def _power(self, e: PowerFired, after: CardView) -> list[str]:
        whom, own = ("you", "your") if e.seat == self.namer.me else (f"seat {e.seat}", "their")
        return [f"  {card_text(e.card)} fires its power: {whom} may "
                f"{power_text(e.power, own)}."]

    def _cambio(self, e: CambioCalled, after: CardView) -> list[str]:
        if e.automatic:
            return [f"{self.namer.who(e.seat)} has no cards left: Cambio is called for "
                    f"{'you' if e.seat == self.namer.me else 'them'}!"]
        return [f"{self.namer.who(e.seat)} called CAMBIO! Everyone else has one more turn."]

    def _peeked(self, e: Peeked, after: CardView) -> list[str]:
        n = self.namer
        what = f": it is {card_code(e.card)}" if e.card >= 0 else ""
        return [f"{n.who(e.seat)} peeked at {n.slot(e.target, e.seat)}{what}."]

    def _looked(self, e: Looked, after: CardView) -> list[str]:
        n = self.namer
        a, b = e.targets
        text = f"{n.who(e.seat)} looked at {n.slot(a, e.seat)} and {n.slot(b, e.seat)}"
        if e.cards[0] >= 0:
            text += f": {card_text(e.cards[0])} and {card_text(e.cards[1])}"
        return [text + "."]

    def _switched(self, e: Switched, after: CardView) -> list[str]:
        n = self.namer
        return [f"{n.who(e.seat)} swapped {n.slot(e.a, e.seat)} with {n.slot(e.b, e.seat)} "
                "(unseen)."]

    def _declined(self, e: Declined, after: CardView) -> list[str]:
        if e.choice == "keep":
            return [f"{self.namer.who(e.seat)} left both cards where they were."]
        if e.choice == "skip":
            return [f"{self.namer.who(e.seat)} did not use the power."]
        return []

    def _gave(self, e: Gave, after: CardView) -> list[str]:
        n = self.namer
        return [f"{n.who(e.seat)} gave {n.slot(addr(e.seat, e.slot), e.seat)} into "
                f"{n.slot(e.target, e.seat)} (unseen)."]

    def _reshuffled(self, e: Reshuffled, after: CardView) -> list[str]:
        return ["The deck ran out: the discard pile (all but its top card) was shuffled into "
                "a new deck."]

    def _ended(self, e: RoundEnded, after: CardView) -> list[str]:
        if self.pending is None:
            return []
        line, self.pending = self.pending + ", but no card was left.", None
        return [line]

    def _snapped(self, e: Snapped, after: CardView) -> list[str]:
        n = self.namer
        who, where = n.who(e.seat), n.slot(e.target, e.seat)
        if e.right:
            text = f"{who} snapped {where}: {card_code(e.card)}, right! It goes on the pile."
            if addr_seat(e.target) != e.seat and after.phase == Phase.GIVE:
                text += " A card must be given in return."
            return [text]
        text = f"{who} snapped {where}: {card_code(e.card)}, wrong! It goes back face down"
        count = self.penalties
        if count:
            whom = "you take" if e.seat == n.me else f"seat {e.seat} takes"
            text += f"; {whom} {count} penalty card{'s' if count > 1 else ''} face down"
        return [text + "."]

    def _exchanged(self, e: Exchanged, after: CardView) -> list[str]:
        start = self.pending or f"{self.namer.who(e.seat)} drew"
        self.pending = None
        whose = "your" if e.seat == self.namer.me else f"seat {e.seat}'s"
        cards = ", ".join(card_text(c) for c in e.cards)
        if e.taken:
            return [f"{start} and exchanged it for {whose} slots "
                    f"{' '.join(map(str, e.slots))}: {cards} go to the pile."]
        return [f"{start} and tried to exchange {whose} slots "
                f"{' '.join(map(str, e.slots))}: {cards} are not all equal and stay face up."]

    _SAY: ClassVar[dict[type, Callable[..., list[str]]]] = {
        Drew: _drew, Discarded: _discarded, PowerFired: _power, CambioCalled: _cambio,
        Peeked: _peeked, Looked: _looked, Switched: _switched, Declined: _declined,
        Gave: _gave, Reshuffled: _reshuffled, RoundEnded: _ended, Snapped: _snapped,
        Exchanged: _exchanged,
    }
    """The sentence for each kind of event (a penalty card is told with its snap)."""


def held_hint(view: CardView) -> str:
    """What discarding the held card would do (its power), for the draw prompt."""
    from cambio.cards import PowerTrigger
    from cambio.cards.rules import tables

    card = view.held
    if card < 0:
        return ""
    power = tables(view.rules).powers[card]
    if power == Power.NONE:
        return ""
    fires_discard = not view.held_from_pile or \
        view.rules.power_trigger == PowerTrigger.END_OF_TURN_DISCARD
    if not fires_discard:
        return ""
    return f" (discarding it lets you {power_text(power)})"


def reveal_lines(view: CardView, namer: Namer, totals: list[int] | None) -> list[str]:
    """The end of a round: every grid face up, scores, winners, and match totals."""
    assert view.scores is not None and view.winners is not None
    reasons = {"cambio": "Cambio was called and everyone had a final turn",
               "deck_exhausted": "no card could be drawn",
               "turn_cap": f"the turn cap ({view.rules.max_turns} turns) was reached"}
    reason = reasons.get(view.end_reason or "", "")
    lines = [f"══ Round over: {reason}. Reveal: ══"]
    width = max(len(namer.seat(s)) for s in range(view.players))
    cards = ["  ".join(card_text(c) for c in grid) or "(no cards)" for grid in view.grids]
    cwidth = max(len(c) for c in cards)
    for s in range(view.players):
        win = "  ★ wins" if s in view.winners else ""
        total = f" · match total {totals[s]}" if totals is not None else ""
        lines.append(f"  {namer.seat(s):<{width}}  {cards[s]:<{cwidth}}  score "
                     f"{view.scores[s]:>3}{total}{win}")
    winners = [namer.seat(s) for s in view.winners]
    lines.append("Winner: " + " and ".join(winners) + ("  (a tie)" if len(winners) > 1 else ""))
    return lines
