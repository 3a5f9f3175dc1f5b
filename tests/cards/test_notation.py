"""Card codes, action text and rule sets: exact round trips and typed errors."""

import pytest

from cambio.cards import (
    CardError,
    InvalidActionError,
    Rules,
    RulesError,
    action_text,
    card_code,
    deck_cards,
    parse_action,
    parse_card,
)
from cambio.cards.cards import NUM_CARD_CODES


def test_every_card_code_round_trips():
    for card in range(NUM_CARD_CODES):
        if card >> 2 == 0 and card & 3 > 1:
            continue  # only two joker codes exist
        assert parse_card(card_code(card)) == card


@pytest.mark.parametrize("text", ["", "K", "KX", "1H", "ZZ", "XS", "KDD"])
def test_bad_card_codes_are_rejected(text):
    with pytest.raises(CardError):
        parse_card(text)


def test_ten_may_be_written_10():
    assert parse_card("10h") == parse_card("TH")


def test_deck_composition():
    assert len(deck_cards(1, 2)) == 54
    assert len(deck_cards(3, 2)) == 162
    assert len(deck_cards(1, 0)) == 52


@pytest.mark.parametrize("text", [
    "cambio", "draw", "take", "swap 3", "discard", "peek 1.2", "look 0.1 2.3",
    "switch 0.0 1.5", "keep", "skip", "snap 2.0", "give 1", "pass",
])
def test_action_text_round_trips(text):
    assert action_text(parse_action(text)) == text


@pytest.mark.parametrize("text", ["", "fly", "swap", "swap x", "peek 3", "snap 1.", "look 1.1",
                                  "draw 1", "switch 0.1 2", "x" * 100,
                                  # digits str.isdigit() accepts and int() does not, or other
                                  # scripts' digits: only ASCII digits are action text
                                  "swap \u00b2", "snap 0.\u00b2", "give \u2462", "peek \u00b9.0",
                                  "swap \u0663", "look 0.\u0661 1.0", "swap 1_0"])
def test_bad_action_text_is_rejected(text):
    with pytest.raises(InvalidActionError):
        parse_action(text)


@pytest.mark.parametrize("text", ["exchange 0", "exchange 0 1 2 3 4", "exchange 0 16",
                                  "exchange 0 99", "exchange 0 -1", "exchange 0 x",
                                  "exchange 1 1"])
def test_an_exchange_names_two_to_four_slots_below_sixteen(text):
    """Refused with a message that quotes what was written."""
    with pytest.raises(InvalidActionError, match=f"^{text!r}: exchange "):
        parse_action(text)


def test_an_exchange_of_slots_up_to_fifteen_round_trips():
    assert action_text(parse_action("exchange 0 15")) == "exchange 0 15"


def test_rules_json_round_trip_and_overrides():
    r = Rules.preset("wikipedia", lock_caller=True, value_joker=-1)
    assert r.overrides() == {"lock_caller": True, "value_joker": -1}
    assert Rules.from_json(r.to_json()) == r
    assert Rules.preset("house", snap_penalty="2").snap_penalty == 2


@pytest.mark.parametrize("bad", [
    {"preset": "nope"}, {"preset": "house", "overrides": {"nope": 1}},
    {"overrides": {"snap_penalty": -1}}, {"overrides": {"power_jack_queen": "fly"}},
    {"overrides": {"lock_caller": "maybe"}}, ["house"], {"preset": "house", "extra": 1},
])
def test_bad_rules_are_rejected(bad):
    with pytest.raises(RulesError):
        Rules.from_json(bad)


@pytest.mark.parametrize("field", ["resnap", "deck", "kamikaze", "round_zero"])
def test_a_choice_rule_given_no_value_names_its_choices(field):
    """``null`` for a rule chosen from a list (not one of the optional fields) is refused
    with the list, like any other value that is not text."""
    with pytest.raises(RulesError, match=f"^rule {field} must be one of"):
        Rules.from_json({"preset": "cabo", "overrides": {field: None}})


@pytest.mark.parametrize("preset", ["rulebook", "house", "wikipedia"])
def test_every_preset_has_the_turn_cap_and_it_is_overridable(preset):
    base = Rules.preset(preset)
    assert base.max_turns == 1000
    assert "max_turns" not in base.overrides()
    capped = Rules.preset(preset, max_turns="40")
    assert capped.max_turns == 40
    assert capped.to_json() == {"preset": preset, "overrides": {"max_turns": 40}}
    assert Rules.from_json(capped.to_json()) == capped


@pytest.mark.parametrize("bad", [0, -1, 10_001, True, "many"])
def test_a_turn_cap_out_of_range_is_rejected(bad):
    with pytest.raises(RulesError):
        Rules.preset("rulebook", max_turns=bad)
