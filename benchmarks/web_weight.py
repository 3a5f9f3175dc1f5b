"""The table page's weight: the HTML, its stylesheets and every ES module it imports.

The browser client has no build step, so what a browser fetches for a card table is
``table.html``, the stylesheets it links and the transitive closure of ``table.js``'s static
imports, as they are on disk. This prints their count, their bytes and their gzipped bytes
(what a server that compresses sends), for the working tree or for a git revision:

    .venv/bin/python benchmarks/web_weight.py            # the working tree
    .venv/bin/python benchmarks/web_weight.py --rev main # a revision, for before/after
"""

from __future__ import annotations

import argparse
import gzip
import posixpath
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = "src/cambio/web"
IMPORT = re.compile(r"""^\s*(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']"""
                    r"""|^\s*import\s+["'](\.[^"']+)["']""", re.MULTILINE)
LINK = re.compile(r"""(?:href|src)="/(static/[^"]+\.(?:css|js))\"""")


def read(rev: str | None, path: str) -> bytes:
    """A file of the working tree, or of a git revision."""
    if rev is None:
        return (ROOT / path).read_bytes()
    return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True,
                          capture_output=True).stdout


def page_files(rev: str | None, page: str) -> dict[str, bytes]:
    """Every file the page loads before its first paint, by path under ``web/``."""
    files = {page: read(rev, f"{WEB}/{page}")}
    todo = LINK.findall(files[page].decode())
    while todo:
        path = todo.pop()
        if path in files:
            continue
        files[path] = read(rev, f"{WEB}/{path}")
        if path.endswith(".js"):
            base = posixpath.dirname(path)
            for a, b in IMPORT.findall(files[path].decode()):
                todo.append(posixpath.normpath(posixpath.join(base, a or b)))
    return files


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", help="a git revision (default: the working tree)")
    ap.add_argument("--page", default="table.html")
    ap.add_argument("--list", action="store_true", help="every file, largest first")
    args = ap.parse_args()
    files = page_files(args.rev, args.page)
    raw = sum(len(b) for b in files.values())
    zipped = sum(len(gzip.compress(b, 9)) for b in files.values())
    js = [p for p in files if p.endswith(".js")]
    print(f"{args.page} at {args.rev or 'the working tree'}: {len(files)} files "
          f"({len(js)} modules), {raw / 1000:.1f} kB, {zipped / 1000:.1f} kB gzipped")
    if args.list:
        for path, body in sorted(files.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(body):>7}  {path}")


if __name__ == "__main__":
    main()
