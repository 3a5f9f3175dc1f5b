"""Card-bot strength and decision time, including against the CHEATING oracle.

``cambio tournament cards`` measures fair bots against each other; this benchmark adds what a
tournament must not offer: the CHEATING reference bots that read the state -- ``oracle`` (every
card on the table, not the deck) and ``clairvoyant`` (every card and the deck order: native
rollouts of the true state at every decision, the fair ceiling). Two bots, heads-up or one bot
against ``players - 1`` copies of the other; every deal is played with the seats rotated (as in
the tournament), and the first bot's win share (a round won alone counts 1, shared by k winners
1/k) is reported with a 95% interval from the per-deal means; so is ``won_or_tied``, the share
of rounds it won or tied for, each tie counting fully (the measure of the 4-player
baseline, in which each of four ``memory`` bots wins about 30%). Game seeds are
``cambio.seeds.derive_seed(seed, deal)``; decision times of the first bot are CPU seconds
(``time.process_time``) per decision, with percentiles.

    .venv/bin/python benchmarks/cards_strength.py --bots hard,oracle --players 2 \
        --rules rulebook --games 400 --seed 1
    .venv/bin/python benchmarks/cards_strength.py --bots memory,clairvoyant --players 2 \
        --rules rulebook --games 2000 --seed 1 --workers 2
    .venv/bin/python benchmarks/cards_strength.py --bots hard,memory --players 4 \
        --rules rulebook --games 2000 --seed 1 --workers 2

A long run can keep a journal (``--journal FILE``): each finished deal is appended to it, and
a run started again with the same arguments and journal plays only the deals missing from it,
so an interrupted acceptance run (an hour of CPU) resumes where it stopped. The figures are
the same as those of an uninterrupted run: every deal's seeds depend only on ``--seed`` and
the deal's number.

Two runs of different first bots against the same opponent, seed, preset and table size play
the same deals, so the difference of their shares is best judged deal by deal: ``--paired
BASE OTHER`` reads two journals and prints OTHER's share minus BASE's on the deals both hold,
with the 95% interval of the per-deal differences, playing nothing::

    .venv/bin/python benchmarks/cards_strength.py --paired hard-search.jsonl deep-pop-search.jsonl
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from statistics import fmean
from typing import Any

from rich.console import Console
from rich.progress import track

from cambio.bots.cards import CardBot, ExpectedPointsBot, OpponentModelBot, make_bot, play_round
from cambio.bots.cards.adaptive import AdaptiveRolloutSearchBot
from cambio.bots.cards.balanced import BALANCED as SHIPPED_BALANCED
from cambio.bots.cards.clairvoyant import ClairvoyantBot
from cambio.bots.cards.deep import POPULATION, BatchRolloutSearchBot
from cambio.bots.cards.memory import TUNED, MemoryParams
from cambio.bots.cards.oracle import OracleBot
from cambio.bots.cards.search import FINAL_ROLLOUTS, RolloutSearchBot
from cambio.cards import CardView, Rules, State
from cambio.seeds import derive_seed
from cambio.shares import difference_interval, share_interval, tie_share

GUESS = 0.6
"""The ``deep`` experiments measured before ``deep`` read the view's ``seen`` masks guessed
instead that an opponent knows each of its cards we have not seen with this probability."""


def _tuned(seed: int) -> CardBot:
    return ExpectedPointsBot(seed, TUNED)


def _tuned_final(seed: int) -> CardBot:
    return RolloutSearchBot(seed, iterations=0, final=FINAL_ROLLOUTS,
                            prior=ExpectedPointsBot(seed, TUNED))


def _expert_tuned(seed: int) -> CardBot:
    return RolloutSearchBot(seed, iterations=0, final=FINAL_ROLLOUTS,
                            prior=OpponentModelBot(seed, memory=TUNED))


def _deep_w64(seed: int) -> CardBot:
    return BatchRolloutSearchBot(seed, min_worlds=64, knows=GUESS)


def _deep_bonferroni(seed: int) -> CardBot:
    return BatchRolloutSearchBot(seed, per_test=True, knows=GUESS)


def _deep_z05(seed: int) -> CardBot:
    return BatchRolloutSearchBot(seed, z=0.5, knows=GUESS)


def _deep_self_tuned(seed: int) -> CardBot:
    return BatchRolloutSearchBot(seed, self_params=TUNED, knows=GUESS)


def _deep_prior_tuned(seed: int) -> CardBot:
    bot = BatchRolloutSearchBot(seed, knows=GUESS)
    bot.prior = OpponentModelBot(seed, memory=TUNED)
    return bot


def _deep_pop(seed: int) -> CardBot:
    return BatchRolloutSearchBot(seed, population=POPULATION)


def _deep_infer(seed: int) -> CardBot:
    return BatchRolloutSearchBot(seed, population=POPULATION, infer=True)


def _deep_guess(seed: int) -> CardBot:
    return BatchRolloutSearchBot(seed, knows=GUESS)


def _master_call_margin(margin: float) -> Callable[[int], CardBot]:
    """``master`` as it was measured before it rolled its own seat out by ``memory.TUNED``
    at 4 players (``memory`` in every seat), whose Cambio calls at 4 players must beat
    playing on by ``margin`` more than the rollouts say (negative: by less)."""
    def make(seed: int) -> CardBot:
        return AdaptiveRolloutSearchBot(seed, call_margin=(0.0, 0.0, margin), self_params=None)
    return make


def _master_call_margin_2p(margin: float) -> Callable[[int], CardBot]:
    """``master`` whose heads-up Cambio calls must beat playing on by ``margin`` more than
    the rollouts say."""
    def make(seed: int) -> CardBot:
        return AdaptiveRolloutSearchBot(seed, call_margin=(margin, 0.0))
    return make


def _master_opp_tuned(seed: int) -> CardBot:
    """``master`` whose rollouts play the other seats by ``memory.TUNED``'s weights."""
    return AdaptiveRolloutSearchBot(seed, self_params=None, others_params=TUNED,
                                    balanced=None)


