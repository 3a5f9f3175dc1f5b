"""The compiled board search (``native``) against the Python one and against perfect play.

Four studies, each seeded (figures for docs/board-strength.md and docs/reports/performance.md):

1. **speed**: nodes per CPU second of the Python ``alphabeta`` and of ``native`` (the same
   algorithm; and with its optional threat search), one search per seeded 5x5 start, in the
   same process (ratios are what to compare on a shared machine).
2. **4x4 against perfect play**: ``native`` at a fixed time per move plays both seats of a
   random sample of the 4x4 starts (3 and 4 dice, none on a corner, at most 2 in a line,
   up to symmetry) against the perfect bot: the drawn ("fair") starts and the starts the
   native seat wins with perfect play. Reported: draws kept, wins kept, losses.
3. **5x5 at equal time**: ``native`` gets, per move, the mean wall time
   ``alphabeta:4000`` took per move (measured first in this run), and plays it from seeded
   quick-setup starts with both seatings; Elo difference with a 95 % interval.
4. **drawn positions** (with ``--drawn-starts N``): the drawn 4x4 positions the
   linear-evaluation bot met against perfect play, and how often each variant (evaluation,
   node budget, table size) answers one with a losing move: a per-move error rate,
   independent of the machine's load.

    .venv/bin/python benchmarks/board_native.py --seconds 0.1 --fair 60 --won 40 --games 100
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from random import Random
from typing import Any

from board_strength import RULES4, _solution, fair_starts  # type: ignore[import-not-found]
from cambio.board import Board, Rules
from cambio.board.setup import quick_setup
from cambio.board.solve import Solution, solve
from cambio.bots.board import AlphaBetaBot, make_bot, play_game
from cambio.bots.board.native import CompiledAlphaBetaBot
from cambio.bots.board.perfect import PerfectBot
from cambio.seeds import derive_seed
from cambio.shares import interval_of_sums, share_interval, tie_share
from cambio.sim.report import progress_bar, results_table, stderr_console

DOCS = Path(__file__).resolve().parent.parent / "docs"


# ---------------------------------------------------------------------- 1. speed
def speed(starts: int, python_nodes: int, native_nodes: int) -> dict[str, Any]:
    """Nodes per CPU second: on 5x5 the Python search against native (and its threat
    search); on 4x4 native with the linear and the n-tuple evaluation (the node budgets
    that stand for a time per move on a quiet core)."""
    rules = Rules()
    rules4 = Rules(size=4)
    CompiledAlphaBetaBot(nodes=1000).choose(quick_setup(rules, 10**6))  # load the compiled kernels
    CompiledAlphaBetaBot(nodes=1000, threats=12).choose(quick_setup(rules, 10**6))
    CompiledAlphaBetaBot(nodes=1000).choose(quick_setup(rules4, 10**6))
    out: dict[str, Any] = {}
    for label, r, make in (
            ("alphabeta (Python)", rules, lambda: AlphaBetaBot(nodes=python_nodes)),
            ("native", rules, lambda: CompiledAlphaBetaBot(nodes=native_nodes)),
            ("native with threat search (12 plies)", rules,
             lambda: CompiledAlphaBetaBot(nodes=native_nodes, threats=12)),
            ("native, 4x4, linear evaluation", rules4,
             lambda: CompiledAlphaBetaBot(nodes=native_nodes, evaluation="linear")),
            ("native, 4x4, n-tuple evaluation", rules4,
             lambda: CompiledAlphaBetaBot(nodes=native_nodes, evaluation="tuples"))):
        nodes = depth = 0
        cpu = 0.0
        for i in range(starts):
            bot: Any = make()
            board = quick_setup(r, i)
            t = time.process_time()
            bot.choose(board)
            cpu += time.process_time() - t
            nodes += bot.nodes
            depth += bot.depth_reached
        out[label] = {"nodes": nodes, "cpu": cpu, "nodes_per_s": nodes / cpu,
                      "depth": depth / starts}
    return out


# ---------------------------------------------------------------------- 2. 4x4
def starts_by_value(sol: Solution) -> tuple[list[str], list[tuple[str, int]]]:
    """The fair 4x4 starts, and (start, seat) pairs where that seat wins with best play."""
    from board_strength import _pos, setup_starts  # type: ignore[import-not-found]

    fair, _ = fair_starts(sol)
    won = []
    for x, o in setup_starts():
        e = sol.entry(x, o)
        if e != 0:
            won.append((Board(RULES4, _pos(x, o)).position(), 0 if e > 0 else 1))
    return fair, won


def native_bot(spec: str, threats: int, seed: int, evaluation: str = "auto"
               ) -> CompiledAlphaBetaBot:
    """``native:<seconds>s`` or ``native:<nodes>`` with the threat search ``threats`` plies
    deep (0: off) and the given evaluation."""
    budget = spec.split(":")[1]
    if budget.endswith("s"):
        return CompiledAlphaBetaBot(nodes=10**15, seconds=float(budget[:-1]), seed=seed,
                                    threats=threats, evaluation=evaluation)
    return CompiledAlphaBetaBot(nodes=int(budget), seed=seed, threats=threats,
                                evaluation=evaluation)


def game_vs_perfect(args: tuple[str, str, int, str, int, int, str]
                    ) -> tuple[str, int, str, str]:
    spec, table, seat, pos, seed, threats, evaluation = args
    sol = _solution(table)
    rules = Rules(size=4, max_plies=100)
    bots: list[Any] = [PerfectBot(sol, seed), PerfectBot(sol, seed + 1)]
    bots[seat] = native_bot(spec, threats, seed, evaluation)
    board = play_game(Board(rules, pos), bots)
    assert board.outcome is not None
    w = board.outcome.winners
    result = "draw" if not w or len(w) > 1 else ("win" if w == (seat,) else "loss")
    return pos, seat, result, spec


# ---------------------------------------------------------------------- 4. drawn positions
def drawn_positions(sol: Solution, fair: list[str], starts: int, nodes: int, seed: int
                    ) -> list[dict[str, Any]]:
    """The drawn positions where ``native:nodes`` (linear evaluation, 2**18 table: the bot
    before the n-tuple evaluation) is to move, in its games against perfect from a seeded
    sample of the fair starts, both seats; each with its game's moves so far."""
    rng = Random(seed)
    rules = Rules(size=4, max_plies=100)
    out: list[dict[str, Any]] = []
    sample = rng.sample(fair, starts)
    with progress_bar(2 * starts, "drawn positions: collecting") as advance:
        for i, pos in enumerate(sample):
            for seat in (0, 1):
                board = Board(rules, pos)
                bots: list[Any] = [PerfectBot(sol, seed * 1000 + i),
                                   PerfectBot(sol, seed * 1000 + i + 7)]
                bots[seat] = CompiledAlphaBetaBot(nodes=nodes, seed=i, evaluation="linear",
                                                  tt_bits=18)
                while board.outcome is None:
                    if board.turn == seat and sol.value(board) == 0:
                        out.append({"start": pos, "moves": list(board.move_stack)})
                    board.push(bots[board.turn].choose(board.copy()))
                advance(1)
    return out


