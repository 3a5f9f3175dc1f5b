"""Golden games: seeded card rounds whose every action and final state are pinned in a file.

OpenSpiel keeps "playthroughs" for the same reason: any change to the engine (a faster
chance generator, ``Final`` constants, a native port) must leave the action streams of
seeded games exactly as they were, and a diff of the data file shows what moved.

Each game is played by bots from the registry (``random`` and ``memory``) and stored as its
full action list, a digest of the legal actions at every step, and the final state. The test
replays the stored actions on a fresh state, so it pins the engine alone; the bots only
chose the games. Regenerate (after a deliberate rules change only) with::

    .venv/bin/python -m tests.cards.golden
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from cambio.cards import Rules, State, action_text, card_code

PATH = Path(__file__).with_name("golden_games.jsonl")

HOUSE_VARIANTS: list[dict[str, Any]] = [
    {"lock_caller": True, "caller_may_snap": False},
    {"max_grid": 5, "snap_penalty": 2},
    {"empty_grid_calls_cambio": True, "one_snap_per_discard": True},
    {"earliest_cambio_turn": 4, "powers_optional": True, "resnap": "snapper_only"},
]
"""House-rule sets played on top of each preset (besides the plain preset)."""

LINEUPS = ["random", "memory", "mixed"]


def game_specs() -> list[dict[str, Any]]:
    """Every pinned game's configuration: presets x players x lineups, plus house rules."""
    specs: list[dict[str, Any]] = []
    k = 0
    for preset in ("rulebook", "house", "wikipedia"):
        for players in (2, 3, 4, 6, 8):
            for lineup in LINEUPS:
                for _ in range(2):
                    k += 1
                    specs.append({"preset": preset, "overrides": {}, "players": players,
                                  "lineup": lineup, "seed": 1000 + k * 7919,
                                  "dealer": k % players})
        for i, overrides in enumerate(HOUSE_VARIANTS):
            for players in (2, 4):
                k += 1
                specs.append({"preset": preset, "overrides": overrides, "players": players,
                              "lineup": LINEUPS[(i + players) % 3], "seed": 1000 + k * 7919,
                              "dealer": k % players})
    return specs


def bot_names(lineup: str, players: int) -> list[str]:
    if lineup == "mixed":
        return ["memory" if s % 2 == 0 else "random" for s in range(players)]
    return [lineup] * players


def new_state(spec: dict[str, Any]) -> State:
    rules = Rules.preset(spec["preset"], **spec["overrides"])
    return State(rules, spec["players"], seed=spec["seed"], dealer=spec["dealer"])


def final_facts(state: State, legal_digest: str) -> dict[str, Any]:
    """What a golden game pins beyond its actions."""
    def codes(cards: list[int]) -> list[str | None]:
        return [card_code(c) if c >= 0 else None for c in cards]

    return {
        "legal_digest": legal_digest,
        "scores": state.scores(),
        "winners": state.winners(),
        "end_reason": state.end_reason.name.lower(),
        "turn_number": state.turn_number,
        "caller": state.caller,
        "reshuffles": state.reshuffles,
        "grids": [codes(g) for g in state.grids],
        "pile": codes(state.pile),
        "deck": codes(state.deck),
    }


class LegalDigest:
    """A running digest of (seat, legal actions) at every step of a game."""

    def __init__(self) -> None:
        self._h = hashlib.blake2b(digest_size=12)

    def add(self, state: State) -> None:
        seat = state.current_player()
        self._h.update(f"{seat}:{','.join(map(str, state.legal_actions()))};".encode())

    def hexdigest(self) -> str:
        return self._h.hexdigest()


def play_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """Play one pinned game with its bots; the record to store."""
    from cambio.bots.cards import make_bot
    from cambio.cards import observe

    state = new_state(spec)
    names = bot_names(spec["lineup"], spec["players"])
    bots = [make_bot(name, spec["seed"] + seat) for seat, name in enumerate(names)]
    digest = LegalDigest()
    actions: list[str] = []
    while not state.is_over():
        digest.add(state)
        seat = state.current_player()
        action = bots[seat].act(observe(state, seat))
        actions.append(f"{seat} {action_text(action)}")
        state.apply(action, seat)
    return {**spec, "actions": actions, **final_facts(state, digest.hexdigest())}


def replay_spec(game: dict[str, Any]) -> dict[str, Any]:
    """Replay a stored game's actions on a fresh state; the same record if nothing moved."""
    from cambio.cards import parse_action

    spec = {key: game[key] for key in ("preset", "overrides", "players", "lineup", "seed",
                                        "dealer")}
    state = new_state(spec)
    digest = LegalDigest()
    for line in game["actions"]:
        seat_text, action_text_ = line.split(" ", 1)
        digest.add(state)
        state.play(parse_action(action_text_), int(seat_text))
    assert state.is_over(), "the stored actions no longer end the round"
    return {**spec, "actions": game["actions"], **final_facts(state, digest.hexdigest())}


def load() -> list[dict[str, Any]]:
    return [json.loads(line) for line in PATH.read_text().splitlines() if line]


def main() -> None:
    games = [play_spec(spec) for spec in game_specs()]
    PATH.write_text("".join(json.dumps(g, separators=(",", ":")) + "\n" for g in games))
    actions = sum(len(g["actions"]) for g in games)
    print(f"wrote {len(games)} games, {actions} actions to {PATH}")


if __name__ == "__main__":
    main()
