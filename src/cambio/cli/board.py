"""Board-game commands (``cambio sim board``, ``cambio play board``, ``cambio solve board``)."""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, cast

import typer
from rich.console import Console

from cambio.board import BoardError, Rules
from cambio.board.rules import OtherLine

from .options import F, PlotOpt, Run, group, run_options

PlayersOpt = Annotated[int, typer.Option("--players", "-p", help="Number of seats (2 or 3).")]
SizeOpt = Annotated[int, typer.Option("--size", help="Board size n (n x n).")]
LineOpt = Annotated[int, typer.Option(
    "--line", help="Line length to win (0: 5 with 2 players, 4 with 3 on 5x5).")]
OtherLineOpt = Annotated[str, typer.Option(
    "--other-line", help="A move completing only another's line: 'owner' wins (default) "
    "or 'mover_loses' (Quixo).")]
MaxPliesOpt = Annotated[int, typer.Option("--max-plies", help="Move cap: a draw after this "
                                                                "many plies.")]
FullSetupOpt = Annotated[bool, typer.Option(
    "--full-setup", help="Play the published setup (rolls and the opponents' choices) "
    "instead of the quick seeded setup.")]


def make_rules(players: int, size: int, line: int, other_line: str, max_plies: int) -> Rules:
    if other_line not in ("owner", "mover_loses"):
        raise typer.BadParameter("choose 'owner' or 'mover_loses'", param_hint="--other-line")
    try:
        return Rules(players=players, size=size, line=line,
                     other_line=cast(OtherLine, other_line), max_plies=max_plies)
    except BoardError as exc:
        raise typer.BadParameter(str(exc)) from None


BOT_SPECS = ("random, greedy, alphabeta[:NODES|:SECONDSs], native[:NODES|:SECONDSs], "
             "mcts[:ITERATIONS], perfect (4x4 and smaller)")
"""The board bots' specs, for the commands' help."""

BOARD_RULES: dict[str, tuple[Any, Any]] = {
    "players": (PlayersOpt, 2), "size": (SizeOpt, 5), "line": (LineOpt, 0),
    "other_line": (OtherLineOpt, "owner"), "max_plies": (MaxPliesOpt, 200)}
"""The options every board command but ``solve`` reads its rules from."""


def board_rules(command: F) -> F:
    """The command gains the board's rule options and receives the ``Rules`` they name."""
    return group("rules", BOARD_RULES, make_rules)(command)


def board_run(games: int) -> Callable[[F], F]:
    """A run of many board games (sim, tournament): the board's rules and the run's options
    (``--games`` defaulting to ``games``)."""
    return lambda command: board_rules(run_options(games)(command))


def seat_specs(spec: str, players: int, allow_human: bool = False) -> tuple[str, ...]:
    """``a,b,c`` names one bot per seat; one name fills every seat. Checks each name."""
    from cambio.bots.board import make_bot

    names = tuple(n.strip().lower() for n in spec.split(",") if n.strip())
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise typer.BadParameter(f"{len(names)} seats named for {players} players "
                                 "(name one, or one per seat)", param_hint="--bots")
    for name in names:
        if (allow_human and name == "human") or name == "perfect":
            continue  # perfect is checked against the real rules when it is built
        try:
            make_bot(name, Rules(players=players))
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--bots") from None
    return names


@board_run(games=100)
def sim_board(
    rules: Rules,
    run: Run,
    bots: Annotated[str, typer.Option("--bots", "-b", help="Bot per seat, comma-separated "
                                      f"(one name: every seat): {BOT_SPECS}.")] = "random",
    full_setup: FullSetupOpt = False,
    record: Annotated[Path | None, typer.Option(
        "--record", help="Write one record per game into this folder.")] = None,
) -> None:
    """Simulate board games between bots: progress bar, results table, or --json."""
    from cambio.sim.board import SimConfig, simulate
    from cambio.sim.report import simulate_and_report

    specs = seat_specs(bots, rules.players)
    try:
        config = SimConfig(rules, specs, run.games, run.seed, full_setup, record)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--bots") from None
    simulate_and_report(games=run.games,
                        label=f"board · {rules.size}x{rules.size} · {rules.players} players",
                        progress=run.progress, as_json=run.as_json,
                        simulate=lambda advance: simulate(config, advance, run.where),
                        show=print_summary)


def print_summary(summary: dict[str, Any], console: Console) -> None:
    from cambio.sim.board import seat_rows
    from cambio.sim.report import rate_text, results_table

    s = summary
    r = s["rules"]
    title = (f"board · {r['size']}x{r['size']}, line {r['line']} · {s['players']} players · "
             f"{s['games']} games · seed {s['seed']}")
    console.print(results_table(title, ["seat", "bot", "wins", "tied", "win share (95%)"],
                                seat_rows(s)))
    reasons = ", ".join(f"{k} {v}" for k, v in s["end_reasons"].items())
    console.print(f"draws {s['draws']} · mean plies {s['mean_plies']:.1f} · "
                  f"{rate_text(s['games_per_second'])} games/s · ended by: {reasons}")
    console.print("[dim]win share (score in --json): a win 1, a tie of k seats 1/k each, "
                  "a draw 1/players, per game[/dim]")


