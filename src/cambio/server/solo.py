"""A solo card table with no server: the server's own session, run in the browser.

The offline client (``web/static/offline/``) runs this module in Pyodide (WebAssembly). It
plays one person (seat 0) against quick bots with the very session a server table uses
(:class:`~.turn_session.TurnSession` over :mod:`cambio.games.cards`), and answers with the
messages a server table sends that seat (``welcome``, ``state``, ``update``, ``table``,
``error``: ``docs/protocol.md``), so the table page's modules draw it as they draw an
online game. Bots are seeded and timed as
:class:`~.table.bot_timers.BotTimers` seeds and times them (the same derived seeds, the
same delay ranges): the page arms a timer for each delay this table asks for and calls
:meth:`SoloTable.fire` when it is due.

Only pure-Python modules are imported here and by what this imports (the rules core, the
records layer, the quick bots, the game interface): the browser has no numpy or numba.
``SOLO_BOTS`` are the bots that need neither.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from random import Random
from typing import Any

from cambio.cards import Rules, RulesError
from cambio.games.cards import GAME
from cambio.seeds import derive_seed

from .errors import BAD_MESSAGE, NOT_PLAYING, ProtocolError
from .match import summary_fields
from .server_messages import PROTOCOL, ServerMessage, State, TableChanged, Update, error
from .session import SNAP_DELAY, TURN_DELAY, Applied, SeatBot
from .turn_session import TurnSession, frames_body, turn_record

SOLO_BOTS = {"random": "Random bot", "easy": "Easy bot", "memory": "Medium bot",
             "expert": "Expert bot"}
"""The card bots that run in the browser (pure Python), with their seat names."""

SEAT = 0
"""The person's seat; every other seat is a bot."""

MAX_BOTS = 7


def _config(raw: dict[str, Any]) -> tuple[int, str, list[str], Rules, float]:
    """Read a table's settings, or raise ``ValueError`` saying what is wrong."""
    seed = raw.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise ValueError("seed must be an integer from 0 to 2**63 - 1")
    name = raw.get("name", "You")
    if not isinstance(name, str) or not 0 < len(name.strip()) <= 40:
        raise ValueError("name must be 1 to 40 characters")
    bots = raw.get("bots")
    if not isinstance(bots, list) or not 1 <= len(bots) <= MAX_BOTS \
            or any(b not in SOLO_BOTS for b in bots):
        raise ValueError(f"bots must list 1 to {MAX_BOTS} of {', '.join(SOLO_BOTS)}")
    try:
        rules = Rules.from_json(raw.get("rules", {"preset": "house"}))
    except RulesError as exc:
        raise ValueError(str(exc)) from None
    speed = raw.get("speed", 1.0)
    if not isinstance(speed, (int, float)) or isinstance(speed, bool) or not 0.1 <= speed <= 1000:
        raise ValueError("speed must be a number from 0.1 to 1000")
    return seed, " ".join(name.split()), list(bots), rules, float(speed)


