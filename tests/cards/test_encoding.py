"""The public helpers that build, read and print actions, slots and states outside the
engine (docs/rules.md "Actions"): they must agree exactly with the text form records use."""

from __future__ import annotations

import pytest

from cambio.cards import EMPTY, HIDDEN, Rules, State, observe, parse_action, parse_card
from cambio.cards.actions import (
    CAMBIO,
    DRAW,
    GIVE,
    LOOK,
    PEEK,
    SNAP,
    SWAP,
    SWITCH,
    addr,
    arg_a,
    arg_b,
    encode,
    kind_of,
)


@pytest.mark.parametrize("kind,a,b,text", [
    (DRAW, 0, 0, "draw"),
    (CAMBIO, 0, 0, "cambio"),
    (SWAP, 2, 0, "swap 2"),
    (GIVE, 5, 0, "give 5"),
    (PEEK, addr(1, 2), 0, "peek 1.2"),
    (SNAP, addr(255, 255), 0, "snap 255.255"),
    (SWITCH, addr(0, 1), addr(2, 3), "switch 0.1 2.3"),
    (LOOK, addr(3, 0), addr(0, 7), "look 3.0 0.7"),
])
def test_encode_builds_the_action_the_text_names(kind, a, b, text):
    action = encode(kind, a, b) if b else encode(kind, a) if a else encode(kind)
    assert action == parse_action(text)
    assert (kind_of(action), arg_a(action), arg_b(action)) == (kind, a, b)


def test_a_view_reads_a_slot_by_its_address():
    s = State(Rules.preset("rulebook"), 3, seed=11)
    view = observe(s, 1)
    for seat in range(3):
        for slot in range(4):
            assert view.at(addr(seat, slot)) == view.grids[seat][slot]
    assert view.at(addr(1, 2)) == s.grids[1][2] != HIDDEN  # seen in the opening peek
    assert view.at(addr(1, 0)) == HIDDEN and view.at(addr(2, 2)) == HIDDEN


def test_a_state_prints_empty_slots_as_dashes_and_every_card_by_its_code():
    top = [parse_card(x) for x in ("XB", "AC", "2C", "3C")]
    s = State(Rules.preset("rulebook"), 2, seed=7, deck=top)
    s.grids[1][3] = EMPTY
    assert s.grids[0][0] == parse_card("XB") == 0  # the black joker is card 0
    assert repr(s) == ("<cards.State rulebook turn=1 seat=0 phase=TURN_START top=-- "
                       f"[XB AC 2C 3C | {' '.join(_codes(s.grids[1][:3]))} --]>")


def _codes(cards: list[int]) -> list[str]:
    from cambio.cards import card_code

    return [card_code(c) for c in cards]
