"""The card game behind the :class:`~cambio.games.Game` interface."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cambio.bots.cards import make_bot, play_round
from cambio.bots.cards.registry import CARD_BOTS
from cambio.cards import CambioError, Rules, State
from cambio.records import cards as records

from . import Played
from . import cards_table as table


class CardsGame:
    """The card game; at a server table, a match of real-time rounds with snaps and hints
    (:mod:`cambio.games.cards_table`)."""

    name = "cards"
    show_record = "cambio.terminal.cards_record:show_record"
    seats = table.SEATS
    away_bot = "memory"
    table_options: Mapping[str, tuple[str, ...]] = {}
    config_fields = ("rules", "rounds", "deck")
    """A table's fields; ``deck`` (a scripted deal's deck top) is the server's own
    (:mod:`cambio.server.tutorial`), never a caller's nor listed."""
    quick_play = True
    hint_bot = "deep"
    """The bot whose searches the hints are (a server waits for its kernels)."""

    # ------------------------------------------------------------------ at a table
    def table_config(self, players: int, body: Mapping[str, Any]) -> dict[str, Any]:
        return table.table_config(players, body)

    def table_listing(self, config: Mapping[str, Any]) -> dict[str, Any]:
        out = {name: config[name] for name in self.config_fields
               if name in config and name != "deck"}
        target = Rules.from_json(config["rules"]).match_target if "rules" in config else None
        if target is not None:  # played to the target: the rounds are not counted out
            out.update(target=target, rounds=0)
        return out

    def table_rules(self, players: int, options: Mapping[str, Any]) -> Rules:
        try:
            rules = Rules.from_json(options.get("rules", {"preset": "house"}))
            rules.check_players(players)
        except CambioError as exc:
            raise ValueError(str(exc)) from None
        return rules

    def match(self, rules: Rules, players: int, seed: int,
              options: Mapping[str, Any]) -> table.CardMatch:
        return table.CardMatch(rules, players, seed, int(options.get("rounds", 1)),
                               options.get("deck"))

    def start(self, rules: Rules, players: int, seed: int,
              options: Mapping[str, Any]) -> table.CardPosition:
        """A one-round match's round."""
        m = table.CardMatch(rules, players, seed, 1)
        return m.deal(m.header(players_named(players), {}))

    def replay_round(self, header: dict[str, Any]) -> table.CardPosition:
        return table.CardPosition(records.state_from_header(header), header)

    def quick_bot(self, bot: Any) -> bool:
        return table.quick_bot(bot)

    # ------------------------------------------------------------------ the Game

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


def players_named(players: int) -> list[dict[str, Any]]:
    return [{"name": f"seat {i}"} for i in range(players)]


GAME = CardsGame()

__all__ = ["GAME", "CardsGame", "played"]
