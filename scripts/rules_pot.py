"""Write the server's message template, ``src/cambio/locale/cambio.pot``: every text of
:mod:`cambio.cards.rules_text` (the card rules' names, descriptions and choices), which the
server translates with gettext (``cambio.server.i18n``). Then bring each language's catalog up
to date with Babel (docs/i18n.md)::

    python scripts/rules_pot.py
    pybabel update -i src/cambio/locale/cambio.pot -d src/cambio/locale -D cambio
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from cambio.server.i18n import rules_messages

POT = Path(__file__).resolve().parents[1] / "src" / "cambio" / "locale" / "cambio.pot"


def template() -> Catalog:
    catalog = Catalog(project="cambio", domain="cambio", fuzzy=False)
    for text in rules_messages():
        catalog.add(text, locations=[("src/cambio/cards/rules_text.py", 0)])
    return catalog


if __name__ == "__main__":
    with POT.open("wb") as out:
        write_po(out, template(), omit_header=False, sort_output=False, no_location=True)
    print(f"wrote {POT} ({len(rules_messages())} messages)")
