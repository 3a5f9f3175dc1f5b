"""The deal's first paint: from navigating to a card table's page to its first card drawn.

A real server (``python -m cambio.server``, the one on ``PYTHONPATH``) deals a quick-play
game against the Medium bot; Debian's chromium opens the table's page in a fresh context
each time (nothing cached: a first visit) holding the seat, and the page's own clock says
when the player's first card is in the document (polled every animation frame) and when the
browser first painted content (``first-contentful-paint``). Run it once per revision, the
server's sources chosen by ``PYTHONPATH``, in the same machine state:

    PYTHONPATH=src .venv/bin/python benchmarks/web_first_paint.py --repeat 7
    PYTHONPATH=/tmp/old/src .venv/bin/python benchmarks/web_first_paint.py --repeat 7
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import cast

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, Server

FIRST_CARD = ".cards-game[data-version] .seat.mine .card"
WHEN = f"() => document.querySelector({FIRST_CARD!r}) ? performance.now() : null"
FCP = ("() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime"
       " ?? null")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), "paint", "--seed", "3")
        try:
            quick = cast(dict[str, object], server.api("POST", "/api/quickplay", {"name": "Ann"}))
            table, token = str(quick["table"]), str(quick["token"])
            cards: list[float] = []
            paints: list[float] = []
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for _ in range(args.repeat):
                    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
                    page = ctx.new_page()
                    page.goto(server.base + "/static/favicon.svg")   # the origin, for the token
                    page.evaluate("([t, k]) => localStorage.setItem('cambio:token:' + t, k)",
                                  [table, token])
                    page.goto(f"{server.base}/t/{table}")
                    cards.append(float(page.wait_for_function(WHEN, polling="raf",
                                                              timeout=60_000).json_value()))
                    fcp = page.evaluate(FCP)
                    if fcp is not None:
                        paints.append(float(fcp))
                    ctx.close()
                browser.close()
        finally:
            server.stop()
    print(f"first card drawn: median {statistics.median(cards):.0f} ms "
          f"(min {min(cards):.0f}, max {max(cards):.0f}, {len(cards)} visits)")
    if paints:
        print(f"first contentful paint: median {statistics.median(paints):.0f} ms "
              f"(min {min(paints):.0f}, max {max(paints):.0f})")


if __name__ == "__main__":
    main()
