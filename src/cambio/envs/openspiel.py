"""OpenSpiel games ``python_cambio_cards`` and ``python_cambio_board`` (registered on import).

>>> import pyspiel
>>> import cambio.envs.openspiel
>>> game = pyspiel.load_game("python_cambio_cards", {"players": 2, "rules": "house"})
>>> game.new_initial_state().is_chance_node()
True

**Chance is explicit.** In the card game a chance node picks each dealt card, each card
drawn from the deck (for a turn's draw or a snap penalty; after the pile is shuffled into an
empty deck the drawn card is picked from the reshuffled cards), and the seat a snap poll
starts from; every outcome has its exact probability. The engine (:mod:`cambio.cards`) still
applies every action: the adapter only decides which card lies on top of the deck before a
draw, and which seat a poll starts from, so the rules are the engine's. In the board game a
chance node picks one of ``starts`` seeded quick setups.

Action numbers and tensors are the codecs' (:mod:`cambio.envs.cards_codec`,
:mod:`cambio.envs.board_codec`; docs/envs.md). Returns: +1 per winner, -1 per loser, 0 for
everyone if all or nobody won.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from random import Random
from typing import Any

import numpy as np

from cambio.board import Board, geometry, move_text
from cambio.board import Rules as BoardRules
from cambio.board.setup import quick_setup
from cambio.cards import (
    COMPILED,
    EMPTY,
    HIDDEN,
    TERMINAL,
    CardView,
    Phase,
    Rules,
    State,
    action_text,
    card_code,
    observe,
)
from cambio.cards.actions import DRAW, SNAP, kind_of
from cambio.cards.cards import NUM_CARD_CODES
from cambio.cards.events import (
    Discarded,
    Drew,
    Event,
    Gave,
    Looked,
    Peeked,
    Penalty,
    Snapped,
    seen_by,
)
from cambio.cards.state import P_NONE, POWER_NAMES
from cambio.cards.view import _window_name as window_name
from cambio.extras import needs
from cambio.seeds import derive_seed

from .board_codec import BoardCodec
from .cards_codec import CLASSES, DEFAULT_SLOTS, CardsCodec, Field, capped_rules, card_class
from .turns import board_returns

with needs("research", "cambio.envs.openspiel"):
    import pyspiel

MAX_CARDS_LENGTH = 100_000
"""OpenSpiel needs a bound on a game's length: a loose one (a round ends at the rules' turn
cap, ``max_turns``, at the latest; random play ends within a few hundred actions)."""

_ANYONE = -1  # the engine's "anyone may snap" window

MOST_CARD_PLAYERS = 64
"""The card engine seats at most 64 players (``Rules.check_players``); a preset's own
``max_players`` can lower that."""

STEPS_PER_TURN_BASE = 6
STEPS_PER_TURN_PER_SEAT = 4
"""The information-state tensor's default room: ``max_turns × (6 + 4 × players)`` steps (a
draw, a discard or swap, a power's one or two decisions, then snap polls of every seat).
Random play's busiest turn measured 11 steps at 2 players, 12 at 3, 17 at 4 (300 rounds of
each preset at each player count); a round that needs more raises ``ValueError`` naming
``recall_steps``."""


class _Shared:
    """What a game's states share (rules, codec). It never changes, so a state's copy (OpenSpiel
    clones and serializes Python states by pickling their attributes) refers to it by the
    game's parameters instead of copying it; the game object itself does not survive that
    pickling with its Python attributes."""

    def __init__(self, kind: str, params: tuple[tuple[str, Any], ...], **values: Any) -> None:
        self.key = (kind, params)
        self.__dict__.update(values)

    def __getattr__(self, name: str) -> Any:  # for the type checker: fields are dynamic
        raise AttributeError(name)

    def __reduce__(self) -> tuple[Any, ...]:
        return _shared, self.key


@lru_cache(maxsize=64)
def _shared(kind: str, params: tuple[tuple[str, Any], ...]) -> _Shared:
    return (_cards_shared if kind == "cards" else _board_shared)(params)


def _cards_shared(params: tuple[tuple[str, Any], ...]) -> _Shared:
    p = {**_CARDS_DEFAULTS, **dict(params)}
    overrides: dict[str, Any] = dict(parse_house_rules(str(p["house_rules"])))
    if int(p["max_turns"]) > 0:
        overrides["max_turns"] = int(p["max_turns"])
    base = Rules.preset(str(p["rules"]), **overrides)
    players = int(p["players"])
    rules = capped_rules(base, int(p["slots"]))
    rules.check_players(players)
    steps = int(p["recall_steps"]) or rules.max_turns * (
        STEPS_PER_TURN_BASE + STEPS_PER_TURN_PER_SEAT * players)
    if steps < 1:
        raise ValueError("recall_steps must be at least 1 (0: from max_turns)")
    return _Shared("cards", params, players=players, rules=rules, recall_steps=steps,
                   codec=CardsCodec(rules, players, int(p["slots"])),
                   full_deck=tuple(rules.deck_cards(players)))


def _board_shared(params: tuple[tuple[str, Any], ...]) -> _Shared:
    p = {**_BOARD_DEFAULTS, **dict(params)}
    other_line = str(p["other_line"])
    if other_line not in ("owner", "mover_loses"):
        raise ValueError("other_line must be 'owner' or 'mover_loses'")
    rules = BoardRules(players=int(p["players"]), size=int(p["size"]), line=int(p["line"]),
                       other_line="owner" if other_line == "owner" else "mover_loses",
                       max_plies=int(p["max_plies"]))
    starts = int(p["starts"])
    if starts < 1:
        raise ValueError("starts must be at least 1")
    return _Shared("board", params, rules=rules, starts=starts, seed=int(p["seed"]),
                   codec=BoardCodec(rules))


def _key(params: dict[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((params or {}).items()))


class _Engine:
    """Holds an engine object. OpenSpiel clones and serializes a Python state by pickling
    its attributes. The compiled card engine cannot be created blank by pickle, so it is
    rebuilt from its fields (mypyc's ``__getstate__``) minus its caches."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __reduce__(self) -> tuple[Any, ...]:
        v = self.value
        if isinstance(v, State) and COMPILED:
            stored: dict[str, Any] = v.__getstate__()  # type: ignore[assignment]
            fields = {k: x for k, x in stored.items() if k not in _CACHES}
            return _unpack_state, (v.rules, v.n, fields)
        if isinstance(v, Board):  # its geometry tables are shared, not copied
            return _unpack_board, ({k: x for k, x in vars(v).items() if k != "g"},)
        return _Engine, (v,)


_CACHES = ("_f", "_occ", "__hash__")


def _unpack_board(fields: dict[str, Any]) -> _Engine:
    board = Board.__new__(Board)
    vars(board).update(fields)
    board.g = geometry(board.rules)
    return _Engine(board)


def _unpack_state(rules: Rules, players: int, fields: dict[str, Any]) -> _Engine:
    state = State(rules, players, seed=0)
    state.__setstate__(fields)  # type: ignore[attr-defined]
    return _Engine(state)


def parse_house_rules(text: str) -> dict[str, str]:
    """``"lock_caller:true;snap_penalty:2"`` -> overrides (the Rules read the values).

    OpenSpiel's game strings split parameters at ``,`` and ``=``, hence ``;`` and ``:``."""
    out: dict[str, str] = {}
    for item in filter(None, (p.strip() for p in text.split(";"))):
        key, colon, value = item.partition(":")
        if not colon:
            raise ValueError(f"house rule {item!r} is not KEY:VALUE")
        out[key.strip()] = value.strip()
    return out


def _game_type(short: str, long: str, information: Any, most_players: int,
               defaults: dict[str, Any]) -> Any:
    """Both games: sequential, explicit chance, general-sum, terminal rewards, every tensor
    and string OpenSpiel knows."""
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=most_players,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )


