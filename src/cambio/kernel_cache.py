"""Where numba keeps the compiled kernels, for an install nobody may write to.

numba caches a compiled function (``cache=True``) beside its source (``__pycache__``), else
under the user's cache directory (``~/.cache/numba``). A system-wide install run by a
service user has neither: the package is read-only and the user has no home; numba then
refuses to compile at all (``cannot cache function 'mix64': no locator available``) and
every ``cambio`` command failed at import. :func:`ensure_cache` runs before numba is
imported (from the package's ``__init__``) and, only in that case, points numba at a
private directory under the system's temporary directory, with a one-line notice.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path


def _creatable(path: Path) -> bool:
    """Whether ``path`` is, or could be made, a directory this process can write in
    (``os.access`` only: nothing is created by asking)."""
    for candidate in (path, *path.parents):
        if candidate.exists():
            return candidate.is_dir() and os.access(candidate, os.W_OK | os.X_OK)
    return False


def _user_cache() -> Path:
    """numba's user-wide cache directory (appdirs' rule on Linux and macOS)."""
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path(os.path.expanduser("~")) / ".cache"
    return base / "numba"


PACKAGE = Path(__file__).resolve().parent


def ensure_cache(package: Path = PACKAGE) -> str | None:
    """Point numba at a writable cache directory if it would find none; returns that
    directory (``None``: numba's own choice works, or the operator chose one)."""
    if "NUMBA_CACHE_DIR" in os.environ or "numba" in sys.modules:
        return None
    if _creatable(package / "__pycache__") or _creatable(_user_cache()):
        return None
    fallback = Path(tempfile.gettempdir()) / f"cambio-numba-{os.getuid()}"
    with contextlib.suppress(OSError):
        fallback.mkdir(mode=0o700, exist_ok=True)
    if not _creatable(fallback) or fallback.stat().st_uid != os.getuid():
        print(f"cambio: numba can cache compiled code neither in {package} nor in "
              f"{_user_cache()} nor in {fallback}; set NUMBA_CACHE_DIR to a writable "
              "directory", file=sys.stderr)
        return None
    os.environ["NUMBA_CACHE_DIR"] = str(fallback)
    print(f"cambio: {package} and {_user_cache()} are not writable; numba caches compiled "
          f"code in {fallback} (set NUMBA_CACHE_DIR to choose)", file=sys.stderr)
    return str(fallback)
