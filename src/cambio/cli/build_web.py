"""``cambio build-web`` and ``cambio fetch-pyodide``: the browser client without a server.

``build-web OUT/`` writes a folder any static host serves (``python -m http.server``, a CDN,
GitHub Pages): the solo lobby as ``index.html``, games against the quick bots run by the
project's own Python in Pyodide, installable and offline. ``fetch-pyodide`` puts Pyodide in
the cache a server serves it from (``docs/web.md``, "Offline and installable").
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from cambio.server import offline


def _fetch() -> Path:
    try:
        return offline.fetch_pyodide(quiet=True)
    except offline.PyodideError as exc:
        print(f"cambio: {exc}", file=sys.stderr)
        raise typer.Exit(code=1) from None


def build_web_command(
    out: Annotated[Path, typer.Argument(help="The folder to write (created if missing).")],
    server: Annotated[str | None, typer.Option(
        "--server", help="A cambio server's address (https://...) for multiplayer, "
                         "linked from the lobby.")] = None,
) -> None:
    """Write a static site: solo games against bots, playable offline, no server needed."""
    if server is not None and not server.startswith(("http://", "https://")):
        print("cambio: --server must be an http:// or https:// address", file=sys.stderr)
        raise typer.Exit(code=2)
    if out.exists() and not out.is_dir():
        print(f"cambio: {out} is not a folder", file=sys.stderr)
        raise typer.Exit(code=2)
    _fetch()
    sizes = offline.write_static_site(out, server)
    total = sum(sizes.values())
    parts = ", ".join(f"{name} {size / 1e6:.2f} MB" for name, size in sizes.items())
    print(f"{out}: {total / 1e6:.1f} MB ({parts}); serve it with: "
          f"python -m http.server -d {out}")


def fetch_pyodide_command() -> None:
    """Download Pyodide (the npm package, pinned and checked) into the cache the server
    serves the offline engine from."""
    path = _fetch()
    print(f"pyodide {offline.PYODIDE_VERSION} in {path}")


def register(app: typer.Typer) -> None:
    app.command("build-web")(build_web_command)
    app.command("fetch-pyodide")(fetch_pyodide_command)
