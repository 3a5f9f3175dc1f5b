"""``cambio.cards.batch``: many rounds of the card game at once, compiled (numba).

The rules of :class:`~cambio.cards.state.State` in polled (turn-based) mode as kernels over
arrays of ``N`` games of one rule set and player count (struct of arrays; see
:mod:`cambio.cards.batch_kernels`). For the same seed and the same actions a game here is
the compiled engine's round exactly: the same deal, reshuffles and poll order, the same legal
actions in the same order, the same scores (``tests/cards/test_batch.py`` checks thousands
of seeded games per preset at 2-8 players).

>>> from cambio.cards import Rules
>>> b = Batch(Rules.preset("rulebook"), players=2, games=3)
>>> b.reset([1, 2, 3])
>>> acts, counts = b.legal_actions()
>>> [action_text(a) for a in acts[0, :counts[0]]]
['cambio', 'draw']
>>> b.step([acts[i, 1] for i in range(3)])  # every game draws
>>> b.phases().tolist()
[1, 1, 1]

Whole rounds run natively with :func:`play_uniform` (the benchmark's policy), and with the
native bots of :mod:`cambio.bots.cards.native` (``random`` and ``memory``, the Python bots'
exact decisions), without returning to Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
import numpy.typing as npt

from . import batch_kernels as k
from .actions import action_text
from .batch_c import CKernelError, kernel_for
from .batch_fixed import uniform_kernel
from .errors import RulesError
from .rules import (
    PRESETS,
    ExchangeMismatch,
    Kamikaze,
    Power,
    PowerTrigger,
    Resnap,
    RoundZero,
    Rules,
    TieRule,
    tables,
)
from .state import EndReason, State

I64 = npt.NDArray[np.int64]
HIDDEN = -2

_POWER_CODE = {
    Power.NONE: k.P_NONE, Power.PEEK_OWN: k.P_PEEK_OWN, Power.PEEK_OTHER: k.P_PEEK_OTHER,
    Power.SWAP_OWN_OTHER: k.P_SWAP_OWN_OTHER, Power.SWAP_ANY: k.P_SWAP_ANY,
    Power.LOOK_OWN_OTHER_MAY_SWAP: k.P_LOOK_MAY, Power.LOOK_ANY_SWAP_ANY: k.P_LOOK_ANY,
    Power.LOOK_ONE_SWAP_ANY: k.P_LOOK_ONE,
}


KERNEL_LESS_FIELDS: tuple[str, ...] = ()
"""Fields the kernels do not read (a rule set plays natively only with each of them at its
``rulebook`` value): none since they learnt the other groups' presets (``cabo``'s deck,
scoring, kamikaze hand and exchanges, ``cambia``'s own-card snaps, ``evan``'s queen and
every tie rule). Kept, with :func:`kernel_blockers`, for a rule the kernels do not learn
when it is added. The match fields (``match_*``) do not change a round, so the kernels
ignore them."""

_ROUND_ZERO = {RoundZero.NOBODY: k.ZERO_NOBODY, RoundZero.CALLER_IF_LOWEST: k.ZERO_CALLER_IF_LOWEST,
               RoundZero.LOWEST: k.ZERO_LOWEST}
_CALLER_TIE = {TieRule.CALLER_WINS_TIES: k.CALLER_TIE_WINS, TieRule.NOT_CALLER: k.CALLER_TIE_LOSES}
_POWER_FIELDS = ("power_seven_eight", "power_nine_ten", "power_jack_queen", "power_queen",
                 "power_black_king", "power_red_king")


class BatchRulesError(RulesError):
    """The batch engine (and so the native bots and rollouts) cannot play these rules: play
    them on the compiled engine (``State``) instead."""


def kernel_blockers(rules: Rules) -> list[str]:
    """The fields of ``rules`` the kernels cannot play (empty: the batch engine can)."""
    base = PRESETS["rulebook"]
    out = [f for f in KERNEL_LESS_FIELDS if getattr(rules, f) != getattr(base, f)]
    out += [f for f in _POWER_FIELDS
            if getattr(rules, f) is not None and getattr(rules, f) not in _POWER_CODE]
    return out


def kernels_can_play(rules: Rules) -> bool:
    """Whether the batch engine plays ``rules`` exactly (see :data:`KERNEL_LESS_FIELDS`)."""
    return not kernel_blockers(rules)


def check_kernel_rules(rules: Rules) -> None:
    """Raise :class:`BatchRulesError` naming the fields the kernels cannot play."""
    blockers = kernel_blockers(rules)
    if blockers:
        raise BatchRulesError(
            f"the batch engine cannot play {rules.preset_name} with "
            f"{', '.join(f'{f}={getattr(rules, f)}' for f in blockers)}; "
            "play these rules on the compiled engine (--engine python)")


def flatten_rules(rules: Rules, players: int, slots: int) -> I64:
    """The rule set as the kernels read it: values, power codes, the flags, then the layout
    of a game's record for ``players`` grids of ``slots`` slots (a fresh array: the kernels
    take it as an argument, and a caller may change it)."""
    return _flat_rules(rules, players, slots).copy()


@lru_cache(maxsize=256)
def _flat_rules(rules: Rules, players: int, slots: int) -> I64:
    """:func:`flatten_rules`, computed once per rule set and shape: a call that plays a few
    thousand rounds natively spent a tenth of its time flattening the rules again."""
    check_kernel_rules(rules)
    t = tables(rules)
    rf = np.zeros(k.N_RF, dtype=np.int64)
    rf[:56] = t.values
    rf[56:112] = [_POWER_CODE[p] for p in t.powers]
    rf[k.R_PLAYERS] = players
    rf[k.R_DRAW_FROM_DISCARD] = rules.draw_from_discard
    rf[k.R_FIRE_REPLACED] = rules.power_trigger == PowerTrigger.END_OF_TURN_DISCARD
    rf[k.R_OPTIONAL] = rules.powers_optional
    rf[k.R_SNAPPER_ONLY] = rules.resnap == Resnap.SNAPPER_ONLY
    rf[k.R_ONE_SNAP] = rules.one_snap_per_discard
    rf[k.R_PENALTY] = rules.snap_penalty
    rf[k.R_MAX_GRID] = rules.max_grid if rules.max_grid is not None else -1
    rf[k.R_LOCK_CALLER] = rules.lock_caller
    rf[k.R_CALLER_MAY_SNAP] = rules.caller_may_snap
    rf[k.R_AUTO_CALL] = rules.empty_grid_calls_cambio
    rf[k.R_EARLIEST] = rules.earliest_cambio_turn
    rf[k.R_MAX_TURNS] = rules.max_turns
    rf[k.R_OPENING_PEEK] = rules.opening_peek
    rf[k.R_MOST_CARDS_TIE] = rules.tie_rule == TieRule.MOST_CARDS_THEN_NOT_CALLER
    rf[k.R_CALLER_TIE] = _CALLER_TIE.get(rules.tie_rule, k.CALLER_TIE_NONE)
    rf[k.R_OWN_SNAPS] = not rules.snap_others
    rf[k.R_NO_SNAPPING] = not rules.snapping
    rf[k.R_NO_RESHUFFLE] = not rules.reshuffle_pile
    rf[k.R_EXCHANGE] = k.EXCHANGE_OFF if not rules.multi_exchange else \
        k.EXCHANGE_KEEP_ALL if rules.exchange_mismatch == ExchangeMismatch.KEEP_ALL \
        else k.EXCHANGE_RETURN
    rf[k.R_ROUND_ZERO] = _ROUND_ZERO[rules.round_zero]
    rf[k.R_FAILED_CALL] = rules.failed_call_penalty
    rf[k.R_KAMIKAZE] = rules.kamikaze == Kamikaze.TWELVES_THIRTEENS
    rf[k.R_KAMIKAZE_HOLDER] = rules.kamikaze_holder
    rf[k.R_KAMIKAZE_OTHERS] = rules.kamikaze_others
    # Whether some card has evan's queen's power (the envs' observation then has a column
    # for it); the rules never read it.
    rf[k.R_LOOK_ONE_USED] = k.P_LOOK_ONE in rf[56:112]
    for at, value in k.layout(players, slots).items():
        rf[at] = value
    return rf


@lru_cache(maxsize=256)
def _full_deck(rules: Rules, players: int) -> I64:
    """The deck ``State`` shuffles for the deal, as card codes (see :func:`_flat_rules`)."""
    return np.array(rules.deck_cards(players), dtype=np.int64)


def uint64_seeds(seeds: Sequence[int] | npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """Seeds as the kernels take them: each int reduced mod 2**64, as ``State`` does."""
    if isinstance(seeds, range) and seeds and min(seeds[0], seeds[-1]) >= 0 \
            and max(seeds[0], seeds[-1]) < 1 << 63:
        return np.arange(seeds.start, seeds.stop, seeds.step, dtype=np.uint64)
    fits = np.asarray(seeds)
    if fits.dtype.kind in "iu":  # int64 wraps to uint64 as ``& (2**64 - 1)`` does
        return fits.astype(np.uint64)
    return np.array([int(s) & ((1 << 64) - 1) for s in seeds], dtype=np.uint64)


class Batch:
    """``games`` rounds of one rule set and player count, stepped together."""

    def __init__(self, rules: Rules, players: int, games: int) -> None:
        rules.check_players(players)
        check_kernel_rules(rules)
        if players > 62:
            raise ValueError("the batch engine handles at most 62 players")
        self.rules = rules
        self.players = players
        self.games = games
        self.full = _full_deck(rules, players).copy()
        d = len(self.full)
        self.slots = d
        """Slots per grid: a grid can never hold more than every card."""
        self.max_actions = d * d // 2 + 16
        if rules.multi_exchange:  # with every exchange of up to 4 of 16 slots
            self.max_actions += 120 + 560 + 1820
        self.rf = flatten_rules(rules, players, d)
        self.st = np.zeros((games, int(self.rf[k.R_WIDTH])), dtype=np.int64)
        """Game ``i``'s record (see :mod:`cambio.cards.batch_kernels`)."""
        self.mt = np.zeros(625, dtype=np.int64)
        self.lanes = np.zeros((625, k.LANES), dtype=np.uint32)
        """Generators seeded side by side (the deals of ``k.LANES`` games at a time)."""
        self.keys = np.zeros(k.LANES, dtype=np.uint64)
        self.kw = np.zeros((2, k.LANES), dtype=np.uint32)
        self.swaps = np.zeros((d, k.LANES), dtype=np.int64)
        """The deals' shuffles, drawn side by side (``k.deal_swaps``)."""
        self._acts = np.zeros((games, self.max_actions), dtype=np.int64)
        self._counts = np.zeros(games, dtype=np.int64)
        self._scratch = np.zeros(d * players + 8, dtype=np.int64)

    # ------------------------------------------------------------------ the records' parts
    def _part(self, at: int, *shape: int) -> I64:
        """A view of every record's ``[at, at + prod(shape))`` as ``(games, *shape)``."""
        size = int(np.prod(shape))
        view: I64 = self.st[:, at:at + size].reshape(self.games, *shape)
        assert view.base is not None
        return view

    @property
    def sc(self) -> I64:
        """The counters, ``sc[i, k.PHASE]`` (a view: writes change the games)."""
        return self.st[:, :k.N_SC]

    @property
    def grid(self) -> I64:
        return self._part(int(self.rf[k.R_GRID]), self.players, self.slots)

    @property
    def known(self) -> I64:
        return self._part(int(self.rf[k.R_KNOWN]), self.players, self.slots)

    @property
    def glen(self) -> I64:
        return self._part(int(self.rf[k.R_GLEN]), self.players)

    @property
    def deck(self) -> I64:
        return self._part(int(self.rf[k.R_DECK]), self.slots)

    @property
    def pile(self) -> I64:
        return self._part(int(self.rf[k.R_PILE]), self.slots)

    @property
    def poll(self) -> I64:
        return self._part(k.POLL, self.players)

    # ------------------------------------------------------------------ stepping
    def reset(self, seeds: Sequence[int], dealers: Sequence[int] | None = None) -> None:
        """Deal every game: game ``i`` is ``State(rules, players, seed=seeds[i],
        dealer=dealers[i])`` (default dealer: the last seat)."""
        if len(seeds) != self.games:
            raise ValueError(f"{len(seeds)} seeds for {self.games} games")
        d = np.full(self.games, self.players - 1, dtype=np.int64) if dealers is None else \
            np.array([x % self.players for x in dealers], dtype=np.int64)
        k.reset_all(uint64_seeds(seeds), d, self.full, self.st, self.rf, self.lanes, self.keys,
                    self.kw, self.swaps, self.mt)

    def legal_actions(self) -> tuple[I64, I64]:
        """``(actions, counts)``: game ``i``'s legal actions are ``actions[i, :counts[i]]``,
        in ``State.legal_actions`` order (none once the round is over)."""
        k.legal_all(self.st, self.rf, self._acts, self._counts, self._scratch)
        return self._acts, self._counts

    def step(self, actions: Sequence[int] | I64) -> None:
        """Apply ``actions[i]`` for game ``i``'s current player (unchecked, like
        ``State.apply``); games that are over, or given a negative action, are skipped."""
        # A copy: the kernel may not be given a view of the records it writes.
        acts = np.array(actions, dtype=np.int64)
        k.step_all(acts, self.st, self.rf, self.mt)

    # ------------------------------------------------------------------ reading
    def phases(self) -> I64:
        return self.sc[:, k.PHASE].copy()

    def is_over(self) -> npt.NDArray[np.bool_]:
        over: npt.NDArray[np.bool_] = self.sc[:, k.PHASE] == k.PH_ROUND_OVER
        return over

    def current_players(self) -> I64:
        """The seat each game waits for (``TERMINAL``, -4, once over)."""
        return np.array([k.current_player(self.st[i]) for i in range(self.games)],
                        dtype=np.int64)

    def scores(self) -> I64:
        out = np.zeros((self.games, self.players), dtype=np.int64)
        for i in range(self.games):
            k.scores_of(self.st[i], self.rf, out[i])
        return out

    def winners(self) -> npt.NDArray[np.bool_]:
        """``[i, seat]``: whether the seat wins game ``i`` (by the preset's tie rule)."""
        buf = np.zeros(self.players, dtype=np.int64)
        masks = [k.winners_mask(self.st[i], self.rf, buf) for i in range(self.games)]
        return np.array([[m >> s & 1 for s in range(self.players)] for m in masks],
                        dtype=bool)

    def returns(self) -> npt.NDArray[np.float64]:
        """+1 per winner, -1 per loser, 0 for all if everyone won or the game is not over."""
        win = self.winners()
        over = self.is_over()
        out = np.where(win, 1.0, -1.0)
        out[~over | win.all(axis=1)] = 0.0
        return out

    def observe(self, seat: int) -> dict[str, I64]:
        """``seat``'s view of every game as tensors: ``grids[i, seat, slot]`` a card the
        seat knows, ``HIDDEN`` (-2) or ``EMPTY`` (-1); the top of the pile (-1 if none);
        the deck size; the phase; the seat to act; the held card if the seat may see it."""
        bit = (1 << seat) | (1 << self.players)
        seen = (self.known & bit) != 0
        grid = self.grid
        grids = np.where(grid < 0, -1, np.where(seen, grid, HIDDEN))
        plen = self.sc[:, k.PLEN]
        top = np.where(plen > 0, self.pile[np.arange(self.games), np.maximum(plen - 1, 0)], -1)
        held = self.sc[:, k.HELD]
        visible = (self.sc[:, k.HELD_FROM_PILE] != 0) | (self.sc[:, k.TURN] == seat)
        return {"grids": grids, "top": top, "deck_size": self.sc[:, k.DLEN].copy(),
                "phase": self.phases(), "actor": self.current_players(),
                "held": np.where(held < 0, -1, np.where(visible, held, HIDDEN)),
                "turn_number": self.sc[:, k.TURN_NUMBER].copy()}

    def snapshot(self, i: int) -> dict[str, object]:
        """Game ``i`` in :func:`state_snapshot`'s terms (for comparison with the engine)."""
        sc = self.sc[i]
        n = self.players
        glen = self.glen[i]
        grids = [self.grid[i, s, :glen[s]].tolist() for s in range(n)]
        known = [self.known[i, s, :glen[s]].tolist() for s in range(n)]
        over = sc[k.PHASE] == k.PH_ROUND_OVER
        poll = self.poll[i, :sc[k.POLL_LEN]].tolist() if not over else []
        return {
            "grids": grids, "known": known, "deck": self.deck[i, :sc[k.DLEN]].tolist(),
            "pile": self.pile[i, :sc[k.PLEN]].tolist(), "turn": int(sc[k.TURN]),
            "turn_number": int(sc[k.TURN_NUMBER]), "turn_final": bool(sc[k.TURN_FINAL]),
            "held": int(sc[k.HELD]), "held_from_pile": bool(sc[k.HELD_FROM_PILE]),
            "power": int(sc[k.POWER]), "look": (int(sc[k.LOOK_A]), int(sc[k.LOOK_B])),
            "caller": int(sc[k.CALLER]), "final_left": int(sc[k.FINAL_LEFT]),
            "window": int(sc[k.WINDOW]), "give": (int(sc[k.GIVE_ADDR]), int(sc[k.GIVE_SEAT])),
            "poll": poll, "poll_i": int(sc[k.POLL_I]) if poll or over else 0,
            "phase": int(sc[k.PHASE]), "end_reason": int(sc[k.END_REASON]),
            "reshuffles": int(sc[k.RESHUFFLES]), "chance": int(sc[k.CHANCE]),
            "last_snap": None if sc[k.SNAP_SEAT] < 0 else (
                int(sc[k.SNAP_SEAT]), int(sc[k.SNAP_ADDR]), int(sc[k.SNAP_CARD]),
                bool(sc[k.SNAP_RIGHT])),
        }


