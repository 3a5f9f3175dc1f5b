"""Edges of the card rules core that ``make mutation`` found untested (docs/testing.md).

Each test pins one boundary the rules text states -- a bound, a tie, the last card of the
deck, a field of the view -- so that changing the comparison or the value in the engine
fails here, not in a browser test or not at all.
"""

from __future__ import annotations

from collections import Counter

import pytest

from cambio.cards import (
    EMPTY,
    HIDDEN,
    EndReason,
    InvalidActionError,
    Match,
    Phase,
    Rules,
    RulesError,
    State,
    action_text,
    card_code,
    deck_cards,
    observe,
    parse_action,
    parse_card,
)
from cambio.cards.actions import DISCARD, DRAW, KEEP, PASS, SKIP, kind_of
from cambio.cards.rules import MAX_TURNS_LIMIT, Resnap
from cambio.cards.state import _shuffle

from .knowledge import check_knowledge_record


def c(code: str) -> int:
    return parse_card(code)


def dealt(preset: str, grids: list[str], draws: str = "", *, polled: bool = False,
          **overrides: object) -> State:
    """A round whose grids are the given cards and whose deck is exactly ``draws`` (top
    first); ``--`` in a grid is an empty slot. The cards of the rules' decks not listed are
    out of the round, so the last card of the deck is at hand."""
    rules = Rules.preset(preset, **overrides)
    listed = [c(x) for g in grids for x in g.split() if x != "--"] + [c(x) for x in draws.split()]
    spare = iter(sorted(set(deck_cards(rules.decks_for(len(grids)), rules.jokers_per_deck))
                        - set(listed)))
    deck = [next(spare) if x == "--" else c(x) for g in grids for x in g.split()]
    s = State(rules, len(grids), seed=3, polled=polled, deck=deck)
    for seat, g in enumerate(grids):
        for slot, code in enumerate(g.split()):
            if code == "--":
                s.grids[seat][slot] = EMPTY
                s.known[seat][slot] = 0
    s.deck = [c(x) for x in reversed(draws.split())]
    return s


# ----------------------------------------------------------------------------- chance
def test_a_seeded_deal_is_pinned():
    """Same seed, same deal: any change to the shuffle or the chance stream shows here."""
    s = State(Rules.preset("rulebook"), 2, seed=7)
    assert [[card_code(x) for x in g] for g in s.grids] == [
        ["TD", "3H", "4D", "5C"], ["KD", "QS", "AH", "9S"]]
    assert " ".join(card_code(x) for x in reversed(s.deck)) == (
        "4C 7S 6D KS 3D 2C 5H KC 9C JH 8S TC 2D 6C 9D 4S TS QC 9H JS 6S 5D 8D 3S AS 7D XB "
        "6H 2H QH 4H XR 2S AC QD 8H JD 5S 7H 3C AD TH KH JC 8C 7C")


def test_the_shuffle_reaches_every_order_of_three_cards():
    """An unbiased Fisher-Yates reaches all 6 orders, the identity included; Sattolo's
    variant (``j < i``) only ever makes the 2 cyclic ones."""
    seen: Counter[tuple[int, ...]] = Counter()
    for seed in range(600):
        cards = [0, 1, 2]
        _shuffle(cards, seed)
        seen[tuple(cards)] += 1
    assert len(seen) == 6
    # 600 draws of 6 equally likely orders: each lands in [60, 140] unless the
    # generator is biased (a miss by chance has probability below 1e-6).
    assert all(60 <= k <= 140 for k in seen.values()), seen


# ----------------------------------------------------------------------------- the end
def test_returns_when_everyone_ties_are_all_zero():
    s = dealt("rulebook", ["2C 3C 4C 5C", "2D 3D 4D 5D"], "2H", max_turns=1)
    assert s.returns() == [-1.0, -1.0]  # nobody has won a round that is still going
    s.play("draw")
    s.play("discard")
    assert s.end_reason == EndReason.TURN_CAP
    assert s.winners() == [0, 1]
    assert s.returns() == [0.0, 0.0]


def test_returns_of_a_winner_and_a_loser():
    s = dealt("rulebook", ["2C 3C 4C 5C", "2D 3D 4D 6D"], "2H", max_turns=1)
    s.play("draw")
    s.play("discard")
    assert s.returns() == [1.0, -1.0]


def test_three_way_tie_with_one_loser():
    s = dealt("rulebook", ["2C 3C 4C 5C", "2D 3D 4D 5D", "2S 3S 4S 5S", "KS 3H 4H 5H"],
              "2H", max_turns=1)
    s.play("draw")
    s.play("discard")
    assert s.winners() == [0, 1, 2]
    assert s.returns() == [1.0, 1.0, 1.0, -1.0]


