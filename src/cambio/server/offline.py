"""What the offline client needs besides the page files: the app's manifest and service
worker, the Python the browser runs, and Pyodide (CPython in WebAssembly).

Both the server (``app.py``) and ``cambio build-web`` (a static folder) serve these, from
here, so a static host and a server hand the browser the same files.

- **Pyodide** comes from the npm registry as the package ``pyodide`` at a pinned version,
  checked against its pinned sha512, once, into a cache outside the Python package
  (``~/.cache/cambio/pyodide/<version>/``): only the five files a page loads (13.5 MB;
  6.3 MB gzipped), not the package's 6.5 MB tarball and not its other files. It is not in
  the wheel: a server without it plays every game online and says so on the solo page;
  ``cambio fetch-pyodide`` (run by ``make run`` in the background and by ``make test``)
  puts it in place.
- **The Python bundle** is a zip of the project's own modules the browser runs (the card
  rules core, the records layer, the quick bots, the game interface and the card game's
  table parts, the server's session and :mod:`.solo`), made from the installed package's
  source: the rules are one piece of code.
- **The service worker** (``web/static/offline/sw.js``) caches the client's files in a cache
  named after :func:`build_id`, a hash of everything it caches: a release (any change) makes
  another ``sw.js``, which replaces the cache; Pyodide has a cache of its own per version,
  so a release does not download it again.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import urllib.request
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Any

import cambio

PACKAGE = Path(cambio.__file__).resolve().parent
WEB = PACKAGE / "web"
STATIC = WEB / "static"

PYODIDE_VERSION = "314.0.8"
PYODIDE_INTEGRITY = ("sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46"
                     "AdnGo0oq7YHSVUpHsoarLQ==")
"""npm's integrity string of ``pyodide-314.0.8.tgz`` (``npm view pyodide@314.0.8
dist.integrity``): a download that does not match is refused."""
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
"""The files a page loads to run Python (no packages from Pyodide's repository: the bots
need none)."""
PYODIDE_TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz"

BUNDLE_MODULES = (
    "__init__.py", "kernel_cache.py", "seeds.py",
    "cards/__init__.py", "cards/_build.py", "cards/_source_hash.py", "cards/actions.py",
    "cards/cards.py", "cards/errors.py", "cards/events.py", "cards/match.py",
    "cards/rules.py", "cards/state.py", "cards/view.py",
    "bots/__init__.py", "bots/registry.py", "bots/renamed.py", "bots/resolve.py",
    "bots/cards/__init__.py", "bots/cards/base.py", "bots/cards/registry.py",
    "bots/cards/random_bot.py", "bots/cards/easy.py", "bots/cards/memory.py",
    "bots/cards/expert.py", "bots/cards/belief.py",
    "records/__init__.py", "records/jsonl.py", "records/cards.py",
    "games/__init__.py", "games/cards.py", "games/cards_table.py",
    "server/__init__.py", "server/errors.py", "server/session.py", "server/match.py",
    "server/clock.py",
    "server/server_messages.py", "server/table_core.py", "server/listing.py",
    "server/turn_session.py", "server/refusals.py", "server/solo.py",
)
"""The modules of ``cambio`` the browser imports (paths under the package): nothing that
needs numpy, numba or the server's web stack (``tests/server/test_solo.py`` imports
:mod:`.solo` from this zip alone, with those blocked)."""

SOLO_PAGE = "solo.html"
SOLO_PAGE_ROUTE = "solo"
"""The solo page's address on a server (a static build has it as ``index.html``)."""
ENGINE_PATH = "static/offline/engine.json"
BUNDLE_PATH = "static/offline/python.zip"
PYODIDE_PATH = f"static/offline/pyodide/{PYODIDE_VERSION}/"


class PyodideError(RuntimeError):
    """Pyodide could not be fetched or checked."""


def cache_dir() -> Path:
    """Where Pyodide is kept: ``$CAMBIO_PYODIDE_DIR``, else the user's cache directory."""
    if os.environ.get("CAMBIO_PYODIDE_DIR"):
        return Path(os.environ["CAMBIO_PYODIDE_DIR"])
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "cambio" / "pyodide" / PYODIDE_VERSION


def pyodide_dir() -> Path | None:
    """The folder holding every file of :data:`PYODIDE_FILES`, or ``None``."""
    here = cache_dir()
    return here if all((here / f).is_file() for f in PYODIDE_FILES) else None


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def _download(into: Path) -> Path:
    """The package's tarball in ``into``: by ``npm pack`` when npm is there, else straight
    from the registry's tarball address."""
    npm = shutil.which("npm")
    if npm:
        subprocess.run([npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--silent",
                        "--pack-destination", str(into)], check=True, cwd=into,
                       stdout=subprocess.DEVNULL, timeout=600)
        return into / f"pyodide-{PYODIDE_VERSION}.tgz"
    target = into / "pyodide.tgz"
    with urllib.request.urlopen(PYODIDE_TARBALL, timeout=120) as res:
        target.write_bytes(res.read())
    return target