def state_snapshot(s: State) -> dict[str, object]:
    """The fields of a compiled-engine state that the batch engine mirrors."""
    over = s.is_over()
    return {
        "grids": [list(g) for g in s.grids], "known": [list(x) for x in s.known],
        "deck": list(s.deck), "pile": list(s.pile), "turn": s.turn,
        "turn_number": s.turn_number, "turn_final": bool(s.turn_final), "held": s.held,
        "held_from_pile": bool(s.held_from_pile), "power": s.power,
        "look": (s.look_a, s.look_b), "caller": s.caller, "final_left": s.final_left,
        "window": s.window, "give": (s.give_addr, s.give_seat), "poll": list(s.poll),
        "poll_i": s.poll_i if s.poll or over else 0, "phase": s.phase,
        "end_reason": int(s.end_reason), "reshuffles": s.reshuffles, "chance": s._chance,
        "last_snap": s.last_snap,
    }


@dataclass(frozen=True)
class Results:
    """Whole rounds played natively: per game, scores, winners and how the round went."""

    scores: I64
    winners: npt.NDArray[np.bool_]
    turns: I64
    actions: I64
    end_codes: I64
    """Why each round ended, as ``EndReason`` codes (:attr:`end_reasons` names them)."""
    callers: I64

    @cached_property
    def end_reasons(self) -> list[str]:
        """Why each round ended (``"cambio"``, ``"deck_exhausted"``, ``"turn_cap"``). Named
        on first use: naming them took about 2% of the time of playing them natively."""
        return [_END_NAMES[c] for c in self.end_codes.tolist()]


