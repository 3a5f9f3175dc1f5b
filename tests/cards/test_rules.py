"""One test (at least) per rule of SPEC 1.1-1.3, per preset, mostly as hand-written records.

Each scenario is a real record with an explicit deck, validated by ``cambio replay``'s code
path: the expected cards are written into the record, so a broken rule shows up as a
rejected line (or an accepted line that should have been rejected).
"""

import copy
import pickle

import pytest

from cambio.cards import (
    EMPTY,
    HIDDEN,
    EndReason,
    Phase,
    Rules,
    RulesError,
    State,
    observe,
    parse_action,
    parse_card,
)
from cambio.cards.actions import Kind, kind_of

from .scenario import fails, play

ALL = ["rulebook", "house", "wikipedia"]
G2 = ["2C 3C 4C 5C", "2D 3D 4D 5D"]
G3 = G2 + ["2H 3H 4H 5H"]


def c(code: str) -> int:
    return parse_card(code)


# ----------------------------------------------------------------------------- values, deal
@pytest.mark.parametrize("preset,grids,expected", [
    ("rulebook", ["AC JC QC KS", "KH XB 5D TD"], [31, 14]),
    ("wikipedia", ["AC JC QC KS", "KH XB 5D TD"], [31, 14]),
    ("house", ["AC JC QC KS", "KD 2D 5D TD"], [43, 16]),
])
def test_card_values(preset, grids, expected):
    assert play(preset, grids).scores() == expected


def test_custom_card_values_house_rule():
    s = play("rulebook", ["AC JC QC KS", "KH XB 5D TD"], value_black_king=-2, value_joker=-1)
    assert s.scores() == [19, 13]


def test_jokers_are_not_in_the_house_deck():
    err = fails("house", ["AC JC QC KS", "KH XB 5D TD"])
    assert err.line == 1 and "XB" in err.reason


@pytest.mark.parametrize("preset,players,cards,jokers", [
    ("rulebook", 2, 54, 2), ("rulebook", 5, 54, 2), ("rulebook", 6, 108, 4),
    ("rulebook", 12, 162, 6), ("house", 5, 52, 0), ("house", 6, 104, 0), ("house", 12, 156, 0),
    ("wikipedia", 8, 108, 4),
])
def test_decks_and_jokers_per_table_size(preset, players, cards, jokers):
    s = State(Rules.preset(preset), players, seed=3)
    every = s.all_cards()
    assert len(every) == cards
    assert sum(1 for x in every if x >> 2 == 0) == jokers
    assert all(len([x for x in g if x >= 0]) == 4 for g in s.grids)


def test_wikipedia_allows_at_most_eight_players():
    with pytest.raises(RulesError):
        State(Rules.preset("wikipedia"), 9)
    with pytest.raises(RulesError):
        State(Rules.preset("rulebook"), 1)


@pytest.mark.parametrize("preset", ALL)
def test_opening_peek_shows_own_bottom_two_only(preset):
    s = play(preset, G2)
    assert observe(s, 0).grids == ((HIDDEN, HIDDEN, c("4C"), c("5C")), (HIDDEN,) * 4)
    assert observe(s, 1).grids == ((HIDDEN,) * 4, (HIDDEN, HIDDEN, c("4D"), c("5D")))
    assert observe(s, None).grids == ((HIDDEN,) * 4, (HIDDEN,) * 4)


@pytest.mark.parametrize("preset", ALL)
def test_play_goes_clockwise_from_left_of_dealer(preset):
    play(preset, G3, "6C 6D 6S", "0 draw card=6C\n0 discard\n1 draw card=6D\n1 discard\n2 draw")
    play(preset, G3, "6C", "1 draw card=6C", dealer=0)
    err = fails(preset, G3, "6C 6D", "0 draw\n0 discard\n2 draw")
    assert err.line == 4 and "seat 1" in err.reason


# ----------------------------------------------------------------------------- the turn
def test_rulebook_never_draws_from_the_discard_pile():
    err = fails("rulebook", G2, "6C", "0 draw\n0 discard\n1 take")
    assert err.line == 4 and "discard pile" in err.reason