HARD_IMITATION = MemoryParams(cambio_total=-1.636, cambio_hidden=2, cambio_relax=0.047,
                              relax_after=10, info_own=22.658, info_other=0.002, risk=0.237,
                              snap_odds=0.866, min_snap_gain=0.516, swap_power=1.405)
"""``memory``'s weights that best predict ``hard``'s moves (``cards_imitate.py --target hard
--rules rulebook --deals 240 --seed 1``: the same move in 84.8% of 4,840 held-out
decisions, ``memory``'s defaults 83.3%; at the start of a turn 92.4% against 86.6%)."""


def _opp_imitating_hard(search: type[BatchRolloutSearchBot]) -> Callable[[int], CardBot]:
    """``search`` (``hard``'s class or ``master``'s) whose rollouts play the other seats by
    :data:`HARD_IMITATION`: opponents that play as ``hard`` does, as far as ``memory``'s
    weights can."""
    def make(seed: int) -> CardBot:
        return search(seed, others_params=HARD_IMITATION, balanced=None)
    return make


BALANCED = SHIPPED_BALANCED[("rulebook", 2)]
"""The balanced weights of rulebook heads-up (:mod:`cambio.bots.cards.balanced`), which
``master`` has played there since 2026-12-06; the experiments below play them in every
preset."""


def _balanced(search: type[BatchRolloutSearchBot]) -> Callable[[int], CardBot]:
    """``search`` (``hard``'s class or ``master``'s) whose rollouts play every seat by
    :data:`BALANCED`."""
    def make(seed: int) -> CardBot:
        return search(seed, self_params=BALANCED, self_from=2, others_params=BALANCED,
                      balanced=None)
    return make


def _master_self_balanced(seed: int) -> CardBot:
    """``master`` whose rollouts play only its own seat by :data:`BALANCED` (rulebook's),
    the other seats by ``memory``'s defaults: the plan of a player who plays on as ``hard``
    does, against opponents not assumed to wait as ``hard`` does. Rulebook's ``master``
    since 2026-12-06 (``OWN_SEAT_ONLY`` in :mod:`cambio.bots.cards.balanced`); here it
    plays them in every preset."""
    return AdaptiveRolloutSearchBot(seed, self_params=BALANCED, self_from=2, balanced=None)


def _master_hold(seed: int) -> CardBot:
    """``master`` whose challengers must clear the margin of its first stage (``z`` of the
    first stage's standard errors) however many worlds they met: the later stages confirm
    or refute ``hard``'s gains but take none smaller than ``hard`` would (``z`` 1 in every
    preset, as tried in wikipedia before ``master`` took 2 there)."""
    return AdaptiveRolloutSearchBot(seed, hold_margin=True, z_at={})


