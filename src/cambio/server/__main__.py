"""``python -m cambio.server``: the same as ``cambio serve``."""

from __future__ import annotations

import typer

from cambio.extras import run_command

from .command import register


def main() -> None:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    register(app)
    run_command(app, "python -m cambio.server")


if __name__ == "__main__":
    main()