@pytest.mark.parametrize("preset", ["house", "wikipedia"])
def test_discard_draw_must_be_swapped_in_and_is_seen_by_all(preset):
    s = play(preset, G2, "6C", "0 draw card=6C\n0 discard\n1 take card=6C\n1 swap 0 discarded=2D")
    assert s.grids[1][0] == c("6C")
    assert observe(s, 0).grids[1][0] == c("6C")
    assert observe(s, None).grids[1][0] == c("6C")
    err = fails(preset, G2, "6C", "0 draw\n0 discard\n1 take\n1 discard")
    assert err.line == 5 and "must be swapped" in err.reason


@pytest.mark.parametrize("preset", ALL)
def test_drawn_card_is_seen_by_the_drawer_only(preset):
    s = play(preset, G2, "6C", "0 draw card=6C")
    assert observe(s, 0).held == c("6C")
    assert observe(s, 1).held == HIDDEN
    assert observe(s, None).held == HIDDEN
    s = play(preset, G2, "6C", "0 draw\n0 swap 1 discarded=3C")
    assert observe(s, 0).grids[0][1] == c("6C")
    assert observe(s, 1).grids[0][1] == HIDDEN


# ----------------------------------------------------------------------------- powers
def test_rulebook_fires_the_replaced_card():
    s = play("rulebook", ["9C 3C 4C 5C", G2[1]], "6H",
             "0 draw card=6H\n0 swap 0 discarded=9C\n0 peek 1.0 card=2D")
    assert observe(s, 0).grids[1][0] == c("2D")


@pytest.mark.parametrize("preset", ["house", "wikipedia"])
def test_only_a_drawn_and_discarded_card_fires(preset):
    err = fails(preset, ["9C 3C 4C 5C", G2[1]], "6H", "0 draw\n0 swap 0\n0 peek 1.0")
    assert err.line == 4
    s = play(preset, ["9C 3C 4C 5C", G2[1]], "6H", "0 draw\n0 swap 0")
    assert s.turn == 1 and s.phase == Phase.TURN_START


@pytest.mark.parametrize("preset", ALL)
def test_drawn_and_discarded_power_card_fires(preset):
    s = play(preset, G2, "9H", "0 draw card=9H\n0 discard\n0 peek 1.0 card=2D")
    assert observe(s, 0).grids[1][0] == c("2D")
    assert observe(s, 1).grids[1][0] == HIDDEN


def test_wikipedia_powers_are_optional():
    s = play("wikipedia", G2, "9H", "0 draw\n0 discard\n0 skip")
    assert s.turn == 1


@pytest.mark.parametrize("preset", ["rulebook", "house"])
def test_powers_are_required(preset):
    err = fails(preset, G2, "9H", "0 draw\n0 discard\n0 skip")
    assert err.line == 4


@pytest.mark.parametrize("preset", ALL)
@pytest.mark.parametrize("card", ["7H", "8H"])
def test_seven_eight_peek_own(preset, card):
    s = play(preset, G2, card, f"0 draw card={card}\n0 discard\n0 peek 0.0 card=2C")
    assert observe(s, 0).grids[0][0] == c("2C")
    assert fails(preset, G2, card, "0 draw\n0 discard\n0 peek 1.0").line == 4


@pytest.mark.parametrize("preset", ALL)
@pytest.mark.parametrize("card", ["9H", "TH"])
def test_nine_ten_peek_another_players_card(preset, card):
    play(preset, G2, card, f"0 draw card={card}\n0 discard\n0 peek 1.3 card=5D")
    assert fails(preset, G2, card, "0 draw\n0 discard\n0 peek 0.0").line == 4


def test_powers_in_the_opposite_order_house_rule():
    rules = {"power_seven_eight": "peek_other", "power_nine_ten": "peek_own"}
    play("rulebook", G2, "7H", "0 draw\n0 discard\n0 peek 1.0 card=2D", **rules)
    play("rulebook", G2, "9H", "0 draw\n0 discard\n0 peek 0.0 card=2C", **rules)


@pytest.mark.parametrize("preset", ["rulebook", "wikipedia"])
@pytest.mark.parametrize("card", ["JH", "QH"])
def test_jack_queen_blind_swap_own_with_another(preset, card):
    s = play(preset, G2, card, f"0 draw card={card}\n0 discard\n0 switch 0.3 1.0")
    assert s.grids[0][3] == c("2D") and s.grids[1][0] == c("5C")
    # Knowledge moves with the card: seat 0 knew 5C and still knows where it is.
    assert observe(s, 0).grids[1][0] == c("5C")
    assert observe(s, 0).grids[0][3] == HIDDEN
    assert observe(s, 1).grids[1][0] == HIDDEN
    assert fails(preset, G2, card, "0 draw\n0 discard\n0 switch 1.0 1.1").line == 4