def test_the_round_ends_when_the_deck_is_empty_and_the_pile_has_one_card():
    """docs/rules.md: no card can be drawn (the pile's top is never reshuffled) -- the round
    is scored before the next turn begins, not when that turn tries to draw."""
    s = dealt("rulebook", ["2C 3C 4C 5C", "2D 3D 4D 5D"], "6H")
    s.play("draw")
    assert s.deck == [] and not s.is_over()
    s.play("discard")
    assert s.pile == [c("6H")]
    assert s.is_over() and s.end_reason == EndReason.DECK_EXHAUSTED


def test_the_round_goes_on_when_the_pile_can_be_reshuffled():
    s = dealt("rulebook", ["2C 3C 4C 5C", "2D 3D 4D 5D"], "6H 6S")
    s.play("draw")
    s.play("discard")
    s.play("draw")
    s.play("discard")
    assert s.deck == [] and len(s.pile) == 2 and not s.is_over()
    s.play("draw")  # the 6H under the top is reshuffled into the deck and drawn
    assert s.reshuffles == 1 and s.held == c("6H") and s.pile == [c("6S")]


def test_a_penalty_card_with_nothing_to_draw_ends_the_round():
    s = dealt("rulebook", ["2C 3C 4C 5C", "2D 3D 4D 5D"], "6H 7H")
    s.play("draw")
    s.play("discard")  # seat 0 discards 6H
    s.play("draw")  # seat 1 holds the last card; the pile is the 6H alone
    assert s.deck == [] and s.pile == [c("6H")]
    s.play("snap 0.0", 0)  # wrong: 2C is no six, and no penalty card is left to draw
    assert s.is_over() and s.end_reason == EndReason.DECK_EXHAUSTED


@pytest.mark.parametrize("polled", [False, True])
def test_every_card_is_shown_to_everyone_when_the_round_ends(polled):
    s = dealt("rulebook", ["2C 3C 4C 5C", "2D 3D 4D 5D"], "2H", max_turns=1, polled=polled)
    s.play("draw")
    s.play("discard")
    while not s.is_over():
        s.play("pass")
    for seat in (0, 1, None):
        assert observe(s, seat).grids == tuple(tuple(g) for g in s.grids)


# ----------------------------------------------------------------------------- powers
@pytest.mark.parametrize("left,fires", [(1, False), (2, True)])
def test_swap_any_two_needs_two_cards_on_the_table(left, fires):
    """House jack: swap any two cards -- with a single card left there is nothing to swap."""
    grid0 = "2C -- -- --" if left == 1 else "2C 3C -- --"
    s = dealt("house", [grid0, "-- -- -- --"], "JH 2H")
    s.play("draw")
    s.play("discard")
    assert (s.phase == Phase.POWER) == fires
    if fires:
        assert s.legal_actions(0) == [parse_action("switch 0.0 0.1")]
    else:
        assert s.phase == Phase.TURN_START and s.turn == 1


def test_a_card_taken_from_the_pile_never_fires_when_discarded():
    """House rules fire only a card drawn from the deck and discarded at once; a pile card
    held by a seat whose grid was emptied is discarded without its power."""
    s = dealt("house", ["-- -- -- --", "2D 3D 4D 5D"], "9H")
    s.held, s.held_from_pile, s.phase = c("9H"), True, Phase.DRAWN
    assert s.legal_actions(0) == [parse_action("discard")]
    s.play("discard")
    assert s.phase == Phase.TURN_START and s.turn == 1 and s.pile == [c("9H")]


def test_a_card_drawn_from_the_deck_fires_when_discarded_in_the_house_rules():
    s = dealt("house", ["2C 3C 4C 5C", "2D 3D 4D 5D"], "9H")
    s.play("draw")
    s.play("discard")
    assert s.phase == Phase.POWER


def snap_when_asked(s: State, snapper: int, action: str) -> None:
    """Answer the open snap poll: every other seat asked first passes, then ``snapper``
    plays ``action``."""
    assert s.phase == Phase.POLL
    while s.current_player() != snapper:
        s.play("pass")
    s.play(action, snapper)


def test_no_snap_poll_when_no_card_is_left_to_snap():
    """A snap that takes the last card on the table leaves nothing to snap: the turn passes
    on instead of polling for snaps that cannot be."""
    s = dealt("rulebook", ["-- -- -- 3C", "-- -- -- --"], "3S 9H 9S", polled=True)
    s.play("draw")
    s.play("discard")
    snap_when_asked(s, 0, "snap 0.3")
    assert s.grids == [[EMPTY] * 4, [EMPTY] * 4] and s.pile == [c("3S"), c("3C")]
    assert s.phase == Phase.TURN_START and s.current_player() == 1


