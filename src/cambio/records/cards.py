"""Card-game records: write, replay (validate), show and export for one player's eyes.

A record is the header (rules, players, seed or explicit deck) plus the actions; everything
else in it -- the deal, the cards drawn, peeked, discarded, snapped -- is an *observation*
that replay recomputes from the engine and checks when present. Each observation has an
audience (the seats that saw it); a player's-eye export keeps only what that seat saw.
See ``docs/records.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeGuard

from cambio.cards import (
    CambioError,
    Rules,
    State,
    action_text,
    card_code,
    parse_action,
    parse_cards,
)
from cambio.cards.actions import Action
from cambio.cards.events import (
    EVERYONE,
    NOBODY,
    Discarded,
    Drew,
    Event,
    Exchanged,
    Gave,
    Looked,
    Peeked,
    Penalty,
    Reshuffled,
    Snapped,
)

from .jsonl import FORMAT, VERSION, Record, RecordError, dump_record

HEADER_KEYS = {"format", "version", "game", "rules", "players", "seed", "deck", "dealer",
               "snaps", "view", "match", "started"}
EVENT_KEYS = {"seat", "action", "card", "cards", "discarded", "right", "penalty", "reshuffled",
              "revealed"}
Fact = tuple[str, Any, int]
"""An observation: key, value, and its audience (a bitmask of seats as in
:mod:`cambio.cards.events`: ``EVERYONE``, or ``NOBODY`` for what only full records show)."""


@dataclass
class Step:
    seat: int
    action: Action
    facts: list[Fact]


@dataclass
class Result:
    """A replayed round: the header, the final state and every step with its observations."""

    header: dict[str, Any]
    state: State
    deal: list[list[int]]
    deal_known: list[list[int]]
    steps: list[Step] = field(default_factory=list)
    view: int | None = None
    end: dict[str, Any] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        if self.view is not None:
            end = self.end or {}
            return {"game": "cards", "view": self.view, "validated": False,
                    "players": len(seat_names(self.header)), "over": bool(end),
                    "scores": end.get("scores"), "winners": end.get("winners"),
                    "end_reason": end.get("reason"), "actions": len(self.events)}
        s = self.state
        return {
            "game": "cards",
            "validated": True,
            "rules": s.rules.to_json(),
            "players": s.n,
            "over": s.is_over(),
            "scores": s.scores(),
            "winners": s.winners() if s.is_over() else [],
            "end_reason": s.end_reason.name.lower() if s.is_over() else None,
            "caller": s.caller if s.caller >= 0 else None,
            "turns": s.turn_number,
            "actions": len(self.steps),
        }


# ====================================================================== writing
def make_header(
    rules: Rules,
    players: list[dict[str, Any]] | int,
    *,
    seed: int = 0,
    deck: list[str] | None = None,
    dealer: int | None = None,
    polled: bool = True,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    if isinstance(players, int):
        players = [{"name": f"seat {i}"} for i in range(players)]
    header: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": "cards",
                              "rules": rules.to_json(), "players": players, "seed": seed}
    if deck is not None:
        header["deck"] = deck
    if dealer is not None:
        header["dealer"] = dealer
    header["snaps"] = "polled" if polled else "realtime"
    if extra:
        header.update(extra)
    return header


def record_text(header: dict[str, Any], history: list[tuple[int, Action]],
                seat: int | None = None) -> str:
    """The record of a round played from ``header`` with ``history`` (full, or for ``seat``)."""
    result = run(header, [(s, a, 0, {}) for s, a in history])
    return export(result, seat)


def export(result: Result, seat: int | None) -> str:
    """Record text: the full record (``seat=None``) or only what ``seat`` saw."""
    return dump_record(*record_of(result, seat))


def record_of(result: Result, seat: int | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and events of the full record, or of what ``seat`` saw."""
    if result.view is not None:
        if seat is not None and seat != result.view:
            raise RecordError(0, f"this record shows seat {result.view}'s eyes only")
        return result.header, result.events
    n = result.state.n
    header = dict(result.header)
    if seat is not None:
        if not 0 <= seat < n:
            raise RecordError(0, f"no seat {seat} in this record")
        header.pop("seed", None)
        header.pop("deck", None)
        header["view"] = seat
    see = -1 if seat is None else (1 << seat) | (1 << n)
    events: list[dict[str, Any]] = []
    deal = [[card_code(c) if (seat is None or k & see) else "?" for c, k in zip(g, kk, strict=True)]
            for g, kk in zip(result.deal, result.deal_known, strict=True)]
    events.append({"deal": deal})
    for step in result.steps:
        ev: dict[str, Any] = {"seat": step.seat, "action": action_text(step.action)}
        for key, value, audience in step.facts:
            if seat is None or audience & see:
                ev[key] = value
        events.append(ev)
    s = result.state
    if s.is_over():
        events.append({"end": end_facts(s)})
    return header, events