@pytest.mark.parametrize("card", ["JH", "QH"])
def test_house_jack_queen_swap_any_two_cards(card):
    s = play("house", G3, card, f"0 draw card={card}\n0 discard\n0 switch 1.0 2.1")
    assert s.grids[1][0] == c("3H") and s.grids[2][1] == c("2D")
    s = play("house", G3, card, "0 draw\n0 discard\n0 switch 1.2 1.3")
    assert s.grids[1][2:] == [c("5D"), c("4D")]
    assert observe(s, 1).grids[1][2:] == (c("5D"), c("4D"))


@pytest.mark.parametrize("preset", ["rulebook", "wikipedia"])
def test_black_king_looks_own_and_other_then_may_switch(preset):
    s = play(preset, G2, "KS", "0 draw\n0 discard\n0 look 0.0 1.0 cards=2C,2D\n0 switch 0.0 1.0")
    assert s.grids[0][0] == c("2D") and s.grids[1][0] == c("2C")
    assert observe(s, 0).grids[0][0] == c("2D")
    s = play(preset, G2, "KS", "0 draw\n0 discard\n0 look 0.0 1.0\n0 keep")
    assert s.grids[0][0] == c("2C") and observe(s, 0).grids[1][0] == c("2D")
    assert fails(preset, G2, "KS", "0 draw\n0 discard\n0 look 0.0 1.0\n0 switch 0.1 1.1").line == 5
    assert fails(preset, G2, "KS", "0 draw\n0 discard\n0 look 1.0 1.1").line == 4


@pytest.mark.parametrize("preset", ["rulebook", "wikipedia"])
def test_switch_and_look_take_their_two_addresses_in_either_order(preset):
    # "switch 1.0 0.3" was once refused while "switch 0.3 1.0" was legal.
    s = play(preset, G2, "JH", "0 draw\n0 discard\n0 switch 1.0 0.3")
    assert s.grids[0][3] == c("2D") and s.grids[1][0] == c("5C")
    s = play(preset, G2, "KS",
             "0 draw\n0 discard\n0 look 1.0 0.0 cards=2C,2D\n0 switch 1.0 0.0")
    assert s.grids[0][0] == c("2D") and s.grids[1][0] == c("2C")
    assert fails(preset, G2, "JH", "0 draw\n0 discard\n0 switch 1.1 1.0").line == 4
    # The engine answers with the action as it offers it: one action, two spellings.
    s = play(preset, G2, "JH", "0 draw\n0 discard")
    offered = parse_action("switch 0.3 1.0")
    assert offered in s.legal_actions(0)
    assert parse_action("switch 1.0 0.3") not in s.legal_actions(0)
    assert s.play("switch 1.0 0.3", 0) == offered


def test_house_king_look_and_switch_in_either_order():
    s = play("house", G3, "KS",
             "0 draw\n0 discard\n0 look 2.0 1.0 cards=2D,2H\n0 switch 0.1 0.0")
    assert s.grids[0][:2] == [c("3C"), c("2C")]


def test_rulebook_red_king_is_like_black_king():
    play("rulebook", G2, "KH", "0 draw\n0 discard\n0 look 0.1 1.1 cards=3C,3D\n0 keep")


def test_wikipedia_red_king_has_no_power():
    s = play("wikipedia", G2, "KH", "0 draw\n0 discard")
    assert s.turn == 1 and s.phase == Phase.TURN_START


@pytest.mark.parametrize("card", ["KS", "KH"])
def test_house_king_looks_any_two_then_must_switch_any_two(card):
    s = play("house", G3, card,
             "0 draw\n0 discard\n0 look 1.0 2.0 cards=2D,2H\n0 switch 0.0 0.1")
    assert s.grids[0][:2] == [c("3C"), c("2C")]
    assert observe(s, 0).grids[1][0] == c("2D") and observe(s, 0).grids[2][0] == c("2H")
    assert fails("house", G3, card, "0 draw\n0 discard\n0 look 1.0 2.0\n0 keep").line == 5


