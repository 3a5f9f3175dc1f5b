"""``cambio replay`` and ``cambio export``: work on records of either game."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn, cast

import typer
from rich.console import Console

from cambio.games import Game, get_game, load
from cambio.records.jsonl import Record, RecordError, load_record


def _show(game: Game) -> Callable[[Any, Console], None]:
    """How a replayed game is printed: the game's rendering hook (the terminal's), named
    by the game so that the records layer never imports the terminal."""
    return cast(Callable[[Any, Console], None], load(game.show_record))


def _load(file: Path) -> tuple[Record, Game]:
    try:
        record = load_record(file)
        try:
            game = get_game(record.game)
        except ValueError as exc:
            raise RecordError(1, str(exc)) from None
    except RecordError as exc:
        _fail(file, exc)
    return record, game


def _fail(file: Path, exc: RecordError) -> NoReturn:
    print(f"{file}: invalid record: {exc}", file=sys.stderr)
    raise typer.Exit(code=2)


def replay_command(
    file: Annotated[Path, typer.Argument(help="A record file (.jsonl).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as one JSON object.")
                       ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only validate; print nothing.")
                     ] = False,
) -> None:
    """Validate a record by replaying it through the engine, and show the game.

    Exits 2 with the offending line and reason if the record is malformed or illegal.
    """
    record, game = _load(file)
    try:
        result = game.replay(record)
    except RecordError as exc:
        _fail(file, exc)
    if as_json:
        print(json.dumps(result.summary()))
    elif not quiet:
        _show(game)(result, Console())


def export_command(
    file: Annotated[Path, typer.Argument(help="A full record file (.jsonl).")],
    seat: Annotated[int | None, typer.Option("--seat", help="Export for this seat's eyes only.")
                    ] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here, not to stdout.")
                   ] = None,
) -> None:
    """Re-export a record: in full, or for one player's eyes (only what that seat saw)."""
    record, game = _load(file)
    try:
        result = game.replay(record)
    except RecordError as exc:
        _fail(file, exc)
    try:
        text = game.export(result, seat)
    except RecordError as exc:
        _fail(file, exc)
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