def _master_z(z: float) -> Callable[[int], CardBot]:
    """``master`` leaving its prior only for a challenger ``z`` standard errors better, in
    every preset (``hard``'s margin is 1, ``master``'s 1 but in wikipedia heads-up, where
    it is 2: with twelve times the rollouts a close decision's standard errors shrink, and
    a biased rollout policy's small gains pass)."""
    def make(seed: int) -> CardBot:
        return AdaptiveRolloutSearchBot(seed, z=z, z_at={})
    return make


def _master_own_seat(seed: int) -> CardBot:
    """``master`` playing each preset's balanced weights (as shipped) in its own rollout seat
    only, in every preset that has them, the other seats by ``memory``'s defaults: the
    trial of rulebook's ``OWN_SEAT_ONLY`` in house, wikipedia, ``evan`` and ``cambia``."""
    return AdaptiveRolloutSearchBot(seed, own_seat_only=frozenset(SHIPPED_BALANCED))


TRIAL_BALANCED: dict[str, tuple[str, MemoryParams]] = {
    "house": ("house", MemoryParams(
        cambio_total=-0.262, cambio_hidden=1, cambio_relax=0.002, relax_after=10,
        info_own=25.935, info_other=0.39, risk=-1.999, snap_odds=0.927, min_snap_gain=2.732,
        swap_power=1.705)),
    "house-per-deal": ("house", SHIPPED_BALANCED[("house", 2)]),
    "wikipedia": ("wikipedia", MemoryParams(
        cambio_total=4.465, cambio_hidden=1, cambio_relax=0.132, relax_after=8,
        info_own=22.737, info_other=3.266, risk=-0.954, snap_odds=1.169, min_snap_gain=0.197,
        swap_power=0.287)),
    "wikipedia-lead": ("wikipedia", MemoryParams(
        cambio_total=3.951, cambio_hidden=0, cambio_relax=0.129, relax_after=10,
        info_own=2.463, info_other=0.079, risk=-1.755, snap_odds=0.007, min_snap_gain=9.533,
        swap_power=1.45, call_lead=8.477)),
    "wikipedia-lead0": ("wikipedia", SHIPPED_BALANCED[("wikipedia", 2)]),
    "wikipedia-lead0-fit": ("wikipedia", MemoryParams(
        cambio_total=3.318, cambio_hidden=1, cambio_relax=0.372, relax_after=11,
        info_own=0.0, info_other=0.036, risk=-1.633, snap_odds=0.482, min_snap_gain=4.495,
        swap_power=1.514, call_lead=0.0)),
    "wikipedia-lead1": ("wikipedia", MemoryParams(call_lead=1.0)),
    "wikipedia-lead2": ("wikipedia", MemoryParams(call_lead=2.0)),
    "evan": ("evan", SHIPPED_BALANCED[("evan", 2)]),
    "cambia": ("cambia", SHIPPED_BALANCED[("cambia", 2)]),
}
"""Balanced weights on trial for one preset's heads-up tables, by trial name (the experiment
is ``master-balanced-NAME``), each from ``cards_balance.py --target hard --rules PRESET
--deals 300 --worlds 16 --seed 2``. ``house``: every position weighing the same (before
``--per-deal``), Brier 0.2956 on 7,428 held-out positions, ``memory``'s defaults 0.3391.
At most 64 positions a deal, every deal weighing the same: ``house-per-deal`` 0.2315 on
3,628, the defaults 0.2333 (shipped: ``master`` plays them in house heads-up);
``wikipedia`` 0.2396 on 4,185, the defaults 0.2418; ``wikipedia-lead`` (``--call-lead``:
the call gate fitted too) 0.2289; ``wikipedia-lead0``: ``memory``'s defaults with the gate
at 0 (a call only when we think ourselves strictly lowest), not fitted (shipped);
``wikipedia-lead0-fit`` (``--call-lead-at 0``: the gate held at 0, the rest fitted to
today's gated ``hard``) 0.2191 on 4,000, the gated defaults 0.2200;
``wikipedia-lead1``, ``-lead2``: the gate at a lead of 1 and 2 points; ``evan`` 0.2313 on
3,113, the defaults 0.2342 (shipped); ``cambia`` 0.2132 on 2,429, the defaults 0.2157
(shipped)."""