def test_a_power_with_no_target_is_skipped():
    # 2 players, caller's hand locked: a 9 has nobody else's card to peek at.
    s = play("rulebook", G2, "9H", "0 cambio\n1 draw\n1 discard", lock_caller=True)
    assert s.is_over()


# ----------------------------------------------------------------------------- snapping
SNAP = ["2C 3C 7C 5C", "2D 3D 7S 5D"]


@pytest.mark.parametrize("preset", ALL)
def test_snap_own_card_right_shrinks_the_grid(preset):
    s = play(preset, SNAP, "7D 6H",
             "0 draw card=7D\n0 discard\n0 peek 0.0\n0 snap 0.2 card=7C right=true")
    assert s.grids[0][2] == EMPTY and s.pile[-1] == c("7C")
    assert s.card_counts() == [3, 4]
    assert s.phase == Phase.TURN_START and s.turn == 1  # snapped cards never fire


@pytest.mark.parametrize("preset", ALL)
def test_snap_another_players_card_gives_one_of_yours(preset):
    s = play(preset, SNAP, "7D 6H",
             "0 draw\n0 discard\n0 peek 0.0\n0 snap 1.2 card=7S right=true\n0 give 3")
    assert s.grids[1][2] == c("5C") and s.grids[0][3] == EMPTY
    assert observe(s, 0).grids[1][2] == c("5C")  # the giver knew it
    assert observe(s, 1).grids[1][2] == HIDDEN  # unseen by the receiver
    assert s.card_counts() == [3, 4]


@pytest.mark.parametrize("preset", ALL)
def test_wrong_snap_shows_the_card_and_costs_a_penalty(preset):
    s = play(preset, SNAP, "7D 6H 6S",
             "0 draw\n0 discard\n0 peek 0.0\n1 snap 0.0 card=2C right=false penalty=6H")
    assert s.grids[0][0] == c("2C")  # back where it was
    assert observe(s, None).grids[0][0] == c("2C")  # everyone saw it
    assert s.grids[1][4] == c("6H") and observe(s, 1).grids[1][4] == HIDDEN
    assert s.card_counts() == [4, 5]
    play(preset, SNAP, "7D 6H 6S", "0 draw\n0 discard\n0 peek 0.0\n1 snap 0.0\n1 draw card=6S")


@pytest.mark.parametrize("preset", ["rulebook", "wikipedia"])
def test_anyone_may_snap_the_snapped_card_again(preset):
    play(preset, SNAP, "7D 6H",
         "0 draw\n0 discard\n0 peek 0.0\n0 snap 0.2 right=true\n1 snap 1.2 card=7S right=true")


def test_house_only_the_snapper_goes_on_snapping():
    grids = ["7H 3C 7C 5C", "2D 3D 7S 5D"]
    err = fails("house", grids, "7D 6H", "0 draw\n0 discard\n0 peek 0.0\n0 snap 0.2\n1 snap 1.2")
    assert err.line == 6 and "only seat 0" in err.reason
    play("house", grids, "7D 6H",
         "0 draw\n0 discard\n0 peek 0.0\n0 snap 0.2 right=true\n0 snap 0.0 card=7H right=true")


@pytest.mark.parametrize("preset", ["rulebook", "wikipedia"])
def test_snap_race_later_snaps_are_judged_against_the_new_top(preset):
    # Seat 0 wins the 7S; seat 1's snap of the same slot now turns over the given 5C.
    s = play(preset, SNAP, "7D 6H",
             "0 draw\n0 discard\n0 peek 0.0\n0 snap 1.2 right=true\n0 give 3\n"
             "1 snap 1.2 card=5C right=false penalty=6H")
    assert s.pile[-1] == c("7S") and s.card_counts() == [3, 5]


@pytest.mark.parametrize("preset", ALL)
def test_snap_after_learning_the_match_through_a_peek(preset):
    grids = ["2C 3C 4C 5C", "2D 9S 4D 5D"]
    s = play(preset, grids, "9H",
             "0 draw\n0 discard\n0 peek 1.1 card=9S\n0 snap 1.1 right=true\n0 give 0")
    assert s.card_counts() == [3, 4]


@pytest.mark.parametrize("preset", ALL)
def test_no_snapping_while_a_power_resolves(preset):
    err = fails(preset, SNAP, "7D", "0 draw\n0 discard\n1 snap 0.2")
    assert err.line == 4 and "power" in err.reason


