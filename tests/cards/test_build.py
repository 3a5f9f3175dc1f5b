"""The choice between the compiled card engine and its source (``cambio.cards._build``).

A build records the hash of the ``state.py`` it compiled; an edited source (an editable
install) runs as source, while an installed wheel, whose files carry pip's times rather than
the build's, keeps its compiled engine (the wheel smoke test checks that end to end).
"""

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import cambio.cards
from cambio.cards import _build
from cambio.cards._source_hash import HASH_FILE, source_hash


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
        assert not os.environ.get("CAMBIO_PURE_PYTHON")
        assert not _build.is_stale(os.path.dirname(engine))
