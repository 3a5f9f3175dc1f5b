"""The terminal's log, told from the engine's events as the human's seat may see them, never
names a card that seat's view does not show, before or after the action."""

from __future__ import annotations

import random
import re

import pytest

from cambio.cards import Rules, State, card_code, observe
from cambio.cards.events import Event, seen_by
from cambio.terminal.cards_text import Logger, Namer

CODE = re.compile(r"\b(?:[XA2-9TJQK][CDHS]|X[BR])\b")


def shown(state: State, seat: int) -> set[str]:
    view = observe(state, seat)
    cards = [c for g in view.grids for c in g] + list(view.discard) + [view.held]
    return {card_code(c) for c in cards if c >= 0}


@pytest.mark.parametrize("preset", ["rulebook", "house", "wikipedia"])
def test_the_log_names_only_cards_the_human_saw(preset):
    told = 0
    for seed in range(60):
        players = 2 + seed % 3
        s = State(Rules.preset(preset, snap_penalty=1 + seed % 2), players, seed=seed)
        logger = Logger(Namer(0, [f"p{i}" for i in range(players)]))
        rng = random.Random(seed)
        while not s.is_over():
            before = shown(s, 0)
            actor = s.current_player()
            events: list[Event] = []
            action = s.play(rng.choice(s.legal_actions()), actor, events)
            lines = logger.describe(actor, action, [seen_by(e, 0) for e in events],
                                    observe(s, 0))
            names = {code for line in lines for code in CODE.findall(line)}
            assert names <= before | shown(s, 0), (lines, seed)
            told += len(names)
    assert told > 300  # the log does name cards: the check above is not empty
