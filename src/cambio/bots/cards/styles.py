"""Panel styles: bots written only against the public view API, to measure other bots on.

A searcher measured only against ``memory`` -- the policy its own rollouts play -- is
measured against the opponent it is tuned to. These bots play differently from ``memory``
and share none of its code: each reads nothing but the :class:`~cambio.cards.CardView`
(its grids, discard pile, legal actions and rules) and the card helpers of
:mod:`cambio.cards`, as a bot written outside the project would.

- ``rusher``: an aggressive early caller. It calls Cambio as soon as its estimated total
  is 6 or less with at most one own card unseen (``memory``: 3), and after seven rounds of
  turns whatever its total; it keeps any card that lowers its worst slot and blind-swaps its
  high known cards away. (Calling after three rounds whatever the total, or at 12, wins
  only 12-13% against ``memory`` heads-up: too weak to teach anything; these thresholds
  win about 29%, 120 rulebook rounds.)
- ``snapper``: a snap-heavy bot. It snaps every known match, its own or an opponent's
  (giving back its worst card, whatever it is worth), blind-snaps its own unseen card when
  the top card's rank has at least an 8% chance among the cards it has not seen (a gamble
  ``memory`` never takes), discards a drawn card that matches one of its known cards to
  snap that card next, spends its peeks on opponents' cards to find snaps, and calls
  Cambio late and low. (``memory``, which plans its swaps around snaps, still makes more
  snaps a round: 1.8 against the snapper's 1.5 in 40 rulebook rounds; what the snapper
  adds is the blind gambles and the snaps that cost it.)

Both are deterministic given the view (ties: the first in ``view.legal``); the seed is kept
for the bot interface.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from cambio.cards import EMPTY, HIDDEN, Card, CardView, Phase, Rules
from cambio.cards.actions import (
    CAMBIO,
    DISCARD,
    DRAW,
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
    addr_seat,
    addr_slot,
    arg_a,
    arg_b,
    kind_of,
)


@dataclass(frozen=True)
class Style:
    """What distinguishes one panel style from another."""

    call_total: float
    """Call Cambio when the estimated own total is at most this..."""
    call_hidden: int
    """... with at most this many own unseen cards,"""
    call_rounds: int
    """or after this many rounds of turns, whatever the total."""
    snap_others: bool
    """Snap an opponent's known match (and give back the worst own card)."""
    blind_snap: float
    """Snap an own unseen card when the top card's rank has at least this probability
    among the unseen cards (above 1: never)."""
    peek_others_first: bool
    """Spend a peek on an opponent's unseen card before an own one."""
    dump_over: float
    """Blind-swap an own known card worth more than this for an opponent's unseen card."""
    snap_setup: bool
    """Discard a drawn card that matches an own known card's rank (to snap that card
    next), and prefer swapping out a card whose rank another own known card shares."""


RUSHER = Style(call_total=6, call_hidden=1, call_rounds=7, snap_others=False, blind_snap=2.0,
               peek_others_first=False, dump_over=7,
               snap_setup=False)
SNAPPER = Style(call_total=5, call_hidden=1, call_rounds=9, snap_others=True, blind_snap=0.08,
                peek_others_first=True, dump_over=9,
                snap_setup=True)


def _rank(card: Card) -> int:
    return card >> 2


@lru_cache(maxsize=64)
def _deck(rules: Rules, players: int) -> tuple[Card, ...]:
    return tuple(rules.deck_cards(players))


def _own_and_other(me: int | None, a: Action) -> tuple[int, int] | None:
    """A switch's two addresses as (``me``'s, the other seat's); ``None`` when both or
    neither are ``me``'s."""
    x, y = arg_a(a), arg_b(a)
    if (addr_seat(x) == me) == (addr_seat(y) == me):
        return None
    return (x, y) if addr_seat(x) == me else (y, x)


