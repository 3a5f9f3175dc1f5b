"""No English on screen for a German, Spanish or French reader.

With the browser's language set to de, es or fr, the lobby, a card table through a whole
round to its reveal, the dice table, the profile, the leaderboard and both rules pages are
read (their visible text, ``innerText``) and compared with the English catalog: no English
phrase of the catalog that the language translates differently may show. A phrase is a
literal piece of an English entry between its placeholders with at least two words, so
words that several languages share ("Bot", "Chat", "online") do not count. Text the server
makes (rule names and descriptions, player and bot names) is not in the client's catalog
and is not judged here (docs/i18n.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .conftest import WAIT_MS, Server
from .driver import bot_game, play_until, read

LOCALES = Path(__file__).parents[2] / "src" / "cambio" / "web" / "static" / "locales"


def _catalog(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((LOCALES / f"{lang}.json").read_text())
    return data


def _forms(entry: str | dict[str, str]) -> list[str]:
    return [entry] if isinstance(entry, str) else list(entry.values())


def english_phrases(lang: str) -> set[str]:
    """The English catalog's phrases that ``lang`` translates differently: the literal
    pieces between placeholders, of two words or more."""
    english, other = _catalog("en"), _catalog(lang)
    theirs = " ".join(f for entry in other.values() for f in _forms(entry))
    out: set[str] = set()
    for key, entry in english.items():
        if entry == other.get(key):
            continue
        for form in _forms(entry):
            for piece in re.split(r"\{\w+\}", form):
                piece = piece.strip(" .,:;!?…()·—-\"'")
                if len(piece.split()) >= 2 and re.search(r"[A-Za-z]{3}", piece) \
                        and piece not in theirs:
                    out.add(piece)
    return out


def english_on(page: Page, phrases: set[str], where: str) -> list[str]:
    text = page.evaluate("() => document.body.innerText")
    return [f"{where}: {p!r}" for p in sorted(phrases) if p in text]


def test_the_phrases_are_many_and_the_check_sees_english() -> None:
    """The comparison is not vacuous: it holds hundreds of phrases, and an English page
    would fail it."""
    phrases = english_phrases("de")
    assert len(phrases) > 200
    assert "Create table" in phrases and "Call Cambio" in phrases


@pytest.mark.parametrize("lang", ["de", "es", "fr"])
def test_a_reader_of_another_language_sees_no_english(browser: Browser, server: Server,
                                                      lang: str) -> None:
    phrases = english_phrases(lang)
    bad: list[str] = []
    # The lobby and a card table through a whole round (Ann calls Cambio early).
    ctx, page = bot_game(browser, server.base, "laptop", locale=lang)
    try:
        assert page.evaluate("() => document.documentElement.lang") == lang
        bad += english_on(page, phrases, "card table")
        play_until({"ann": page}, lambda: (read(page) or None) is not None
                   and page.query_selector("#results") is not None, call_after=4)
        page.wait_for_selector("#results")
        bad += english_on(page, phrases, "card table, reveal")
        page.goto(server.base + "/")
        page.wait_for_selector("#tables")
        bad += english_on(page, phrases, "lobby")
        # The dice table, from the lobby's form.
        page.click("label[for=game-board]")
        page.click("#create")
        page.wait_for_url("**/t/*")
        page.wait_for_selector(".seats-panel")
        bad += english_on(page, phrases, "dice table, waiting")
        page.click('.seat-row[data-seat="1"] .add-bot')
        page.wait_for_selector('.seat-row[data-seat="1"][data-kind="bot"]')
        page.click("#start")
        page.wait_for_selector(".board-game[data-version]")
        bad += english_on(page, phrases, "dice table")
        page.goto(server.base + "/")
        link = page.wait_for_selector("#my-profile", state="attached")
        profile = link.get_attribute("href") if link else None
        assert profile, "no profile link in the lobby"
        for path, ready in (("/rules", ".rules-table"), ("/rules?game=board", "#board-rules"),
                            ("/leaderboard", "#rating-policy"), (profile, "#games")):
            page.goto(server.base + path)
            page.wait_for_selector(ready, timeout=WAIT_MS)
            bad += english_on(page, phrases, path)
    finally:
        ctx.close()
    assert not bad, "\n".join(bad)
