"""``cambio daily``: the day's deal in the terminal, the same on every machine that day."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cambio.daily import parse_day, terminal_seed, utc_day


def daily_command(
    game: Annotated[str, typer.Option(
        "--game", "-g", help="cards (heads-up, rulebook, against memory) or board (the dice "
        "game, quick setup, against alphabeta).")] = "cards",
    day: Annotated[str | None, typer.Option(
        "--day", help="Play this day's deal (YYYY-MM-DD; default today, UTC).")] = None,
    record: Annotated[Path | None, typer.Option(
        "--record", help="Write the game's record here (then: cambio review FILE --seat 0).")
                      ] = None,
) -> None:
    """Play the day's deal in the terminal: one deal a day (UTC), the same for everyone."""
    try:
        when = parse_day(day) if day is not None else utc_day()
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--day") from None
    if game not in ("cards", "board"):
        raise typer.BadParameter("cards or board", param_hint="--game")
    seed = terminal_seed(game, when)
    console = Console(highlight=False)
    console.print(f"Daily deal of {when} ({game})", style="bold")
    if game == "cards":
        from cambio.cards import Rules
        from cambio.terminal.cards import TerminalOptions, run_terminal

        options = TerminalOptions(rules=Rules.preset("rulebook"), players=2, seat=0,
                                  bots=("memory",), seed=seed, record=record)
        raise typer.Exit(run_terminal(options, sys.stdin, console))
    from cambio.terminal import board as terminal_board

    terminal_board.run_terminal(terminal_board.TerminalOptions(
        seats=(terminal_board.HUMAN, "alphabeta"), seed=seed, record=record), console)
