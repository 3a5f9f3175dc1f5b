"""A free TCP port for a throwaway server (the suite's servers, PostgreSQL and Redis), and
whether the server a test started is the one answering on it."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import httpx

T = TypeVar("T")

TAKEN = "is already in use"
"""What ``cambio serve`` says (and exits 2) when its port was taken before it could bind."""


class PortTaken(RuntimeError):
    """A server exited because another process took its port first (``TAKEN``)."""


def free_port() -> int:
    """A port the OS just gave out and took back: free now, though another process could take
    it before the caller binds; the servers that use it fail loudly if so (``TAKEN``), and
    the harnesses start them again on another port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_on_a_free_port(start: Callable[[], T], move: Callable[[int], None],
                         attempts: int = 3) -> T:
    """``start()``; each time it raises :class:`PortTaken`, ``move(free_port())`` (the
    server's command and address to another port) and ``start()`` again."""
    for attempt in range(attempts):
        try:
            return start()
        except PortTaken:
            if attempt == attempts - 1:
                raise
            move(free_port())
    raise AssertionError("unreachable")


def serving(pid: int, port: int) -> bool:
    """Whether process ``pid``'s ``cambio serve`` answers on ``port``: ``GET /api/bots`` is
    200, and from its own socket, not from a process that took its port (:func:`owns_port`)."""
    try:
        answered = httpx.get(f"http://127.0.0.1:{port}/api/bots", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False
    return answered and owns_port(pid, port)


def with_port(args: list[str], port: int) -> list[str]:
    """``args`` with the value after ``--port`` replaced."""
    out = list(args)
    out[out.index("--port") + 1] = str(port)
    return out


def owns_port(pid: int, port: int) -> bool:
    """Whether process ``pid`` listens on TCP ``port``.

    A server whose port another process took between :func:`free_port` and its bind exits,
    but until it has, the other process answers on that port: a harness that only asked
    the port whether it answers once went on to test another test's server, which then
    stopped under it ("connection refused" halfway through the test). Linux's ``/proc``
    names the listening socket's owner; where there is no ``/proc``, this says yes."""
    if not os.path.isdir("/proc/self/fd"):
        return True
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False  # gone
    inodes = set()
    for fd in fds:
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[len("socket:["):-1])
    local = f":{port:04X}"
    for table in ("tcp", "tcp6"):
        try:
            rows = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cells = row.split()
            # local address, state 0A (LISTEN), inode
            if cells[1].endswith(local) and cells[3] == "0A" and cells[9] in inodes:
                return True
    return False
