"""Board-game records: write, replay (validate), export. See ``docs/records-board.md``.

The header holds the rules and the starting position (plus, for display, the dice faces
and the seats' symbols); the events are the setup steps, if the published setup was
played, then one event per move, then an optional end event. Replay recomputes everything
through the engine and checks every move and the stated end. The board game has no hidden
information, so the full record and any seat's export are the same text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cambio.board import Board, BoardError, Rules
from cambio.board.setup import SYMBOLS, Setup, faces_text, parse_faces

from .jsonl import FORMAT, VERSION, Record, RecordError, dump_record

HEADER_KEYS = {"format", "version", "game", "rules", "players", "seed", "start", "faces",
               "symbols", "setup"}
MOVE_KEYS = {"seat", "move"}
END_KEYS = {"end", "winners"}


@dataclass
class Result:
    """A replayed record: the header, the final board and the events as checked."""

    header: dict[str, Any]
    board: Board
    events: list[dict[str, Any]] = field(default_factory=list)
    setup: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        b = self.board
        out = b.outcome
        return {
            "game": "board",
            "validated": True,
            "rules": b.rules.to_json(),
            "players": b.rules.players,
            "start": b.start,
            "final": b.position(),
            "over": out is not None,
            "outcome": out.termination.value if out is not None else None,
            "winners": list(out.winners) if out is not None else [],
            "dice": b.counts(),
            "moves": len(b.move_stack),
            "setup_steps": len(self.setup),
        }


# ====================================================================== writing
def make_header(board: Board, seats: list[str] | None = None, seed: int | None = None,
                setup: bool = False) -> dict[str, Any]:
    header: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": "board",
                              "rules": board.rules.to_json()}
    if seats is not None:
        header["players"] = seats
    if seed is not None:
        header["seed"] = seed
    header["setup"] = "full" if setup else "quick"
    header["start"] = board.start
    if board.start_faces is not None:
        header["faces"] = faces_text(board.start_faces, board.n)
    header["symbols"] = [SYMBOLS[s] for s in board.symbols]
    return header


def events_of(board: Board, setup: list[str] | None = None) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [{"setup": step} for step in setup or []]
    replay = Board(board.rules, board.start)
    for move in board.move_stack:
        events.append({"seat": replay.turn, "move": replay.move_text(move)})
        replay.push(move)
    if board.outcome is not None:
        events.append({"end": board.outcome.termination.value,
                       "winners": list(board.outcome.winners)})
    return events


def record_text(board: Board, seats: list[str] | None = None, seed: int | None = None,
                setup: list[str] | None = None) -> str:
    """The record of ``board``'s game so far (from its start), with its setup steps."""
    return dump_record(make_header(board, seats, seed, bool(setup)), events_of(board, setup))


def setup_record(rules: Rules, seats: list[str] | None, seed: int | None,
                 steps: list[str]) -> str:
    """The record of a published setup still being chosen: its steps so far (no start
    position exists yet)."""
    header: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": "board",
                              "rules": rules.to_json(), "players": seats}
    if seed is not None:
        header["seed"] = seed
    header["setup"] = "full"
    return dump_record(header, [{"setup": step} for step in steps])


# ====================================================================== replay
Line = tuple[int, dict[str, Any]]
"""An event with its line number in the record (for the error messages)."""


def replay(record: Record) -> Result:
    """Replay a record through the engine; raise :class:`RecordError` at the first problem."""
    h = record.header
    rules, symbols, faces = _header(h)
    events: list[Line] = list(zip(record.lines, record.events, strict=True))
    setup_steps, setup_board = _replay_setup(rules, events)
    board = _start_board(h, rules, symbols, faces, setup_board)
    checked = _replay_moves(board, events[len(setup_steps):], events)
    return Result(dict(h), board, checked, setup_steps)


def _header(h: dict[str, Any]) -> tuple[Rules, tuple[int, ...] | None, list[int] | None]:
    """The header's rules, symbols and faces, checked."""
    unknown = set(h) - HEADER_KEYS
    if unknown:
        raise RecordError(1, f"unknown header key(s): {', '.join(sorted(unknown))}")
    try:
        rules = Rules.from_json(h.get("rules", {}))
    except BoardError as exc:
        raise RecordError(1, f"bad rules: {exc}") from None
    players = h.get("players")
    if players is not None and (not isinstance(players, list) or len(players) != rules.players
                                or not all(isinstance(p, str) for p in players)):
        raise RecordError(1, f"\"players\" must list {rules.players} names")
    symbols = _symbols(h.get("symbols"), rules)
    faces: list[int] | None = None
    if h.get("faces") is not None:
        if not isinstance(h["faces"], str):
            raise RecordError(1, "\"faces\" must be a string")
        try:
            faces = parse_faces(h["faces"], rules.size)
        except BoardError as exc:
            raise RecordError(1, str(exc)) from None
    return rules, symbols, faces


