"""The rules core: moves and their notation, legality, push/pop, wins, draws, passes, and
position strings (round trips, and typed errors that change nothing)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cambio.board import (
    PASS,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    PositionError,
    Rules,
    RulesError,
    Termination,
    move_text,
    parse_move,
)
from cambio.board.bitboard import canonical, count_pushes, legal_pushes
from cambio.board.rules import OtherLine
from cambio.board.setup import quick_setup

from . import reference as ref


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_every_move_text_round_trips(n):
    texts = [move_text(m, n) for m in range(4 * n)]
    assert len(set(texts)) == 4 * n
    for m, t in enumerate(texts):
        assert parse_move(t, n) == m
        assert parse_move(t.upper(), n) == m
    assert parse_move("pass", n) == PASS


@pytest.mark.parametrize("text", ["", "a3", "b3>", "a3^", "f1^", "a0>", "a6>", "e3>", "c3v",
                                  "pas", "a1>>", "1a>", "a-1>",
                                  # digits that str.isdigit() accepts: ASCII digits only
                                  "a\u00b2>", "a\u2462>", "a\u0663>", "c\u00b9^"])
def test_malformed_moves_are_rejected(text):
    with pytest.raises(InvalidMoveError):
        parse_move(text, 5)


def test_pushes_slide_the_line_and_drop_the_far_die():
    b = Board(Rules(), "5/5/xo3/5/5 x")
    b.play("a3>")  # x enters on a3; x, o slide right; the neutral die on e3 leaves
    assert b.position() == "5/5/xxo2/5/5 o 1"


def test_the_leaving_die_is_never_another_players():
    b = Board(Rules(), "5/5/x3o/5/5 o")
    before = b.position()
    with pytest.raises(IllegalMoveError) as err:
        b.play("e3<")  # would push x's die off a3
    assert "seat 0" in str(err.value)
    assert b.position() == before and b.move_stack == []
    b.play("a3>")  # o's own die on e3 may leave
    assert b.position() == "5/5/ox3/5/5 x 1"


def test_pushing_columns_both_ways():
    b = Board(Rules(size=3), "o2/3/x2 x")
    b.play("a3v")  # x enters on a3, o slides to a2, x's own die on a1 leaves
    assert b.position() == "x2/o2/3 o 1"
    with pytest.raises(IllegalMoveError):
        b.play("a1^")  # would push x's die off a3
    b.play("c1^")
    assert b.position() == "x2/o2/2o x 2"  # o enters at the bottom of column c


def test_legal_moves_match_the_reference_in_random_positions():
    import random

    rng = random.Random(5)
    for _ in range(300):
        players = rng.choice([2, 3])
        n = rng.choice([4, 5]) if players == 3 else rng.choice([3, 4, 5])
        rules = Rules(players=players, size=n)
        cells = "".join(rng.choice(".xos"[: players + 1]) for _ in range(n * n))
        rows = "/".join(cells[i * n:(i + 1) * n] for i in range(n))
        b = Board(rules, f"{rows} {'xos'[rng.randrange(players)]}")
        grid, me = ref.parse(b.position(), n)
        expected = sorted(t for t, _ in ref.moves(grid, me)) or ["pass"]
        if b.outcome is None:
            assert sorted(b.move_text(m) for m in b.legal_moves()) == expected
            others = 0
            for p, bits in enumerate(b.owners):
                if p != b.turn:
                    others |= bits
            assert count_pushes(others, b.g) == len(legal_pushes(b.owners, b.turn, b.g))
            for text, after in ref.moves(grid, me):
                b.play(text)
                assert ref.parse(b.position(), n)[0] == after
                assert b.outcome is None or b.outcome.termination != Termination.LINE or \
                    list(b.outcome.winners) == ref.winners(grid, me, text, rules.line,
                                                           players, "owner")
                b.pop()


def test_push_pop_restores_everything():
    b = quick_setup(Rules(), 3)
    start = (b.position(), b.key(), list(b.faces or []), b.repetitions())
    played: list[int] = []
    for _ in range(12):
        if b.outcome is not None:
            break
        m = b.legal_moves()[len(played) % len(b.legal_moves())]
        b.push(m)
        played.append(m)
    for m in reversed(played):
        assert b.pop() == m
    assert (b.position(), b.key(), list(b.faces or []), b.repetitions()) == start
    assert b.outcome is None


def test_a_line_wins_and_ends_the_game():
    b = Board(Rules(size=3), "xx1/3/3 x")
    b.play("a3>")  # row 3 becomes x x x
    assert b.outcome is not None
    assert b.outcome.termination == Termination.LINE
    assert b.outcome.winners == (0,)
    assert b.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        b.play("a1>")


BOTH = "xo1/xo1/o2 x"
"""x's a1> fills column a with x and slides o into b1, filling column b with o."""


def test_completing_both_lines():
    cases: list[tuple[OtherLine, tuple[int, ...]]] = [("owner", (0, 1)), ("mover_loses", (1,))]
    for rule, winners in cases:
        b = Board(Rules(size=3, other_line=rule), BOTH)
        assert b.outcome is None
        b.play("a1>")
        assert b.outcome is not None and b.outcome.winners == winners
    tie = Board(Rules(size=3), BOTH)
    tie.play("a1>")
    assert tie.outcome is not None and tie.outcome.text().startswith("seat 0 and seat 1")