class SoloTable:
    """One person and quick bots at a one-round card table, in memory.

    Every public method returns the JSON text of ``{"messages": [...], "timers": [...]}``:
    the messages for the person's page, in order, and the bot timers to arm
    (``{"id", "delay"}`` in seconds; a timer that is no longer wanted when it fires does
    nothing)."""

    def __init__(self, config: str) -> None:
        self.seed, name, bots, rules, self.speed = _config(json.loads(config))
        self.players = 1 + len(bots)
        self.names: list[dict[str, Any]] = [{"name": name}]
        self.names += [{"name": f"{SOLO_BOTS[b]} {i + 1}" if bots.count(b) > 1 else SOLO_BOTS[b],
                        "bot": b} for i, b in enumerate(bots)]
        self.rules = rules
        self.session = TurnSession(GAME, self.players, {"rules": rules.to_json(), "rounds": 1},
                                   self.seed, f"solo-{self.seed}")
        self.created = datetime.now(UTC).isoformat(timespec="seconds")
        self.header = self.session.next_header(self.names, self.created)
        self.session.deal(self.header)
        # Seeded as a server table seeds its bots and their delays (BotTimers.seat).
        self.bots: dict[int, SeatBot] = {
            seat: self.session.seat_bot(b, derive_seed(self.seed, "bot", seat))
            for seat, b in enumerate(bots, start=1)}
        self.delays = Random(derive_seed(self.seed, "delays"))
        self._ids = 0
        self._turn: tuple[int, int] | None = None       # (seat, timer id)
        self._polls: dict[int, int] = {}                # seat -> timer id
        self._polled: dict[int, int | None] = {}

    # ------------------------------------------------------------------ messages
    def summary(self) -> dict[str, Any]:
        s = self.session
        status = "finished" if s.game_over() else "playing"
        seats = [{"seat": i, "name": n["name"], "kind": "bot" if "bot" in n else "human",
                  "bot": n.get("bot"), "connected": True, "away": False}
                 for i, n in enumerate(self.names)]
        return {"id": f"solo-{self.seed}", "game": "cards", "players": self.players,
                "rules": self.rules.to_json(), "rounds": 1, "status": status, "host": SEAT,
                "seats": seats, "game_no": 1, "round": s.round_no, "totals": s.totals(),
                "created": self.created, "halted": None, "clock": None,
                "spectator_chat": False, "table_name": "Solo game", "private": True,
                "solo": True, **summary_fields(s, [], self.players, None)}

    def _state(self) -> State:
        s = self.session
        return {"type": "state", "version": s.version, "game_no": 1, "round": s.round_no,
                "view": s.view(SEAT), "log": [a.event(SEAT) for a in s.log]}

    def _out(self, messages: list[ServerMessage]) -> str:
        return json.dumps({"messages": messages, "timers": self._follow()})

    def welcome(self) -> str:
        """The messages a page gets on connecting: ``welcome``, then the dealt ``state``."""
        return self._out([{"type": "welcome", "seat": SEAT, "table": self.summary(),
                           "version": self.session.version, "game_no": 1,
                           "round": self.session.round_no, "protocol": PROTOCOL},
                          self._state()])

    def sync(self) -> str:
        return self._out([self._state()])

    def act(self, text: str, version: int, ref: Any = None) -> str:
        """The person's action: applied and told as ``update``, or refused as ``error``
        (nothing changed), exactly as a server table judges it."""
        if self.session.round_over():
            return self._out([error(NOT_PLAYING, "the table is finished", ref)])
        if not isinstance(text, str) or not isinstance(version, int):
            return self._out([error(BAD_MESSAGE, "an act needs an action text and a version",
                                    ref)])
        try:
            applied = self.session.play(SEAT, text, version)
        except ProtocolError as exc:
            return self._out([error(exc.code, exc.message, ref)])
        return self._out(self._accepted(applied))

    def fire(self, timer: int) -> str:
        """A bot's timer is due: its move, or its look at the open snap window."""
        s = self.session
        messages: list[ServerMessage] = []
        if self._turn is not None and self._turn[1] == timer:
            seat = self._turn[0]
            self._turn = None
            if s.decider() == seat:
                self._polled[seat] = None  # what it does may show it a match
                messages = self._accepted(s.play(seat, self.bots[seat].move(seat), s.version))
        else:
            seat = next((k for k, v in self._polls.items() if v == timer), -1)
            if seat >= 0:
                del self._polls[seat]
                window = s.snap_window()
                if window is not None and s.can_snap(seat):
                    self._polled[seat] = window
                    snap = self.bots[seat].snap(seat)
                    if snap is not None:
                        messages = self._accepted(s.play(seat, snap, s.version))
        return self._out(messages)

    def _accepted(self, applied: Applied) -> list[ServerMessage]:
        s = self.session
        update: Update = {"type": "update", "version": applied.version, "game_no": 1,
                          "round": s.round_no, "event": applied.event(SEAT),
                          "view": s.view(SEAT)}
        out: list[ServerMessage] = [update]
        if s.round_over():
            s.finish_round()
            changed: TableChanged = {"type": "table", "table": self.summary()}
            out.append(changed)
        return out

    def hint(self, ref: Any = None) -> str:
        """Hints search with the ``hard`` bot, which needs numba: not in the browser."""
        return self._out([error(NOT_PLAYING,
                                "hints need a server (the hard bot does not run offline)",
                                ref)])

    # ------------------------------------------------------------------ bots' timers
    def _delay(self, low: float, high: float) -> float:
        return self.delays.uniform(low, high) / self.speed

    def _arm(self, delay: float, timers: list[dict[str, Any]]) -> int:
        self._ids += 1
        timers.append({"id": self._ids, "delay": round(delay, 4)})
        return self._ids

    def _follow(self) -> list[dict[str, Any]]:
        """The timers the state calls for, drawn as ``BotTimers.follow`` draws them."""
        s = self.session
        timers: list[dict[str, Any]] = []
        if s.round_over():
            self._turn = None
            self._polls.clear()
            return timers
        decider = s.decider()
        if decider in self.bots:
            if self._turn is None or self._turn[0] != decider:
                self._turn = (decider, self._arm(self._delay(*TURN_DELAY), timers))
        else:
            self._turn = None
        window = s.snap_window()
        for seat in self.bots:
            if window is None or seat in self._polls or self._polled.get(seat) == window \
                    or not s.can_snap(seat):
                continue
            self._polls[seat] = self._arm(self._delay(*SNAP_DELAY), timers)
        return timers

    # ------------------------------------------------------------------ the record
    def record(self) -> str:
        """The round's record (NDJSON, as ``GET /api/tables/{id}/record`` sends it): the
        full record with the seed once the round is over, before that the person's own
        player's-eye record (the seed and the unseen cards stay hidden)."""
        actions = [(a.seat, a.text) for a in self.session.log]
        return turn_record(GAME, self.header, actions,
                           None if self.session.round_over() else SEAT)

    def frames(self) -> str:
        """The round's replay frames as ``GET /api/tables/{id}/frames`` sends them (the
        replay viewer draws them), seen as :meth:`record` sees the round."""
        actions = [(a.seat, a.text) for a in self.session.log]
        seat = None if self.session.round_over() else SEAT
        return json.dumps(frames_body(GAME, self.header, actions, seat, 1))


__all__ = ["SOLO_BOTS", "SoloTable"]
