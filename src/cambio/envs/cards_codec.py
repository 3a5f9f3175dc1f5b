"""The card game as fixed-size numbers: an action numbering and a view encoding.

Every framework adapter (PettingZoo, OpenSpiel, Gymnasium) uses this one codec, so an agent
trained through one reads the same tensor through another.

**Seats are relative.** Everything is seen from the encoding seat: relative seat 0 is the
seat itself, 1 the next seat clockwise, and so on. An agent trained in one seat can play in
any other, and action numbers mean the same thing from every seat.

**Grids are capped.** A grid can grow past four slots through snap penalties; a fixed tensor
needs a bound, so the adapters play with the ``max_grid`` house rule at most ``slots``
(default 8): a penalty card fills an empty slot once the grid has that many, and is not
drawn if there is none (see docs/rules.md).

The encoding is built from a :class:`~cambio.cards.CardView` only, so it cannot hold a card
the seat has not seen.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from cambio.cards import EMPTY, HIDDEN, Action, CardView, Phase, Power, Rules
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
    addr,
    addr_seat,
    addr_slot,
    arg_a,
    arg_b,
    encode,
    kind_of,
)
from cambio.cards.cards import KING, is_red

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

DEFAULT_SLOTS = 8
CLASSES = 15
"""Card classes: rank 0 (joker) to 12 (queen), 13 a black king, 14 a red king. Suits matter
to play only through the kings' colour, so this is all a seat needs."""
_FIXED = (CAMBIO, DRAW, TAKE, DISCARD, KEEP, SKIP, PASS)
_POWERS = tuple(p for p in Power if p != Power.LOOK_ONE_SWAP_ANY)
"""The powers of the power one-hot; the queen's look-one power (``evan``) is appended only
for rules that use it, so the three Cambio presets keep their tensor (and the vector env,
which writes it natively, its layout)."""
_POWER_FIELDS = ("power_seven_eight", "power_nine_ten", "power_jack_queen", "power_queen",
                 "power_black_king", "power_red_king")
_PHASES = len(Phase)


def card_class(card: int) -> int:
    rank = card >> 2
    return CLASSES - 1 if rank == KING and is_red(card) else rank


def capped_rules(rules: Rules, slots: int) -> Rules:
    """``rules`` with ``max_grid`` at most ``slots``, so every slot fits the encoding."""
    if rules.max_grid is not None and rules.max_grid <= slots:
        return rules
    return rules.with_overrides({"max_grid": slots})


@dataclass(frozen=True)
class Field:
    name: str
    size: int
    doc: str


