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

from cambio.cards import EMPTY, HIDDEN, TERMINAL, Action, CardView, Phase, Power, Rules, State
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
from cambio.cards.cards import KING, NUM_CARD_CODES, is_red
from cambio.cards.state import P_NONE, POWER_NAMES, WINDOW_ANYONE, WINDOW_CLOSED

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

    @cached_property
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

    @cached_property
    def _numbers(self) -> tuple[dict[Action, int], ...]:
        """Per seat, every engine action's number (:meth:`encode_action`, looked up)."""
        return tuple({self.decode_action(i, me): i for i in range(self.num_actions)}
                     for me in range(self.players))

    @cached_property
    def _actions(self) -> tuple[tuple[Action, ...], ...]:
        """Per seat, the engine action of every number (:meth:`decode_action`, looked up)."""
        return tuple(tuple(self.decode_action(i, me) for i in range(self.num_actions))
                     for me in range(self.players))

    def number(self, action: Action, me: int) -> int:
        """:meth:`encode_action` from a table built once (``KeyError`` for an action that
        has no number: it cannot be legal under the capped rules)."""
        return self._numbers[me][action]

    def action_of(self, index: int, me: int) -> Action:
        """:meth:`decode_action` from a table built once."""
        if not 0 <= index < self.num_actions:
            raise ValueError(f"action number {index} is out of range 0..{self.num_actions - 1}")
        return self._actions[me][index]

    def numbers(self, legal: tuple[Action, ...] | list[Action], me: int) -> list[int]:
        """The numbers of ``legal``, in its order."""
        table = self._numbers[me]
        return [table[a] for a in legal]

    def action_mask(self, legal: tuple[Action, ...] | list[Action], me: int) -> Mask:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[self.numbers(legal, me)] = 1
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
            Field("looked", a, "the slots a look showed, relative addresses (a king's two; "
                                 "the one of evan's queen before its switch)"),
            Field("window", 2 + n, "snap window: [anyone, closed, only relative seat k]"),
            Field("poll", n, "relative seats still to be asked in this snap poll"),
            Field("give_seat", n, "relative seat that must give a card after a right snap"),
            Field("last_snap", n + a + CLASSES + 1, "latest snap: snapper (relative seat), "
                                                    "slot (relative address), card class, "
                                                    "1 if right"),
            Field("turn_number", 1, "turns played / 200 (at most 1)"),
            Field("reshuffles", 1, "times the pile was shuffled into the deck / 4 (at most 1)"),
        )

    @cached_property
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
                if addr >= 0:  # evan's queen looks at one card: its second address is -1
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


    @cached_property
    def _layout(self) -> _Layout:
        return _Layout(self)

    def encode_state(self, state: State, seat: int, out: Vector | None = None) -> Vector:
        """``encode(observe(state, seat))`` read straight from the engine's fields: the
        same tensor without building the view (``tests/envs`` compares the two on every
        position of many random rounds). It reads the grids only through the knowledge
        masks, as :func:`~cambio.cards.observe` does."""
        L = self._layout
        n = self.players
        v = np.zeros(self.size, dtype=np.float32) if out is None else out
        v.fill(0.0)
        bit = (1 << seat) | state.public
        ones: list[int] = []
        codes = L.slot_code
        for q, (grid, known) in enumerate(zip(state.grids, state.known, strict=True)):
            cells = L.cells[(q - seat) % n]  # the one-hots' starts of this seat's slots
            ones += [at if card < 0 else at + codes[card] if k & bit else at + 1
                     for at, card, k in zip(cells, grid, known, strict=False)]  # cells: every slot
            ones += cells[len(grid):]
        held = state.held
        if held < 0:
            ones.append(L.held)
        elif state.held_from_pile or seat == state.turn:
            ones.append(L.held + codes[held])
        else:
            ones.append(L.held + 1)
        pile = state.pile
        ones.append(L.top + (1 + L.classes[pile[-1]] if pile else 0))
        ones.append(L.phase + state.phase)
        actor = state.current_player()
        if actor != TERMINAL:
            ones.append(L.actor + (actor - seat) % n)
        ones.append(L.turn + (state.turn - seat) % n)
        caller = state.caller
        if caller >= 0:
            ones.append(L.caller + (caller - seat) % n)
            v[L.final_turns_left] = state.final_left / n
        ones.append(L.power + L.power_index[state.power])
        if state.look_a >= 0:
            ones.append(L.looked + self._rel(state.look_a, seat))
        if state.look_b >= 0:
            ones.append(L.looked + self._rel(state.look_b, seat))
        w = state.window
        ones.append(L.window + (0 if w == WINDOW_ANYONE else 1 if w == WINDOW_CLOSED else
                                2 + (w - seat) % n))
        phase = state.phase
        if phase == Phase.POLL:
            for q in state.poll[state.poll_i:]:
                ones.append(L.poll + (q - seat) % n)
        if phase == Phase.GIVE:
            ones.append(L.give_seat + (state.give_seat - seat) % n)
        v[ones] = 1.0
        self._encode_counts(state, seat, v)
        return v

    def _encode_counts(self, state: State, seat: int, v: Vector) -> None:
        """:meth:`encode_state`'s fields that are not one-hots: the pile's make-up, the deck's
        size, the last snap and the round's progress."""
        L = self._layout
        n, a = self.players, self.addresses
        pile = state.pile
        if state.held_from_pile:
            v[L.held_from_pile] = 1.0
        if pile:
            counts = [0] * CLASSES
            classes = L.classes
            for card in pile:
                counts[classes[card]] += 1
            part = v[L.pile:L.pile + CLASSES]
            part[:] = counts
            part /= self._class_totals
        v[L.deck] = len(state.deck) / self.deck_total
        snap = state.last_snap
        if snap is not None:
            snapper, address, card, right = snap
            i = L.last_snap
            v[i + (snapper - seat) % n] = 1.0
            v[i + n + self._rel(address, seat)] = 1.0
            v[i + n + a + L.classes[card]] = 1.0
            v[i + n + a + CLASSES] = float(right)
        v[L.turn_number] = min(1.0, state.turn_number / 200.0)
        v[L.turn_number + 1] = min(1.0, state.reshuffles / 4.0)


