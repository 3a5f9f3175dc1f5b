"""The ``cambio`` command line (typer). Each game registers its own subcommands."""