def _master_balanced_trial(trial: str) -> Callable[[int], CardBot]:
    """``master`` rolling one preset's heads-up tables out by the weights on trial
    (:data:`TRIAL_BALANCED`) as well as the shipped ones."""
    preset, params = TRIAL_BALANCED[trial]

    def make(seed: int) -> CardBot:
        return AdaptiveRolloutSearchBot(seed, balanced={**SHIPPED_BALANCED, (preset, 2): params})
    return make


def _deep_ungated(seed: int) -> CardBot:
    """``hard`` as it was before it held wikipedia's rollout calls back (``memory``'s
    weights in every rollout seat, every preset)."""
    return BatchRolloutSearchBot(seed, balanced=None)


def _deep_shipped_balanced(seed: int) -> CardBot:
    """``hard`` rolling each preset's heads-up tables out by the balanced weights ``master``
    ships for it (:data:`cambio.bots.cards.balanced.BALANCED`)."""
    return BatchRolloutSearchBot(seed, balanced=SHIPPED_BALANCED)


def _master_unbalanced(seed: int) -> CardBot:
    """``master`` as it was before it rolled heads-up tables out by the balanced weights
    (rulebook, house, evan, cambia: ``memory``'s defaults in every seat there)."""
    return AdaptiveRolloutSearchBot(seed, balanced=None)


def _master_all_tuned(seed: int) -> CardBot:
    """``master`` whose rollouts play every seat by ``memory.TUNED``'s weights."""
    return AdaptiveRolloutSearchBot(seed, self_params=TUNED, self_from=2, others_params=TUNED,
                                    balanced=None)


def _master_low(scale: float) -> Callable[[int], CardBot]:
    """``master`` whose worlds deal opponents lower unseen cards: tilted to ``scale`` times
    the mean ``memory`` keeps."""
    def make(seed: int) -> CardBot:
        bot = AdaptiveRolloutSearchBot(seed)
        bot.hidden_scale = scale
        return bot
    return make


def _prior_learned(search: type[BatchRolloutSearchBot]) -> Callable[[int], CardBot]:
    """``search`` (``hard``'s class or ``master``'s) whose prior, the move it keeps unless
    a challenger is clearly better, is ``learned``'s (the network distilled from ``hard``)
    instead of ``expert``'s."""
    def make(seed: int) -> CardBot:
        from cambio.bots.cards.learned import DistilledNetworkBot

        bot = search(seed)
        bot.prior = DistilledNetworkBot(seed)
        return bot
    return make


def _master_self_tuned(seed: int) -> CardBot:
    """``master`` whose own later turns in the rollouts play ``memory.TUNED``'s weights at
    every table size (``master`` itself does from 4 players)."""
    return AdaptiveRolloutSearchBot(seed, self_params=TUNED, self_from=2, balanced=None)


EXPERIMENTS = {"deep": BatchRolloutSearchBot, "deep-guess": _deep_guess, "deep-w64": _deep_w64,
               "deep-bonferroni": _deep_bonferroni, "deep-z05": _deep_z05,
               "deep-self-tuned": _deep_self_tuned, "deep-prior-tuned": _deep_prior_tuned,
               "tuned": _tuned, "tuned-final": _tuned_final, "expert-tuned": _expert_tuned,
               "deep-pop": _deep_pop, "deep-infer": _deep_infer,
               "master-call+4": _master_call_margin(0.04),
               "master-call-4": _master_call_margin(-0.04),
               "master-call-10": _master_call_margin(-0.10),
               "master-self-tuned": _master_self_tuned,
               "master-call2+5": _master_call_margin_2p(0.05),
               "master-call2+10": _master_call_margin_2p(0.10),
               "master-opp-tuned": _master_opp_tuned, "master-all-tuned": _master_all_tuned,
               "master-low85": _master_low(0.85),
               "master-opp-fit": _opp_imitating_hard(AdaptiveRolloutSearchBot),
               "deep-opp-fit": _opp_imitating_hard(BatchRolloutSearchBot),
               "master-balanced": _balanced(AdaptiveRolloutSearchBot),
               "master-self-balanced": _master_self_balanced,
               "master-own-seat": _master_own_seat,
               "master-z1": _master_z(1.0),
               "master-z2": _master_z(2.0),
               "master-hold": _master_hold,
               "master-unbalanced": _master_unbalanced,
               **{f"master-balanced-{trial}": _master_balanced_trial(trial)
                  for trial in TRIAL_BALANCED},
               "deep-balanced": _balanced(BatchRolloutSearchBot),
               "deep-shipped-balanced": _deep_shipped_balanced,
               "deep-ungated": _deep_ungated,
               "master-prior-learned": _prior_learned(AdaptiveRolloutSearchBot),
               "deep-prior-learned": _prior_learned(BatchRolloutSearchBot)}
