"""One game in progress: :class:`Board`, with checked and unchecked moves and undo.

Shaped after python-chess: :meth:`Board.push` applies a move without checking it (search
and simulation), :meth:`Board.play` parses and checks and raises :class:`IllegalMoveError`
leaving the board untouched (people, records, the network), :meth:`Board.pop` undoes.
:attr:`Board.outcome` is a value, ``None`` while the game goes on.

Position strings (like chess's FEN) are the rows from the top rank down, separated by
``/``; ``x``, ``o``, ``s`` are the dice of seats 0, 1, 2 and a digit is a run of neutral
dice; then the seat to move and, optionally, the number of plies played::

    1o1x1/x3o/5/o2x1/1x1o1 x 0
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .bitboard import Owners, can_move, completed, judge, legal_pushes, position_key, push
from .errors import IllegalMoveError, InvalidMoveError, PositionError
from .notation import move_text, parse_move
from .rules import PASS, Geometry, Rules, geometry

SEAT_LETTERS = "xos"
NEUTRAL = -1


class Termination(Enum):
    """Why a game ended."""

    LINE = "line"
    REPETITION = "repetition"
    MOVE_CAP = "move_cap"
    NO_MOVES = "no_moves"


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winners`` is empty for a draw; two seats for a tie."""

    termination: Termination
    winners: tuple[int, ...]

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def text(self) -> str:
        if not self.winners:
            return f"draw ({self.termination.value.replace('_', ' ')})"
        who = " and ".join(f"seat {w}" for w in self.winners)
        return f"{who} {'win' if len(self.winners) > 1 else 'wins'} (line)"


@dataclass(frozen=True)
class _Undo:
    owners: Owners
    turn: int
    outcome: Outcome | None
    faces: tuple[int, ...] | None
    key: int


