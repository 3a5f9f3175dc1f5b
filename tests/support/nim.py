"""A third game defined only in the tests: Nim (take 1 to 3 stones; taking the last wins).

It is the proof that the :class:`cambio.games.Game` seam is real: registered here, it runs
through ``cambio.sim.run``, the tournaments, worker processes, records and ``cambio
replay``/``export`` without any of those modules knowing it; and, being a
:class:`cambio.games.TableGame` too, at a real server table (``cambio serve --game
tests.support.nim:NIM``) without the server knowing it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from rich.console import Console

from cambio.games import Played, register
from cambio.records.jsonl import FORMAT, VERSION, Record, RecordError, dump_record


@dataclass(frozen=True)
class NimRules:
    most: int = 3
    """Stones one may take at once."""


class NimBot:
    def __init__(self, name: str, seed: int) -> None:
        self.name, self.rng = name, Random(seed)

    def take(self, pile: int, most: int) -> int:
        best = pile % (most + 1)
        if self.name == "perfect" and best:
            return best
        return self.rng.randint(1, min(most, pile))


@dataclass
class NimResult:
    moves: list[int]
    winner: int

    def summary(self) -> dict[str, Any]:
        return {"game": "nim", "moves": len(self.moves), "winner": self.winner}


class Nim:
    name = "nim"
    show_record = "tests.support.nim:show"
    seats = (2, 4)
    away_bot = "random"
    table_options: Mapping[str, tuple[str, ...]] = {"most": ("3", "2")}

    def check(self, rules: NimRules, players: int) -> None:
        if players < 2:
            raise ValueError("nim needs two players or more")

    def rules_json(self, rules: NimRules) -> dict[str, Any]:
        return {"preset": "nim", "most": rules.most}

    def make_bot(self, spec: str, rules: NimRules, seed: int) -> NimBot:
        if spec not in ("random", "perfect"):
            raise ValueError(f"unknown bot {spec!r}; bots: random, perfect")
        return NimBot(spec, seed)

    def bot_list(self) -> list[dict[str, Any]]:
        return [{"name": n, "label": n.title(), "alias_of": None} for n in ("random", "perfect")]

    def play(self, rules: NimRules, players: int, seed: int, bots: Sequence[Any],
             first: int | None, options: tuple[tuple[str, Any], ...] = ()) -> Played:
        pile, turn, moves = 10 + seed % 11, first or 0, []
        while True:
            n = bots[turn].take(pile, rules.most)
            moves.append(n)
            pile -= n
            if pile == 0:
                break
            turn = (turn + 1) % players
        scores = tuple(0 if s == turn else 1 for s in range(players))
        return Played(scores, (turn,), len(moves), "last_stone", (10 + seed % 11, first, moves))

    def record(self, rules: NimRules, players: int, seed: int, first: int | None,
               names: Sequence[str], played: Played,
               options: tuple[tuple[str, Any], ...] = ()) -> str:
        pile, start, moves = played.history
        return nim_record(players, pile, start or 0, rules.most, names, moves)

    def replay(self, record: Record) -> NimResult:
        h = record.header
        pile, turn, moves = int(h["pile"]), int(h["first"]), []
        for line, ev in zip(record.lines, record.events, strict=True):
            n = ev.get("take")
            if not isinstance(n, int) or not 1 <= n <= min(int(h["most"]), pile):
                raise RecordError(line, f"cannot take {n!r} of {pile}")
            moves.append(n)
            pile -= n
            if pile:
                turn = (turn + 1) % int(h["players"])
        if pile:
            raise RecordError(0, f"{pile} stones left")
        return NimResult(moves, turn)

    def export(self, result: NimResult, seat: int | None) -> str:
        return dump_record({"format": FORMAT, "version": VERSION, "game": "nim"},
                           [{"take": n} for n in result.moves])


    # ------------------------------------------------------------------ at a server table
    def table_rules(self, players: int, options: Mapping[str, str]) -> NimRules:
        if players < 2:
            raise ValueError("nim needs two players or more")
        return NimRules(most=int(options.get("most", "3")))

    def start(self, rules: NimRules, players: int, seed: int,
              options: Mapping[str, str]) -> NimPosition:
        return NimPosition(rules, players, 10 + seed % 11)


class NimPosition:
    """One game of Nim at a table: seat 0 takes first. Nothing is hidden but the seed."""

    def __init__(self, rules: NimRules, players: int, pile: int) -> None:
        self.rules, self.players, self.start = rules, players, pile
        self.pile, self.turn, self.moves = pile, 0, list[int]()

    def decider(self) -> int | None:
        return self.turn if self.pile else None

    def legal(self, seat: int) -> list[str]:
        if seat != self.decider():
            return []
        return [f"take {n}" for n in range(1, min(self.rules.most, self.pile) + 1)]

    def play(self, seat: int, text: str) -> str:
        if self.decider() is None:
            raise ValueError("the game is over")
        if seat != self.turn:
            raise ValueError(f"it is seat {self.turn}'s turn")
        if text not in self.legal(seat):
            raise ValueError(f"say 'take N' with N from 1 to {min(self.rules.most, self.pile)}")
        n = int(text.split()[1])
        self.moves.append(n)
        self.pile -= n
        if self.pile:
            self.turn = (self.turn + 1) % self.players
        return text

    def outcome(self) -> dict[str, Any] | None:
        return None if self.pile else {"termination": "last_stone", "winners": [self.turn]}

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"phase": "play" if self.pile else "over", "pile": self.pile,
                "most": self.rules.most, "taken": list(self.moves)}

    def bot_move(self, bot: NimBot, seat: int) -> str:
        return f"take {bot.take(self.pile, self.rules.most)}"

    def record(self, names: Sequence[str], seat: int | None) -> str:
        return nim_record(self.players, self.start, 0, self.rules.most, names, self.moves)


def nim_record(players: int, pile: int, first: int, most: int, names: Sequence[str],
               moves: Sequence[int]) -> str:
    header = {"format": FORMAT, "version": VERSION, "game": "nim", "players": players,
              "pile": pile, "first": first, "most": most, "bots": list(names)}
    return dump_record(header, [{"take": n} for n in moves])


def show(result: NimResult, console: Console) -> None:
    console.print(f"nim: {len(result.moves)} moves, seat {result.winner} took the last stone")


NIM = Nim()
register(NIM)
