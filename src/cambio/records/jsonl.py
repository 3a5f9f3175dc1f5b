"""The record container shared by both games: a header line, then one JSON object per event.

Only the framing lives here (JSON Lines, the header's common keys, line-numbered errors); what
a header and an event mean is up to each game's module (:mod:`cambio.records.cards`,
:mod:`cambio.records.board`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = "cambio-record"
VERSION = 1
MAX_LINE = 100_000
MAX_LINES = 1_000_000


class RecordError(ValueError):
    """A record is malformed or illegal. ``line`` is 1-based (0: the file as a whole)."""

    def __init__(self, line: int, reason: str) -> None:
        self.line = line
        self.reason = reason
        where = f"line {line}" if line else "record"
        super().__init__(f"{where}: {reason}")


@dataclass
class Record:
    """A parsed record: the header object and the event objects with their line numbers."""

    header: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)

    @property
    def game(self) -> str:
        return str(self.header["game"])


def parse_record(text: str) -> Record:
    """Split and decode a record; check the header's common keys. Raises :class:`RecordError`."""
    rows = text.splitlines()
    if len(rows) > MAX_LINES:
        raise RecordError(0, f"more than {MAX_LINES} lines")
    header: dict[str, Any] | None = None
    record: Record | None = None
    for number, row in enumerate(rows, start=1):
        if not row.strip():
            continue
        if len(row) > MAX_LINE:
            raise RecordError(number, f"line longer than {MAX_LINE} characters")
        try:
            obj = json.loads(row, parse_constant=_not_json)
        except json.JSONDecodeError as exc:
            raise RecordError(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        except ValueError as exc:  # NaN, Infinity
            raise RecordError(number, f"not valid JSON ({exc})") from None
        except RecursionError:
            raise RecordError(number, "JSON nested too deeply") from None
        if not isinstance(obj, dict):
            raise RecordError(number, "each line must be a JSON object")
        if header is None:
            header = obj
            _check_header(header, number)
            record = Record(header)
        else:
            assert record is not None
            record.events.append(obj)
            record.lines.append(number)
    if record is None:
        raise RecordError(0, "empty record: the first line must be the header")
    return record


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _check_header(header: dict[str, Any], line: int) -> None:
    if header.get("format") != FORMAT:
        raise RecordError(line, f"the header must have \"format\": \"{FORMAT}\"")
    version = header.get("version")
    if version != VERSION:
        raise RecordError(line, f"unsupported version {version!r} (this reader knows {VERSION})")
    game = header.get("game")
    if not isinstance(game, str) or not game:
        # Which games exist is cambio.games' business (the reader checks the framing only).
        raise RecordError(line, "the header's \"game\" must name a game (\"cards\", "
                                "\"board\", ...)")


def load_record(path: str | Path) -> Record:
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise RecordError(0, f"cannot read {p}: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(0, "not UTF-8 text") from None
    return parse_record(text)


def dump_record(header: dict[str, Any], events: list[dict[str, Any]]) -> str:
    """One compact JSON object per line, keys in insertion order (readable and diffable)."""
    out = [json.dumps(header, separators=(", ", ": "))]
    out += [json.dumps(e, separators=(", ", ": ")) for e in events]
    return "\n".join(out) + "\n"
