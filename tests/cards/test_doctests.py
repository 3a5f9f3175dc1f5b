"""The examples in the card core's docstrings run and say what they show."""

import doctest

import pytest

import cambio.cards
from cambio.cards import actions, batch, cards, events, rules

MODULES = [cambio.cards, actions, batch, cards, events, rules]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0
