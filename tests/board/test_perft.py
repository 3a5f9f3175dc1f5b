"""Perft: the engine's move-path counts against the numbers written down in perft.txt, and
against the naive reference implementation in reference.py at the shallower depths."""

from pathlib import Path

import pytest

from cambio.board import Board, Rules
from cambio.board.perft import divide, perft

from . import reference as ref

CASES = []
for raw in (Path(__file__).parent / "perft.txt").read_text().splitlines():
    if raw.strip() and not raw.startswith("#"):
        name, players, size, line, position, counts = (x.strip() for x in raw.split(";"))
        CASES.append((name, int(players), int(size), int(line), position,
                      [int(c) for c in counts.split()]))


def board_of(players, size, line, position):
    return Board(Rules(players=players, size=size, line=line), position)


@pytest.mark.parametrize(("name", "players", "size", "line", "position", "counts"), CASES,
                         ids=[c[0] for c in CASES])
def test_perft_counts(name, players, size, line, position, counts):
    board = board_of(players, size, line, position)
    assert [perft(board, d) for d in range(1, len(counts) + 1)] == counts
    assert board.position() == position  # perft leaves the board as it found it


@pytest.mark.parametrize(("name", "players", "size", "line", "position", "counts"), CASES,
                         ids=[c[0] for c in CASES])
def test_reference_agrees(name, players, size, line, position, counts):
    grid, me = ref.parse(position, size)
    for depth, expected in enumerate(counts, start=1):
        if expected > 30_000:
            break
        assert ref.perft(grid, me, depth, line, players) == expected


def test_divide_names_the_reference_moves_and_sums_to_perft():
    board = board_of(2, 5, 5, "xo1xo/oxxo1/1ooxx/x1oxo/oxo2 o 0")
    split = divide(board, 2)
    grid, me = ref.parse(board.position(), 5)
    assert sorted(split) == sorted(text for text, _ in ref.moves(grid, me))
    assert sum(split.values()) == perft(board, 2)


def test_depth_zero_and_finished_positions():
    assert perft(Board(Rules(size=3), "3/3/3 x"), 0) == 1
    won = Board(Rules(size=3), "xxx/3/3 o")
    assert won.outcome is not None
    assert perft(won, 3) == 0
    with pytest.raises(ValueError):
        perft(won, -1)