@pytest.mark.parametrize("preset", ALL)
def test_nothing_to_snap_on_an_empty_pile(preset):
    err = fails(preset, SNAP, "", "1 snap 0.0")
    assert "empty" in err.reason


def test_snap_window_closes_when_the_pile_is_taken():
    err = fails("house", SNAP, "6H 6S", "0 draw\n0 discard\n1 draw\n1 discard\n0 take\n"
                "1 snap 0.0")
    assert "closed" in err.reason


def test_one_snap_per_discard_house_rule():
    grids = ["7H 3C 7C 5C", "2D 3D 7S 5D"]
    err = fails("rulebook", grids, "7D 6H",
                "0 draw\n0 discard\n0 peek 0.0\n0 snap 0.2\n1 snap 1.2", one_snap_per_discard=True)
    assert err.line == 6 and "closed" in err.reason


def test_snap_penalty_of_two_cards_house_rule():
    s = play("rulebook", SNAP, "7D 6H 6S",
             "0 draw\n0 discard\n0 peek 0.0\n1 snap 0.0 penalty=6H,6S", snap_penalty=2)
    assert s.card_counts() == [4, 6]


def test_maximum_grid_size_house_rule():
    # Grid of 5 at most: the first penalty adds slot 4, the second finds no room.
    s = play("rulebook", SNAP, "7D 6H 6S",
             "0 draw\n0 discard\n0 peek 0.0\n1 snap 0.0 penalty=6H\n1 snap 0.1", max_grid=5)
    assert s.card_counts() == [4, 5] and s.deck[-1] == c("6S")
    # With an empty slot, the penalty fills it.
    s = play("rulebook", SNAP, "7D 6H 6S",
             "0 draw\n0 discard\n0 peek 0.0\n1 snap 1.2 right=true\n1 snap 1.0 right=false "
             "penalty=6H", max_grid=4)
    assert s.grids[1][2] == c("6H") and len(s.grids[1]) == 4


def test_polled_snap_race_first_asked_wins_and_order_is_fair():
    """Polled tables ask every seat in a seeded clockwise order; the first valid snap wins."""
    firsts = set()
    for seed in range(40):
        s = play("rulebook", SNAP + ["2H 3H 4H 5H"], "7D", "0 draw\n0 discard\n0 peek 0.0",
                 polled=True, seed=seed)
        assert s.phase == Phase.POLL and sorted(s.poll) == [0, 1, 2]
        order = list(s.poll)
        firsts.add(order[0])
        assert order == [(order[0] + i) % 3 for i in range(3)]  # clockwise
        first = order[0]
        s.play("snap 1.2", first)  # the 7S: right for whoever is asked first
        assert s.last_snap is not None and s.last_snap[3]
        assert s.pile[-1] == c("7S")
        # Nobody else can take the 7S any more: it is on the pile.
    assert firsts == {0, 1, 2}


def test_polled_same_seed_same_poll_order():
    def order(seed):
        return play("rulebook", SNAP + ["2H 3H 4H 5H"], "7D", "0 draw\n0 discard\n0 peek 0.0",
                    polled=True, seed=seed).poll
    assert order(5) == order(5)
    assert len({tuple(order(k)) for k in range(12)}) > 1


# ----------------------------------------------------------------------------- Cambio
@pytest.mark.parametrize("preset", ALL)
def test_cambio_gives_every_other_player_one_last_turn(preset):
    s = play(preset, G3, "6C 6D 6H",
             "0 draw\n0 discard\n1 cambio\n2 draw\n2 discard\n0 draw\n0 discard")
    assert s.is_over() and s.end_reason == EndReason.CAMBIO and s.caller == 1
    err = fails(preset, G3, "6C 6D 6H", "0 draw\n0 discard\n1 cambio\n2 draw\n2 discard\n1 draw")
    assert err.line == 7


@pytest.mark.parametrize("preset", ALL)
def test_round_ends_when_the_last_final_turns_power_resolves(preset):
    s = play(preset, G2, "9H", "0 cambio\n1 draw\n1 discard\n1 peek 0.0 card=2C")
    assert s.is_over()
    err = fails(preset, G2, "9H", "0 cambio\n1 draw\n1 discard\n1 peek 0.0\n0 snap 1.0")
    assert err.line == 6 and "over" in err.reason