def batch_results_of(b: Batch) -> Results:
    """The results of ``b``'s rounds (finished or not)."""
    n = b.players
    res = np.zeros((b.games, n + k.N_RES), dtype=np.int64)
    for i in range(b.games):
        k.result_into(b.st[i], b.rf, res[i])
    return results_of(res, n)


def results_of(res: I64, players: int) -> Results:
    """:class:`Results` from rows of :func:`batch_kernels.result_into`."""
    n = players
    masks = res[:, n + k.RES_WINNERS]
    # A seat at a time: broadcasting the masks against every seat's bit took 30 µs for
    # 4,096 rounds (numpy is slow over a short last axis), as long as playing 25 of them.
    winners = np.empty((len(res), n), dtype=np.bool_)
    for s in range(n):
        winners[:, s] = masks >> s & 1
    return Results(scores=res[:, :n].copy(), winners=winners,
                   turns=res[:, n + k.RES_TURNS].copy(), actions=res[:, n + k.RES_ACTIONS].copy(),
                   end_codes=res[:, n + k.RES_END].copy(),
                   callers=res[:, n + k.RES_CALLER].copy())


_END_NAMES = [next((r.name.lower() for r in EndReason if r == code), "")
              for code in range(max(EndReason) + 1)]
"""End reason code -> name (a list: indexing a numpy array of strings per round and
converting back cost more than the rounds' play)."""


