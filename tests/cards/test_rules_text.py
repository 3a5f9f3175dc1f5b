"""Every rule has words for players, and the words cannot drift from the engine's rules."""

from __future__ import annotations

import re
from pathlib import Path

from cambio.cards import Rules
from cambio.cards.rules_text import CHOICE_TEXT, CHOICE_TYPES, RULE_TEXT

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_every_field_has_a_name_and_a_description() -> None:
    assert set(RULE_TEXT) == set(Rules.field_names())
    for field, (label, text) in RULE_TEXT.items():
        assert label and text.endswith("."), field
        assert "_" not in label, f"{field}: {label!r} reads like an identifier"


def test_every_choice_has_words() -> None:
    values = {v for kind in CHOICE_TYPES for v in kind}
    assert set(CHOICE_TEXT) == values
    names = {f.type for f in Rules.__dataclass_fields__.values()}
    assert {k.__name__ for k in CHOICE_TYPES} <= {str(n) for n in names}


def test_docs_name_every_field() -> None:
    """docs/rules.md is the long form of the rules page: it names every field."""
    doc = RULES_DOC.read_text()
    missing = [f for f in Rules.field_names() if not re.search(rf"`{f}`", doc)]
    assert not missing, f"docs/rules.md does not mention {missing}"


def test_no_two_choices_share_a_value() -> None:
    """Choices' words are looked up by value (a StrEnum is its string): two choice types
    with one value would share one entry, and one of them would show the other's words."""
    values = [str(value) for kind in CHOICE_TYPES for value in kind]
    assert sorted(v for v in set(values) if values.count(v) > 1) == []
    assert len(CHOICE_TEXT) == len(values)
