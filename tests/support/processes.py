"""Child processes and whether they still run, read from Linux's /proc: the tests that kill
a server check that the processes it started end with it."""

from __future__ import annotations

import contextlib
from pathlib import Path


def child_pids(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            out += [int(c) for c in (task / "children").read_text().split()]
    return out


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper has exited)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
