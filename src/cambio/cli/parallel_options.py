"""``--workers`` and ``--ray``, shared by ``cambio sim cards|board`` and ``cambio tournament``."""

from __future__ import annotations

from typing import Annotated

import typer

from cambio.sim.parallel import Where

WorkersOpt = Annotated[int, typer.Option(
    "--workers", "-w", min=1, help="Local processes to play on (results are identical for "
    "any number; with --ray, the CPUs of a local Ray).")]
RayOpt = Annotated[str | None, typer.Option(
    "--ray", help="Play on a Ray cluster: its ADDRESS, or 'local' to start one here "
    "(identical results).")]


def where(workers: int, ray: str | None) -> Where:
    try:
        return Where(workers=workers, ray=ray.strip() if ray is not None else None)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--workers/--ray") from None