@pytest.mark.parametrize("preset", ALL)
def test_cambio_only_on_your_turn_before_drawing_and_once(preset):
    assert "seat 0" in fails(preset, G2, "", "1 cambio").reason
    assert "start of your turn" in fails(preset, G2, "6C", "0 draw\n0 cambio").reason
    assert "already" in fails(preset, G3, "6C", "0 cambio\n1 draw\n1 discard\n2 cambio").reason


def test_caller_cards_stay_in_play_unless_locked():
    moves = "0 cambio\n1 draw\n1 discard\n1 peek 0.0 card=2C"
    play("rulebook", G3, "9H", moves)
    assert fails("rulebook", G3, "9H", moves, lock_caller=True).line == 5
    play("rulebook", G3, "9H", "0 cambio\n1 draw\n1 discard\n1 peek 2.0", lock_caller=True)
    snap = "0 cambio\n1 draw\n1 discard\n1 peek 2.0\n2 snap 0.0"
    play("rulebook", G3, "9H 6C", snap)
    assert fails("rulebook", G3, "9H 6C", snap, lock_caller=True).line == 6


def test_caller_may_not_snap_house_rule():
    moves = "0 cambio\n1 draw\n1 discard\n0 snap 1.0"
    play("rulebook", G3, "6H", moves)
    assert "caller may not snap" in fails("rulebook", G3, "6H", moves,
                                          caller_may_snap=False).reason


def test_earliest_cambio_turn_house_rule():
    assert "from turn 3" in fails("rulebook", G2, "", "0 cambio", earliest_cambio_turn=3).reason
    play("rulebook", G2, "6C 6D", "0 draw\n0 discard\n1 draw\n1 discard\n0 cambio",
         earliest_cambio_turn=3)


# ----------------------------------------------------------------------------- ties
TIE = ["AC 2C 3C 4C", "AD 2D 3D 4D", "5C 5D 6C TC"]


@pytest.mark.parametrize("preset,winners", [("rulebook", [0, 1]), ("house", [0, 1]),
                                            ("wikipedia", [1])])
def test_tie_with_the_caller(preset, winners):
    s = play(preset, TIE, "6H 6S", "0 cambio\n1 draw\n1 discard\n2 draw\n2 discard")
    assert s.scores()[0] == s.scores()[1] < s.scores()[2]
    assert s.winners() == winners


@pytest.mark.parametrize("preset,winners", [("rulebook", [0, 1]), ("wikipedia", [1])])
def test_tie_on_points_most_cards_wins_in_wikipedia(preset, winners):
    s = play(preset, TIE, "6H XR 6S 6D 5H",
             "0 draw\n0 discard\n1 snap 2.0 card=5C right=false penalty=XR\n1 draw\n1 discard\n"
             "2 cambio\n0 draw\n0 discard\n1 draw\n1 discard")
    assert s.scores()[:2] == [10, 10] and s.card_counts()[:2] == [4, 5]
    assert s.winners() == winners


# ----------------------------------------------------------------------------- empty grid, deck
EMPTYABLE = ["7C 7D 7H 7S", "2D 3D 4D 5D"]
EMPTY_MOVES = ("0 draw card=7C\n0 discard\n0 peek 0.0\n0 snap 0.0 right=true\n"
               "0 snap 0.1 right=true\n0 snap 0.2 right=true\n0 snap 0.3 right=true")


@pytest.mark.parametrize("preset", ALL)
def test_a_player_with_no_cards_goes_on_playing(preset):
    kw = {"players_per_extra_deck": 2}
    s = play(preset, EMPTYABLE, "7C 6H 6S 7D",
             EMPTY_MOVES + "\n1 draw\n1 discard\n0 draw card=6S\n0 discard", **kw)
    assert s.card_counts()[0] == 0 and s.scores()[0] == 0
    assert fails(preset, EMPTYABLE, "7C 6H 6S", EMPTY_MOVES + "\n1 draw\n1 discard\n0 draw\n"
                 "0 swap 0", **kw).line == 12
    # Powers fire as usual, but one with no possible target (peek own) is skipped.
    s = play(preset, EMPTYABLE, "7C 6H 7D", EMPTY_MOVES + "\n1 draw\n1 discard\n0 draw\n0 discard",
             **kw)
    assert s.turn == 1 and s.phase == Phase.TURN_START


