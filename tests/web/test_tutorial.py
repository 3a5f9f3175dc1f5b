"""The card game's first-game tutorial: "Learn to play" in the lobby
starts a guided round on the server's scripted deal against the tutor bot. Following only
what the guidance outlines plays the whole game to its end: the opening peek, a drawn card
swapped in with the card values, a snap of your own card, every power (a peek at your card
and at the bot's, a switch, the king's look and switch), a snap of the bot's card and the
give, a wrong snap and its penalty, calling Cambio; each is explained when it comes up, in
a status line that shows all of its words. It can be skipped, and started again from the
lobby (the same deal)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import Server
from .driver import SIZES, new_page, seen, wait_for_game

MARKS_JS = """() => [...document.querySelectorAll('.cards-game .hinted')].map(
  (e) => e.dataset.addr || e.dataset.action || e.id)"""
"""What the guidance outlines: card addresses, button actions, "deck", "pile"."""

OUT_OF_SIGHT_JS = """() => [...document.querySelectorAll('.cards-game .hinted, #status')]
  .filter((e) => { const r = e.getBoundingClientRect();
    return r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1; })
  .map((e) => e.dataset.addr || e.dataset.action || e.id)"""
"""What the guidance points at, or says, that is not on the screen (the page at its top)."""

CLIPPED_JS = """() => { const s = document.getElementById('status');
  return s.scrollHeight > s.clientHeight + 1 || s.scrollWidth > s.clientWidth + 1; }"""


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Bots at the pace a newcomer meets (a snap window lasts while the bot thinks)."""
    srv = Server(tmp_path_factory.mktemp("web"), "tutorial", "--seed", "3",
                 "--bot-speed", "2", "--away-after", "120")
    yield srv
    srv.stop()


def coach(page: Page) -> str:
    return page.locator("#coach-text").text_content() or ""


def wait_coach(page: Page, words: str) -> None:
    try:
        page.wait_for_function("(w) => { const c = document.getElementById('coach-text');"
                               " return c && c.textContent.includes(w); }", arg=words)
    except PlaywrightTimeout:
        pytest.fail(f"the tip never said {words!r}; it says {coach(page)!r}")


def marks(page: Page) -> list[str]:
    got: list[str] = page.evaluate(MARKS_JS)
    return got


TIPS_JS = """() => {
  window.cambioTips = [];
  const note = () => {
    const el = document.getElementById('coach-text');
    const text = el ? el.textContent || '' : '';
    const tips = window.cambioTips;
    if (text && tips[tips.length - 1] !== text) tips.push(text);
  };
  new MutationObserver(note).observe(document.body,
    { subtree: true, childList: true, characterData: true });
  note();
}"""


def follow(page: Page, said: list[str]) -> None:
    """One step of doing what the guidance outlines (waits while nothing is outlined)."""
    # The words and what they outline, read at one moment (the bot plays meanwhile).
    text, marked = page.evaluate(f"() => [(document.getElementById('coach-text') || {{}})"
                                 f".textContent || '', ({MARKS_JS})()]")
    if text and (not said or said[-1] != text):
        said.append(text)
        assert not page.evaluate(CLIPPED_JS), f"the tip is cut off: {text}"
        page.evaluate("() => window.scrollTo(0, 0)")
        hidden = page.evaluate(OUT_OF_SIGHT_JS)
        assert not hidden, f"{hidden} out of sight: {text}"
    buttons = [m for m in marked if page.locator(f".actions button[data-action='{m}']").count()]
    cards = [m for m in marked if "." in m and page.locator(
        f".card[data-addr='{m}']:not(.selected):not([disabled])").count()]
    # What was outlined a moment ago may be taken meanwhile (a snap sent, waiting for the
    # server's answer, disables its card; the bot moved): then look again next step.
    with contextlib.suppress(PlaywrightTimeout):
        if cards and "snap-mode" in marked:
            page.click(f".card[data-addr='{cards[0]}']", timeout=5000)  # a snap: the card
        elif buttons:
            button = page.locator(f".actions button[data-action='{buttons[0]}']")
            button.click(timeout=5000)
            if buttons[0] == "cambio":                               # a second tap confirms
                page.locator(".actions button[data-action='cambio']").click(timeout=5000)
        elif cards:
            page.click(f".card[data-addr='{cards[0]}']", timeout=5000)
    page.wait_for_timeout(150)