def test_a_snapper_whose_snap_called_cambio_is_not_asked_again_if_callers_may_not_snap():
    """House resnap (only the last snapper may snap again) with empty grids calling Cambio
    and callers barred from snapping: the snap that empties seat 0's grid makes it the
    caller, so nobody may snap the card and the turn passes on."""
    s = dealt("house", ["-- -- -- 5C", "3C 6D 7D 8D"], "3S 9H 9S", polled=True,
              empty_grid_calls_cambio=True, caller_may_snap=False)
    s.play("draw")
    s.play("discard")
    snap_when_asked(s, 0, "snap 1.0")
    assert s.phase == Phase.GIVE
    s.play("give 3", 0)
    assert s.caller == 0 and s.grids[0] == [EMPTY] * 4 and s.grids[1][0] == c("5C")
    assert s.phase == Phase.TURN_START and s.current_player() == 1


def test_an_enum_rule_given_as_plain_text_to_the_constructor_is_refused():
    """``Rules(...)`` takes values, not text (``Rules.preset`` reads text): a rule's name
    where its enum member belongs is the wrong type."""
    with pytest.raises(RulesError, match="wrong type"):
        Rules(resnap="snapper_only")  # type: ignore[arg-type]
    assert Rules(resnap=Resnap.SNAPPER_ONLY).resnap == Resnap.SNAPPER_ONLY


def test_a_snapper_whose_only_card_is_the_black_joker_gives_it():
    """The black joker is card code 0, and a card: a snapper holding only it has a card to
    give into the slot it snapped empty."""
    s = dealt("rulebook", ["XB -- -- --", "6D 3D 4D 5D"], "6H 2S")
    s.play("draw")
    s.play("discard")
    s.play("snap 1.0", 0)
    assert s.phase == Phase.GIVE and s.legal_actions(0) == [parse_action("give 0")]
    s.play("give 0", 0)
    assert s.grids == [[EMPTY] * 4, [c("XB"), c("3D"), c("4D"), c("5D")]]


def test_the_black_joker_counts_in_a_seats_card_total():
    """With jokers worth something (a house rule), the black joker (code 0) is summed in the
    card totals as in the scores."""
    s = dealt("rulebook", ["XB 2C 3C 4C", "XR 2D 3D 4D"], "6H", value_joker=-1)
    assert s.card_totals() == [8, 8] and s.scores() == [8, 8]


def test_a_grid_left_with_only_the_black_joker_has_not_called_cambio():
    s = dealt("rulebook", ["XB 6C -- --", "2D 3D 4D 5D"], "6H 2S",
              empty_grid_calls_cambio=True)
    s.play("draw")
    s.play("discard")
    s.play("snap 0.1", 0)
    assert s.grids[0] == [c("XB"), EMPTY, EMPTY, EMPTY]
    assert s.caller == -1 and observe(s, 1).caller is None


def test_a_grid_emptied_after_a_call_makes_no_second_caller():
    """docs/rules.md: an emptied grid calls Cambio only if nobody has called yet -- here
    seat 0 called, so seat 2's turn after seat 1's is still the last one."""
    s = dealt("rulebook", ["2C 3C 4C 5C", "2D 3D 4D 5D", "-- -- -- 6S"], "6H 2H",
              empty_grid_calls_cambio=True)
    s.play("cambio")
    s.play("draw")
    s.play("discard")  # seat 1's final turn: the 6H
    s.play("snap 2.3", 2)  # seat 2 snaps its last card
    assert s.caller == 0 and observe(s, 2).final_turns_left == 1
    s.play("draw")
    s.play("discard")  # seat 2's final turn
    assert s.is_over() and s.end_reason == EndReason.CAMBIO


def test_a_turn_begun_when_a_snap_calls_cambio_is_played_out_and_a_final_one_follows():
    """docs/rules.md (empty_grid_calls_cambio): a turn in progress finishes; it is not that
    player's final turn, which comes after the others'."""
    s = dealt("rulebook", ["2C 3C 4C 5C", "2D 3D 4D 5D", "-- -- -- 6S"], "6H 2H 2S 3H",
              empty_grid_calls_cambio=True)
    s.play("draw")
    s.play("discard")  # seat 0: the 6H
    s.play("draw")  # seat 1 holds the 2H
    s.play("snap 2.3", 2)  # seat 2 snaps its last card: it has called
    assert s.caller == 2
    s.play("discard")  # seat 1 finishes the turn it had begun
    assert s.turn == 0 and observe(s, 0).final_turns_left == 2
    s.play("draw")
    s.play("discard")  # seat 0's final turn
    assert s.turn == 1 and not s.is_over()
    s.play("draw")
    s.play("discard")  # seat 1's final turn
    assert s.is_over() and s.end_reason == EndReason.CAMBIO


