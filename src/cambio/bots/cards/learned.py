"""The ``learned`` bot: a small network that scores each legal action, trained on ``hard``.

``hard`` (:mod:`~cambio.bots.cards.deep`) is ``expert``'s choice checked at every decision
by 1,024 native rollouts; it is strong and slow (tens of milliseconds a decision, numba).
This bot distils it: a multilayer perceptron (two hidden layers of 64 ReLUs) reads one
feature row per legal action -- what the view says about the table, and what the action
would do -- and plays the action with the highest score. It was trained by imitation on
``hard``'s searched decisions (cross-entropy over the legal actions;
``benchmarks/cards_learned.py`` collects the decisions, trains, and draws the learning curve;
docs/cards-strength.md has the command, its seed and its wall time).

Two of the features are the votes of the cheap heuristics (``expert``'s and ``memory``'s
choice, a millisecond together): the network starts from their play and learns from the
search where to overrule them, as ``hard`` does, without the rollouts. Everything else is
read from the view (card values, the exact unseen-card mean from
:class:`~cambio.bots.cards.belief.Belief`, the public ``seen`` masks), so the bot sees only
what its seat may know; the same view always gives the same action.

Inference is numpy only: the weights (package data, about 40 KB a file) are three dense
layers and the feature scaling; no deep-learning framework, no numba. Each file was trained
at one table, preset and player count (``learned.npz``: rulebook heads-up); the bot plays the
file of its own table or the nearest one that ships (:func:`weights_table`).
:class:`Featurizer` is the one feature extraction, used by the training script and the bot.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cambio.cards import EMPTY, HIDDEN, Action, CardView, Phase, Power
from cambio.cards.actions import (
    CAMBIO,
    DISCARD,
    DRAW,
    EXCHANGE,
    GIVE,
    LOOK,
    PEEK,
    SNAP,
    SWAP,
    SWITCH,
    TAKE,
    addr_seat,
    addr_slot,
    arg_a,
    arg_b,
    exchange_slots,
    kind_of,
)
from cambio.cards.rules import PRESET_NAMES, Rules, tables

from .belief import Belief
from .expert import OPPONENT_HIDDEN_RATIO, OpponentModelBot
from .memory import ExpectedPointsBot

Matrix = npt.NDArray[np.float32]

WEIGHTS_FILE = Path(__file__).with_name("learned.npz")
"""The shipped weights for the table they were first trained for: rulebook, 2 players."""
BASE_TABLE = ("rulebook", 2)
"""The table :data:`WEIGHTS_FILE` was trained for, and the last resort of every other."""
FEATURE_VERSION = 1
"""Bumped whenever :class:`Featurizer`'s rows change meaning; the weights file records the
version it was trained with, and a mismatch is refused at load."""
GLOBAL_FEATURES = 30
ACTION_FEATURES = 30
FEATURES = GLOBAL_FEATURES + ACTION_FEATURES
_KINDS = 13
_PHASES = (Phase.TURN_START, Phase.DRAWN, Phase.POWER, Phase.KING_DECIDE, Phase.GIVE,
           Phase.POLL)


class Featurizer:
    """One row of :data:`FEATURES` numbers per legal action of a view.

    Holds the two heuristic advisors whose choices are features; they decide from the same
    view, so the rows depend on the view alone.
    """

    def __init__(self, seed: int = 0) -> None:
        self.expert = OpponentModelBot(seed)
        self.memory = ExpectedPointsBot(seed)

    def __call__(self, view: CardView) -> Matrix:
        """The rows for ``view.legal``, in that order (a seat's view, not a spectator's)."""
        if view.seat is None:
            raise ValueError("the learned bot plays a seat; a spectator's view has no moves")
        table = _Table(view, self.expert.act(view), self.memory.act(view))
        rows = np.zeros((len(view.legal), FEATURES), dtype=np.float32)
        rows[:, :GLOBAL_FEATURES] = table.globals(self.expert)
        for i, a in enumerate(view.legal):
            table.action(a, rows[i, GLOBAL_FEATURES:])
        return rows


Place = tuple[int, int]


class _Table:
    """What one view says, computed once and read by every action's row."""

    def __init__(self, view: CardView, expert_choice: Action, memory_choice: Action) -> None:
        assert view.seat is not None
        self.view = view
        self.me = me = view.seat
        self.choices = (expert_choice, memory_choice)
        t = tables(view.rules)
        self.values, self.powers = t.values, t.powers
        self.belief = Belief(view)
        self.dist = self.belief.value_dist()
        self.mean = self.belief.mean()
        self.rounds = view.turn_number // view.players
        ratio = OPPONENT_HIDDEN_RATIO[min(self.rounds, len(OPPONENT_HIDDEN_RATIO) - 1)]
        self.opp_mean = self.mean * ratio
        grids = view.grids
        self.totals = [sum(self.est(s, c) for c in g if c != EMPTY) for s, g in enumerate(grids)]
        self.own_cards = [c for c in grids[me] if c != EMPTY]
        self.worst_own = max((self.est(me, c) for c in self.own_cards), default=0.0)
        others = [s for s in range(view.players) if s != me]
        self.best = min(others, key=lambda s: self.totals[s]) if others else me
        self.top = view.discard[-1] if view.discard else EMPTY
        self.top_rank = self.top >> 2 if self.top >= 0 else -1

    def est(self, seat: int, card: int) -> float:
        """A card's value if seen; else the unseen mean, tilted low in an opponent's grid
        (opponents keep low cards: ``expert``'s measured ratio by round)."""
        if card >= 0:
            return float(self.values[card])
        return self.mean if seat == self.me else self.opp_mean

    def globals(self, expert: OpponentModelBot) -> Matrix:
        view, me, best, values = self.view, self.me, self.best, self.values
        g = np.zeros(GLOBAL_FEATURES, dtype=np.float32)
        if view.phase in _PHASES:
            g[_PHASES.index(view.phase)] = 1.0
        g[6] = view.players / 4
        g[7] = self.rounds / 10
        g[8 + (0 if view.caller is None else 1 if view.caller == me else 2)] = 1.0
        g[11] = view.final_turns_left / 4
        g[12] = view.deck_size / 54
        g[13] = self.mean / 10
        g[14] = len(self.own_cards) / 6
        g[15] = sum(1 for c in self.own_cards if c == HIDDEN) / 4
        g[16] = self.totals[me] / 20
        g[17] = max((values[c] for c in self.own_cards if c >= 0), default=0) / 10
        g[18] = self.totals[best] / 20
        g[19] = (self.totals[me] - self.totals[best]) / 10
        grid = view.grids[best]
        g[20] = sum(1 for c in grid if c != EMPTY) / 6
        g[21] = sum(1 for c in grid if c == HIDDEN) / 4
        g[22] = sum(1 for i, c in enumerate(grid)
                    if c != EMPTY and not view.seen[best][i] >> best & 1) / 4
        if self.top >= 0:
            g[23], g[24] = values[self.top] / 10, 1.0
        if view.held >= 0:
            g[25], g[26] = values[view.held] / 10, 1.0
        if view.phase == Phase.TURN_START and CAMBIO in view.legal:
            g[27] = expert.win_if_call(view)
            g[28] = 1.0
        g[29] = len(view.legal) / 20
        return g

    def places(self, a: Action) -> tuple[Place | None, Place | None, int]:
        """The own and the opponent's slot an action touches, and for a two-slot action
        whether both are ours (1), both theirs (2), or one each (0)."""
        kind = kind_of(a)
        me = self.me
        if kind in (SWAP, GIVE):
            return (me, arg_a(a)), None, 0
        if kind not in (PEEK, SNAP, LOOK, SWITCH):
            return None, None, 0
        addrs = [arg_a(a)] + ([arg_b(a)] if kind in (LOOK, SWITCH) else [])
        mine = [(addr_seat(x), addr_slot(x)) for x in addrs if addr_seat(x) == me]
        theirs = [(addr_seat(x), addr_slot(x)) for x in addrs if addr_seat(x) != me]
        pair = 0 if len(addrs) == 1 else 1 if not theirs else 2 if not mine else 0
        return (mine[0] if mine else None), (theirs[0] if theirs else None), pair

    def action(self, a: Action, r: Matrix) -> None:
        """Write action ``a``'s features into ``r`` (zeros on entry)."""
        kind = kind_of(a)
        f = _KINDS
        r[f] = a == self.choices[0]
        r[f + 1] = a == self.choices[1]
        if kind == EXCHANGE:
            self.exchange(a, r)
            return
        r[kind] = 1.0
        mine, theirs, pair = self.places(a)
        if pair:
            r[f + 11 + pair] = 1.0
        grids = self.view.grids
        mine_est = theirs_est = 0.0
        if mine is not None:
            c = grids[mine[0]][mine[1]]
            mine_est = self.est(self.me, c)
            r[f + 2], r[f + 3], r[f + 4] = 1.0, c == HIDDEN, mine_est / 10
        if theirs is not None:
            s, slot = theirs
            c = grids[s][slot]
            theirs_est = self.est(s, c)
            r[f + 5], r[f + 6], r[f + 7] = 1.0, c == HIDDEN, theirs_est / 10
            r[f + 8] = self.view.seen[s][slot] >> s & 1
            r[f + 9] = self.totals[s] / 20
        r[f + 10] = self.gain(a, mine, theirs, mine_est, theirs_est, r) / 10

    def exchange(self, a: Action, r: Matrix) -> None:
        """An exchange (``multi_exchange``: the held card for several own cards at once)
        reads as a swap whose slot holds all the cards it sends away: the swap's kind bit,
        the cards' summed estimate, and the points gained. (No other action's row changes,
        so weights trained before exchanges were read keep their meaning.)"""
        f = _KINDS
        cards = [self.view.grids[self.me][i] for i in exchange_slots(a)]
        est = sum(self.est(self.me, c) for c in cards)
        r[SWAP] = 1.0
        r[f + 2], r[f + 3], r[f + 4] = 1.0, any(c == HIDDEN for c in cards), est / 10
        held = self.view.held
        r[f + 10] = (est - self.values[held] if held >= 0 else 0.0) / 10

    def gain(self, a: Action, mine: Place | None, theirs: Place | None, mine_est: float,
             theirs_est: float, r: Matrix) -> float:
        """Points the action looks to gain, by kind (and the snap and power flags)."""
        kind = kind_of(a)
        held, values = self.view.held, self.values
        f = _KINDS
        if kind == SWAP and held >= 0:
            return mine_est - values[held]
        if kind == TAKE and self.top >= 0:
            return self.worst_own - values[self.top]
        if kind == SWITCH and mine is not None and theirs is not None:
            return mine_est - theirs_est
        if kind == GIVE:
            return mine_est
        if kind == DRAW:
            w = self.worst_own
            return sum(p * (w - v) for v, p in self.dist if v < w)
        if kind == DISCARD and held >= 0:
            r[f + 15] = self.powers[held] != Power.NONE
            return 0.0
        if kind != SNAP:
            return 0.0
        target = mine or theirs
        assert target is not None
        c = self.view.grids[target[0]][target[1]]
        if c >= 0:
            r[f + 11] = c >> 2 == self.top_rank
            return values[c] if target[0] == self.me else self.worst_own
        r[f + 14] = 1.0
        return self.belief.rank_prob(self.top_rank) if self.top_rank >= 0 else 0.0


