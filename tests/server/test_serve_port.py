"""``cambio serve`` on a port something else holds: one line naming --port, no traceback."""

from __future__ import annotations

import socket
import subprocess
import sys


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
