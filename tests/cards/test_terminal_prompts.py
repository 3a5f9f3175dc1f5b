"""Each prompt of the terminal card game, reached from a dealt deck and answered briefly."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from cambio.cards import Phase, Rules, State, action_text, observe, parse_cards
from cambio.cards.actions import PASS
from cambio.terminal.cards import Screen, TerminalGame, TerminalOptions

# Seat 0 is dealt 2C 3C 4C 5C, seat 1 5D 6D 8H KH; the deck continues with TOP.
GRIDS = ["2C", "3C", "4C", "5C", "5D", "6D", "8H", "KH"]


def state_with(preset: str, top: list[str], moves: list[str]) -> State:
    state = State(Rules.preset(preset), 2, seed=1, deck=parse_cards([*GRIDS, *top]))
    for move in moves:
        state.play(move, state.current_player())
    return state


def answer(state: State, typed: str, preset: str = "rulebook") -> tuple[str, str]:
    """The action the human's answers give at this state, and everything printed."""
    out = io.StringIO()
    game = TerminalGame(TerminalOptions(Rules.preset(preset), 2, 0, ("memory",), seed=1),
                        Screen(io.StringIO(typed + "\n"), Console(file=out, width=200)))
    assert state.current_player() == 0
    return action_text(game.human(observe(state, 0))), out.getvalue()


@pytest.mark.parametrize("preset, top, moves, typed, expected", [
    ("rulebook", ["7S"], ["draw", "discard"], "1", "peek 0.1"),
    ("rulebook", ["9S"], ["draw", "discard"], "1.2", "peek 1.2"),
    ("rulebook", ["JS"], ["draw", "discard"], "0 1.2", "switch 0.0 1.2"),
    ("rulebook", ["JS"], ["draw", "discard"], "1.2 0", "switch 0.0 1.2"),
    ("rulebook", ["KS"], ["draw", "discard"], "3 1.0", "look 0.3 1.0"),
    ("rulebook", ["KS"], ["draw", "discard", "look 0.3 1.0"], "s", "switch 0.3 1.0"),
    ("rulebook", ["KS"], ["draw", "discard", "look 0.3 1.0"], "k", "keep"),
    ("rulebook", ["AS"], ["draw"], "2", "swap 2"),
    ("rulebook", ["AS"], ["draw"], "d", "discard"),
    ("rulebook", [], [], "d", "draw"),
    ("house", ["JS"], ["draw", "discard"], "1.0 1.1", "switch 1.0 1.1"),
    ("house", ["KS"], ["draw", "discard"], "1.0 2", "look 0.2 1.0"),
    ("house", ["KS"], ["draw", "discard", "look 0.2 1.0"], "0 1.3", "switch 0.0 1.3"),
    ("wikipedia", ["9S"], ["draw", "discard"], "s", "skip"),
    ("wikipedia", ["9S"], ["draw", "discard"], "switch 0.1 1.1\nskip", "skip"),
])
def test_short_answers_become_actions(preset, top, moves, typed, expected):
    state = state_with(preset, top, moves)
    assert answer(state, typed, preset)[0] == expected


def test_the_power_prompt_names_the_power_and_the_choices():
    _, printed = answer(state_with("rulebook", ["JS"], ["draw", "discard"]), "0 1.2")
    assert "Power of JS: swap one of your cards with another player's, unseen." in printed
    assert "yours: 0 1 2 3 · theirs: 1.0 1.1 1.2 1.3" in printed
    _, printed = answer(state_with("rulebook", ["KS"], ["draw", "discard", "look 0.3 1.0"]),
                        "k")
    assert "You saw 3 = 5C and 1.0 = 5D. s = swap these two cards, k = keep them" in printed


def test_a_card_taken_from_the_pile_must_be_swapped_in():
    # Seat 0 discards the drawn 9S, seat 1 passes the poll, seat 1 discards AS; seat 0 takes.
    state = state_with("wikipedia", ["9S", "AS", "6S"], ["draw", "discard", "skip"])
    while state.phase == Phase.POLL:
        state.play(PASS, state.current_player())
    state.play("draw", 1)
    state.play("discard", 1)
    while state.phase == Phase.POLL:
        state.play(PASS, state.current_player())
    assert answer(state, "t", "wikipedia")[0] == "take"
    state.play("take", 0)
    action, printed = answer(state, "d\n2", "wikipedia")
    assert action == "swap 2"
    assert "You took AS: swap it into one of your slots (0 1 2 3)." in printed
    assert "A card taken from the discard pile must be swapped into your grid." in printed


def test_snapping_another_players_card_then_giving_one_back():
    # Seat 0 draws and discards 5S; seat 1's slot 0 is 5D: a right snap, then a give.
    state = state_with("rulebook", ["5S"], ["draw", "discard"])
    while state.current_player() != 0:
        state.play(PASS, state.current_player())
    action, printed = answer(state, "1.0")
    assert action == "snap 1.0"
    assert "Snap? The top card is 5S. Enter = pass" in printed
    state.play(action, 0)
    assert state.phase == Phase.GIVE
    action, printed = answer(state, "7\n3")
    assert action == "give 3"
    assert "Give one of your cards into 1.0 (they will not see it). Your slots: 0 1 2 3." \
        in printed
    assert "There is no slot 7." in printed


def test_enter_passes_a_snap_poll():
    state = state_with("rulebook", ["5S"], ["draw", "discard"])
    while state.current_player() != 0:
        state.play(PASS, state.current_player())
    assert answer(state, "")[0] == "pass"