class Weights:
    """The network: feature scaling and three dense layers (ReLU between them)."""

    def __init__(self, arrays: dict[str, Matrix]) -> None:
        version = int(arrays["version"][0]) if "version" in arrays else -1
        if version != FEATURE_VERSION:
            raise ValueError(f"weights for features v{version}; this bot reads v"
                             f"{FEATURE_VERSION}")
        self.mu = arrays["mu"].astype(np.float32)
        self.sd = arrays["sd"].astype(np.float32)
        self.layers = [(arrays[f"w{i}"].astype(np.float32), arrays[f"b{i}"].astype(np.float32))
                       for i in range(3)]
        if self.mu.shape != (FEATURES,) or self.layers[0][0].shape[0] != FEATURES:
            raise ValueError(f"weights expect {self.layers[0][0].shape[0]} features, "
                             f"not {FEATURES}")

    def scores(self, rows: Matrix) -> Matrix:
        """One score per row (higher: more like ``hard``'s choice)."""
        h = (rows - self.mu) / self.sd
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        out: Matrix = h[:, 0]
        return out


def weights_file(preset: str, players: int) -> Path:
    """Where the weights trained for ``preset`` at ``players`` players live (package data:
    ``learned.npz`` for rulebook heads-up, else ``learned-<preset>-<n>p.npz``)."""
    if (preset, players) == BASE_TABLE:
        return WEIGHTS_FILE
    return WEIGHTS_FILE.with_name(f"learned-{table_name(preset, players)}.npz")


