"""Build hook: compile the card engine's hot module with mypyc when possible.

The compiled module is the same source, type-checked and translated to C (about 3x faster
random play, benchmarks/cards_random.py). Set ``CAMBIO_PURE_PYTHON=1`` to skip compiling
(``0``, ``false``, ``no`` or empty compile; the pure ``py3-none-any`` wheel is built so).
Building from the sdist never needs a compiler: when any step of the compiled build fails (no
working C compiler or Python headers, mypyc's type check, the compile or the link), the build
says so in one line and installs the pure-Python source, which runs the same rules
(``cambio.cards.COMPILED`` tells which one runs; pip shows the line with ``-v``). Next to the
compiled module the build writes the SHA-256 of the source it compiled (``state.sha256``):
``cambio.cards`` runs the source instead when ``state.py`` no longer matches it (an editable
install after an edit), whatever the
files' times say (pip does not keep them; see ``cambio/cards/_build.py``).

Beside it, the C kernel of the batch engine's uniform play (``cambio/cards/_uniform.c``, an
extension of its own with portable flags: ``cambio.cards.batch_c``). It is optional too: a
failed compile says so in one line and leaves numba to play the same rounds. Its source's
SHA-256 is compiled into it, so an edited ``_uniform.c`` is never run from a stale build.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE = "src/cambio/cards/state.py"
MODULE = "cambio.cards.state"
C_KERNEL_SOURCE = "src/cambio/cards/_uniform.c"
C_KERNEL = "cambio.cards._uniform"
C_KERNEL_FLAGS = ["-O3", "-ffp-contract=off", "-fstrict-aliasing", "-Wall", "-Wextra"]
"""GCC/clang flags for the C kernel, portable (no -march): -O3 whatever Python was built
with; no fused multiply-add, so the shuffles' floating point is CPython's on every CPU;
strict aliasing even where Python was built without it (the kernel keeps the rules in 32-bit
fields that a store into a 64-bit record cannot change, and is 27% slower without it)."""


def _hashing() -> Any:
    """``cambio/cards/_source_hash.py``, loaded alone: the one definition of the source's
    hash, without importing cambio (whose dependencies a build environment does not have)."""
    spec = importlib.util.spec_from_file_location("_cambio_source_hash",
                                                  "src/cambio/cards/_source_hash.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _no_c_kernel(reason: object) -> None:
    """The one line a build prints when the batch engine's C kernel is not built."""
    print(f"cambio: not building the batch engine's C kernel ({reason}); uniform play runs "
          "on numba (the same rounds, slower)", file=sys.stderr)


def _pure(reason: object) -> None:
    """The one line a build prints when it falls back to the pure-Python engine."""
    print(f"cambio: not compiling the card engine ({reason}); installing pure Python "
          "(the same rules, about 3x slower at random play)", file=sys.stderr)


def _compiler_problem() -> str | None:
    """Why no C extension can be built here (None if a tiny one compiles against this
    Python's headers with the compiler ``build_ext`` would use, ``CC`` included)."""
    import tempfile

    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler, get_python_inc

    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.c"
        probe.write_text("#include <Python.h>\nint cambio_probe(void) { return 0; }\n")
        compiler: Any = new_compiler()
        try:
            customize_compiler(compiler)
            compiler.compile([str(probe)], output_dir=tmp, include_dirs=[get_python_inc()])
        except Exception:  # whatever the reason (setuptools' error classes vary by version)
            command = " ".join(getattr(compiler, "compiler_so", None) or ["cc"])
            return f"no working C compiler: {command.split()[0]} cannot build a C extension"
    return None


class BuildExt(build_ext):
    """build_ext, then the compiled source's hash beside the module (in place for an
    editable install, in the build tree, so in the wheel, otherwise). A failed compile or
    link leaves the source to run instead; the C kernel's alone, numba to play."""

    extensions: list[Any]
    failed: set[str]
    """The C kernel if its build failed (the compiled engine's failure ends the run)."""

    def build_extension(self, ext: Any) -> None:
        if ext.name != C_KERNEL:
            super().build_extension(ext)
            return
        # The flags, recorded in the module for the benchmarks, and the source's hash.
        flags = C_KERNEL_FLAGS if self.compiler.compiler_type == "unix" else []
        ext.extra_compile_args = flags
        command = " ".join([*getattr(self.compiler, "compiler_so", []), *flags])
        ext.define_macros = [
            ("CAMBIO_SOURCE_SHA256", '"' + _hashing().source_hash(C_KERNEL_SOURCE) + '"'),
            ("CAMBIO_CFLAGS", '"' + command.replace("\\", "").replace('"', "") + '"')]
        try:
            super().build_extension(ext)
        except Exception as exc:  # the compile or the link: setuptools' classes vary
            _no_c_kernel(f"the C build failed: {type(exc).__name__}")
            self.failed.add(ext.name)

    def build_extensions(self) -> None:
        self.failed = set()
        super().build_extensions()
        # What failed is not an output: copying it in place or into a wheel would fail.
        self.extensions = [e for e in self.extensions if e.name not in self.failed]

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # the compile or the link: setuptools' classes vary
            # The compiler's own output is above in the log; the class says which step.
            _pure(f"the C build failed: {type(exc).__name__}")
            return
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
    problem = _compiler_problem()
    if problem is not None:
        _pure(problem)
        _no_c_kernel(problem)
    else:
        try:
            from mypyc.build import mypycify

            ext_modules = mypycify([SOURCE], opt_level="3", debug_level="0")
        except (Exception, SystemExit) as exc:  # any failure means: ship pure Python
            _pure(f"mypyc failed: {exc}")
        ext_modules.append(Extension(C_KERNEL, [C_KERNEL_SOURCE]))

setup(ext_modules=ext_modules, cmdclass={"build_ext": BuildExt})
