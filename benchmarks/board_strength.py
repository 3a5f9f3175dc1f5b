"""Proof of strength of the board-game bots (figures for docs/board-strength.md).

Three studies, each seeded:

1. **Agreement on 4x4**: sample positions reachable in play (random plies from seeded
   setups, deduplicated up to symmetry); for each, ask a bot for its move and check with
   the exact solution whether the move keeps the position's value (a won position stays
   won, a drawn one drawn; in a lost position every move keeps the value, so those are
   reported apart).
2. **Fair 4x4 starts against perfect play**: every setup-legal 4x4 start (3 and 4 dice,
   none on a corner, at most 2 in a line; up to symmetry) whose exact value is a draw;
   alphabeta plays each side of each against the perfect bot.
3. **5x5 round robin**: random, greedy, mcts, alphabeta at several node budgets; every
   pair plays the same seeded starts with both seatings; Elo with 95 % intervals.

    .venv/bin/python benchmarks/board_strength.py --positions 10000 --games-per-pair 40

writes ``docs/board-strength.json`` and ``docs/board-strength.png``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from random import Random
from typing import Any

from cambio.board import Board, Rules, geometry
from cambio.board.bitboard import canonical
from cambio.board.setup import over_full, quick_setup
from cambio.board.solve import Solution, solve
from cambio.bots.board import make_bot, play_game
from cambio.bots.board.perfect import PerfectBot
from cambio.seeds import derive_seed
from cambio.sim.board import round_robin
from cambio.sim.ratings import elo
from cambio.sim.report import progress_bar, results_table, stderr_console

RULES4 = Rules(size=4)
DOCS = Path(__file__).resolve().parent.parent / "docs"
_SOLUTION: Solution | None = None


def _solution(path: str) -> Solution:
    global _SOLUTION
    if _SOLUTION is None:
        _SOLUTION = Solution.load(path)
    return _SOLUTION


# ---------------------------------------------------------------------- 1. agreement
def sample_positions(count: int, seed: int) -> list[str]:
    """Positions reached by 0-40 random plies from seeded 4x4 setups, distinct up to
    symmetry, not over."""
    rng = Random(seed)
    g = geometry(RULES4)
    seen: set[tuple[int, int]] = set()
    out: list[str] = []
    k = 0
    while len(out) < count:
        board = quick_setup(RULES4, derive_seed(seed, k))
        k += 1
        for _ in range(rng.randrange(41)):
            if board.outcome is not None:
                break
            board.push(rng.choice(board.legal_moves()))
        if board.outcome is not None:
            continue
        key = (canonical(board.owners, g)[0], board.turn)
        if key in seen:
            continue
        seen.add(key)
        out.append(Board(RULES4, board.position()).position())
    return out


def agreement_chunk(args: tuple[str, str, list[str], int]) -> dict[str, int]:
    spec, table, positions, seed = args
    sol = _solution(table)
    bot = make_bot(spec, RULES4, seed)
    tally: Counter[str] = Counter()
    for pos in positions:
        board = Board(RULES4, pos)
        value = sol.value(board)
        move = bot.choose(board.copy())
        kept = sol.move_values(board)[move]
        keeps = ((kept > 0) - (kept < 0)) == value
        name = {1: "won", 0: "drawn", -1: "lost"}[value]
        tally[f"{name}_positions"] += 1
        tally[f"{name}_kept"] += keeps
    return dict(tally)


def agreement(specs: list[tuple[str, int]], table: str, positions: list[str], workers: int,
              seed: int) -> dict[str, dict[str, Any]]:
    jobs = []
    for spec, limit in specs:
        pos = positions[:limit]
        half = (len(pos) + 1) // 2
        for part in (pos[:half], pos[half:]):
            jobs.append((spec, table, part, seed))
    out: dict[str, Counter[str]] = {spec: Counter() for spec, _ in specs}
    with progress_bar(len(jobs), "agreement (4x4 vs the solution)") as advance, \
            ProcessPoolExecutor(workers) as pool:
        for (spec, _, _, _), res in zip(jobs, pool.map(agreement_chunk, jobs), strict=True):
            out[spec].update(res)
            advance(1)
    report: dict[str, dict[str, Any]] = {}
    for spec, t in out.items():
        n_won, n_drawn = t["won_positions"], t["drawn_positions"]
        report[spec] = {
            "positions": n_won + n_drawn + t["lost_positions"],
            "won": n_won, "drawn": n_drawn, "lost": t["lost_positions"],
            "won_kept": t["won_kept"] / n_won if n_won else None,
            "drawn_kept": t["drawn_kept"] / n_drawn if n_drawn else None,
            "not_lost_kept": (t["won_kept"] + t["drawn_kept"]) / (n_won + n_drawn),
        }
    return report


# ---------------------------------------------------------------------- 2. fair starts
def setup_starts() -> list[tuple[int, int]]:
    """Every setup-legal 4x4 start (3 and 4 dice, none on a corner, at most 2 in a line),
    up to symmetry, as ``(x, o)`` cells of the first and second player."""
    g = geometry(RULES4)
    cells = [c for c in range(g.cells) if not g.corners >> c & 1]
    starts: dict[int, tuple[int, int]] = {}
    for xs in itertools.combinations(cells, 3):
        x = sum(1 << c for c in xs)
        if over_full(x, g, 2):
            continue
        for os_ in itertools.combinations([c for c in cells if c not in xs], 4):
            o = sum(1 << c for c in os_)
            if not over_full(o, g, 2):
                starts.setdefault(canonical((x, o), g)[0], (x, o))
    return sorted(starts.values())


def fair_starts(sol: Solution) -> tuple[list[str], Counter[int]]:
    values: Counter[int] = Counter()
    fair = []
    for x, o in setup_starts():
        e = sol.entry(x, o)
        v = (e > 0) - (e < 0)
        values[v] += 1
        if v == 0:
            fair.append(Board(RULES4, _pos(x, o)).position())
    return fair, values


def _pos(x: int, o: int) -> str:
    from cambio.board.state import position_string

    return position_string((x, o), 0, 4, 0)


def fair_chunk(args: tuple[str, str, list[str], int, int]) -> list[tuple[str, int, str, int]]:
    spec, table, starts, max_plies, seed = args
    sol = _solution(table)
    rules = Rules(size=4, max_plies=max_plies)
    out = []
    for i, pos in enumerate(starts):
        for seat in (0, 1):
            bots = [PerfectBot(sol, derive_seed(seed, i, seat)), PerfectBot(sol, seed)]
            bots[seat] = make_bot(spec, rules, derive_seed(seed, i, seat, 1))  # type: ignore[call-overload]
            board = play_game(Board(rules, pos), bots)
            assert board.outcome is not None
            w = board.outcome.winners
            result = "draw" if not w or len(w) > 1 else ("win" if w == (seat,) else "loss")
            out.append((pos, seat, result, board.ply))
    return out


# ---------------------------------------------------------------------- 3. round robin
def rr_pair(args: tuple[str, str, int, int]) -> list[tuple[tuple[str, ...], tuple[float, ...],
                                                           int]]:
    a, b, games, seed = args
    return [(g.bots, g.points, g.plies) for g in round_robin(Rules(), [a, b], games, seed)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=10_000)
    ap.add_argument("--mcts-positions", type=int, default=2_000)
    ap.add_argument("--games-per-pair", type=int, default=40)
    ap.add_argument("--fair-bot", default="alphabeta:1000")
    ap.add_argument("--fair-max-plies", type=int, default=100)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=DOCS / "board-strength.json")
    ap.add_argument("--skip", default="", help="comma-separated: agreement,fair,roundrobin")
    args = ap.parse_args()
    skip = set(args.skip.split(","))
    console = stderr_console()
    report: dict[str, Any] = json.loads(args.out.read_text()) if args.out.exists() else {}
    report["command"] = ("python benchmarks/board_strength.py "
                         f"--positions {args.positions} --games-per-pair {args.games_per_pair}"
                         f" --fair-bot {args.fair_bot} --seed {args.seed}")
    started = time.perf_counter()
    sol = solve(RULES4)
    with tempfile.TemporaryDirectory() as tmp:
        table = str(Path(tmp) / "4x4.npz")
        sol.save(table)
        if "agreement" not in skip:
            positions = sample_positions(args.positions, args.seed)
            specs = [("random", args.positions), ("greedy", args.positions),
                     ("mcts:300", args.mcts_positions), ("alphabeta:250", args.positions),
                     ("alphabeta:1000", args.positions), ("alphabeta:4000", args.positions)]
            report["agreement"] = agreement(specs, table, positions, args.workers, args.seed)
            console.print(results_table(
                "4x4: share of moves that keep the solved value",
                ["bot", "positions", "won kept", "drawn kept", "not lost kept"],
                [(s, r["positions"], f"{r['won_kept']:.2%}", f"{r['drawn_kept']:.2%}",
                  f"{r['not_lost_kept']:.2%}") for s, r in report["agreement"].items()]))
        if "fair" not in skip:
            fair, values = fair_starts(sol)
            chunks = [fair[i::args.workers * 4] for i in range(args.workers * 4)]
            jobs = [(args.fair_bot, table, c, args.fair_max_plies, args.seed) for c in chunks]
            games: list[tuple[str, int, str, int]] = []
            with progress_bar(len(jobs), f"fair 4x4 starts: {args.fair_bot} vs perfect") \
                    as advance, ProcessPoolExecutor(args.workers) as pool:
                for res in pool.map(fair_chunk, jobs):
                    games += res
                    advance(1)
            tally = Counter((seat, r) for _, seat, r, _ in games)
            report["fair"] = {
                "bot": args.fair_bot, "max_plies": args.fair_max_plies,
                "starts": sum(values.values()), "fair": len(fair),
                "first_player_wins": values[1], "first_player_loses": values[-1],
                "results": {f"seat {s}": {r: tally[(s, r)] for r in ("win", "draw", "loss")}
                            for s in (0, 1)},
            }
            console.print(report["fair"]["results"])
        if "roundrobin" not in skip:
            specs = ["random", "greedy", "mcts:300", "alphabeta:250", "alphabeta:1000",
                     "alphabeta:4000"]
            pairs = [(a, b, args.games_per_pair, args.seed)
                     for a, b in itertools.combinations(specs, 2)]
            rows = []
            with progress_bar(len(pairs), "5x5 round robin") as advance, \
                    ProcessPoolExecutor(args.workers) as pool:
                for res in pool.map(rr_pair, pairs):
                    rows += res
                    advance(1)
            results = [(bots[0], bots[1], pts[0]) for bots, pts, _ in rows]
            ratings = elo(results, anchor="random")
            table_rows: dict[str, dict[str, float]] = {}
            for a, b, s in results:
                table_rows.setdefault(a, {}).setdefault(b, 0.0)
                table_rows.setdefault(b, {}).setdefault(a, 0.0)
                table_rows[a][b] += s
                table_rows[b][a] += 1 - s
            report["roundrobin"] = {
                "games_per_pair": args.games_per_pair, "bots": specs,
                "points": table_rows,
                "mean_plies": sum(p for _, _, p in rows) / len(rows),
                "elo": [{"bot": r.name, "elo": r.elo, "low": r.low, "high": r.high,
                         "games": r.games, "score": r.score} for r in ratings],
            }
            console.print(results_table("5x5 round robin: Elo (random = 0), 95 % interval",
                                        ["bot", "Elo", "low", "high", "score"],
                                        [(r.name, r.elo, r.low, r.high, r.score)
                                         for r in ratings]))
    report["seconds"] = round(time.perf_counter() - started, 1)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    plot(report, args.out.with_suffix(".png"))


def plot(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.6))
    if "agreement" in report:
        ax = axes[0]
        names = list(report["agreement"])
        won = [report["agreement"][n]["won_kept"] * 100 for n in names]
        drawn = [report["agreement"][n]["drawn_kept"] * 100 for n in names]
        xs = range(len(names))
        ax.bar([x - 0.2 for x in xs], won, 0.4, label="won positions")
        ax.bar([x + 0.2 for x in xs], drawn, 0.4, label="drawn positions")
        ax.set_xticks(list(xs), names, rotation=30, ha="right")
        ax.set_ylabel("% of moves keeping the solved value")
        ax.set_ylim(0, 118)
        ax.set_yticks(range(0, 101, 20))
        ax.set_title("4x4: moves vs the exact solution")
        ax.legend(loc="upper left", ncol=2, fontsize="small")
    if "fair" in report:
        ax = axes[1]
        res = report["fair"]["results"]
        seats = list(res)
        bottom = [0] * len(seats)
        for outcome, colour in (("win", "tab:green"), ("draw", "tab:gray"),
                                ("loss", "tab:red")):
            vals = [res[s][outcome] for s in seats]
            ax.bar(seats, vals, bottom=bottom, color=colour, label=outcome)
            bottom = [b + v for b, v in zip(bottom, vals, strict=True)]
        ax.set_title(f"{report['fair']['bot']} vs perfect, {report['fair']['fair']} fair "
                     "4x4 starts")
        ax.set_ylabel("games")
        ax.set_ylim(0, 1.2 * sum(res[seats[0]].values()))
        ax.legend(loc="upper center", ncol=3, fontsize="small")
    if "roundrobin" in report:
        ax = axes[2]
        rs = report["roundrobin"]["elo"]
        ys = range(len(rs))
        ax.errorbar([r["elo"] for r in rs], list(ys),
                    xerr=[[r["elo"] - r["low"] for r in rs], [r["high"] - r["elo"] for r in rs]],
                    fmt="o", capsize=4)
        ax.set_yticks(list(ys), [r["bot"] for r in rs])
        ax.set_xlabel("Elo (random = 0), 95 % interval")
        ax.set_title(f"5x5 round robin, {report['roundrobin']['games_per_pair']} games a pair")
        ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
