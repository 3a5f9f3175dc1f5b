"""Board-game commands (``cambio sim board``, ``cambio play board``, ``cambio solve board``)."""

from __future__ import annotations

import typer


def register(*, sim: typer.Typer, play: typer.Typer, solve: typer.Typer) -> None:
    """Add the board game's commands to the command groups (filled in by the board engine)."""
