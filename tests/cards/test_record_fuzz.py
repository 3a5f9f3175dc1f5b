"""Mutated records through ``cambio replay``, ``replay --json`` and ``export``: every input
ends in exit 0 or exit 2 with a message naming the line (or the record), never a traceback.

The seeds are valid records of both games -- a full card record (real-time snaps), a
player's-eye export of it, a polled card record with a reshuffle-length game, a board record
with the full setup -- and hypothesis mutates them: a line replaced by any JSON value, a key
set to any JSON value (digits of other scripts, huge or negative numbers, booleans for
numbers, deep nesting), lines dropped, repeated or cut, and ``--seat`` from -2 to 9.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from functools import cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cambio.board import Rules as BoardRules
from cambio.board.setup import quick_setup
from cambio.bots.board import make_bot, play_game
from cambio.cards import Rules, State
from cambio.cards.actions import CAMBIO, SNAP, kind_of
from cambio.cli.main import app
from cambio.records import board as board_records
from cambio.records.cards import make_header, record_text


def _card_round(seed: int, polled: bool) -> str:
    rules = Rules.preset("house" if polled else "rulebook")
    state = State(rules, 3, seed=seed, polled=polled)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.current_player() if polled else rng.choice(state.actors())
        acts = state.legal_actions(seat)
        calm = [a for a in acts if kind_of(a) != SNAP and (a != CAMBIO or state.turn_number > 9)]
        state.play(rng.choice(calm if calm and rng.random() < 0.9 else acts), seat)
    return record_text(make_header(rules, 3, seed=seed, polled=polled), state.history)


@cache
def seeds() -> tuple[str, ...]:
    full = _card_round(3, polled=False)
    polled = _card_round(8, polled=True)
    eyes = _export_for(full, 1)
    rules = BoardRules(players=2)
    board = play_game(quick_setup(rules, 2), [make_bot("greedy", rules, s) for s in (1, 2)])
    return full, eyes, polled, board_records.record_text(board, ["greedy"] * 2, 2, [])


def _export_for(text: str, seat: int) -> str:
    from cambio.records.cards import export, replay
    from cambio.records.jsonl import parse_record

    return export(replay(parse_record(text)), seat)


DIGITS = "0123456789\u00b2\u00b9\u2462\u0663\u0661\uff11.-"
json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.integers(-3, 12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12), st.text(DIGITS, max_size=6),
    st.sampled_from(["draw", "discard", "swap 1", "snap 0.1", "give 0", "peek 1.2", "KD",
                     "?", "a3>", "own b2", "pass", "end", "deal"]),
)
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.sampled_from(
        ["seat", "action", "card", "deal", "end", "grids", "scores", "winners", "reason",
         "players", "view", "move", "setup", "x"]), inner, max_size=4)), max_leaves=20)
KEYS = ["seat", "action", "card", "cards", "deal", "end", "players", "view", "seed",
        "dealer", "rules", "snaps", "game", "version", "format", "deck", "move", "setup",
        "faces", "symbols", "right", "penalty", "discarded", "reshuffled"]


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, list[str]]:
    lines = draw(st.sampled_from(seeds())).splitlines()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["replace", "set", "drop", "repeat", "cut", "nest"]))
        if how == "replace":
            lines[i] = json.dumps(draw(json_value))
        elif how == "set":
            try:
                obj: Any = json.loads(lines[i])
            except (ValueError, RecursionError):
                continue
            if isinstance(obj, dict):
                flip: bool = draw(st.booleans())
                if obj and flip:
                    key = draw(st.sampled_from(sorted(obj)))
                    inner = obj[key]
                    if isinstance(inner, dict) and inner and draw(st.booleans()):
                        inner[draw(st.sampled_from(sorted(inner)))] = draw(json_value)
                    elif isinstance(inner, list) and inner and draw(st.booleans()):
                        inner[draw(st.integers(0, len(inner) - 1))] = draw(json_value)
                    else:
                        obj[key] = draw(json_value)
                else:
                    obj[draw(st.sampled_from(KEYS))] = draw(json_value)
                lines[i] = json.dumps(obj)
        elif how == "drop" and len(lines) > 1:
            del lines[i]
        elif how == "repeat":
            lines.insert(i, lines[i])
        elif how == "cut":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        elif how == "nest":
            depth = draw(st.sampled_from([50, 5000, 200_000]))
            lines[i] = "[" * depth + "]" * depth
    command = draw(st.sampled_from([["replay"], ["replay", "--json"], ["export"],
                                    ["export", "--seat"]]))
    if command[-1] == "--seat":
        command = [*command, str(draw(st.integers(-2, 9)))]
    return "\n".join(lines) + "\n", command


def _run(text: str, *args: str) -> tuple[int, str]:
    """``cambio <args[0]> <a file holding text> <args[1:]>`` in process: (exit code, stderr).
    Any exception other than the command's own exit is a traceback: it fails the test."""
    fd, path = tempfile.mkstemp(suffix=".jsonl")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        result = CliRunner().invoke(app, [args[0], path, *args[1:]])
    finally:
        os.unlink(path)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args, result.exception, text[:600])
    return result.exit_code, result.stderr


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_records_exit_0_or_2_never_a_traceback(case: tuple[str, list[str]]) -> None:
    text, command = case
    code, said = _run(text, *command)
    assert code in (0, 2), (command, code, text[:600])
    if code == 2:
        assert "invalid record: line " in said or "invalid record: record: " in said, said


def test_the_seed_records_are_valid() -> None:
    for text in seeds():
        assert _run(text, "replay", "--json")[0] == 0


def _with(text: str, line: int, change: Any) -> str:
    lines = text.splitlines()
    obj = json.loads(lines[line])
    change(obj)
    lines[line] = json.dumps(obj)
    return "\n".join(lines) + "\n"


def test_the_five_reported_kinds_of_bad_record_exit_2_naming_the_line() -> None:
    full, eyes, _, _ = seeds()
    lines = full.splitlines()
    deep = "\n".join([lines[0], "[" * 30_000 + "]" * 30_000, *lines[1:]]) + "\n"
    code, said = _run(deep, "replay")
    assert code == 2 and "line 2" in said and "nested" in said
    digits = _with(full, 2, lambda ev: ev.update(action="swap \u00b2"))
    for command in ("replay", "export"):
        code, said = _run(digits, command)
        assert code == 2 and "line 3" in said
    for seat in ("8", "-1"):
        code, said = _run(full, "export", "--seat", seat)
        assert code == 2 and f"no seat {seat}" in said
    counted = _with(eyes, 0, lambda h: h.update(players=3))
    assert _run(counted, "replay", "--json")[0] == 0
    more = _with(eyes, 1, lambda ev: ev.update(deal=ev["deal"] + [["?"] * 4]))
    code, said = _run(more, "replay")
    assert code == 2 and "line 2" in said
    ints = _with(eyes, 1, lambda ev: ev.update(deal=[[1, 2, 3, 4]] * 3))
    assert _run(ints, "replay")[0] == 2
    as_bool = _with(eyes, 0, lambda h: h.update(view=True))
    code, said = _run(as_bool, "replay")
    assert code == 2 and "line 1" in said and "view" in said
