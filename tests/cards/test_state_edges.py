"""Edges of the card engine's state (``cambio.cards.state``) that ``make mutation`` found
untested: each pins a rule of docs/rules.md or a documented property of the engine."""

from __future__ import annotations

import pytest

from cambio.cards import (
    EndReason,
    IllegalActionError,
    InvalidActionError,
    Phase,
    Rules,
    RulesError,
    State,
    observe,
    parse_action,
    parse_card,
)
from cambio.cards._build import COMPILED


def test_a_clone_and_its_original_keep_their_own_histories():
    s = State(Rules.preset("rulebook"), 2, seed=1)
    s.play("draw")
    twin = s.clone()
    twin.play("discard")
    assert s.history == [(0, 1)] and s.history_length() == 1
    assert [a for _, a in twin.history] == [1, 4] and twin.history_length() == 2
    s.play("swap 2")
    assert [a for _, a in s.history] == [1, 3 | 2 << 5]
    assert [a for _, a in twin.history] == [1, 4]



# ----------------------------------------------------------------------------- the deal
def test_a_round_made_without_a_seed_is_seed_0s():
    rules = Rules.preset("rulebook")
    assert State(rules, 3) == State(rules, 3, seed=0)


@pytest.mark.parametrize("seed", [2.0, "7", None])
def test_a_seed_that_is_not_an_int_is_refused(seed):
    """The engine refuses with RulesError. Its mypyc build checks ``seed: int`` at the call
    first and refuses with its own TypeError (it also takes a bool for an int, which the
    source engine refuses)."""
    with pytest.raises((RulesError, TypeError) if COMPILED else RulesError):
        State(Rules.preset("rulebook"), 2, seed=seed)


def test_the_cards_under_a_given_top_of_the_deck_follow_the_seed():
    rules = Rules.preset("rulebook")
    top = [parse_card(x) for x in ("KD", "QS", "2C", "3C", "4C", "5C", "6C", "7C")]
    first = State(rules, 2, seed=11, deck=top)
    assert State(rules, 2, seed=11, deck=top) == first
    assert State(rules, 2, seed=12, deck=top).deck != first.deck


def test_a_deal_may_take_every_card_but_not_more():
    """Thirteen seats at one 52-card deck are dealt every card (and the round ends at once:
    no card can be drawn); a fourteenth is one seat too many."""
    rules = Rules.preset("rulebook", jokers_per_deck=0, players_per_extra_deck=20)
    s = State(rules, 13)
    assert s.deck == [] and sorted(c for g in s.grids for c in g) == list(range(4, 56))
    assert s.is_over() and s.end_reason == EndReason.DECK_EXHAUSTED
    with pytest.raises(RulesError, match="not enough cards to deal"):
        State(rules, 14)


def test_a_fresh_deal_shows_no_look_and_no_end():
    s = State(Rules.preset("rulebook"), 2, seed=1)
    assert observe(s, 0).looked is None and observe(s, None).looked is None
    assert s.end_reason == EndReason.NONE and not s.is_over()


# ----------------------------------------------------------------------------- reasons
def table(preset: str, draws: str, *, polled: bool, players: int = 2,
          **overrides: object) -> State:
    """Seat s holds 2-5 of one suit (clubs, diamonds, hearts); the deck starts ``draws``."""
    grids = [f"2{s} 3{s} 4{s} 5{s}" for s in "CDH"[:players]]
    top = [parse_card(x) for g in grids for x in g.split()] + [
        parse_card(x) for x in draws.split()]
    return State(Rules.preset(preset, **overrides), players, seed=5, polled=polled, deck=top)


def reason(s: State, action: str, seat: int) -> str:
    before = s.clone()
    with pytest.raises(IllegalActionError) as err:
        s.play(action, seat)
    assert s == before and err.value.seat == seat and err.value.action == action
    return err.value.reason


def test_why_a_snap_is_refused_at_a_polled_table():
    s = table("rulebook", "9S 8S KS", polled=True)
    assert reason(s, "snap 0.0", 0) == \
        "snaps are only offered in a snap poll (this table polls snaps)"
    s.play("draw")
    s.play("discard")  # the 9 fires: peek another's card first
    s.play("peek 1.0")
    asked, other = s.current_player(), 1 - s.current_player()
    assert s.phase == Phase.POLL
    assert reason(s, "snap 0.0", other) == f"the snap poll is asking seat {asked}"
    assert reason(s, "snap 1.7", asked) == "slot 1.7 holds no card that may be snapped"


