"""Build what an index gets: the sdist, the compiled wheel with its manylinux tag, and the
pure-Python ``py3-none-any`` wheel, both wheels built from the sdist (as pip builds it), then
checked with ``twine check --strict``.

``python scripts/build_dist.py OUTDIR`` (``make dist``), run by a Python holding ``build``,
``auditwheel`` and ``twine``; each build runs in an isolated environment with
``pyproject.toml``'s build requirements, as pip builds an sdist. Prints each file it wrote.
The tests call :func:`build` (tests/packaging).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(args: list[str | Path], env: dict[str, str] | None = None) -> None:
    done = subprocess.run([str(a) for a in args], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"build_dist: {' '.join(map(str, args))} failed:\n"
                         f"{done.stdout[-4000:]}{done.stderr[-4000:]}")


def _env(pure: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CAMBIO_PURE_PYTHON", "PYTHONPATH")}
    if pure:
        env["CAMBIO_PURE_PYTHON"] = "1"
    return env


def _wheel(sdist: Path, work: Path, out: Path, pure: bool) -> Path:
    """A wheel built from a fresh unpacking of the sdist (the compiled build leaves its
    module in build/, which must not reach the pure wheel)."""
    where = work / ("pure" if pure else "compiled")
    with tarfile.open(sdist) as tar:
        tar.extractall(where)  # our own sdist, just built (no filter: before 3.11.4)
    (source,) = where.iterdir()
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", out, source], env=_env(pure))
    (wheel,) = out.glob("*.whl")
    return wheel


def build(out: Path) -> list[Path]:
    """The sdist, the manylinux wheel and the pure wheel in ``out`` (made if missing)."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cambio-dist-") as tmp:
        work = Path(tmp)
        _run([sys.executable, "-m", "build", "--sdist", "--outdir", work / "sdist", ROOT],
             env=_env(pure=False))
        (sdist,) = (work / "sdist").glob("cambio-*.tar.gz")
        compiled = _wheel(sdist, work, work / "compiled-wheel", pure=False)
        pure = _wheel(sdist, work, work / "pure-wheel", pure=True)
        if not pure.name.endswith("-py3-none-any.whl"):
            raise SystemExit(f"build_dist: the pure build made {pure.name}, not py3-none-any")
        # The platform tag a public index accepts: auditwheel checks which glibc symbols the
        # module uses and names the oldest manylinux policy that covers them. The module
        # links no library outside the policy, so nothing is grafted and no ELF patcher is
        # needed (--patcher none; a future external library would fail here, loudly).
        _run([sys.executable, "-m", "auditwheel", "repair", "--patcher", "none",
              "--wheel-dir", work / "repaired",
              compiled])
        (repaired,) = (work / "repaired").glob("*.whl")
        files = []
        for made in (sdist, repaired, pure):
            target = out / made.name
            target.write_bytes(made.read_bytes())
            files.append(target)
    _run([sys.executable, "-m", "twine", "check", "--strict", *files])
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", type=Path)
    args = parser.parse_args()
    for path in build(args.outdir):
        print(path)


if __name__ == "__main__":
    main()
