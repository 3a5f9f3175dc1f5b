"""The terminal: the drawn board shows exactly the legal pushes; a scripted game plays,
takes back a move, and writes a record that replays."""

import io

from rich.console import Console

from cambio.board import Board, Rules
from cambio.records.board import replay
from cambio.records.jsonl import load_record
from cambio.terminal.board import TerminalOptions, render, run_terminal


def text_of(renderable):
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(renderable)
    return out.getvalue()


def test_arrows_show_exactly_the_legal_pushes():
    board = Board(Rules(), "1o1x1/x3o/5/o2x1/1x1o1 x")
    drawn = text_of(render(board))
    arrows = sum(drawn.count(ch) for ch in "<>^v")
    assert arrows == len(board.legal_moves()) == 16
    assert drawn.count("×") == 20 - 16  # a blocked end is a dim cross


def test_scripted_game_with_undo_and_record(tmp_path):
    record = tmp_path / "g.jsonl"
    script = "undo\na1>\nundo\n" + "\n".join(["a1>", "a2>", "a3>", "a4>", "a5>", "b1^", "c1^",
                                               "d1^", "e1^", "e5v"] * 20) + "\n"
    out = io.StringIO()
    board = run_terminal(TerminalOptions(rules=Rules(), seats=("human", "greedy"), seed=3,
                                         record=record),
                         Console(file=out, width=100, color_system=None), io.StringIO(script))
    text = out.getvalue()
    assert "Nothing of yours to take back." in text
    if board is None:  # the script ran out before the game ended
        assert "unfinished" in text
        return
    assert board.outcome is not None
    summary = replay(load_record(record)).summary()
    assert summary["winners"] == list(board.outcome.winners)


def test_full_setup_asks_the_human(tmp_path):
    out = io.StringIO()
    # The human (seat 1) chooses for seat 0 first; answer with nonsense, then quit.
    result = run_terminal(TerminalOptions(rules=Rules(), seats=("greedy", "human"), seed=1,
                                          full_setup=True),
                          Console(file=out, width=100, color_system=None),
                          io.StringIO("neutral z9\nquit\n"))
    text = out.getvalue()
    assert result is None
    assert "roll " in text
    if "Choose one of" in text:
        assert "is not a cell" in text or "not allowed" in text
