"""Benchmark scripts (benchmarks/*.py) loaded as modules, for the tests of their logic.

The scripts import their neighbours by bare name (``from cards_strength import ...``), as
they do when run, so the folder is on ``sys.path`` while one loads; the module is entered
in ``sys.modules`` first because dataclasses look their module up while being built.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent.parent / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))
