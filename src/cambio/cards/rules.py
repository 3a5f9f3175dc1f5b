"""The rule set of the card game: one frozen object, three presets, any field overridable.

Every difference between the three published texts (SPEC 1.1) and every house rule players
ask for (SPEC 1.3) is a field here, so a table's rules are one value that can be stored in a
record, compared, and sent to a client.

>>> Rules.preset("house").value_queen
12
>>> r = Rules.preset("rulebook", value_black_king=-2, jokers_per_deck=4)
>>> r.overrides()
{'jokers_per_deck': 4, 'value_black_king': -2}
>>> Rules.from_json(r.to_json()) == r
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from .cards import ACE, JACK, JOKER, KING, NUM_CARD_CODES, QUEEN, Card, deck_cards, is_red
from .errors import RulesError

PRESET_NAMES = ("rulebook", "house", "wikipedia", "cabo", "cambia", "evan")
MAX_PLAYERS = 64
"""The most seats a card game may have, whatever its rules (a preset may allow fewer, as
``wikipedia``'s ``max_players`` does): who knows a card, and who sees an event, are kept as
masks of seats (``1 << seat``) that the native kernels hold in 64-bit integers. The server's
tables take the same limit (:mod:`cambio.server.games`); docs/protocol.md says it."""
AS_JACK = "as_jack"
"""``power_queen`` written as text when the queen has the jack's power (the field's none)."""
MAX_TURNS_LIMIT = 10_000
"""The highest turn cap a table may set: it bounds the cost of any one round."""


class Power(StrEnum):
    """What discarding a power card lets the discarder do."""

    NONE = "none"
    PEEK_OWN = "peek_own"
    PEEK_OTHER = "peek_other"
    SWAP_OWN_OTHER = "swap_own_other"
    """Swap one of your cards with another player's, unseen."""
    SWAP_ANY = "swap_any"
    """Swap any two cards on the table (any owners), unseen."""
    LOOK_OWN_OTHER_MAY_SWAP = "look_own_other_may_swap"
    """Look at one own card and one of another player's, then swap those two or keep."""
    LOOK_ANY_SWAP_ANY = "look_any_two_swap_any_two"
    """Look at any two cards, then swap any two cards (required, not necessarily the same)."""
    LOOK_ONE_SWAP_ANY = "look_any_one_swap_any_two"
    """Look at any one card, then swap any two cards (required)."""


class PowerTrigger(StrEnum):
    END_OF_TURN_DISCARD = "end_of_turn_discard"
    """The card put on the pile at the end of the turn fires, drawn or replaced."""
    DRAWN_AND_DISCARDED = "drawn_and_discarded"
    """Only a card drawn from the deck and discarded at once fires."""


class Resnap(StrEnum):
    ANYONE = "anyone"
    SNAPPER_ONLY = "snapper_only"


class TieRule(StrEnum):
    ALL_TIED_WIN = "all_tied_win"
    MOST_CARDS_THEN_NOT_CALLER = "most_cards_then_not_caller"
    CALLER_WINS_TIES = "caller_wins_ties"
    """A caller tied for the lowest total wins alone; otherwise everyone tied wins."""
    NOT_CALLER = "not_caller"
    """A caller tied for the lowest total loses the tie; the others tied all win."""


class NextRound(StrEnum):
    DEALER_MOVES_LEFT = "dealer_moves_left"
    WINNER_STARTS = "winner_starts"


class DeckKind(StrEnum):
    """Which cards one deck holds."""

    STANDARD = "standard"
    """52 cards (A-K in four suits) and ``jokers_per_deck`` jokers."""
    CABO = "cabo"
    """Cabo's 52 cards worth 0-13: two 0s, four each of 1-12, two 13s. They are dealt as
    card codes: the 0s are the two jokers (``XB``, ``XR``), 1-12 are A-Q of four suits and
    the 13s are the two black kings (``KC``, ``KS``), so the value fields give their worth."""


class RoundZero(StrEnum):
    """Who scores 0 for the round instead of their cards. (No choice of any rule is spelt
    ``none`` but ``Power.NONE``: the words of choices are looked up by value.)"""

    NOBODY = "nobody"
    CALLER_IF_LOWEST = "caller_if_lowest"
    """The caller, when their total is the lowest or tied for it (Cabo, 2nd edition)."""
    LOWEST = "lowest"
    """Whoever has the lowest total, tied players too (Cabo, 1st edition)."""


