"""Reading the opponents (cambio.bots.cards.reading): bounds from public discards, worlds
weighted by them, and nothing read but the seat's own views."""

from __future__ import annotations

from collections import Counter
from random import Random

import numpy as np
import pytest

from cambio.bots.cards import make_bot
from cambio.bots.cards.belief import Belief, visible_cards
from cambio.bots.cards.deep import BatchRolloutSearchBot
from cambio.bots.cards.reading import MARGIN, POWER_MARGIN, OpponentReading, weighted_worlds
from cambio.cards import HIDDEN, Action, CardView, Phase, Power, Rules, State, observe
from cambio.cards.rules import tables

PRESETS = ("rulebook", "house", "wikipedia")


def _played(preset: str, seed: int, steps: int) -> tuple[State, list[tuple[int, Action]]]:
    """A polled heads-up round between ``memory`` bots, stopped after ``steps`` actions (or
    at its end): the starting state and the actions played."""
    start = State(Rules.preset(preset), 2, seed=seed)
    state = start.clone()
    bots = [make_bot("memory", seed), make_bot("memory", seed + 1)]
    played: list[tuple[int, Action]] = []
    while not state.is_over() and len(played) < steps:
        seat = state.current_player()
        action = bots[seat].act(observe(state, seat))
        state.apply(action, seat)
        played.append((seat, action))
    return start, played


def _views(start: State, played: list[tuple[int, Action]], seat: int) -> list[CardView]:
    """Every view ``seat`` is shown while ``played`` is replayed from ``start``."""
    state = start.clone()
    out = []
    for who, action in played:
        if who == seat:
            out.append(observe(state, seat))
        state.apply(action, who)
    return out


def _twin(start: State, played: list[tuple[int, Action]], seat: int, rng: Random) -> State:
    """``start`` with the cards ``seat`` has still not seen after ``played`` shuffled among
    their starting places: a deal that looks the same to ``seat`` all along."""
    end = start.clone()
    for who, action in played:
        end.apply(action, who)
    unseen = Counter(start.deck) + Counter(c for g in start.grids for c in g)
    unseen -= Counter(visible_cards(observe(end, seat)))
    twin = start.clone()
    places = [("deck", 0, i) for i, c in enumerate(twin.deck) if unseen[c]]
    places += [("grid", p, i) for p, g in enumerate(twin.grids) for i, c in enumerate(g)
               if unseen[c]]
    cards = [twin.deck[i] if kind == "deck" else twin.grids[p][i] for kind, p, i in places]
    rng.shuffle(cards)
    for (kind, p, i), card in zip(places, cards, strict=True):
        if kind == "deck":
            twin.deck[i] = card
        else:
            twin.grids[p][i] = card
    return twin


@pytest.mark.parametrize("preset", PRESETS)
def test_the_reading_and_the_decisions_depend_only_on_the_seats_views(preset: str) -> None:
    """Two deals that differ only in cards seat 0 has not seen, the same actions: the same
    views, hence the same bounds, the same weighted worlds and the same decisions."""
    start, played = _played(preset, 13, 120)
    twin = _twin(start, played, 0, Random(preset))
    assert twin.grids != start.grids or twin.deck != start.deck  # something did move
    views, twin_views = _views(start, played, 0), _views(twin, played, 0)
    assert views == twin_views  # the premise: seat 0 cannot tell the deals apart
    readings = (OpponentReading(), OpponentReading())
    bots = [BatchRolloutSearchBot(3, rows=64, z=0.0, read=True) for _ in range(2)]
    bounded = 0
    for view, same in zip(views, twin_views, strict=True):
        readings[0].update(view)
        readings[1].update(same)
        assert readings[0].bounds == readings[1].bounds
        bounded += bool(readings[0].bounds)
        assert bots[0].act(view) == bots[1].act(same)
    assert bounded  # the reading did read something
    last = views[-1]
    worlds = [weighted_worlds(last, Belief(last), Random(9), 32, r, tilt=0.1)
              for r in readings]
    assert worlds[0] == worlds[1]


