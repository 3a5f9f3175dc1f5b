"""The server's own words in the reader's language: the card rules' names, descriptions and
choices from gettext catalogs (cambio/locale/*.po), chosen by Accept-Language."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.resources import files
from typing import Any

import httpx
import pytest
from babel.messages.pofile import read_po

from cambio.server.i18n import (
    LANGUAGES,
    catalog_path,
    request_language,
    rules_messages,
    translations,
)

from .harness import ServerProcess


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_rules_text_is_translated_and_nothing_else(lang: str) -> None:
    """A text added to rules_text without a translation, or one left behind, fails here
    (the server-side twin of the client's catalog check)."""
    with files("cambio").joinpath(catalog_path(lang)).open("rb") as po:
        catalog = read_po(po, locale=lang)
    ids = {m.id for m in catalog if m.id}
    wanted = set(rules_messages())
    assert wanted - ids == set(), "texts without a translation (scripts/rules_pot.py)"
    assert ids - wanted == set(), "translations of texts the code no longer has"
    empty = [m.id for m in catalog if m.id and (not m.string or m.fuzzy)]
    assert empty == []


def test_the_language_is_the_first_wanted_that_has_a_catalog() -> None:
    assert request_language("de-CH, en;q=0.8") == "de"
    assert request_language("it, fr;q=0.7, de;q=0.9") == "de"
    assert request_language("fr;q=0.5, es") == "es"
    assert request_language("it, pt-BR") == "en"
    assert request_language("de;q=0") == "en"
    assert request_language(None) == "en"
    assert request_language("de;q=abc, es;q=0.1") == "es"


def test_english_is_the_text_as_written() -> None:
    assert translations("en").gettext("Ace is worth") == "Ace is worth"
    assert translations("de").gettext("Ace is worth") == "Wert des Asses"


@pytest.fixture()
def http(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=10) as client:
        yield client


def test_rules_come_in_the_language_asked_for(http: httpx.Client) -> None:
    def fields(accept: str) -> tuple[str, dict[str, dict[str, Any]]]:
        res = http.get("/api/rules", headers={"Accept-Language": accept})
        return res.headers["content-language"], {f["name"]: f for f in res.json()["fields"]}

    lang, de = fields("de-DE,de;q=0.9")
    assert lang == "de"
    assert de["value_ace"]["label"] == "Wert des Asses"
    assert de["resnap"]["choice_labels"]["snapper_only"] == "Nur wer zuletzt geschnappt hat"
    assert de["power_queen"]["choice_labels"]["as_jack"] == "Wie der Bube"
    lang, fr = fields("fr")
    assert (lang, fr["value_ace"]["label"]) == ("fr", "Valeur de l’as")
    lang, en = fields("it")
    assert (lang, en["value_ace"]["label"]) == ("en", "Ace is worth")
