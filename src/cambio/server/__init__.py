"""The web server: lobby REST API, one serial actor per table, WebSockets, SQLite storage.

The server is the only authority of every table (``docs/protocol.md`` is the contract with
the browser client, ``docs/server.md`` explains how it works). Data flows one way: a message
comes in, the table's actor checks it with the rules engine, stores it, then sends each
client only its own view. Nothing here decides a rule: the engines do.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .settings import Settings


def __getattr__(name: str) -> Any:
    """``create_app`` and ``Settings`` load on first use, so that importing the package for
    its command (:mod:`cambio.server.command`, used by ``cambio``) does not load uvicorn and
    starlette."""
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "Settings":
        from .settings import Settings

        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Settings", "create_app"]
