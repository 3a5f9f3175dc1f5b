"""Draw the app's PNG icons (``web/static/icons/``) from ``favicon.svg`` with chromium.

The manifest names them: 192 and 512 px (``purpose: any``, the card on the table's green),
and a 512 px maskable one whose card keeps inside the middle 60 % (the safe zone a round
or squircle mask leaves). Run again after changing the favicon:
``.venv/bin/python scripts/make_icons.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

WEB = Path(__file__).resolve().parent.parent / "src" / "cambio" / "web" / "static"
FELT = "#0f3d2e"
ICONS = {"icon-192.png": (192, 0.86, 0.2), "icon-512.png": (512, 0.86, 0.2),
         "maskable-512.png": (512, 0.6, 0.0)}
"""name: (size in px, the card's share of it, the corner radius's share)."""


def page(svg: str, size: int, share: float, radius: float) -> str:
    inner = round(size * share)
    sized = svg.replace("<svg ", '<svg width="100%" height="100%" ')
    return (f"<html><body style='margin:0'><div style='width:{size}px;height:{size}px;"
            f"background:{FELT};border-radius:{round(size * radius)}px;display:flex;"
            f"align-items:center;justify-content:center'><div style='width:{inner}px;"
            f"height:{inner}px'>{sized}"
            "</div></div></body></html>")


def main() -> None:
    svg = (WEB / "favicon.svg").read_text()
    out = WEB / "icons"
    out.mkdir(exist_ok=True)
    chromium = os.environ.get("CAMBIO_CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for name, (size, share, radius) in ICONS.items():
            tab = browser.new_page(viewport={"width": size, "height": size})
            tab.set_content(page(svg, size, share, radius))
            tab.screenshot(path=str(out / name), omit_background=True,
                           clip={"x": 0, "y": 0, "width": size, "height": size})
            tab.close()
        browser.close()
    for name in ICONS:
        print(name, (out / name).stat().st_size, "bytes")


if __name__ == "__main__":
    main()