class Board:
    """The cells, the seat to move, the ply count, the history and the outcome."""

    def __init__(self, rules: Rules | None = None, position: str | None = None,
                 faces: list[int] | None = None, symbols: tuple[int, ...] | None = None
                 ) -> None:
        self.rules = rules if rules is not None else Rules()
        self.g: Geometry = geometry(self.rules)
        if position is None:
            owners: Owners = (0,) * self.rules.players
            turn, ply = 0, 0
        else:
            owners, turn, ply = parse_position(position, self.rules)
        self.owners = owners
        self.turn = turn
        self.ply = ply
        self.move_stack: list[int] = []
        self._undo: list[_Undo] = []
        self._seen: dict[int, int] = {}
        self.symbols = symbols if symbols is not None else tuple(range(self.rules.players))
        self.faces = list(faces) if faces is not None else None
        if self.faces is not None and len(self.faces) != self.g.cells:
            raise PositionError(f"faces must list {self.g.cells} cells")
        self.outcome: Outcome | None = None
        self._seen[self.key()] = 1
        self.outcome = self._initial_outcome()
        self.start = self.position()
        """The position string the game started from (records replay from it)."""
        self.start_faces = tuple(self.faces) if self.faces is not None else None

    # ------------------------------------------------------------------ reading
    @property
    def n(self) -> int:
        return self.g.n

    def key(self) -> int:
        """The cells and the seat to move packed in one int (the repetition key)."""
        return position_key(self.owners, self.turn, self.g.cells)

    def cell(self, index: int) -> int:
        """The seat owning cell ``index`` (``r * n + c``), or :data:`NEUTRAL`."""
        for p, b in enumerate(self.owners):
            if b >> index & 1:
                return p
        return NEUTRAL

    def lines(self, seat: int) -> list[list[int]]:
        """Every winning window ``seat`` holds in full, as its cells in increasing order
        (``r * n + c``), the windows in the order of their cells."""
        bits = self.owners[seat]
        cells = range(self.g.cells)
        return sorted([i for i in cells if w >> i & 1] for w in self.g.lines if w & bits == w)

    def counts(self) -> list[int]:
        """How many dice each seat has on the board."""
        return [b.bit_count() for b in self.owners]

    def is_over(self) -> bool:
        return self.outcome is not None

    def legal_moves(self) -> list[int]:
        """The legal moves: the pushes whose leaving die is not another player's, or
        ``[PASS]`` when there is none; ``[]`` once the game is over."""
        if self.outcome is not None:
            return []
        moves = legal_pushes(self.owners, self.turn, self.g)
        return moves if moves else [PASS]

    def is_legal(self, move: int) -> bool:
        return move in self.legal_moves()

    def repetitions(self) -> int:
        """How many times the current position (cells and seat to move) has occurred."""
        return self._seen.get(self.key(), 0)

    def seen(self, key: int) -> int:
        """How many times the position with this :meth:`key` has occurred in this game."""
        return self._seen.get(key, 0)

    def move_text(self, move: int) -> str:
        return move_text(move, self.n)

    def position(self) -> str:
        return position_string(self.owners, self.turn, self.n, self.ply)

    def __repr__(self) -> str:
        return f"Board({self.position()!r})"

    def __str__(self) -> str:
        n = self.n
        rows = []
        for r in range(n - 1, -1, -1):
            cells = []
            for c in range(n):
                p = self.cell(r * n + c)
                cells.append("." if p == NEUTRAL else SEAT_LETTERS[p])
            rows.append(f"{r + 1} " + " ".join(cells))
        rows.append("  " + " ".join(chr(ord("a") + c) for c in range(n)))
        return "\n".join(rows)

    # ------------------------------------------------------------------ moving
    def push(self, move: int) -> None:
        """Play ``move`` without checking it (see :meth:`play` for the checked entry)."""
        g = self.g
        before = self.key()
        mover = self.turn
        faces = tuple(self.faces) if self.faces is not None else None
        self._undo.append(_Undo(self.owners, mover, self.outcome, faces, before))
        self.move_stack.append(move)
        owners = push(self.owners, move, mover, g)
        if self.faces is not None and move != PASS:
            order = g.order[move]
            f = self.faces
            for i in range(len(order) - 1, 0, -1):
                f[order[i]] = f[order[i - 1]]
            f[order[0]] = self.symbols[mover]
        self.owners = owners
        self.turn = (mover + 1) % self.rules.players
        self.ply += 1
        key = self.key()
        seen = self._seen.get(key, 0) + 1
        self._seen[key] = seen
        lines = completed(owners, g, move)
        if lines:
            self.outcome = Outcome(Termination.LINE, judge(lines, mover, self.rules.other_line))
        elif seen >= self.rules.repetitions:
            self.outcome = Outcome(Termination.REPETITION, ())
        elif self.ply >= self.rules.max_plies:
            self.outcome = Outcome(Termination.MOVE_CAP, ())
        elif self._nobody_can_move():
            self.outcome = Outcome(Termination.NO_MOVES, ())

    def pop(self) -> int:
        """Undo the last move and return it. Raises ``IndexError`` if there is none."""
        undo = self._undo.pop()
        move = self.move_stack.pop()
        key = self.key()
        left = self._seen[key] - 1
        if left:
            self._seen[key] = left
        else:
            del self._seen[key]
        self.owners = undo.owners
        self.turn = undo.turn
        self.outcome = undo.outcome
        self.ply -= 1
        if undo.faces is not None:
            self.faces = list(undo.faces)
        return move

    def parse(self, text: str) -> int:
        """Read a move's text and check it is legal here (nothing is played)."""
        move = parse_move(text, self.n)
        self._check(move, text)
        return move

    def play(self, move: int | str) -> int:
        """Check and play a move given as a code or as text; return its code.

        Raises :class:`InvalidMoveError` (unreadable) or :class:`IllegalMoveError` (not
        legal now); the board is unchanged when it raises.
        """
        if isinstance(move, str):
            code = parse_move(move, self.n)
            text = move
        else:
            code = move
            if code != PASS and not 0 <= code < self.g.num_moves:
                raise InvalidMoveError(f"no move {code} on a {self.n}x{self.n} board")
            text = move_text(code, self.n)
        self._check(code, text)
        self.push(code)
        return code

    def _check(self, move: int, text: str) -> None:
        if self.outcome is not None:
            raise IllegalMoveError(text, f"the game is over: {self.outcome.text()}")
        legal = self.legal_moves()
        if move in legal:
            return
        if move == PASS:
            raise IllegalMoveError(text, "a pass is only legal when no push is")
        leaving = self.cell(self.g.leave[move].bit_length() - 1)
        raise IllegalMoveError(
            text, f"it would push seat {leaving}'s die off the board "
                  f"(only neutral dice or your own may leave)")

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.rules = self.rules
        other.g = self.g
        other.owners = self.owners
        other.turn = self.turn
        other.ply = self.ply
        other.move_stack = list(self.move_stack)
        other._undo = list(self._undo)
        other._seen = dict(self._seen)
        other.symbols = self.symbols
        other.faces = list(self.faces) if self.faces is not None else None
        other.outcome = self.outcome
        other.start = self.start
        other.start_faces = self.start_faces
        return other

    # ------------------------------------------------------------------ outcome
    def _nobody_can_move(self) -> bool:
        return not any(can_move(self.owners, p, self.g) for p in range(self.rules.players))

    def _initial_outcome(self) -> Outcome | None:
        """A position handed in with a line on it is judged as if the previous seat's move
        had made it; one where nobody can push is a draw."""
        lines = completed(self.owners, self.g)
        if lines:
            previous = (self.turn - 1) % self.rules.players
            return Outcome(Termination.LINE, judge(lines, previous, self.rules.other_line))
        if self.ply >= self.rules.max_plies:
            return Outcome(Termination.MOVE_CAP, ())
        if self._nobody_can_move():
            return Outcome(Termination.NO_MOVES, ())
        return None