@pytest.mark.parametrize("size", list(SIZES))
def test_learn_to_play_guides_a_fixed_round_to_its_end(browser: Browser, slow_server: Server,
                                                       size: str) -> None:
    ctx, page = new_page(browser, SIZES[size])
    try:
        page.goto(slow_server.base + "/")
        page.fill("#name", "Ann")
        page.click("#tutorial")
        page.wait_for_url("**/t/*")
        first = page.url
        wait_for_game(page)
        summary = slow_server.api("GET", "/api/tables/" + first.rsplit("/", 1)[1])
        assert isinstance(summary, dict)
        assert [s["bot"] for s in summary["seats"]] == [None, "tutor"]
        assert summary["private"] is True and summary["clock"] is None
        assert summary["tutorial"] is True
        # The fixed deal: every newcomer sees the same two cards, and is shown where to go.
        wait_coach(page, "card 3 is the Q♣, card 4 is the 3♦")
        assert {"draw", "deck"} <= set(marks(page))
        said: list[str] = []
        # Every tip the page shows, as it shows it: follow() reads the tip between its taps,
        # and on a loaded machine a tip can come and go between two reads.
        page.evaluate(TIPS_JS)
        follow(page, said)                                       # Draw
        wait_coach(page, "Points: A 0, 2–10 as shown, J 11, Q 12, K♠♣ 20, K♥♦ -1.")
        assert "The 2♣ (2) beats your card 3 (the Q♣, 12)" in coach(page)
        assert set(marks(page)) == {"0.2"}
        for _ in range(400):
            if seen(page).phase == "round_over":
                break
            follow(page, said)
        else:
            pytest.fail(f"following the guidance did not end the round: {said}")
        wait_coach(page, "You won the round!")
        joined = "\n".join(said + page.evaluate("() => window.cambioTips"))
        for taught in ["Snap! The pile's 3♣ matches your card 4 (the 3♦)",
                       "The 8♥ is a power card", "Power: tap a card of yours you have not seen",
                       "The 10♥ is a power card", "outlined card to peek at it",
                       "Snap! The pile's 4♣ matches", "(the 4♦), which you peeked at",
                       "A right snap of", "Power: switch two cards, unseen",
                       "See what a wrong snap costs", "Wrong: it was the",
                       "The king: tap any two cards", "Call Cambio (tap it twice)"]:
            # Every tip and the round's log in full when one is missing (a tuple's repr is
            # cut short, and a round that went another way shows in its log).
            assert taught in joined, (f"never shown: {taught!r}\ntips:\n{joined}\nlog:\n"
                                      + (page.locator(".log").text_content() or ""))
        log = page.locator(".log").text_content() or ""
        for done in ["You snapped your own card 4", "gave your card", "wrong, penalty card",
                     "You switched", "You looked at", "You called Cambio"]:
            assert done in log or done.replace("your own", "your") in log, (done, log)

        # Replayed from the lobby: a new table, the same deal; × skips, for good.
        page.goto(slow_server.base + "/")
        page.click("#tutorial")
        page.wait_for_url(lambda url: url != first and "/t/" in url)
        wait_for_game(page)
        wait_coach(page, "card 3 is the Q♣, card 4 is the 3♦")
        page.click("#coach-skip")
        assert page.locator("#coach-text").count() == 0
        assert not page.locator(".cards-game .hinted").count()
        assert "Your turn" in (page.locator("#status").text_content() or "")
        page.reload()
        wait_for_game(page)
        page.wait_for_selector("#status")
        assert page.locator("#coach-text").count() == 0
    finally:
        ctx.close()
