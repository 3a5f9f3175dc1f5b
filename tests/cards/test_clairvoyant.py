"""The CHEATING clairvoyant reference bot: every card and the deck order."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

import pytest

from cambio.bots.cards import BOTS, CardBot, ExpectedPointsBot, make_bot, play_round
from cambio.bots.cards.clairvoyant import ClairvoyantBot
from cambio.cards import Phase, Rules, State, observe


def live(state: State) -> Callable[[], State]:
    """What a cheating bot reads: the state as it is now."""
    return lambda: state


def test_the_clairvoyant_is_not_a_registered_bot() -> None:
    assert all("clairvoyant" not in name for name in BOTS)
    with pytest.raises(ValueError):
        make_bot("clairvoyant", 1)


@pytest.mark.parametrize(("preset", "players"), [("rulebook", 2), ("house", 3),
                                                 ("wikipedia", 4)])
def test_the_clairvoyant_plays_legal_rounds(preset: str, players: int) -> None:
    for seed in range(3):
        state = State(Rules.preset(preset), players, seed=seed, polled=True)
        bots: list[CardBot] = [ExpectedPointsBot(s) for s in range(players)]
        bots[seed % players] = ClairvoyantBot(live(state), seed)
        play_round(state, bots)
        assert state.is_over()


def test_the_clairvoyant_reads_the_deck_order() -> None:
    """Only the deck reordered (every card on the table where it was): some decisions
    change, which a bot that sees the table but not the deck could not do."""
    rng = Random(3)
    changed = 0
    for seed in range(6):
        state = State(Rules.preset("rulebook"), 2, seed=seed, polled=True)
        bots = [ExpectedPointsBot(seed), ExpectedPointsBot(seed)]
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            if len(view.legal) > 1 and view.phase == Phase.TURN_START:
                twin = state.clone()
                rng.shuffle(twin.deck)
                a = ClairvoyantBot(live(state), 1).act(view)
                b = ClairvoyantBot(live(twin), 1).act(observe(twin, seat))
                changed += a != b
            state.apply(bots[seat].act(view), seat)
    assert changed > 0


def test_the_clairvoyant_beats_memory_on_seeded_deals() -> None:
    """A ceiling well above what a fair bot reaches (hard: about 72%): 20 seeded deals,
    seats swapped."""
    rules = Rules.preset("rulebook")
    share = 0.0
    for seed in range(20):
        for me in range(2):
            state = State(rules, 2, seed=seed, polled=True)
            bots: list[CardBot] = [ExpectedPointsBot(seed), ExpectedPointsBot(seed)]
            bots[me] = ClairvoyantBot(live(state), seed)
            play_round(state, bots)
            winners = state.winners()
            share += 1.0 / len(winners) if me in winners else 0.0
    assert share / 40 > 0.85
