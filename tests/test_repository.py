"""The repository itself: no tracked text file holds an unresolved merge conflict.

Git writes a conflict as ``<<<<<<< ours``, optionally ``||||||| base`` (diff3), ``=======``
and ``>>>>>>> theirs``, each at the start of a line. ``=======`` alone is also a Markdown
heading underline, so it counts only between an opening and a closing marker.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OPEN = re.compile(r"^<{7}(?: |$)")
BASE = re.compile(r"^\|{7}(?: |$)")
CLOSE = re.compile(r"^>{7}(?: |$)")
MIDDLE = re.compile(r"^={7}$")


def conflict_lines(text: str) -> list[int]:
    """The 1-based numbers of the lines of ``text`` that are conflict markers."""
    found: list[int] = []
    opened = False
    for number, line in enumerate(text.splitlines(), 1):
        if OPEN.match(line) or CLOSE.match(line) or BASE.match(line):
            found.append(number)
            opened = bool(OPEN.match(line)) or (opened and not CLOSE.match(line))
        elif opened and MIDDLE.match(line):
            found.append(number)
    return found


def tracked_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout (an unpacked sdist): nothing tracked to check")
    return [ROOT / name for name in out.decode().split("\0") if name]


def test_the_check_finds_markers_and_spares_underlines() -> None:
    conflict = "a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> main\nd\n"
    assert conflict_lines(conflict) == [2, 4, 6]
    assert conflict_lines("<<<<<<< HEAD\nb\n||||||| base\nx\n=======\nc\n>>>>>>> main\n") \
        == [1, 3, 5, 7]
    assert conflict_lines("Title\n=======\n\ntext <<<<<<< not at the start\n") == []
    assert conflict_lines("<<<<<<<<<< eight or more\n>>>>>>>>>\n") == []


def test_no_tracked_file_holds_a_conflict_marker() -> None:
    found = []
    for path in tracked_files():
        if not path.is_file():  # deleted in the working tree, not yet staged
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:  # binary
            continue
        lines = conflict_lines(data.decode("utf-8", errors="replace"))
        found += [f"{path.relative_to(ROOT)}:{n}" for n in lines]
    assert not found, f"unresolved merge conflicts at {found}"