class _Observer:
    """OpenSpiel's observer shape: a flat tensor and a named view of each codec field."""

    def __init__(self, fields: tuple[Field, ...], perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(sum(f.size for f in fields), dtype=np.float32)
        self.dict: dict[str, Any] = {}
        i = 0
        for f in fields:
            self.dict[f.name] = self.tensor[i:i + f.size]
            i += f.size


# ====================================================================== the card game
_CARDS_DEFAULTS: dict[str, Any] = {"players": 2, "rules": "rulebook", "house_rules": "",
                                   "slots": DEFAULT_SLOTS, "max_turns": 0, "recall_steps": 0}
_CARDS_TYPE = _game_type("python_cambio_cards", "Cambio (the card game)",
                         pyspiel.GameType.Information.IMPERFECT_INFORMATION, MOST_CARD_PLAYERS,
                         _CARDS_DEFAULTS)


class CambioCardsGame(pyspiel.Game):  # type: ignore[misc]
    """Parameters: ``players``, ``rules`` (a preset), ``house_rules``
    (``"key:value;key:value"``), ``max_turns`` (the turn cap; 0 keeps the rules' own),
    ``slots`` (the grid cap of the encoding, applied as the ``max_grid`` house rule) and
    ``recall_steps`` (room for steps in the information-state tensor; 0: from the turn cap)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        shared = _shared("cards", _key(params))
        info = pyspiel.GameInfo(
            num_distinct_actions=shared.codec.num_actions,
            max_chance_outcomes=max(NUM_CARD_CODES, shared.players),
            num_players=shared.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=MAX_CARDS_LENGTH,
        )
        super().__init__(_CARDS_TYPE, info, {**_CARDS_DEFAULTS, **(params or {})})
        self.shared = shared
        self.codec: CardsCodec = shared.codec

    def new_initial_state(self) -> CambioCardsState:
        return CambioCardsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CardsObserver:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return CardsObserver(self.codec, recall, self.shared.recall_steps)


class CambioCardsState(pyspiel.State):  # type: ignore[misc]
    """A round: chance deals, then the engine's :class:`~cambio.cards.State` plays.

    A player action that draws cards (a draw, a wrong snap's penalty) waits in
    ``pending`` while chance picks each card it will draw; then the engine applies it.
    """

    def __init__(self, game: CambioCardsGame) -> None:
        super().__init__(game)
        self.g: Any = game.shared
        self.dealt: list[int] = []
        self._engine = _Engine(None)
        self.pending: tuple[int, int] | None = None
        """(engine action, seat) waiting for ``need`` drawn cards."""
        self.need = 0
        self.from_deck = 0
        self.reshuffle = False
        self.drawn: list[int] = []
        self.poll_chance = False
        self.seen: list[list[Frame]] = [[] for _ in range(self.g.players)]
        """Per seat, the table after each step (:func:`frame`, one object shared by the
        seats), from which its information-state string is written when asked for."""
        self.steps: list[list[tuple[int, int, int, int]]] = [[] for _ in range(self.g.players)]
        """Per seat, each step since the deal as that seat saw it: the actor (relative
        seat), its action number (the codec's, from the actor's side) and up to two card
        codes the step showed this seat (-1: none; the tensor keeps their classes, as the
        observation does: suits matter only through a king's colour). With :attr:`opening` it is the
        information-state tensor's perfect recall."""
        self.opening: list[Any] = []
        """Per seat, the encoding of its view right after the deal (its opening peek)."""

    @property
    def state(self) -> State | None:
        """The engine's round, once the deal is complete."""
        value: State | None = self._engine.value
        return value

    # ------------------------------------------------------------------ who moves
    def current_player(self) -> int:
        s = self.state
        if s is None or self.pending is not None or self.poll_chance:
            return int(pyspiel.PlayerId.CHANCE)
        if s.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return s.current_player()

    def is_terminal(self) -> bool:
        s = self.state
        return s is not None and self.pending is None and s.is_over()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.g.players
        assert self.state is not None
        return self.state.returns()

    def _legal_actions(self, player: int) -> list[int]:
        s = self.state
        if s is None or self.pending is not None or self.poll_chance or s.is_over():
            return []
        return sorted(self.g.codec.numbers(s.legal_actions(player), player))

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.poll_chance:
            n = self.g.players
            return [(seat, 1.0 / n) for seat in range(n)]
        counts = self._source()
        total = sum(counts)
        return [(card, count / total) for card, count in enumerate(counts) if count > 0]

    def _source(self) -> list[int]:
        """The cards the next chance card is drawn from: how many of each card code."""
        counts = [0] * NUM_CARD_CODES
        s = self.state
        if s is None:
            cards, taken = self.g.full_deck, self.dealt
        elif len(self.drawn) < self.from_deck:
            cards, taken = s.deck, self.drawn
        else:
            cards, taken = s.pile[:-1], self.drawn[self.from_deck:]
        for card in cards:
            counts[card] += 1
        for card in taken:
            counts[card] -= 1
        return counts

    # ------------------------------------------------------------------ applying
    def _apply_action(self, action: int) -> None:
        if self.state is None:
            self.dealt.append(action)
            if len(self.dealt) == 4 * self.g.players:
                s = State(self.g.rules, self.g.players, seed=0, deck=self.dealt)
                self._engine = _Engine(s)
                self.opening = [self.g.codec.encode_state(s, q)
                                for q in range(self.g.players)]
                self._after_step()
            return
        if self.poll_chance:
            start, n = action, self.g.players
            self.state.poll = sorted(self.state.poll, key=lambda seat: (seat - start) % n)
            self.poll_chance = False
            self._observed()
            return
        if self.pending is not None:
            self.drawn.append(action)
            if len(self.drawn) == self.need:
                engine_action, seat = self.pending
                self._stack_deck()
                self.pending = None
                self._engine_apply(engine_action, seat)
                self._after_step()
            return
        seat = self.state.current_player()
        engine_action = self.g.codec.action_of(action, seat)
        need, reshuffle = self._draws(engine_action, seat)
        if need:
            self.pending = (engine_action, seat)
            self.need, self.reshuffle = need, reshuffle
            self.from_deck = len(self.state.deck)
            self.drawn = []
            return
        self._engine_apply(engine_action, seat)
        self._after_step()

    def _engine_apply(self, action: int, seat: int) -> None:
        """Apply a player's action in the engine and note, for every seat, the step as it
        saw it (:attr:`steps`)."""
        s = self.state
        assert s is not None
        events: list[Event] = []
        s.apply(action, seat, events=events)
        n = self.g.players
        number = self.g.codec.number(action, seat)
        for q in range(n):
            shown = _cards_shown(events, q)
            if len(shown) > 2:
                raise AssertionError(f"a step showed seat {q} more than two cards")
            shown += [-1] * (2 - len(shown))
            self.steps[q].append(((seat - q) % n, number, shown[0], shown[1]))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any
                                ) -> CambioCardsState:
        """A world ``player_id`` cannot tell from this one: the same information state,
        the cards it has not seen dealt by the search bots' determinization
        (:func:`cambio.bots.cards.search.determinize`: consistent with the view, the
        deck's composition and every public event, each card known by exactly the seats
        the view's public seen masks name). ``probability_sampler()`` (uniform in [0, 1),
        as OpenSpiel passes it) seeds the sample.

        Only ``player_id``'s history is carried over: the other seats' information states
        in the sampled world start at this point (their earlier private history is not
        sampled), which is what information-set search (OpenSpiel's ``ISMCTSBot``) needs."""
        from cambio.bots.cards.belief import Belief
        from cambio.bots.cards.search import determinize

        s = self.state
        if s is None or self.pending is not None or self.poll_chance:
            raise ValueError("resample_from_infostate needs a decision node, not chance")
        seed = int(float(probability_sampler()) * 2**53)
        view = observe(s, player_id)
        world = determinize(view, Belief(view), Random(seed), knows=None)
        out = CambioCardsState(self.get_game())
        out._engine = _Engine(world)
        codec = self.g.codec
        for q in range(self.g.players):
            if q == player_id:
                out.opening.append(self.opening[q])
                out.seen[q] = list(self.seen[q])
                out.steps[q] = list(self.steps[q])
            else:
                out.opening.append(codec.encode(observe(world, q)))
                out.seen[q] = [frame(world, "resampled")]
        return out

    def _draws(self, action: int, seat: int) -> tuple[int, bool]:
        """How many cards ``action`` draws, and whether the pile is shuffled in first.

        Played out on a copy: the count depends on public facts only (room in the grid,
        cards left), never on which cards come up.
        """
        s = self.state
        assert s is not None
        if kind_of(action) not in (DRAW, SNAP):
            return 0, False
        copy = s.clone()
        copy.apply(action, seat)
        reshuffle = copy.reshuffles > s.reshuffles
        available = len(s.deck) + (len(s.pile) - 1 if reshuffle else 0)
        return available - len(copy.deck), reshuffle

    def _stack_deck(self) -> None:
        """Put the chance-drawn cards on top of the deck, in draw order (the deck's top is
        the end of the list); if the action empties the deck first, shuffle the pile in now,
        as the engine would then (nothing reaches the pile in between)."""
        s = self.state
        assert s is not None
        from_deck, from_pile = self.drawn[:self.from_deck], self.drawn[self.from_deck:]
        rest = list((Counter(s.deck) - Counter(from_deck)).elements())
        stacked = rest + from_deck[::-1]
        if self.reshuffle:
            top = s.pile[-1]
            pile_rest = list((Counter(s.pile[:-1]) - Counter(from_pile)).elements())
            stacked = pile_rest + from_pile[::-1] + stacked
            s.pile = [top]
            s.reshuffles += 1
        s.deck = stacked
        self.drawn = []

    def _after_step(self) -> None:
        s = self.state
        assert s is not None
        if (s.phase == Phase.POLL and s.poll_i == 0 and s.window == _ANYONE
                and len(s.poll) > 1):
            self.poll_chance = True  # a fresh poll: chance says who is asked first
            return
        self._observed()

    def _observed(self) -> None:
        """Every seat's observation after a completed step (their information states)."""
        s = self.state
        assert s is not None
        step = frame(s, action_text(s.history[-1][1]) if s.history else "deal")
        for seen in self.seen:
            seen.append(step)

    # ------------------------------------------------------------------ text
    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.poll_chance:
                return f"poll from seat {action}"
            return f"{'deal' if self.state is None else 'draw'} {card_code(action)}"
        return action_text(self.g.codec.decode_action(action, player))

    def __str__(self) -> str:
        if self.state is None:
            return "dealt " + " ".join(card_code(c) for c in self.dealt)
        s = self.state
        deck = " ".join(card_code(c) for c in s.deck)
        pending = (f" pending {action_text(self.pending[0])} drew "
                   f"{' '.join(card_code(c) for c in self.drawn)}" if self.pending else "")
        return f"{view_text(observe(s, None))} | deck {deck}{pending}"


def view_text(view: CardView) -> str:
    """A compact one-line text of a view (a spectator's when ``view.seat`` is None)."""
    return _line(view.phase, view.actor, view.grids, view.held, view.held_from_pile,
                 view.discard[-3:], len(view.discard), view.deck_size, view.window, view.poll,
                 view.power, view.caller, view.final_turns_left)


def _line(phase: Phase, actor: int | None, grids: Any, held: int, from_pile: bool,
          pile_top: Any, pile: int, deck: int, window: str, poll: Any, power: str | None,
          caller: int | None, final_left: int) -> str:
    def code(c: int) -> str:
        return "--" if c == EMPTY else "??" if c == HIDDEN else card_code(c)

    text = " / ".join(" ".join(code(c) for c in g) for g in grids)
    parts = [f"{phase.name.lower()} actor {actor}", f"grids {text}",
             f"held {code(held)}{'*' if from_pile else ''}",
             f"pile {' '.join(code(c) for c in pile_top)} ({pile})",
             f"deck {deck}", f"window {window}"]
    if poll:
        parts.append(f"poll {','.join(map(str, poll))}")
    if power:
        parts.append(f"power {power}")
    if caller is not None:
        parts.append(f"caller {caller} ({final_left} left)")
    return " | ".join(parts)


Frame = tuple[Any, ...]
"""The table after a step, as :func:`frame` copies it."""


def frame(s: State, label: str) -> Frame:
    """What every seat's observation string shows of ``s``, copied (a few small tuples):
    the information-state strings are written from these only when asked for, instead of
    one view per seat after every step."""
    return (label, s.phase, s.current_player(), s.turn, tuple(map(tuple, s.grids)),
            tuple(map(tuple, s.known)), s.public, s.held, s.held_from_pile, tuple(s.pile[-3:]),
            len(s.pile), len(s.deck), s.window,
            tuple(s.poll[s.poll_i:]) if s.phase == Phase.POLL else (), s.power, s.caller,
            s.final_left)


def frame_text(f: Frame, seat: int) -> str:
    """``f"{label} | {view_text(observe(s, seat))}"`` for the state ``f`` was copied from."""
    (label, phase, actor, turn, grids, known, public, held, from_pile, pile_top, pile, deck,
     window, poll, power, caller, final_left) = f
    bit = (1 << seat) | public
    seen = tuple(tuple(EMPTY if c < 0 else c if k & bit else HIDDEN
                       for c, k in zip(g, kk, strict=True))
                 for g, kk in zip(grids, known, strict=True))
    if held >= 0 and not (from_pile or seat == turn):
        held = HIDDEN
    return f"{label} | " + _line(
        Phase(phase), None if actor == TERMINAL else actor, seen, held, from_pile, pile_top,
        pile, deck, window_name(window), poll,
        str(POWER_NAMES[power]) if power != P_NONE else None,
        caller if caller >= 0 else None, final_left if caller >= 0 else 0)


def _cards_shown(events: list[Event], seat: int) -> list[int]:
    """The card codes ``events`` showed ``seat``, in order (a power's firing repeats the
    discarded card and the round's end shows everything: neither is counted)."""
    out: list[int] = []
    for event in events:
        seen = seen_by(event, seat)
        if isinstance(seen, Looked):
            out.extend(c for c in seen.cards if c != HIDDEN)
        elif (isinstance(seen, (Drew, Discarded, Peeked, Snapped, Penalty, Gave))
              and seen.card != HIDDEN):
            out.append(seen.card)
    return out


_SHOWN = np.array([(card_class(c) + 1) / CLASSES for c in range(NUM_CARD_CODES)] + [0.0])
"""A shown card's number in a history row, by card code (index -1, no card: 0)."""


def recall_fields(codec: CardsCodec, steps: int) -> tuple[Field, ...]:
    """The information-state tensor's layout: the observation, the opening observation,
    then ``steps`` records of ``players + 3`` numbers (docs/envs.md)."""
    opening = Field("opening", codec.size, "the observation right after the deal")
    history = Field("history", steps * (codec.players + 3),
                    "per step: actor (relative seat, one-hot), (action number + 1) / "
                    "actions, then the classes of two cards the step showed, (class + 1) / 15 "
                    "(0: none)")
    return (*codec.fields, opening, history)


class CardsObserver(_Observer):
    """OpenSpiel's observer for the card game.

    Without perfect recall, the tensor is the codec's encoding of the seat's view and the
    string a one-line text of it. With perfect recall (the information state), the string
    is every observation the seat has had, each after the public action that led to it, and
    the tensor is the current observation, the opening one, then each step since the deal
    as the seat saw it: who acted, the action number, the cards it was shown (docs/envs.md).
    """

    def __init__(self, codec: CardsCodec, perfect_recall: bool, steps: int = 0) -> None:
        super().__init__(recall_fields(codec, steps) if perfect_recall else codec.fields,
                         perfect_recall)
        self.codec = codec
        self.steps = steps
        self._rows = 0
        """History rows the last :meth:`set_from` wrote (the rest are zeros)."""

    def set_from(self, state: CambioCardsState, player: int) -> None:
        size = self.codec.size
        n = self.codec.players
        # Only the rows the last call wrote are cleared: the room is sized for the turn
        # cap, a round uses a few hundred rows of it.
        history = self.tensor[2 * size:].reshape(self.steps, n + 3) if self.perfect_recall \
            else self.tensor[:0].reshape(0, n + 3)
        history[:self._rows] = 0.0
        self._rows = 0
        if state.state is None:
            self.tensor[:2 * size].fill(0.0)
            return
        self.codec.encode_state(state.state, player, out=self.tensor[:size])
        if not self.perfect_recall:
            return
        if state.opening:
            self.tensor[size:2 * size] = state.opening[player]
        else:
            self.tensor[size:2 * size] = 0.0
        steps = state.steps[player]
        if len(steps) > self.steps:
            raise ValueError(f"this round has {len(steps)} steps, more than the "
                             f"information-state tensor's {self.steps} (recall_steps)")
        if not steps:
            return
        rows = np.array(steps, dtype=np.int64)
        used = history[:len(steps)]
        used[np.arange(len(steps)), rows[:, 0]] = 1.0
        used[:, n] = (rows[:, 1] + 1) / float(self.codec.num_actions)
        used[:, n + 1:] = _SHOWN[rows[:, 2:]]
        self._rows = len(steps)

    def string_from(self, state: CambioCardsState, player: int) -> str:
        if state.state is None:
            return f"seat {player} | dealing"
        if self.perfect_recall:
            return f"seat {player}\n" + "\n".join(frame_text(f, player)
                                                  for f in state.seen[player])
        return f"seat {player} | {view_text(observe(state.state, player))}"


# ====================================================================== the board game
_BOARD_DEFAULTS: dict[str, Any] = {"players": 2, "size": 5, "line": 0, "other_line": "owner",
                                   "max_plies": 200, "starts": 100, "seed": 0}
_BOARD_TYPE = _game_type("python_cambio_board", "Cambio (the dice board game)",
                         pyspiel.GameType.Information.PERFECT_INFORMATION, 3, _BOARD_DEFAULTS)


class CambioBoardGame(pyspiel.Game):  # type: ignore[misc]
    """Parameters: the board rule fields (``players``, ``size``, ``line``, ``other_line``,
    ``max_plies``), ``starts`` (how many seeded quick setups the opening chance node picks
    from) and ``seed`` (which ones)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        shared = _shared("board", _key(params))
        info = pyspiel.GameInfo(
            num_distinct_actions=shared.codec.num_actions,
            max_chance_outcomes=shared.starts,
            num_players=shared.rules.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=shared.rules.max_plies + 1,
        )
        super().__init__(_BOARD_TYPE, info, {**_BOARD_DEFAULTS, **(params or {})})
        self.shared = shared
        self.codec: BoardCodec = shared.codec

    def new_initial_state(self) -> CambioBoardState:
        return CambioBoardState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BoardObserver:
        recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return BoardObserver(self.codec, recall)


class CambioBoardState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: CambioBoardGame) -> None:
        super().__init__(game)
        self.g: Any = game.shared
        self._engine = _Engine(None)

    @property
    def board(self) -> Board | None:
        value: Board | None = self._engine.value
        return value

    def current_player(self) -> int:
        if self.board is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.board.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.board.turn

    def is_terminal(self) -> bool:
        return self.board is not None and self.board.is_over()

    def returns(self) -> list[float]:
        if self.board is None:
            return [0.0] * self.g.rules.players
        return board_returns(self.board)

    def _legal_actions(self, player: int) -> list[int]:
        if self.board is None or self.board.is_over() or player != self.board.turn:
            return []
        return sorted(self.g.codec.encode_action(m) for m in self.board.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(k, 1.0 / self.g.starts) for k in range(self.g.starts)]

    def _apply_action(self, action: int) -> None:
        if self.board is None:
            self._engine = _Engine(quick_setup(self.g.rules, derive_seed(self.g.seed, action)))
            return
        self.board.push(self.g.codec.decode_action(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"start {action}"
        return move_text(self.g.codec.decode_action(action), self.g.rules.size)

    def __str__(self) -> str:
        if self.board is None:
            return "setting up"
        return self.board.position()


class BoardObserver(_Observer):
    """The board has no hidden facts: tensors encode the position from the seat's side;
    the information-state string adds the moves played (repetitions depend on them)."""

    def __init__(self, codec: BoardCodec, perfect_recall: bool) -> None:
        super().__init__(codec.fields, perfect_recall)
        self.codec = codec

    def set_from(self, state: CambioBoardState, player: int) -> None:
        if state.board is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self.codec.encode(state.board, player)

    def string_from(self, state: CambioBoardState, player: int) -> str:
        board = state.board
        if board is None:
            return "setting up"
        if not self.perfect_recall:
            return board.position()
        moves = " ".join(board.move_text(m) for m in board.move_stack)
        return f"{board.start} | {moves}"


pyspiel.register_game(_CARDS_TYPE, CambioCardsGame)
pyspiel.register_game(_BOARD_TYPE, CambioBoardGame)

__all__ = ["CambioBoardGame", "CambioBoardState", "CambioCardsGame", "CambioCardsState",
           "parse_house_rules", "view_text"]