def test_a_snap_that_calls_cambio_is_followed_by_the_next_snap_poll():
    """House resnap: after a right snap only the snapper may snap again, and the poll asks
    it at once -- also when that snap emptied its grid and so called Cambio."""
    s = dealt("house", ["-- -- -- 3C", "-- -- -- 3D"], "3S 2H", polled=True,
              empty_grid_calls_cambio=True)
    s.play("draw")
    s.play("discard")  # the 3S: both seats are asked, in an order drawn by chance
    first = s.current_player()
    other = 1 - first
    s.play(f"snap {first}.3", first)
    assert s.caller == first
    assert s.phase == Phase.POLL and observe(s, None).poll == (first,)
    assert s.legal_actions(first) == [PASS, parse_action(f"snap {other}.3")]


# ----------------------------------------------------------------------------- knowledge
def test_the_knowledge_record_names_exactly_who_saw_each_card():
    """docs/rules.md (Information): the engine records who has seen each card -- bit s for
    seat s, bit n once everyone has (a wrong snap, a card taken from the pile), nobody for
    an empty slot; a given card keeps its record; at the end everything is shown."""
    s = dealt("house", ["2C 3C 4C 5C", "6D 3D 4D 5D"], "6H 7H 2S", max_turns=3)
    everyone = 0b111
    assert s.known == [[0, 0, 1, 1], [0, 0, 2, 2]]  # the opening peek
    s.play("draw")
    s.play("discard")  # seat 0: the 6H
    s.play("snap 0.0", 1)  # wrong: the 2C is shown to all; seat 1 draws an unseen penalty
    assert s.known == [[everyone, 0, 1, 1], [0, 0, 2, 2, 0]]
    s.play("snap 1.0", 1)  # right, its own 6D: the slot is empty
    assert s.known[1] == [0, 0, 2, 2, 0]
    s.play("take")  # seat 1 takes the 6D back, in everyone's sight, and swaps it in
    s.play("swap 1")
    assert s.known[1] == [0, everyone, 2, 2, 0]
    s.play("snap 0.1", 1)  # right, seat 0's 3C on the 3D: seat 1 gives the 6D
    s.play("give 1", 1)
    assert s.known == [[everyone, everyone, 1, 1], [0, 0, 2, 2, 0]]
    check_knowledge_record(s)
    s.play("draw")
    s.play("discard")  # turn 3 is over: the round ends
    assert s.is_over() and s.end_reason == EndReason.TURN_CAP
    assert s.known == [[everyone] * 4, [everyone] * 5]


# ----------------------------------------------------------------------------- rule fields
@pytest.mark.parametrize("field,ok,bad", [
    ("snap_penalty", [0, 4], [-1, 5]),
    ("jokers_per_deck", [0, 8], [-1, 9]),
    ("opening_peek", [0, 4], [-1, 5]),
    ("max_grid", [4, 64, None], [3, 65]),
    ("earliest_cambio_turn", [1], [0]),
    ("max_turns", [1, MAX_TURNS_LIMIT], [0, MAX_TURNS_LIMIT + 1]),
    ("min_players", [2], [1]),
    ("players_per_extra_deck", [1], [0]),
])
def test_rule_field_bounds(field, ok, bad):
    for value in ok:
        assert getattr(Rules.preset("rulebook", **{field: value}), field) == value
    for value in bad:
        with pytest.raises(RulesError):
            Rules.preset("rulebook", **{field: value})


def test_max_players_may_equal_min_players_but_not_be_below():
    assert Rules.preset("rulebook", min_players=3, max_players=3).max_players == 3
    with pytest.raises(RulesError):
        Rules.preset("rulebook", min_players=3, max_players=2)


def test_at_most_64_players():
    rules = Rules.preset("rulebook")
    rules.check_players(64)
    with pytest.raises(RulesError, match="at most 64"):
        rules.check_players(65)
    with pytest.raises(RulesError):
        rules.check_players(1)
    wiki = Rules.preset("wikipedia")
    wiki.check_players(8)
    with pytest.raises(RulesError, match="at most 8"):
        wiki.check_players(9)


