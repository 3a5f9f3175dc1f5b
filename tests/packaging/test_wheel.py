"""The three distributions as users get them: built as ``make dist`` builds them
(scripts/build_dist.py: the sdist, the compiled wheel with its manylinux tag, the pure
``py3-none-any`` wheel, ``twine check --strict``), each installed into a fresh venv and used
from outside the source tree.

One test, since each step needs the one before. The plain dependencies are installed once,
from requirements/lock.txt, into a base venv (while the distributions build); each
distribution then goes into a venv of its own that sees the base's packages through a
``.pth`` file, installed with ``--no-deps``. The pure wheel and the sdist are installed with
``CC=/bin/false`` (no compiler used: the sdist's build falls back to pure Python and says so);
in each venv ``cambio --version``, the batch engine's C kernel loaded in the compiled one
only, a seeded ``cambio sim cards`` whose summary equals the
source tree's, and ``cambio serve`` answering ``/`` (the compiled one also plays a table of
bots to the end over REST and the WebSocket).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import subprocess
import sys
import sysconfig
import tarfile
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType

import httpx
import pytest

import cambio
from cambio.bots.cards.learned import shipped_tables

from ..server.harness import Client, create_table, start
from ..support.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements" / "lock.txt"


def load_build_dist() -> ModuleType:
    """scripts/build_dist.py, what ``make dist`` runs (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("build_dist", ROOT / "scripts" / "build_dist.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pytestmark = pytest.mark.wheel

# A seeded simulation on the card engine itself (python: not the numba batch engine, which
# is the same in every distribution and would compile its kernels in each venv first).
SIM = ("sim", "cards", "--players", "3", "--rules", "house", "--bots", "random,easy,memory",
       "--games", "40", "--seed", "7", "--engine", "python", "--json", "--no-progress")


def environ(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "CAMBIO_PURE_PYTHON", "VIRTUAL_ENV")}
    return env | extra


def run(*args: str | Path, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=environ(**env),
                          capture_output=True, text=True, timeout=600)


def ok(done: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


def site_packages(venv: Path) -> Path:
    relative = Path(sysconfig.get_path("purelib")).relative_to(sys.prefix)
    return venv / relative


def base_venv(tmp: Path) -> Path:
    """A venv with the plain dependencies (no cambio); returns it."""
    venv = tmp / "base"
    ok(run(sys.executable, "-m", "venv", venv, cwd=tmp))
    plain = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    ok(run(venv / "bin" / "python", "-m", "pip", "install", "-q", "--no-compile",
           "--disable-pip-version-check", "-c", LOCK, *plain, cwd=tmp))
    return venv


def layered(base: Path, name: str, dist: Path, tmp: Path) -> tuple[Path, str]:
    """A venv seeing the base's packages, with ``dist`` installed into it alone and no C
    compiler; returns its bin/ and pip's verbose output (what the build printed)."""
    venv = tmp / name
    ok(run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp))
    (site_packages(venv) / "_cambio_base.pth").write_text(f"{site_packages(base)}\n")
    done = ok(run(base / "bin" / "python", "-m", "pip", "--python", venv / "bin" / "python",
                  "install", "-v", "--no-deps", "--no-compile", "--disable-pip-version-check",
                  dist, cwd=tmp, CC="/bin/false"))
    return venv / "bin", done.stdout + done.stderr


def test_the_sdist_and_both_wheels_install_without_a_compiler_and_run(tmp_path):
    with ThreadPoolExecutor(2) as pool:
        built = pool.submit(load_build_dist().build, tmp_path / "dist")
        base = base_venv(tmp_path)
        sdist, compiled, pure = built.result()
        source_sim = pool.submit(lambda: ok(run(
            sys.executable, "-m", "cambio.cli.main", *SIM, cwd=tmp_path,
            PYTHONPATH=str(ROOT / "src"))).stdout)
        installs = {name: pool.submit(layered, base, name, dist, tmp_path)
                    for name, dist in (("sdist", sdist), ("compiled", compiled),
                                       ("pure", pure))}
        venvs = {name: f.result() for name, f in installs.items()}
        expected = comparable(source_sim.result())

    # The tags: manylinux for the compiled wheel (what a public index accepts), any Python
    # on any platform for the pure one.
    assert compiled.name.startswith(f"cambio-{cambio.__version__}-cp311-cp311-manylinux")
    assert pure.name == f"cambio-{cambio.__version__}-py3-none-any.whl"
    assert_the_sdist_is_the_tracked_tree(sdist)

    # The sdist built with no compiler: one line says so, and the pure engine is installed.
    fallback = [line for line in venvs["sdist"][1].splitlines()
                if "cambio: not compiling the card engine" in line]
    assert len(fallback) == 1 and "no working C compiler" in fallback[0], venvs["sdist"][1]
    assert "cambio: not building the batch engine's C kernel (no working C compiler" \
        in venvs["sdist"][1]

    installed = {line.split("==")[0].lower() for line in ok(run(
        base / "bin" / "python", "-m", "pip", "freeze", cwd=tmp_path)).stdout.split()}
    assert "numba" in installed
    assert not installed & {"pytest", "ray", "playwright", "mypy", "open-spiel", "scipy",
                            "psycopg", "redis", "matplotlib"}

    for name, (bin_, _) in venvs.items():
        version = ok(run(bin_ / "cambio", "--version", cwd=tmp_path))
        assert (version.stdout, version.stderr) == (f"cambio {cambio.__version__}\n", ""), name
        engine = ok(run(bin_ / "python", "-c", "import cambio.cards as c, cambio.cards.state "
                        "as s; print(c.COMPILED, s.__file__)", cwd=tmp_path))
        is_compiled, where = engine.stdout.split()
        assert engine.stderr == "" and where.startswith(str(tmp_path / name)), name
        assert (is_compiled == "True") == (name == "compiled"), name
        assert where.endswith(".so" if name == "compiled" else "state.py"), name
        # The batch engine's C kernel: in the compiled wheel only (numba plays elsewhere).
        kernel = ok(run(bin_ / "python", "-c", "from cambio.cards import batch_c; "
                        "print(batch_c.load())", cwd=tmp_path))
        assert kernel.stdout.startswith("(<module" if name == "compiled" else "(None"), \
            (name, kernel.stdout, kernel.stderr)
        sim = ok(run(bin_ / "cambio", *SIM, cwd=tmp_path))
        assert comparable(sim.stdout) == expected, name
        # Every table's learned weights are package data (the bot picks its table's).
        learned = ok(run(bin_ / "python", "-c", "from cambio.bots.cards.learned import "
                         "shipped_tables; print(shipped_tables())", cwd=tmp_path))
        assert learned.stdout.strip() == str(shipped_tables()), name

    bin_ = venvs["compiled"][0]
    # A feature whose extra is missing: one line naming the extra, no traceback.
    postgres = run(bin_ / "cambio", "serve", "--database", "postgresql://nobody@127.0.0.1/x",
                   cwd=tmp_path)
    assert postgres.returncode == 1 and "Traceback" not in postgres.stderr
    assert postgres.stderr.strip().splitlines() == [
        "cambio: a PostgreSQL --database needs the 'postgres' extra (psycopg is not "
        "installed): pip install 'cambio[postgres]'"]

    for name, (bin_, _) in venvs.items():
        serve_and_check(name, bin_, tmp_path, play=name == "compiled")


def comparable(out: str) -> dict[str, object]:
    """A ``--json`` summary without its timings (which vary from run to run)."""
    summary: dict[str, object] = json.loads(out)
    return {k: v for k, v in summary.items()
            if k not in ("seconds", "games_per_second", "actions_per_second")}


def assert_the_sdist_is_the_tracked_tree(sdist: Path) -> None:
    """Every file a clone has is in the sdist but CI's script (so the tests it ships find
    their support code and data), and nothing a build or a run leaves in the tree."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode != 0:
        return  # not a git checkout (an unpacked sdist): nothing to compare with
    with tarfile.open(sdist) as tar:
        top = f"cambio-{cambio.__version__}/"
        shipped = {m.name.removeprefix(top) for m in tar.getmembers() if m.isfile()}
    expected = {p for p in tracked.stdout.splitlines() if (ROOT / p).is_file()}
    assert expected - {".gitignore", ".ci/run"} <= shipped
    leftovers = [p for p in shipped if p.endswith((".so", ".pyc", "state.sha256"))
                 or p.startswith((".venv/", "data/", "mutants/", "build/", "dist/",
                                  "node_modules/"))]
    assert leftovers == []


def serve_and_check(name: str, bin_: Path, tmp: Path, play: bool) -> None:
    port = free_port()
    log = tmp / f"serve-{name}.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [str(bin_ / "cambio"), "serve", "--port", str(port), "--database",
             str(tmp / f"{name}.sqlite3"), "--bot-speed", "50", "--round-pause", "0.1",
             "--seed", "1", "--rest-rate", "0"],
            cwd=tmp, env=environ(), stdout=out, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        page = wait_for_page(base, server, log)
        assert "<html" in page.lower(), name
        if play:
            asyncio.run(play_a_table_of_bots(base, f"ws://127.0.0.1:{port}"))
    finally:
        server.terminate()
        server.wait(20)
    text = log.read_text()
    engine = "compiled" if name == "compiled" else "source"
    assert f"card engine: {engine}" in text, text[-3000:]
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