"""Bots measured here that no command offers: the native-rollout ``deep`` bot (``hard``);
``deep-guess``, ``hard`` as it was before it read the view's public ``seen`` masks (each
opponent guessed to know each of its cards we have not seen with probability 0.6, as in all
the ``deep-*`` experiments below); ``deep-w64``: at least 64 worlds a candidate where
``hard``'s floor is 16, so a decision with more than 16 candidates gets more rollouts;
``deep-bonferroni``: a margin against the prior that grows with the number of candidates;
``deep-z05``: half ``hard``'s margin; ``deep-self-tuned``: its own seat of the rollouts
played with the tuned weights; ``deep-prior-tuned``: the tuned weights under ``expert``'s
prior. And ``memory`` with CMA-ES-tuned weights (``benchmarks/cards_tune.py``), that with
``hard``'s searched last turn, and ``hard`` with the tuned weights under ``expert``.
``deep-pop``: ``hard`` whose rollouts draw each opponent's policy per world from
:data:`~cambio.bots.cards.deep.POPULATION` instead of ``memory`` everywhere; ``deep-infer``:
the same, a seat's wrong snaps this round making the snap-eager model likelier. The
``master-*`` names are ``master`` with one change each (docs/cards-strength.md): a call
margin at 4 players or heads-up (``master-call±N``, ``master-call2+5``), its own seat rolled
out by the tuned weights at every table size (``master-self-tuned``), the other seats
(``master-opp-tuned``) or every seat (``master-all-tuned``), opponents' unseen cards dealt
lower (``master-low85``), ``learned``'s move as the prior (``master-prior-learned``, and
``deep-prior-learned`` for ``hard``), the other seats rolled out by the weights that best
predict ``hard``'s moves (``master-opp-fit``, ``deep-opp-fit``), every seat rolled out by
the weights whose rollouts best predict how ``hard``'s rounds end, in every preset
(``master-balanced``, ``deep-balanced``: rulebook's weights; ``master-self-balanced``:
rulebook's in its own seat only; ``master-own-seat``: each preset's own in its own seat
only, everywhere), a wider margin against the prior in every preset (``master-z2``;
``master-z1``: ``master`` before it took 2 in wikipedia) or the first stage's margin held
at every stage (``master-hold``), each preset's own as ``master`` ships them
(``deep-shipped-balanced``), ``hard`` before it played wikipedia's call gate
(``deep-ungated``), and ``master`` without its heads-up ones
(``master-unbalanced``, ``master`` before 2026-12-06) or with a preset's own on trial as
well (``master-balanced-house``, ``-house-per-deal``, ``-wikipedia``, ``-wikipedia-lead``,
``-wikipedia-lead0``, ``-wikipedia-lead0-fit``, ``-evan``, ``-cambia``)."""


class Timed:
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []

    def act(self, view: CardView) -> int:
        start = time.process_time()
        action = self.bot.act(view)
        self.times.append(time.process_time() - start)
        return action


def play_deal(args: tuple[str, str, int, str, int, int]) -> tuple[float, list[float], float]:
    """One deal, every rotation of the seats: (mean share of the first bot, its times, the
    share of rotations it won or tied for the win)."""
    first, other, players, preset, seed, deal = args
    rules = Rules.preset(preset)
    total = 0.0
    won = 0.0
    times: list[float] = []
    for rotation in range(players):
        state = State(rules, players, seed=derive_seed(seed, deal), polled=True)
        bots: list[CardBot] = []
        timed = None
        for seat in range(players):
            name = first if seat == rotation else other
            bot_seed = derive_seed(seed, deal, rotation, seat)
            if name == "oracle":
                bot: CardBot = OracleBot(lambda s=state: s, bot_seed)
            elif name == "clairvoyant":
                bot = ClairvoyantBot(lambda s=state: s, bot_seed)
            elif name in EXPERIMENTS:
                bot = EXPERIMENTS[name](bot_seed)
            else:
                bot = make_bot(name, bot_seed)
            if seat == rotation:
                bot = timed = Timed(bot)
            bots.append(bot)
        play_round(state, bots)
        winners = state.winners()
        total += tie_share(rotation, winners, players)
        won += rotation in winners
        assert timed is not None
        times += timed.times
    return total / players, times, won / players