def play_uniform(rules: Rules, players: int, seeds: Sequence[int], policy_seed: int = 0,
                 no_call_before: int = 8, fixed: bool = False,
                 kernel: str | None = None) -> Results:
    """Rounds of uniform random play, never calling Cambio before turn ``no_call_before``
    (``benchmarks/cards_random.py``'s policy); the policy's own stream is splitmix64.

    ``kernel``: ``"c"`` (the C kernel, :mod:`cambio.cards.batch_c`; :class:`CKernelError`
    if it is not built or cannot play these rules), ``"numba"``, or ``"auto"`` (C when it
    can play, numba otherwise); None reads ``CAMBIO_BATCH_KERNEL`` (default ``auto``).
    ``fixed``: with numba, the loop compiled for these rules and table size
    (:mod:`cambio.cards.batch_fixed`: 8% faster in ``rulebook`` at 2 players, not in every
    rule set; the first call for a rule set compiles it, about a minute, cached on disk
    after). The same rounds with every kernel.
    """
    b = Batch(rules, players, 1)
    res = np.zeros((len(seeds), players + k.N_RES), dtype=np.int64)
    c = kernel_for(rules, kernel)
    if c is not None:
        c.play_uniform(uint64_seeds(seeds), b.full, b.st[0], b.rf, policy_seed,
                       no_call_before, res)
        return results_of(res, players)
    play = uniform_kernel(b.rf) if fixed else k.play_uniform_all
    play(uint64_seeds(seeds), b.full, b.st[0], b.rf, b.mt, b._acts[0], b._scratch,
         policy_seed, no_call_before, b.lanes, b.keys, b.kw, b.swaps, res)
    return results_of(res, players)


__all__ = ["Batch", "CKernelError", "Results", "action_text", "batch_results_of", "play_uniform",
           "results_of", "state_snapshot", "uint64_seeds"]
