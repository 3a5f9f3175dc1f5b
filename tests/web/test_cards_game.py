"""Two people at one card table, each in their own browser: the whole round, in the page.

Ann creates a `house` table in the lobby, Bo opens the invite link and joins, Ann starts.
They play through the page (the driver taps what the page offers): the opening peek shows
and hides again, assist mode keeps seen cards up, both snap the same top card at the same
moment (the server decides, both pages show the same outcome), Bo reloads the page mid-game
and gets his seat back, Ann calls Cambio, and both pages show the same reveal, which is the
one in the server's record. Then the replay viewer steps through the finished round.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, Page, ViewportSize

from .conftest import Server
from .driver import GAME, card, new_page, play_until, seen, wait_for_game
from .frames import Frames, wait_until

DESKTOP: ViewportSize = {"width": 1280, "height": 860}

GRID_JS = """() => {
  const out = {};
  for (const seat of document.querySelectorAll('.cards-game .seat[data-seat]')) {
    out[seat.dataset.seat] = [...seat.querySelectorAll('.card[data-addr]')].map(
      (c) => c.classList.contains('empty') ? null : (c.dataset.code || '?'));
  }
  return out;
}"""


WATCH_JS = """() => {
  // What the table shows each time it is redrawn: the snap lines in the log, the banner.
  const root = document.querySelector('.cards-game');
  const base = [...root.querySelectorAll('.log-list li')]
    .filter((li) => li.textContent.includes('snapped')).length;
  window.seenBanners = [];
  new MutationObserver(() => {
    const snaps = [...root.querySelectorAll('.log-list li')]
      .filter((li) => li.textContent.includes('snapped')).length - base;
    const b = root.querySelector('.banner');
    window.seenBanners.push({snaps, banner: b ? b.textContent : null});
  }).observe(root, {subtree: true, childList: true, characterData: true});
}"""
"""Records, at every change of the table, how many snaps of the race the log holds and which
banner shows (the second snapper's banner replaced the first's at once)."""


def grids(page: Page) -> dict[str, list[str | None]]:
    result: dict[str, list[str | None]] = page.evaluate(GRID_JS)
    return result


def create_table(page: Page, server: Server, name: str) -> str:
    page.goto(server.base + "/")
    page.fill("#name", name)
    page.wait_for_selector(".rule-row", state="attached")   # the rules form has loaded
    page.check("#preset-house")
    page.click("#create")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".seats-panel")
    return page.url.rsplit("/", 1)[1]


def test_two_players_play_a_card_round_in_their_browsers(browser: Browser, server: Server
                                                         ) -> None:
    _, ann = new_page(browser, {"viewport": DESKTOP})
    _, bo = new_page(browser, {"viewport": DESKTOP})
    ann_frames = Frames().watch(ann)
    bo_frames = Frames().watch(bo)

    # --- the lobby, the invite link, joining, starting
    table = create_table(ann, server, "Ann")
    invite = ann.input_value("#invite")
    assert invite.endswith(f"/t/{table}")
    assert ann.evaluate(f"localStorage.getItem('cambio:token:{table}')")
    bo.goto(invite)
    bo.fill("#join-name", "Bo")
    bo.click("#join")
    bo.wait_for_selector('.seat-row[data-seat="1"] .tag.you')
    assert bo.evaluate(f"localStorage.getItem('cambio:token:{table}')")
    ann.wait_for_selector('.seat-row[data-seat="1"]:has-text("Bo")')
    ann.click("#start")
    wait_for_game(ann)
    wait_for_game(bo)
    assert seen(ann).me == "0"
    assert seen(bo).me == "1"

    # --- the opening peek: the two bottom cards show, the top ones never; then all hide
    mine = [card(f"0.{i}") for i in range(4)]
    assert ann.get_attribute(mine[2], "data-code")
    assert ann.get_attribute(mine[3], "data-code")
    assert ann.get_attribute(mine[0], "data-code") is None
    assert ann.get_attribute(mine[1], "data-code") is None
    peeked = (ann.get_attribute(mine[2], "data-code"), ann.get_attribute(mine[3], "data-code"))
    # Bo never sees Ann's cards, and Ann never sees Bo's.
    assert all(c == "?" for c in grids(bo)["0"])
    assert all(c == "?" for c in grids(ann)["1"])
    ann.wait_for_function(
        "() => !document.querySelector('.cards-game .card[data-addr=\"0.2\"]').dataset.code",
        timeout=15_000)
    assert grids(ann)["0"] == ["?", "?", "?", "?"]
    # Assist mode keeps what was seen face up; off again, it is hidden again.
    ann.check("#assist")
    assert (ann.get_attribute(mine[2], "data-code"), ann.get_attribute(mine[3], "data-code")) \
        == peeked
    ann.uncheck("#assist")
    assert grids(ann)["0"] == ["?", "?", "?", "?"]

    # --- a few moves, until Ann has discarded and it is Bo's turn with a card to snap
    pages = {"ann": ann, "bo": bo}

    def race_ready() -> bool:
        a, b = seen(ann), seen(bo)
        return (a.actor == "1" and a.phase == "turn_start" and a.version == b.version
                and "1.0" in a.snappable and "1.0" in b.snappable)

    play_until(pages, race_ready)

    # --- the snap race: both tap Bo's first card at the same instant
    v = seen(ann).version
    for page in (ann, bo):
        page.evaluate(WATCH_JS)
    # Each page wakes up a little early and spins until the agreed millisecond, so neither
    # can hear of the other's snap before its own tap is sent.
    at = ann.evaluate("Date.now() + 400")
    arm = """([sel, at]) => setTimeout(() => {
               while (Date.now() < at) { /* spin: no message is handled meanwhile */ }
               document.querySelector(sel).click();
             }, at - Date.now() - 40)"""
    ann.evaluate(arm, [card("1.0"), at])
    bo.evaluate(arm, [card("1.0"), at])
    ann.wait_for_function("(v) => Number(document.querySelector('.cards-game').dataset.version)"
                          " > v", arg=v)

    def snaps_sent(frames: Frames) -> list[dict[str, Any]]:
        return [m for m in frames.acts() if m["action"] == "snap 1.0"]

    # The test hears of each page's frames a little after they leave: wait for both.
    wait_until(bo, lambda: bool(snaps_sent(ann_frames) and snaps_sent(bo_frames)),
               "both pages send their snap")
    ann_snap, bo_snap = snaps_sent(ann_frames), snaps_sent(bo_frames)
    assert len(ann_snap) == 1 and len(bo_snap) == 1
    # Both were aimed at the same table: the same version, the same top card.
    assert ann_snap[0]["version"] == bo_snap[0]["version"] == v

    def snap_results(frames: Frames) -> list[dict[str, Any]]:
        return [e for e in frames.events() if e["action"] == "snap 1.0" and e["v"] > v]

    # The server judged them in arrival order; each snapper hears back exactly once.
    def settled() -> bool:
        """Both pages have heard every answer: two snaps accepted, or one and one refusal."""
        for heard in (ann_frames, bo_frames):
            answered = 0
            for me, own, sent in ((0, ann_frames, ann_snap[0]), (1, bo_frames, bo_snap[0])):
                got = [e for e in snap_results(heard) if e["seat"] == me]
                errors = [m for m in own.of_type("error") if m.get("ref") == sent["ref"]]
                answered += len(got) + len(errors)
            if answered != 2:
                return False
        return True

    wait_until(ann, settled, "each snap gets an answer: accepted (for everyone) or refused")
    results = snap_results(ann_frames)
    first = results[0]
    assert first["card"]                      # the card turned over is shown to everyone
    assert [(e["seat"], e["right"], e["card"]) for e in snap_results(bo_frames)] == \
        [(e["seat"], e["right"], e["card"]) for e in results]
    print(f"snap race: seat {first['seat']} first, {'right' if first['right'] else 'wrong'}")
    loser = 1 - first["seat"]
    loser_ref = (bo_snap if loser == 1 else ann_snap)[0]["ref"]
    loser_frames = bo_frames if loser == 1 else ann_frames
    refused = [m for m in loser_frames.of_type("error") if m.get("ref") == loser_ref]
    if first["right"]:
        # The card left the grid: the later snap found an empty slot (or a give under way)
        # and was refused, without a penalty. The loser reads who was first, not the
        # engine's reason.
        assert len(results) == 1 and len(refused) == 1, (results, refused)
        assert refused[0]["code"] == "illegal"
        loser_page = bo if loser == 1 else ann
        loser_page.wait_for_selector(".toast:has-text('Too late')")
        toasts = loser_page.locator(".toast").all_inner_texts()
        assert not [t for t in toasts if "slot" in t or "may be snapped" in t], toasts
    else:
        # The card went back face down: the later snap was judged on the same top card,
        # wrong as well; each snapper took a penalty card.
        assert len(results) == 2 and not refused, (results, ann_frames.acts(), bo_frames.acts())
        assert results[1]["seat"] == loser and results[1]["right"] is False
        # The second banner waits: when the second snap is drawn, the first's still shows.
        for page in (ann, bo):
            page.wait_for_function("() => window.seenBanners.some((x) => x.snaps >= 2)")
            seen_banners: list[dict[str, Any]] = page.evaluate("window.seenBanners")
            at_second = next(x for x in seen_banners if x["snaps"] >= 2)
            first_banner = next(x for x in seen_banners if x["snaps"] == 1)["banner"]
            assert first_banner and at_second["banner"] == first_banner, seen_banners
    # Both pages show the outcome in their log, word for word.
    for page in (ann, bo):
        page.wait_for_selector(f"{GAME} .log-list li:has-text('snapped')")
    ann_log = ann.locator(".log-list li").all_inner_texts()
    bo_log = bo.locator(".log-list li").all_inner_texts()
    assert [x for x in ann_log if "snapped Bo's card 1" in x or "snapped your card 1" in x]
    assert len([x for x in ann_log if "snapped" in x]) == len([x for x in bo_log if "snapped" in x])

    # --- a few more moves, then Bo reloads mid-game and gets his seat back
    target = seen(ann).version + 3
    play_until(pages, lambda: seen(ann).version >= target and seen(ann).actor == "0")
    before = grids(bo)
    bo.reload()
    wait_for_game(bo)
    bo.wait_for_function(
        "(v) => Number(document.querySelector('.cards-game').dataset.version) >= v",
        arg=seen(ann).version)
    assert seen(bo).me == "1"
    assert "Bo" in bo.inner_text(".badge.you")
    assert bo.locator(".badge.spectating").count() == 0
    after = grids(bo)
    assert {k: len(g) for k, g in after.items()} == {k: len(g) for k, g in before.items()}
    assert all(c is None or c == "?" for g in after.values() for c in g), \
        "after a reload, seen cards stay hidden (no flash of what was remembered)"

    # --- Ann calls Cambio; Bo's last turn; the reveal
    play_until(pages, lambda: seen(ann).phase == "round_over" and seen(bo).phase == "round_over",
               call_after=0)
    assert any(m["action"] == "cambio" for m in ann_frames.acts())
    for page in (ann, bo):
        page.wait_for_selector("#results")
    reveal_a, reveal_b = grids(ann), grids(bo)
    assert reveal_a == reveal_b
    assert all(c != "?" for g in reveal_a.values() for c in g), "the reveal shows every card"
    record = server.finished_record(table)
    lines = [json.loads(x) for x in record.splitlines() if x.strip()]
    end = lines[-1]["end"]
    assert [reveal_a[str(s)] for s in range(2)] == end["grids"]
    score_cells = ann.locator("#results tbody tr td:nth-child(3)").all_inner_texts()
    assert [int(x) for x in score_cells] == end["scores"]
    # Every action either page sent came from what the page offered, and the server took
    # only legal ones: the record replays.
    from cambio.records.cards import replay
    from cambio.records.jsonl import parse_record

    replay(parse_record(record))
    # The host may start again; the guest may not.
    assert ann.locator("#again").count() == 1
    assert bo.locator("#again").count() == 0

    # --- the replay viewer steps through the same round
    ann.click("#replay-link")
    ann.wait_for_url(f"**/r/{table}*")
    ann.wait_for_selector("#replay-step")
    assert ann.inner_text("#replay-step").startswith("0 /")
    total = int(ann.inner_text("#replay-step").split("/")[1])
    assert total == len(lines) - 2            # step 0 is the deal, then one step an event
    ann.click("#replay-next")
    assert ann.inner_text("#replay-step").startswith("1 /")
    ann.click("#replay-prev")
    assert ann.inner_text("#replay-step").startswith("0 /")
    ann.click("#replay-last")
    replayed = grids(ann)
    assert [replayed[str(s)] for s in range(2)] == end["grids"]
    ann.context.close()
    bo.context.close()
