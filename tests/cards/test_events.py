"""The engine's events (cambio.cards.events): exact contents, every kind in every preset,
and -- over thousands of seeded random rounds -- that each seat's view is rebuilt from the
events it may see, and nothing else."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from cambio.cards import (
    EMPTY,
    HIDDEN,
    IllegalActionError,
    Power,
    Rules,
    State,
    observe,
    parse_card,
)
from cambio.cards.actions import CAMBIO, SNAP, kind_of
from cambio.cards.events import (
    EVERYONE,
    NOBODY,
    CambioCalled,
    Declined,
    Discarded,
    Drew,
    Event,
    Gave,
    Looked,
    Peeked,
    Penalty,
    PowerFired,
    Reshuffled,
    RoundEnded,
    Snapped,
    Switched,
    seen_by,
    shows,
)
from cambio.cards.rules import CABO_FIRST_EDITION, tables
from cambio.records.cards import observations

from .diffed_observations import as_seen, diffed_observations
from .event_views import EventView

PRESETS = ["rulebook", "house", "wikipedia"]


def c(code: str) -> int:
    return parse_card(code)


def deck(codes: str) -> list[int]:
    """A deck's top cards, top first (seat 0 is dealt the first four, seat 1 the next)."""
    return [c(x) for x in codes.split()]


def step(state: State, action: str, seat: int | None = None) -> list[Event]:
    events: list[Event] = []
    state.play(action, seat, events=events)
    return events


def random_move(state: State, rng: random.Random, calm: bool) -> tuple[int, int]:
    """A random (seat, action); ``calm`` rounds rarely snap and call Cambio late (so decks
    run out and reshuffle)."""
    seat = state.current_player() if state.polled else rng.choice(state.actors())
    acts = state.legal_actions(seat)
    if calm:
        quiet = [a for a in acts if kind_of(a) != SNAP and (a != CAMBIO or
                                                         state.turn_number > 60)]
        if quiet and rng.random() < 0.97:
            acts = quiet
    return seat, rng.choice(acts)


Played = tuple[State, int, int, list[Event]]
"""One random action of a seeded round: the state before it, the seat, the action, and the
events it reported (the round's state is then the state after it)."""


def seeded_round(rules: Rules, players: int, seed: int, polled: bool,
                 calm: bool) -> tuple[State, Iterator[Played]]:
    """A seeded round and a generator that plays it to its end by random legal moves, so each
    random-play check states only what it checks after every action."""
    s = State(rules, players, seed=seed, polled=polled)

    def actions() -> Iterator[Played]:
        rng = random.Random(seed)
        while not s.is_over():
            seat, action = random_move(s, rng, calm=calm)
            before = s.clone()
            events: list[Event] = []
            s.play(action, seat, events)
            yield before, seat, action, events

    return s, actions()


def check_views(rebuilt: list[EventView], s: State, seed: int, events: list[Event]) -> None:
    """Each rebuilt view, after following the events, is the seat's view of the state."""
    for view in rebuilt:
        view.follow(events)
        assert view.matches(observe(s, view.seat)), (seed, view.seat, events)


def check_observations(before: State, seat: int, action: int, s: State,
                       events: list[Event]) -> None:
    """The records' observations read off the events are, for every viewer and in order,
    those found by comparing the states before and after the action."""
    mine = observations(events)
    theirs = diffed_observations(before, seat, action, s)
    for viewer in [*range(s.n), None]:
        assert list(as_seen(mine, s.n, viewer).items()) == \
            list(as_seen(theirs, s.n, viewer).items()), (events,)
    assert [k for k, _, _ in mine] == [k for k, _, _ in theirs]


def kind(event: Event) -> str:
    """A name for each event variety the tests expect to see."""
    name = type(event).__name__
    if isinstance(event, Drew):
        return name + (" pile" if event.from_pile else " deck")
    if isinstance(event, Discarded):
        return name + (" held" if event.slot < 0 else " replaced")
    if isinstance(event, Snapped):
        return name + (" right" if event.right else " wrong")
    if isinstance(event, Declined):
        return f"{name} {event.choice}"
    if isinstance(event, CambioCalled):
        return name + (" automatic" if event.automatic else "")
    if isinstance(event, RoundEnded):
        return f"{name} {event.reason}"
    return name


