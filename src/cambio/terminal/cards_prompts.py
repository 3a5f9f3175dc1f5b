"""The human's prompts in the terminal card game: one question per decision, short answers.

Each prompt names the choices the view offers (slots are typed as the player sees them:
own slots as plain numbers, others as ``seat.slot``) and knows how to read an answer back
into an action. Full action text (``switch 0.1 2.3``) is always accepted as well. Whether
the action is legal is checked by the caller against ``view.legal``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cambio.cards import CardView, InvalidActionError, Phase, Power, parse_action
from cambio.cards.actions import (
    CAMBIO,
    DISCARD,
    DRAW,
    EXCHANGE,
    EXCHANGE_SLOTS,
    GIVE,
    KEEP,
    LOOK,
    PASS,
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
    encode,
    exchange,
    kind_of,
)

from .cards_text import Namer, card_text, held_hint, power_text

Parsed = tuple[Action | None, str | None]
"""An action, or ``None`` and (maybe) a specific reason the answer was refused."""


@dataclass(frozen=True)
class PromptSpec:
    question: str
    hint: str
    parse: Callable[[str], Parsed]


def prompt_for(view: CardView, namer: Namer) -> PromptSpec:
    ph = view.phase
    if ph == Phase.TURN_START:
        return _turn(view)
    if ph == Phase.DRAWN:
        return _drawn(view)
    if ph == Phase.POLL:
        return _poll(view, namer)
    if ph == Phase.GIVE:
        return _give(view, namer)
    if ph == Phase.KING_DECIDE:
        return _decide(view, namer)
    return _power(view, namer)


# ---------------------------------------------------------------------- reading answers
def _text_action(answer: str) -> Action | None:
    try:
        return parse_action(answer)
    except InvalidActionError:
        return None


def _addr(token: str, view: CardView) -> tuple[int | None, str | None]:
    """A typed slot: ``2`` is own slot 2, ``1.3`` is seat 1's slot 3."""
    me = view.seat if view.seat is not None else 0
    if token.isascii() and token.isdigit():
        seat, slot = me, int(token)
    else:
        s, dot, i = token.partition(".")
        if not (dot and s.isascii() and i.isascii() and s.isdigit() and i.isdigit()):
            return None, None
        seat, slot = int(s), int(i)
    if seat >= view.players:
        return None, f"There is no seat {seat} (seats are 0 to {view.players - 1})."
    grid = view.grids[seat]
    where = f"slot {slot}" if seat == me else f"slot {seat}.{slot}"
    if slot >= len(grid):
        return None, f"There is no {where}."
    if grid[slot] == -1:
        return None, f"{where[0].upper()}{where[1:]} is empty."
    return addr(seat, slot), None


def _words(answer: str) -> list[str]:
    return answer.lower().replace(",", " ").split()


def _one_slot(view: CardView, kind: int, answer: str) -> Parsed:
    words = _words(answer)
    if len(words) != 1:
        return None, None
    a, problem = _addr(words[0], view)
    if a is None:
        return None, problem
    if kind in (SWAP, GIVE):
        if addr_seat(a) != view.seat:
            return None, "Choose one of your own slots (a plain number)."
        return encode(kind, addr_slot(a)), None
    return encode(kind, a), None


def _pair(view: CardView, kind: int, answer: str) -> Parsed:
    words = _words(answer)
    if len(words) != 2:
        return None, "Type two slots separated by a space, e.g. '0 1.2'."
    addrs: list[int] = []
    for w in words:
        a, problem = _addr(w, view)
        if a is None:
            return None, problem
        addrs.append(a)
    a, b = addrs
    for act in (encode(kind, a, b), encode(kind, b, a)):
        if act in view.legal:
            return act, None
    return None, None


def _with_text(parse: Callable[[str], Parsed], words: dict[str, Action]) -> Callable[[str], Parsed]:
    """Add short words and full action text to a prompt's own reader."""

    def read(answer: str) -> Parsed:
        low = answer.strip().lower()
        if low in words:
            return words[low], None
        action, problem = parse(answer)
        if action is not None or problem is not None:
            return action, problem
        return _text_action(answer), None

    return read


def _none(answer: str) -> Parsed:
    return None, None


# ---------------------------------------------------------------------- listing choices
def _targets(view: CardView, kind: int, which: int = 0) -> list[int]:
    """Addresses appearing as argument ``which`` (0: a, 1: b) of legal actions of ``kind``."""
    out: list[int] = []
    for act in view.legal:
        if kind_of(act) == kind:
            a = arg_a(act) if which == 0 else arg_b(act)
            if a not in out:
                out.append(a)
    return out


def _listing(addrs: list[int], namer: Namer) -> str:
    mine = [namer.addr(a) for a in addrs if addr_seat(a) == namer.me]
    theirs: dict[int, list[str]] = {}
    for a in addrs:
        if addr_seat(a) != namer.me:
            theirs.setdefault(addr_seat(a), []).append(namer.addr(a))
    parts = []
    if mine:
        parts.append("yours " + " ".join(mine))
    parts += [" ".join(v) for v in theirs.values()]
    return " · ".join(parts)


def _own_slots(view: CardView, kind: int) -> str:
    return " ".join(str(arg_a(a)) for a in view.legal if kind_of(a) == kind)


