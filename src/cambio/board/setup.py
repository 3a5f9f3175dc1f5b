"""Setting up the board: the published procedure step by step, and a quick seeded setup.

The full procedure (seed 000, SPEC Part 2) is a small state machine, :class:`Setup`, in
OpenSpiel's shape: at each step :meth:`Setup.current_player` is :data:`CHANCE` (a roll:
:meth:`Setup.sample` draws one from a seeded generator) or the seat that must choose
(:meth:`Setup.legal_actions` lists its choices). Every step is a line of text, so a list of
steps determines a setup exactly and a record can replay it:

1. ``roll <faces>`` -- the dice as rolled (one symbol digit per cell, rows from the top).
2. ``exchange <faces>`` -- the four most frequent symbols stay (ties: the lower symbol
   number); the other dice are turned to those four so each shows at least ``n*n // 5``
   times (5 on the 5x5 board).
3. ``symbol <name>`` -- one per seat in seat order: a kept symbol nobody has and that is on
   no corner (if every free symbol is on a corner, any free one; see 4).
4. (automatic) A corner showing a player's symbol is turned to a neutral symbol.
5. The *next* seat (the opponent, with 2 players) adjusts each seat's dice, in two rounds.
   First, seat by seat, ``neutral <cell>`` turns one of its dice neutral -- one in each
   row, column or diagonal holding more than 2 of them, then any until it has no more than
   its count. Then, seat by seat, ``own <cell>`` turns a neutral die (not a corner, not
   making 3 in a line) into one of its until it has its count: ``n-1`` and ``n`` with 2
   players (4 and 5), ``n-1`` each with 3. (Ruling: the printed rules adjust one player
   completely before the next; reducing everyone first means a die is never added while
   another seat's surplus still blocks the cell, which on small boards could leave no
   room. If no cell avoids making 3 in a line, any free non-corner cell may be taken.)

Neutral dice keep their faces for display; which neutral symbol a die shows never matters
to play. :func:`quick_setup` draws a start satisfying the same constraints directly.
"""

from __future__ import annotations

from collections import Counter
from random import Random

from .errors import SetupError
from .rules import Geometry, Rules, cell_name, geometry
from .state import Board

CHANCE = -1
DONE = -4
SYMBOLS = ("circle", "triangle", "square", "star", "cross", "diamond")
GLYPHS = "●▲■★✚◆"
KEPT = 4

ROLL, EXCHANGE, SYMBOL, ADJUST, FINISHED = range(5)


def faces_text(faces: list[int] | tuple[int, ...], n: int) -> str:
    """Faces as digits, rows from the top rank down separated by ``/``."""
    return "/".join("".join(str(faces[r * n + c]) for c in range(n))
                    for r in range(n - 1, -1, -1))


def parse_faces(text: str, n: int) -> list[int]:
    rows = text.split("/")
    if len(rows) != n or any(len(row) != n for row in rows):
        raise SetupError(f"{text!r}: faces are {n} rows of {n} digits separated by '/'")
    faces = [0] * (n * n)
    for i, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch not in "012345":
                raise SetupError(f"{text!r}: {ch!r} is not a symbol digit 0-5")
            faces[(n - 1 - i) * n + c] = int(ch)
    return faces


def parse_cell(text: str, n: int) -> int:
    t = text.strip().lower()
    rank = t[1:]
    if len(t) < 2 or not ("a" <= t[0] < chr(ord("a") + n)) \
            or not (rank.isascii() and rank.isdigit()) or not 1 <= int(rank) <= n:
        raise SetupError(f"{text!r} is not a cell of a {n}x{n} board")
    return (int(t[1:]) - 1) * n + ord(t[0]) - ord("a")


def over_full(bits: int, g: Geometry, most: int) -> list[int]:
    """The setup lines holding more than ``most`` of ``bits``."""
    return [ln for ln in g.setup_lines if (bits & ln).bit_count() > most]