class _Layout:
    """Where :meth:`CardsCodec.encode_state` writes each field, and its look-up tables."""

    def __init__(self, codec: CardsCodec) -> None:
        self.width = CLASSES + 2
        at: dict[str, int] = {}
        i = 0
        for f in codec.fields:
            at[f.name] = i
            i += f.size
        self.held = at["held"]
        self.top = at["top"]
        self.pile = at["pile"]
        self.deck = at["deck"]
        self.phase = at["phase"]
        self.actor = at["actor"]
        self.turn = at["turn"]
        self.caller = at["caller"]
        self.final_turns_left = at["final_turns_left"]
        self.power = at["power"]
        self.looked = at["looked"]
        self.window = at["window"]
        self.poll = at["poll"]
        self.give_seat = at["give_seat"]
        self.last_snap = at["last_snap"]
        self.turn_number = at["turn_number"]
        self.held_from_pile = at["held_from_pile"]
        self.classes = [card_class(c) for c in range(NUM_CARD_CODES)]
        self.cells = [[(rel * codec.slots + slot) * self.width for slot in range(codec.slots)]
                      for rel in range(codec.players)]
        self.slot_code = [2 + c for c in self.classes]
        powers = codec._powers  # the rules' powers only (a queen's own power where it has one)
        self.power_index = {code: powers.index(POWER_NAMES[code]) for code in POWER_NAMES
                            if POWER_NAMES[code] in powers}
        self.power_index[P_NONE] = 0


def _slot_code(card: int) -> int:
    if card == EMPTY:
        return 0
    if card == HIDDEN:
        return 1
    return 2 + card_class(card)


__all__ = ["CLASSES", "DEFAULT_SLOTS", "CardsCodec", "Field", "capped_rules",
           "card_class"]
