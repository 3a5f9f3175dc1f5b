"""Edges of the board rules core that ``make mutation`` found untested (docs/testing.md):
repetition keys, who can move, undo of the repetition counts, independent copies, the
judging of a position handed in with a line on it, and a start at the move cap."""

from __future__ import annotations

import random

import pytest

from cambio.board import PASS, Board, PositionError, Rules, Termination, geometry
from cambio.board.bitboard import can_move, legal_pushes, position_key
from cambio.board.setup import quick_setup


@pytest.mark.parametrize("players", [2, 3])
def test_position_keys_never_collide(players):
    """Every placement of one or two dice, with every seat to move, has its own key."""
    rules = Rules(players=players, size=3)
    g = geometry(rules)
    keys: dict[int, tuple[tuple[int, ...], int]] = {}
    placements = [(0,) * players]
    for p in range(players):
        for cell in range(g.cells):
            one = [0] * players
            one[p] = 1 << cell
            placements.append(tuple(one))
            for q in range(players):
                for other in range(g.cells):
                    if other != cell:
                        two = list(one)
                        two[q] |= 1 << other
                        placements.append(tuple(two))
    for owners in set(placements):
        for turn in range(players):
            key = position_key(owners, turn, g.cells)
            assert keys.setdefault(key, (owners, turn)) == (owners, turn)


def test_can_move_agrees_with_the_legal_pushes():
    rng = random.Random(5)
    for players, size in ((2, 3), (2, 4), (3, 4), (3, 5)):
        g = geometry(Rules(players=players, size=size))
        for _ in range(300):
            owners = [0] * players
            for cell in range(g.cells):
                who = rng.randrange(players + 1)
                if who < players:
                    owners[who] |= 1 << cell
            for mover in range(players):
                assert can_move(tuple(owners), mover, g) == bool(
                    legal_pushes(tuple(owners), mover, g))


def test_a_seat_walled_in_by_others_cannot_move_but_they_can():
    # Every edge cell is o's: x cannot push (an o would leave), o can push anywhere.
    g = geometry(Rules(size=3))
    edge = g.edge
    assert not can_move((0, edge), 0, g)
    assert can_move((0, edge), 1, g)


def test_pop_undoes_the_repetition_counts():
    b = Board(Rules(size=4), "o2o/4/4/x2x x")
    start_key = b.key()
    assert b.seen(start_key) == 1
    b.play("a1>")
    after_one = b.key()
    assert b.seen(after_one) == 1
    b.pop()
    assert b.seen(after_one) == 0 and b.seen(start_key) == 1
    # Around the cycle twice, back once: counts go 3 -> 2, and the draw is undone.
    seq = ["a1>", "a4>", "d1<", "d4<"]
    for ply in range(8):
        b.play(seq[ply % 4])
    assert b.seen(start_key) == 3 and b.outcome is not None
    b.pop()
    assert b.seen(start_key) == 2 and b.outcome is None
    b.play("d4<")
    assert b.outcome is not None and b.outcome.termination == Termination.REPETITION


def test_a_copy_is_independent_of_the_original():
    b = quick_setup(Rules(), 4)
    b.play(b.legal_moves()[0])
    c = b.copy()
    assert c.position() == b.position() and c.key() == b.key()
    here = b.key()
    c.push(c.legal_moves()[0])
    c.push(c.legal_moves()[0])
    assert len(b.move_stack) == 1 and b.ply == 1
    assert b.seen(c.key()) == 0 and b.seen(here) == 1 and c.seen(here) == 1
    b.pop()
    assert b.ply == 0 and b.position() == b.start
    assert c.pop() is not None and c.ply == 2
    assert c.faces is not b.faces


def test_a_handed_in_line_is_judged_for_the_previous_mover():
    """A position with lines on it reads as if the seat before the one to move had made them:
    under ``mover_loses`` that seat loses when another seat's line is there too."""
    both = "xxx/ooo/3"
    for turn, winners in (("o", (1,)), ("x", (0,))):
        b = Board(Rules(size=3, other_line="mover_loses"), f"{both} {turn}")
        assert b.outcome is not None and b.outcome.termination == Termination.LINE
        assert b.outcome.winners == winners, turn
    owner = Board(Rules(size=3), f"{both} o")
    assert owner.outcome is not None and owner.outcome.winners == (0, 1)
    # Three players: with s to move, o moved last.
    three = Board(Rules(players=3, size=3, line=3, other_line="mover_loses"),
                  "xxx/ooo/sss s")
    assert three.outcome is not None and three.outcome.winners == (0, 2)


def test_a_start_at_the_move_cap_is_over():
    rules = Rules(size=3, max_plies=10)
    assert Board(rules, "3/3/3 x 9").outcome is None
    at_cap = Board(rules, "3/3/3 x 10")
    assert at_cap.outcome is not None and at_cap.outcome.termination == Termination.MOVE_CAP
    assert at_cap.legal_moves() == []
    beyond = Board(rules, "3/3/3 x 11")
    assert beyond.outcome is not None and beyond.outcome.termination == Termination.MOVE_CAP


def test_the_move_cap_is_reached_on_the_last_ply():
    rules = Rules(size=3, max_plies=3, repetitions=100)
    b = Board(rules, "3/3/3 x")
    b.play("a1>")
    b.play("c3<")
    assert b.outcome is None
    b.play("b1^")
    assert b.outcome is not None and b.outcome.termination == Termination.MOVE_CAP


def test_a_pass_keeps_the_cells_and_moves_the_turn():
    b = Board(Rules(players=3), "ososo/s3s/o3o/s3s/ososo x")
    owners = b.owners
    b.play(PASS)
    assert b.owners == owners and b.turn == 1 and b.move_stack == [PASS]
    assert b.pop() == PASS and b.turn == 0 and b.ply == 0


@pytest.mark.parametrize("text", ["3/3/3 x 1x", "3/3/3 x -1", "3/3/3 x ²"])
def test_a_bad_ply_count_is_a_position_error(text):
    with pytest.raises(PositionError):
        Board(Rules(size=3), text)


def test_rules_json_round_trip_and_checks():
    from cambio.board import RulesError

    rules = Rules(players=3, size=6, line=4, other_line="mover_loses", max_plies=90,
                  repetitions=4, setup_max_per_line=3)
    data = rules.to_json()
    assert data == {"players": 3, "size": 6, "line": 4, "other_line": "mover_loses",
                    "max_plies": 90, "repetitions": 4, "setup_max_per_line": 3}
    assert Rules.from_json(data) == rules
    assert Rules.from_json({}) == Rules()
    bad: object
    for bad in ([], {"size": 5, "colour": 1}, {"size": "5"}, {"size": True},
                {"other_line": 1}, {"players": 4}, {"size": 9}, {"line": 1},
                {"max_plies": 0}, {"repetitions": 1}, {"setup_max_per_line": 0}):
        with pytest.raises(RulesError):
            Rules.from_json(bad)


def test_default_line_lengths():
    assert Rules().line == 5 and Rules(players=3).line == 4
    assert Rules(size=3, players=3).line == 3 and Rules(size=4).line == 4
    assert Rules(players=2, size=8, line=8).line == 8
    assert [Rules(size=n).start_counts() for n in (3, 4, 5)] == [(1, 2), (3, 4), (4, 5)]
    assert Rules(players=3, size=3).start_counts() == (1, 1, 1)
    assert Rules(players=3, size=6).start_counts() == (5, 5, 5)
