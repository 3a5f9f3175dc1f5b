"""Running and showing a tournament, for both games' ``tournament`` commands."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from cambio.sim import tournament as tour
from cambio.sim.parallel import Where
from cambio.sim.report import simulate_and_report


def run_tournament(config: tour.TournamentConfig, label: str, place: Where, *, as_json: bool,
                   progress: bool, plot_file: Path | None) -> None:
    """Play ``config`` on ``place`` with a progress bar, print tables or JSON, and save the
    plot if asked."""
    if plot_file is not None:
        tour.plotting()

    def play(advance: Callable[[int], None]) -> dict[str, Any]:
        start = time.perf_counter()
        results = tour.run(config, advance, place)
        return tour.summarize(config, results, time.perf_counter() - start)

    summary = simulate_and_report(games=config.games, label=label, progress=progress,
                                  as_json=as_json, simulate=play, show=print_tournament)
    if plot_file is not None:
        tour.plot(summary, str(plot_file))


def print_tournament(summary: dict[str, Any], console: Console) -> None:
    from cambio.sim.report import results_table
    from cambio.sim.tournament import pair_rows, rating_rows

    s = summary
    title = (f"tournament · {s['rules']['preset']} · {s['players']} players · "
             f"{s['games']} games · seed {s['seed']}")
    console.print(results_table(title, ["bot", "OpenSkill mu", "95% interval", "win share",
                                        "ms / decision"], rating_rows(s)))
    console.print(results_table("pairs (row bot's win share in games with the other)",
                                ["pair", "games", "win share", "95% interval"], pair_rows(s)))
    console.print(f"[dim]{s['win_share_note']}. {s['schedule']}.[/dim]")