@board_rules
def play_board(
    rules: Rules,
    bots: Annotated[str, typer.Option(
        "--bots", "-b", help="Who plays each seat, comma-separated: 'human' or a bot "
        "(random, greedy, alphabeta[:NODES|:SECONDSs], native[:NODES|:SECONDSs], "
        "mcts[:ITERATIONS]). Several humans "
        "play hot-seat. Default: you at seat 0, alphabeta elsewhere.")] = "",
    seat: Annotated[int, typer.Option("--seat", help="Your seat when --bots is not given "
                                                     "(0 moves first).")] = 0,
    hot_seat: Annotated[bool, typer.Option("--hot-seat", help="Every seat is human.")] = False,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed of the setup and "
                                                                  "the bots.")] = None,
    full_setup: FullSetupOpt = False,
    record: Annotated[Path | None, typer.Option(
        "--record", help="Write the game's record here at the end.")] = None,
) -> None:
    """Play the dice board game in the terminal against bots, or hot-seat."""
    from cambio.terminal.board import HUMAN, TerminalOptions, run_terminal

    players = rules.players
    if hot_seat:
        seats: tuple[str, ...] = (HUMAN,) * players
    elif bots:
        seats = seat_specs(bots, players, allow_human=True)
    else:
        if not 0 <= seat < players:
            raise typer.BadParameter(f"seat must be 0 to {players - 1}", param_hint="--seat")
        seats = tuple(HUMAN if i == seat else "alphabeta" for i in range(players))
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    options = TerminalOptions(rules=rules, seats=seats, seed=seed, full_setup=full_setup,
                              record=record)
    run_terminal(options)


def solve_board(
    size: SizeOpt = 4,
    line: LineOpt = 0,
    other_line: OtherLineOpt = "owner",
    position: Annotated[str | None, typer.Option(
        "--position", help="Also print the value and best moves of this position "
        "(e.g. '4/1x2/o2o/2x1 x').")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Where to save the table (.npz). Default: "
        "$XDG_CACHE_HOME/cambio (or ~/.cache/cambio)/board-NxN-kK-RULE.npz.")] = None,
    no_save: Annotated[bool, typer.Option("--no-save", help="Do not save the table.")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object instead of a table.")] = False,
    no_progress: Annotated[bool, typer.Option(
        "--no-progress", help="No progress bar on stderr.")] = False,
) -> None:
    """Solve every 2-player position of an n x n board (n <= 4) by retrograde analysis."""
    from cambio.board import Board
    from cambio.board.solve import solve
    from cambio.sim.report import progress_bar, results_table

    rules = make_rules(2, size, line, other_line, 200)
    board = None
    if position is not None:
        try:
            board = Board(rules, position)
        except BoardError as exc:
            raise typer.BadParameter(str(exc), param_hint="--position") from None
    start = time.perf_counter()
    try:
        with progress_bar(2 * 3 ** (size * size), f"solve {size}x{size}",
                          enabled=not no_progress) as advance:
            solution = solve(rules, advance)
    except BoardError as exc:
        raise typer.BadParameter(str(exc), param_hint="--size") from None
    seconds = time.perf_counter() - start
    path = None
    if not no_save:
        path = out if out is not None else _default_table(rules)
        path.parent.mkdir(parents=True, exist_ok=True)
        solution.save(path)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    result: dict[str, Any] = {"game": "board", "rules": rules.to_json(), **solution.counts(),
                              "seconds": round(seconds, 3), "peak_rss_mib": round(peak, 1),
                              "table": str(path) if path is not None else None}
    if board is not None:
        result["position"] = _position_json(board, solution)
    if as_json:
        print(json.dumps(result))
        return
    console = Console()
    total = result["positions"]
    rows = [(k, f"{result[k]:,}", f"{result[k] / total:.2%}") for k in ("wins", "losses", "draws")]
    console.print(results_table(f"{size}x{size}, line {rules.line}, {other_line}: all "
                                f"3^{size * size} = {total:,} positions, side to move",
                                ["value", "positions", "share"], rows))
    console.print(f"solved in {seconds:.1f} s, peak memory {peak:,.0f} MiB"
                  + (f", table saved to {path}" if path else ""))
    if board is not None:
        p = result["position"]
        console.print(f"{p['position']}: {p['value']}"
                      + (f" in {p['plies']} {'ply' if p['plies'] == 1 else 'plies'}"
                         if p["plies"] is not None else "")
                      + f"; best moves: {', '.join(p['best_moves']) or '-'}")


def _position_json(board: Any, solution: Any) -> dict[str, Any]:
    value = solution.value(board)
    best = [] if board.outcome is not None else solution.best_moves(board)
    return {"position": board.position(), "value": {1: "win", 0: "draw", -1: "loss"}[value],
            "plies": solution.distance(board),
            "best_moves": [board.move_text(m) for m in best]}


def _default_table(rules: Rules) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return (Path(base) / "cambio"
            / f"board-{rules.size}x{rules.size}-k{rules.line}-{rules.other_line}.npz")


@board_run(games=200)
def tournament_board(
    rules: Rules,
    run: Run,
    bots: Annotated[str, typer.Option("--bots", "-b", help="Bots to play each other, "
                                      f"comma-separated (at least two): {BOT_SPECS}.")
                    ] = "random,greedy,mcts",
    plot_file: PlotOpt = None,
) -> None:
    """Round robin between board bots, seats rotated: pairwise win shares and ratings."""
    from cambio.sim import tournament as tour

    from .tournament import run_tournament

    names = tuple(dict.fromkeys(n.strip().lower() for n in bots.split(",") if n.strip()))
    try:
        config = tour.TournamentConfig(rules, rules.players, names, run.games, run.seed,
                                       game="board")
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--bots/--players") from None
    run_tournament(config, f"tournament · board · {rules.players} players", run.where,
                   as_json=run.as_json, progress=run.progress, plot_file=plot_file)


def register(*, sim: typer.Typer, play: typer.Typer, solve: typer.Typer,
             tournament: typer.Typer | None = None) -> None:
    """Add the board game's commands to the command groups."""
    if tournament is not None:
        tournament.command("board")(tournament_board)
    sim.command("board")(sim_board)
    play.command("board")(play_board)
    solve.command("board")(solve_board)


__all__ = ["register"]
