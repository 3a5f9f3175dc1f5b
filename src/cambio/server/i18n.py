"""The words the server itself makes, in the reader's language.

The page translates everything it can from stable codes (``static/locales/*.json``); what only
the server can put into words -- the card rules' names and descriptions
(:mod:`cambio.cards.rules_text`) -- is translated here with gettext catalogs: Babel's ``.po``
files in ``cambio/locale/<lang>/LC_MESSAGES/cambio.po``, compiled in memory on first use. The
language is the first of the request's ``Accept-Language`` (the page sends the reader's
choice) that has a catalog, else English (docs/i18n.md, "The server's words").
"""

from __future__ import annotations

import functools
import gettext
import io
from importlib.resources import files

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from cambio.cards.rules_text import CHOICE_TEXT, NONE_CHOICE_TEXT, RULE_TEXT

LANGUAGES = ("en", "de", "es", "fr")
"""The languages with a catalog, English (the source text) first."""

DOMAIN = "cambio"


def rules_messages() -> list[str]:
    """The texts the catalogs translate: every name, description and choice of
    :mod:`cambio.cards.rules_text`, in its order, each once (``scripts/rules_pot.py``)."""
    out = [text for pair in RULE_TEXT.values() for text in pair]
    out += [*CHOICE_TEXT.values(), *NONE_CHOICE_TEXT.values()]
    return list(dict.fromkeys(out))


def catalog_path(lang: str) -> str:
    """Where a language's catalog lives in the package (a ``.po`` file)."""
    return f"locale/{lang}/LC_MESSAGES/{DOMAIN}.po"


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """A language's gettext translations (English: the text as written)."""
    if lang not in LANGUAGES or lang == "en":
        return gettext.NullTranslations()
    with files("cambio").joinpath(catalog_path(lang)).open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def request_language(accept_language: str | None) -> str:
    """The first language of an ``Accept-Language`` header, by its q-values, that has a
    catalog ("de-CH;q=0.9, en;q=0.8" -> "de"); English when none has."""
    ranked: list[tuple[float, int, str]] = []
    for order, part in enumerate((accept_language or "").split(",")):
        tag, _, param = part.strip().partition(";")
        weight = 1.0
        name, _, value = param.strip().partition("=")
        if name.strip() == "q":
            try:
                weight = float(value)
            except ValueError:
                weight = 0.0
        ranked.append((-weight, order, tag.strip().lower().split("-")[0]))
    for weight, _, base in sorted(ranked):
        if weight < 0 and base in LANGUAGES:
            return base
    return "en"