def test_completing_only_anothers_line():
    rules: list[OtherLine] = ["owner", "mover_loses"]
    for rule in rules:
        b = Board(Rules(size=3, other_line=rule), "1o1/1o1/o2 x")
        b.play("a1>")  # slides o into b1: column b is o's
        assert b.outcome is not None and b.outcome.winners == (1,)


def test_three_players_owner_and_mover_loses_differ():
    # s (seat 2) pushes row 1 in from the left: fills its own row-1 window a1-d1 and slides
    # an o into e1, completing o's column e (e1-e4).
    pos = "5/4o/4o/4o/ssso1 s"
    cases: list[tuple[OtherLine, tuple[int, ...]]] = [("owner", (1, 2)), ("mover_loses", (1,))]
    for rule, winners in cases:
        b = Board(Rules(players=3, other_line=rule), pos)
        assert b.outcome is None
        b.play("a1>")
        assert b.outcome is not None and b.outcome.winners == winners, rule


def test_threefold_repetition_is_a_draw():
    b = Board(Rules(size=4), "o2o/4/4/x2x x")
    seq = ["a1>", "a4>", "d1<", "d4<"]
    for ply in range(8):
        assert b.outcome is None
        b.play(seq[ply % 4])
    assert b.repetitions() == 3
    assert b.outcome is not None
    assert b.outcome.termination == Termination.REPETITION
    assert b.outcome.winners == ()
    b.pop()
    assert b.outcome is None and b.repetitions() == 2  # ply 7 = ply 3


def test_move_cap_is_a_draw():
    b = Board(Rules(size=4, max_plies=5, repetitions=100), "4/4/4/4 x")
    rng_moves = ["a1>", "d4<", "a2>", "d3<", "b1^"]
    for t in rng_moves:
        b.play(t)
    assert b.outcome is not None and b.outcome.termination == Termination.MOVE_CAP


def test_a_player_without_pushes_passes():
    b = Board(Rules(players=3), "ososo/s3s/o3o/s3s/ososo x")
    assert b.legal_moves() == [PASS]
    with pytest.raises(IllegalMoveError):
        b.play("a3>")
    b.play("pass")
    assert b.turn == 1 and b.ply == 1
    assert PASS not in b.legal_moves()
    with pytest.raises(IllegalMoveError):
        b.play("pass")


def test_position_strings_round_trip():
    for seed in range(20):
        for rules in (Rules(), Rules(players=3), Rules(size=4)):
            b = quick_setup(rules, seed)
            again = Board(rules, b.position())
            assert again.owners == b.owners and again.turn == b.turn
            assert again.position() == b.position()


@pytest.mark.parametrize("text", [
    "", "5/5/5/5 x", "5/5/5/5/5", "5/5/5/5/5 q", "6/5/5/5/5 x", "4/5/5/5/5 x",
    "5/5/5/5/5 x -1", "5/5/5/5/5 x 1 2", "xoxoxo/5/5/5/5 x", "0x4/5/5/5/5 x",
    "5/5/5/5/5 s", "s4/5/5/5/5 x", "5/5/5/5/4? x", "\u00b2xox/5/5/5/5 x", "5/5/5/5/5 x \u00b9"])
def test_malformed_positions_raise(text):
    with pytest.raises(PositionError):
        Board(Rules(), text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="xos.0123456789/ -", max_size=40))
def test_arbitrary_position_text_parses_or_raises_position_error(text):
    try:
        b = Board(Rules(), text)
    except PositionError:
        return
    assert Board(Rules(), b.position()).owners == b.owners


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=8))
def test_arbitrary_move_text_parses_or_raises(text):
    b = quick_setup(Rules(), 1)
    before = b.position()
    try:
        b.play(text)
    except (InvalidMoveError, IllegalMoveError):
        assert b.position() == before
        return
    assert b.ply == 1


def test_bad_rules_raise():
    for kwargs in ({"players": 4}, {"size": 2}, {"line": 6}, {"other_line": "x"},
                   {"max_plies": 0}, {"repetitions": 1}):
        with pytest.raises(RulesError):
            Rules(**kwargs)
    assert Rules().line == 5 and Rules(players=3).line == 4 and Rules(size=4).line == 4


def test_three_player_lines_include_the_short_diagonals():
    g = Rules(players=3).line
    assert g == 4
    from cambio.board import geometry

    geo = geometry(Rules(players=3))
    assert len(geo.lines) == 10 + 10 + 4 + 4  # rows, columns, long diagonals x2, short x1
    assert len(geometry(Rules()).lines) == 12


def test_symmetries_map_positions_and_moves_consistently():
    b = quick_setup(Rules(), 11)
    g = b.g
    for s in range(8):
        for m in b.legal_moves():
            mapped = tuple(g.transform(s, x) for x in b.owners)
            b.push(m)
            after = tuple(g.transform(s, x) for x in b.owners)
            b.pop()
            image = Board(Rules(), b.position())
            image.owners = mapped
            image.push(g.sym_moves[s][m])
            assert image.owners == after
    key, _ = canonical(b.owners, g)
    for s in range(8):
        assert canonical(tuple(g.transform(s, x) for x in b.owners), g)[0] == key
