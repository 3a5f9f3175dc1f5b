"""Check every message a client received against the engine's own knowledge.

After a game, its full record is fetched and replayed through the engine. For each message
to seat ``s`` (``None``: a spectator) at version ``v`` of a round:

* every face-up card in the message's view is one the engine's knowledge masks say ``s`` had
  seen at ``v`` (checked on the masks directly, not through the view code), and the card is
  the one really there;
* the view is exactly ``observe(state_v, s)``, and each event exactly the record's
  observations filtered by their audience;
* nothing anywhere in a message is a seed or a deck order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cambio.cards import State, card_code, observe, parse_action
from cambio.records.cards import observations, state_from_header
from cambio.records.jsonl import parse_record


@dataclass
class Round:
    states: list[State]
    facts: list[list[tuple[str, Any, int]]]
    moves: list[tuple[int, str]]


def replay_round(record_text: str) -> Round:
    rec = parse_record(record_text)
    state = state_from_header(rec.header)
    states = [state.clone()]
    facts: list[list[tuple[str, Any, int]]] = [[]]
    moves: list[tuple[int, str]] = []
    for ev in rec.events:
        if "action" not in ev:
            continue
        before = state.clone()
        action = parse_action(ev["action"])
        state.play(action, ev["seat"])
        facts.append(observations(before, ev["seat"], action, state))
        states.append(state.clone())
        moves.append((ev["seat"], ev["action"]))
    return Round(states, facts, moves)


def expected_event(rnd: Round, v: int, seat: int | None) -> dict[str, Any]:
    st = rnd.states[v]
    n = st.n
    see = 1 << n if seat is None else (1 << n) | (1 << seat)
    who, text = rnd.moves[v - 1]
    ev: dict[str, Any] = {"v": v, "seat": who, "action": text}
    for key, value, audience in rnd.facts[v]:
        if audience & see:
            ev[key] = value
    if st.is_over():
        ev["end"] = {"reason": st.end_reason.name.lower(), "scores": st.scores(),
                     "winners": st.winners(),
                     "grids": [[card_code(c) if c >= 0 else None for c in g] for g in st.grids]}
    return ev


def assert_known(state: State, seat: int | None, view: dict[str, Any]) -> None:
    """Every card shown face up is one ``seat`` has seen (read on the masks directly)."""
    see = state.public if seat is None else state.public | (1 << seat)
    for p, grid in enumerate(view["grids"]):
        for i, code in enumerate(grid):
            if code is None or code == "?":
                continue
            assert state.known[p][i] & see, f"seat {seat} was shown {p}.{i} ({code}) unseen"
            assert code == card_code(state.grids[p][i])
    held = view["held"]
    if held not in (None, "?"):
        assert seat == state.turn or state.held_from_pile, f"seat {seat} saw another's draw"
    assert isinstance(view["deck"], int)


FORBIDDEN_KEYS = {"seed", "deck_order", "rng"}


def assert_no_secrets(obj: Any) -> None:
    if isinstance(obj, dict):
        for key, value in obj.items():
            assert key not in FORBIDDEN_KEYS, f"a message holds {key!r}"
            if key == "deck":
                assert isinstance(value, int), "a message holds the deck's cards"
            assert_no_secrets(value)
    elif isinstance(obj, list):
        for value in obj:
            assert_no_secrets(value)


def check_messages(messages: list[dict[str, Any]], seat: int | None,
                   rounds: dict[tuple[int, int], Round]) -> int:
    """Check one client's messages; returns how many views were checked."""
    checked = 0
    for msg in messages:
        assert_no_secrets(msg)
        if msg["type"] not in ("state", "update"):
            continue
        rnd = rounds[(msg["game_no"], msg["round"])]
        v = msg["version"]
        st = rnd.states[v]
        assert_known(st, seat, msg["view"])
        assert msg["view"] == observe(st, seat).to_json()
        if msg["type"] == "update":
            assert msg["event"] == expected_event(rnd, v, seat)
        else:
            assert msg["log"] == [expected_event(rnd, i, seat) for i in range(1, v + 1)]
        checked += 1
    return checked
