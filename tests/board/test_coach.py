"""The dice tutorial's advice (``cambio.games.board_coach``), the engine's: a push that wins
is taken, else one that breaks the other player's four in a line; the threat is counted on
the board as it is."""

from __future__ import annotations

from cambio.board import Board, Rules
from cambio.games.board_coach import coach


def test_a_winning_push_is_the_advice() -> None:
    advice = coach(Board(Rules(), position="5/5/5/o4/xxxx1 x"), 0)
    assert advice is not None
    assert advice["move"] == "a1>" and advice["wins"] and advice["count"] == 5
    assert advice["line"] == [0, 1, 2, 3, 4]


def test_the_other_players_four_is_broken() -> None:
    board = Board(Rules(), position="5/5/5/x4/oooo1 x")
    advice = coach(board, 0)
    assert advice is not None and not advice["wins"]
    assert advice["threat"] == {"count": 4, "line": [0, 1, 2, 3, 4]}
    after = board.copy()
    after.play(advice["move"])
    assert max(sum(after.owners[1] >> c & 1 for c in range(r * 5, r * 5 + 5))
               for r in range(5)) < 4


def test_three_players_get_no_advice() -> None:
    assert coach(Board(Rules(players=3)), 0) is None
