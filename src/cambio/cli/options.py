"""Option groups shared by several commands, declared once.

A group is a few typer options that always travel together (a board's rules; a run's games,
seed and output) and the value built from them. :func:`group` adds the options to a
command's signature and hands the command the built value, so each command names only what
is its own.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from cambio.sim.parallel import Where

from .parallel_options import RayOpt, WorkersOpt, where

F = TypeVar("F", bound=Callable[..., Any])


def group(target: str, options: dict[str, tuple[Any, Any]],
          build: Callable[..., Any]) -> Callable[[F], F]:
    """A decorator: the command gains ``options`` (name -> (annotation, default)) and, in
    place of its parameter ``target``, receives ``build(**their values)``."""

    def wrap(command: F) -> F:
        signature = inspect.signature(command, eval_str=True)
        kept = [p for p in signature.parameters.values() if p.name != target]
        added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                   annotation=annotation)
                 for name, (annotation, default) in options.items()]
        kept = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in kept]

        @functools.wraps(command)
        def run(**values: Any) -> Any:
            built = build(**{name: values.pop(name) for name in options})
            return command(**values, **{target: built})

        new = signature.replace(parameters=kept + added)
        # typer reads the signature and the annotations; both are the new ones, and the
        # wrapped command must not be followed back to its own.
        setattr(run, "__signature__", new)  # noqa: B010
        run.__annotations__ = {p.name: p.annotation for p in new.parameters.values()}
        del run.__wrapped__
        return run  # type: ignore[return-value]

    return wrap


@dataclass(frozen=True)
class Run:
    """How a simulation or tournament is run and shown."""

    games: int
    seed: int
    as_json: bool
    progress: bool
    where: Where


def run_options(games: int) -> Callable[[F], F]:
    """``--games`` (default ``games``), ``--seed``, ``--json``, ``--no-progress``,
    ``--workers``, ``--ray``, handed to the command as its ``run`` parameter."""
    options: dict[str, tuple[Any, Any]] = {
        "games": (Annotated[int, typer.Option("--games", "-g", min=1,
                                              help="Number of games.")], games),
        "seed": (Annotated[int, typer.Option("--seed", "-s",
                                             help="Seed of the whole run.")], 0),
        "as_json": (Annotated[bool, typer.Option(
            "--json", help="Print one JSON object (the summary) instead of tables.")], False),
        "no_progress": (Annotated[bool, typer.Option(
            "--no-progress", help="No progress bar on stderr.")], False),
        "workers": (WorkersOpt, 1),
        "ray": (RayOpt, None),
    }

    def build(games: int, seed: int, as_json: bool, no_progress: bool, workers: int,
              ray: str | None) -> Run:
        return Run(games, seed, as_json, not no_progress, where(workers, ray))

    return group("run", options, build)


PlotOpt = Annotated[Path | None, typer.Option(
    "--plot", help="Save a plot of the ratings and the pairwise table (PNG, SVG, ...).")]

__all__ = ["PlotOpt", "Run", "group", "run_options"]
