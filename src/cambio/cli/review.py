"""``cambio review``: every decision of one seat in a record, valued and labelled."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from cambio.records.jsonl import RecordError
from cambio.review import Review
from cambio.review.record import review_result

from .replay import _fail, _load

_STYLE = {"best": "green", "good": "cyan", "inaccuracy": "yellow", "mistake": "magenta",
          "blunder": "bold red"}


def review_command(
    file: Annotated[Path, typer.Argument(help="A full record file (.jsonl).")],
    seat: Annotated[int, typer.Option("--seat", help="The seat whose decisions to review.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as one JSON object.")
                       ] = False,
    budget: Annotated[int | None, typer.Option(
        "--budget", min=1, help="Cards: rollouts per decision (default 4096, at least 16)."
    )] = None,
    depth: Annotated[int | None, typer.Option(
        "--depth", min=1, help="Dice: plies searched after each move where no exact table "
                               "applies (default 4).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the card search.")] = 0,
) -> None:
    """Review one seat's decisions: each alternative's win chance, the loss, a label."""
    record, game = _load(file)
    try:
        result = game.replay(record)
        review = review_result(result, seat, budget, seed, depth)
    except RecordError as exc:
        _fail(file, exc)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    if as_json:
        print(json.dumps(review.to_json()))
    else:
        show(review, Console())


def show(review: Review, console: Console) -> None:
    """The review as a table, then the seat's summary."""
    table = Table(title=f"Review of seat {review.seat} ({review.game}, {review.budget})")
    for name in ("move", "played", "win", "best", "win ", "loss", "label", "note"):
        table.add_column(name, justify="right" if name.startswith(("win", "loss")) else "left")
    for d in review.decisions:
        style = _STYLE[d.label]
        table.add_row(str(d.step + 1), d.chosen.action, f"{d.chosen.win:.0%}", d.best.action,
                      f"{d.best.win:.0%}", f"{d.loss:.1f}", f"[{style}]{d.label}[/]",
                      "; ".join(d.slips))
    console.print(table)
    acc = review.accuracy
    console.print(f"accuracy: {'-' if acc is None else f'{acc:.1f}'}   " + "  ".join(
        f"{name}: {count}" for name, count in review.counts().items()))
    series = review.series
    if series:
        console.print("win chance: " + " ".join(f"{w:.0%}" for w in series))
    for d in review.costliest():
        console.print(f"costly: move {d.step + 1}: {d.chosen.action} ({d.label}, "
                      f"-{d.loss:.1f} points of win chance); better {d.best.action}")