class Kamikaze(StrEnum):
    """A hand that scores ``kamikaze_holder`` for its holder and ``kamikaze_others`` for
    everyone else."""

    OFF = "off"
    TWELVES_THIRTEENS = "12_12_13_13"
    """Exactly four cards, worth 12, 12, 13 and 13 (Cabo)."""


class ExchangeMismatch(StrEnum):
    """What happens when the cards of a multi-card exchange are not all of one value."""

    KEEP_ALL = "keep_all"
    """They stay, face up, and the drawn card joins the grid too (Cabo, 2nd edition)."""
    RETURN = "return"
    """They go back face up and the drawn card is discarded (Cabo, 1st edition)."""


_RANGES: tuple[tuple[str, int, int, bool], ...] = (
    ("jokers_per_deck", 0, 8, False),
    ("opening_peek", 0, 4, False),
    ("snap_penalty", 0, 4, False),
    ("max_grid", 4, 64, True),
    ("decks", 1, 8, True),
    ("failed_call_penalty", -100, 100, False),
    ("kamikaze_holder", -200, 200, False),
    ("kamikaze_others", -200, 200, False),
    ("match_target", 1, 10_000, True),
    ("max_turns", 1, MAX_TURNS_LIMIT, False),
)
"""The numeric fields' bounds: name, lowest, highest, and whether ``None`` is allowed."""


