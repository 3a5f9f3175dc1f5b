"""A throwaway PostgreSQL cluster for the tests: ``initdb`` in a temporary folder, the real
``postgres`` server on a free port of 127.0.0.1, stopped and deleted at the end.

The binaries are Debian's (``postgresql-15``, installed by ``scripts/install-test-deps.sh``):
found on ``PATH`` or in ``/usr/lib/postgresql/<version>/bin``. PostgreSQL refuses to run as
root, so when the tests run as root (CI does) the cluster belongs to the ``postgres`` system
user (or ``nobody``) and its programs run as that user.

One setting differs from a production server: ``fsync=off``. It only matters when the
machine itself goes down, which no test does; commits still wait for the server's WAL
(``synchronous_commit=on``), so what the tests check (an acknowledged action survives the
cambio process being killed) goes through the same path as in production.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg

from .ports import free_port

SEARCH = "/usr/lib/postgresql/*/bin"


def binaries() -> Path:
    """The folder of ``initdb``, ``pg_ctl`` and ``postgres`` (the newest version found)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    folders = sorted(glob.glob(SEARCH), key=lambda p: int(p.split("/")[-2])
                     if p.split("/")[-2].isdigit() else 0)
    for folder in reversed(folders):
        if (Path(folder) / "initdb").exists():
            return Path(folder)
    raise RuntimeError("PostgreSQL's initdb was not found (on PATH or in "
                       f"{SEARCH}); run scripts/install-test-deps.sh")


class PostgresCluster:
    """One ``postgres`` server; :meth:`create_database` gives each test server its own
    database in it."""

    def __init__(self, *, fsync: bool = False) -> None:
        """``fsync``: as a production server (benchmarks of commit latency want it)."""
        self.fsync = fsync
        self.bin = binaries()
        self.root = Path(tempfile.mkdtemp(prefix="cambio-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "postgres.log"
        self.port = free_port()
        self._names = itertools.count(1)
        self._user: dict[str, Any] = {}
        if os.geteuid() == 0:
            name = "postgres" if _user_exists("postgres") else "nobody"
            entry = pwd.getpwnam(name)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
            self._user = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}

    def _run(self, *args: str) -> None:
        done = subprocess.run([str(self.bin / args[0]), *args[1:]], capture_output=True,
                              text=True, timeout=120, cwd=self.root, **self._user)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {done.stdout}{done.stderr}"
                               f"{self.log.read_text() if self.log.exists() else ''}")

    def start(self) -> PostgresCluster:
        self._run("initdb", "-D", str(self.data), "-U", "cambio", "--auth=trust",
                  "-E", "UTF8", "--locale=C", "--no-sync")
        self.resume()
        return self

    def halt(self) -> None:
        """Stop the server as a crash would (``immediate``: no shutdown checkpoint, every
        connection dropped); its data stays for :meth:`resume`."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def resume(self) -> None:
        """Start the server (again) on the same port and data."""
        options = " ".join([
            f"-p {self.port}", "-c listen_addresses=127.0.0.1",
            f"-c unix_socket_directories={self.root}", "-c max_connections=300",
            "-c shared_buffers=32MB", "-c synchronous_commit=on",
            "-c fsync=" + ("on" if self.fsync else "off"),
        ])
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options,
                  "-w", "-t", "60", "start")

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://cambio@127.0.0.1:{self.port}/{dbname}"

    def create_database(self, prefix: str = "cambio") -> str:
        """A new empty database; returns its URL."""
        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        deadline = time.monotonic() + 30
        while True:
            try:
                with psycopg.connect(self.url(), autocommit=True) as conn:
                    conn.execute(f'CREATE DATABASE "{name}"')
                return self.url(name)
            except psycopg.errors.ObjectInUse:  # template1 busy with another CREATE
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True