@pytest.mark.parametrize("text,value", [
    ("1", True), ("true", True), ("yes", True), ("on", True), (" Yes ", True), ("TRUE", True),
    ("0", False), ("false", False), ("no", False), ("off", False), ("No", False),
])
def test_boolean_rule_text(text, value):
    assert Rules.preset("rulebook", lock_caller=text).lock_caller is value


@pytest.mark.parametrize("text", ["y", "2", "", "truthy"])
def test_unreadable_boolean_rule_text(text):
    with pytest.raises(RulesError, match="cannot read"):
        Rules.preset("rulebook", lock_caller=text)


@pytest.mark.parametrize("text,value", [("none", None), ("NULL", None), ("", None),
                                        (" 7 ", 7)])
def test_optional_number_rule_text(text, value):
    assert Rules.preset("rulebook", max_grid=text).max_grid == value


def test_enum_rule_text_and_values():
    assert Rules.preset("rulebook", resnap=" snapper_only ").resnap == "snapper_only"
    with pytest.raises(RulesError, match="one of"):
        Rules.preset("rulebook", resnap="nobody")
    with pytest.raises(RulesError, match="one of"):
        Rules.preset("rulebook", resnap=3)
    assert Rules.preset("rulebook", snap_penalty="3").snap_penalty == 3


def test_decks_grow_every_players_per_extra_deck_seats():
    rules = Rules.preset("rulebook", players_per_extra_deck=3)
    assert [rules.decks_for(p) for p in (2, 3, 5, 6)] == [1, 2, 2, 3]


# ----------------------------------------------------------------------------- views
def test_view_final_turns_left_and_caller():
    s = dealt("rulebook", ["2C 3C 4C 5C", "2D 3D 4D 5D", "2S 3S 4S 5S"], "6H 6S")
    v = observe(s, 1)
    assert v.caller is None and v.final_turns_left == 0
    s.play("cambio")  # seat 0 calls: the two others have one turn each
    for seat in (0, 1, 2, None):
        v = observe(s, seat)
        assert v.caller == 0 and v.final_turns_left == 2
    s.play("draw")
    s.play("discard")
    assert observe(s, 2).final_turns_left == 1


def test_view_of_a_card_taken_from_the_pile():
    s = dealt("house", ["2C 3C 4C 5C", "2D 3D 4D 5D"], "6H 7H")
    s.play("draw")
    s.play("discard")
    s.play("take")
    for seat in (0, 1, None):
        v = observe(s, seat)
        assert v.held == c("6H") and v.held_from_pile
    s2 = dealt("house", ["2C 3C 4C 5C", "2D 3D 4D 5D"], "6H")
    s2.play("draw")
    assert not observe(s2, 0).held_from_pile and observe(s2, 1).held == HIDDEN


def test_view_of_the_snap_window_and_the_poll():
    s = dealt("house", ["2C 3C 4C 5C", "6D 3D 4D 5D", "2S 3S 4S 5S"], "6H 7H", polled=True)
    assert observe(s, 0).window == "closed" and observe(s, 0).poll == ()
    s.play("draw")
    s.play("discard")  # 6H: a snap poll asks every seat in turn
    assert s.phase == Phase.POLL
    v = observe(s, None)
    assert v.window == "anyone"
    assert len(v.poll) == 3 and sorted(v.poll) == [0, 1, 2]
    assert v.actor == v.poll[0]
    first = v.poll
    s.play("pass", first[0])
    assert observe(s, 2).poll == first[1:]
    # Seat 1 snaps its own 6D: house rules let only the snapper snap the 6D in turn.
    while s.current_player() != 1:
        s.play("pass")
    s.play("snap 1.0", 1)
    v = observe(s, 0)
    assert v.window == "seat 1" and v.poll == (1,)
    assert v.last_snap == (1, 256, c("6D"), True)


def test_view_of_a_give_and_a_look():
    s = dealt("rulebook", ["6C 3C 4C 5C", "2D 3D 4D 5D"], "6H KS")
    s.play("draw")
    s.play("discard")
    s.play("snap 0.0", 1)  # seat 1 snaps seat 0's 6C and gives a card
    v = observe(s, 0)
    assert v.phase == Phase.GIVE and v.give_seat == 1 and v.actor == 1
    assert observe(s, 1).legal == tuple(parse_action(f"give {i}") for i in range(4))
    s.play("give 3", 1)
    assert observe(s, 0).give_seat is None
    s.play("draw")  # seat 1's turn: the black king looks at two cards
    s.play("discard")
    s.play("look 1.0 0.1")
    v1, v0 = observe(s, 1), observe(s, 0)
    assert v1.power == "look_own_other_may_swap" and v1.looked == (256, 1)
    assert v1.grids[1][0] == c("2D") and v1.grids[0][1] == c("3C")
    assert v0.grids[1][0] == HIDDEN


