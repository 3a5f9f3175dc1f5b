"""A table's game for any turn-based game (:class:`cambio.games.TableGame`): the dice board
game, or a game the server was started with (``cambio serve --game``).

The game's :class:`~cambio.games.Position` checks and applies actions and says what each seat
may know; this session adds what every table needs around it: versions (a stale action is
refused), whose decision it is, the legal actions in the decider's view only, the accepted
actions' log, the result, bots driven on the position, and the record.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cambio.games import Position, TableGame

from .errors import ILLEGAL, STALE, ProtocolError
from .session import Applied, DrivenBot, SeatBot


class TurnSession:
    """One game (one "round") of a turn-based game at a table."""

    threaded_bots = True
    """Bots may search (the board's take tens of milliseconds a move): the table runs them
    off the loop."""

    def __init__(self, game: TableGame, players: int, options: Mapping[str, str], seed: int,
                 match_id: str) -> None:
        self.table_game = game
        self.game = game.name
        self.players = players
        self.options = dict(options)
        self.rules = game.table_rules(players, self.options)
        self.seed = seed
        self.match_id = match_id
        self.position: Position | None = None
        self.round_no = 0
        self.log: list[Applied] = []

    @property
    def version(self) -> int:
        return len(self.log)

    # ------------------------------------------------------------------ the game
    def next_header(self, names: list[dict[str, Any]], started: str) -> dict[str, Any]:
        return {"game": self.game, "rules": self.table_game.rules_json(self.rules),
                "players": [str(p["name"]) for p in names], "seed": self.seed,
                **self.options, "match": {"id": self.match_id, "round": 1},
                "started": started}

    def deal(self, header: dict[str, Any]) -> None:
        self.log = []
        self.round_no = 1
        self.position = self.table_game.start(self.rules, self.players, self.seed, self.options)

    def round_over(self) -> bool:
        return self.position is None or self.position.outcome() is not None

    def finish_round(self) -> None:
        pass

    def game_over(self) -> bool:
        return self.position is not None and self.position.outcome() is not None

    def totals(self) -> list[int] | None:
        return None

    def result(self) -> dict[str, Any]:
        outcome = self.position.outcome() if self.position is not None else None
        return {"scores": [], "totals": None,
                "winners": list(outcome["winners"]) if outcome is not None else None}

    # ------------------------------------------------------------------ acting
    def play(self, seat: int, text: str, version: int) -> Applied:
        now = self.version
        if version != now:
            raise ProtocolError(STALE, f"the current version is {now}")
        position = self.position
        if position is None:
            raise ProtocolError(ILLEGAL, "no game is being played")
        try:
            shown = position.play(seat, text)
        except ValueError as exc:
            raise ProtocolError(ILLEGAL, str(exc)) from None
        applied = Applied(now + 1, seat, shown, [], position.outcome())
        self.log.append(applied)
        return applied

    # ------------------------------------------------------------------ views
    def decider(self) -> int | None:
        return self.position.decider() if self.position is not None else None

    def view(self, seat: int | None) -> dict[str, Any]:
        """The game's view for ``seat``, with what every table's client reads: who decides
        and, for that seat only, its legal actions."""
        assert self.position is not None
        actor = self.position.decider()
        legal = self.position.legal(seat) if seat is not None and seat == actor else []
        return {"game": self.game, "seat": seat, "players": self.players, "actor": actor,
                "legal": legal, **self.position.view(seat)}

    def record(self, names: list[str], seat: int | None) -> str:
        assert self.position is not None
        return self.position.record(names, seat)

    # ------------------------------------------------------------------ bots
    def seat_bot(self, name: str, seed: int) -> SeatBot:
        return DrivenBot(self, self.table_game.make_bot(name, self.rules, seed))

    def quick_bot(self, bot: Any) -> bool:
        """Every bot runs in a worker thread: a game's bots may search."""
        return False

    def bot_move(self, bot: Any, seat: int) -> str:
        assert self.position is not None
        legal = self.position.legal(seat)
        choice = self.position.bot_move(bot, seat)
        return choice if choice in legal else legal[0]  # a bot bug must not stop the table

    def snap_window(self) -> int | None:
        return None

    def can_snap(self, seat: int) -> bool:
        return False

    def bot_snap(self, bot: Any, seat: int) -> str | None:
        return None


def turn_record(game: TableGame, header: dict[str, Any], actions: list[tuple[int, str]],
                seat: int | None) -> str:
    """A stored game as record text: the header's game replayed through its stored actions,
    in full (``seat=None``) or as ``seat`` may have it."""
    names = [str(n) for n in header.get("players") or []]
    options = {name: str(header.get(name, choices[0]))
               for name, choices in game.table_options.items()}
    session = TurnSession(game, len(names), options, int(header["seed"]),
                          header.get("match", {}).get("id", ""))
    session.deal(header)
    for who, text in actions:
        session.play(who, text, session.version)
    return session.record(names, seat)