def drawn_errors(sol: Solution, positions: list[dict[str, Any]], evaluation: str,
                 nodes: int, tt_bits: int) -> int:
    """How many of the positions a fresh ``native:nodes`` answers with a losing move."""
    rules = Rules(size=4, max_plies=100)
    errors = 0
    with progress_bar(len(positions), f"{evaluation} {nodes:,} nodes") as advance:
        for i, d in enumerate(positions):
            board = Board(rules, d["start"])
            for m in d["moves"]:
                board.push(m)
            bot = CompiledAlphaBetaBot(nodes=nodes, seed=i, evaluation=evaluation, tt_bits=tt_bits)
            errors += sol.move_values(board)[bot.choose(board.copy())] != 0
            advance(1)
    return errors


# ---------------------------------------------------------------------- 3. 5x5
def game_5x5(args: tuple[str, str, int, int]) -> float:
    """Points of the first spec in game ``j`` (seats swap every game)."""
    a, b, j, seed = args
    rules = Rules()
    seats = (a, b) if j % 2 == 0 else (b, a)
    bots = [make_bot(s, rules, seed=derive_seed(seed, j, i, 7)) for i, s in enumerate(seats)]
    board = play_game(quick_setup(rules, derive_seed(seed, j // 2)), bots)
    assert board.outcome is not None
    w = board.outcome.winners
    me = 0 if j % 2 == 0 else 1
    return tie_share(me, w, 2)


def time_per_move(spec: str, games: int, seed: int) -> float:
    """Mean wall seconds per move of ``spec`` in self-play on 5x5."""
    rules = Rules()
    spent = 0.0
    moves = 0
    for j in range(games):
        board = quick_setup(rules, derive_seed(seed, 10**6 + j))
        bots = [make_bot(spec, rules, seed=j), make_bot(spec, rules, seed=j + 1)]
        while board.outcome is None:
            t = time.perf_counter()
            move = bots[board.turn].choose(board.copy())
            spent += time.perf_counter() - t
            moves += 1
            board.push(move)
    return spent / moves


def elo_diff(points: list[float]) -> tuple[float, float, float]:
    """Elo difference from the mean of per-game shares, with the 95% interval of the share
    (cambio.shares) carried over to Elo; shares of 0 or 1 are moved half a game inwards."""
    games = len(points)

    def to_elo(p: float) -> float:
        p = min(max(p, 0.5 / games), 1 - 0.5 / games)
        return -400 * math.log10(1 / p - 1)

    score, low, high = share_interval(points)
    return to_elo(score), to_elo(low), to_elo(high)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=0.1, help="native's time per move on 4x4")
    ap.add_argument("--nodes", type=int, default=0,
                    help="native's node budget per move on 4x4 instead of --seconds "
                         "(load-independent; see the speed study for nodes per second)")
    ap.add_argument("--drawn-starts", type=int, default=0,
                    help="fair starts whose games give the drawn-positions study (0: the "
                         "study is not run)")
    ap.add_argument("--drawn-variants", default="linear:100000:18,tuples:100000:18,"
                    "linear:1000000:18,tuples:300000:18,tuples:300000:21",
                    help="evaluation:nodes:tt_bits of each native in the drawn study")
    ap.add_argument("--table", type=Path,
                    help="the saved 4x4 solution for the perfect bot (else solved here)")
    ap.add_argument("--evaluation", default="auto",
                    help="native's evaluation in the 4x4 study: auto (the n-tuple one on "
                         "4x4), linear or tuples")
    ap.add_argument("--fair", type=int, default=60, help="fair starts sampled (both seats)")
    ap.add_argument("--won", type=int, default=40, help="won (start, seat) pairs sampled")
    ap.add_argument("--games", type=int, default=100, help="5x5 games at equal time")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip", default="", help="comma-separated: speed,perfect,elo")
    ap.add_argument("--threats", type=int, default=0,
                    help="native's threat search depth in the 4x4 study (0: off, the default)")
    ap.add_argument("--out", type=Path, default=DOCS / "board-native.json")
    args = ap.parse_args()
    skip = set(args.skip.split(","))
    console = stderr_console()
    report: dict[str, Any] = json.loads(args.out.read_text()) if args.out.exists() else {}
    report["command"] = (f"python benchmarks/board_native.py --seconds {args.seconds} "
                         f"--fair {args.fair} --won {args.won} --games {args.games} "
                         f"--seed {args.seed} --workers {args.workers} "
                         f"--threats {args.threats} --nodes {args.nodes} "
                         f"--evaluation {args.evaluation}")
    report["load_average_at_start"] = os.getloadavg()
    if "speed" not in skip:
        report["speed"] = speed(10, 20_000, 2_000_000)
        base = report["speed"]["alphabeta (Python)"]["nodes_per_s"]
        console.print(results_table(
            "5x5, one search from each of 10 starts", ["search", "nodes/s", "x Python",
                                                       "depth"],
            [(k, f"{v['nodes_per_s']:,.0f}", f"{v['nodes_per_s'] / base:.1f}",
              f"{v['depth']:.1f}") for k, v in report["speed"].items()]))
    if "perfect" not in skip:
        import tempfile

        sol = Solution.load(args.table) if args.table else solve(RULES4)
        fair, won = starts_by_value(sol)
        rng = Random(args.seed)
        fair_sample = rng.sample(fair, min(args.fair, len(fair)))
        won_sample = rng.sample(won, min(args.won, len(won)))
        spec = f"native:{args.nodes}" if args.nodes else f"native:{args.seconds}s"
        with tempfile.TemporaryDirectory() as tmp:
            table = str(Path(tmp) / "4x4.npz")
            sol.save(table)
            jobs = [(spec, table, seat, pos, derive_seed(args.seed, i, seat), args.threats,
                     args.evaluation)
                    for i, pos in enumerate(fair_sample) for seat in (0, 1)]
            jobs += [(spec, table, seat, pos, derive_seed(args.seed, 10**5 + i), args.threats,
                      args.evaluation)
                     for i, (pos, seat) in enumerate(won_sample)]
            results = []
            with progress_bar(len(jobs), f"4x4: {spec} vs perfect") as advance, \
                    ProcessPoolExecutor(args.workers) as pool:
                for res in pool.map(game_vs_perfect, jobs, chunksize=2):
                    results.append(res)
                    advance(1)
        nf = 2 * len(fair_sample)
        fair_res = results[:nf]
        won_res = results[nf:]
        kept = sum(1 for x in fair_res if x[2] == "draw")
        _, low, high = interval_of_sums(nf, kept, kept) if nf else (0.0, 0.0, 1.0)
        report["perfect"] = {
            "bot": spec, "threats": args.threats, "evaluation": args.evaluation,
            "draws_kept": kept, "draws_kept_share": kept / max(nf, 1),
            "draws_kept_low": low, "draws_kept_high": high, "fair_starts_total": len(fair),
            "won_pairs_total": len(won),
            "fair_games": nf,
            "fair": {r: sum(1 for x in fair_res if x[2] == r) for r in ("win", "draw", "loss")},
            "won_games": len(won_res),
            "won": {r: sum(1 for x in won_res if x[2] == r) for r in ("win", "draw", "loss")},
        }
        report["load_average_at_end"] = os.getloadavg()
        console.print(report["perfect"])
    if args.drawn_starts:
        sol = Solution.load(args.table) if args.table else solve(RULES4)
        fair, _ = fair_starts(sol)
        drawn = drawn_positions(sol, fair, args.drawn_starts, 100_000, 5)
        rows = []
        for variant in args.drawn_variants.split(","):
            evaluation, nodes, bits = variant.split(":")
            errors = drawn_errors(sol, drawn, evaluation, int(nodes), int(bits))
            rows.append({"evaluation": evaluation, "nodes": int(nodes), "tt_bits": int(bits),
                         "positions": len(drawn), "losing_moves": errors})
        report["drawn"] = rows
        console.print(results_table(
            f"{len(drawn)} drawn 4x4 positions met against perfect",
            ["evaluation", "nodes", "table bits", "losing moves"],
            [(r["evaluation"], f"{r['nodes']:,}", str(r["tt_bits"]),
              f"{r['losing_moves']} ({r['losing_moves'] / len(drawn):.1%})") for r in rows]))
    if "elo" not in skip:
        per_move = time_per_move("alphabeta:4000", 4, args.seed)
        spec = f"native:{per_move:.4f}s"
        jobs5 = [(spec, "alphabeta:4000", j, args.seed) for j in range(args.games)]
        points = []
        with progress_bar(len(jobs5), f"5x5: {spec} vs alphabeta:4000") as advance, \
                ProcessPoolExecutor(args.workers) as pool:
            for p in pool.map(game_5x5, jobs5, chunksize=2):
                points.append(p)
                advance(1)
        score = sum(points) / len(points)
        elo, low, high = elo_diff(points)
        report["elo"] = {"alphabeta_4000_seconds_per_move": per_move, "bot": spec,
                         "games": len(points), "score": score,
                         "wins": points.count(1.0), "draws": points.count(0.5),
                         "losses": points.count(0.0),
                         "elo": elo, "elo_low": low, "elo_high": high}
        console.print(report["elo"])
    args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
