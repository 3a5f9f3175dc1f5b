"""A solo card table with no server: the server's own session, run in the browser.

The offline client (``web/static/offline/``) runs this module in Pyodide (WebAssembly). It
plays one person (seat 0) against quick bots with the very session a server table uses
(:class:`~.turn_session.TurnSession` over :mod:`cambio.games.cards`), and answers with the
messages a server table sends that seat (``welcome``, ``state``, ``update``, ``table``,
``error``: ``docs/protocol.md``, built by the same functions of :mod:`.table_core`), so the
table page's modules draw it as they draw an online game. Bots are seeded as a server
table seeds them and timed by the same :class:`~.table_core.BotPlan`: the page arms a timer
for each delay this table asks for and calls :meth:`SoloTable.fire` when it is due.

Only pure-Python modules are imported here and by what this imports (the rules core, the
records layer, the quick bots, the game interface): the browser has no numpy or numba.
``SOLO_BOTS`` are the bots that need neither.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from cambio.cards import Rules, RulesError
from cambio.games.cards import GAME
from cambio.seeds import derive_seed

from .errors import BAD_MESSAGE, NOT_PLAYING
from .rounds import RoundPause
from .server_messages import ServerMessage, error
from .session import Applied, SeatBot
from .table_core import (
    BotPlan,
    Refusal,
    arrival,
    catch_up,
    judge_act,
    judge_hint,
    seat_summary,
    table_message,
    table_summary,
    update_message,
)
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
        self.plan = BotPlan(self.speed)
        self.plan.seat(self.seed)
        # One round: its end finishes the game, so no pause is ever waited out.
        self.rounds = RoundPause(0.0, lambda: 0.0)

    # ------------------------------------------------------------------ messages
    def status(self) -> str:
        return "finished" if self.session.game_over() else "playing"

    def summary(self) -> dict[str, Any]:
        seats = [seat_summary(i, n["name"], "bot" if "bot" in n else "human", n.get("bot"),
                              connected=True, away=False) for i, n in enumerate(self.names)]
        return {**table_summary(f"solo-{self.seed}", "cards", self.players,
                                {"rules": self.rules.to_json(), "rounds": 1}, self.status(),
                                seats, 1, self.session, self.created, None,
                                {"table_name": "Solo game", "private": True}, [], None),
                "solo": True}

    def _out(self, messages: list[ServerMessage]) -> str:
        return json.dumps({"messages": messages, "timers": self._follow()})

    def welcome(self) -> str:
        """The messages a page gets on connecting: ``welcome``, then the dealt ``state``."""
        return self._out(list(arrival(SEAT, self.summary(), self.session, 1)))

    def sync(self, since: int = 0, game_no: int | None = None, round_no: int | None = None
             ) -> str:
        """``sync``: what the page missed, as a server table answers it (no network in
        between, so every missed update may be sent, however many)."""
        s = self.session
        return self._out(list(catch_up(s, SEAT, since, game_no, round_no, 1, len(s.log))))

    def act(self, text: str, version: int, ref: Any = None) -> str:
        """The person's action: applied and told as ``update``, or refused as ``error``
        (nothing changed), exactly as a server table judges it."""
        if not isinstance(text, str) or not isinstance(version, int):
            return self._out([error(BAD_MESSAGE, "an act needs an action text and a version",
                                    ref)])
        judged = judge_act(self.session, self.status(), None, SEAT, text, version)
        if isinstance(judged, Refusal):
            return self._out([error(judged.code, judged.message, ref)])
        return self._out(self._accepted(judged))

    def fire(self, timer: int) -> str:
        """A bot's timer is due: its move, or its look at the open snap window."""
        s = self.session
        due = self.plan.ready(timer, s, self.bots.__contains__)
        messages: list[ServerMessage] = []
        if due is not None and not due.snap:
            self.plan.moved(due.seat)
            messages = self._accepted(s.play(due.seat, self.bots[due.seat].move(due.seat),
                                             s.version))
        elif due is not None:
            snap = self.bots[due.seat].snap(due.seat)
            if snap is not None:
                messages = self._accepted(s.play(due.seat, snap, s.version))
        return self._out(messages)

    def _accepted(self, applied: Applied) -> list[ServerMessage]:
        s = self.session
        out: list[ServerMessage] = [update_message(s, applied, SEAT, 1)]
        if s.round_over():
            self.rounds.ended(s, 1)  # booked as a served table books it: the game is over
            out.append(table_message(self.summary()))
        return out

    def hint(self, ref: Any = None) -> str:
        """Refused as a server table refuses a hint; and when a server would search, still
        refused: the ``hard`` bot needs numba, which the browser does not have."""
        refused = judge_hint(self.session, self.status(), SEAT)
        if refused is not None:
            return self._out([error(refused.code, refused.message, ref)])
        return self._out([error(NOT_PLAYING,
                                "hints need a server (the hard bot does not run offline)",
                                ref)])

    # ------------------------------------------------------------------ bots' timers
    def _follow(self) -> list[dict[str, Any]]:
        """The timers the state calls for (``{"id", "delay"}``), as a server table's."""
        s = self.session
        if s.round_over():
            self.plan.cancel()
            return []
        arm, _ = self.plan.follow(s, self.bots.__contains__)
        return [{"id": a.id, "delay": round(a.delay, 4)} for a in arm]

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
