"""The complexity gate of ``make lint``: no function in ``src/`` above cyclomatic complexity 20.

Measured with radon (pinned in the ``dev`` extra). The only functions allowed above the limit
are listed here by name: engine hot paths whose split costs measured speed (:data:`HOT_PATHS`,
each with the figure, also in a comment at the function), and numba kernels whose split is
not measured yet (:data:`NOT_YET_SPLIT`). An entry that no longer needs to be one (now at or
below the limit, or gone) fails the gate too, so the lists stay true.

    .venv/bin/python scripts/complexity.py          # the gate
    .venv/bin/python scripts/complexity.py --top 15 # and the most complex functions
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class, Function

LIMIT = 20

HOT_PATHS: dict[str, str] = {
}
"""Engine hot paths whose split was measured to cost speed: ``path:qualified name`` -> the
figure (the comment at the function says the same)."""

NOT_YET_SPLIT: dict[str, str] = {
}
"""Numba kernels above the limit whose split has not been measured yet (their split is
still to do): known by name so that no other function joins them unnoticed."""

EXCEPTIONS = {**HOT_PATHS, **NOT_YET_SPLIT}


def functions(blocks: list[Function | Class], prefix: str = "") -> Iterator[Function]:
    """Every function and method, closures and methods of nested classes included."""
    for block in blocks:
        if isinstance(block, Class):
            yield from functions(list(block.methods) + list(block.inner_classes))
        else:
            yield block
            yield from functions(list(block.closures))


def measure(root: Path) -> dict[str, int]:
    """``path:name`` -> cyclomatic complexity, for every function under ``root``."""
    out: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for fn in functions(cc_visit(path.read_text(encoding="utf-8"))):
            key = f"{rel}:{fn.fullname}"
            out[key] = max(out.get(key, 0), fn.complexity)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).parent.parent / "src")
    parser.add_argument("--top", type=int, default=0, help="also list the N most complex")
    args = parser.parse_args(argv)
    found = measure(args.root)
    for key, cc in sorted(found.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"{cc:4d}  {key}")
    over = {k: cc for k, cc in found.items() if cc > LIMIT}
    bad = sorted(k for k in over if k not in EXCEPTIONS)
    stale = sorted(k for k in EXCEPTIONS if found.get(k, 0) <= LIMIT)
    for key in bad:
        print(f"{key}: cyclomatic complexity {over[key]} > {LIMIT}; split it (or, for an "
              "engine hot path whose split costs measured speed, list it in "
              "scripts/complexity.py with the figure)", file=sys.stderr)
    for key in stale:
        print(f"{key}: listed as an exception in scripts/complexity.py but its complexity "
              f"is {found.get(key, 'gone')}; remove it from the list", file=sys.stderr)
    allowed = ", ".join(f"{k} ({over[k]})" for k in sorted(EXCEPTIONS) if k in over)
    worst = max((cc for k, cc in found.items() if k not in EXCEPTIONS), default=0)
    print(f"complexity: {len(found)} functions, highest {worst} (limit {LIMIT})"
          + (f"; listed exceptions: {allowed}" if allowed else ""))
    return 1 if bad or stale else 0


if __name__ == "__main__":
    sys.exit(main())