def expected_kinds(rules: Rules, polled: bool) -> set[str]:
    powers = set(tables(rules).powers)
    want = {"Drew deck", "Discarded held", "Discarded replaced", "PowerFired", "CambioCalled",
            "Snapped right", "Snapped wrong", "Penalty", "Gave", "Reshuffled",
            "RoundEnded cambio", "RoundEnded deck_exhausted"}
    if rules.draw_from_discard:
        want.add("Drew pile")
    if powers & {Power.PEEK_OWN, Power.PEEK_OTHER}:
        want.add("Peeked")
    if powers & {Power.LOOK_OWN_OTHER_MAY_SWAP, Power.LOOK_ANY_SWAP_ANY}:
        want |= {"Looked", "Switched"}
    if powers & {Power.SWAP_OWN_OTHER, Power.SWAP_ANY}:
        want.add("Switched")
    if Power.LOOK_OWN_OTHER_MAY_SWAP in powers:
        want.add("Declined keep")
    if rules.powers_optional:
        want.add("Declined skip")
    if polled:
        want.add("Declined pass")
    if rules.empty_grid_calls_cambio:
        want.add("CambioCalled automatic")
    return want


# ----------------------------------------------------------------------------- exact events
def test_a_draw_is_seen_by_the_drawer_only_and_its_discard_by_everyone():
    # docs/records.md's example deal: seat 0 holds 2C 9D 4C KD, seat 1 QS 3D 7S 5D.
    s = State(Rules.preset("rulebook"), 2, seed=0, polled=False,
              deck=deck("2C 9D 4C KD QS 3D 7S 5D 7H 6S 8C"))
    drew = step(s, "draw")
    assert drew == [Drew(0, c("7H"), False, 1 << 0)]
    assert seen_by(drew[0], 0) == drew[0]
    assert seen_by(drew[0], 1) == seen_by(drew[0], None) == Drew(0, HIDDEN, False, 1 << 0)
    assert step(s, "discard") == [Discarded(0, c("7H"), -1, EVERYONE),
                                  PowerFired(0, c("7H"), Power.PEEK_OWN)]
    assert step(s, "peek 0.0") == [Peeked(0, 0x000, c("2C"), 1 << 0)]
    assert step(s, "snap 1.2", 1) == [Snapped(1, 0x102, c("7S"), True, EVERYONE)]
    assert step(s, "cambio", 1) == [CambioCalled(1, False)]
    step(s, "draw")
    done = step(s, "swap 1")
    assert done[0] == Discarded(0, c("9D"), 1, EVERYONE)
    assert done[1] == PowerFired(0, c("9D"), Power.PEEK_OTHER)
    ended = step(s, "peek 1.0")
    assert ended[0] == Peeked(0, 0x100, c("QS"), 1 << 0)
    assert ended[1] == RoundEnded("cambio", tuple(tuple(g) for g in s.grids),
                                  tuple(s.scores()), tuple(s.winners()))
    assert len(ended) == 2


def test_a_wrong_snap_shows_the_card_and_deals_unseen_penalty_cards():
    s = State(Rules.preset("rulebook", snap_penalty=2), 2, seed=1, polled=False,
              deck=deck("2C 9D 4C KD QS 3D 7S 5D 7H 6S 8C 9S"))
    step(s, "draw")
    step(s, "discard")  # 7H: a peek of your own
    step(s, "peek 0.0")
    events = step(s, "snap 1.0", 1)  # QS on a 7H: wrong
    assert events == [Snapped(1, 0x100, c("QS"), False, EVERYONE),
                      Penalty(1, 4, c("6S"), NOBODY), Penalty(1, 5, c("8C"), NOBODY)]
    assert [seen_by(e, 1) for e in events] == [events[0], Penalty(1, 4, HIDDEN),
                                               Penalty(1, 5, HIDDEN)]
    assert seen_by(events[0], None) == events[0]


@pytest.mark.parametrize("shown", [False, True])
def test_a_snap_of_anothers_card_is_answered_by_a_give_whoever_knew_it_still_knows(shown):
    """Seat 0 gives its 4C, seen by seat 0 alone at the deal -- or its 2C, seen by everyone
    once seat 0 snapped it wrongly."""
    s = State(Rules.preset("rulebook"), 2, seed=0, polled=False,
              deck=deck("2C 9D 4C KD QS 3D 7S 5D 7H 6S 8C"))
    step(s, "draw")
    step(s, "discard")
    step(s, "peek 0.0")
    if shown:
        step(s, "snap 0.0", 0)  # the 2C on a 7H: wrong, so everyone has seen the 2C
    assert step(s, "snap 1.2", 0) == [Snapped(0, 0x102, c("7S"), True, EVERYONE)]
    slot, card, audience = (0, "2C", EVERYONE) if shown else (2, "4C", 1 << 0)
    gave = step(s, f"give {slot}", 0)
    assert gave == [Gave(0, slot, 0x102, c(card), audience)]
    assert seen_by(gave[0], 1) == (gave[0] if shown else Gave(0, 2, 0x102, HIDDEN, 1 << 0))
    assert seen_by(gave[0], 0) == gave[0]