def test_empty_grid_calls_cambio_house_rule():
    s = play("rulebook", EMPTYABLE, "7C 6H", EMPTY_MOVES + "\n1 draw\n1 discard",
             players_per_extra_deck=2, empty_grid_calls_cambio=True)
    assert s.caller == 0 and s.is_over() and s.winners() == [0]


def test_deck_runs_out_reshuffle_then_exhaustion_ends_the_round():
    """Reshuffle the pile but its top; when no card can be drawn at all, score at once."""
    s = State(Rules.preset("house"), 2, seed=11, polled=False)
    total = len(s.all_cards())
    saw_reshuffle = False
    while not s.is_over():
        t = s.current_player()
        other = 1 - t
        if s.reshuffles and s.phase == Phase.TURN_START and s.pile and s.can_snap(other):
            top = s.pile[-1] >> 2
            wrong = [i for i, x in enumerate(s.grids[t]) if x >= 0 and x >> 2 != top]
            if wrong:  # after a reshuffle, pull cards out of the deck with wrong snaps
                grown = len(s.grids[other])
                s.play(f"snap {t}.{wrong[0]}", other)
                assert len(s.grids[other]) == grown + 1 or s.is_over()
                continue
        acts = s.legal_actions(t)
        pref = [a for a in acts if kind_of(a) in (Kind.DRAW, Kind.DISCARD)]
        if s.deck == [] and s.phase == Phase.TURN_START and len(s.pile) > 1:
            s.play(pref[0] if pref else acts[0], t)
            assert s.reshuffles >= 1 and len(s.pile) == 1
            saw_reshuffle = True
            continue
        s.play(pref[0] if pref else acts[0], t)
        assert len(s.all_cards()) == total
    assert saw_reshuffle
    assert s.end_reason == EndReason.DECK_EXHAUSTED
    assert not s.deck and len(s.pile) <= 1


# ----------------------------------------------------------------------------- next round
def _finish(state: State, call_at: int) -> None:
    while not state.is_over():
        acts = state.legal_actions()
        if 0 in acts and state.turn_number >= call_at:
            state.apply(0)
        else:
            calm = (Kind.DRAW, Kind.DISCARD, Kind.PASS, Kind.SKIP, Kind.KEEP)
            pick = [a for a in acts if kind_of(a) in calm]
            state.apply(pick[0] if pick else acts[0])


@pytest.mark.parametrize("preset", ["rulebook", "house"])
def test_dealer_moves_left_each_round(preset):
    from cambio.cards import Match

    m = Match(Rules.preset(preset), 3, seed=4, rounds=4)
    firsts = []
    while not m.is_over():
        s = m.new_round()
        firsts.append(s.turn)
        _finish(s, 3)
        m.finish_round(s)
    assert firsts == [0, 1, 2, 0]
    assert m.totals == [sum(r[i] for r in m.round_scores) for i in range(3)]


def test_wikipedia_winner_starts_next_round():
    from cambio.cards import Match

    m = Match(Rules.preset("wikipedia"), 4, seed=9, rounds=6)
    prev_winners: list[int] = []
    while not m.is_over():
        s = m.new_round()
        if prev_winners:
            assert s.turn in prev_winners
        _finish(s, 2)
        m.finish_round(s)
        prev_winners = m.round_winners[-1]


def test_match_to_a_target_total():
    from cambio.cards import Match

    m = Match(Rules.preset("house"), 2, seed=1, rounds=None, target=100)
    while not m.is_over():
        s = m.new_round()
        _finish(s, 2)
        m.finish_round(s)
    assert max(m.totals) >= 100
    assert m.winners() == [i for i in range(2) if m.totals[i] == min(m.totals)]


def test_the_caller_is_skipped_when_the_call_comes_from_a_snap_poll():
    """Seat 1 empties its grid in the poll after seat 0's discard: seat 1 has called, so
    the next turn is seat 2's, and seats 2 and 0 get one final turn each."""
    grids = ["2C 3C 4C 5C", "7C 7D 7H 7S", "2H 3H 4H 5H"]
    s = play("rulebook", grids, "7C 6D 6H 6S", "0 draw\n0 discard\n0 peek 0.0", polled=True,
             players_per_extra_deck=2, empty_grid_calls_cambio=True)
    while s.phase == Phase.POLL:
        seat = s.current_player()
        mine = [i for i, x in enumerate(s.grids[1]) if x >= 0]
        s.play(f"snap 1.{mine[0]}" if seat == 1 and mine else "pass", seat)
    assert s.caller == 1 and s.card_counts()[1] == 0
    assert s.turn == 2 and s.phase == Phase.TURN_START
    for seat in (2, 0):
        s.play("draw", seat)
        s.play("discard", seat)
        while s.phase == Phase.POLL:
            s.play("pass")
    assert s.is_over() and s.winners() == [1]


