"""Entry point of the ``cambio`` command.

The command groups are created here; each game's module registers its commands into them
(:func:`cambio.cli.cards.register`, :func:`cambio.cli.board.register`) so the two games'
command code stays apart.
"""

from __future__ import annotations

from typing import Annotated

import typer

from cambio import __version__
from cambio.extras import run_command
from cambio.server.admin import register as register_admin
from cambio.server.command import register as register_serve

from . import board as board_cli
from . import build_web
from . import cards as cards_cli
from .daily import daily_command
from .exploit import exploit_command
from .replay import export_command, replay_command
from .review import review_command

app = typer.Typer(
    help="cambio: play, simulate and study both games called Cambio.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
sim_app = typer.Typer(help="Run bot simulations with a progress bar and a results table.",
                      no_args_is_help=True)
play_app = typer.Typer(help="Play in the terminal against bots.", no_args_is_help=True)
solve_app = typer.Typer(help="Solve small games exactly.", no_args_is_help=True)
tournament_app = typer.Typer(help="Round-robin bot tournaments: pairwise table, ratings, plot.",
                             no_args_is_help=True)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"cambio {__version__}")
        raise typer.Exit()


@app.callback()
def _options(version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print cambio's version and exit.")] = False) -> None:
    """cambio: play, simulate and study both games called Cambio."""


app.add_typer(sim_app, name="sim")
app.add_typer(play_app, name="play")
app.add_typer(solve_app, name="solve")
app.add_typer(tournament_app, name="tournament")
app.command("replay")(replay_command)
app.command("export")(export_command)
app.command("review")(review_command)
app.command("daily")(daily_command)
app.command("exploit")(exploit_command)

cards_cli.register(sim=sim_app, play=play_app, tournament=tournament_app)
board_cli.register(sim=sim_app, play=play_app, solve=solve_app, tournament=tournament_app)
register_serve(app)
register_admin(app)
build_web.register(app)


def main() -> None:
    run_command(app)


if __name__ == "__main__":
    main()
