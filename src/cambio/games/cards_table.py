"""The card game at a server table: a match of real-time rounds behind the generic
:class:`~cambio.games.TableMatch` and :class:`~cambio.games.Position`.

Rounds run with ``State(polled=False)``: snaps are legal for every eligible seat while the
top of the pile can be matched, and the table applies them in arrival order (the position is
:class:`~cambio.games.Snaps`). Each accepted action's facts are read off the engine's events
by :func:`cambio.records.cards.observations` (with their audience), so messages are filtered
exactly like player's-eye records; views come from :func:`cambio.cards.observe`. Bots were
written for polled states: at their turn they get their legal actions without snaps, and in
an open snap window they get a poll-shaped view (``pass`` plus the snaps) at a random moment
chosen by the table.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from cambio.bots.cards import CardBot, tell_standing
from cambio.cards import (
    EMPTY,
    MAX_PLAYERS,
    CambioError,
    IllegalActionError,
    Match,
    Phase,
    Rules,
    Standing,
    State,
    action_text,
    card_code,
    observe,
    parse_action,
    parse_cards,
)
from cambio.cards.actions import PASS, SNAP, kind_of
from cambio.cards.events import Discarded, Event, Snapped
from cambio.records.cards import end_facts, make_header, observations, record_text
from cambio.seeds import derive_seed

from . import Step

MAX_ROUNDS = 20
"""The most rounds a table's match may have."""


def quick_bot(bot: CardBot) -> bool:
    """``random``, ``easy`` and ``memory`` decide in tens of microseconds (median; ``hard``
    searches for milliseconds). Exact types: ``expert`` is a kind of ``memory`` that does
    more. Imported here, when a table seats its bots: importing the game loads no bot."""
    from cambio.bots.cards import ExpectedPointsBot, RandomBot, SlippingBot
    return type(bot) in (RandomBot, SlippingBot, ExpectedPointsBot)


def table_config(players: int, body: Mapping[str, Any]) -> dict[str, Any]:
    """``{"rules", "rounds"}`` from a create-table body; ``ValueError`` saying what is
    wrong."""
    try:
        rules = Rules.from_json(body.get("rules", {"preset": "house"}))
        rules.check_players(players)
    except CambioError as exc:
        raise ValueError(str(exc)) from None
    rounds = body.get("rounds", 1)
    if not isinstance(rounds, int) or isinstance(rounds, bool) \
            or not 1 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"'rounds' must be a whole number from 1 to {MAX_ROUNDS}")
    return {"rules": rules.to_json(), "rounds": rounds}


