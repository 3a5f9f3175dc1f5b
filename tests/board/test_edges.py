"""Edges of the board rules core that ``make mutation`` found untested (docs/testing.md):
repetition keys, who can move, undo of the repetition counts, independent copies, the
judging of a position handed in with a line on it, and a start at the move cap."""

from __future__ import annotations

import random

import pytest

from cambio.board import (
    PASS,
    Board,
    PositionError,
    Rules,
    Termination,
    geometry,
    move_text,
    parse_move,
)
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


def test_canonical_is_the_least_key_over_the_symmetries_and_the_first_symmetry_giving_it():
    from cambio.board.bitboard import canonical

    rng = random.Random(3)
    for players, size in ((2, 4), (3, 5)):
        g = geometry(Rules(players=players, size=size))
        for _ in range(60):
            owners = [0] * players
            for cell in range(g.cells):
                who = rng.randrange(players + 2)
                if who < players:
                    owners[who] |= 1 << cell
            keys = [sum(g.transform(s, b) << (p * g.cells) for p, b in enumerate(owners))
                    for s in range(8)]
            assert canonical(tuple(owners), g) == (min(keys), keys.index(min(keys)))
    g = geometry(Rules(size=3))
    # Symmetric: every symmetry gives the same key, and the identity (0) is named.
    assert canonical((1 << 4, 0), g) == (1 << 4, 0)
    # A die in a corner: the least key puts it on cell 0, first reached by symmetry 0.
    assert canonical((0, 1 << 8), g) == (1 << 9, 3)


def test_geometry_bits_and_cell_names():
    from cambio.board.rules import cell_name

    g = geometry(Rules(size=4))
    assert [g.bit(r, c) for r, c in ((0, 0), (0, 3), (1, 0), (3, 3))] == [1, 8, 16, 1 << 15]
    assert [cell_name(c, 4) for c in (0, 3, 4, 15)] == ["a1", "d1", "a2", "d4"]


def test_an_illegal_move_error_names_the_move_and_the_reason():
    from cambio.board import IllegalMoveError

    b = Board(Rules(size=3), "oo1/3/3 x")
    with pytest.raises(IllegalMoveError) as err:
        b.play("c3<")
    assert err.value.move == "c3<" and "seat 1's die" in err.value.reason


def test_parse_checks_without_playing():
    from cambio.board import IllegalMoveError, InvalidMoveError

    b = Board(Rules(size=3), "oo1/3/3 x")
    assert b.parse("a1>") == 0 and b.ply == 0 and b.move_stack == []
    with pytest.raises(IllegalMoveError) as err:
        b.parse("C3<")
    assert err.value.move == "C3<"
    with pytest.raises(InvalidMoveError):
        b.parse("z9>")
    assert b.is_legal(0) and not b.is_legal(b.parse("a3>") + 100)
    assert not b.is_over()


def test_divide_splits_perft_and_counts_a_winning_move_as_a_leaf():
    from cambio.board.perft import divide, perft

    b = Board(Rules(size=3), "xx1/3/3 x")  # a3> completes row 3 at once
    for depth in (1, 2):
        split = divide(b, depth)
        assert sum(split.values()) == perft(b, depth)
        assert split["a3>"] == (1 if depth == 1 else 0)
    assert set(divide(b, 1)) == {b.move_text(m) for m in b.legal_moves()}


def test_a_copy_keeps_faces_start_and_outcome():
    b = quick_setup(Rules(), 4)
    c = b.copy()
    assert (c.faces, c.start, c.start_faces, c.symbols) == (b.faces, b.start, b.start_faces,
                                                             b.symbols)
    assert c.faces is not b.faces
    c.push(c.legal_moves()[0])
    assert b.faces == list(b.start_faces or ())
    won = Board(Rules(size=3), "xx1/3/3 x")
    won.play("a3>")
    assert won.copy().outcome == won.outcome and won.copy().legal_moves() == []


def test_outcome_text():
    from cambio.board import Outcome

    assert Outcome(Termination.MOVE_CAP, ()).text() == "draw (move cap)"
    assert Outcome(Termination.NO_MOVES, ()).text() == "draw (no moves)"
    assert Outcome(Termination.REPETITION, ()).text() == "draw (repetition)"
    assert Outcome(Termination.LINE, (1,)).text() == "seat 1 wins (line)"
    assert Outcome(Termination.LINE, (0, 2)).text() == "seat 0 and seat 2 win (line)"
    assert Outcome(Termination.LINE, ()).is_draw and not Outcome(Termination.LINE, (0,)).is_draw


def test_the_board_as_text():
    b = Board(Rules(size=3), "xo1/1x1/3 o")
    assert str(b) == "3 x o .\n2 . x .\n1 . . .\n  a b c"
    assert repr(b) == "Board('xo1/1x1/3 o 0')"
    three = Board(Rules(players=3, size=4), "s3/4/4/3o x")
    assert str(three).splitlines()[0] == "4 s . . ." and str(three).endswith("  a b c d")


