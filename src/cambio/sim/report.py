"""Progress bars and result tables shared by every simulation and tournament command."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table


def stderr_console() -> Console:
    """Progress goes to stderr so ``--json`` output on stdout stays one clean object."""
    return Console(file=sys.stderr)


@contextmanager
def progress_bar(total: int, description: str, enabled: bool = True) -> Iterator[Any]:
    """Yield an ``advance(k=1)`` callable that moves a rich progress bar (or does nothing)."""
    if not enabled:
        yield lambda k=1: None
        return
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=stderr_console(),
        transient=False,
    ) as progress:
        task = progress.add_task(description, total=total)

        def advance(k: int = 1) -> None:
            progress.advance(task, k)

        yield advance


def simulate_and_report(
    *,
    games: int,
    label: str,
    progress: bool,
    as_json: bool,
    simulate: Callable[[Callable[[int], None]], dict[str, Any]],
    show: Callable[[dict[str, Any], Console], None],
) -> dict[str, Any]:
    """Run a simulation under a progress bar, then print its summary as JSON or as tables.

    Every ``cambio sim`` command has this shape, so ``--json`` output is the same kind of
    object (one line on stdout) whatever the game.
    """
    with progress_bar(games, label, enabled=progress) as advance:
        summary = simulate(advance)
    if as_json:
        print(json.dumps(summary))
    else:
        show(summary, Console())
    return summary


def results_table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> Table:
    table = Table(title=title)
    for i, col in enumerate(columns):
        table.add_column(col, justify="left" if i == 0 else "right")
    for row in rows:
        table.add_row(*[_fmt(v) for v in row])
    return table


def rate_text(per_second: float | None) -> str:
    """A games-per-second figure for a summary line: whole numbers from 100 up, else three
    significant digits (a search bot's 0.26 games/s is not "0"); ``-`` when not timed."""
    if per_second is None:
        return "-"
    return f"{per_second:,.0f}" if per_second >= 100 else f"{per_second:.3g}"


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:,.3f}" if abs(v) < 100 else f"{v:,.0f}"
    return str(v)