def fetch_pyodide(quiet: bool = False) -> Path:
    """Put Pyodide's files in :func:`cache_dir` (nothing to do if they are there); returns
    the folder. Raises :class:`PyodideError` if the download fails, does not match the
    pinned hash, or the cache cannot be written (nothing is left half-written)."""
    found = pyodide_dir()
    if found is not None:
        return found
    target = cache_dir()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            tarball = _download(Path(tmp))
            data = tarball.read_bytes()
        except (OSError, subprocess.SubprocessError) as exc:
            raise PyodideError(f"could not download pyodide {PYODIDE_VERSION}: {exc}") from exc
    if _integrity(data) != PYODIDE_INTEGRITY:
        raise PyodideError(f"pyodide-{PYODIDE_VERSION}.tgz does not match its pinned hash")
    try:
        _unpack(data, target)
    except OSError as exc:
        raise PyodideError(f"cannot write {target} ({exc}); choose a folder with "
                           "CAMBIO_PYODIDE_DIR") from exc
    if not quiet:
        size = sum((target / f).stat().st_size for f in PYODIDE_FILES)
        print(f"pyodide {PYODIDE_VERSION}: {size / 1e6:.1f} MB in {target}")
    return target


def _unpack(data: bytes, target: Path) -> None:
    """The files a page loads, from the package's tarball, into ``target`` at once (a
    folder beside it first, then renamed)."""
    staging = Path(tempfile.mkdtemp(prefix=".pyodide-", dir=_made(target.parent)))
    try:
        staging.chmod(0o755)  # a server running as another user reads it
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            for name in PYODIDE_FILES:
                try:
                    member = tar.extractfile(f"package/{name}")
                except KeyError:
                    member = None
                if member is None:
                    raise PyodideError(f"the pyodide package has no {name}")
                body = member.read()
                (staging / name).write_bytes(body)
                # What a server sends a browser that takes gzip (6.3 MB instead of 13.5),
                # for the files it shrinks (not the stdlib, already a zip).
                packed = gzip.compress(body, 9, mtime=0)
                if len(packed) < 0.9 * len(body):
                    (staging / f"{name}.gz").write_bytes(packed)
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        if staging.exists():
            shutil.rmtree(staging)


def _made(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


@lru_cache(maxsize=1)
def python_bundle() -> bytes:
    """The zip of :data:`BUNDLE_MODULES` from the package's source (fixed dates: the same
    source makes the same bytes, so the build id moves only when the code does)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for rel in BUNDLE_MODULES:
            info = zipfile.ZipInfo(f"cambio/{rel}", date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, (PACKAGE / rel).read_bytes())
    return out.getvalue()


def static_files() -> list[str]:
    """The client's files under ``web/`` that the service worker keeps (``static/…``)."""
    return sorted(p.relative_to(WEB).as_posix() for p in STATIC.rglob("*")
                  if p.is_file() and p.name != "sw.js" and "__pycache__" not in p.parts)


@lru_cache(maxsize=1)
def build_id() -> str:
    """A name for this client: the version and a hash of every file the worker caches."""
    digest = hashlib.sha256(python_bundle())
    for rel in [*static_files(), SOLO_PAGE, "manifest.json"]:
        digest.update(rel.encode())
        digest.update((WEB / rel).read_bytes())
    return f"{cambio.__version__}-{digest.hexdigest()[:12]}"


def engine_config(server: str | None = None) -> dict[str, Any]:
    """What the solo page reads first (``static/offline/engine.json``): where Pyodide and
    the Python bundle are, whether this host has Pyodide at all, and the multiplayer
    server to point to (``None``: this host is the server, or there is none)."""
    return {"build": build_id(), "pyodide": PYODIDE_PATH, "pyodide_version": PYODIDE_VERSION,
            "bundle": BUNDLE_PATH, "available": pyodide_dir() is not None, "server": server}


def service_worker(pages: list[str], fallback: str) -> str:
    """``sw.js`` for this build: its cache name, the files it keeps at install (relative to
    its own address) and the page it shows for a navigation when offline."""
    template = (STATIC / "offline" / "sw.js").read_text()
    shell = [*pages, "manifest.json", ENGINE_PATH, BUNDLE_PATH, *static_files()]
    return (template.replace("__BUILD__", json.dumps(build_id()))
            .replace("__SHELL__", json.dumps(shell))
            .replace("__FALLBACK__", json.dumps(fallback))
            .replace("__PYODIDE_FILES__", json.dumps(list(PYODIDE_FILES)))
            .replace("__PYODIDE__", json.dumps(PYODIDE_PATH)))


def write_static_site(out: Path, server: str | None = None) -> dict[str, int]:
    """``cambio build-web``: a folder any static host serves -- the solo lobby as
    ``index.html``, the client's files, Pyodide (fetched if needed), the Python bundle,
    the manifest and the service worker. Returns each part's size in bytes."""
    source = fetch_pyodide(quiet=True)
    out.mkdir(parents=True, exist_ok=True)
    if (out / "static").exists():
        shutil.rmtree(out / "static")
    shutil.copytree(STATIC, out / "static",
                    ignore=shutil.ignore_patterns("sw.js", "__pycache__"))
    engine = _made(out / PYODIDE_PATH)
    for name in PYODIDE_FILES:
        shutil.copyfile(source / name, engine / name)
    (out / BUNDLE_PATH).write_bytes(python_bundle())
    config = engine_config(server) | {"available": True}
    (out / ENGINE_PATH).write_text(json.dumps(config))
    (out / "index.html").write_text((WEB / SOLO_PAGE).read_text())
    shutil.copyfile(WEB / "manifest.json", out / "manifest.json")
    (out / "sw.js").write_text(service_worker(["./", "index.html"], "index.html"))
    return {"client": _size(out / "static") - _size(engine) - len(python_bundle()),
            "python": len(python_bundle()), "pyodide": _size(engine)}


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


__all__ = ["PYODIDE_FILES", "PYODIDE_VERSION", "PyodideError", "build_id", "engine_config",
           "fetch_pyodide", "pyodide_dir", "python_bundle", "service_worker",
           "write_static_site"]
