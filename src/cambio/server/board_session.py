"""A board table's game: the dice board game, with the quick or the full (published) setup.

The full setup's rolls are chance steps drawn from the game's seed when the game is dealt, so
they are not actions; the opponents' choices that follow (``neutral c3``, ``own b2``) are
actions of the seat that chooses, like moves. The board game has no hidden information:
every seat and every spectator gets the same view, except for ``seat`` and ``legal``.
"""

from __future__ import annotations

from random import Random
from typing import Any

from cambio.board import Board, BoardError, Rules
from cambio.board.setup import CHANCE, SYMBOLS, Setup, faces_text, quick_setup
from cambio.board.state import position_string
from cambio.bots.board import BoardBot, make_bot
from cambio.records.board import record_text
from cambio.records.jsonl import FORMAT, VERSION, dump_record

from .errors import ILLEGAL, STALE, ProtocolError
from .session import Applied, DrivenBot, SeatBot


class BoardSession:
    """One board game at a table (one "round")."""

    game = "board"
    threaded_bots = True
    """Search bots take tens of milliseconds a move: the table runs them off the loop."""

    def __init__(self, rules: Rules, setup_mode: str, seed: int, match_id: str) -> None:
        self.rules = rules
        self.players = rules.players
        self.setup_mode = setup_mode
        self.seed = seed
        self.match_id = match_id
        self.setup: Setup | None = None
        self.board: Board | None = None
        self.round_no = 0
        self.log: list[Applied] = []

    @property
    def version(self) -> int:
        return len(self.log)

    # ------------------------------------------------------------------ the game
    def next_header(self, names: list[dict[str, Any]], started: str) -> dict[str, Any]:
        return {"game": "board", "rules": self.rules.to_json(),
                "players": [str(p["name"]) for p in names], "seed": self.seed,
                "setup": self.setup_mode, "match": {"id": self.match_id, "round": 1},
                "started": started}

    def deal(self, header: dict[str, Any]) -> None:
        self.log = []
        self.round_no = 1
        if self.setup_mode == "quick":
            self.setup = None
            self.board = quick_setup(self.rules, seed=self.seed)
            return
        setup = Setup(self.rules)
        rng = Random(self.seed)
        while not setup.is_done() and setup.current_player() == CHANCE:
            setup.apply(setup.sample(rng))
        self.setup = setup
        self.board = setup.board() if setup.is_done() else None

    def round_over(self) -> bool:
        return (self.board is None and self.setup is None) or (
            self.board is not None and self.board.outcome is not None)

    def finish_round(self) -> None:
        pass

    def game_over(self) -> bool:
        return self.board is not None and self.board.outcome is not None

    def totals(self) -> list[int] | None:
        return None

    def result(self) -> dict[str, Any]:
        out = self.board.outcome if self.board is not None else None
        return {"scores": [], "totals": None,
                "winners": list(out.winners) if out is not None else None}

    def in_setup(self) -> bool:
        return self.board is None and self.setup is not None

    # ------------------------------------------------------------------ acting
    def play(self, seat: int, text: str, version: int) -> Applied:
        now = self.version
        if version != now:
            raise ProtocolError(STALE, f"the current version is {now}")
        move = " ".join(text.split()).lower()
        try:
            if self.in_setup():
                assert self.setup is not None
                chooser = self.setup.current_player()
                if seat != chooser:
                    raise ProtocolError(ILLEGAL, f"it is seat {chooser}'s setup choice")
                self.setup.apply(move)
                if self.setup.is_done():
                    self.board = self.setup.board()
            else:
                board = self.board
                if board is None or board.outcome is not None:
                    raise ProtocolError(ILLEGAL, "the game is over")
                if seat != board.turn:
                    raise ProtocolError(ILLEGAL, f"it is seat {board.turn}'s move")
                move = board.move_text(board.play(move))
        except BoardError as exc:
            raise ProtocolError(ILLEGAL, str(exc)) from None
        end = None
        if self.board is not None and self.board.outcome is not None:
            out = self.board.outcome
            end = {"termination": out.termination.value, "winners": list(out.winners)}
        applied = Applied(now + 1, seat, move, [], end)
        self.log.append(applied)
        return applied

    # ------------------------------------------------------------------ views
    def decider(self) -> int | None:
        if self.in_setup():
            assert self.setup is not None
            return self.setup.current_player()
        board = self.board
        if board is None or board.outcome is not None:
            return None
        return board.turn

    def legal(self, seat: int | None) -> list[str]:
        if seat is None or seat != self.decider():
            return []
        if self.in_setup():
            assert self.setup is not None
            return self.setup.legal_actions()
        assert self.board is not None
        return [self.board.move_text(m) for m in self.board.legal_moves()]

    def view(self, seat: int | None) -> dict[str, Any]:
        n = self.rules.size
        last = next((a.text for a in reversed(self.log)
                     if a.text == "pass" or a.text[-1] in "<>^v"), None)
        out: dict[str, Any] = {"game": "board", "seat": seat, "players": self.players,
                               "rules": self.rules.to_json(), "actor": self.decider(),
                               "legal": self.legal(seat), "last": last}
        if self.in_setup():
            setup = self.setup
            assert setup is not None
            out.update({
                "phase": "setup",
                "position": position_string(tuple(setup.owners), 0, n, 0),
                "turn": 0, "ply": 0,
                "faces": faces_text(setup.faces, n) if setup.faces else None,
                "symbols": [SYMBOLS[s] for s in setup.symbols],
                "setup": {"adjusting": setup.adjusting, "adding": setup.adding,
                          "chooser": setup.current_player(),
                          "targets": list(self.rules.start_counts())},
                "outcome": None, "winners": None,
            })
            return out
        board = self.board
        assert board is not None
        out_ = board.outcome
        out.update({
            "phase": "over" if out_ is not None else "play",
            "position": board.position(),
            "turn": board.turn, "ply": board.ply,
            "faces": faces_text(board.faces, n) if board.faces is not None else None,
            "symbols": [SYMBOLS[s] for s in board.symbols],
            "setup": None,
            "outcome": None if out_ is None else {"termination": out_.termination.value,
                                                  "winners": list(out_.winners)},
            "winners": None if out_ is None else list(out_.winners),
        })
        return out

    # ------------------------------------------------------------------ bots
    def seat_bot(self, name: str, seed: int) -> SeatBot:
        return DrivenBot(self, self.make_bot(name, seed))

    def make_bot(self, name: str, seed: int) -> BoardBot:
        return make_bot(name, self.rules, seed)

    def quick_bot(self, bot: BoardBot) -> bool:
        """Every board bot evaluates or searches moves: all think in a worker thread."""
        return False

    def bot_move(self, bot: BoardBot, seat: int) -> str:
        legal = self.legal(seat)
        if self.in_setup():
            assert self.setup is not None
            choice = str(bot.setup_choice(self.setup))
        else:
            assert self.board is not None
            choice = self.board.move_text(bot.choose(self.board.copy()))
        return choice if choice in legal else legal[0]

    def snap_window(self) -> int | None:
        return None

    def can_snap(self, seat: int) -> bool:
        return False

    def bot_snap(self, bot: BoardBot, seat: int) -> str | None:
        return None


def board_record(header: dict[str, Any], actions: list[tuple[int, str]],
                 seat: int | None) -> str:
    """A stored board game as record text: the full record (``seat=None``, once the game
    is over) or a seat's record so far, which is the same but for the seed. The board hides
    nothing, but every bot's seed derives from the game's: known mid-game, it would tell a
    player the bots' next moves (issue 11, bug 6)."""
    seed = header["seed"] if seat is None else None
    session = BoardSession(Rules.from_json(header["rules"]), header["setup"], header["seed"],
                           header.get("match", {}).get("id", ""))
    session.deal(header)
    for who, text in actions:
        session.play(who, text, session.version)
    setup = session.setup.history if session.setup is not None else None
    if session.board is None:  # still choosing: the record so far is the setup steps
        head = {"format": FORMAT, "version": VERSION, "game": "board", "rules": header["rules"],
                "players": header.get("players"), "seed": seed, "setup": "full"}
        if seed is None:
            del head["seed"]
        return dump_record(head, [{"setup": step} for step in setup or []])
    return record_text(session.board, header.get("players"), seed, setup)
