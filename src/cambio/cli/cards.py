"""Card-game commands (``cambio sim cards``, ``cambio play cards``)."""

from __future__ import annotations

import typer


def register(*, sim: typer.Typer, play: typer.Typer) -> None:
    """Add the card game's commands to the command groups."""
