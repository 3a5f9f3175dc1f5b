"""Edges of the card engine's state (``cambio.cards.state``) that ``make mutation`` found
untested: each pins a rule of docs/rules.md or a documented property of the engine."""

from __future__ import annotations

from cambio.cards import Rules, State


def test_a_clone_and_its_original_keep_their_own_histories():
    s = State(Rules.preset("rulebook"), 2, seed=1)
    s.play("draw")
    twin = s.clone()
    twin.play("discard")
    assert s.history == [(0, 1)] and s.history_length() == 1
    assert [a for _, a in twin.history] == [1, 4] and twin.history_length() == 2
    s.play("swap 2")
    assert [a for _, a in s.history] == [1, 3 | 2 << 5]
    assert [a for _, a in twin.history] == [1, 4]