# ----------------------------------------------------------------------------- turn cap
def _draw_and_discard_forever(state: State) -> None:
    """Nobody ever calls: every turn draws and discards (powers skipped or spent at once)."""
    while not state.is_over():
        seat = state.current_player()
        acts = state.legal_actions(seat)
        calm = [a for a in acts if kind_of(a) not in (Kind.CAMBIO, Kind.SNAP)]
        ends = kind_of(calm[-1]) in (Kind.DISCARD, Kind.SKIP, Kind.KEEP, Kind.PASS)
        state.play(calm[-1] if ends else calm[0], seat)


@pytest.mark.parametrize("preset", ["rulebook", "house", "wikipedia"])
@pytest.mark.parametrize("polled", [True, False])
def test_the_turn_cap_ends_the_round_and_scores_it(preset, polled):
    rules = Rules.preset(preset, max_turns=30)
    s = State(rules, 3, seed=4, polled=polled)
    _draw_and_discard_forever(s)
    assert s.end_reason == EndReason.TURN_CAP
    assert s.turn_number == 30 and s.caller == -1
    assert s.scores() == [sum(rules.value(c) for c in g if c >= 0) for g in s.grids]
    low = min(s.scores())
    assert set(s.winners()) <= {seat for seat in range(3) if s.scores()[seat] == low}
    assert s.legal_actions(0) == [] and s.held == EMPTY


@pytest.mark.parametrize("preset", ["rulebook", "house", "wikipedia"])
def test_the_default_turn_cap_is_far_beyond_a_real_round(preset):
    s = State(Rules.preset(preset), 2, seed=9)
    _draw_and_discard_forever(s)
    assert s.end_reason in (EndReason.TURN_CAP, EndReason.DECK_EXHAUSTED)
    if s.end_reason == EndReason.TURN_CAP:
        assert s.turn_number == 1000


def test_calling_cambio_on_the_last_turn_before_the_cap_ends_the_round():
    s = State(Rules.preset("rulebook", max_turns=5), 2, seed=3)
    while s.turn_number < 5:
        s.play("draw")
        s.play("discard")
        while s.phase != Phase.TURN_START and not s.is_over():
            s.play(s.legal_actions()[-1])
    s.play("cambio")
    assert s.is_over() and s.end_reason == EndReason.TURN_CAP and s.caller == 0


def test_clones_share_history_yet_diverge_independently():
    s = State(Rules.preset("house"), 2, seed=6)
    s.play("draw")
    twin = s.clone()
    assert twin == s and twin.history == s.history
    s.play("discard")
    assert twin.history == s.history[:-1] and twin != s
    twin.play("swap 0")  # the other branch: copies its own prefix, leaves s alone
    assert s.history[-1][1] == parse_action("discard")
    assert twin.history[-1][1] == parse_action("swap 0")
    assert s.history[:-1] == twin.history[:-1] and len(s.history) == s.history_length()


# ----------------------------------------------------------------------------- copies
# Both builds run this file (`make unit` runs it again with CAMBIO_PURE_PYTHON=1): a state
# sent to another process (Ray, multiprocessing) or deep-copied must come back the same.
@pytest.mark.parametrize("preset", ALL)
@pytest.mark.parametrize("steps", [0, 1, 25])
def test_a_state_pickles_and_deep_copies_to_an_equal_state(preset, steps):
    s = State(Rules.preset(preset), 3, seed=1)
    for _ in range(steps):
        if s.is_over():
            break
        s.play(observe(s, s.current_player()).legal[-1], s.current_player())
    for twin in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert twin == s and twin is not s
        assert twin.history == s.history and twin.grids is not s.grids
        # The copy plays on by itself, exactly as the original does.
        if not s.is_over():
            seat = s.current_player()
            action = observe(s, seat).legal[0]
            original = s.clone()
            original.play(action, seat)
            twin.play(action, seat)
            assert twin == original and s != original