def table_name(preset: str, players: int) -> str:
    """A table as its weights file and ``learned:`` name it: ``"house-2p"``."""
    return f"{preset}-{players}p"


def _table_of(name: str) -> tuple[str, int] | None:
    """:func:`table_name`'s inverse (``None`` for a text of another shape)."""
    preset, _, count = name.rpartition("-")
    if count[-1:] != "p" or not count[:-1].isdigit():
        return None
    return preset, int(count[:-1])


@lru_cache(maxsize=1)
def shipped_tables() -> tuple[tuple[str, int], ...]:
    """Every (preset, players) table whose weights ship, in preset order, then by count."""
    found = {BASE_TABLE} if WEIGHTS_FILE.is_file() else set()
    for path in WEIGHTS_FILE.parent.glob("learned-*-*p.npz"):
        table = _table_of(path.stem.removeprefix("learned-"))
        if table is not None and table[0] in PRESET_NAMES:
            found.add(table)
    return tuple(sorted(found, key=lambda t: (PRESET_NAMES.index(t[0]), t[1])))


def parse_table(spec: str) -> tuple[str, int]:
    """``"house-2p"`` as ``("house", 2)``, a table whose weights ship (``learned:house-2p``
    plays anywhere with house's heads-up weights). Raises ``ValueError`` naming them."""
    table = _table_of(spec.strip().lower())
    if table is None or table not in shipped_tables():
        shipped = ", ".join(table_name(*t) for t in shipped_tables())
        raise ValueError(f"no learned weights for {spec!r}; shipped: {shipped}")
    return table


