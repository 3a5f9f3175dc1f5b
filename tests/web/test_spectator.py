"""A spectator watches a whole card round and never holds a card they were not shown.

Three seats, all played by bots (the host's seat is handed to a bot once nobody is
connected for it), watched from a browser with no seat token. Every time the spectator's
page changes, the test notes every card code in its DOM -- on the table, in the log, in any
text -- with the table version the page was showing. Afterwards the round's full record is
replayed through the engine to get the public view at every version, and each noted code
must be one that view holds: the same card in the same slot, the top of the same pile, or
a card shown to everyone by then.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser

from cambio.cards import EMPTY, HIDDEN, card_code, parse_action
from cambio.records.cards import state_from_header
from cambio.records.jsonl import parse_record

from ..cards.oracle import Oracle
from .conftest import Server
from .driver import new_page

OBSERVER_JS = """
(() => {
  window.__snaps = [];
  const TEXT = /(10|[A2-9JQK])([\\u2663\\u2666\\u2665\\u2660])|(red|black) joker/g;
  const SUIT = {'\\u2663': 'C', '\\u2666': 'D', '\\u2665': 'H', '\\u2660': 'S'};
  let last = '';
  const take = () => {
    const root = document.querySelector('.cards-game');
    if (!root) return;
    const items = [];
    for (const el of document.querySelectorAll('[data-code]')) {
      let where = 'other';
      if (el.dataset.addr) where = 'slot ' + el.dataset.addr;
      else if (el.id === 'held') where = 'held';
      else if (el.id === 'pile') where = 'pile';
      else if (el.classList.contains('under')) where = 'under';
      else if (el.closest('.log-list')) where = 'log';
      items.push([where, el.dataset.code]);
    }
    for (const m of document.body.innerText.matchAll(TEXT)) {
      const code = m[3] ? (m[3] === 'red' ? 'XR' : 'XB')
        : (m[1] === '10' ? 'T' : m[1]) + SUIT[m[2]];
      items.push(['text', code]);
    }
    const snap = {version: Number(root.dataset.version), phase: root.dataset.phase,
                  downs: root.querySelectorAll('.seat .card.down').length, items};
    const key = JSON.stringify(snap);
    if (key !== last) { last = key; window.__snaps.push(snap); }
  };
  new MutationObserver(take).observe(document, {subtree: true, childList: true,
                                                attributes: true, characterData: true});
})();
"""


def public_views(record_text: str) -> list[dict[str, Any]]:
    """What a spectator may see after each version of the round, from the full record: the
    grids and held card by the independent view oracle (``tests/cards/oracle.py``, not
    ``observe()``), and the discard pile, which is face up."""
    record = parse_record(record_text)
    state = state_from_header(record.header)
    oracle = Oracle.deal(state)

    def public() -> dict[str, Any]:
        def code(c: int) -> str | None:
            return None if c == EMPTY else "?" if c == HIDDEN else card_code(c)

        return {"grids": [[code(c) for c in g] for g in oracle.grids(state, None)],
                "held": code(oracle.held(state, None)),
                "discard": [card_code(c) for c in state.pile]}

    views = [public()]
    for ev in record.events:
        if "action" in ev:
            before = state.clone()
            played = state.play(parse_action(ev["action"]), ev["seat"])
            oracle.apply(before, ev["seat"], played, state)
            views.append(public())
    assert state.is_over()
    return views


def codes_of(view: dict[str, Any]) -> set[str]:
    out = {c for g in view["grids"] for c in g if c not in (None, "?")}
    out.update(view["discard"])
    if view["held"] not in (None, "?"):
        out.add(view["held"])
    return out


def test_a_spectator_never_sees_a_card_the_public_view_does_not_hold(
        browser: Browser, bots_server: Server) -> None:
    srv = bots_server
    made = srv.api("POST", "/api/tables", {"game": "cards", "players": 3, "name": "Host",
                                          "rules": {"preset": "rulebook", "overrides": {}},
                                          "rounds": 1})
    assert isinstance(made, dict)
    table, token = made["table"], made["token"]
    srv.api("PUT", f"/api/tables/{table}/seats/1/bot", {"bot": "memory"}, token)
    srv.api("PUT", f"/api/tables/{table}/seats/2/bot", {"bot": "random"}, token)

    ctx, page = new_page(browser, {"viewport": {"width": 1280, "height": 860}}, OBSERVER_JS)
    page.goto(f"{srv.base}/t/{table}")
    page.wait_for_selector("#spectating")
    assert page.locator(".seats-panel").count() == 1
    assert page.locator("#start").count() == 0            # only the host can start
    srv.api("POST", f"/api/tables/{table}/start", {}, token)
    page.wait_for_selector(".cards-game[data-phase]")
    page.wait_for_selector('.cards-game[data-phase="round_over"]', timeout=120_000)
    assert page.locator(".cards-game .actions button").count() == 0
    assert page.locator("#assist").count() == 0
    assert page.locator("#spectating").is_visible()

    snaps: list[dict[str, Any]] = page.evaluate("window.__snaps")
    record = srv.finished_record(table)
    views = public_views(record)
    final = len(views) - 1
    seen_so_far: list[set[str]] = []
    acc: set[str] = set()
    for public in views:
        acc |= codes_of(public)
        seen_so_far.append(set(acc))

    checked = 0
    for snap in snaps:
        v = final if snap["phase"] == "round_over" else snap["version"]
        assert 0 <= v <= final
        view = views[v]
        for where, code in snap["items"]:
            checked += 1
            if where.startswith("slot "):
                s, i = map(int, where.split()[1].split("."))
                assert view["grids"][s][i] == code, \
                    f"version {v}: the page shows {code} at {s}.{i}, the public view holds " \
                    f"{view['grids'][s][i]}"
            elif where == "held":
                assert view["held"] == code, f"version {v}: held {code} is not public"
            elif where == "pile":
                assert view["discard"] and view["discard"][-1] == code
            elif where == "under":
                assert len(view["discard"]) > 1 and view["discard"][-2] == code
            elif where in ("log", "text"):
                assert code in seen_so_far[v], \
                    f"version {v}: {code} appears in the page's {where} before it was shown"
            else:
                raise AssertionError(f"a card code outside the table and log: {where} {code}")
    # The check was not vacuous: the round was watched while cards were face down, cards
    # were shown (the pile, the reveal), and the last page is the reveal of the record.
    assert checked > 20
    assert any(s["downs"] > 0 and s["phase"] != "round_over" for s in snaps)
    assert snaps[-1]["phase"] == "round_over"
    revealed = {w: c for w, c in snaps[-1]["items"] if w.startswith("slot ")}
    expected = {f"slot {s}.{i}": c for s, g in enumerate(views[-1]["grids"])
                for i, c in enumerate(g) if c is not None}
    assert revealed == expected
    ctx.close()
