"""Cambio, the dice board game, in a terminal: humans (hot-seat) and bots, 2 or 3 seats.

The board is drawn in colour (one colour per seat, neutral dice grey), the pushes the seat
to move may make are shown as arrows in its colour around the board (a blocked end: a dim
``×``) and the last move's line is highlighted. Input is read line by line from a text
stream (stdin by default), so a game can be scripted through a pipe.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from cambio.board import PASS, Board, BoardError, Rules, move_text
from cambio.board.rules import FROM_BOTTOM, FROM_LEFT, FROM_RIGHT, FROM_TOP
from cambio.board.setup import CHANCE, GLYPHS, SYMBOLS, Setup, quick_setup
from cambio.bots.board import BoardBot, make_bot
from cambio.records.board import Result, record_text

COLOURS = ("bold red", "bold dodger_blue1", "bold green3")
NEUTRAL_STYLE = "grey50"
HUMAN = "human"

HELP = """\
A move is the cell where your die goes in and the direction it pushes:
  a3>  push row 3 in from the left (the die on the right end leaves)
  e3<  from the right     c1^  column c up from the bottom     c5v  down from the top
Only neutral dice or your own may leave the board. Other commands:
  moves  list your legal moves     undo  take back your last move
  board  draw the board again      help  this text      quit  leave the game"""


def glyph(board: Board, cell: int) -> str:
    if board.faces is not None:
        return GLYPHS[board.faces[cell]]
    seat = board.cell(cell)
    return GLYPHS[board.symbols[seat]] if seat >= 0 else "·"


def seat_label(board: Board, seat: int) -> Text:
    sym = board.symbols[seat]
    return Text(f"seat {seat} {GLYPHS[sym]} {SYMBOLS[sym]}", style=COLOURS[seat])


def render(board: Board, last: int | None = None, show_moves: bool = True) -> Group:
    """The board with coordinates, the legal pushes of the seat to move as arrows around it,
    and the last move's line highlighted."""
    g = board.g
    n = g.n
    legal = set(board.legal_moves()) if show_moves else set()
    hot = g.line_of[last] if last is not None and last != PASS else 0
    entry = g.entry[last] if last is not None and last != PASS else 0
    arrow_style = COLOURS[board.turn] if board.outcome is None else "dim"

    def arrow(move: int, char: str) -> Text:
        if move in legal:
            return Text(char, style=arrow_style)
        return Text("×", style="dim") if show_moves else Text(" ")

    files = Text("     " + "".join(f" {chr(ord('a') + c)}  " for c in range(n)), style="dim")
    rows: list[Text] = [files]
    top = Text("     ")
    for c in range(n):
        top += Text(" ") + arrow(FROM_TOP * n + c, "v") + Text("  ")
    rows.append(top)
    for r in range(n - 1, -1, -1):
        line = Text(f"{r + 1:>2} ", style="dim")
        line += arrow(FROM_LEFT * n + r, ">")
        line += Text(" ")
        for c in range(n):
            cell = r * n + c
            seat = board.cell(cell)
            style = COLOURS[seat] if seat >= 0 else NEUTRAL_STYLE
            if hot >> cell & 1:
                style += " on grey23"
            if entry >> cell & 1:
                style += " underline"
            line += Text(f" {glyph(board, cell)} ", style=style) + Text(" ")
        line += arrow(FROM_RIGHT * n + r, "<")
        line += Text(f" {r + 1}", style="dim")
        rows.append(line)
    bottom = Text("     ")
    for c in range(n):
        bottom += Text(" ") + arrow(FROM_BOTTOM * n + c, "^") + Text("  ")
    rows.append(bottom)
    rows.append(files)
    return Group(*rows)


def status(board: Board, last: int | None) -> Text:
    out = Text()
    for seat in range(board.rules.players):
        if seat:
            out += Text("   ")
        out += seat_label(board, seat) + Text(f" ({board.counts()[seat]} dice)")
    out += Text(f"\nply {board.ply}")
    if last is not None:
        mover = (board.turn - 1) % board.rules.players
        out += Text(f", last move {move_text(last, board.n)} by ") + seat_label(board, mover)
    if board.outcome is not None:
        out += Text("\n" + board.outcome.text(), style="bold")
    else:
        out += Text("\nto move: ") + seat_label(board, board.turn)
    return out


def show_record(result: Result, console: Console) -> None:
    """A replayed record for ``cambio replay``: the moves by round, then the final board.

    It lives here, not in the records layer, so that records never depend on the terminal.
    """
    board = result.board
    last = board.move_stack[-1] if board.move_stack else None
    moves = Table(title="moves", show_header=True)
    moves.add_column("round", justify="right")
    for seat in range(board.rules.players):
        moves.add_column(f"seat {seat}")
    row: list[str] = ["1"]
    for ev in (e for e in result.events if "move" in e):
        row.append(str(ev["move"]))
        if len(row) == board.rules.players + 1:
            moves.add_row(*row)
            row = [str(moves.row_count + 1)]
    if len(row) > 1:
        moves.add_row(*row, *[""] * (board.rules.players + 1 - len(row)))
    console.print(Group(f"start {board.start}", moves, render(board, last, show_moves=False),
                        status(board, last)))