def end_facts(s: State) -> dict[str, Any]:
    """The public facts of a finished round (a record's ``end`` line, the server's ``end``)."""
    return {
        "reason": s.end_reason.name.lower(),
        "scores": s.scores(),
        "winners": s.winners(),
        "grids": [[card_code(c) if c >= 0 else None for c in g] for g in s.grids],
    }


# ====================================================================== replaying
def state_from_header(header: dict[str, Any]) -> State:
    """Build the round's starting state; raises :class:`RecordError` (line 1) if impossible."""
    unknown = set(header) - HEADER_KEYS
    if unknown:
        raise RecordError(1, f"unknown header keys {sorted(unknown)}")
    try:
        rules = Rules.from_json(header.get("rules", {"preset": "rulebook"}))
        players = header.get("players")
        if isinstance(players, int) and not isinstance(players, bool):
            n = players
        elif isinstance(players, list):
            n = len(players)
        else:
            raise RecordError(1, "\"players\" must be a list of players or a number")
        seed = header.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(1, "\"seed\" must be an integer")
        deck = header.get("deck")
        if deck is not None:
            if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
                raise RecordError(1, "\"deck\" must be a list of card codes, top card first")
            deck = parse_cards(deck)
        dealer = header.get("dealer")
        if dealer is not None and (not isinstance(dealer, int) or isinstance(dealer, bool)
                                   or not 0 <= dealer < n):
            raise RecordError(1, f"\"dealer\" must be a seat number below {n}")
        snaps = header.get("snaps", "polled")
        if snaps not in ("polled", "realtime"):
            raise RecordError(1, "\"snaps\" must be \"polled\" or \"realtime\"")
        return State(rules, n, seed=seed, deck=deck, dealer=dealer, polled=snaps == "polled")
    except CambioError as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(1, str(exc)) from None


Move = tuple[int, Action, int, dict[str, Any]]
"""A recorded action: seat, action, line, and the event (with what it showed)."""


def run(header: dict[str, Any], moves: list[Move]) -> Result:
    """Replay ``moves`` (seat, action, line, recorded observations) and check observations."""
    state = state_from_header(header)
    result = Result(header, state, [g[:] for g in state.grids], [k[:] for k in state.known])
    for seat, action, line, recorded in moves:
        events: list[Event] = []
        try:
            action = state.play(action, seat, events)
        except CambioError as exc:
            raise RecordError(line, str(exc)) from None
        facts = observations(events)
        for key, value, _ in facts:
            if key in recorded and recorded[key] != value:
                raise RecordError(line, f"{key!r} is {recorded[key]!r} in the record, "
                                        f"but replaying gives {value!r}")
        missing = set(recorded) - {k for k, _, _ in facts} - {"seat", "action"}
        if missing:
            raise RecordError(line, f"the record shows {sorted(missing)} but this action "
                                    "reveals no such thing")
        result.steps.append(Step(seat, action, facts))
    return result


def observations(events: list[Event]) -> list[Fact]:
    """What an action revealed, and to whom, read off the engine's events: a record's
    observations in their fixed order (penalty cards in slot order, then the reshuffles)."""
    facts: list[Fact] = []
    penalty: list[Penalty] = []
    reshuffles = 0
    for e in events:
        if isinstance(e, (Drew, Peeked, Gave)):
            facts.append(("card", card_code(e.card), e.audience))
        elif isinstance(e, Discarded):
            facts.append(("discarded", card_code(e.card), e.audience))
        elif isinstance(e, Exchanged):
            facts.append(("discarded" if e.taken else "revealed",
                          [card_code(c) for c in e.cards], EVERYONE))
        elif isinstance(e, Looked):
            facts.append(("cards", [card_code(x) for x in e.cards], e.audience))
        elif isinstance(e, Snapped):
            facts += [("card", card_code(e.card), e.audience), ("right", e.right, e.audience)]
        elif isinstance(e, Penalty):
            penalty.append(e)
        elif isinstance(e, Reshuffled):
            reshuffles += 1
    if penalty:
        cards = [card_code(p.card) for p in sorted(penalty, key=lambda p: p.slot)]
        facts.append(("penalty", cards, NOBODY))
    if reshuffles:
        facts.append(("reshuffled", reshuffles, EVERYONE))
    return facts


def replay(record: Record) -> Result:
    """Validate a record by replaying it. Raises :class:`RecordError` naming the line."""
    header = record.header
    view = header.get("view")
    if view is not None:
        return _player_view(record)
    moves, deal, end = _read_events(record)
    result = run(header, moves)
    if deal is not None:
        want = [[card_code(c) for c in g] for g in result.deal]
        if deal[1] != want:
            raise RecordError(deal[0], f"the deal is {deal[1]!r} in the record, "
                                       f"but these rules and seed deal {want!r}")
    if end is not None:
        _check_end(result.state, *end)
    return result