Result = tuple[float, list[float], float]
Job = tuple[str, str, int, str, int, int]


def read_journal(path: Path) -> tuple[dict[str, Any], dict[int, Result]]:
    """A journal's header (the run it belongs to) and its finished deals; a last line cut
    short by an interruption is left out, to be played again."""
    lines = path.read_text().splitlines()
    if not lines:
        raise SystemExit(f"{path} is empty: not a journal")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError:
        raise SystemExit(f"{path} does not start with a run header: {lines[0][:80]}") from None
    done: dict[int, Result] = {}
    for line in lines[1:]:
        try:
            d = json.loads(line)
        except json.JSONDecodeError:
            break
        done[int(d["deal"])] = (float(d["share"]), list(d["times"]), float(d["won"]))
    return header, done


class Journal:
    """Finished deals of one run on disk, one JSON line each, after a header line naming the
    run; a journal of another run is refused rather than mixed in."""

    def __init__(self, path: Path, run: dict[str, Any]) -> None:
        self.path = path
        self.done: dict[int, Result] = {}
        if path.exists() and path.stat().st_size:
            header, self.done = read_journal(path)
            if header != run:
                raise SystemExit(f"{path} is the journal of another run: {json.dumps(header)}")
        else:
            path.write_text(json.dumps(run) + "\n")

    def add(self, deal: int, result: Result) -> None:
        with self.path.open("a") as f:
            f.write(json.dumps({"deal": deal, "share": result[0], "times": result[1],
                                "won": result[2]}) + "\n")


def run_header(first: str, other: str, players: int, rules: str, seed: int,
               deals: int) -> dict[str, Any]:
    """What a journal's first line says: the run its deals belong to."""
    return {"bots": f"{first},{other}", "players": players, "rules": rules, "seed": seed,
            "deals": deals}


def finished_deals(first: str, other: str, players: int, rules: str, seed: int, deals: int,
                   journal_path: Path) -> list[Result]:
    """The deals a run's journal holds so far, in deal order, without playing any: how an
    interrupted run stands. The deals are played in order, so these are its first ones,
    stopped by the clock, not by how the figures looked."""
    if not journal_path.exists():
        return []
    done = Journal(journal_path, run_header(first, other, players, rules, seed, deals)).done
    return [done[d] for d in sorted(done)]


def play_journaled(first: str, other: str, players: int, rules: str, seed: int, deals: int,
                   workers: int, journal_path: Path | None) -> list[Result]:
    """Every deal's result, in deal order, with a progress bar; with ``journal_path`` the
    finished deals are kept there and an interrupted run resumes from them."""
    journal = None if journal_path is None else Journal(
        journal_path, run_header(first, other, players, rules, seed, deals))
    done = {} if journal is None else journal.done
    jobs = [(first, other, players, rules, seed, d) for d in range(deals) if d not in done]
    progress = track(play_deals(jobs, workers), total=len(jobs),
                     description=f"{first} vs {other}, {players} players",
                     console=Console(stderr=True))
    for job, result in zip(jobs, progress, strict=True):
        done[job[5]] = result
        if journal is not None:
            journal.add(job[5], result)
    return [done[d] for d in range(deals)]