def test_view_once_the_round_is_over():
    s = dealt("rulebook", ["2C 3C 4C 5C", "2D 3D 4D 6D"], "2H", max_turns=1)
    s.play("draw")
    s.play("discard")
    v = observe(s, 1)
    assert v.over and v.actor is None and v.legal == ()
    assert v.scores == (14, 15) and v.winners == (0,) and v.end_reason == "turn_cap"
    live = observe(dealt("rulebook", ["2C 3C 4C 5C", "2D 3D 4D 5D"], "2H"), 0)
    assert live.scores is None and live.winners is None and live.end_reason is None


# ----------------------------------------------------------------------------- actions
@pytest.mark.parametrize("text", ["snap 0.256", "snap 256.0", "peek 1.999", "swap 256",
                                  "give 300", "look 0.1 0.256", "switch 256.1 0.1"])
def test_out_of_range_addresses_are_rejected(text):
    with pytest.raises(InvalidActionError):
        parse_action(text)


@pytest.mark.parametrize("text", ["snap 255.255", "swap 255", "look 0.1 255.0"])
def test_the_highest_addresses_round_trip(text):
    assert action_text(parse_action(text)) == text


def test_action_text_is_read_case_blind_and_trimmed():
    assert parse_action("  SNAP 1.2 ") == parse_action("snap 1.2")
    assert parse_action("Draw") == parse_action("draw")


def test_action_text_length_limit():
    assert parse_action("draw" + " " * 60) == parse_action("draw")  # 64 characters
    with pytest.raises(InvalidActionError, match="too long"):
        parse_action("draw" + " " * 61)


@pytest.mark.parametrize("text", ["", "   ", "fly", "draw 1", "snap", "snap 1", "snap 1.x",
                                  "snap x.1", "swap -1", "swap ²", "look 0.1", "snap 1.2 1.3"])
def test_malformed_action_text(text):
    with pytest.raises(InvalidActionError):
        parse_action(text)


def test_action_codes_outside_the_kinds_have_no_text():
    with pytest.raises(InvalidActionError):
        action_text(14)
    assert action_text(12) == "pass"
    assert action_text(13 | 0b101 << 5) == "exchange 0 2"


def test_action_builders_agree_with_the_text_form():
    from cambio.cards import actions as a

    assert a.swap(3) == parse_action("swap 3") and a.give(2) == parse_action("give 2")
    assert a.peek(1, 3) == parse_action("peek 1.3") and a.snap(2, 0) == parse_action("snap 2.0")
    assert a.look(a.addr(0, 1), a.addr(1, 2)) == parse_action("look 0.1 1.2")
    assert a.switch(a.addr(3, 0), a.addr(0, 3)) == parse_action("switch 3.0 0.3")
    act = parse_action("switch 3.7 2.5")
    assert a.kind_of(act) == a.SWITCH
    assert (a.addr_seat(a.arg_a(act)), a.addr_slot(a.arg_a(act))) == (3, 7)
    assert (a.addr_seat(a.arg_b(act)), a.addr_slot(a.arg_b(act))) == (2, 5)
    assert a.flipped(act) == parse_action("switch 2.5 3.7")
    assert a.flipped(parse_action("snap 1.1")) == parse_action("snap 1.1")
    assert a.addr_text(a.addr(255, 255)) == "255.255"


def test_view_json_carries_every_field():
    s = dealt("house", ["2C 3C 4C 5C", "6D 3D 4D 5D"], "6H 7H KD", polled=True)
    s.play("draw")
    s.play("discard")
    while s.current_player() != 1:
        s.play("pass")
    s.play("snap 1.0", 1)
    data = observe(s, 1).to_json()
    assert data == {
        "game": "cards", "seat": 1, "players": 2, "rules": Rules.preset("house").to_json(),
        "phase": "poll", "actor": 1, "turn": 0, "turn_number": 1, "dealer": 1, "deck": 2,
        "discard": ["6H", "6D"], "grids": [["?", "?", "?", "?"], [None, "?", "4D", "5D"]],
        "held": None, "held_from_pile": False, "power": None, "looked": None,
        "caller": None, "final_turns_left": 0, "window": "seat 1", "poll": [1],
        "give_seat": None, "last_snap": {"seat": 1, "slot": "1.0", "card": "6D", "right": True},
        "reshuffles": 0, "legal": ["pass", "snap 0.0", "snap 0.1", "snap 0.2", "snap 0.3",
                                   "snap 1.1", "snap 1.2", "snap 1.3"],
        "scores": None, "winners": None, "end_reason": None,
    }
    s2 = dealt("rulebook", ["2C 3C 4C 5C", "2D 3D 4D 6D"], "KS 2H", max_turns=1)
    s2.play("draw")
    s2.play("discard")
    s2.play("look 0.0 1.0")
    mid = observe(s2, 0).to_json()
    assert mid["power"] == "look_own_other_may_swap" and mid["looked"] == ["0.0", "1.0"]
    assert mid["held"] is None and mid["grids"][1][0] == "2D"
    s2.play("keep")
    end = observe(s2, None).to_json()
    assert end["scores"] == [14, 15] and end["winners"] == [0] and end["actor"] is None
    assert end["end_reason"] == "turn_cap" and end["legal"] == [] and end["seat"] is None