def test_why_a_snap_is_refused_at_a_real_time_table():
    s = table("rulebook", "7S 8S 6S KS", polled=False)
    assert reason(s, "snap 0.0", 1) == "the discard pile is empty"
    s.play("draw")
    s.play("discard")  # the 7 fires: peek one of your own first
    assert reason(s, "snap 0.0", 1) == \
        "no snapping while a power or a give is being resolved"
    s.play("peek 0.0")
    assert reason(s, "snap 0.4", 1) == "slot 0.4 holds no card that may be snapped"


def test_why_a_snap_is_refused_once_the_window_closed_or_passed_to_the_snapper():
    s = table("house", "2S 8S 6S", polled=False, one_snap_per_discard=True)
    s.play("draw")
    s.play("discard")  # 2S on the pile; 2C and 2D match it
    s.play("snap 1.0", 1)
    assert reason(s, "snap 0.0", 0) == "the snap window is closed until the next discard"
    h = table("house", "2S 8S 6S", polled=False)
    h.play("draw")
    h.play("discard")
    h.play("snap 1.0", 1)  # house rules: now only the snapper may snap again
    assert reason(h, "snap 0.0", 0) == "only seat 1, who snapped last, may snap this card"


def test_why_the_caller_or_another_seat_may_not_snap_when_callers_may_not():
    s = table("rulebook", "6S 8S 2S 9D", polled=False, caller_may_snap=False,
              players=3)
    s.play("cambio")  # seat 0 calls; seat 1 plays
    s.play("draw")
    s.play("discard")
    assert reason(s, "snap 1.1", 0) == "the caller may not snap"
    assert reason(s, "snap 2.6", 2) == "slot 2.6 holds no card that may be snapped"


def test_why_other_actions_are_refused():
    s = table("rulebook", "9S 8S KS 6S", polled=True)
    assert reason(s, "discard", 0) == "'discard' is not one of the moves allowed now (turn_start)"
    assert reason(s, "take", 0) == "these rules do not allow drawing from the discard pile"
    s.play("cambio")
    s.play("draw")
    assert reason(s, "cambio", 1) == "Cambio has already been called this round"
    h = table("house", "9S 8S KS 6S", polled=False)
    h.play("draw")
    assert reason(h, "cambio", 0) == \
        "Cambio can only be called at the start of your turn, before drawing"
    h.play("discard")  # drawn from the deck in the house rules: the 9 fires
    h.play("peek 1.0")
    h.play("take", 1)
    assert reason(h, "discard", 1) == \
        "a card taken from the discard pile must be swapped into your grid"
    assert reason(h, "draw", 1) == "'draw' is not one of the moves allowed now (drawn)"
    e = table("rulebook", "", polled=True, earliest_cambio_turn=3)
    assert reason(e, "cambio", 0) == "Cambio may be called from turn 3"


def test_an_action_given_as_a_code_is_named_by_its_text_when_refused():
    s = table("rulebook", "9S", polled=True)
    s.play("draw")
    with pytest.raises(IllegalActionError) as err:
        s.play(0)  # the code of "cambio"
    assert err.value.action == "cambio" and err.value.reason.startswith("Cambio can only")
    with pytest.raises(IllegalActionError) as unknown:
        s.play(31)  # no kind has code 31: shown as the number
    assert unknown.value.action == "31"


def test_no_one_may_act_once_the_round_is_over_and_a_spectator_is_named_so():
    s = table("rulebook", "6S 6H", polled=True, max_turns=1)
    s.play("draw")
    s.play("discard")
    while not s.is_over():
        s.play("pass")
    with pytest.raises(IllegalActionError) as err:
        s.play("draw")
    assert err.value.seat is None and err.value.reason == "the round is over"
    assert str(err.value) == "spectator cannot play 'draw': the round is over"
    assert reason(s, "draw", 1) == "the round is over"
    with pytest.raises(IllegalActionError) as nobody:
        table("rulebook", "", polled=True).play("draw", 7)
    assert str(nobody.value) == "spectator cannot play 'draw': there is no seat 7"