def _replay_setup(rules: Rules, events: list[Line]) -> tuple[list[str], Board | None]:
    """The leading setup steps played through :class:`Setup`, and the board they set up
    (``None`` when the record starts with no setup steps)."""
    steps: list[str] = []
    if not events or "setup" not in events[0][1]:
        return steps, None
    try:
        setup = Setup(rules)
    except BoardError as exc:
        raise RecordError(events[0][0], str(exc)) from None
    for line, ev in events:
        if "setup" not in ev:
            break
        if set(ev) != {"setup"} or not isinstance(ev["setup"], str):
            raise RecordError(line, "a setup event is {\"setup\": \"<step>\"}")
        try:
            setup.apply(ev["setup"])
        except BoardError as exc:
            raise RecordError(line, str(exc)) from None
        steps.append(ev["setup"])
    if not setup.is_done():
        raise RecordError(events[len(steps) - 1][0],
                          "the setup steps stop before the setup is done")
    return steps, setup.board()


def _start_board(h: dict[str, Any], rules: Rules, symbols: tuple[int, ...] | None,
                 faces: list[int] | None, setup_board: Board | None) -> Board:
    """The board the moves start from: the header's start, which the setup steps (if any)
    must lead to."""
    start = h.get("start")
    if start is None:
        if setup_board is None:
            raise RecordError(1, "the header needs \"start\" (or the record the setup steps)")
        return setup_board
    if not isinstance(start, str):
        raise RecordError(1, "\"start\" must be a position string")
    if setup_board is not None:
        faces = faces if faces is not None else setup_board.faces
        symbols = symbols if symbols is not None else setup_board.symbols
    try:
        board = Board(rules, start, faces=faces, symbols=symbols)
    except BoardError as exc:
        raise RecordError(1, f"bad start position: {exc}") from None
    if setup_board is not None and setup_board.position() != board.position():
        raise RecordError(1, f"the setup steps lead to {setup_board.position()!r}, "
                             f"not the header's start {start!r}")
    return board


def _replay_moves(board: Board, moves: list[Line], events: list[Line]
                  ) -> list[dict[str, Any]]:
    """Play the move events (and check the end event) on ``board``; the events checked."""
    checked: list[dict[str, Any]] = []
    for line, ev in moves:
        if "end" in ev:
            _check_end(board, ev, line)
            checked.append(ev)
            if (line, ev) != events[-1]:
                raise RecordError(line, "the end event must be the last line")
            break
        _play_move(board, line, ev)
        checked.append(ev)
    return checked


def _play_move(board: Board, line: int, ev: dict[str, Any]) -> None:
    if set(ev) != MOVE_KEYS:
        raise RecordError(line, "a move event is {\"seat\": <seat>, \"move\": \"<move>\"}")
    seat, text = ev["seat"], ev["move"]
    if not isinstance(text, str) or not isinstance(seat, int) or isinstance(seat, bool):
        raise RecordError(line, "\"seat\" must be an integer and \"move\" a string")
    if board.outcome is not None:
        raise RecordError(line, f"a move after the end of the game ({board.outcome.text()})")
    if seat != board.turn:
        raise RecordError(line, f"seat {seat} moves, but it is seat {board.turn}'s turn")
    try:
        board.play(text)
    except BoardError as exc:
        raise RecordError(line, str(exc)) from None


def _symbols(value: Any, rules: Rules) -> tuple[int, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != rules.players \
            or not all(isinstance(s, str) and s in SYMBOLS for s in value) \
            or len(set(value)) != len(value):
        raise RecordError(1, f"\"symbols\" must list {rules.players} different symbols "
                             f"from {', '.join(SYMBOLS)}")
    return tuple(SYMBOLS.index(s) for s in value)


def _check_end(board: Board, ev: dict[str, Any], line: int) -> None:
    if set(ev) != END_KEYS:
        raise RecordError(line, "an end event is {\"end\": <reason>, \"winners\": [seats]}")
    if board.outcome is None:
        raise RecordError(line, f"the record says the game ended ({ev['end']}) "
                                "but the game is not over")
    stated = (ev["end"], ev["winners"])
    actual = (board.outcome.termination.value, list(board.outcome.winners))
    if stated != actual:
        raise RecordError(line, f"the record says {stated[0]} with winners {stated[1]}, "
                                f"the game ended by {actual[0]} with winners {actual[1]}")


# ====================================================================== export
def export(result: Result, seat: int | None) -> str:
    """The record text. Nothing in the board game is hidden, so every seat sees it all."""
    return dump_record(dict(result.header), events_of(result.board, result.setup))


__all__ = ["Result", "events_of", "export", "make_header", "record_text", "replay",
           "setup_record"]
