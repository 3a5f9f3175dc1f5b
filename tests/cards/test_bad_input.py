"""Bad input gets a clear, typed error and changes nothing (hypothesis-generated)."""

from __future__ import annotations

import contextlib
import json
import random
import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cambio.cards import (
    CambioError,
    IllegalActionError,
    InvalidActionError,
    Rules,
    RulesError,
    State,
    card_code,
    observe,
)
from cambio.records.cards import make_header, record_text, replay
from cambio.records.jsonl import RecordError, parse_record

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _midgame(seed: int, preset: str, players: int, polled: bool, steps: int) -> State:
    s = State(Rules.preset(preset), players, seed=seed, polled=polled)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_over():
            break
        seat = s.current_player() if polled else rng.choice(s.actors())
        s.apply(rng.choice(s.legal_actions(seat)), seat)
    return s


@SETTINGS
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(["rulebook", "house", "wikipedia"]),
       players=st.integers(2, 6), polled=st.booleans(), steps=st.integers(0, 60),
       seat=st.integers(-3, 8),
       action=st.one_of(st.integers(-5, 1 << 40), st.text(max_size=30),
                        st.sampled_from(["snap 0.0", "snap 1.4", "peek 0.2", "swap 9", "take",
                                         "cambio", "give 0", "look 0.0 1.0", "switch 0.0 1.1",
                                         "keep", "skip", "pass", "discard", "draw"])))
# A switch written with its addresses in the other order is that same switch (State.play).
@example(seed=3, preset="rulebook", players=3, polled=False, steps=3, seat=1,
         action="SWITCH 0.0 1.0")
def test_illegal_actions_are_rejected_and_change_nothing(seed, preset, players, polled, steps,
                                                         seat, action):
    s = _midgame(seed, preset, players, polled, steps)
    before = s.clone()
    legal = 0 <= seat < players and isinstance(action, (int, str)) and _is_legal(s, seat, action)
    if legal:
        return
    try:
        s.play(action, seat)
    except (IllegalActionError, InvalidActionError) as exc:
        assert s == before
        _assert_no_hidden_card_named(before, seat, str(exc), str(action))
    else:
        raise AssertionError(f"{action!r} by {seat} was accepted")


def _is_legal(s: State, seat: int, action: int | str) -> bool:
    """Whether ``play`` must accept it: a legal action, or a switch or look with its two
    addresses in the other order (the same action, SPEC's ruling on either order)."""
    from cambio.cards import parse_action
    from cambio.cards.actions import flipped

    try:
        a = parse_action(action) if isinstance(action, str) else action
    except InvalidActionError:
        return False
    if isinstance(a, bool) or a < 0:
        return False
    legal = s.legal_actions(seat)
    return a in legal or flipped(a) in legal


def _assert_no_hidden_card_named(s: State, seat: int, message: str, sent: str = "") -> None:
    """An error message never names a card the seat has not seen.

    A code that is in the text the seat sent (``sent``, which the message may quote back)
    tells the seat nothing it did not write itself, so it is not counted."""
    if not 0 <= seat < s.n:
        seen: set[int] = set()
    else:
        v = observe(s, seat)
        seen = {c for g in v.grids for c in g if c >= 0} | set(v.discard)
        if v.held >= 0:
            seen.add(v.held)
    hidden = {c for c in s.all_cards()} - seen
    for card in hidden:
        if re.search(rf"\b{card_code(card)}\b", sent):
            continue
        assert not re.search(rf"\b{card_code(card)}\b", message), message


def _valid_record(seed: int) -> str:
    s = _midgame(seed, "wikipedia", 3, True, 10_000)
    return record_text(make_header(s.rules, 3, seed=seed), s.history)


VALID = [_valid_record(k) for k in range(3)]


@st.composite
def mutated_records(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(VALID)).splitlines()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["drop", "dup", "swap", "garble", "edit", "truncate"]))
        if op == "drop" and len(lines) > 1:
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "garble":
            lines[i] = draw(st.text(max_size=40))
        elif op == "truncate":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        else:
            try:
                obj = json.loads(lines[i])
            except ValueError:
                continue
            if isinstance(obj, dict) and obj:
                key = draw(st.sampled_from(sorted(obj)))
                obj[key] = draw(st.one_of(
                    st.none(), st.integers(-3, 300), st.text(max_size=12), st.booleans(),
                    st.lists(st.text(max_size=3), max_size=4),
                    st.sampled_from(["snap 0.0", "draw", "KD", "XR", "give 2", "house"])))
                lines[i] = json.dumps(obj)
    return "\n".join(lines)


@SETTINGS
@given(text=mutated_records())
def test_malformed_records_fail_with_a_line_and_reason(text):
    try:
        replay(parse_record(text))
    except RecordError as exc:
        assert exc.line >= 0 and exc.reason
        assert str(exc).startswith(("line ", "record:"))


@SETTINGS
@given(text=st.text(max_size=300))
def test_garbage_is_a_record_error(text):
    with contextlib.suppress(RecordError):
        replay(parse_record(text))


@SETTINGS
@given(data=st.dictionaries(st.sampled_from(Rules.field_names() + ["bogus"]),
                            st.one_of(st.integers(-3, 70), st.booleans(), st.none(),
                                      st.text(max_size=10))),
       preset=st.sampled_from(["rulebook", "house", "wikipedia", "nope"]))
def test_bad_rule_overrides_are_rules_errors(data, preset):
    try:
        rules = Rules.from_json({"preset": preset, "overrides": data})
    except RulesError:
        return
    assert Rules.from_json(rules.to_json()) == rules
    with contextlib.suppress(CambioError):
        State(rules, 3, seed=1)


def test_illegal_move_in_a_record_names_its_line():
    lines = VALID[0].splitlines()
    lines.insert(3, json.dumps({"seat": 0, "action": "snap 9.9"}))
    try:
        replay(parse_record("\n".join(lines)))
    except RecordError as exc:
        assert exc.line == 4
    else:
        raise AssertionError("accepted")