def position_string(owners: Owners, turn: int, n: int, ply: int | None = None) -> str:
    rows = []
    for r in range(n - 1, -1, -1):
        out = []
        run = 0
        for c in range(n):
            bit = 1 << (r * n + c)
            seat = next((p for p, b in enumerate(owners) if b & bit), NEUTRAL)
            if seat == NEUTRAL:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(SEAT_LETTERS[seat])
        if run:
            out.append(str(run))
        rows.append("".join(out))
    text = "/".join(rows) + " " + SEAT_LETTERS[turn]
    return text if ply is None else f"{text} {ply}"


def parse_position(text: str, rules: Rules) -> tuple[Owners, int, int]:
    """Read a position string for ``rules``: ``(owners, seat to move, plies played)``.

    Raises :class:`PositionError` naming what is wrong.
    """
    n = rules.size
    players = rules.players
    fields = text.split()
    if len(fields) not in (2, 3):
        raise PositionError(f"{text!r}: expected '<rows> <seat to move> [<plies>]'")
    rows = fields[0].split("/")
    if len(rows) != n:
        raise PositionError(f"{text!r}: {len(rows)} rows, a {n}x{n} board has {n}")
    letters = SEAT_LETTERS[:players]
    owners = [0] * players
    for i, row in enumerate(rows):
        r = n - 1 - i
        c = 0
        for ch in row:
            if "0" <= ch <= "9":
                run = int(ch)
                if run == 0:
                    raise PositionError(f"{text!r}: a run of neutral dice cannot be 0")
                c += run
            elif ch == ".":
                c += 1
            elif ch in letters:
                if c < n:
                    owners[letters.index(ch)] |= 1 << (r * n + c)
                c += 1
            else:
                raise PositionError(f"{text!r}: {ch!r} is not a seat letter "
                                    f"({', '.join(letters)}), '.' or a digit")
            if c > n:
                break
        if c != n:
            raise PositionError(f"{text!r}: row {row!r} has {c} cells, not {n}")
    if fields[1] not in letters:
        raise PositionError(f"{text!r}: the seat to move must be one of {', '.join(letters)}")
    turn = letters.index(fields[1])
    ply = 0
    if len(fields) == 3:
        if not (fields[2].isascii() and fields[2].isdigit()):
            raise PositionError(f"{text!r}: the ply count must be a whole number")
        ply = int(fields[2])
    return tuple(owners), turn, ply