class Setup:
    """The published setup with every roll and every choice as an action."""

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules if rules is not None else Rules()
        self.g = geometry(self.rules)
        _check_room(self.rules, self.g)
        self.phase = ROLL
        self.faces: list[int] = []
        self.kept: tuple[int, ...] = ()
        self.symbols: list[int] = []
        self.owners: list[int] = [0] * self.rules.players
        self.adjusting = 0
        self.adding = False
        """Adjusting runs in two rounds: every seat's dice are first reduced, then topped up."""
        self.history: list[str] = []

    # ------------------------------------------------------------------ reading
    @property
    def minimum(self) -> int:
        """How often each kept symbol must show after the exchange (5 on 5x5)."""
        return max(1, self.g.cells // 5)

    def current_player(self) -> int:
        if self.phase in (ROLL, EXCHANGE, SYMBOL):
            return CHANCE
        if self.phase == ADJUST:
            return (self.adjusting + 1) % self.rules.players
        return DONE

    def is_done(self) -> bool:
        return self.phase == FINISHED

    def neutral_symbol(self) -> int:
        """The face a die turned neutral shows: the lowest kept symbol nobody plays."""
        return next(s for s in self.kept if s not in self.symbols)

    def target(self, seat: int) -> int:
        return self.rules.start_counts()[seat]

    def legal_actions(self) -> list[str]:
        """The choices of the seat to choose (empty at chance steps and when done)."""
        if self.phase != ADJUST:
            return []
        n = self.g.n
        return [f"{kind} {cell_name(c, n)}" for kind, c in self._choices()]

    def _choices(self) -> list[tuple[str, int]]:
        seat = self.adjusting
        mine = self.owners[seat]
        most = self.rules.setup_max_per_line
        full = [] if self.adding else over_full(mine, self.g, most)
        cells = range(self.g.cells)
        if full:
            crowded = 0
            for ln in full:
                crowded |= ln
            return [("neutral", c) for c in cells if (mine & crowded) >> c & 1]
        if not self.adding:
            return [("neutral", c) for c in cells if mine >> c & 1]
        taken = 0
        for b in self.owners:
            taken |= b
        free = [c for c in cells if not taken >> c & 1 and not self.g.corners >> c & 1]
        ok = [c for c in free if not over_full(mine | 1 << c, self.g, most)]
        return [("own", c) for c in (ok or free)]

    # ------------------------------------------------------------------ acting
    def sample(self, rng: Random) -> str:
        """Draw the chance step (only at chance steps)."""
        n = self.g.n
        if self.phase == ROLL:
            return "roll " + faces_text([rng.randrange(6) for _ in range(self.g.cells)], n)
        if self.phase == EXCHANGE:
            return "exchange " + faces_text(self._exchange(rng), n)
        if self.phase == SYMBOL:
            return "symbol " + SYMBOLS[rng.choice(self._symbol_choices())]
        raise SetupError("no chance step now: a seat must choose")

    def random_choice(self, rng: Random) -> str:
        """A uniformly random legal step: a chance draw or one of the seat's choices."""
        if self.current_player() == CHANCE:
            return self.sample(rng)
        return rng.choice(self.legal_actions())

    def apply(self, action: str) -> None:
        """Check and apply one step; raise :class:`SetupError` (nothing changes) if it is
        malformed or not allowed now."""
        words = action.split()
        if self.phase == FINISHED:
            raise SetupError(f"{action!r}: the setup is finished")
        expected = {ROLL: "roll", EXCHANGE: "exchange", SYMBOL: "symbol"}.get(self.phase)
        verb = words[0] if words else ""
        if expected is not None and verb != expected:
            raise SetupError(f"{action!r}: the next step is '{expected} ...'")
        if expected is None and verb not in ("neutral", "own"):
            raise SetupError(f"{action!r}: the next step is 'neutral <cell>' or 'own <cell>'")
        if len(words) != 2:
            raise SetupError(f"{action!r}: expected '{verb} <argument>'")
        n = self.g.n
        arg = words[1]
        if self.phase == ROLL:
            self.faces = parse_faces(arg, n)
            self.kept = _most_frequent(self.faces)
            self.phase = EXCHANGE
        elif self.phase == EXCHANGE:
            faces = parse_faces(arg, n)
            self._check_exchange(faces)
            self.faces = faces
            self.phase = SYMBOL
        elif self.phase == SYMBOL:
            if arg not in SYMBOLS:
                raise SetupError(f"{action!r}: symbols are {', '.join(SYMBOLS)}")
            sym = SYMBOLS.index(arg)
            if sym not in self._symbol_choices():
                raise SetupError(f"{action!r}: {arg} is not on the board, is taken, "
                                 "or is on a corner while another free symbol is not")
            self.symbols.append(sym)
            if len(self.symbols) == self.rules.players:
                self._start_adjusting()
        else:
            cell = parse_cell(arg, n)
            if (verb, cell) not in self._choices():
                raise SetupError(f"{action!r} is not allowed now: choose one of "
                                 f"{', '.join(self.legal_actions())}")
            seat = self.adjusting
            if verb == "neutral":
                self.owners[seat] &= ~(1 << cell)
                self.faces[cell] = self.neutral_symbol()
            else:
                self.owners[seat] |= 1 << cell
                self.faces[cell] = self.symbols[seat]
            self._advance()
        self.history.append(action)

    def board(self) -> Board:
        """The starting position once the setup is done."""
        if self.phase != FINISHED:
            raise SetupError("the setup is not finished")
        return Board(self.rules, _position(self.owners, self.g.n), faces=self.faces,
                     symbols=tuple(self.symbols))

    # ------------------------------------------------------------------ steps
    def _exchange(self, rng: Random) -> list[int]:
        faces = list(self.faces)
        counts = Counter(f for f in faces if f in self.kept)
        movable = [i for i, f in enumerate(faces) if f not in self.kept]
        deficit = sum(max(0, self.minimum - counts[s]) for s in self.kept)
        if deficit > len(movable):
            surplus = [i for i, f in enumerate(faces)
                       if f in self.kept and counts[f] > self.minimum]
            rng.shuffle(surplus)
            for i in surplus:
                if len(movable) >= deficit:
                    break
                if counts[faces[i]] > self.minimum:
                    counts[faces[i]] -= 1
                    movable.append(i)
        rng.shuffle(movable)
        need = [s for s in self.kept for _ in range(max(0, self.minimum - counts[s]))]
        for i in movable:
            faces[i] = need.pop() if need else rng.choice(self.kept)
        return faces

    def _check_exchange(self, faces: list[int]) -> None:
        counts = Counter(faces)
        if any(f not in self.kept for f in faces):
            raise SetupError("after the exchange only the four kept symbols "
                             f"({', '.join(SYMBOLS[s] for s in self.kept)}) may show")
        if any(counts[s] < self.minimum for s in self.kept):
            raise SetupError(f"after the exchange each kept symbol must show at least "
                             f"{self.minimum} times")
        before = Counter(f for f in self.faces if f in self.kept)
        movable = sum(1 for f in self.faces if f not in self.kept)
        deficit = sum(max(0, self.minimum - before[s]) for s in self.kept)
        if deficit <= movable and any(a != b for a, b in zip(self.faces, faces, strict=True)
                                      if a in self.kept):
            raise SetupError("the exchange may only turn dice showing the other symbols")

    def _symbol_choices(self) -> list[int]:
        n = self.g.n
        corners = {self.faces[c] for c in (0, n - 1, n * (n - 1), n * n - 1)}
        free = [s for s in self.kept if s not in self.symbols]
        clear = [s for s in free if s not in corners]
        return clear or free

    def _start_adjusting(self) -> None:
        corners = (0, self.g.n - 1, self.g.n * (self.g.n - 1), self.g.cells - 1)
        neutral = self.neutral_symbol()
        for c in corners:
            if self.faces[c] in self.symbols:
                self.faces[c] = neutral
        for seat, sym in enumerate(self.symbols):
            self.owners[seat] = sum(1 << i for i, f in enumerate(self.faces) if f == sym)
        self.phase = ADJUST
        self.adjusting = 0
        self._advance()

    def _advance(self) -> None:
        """Move on past every seat whose dice already satisfy the constraints."""
        most = self.rules.setup_max_per_line
        while True:
            if self.adjusting == self.rules.players:
                if self.adding:
                    self.phase = FINISHED
                    return
                self.adding = True
                self.adjusting = 0
            seat = self.adjusting
            mine = self.owners[seat]
            if self.adding:
                done = mine.bit_count() >= self.target(seat)
            else:
                done = not over_full(mine, self.g, most) and mine.bit_count() <= self.target(seat)
            if not done:
                return
            self.adjusting += 1


def _check_room(rules: Rules, g: Geometry) -> None:
    room = g.cells - g.corners.bit_count()
    if sum(rules.start_counts()) > room:
        raise SetupError(f"{rules.players} players need {sum(rules.start_counts())} dice off "
                         f"the corners; a {g.n}x{g.n} board has {room} such cells")


def _most_frequent(faces: list[int]) -> tuple[int, ...]:
    counts = Counter(faces)
    return tuple(sorted(sorted(range(6), key=lambda s: (-counts[s], s))[:KEPT]))


def _position(owners: list[int], n: int) -> str:
    from .state import position_string

    return position_string(tuple(owners), 0, n, 0)


def full_setup(rules: Rules | None = None, seed: int = 0) -> Setup:
    """Run the published setup with seeded rolls and seeded random choices."""
    setup = Setup(rules)
    rng = Random(seed)
    while not setup.is_done():
        setup.apply(setup.random_choice(rng))
    return setup


def quick_setup(rules: Rules | None = None, seed: int = 0) -> Board:
    """A seeded start with the published constraints, drawn directly: each seat's count of
    dice, at most ``setup_max_per_line`` in any row, column or diagonal, none on a corner;
    the neutral dice show the symbols nobody plays."""
    rules = rules if rules is not None else Rules()
    g = geometry(rules)
    _check_room(rules, g)
    rng = Random(seed)
    symbols = rng.sample(range(6), rules.players)
    neutral = [s for s in range(6) if s not in symbols]
    allowed = [c for c in range(g.cells) if not g.corners >> c & 1]
    for _ in range(10_000):
        owners = [0] * rules.players
        taken = 0
        ok = True
        for seat, count in enumerate(rules.start_counts()):
            for _ in range(count):
                options = [c for c in allowed if not taken >> c & 1
                           and not over_full(owners[seat] | 1 << c, g,
                                             rules.setup_max_per_line)]
                if not options:
                    ok = False
                    break
                c = rng.choice(options)
                owners[seat] |= 1 << c
                taken |= 1 << c
            if not ok:
                break
        if ok:
            faces = [rng.choice(neutral) for _ in range(g.cells)]
            for seat, b in enumerate(owners):
                for c in range(g.cells):
                    if b >> c & 1:
                        faces[c] = symbols[seat]
            return Board(rules, _position(owners, g.n), faces=faces, symbols=tuple(symbols))
    raise SetupError("no start satisfies these constraints")  # pragma: no cover