# ----------------------------------------------------------------------------- matches
def test_match_round_seeds_are_pinned_and_distinct():
    m = Match(Rules.preset("rulebook"), 3, seed=5, rounds=2)
    assert (m.round_seed(1), m.round_seed(2)) == (1991626467088056876, 8317952219176820608)
    first = m.new_round()
    assert first.seed == m.round_seed(1) and first.dealer == 2 and first.n == 3


def test_a_match_needs_rounds_or_a_target():
    rules = Rules.preset("rulebook")
    with pytest.raises(RulesError):
        Match(rules, 2, rounds=None, target=None)
    with pytest.raises(RulesError):
        Match(rules, 2, rounds=0)
    with pytest.raises(RulesError):
        Match(rules, 1)
    m = Match(rules, 3, rounds=None, target=50, first_dealer=4)
    assert m.dealer == 1 and m.next_first_player() == 2 and m.totals == [0, 0, 0]
    assert m.round_number == 1 and not m.is_over()


def _finish(state: State) -> None:
    while not state.is_over():
        acts = state.legal_actions()
        pick = [a for a in acts if kind_of(a) in (DRAW, DISCARD, PASS, SKIP, KEEP)]
        state.apply(pick[0] if pick else acts[0])


def test_match_rounds_add_up_and_the_dealer_moves_left():
    m = Match(Rules.preset("rulebook", max_turns=6), 3, seed=2, rounds=2)
    s = m.new_round()
    with pytest.raises(RulesError):
        m.new_round()  # the round is not finished
    with pytest.raises(RulesError):
        m.finish_round(s)  # not over yet
    _finish(s)
    with pytest.raises(RulesError):
        m.finish_round(State(Rules.preset("rulebook"), 3))  # not this match's round
    m.finish_round(s)
    assert m.round_scores == [s.scores()] and m.round_winners == [s.winners()]
    assert m.totals == s.scores() and m.dealer == 0 and m.next_first_player() == 1
    assert m.round_number == 2 and not m.is_over()
    s2 = m.new_round()
    assert s2.dealer == 0 and s2.current_player() == 1 and s2.seed == m.round_seed(2)
    _finish(s2)
    m.finish_round(s2)
    assert m.totals == [a + b for a, b in zip(s.scores(), s2.scores(), strict=True)]
    assert m.is_over() and m.winners() == [p for p in range(3) if m.totals[p] == min(m.totals)]
    with pytest.raises(RulesError):
        m.new_round()


def test_match_target_is_reached_at_the_target_total():
    m = Match(Rules.preset("rulebook", max_turns=1), 2, seed=1, rounds=None, target=1)
    s = m.new_round()
    _finish(s)
    m.finish_round(s)
    assert max(m.totals) >= 1 and m.is_over()
    high = max(m.totals)
    exact = Match(Rules.preset("rulebook", max_turns=1), 2, seed=1, rounds=None, target=high)
    s = exact.new_round()
    _finish(s)
    exact.finish_round(s)
    assert exact.is_over()
    above = Match(Rules.preset("rulebook", max_turns=1), 2, seed=1, rounds=None,
                  target=high + 1)
    s = above.new_round()
    _finish(s)
    above.finish_round(s)
    assert not above.is_over()


def test_the_winner_starts_the_next_round_first_clockwise_among_tied_winners():
    rules = Rules.preset("wikipedia", max_turns=1)
    m = Match(rules, 4, seed=3, rounds=3, first_dealer=1)
    s = m.new_round()
    _finish(s)
    winners = s.winners()
    m.finish_round(s)
    first = 2  # the round's first player (dealer 1)
    starter = min(winners, key=lambda w: (w - first) % 4)
    assert m.next_first_player() == starter and m.dealer == (starter - 1) % 4