def unseen(view: CardView) -> list[Card]:
    """The cards this seat has not seen: the table's deck minus every card the view shows."""
    left = list(_deck(view.rules, view.players))
    shown = [c for g in view.grids for c in g if c >= 0] + list(view.discard)
    if view.held >= 0:
        shown.append(view.held)
    for c in shown:
        left.remove(c)
    return left


class StyleBot:
    """A public-view bot playing one :class:`Style`."""

    def __init__(self, name: str, style: Style, seed: int = 0) -> None:
        self.name = name
        self.style = style
        self.seed = seed

    def act(self, view: CardView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        pool = unseen(view)
        mean = sum(view.rules.value(c) for c in pool) / len(pool) if pool else 0.0
        ph = view.phase
        if ph == Phase.TURN_START:
            return self._turn_start(view, mean)
        if ph == Phase.DRAWN:
            return self._drawn(view, mean)
        if ph == Phase.POLL:
            return self._poll(view, pool)
        if ph == Phase.GIVE:
            return max(legal, key=lambda a: self._worth(view, arg_a(a), mean))
        if ph == Phase.KING_DECIDE:
            return self._king(view, mean)
        return self._power(view, mean)

    def _worth(self, view: CardView, slot: int, mean: float) -> float:
        """An own slot's estimated value (an unseen card: the unseen mean)."""
        c = view.own_grid()[slot]
        return mean if c == HIDDEN else -99.0 if c == EMPTY else float(view.rules.value(c))

    def _turn_start(self, view: CardView, mean: float) -> Action:
        legal = view.legal
        own = view.own_grid()
        s = self.style
        hidden = sum(c == HIDDEN for c in own)
        total = sum(self._worth(view, i, mean) for i, c in enumerate(own) if c != EMPTY)
        rounds = view.turn_number // view.players
        if CAMBIO in legal and ((total <= s.call_total and hidden <= s.call_hidden)
                                or rounds >= s.call_rounds):
            return CAMBIO
        top = view.top()
        if TAKE in legal and top >= 0:
            worst = max((self._worth(view, i, mean) for i, c in enumerate(own) if c != EMPTY),
                        default=0.0)
            if view.rules.value(top) + 2 <= worst:
                return TAKE
        return DRAW if DRAW in legal else legal[0]

    def _drawn(self, view: CardView, mean: float) -> Action:
        legal = view.legal
        swaps = [a for a in legal if kind_of(a) == SWAP]
        held = view.rules.value(view.held) if view.held >= 0 else mean
        own = view.own_grid()
        setup = self.style.snap_setup
        if setup and DISCARD in legal and view.held >= 0 and any(
                c >= 0 and _rank(c) == _rank(view.held) and view.rules.value(c) >= 0
                for c in own):
            return DISCARD

        def key(a: Action) -> float:
            slot = arg_a(a)
            c = own[slot]
            pair = setup and c >= 0 and any(i != slot and d >= 0 and _rank(d) == _rank(c)
                                            for i, d in enumerate(own))
            return self._worth(view, slot, mean) + 3.0 * pair

        if swaps:
            best = max(swaps, key=key)
            if key(best) > held or DISCARD not in legal:
                return best
        return DISCARD if DISCARD in legal else legal[0]

    def _poll(self, view: CardView, pool: list[Card]) -> Action:
        top = view.top()
        s = self.style
        snaps = [a for a in view.legal if kind_of(a) == SNAP]
        if not snaps or top < 0:
            return PASS
        rank = _rank(top)
        for a in snaps:
            c = view.at(arg_a(a))
            mine = addr_seat(arg_a(a)) == view.seat
            if c >= 0 and _rank(c) == rank and ((mine and view.rules.value(c) >= 0)
                                                or (not mine and s.snap_others)):
                return a
        if pool and s.blind_snap <= 1.0:
            odds = sum(_rank(c) == rank for c in pool) / len(pool)
            if odds >= s.blind_snap:
                for a in snaps:
                    if addr_seat(arg_a(a)) == view.seat and view.at(arg_a(a)) == HIDDEN:
                        return a
        return PASS

    def _king(self, view: CardView, mean: float) -> Action:
        """Switch after a look when the own card looked at is the higher."""
        looked = view.looked
        if looked is None or SWITCH not in {kind_of(a) for a in view.legal}:
            return KEEP if KEEP in view.legal else view.legal[0]
        a, b = looked
        if b < 0:  # one card looked at, then any two switched (a queen's look-one power)
            return self._switch_any(view, mean)
        if view.seat not in (addr_seat(a), addr_seat(b)):
            return KEEP if KEEP in view.legal else view.legal[0]
        mine, theirs = (a, b) if addr_seat(a) == view.seat else (b, a)
        va, vb = view.at(mine), view.at(theirs)
        if va >= 0 and vb >= 0 and view.rules.value(vb) < view.rules.value(va):
            return next(x for x in view.legal if kind_of(x) == SWITCH)
        return KEEP if KEEP in view.legal else view.legal[0]

    def _power(self, view: CardView, mean: float) -> Action:
        legal = view.legal
        me = view.seat
        peeks = [a for a in legal if kind_of(a) == PEEK and view.at(arg_a(a)) == HIDDEN]
        if peeks:
            own = [a for a in peeks if addr_seat(arg_a(a)) == me]
            other = [a for a in peeks if addr_seat(arg_a(a)) != me]
            order = (other + own) if self.style.peek_others_first else (own + other)
            return order[0]
        looks = [a for a in legal if kind_of(a) == LOOK]
        if looks:
            return max(looks, key=lambda a: self._look_gain(view, a, mean))
        dump = next((a for a in legal if kind_of(a) == SWITCH and self._dumps(view, a)), None)
        if dump is not None:
            return dump
        return SKIP if SKIP in legal else legal[0]

    def _switch_any(self, view: CardView, mean: float) -> Action:
        """The switch of any two cards after a look at one: the own card whose value most
        exceeds the other seat's card it goes for (an unseen card is worth the unseen
        mean); a switch that leaves the own grid as it is when none gains."""
        me = view.seat

        def gain(a: Action) -> float:
            pair = _own_and_other(me, a)
            if pair is None:
                return 0.0
            mine, theirs = pair
            c = view.at(theirs)
            worth = mean if c == HIDDEN else float(view.rules.value(c))
            return self._worth(view, addr_slot(mine), mean) - worth

        return max((a for a in view.legal if kind_of(a) == SWITCH), key=gain)

    def _dumps(self, view: CardView, a: Action) -> bool:
        """A blind swap of an own known card above ``dump_over`` for an opponent's unseen
        card."""
        pair = _own_and_other(view.seat, a)
        if pair is None:
            return False
        mine, theirs = pair
        c = view.at(mine)
        return c >= 0 and view.rules.value(c) > self.style.dump_over \
            and view.at(theirs) == HIDDEN

    def _look_gain(self, view: CardView, a: Action, mean: float) -> float:
        """A king's look: an own high known card against an opponent's unseen one first."""
        x, y = arg_a(a), arg_b(a)
        score = 0.0
        for address in (x, y):
            c = view.at(address)
            if addr_seat(address) == view.seat:
                score += self._worth(view, addr_slot(address), mean)
            elif c == HIDDEN:
                score += 1.0
        return score


def rusher(seed: int = 0) -> StyleBot:
    """The ``rusher`` panel style: calls early."""
    return StyleBot("rusher", RUSHER, seed)


def snapper(seed: int = 0) -> StyleBot:
    """The ``snapper`` panel style: snaps whatever it can."""
    return StyleBot("snapper", SNAPPER, seed)


__all__ = ["RUSHER", "SNAPPER", "Style", "StyleBot", "rusher", "snapper", "unseen"]
