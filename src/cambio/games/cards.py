"""The card game behind the :class:`~cambio.games.Game` interface."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cambio.bots.cards import make_bot, play_round
from cambio.bots.cards.registry import CARD_BOTS
from cambio.cards import Rules, State
from cambio.records import cards as records

from . import Played


class CardsGame:
    name = "cards"
    show_record = "cambio.terminal.cards_record:show_record"

    def check(self, rules: Rules, players: int) -> None:
        rules.check_players(players)

    def rules_json(self, rules: Rules) -> dict[str, Any]:
        out: dict[str, Any] = rules.to_json()
        return out

    def make_bot(self, spec: str, rules: Rules, seed: int) -> Any:
        return make_bot(spec, seed)

    def play(self, rules: Rules, players: int, seed: int, bots: Sequence[Any],
             first: int | None, options: tuple[tuple[str, Any], ...] = ()) -> Played:
        """One round; ``first`` is the dealer (``None``: the last seat, so seat 0 plays
        first)."""
        state = State(rules, players, seed=seed, dealer=first, polled=True)
        play_round(state, list(bots))
        return played(state.scores(), state.winners(), state.history_length(),
                      state.end_reason.name.lower(), state.caller, state.turn_number,
                      state.history)

    def bot_list(self) -> list[dict[str, Any]]:
        return CARD_BOTS.public()

    def record(self, rules: Rules, players: int, seed: int, first: int | None,
               names: Sequence[str], played: Played,
               options: tuple[tuple[str, Any], ...] = ()) -> str:
        seats = [{"name": f"{name} (seat {seat})", "bot": name} for seat, name in enumerate(names)]
        header = records.make_header(rules, seats, seed=seed, dealer=first, polled=True)
        return records.record_text(header, played.history)

    def replay(self, record: Any) -> Any:
        return records.replay(record)

    def export(self, result: Any, seat: int | None) -> str:
        return records.export(result, seat)


def played(scores: Sequence[int], winners: Sequence[int], plies: int, end: str, caller: int,
           turns: int, history: Any = None) -> Played:
    """A round's :class:`Played`, whichever engine played it (the batch engine too): the
    caller's seat and the turns go in ``stats`` for the card game's own summary."""
    stats = [("turns", turns)]
    if caller >= 0:
        stats += [(f"calls:{caller}", 1), ("caller_wins", int(caller in winners))]
    return Played(tuple(scores), tuple(winners), plies, end, history, tuple(stats))


GAME = CardsGame()

__all__ = ["GAME", "CardsGame", "played"]