def test_seeded_setups_are_pinned():
    """The published procedure's rolls, exchange, symbols and adjustments, and the quick
    setup, from a seed: any change to how either draws shows here."""
    from cambio.board.setup import faces_text, full_setup

    assert full_setup(Rules(), 3).history == [
        "roll 43351/11534/40324/43540/14412", "exchange 43351/11534/45354/43541/14415",
        "symbol star", "symbol triangle", "neutral d4", "own b1"]
    assert full_setup(Rules(size=4, players=3), 4).history == [
        "roll 2014/0034/3310/1205", "exchange 2011/0032/3310/1202", "symbol circle",
        "symbol star", "symbol triangle", "neutral c1", "neutral b3", "own b3"]
    q = quick_setup(Rules(), 9)
    assert q.position() == "3o1/o1o2/x2xo/1x3/1o1x1 x 0"
    assert faces_text(q.faces or [], 5) == "02142/42415/30134/53111/04031"
    assert q.symbols == (3, 4)
    done = full_setup(Rules(), 3).board()
    assert done.faces is not None and done.symbols == (3, 1)


@pytest.mark.parametrize("text,cell", [("a1", 0), ("A1", 0), (" e5 ", 24), ("c2", 7)])
def test_setup_cells(text, cell):
    from cambio.board.setup import parse_cell

    assert parse_cell(text, 5) == cell


@pytest.mark.parametrize("text", ["f1", "a6", "a0", "a", "", "11", "`1", "a1x"])
def test_bad_setup_cells(text):
    from cambio.board import SetupError
    from cambio.board.setup import parse_cell

    with pytest.raises(SetupError):
        parse_cell(text, 5)


def test_setup_faces_round_trip_and_checks():
    from cambio.board import SetupError
    from cambio.board.setup import faces_text, parse_faces

    faces = [c % 6 for c in range(16)]
    assert parse_faces(faces_text(faces, 4), 4) == faces
    assert parse_faces("000/000/000", 3) == [0] * 9
    for bad in ("0000/0000/0000/0006", "000/000", "0000/000/0000/0000", "000a/0000/0000/0000"):
        with pytest.raises(SetupError):
            parse_faces(bad, 4)


def test_judge_the_lines_after_a_move():
    from cambio.board.bitboard import judge

    assert judge([0], 0, "mover_loses") == (0,)
    assert judge([0, 1], 0, "mover_loses") == (1,)
    assert judge([1, 2], 0, "mover_loses") == (1, 2)
    assert judge([0, 1], 0, "owner") == (0, 1)


def test_move_text_bounds_and_pass():
    from cambio.board import InvalidMoveError

    assert move_text(PASS, 5) == "pass" and move_text(19, 5) == "e5v"
    for bad in (20, -2, 100):
        with pytest.raises(InvalidMoveError):
            move_text(bad, 5)
    b = Board(Rules(size=3), "3/3/3 x")
    with pytest.raises(InvalidMoveError):
        b.play(12)


@pytest.mark.parametrize("text,where", [("b1>", "left file a"), ("a1<", "right file"),
                                        ("a2^", "bottom rank 1"), ("a1v", "top rank")])
def test_a_push_from_the_wrong_side_says_where_it_enters(text, where):
    from cambio.board import InvalidMoveError

    with pytest.raises(InvalidMoveError, match=f"enters on the {where}, not at"):
        parse_move(text, 5)


@pytest.mark.parametrize("text", ["`1>", "_1>", "A9>", "f1<", "a0>"])
def test_moves_off_the_board_are_rejected(text):
    from cambio.board import InvalidMoveError

    with pytest.raises(InvalidMoveError):
        parse_move(text, 5)
    assert parse_move("A1>", 5) == 0 and parse_move(" e5V ", 5) == 19


def test_an_illegal_move_given_as_a_code_is_named_in_the_error():
    from cambio.board import IllegalMoveError

    b = Board(Rules(size=3), "oo1/3/3 x")
    code = parse_move("c3<", 3)
    with pytest.raises(IllegalMoveError) as err:
        b.play(code)
    assert err.value.move == "c3<"


def test_push_then_pop_on_a_finished_board_restores_its_outcome():
    won = Board(Rules(size=3), "xx1/3/3 x")
    won.play("a3>")
    outcome = won.outcome
    won.push(0)  # unchecked: search may look past the end
    won.pop()
    assert won.outcome == outcome and won.ply == 1


def test_a_pass_keeps_the_faces():
    b = Board(Rules(players=3), "ososo/s3s/o3o/s3s/ososo x", faces=[c % 6 for c in range(25)],
              symbols=(0, 1, 2))
    faces = list(b.faces or [])
    b.play("pass")
    assert b.faces == faces
    b.pop()
    assert b.faces == faces


def test_pinned_setup_steps_replay_and_bad_exchanges_are_refused():
    from cambio.board import SetupError
    from cambio.board.setup import Setup, faces_text, full_setup

    done = full_setup(Rules(), 3)
    again = Setup(Rules())
    for step in done.history:
        again.apply(step)
    board = again.board()
    assert board.position() == done.board().position() and board.turn == 0 and board.ply == 0
    assert faces_text(board.faces or [], 5) == faces_text(done.faces, 5)
    assert board.position() == "1xx2/oo3/2x2/1x2o/1o1o1 x 0"
    assert faces_text(done.faces, 5) == "43354/11544/45354/43541/41415"
    fresh = Setup(Rules())
    fresh.apply(done.history[0])
    with pytest.raises(SetupError):
        fresh.apply("exchange 43351/11534/40324/43540/14412")  # the roll unchanged
    with pytest.raises(SetupError):
        fresh.apply("")
    assert Setup().rules == Rules() and Setup().owners == [0, 0] and not Setup().adding
