"""A replayed card record for ``cambio replay``: the transcript, the reveal and the scores.

It lives in the terminal, not in the records layer, so that records never render anything.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from cambio.records.cards import Result, record_of, seat_names


def show_record(result: Result, console: Console) -> None:
    """Print the round as a readable transcript, then the reveal and the scores."""
    header = result.header
    names = seat_names(header)
    rules = header.get("rules", {})
    title = f"Cambio (cards) — {rules.get('preset', 'rulebook')}"
    if rules.get("overrides"):
        title += " + " + ", ".join(f"{k}={v}" for k, v in rules["overrides"].items())
    console.print(f"[bold]{title}[/bold]")
    if result.view is not None:
        console.print(f"[yellow]player's-eye record of seat {result.view}: shown, not "
                      "validated (it holds no deck)[/yellow]")
    events = record_of(result, None)[1]
    for ev in events:
        if "deal" in ev:
            for seat, grid in enumerate(ev["deal"]):
                console.print(f"  deal  {names[seat]:>12}: {' '.join(c or '--' for c in grid)}")
        elif "end" in ev:
            _show_end(ev["end"], names, console)
        else:
            extras = ", ".join(f"{k}={v}" for k, v in ev.items() if k not in ("seat", "action"))
            who = names[ev["seat"]] if isinstance(ev.get("seat"), int) and \
                0 <= ev["seat"] < len(names) else str(ev.get("seat"))
            console.print(f"  {who:>18}: {ev.get('action')}" + (f"  [dim]{extras}[/dim]"
                                                                   if extras else ""))
    if result.view is None and not result.state.is_over():
        console.print("[yellow]the record stops before the round is over[/yellow]")


def _show_end(end: dict[str, Any], names: list[str], console: Console) -> None:
    table = Table(title=f"Reveal ({end.get('reason')})")
    table.add_column("seat")
    table.add_column("cards")
    table.add_column("score", justify="right")
    winners = end.get("winners") or []
    for seat, grid in enumerate(end.get("grids") or []):
        mark = " [green]wins[/green]" if seat in winners else ""
        scores = end.get("scores") or []
        table.add_row(names[seat] + mark, " ".join(c or "--" for c in grid),
                      str(scores[seat]) if seat < len(scores) else "")
    console.print(table)
