"""A table's game, for every game (:class:`cambio.games.TableGame`): the card game, the dice
board game, or a game the server was started with (``cambio serve --game``).

The game's :class:`~cambio.games.TableMatch` deals rounds and books them; each round's
:class:`~cambio.games.Position` checks and applies actions and says what each seat may know.
This session adds what every table needs around them: versions (a stale action is refused),
whose decision it is, the legal actions in the decider's view only, the accepted actions'
log with each fact's audience, the result, bots driven on the position, and the record.
What a game can do beyond taking turns it declares, and the session asks: out-of-turn
actions racing in a window (:class:`~cambio.games.Snaps`), hints
(:class:`~cambio.games.Hints`), bots cheap enough for the loop
(:class:`~cambio.games.QuickBots`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cambio.games import (
    Configured,
    Hints,
    Position,
    QuickBots,
    Reveals,
    Rounds,
    Snaps,
    TableGame,
    TableMatch,
    table_match,
)

from .errors import ILLEGAL, STALE, ProtocolError
from .refusals import illegal
from .session import Applied, DrivenBot, SeatBot


class TurnSession:
    """One game (a match of one or more rounds) of a table."""

    def __init__(self, game: TableGame, players: int, options: Mapping[str, Any], seed: int,
                 match_id: str) -> None:
        self.table_game = game
        self.game = game.name
        self.players = players
        self.options = dict(options)
        self.rules = game.table_rules(players, self.options)
        self.match_id = match_id
        self.match: TableMatch = table_match(game, self.rules, players, seed, self.options)
        self.position: Position | None = None
        self.snaps: Snaps | None = None
        self.round_no = 0
        self.log: list[Applied] = []
        self.hints = False
        """Its positions can suggest a move (assist mode)."""

    threaded_bots = True
    """Bots may search (the card game's ``hard``, the board's, tens of milliseconds a
    move): the table runs them off the loop and pads their replies to a thinking time."""

    @property
    def version(self) -> int:
        return len(self.log)

    # ------------------------------------------------------------------ rounds
    def next_header(self, names: list[dict[str, Any]], started: str) -> dict[str, Any]:
        return self.match.header(names, {"match": {"id": self.match_id,
                                                   "round": self.round_no + 1},
                                         "started": started})

    def deal(self, header: dict[str, Any]) -> None:
        """Start the round ``header`` describes (from :meth:`next_header` or storage)."""
        self.begin(self.match.deal(header))

    def begin(self, position: Position) -> None:
        """Play ``position`` as the next round."""
        self.position = position
        self.snaps = position if isinstance(position, Snaps) else None
        self.hints = isinstance(position, Hints)
        self.round_no += 1
        self.log = []

    def round_over(self) -> bool:
        return self.position is None or self.position.outcome() is not None

    def finish_round(self) -> None:
        """Book the finished round (scores into totals)."""
        assert self.position is not None
        self.match.finish_round(self.position)

    def game_over(self) -> bool:
        return self.match.over()

    def totals(self) -> list[int] | None:
        return self.match.totals()

    def result(self) -> dict[str, Any]:
        return self.match.result()

    # ------------------------------------------------------------------ acting
    def play(self, seat: int, text: str, version: int) -> Applied:
        """Check and apply an action; ``illegal`` or ``stale`` (nothing changed) if it is
        refused. An out-of-turn action may be aimed at an earlier version: it is judged
        against the state it finds."""
        position = self.position
        if position is None:
            raise ProtocolError(ILLEGAL, illegal("no round is being played"))
        now = self.version
        if version != now and not (version < now and self.is_snap(text)):
            raise ProtocolError(STALE, f"the current version is {now}")
        try:
            shown = position.play(seat, text)
        except ValueError as exc:
            raise ProtocolError(ILLEGAL, illegal(str(exc))) from None
        text, facts = (shown, ()) if isinstance(shown, str) else shown
        applied = Applied(now + 1, seat, text, facts, position.outcome())
        self.log.append(applied)
        return applied

    def is_snap(self, text: str) -> bool:
        """``text`` is an out-of-turn action (a refusal is a lost race, not abuse)."""
        return self.snaps is not None and self.snaps.is_snap(text)

    # ------------------------------------------------------------------ views
    def decider(self) -> int | None:
        return self.position.decider() if self.position is not None else None

    def view(self, seat: int | None) -> dict[str, Any]:
        """The game's view for ``seat``, with what every table's client reads: who decides
        and, for that seat only, its legal actions (unless the game's view has its own)."""
        assert self.position is not None
        view = self.position.view(seat)
        if "legal" in view:
            return view
        actor = self.position.decider()
        legal = self.position.legal(seat) if seat is not None and seat == actor else []
        return {"game": self.game, "seat": seat, "players": self.players, "actor": actor,
                "legal": legal, **view}

    def open_view(self) -> dict[str, Any]:
        """The view with nothing hidden (a finished game's replay)."""
        position = self.position
        return position.open_view() if isinstance(position, Reveals) else self.view(None)

    def record(self, names: list[str], seat: int | None) -> str:
        assert self.position is not None
        return self.position.record(names, seat)

    def hint(self, seat: int) -> dict[str, Any] | None:
        """A suggestion for ``seat`` if it decides now (``None`` otherwise, or when the
        game gives none); may search: the table runs it off the loop."""
        position = self.position
        if not isinstance(position, Hints) or self.round_over():
            return None
        return position.hint(seat, self.version)

    # ------------------------------------------------------------------ bots
    def seat_bot(self, name: str, seed: int) -> SeatBot:
        return DrivenBot(self, self.table_game.make_bot(name, self.rules, seed))

    def quick_bot(self, bot: Any) -> bool:
        game = self.table_game
        return isinstance(game, QuickBots) and game.quick_bot(bot)

    def bot_move(self, bot: Any, seat: int) -> str:
        assert self.position is not None
        legal = self.position.legal(seat)
        choice = self.position.bot_move(bot, seat)
        return choice if choice in legal else legal[0]  # a bot bug must not stop the table

    def snap_window(self) -> int | None:
        """An id of the open snap window (``None``: none open, or a game without snaps)."""
        return self.snaps.snap_window() if self.snaps is not None else None

    def can_snap(self, seat: int) -> bool:
        return self.snaps is not None and self.snaps.can_snap(seat)

    def bot_snap(self, bot: Any, seat: int) -> str | None:
        return self.snaps.bot_snap(bot, seat) if self.snaps is not None else None


def stored_session(game: TableGame, header: dict[str, Any]) -> TurnSession:
    """A session holding the stored round ``header`` describes, dealt alone: its actions
    replay on it (for the round's record and its replay frames)."""
    names = header.get("players") or []
    if isinstance(game, Configured):
        options = {name: header[name] for name in game.config_fields if name in header}
    else:
        options = {name: str(header.get(name, choices[0]))
                   for name, choices in game.table_options.items()}
    session = TurnSession(game, len(names), options, int(header["seed"]),
                          header.get("match", {}).get("id", ""))
    if isinstance(game, Rounds):
        session.begin(game.replay_round(header))
    else:
        session.deal(header)
    return session


def turn_record(game: TableGame, header: dict[str, Any], actions: Sequence[tuple[int, str]],
                seat: int | None) -> str:
    """A stored round as record text, in full (``seat=None``) or as ``seat`` may have it:
    the header's round replayed through its stored actions."""
    session = stored_session(game, header)
    for who, text in actions:
        session.play(who, text, session.version)
    return session.record([str(p.get("name", p) if isinstance(p, dict) else p)
                           for p in header.get("players") or []], seat)


SHOWN_HEADER = ("game", "players", "rules", "match", "started")
"""What a replay's frames say of their round's header: names and rules, never the seed
(every card and every bot's move derive from it) nor a deck."""


def frames_body(game: TableGame, header: dict[str, Any], actions: Sequence[tuple[int, str]],
                seat: int | None, rounds: int) -> dict[str, Any]:
    """What the replay viewer is sent of a stored round (``GET /api/tables/{id}/frames``,
    the solo table's frames): ``{"game", "header", "rounds", "round", "frames"}``."""
    return {"game": game.name, "header": {k: header[k] for k in SHOWN_HEADER if k in header},
            "rounds": rounds, "round": header.get("match", {}).get("round", rounds),
            "frames": turn_frames(game, header, actions, seat)}


def turn_frames(game: TableGame, header: dict[str, Any], actions: Sequence[tuple[int, str]],
                seat: int | None) -> list[dict[str, Any]]:
    """A stored round's replay, step by step, as the engine plays it: ``{"view",
    "event"}`` at the deal (no event), after each action, and at the end (the event is
    ``{"end": ...}``). ``seat=None``: everything, as the full record shows it (a finished
    game's); else what ``seat`` saw, as its own record shows it."""
    session = stored_session(game, header)

    def view() -> dict[str, Any]:
        return session.open_view() if seat is None else session.view(seat)

    frames: list[dict[str, Any]] = [{"view": view(), "event": None}]
    for who, text in actions:
        applied = session.play(who, text, session.version)
        frames.append({"view": view(), "event": applied.event(seat, everything=seat is None)})
    if session.position is not None and (end := session.position.outcome()) is not None:
        frames.append({"view": frames[-1]["view"], "event": {"end": end}})
    return frames
