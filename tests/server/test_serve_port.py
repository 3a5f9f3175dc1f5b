"""``cambio serve`` on a port something else holds: one line naming --port, no traceback;
and the test harness then starts it on another port."""

from __future__ import annotations

import socket
import subprocess
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread

import httpx

from ..support.ports import TAKEN, owns_port, with_port
from .harness import ServerProcess


def test_a_taken_port_is_one_line_naming_the_port_option(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "cambio.server", "--port", str(port),
                               "--database", str(tmp_path / "db.sqlite3")],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"cambio serve: port {port} is already in use on 127.0.0.1; choose another with "
        "--port"]


class _Impostor(BaseHTTPRequestHandler):
    """Answers every GET with 200, as another test's server on a reused port would."""

    def do_GET(self) -> None:  # http.server calls it by this name
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"[]")

    def log_message(self, *args: object) -> None:
        pass


def test_the_harness_never_takes_another_process_on_its_port_for_its_server(database):
    """Between ``free_port`` and its bind another process can take a test server's port
    and answer there; the harness once went on testing that process. Now its server,
    finding the port taken, starts again on another, and it is that server that answers."""
    impostor = ThreadingHTTPServer(("127.0.0.1", 0), _Impostor)
    Thread(target=impostor.serve_forever, daemon=True).start()
    taken = impostor.server_address[1]
    proc = ServerProcess(database)
    proc.port, proc.args = taken, with_port(proc.args, taken)
    try:
        proc.start()
        assert proc.port != taken
        assert proc.proc is not None and owns_port(proc.proc.pid, proc.port)
        assert not owns_port(proc.proc.pid, taken)
        assert TAKEN in proc.log.read_text()  # it did meet the impostor first
        bots = httpx.get(proc.base + "/api/bots", timeout=10).json()
        assert bots and "name" in str(bots)  # cambio's list, not the impostor's "[]"
    finally:
        proc.stop()
        impostor.shutdown()
