"""Where the suite's time goes: the seconds of the last ``make unit``, by folder and by test.

``make unit`` writes each test's duration to ``.pytest-times.xml`` (pytest's JUnit XML). A
``--durations=20`` line shows the slowest twenty only; this sums all of them, so a folder of
many short tests shows up beside the few long ones, and lists what
``tests/support/schedule.py``'s ``MEASURED`` table lacks or has wrong (docs/testing.md,
"Tiers and times"). The seconds are wall time on a worker, waiting included: with more
workers than cores, a test also waits for the CPU.

    .venv/bin/python scripts/test_times.py                # folders, then the 25 longest
    .venv/bin/python scripts/test_times.py --top 60 --stale 2
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.schedule import SLOW_SECONDS, measured_id


def node_id(classname: str, name: str) -> str:
    """pytest's node id of a JUnit ``testcase`` (``tests.web.test_x`` -> its file)."""
    parts = [part for part in classname.split(".") if part]
    for end in range(len(parts), 0, -1):
        path = Path(*parts[:end]).with_suffix(".py")
        if path.exists():
            return "::".join([path.as_posix(), *parts[end:], name])
    return f"{classname}::{name}"


def read_times(path: Path) -> dict[str, float]:
    """Each test's seconds (setup, call and teardown) by node id."""
    root = ET.parse(path).getroot()
    return {node_id(case.get("classname", ""), case.get("name", "")):
            float(case.get("time", "0")) for case in root.iter("testcase")}


def folder(node: str) -> str:
    """The tier a test's seconds are summed under: its folder below ``tests/``."""
    path = node.split("::", 1)[0]
    return str(Path(path).parent) if path.count("/") > 1 else path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("xml", nargs="?", type=Path, default=Path(".pytest-times.xml"))
    parser.add_argument("--top", type=int, default=25, help="the longest tests to list")
    parser.add_argument("--stale", type=float, default=0.0, metavar="FACTOR",
                        help="also list slow tests whose MEASURED entry is missing or off "
                             "by more than FACTOR times (measured halved, as the table is)")
    args = parser.parse_args(argv)
    if not args.xml.exists():
        parser.error(f"{args.xml} not found: run make unit first")
    times = read_times(args.xml)
    total = sum(times.values())
    by_folder: dict[str, list[float]] = defaultdict(list)
    for node, seconds in times.items():
        by_folder[folder(node)].append(seconds)
    print(f"{len(times)} tests, {total:.0f} s summed over the workers\n")
    print(f"{'folder':34} {'tests':>6} {'seconds':>8} {'share':>6} {'>= 5 s':>7}")
    for name, secs in sorted(by_folder.items(), key=lambda kv: -sum(kv[1])):
        slow = sum(1 for s in secs if s >= SLOW_SECONDS)
        print(f"{name:34} {len(secs):6d} {sum(secs):8.0f} {sum(secs) / total:6.1%} {slow:7d}")
    print(f"\nthe {args.top} longest")
    for node, seconds in sorted(times.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"{seconds:8.1f}  {node}")
    if args.stale:
        print(f"\nslow tests whose MEASURED entry is missing or off by more than {args.stale}x")
        for node, seconds in sorted(times.items(), key=lambda kv: -kv[1]):
            if seconds < SLOW_SECONDS:
                break
            table = measured_id(node)
            half = seconds / 2
            if not table or not 1 / args.stale <= half / table <= args.stale:
                print(f"{half:8.1f}  (table: {table})  {node}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
