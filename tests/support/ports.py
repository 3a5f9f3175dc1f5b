"""A free TCP port for a throwaway server (the suite's servers, PostgreSQL and Redis)."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port the OS just gave out and took back: free now, though another process could take
    it before the caller binds; the servers that use it fail loudly if so."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