# ----------------------------------------------------------------------------- odds and ends
def test_card_ranks_suits_and_joker_colours():
    from cambio.cards.cards import is_red, rank_of, suit_of

    kd = parse_card("KD")
    assert (rank_of(kd), suit_of(kd), is_red(kd)) == (13, 1, True)
    assert (rank_of(parse_card("AS")), suit_of(parse_card("AS"))) == (1, 3)
    assert [card_code(x) for x in deck_cards(decks=1, jokers_per_deck=4)[-4:]] == [
        "XB", "XR", "XB", "XR"]
    assert len(deck_cards(decks=2, jokers_per_deck=1)) == 106


def test_rules_field_names_and_powers():
    rules = Rules.preset("rulebook")
    names = Rules.field_names()
    assert "preset_name" not in names and names[0] == "min_players"
    assert names[-1] == "max_turns" and len(names) == 46
    assert rules.power_of(parse_card("7C")) == "peek_own"
    assert rules.power_of(parse_card("KS")) == "look_own_other_may_swap"
    assert rules.value(parse_card("KD")) == -1


def test_view_helpers_and_state_text():
    s = dealt("rulebook", ["2C 3C 4C 5C", "2D 3D 4D 5D"], "6H 7H")
    assert observe(s, 0).own_grid() == (HIDDEN, HIDDEN, c("4C"), c("5C"))
    assert observe(s, None).own_grid() == () and observe(s, 1).top() == EMPTY
    s.play("draw")
    s.play("discard")
    assert observe(s, 1).top() == c("6H")
    assert repr(State(Rules.preset("house"), 2, seed=7)) == (
        "<cards.State house turn=1 seat=0 phase=TURN_START top=-- "
        "[8H 3S 3D 3C | 4D 6C 4C 4S]>")
    assert repr(s) == ("<cards.State rulebook turn=2 seat=1 phase=TURN_START top=6H "
                       "[2C 3C 4C 5C | 2D 3D 4D 5D]>")


def test_which_cards_are_red():
    from cambio.cards.cards import is_red

    red = {card_code(x) for x in deck_cards(decks=1, jokers_per_deck=2) if is_red(x)}
    assert red == {r + s for r in "A23456789TJQK" for s in "DH"} | {"XR"}


@pytest.mark.parametrize("text,code", [("10H", "TH"), (" kd ", "KD"), ("xr", "XR"),
                                       ("XB", "XB"), ("as", "AS")])
def test_card_codes_read(text, code):
    assert card_code(parse_card(text)) == code


@pytest.mark.parametrize("text", ["1H", "KX", "XC", "ZZ", "K", "KDD", "", "10"])
def test_bad_card_codes(text):
    from cambio.cards import CardError

    with pytest.raises(CardError):
        parse_card(text)


@pytest.mark.parametrize("field,value", [
    ("lock_caller", 1), ("snap_penalty", True), ("snap_penalty", "x"), ("max_grid", "x"),
    ("max_players", 2.5), ("resnap", "nobody"), ("power_nine_ten", 3), ("tie_rule", None),
    ("jokers_per_deck", 1.0),
])
def test_rule_values_of_the_wrong_type(field, value):
    with pytest.raises(RulesError):
        Rules.preset("rulebook", **{field: value})


def test_rules_from_json_checks_its_shape():
    bad: object
    for bad in ([], {"preset": 1}, {"overrides": []}, {"preset": "x"}, {"colour": 1},
                {"overrides": {"preset_name": "house"}}):
        with pytest.raises(RulesError):
            Rules.from_json(bad)
    assert Rules.from_json({}) == Rules.preset("rulebook")
    assert Rules.from_json({"preset": "house", "overrides": {"snap_penalty": "2"}}) == \
        Rules.preset("house", snap_penalty=2)
    with pytest.raises(RulesError):
        Rules(preset_name="nosuch")


def test_an_illegal_action_error_names_the_seat_the_action_and_the_reason():
    from cambio.cards import IllegalActionError

    s = dealt("rulebook", ["2C 3C 4C 5C", "2D 3D 4D 5D"], "6H 7H")
    with pytest.raises(IllegalActionError) as err:
        s.play("draw", 1)
    assert (err.value.seat, err.value.action) == (1, "draw")
    assert err.value.reason == "it is seat 0's move (turn_start)"
    assert str(err.value) == "seat 1 cannot play 'draw': it is seat 0's move (turn_start)"
    s.play("draw")
    s.play("discard")
    s.play("draw")
    s.play("discard")
    with pytest.raises(IllegalActionError) as over:
        s.play("draw", 0)
    assert over.value.seat == 0 and str(over.value).startswith("seat 0 cannot play 'draw'")