@dataclass(frozen=True)
class CardsCodec:
    """Action numbers and view tensors for ``players`` seats of at most ``slots`` slots."""

    rules: Rules
    players: int
    slots: int = DEFAULT_SLOTS

    def __post_init__(self) -> None:
        if not 4 <= self.slots <= 64:
            raise ValueError("slots must be between 4 and 64")
        if self.rules.max_grid is None or self.rules.max_grid > self.slots:
            raise ValueError("the rules must cap grids at `slots` (use capped_rules)")

    # ------------------------------------------------------------------ actions
    @property
    def addresses(self) -> int:
        """Slot addresses on the table: ``players * slots``."""
        return self.players * self.slots

    @cached_property
    def _offsets(self) -> dict[int, int]:
        s, a = self.slots, self.addresses
        base = len(_FIXED)
        out = {SWAP: base, GIVE: base + s, PEEK: base + 2 * s, SNAP: base + 2 * s + a,
               LOOK: base + 2 * s + 2 * a, SWITCH: base + 2 * s + 2 * a + a * a}
        if self.rules.multi_exchange:  # one number per set of own slots (a bitmask)
            out[EXCHANGE] = out[SWITCH] + a * a
        return out

    @property
    def num_actions(self) -> int:
        if self.rules.multi_exchange:
            return self._offsets[EXCHANGE] + (1 << min(self.slots, EXCHANGE_SLOTS))
        return self._offsets[SWITCH] + self.addresses ** 2

    def _rel(self, address: int, me: int) -> int:
        seat, slot = addr_seat(address), addr_slot(address)
        return ((seat - me) % self.players) * self.slots + slot

    def _abs(self, index: int, me: int) -> int:
        rel, slot = divmod(index, self.slots)
        return addr((rel + me) % self.players, slot)

    def encode_action(self, action: Action, me: int) -> int:
        """The number of the engine action ``action`` taken by seat ``me``."""
        kind = kind_of(action)
        if kind in _FIXED:
            return _FIXED.index(kind)
        a = arg_a(action)
        off = self._offsets[kind]
        if kind in (SWAP, GIVE, EXCHANGE):
            return off + a
        if kind in (PEEK, SNAP):
            return off + self._rel(a, me)
        return off + self._rel(a, me) * self.addresses + self._rel(arg_b(action), me)

    def decode_action(self, index: int, me: int) -> Action:
        """The engine action numbered ``index`` for seat ``me`` (not checked for legality)."""
        if not 0 <= index < self.num_actions:
            raise ValueError(f"action number {index} is out of range 0..{self.num_actions - 1}")
        if index < len(_FIXED):
            return _FIXED[index]
        kind = max((k for k, off in self._offsets.items() if off <= index),
                   key=lambda k: self._offsets[k])
        i = index - self._offsets[kind]
        if kind in (SWAP, GIVE, EXCHANGE):
            return encode(kind, i)
        if kind in (PEEK, SNAP):
            return encode(kind, self._abs(i, me))
        a, b = divmod(i, self.addresses)
        return encode(kind, self._abs(a, me), self._abs(b, me))

    def action_mask(self, legal: tuple[Action, ...] | list[Action], me: int) -> Mask:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        for action in legal:
            mask[self.encode_action(action, me)] = 1
        return mask

    # ------------------------------------------------------------------ views
    @cached_property
    def fields(self) -> tuple[Field, ...]:
        """The observation tensor's fields in order (docs/envs.md lists the same table)."""
        n, a = self.players, self.addresses
        return (
            Field("grids", a * (CLASSES + 2),
                  "per relative seat, per slot: one-hot [empty, face-down unseen, class 0-14]"),
            Field("held", CLASSES + 2, "the card in the turn player's hand: one-hot "
                                       "[none, unseen, class 0-14]"),
            Field("held_from_pile", 1, "1 if the held card was taken from the discard pile"),
            Field("top", CLASSES + 1, "top of the discard pile: one-hot [empty, class 0-14]"),
            Field("pile", CLASSES, "cards of each class on the pile / copies in the full deck"),
            Field("deck", 1, "cards left in the deck / cards in the full deck"),
            Field("phase", _PHASES, "one-hot: turn_start, drawn, power, king_decide, give, "
                                    "poll, round_over"),
            Field("actor", n, "relative seat whose decision the round waits for (none: zeros)"),
            Field("turn", n, "relative seat whose turn it is"),
            Field("caller", n, "relative seat that called Cambio (none: zeros)"),
            Field("final_turns_left", 1, "final turns left after a call / players"),
            Field("power", len(self._powers), "power being resolved: one-hot none, peek_own, "
                  "peek_other, swap_own_other, swap_any, look_own_other_may_swap, "
                  "look_any_two_swap_any_two (and look_any_one_swap_any_two where the rules "
                  "use it)"),
            Field("looked", a, "the two slots a king's look showed (relative addresses)"),
            Field("window", 2 + n, "snap window: [anyone, closed, only relative seat k]"),
            Field("poll", n, "relative seats still to be asked in this snap poll"),
            Field("give_seat", n, "relative seat that must give a card after a right snap"),
            Field("last_snap", n + a + CLASSES + 1, "latest snap: snapper (relative seat), "
                                                    "slot (relative address), card class, "
                                                    "1 if right"),
            Field("turn_number", 1, "turns played / 200 (at most 1)"),
            Field("reshuffles", 1, "times the pile was shuffled into the deck / 4 (at most 1)"),
        )

    @property
    def size(self) -> int:
        return sum(f.size for f in self.fields)

    @cached_property
    def _powers(self) -> tuple[Power, ...]:
        used = {getattr(self.rules, f) for f in _POWER_FIELDS}
        return _POWERS + ((Power.LOOK_ONE_SWAP_ANY,) if Power.LOOK_ONE_SWAP_ANY in used else ())

    @cached_property
    def _class_totals(self) -> npt.NDArray[np.float32]:
        totals = np.zeros(CLASSES, dtype=np.float32)
        for card in self.rules.deck_cards(self.players):
            totals[card_class(card)] += 1
        return np.maximum(totals, 1)

    @cached_property
    def deck_total(self) -> int:
        return len(self.rules.deck_cards(self.players))

    def encode(self, view: CardView, out: Vector | None = None) -> Vector:
        """The tensor of ``view`` (a seat's view, never a spectator's)."""
        me = view.seat
        if me is None:
            raise ValueError("encode a seat's view, not a spectator's")
        n, s, a = self.players, self.slots, self.addresses
        v = np.zeros(self.size, dtype=np.float32) if out is None else out
        v.fill(0.0)
        width = CLASSES + 2
        for seat, grid in enumerate(view.grids):
            base = ((seat - me) % n) * s
            for slot in range(s):
                card = grid[slot] if slot < len(grid) else EMPTY
                v[(base + slot) * width + _slot_code(card)] = 1.0
        i = a * width
        v[i + _slot_code(view.held)] = 1.0
        i += width
        v[i] = float(view.held_from_pile)
        i += 1
        top = view.top()
        v[i + (0 if top == EMPTY else 1 + card_class(top))] = 1.0
        i += CLASSES + 1
        for card in view.discard:
            v[i + card_class(card)] += 1.0
        v[i:i + CLASSES] /= self._class_totals
        i += CLASSES
        v[i] = view.deck_size / self.deck_total
        i += 1
        v[i + int(view.phase)] = 1.0
        i += _PHASES
        for who in (view.actor, view.turn, view.caller):
            if who is not None:
                v[i + (who - me) % n] = 1.0
            i += n
        v[i] = view.final_turns_left / n
        i += 1
        powers = self._powers
        v[i + (powers.index(Power(view.power)) if view.power else 0)] = 1.0
        i += len(powers)
        if view.looked:
            for addr in view.looked:
                v[i + self._rel(addr, me)] = 1.0
        i += a
        w = view.window
        v[i + (0 if w == "anyone" else 1 if w == "closed" else
               2 + (int(w.split()[1]) - me) % n)] = 1.0
        i += 2 + n
        for seat in view.poll:
            v[i + (seat - me) % n] = 1.0
        i += n
        if view.give_seat is not None:
            v[i + (view.give_seat - me) % n] = 1.0
        i += n
        if view.last_snap is not None:
            snapper, addr, card, right = view.last_snap
            v[i + (snapper - me) % n] = 1.0
            v[i + n + self._rel(addr, me)] = 1.0
            v[i + n + a + card_class(card)] = 1.0
            v[i + n + a + CLASSES] = float(right)
        i += n + a + CLASSES + 1
        v[i] = min(1.0, view.turn_number / 200.0)
        v[i + 1] = min(1.0, view.reshuffles / 4.0)
        return v


def _slot_code(card: int) -> int:
    if card == EMPTY:
        return 0
    if card == HIDDEN:
        return 1
    return 2 + card_class(card)


__all__ = ["CLASSES", "DEFAULT_SLOTS", "CardsCodec", "Field", "capped_rules",
           "card_class"]
