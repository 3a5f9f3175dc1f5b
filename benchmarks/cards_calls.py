"""Where a search bot wins and loses its rounds: after its own Cambio call, after another
seat's, or at the deck's end; and how well its search predicted its own calls.

One bot against ``players - 1`` copies of another, every deal played with the seats rotated
(as ``cards_strength.py`` does, on the same deals for the same ``--seed``). For every round
it records who called and at which round of turns, the bot's win share (ties ``1/k``), and,
when the bot called, the win share its search estimated for the call (``last_estimates``) --
so a call model that promises more than it delivers shows as a gap between the two::

    nice -n 10 .venv/bin/python benchmarks/cards_calls.py --bot hard --players 4 \
        --rules rulebook --deals 50 --seed 1 --json

The figures: by who ended the round (the bot's call, an opponent's, no call), the share of
rounds, the bot's mean share in them with a 95% interval, and for its own calls the mean
estimate. ``--workers`` plays deals in parallel processes. ``--final-by memory,expert``
also finishes each of the bot's calls with those bots in the other seats (the game itself
goes on as played): the bot's share after its calls by who plays the final turns, so a
gap between estimate and outcome can be put down to the opponents' final turns or not.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from statistics import fmean
from typing import Any

from cambio.bots.cards import CardBot, make_bot
from cambio.cards import Rules, State, observe
from cambio.cards.actions import CAMBIO
from cambio.seeds import derive_seed
from cambio.shares import difference_interval, share_interval, tie_share
from cards_strength import EXPERIMENTS, Timed

Row = dict[str, Any]


def _bot(name: str, seed: int) -> CardBot:
    """A bot by name: ``cards_strength.py``'s experiments, then the registry."""
    return EXPERIMENTS[name](seed) if name in EXPERIMENTS else make_bot(name, seed)


Job = tuple[str, str, int, str, int, int, tuple[str, ...]]
"""One deal: the bot, the other, players, preset, seed, deal, the ``--final-by`` bots."""


def final_by(state: State, players: int, caller: int, first: str, names: tuple[str, ...],
             seed: int) -> dict[str, float]:
    """The caller's share if, after its call in ``state``, every other seat were played by
    each of ``names`` instead (the caller by a fresh copy of ``first``: it only answers
    snap polls from here); the game being played is not touched."""
    out: dict[str, float] = {}
    for name in names:
        s = state.clone()
        s.apply(CAMBIO, caller)
        bots = [_bot(first if seat == caller else name, derive_seed(seed, seat))
                for seat in range(players)]
        while not s.is_over():
            seat = s.current_player()
            s.apply(bots[seat].act(observe(s, seat)), seat)
        out[name] = tie_share(caller, s.winners(), players)
    return out


def play_deal(args: Job) -> list[Row]:
    """One deal, every rotation: one row per round (who called, when, the bot's share)."""
    first, other, players, preset, seed, deal, replay = args
    rules = Rules.preset(preset)
    rows: list[Row] = []
    for rotation in range(players):
        state = State(rules, players, seed=derive_seed(seed, deal), polled=True)
        bots = [_bot(first if s == rotation else other, derive_seed(seed, deal, rotation, s))
                for s in range(players)]
        timed = Timed(bots[rotation])
        bots[rotation] = timed
        call_round = -1
        estimate = rest = None
        prior_called = False
        declined: list[tuple[int, float, float]] = []
        replayed: dict[str, float] = {}
        while not state.is_over():
            seat = state.current_player()
            action = bots[seat].act(observe(state, seat))
            if seat == rotation and action != CAMBIO:
                ests = getattr(timed.bot, "last_estimates", {})
                if CAMBIO in ests:  # a call searched and not made
                    declined.append((state.turn_number // players, ests[CAMBIO].win_share,
                                     max(e.win_share for a, e in ests.items() if a != CAMBIO)))
            if action == CAMBIO:
                call_round = state.turn_number // players
                if seat == rotation:
                    ests = getattr(timed.bot, "last_estimates", {})
                    if CAMBIO in ests:
                        estimate = ests[CAMBIO].win_share
                        rest = max((e.win_share for a, e in ests.items() if a != CAMBIO),
                                   default=None)
                        prior_called = next(iter(ests)) == CAMBIO
                    replayed = final_by(state, players, seat, first, replay,
                                        derive_seed(seed, deal, rotation, players))
            state.apply(action, seat)
        caller = state.caller
        who = "none" if caller < 0 else "bot" if caller == rotation else "opponent"
        rows.append({"deal": deal, "who": who, "round": call_round, "estimate": estimate,
                     "rest": rest, "prior_called": prior_called, "declined": declined,
                     "share": tie_share(rotation, state.winners(), players),
                     "final_by": replayed, "times": timed.times})
    return rows


