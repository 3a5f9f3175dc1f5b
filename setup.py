"""Build hook: compile the card engine's hot module with mypyc when possible.

The compiled module is the same source, type-checked and translated to C (about 3x faster
random play, benchmarks/cards_random.py). Set ``CAMBIO_PURE_PYTHON=1`` to skip compiling
(``0``, ``false``, ``no`` or empty compile); if compiling fails (no C
compiler), the pure-Python source is used. Next to the compiled module the build writes the
SHA-256 of the source it compiled (``state.sha256``): ``cambio.cards`` runs the source instead
when ``state.py`` no longer matches it (an editable install after an edit), whatever the
files' times say (pip does not keep them; see ``cambio/cards/_build.py``).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

SOURCE = "src/cambio/cards/state.py"
MODULE = "cambio.cards.state"


def _hashing() -> Any:
    """``cambio/cards/_source_hash.py``, loaded alone: the one definition of the source's
    hash, without importing cambio (whose dependencies a build environment does not have)."""
    spec = importlib.util.spec_from_file_location("_cambio_source_hash",
                                                  "src/cambio/cards/_source_hash.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildExt(build_ext):
    """build_ext, then the compiled source's hash beside the module (in place for an
    editable install, in the build tree, so in the wheel, otherwise)."""

    def run(self) -> None:
        super().run()
        hashing = _hashing()
        for ext in self.extensions:
            if ext.name == MODULE:
                built = Path(self.get_ext_fullpath(ext.name))
                (built.parent / hashing.HASH_FILE).write_text(hashing.source_hash(SOURCE) + "\n")


# pip asks for the requirements and the metadata first (egg_info, dist_info), each a run of
# this file: only the commands that build need mypyc's type check and C (seconds each time).
METADATA_ONLY = {"egg_info", "dist_info", "sdist"}

ext_modules = []
if not _hashing().pure_python() and not METADATA_ONLY & set(sys.argv[1:]):
    try:
        from mypyc.build import mypycify

        ext_modules = mypycify([SOURCE], opt_level="3", debug_level="0")
    except (Exception, SystemExit) as exc:  # any failure means: ship pure Python
        print(f"cambio: not compiling with mypyc ({exc}); using pure Python", file=sys.stderr)

setup(ext_modules=ext_modules, cmdclass={"build_ext": BuildExt})