@dataclass(frozen=True, slots=True)
class Rules:
    """All the rules of one card game. Build one with :meth:`preset`."""

    preset_name: str = "rulebook"
    min_players: int = 2
    max_players: int | None = None
    players_per_extra_deck: int = 6
    jokers_per_deck: int = 2
    value_ace: int = 1
    value_jack: int = 10
    value_queen: int = 10
    value_black_king: int = 10
    value_red_king: int = -1
    value_joker: int = 0
    opening_peek: int = 2
    draw_from_discard: bool = False
    power_trigger: PowerTrigger = PowerTrigger.END_OF_TURN_DISCARD
    powers_optional: bool = False
    power_seven_eight: Power = Power.PEEK_OWN
    power_nine_ten: Power = Power.PEEK_OTHER
    power_jack_queen: Power = Power.SWAP_OWN_OTHER
    power_queen: Power | None = None
    """The queen's own power (none: ``power_jack_queen``, as for the jack)."""
    power_black_king: Power = Power.LOOK_OWN_OTHER_MAY_SWAP
    power_red_king: Power = Power.LOOK_OWN_OTHER_MAY_SWAP
    resnap: Resnap = Resnap.ANYONE
    snap_penalty: int = 1
    tie_rule: TieRule = TieRule.ALL_TIED_WIN
    next_round: NextRound = NextRound.DEALER_MOVES_LEFT
    # House rules (SPEC 1.3), off in every preset.
    lock_caller: bool = False
    caller_may_snap: bool = True
    max_grid: int | None = None
    empty_grid_calls_cambio: bool = False
    earliest_cambio_turn: int = 1
    one_snap_per_discard: bool = False
    # Other groups' rules (the cabo and cambia presets), off in the three Cambio presets.
    deck: DeckKind = DeckKind.STANDARD
    decks: int | None = None
    """A fixed number of decks whatever the number of players (none: by
    ``players_per_extra_deck``)."""
    snapping: bool = True
    snap_others: bool = True
    """Whether another player's card may be snapped (off: only your own)."""
    reshuffle_pile: bool = True
    """An empty deck is refilled from the pile (off: the round ends when the deck runs out)."""
    multi_exchange: bool = False
    exchange_mismatch: ExchangeMismatch = ExchangeMismatch.KEEP_ALL
    round_zero: RoundZero = RoundZero.NOBODY
    failed_call_penalty: int = 0
    kamikaze: Kamikaze = Kamikaze.OFF
    kamikaze_holder: int = 0
    kamikaze_others: int = 50
    match_target: int | None = None
    """A match ends once someone's total passes this (none: a match of set rounds)."""
    match_reset_to: int | None = None
    """A total of exactly ``match_target`` is set to this (none: no reset)."""
    match_resets: int | None = None
    """How often one player's total may be reset in a match (none: no limit)."""
    # A bound, not a house rule: no real round gets near it (see docs/rules.md).
    max_turns: int = 1000
    """The turn cap: the round ends, scored as usual, when turn ``max_turns`` is over."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if not _has_type(value, _FIELD_TYPES[f.name]):
                raise RulesError(f"rule {f.name}={value!r} has the wrong type")
        self._check_bounds()

    def _check_bounds(self) -> None:
        if self.preset_name not in PRESET_NAMES:
            names = ", ".join(PRESET_NAMES)
            raise RulesError(f"unknown preset {self.preset_name!r}; presets: {names}")
        if self.min_players < 2:
            raise RulesError("min_players must be at least 2")
        if self.max_players is not None and self.max_players < self.min_players:
            raise RulesError("max_players must be at least min_players")
        if self.players_per_extra_deck < 1:
            raise RulesError("players_per_extra_deck must be at least 1")
        if self.earliest_cambio_turn < 1:
            raise RulesError("earliest_cambio_turn must be at least 1")
        for name, low, high, optional in _RANGES:
            value = getattr(self, name)
            if (value is not None or not optional) and not low <= value <= high:
                none = " (or none)" if optional else ""
                raise RulesError(f"{name} must be between {low} and {high}{none}")
        if self.match_reset_to is not None and (
                self.match_target is None or not 0 <= self.match_reset_to < self.match_target):
            raise RulesError("match_reset_to needs a match_target and must be below it")
        if self.match_resets is not None and self.match_resets < 0:
            raise RulesError("match_resets must be at least 0 (or none)")

    # ----------------------------------------------------------------- construction
    @staticmethod
    def preset(name: str, **overrides: Any) -> Rules:
        """The preset ``name`` with any fields replaced (house rules)."""
        if name not in PRESETS:
            raise RulesError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")
        base = PRESETS[name]
        if not overrides:
            return base
        return base.with_overrides(overrides)

    def with_overrides(self, overrides: dict[str, Any]) -> Rules:
        """A copy with fields replaced; string values are read as the field's type."""
        values: dict[str, Any] = {}
        for key, raw in overrides.items():
            if key == "preset_name" or key not in _FIELD_TYPES:
                raise RulesError(f"unknown rule {key!r}")
            values[key] = _coerce(key, raw)
        return dataclasses.replace(self, **values)

    def overrides(self) -> dict[str, Any]:
        """The fields that differ from the preset this rule set is based on."""
        return dict(_overrides(self))

    def to_json(self) -> dict[str, Any]:
        return {"preset": self.preset_name, "overrides": self.overrides()}

    @staticmethod
    def from_json(data: Any) -> Rules:
        if not isinstance(data, dict):
            raise RulesError("rules must be an object with 'preset' and 'overrides'")
        unknown = set(data) - {"preset", "overrides"}
        if unknown:
            raise RulesError(f"unknown keys in rules: {sorted(unknown)}")
        name = data.get("preset", "rulebook")
        overrides = data.get("overrides", {})
        if not isinstance(name, str):
            raise RulesError("rules 'preset' must be a string")
        if not isinstance(overrides, dict):
            raise RulesError("rules 'overrides' must be an object")
        return Rules.preset(name, **overrides)

    @staticmethod
    def field_names() -> list[str]:
        return [f.name for f in dataclasses.fields(Rules) if f.name != "preset_name"]

    # ----------------------------------------------------------------- derived facts
    def decks_for(self, players: int) -> int:
        if self.decks is not None:
            return self.decks
        return 1 + players // self.players_per_extra_deck

    def deck_cards(self, players: int) -> list[Card]:
        """Every card a round of ``players`` players is dealt from, unshuffled."""
        return deck_cards(self.decks_for(players), self.jokers_per_deck,
                          red_kings=self.deck == DeckKind.STANDARD)

    def check_players(self, players: int) -> None:
        if players < self.min_players:
            raise RulesError(f"{self.preset_name} needs at least {self.min_players} players")
        if self.max_players is not None and players > self.max_players:
            raise RulesError(f"{self.preset_name} allows at most {self.max_players} players")
        if players > MAX_PLAYERS:
            raise RulesError(f"at most {MAX_PLAYERS} players")

    def value(self, card: int) -> int:
        return tables(self).values[card]

    def power_of(self, card: int) -> Power:
        return tables(self).powers[card]