def test_an_unknown_preset_is_named_with_the_presets_there_are():
    from cambio.cards import RulesError

    with pytest.raises(RulesError) as err:
        Rules(preset_name="casino")
    assert str(err.value) == "unknown preset 'casino'; presets: rulebook, house, " \
        "wikipedia, cabo, cambia, evan"


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("action", [-1, True, False])
def test_an_action_that_is_not_a_non_negative_int_is_invalid(action):
    s = table("rulebook", "6S", polled=True)
    before = s.clone()
    with pytest.raises(InvalidActionError):
        s.play(action)
    assert s == before


def test_a_code_of_no_action_is_named_by_its_first_40_digits():
    """An int no action has (kind 31 of a 46-digit code) is refused, and the error names it
    cut to 40 characters, however long the number."""
    s = table("rulebook", "6S", polled=True)
    before = s.clone()
    code = 10**45 + 31
    for seat in (None, 5):
        with pytest.raises(IllegalActionError) as err:
            s.play(code, seat)
        assert err.value.action == str(code)[:40] and s == before


@pytest.mark.parametrize("seat", [True, -1, 2])
def test_a_seat_that_is_not_one_of_the_tables_is_refused(seat):
    """(A bool is no seat; the compiled engine reads it as 1 in the message, hence ``in``.)"""
    s = table("rulebook", "6S", polled=True)
    before = s.clone()
    with pytest.raises(IllegalActionError) as err:
        s.play("draw", seat)
    assert err.value.seat is None and "there is no seat" in err.value.reason and s == before


@pytest.mark.parametrize("text,message", [
    ("peek 1.x", "'peek 1.x': '1.x' is not a slot address (seat.slot, e.g. 1.3)"),
    ("switch z.1 0.1", "'switch z.1 0.1': 'z.1' is not a slot address (seat.slot, e.g. 1.3)"),
    ("switch 0.1 9", "'switch 0.1 9': '9' is not a slot address (seat.slot, e.g. 1.3)"),
])
def test_a_bad_slot_address_is_named_with_the_whole_action(text, message):
    with pytest.raises(InvalidActionError) as err:
        parse_action(text)
    assert str(err.value) == message


def test_unreadable_rule_text_is_named_with_the_choices_when_there_are_choices():
    from cambio.cards import RulesError

    with pytest.raises(RulesError) as number:
        Rules.preset("rulebook", snap_penalty="lots")
    assert str(number.value) == "rule snap_penalty: cannot read 'lots'"
    with pytest.raises(RulesError) as choice:
        Rules.preset("rulebook", resnap="nobody")
    assert str(choice.value) == \
        "rule resnap: cannot read 'nobody'; one of ['anyone', 'snapper_only']"
    assert Rules.preset("rulebook", snap_penalty=2).snap_penalty == 2


# ----------------------------------------------------------------------------- snapping
def test_who_may_snap_at_a_polled_table():
    s = table("rulebook", "9S 8S KS", polled=True)
    assert not any(s.can_snap(seat) for seat in range(2))  # no poll yet
    s.play("draw")
    s.play("discard")
    assert not any(s.can_snap(seat) for seat in range(2))  # the 9's peek comes first
    s.play("peek 1.0")
    asked = s.current_player()
    assert s.can_snap(asked) and not s.can_snap(1 - asked)


def test_no_snap_while_a_power_is_resolved_at_a_real_time_table():
    s = table("rulebook", "9S 8S KS", polled=False)
    s.play("draw")
    s.play("discard")
    assert s.phase == Phase.POWER and not s.can_snap(0) and not s.can_snap(1)
    s.play("peek 1.0")
    assert s.can_snap(0) and s.can_snap(1)


# ----------------------------------------------------------------------------- views
def test_views_show_legal_actions_to_their_own_seat_only():
    s = table("rulebook", "6S", polled=True)
    assert observe(s, 0).legal == tuple(s.legal_actions(0)) != ()
    assert observe(s, 1).legal == () and observe(s, None).legal == ()


def test_the_poll_is_shown_only_while_it_asks():
    """A right snap of another's card during a poll pauses it for the give: the view then
    shows no poll (the snapper gives), and the poll resumes after."""
    s = table("rulebook", "2S 6S 6H", polled=True)
    s.play("draw")
    s.play("discard")  # 2S on the pile; seat 1 holds 2D in slot 0
    while s.current_player() != 0:
        s.play("pass")
    s.play("snap 1.0", 0)
    assert s.phase == Phase.GIVE and observe(s, 0).poll == () and observe(s, None).poll == ()