# ---------------------------------------------------------------------- the prompts
def _turn(view: CardView) -> PromptSpec:
    words = {"d": DRAW, "draw": DRAW}
    choices = ["d = draw from the deck"]
    if TAKE in view.legal:
        choices.append(f"t = take {card_text(view.top())} from the discard pile")
        words |= {"t": TAKE, "take": TAKE}
    if CAMBIO in view.legal:
        choices.append("c = call Cambio")
    words |= {"c": CAMBIO, "cambio": CAMBIO}
    hint = "Choose: " + ", ".join(choices) + "."
    return PromptSpec(f"Your turn. {hint}", hint, _with_text(_none, words))


def _drawn(view: CardView) -> PromptSpec:
    slots = _own_slots(view, SWAP)
    held = card_text(view.held)
    if view.held_from_pile:
        question = f"You took {held}: swap it into one of your slots ({slots})."
        hint = f"Type one of your slots: {slots}."
    else:
        question = f"You drew {held}{held_hint(view)}. Swap it into a slot ({slots}), " \
                   "or d = discard it."
        hint = f"Type a slot ({slots}) or d to discard."
    if any(kind_of(a) == EXCHANGE for a in view.legal):
        question += " Several slots of equal cards (e.g. 0 2) exchange them all at once."
        hint += " Several slots (e.g. 0 2) exchange equal cards."
    words = {"d": DISCARD, "discard": DISCARD}
    return PromptSpec(question, hint,
                      _with_text(lambda ans: _swap_or_exchange(view, ans), words))


def _swap_or_exchange(view: CardView, answer: str) -> Parsed:
    """One own slot swaps; several (``multi_exchange``) exchange them all."""
    words = _words(answer)
    if len(words) < 2 or not all(w.isascii() and w.isdigit() for w in words) \
            or not any(kind_of(a) == EXCHANGE for a in view.legal):
        return _one_slot(view, SWAP, answer)
    slots = [int(w) for w in words]
    action = exchange(slots) if max(slots) < EXCHANGE_SLOTS else None
    if action not in view.legal:
        return None, "Name 2 to 4 different slots of your grid that hold cards."
    return action, None


def _poll(view: CardView, namer: Namer) -> PromptSpec:
    top = card_text(view.top())
    question = f"Snap? The top card is {top}. Enter = pass, or type a slot of the same rank " \
               "(yours: a number, others: seat.slot)."
    hint = "Press Enter to pass, or type a slot such as 2 or 1.3."
    words = {"": PASS, "p": PASS, "pass": PASS, "n": PASS, "no": PASS}
    return PromptSpec(question, hint,
                      _with_text(lambda ans: _one_slot(view, SNAP, ans), words))


def _give(view: CardView, namer: Namer) -> PromptSpec:
    slots = _own_slots(view, GIVE)
    snapped = view.last_snap[1] if view.last_snap else None
    where = f" into {namer.addr(snapped)}" if snapped is not None else ""
    question = f"Give one of your cards{where} (they will not see it). Your slots: {slots}."
    return PromptSpec(question, f"Type one of your slots: {slots}.",
                      _with_text(lambda ans: _one_slot(view, GIVE, ans), {}))


def _decide(view: CardView, namer: Namer) -> PromptSpec:
    seen = ""
    if view.looked:
        a, b = view.looked
        ca, cb = view.at(a), view.at(b)
        seen = f"You saw {namer.addr(a)} = {card_text(ca)} and {namer.addr(b)} = " \
               f"{card_text(cb)}. "
    if KEEP in view.legal:
        switch = next(a for a in view.legal if kind_of(a) == SWITCH)
        words = {"s": switch, "swap": switch, "switch": switch, "y": switch,
                 "k": KEEP, "keep": KEEP, "n": KEEP}
        hint = "s = swap these two cards, k = keep them where they are."
        return PromptSpec(seen + hint, hint, _with_text(_none, words))
    slots = _listing(sorted(set(_targets(view, SWITCH, 0) + _targets(view, SWITCH, 1))), namer)
    hint = f"Type two slots to swap, e.g. '0 1.2' ({slots})."
    return PromptSpec(seen + "Now swap any two cards (required). " + hint, hint,
                      _with_text(lambda ans: _pair(view, SWITCH, ans), {}))


def _power(view: CardView, namer: Namer) -> PromptSpec:
    power = Power(view.power) if view.power else Power.NONE
    words: dict[str, Action] = {}
    skip = ""
    if SKIP in view.legal:
        words = {"s": SKIP, "skip": SKIP}
        skip = ", or s = skip the power"
    intro = f"Power of {card_text(view.top())}: {power_text(power)}."
    if power in (Power.PEEK_OWN, Power.PEEK_OTHER):
        slots = _listing(_targets(view, PEEK), namer)
        hint = f"Type a slot to look at ({slots}){skip}."
        return PromptSpec(f"{intro} {hint}", hint,
                          _with_text(lambda ans: _one_slot(view, PEEK, ans), words))
    kind = LOOK if power in (Power.LOOK_OWN_OTHER_MAY_SWAP, Power.LOOK_ANY_SWAP_ANY) else SWITCH
    first, second = _targets(view, kind, 0), _targets(view, kind, 1)
    if power in (Power.SWAP_OWN_OTHER, Power.LOOK_OWN_OTHER_MAY_SWAP):
        hint = f"Type your slot, then theirs, e.g. '0 1.2' (yours: " \
               f"{' '.join(namer.addr(a) for a in first)} · theirs: {_listing(second, namer)})" \
               f"{skip}."
    else:
        every = _listing(sorted(set(first + second)), namer)
        hint = f"Type two slots, e.g. '0 1.2' ({every}){skip}."
    return PromptSpec(f"{intro} {hint}", hint,
                      _with_text(lambda ans: _pair(view, kind, ans), words))