@dataclass
class TerminalOptions:
    rules: Rules = field(default_factory=Rules)
    seats: Sequence[str] = (HUMAN, "alphabeta")
    """``"human"`` or a bot spec per seat; several humans play hot-seat."""
    seed: int = 0
    full_setup: bool = False
    record: Path | None = None


def run_terminal(options: TerminalOptions, console: Console | None = None,
                 stream: TextIO | None = None) -> Board | None:
    """Play one game in the terminal; return the final board (``None`` if a human quit)."""
    console = console if console is not None else Console()
    stream = stream if stream is not None else sys.stdin
    rules = options.rules
    if len(options.seats) != rules.players:
        raise ValueError(f"{rules.players} players need {rules.players} seats")
    bots: list[BoardBot | None] = [
        None if s == HUMAN else make_bot(s, rules, seed=options.seed * 31 + i)
        for i, s in enumerate(options.seats)]
    read = _reader(console, stream)
    setup_history: list[str] = []
    if options.full_setup:
        result = _setup(rules, bots, options.seed, console, read)
        if result is None:
            return None
        board, setup_history = result.board(), list(result.history)
    else:
        board = quick_setup(rules, options.seed)
    console.print(Text("Cambio -- push your symbol in, make a line of "
                       f"{rules.line}.", style="bold"), "Type 'help' for how to move.")
    last: int | None = None
    recent: list[Text] = []
    while board.outcome is None:
        bot = bots[board.turn]
        if bot is not None:
            move = bot.choose(board.copy())
            recent.append(seat_label(board, board.turn) + Text(f" plays {board.move_text(move)}"))
            board.play(move)
            last = move
            continue
        if len(recent) > 1:
            console.print(Text("; ").join(recent))
        recent.clear()
        console.print(render(board, last))
        console.print(status(board, last))
        played, last = _human_move(board, bots, last, console, read)
        if not played:
            console.print("Game left unfinished.")
            return None
    if len(recent) > 1:
        console.print(Text("; ").join(recent))
    console.print(render(board, last, show_moves=False))
    console.print(status(board, last))
    if options.record is not None:
        options.record.write_text(record_text(board, seats=list(options.seats),
                                              seed=options.seed, setup=setup_history),
                                  encoding="utf-8")
        console.print(f"Record written to {options.record}")
    return board


def _human_move(board: Board, bots: Sequence[BoardBot | None], last: int | None,
                console: Console, read: Callable[[Text], str | None]) -> tuple[bool, int | None]:
    """Read commands until the human moves (or takes moves back): ``(False, _)`` if they
    quit, else ``(True, the last move now on the board)``."""
    while True:
        line = read(Text("your move: ", style=COLOURS[board.turn]))
        if line is None or line in ("quit", "q", "exit"):
            return False, last
        if line in ("help", "?", "h"):
            console.print(HELP)
        elif line == "moves":
            console.print(" ".join(board.move_text(m) for m in board.legal_moves()))
        elif line == "board":
            console.print(render(board, last))
        elif line == "undo":
            if _undo(board, bots):
                return True, board.move_stack[-1] if board.move_stack else None
            console.print("Nothing of yours to take back.")
        elif line:
            try:
                return True, board.play(line)
            except BoardError as exc:
                console.print(Text(str(exc), style="yellow"))


def _undo(board: Board, bots: Sequence[BoardBot | None]) -> bool:
    """Take back moves until it is again a human's turn before their last move."""
    if not any(b is None for b in bots[: board.rules.players]) or not board.move_stack:
        return False
    taken = []
    while board.move_stack:
        taken.append(board.pop())
        if bots[board.turn] is None:
            return True
    for m in reversed(taken):
        board.push(m)
    return False


def _setup(rules: Rules, bots: Sequence[BoardBot | None], seed: int, console: Console,
           read: Callable[[Text], str | None]) -> Setup | None:
    from random import Random

    setup = Setup(rules)
    rng = Random(seed)
    while not setup.is_done():
        seat = setup.current_player()
        if seat == CHANCE:
            step = setup.sample(rng)
            setup.apply(step)
            console.print(Text(f"  {step}", style="dim"))
            continue
        bot = bots[seat]
        if bot is not None:
            step = bot.setup_choice(setup)
            setup.apply(step)
            console.print(Text(f"  seat {seat}: {step}", style="dim"))
            continue
        target = setup.adjusting
        preview = Board(rules, _position(setup), faces=setup.faces,
                        symbols=tuple(setup.symbols))
        console.print(render(preview, show_moves=False))
        console.print(f"Setup: you (seat {seat}) adjust seat {target}'s dice to "
                      f"{setup.target(target)}. Choose one of:")
        console.print("  " + ", ".join(setup.legal_actions()))
        while True:
            line = read(Text("setup: ", style=COLOURS[seat]))
            if line is None or line in ("quit", "q"):
                return None
            try:
                setup.apply(line)
                break
            except BoardError as exc:
                console.print(Text(str(exc), style="yellow"))
    return setup


def _position(setup: Setup) -> str:
    from cambio.board.state import position_string

    return position_string(tuple(setup.owners), 0, setup.g.n, 0)


def _reader(console: Console, stream: TextIO) -> Callable[[Text], str | None]:
    def read(prompt: Text) -> str | None:
        console.print(prompt, end="")
        line = stream.readline()
        if not line:
            console.print()
            return None
        if not stream.isatty():
            console.print(line.rstrip("\n"))
        return line.strip().lower()

    return read