def _discard_read(preset: str) -> tuple[CardView, OpponentReading, int]:
    """The first view of seat 0 right after seat 1 discarded a drawn card it did not want
    while keeping the cards it knew (memory bots, seeds in order): the view, the reading of
    seat 0's views so far, and the discarded card."""
    for seed in range(200):
        start, played = _played(preset, seed, 400)
        reading = OpponentReading()
        for view in _views(start, played, 0):
            before = reading.discards_read
            reading.update(view)
            if reading.discards_read > before and view.phase == Phase.POLL \
                    and any(key[0] == 1 for key in reading.bounds):
                return view, reading, view.discard[-1]
    raise AssertionError("no readable discard in 200 rounds")


@pytest.mark.parametrize("preset", PRESETS)
def test_a_discard_bounds_the_cards_the_discarder_knew_and_kept(preset: str) -> None:
    view, reading, card = _discard_read(preset)
    tab = tables(view.rules)
    slack = MARGIN if tab.powers[card] == Power.NONE else POWER_MARGIN
    for (seat, slot), bound in reading.bounds.items():
        assert seat == 1
        assert view.grids[1][slot] == HIDDEN  # a card we see needs no reading
        assert view.seen[1][slot] & 0b10  # the discarder knows it
        assert bound <= tab.values[card] + slack


def test_worlds_follow_the_reading() -> None:
    """A tight bound makes high cards rare in the bounded slots of the weighted worlds; with
    no reading the same draws keep the exact belief's mean."""
    view, reading, _ = _discard_read("rulebook")
    belief = Belief(view)
    reading.bounds = {key: 2.0 for key in reading.bounds}
    values = np.asarray(belief.values)
    total = belief.total
    columns = [total - 1 - k for k, key in enumerate(belief.hidden) if key in reading.bounds]

    def mean_bounded(r: OpponentReading | None) -> float:
        orders = np.asarray(weighted_worlds(view, belief, Random(1), 200, r))
        return float(values[orders[:, columns]].mean())

    assert mean_bounded(reading) < mean_bounded(None) - 2.0


def test_the_likelihood_is_soft_and_falls_with_the_value() -> None:
    view, reading, _ = _discard_read("rulebook")
    values = np.asarray(tables(view.rules).values)
    for lik in reading.log_likelihood(view).values():
        order = np.argsort(values, kind="stable")
        assert np.all(np.diff(lik[order]) <= 1e-12)  # never likelier for a higher card
        assert np.all(np.isfinite(lik))  # never impossible: a slip is allowed


def test_a_new_round_starts_a_fresh_reading() -> None:
    view, reading, _ = _discard_read("rulebook")
    assert reading.bounds
    reading.update(observe(State(view.rules, 2, seed=999), 0))
    assert reading.bounds == {}
    assert reading.discards_read == 0


def test_an_opponent_whose_bounds_break_is_trusted_less() -> None:
    """Checks that held more often than chance raise the trust; checks that held no more
    often than chance bring it to 0, which makes the likelihood flat."""
    view, reading, _ = _discard_read("rulebook")
    start = reading.trust(1)
    reading.checks[1] = [20.0, 19.0, 10.0]
    assert reading.trust(1) > start
    reading.checks[1] = [20.0, 10.0, 12.0]
    assert reading.trust(1) == 0.0
    assert all(np.allclose(lik, 0.0) for lik in reading.log_likelihood(view).values())


def test_a_bound_is_checked_when_we_look_at_the_card() -> None:
    """Over whole rounds against memory, some bounded cards come to light under our peeks,
    and each check counts one bound."""
    reading = OpponentReading()
    for seed in range(40):
        start, played = _played("rulebook", seed, 400)
        for view in _views(start, played, 0):
            reading.update(view)
    checked, held, expected = reading.checks[1]
    assert checked >= 5
    assert 0 <= held <= checked and 0 < expected < checked
