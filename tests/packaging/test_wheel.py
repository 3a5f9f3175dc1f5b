"""The wheel as a user gets it (issue 20): built, pip-installed into a fresh venv with the
plain dependencies only (from requirements/lock.txt), then used from outside the source tree.

One test, since each step needs the one before: the installed package runs the compiled card
engine, warns about nothing, prints its version, names the extra a missing feature needs,
and ``cambio serve`` serves the web client from the installed files and plays a table of
bots to the end over REST and the WebSocket. The wheel is built while the venv is made, to
keep the wall time down.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import httpx
import pytest

import cambio

from ..server.harness import Client, create_table, start
from ..support.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements" / "lock.txt"

pytestmark = pytest.mark.wheel


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "CAMBIO_PURE_PYTHON", "VIRTUAL_ENV")}
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)


def ok(done: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


def install(tmp: Path) -> Path:
    """A fresh venv holding the wheel and the plain dependencies; returns its bin/."""
    dist = tmp / "dist"
    build = subprocess.Popen([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                              "--disable-pip-version-check", "-w", str(dist), str(ROOT)],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    ok(run(sys.executable, "-m", "venv", tmp / "venv", cwd=tmp))
    bin_ = tmp / "venv" / "bin"
    pip = (bin_ / "python", "-m", "pip", "install", "-q", "--no-compile",
           "--disable-pip-version-check", "-c", LOCK)
    plain = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    ok(run(*pip, *plain, cwd=tmp))
    out, _ = build.communicate(timeout=600)
    assert build.returncode == 0, out[-3000:]
    (wheel,) = dist.glob("cambio-*.whl")
    ok(run(*pip, wheel, cwd=tmp))
    return bin_


def test_the_installed_wheel_runs_compiled_and_serves_a_game_of_bots_to_the_end(tmp_path):
    bin_ = install(tmp_path)
    installed = {line.split("==")[0].lower() for line in
                 ok(run(bin_ / "python", "-m", "pip", "freeze", cwd=tmp_path)).stdout.split()}
    assert "cambio" in installed and "numba" in installed
    assert not installed & {"pytest", "ray", "playwright", "mypy", "open-spiel", "scipy",
                            "psycopg", "redis", "matplotlib"}

    version = ok(run(bin_ / "cambio", "--version", cwd=tmp_path))
    assert (version.stdout, version.stderr) == (f"cambio {cambio.__version__}\n", "")
    engine = ok(run(bin_ / "python", "-c", "import cambio.cards as c, cambio.cards.state as s;"
                    " print(c.COMPILED, s.__file__)", cwd=tmp_path))
    compiled, where = engine.stdout.split()
    assert compiled == "True" and engine.stderr == ""
    assert where.startswith(str(tmp_path / "venv")) and where.endswith(".so")

    # A feature whose extra is missing: one line naming the extra, no traceback.
    postgres = run(bin_ / "cambio", "serve", "--database", "postgresql://nobody@127.0.0.1/x",
                   cwd=tmp_path)
    assert postgres.returncode == 1 and "Traceback" not in postgres.stderr
    assert postgres.stderr.strip().splitlines() == [
        "cambio: a PostgreSQL --database needs the 'postgres' extra (psycopg is not "
        "installed): pip install 'cambio[postgres]'"]

    port = free_port()
    log = tmp_path / "serve.log"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    with log.open("w") as out:
        server = subprocess.Popen(
            [str(bin_ / "cambio"), "serve", "--port", str(port), "--database",
             str(tmp_path / "cambio.sqlite3"), "--bot-speed", "50", "--round-pause", "0.1",
             "--seed", "1", "--rest-rate", "0"],
            cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        page = wait_for_page(base, server, log)
        assert "<html" in page.lower()
        asyncio.run(play_a_table_of_bots(base, f"ws://127.0.0.1:{port}"))
    finally:
        server.terminate()
        server.wait(20)
    text = log.read_text()
    assert "card engine: compiled" in text, text[-3000:]
    assert "Traceback" not in text and "Warning" not in text, text[-3000:]


def wait_for_page(base: str, server: subprocess.Popen[bytes], log: Path) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert server.poll() is None, log.read_text()[-3000:]
        try:
            r = httpx.get(base + "/", timeout=2)
            if r.status_code == 200:
                return r.text
        except httpx.HTTPError:
            pass
        time.sleep(0.1)  # polling a process that gives no other signal that it listens
    raise AssertionError("cambio serve did not answer on /: " + log.read_text()[-3000:])


async def play_a_table_of_bots(base: str, ws_base: str) -> None:
    """Two seats: the host plays through the WebSocket (a seeded random legal action at each
    of its turns), a random bot the other; one round, to its end."""
    async with httpx.AsyncClient(base_url=base) as http:
        host = await create_table(http, {"game": "cards", "players": 2, "name": "Ann",
                                         "rules": {"preset": "house", "overrides": {}}})
        await start(http, host["table"], host["token"], fill="random")
        client = Client(f"{ws_base}/ws/{host['table']}?token={host['token']}", seed=3,
                        play=True)
        await client.run(until_finished=True, timeout=120)
        assert client.status == "finished", client.messages[-3:]
        ends = [m for m in client.of_type("update") if "end" in m["event"]]
        assert ends and ends[-1]["event"]["end"]["winners"]
        summary = (await http.get(f"/api/tables/{host['table']}")).json()
        assert summary["status"] == "finished" and summary["result"]["winners"]
