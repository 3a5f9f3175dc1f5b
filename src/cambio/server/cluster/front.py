"""``cambio serve --workers N``: N server processes on one machine behind one port.

The front process owns the listening socket and does very little: it accepts a connection,
peeks at its request line (``MSG_PEEK``: nothing is consumed), looks up in Redis which
process owns the table named in the path (``/ws/{id}``, ``/api/tables/{id}/…``), and passes
the connection itself to that worker (``SCM_RIGHTS``); the worker's uvicorn takes it from
there, so the front never copies a byte of the game. Connections that name no table (the
lobby, the pages) and tables owned on other machines go to the workers in turn (the worker
relays the latter, :mod:`.proxy`).

Why not ``SO_REUSEPORT``? The kernel spreads connections over the workers blindly: a table's
WebSocket would reach a non-owner half the time and be relayed, and relaying costs the
workers about as much CPU as serving. Passing the socket costs one system call per
connection.

The front restarts a worker that dies (after ``kill -9`` its tables have moved to the
others by the time it is back, through their leases), and on SIGTERM asks every worker to
hand its tables over and waits for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import RedisError

from .lease import lease_key

log = logging.getLogger("cambio.server")

TABLE_PATH = re.compile(rb"^[A-Z]+ /(?:ws|api/tables)/([A-Za-z0-9_-]{1,64})(?:[/?# ]|$)")
PEEK = 8192
PEEK_TIMEOUT = 10.0
"""Seconds a client has to send its request line before the front drops it."""
RESTART_AFTER = 1.0


def table_in(head: bytes) -> str | None:
    """The table id a request line names, if any."""
    match = TABLE_PATH.match(head)
    return match.group(1).decode() if match else None


@dataclass
class Worker:
    slot: int
    worker_id: str
    proc: subprocess.Popen[bytes]
    channel: socket.socket


class Front:
    def __init__(self, host: str, port: int, workers: int, redis_url: str,
                 worker_command: list[str]) -> None:
        self.host = host
        self.port = port
        self.count = workers
        self.redis = Redis.from_url(redis_url, socket_timeout=1.0, socket_connect_timeout=1.0)
        self.worker_command = worker_command
        self.workers: dict[int, Worker] = {}
        self.by_id: dict[str, Worker] = {}
        self.turn = itertools.count()
        self.stopping = False
        self.dispatching: set[asyncio.Task[None]] = set()
        self.machine = f"{os.uname().nodename}-{os.getpid()}"

    def run(self) -> None:
        asyncio.run(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        listener = socket.create_server((self.host, self.port), backlog=4096,
                                        reuse_port=False)
        listener.setblocking(False)
        for slot in range(self.count):
            self._spawn(slot)
        done = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, done.set)
        log.info("front on http://%s:%d with %d workers", self.host, self.port, self.count)
        watcher = loop.create_task(self._watch())
        acceptor = loop.create_task(self._accept(listener))
        await done.wait()
        self.stopping = True
        acceptor.cancel()
        listener.close()
        await self._stop_workers()
        watcher.cancel()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ------------------------------------------------------------------ workers
    def _spawn(self, slot: int) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        worker_id = f"{self.machine}-w{slot}-{os.urandom(3).hex()}"
        command = [*self.worker_command, "--handoff-fd", str(theirs.fileno()),
                   "--worker-id", worker_id]
        proc = subprocess.Popen(command, pass_fds=[theirs.fileno()])
        theirs.close()
        ours.setblocking(False)
        worker = Worker(slot, worker_id, proc, ours)
        self.workers[slot] = worker
        self.by_id[worker_id] = worker

    async def _watch(self) -> None:
        """Restart a worker that died (its tables were claimed by the others meanwhile)."""
        dead_since: dict[int, float] = {}
        while not self.stopping:
            await asyncio.sleep(0.2)
            for slot, worker in list(self.workers.items()):
                if worker.proc.poll() is None:
                    continue
                since = dead_since.setdefault(slot, time.monotonic())
                if time.monotonic() - since < RESTART_AFTER or self.stopping:
                    continue
                del dead_since[slot]
                log.warning("worker %d (pid %d) exited with %s; restarting it", slot,
                            worker.proc.pid, worker.proc.returncode)
                worker.channel.close()
                self.by_id.pop(worker.worker_id, None)
                self._spawn(slot)

    async def _stop_workers(self) -> None:
        for worker in self.workers.values():
            if worker.proc.poll() is None:
                worker.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(
                w.proc.poll() is None for w in self.workers.values()):
            await asyncio.sleep(0.1)
        for worker in self.workers.values():
            if worker.proc.poll() is None:
                worker.proc.kill()
            worker.channel.close()

    # ------------------------------------------------------------------ connections
    async def _accept(self, listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            conn, _ = await loop.sock_accept(listener)
            task = loop.create_task(self._dispatch(conn))
            self.dispatching.add(task)
            task.add_done_callback(self.dispatching.discard)

    async def _dispatch(self, conn: socket.socket) -> None:
        try:
            head = await _peek_line(conn)
            worker = None
            table = table_in(head) if head else None
            if table is not None:
                with contextlib.suppress(RedisError, OSError, TimeoutError):
                    owner = await self.redis.get(lease_key(table))
                    if isinstance(owner, bytes):
                        worker = self.by_id.get(owner.decode())
            if worker is None or worker.proc.poll() is not None:
                worker = self._next()
            if worker is not None:
                socket.send_fds(worker.channel, [b"c"], [conn.fileno()])
        except (OSError, TimeoutError):
            pass
        finally:
            conn.close()  # the worker holds its own descriptor now

    def _next(self) -> Worker | None:
        live = [w for w in self.workers.values() if w.proc.poll() is None]
        return live[next(self.turn) % len(live)] if live else None


def _settle(ready: asyncio.Future[None]) -> None:
    if not ready.done():
        ready.set_result(None)


async def _peek_line(conn: socket.socket) -> bytes:
    """The connection's first bytes up to the end of its request line, left unread."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PEEK_TIMEOUT
    while True:
        ready: asyncio.Future[None] = loop.create_future()
        loop.add_reader(conn.fileno(), _settle, ready)
        try:
            await asyncio.wait_for(ready, max(0.0, deadline - loop.time()))
        finally:
            loop.remove_reader(conn.fileno())
        head = conn.recv(PEEK, socket.MSG_PEEK)
        if not head or b"\n" in head or len(head) >= PEEK:
            return head
        await asyncio.sleep(0.005)  # the rest of the line is on its way


def run_front(host: str, port: int, workers: int, redis_url: str, argv: list[str]) -> None:
    """Start the front with the worker command: this same ``cambio serve`` command line
    with ``--workers 1`` (each worker advertises the front's address)."""
    command = [sys.executable, "-m", "cambio.server", *argv]
    Front(host, port, workers, redis_url, command).run()
