"""A throwaway ``redis-server`` (Debian's, installed by scripts/install-test-deps.sh) on a
free port in a temporary folder: started, stopped, and restarted on the same port (the
"Redis restarted mid-game" test). No persistence: a restart comes back empty, the worst
case for the leases."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from ..support.ports import free_port

REDIS_SERVER = os.environ.get("CAMBIO_REDIS_SERVER") or shutil.which("redis-server") \
    or "/usr/bin/redis-server"


class RedisServer:
    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.folder = folder
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.folder.mkdir(parents=True, exist_ok=True)
        log = open(self.folder / "redis.log", "ab")  # noqa: SIM115 (the child keeps it)
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.folder), "--save", "", "--appendonly", "no",
             "--protected-mode", "no", "--daemonize", "no"],
            stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                log_text = (self.folder / "redis.log").read_text()
                raise RuntimeError(f"redis-server exited: {log_text}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start within 20 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()