@lru_cache(maxsize=512)
def _overrides(rules: Rules) -> tuple[tuple[str, Any], ...]:
    """Computed once per rule set: every view a server sends carries the rules."""
    base = PRESETS[rules.preset_name]
    out: list[tuple[str, Any]] = []
    for f in dataclasses.fields(rules):
        if f.name == "preset_name":
            continue
        mine, theirs = getattr(rules, f.name), getattr(base, f.name)
        if mine != theirs:
            out.append((f.name, str(mine) if isinstance(mine, StrEnum) else mine))
    return tuple(out)


def _has_type(value: Any, kind: Any) -> bool:
    """Whether ``value`` is of a rule field's type (``bool`` is not an ``int`` here)."""
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "optint":
        return value is None or (isinstance(value, int) and not isinstance(value, bool))
    if kind is str:
        return isinstance(value, str)
    if kind == "optpower":
        return value is None or isinstance(value, Power)
    return isinstance(value, kind)


def _coerce(key: str, raw: Any) -> Any:
    kind = _FIELD_TYPES[key]
    if not isinstance(raw, str):  # a value of the field's own type (None included) as is
        if isinstance(kind, type) and issubclass(kind, StrEnum):
            raise RulesError(f"rule {key} must be one of {[str(v) for v in kind]}")
        return raw
    try:
        return _parse(kind, raw.strip())
    except ValueError:
        choices = [str(v) for v in kind] if isinstance(kind, type) and issubclass(
            kind, StrEnum) else None
        hint = f"; one of {choices}" if choices else ""
        raise RulesError(f"rule {key}: cannot read {raw!r}{hint}") from None


def _parse(kind: Any, text: str) -> Any:
    """A rule's value written as text (a command line's ``--rule key=value``), read as its
    field's ``kind``; ``ValueError`` when it cannot be."""
    if kind is bool:
        low = text.lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise ValueError(text)
    if kind is int:
        return int(text)
    if kind == "optint":
        return None if text.lower() in ("none", "null", "") else int(text)
    if kind == "optpower":  # "none" is a power (no power): the fallback has its own word
        return None if text.lower() in (AS_JACK, "null", "") else Power(text)
    if isinstance(kind, type) and issubclass(kind, StrEnum):
        return kind(text)
    return text


_FIELD_TYPES: dict[str, Any] = {
    "preset_name": str,
    "min_players": int,
    "max_players": "optint",
    "players_per_extra_deck": int,
    "jokers_per_deck": int,
    "value_ace": int,
    "value_jack": int,
    "value_queen": int,
    "value_black_king": int,
    "value_red_king": int,
    "value_joker": int,
    "opening_peek": int,
    "draw_from_discard": bool,
    "power_trigger": PowerTrigger,
    "powers_optional": bool,
    "power_seven_eight": Power,
    "power_nine_ten": Power,
    "power_jack_queen": Power,
    "power_queen": "optpower",
    "power_black_king": Power,
    "power_red_king": Power,
    "resnap": Resnap,
    "snap_penalty": int,
    "tie_rule": TieRule,
    "next_round": NextRound,
    "lock_caller": bool,
    "caller_may_snap": bool,
    "max_grid": "optint",
    "empty_grid_calls_cambio": bool,
    "earliest_cambio_turn": int,
    "one_snap_per_discard": bool,
    "deck": DeckKind,
    "decks": "optint",
    "snapping": bool,
    "snap_others": bool,
    "reshuffle_pile": bool,
    "multi_exchange": bool,
    "exchange_mismatch": ExchangeMismatch,
    "round_zero": RoundZero,
    "failed_call_penalty": int,
    "kamikaze": Kamikaze,
    "kamikaze_holder": int,
    "kamikaze_others": int,
    "match_target": "optint",
    "match_reset_to": "optint",
    "match_resets": "optint",
    "max_turns": int,
}


@dataclass(frozen=True, slots=True)
class Tables:
    """Per-card lookups compiled once per rule set (the engine's hot loop reads these)."""

    values: tuple[int, ...]
    powers: tuple[Power, ...]


@lru_cache(maxsize=256)
def tables(rules: Rules) -> Tables:
    values: list[int] = []
    powers: list[Power] = []
    for card in range(NUM_CARD_CODES):
        rank = card >> 2
        if rank == JOKER:
            v, p = rules.value_joker, Power.NONE
        elif rank == ACE:
            v, p = rules.value_ace, Power.NONE
        elif rank in (JACK, QUEEN):
            v = rules.value_jack if rank == JACK else rules.value_queen
            p = rules.power_jack_queen
            if rank == QUEEN and rules.power_queen is not None:
                p = rules.power_queen
        elif rank == KING:
            red = is_red(card)
            v = rules.value_red_king if red else rules.value_black_king
            p = rules.power_red_king if red else rules.power_black_king
        else:
            v = rank
            p = (rules.power_seven_eight if rank in (7, 8)
                 else rules.power_nine_ten if rank in (9, 10) else Power.NONE)
        values.append(v)
        powers.append(p)
    return Tables(tuple(values), tuple(powers))


