"""The web server: lobby REST API, one serial actor per table, WebSockets, SQLite storage.

The server is the only authority of every table (``docs/protocol.md`` is the contract with
the browser client, ``docs/server.md`` explains how it works). Data flows one way: a message
comes in, the table's actor checks it with the rules engine, stores it, then sends each
client only its own view. Nothing here decides a rule: the engines do.
"""

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
