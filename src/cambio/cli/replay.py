"""``cambio replay`` and ``cambio export``: work on records of either game."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any, NoReturn, cast

import typer
from rich.console import Console

from cambio.records.jsonl import Record, RecordError, load_record


def _module(record: Record) -> ModuleType:
    """Each game's record module provides ``replay`` and ``export``."""
    return importlib.import_module(f"cambio.records.{record.game}")


def _show(record: Record) -> Callable[[Any, Console], None]:
    """How a replayed game is printed: the terminal's rendering of that game's records,
    composed here so that the records layer never imports the terminal."""
    module = {"cards": "cambio.terminal.cards_record", "board": "cambio.terminal.board"}
    return cast(Callable[[Any, Console], None],
                importlib.import_module(module[record.game]).show_record)


def _load(file: Path) -> tuple[Record, ModuleType]:
    try:
        record = load_record(file)
    except RecordError as exc:
        _fail(file, exc)
    return record, _module(record)


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
    record, module = _load(file)
    try:
        result = module.replay(record)
    except RecordError as exc:
        _fail(file, exc)
    if as_json:
        print(json.dumps(result.summary()))
    elif not quiet:
        _show(record)(result, Console())


def export_command(
    file: Annotated[Path, typer.Argument(help="A full record file (.jsonl).")],
    seat: Annotated[int | None, typer.Option("--seat", help="Export for this seat's eyes only.")
                    ] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here, not to stdout.")
                   ] = None,
) -> None:
    """Re-export a record: in full, or for one player's eyes (only what that seat saw)."""
    record, module = _load(file)
    try:
        result = module.replay(record)
    except RecordError as exc:
        _fail(file, exc)
    try:
        text = module.export(result, seat)
    except RecordError as exc:
        _fail(file, exc)
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