PRESETS: dict[str, Rules] = {}
PRESETS["rulebook"] = Rules(preset_name="rulebook")
PRESETS["house"] = Rules(
    preset_name="house",
    jokers_per_deck=0,
    value_ace=0,
    value_jack=11,
    value_queen=12,
    value_black_king=20,
    draw_from_discard=True,
    power_trigger=PowerTrigger.DRAWN_AND_DISCARDED,
    power_jack_queen=Power.SWAP_ANY,
    power_black_king=Power.LOOK_ANY_SWAP_ANY,
    power_red_king=Power.LOOK_ANY_SWAP_ANY,
    resnap=Resnap.SNAPPER_ONLY,
)
PRESETS["wikipedia"] = Rules(
    preset_name="wikipedia",
    max_players=8,
    draw_from_discard=True,
    power_trigger=PowerTrigger.DRAWN_AND_DISCARDED,
    powers_optional=True,
    power_red_king=Power.NONE,
    tie_rule=TieRule.MOST_CARDS_THEN_NOT_CALLER,
    next_round=NextRound.WINNER_STARTS,
)
PRESETS["cabo"] = Rules(
    # Cabo, 2nd edition (Bezier Games, 2019); docs/rules.md cites each rule's source.
    preset_name="cabo",
    max_players=4,
    deck=DeckKind.CABO,
    decks=1,
    value_jack=11,
    value_queen=12,
    value_black_king=13,
    value_red_king=13,
    draw_from_discard=True,
    power_trigger=PowerTrigger.DRAWN_AND_DISCARDED,
    powers_optional=True,
    power_black_king=Power.NONE,
    power_red_king=Power.NONE,
    snapping=False,
    reshuffle_pile=False,
    multi_exchange=True,
    round_zero=RoundZero.CALLER_IF_LOWEST,
    failed_call_penalty=10,
    kamikaze=Kamikaze.TWELVES_THIRTEENS,
    match_target=100,
    match_reset_to=50,
    match_resets=1,
)
CABO_FIRST_EDITION: dict[str, Any] = {
    "max_players": 5,
    "power_jack_queen": Power.SWAP_ANY,
    "reshuffle_pile": True,
    "exchange_mismatch": ExchangeMismatch.RETURN,
    "round_zero": RoundZero.LOWEST,
    "failed_call_penalty": 5,
    "match_resets": None,
}
"""Cabo's 1st edition (2010) as overrides of the ``cabo`` preset:
``Rules.preset("cabo", **CABO_FIRST_EDITION)``."""
PRESETS["cambia"] = Rules(
    # jason-s-yu/cambia's default rules (RULES.md, cfr/config/rule_profiles/default.yaml).
    preset_name="cambia",
    max_players=6,
    value_jack=11,
    value_queen=12,
    value_black_king=13,
    power_trigger=PowerTrigger.DRAWN_AND_DISCARDED,
    powers_optional=True,
    snap_penalty=2,
    tie_rule=TieRule.CALLER_WINS_TIES,
    lock_caller=True,
    snap_others=False,
    max_turns=300,
)
PRESETS["evan"] = Rules(
    # evanbrierton/cambio's defaults (src/lib/rules-content.ts, packages/game/src/engine.ts,
    # types.ts, scoring.ts).
    preset_name="evan",
    value_black_king=-2,
    value_red_king=25,
    draw_from_discard=True,
    power_trigger=PowerTrigger.DRAWN_AND_DISCARDED,
    power_jack_queen=Power.SWAP_ANY,
    power_black_king=Power.LOOK_ANY_SWAP_ANY,
    power_red_king=Power.LOOK_ANY_SWAP_ANY,
    power_queen=Power.LOOK_ONE_SWAP_ANY,
    resnap=Resnap.SNAPPER_ONLY,
    tie_rule=TieRule.NOT_CALLER,
    lock_caller=True,
    caller_may_snap=False,
)