def weights_table(preset: str, players: int,
                  shipped: tuple[tuple[str, int], ...] | None = None) -> tuple[str, int]:
    """The table whose weights play ``preset`` at ``players`` players, of ``shipped``
    (:func:`shipped_tables` by default).

    The weights trained for that very table if they ship; else the same preset's weights for
    the nearest player count (on a tie the larger: 3 players play like 4, a table with more
    than one opponent); else rulebook's by the same rule. A house-rule variant of a preset
    is played with its preset's weights (``preset`` is its base preset's name): the features
    read the variant's card values and powers, only the network was trained without it.
    """
    shipped = shipped_tables() if shipped is None else shipped
    for name in (preset, BASE_TABLE[0]):
        counts = [n for p, n in shipped if p == name]
        if counts:
            return name, min(counts, key=lambda n: (abs(n - players), -n))
    return BASE_TABLE


@lru_cache(maxsize=16)
def load_weights(path: Path = WEIGHTS_FILE) -> Weights:
    """The weights in ``path`` (the rulebook heads-up file by default), read once per
    process."""
    with np.load(path) as data:
        return Weights({k: data[k] for k in data.files})


def weights_for(rules: Rules, players: int) -> Weights:
    """The weights :func:`weights_table` picks for a table (read once per process)."""
    return load_weights(weights_file(*weights_table(rules.preset_name, players)))


class DistilledNetworkBot:
    """Plays the legal action the network scores highest (the first on a tie).

    Without ``weights`` it plays the ones trained for the view's preset and player count
    (:func:`weights_table`), looked up at each decision: a bot is made before it is seated,
    and the lookup reads cached tables.
    """

    name = "learned"

    def __init__(self, seed: int = 0, weights: Weights | None = None) -> None:
        self.seed = seed
        self.features = Featurizer(seed)
        self.weights = weights

    @classmethod
    def trained_for(cls, spec: str, seed: int = 0) -> DistilledNetworkBot:
        """The bot with one table's weights wherever it sits (``"rulebook-2p"``: the
        measurements' before figure in another preset)."""
        return cls(seed, load_weights(weights_file(*parse_table(spec))))

    def act(self, view: CardView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        weights = self.weights or weights_for(view.rules, view.players)
        return legal[int(np.argmax(weights.scores(self.features(view))))]


__all__ = [
    "BASE_TABLE",
    "FEATURES",
    "FEATURE_VERSION",
    "WEIGHTS_FILE",
    "DistilledNetworkBot",
    "Featurizer",
    "Weights",
    "load_weights",
    "parse_table",
    "shipped_tables",
    "table_name",
    "weights_file",
    "weights_for",
    "weights_table",
]
