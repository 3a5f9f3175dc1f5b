"""Every tutorial tip fits its line, in every language: a German or French tip is longer
than its English one, and the coach line shows three lines on a laptop, four on a phone
(line-clamped: a longer tip would be cut off mid-sentence). On a real tutorial table of each
game, at each size of the layout fit test, each tip of that game is put in the line with the
longest words it is given in play, and the line must show all of it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .conftest import Server
from .driver import seat_page
from .test_fit import VIEWPORTS

FIT_JS = r"""async ([game, langs]) => {
  const i18n = await import('/static/i18n.js');
  const keys = Object.keys(await (await fetch('/static/locales/en.json')).json())
    .filter((k) => k.startsWith(`tutorial.${game}.`));
  const text = document.getElementById('coach-text');
  const line = document.getElementById('status');
  const cut = [];
  for (const lang of langs) {
    await i18n.useLanguage(lang);
    const t = i18n.t;
    const longest = (ks) => ks.map((k) => t(k)).reduce((a, b) => (b.length > a.length ? b : a));
    const power = longest(['peek_own', 'peek_other', 'swap_own_other', 'swap_any',
      'look_own_other_may_swap', 'look_any_two_swap_any_two', 'look_any_one_swap_any_two']
      .map((p) => `power.${p}`));
    const params = {
      name: 'Tutor bot', top: '10♥', card: '10♥', mine: '10♦', old: 'Q♣', slot: 4, value: 12,
      oldValue: 12, sum: 12, count: 2, k: 5, power,
      how: game === 'dice' ? longest(['tutorial.dice.how_touch', 'tutorial.dice.how_click'])
        : longest(['tutorial.cards.snap_tap', 'tutorial.cards.snap_press']),
      values: t('tutorial.cards.values', { ace: 0, jack: 11, queen: 12, black: 20, red: -1 }),
      seen: [3, 4].map((slot) => t('tutorial.cards.seen_card', { slot, card: '10♦' })).join(', '),
      line: t('tutorial.dice.diagonal', { a: 'a1', b: 'e5' }),
    };
    for (const key of keys) {
      text.textContent = t(key, params);
      if (line.scrollHeight > line.clientHeight + 1 || line.scrollWidth > line.clientWidth + 1) {
        cut.push(`${lang} ${key}: ${text.textContent}`);
      }
    }
  }
  await i18n.useLanguage('en');
  return cut;
}"""


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_every_tutorial_tip_fits_its_line_in_every_language(browser: Browser, server: Server,
                                                            size: str) -> None:
    for game, kind in (("cards", "cards"), ("board", "dice")):
        made = server.api("POST", "/api/tutorial", {"game": game, "name": "Maximiliana"})
        assert isinstance(made, dict)
        ctx, page = seat_page(browser, server.base, made["table"], made["token"],
                              VIEWPORTS[size]["viewport"])
        try:
            page.wait_for_selector("#coach-text")
            cut = page.evaluate(FIT_JS, [kind, ["en", "de", "es", "fr"]])
            assert not cut, "\n".join(cut)
        finally:
            ctx.close()
