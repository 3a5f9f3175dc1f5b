"""``cambio serve``: the web platform (lobby, tables, WebSockets) on one machine."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[Path, typer.Option(
        help="SQLite file holding every table, seat and action (created if missing).")]
    = Path("data/cambio.sqlite3"),
    away_after: Annotated[float, typer.Option(
        min=1.0, help="Seconds without a connection before a player's seat is played by a "
        "bot (until they return).")] = 30.0,
    bot_speed: Annotated[float, typer.Option(
        min=0.01, max=1000.0, help="Divide bots' thinking delays and the pause between rounds "
        "by this factor.")] = 1.0,
    round_pause: Annotated[float, typer.Option(
        min=0.0, help="Seconds between a round's reveal and the next deal (divided by "
        "--bot-speed).")] = 6.0,
    seed: Annotated[int | None, typer.Option(
        help="Derive every table's seed from this (tests and benchmarks only: it makes the "
        "deals predictable).")] = None,
    rest_rate: Annotated[float, typer.Option(
        min=0.0, help="REST calls per second per client address (0: no limit).")] = 50.0,
    log_level: Annotated[str, typer.Option(help="debug, info, warning or error.")] = "info",
) -> None:
    """Serve the web platform: the lobby, tables with bots, real-time play and records."""
    from cambio.server.run import serve
    from cambio.server.settings import Settings

    settings = Settings(db=db, away_after=away_after, bot_speed=bot_speed, seed=seed,
                        round_pause=round_pause, rest_rate=rest_rate, rest_burst=4 * rest_rate)
    serve(settings, host=host, port=port, log_level=log_level.lower())


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``cambio`` command (called from :mod:`cambio.cli.main`)."""
    app.command("serve")(serve_command)
