"""A system-wide install run by a service user: the package is read-only
and the user has no writable home, so numba can cache its compiled kernels in neither of its
own places. ``cambio`` commands still run (numba caches under the temporary directory, with
a one-line notice), ``cambio serve`` among them.

As root (the test machine), the commands run as ``nobody``; as anyone else, the copy of the
package is made read-only and ``HOME`` points nowhere.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ..support.ports import free_port

SRC = Path(__file__).resolve().parents[2] / "src" / "cambio"
NOBODY = 65534


@pytest.fixture
def install() -> Iterator[tuple[Path, list[str], dict[str, str]]]:
    """A read-only copy of the package (no ``__pycache__``), how to run a command as its
    service user, and that user's environment (no ``HOME``)."""
    root = Path(tempfile.mkdtemp(prefix="cambio-ro-"))
    try:
        shutil.copytree(SRC, root / "site" / "cambio",
                        ignore=shutil.ignore_patterns("__pycache__"))
        data = root / "data"
        data.mkdir()
        as_user: list[str] = []
        if os.geteuid() == 0:
            os.chmod(root, 0o755)
            os.chown(data, NOBODY, NOBODY)
            # setpriv (util-linux), not Popen(user=...): the interpreter may live under a
            # home that nobody may enter, and setpriv still starts it
            as_user = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
        for path in (root / "site").rglob("*"):
            os.chmod(path, 0o555 if path.is_dir() else 0o444)
        os.chmod(root / "site", 0o555)
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root / "site"),
               "TMPDIR": str(data)}
        if os.geteuid() != 0:
            env["HOME"] = str(root / "no-home")  # does not exist, cannot be made
            os.chmod(root, 0o555)
        yield root, as_user, env
    finally:
        os.chmod(root, 0o755)
        for path in (root / "site").rglob("*"):
            if path.is_dir():
                os.chmod(path, 0o755)
        os.chmod(root / "site", 0o755)
        shutil.rmtree(root, ignore_errors=True)


def test_commands_run_without_a_writable_package_or_home(
        install: tuple[Path, list[str], dict[str, str]]) -> None:
    root, as_user, env = install
    cambio = [*as_user, sys.executable, "-c", "from cambio.cli.main import main; main()"]
    done = subprocess.run([*cambio, "--help"], capture_output=True, text=True, timeout=300,
                          cwd=root / "data", env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    notices = [line for line in done.stderr.splitlines() if "numba caches" in line]
    assert len(notices) == 1, done.stderr
    # The server too, with its bots' kernels.
    port = free_port()
    server = subprocess.Popen([*cambio, "serve", "--port", str(port), "--database",
                               str(root / "data" / "db.sqlite3"), "--log-level", "warning"],
                              cwd=root / "data", env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
    try:
        answer = None
        deadline = time.monotonic() + 120  # a guard against a hang, not a measure
        while answer is None and server.poll() is None and time.monotonic() < deadline:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/api/bots", timeout=2)
            except httpx.HTTPError:
                time.sleep(0.1)
        assert answer is not None and answer.status_code == 200, server.poll()
        assert "hard" in [bot["name"] for bot in answer.json()["cards"]]
    finally:
        server.send_signal(signal.SIGTERM)
        out, _ = server.communicate(timeout=30)
    assert b"Traceback" not in out, out.decode()[-2000:]
