"""A card table's game: a :class:`~cambio.cards.Match` of real-time rounds.

Rounds run with ``State(polled=False)``: snaps are legal for every eligible seat while the
top of the pile can be matched, and the actor applies them in arrival order. Each accepted
action's facts are read off the engine's events by :func:`cambio.records.cards.observations`
(with their audience), so messages are filtered exactly like player's-eye records; views come
from :func:`cambio.cards.observe`. Bots were written for polled states: at their turn they get
their legal actions without snaps, and in an open snap window they get a poll-shaped view
(``pass`` plus the snaps) at a random moment chosen by the actor.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from cambio.bots.cards import CardBot, ExpectedPointsBot, RandomBot, SlippingBot, make_bot
from cambio.cards import (
    CambioError,
    IllegalActionError,
    Match,
    Phase,
    Rules,
    State,
    action_text,
    observe,
    parse_action,
)
from cambio.cards.actions import PASS, SNAP, kind_of
from cambio.cards.events import Discarded, Event, Snapped
from cambio.records.cards import end_facts, make_header, observations, record_text
from cambio.seeds import derive_seed

from .errors import ILLEGAL, STALE, ProtocolError
from .session import Applied, DrivenBot, SeatBot

QUICK_BOTS = (RandomBot, SlippingBot, ExpectedPointsBot)
"""Card bots whose moves the table computes on the event loop (:meth:`CardSession.quick_bot`)."""


class CardSession:
    """One match (``rounds`` rounds) at a card table."""

    game = "cards"
    threaded_bots = True
    """``hard`` searches for tens of milliseconds a move: the table runs bots off the loop."""

    def __init__(self, rules: Rules, players: int, seed: int, rounds: int,
                 match_id: str) -> None:
        self.rules = rules
        self.players = players
        # Rules with a match target (Cabo's 100) play to it: the table's rounds do not count.
        self.match = Match(rules, players, seed=seed,
                           rounds=None if rules.match_target is not None else rounds,
                           polled=False)
        self.match_id = match_id
        self.state: State | None = None
        self.round_no = 0
        self.log: list[Applied] = []
        self._window = 0

    @property
    def version(self) -> int:
        return len(self.log)

    # ------------------------------------------------------------------ rounds
    def next_header(self, names: list[dict[str, Any]], started: str) -> dict[str, Any]:
        m = self.match
        k = m.round_number
        return make_header(self.rules, names, seed=m.round_seed(k), dealer=m.dealer,
                           polled=False, extra={"match": {"id": self.match_id, "round": k},
                                                "started": started})

    def deal(self, header: dict[str, Any]) -> None:
        state = self.match.new_round()
        if state.seed != header["seed"] or state.dealer != header.get("dealer", state.dealer):
            raise RuntimeError("stored round header does not match the match's next round")
        self.state = state
        self.round_no = self.match.round_number
        self.log = []
        self._window = 0

    def round_over(self) -> bool:
        return self.state is None or self.state.is_over()

    def finish_round(self) -> None:
        assert self.state is not None
        self.match.finish_round(self.state)

    def game_over(self) -> bool:
        return self.match.is_over()

    def totals(self) -> list[int] | None:
        return list(self.match.totals)

    def result(self) -> dict[str, Any]:
        m = self.match
        return {"scores": [list(s) for s in m.round_scores], "totals": list(m.totals),
                "resets": list(m.resets),
                "winners": m.winners() if m.is_over() else None}

    # ------------------------------------------------------------------ acting
    def parse(self, text: str) -> int:
        try:
            return parse_action(text)
        except CambioError as exc:
            raise ProtocolError(ILLEGAL, str(exc)) from None

    def play(self, seat: int, text: str, version: int) -> Applied:
        state = self.state
        if state is None:
            raise ProtocolError(ILLEGAL, "no round is being played")
        action = self.parse(text)
        now = self.version
        # A snap is judged against the state it finds (SPEC: later snaps are judged against
        # the new top card); every other action must be aimed at the current version.
        if version != now and not (kind_of(action) == SNAP and version < now):
            raise ProtocolError(STALE, f"the current version is {now}")
        events: list[Event] = []
        try:
            action = state.play(action, seat, events)
        except IllegalActionError as exc:
            raise ProtocolError(ILLEGAL, exc.reason) from None
        if any(isinstance(e, Discarded) or (isinstance(e, Snapped) and e.right)
               for e in events):
            self._window += 1  # a new card on the pile: a new snap window
        end = end_facts(state) if state.is_over() else None
        applied = Applied(now + 1, seat, action_text(action), observations(events), end)
        self.log.append(applied)
        return applied

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> dict[str, Any]:
        assert self.state is not None
        return observe(self.state, seat).to_json()

    # ------------------------------------------------------------------ bots
    def decider(self) -> int | None:
        state = self.state
        if state is None or state.is_over():
            return None
        return state.current_player()

    def seat_bot(self, name: str, seed: int) -> SeatBot:
        return DrivenBot(self, self.make_bot(name, seed))

    def make_bot(self, name: str, seed: int) -> CardBot:
        return make_bot(name, seed)

    def quick_bot(self, bot: CardBot) -> bool:
        """``random``, ``easy`` and ``memory`` (the away bot) decide in tens of microseconds
        (median; ``hard`` searches for milliseconds). Exact types: ``expert`` is a kind of
        ``memory`` that does more."""
        return type(bot) in QUICK_BOTS

    def bot_move(self, bot: CardBot, seat: int) -> str:
        assert self.state is not None
        view = observe(self.state, seat)
        legal = tuple(a for a in view.legal if kind_of(a) != SNAP)
        choice = bot.act(dataclasses.replace(view, legal=legal)) if len(legal) > 1 else legal[0]
        if choice not in legal:  # a bot bug must not stop the table
            choice = legal[0]
        return action_text(choice)

    def hint(self, seat: int) -> dict[str, Any] | None:
        """The ``hard`` bot's suggestion for ``seat`` from its own view (``None`` if the
        seat has no decision to make now). Computed off the loop by the table."""
        from cambio.bots.cards.hints import suggest
        state = self.state
        if state is None or state.is_over() or state.current_player() != seat:
            return None
        view = observe(state, seat)
        legal = tuple(a for a in view.legal if kind_of(a) != SNAP)
        if len(legal) < 2:
            return None
        hint = suggest(dataclasses.replace(view, legal=legal),
                       seed=derive_seed(state.seed, self.version, seat, 7))
        return {"action": hint.text, "text": hint.describe(), "score": hint.score,
                "win_share": hint.win_share, "runner_up": hint.runner_up,
                "runner_up_score": hint.runner_up_score,
                "runner_up_win_share": hint.runner_up_win}

    def snap_window(self) -> int | None:
        state = self.state
        if state is None or state.is_over() or not state.pile:
            return None
        return self._window

    def can_snap(self, seat: int) -> bool:
        state = self.state
        return state is not None and not state.is_over() and state.can_snap(seat)

    def bot_snap(self, bot: CardBot, seat: int) -> str | None:
        assert self.state is not None
        view = observe(self.state, seat)
        snaps = tuple(a for a in view.legal if kind_of(a) == SNAP)
        if not snaps:
            return None
        choice = bot.act(dataclasses.replace(view, phase=Phase.POLL, legal=(PASS, *snaps)))
        return action_text(choice) if choice in snaps else None


def card_record(header: dict[str, Any], actions: list[tuple[int, str]],
                seat: int | None) -> str:
    """A stored round as record text: full (``seat=None``) or that seat's eyes."""
    return record_text(header, [(s, parse_action(a)) for s, a in actions], seat)
