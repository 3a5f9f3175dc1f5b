"""Check every message a client received against an independent oracle of what it may know.

After a game, its full record is fetched and replayed through the engine. For each message
to seat ``s`` (``None``: a spectator) at version ``v`` of a round:

* the grids and the held card in the message's view are exactly what the view oracle
  (``tests/cards/oracle.py``) says ``s`` has seen at ``v``: the true card where it has,
  ``?`` where it has not -- recomputed from the actions by the rules, never from the
  engine's knowledge masks or ``observe()``, so a broken ``observe()`` cannot pass;
* the rest of the view is exactly ``observe(state_v, s)``, and each event exactly the
  record's observations filtered by their audience -- computed here by comparing the states
  before and after each action (``tests/cards/diffed_observations.py``), not from the
  engine's events that the server sends;
* nothing anywhere in a message is a seed or a deck order.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from cambio.cards import EMPTY, HIDDEN, State, card_code, observe, parse_action
from cambio.records.cards import state_from_header
from cambio.records.jsonl import parse_record

from ..cards.diffed_observations import as_seen, diffed_observations
from ..cards.oracle import Oracle


@dataclass
class Round:
    states: list[State]
    facts: list[list[tuple[str, Any, int]]]
    moves: list[tuple[int, str]]
    oracles: list[Oracle]


def replay_round(record_text: str) -> Round:
    rec = parse_record(record_text)
    state = state_from_header(rec.header)
    states = [state.clone()]
    oracle = Oracle.deal(state)
    oracles = [copy.deepcopy(oracle)]
    facts: list[list[tuple[str, Any, int]]] = [[]]
    moves: list[tuple[int, str]] = []
    for ev in rec.events:
        if "action" not in ev:
            continue
        before = state.clone()
        action = parse_action(ev["action"])
        played = state.play(action, ev["seat"])
        facts.append(diffed_observations(before, ev["seat"], action, state))
        oracle.apply(before, ev["seat"], played, state)
        states.append(state.clone())
        oracles.append(copy.deepcopy(oracle))
        moves.append((ev["seat"], ev["action"]))
    return Round(states, facts, moves, oracles)


def expected_event(rnd: Round, v: int, seat: int | None) -> dict[str, Any]:
    st = rnd.states[v]
    n = st.n
    who, text = rnd.moves[v - 1]
    ev: dict[str, Any] = {"v": v, "seat": who, "action": text, **as_seen(rnd.facts[v], n, seat)}
    if st.is_over():
        ev["end"] = {"reason": st.end_reason.name.lower(), "scores": st.scores(),
                     "winners": st.winners(),
                     "grids": [[card_code(c) if c >= 0 else None for c in g] for g in st.grids]}
    return ev


def _code(card: int) -> str | None:
    return None if card == EMPTY else "?" if card == HIDDEN else card_code(card)


def assert_as_oracle(state: State, oracle: Oracle, seat: int | None,
                     view: dict[str, Any]) -> None:
    """The view's cards are exactly those the oracle says ``seat`` has seen."""
    expected = [[_code(c) for c in grid] for grid in oracle.grids(state, seat)]
    assert view["grids"] == expected, f"seat {seat} was shown {view['grids']}, not {expected}"
    assert view["held"] == _code(oracle.held(state, seat)), f"seat {seat}: the held card"
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
        assert_as_oracle(st, rnd.oracles[v], seat, msg["view"])
        assert msg["view"] == observe(st, seat).to_json()
        if msg["type"] == "update":
            assert msg["event"] == expected_event(rnd, v, seat)
        else:
            assert msg["log"] == [expected_event(rnd, i, seat) for i in range(1, v + 1)]
        checked += 1
    return checked