def test_a_card_taken_from_the_pile_is_public_and_a_kings_look_private():
    s = State(Rules.preset("house"), 2, seed=0, polled=False,
              deck=deck("2C 9D 4C KD QS 3D 7S 5D KH 6S 8C"))
    step(s, "draw")
    assert step(s, "discard")[1] == PowerFired(0, c("KH"), Power.LOOK_ANY_SWAP_ANY)
    looked = step(s, "look 0.0 1.1")
    assert looked == [Looked(0, (0x000, 0x101), (c("2C"), c("3D")), 1 << 0)]
    assert seen_by(looked[0], 1) == Looked(0, (0x000, 0x101), (HIDDEN, HIDDEN), 1 << 0)
    assert step(s, "switch 0.1 1.0") == [Switched(0, 0x001, 0x100)]
    assert step(s, "take", 1) == [Drew(1, c("KH"), True, EVERYONE)]


def test_a_pass_a_keep_and_a_skip_name_who_declined():
    s = State(Rules.preset("rulebook"), 2, seed=0, deck=deck("2C 9D 4C KD QS 3D 7S 5D 2H 6S"))
    step(s, "draw")
    step(s, "discard")  # a 2: no power, so the snap poll opens
    asked = s.current_player()
    assert step(s, "pass", asked) == [Declined(asked, "pass")]
    s = State(Rules.preset("rulebook"), 2, seed=0, deck=deck("2C 9D 4C KD QS 3D 7S 5D KS 6S"))
    step(s, "draw")
    step(s, "discard")
    step(s, "look 0.0 1.0")
    assert step(s, "keep") == [Declined(0, "keep")]
    s = State(Rules.preset("wikipedia"), 2, seed=0, deck=deck("2C 9D 4C KD QS 3D 7S 5D 7H 6S"))
    step(s, "draw")
    step(s, "discard")
    assert step(s, "skip") == [Declined(0, "skip")]


def test_an_empty_deck_reshuffles_the_pile_but_its_top():
    s = State(Rules.preset("rulebook"), 2, seed=4)
    s.deck, s.pile = [], [c("2C"), c("3C"), c("4C")]
    events = step(s, "draw")
    assert events[0] == Reshuffled(2)
    assert isinstance(events[1], Drew) and s.pile == [c("4C")]


def test_an_exhausted_deck_ends_the_round_with_no_draw():
    s = State(Rules.preset("rulebook"), 2, seed=4)
    s.deck, s.pile = [], [c("2C")]
    events = step(s, "draw")
    assert len(events) == 1 and isinstance(events[0], RoundEnded)
    assert events[0].reason == "deck_exhausted"


def test_a_snap_that_empties_a_grid_calls_cambio_when_the_rules_say_so():
    s = State(Rules.preset("rulebook", empty_grid_calls_cambio=True), 2, seed=0,
              polled=False, deck=deck("2C 9D 4C KD QS 3D 7S 5D 7H 6S 8C"))
    for slot in (0, 1, 3):
        s.grids[1][slot] = EMPTY
        s.known[1][slot] = 0
    step(s, "draw")
    step(s, "discard")
    step(s, "peek 0.0")
    assert step(s, "snap 1.2", 1) == [Snapped(1, 0x102, c("7S"), True),
                                      CambioCalled(1, True)]


def test_a_refused_action_reports_nothing():
    s = State(Rules.preset("rulebook"), 2, seed=0)
    events: list[Event] = []
    with pytest.raises(IllegalActionError):
        s.play("discard", events=events)
    assert events == []


def test_the_audience_reads_seats_and_spectators():
    assert shows(EVERYONE, None) and shows(EVERYONE, 7)
    assert not shows(NOBODY, 0) and not shows(NOBODY, None)
    assert shows(1 << 2, 2) and not shows(1 << 2, 1) and not shows(1 << 2, None)
    assert seen_by(Switched(0, 1, 2), None) == Switched(0, 1, 2)