def paired(base: Path, other: Path) -> dict[str, Any]:
    """How much more the first bot of journal ``other`` wins than that of ``base``, deal by
    deal on the deals both hold: the runs must share the opponent, table size, preset and
    seed, so each deal is the same cards and the same opponent seeds for both, and the
    interval of the per-deal differences is far narrower than that of two separate shares."""
    (ha, da), (hb, db) = read_journal(base), read_journal(other)
    for key in ("players", "rules", "seed"):
        if ha[key] != hb[key]:
            raise SystemExit(f"not paired: {base} has {key} {ha[key]}, {other} has {hb[key]}")
    (first_a, opp_a), (first_b, opp_b) = ha["bots"].split(","), hb["bots"].split(",")
    if opp_a != opp_b:
        raise SystemExit(f"not paired: {base} is against {opp_a}, {other} against {opp_b}")
    deals = sorted(da.keys() & db.keys())
    if not deals:
        raise SystemExit(f"not paired: {base} and {other} hold no deal in common")
    out: dict[str, Any] = {"base": first_a, "other": first_b, "opponent": opp_a,
                           "players": ha["players"], "rules": ha["rules"], "seed": ha["seed"],
                           "deals": len(deals), "rounds": len(deals) * ha["players"]}
    for name, of in (("win_share", [(da[d][0], db[d][0]) for d in deals]),
                     ("won_or_tied", [(da[d][2], db[d][2]) for d in deals])):
        a, b = fmean(x for x, _ in of), fmean(y for _, y in of)
        diff, low, high = difference_interval([y - x for x, y in of])
        out[name] = {"base": a, "other": b, "difference": diff, "low": low, "high": high}
    return out


def print_paired(p: dict[str, Any]) -> None:
    def points(x: float) -> str:
        return f"{x * 100:+.1f}".replace("-", "−")

    print(f"{p['other']} minus {p['base']}, both against {p['opponent']} · {p['rules']} · "
          f"{p['players']} players · the {p['deals']:,} deals both journals hold "
          f"({p['rounds']:,} rounds), paired deal by deal:")
    for name, label in (("win_share", "win share"), ("won_or_tied", "won or tied")):
        f = p[name]
        print(f"  {label}: {f['other']:.1%} against {f['base']:.1%}, "
              f"{points(f['difference'])} points (95% {points(f['low'])} to {points(f['high'])})")


def play_deals(jobs: list[Job], workers: int) -> Iterator[Result]:
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            yield from pool.map(play_deal, jobs, chunksize=4)
    else:
        yield from map(play_deal, jobs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="hard,memory")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rules", default="rulebook")
    parser.add_argument("--games", type=int, default=400, help="rounds (deals x players)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--journal", type=Path, help="keep finished deals here and resume "
                        "from them (a run with the same arguments)")
    parser.add_argument("--paired", type=Path, nargs=2, metavar=("BASE", "OTHER"),
                        help="play nothing: the paired difference of two journals' first "
                        "bots (OTHER minus BASE) on the deals both hold")
    a = parser.parse_args()
    if a.paired:
        p = paired(*a.paired)
        print(json.dumps(p)) if a.json else print_paired(p)
        return
    first, other = a.bots.split(",")
    deals = max(1, a.games // a.players)
    start = time.perf_counter()
    results = play_journaled(first, other, a.players, a.rules, a.seed, deals, a.workers,
                             a.journal)
    times = sorted(t for r in results for t in r[1])
    mean, low, high = share_interval([r[0] for r in results])
    won, won_low, won_high = share_interval([r[2] for r in results])

    def pct(q: float) -> float:
        return times[min(len(times) - 1, int(q * len(times)))] if times else 0.0

    out: dict[str, Any] = {
        "bots": [first, other], "players": a.players, "rules": a.rules, "seed": a.seed,
        "rounds": deals * a.players, "deals": deals,
        "win_share": mean, "low": low, "high": high,
        "won_or_tied": won, "won_or_tied_low": won_low, "won_or_tied_high": won_high,
        "decisions": len(times), "decision_p50": pct(0.5), "decision_p95": pct(0.95),
        "decision_p99": pct(0.99), "decision_max": times[-1] if times else 0.0,
        "seconds": time.perf_counter() - start,
    }
    if a.json:
        print(json.dumps(out))
    else:
        print(f"{first} vs {other} · {a.rules} · {a.players} players · {out['rounds']} rounds: "
              f"win share {mean:.1%} (95% {low:.1%}–{high:.1%}); "
              f"won or tied {won:.1%} ({won_low:.1%}–{won_high:.1%}); "
              f"{first}'s decisions: p50 {out['decision_p50'] * 1000:.1f} ms, "
              f"p95 {out['decision_p95'] * 1000:.1f} ms, max {out['decision_max'] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
