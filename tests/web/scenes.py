"""Real card views of every phase of a round, from the engine itself, for the layout tests.

A round is dealt by the server's own session (:class:`TurnSession`) and played with seeded random
moves until seat 0's view has been seen in each phase a decision can be in: the deal, a
turn's start, a drawn card, each power's targets, a king's decision, a snap (another
player's move, a card on the pile), a give (after a right snap), the reveal. The page under
test renders these views exactly as it renders what the server sends."""

from __future__ import annotations

import random
from typing import Any

from cambio.cards import Rules, parse_action
from cambio.cards.events import Event, Snapped
from cambio.server.turn_session import TurnSession
from tests.support.cards_table import card_session, card_state

Scene = dict[str, Any]


def _session(players: int, seed: int) -> TurnSession:
    s = card_session(Rules.preset("house"), players, seed, 2, "m")
    s.deal(s.next_header([{"name": f"p{i}"} for i in range(players)], "t"))
    return s


def _right_snap(s: TurnSession, seat: int) -> str | None:
    """A snap by ``seat`` of another player's card that would be right, if there is one
    (tried on a clone of the true state: the test knows what the seat does not)."""
    legal: list[str] = s.view(seat)["legal"]
    for text in legal:
        if not text.startswith("snap ") or text.split()[1].startswith(f"{seat}."):
            continue
        events: list[Event] = []
        card_state(s).clone().play(parse_action(text), seat, events)
        if any(isinstance(e, Snapped) and e.right for e in events):
            return text
    return None


def scenes(players: int, seed: int = 1, limit: int = 4000) -> dict[str, Scene]:
    """Seat 0's views by phase name (``deal``, ``turn_start``, ``drawn``, ``power:<kind>``,
    ``king_decide``, ``snap``, ``give``, ``reveal``), each ``{"view", "version"}``."""
    rng = random.Random(seed)
    out: dict[str, Scene] = {}
    for attempt in range(40):
        s = _session(players, seed * 100 + attempt)
        out.setdefault("deal", {"view": s.view(0), "version": 0})
        for _ in range(limit):
            if s.round_over():
                out.setdefault("reveal", {"view": s.view(0), "version": s.version})
                break
            v = s.view(0)
            legal = v["legal"]
            mine = v["actor"] == 0
            key = None
            if mine and v["phase"] == "turn_start" and v["turn_number"] > 1:
                key = "turn_start"
            elif mine and v["phase"] == "drawn":
                key = "drawn"
            elif mine and v["phase"] == "power" and v["power"]:
                key = f"power:{v['power']}"
            elif mine and v["phase"] in ("king_decide", "give"):
                key = v["phase"]
            elif not mine and any(a.startswith("snap ") for a in legal):
                key = "snap"
            if key:
                out.setdefault(key, {"view": v, "version": s.version})
            # Seat 0 snaps right when it can (to reach a give), discards powers (to use them).
            if "give" not in out and not mine and v["discard"]:
                snap = _right_snap(s, 0)
                if snap:
                    s.play(0, snap, s.version)
                    continue
            who = s.decider()
            if who is None:
                break
            options = [a for a in s.view(who)["legal"] if not a.startswith("snap ")]
            if v["turn_number"] < 12:
                options = [a for a in options if a != "cambio"] or options
            if who == 0 and "discard" in options and rng.random() < 0.8:
                choice = "discard"
            else:
                choice = rng.choice(options)
            s.play(who, choice, s.version)
        if set(PHASES) <= set(out):
            break
    return out


PHASES = ("deal", "turn_start", "drawn", "power:peek_own", "power:peek_other", "power:swap_any",
          "power:look_any_two_swap_any_two", "king_decide", "snap", "give", "reveal")
"""Every phase a decision can be in under the house rules (each power's targets), in order."""