def _read_events(record: Record
                 ) -> tuple[list[Move], tuple[int, Any] | None, tuple[int, Any] | None]:
    """The record's moves, and its ``deal`` and ``end`` lines (with their line numbers)."""
    moves: list[Move] = []
    deal: tuple[int, Any] | None = None
    end: tuple[int, Any] | None = None
    for ev, line in zip(record.events, record.lines, strict=True):
        if end is not None:
            raise RecordError(line, "nothing may follow the \"end\" line")
        if "deal" in ev:
            if len(ev) != 1 or moves or deal is not None:
                raise RecordError(line, "\"deal\" must be alone on the first event line")
            deal = (line, ev["deal"])
        elif "end" in ev:
            if len(ev) != 1:
                raise RecordError(line, "\"end\" must be alone on its line")
            end = (line, ev["end"])
        else:
            moves.append(_move(ev, line))
    return moves, deal, end


def _move(ev: dict[str, Any], line: int) -> Move:
    unknown = set(ev) - EVENT_KEYS
    if unknown:
        raise RecordError(line, f"unknown keys {sorted(unknown)}")
    seat = ev.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RecordError(line, "each event needs an integer \"seat\"")
    text = ev.get("action")
    if not isinstance(text, str):
        raise RecordError(line, "each event needs an \"action\" string")
    try:
        action = parse_action(text)
    except CambioError as exc:
        raise RecordError(line, str(exc)) from None
    return seat, action, line, ev


def _check_end(s: State, line: int, stated: Any) -> None:
    """The record's ``end`` facts must be the replayed round's."""
    if not s.is_over():
        raise RecordError(line, "the record says the round ended, but it is not over")
    got = end_facts(s)
    if not isinstance(stated, dict):
        raise RecordError(line, "\"end\" must be an object")
    for key, value in stated.items():
        if key not in got:
            raise RecordError(line, f"unknown key {key!r} in \"end\"")
        if got[key] != value:
            raise RecordError(line, f"end {key} is {value!r} in the record, "
                                    f"but replaying gives {got[key]!r}")


def _player_view(record: Record) -> Result:
    """A player's-eye record cannot be replayed (it holds no deck); its shape is checked
    (every line it shows must make sense for its players) and it is read for showing."""
    header = record.header
    unknown = set(header) - HEADER_KEYS
    if unknown:
        raise RecordError(1, f"unknown header keys {sorted(unknown)}")
    n = header.get("players")
    count = len(n) if isinstance(n, list) else n if _is_int(n) else None
    view = header.get("view")
    if count is None or not _is_int(view) or not 0 <= view < count:
        raise RecordError(1, "\"view\" must be a seat of this record")
    try:
        rules = Rules.from_json(header.get("rules", {"preset": "rulebook"}))
        state = State(rules, count, seed=0)
    except CambioError as exc:
        raise RecordError(1, str(exc)) from None
    result = Result(header, state, [], [], view=view, events=list(record.events))
    for ev, line in zip(record.events, record.lines, strict=True):
        if "deal" in ev:
            _check_grids(ev["deal"], count, line, "deal")
        elif "end" in ev:
            end = ev["end"]
            if not isinstance(end, dict):
                raise RecordError(line, "\"end\" must be an object")
            _check_grids(end.get("grids", []), count, line, "end grids", empty_ok=True)
            for key in ("scores", "winners"):
                value = end.get(key, [])
                if not isinstance(value, list) or not all(_is_int(x) for x in value):
                    raise RecordError(line, f"end {key} must be a list of whole numbers")
            result.end = end
        else:
            unknown = set(ev) - EVENT_KEYS
            if unknown:
                raise RecordError(line, f"unknown keys {sorted(unknown)}")
            seat = ev.get("seat")
            if not _is_int(seat) or not 0 <= seat < count:
                raise RecordError(line, f"each event needs a \"seat\" below {count}")
            if not isinstance(ev.get("action"), str):
                raise RecordError(line, "each event needs an \"action\" string")
    return result


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_grids(grids: Any, count: int, line: int, what: str, empty_ok: bool = False) -> None:
    """Grids as a record shows them: one list per player of card codes, ``"?"`` or null."""
    if empty_ok and grids == []:
        return
    if not isinstance(grids, list) or len(grids) != count or not all(
            isinstance(g, list) and all(c is None or isinstance(c, str) for c in g)
            for g in grids):
        raise RecordError(line, f"the {what} must be {count} lists of card codes")


def seat_names(header: dict[str, Any]) -> list[str]:
    """The seats' names a header gives (``seat i`` when it gives only a count)."""
    players = header.get("players")
    if isinstance(players, list):
        return [str(p.get("name", f"seat {i}")) if isinstance(p, dict) else str(p)
                for i, p in enumerate(players)]
    if isinstance(players, int):
        return [f"seat {i}" for i in range(players)]
    return []


__all__ = ["Result", "end_facts", "export", "make_header", "observations", "record_of",
           "record_text", "replay", "run", "seat_names", "state_from_header"]
