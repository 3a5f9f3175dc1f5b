"""The choice between the compiled card engine and its source (``cambio.cards._build``).

A build records the hash of the ``state.py`` it compiled; an edited source (an editable
install) runs as source, while an installed wheel, whose files carry pip's times rather than
the build's, keeps its compiled engine (the wheel smoke test checks that end to end).
"""

import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import cambio.cards
from cambio.cards import _build
from cambio.cards._source_hash import HASH_FILE, PURE_PYTHON, pure_python, source_hash


def test_a_source_matching_the_recorded_hash_is_not_stale_whatever_its_time(tmp_path: Path):
    (tmp_path / "state.py").write_text("x = 1\n")
    (tmp_path / HASH_FILE).write_text(source_hash(str(tmp_path / "state.py")) + "\n")
    os.utime(tmp_path / HASH_FILE, (0, 0))  # older than the source: pip's times say nothing
    assert not _build.is_stale(str(tmp_path))


def test_an_edited_source_or_a_missing_record_is_stale(tmp_path: Path):
    (tmp_path / "state.py").write_text("x = 1\n")
    assert _build.is_stale(str(tmp_path))  # no record
    (tmp_path / HASH_FILE).write_text(source_hash(str(tmp_path / "state.py")))
    (tmp_path / "state.py").write_text("x = 2\n")
    os.utime(tmp_path / "state.py", (0, 0))  # older than the record, edited all the same
    assert _build.is_stale(str(tmp_path))


def test_the_engine_in_use_is_the_compiled_one_exactly_when_it_matches_its_source():
    engine = sys.modules[cambio.cards.State.__module__].__file__ or ""
    assert engine.endswith(tuple(EXTENSION_SUFFIXES)) == cambio.cards.COMPILED
    if cambio.cards.COMPILED:
        assert not pure_python()
        assert not _build.is_stale(os.path.dirname(engine))


def test_cambio_pure_python_is_read_as_a_boolean() -> None:
    for value in ("1", "true", "Yes", " on ", "anything"):
        assert pure_python({PURE_PYTHON: value}), value
    for value in ("0", "false", "No", " off", "", "  "):
        assert not pure_python({PURE_PYTHON: value}), value
    assert not pure_python({})


def compiled_with(value: str) -> bool:
    """``cambio.cards.COMPILED`` in a fresh interpreter with ``CAMBIO_PURE_PYTHON=value``."""
    env = {**os.environ, PURE_PYTHON: value}
    out = subprocess.run([sys.executable, "-c", "import cambio.cards as c; print(c.COMPILED)"],
                         env=env, capture_output=True, text=True, check=True).stdout
    return out.strip() == "True"


def test_zero_and_false_keep_the_compiled_engine_and_one_leaves_it() -> None:
    here = Path(_build.__file__).parent
    built = any((here / f"state{suffix}").exists() for suffix in EXTENSION_SUFFIXES)
    if not built or _build.is_stale(str(here)):
        pytest.skip("no current compiled engine here (a pure-Python install, or an edited "
                    "state.py)")
    assert compiled_with("0") and compiled_with("false") and compiled_with("")
    assert not compiled_with("1")
