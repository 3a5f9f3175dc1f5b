"""What the terminal card game prints: the table, and a public log line for each action.

Everything here is derived from the human seat's views (before and after an action), never
from the state, so the screen can only show what that seat may know. Whether known cards stay
visible is the caller's choice (``assist``); without it the human must remember.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from cambio.cards import EMPTY, HIDDEN, CardView, Phase, Power, card_code
from cambio.cards.actions import (
    CAMBIO,
    DISCARD,
    DRAW,
    GIVE,
    KEEP,
    LOOK,
    PEEK,
    SKIP,
    SNAP,
    SWAP,
    SWITCH,
    TAKE,
    Action,
    addr,
    addr_seat,
    addr_slot,
    arg_a,
    arg_b,
    kind_of,
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
    """Turns each action into one public sentence, merging a draw with what follows it."""

    def __init__(self, namer: Namer) -> None:
        self.namer = namer
        self.pending: str | None = None

    def describe(self, actor: int, action: Action, before: CardView,
                 after: CardView) -> list[str]:
        say = self._SAY.get(kind_of(action))
        out = say(self, actor, arg_a(action), arg_b(action), before, after) if say else []
        return out + self._aftermath(actor, before, after)

    def _draw(self, actor: int, a: int, b: int, before: CardView, after: CardView
              ) -> list[str]:
        if after.held >= 0 and actor == self.namer.me:
            self.pending = f"You drew {card_code(after.held)} from the deck"
        else:
            self.pending = f"{self.namer.who(actor)} drew from the deck"
        return []

    def _take(self, actor: int, a: int, b: int, before: CardView, after: CardView
              ) -> list[str]:
        self.pending = f"{self.namer.who(actor)} took {card_text(after.held)} from the " \
                       "discard pile"
        return []

    def _swap(self, actor: int, a: int, b: int, before: CardView, after: CardView
              ) -> list[str]:
        start = self.pending or f"{self.namer.who(actor)} drew"
        into = f"your slot {a}" if actor == self.namer.me else f"slot {actor}.{a}"
        self.pending = None
        return [f"{start} and swapped it into {into}, discarding {card_text(after.top())}."]

    def _discard(self, actor: int, a: int, b: int, before: CardView, after: CardView
                 ) -> list[str]:
        start = self.pending or f"{self.namer.who(actor)} drew"
        self.pending = None
        return [f"{start} and discarded it: {card_text(after.top())}."]

    def _cambio(self, actor: int, a: int, b: int, before: CardView, after: CardView
                ) -> list[str]:
        return [f"{self.namer.who(actor)} called CAMBIO! Everyone else has one more turn."]

    def _peek(self, actor: int, a: int, b: int, before: CardView, after: CardView
              ) -> list[str]:
        n = self.namer
        seen = after.at(a)
        what = f": it is {card_code(seen)}" if actor == n.me and seen >= 0 else ""
        return [f"{n.who(actor)} peeked at {n.slot(a, actor)}{what}."]

    def _look(self, actor: int, a: int, b: int, before: CardView, after: CardView
              ) -> list[str]:
        n = self.namer
        text = f"{n.who(actor)} looked at {n.slot(a, actor)} and {n.slot(b, actor)}"
        if actor == n.me:
            text += f": {card_text(after.at(a))} and {card_text(after.at(b))}"
        return [text + "."]

    def _switch(self, actor: int, a: int, b: int, before: CardView, after: CardView
                ) -> list[str]:
        n = self.namer
        return [f"{n.who(actor)} swapped {n.slot(a, actor)} with {n.slot(b, actor)} (unseen)."]

    def _keep(self, actor: int, a: int, b: int, before: CardView, after: CardView
              ) -> list[str]:
        return [f"{self.namer.who(actor)} left both cards where they were."]

    def _skip(self, actor: int, a: int, b: int, before: CardView, after: CardView
              ) -> list[str]:
        return [f"{self.namer.who(actor)} did not use the power."]

    def _give(self, actor: int, a: int, b: int, before: CardView, after: CardView
              ) -> list[str]:
        n = self.namer
        target = before.last_snap[1] if before.last_snap else -1
        dest = n.slot(target, actor) if target >= 0 else "the empty slot"
        return [f"{n.who(actor)} gave {n.slot(addr(actor, a), actor)} into {dest} (unseen)."]

    def _aftermath(self, actor: int, before: CardView, after: CardView) -> list[str]:
        """What an action set off, whatever it was: a reshuffle, a power, a round end."""
        out: list[str] = []
        if after.reshuffles > before.reshuffles:
            out.append("The deck ran out: the discard pile (all but its top card) was "
                       "shuffled into a new deck.")
        if after.phase == Phase.POWER and before.phase != Phase.POWER and after.power:
            whom, own = ("you", "your") if actor == self.namer.me else (f"seat {actor}", "their")
            out.append(f"  {card_text(after.top())} fires its power: {whom} may "
                       f"{power_text(Power(after.power), own)}.")
        if after.over and self.pending:
            out.append(self.pending + ", but no card was left.")
            self.pending = None
        return out

    def _snap(self, actor: int, a: int, b: int, before: CardView, after: CardView
              ) -> list[str]:
        n = self.namer
        who = n.who(actor)
        last = after.last_snap
        if last is None:
            return [f"{who} snapped {n.slot(a, actor)}."]
        card, right = last[2], last[3]
        if right:
            text = f"{who} snapped {n.slot(a, actor)}: {card_code(card)}, right! It goes on " \
                   "the pile."
            if addr_seat(a) != actor and after.phase == Phase.GIVE:
                text += " A card must be given in return."
            return [text]
        grown = len(after.grids[actor]) - len(before.grids[actor])
        refilled = sum(1 for x, y in zip(before.grids[actor], after.grids[actor], strict=False)
                       if x == EMPTY and y != EMPTY)
        penalty = grown + refilled
        text = f"{who} snapped {n.slot(a, actor)}: {card_code(card)}, wrong! It goes back " \
               "face down"
        if penalty:
            whom = "you take" if actor == n.me else f"seat {actor} takes"
            text += f"; {whom} {penalty} penalty card{'s' if penalty > 1 else ''} face down"
        return [text + "."]

    _SAY: ClassVar[dict[int, Callable[..., list[str]]]] = {
        DRAW: _draw, TAKE: _take, SWAP: _swap, DISCARD: _discard, CAMBIO: _cambio,
        PEEK: _peek, LOOK: _look, SWITCH: _switch, KEEP: _keep, SKIP: _skip, SNAP: _snap,
        GIVE: _give,
    }
    """The sentence for each kind of action (``pass`` has none)."""


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