def summary(rows: list[Row]) -> dict[str, Any]:
    """By who called: rounds, the bot's mean share (95%), the estimate of its own calls,
    and by round of turns of the bot's calls."""
    out: dict[str, Any] = {"rounds": len(rows), "share": fmean(r["share"] for r in rows)}
    groups: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        groups[r["who"]].append(r)
    for who, rs in sorted(groups.items()):
        _, lo, hi = share_interval([r["share"] for r in rs])
        g: dict[str, Any] = {"rounds": len(rs), "of_all": len(rs) / len(rows),
                             "share": fmean(r["share"] for r in rs), "low": lo, "high": hi}
        ests = [r["estimate"] for r in rs if r["estimate"] is not None]
        if ests:
            g["estimate"] = fmean(ests)
            g["estimated_calls"] = len(ests)
            g["rest"] = fmean(r["rest"] for r in rs if r["rest"] is not None)
            g["prior_called"] = sum(r["prior_called"] for r in rs)
        replays = [r for r in rs if r.get("final_by")]
        if replays:
            g["final_by"] = {name: fmean(r["final_by"][name] for r in replays)
                             for name in replays[0]["final_by"]}
            g["final_by_calls"] = len(replays)
            g["final_by_real"] = fmean(r["share"] for r in replays)
        by_round: dict[int, list[float]] = defaultdict(list)
        for r in rs:
            by_round[r["round"]].append(r["share"])
        g["by_round"] = {k: [len(v), round(fmean(v), 3)] for k, v in sorted(by_round.items())}
        out[who] = g
    times = sorted(t for r in rows for t in r.get("times", []))
    if times:
        out["cpu_ms"] = {q: round(1000 * times[min(len(times) - 1, int(p * len(times)))], 1)
                         for q, p in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))}
        out["decisions"] = len(times)
    declined = [d for r in rows for d in r["declined"]]
    if declined:
        ahead = [d for d in declined if d[1] > d[2]]
        out["declined"] = {"searched": len(declined), "call_ahead": len(ahead),
                           "call_ahead_by": fmean(d[1] - d[2] for d in ahead) if ahead else 0.0,
                           "call_estimate": fmean(d[1] for d in declined)}
    return out


def read_rows(path: str) -> list[Row]:
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def paired(base: list[Row], other: list[Row]) -> dict[str, Any]:
    """OTHER's share minus BASE's, deal by deal (the mean over a deal's rotations) on the
    deals both hold, with the 95% interval of the differences."""
    def by_deal(rows: list[Row]) -> dict[int, float]:
        deals: dict[int, list[float]] = defaultdict(list)
        for r in rows:
            deals[r["deal"]].append(r["share"])
        return {d: fmean(v) for d, v in deals.items()}

    a, b = by_deal(base), by_deal(other)
    common = sorted(set(a) & set(b))
    mean, lo, hi = difference_interval([b[d] - a[d] for d in common])
    return {"deals": len(common), "base": fmean(a[d] for d in common),
            "other": fmean(b[d] for d in common), "difference": mean, "low": lo, "high": hi}


def play(a: argparse.Namespace, jobs: list[Job]) -> list[Row]:
    """Every deal's rows, in deal order, each deal appended to ``a.rows`` as it finishes."""
    out = open(a.rows, "w") if a.rows else None  # noqa: SIM115 -- written deal by deal
    rows: list[Row] = []
    with ProcessPoolExecutor(a.workers) as pool:
        for deal in pool.map(play_deal, jobs) if a.workers > 1 else map(play_deal, jobs):
            rows += deal
            if out is not None:
                out.writelines(json.dumps(r) + "\n" for r in deal)
                out.flush()
    if out is not None:
        out.close()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="hard")
    ap.add_argument("--other", default="memory")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rules", default="rulebook")
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--rows", help="also write every round's row here (JSON lines), each "
                    "deal as it finishes (an interrupted run's rows are its first deals)")
    ap.add_argument("--summary", metavar="ROWS",
                    help="play nothing: the figures of a --rows file (finished or not)")
    ap.add_argument("--paired", nargs=2, metavar=("BASE", "OTHER"),
                    help="play nothing: OTHER's share minus BASE's, deal by deal, from two "
                    "--rows files of the same deals")
    ap.add_argument("--final-by", default="", metavar="BOTS",
                    help="comma-separated bots: at each of the bot's own calls, also finish "
                    "the round with each of them in the other seats (the game goes on "
                    "untouched) and report the bot's share after its calls by each: what "
                    "the opponents' final turns are worth")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.paired:
        print(json.dumps(paired(read_rows(a.paired[0]), read_rows(a.paired[1]))))
        return
    if a.summary:
        rows = read_rows(a.summary)
    else:
        replay = tuple(x for x in a.final_by.split(",") if x)
        rows = play(a, [(a.bot, a.other, a.players, a.rules, a.seed, d, replay)
                        for d in range(a.deals)])
    s = summary(rows)
    if a.json:
        print(json.dumps(s))
        return
    title = a.summary or f"{a.bot} + {a.players - 1} {a.other}, {a.rules}"
    print(f"{title}: {s['rounds']} rounds, share {s['share']:.3f}")
    for who in ("bot", "opponent", "none"):
        if who in s:
            g = s[who]
            est = (f", estimated {g['estimate']:.3f} ({g['estimated_calls']} searched, "
                   f"{g['prior_called']} by the prior; best other move {g['rest']:.3f})"
                   if "estimate" in g else "")
            print(f"  called by {who}: {g['rounds']} ({g['of_all']:.1%}), share "
                  f"{g['share']:.3f} ({g['low']:.3f}-{g['high']:.3f}){est}; by round "
                  f"{g['by_round']}")
    if "final_by" in s.get("bot", {}):
        g = s["bot"]
        by = ", ".join(f"{k} {v:.3f}" for k, v in g["final_by"].items())
        print(f"  its {g['final_by_calls']} calls, the others' final turns by: {by} "
              f"(as played: {g['final_by_real']:.3f})")
    if "cpu_ms" in s:
        print(f"  CPU per decision (ms, {s['decisions']} decisions): {s['cpu_ms']}")
    if "declined" in s:
        print(f"  calls searched and not made: {s['declined']}")


if __name__ == "__main__":
    main()
