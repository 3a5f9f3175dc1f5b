"""The solo table the browser runs offline (``cambio.server.solo``), here in CPython.

The bundle the browser loads is imported alone, with numpy, numba and the server's web stack
blocked, and plays a round against every offline bot; a solo round's messages are the ones
the server's own card session makes from the same header and actions; its record replays to
the same scores; bad settings and bad actions are refused with nothing changed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from random import Random
from typing import Any

import pytest

from cambio.cards import Rules
from cambio.games import get_game
from cambio.records.jsonl import parse_record
from cambio.server import offline
from cambio.server.server_messages import PROTOCOL as SERVER_PROTOCOL
from cambio.server.solo import SOLO_BOTS, SoloTable
from tests.support.cards_table import card_session

ALONE = r"""
import json, sys
BLOCKED = {"numpy", "numba", "starlette", "uvicorn", "orjson", "typer", "rich", "sqlite3",
           "websockets", "uvloop"}
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is not in the browser")
sys.meta_path.insert(0, Block())
sys.path[:0] = [sys.argv[1]]
from cambio.server.solo import SoloTable
for bot in ("random", "easy", "memory", "expert"):
    t = SoloTable(json.dumps({"seed": 7, "bots": [bot, bot]}))
    t.welcome()
    while not t.session.round_over():
        if t.session.decider() == 0:
            view = json.loads(t.sync())["messages"][0]["view"]
            legal = [a for a in view["legal"] if not a.startswith("snap")]
            t.act(legal[-1] if len(t.session.log) > 12 else legal[0], t.session.version)
        else:
            plan = t.plan
            t.fire(plan.turn[1] if plan.turn else next(iter(plan.polls.values())))
    print(bot, t.summary()["result"]["scores"][0])
print(sorted(m for m in sys.modules if m.startswith("cambio") or m in BLOCKED))
"""


def armed(table: SoloTable) -> list[int]:
    """The ids of the bots' timers the table has asked the page to set and not yet fired."""
    return ([table.plan.turn[1]] if table.plan.turn else []) + list(table.plan.polls.values())


def play(table: SoloTable, rng: Random) -> list[dict[str, Any]]:
    """Play the person's seat at random (Cambio after a dozen actions) and fire the bots'
    timers in turn until the round ends; every message the page would get, in order."""
    messages: list[dict[str, Any]] = json.loads(table.welcome())["messages"]
    while not table.session.round_over():
        s = table.session
        if s.decider() == 0:
            legal = [a for a in messages[-1]["view"]["legal"] if not a.startswith("snap")]
            pick = "cambio" if "cambio" in legal and s.version > 12 else rng.choice(legal)
            out = json.loads(table.act(pick, s.version))
        else:
            timers = armed(table)
            out = json.loads(table.fire(timers[0]))
        messages += out["messages"]
    return messages


def test_the_bundle_runs_alone_without_numpy_numba_or_the_web_stack(tmp_path: Path) -> None:
    bundle = tmp_path / "python.zip"
    bundle.write_bytes(offline.python_bundle())
    done = subprocess.run([sys.executable, "-I", "-c", ALONE, str(bundle)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines[:4]] == list(SOLO_BOTS)
    loaded = json.loads(lines[4].replace("'", '"'))
    assert "cambio.server.solo" in loaded
    assert not {"numpy", "numba", "starlette", "sqlite3"} & set(loaded)
    # Everything came from the zip, not from this checkout.
    assert all(rel.endswith(".py") for rel in offline.BUNDLE_MODULES)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_solo_round_is_the_game_the_servers_session_plays(seed: int) -> None:
    table = SoloTable(json.dumps({"seed": seed, "bots": ["memory", "expert"], "speed": 50,
                                  "rules": {"preset": "house", "overrides": {}}}))
    messages = play(table, Random(seed))
    welcome, state = messages[:2]
    assert welcome["type"] == "welcome" and welcome["seat"] == 0
    assert welcome["protocol"] == SERVER_PROTOCOL
    header = parse_record(table.record()).header
    # The server's card session, given the same header and the same actions.
    server = card_session(Rules.from_json(header["rules"]), 3, seed, 1, f"solo-{seed}")
    server.deal(header)
    assert state["view"] == server.view(0)
    updates = [m for m in messages if m["type"] == "update"]
    assert updates and updates[-1]["event"]["end"]["scores"]
    for msg in updates:
        applied = server.play(msg["event"]["seat"], msg["event"]["action"], server.version)
        assert applied.version == msg["version"]
        assert applied.event(0) == msg["event"]
        assert server.view(0) == msg["view"]
    assert server.round_over()
    assert messages[-1]["type"] == "table" and messages[-1]["table"]["status"] == "finished"
    # The record replays through the engine to the same scores.
    record = parse_record(table.record())
    replayed = get_game("cards").replay(record).summary()
    assert replayed["validated"] and replayed["over"]
    assert replayed["scores"] == updates[-1]["event"]["end"]["scores"]
    assert "seed" in record.header


def test_before_the_end_the_record_is_the_players_own() -> None:
    table = SoloTable(json.dumps({"seed": 4, "bots": ["random"]}))
    table.welcome()
    header = parse_record(table.record()).header
    assert header.get("view") == 0 and "seed" not in header


@pytest.mark.parametrize("settings", [
    {"bots": ["memory"]},
    {"seed": -1, "bots": ["memory"]},
    {"seed": 1, "bots": []},
    {"seed": 1, "bots": ["deep"]},
    {"seed": 1, "bots": ["memory"] * 8},
    {"seed": 1, "bots": ["memory"], "name": ""},
    {"seed": 1, "bots": ["memory"], "rules": {"preset": "nope"}},
    {"seed": 1, "bots": ["memory"], "speed": 0},
])
def test_bad_settings_are_refused(settings: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        SoloTable(json.dumps(settings))


def test_an_illegal_or_stale_action_changes_nothing() -> None:
    table = SoloTable(json.dumps({"seed": 5, "bots": ["memory"]}))
    table.welcome()
    while table.session.decider() != 0:
        timers = armed(table)
        table.fire(timers[0])
    before = (table.session.version, table.session.view(0))
    illegal = json.loads(table.act("swap 0.9", table.session.version, "r1"))["messages"]
    stale = json.loads(table.act("draw", table.session.version + 3, "r2"))["messages"]
    assert [(m["type"], m["code"], m["ref"]) for m in illegal + stale] == [
        ("error", "illegal", "r1"), ("error", "stale", "r2")]
    assert (table.session.version, table.session.view(0)) == before
    hint = json.loads(table.hint("h"))["messages"][0]
    assert hint["code"] == "not_playing"