class CardPosition:
    """One real-time round at a table (a :class:`~cambio.games.Position` that is
    :class:`~cambio.games.Snaps`, :class:`~cambio.games.Hints` and
    :class:`~cambio.games.Reveals`)."""

    def __init__(self, state: State, header: dict[str, Any],
                 standing: Standing | None = None) -> None:
        self.state = state
        self.header = header
        self.standing = standing
        """The match this round is part of, told to the bots that play toward its end."""
        self._window = 0

    # ------------------------------------------------------------------ the round
    def decider(self) -> int | None:
        return None if self.state.is_over() else self.state.current_player()

    def legal(self, seat: int) -> list[str]:
        return [action_text(a) for a in observe(self.state, seat).legal]

    def play(self, seat: int, text: str) -> Step:
        try:
            action = parse_action(text)
        except CambioError as exc:
            raise ValueError(str(exc)) from None
        events: list[Event] = []
        try:
            action = self.state.play(action, seat, events)
        except IllegalActionError as exc:
            raise ValueError(exc.reason) from None
        if any(isinstance(e, Discarded) or (isinstance(e, Snapped) and e.right)
               for e in events):
            self._window += 1  # a new card on the pile: a new snap window
        return Step(action_text(action), observations(events))

    def outcome(self) -> dict[str, Any] | None:
        return end_facts(self.state) if self.state.is_over() else None

    def view(self, seat: int | None) -> dict[str, Any]:
        return observe(self.state, seat).to_json()

    def open_view(self) -> dict[str, Any]:
        """A spectator's view with every card face up (a finished round's replay)."""
        state = self.state
        view = observe(state, None).to_json()
        view["grids"] = [[None if c == EMPTY else card_code(c) for c in g] for g in state.grids]
        view["held"] = None if state.held == EMPTY else card_code(state.held)
        return view

    def record(self, names: Sequence[str], seat: int | None) -> str:
        """The round's record with the header it was dealt from (``names`` are in it)."""
        return record_text(self.header, self.state.history, seat)

    # ------------------------------------------------------------------ bots
    def bot_move(self, bot: CardBot, seat: int) -> str:
        tell_standing(bot, self.standing)
        view = observe(self.state, seat)
        legal = tuple(a for a in view.legal if kind_of(a) != SNAP)
        choice = bot.act(dataclasses.replace(view, legal=legal)) if len(legal) > 1 else legal[0]
        if choice not in legal:  # a bot bug must not stop the table
            choice = legal[0]
        return action_text(choice)

    def hint(self, seat: int, version: int) -> dict[str, Any] | None:
        """The ``hard`` bot's suggestion for ``seat`` from its own view (numba: loaded on
        the first hint, never by the offline client, which offers none)."""
        from cambio.bots.cards.hints import suggest
        state = self.state
        if state.is_over() or state.current_player() != seat:
            return None
        view = observe(state, seat)
        legal = tuple(a for a in view.legal if kind_of(a) != SNAP)
        if len(legal) < 2:
            return None
        hint = suggest(dataclasses.replace(view, legal=legal),
                       seed=derive_seed(state.seed, version, seat, 7), standing=self.standing)
        return {"action": hint.text, "text": hint.describe(), "score": hint.score,
                "win_share": hint.win_share, "runner_up": hint.runner_up,
                "runner_up_score": hint.runner_up_score,
                "runner_up_win_share": hint.runner_up_win, "match": hint.match}

    # ------------------------------------------------------------------ snaps
    def snap_window(self) -> int | None:
        state = self.state
        return None if state.is_over() or not state.pile else self._window

    def can_snap(self, seat: int) -> bool:
        return not self.state.is_over() and self.state.can_snap(seat)

    def bot_snap(self, bot: CardBot, seat: int) -> str | None:
        tell_standing(bot, self.standing)
        view = observe(self.state, seat)
        snaps = tuple(a for a in view.legal if kind_of(a) == SNAP)
        if not snaps:
            return None
        choice = bot.act(dataclasses.replace(view, phase=Phase.POLL, legal=(PASS, *snaps)))
        return action_text(choice) if choice in snaps else None

    def is_snap(self, text: str) -> bool:
        # SPEC: a later snap is judged against the new top card, whatever it was aimed at.
        try:
            return kind_of(parse_action(text)) == SNAP
        except CambioError:
            return False


class CardMatch:
    """A table's match: ``rounds`` real-time rounds of :class:`cambio.cards.Match`."""

    def __init__(self, rules: Rules, players: int, seed: int, rounds: int,
                 deck: Sequence[str] | None = None) -> None:
        self.rules = rules
        self.deck = list(deck) if deck else None
        """The first round's scripted deck top (the tutorial's deal), card codes."""
        # Rules with a match target (Cabo's 100) play to it: the table's rounds do not count.
        self.match = Match(rules, players, seed=seed,
                           rounds=None if rules.match_target is not None else rounds,
                           polled=False)

    def header(self, names: list[dict[str, Any]], extra: dict[str, Any]) -> dict[str, Any]:
        m = self.match
        return make_header(self.rules, names, seed=m.round_seed(m.round_number),
                           deck=self._deck(), dealer=m.dealer, polled=False, extra=extra)

    def _deck(self) -> list[str] | None:
        return self.deck if self.match.round_number == 1 else None

    def deal(self, header: dict[str, Any]) -> CardPosition:
        deck = self._deck()
        state = self.match.new_round(parse_cards(deck) if deck else None)
        if state.seed != header["seed"] or state.dealer != header.get("dealer", state.dealer):
            raise RuntimeError("stored round header does not match the match's next round")
        return CardPosition(state, header, self.match.standing())

    def finish_round(self, position: Any) -> None:
        assert isinstance(position, CardPosition)
        self.match.finish_round(position.state)

    def over(self) -> bool:
        return self.match.is_over()

    def totals(self) -> list[int] | None:
        return list(self.match.totals)

    def result(self) -> dict[str, Any]:
        m = self.match
        return {"scores": [list(s) for s in m.round_scores], "totals": list(m.totals),
                "resets": list(m.resets),
                "winners": m.winners() if m.is_over() else None}


SEATS = (2, MAX_PLAYERS)
