"""Take the screenshots of docs/web.md: a real server, Debian's chromium, real games.

    .venv/bin/python scripts/web_screenshots.py [OUT_DIR]      # default: docs/img

Starts ``python -m cambio.server`` on a free port with a temporary database and a fixed
seed, plays through the pages with the browser tests' driver, and writes small PNGs.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402
from tests.web.driver import play_until, read, seen, step, wait_for_game  # noqa: E402

DESKTOP = {"width": 1180, "height": 760}
PHONE = {"width": 390, "height": 844}


def shot(page: Page, out: Path, name: str, full: bool = False) -> None:
    """A screenshot, reduced to a 256-colour palette so that the docs stay small (96 merged
    the score chart's blue and green lines into one colour)."""
    page.wait_for_timeout(350)        # let the last animation settle
    path = out / name
    page.screenshot(path=str(path), full_page=full)
    image = Image.open(path).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                   dither=Image.Dither.NONE).save(path, optimize=True)
    print(f"{path}: {path.stat().st_size // 1024} KiB")


def lobby_and_table(page: Page, srv: Server, out: Path) -> str:
    page.goto(srv.base + "/")
    page.fill("#name", "Ann")
    page.wait_for_selector(".rule-row", state="attached")
    page.select_option("#players", "3")
    page.select_option("#rounds", "2")
    page.fill("#table-name", "Friday cards")
    page.click("details.house summary")
    page.check("#rule-lock_caller")
    page.evaluate("scrollTo(0, 0)")
    shot(page, out, "lobby.png", full=True)
    page.click("details.house summary")
    page.click("#create")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".seats-panel")
    page.click('.seat-row[data-seat="1"] .add-bot')
    page.wait_for_selector('.seat-row[data-seat="1"][data-kind="bot"]')
    shot(page, out, "waiting-room.png")
    return page.url.rsplit("/", 1)[1]


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "img"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        srv = Server(Path(tmp), "shots", "--seed", "4", "--bot-speed", "3",
                     "--round-pause", "15", "--away-after", "300")
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            # --- lobby, waiting room, a card table with a power to resolve
            # Reduced motion in every context: a still must not catch a card in flight.
            ctx = browser.new_context(reduced_motion="reduce", viewport=DESKTOP)  # type: ignore[arg-type]
            page = ctx.new_page()
            table = lobby_and_table(page, srv, out)
            page.select_option("#fill-bot", "random")
            page.click("#start")
            wait_for_game(page)
            page.wait_for_timeout(200)
            shot(page, out, "cards-opening-peek.png")
            watcher = browser.new_context(reduced_motion="reduce", viewport=DESKTOP)  # type: ignore[arg-type]
            spectator = watcher.new_page()
            spectator.goto(f"{srv.base}/t/{table}")
            spectator.wait_for_selector("#spectating")
            page.wait_for_selector("#chat-input")
            page.fill("#chat-input", "Good luck, bots!")
            page.click("#chat-send")
            page.wait_for_selector("#chat-lines .chat-text")
            # Play until a power asks for a target, then pick the first one.
            for _ in range(60):
                play_until({"ann": page}, lambda: seen(page).my_move)
                s = seen(page)
                if s.phase == "power" and s.targets:
                    page.click(f'.cards-game .card[data-addr="{s.targets[0]}"]')
                    shot(page, out, "cards-power.png")
                    break
                step(page, swap=False)
            shot(spectator, out, "spectator.png")
            play_until({"ann": page}, lambda: seen(page).phase == "round_over", call_after=4)
            page.wait_for_selector("#results")
            shot(page, out, "cards-reveal.png", full=True)
            # The second round of the match, then the match-over screen.
            page.wait_for_selector('.cards-game[data-round="2"]:not([data-phase="round_over"])',
                                   timeout=60_000)
            play_until({"ann": page}, lambda: seen(page).phase == "round_over", call_after=2)
            page.wait_for_selector(".match-over")
            page.locator(".match-over").scroll_into_view_if_needed()
            shot(page, out, "cards-match-over.png")
            page.goto(f"{srv.base}/rules?table={table}")
            page.wait_for_selector(".rules-table")
            shot(page, out, "rules.png")
            page.goto(f"{srv.base}/r/{table}?round=1")
            page.wait_for_selector("#replay-step")
            for _ in range(6):
                page.click("#replay-next")
            shot(page, out, "replay.png")
            ctx.close()
            watcher.close()

            # --- a phone
            phone = browser.new_context(reduced_motion="reduce", viewport=PHONE, has_touch=True,  # type: ignore[arg-type]
                                        is_mobile=True, device_scale_factor=1)
            page = phone.new_page()
            page.goto(srv.base + "/")
            page.locator("#name").fill("Pia")
            page.wait_for_selector(".rule-row", state="attached")
            shot(page, out, "phone-lobby.png")
            page.locator("#create").tap()
            page.wait_for_selector(".seats-panel")
            page.locator("#start").tap()
            wait_for_game(page)
            play_until({"ann": page}, lambda: (seen(page).version >= 6 and seen(page).my_move),
                       touch=True)
            if "draw" in seen(page).actions:
                step(page, touch=True)
            shot(page, out, "phone-cards.png")
            # A hint (assist mode): in the status line, its card outlined on the table.
            if seen(page).my_move:
                page.locator("#assist").tap()
                page.locator("#hint").tap()
                page.wait_for_selector("#hint-text")
                shot(page, out, "phone-hint.png")

            # --- the board game: the full setup, then play, on a phone and a laptop
            page.goto(srv.base + "/")
            page.locator("label[for=game-board]").tap()
            page.locator("label[for=setup-full]").tap()
            page.locator("#create").tap()
            page.wait_for_selector(".seats-panel")
            page.locator("#start").tap()
            page.wait_for_selector(".board-game[data-version]")
            page.wait_for_selector(".die.pickable")
            shot(page, out, "phone-board-setup.png")

            # The deal of a 4-player table with the (default) 1-minute clock: it all fits.
            page.goto(srv.base + "/")
            page.locator("label[for=game-cards]").tap()
            page.wait_for_selector(".rule-row", state="attached")
            page.select_option("#players", "4")
            page.locator("#create").tap()
            page.wait_for_selector(".seats-panel")
            page.locator("#start").tap()
            wait_for_game(page)
            page.wait_for_selector("#turn-clock")
            shot(page, out, "phone-deal-4-clock.png")

            # The first-game tutorial: "Learn to play" on its scripted deal, its first tip
            # (Draw and the deck outlined), then the first card drawn, with the card values.
            page.goto(srv.base + "/")
            page.locator("#tutorial").tap()
            page.wait_for_url("**/t/*")
            wait_for_game(page)
            page.wait_for_selector("#coach-text")
            shot(page, out, "phone-tutorial.png")
            page.locator(".actions button.hinted[data-action='draw']").tap()
            page.wait_for_selector("#coach-text:has-text('Points:')")
            shot(page, out, "phone-tutorial-power.png")

            # The dice tutorial: its first tip and the arrow it points at.
            page.goto(srv.base + "/")
            page.locator("#tutorial-dice").tap()
            page.wait_for_url("**/t/*")
            page.wait_for_selector(".arrow.hinted")
            shot(page, out, "phone-tutorial-dice.png")

            phone.close()

            ctx = browser.new_context(reduced_motion="reduce", viewport=DESKTOP)  # type: ignore[arg-type]
            page = ctx.new_page()
            page.goto(srv.base + "/")
            page.fill("#name", "Ann")
            page.click("label[for=game-board]")
            page.click("#create")
            page.wait_for_selector(".seats-panel")
            page.select_option("#fill-bot", "greedy")
            page.click("#start")
            page.wait_for_selector(".board-game[data-version]")
            moves = 0
            while moves < 40:
                page.wait_for_function(
                    "() => { const r = document.querySelector('.board-game');"
                    " return r.dataset.over === '1' || r.dataset.actor === r.dataset.me; }")
                if page.get_attribute(".board-game", "data-over") == "1":
                    break
                if moves == 3:
                    shot(page, out, "board.png")
                v = int(page.get_attribute(".board-game", "data-version") or 0)
                arrows = page.locator(".arrow:not(:disabled)")
                arrows.nth(moves * 7 % arrows.count()).click()
                page.wait_for_function(
                    "(v) => Number(document.querySelector('.board-game').dataset.version) > v",
                    arg=v)
                moves += 1
            if page.get_attribute(".board-game", "data-over") == "1":
                shot(page, out, "board-end.png")
            ctx.close()
            assert read is not None
        finally:
            browser.close()
            srv.stop()


if __name__ == "__main__":
    main()