def test_the_turn_cap_ends_the_round_with_an_event():
    s = State(Rules.preset("rulebook", max_turns=1), 2, seed=0)
    events: list[Event] = []
    rng = random.Random(0)
    while not s.is_over():
        s.apply(rng.choice(s.legal_actions()), events=events)
    last = events[-1]
    assert isinstance(last, RoundEnded) and last.reason == "turn_cap"


# ----------------------------------------------------------------------------- random rounds
@pytest.mark.parametrize("polled", [True, False], ids=["polled", "realtime"])
@pytest.mark.parametrize("preset", PRESETS)
def test_every_event_kind_happens_in_every_preset(preset, polled):
    rules = Rules.preset(preset)
    want = expected_kinds(rules, polled)
    seen: set[str] = set()
    for seed in range(400):
        s = State(rules, 2 + seed % 4, seed=seed, polled=polled)
        rng = random.Random(seed)
        while not s.is_over():
            events: list[Event] = []
            seat, action = random_move(s, rng, calm=seed % 2 == 0)
            s.apply(action, seat, events)
            seen |= {kind(e) for e in events}
        if want <= seen:
            break
    assert seen == want


@pytest.mark.parametrize("polled", [True, False], ids=["polled", "realtime"])
@pytest.mark.parametrize("preset", PRESETS)
def test_the_events_a_seat_sees_rebuild_its_view(preset, polled):
    """Over 1,200 seeded rounds in all: after every action, each seat's (and a spectator's)
    grids, held card and pile as rebuilt from the events it may see are its view."""
    rules = Rules.preset(preset, empty_grid_calls_cambio=preset == "house")
    for seed in range(200):
        s, played = seeded_round(rules, 2 + seed % 3, seed, polled, calm=seed % 3 == 0)
        rebuilt = [EventView.deal(observe(s, seat)) for seat in [*range(s.n), None]]
        for _, _, _, events in played:
            assert events, "every action reports what happened"
            check_views(rebuilt, s, seed, events)


def test_asking_for_events_changes_nothing_in_the_round():
    rules = Rules.preset("wikipedia")
    for seed in range(50):
        quiet, loud = State(rules, 4, seed=seed), State(rules, 4, seed=seed)
        rng = random.Random(seed)
        while not quiet.is_over():
            seat, action = random_move(quiet, rng, calm=True)
            quiet.apply(action, seat)
            loud.apply(action, seat, [])
            assert quiet == loud
        assert quiet.history == loud.history


# ----------------------------------------------------------------------------- consumers
@pytest.mark.parametrize("polled", [True, False], ids=["polled", "realtime"])
@pytest.mark.parametrize("preset", PRESETS)
def test_records_observations_from_events_are_those_of_comparing_states(preset, polled):
    """Over 2,100 seeded rounds: for every action and every viewer, the observations the
    records (and the server) read off the events are, in the same order, those found by
    comparing the state before and after the action."""
    for seed in range(350):
        rules = Rules.preset(preset, snap_penalty=seed % 4,
                             max_grid=5 if seed % 3 == 0 else None)
        s, played = seeded_round(rules, 2 + seed % 5, seed, polled, calm=seed % 2 == 0)
        for before, seat, action, events in played:
            check_observations(before, seat, action, s, events)


@pytest.mark.parametrize("polled", [True, False], ids=["polled", "realtime"])
@pytest.mark.parametrize("preset,overrides", [
    ("cabo", {}), ("cabo", CABO_FIRST_EDITION), ("cambia", {}), ("evan", {})])
def test_other_groups_rules_events_rebuild_views_and_records(preset, overrides, polled):
    """The other groups' presets (exchanges, revealed cards, kept drawn cards, the queen's
    look): each seat's view rebuilt from its events, and the records' observations against
    those found by comparing states."""
    rules = Rules.preset(preset, **overrides)
    kinds: set[str] = set()
    for seed in range(60):
        s, played = seeded_round(rules, 2 + seed % 3, seed, polled, calm=seed % 3 == 0)
        rebuilt = [EventView.deal(observe(s, seat)) for seat in [*range(s.n), None]]
        for before, seat, action, events in played:
            kinds |= {kind(e) for e in events}
            check_views(rebuilt, s, seed, events)
            check_observations(before, seat, action, s, events)
    if preset == "cabo":
        assert "Exchanged" in kinds
